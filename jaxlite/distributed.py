"""``jax.distributed``: the multi-process runtime (MPI; see docs/distributed.md)."""

from jaxlite._src.sharding.distributed import (
    initialize as initialize,
    is_initialized as is_initialized,
    shutdown as shutdown,
)

__all__ = ["initialize", "is_initialized", "shutdown"]
