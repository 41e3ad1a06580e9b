"""Public ``jaxlite.scipy.stats.wrapcauchy`` (mirrors ``jax.scipy.stats.wrapcauchy``)."""

from jaxlite._src.scipy.stats_more import wrapcauchy as _d

logpdf = _d.logpdf
pdf = _d.pdf
