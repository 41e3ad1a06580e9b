"""Public ``jaxlite.scipy.integrate`` (mirrors ``jax.scipy.integrate``)."""

from jaxlite._src.scipy.integrate import trapezoid as trapezoid
