"""Public ``jaxlite.scipy.stats.multinomial`` (mirrors ``jax.scipy.stats.multinomial``)."""

from jaxlite._src.scipy.stats_discrete import multinomial as _d

logpmf = _d.logpmf
pmf = _d.pmf
