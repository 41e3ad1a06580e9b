"""``jax.experimental.mesh_utils`` and ``multihost_utils`` for the process model of
``devices.py``. In one process every helper is local; a multi-process runtime replaces the
gathers with exchanges between processes (S13.3, S14.4.2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, tree_util
from jaxlite._src.sharding import distributed as _distributed, multiprocess


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
    stacked on a new leading process axis, or concatenated along axis 0 if ``tiled``.

    Across processes each process-local leaf is gathered with MPI in process order. A
    global array spanning processes gives its global value (every process's blocks).

    Raises:
        ValueError: ``tiled=False`` with a global array spanning processes (as JAX).
    """
    comm = _distributed.communicator()

    def one(x):
        if multiprocess.spans_processes(getattr(x, "_sharding", None)):
            if not tiled:
                raise ValueError(
                    "Gathering global non-fully-addressable arrays only supports tiled=True"
                )
            return multiprocess.allgather_global(x)
        v = np.asarray(x)
        vals = [v] if comm is None else comm.allgather(v)
        if tiled:
            return np.concatenate([np.atleast_1d(u) for u in vals]) if len(vals) > 1 else v
        return np.stack(vals)

    return tree_util.tree_map(one, in_tree)


def broadcast_one_to_all(in_tree: Any, is_source: bool | None = None) -> Any:
    """Process 0's value of each leaf on every process (``multihost_utils.broadcast_one_to_all``).

    ``is_source`` (default: ``process_index() == 0``) marks the source; as in JAX the result
    is the sum of the sources' values (zeros of the same shape and dtype if none is).
    """
    comm = _distributed.communicator()
    if comm is None:
        return tree_util.tree_map(np.asarray, in_tree)
    if is_source is None:
        is_source = _devices.process_index() == 0
    flags = comm.allgather(bool(is_source))

    def one(x):
        v = np.asarray(x)
        vals = comm.allgather(v)
        out = np.zeros_like(v)
        for flag, u in zip(flags, vals):  # process order: the same result on every process
            if flag:
                out = out + u
        return out.astype(v.dtype)

    return tree_util.tree_map(one, in_tree)


def sync_global_devices(name: str) -> None:
    """A barrier across processes (``multihost_utils.sync_global_devices``); one process:
    returns at once."""
    comm = _distributed.communicator()
    if comm is not None:
        comm.Barrier()
    return None


__all__ = [
    "broadcast_one_to_all",
    "create_device_mesh",
    "process_allgather",
    "sync_global_devices",
]
