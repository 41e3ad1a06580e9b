"""Public ``jaxlite.scipy.stats.gamma`` (mirrors ``jax.scipy.stats.gamma``)."""

from jaxlite._src.scipy.stats_more import gamma as _d

cdf = _d.cdf
logcdf = _d.logcdf
logpdf = _d.logpdf
logsf = _d.logsf
pdf = _d.pdf
sf = _d.sf
