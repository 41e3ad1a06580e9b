"""Public ``jaxlite.scipy.interpolate`` (mirrors ``jax.scipy.interpolate``)."""

from jaxlite._src.scipy.interpolate import (  # noqa: F401
    RegularGridInterpolator as RegularGridInterpolator,
)
