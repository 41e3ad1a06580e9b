"""Public ``jaxlite.scipy`` (mirrors ``jax.scipy``)."""

from jaxlite.scipy import linalg as linalg, special as special, stats as stats  # noqa: F401
