"""Public ``jaxlite.experimental.shard_map`` (deprecated in JAX: use ``jax.shard_map``)."""

from jaxlite._src.sharding.shard_map_api import experimental_shard_map as shard_map

__all__ = ["shard_map"]
