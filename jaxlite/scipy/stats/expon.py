"""Public ``jaxlite.scipy.stats.expon`` (mirrors ``jax.scipy.stats.expon``)."""

from jaxlite._src.scipy.stats import expon as _d

cdf = _d.cdf
logcdf = _d.logcdf
logpdf = _d.logpdf
logsf = _d.logsf
pdf = _d.pdf
ppf = _d.ppf
sf = _d.sf
