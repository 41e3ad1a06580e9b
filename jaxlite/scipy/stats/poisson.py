"""Public ``jaxlite.scipy.stats.poisson`` (mirrors ``jax.scipy.stats.poisson``)."""

from jaxlite._src.scipy.stats_discrete import poisson as _d

cdf = _d.cdf
entropy = _d.entropy
logpmf = _d.logpmf
pmf = _d.pmf
