"""Public ``jaxlite.scipy.stats.laplace`` (mirrors ``jax.scipy.stats.laplace``)."""

from jaxlite._src.scipy.stats import laplace as _d

cdf = _d.cdf
logpdf = _d.logpdf
pdf = _d.pdf
