"""Public ``jaxlite.scipy.stats.poisson`` (mirrors ``jax.scipy.stats.poisson``)."""

from jaxlite._src.scipy_stats import poisson as _d

logpmf = _d.logpmf
pmf = _d.pmf
