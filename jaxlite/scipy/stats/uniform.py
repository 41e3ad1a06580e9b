"""Public ``jaxlite.scipy.stats.uniform`` (mirrors ``jax.scipy.stats.uniform``)."""

from jaxlite._src.scipy_stats import uniform as _d

logpdf = _d.logpdf
pdf = _d.pdf
cdf = _d.cdf
ppf = _d.ppf
