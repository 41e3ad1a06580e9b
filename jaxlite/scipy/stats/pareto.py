"""Public ``jaxlite.scipy.stats.pareto`` (mirrors ``jax.scipy.stats.pareto``)."""

from jaxlite._src.scipy.stats import pareto as _d

cdf = _d.cdf
logcdf = _d.logcdf
logpdf = _d.logpdf
logsf = _d.logsf
pdf = _d.pdf
ppf = _d.ppf
sf = _d.sf
