"""Public ``jaxlite.scipy.stats.norm`` (mirrors ``jax.scipy.stats.norm``)."""

from jaxlite._src.scipy_stats import norm as _d

logpdf = _d.logpdf
pdf = _d.pdf
cdf = _d.cdf
logcdf = _d.logcdf
sf = _d.sf
logsf = _d.logsf
ppf = _d.ppf
isf = _d.isf
