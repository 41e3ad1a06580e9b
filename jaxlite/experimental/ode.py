"""Public ``jaxlite.experimental.ode`` (mirrors ``jax.experimental.ode``)."""

from jaxlite._src.ode import odeint as odeint
