"""Public ``jaxlite.scipy.stats.betabinom`` (mirrors ``jax.scipy.stats.betabinom``)."""

from jaxlite._src.scipy.stats_discrete import betabinom as _d

logpmf = _d.logpmf
pmf = _d.pmf
