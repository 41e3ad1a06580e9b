"""``jax.pmap`` built on ``shard_map``, as JAX 0.10.2 builds it (S11).

``pmap(f)(x)`` maps ``f`` over the leading (``in_axes``) dimension of its arguments, one
device per element: a one-axis mesh over the first ``n`` devices (``n`` the mapped size),
each argument's mapped axis moved to the front and sharded over it, ``f`` called on each
device's element (the block with that axis squeezed out), results stacked back along
``out_axes``. The output is an ordinary array sharded ``P(axis_name)`` over that mesh.

Across processes (as JAX's pmap): each process passes the elements of its own devices
(mapped size = ``jax.local_device_count()``), the mesh is every process's devices in
process order, collectives span all of them, and each process gets back its own elements
(a process-local array). Under a trace (pmap inside jit) only local devices are used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jaxlite._src import devices as _devices, tree_util, util as _util
from jaxlite._src.compile.jit import jit
from jaxlite._src.core.array import ArrayImpl, to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import shape as _shape
from jaxlite._src.sharding import multiprocess
from jaxlite._src.sharding.array import ShardedArray, check_fits
from jaxlite._src.sharding.jit_shardings import with_sharding_constraint
from jaxlite._src.sharding.mesh import Mesh
from jaxlite._src.sharding.shard_map_api import shard_map
from jaxlite._src.sharding.specs import NamedSharding, PartitionSpec

_INTERNAL_AXIS = "_internal_pmap_axis_name"


def _is_none(x) -> bool:
    return x is None


def pmap(
    fun: Callable,
    axis_name: Any = None,
    *,
    in_axes: Any = 0,
    out_axes: Any = 0,
    static_broadcasted_argnums: Any = (),
    devices: Any = None,
    backend: Any = None,
    axis_size: int | None = None,
    donate_argnums: Any = (),
) -> Callable:
    """Map ``fun`` over a leading axis, one device per element (``jax.pmap``).

    Args:
        fun: the per-element function; collectives may name ``axis_name``.
        axis_name: the name of the mapped axis (for collectives).
        in_axes: an int, ``None`` (broadcast) or a pytree prefix of the arguments of these.
        out_axes: where the mapped axis goes in each output (int or prefix tree).
        static_broadcasted_argnums: positional arguments passed to every call unchanged.
        devices: the devices to use (default: the first ``n`` of ``jax.devices()``).
        axis_size: the mapped size when no argument is mapped.

    Returns:
        The mapped function; outputs are sharded over a one-axis mesh of the devices.

    Raises:
        ValueError: when the mapped sizes disagree, or (``IndivisibleError``) the mapped
            size exceeds the device count.
    """
    if isinstance(static_broadcasted_argnums, int):
        static_broadcasted_argnums = (static_broadcasted_argnums,)
    statics = frozenset(static_broadcasted_argnums)
    name = axis_name if axis_name is not None else _INTERNAL_AXIS

    @_util.wraps(fun)
    def wrapped(*args, **kwargs):
        dyn_pos = [i for i in range(len(args)) if i not in statics]
        dyn = tuple(args[i] for i in dyn_pos)
        if isinstance(in_axes, list):
            axes_spec = tuple(in_axes)
        else:
            axes_spec = in_axes
        if isinstance(axes_spec, tuple) and len(axes_spec) == len(args) and statics:
            axes_spec = tuple(axes_spec[i] for i in dyn_pos)
        leaves, treedef = tree_util.tree_flatten(dyn)
        if axes_spec is None or isinstance(axes_spec, int):
            axes = [axes_spec] * len(leaves)
        else:
            axes = tree_util.broadcast_prefix(axes_spec, dyn, is_leaf=_is_none)
        # Keyword arguments are always mapped over their leading axis (as in JAX).
        kw_leaves, kw_tree = tree_util.tree_flatten(kwargs)
        n_pos = len(leaves)
        leaves, axes = leaves + kw_leaves, list(axes) + [0] * len(kw_leaves)
        if any(a is not None for a in axes) and all(
            isinstance(x, (bool, int, float, complex))
            for x, a in zip(leaves, axes)
            if a is not None
        ):
            raise ValueError("pmap requires at least one argument with a mapped axis.")
        leaves = [to_array(x) for x in leaves]
        for i, (x, a) in enumerate(zip(leaves, axes)):
            if a is not None and x.ndim == 0:
                raise ValueError(
                    f"One of pjit arguments with pytree key path flat_args[{i}] is "
                    "incompatible with its sharding annotation: a mapped pmap argument "
                    "must have rank at least 1, but was applied to a value of rank 0."
                )
        sizes = {aval_of(x).shape[a] for x, a in zip(leaves, axes) if a is not None}
        if len(sizes) > 1:
            raise ValueError(
                f"pmap got inconsistent sizes for array axes to be mapped: {sorted(sizes)}"
            )
        n = sizes.pop() if sizes else axis_size
        if n is None:
            raise ValueError("pmap requires at least one mapped argument or an axis_size")
        procs = _devices.process_count()
        multi = (
            procs > 1
            and devices is None
            and all(isinstance(x, ArrayImpl) for x in leaves)
            and not any(multiprocess.is_local_only(x) for x in leaves)
        )
        if multi:
            devs = _devices.devices()[: max(1, n) * procs]
        elif procs > 1 and devices is None:
            devs = _devices.local_devices()[: max(1, n)]
        else:
            devs = list(devices) if devices is not None else _devices.devices()[: max(1, n)]
        mesh = Mesh(devs, (name,))
        moved = []
        for x, a in zip(leaves, axes):
            if a is None:
                moved.append(x)
                continue
            x = _shape.moveaxis(x, a % x.ndim, 0) if a % x.ndim != 0 else x
            if multi:
                x = multiprocess.global_from_local(NamedSharding(mesh, PartitionSpec(name)), x)
            check_fits(NamedSharding(mesh, PartitionSpec(name)), aval_of(x))
            moved.append(x)
        if multi:
            n = n * procs
        if n != len(devs):
            raise ValueError(
                f"compiling computation that requires {n} logical devices, but only "
                f"{len(devs)} devices are available (num_replicas={n})"
            )
        mapped = [a is not None for a in axes]
        store = {}

        def body(*blocks):
            vals = [_shape.squeeze(b, (0,)) if m else b for b, m in zip(blocks, mapped)]
            dyn_args = tree_util.tree_unflatten(treedef, vals[:n_pos])
            kw = tree_util.tree_unflatten(kw_tree, vals[n_pos:])
            it = iter(dyn_args)
            full = [args[i] if i in statics else next(it) for i in range(len(args))]
            out = fun(*full, **kw)
            flat, store["tree"] = tree_util.tree_flatten(out)
            return [_shape.expand_dims(to_array(o), (0,)) for o in flat]

        in_specs = tuple(PartitionSpec(name) if m else PartitionSpec() for m in mapped)
        sm = shard_map(
            body, mesh=mesh, in_specs=in_specs, out_specs=PartitionSpec(name), check_vma=False
        )
        outs = jit(sm)(*moved)
        if multi:
            outs = [multiprocess.local_part(o) for o in outs]
        out_tree = store["tree"]
        if isinstance(out_axes, int):
            o_axes = [out_axes] * len(outs)
        else:
            o_axes = tree_util.broadcast_prefix(
                out_axes, tree_util.tree_unflatten(out_tree, outs), is_leaf=_is_none
            )
        final = []
        for o, a in zip(outs, o_axes):
            if a is None:
                final.append(_shape.squeeze(_shape.slice_in_dim(o, 0, 1, axis=0), (0,)))
                continue
            a = a % o.ndim
            if a != 0:
                o = _shape.moveaxis(o, 0, a)
            if not multi:
                # The mapped axis stays split over the devices wherever it now is.
                spec = PartitionSpec(*([None] * a), name)
                o = with_sharding_constraint(o, NamedSharding(mesh, spec))
            final.append(o)
        return tree_util.tree_unflatten(out_tree, final)

    def lower(*args, **kwargs):
        """``pmap(f).lower(*args)``: ahead-of-time lowering (a ``Lowered``, as ``jit``'s;
        its ``compile()`` runs the mapped function)."""
        return jit(wrapped, static_argnums=tuple(sorted(statics))).lower(*args, **kwargs)

    wrapped.lower = lower
    return wrapped


__all__ = ["pmap"]
