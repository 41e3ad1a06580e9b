"""Public ``jaxlite.scipy.stats.bernoulli`` (mirrors ``jax.scipy.stats.bernoulli``)."""

from jaxlite._src.scipy.stats_discrete import bernoulli as _d

cdf = _d.cdf
logpmf = _d.logpmf
pmf = _d.pmf
ppf = _d.ppf
