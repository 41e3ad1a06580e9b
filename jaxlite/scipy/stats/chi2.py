"""Public ``jaxlite.scipy.stats.chi2`` (mirrors ``jax.scipy.stats.chi2``)."""

from jaxlite._src.scipy.stats_more import chi2 as _d

cdf = _d.cdf
logcdf = _d.logcdf
logpdf = _d.logpdf
logsf = _d.logsf
pdf = _d.pdf
sf = _d.sf
