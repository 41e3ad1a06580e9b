"""Public ``jaxlite.scipy.stats.logistic`` (mirrors ``jax.scipy.stats.logistic``)."""

from jaxlite._src.scipy.stats import logistic as _d

cdf = _d.cdf
isf = _d.isf
logpdf = _d.logpdf
pdf = _d.pdf
ppf = _d.ppf
sf = _d.sf
