"""Public ``jaxlite.experimental.multihost_utils`` (mirrors JAX's; one process here)."""

from jaxlite._src.sharding.multihost import (
    broadcast_one_to_all as broadcast_one_to_all,
    process_allgather as process_allgather,
    sync_global_devices as sync_global_devices,
)

__all__ = ["broadcast_one_to_all", "process_allgather", "sync_global_devices"]
