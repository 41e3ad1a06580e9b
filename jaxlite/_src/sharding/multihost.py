"""``jax.experimental.mesh_utils`` and ``multihost_utils`` for the process model of
``devices.py``. In one process every helper is local; a multi-process runtime replaces the
gathers with exchanges between processes (S13.3, S14.4.2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, tree_util


def create_device_mesh(
    mesh_shape: Sequence[int],
    devices: Sequence[Any] | None = None,
    *,
    contiguous_submeshes: bool = False,
    allow_split_physical_axes: bool = False,
) -> np.ndarray:
    """An object ndarray of devices of shape ``mesh_shape`` (``mesh_utils.create_device_mesh``).

    Raises:
        ValueError: if the device count differs from the mesh size.
    """
    devs = list(_devices.devices() if devices is None else devices)
    shape = tuple(int(s) for s in mesh_shape)
    if len(devs) != math.prod(shape):
        raise ValueError(
            f"Number of devices {len(devs)} must equal the product of mesh_shape {shape}"
        )
    out = np.empty(len(devs), dtype=object)
    for i, d in enumerate(devs):
        out[i] = d
    return out.reshape(shape)


def process_allgather(in_tree: Any, tiled: bool = False) -> Any:
    """Every process's value of each leaf, as NumPy (``multihost_utils.process_allgather``):
    stacked on a new leading process axis, or concatenated along axis 0 if ``tiled``."""
    n = _devices.process_count()

    def one(x):
        v = np.asarray(x)
        if tiled:
            return v
        return np.stack([v] * n)

    return tree_util.tree_map(one, in_tree)


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """Process 0's value of each leaf on every process (one process: the value)."""
    return tree_util.tree_map(np.asarray, in_tree)


def sync_global_devices(name: str) -> None:
    """A barrier across processes (one process: returns at once)."""
    return None


__all__ = [
    "broadcast_one_to_all",
    "create_device_mesh",
    "process_allgather",
    "sync_global_devices",
]
