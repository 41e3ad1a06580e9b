"""Public ``jaxlite.scipy.stats.beta`` (mirrors ``jax.scipy.stats.beta``)."""

from jaxlite._src.scipy_stats import beta as _d

logpdf = _d.logpdf
pdf = _d.pdf
