"""Public ``jaxlite.scipy.stats.cauchy`` (mirrors ``jax.scipy.stats.cauchy``)."""

from jaxlite._src.scipy_stats import cauchy as _d

logpdf = _d.logpdf
pdf = _d.pdf
