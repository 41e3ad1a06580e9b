"""Public ``jaxlite.scipy.stats.binom`` (mirrors ``jax.scipy.stats.binom``)."""

from jaxlite._src.scipy.stats_discrete import binom as _d

logpmf = _d.logpmf
pmf = _d.pmf
