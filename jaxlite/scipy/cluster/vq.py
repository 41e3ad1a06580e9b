"""Public ``jaxlite.scipy.cluster.vq`` (mirrors ``jax.scipy.cluster.vq``)."""

from jaxlite._src.scipy.cluster import vq as vq  # noqa: F401
