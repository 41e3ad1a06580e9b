"""``jax.experimental.mesh_utils`` and ``multihost_utils`` for the process model of
``devices.py``. In one process every helper is local; a multi-process runtime replaces the
gathers with exchanges between processes (S13.3, S14.4.2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, dtypes, tree_util
from jaxlite._src.core.array import Array, to_array
from jaxlite._src.core.trace import eval_trace, trace_ctx
from jaxlite._src.sharding import array as _arr, distributed as _distributed, multiprocess
from jaxlite._src.sharding.constructors import make_array_from_process_local_data
from jaxlite._src.sharding.specs import NamedSharding, PartitionSpec


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


def assert_equal(in_tree: Any, fail_message: str = "") -> None:
    """Check that every process holds the same values (``multihost_utils.assert_equal``).

    Args:
      in_tree: a pytree of arrays or scalars, the same structure on every process.
      fail_message: the start of the ``AssertionError``'s message.

    Raises:
      AssertionError: ``"{fail_message}. Expected: {gathered}; got: {in_tree}."`` if some
        process's leaf differs (``gathered``: every process's values, concatenated along
        axis 0, as ``process_allgather(tiled=True)`` gives them).
    """
    n = _devices.process_count()

    def expected(x):
        if multiprocess.spans_processes(getattr(x, "_sharding", None)):
            return np.asarray(x.addressable_data(0))
        return np.concatenate([np.atleast_1d(np.asarray(x))] * n)

    out = process_allgather(in_tree, tiled=True)
    want = tree_util.tree_map(expected, in_tree)
    same = tree_util.tree_map(lambda a, b: bool(np.all(np.equal(a, b))), want, out)
    if not all(tree_util.tree_leaves(same)):
        raise AssertionError(f"{fail_message}. Expected: {out}; got: {in_tree}.")


def _flat_pspecs(what: str, tree: Any, pspecs: Any) -> list:
    """``pspecs`` (a ``PartitionSpec`` or a pytree prefix of ``tree`` of them) per leaf."""
    if isinstance(pspecs, PartitionSpec) or pspecs is None:
        return [pspecs] * len(tree_util.tree_leaves(tree))
    try:
        return tree_util.broadcast_prefix(
            pspecs, tree, is_leaf=lambda x: x is None or isinstance(x, PartitionSpec)
        )
    except ValueError as e:
        raise ValueError(
            f"{what} specification must be a tree prefix of the inputs' pytree: {e}"
        ) from None


def _check_pspec(pspec: Any) -> None:
    if pspec is None:
        raise ValueError(
            "`None` is not a valid input to the pspecs argument. Please use "
            "jax.sharding.PartitionSpec() if you wanted to replicate your input."
        )


def _staged(name: str, x: Any) -> Any:
    """Under a transformation the value passes through unchanged (JAX lowers both
    conversions to the identity); across processes the local and global shapes differ,
    which jaxlite does not model under a transformation."""
    if _devices.process_count() > 1:
        raise NotImplementedError(
            f"multihost_utils.{name} under a transformation (jit, grad, vmap) across "
            "processes is not supported in jaxlite; call it outside the transformation"
        )
    return x


def _to_global(x: Any, mesh: Any, pspec: Any) -> Any:
    _check_pspec(pspec)
    if trace_ctx.trace is not eval_trace:
        return _staged("host_local_array_to_global_array", to_array(x))
    if multiprocess.spans_processes(getattr(x, "_sharding", None)):
        return x  # already global
    if not isinstance(x, Array):
        x = np.asarray(x, dtype=dtypes.canonicalize_dtype(np.asarray(x).dtype))
    elif _devices.process_count() == 1:
        return _arr.device_put(x, NamedSharding(mesh, pspec))  # PRNG keys included
    return make_array_from_process_local_data(NamedSharding(mesh, pspec), x)


def _to_local(x: Any, mesh: Any, pspec: Any) -> Any:
    _check_pspec(pspec)
    if trace_ctx.trace is not eval_trace:
        return _staged("global_array_to_host_local_array", to_array(x))
    sharding = getattr(x, "_sharding", None)
    if isinstance(x, Array) and not multiprocess.spans_processes(sharding):
        return x  # fully addressable: already this process's
    if not isinstance(x, Array):
        x = np.asarray(x, dtype=dtypes.canonicalize_dtype(np.asarray(x).dtype))
        return _arr.device_put(x, NamedSharding(mesh.local_mesh, pspec))
    target = NamedSharding(mesh, pspec)
    shape = tuple(x.aval.shape)
    if not sharding.is_equivalent_to(target, len(shape)):
        raise NotImplementedError(
            "global_array_to_host_local_array of an array spanning processes whose sharding "
            f"is not {target} (a resharding across processes) is not supported in jaxlite; "
            "reshard it with jax.jit(..., out_shardings=...) first"
        )
    return multiprocess.local_part(x, target)


def host_local_array_to_global_array(local_inputs: Any, global_mesh: Any, pspecs: Any) -> Any:
    """Each process's local data as a global array over ``global_mesh``
    (``multihost_utils.host_local_array_to_global_array``).

    In one process the local data is the global value: each leaf is placed by
    ``NamedSharding(global_mesh, pspec)``. Across processes each process's leaf becomes its
    part (``jax.make_array_from_process_local_data``); a leaf already spanning processes is
    returned as it is. Under ``jit``/``grad``/``vmap`` the value passes through unchanged.

    Args:
      local_inputs: a pytree of arrays (NumPy or jaxlite).
      global_mesh: the ``Mesh`` of the result.
      pspecs: a ``PartitionSpec`` or a pytree prefix of ``local_inputs`` of them.

    Returns:
      The pytree of global arrays.

    Raises:
      ValueError: a ``None`` pspec (use ``PartitionSpec()`` to replicate), a pspec tree that
        is not a prefix of the inputs, or a spec that does not divide a leaf's shape.
    """
    leaves, treedef = tree_util.tree_flatten(local_inputs)
    specs = _flat_pspecs("input pspecs", local_inputs, pspecs)
    return treedef.unflatten([_to_global(x, global_mesh, p) for x, p in zip(leaves, specs)])


def global_array_to_host_local_array(global_inputs: Any, global_mesh: Any, pspecs: Any) -> Any:
    """This process's part of each global array
    (``multihost_utils.global_array_to_host_local_array``).

    An array every block of which this process holds is returned as it is (in one process:
    every array); a NumPy leaf is placed by ``pspec`` on the process's part of the mesh.
    Under ``jit``/``grad``/``vmap`` the value passes through unchanged.

    Args:
      global_inputs: a pytree of global arrays.
      global_mesh: the ``Mesh`` they are sharded over.
      pspecs: a ``PartitionSpec`` or a pytree prefix of ``global_inputs`` of them.

    Returns:
      The pytree of process-local arrays.

    Raises:
      ValueError: as ``host_local_array_to_global_array``.
    """
    leaves, treedef = tree_util.tree_flatten(global_inputs)
    specs = _flat_pspecs("output pspecs", global_inputs, pspecs)
    return treedef.unflatten([_to_local(x, global_mesh, p) for x, p in zip(leaves, specs)])


__all__ = [
    "assert_equal",
    "broadcast_one_to_all",
    "create_device_mesh",
    "global_array_to_host_local_array",
    "host_local_array_to_global_array",
    "process_allgather",
    "sync_global_devices",
]
