"""Building sharded arrays from per-device pieces, and ``reshard`` (S8.4, S13.3).

In one process the pieces become the array's per-device buffers
(``ShardedArray.from_buffers``). Across processes (S13.3) they take only this process's
pieces (its addressable devices) and build a local-only array (``multiprocess``): a
global-shape buffer in which only this process's blocks are filled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.trace import eval_trace, trace_ctx
from jaxlite._src.sharding import array as _arr, multiprocess
from jaxlite._src.sharding.explicit import sharding_constraint_p
from jaxlite._src.sharding.mesh import AbstractMesh, AxisType, concrete_mesh, get_mesh
from jaxlite._src.sharding.specs import (
    NamedSharding,
    PartitionSpec,
    Sharding,
    entry_names,
    padded,
)


def _assemble(shape, sharding: Sharding, piece: Callable, dtype=None) -> _arr.ShardedArray:
    """An array of ``shape`` from ``piece(dev, idx)``, asked for each addressable device: in
    one process the pieces are the array's per-device buffers; across processes they fill
    a local-only array's blocks (``multiprocess``)."""
    shape = tuple(shape)
    spans = multiprocess.spans_processes(sharding)
    want = tuple(sharding.shard_shape(shape))
    bufs, out, dt = {}, None, None
    for dev, idx in sharding.addressable_devices_indices_map(shape).items():
        block = np.asarray(piece(dev, idx))
        if dt is None:
            dt = dtypes.canonicalize_dtype(dtype if dtype is not None else block.dtype)
        if block.shape != want:
            raise ValueError(
                f"Expected shard shape {want} doesn't match the single device array shape "
                f"{block.shape}. Shape of Array is {_arr._type_str(ShapedArray(shape, dt))} "
                f"with sharding {sharding}"
            )
        if spans:
            if out is None:
                out = np.zeros(shape, dt)
            out[idx] = block
        else:
            bufs[dev] = np.array(block, dtype=dt)
    if dt is None:
        dt = dtypes.canonicalize_dtype(dtype or np.float32)
    aval = ShapedArray(shape, dt, False)
    if spans:
        out = np.zeros(shape, dt) if out is None else out
        return _arr.ShardedArray(out, aval, sharding, True)
    return _arr.ShardedArray.from_buffers(bufs, aval, sharding, True)


def make_array_from_callback(
    shape: Sequence[int], sharding: Sharding, data_callback: Callable, dtype=None
):
    """``jax.make_array_from_callback``: ``data_callback(index)`` gives each device's block.

    Across processes the callback is called only for this process's devices (S13.3).
    """
    return _assemble(shape, sharding, lambda dev, idx: data_callback(idx), dtype)


def make_array_from_single_device_arrays(
    shape: Sequence[int], sharding: Sharding, arrays: Sequence[Any], *, dtype=None
):
    """``jax.make_array_from_single_device_arrays``: one array per device, in the order of
    ``sharding.addressable_devices_indices_map(shape)``.

    Raises:
        ValueError: if the number of arrays differs from the number of devices.
    """
    devs = list(sharding.addressable_devices_indices_map(tuple(shape)))
    if len(arrays) != len(devs):
        raise ValueError(
            f"The sharding has {len(devs)} addressable devices but {len(arrays)} arrays were given."
        )
    by_dev = dict(zip(devs, arrays))
    return _assemble(shape, sharding, lambda dev, idx: by_dev[dev], dtype)


def make_array_from_process_local_data(sharding: Sharding, local_data: Any, global_shape=None):
    """``jax.make_array_from_process_local_data``: a global array from each process's part.

    In one process the local data is the global value. Across processes (S13.3) each
    process passes the block its devices hold under ``sharding`` (for ``P('i')`` over 2
    processes x 2 devices, the first or second half); ``global_shape`` defaults to the
    local shape scaled by the number of processes along each sharded dimension.

    Raises:
        ValueError: if ``local_data`` does not have the shape of this process's part.
    """
    value = np.asarray(local_data)
    if multiprocess.spans_processes(sharding):
        out, shape = multiprocess.from_process_local(sharding, value, global_shape)
        aval = ShapedArray(shape, dtypes.canonicalize_dtype(out.dtype), False)
        return _arr.ShardedArray(out.astype(aval.dtype, copy=False), aval, sharding, True)
    if global_shape is not None and tuple(global_shape) != value.shape:
        raise ValueError(
            f"global_shape {tuple(global_shape)} does not match the local data's shape "
            f"{value.shape} in a single process"
        )
    return _arr.device_put(value, sharding)


def _reshard_target(s):
    if isinstance(s, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise ValueError(
                "Using PartitionSpec when you are not under a mesh context is not allowed. "
                "Please pass a NamedSharding instance or enter into a mesh context via "
                f"`jax.set_mesh`. Got {s}"
            )
        s = NamedSharding(mesh, s)
    if isinstance(s, NamedSharding):
        for e in s.spec:
            for n in entry_names(e):
                t = s.mesh.axis_type_of(n)
                if t != AxisType.Explicit:
                    raise ValueError(
                        "PartitionSpec passed to reshard cannot contain axis names that are of "
                        f"type Auto or Manual. Got PartitionSpec: {s.spec} with axis name: {n} "
                        f"of type: AxisType.{t.name}."
                    )
    return s


def reshard(xs: Any, out_shardings: Any):
    """``jax.reshard``: move ``xs`` (a pytree) to ``out_shardings`` over Explicit axes.

    Raises:
        ValueError: for a ``P`` without a mesh context, or a spec naming Auto/Manual axes.
    """
    leaves, treedef = tree_util.tree_flatten(xs)
    if out_shardings is None or isinstance(out_shardings, (Sharding, PartitionSpec)):
        targets = [out_shardings] * len(leaves)
    else:
        targets = tree_util.broadcast_prefix(
            out_shardings, xs, is_leaf=lambda t: isinstance(t, (Sharding, PartitionSpec))
        )
    out = []
    for x, t in zip(leaves, targets):
        s = _reshard_target(t)
        nd = len(getattr(x, "shape", ()))
        if isinstance(s, NamedSharding) and len(s.spec) < nd:
            # As in JAX, the result's spec has one entry per dimension.
            s = NamedSharding(s.mesh, PartitionSpec(*padded(s.spec, nd)))
        if trace_ctx.trace is eval_trace:
            if isinstance(s, NamedSharding) and isinstance(s.mesh, AbstractMesh):
                own = _arr.sharding_of(x).device_set
                aval = ShapedArray(np.shape(x), dtypes.result_type(x))
                s = NamedSharding(concrete_mesh(s.mesh, own, aval), s.spec)
            out.append(_arr.place(x, s))
        else:
            out.append(sharding_constraint_p.bind(x, sharding=s))
    return tree_util.tree_unflatten(treedef, out)


_DEPRECATED = {
    "device_put_sharded": "jax.device_put_sharded is deprecated; use jax.device_put instead. "
    "See https://docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements for a drop-in "
    "replacement.",
    "device_put_replicated": "jax.device_put_replicated is deprecated; use jax.device_put "
    "instead. See https://docs.jax.dev/en/latest/migrate_pmap.html#drop-in-replacements for a "
    "drop-in replacement.",
}

__all__ = [
    "make_array_from_callback",
    "make_array_from_process_local_data",
    "make_array_from_single_device_arrays",
    "reshard",
]
