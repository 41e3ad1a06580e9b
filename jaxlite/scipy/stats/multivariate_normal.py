"""Public ``jaxlite.scipy.stats.multivariate_normal`` (mirrors
``jax.scipy.stats.multivariate_normal``)."""

from jaxlite._src.scipy.stats import multivariate_normal as _d

logpdf = _d.logpdf
pdf = _d.pdf
