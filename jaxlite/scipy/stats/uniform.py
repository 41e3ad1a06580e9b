"""Public ``jaxlite.scipy.stats.uniform`` (mirrors ``jax.scipy.stats.uniform``)."""

from jaxlite._src.scipy.stats import uniform as _d

cdf = _d.cdf
logpdf = _d.logpdf
pdf = _d.pdf
ppf = _d.ppf
