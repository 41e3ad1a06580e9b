"""Public ``jaxlite.scipy.stats.gamma`` (mirrors ``jax.scipy.stats.gamma``)."""

from jaxlite._src.scipy_stats import gamma as _d

logpdf = _d.logpdf
pdf = _d.pdf
