"""Public ``jaxlite.scipy`` (mirrors ``jax.scipy``)."""

from jaxlite.scipy import special as special  # noqa: F401
