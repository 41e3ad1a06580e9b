"""Public ``jaxlite.scipy.stats.logistic`` (mirrors ``jax.scipy.stats.logistic``)."""

from jaxlite._src.scipy_stats import logistic as _d

logpdf = _d.logpdf
pdf = _d.pdf
cdf = _d.cdf
ppf = _d.ppf
