"""``jax.custom_batching``: functions with user-defined vmap rules."""

from jaxlite._src.custom_batching import (  # noqa: F401
    custom_vmap as custom_vmap,
    sequential_vmap as sequential_vmap,
)

__all__ = ["custom_vmap", "sequential_vmap"]
