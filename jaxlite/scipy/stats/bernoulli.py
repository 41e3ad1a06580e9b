"""Public ``jaxlite.scipy.stats.bernoulli`` (mirrors ``jax.scipy.stats.bernoulli``)."""

from jaxlite._src.scipy_stats import bernoulli as _d

logpmf = _d.logpmf
pmf = _d.pmf
