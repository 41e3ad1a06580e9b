"""Public ``jaxlite.scipy.stats.gennorm`` (mirrors ``jax.scipy.stats.gennorm``)."""

from jaxlite._src.scipy.stats_more import gennorm as _d

cdf = _d.cdf
logpdf = _d.logpdf
pdf = _d.pdf
