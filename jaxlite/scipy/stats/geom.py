"""Public ``jaxlite.scipy.stats.geom`` (mirrors ``jax.scipy.stats.geom``)."""

from jaxlite._src.scipy.stats_discrete import geom as _d

logpmf = _d.logpmf
pmf = _d.pmf
