"""Public ``jaxlite.scipy.stats.expon`` (mirrors ``jax.scipy.stats.expon``)."""

from jaxlite._src.scipy_stats import expon as _d

logpdf = _d.logpdf
pdf = _d.pdf
