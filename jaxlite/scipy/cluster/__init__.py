"""Public ``jaxlite.scipy.cluster`` (mirrors ``jax.scipy.cluster``)."""

from jaxlite.scipy.cluster import vq as vq  # noqa: F401
