"""Public ``jaxlite.scipy.optimize`` (mirrors ``jax.scipy.optimize``)."""

from jaxlite._src.scipy.optimize import (  # noqa: F401
    OptimizeResults as OptimizeResults,
    minimize as minimize,
)
