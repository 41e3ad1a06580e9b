"""Public ``jaxlite.scipy.stats.truncnorm`` (mirrors ``jax.scipy.stats.truncnorm``)."""

from jaxlite._src.scipy.stats_more import truncnorm as _d

cdf = _d.cdf
logcdf = _d.logcdf
logpdf = _d.logpdf
logsf = _d.logsf
pdf = _d.pdf
sf = _d.sf
