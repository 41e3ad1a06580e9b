"""Public ``jaxlite.scipy.stats.gumbel_r`` (mirrors ``jax.scipy.stats.gumbel_r``)."""

from jaxlite._src.scipy.stats import gumbel_r as _d

cdf = _d.cdf
logcdf = _d.logcdf
logpdf = _d.logpdf
logsf = _d.logsf
pdf = _d.pdf
ppf = _d.ppf
sf = _d.sf
