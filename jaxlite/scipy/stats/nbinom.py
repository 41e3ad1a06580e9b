"""Public ``jaxlite.scipy.stats.nbinom`` (mirrors ``jax.scipy.stats.nbinom``)."""

from jaxlite._src.scipy.stats_discrete import nbinom as _d

logpmf = _d.logpmf
pmf = _d.pmf
