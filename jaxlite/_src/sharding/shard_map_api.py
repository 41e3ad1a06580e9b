"""``jax.shard_map``: the front end (S9) — spec checks, body tracing, the check_vma test.

The Python body is traced once, to a jaxpr over per-device blocks, with the manual axes
bound (so collectives see their names); eagerly and under ``jit`` alike (S9.8). Execution
is ``shard_map_p`` (``shard_map.py``).

check_vma: every value's type carries its *varying manual axes* (``ShapedArray.vma``), set
while the body is traced: inputs vary along the axes their spec names, constants along
none, standard primitives take the union of their operands' (an invariant operand meeting a
varying one gets an implicit ``pvary``, whose transpose is a psum: so ``grad`` with respect
to a replicated input sums over devices, S16.5), and the collectives change the set
(S10.3). A result whose set holds an axis its out_spec does not name raises JAX's error;
results are then cast (``pvary``) to vary along every axis their spec names.
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable
from typing import Any

from jaxlite._src import tree_util
from jaxlite._src.compile.jit import closure_convert_consts
from jaxlite._src.core.array import Array, to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.trace import eval_trace, trace_ctx
from jaxlite._src.interpreters.staging import check_output_leaf, trace_to_jaxpr
from jaxlite._src.ops import spmd
from jaxlite._src.sharding import array as _arr
from jaxlite._src.sharding.array import _type_str
from jaxlite._src.sharding.explicit import sharding_of_value
from jaxlite._src.sharding.mesh import AbstractMesh, AxisType, Mesh, get_mesh
from jaxlite._src.sharding.shard_map import (
    block_aval,
    match_out_vma,
    run_sharded,
    shard_map_p,
    spec_axes,
)
from jaxlite._src.sharding.specs import NamedSharding, PartitionSpec, entry_names, padded


class _InferType:
    def __repr__(self):
        return "jax.sharding.Infer"


Infer = _InferType()


# ------------------------------------------------------------------------- errors
def _fun_name(f) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _param_name(f, i: int):
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return None
    if i < len(params) and params[i].kind in (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    ):
        return params[i].name
    return None


def _arg_desc(f, path: str, i: int) -> str:
    pname = _param_name(f, i)
    bound = f", where {path} is bound to {_fun_name(f)}'s parameter '{pname}'" if pname else ""
    return bound


def _check_spec_leaf(spec, what: str, key: str, manual: frozenset) -> None:
    if not isinstance(spec, PartitionSpec):
        raise TypeError(
            f"shard_map {what} argument must be a pytree of `jax.sharding.PartitionSpec` "
            f"instances, but:\n\n  {what}{key} is {spec} of type {type(spec).__name__}, \n\n"
            f"Check the {what} values passed to shard_map."
        )
    for n in (a for e in spec for a in entry_names(e)):
        if n not in manual:
            raise ValueError(
                f"shard_map {what} argument must refer to an axis marked as manual "
                f"({frozenset(manual)}), but:\n\n  {what} refers to {n!r}\n\n"
                f"Check the {what} values passed to shard_map."
            )


def _prefix(specs, tree, what: str) -> list:
    """Broadcast a spec prefix over ``tree``'s leaves (None leaves: static)."""
    try:
        return tree_util.broadcast_prefix(
            specs, tree, is_leaf=lambda x: x is None or isinstance(x, PartitionSpec)
        )
    except ValueError as e:
        raise ValueError(f"pytree structure error: {e}\n    shard_map {what}") from None


def _mesh_shape_text(mesh) -> str:
    return (
        f"The mesh given has shape {tuple(mesh.axis_sizes)} with corresponding axis names "
        f"{tuple(mesh.axis_names)}."
    )


def _check_in(f, mesh, spec, aval, path: str, argnum: int) -> None:
    name = _fun_name(f)
    bound = _arg_desc(f, path, argnum)
    if len(spec) > aval.ndim:
        raise ValueError(
            f"shard_map applied to the function '{name}' was given an in_specs entry which is "
            "too long to be compatible with the corresponding input value from the function:"
            f"\n\nin_specs is {spec} which has length {len(spec)}, but the passed {path}{bound}, "
            f"has shape {_type_str(aval)}, which has rank {aval.ndim} (and {aval.ndim} < "
            f"{len(spec)})\n\nEntries in in_specs must be of length no greater than the number "
            "of axes in the corresponding input value.\n\nEither revise the spec to be shorter, "
            f"or modify '{name}' so that its inputs have sufficient rank."
        )
    for d, (n, e) in enumerate(zip(aval.shape, padded(spec, aval.ndim))):
        names = entry_names(e)
        k = 1
        for a in names:
            k *= mesh.shape[a]
        if n % k:
            axes = names[0] if len(names) == 1 else names
            raise ValueError(
                f"shard_map applied to the function '{name}' was given argument arrays with "
                "axis sizes that are not evenly divisible by the corresponding mesh axis sizes:"
                f"\n\n{_mesh_shape_text(mesh)}\n\nthe passed {path} of shape {_type_str(aval)}"
                f"{bound}, corresponds to in_specs of value {spec}, which maps array axis {d} "
                f"(of size {n}) to mesh axis {axes!r} (of size {k}), but {k} does not evenly "
                f"divide {n}\n\nArray arguments' axis sizes must be evenly divisible by the mesh "
                "axis or axes indicated by the corresponding elements of the argument's in_specs "
                "entry. Consider checking that in_specs are correct, and if so consider changing "
                f"the mesh axis sizes or else padding the input and adapting '{name}' "
                "appropriately."
            )


def _check_out_rank(f, spec, aval) -> None:
    if len(spec) > aval.ndim:
        name = _fun_name(f)
        raise ValueError(
            f"shard_map applied to the function '{name}' was given an out_specs entry which is "
            "too long to be compatible with the corresponding output value from the function:"
            f"\n\nout_specs is {spec} which has length {len(spec)}, but {name}(*args) has shape "
            f"{_type_str(aval)}, which has rank {aval.ndim} (and {aval.ndim} < {len(spec)})\n\n"
            "Entries in out_specs must be of length no greater than the number of axes in the "
            "corresponding output value.\n\nEither revise the spec to be shorter, or modify "
            f"'{name}' so that its outputs have sufficient rank.\n\nFor scalar values (rank 0), "
            "consider using an out_specs entry of `P()`, where `P = jax.sharding.PartitionSpec`. "
            "In particular, for rank 0 outputs which are not constant over the mesh, add at least "
            "one (singleton) axis to them so that they can be concatenated using out_specs."
        )


def _vma_error(f, mesh, spec, missing) -> ValueError:
    axes = ", ".join(repr(a) for a in missing)
    return ValueError(
        f"shard_map applied to the function '{_fun_name(f)}' was given out_specs which require "
        "replication which can't be statically inferred given the mesh:\n\n"
        f"{_mesh_shape_text(mesh)}\n\nout_specs is {spec} which implies that the corresponding "
        f"output value is replicated across mesh axis {axes}, but could not infer replication "
        "over any axes\n\nCheck if these output values are meant to be replicated over those "
        "mesh axes. If not, consider revising the corresponding out_specs entries. If so, "
        "consider disabling the check by passing the check_vma=False argument to "
        "`jax.shard_map`."
    )


# ---------------------------------------------------------------------------- front end
def _explicit_spec(x, ndim: int) -> PartitionSpec:
    s = sharding_of_value(x)  # a placed array's, or a jit tracer's (its Explicit type)
    if isinstance(s, NamedSharding):
        return PartitionSpec(*padded(s.spec, ndim)) if ndim else PartitionSpec()
    return PartitionSpec(*([None] * ndim))


def _resolve_mesh(mesh):
    ctx = get_mesh()
    if mesh is None:
        if ctx.empty:
            raise ValueError(
                "The context mesh cannot be empty. Use `jax.set_mesh(mesh)` to enter into a mesh "
                "context"
            )
        return ctx
    if not isinstance(mesh, (Mesh, AbstractMesh)):
        raise TypeError(
            "shard_map requires a `jax.sharding.Mesh` or a `jax.sharding.AbstractMesh` instance "
            f"for its second argument, but got {mesh} of type {type(mesh)}."
        )
    if not ctx.empty and ctx != mesh:
        raise ValueError(f"The context mesh {ctx} should match the mesh passed to shard_map {mesh}")
    return mesh


def shard_map(
    f: Callable | None = None,
    /,
    *,
    out_specs: Any,
    in_specs: Any = Infer,
    mesh: Mesh | AbstractMesh | None = None,
    axis_names: Any = frozenset(),
    check_vma: bool = True,
):
    """Map ``f`` over shards of its inputs, one call per device (``jax.shard_map``).

    Args:
        f: the per-device function (``None``: return a decorator).
        out_specs: a ``P`` or a pytree prefix of ``f``'s outputs: how the per-device results
            are assembled (concatenated along named axes, one copy along the others).
        in_specs: a ``P`` or a pytree prefix of the arguments (``None`` leaves: static); by
            default inferred from the arguments' shardings (needs Explicit manual axes).
        mesh: the mesh (default: the context mesh).
        axis_names: the manual axes (default: all mesh axes).
        check_vma: check that results typed as replicated (``P()`` over an axis) are.

    Returns:
        The mapped function: global arrays in, global arrays out, with
        ``NamedSharding(mesh, out_spec)`` shardings.

    Raises:
        ValueError: for specs that do not fit the arguments (unknown/non-manual axis, a spec
            longer than the rank, a dimension not divisible by its mesh axes), an empty context
            mesh, or out_specs promising replication the body does not guarantee.
        TypeError: for a non-callable ``f``, a non-mesh ``mesh``, non-``P`` specs.
    """
    if f is None:
        return functools.partial(
            shard_map,
            out_specs=out_specs,
            in_specs=in_specs,
            mesh=mesh,
            axis_names=axis_names,
            check_vma=check_vma,
        )
    if not callable(f):
        raise TypeError(f"shard_map requires a callable for its first argument, but got {f}")
    if not isinstance(axis_names, (set, frozenset)):
        raise TypeError(
            "`axis_names` argument of shard_map should be of type `frozenset` or `set`. Got "
            f"type: {type(axis_names)}"
        )

    @functools.wraps(f)
    def wrapped(*args):
        return _shard_map_call(f, args, mesh, in_specs, out_specs, axis_names, check_vma)

    return wrapped


def _shard_map_call(f, args, mesh, in_specs, out_specs, axis_names, check_vma):
    mesh = _resolve_mesh(mesh)
    if axis_names and not set(axis_names) <= set(mesh.axis_names):
        raise ValueError(
            f"jax.shard_map requires axis_names={frozenset(axis_names)} to be a subset of "
            f"mesh.axis_names={frozenset(mesh.axis_names)}"
        )
    manual_set = frozenset(axis_names) if axis_names else frozenset(mesh.axis_names)
    manual = tuple(a for a in mesh.axis_names if a in manual_set)
    leaves, in_tree = tree_util.tree_flatten(tuple(args))
    if in_specs is Infer:
        if not all(mesh.axis_type_of(a) == AxisType.Explicit for a in manual):
            types = {mesh.axis_type_of(a) for a in manual} - {AxisType.Explicit}
            raise TypeError(
                "shard_map in_specs argument must be a pytree of `jax.sharding.PartitionSpec` "
                f"instances, but it was `None` when axis_names={manual_set} are of type "
                f"{sorted(types, key=str)[0]}"
            )
        specs = [_explicit_spec(x, aval_of(x).ndim) for x in leaves]
    else:
        if isinstance(in_specs, list):
            in_specs = tuple(in_specs)
        specs = _prefix(in_specs, tuple(args), "in_specs")
    # argnum / path of each leaf, for messages
    paths = []
    for i, a in enumerate(args):
        for path, _ in tree_util.tree_leaves_with_path(a):
            paths.append((i, f"args[{i}]{tree_util.keystr(path)}"))
    dyn, dyn_specs, static_pos = [], [], {}
    for k, (x, s) in enumerate(zip(leaves, specs)):
        if s is None:
            static_pos[k] = x
            continue
        _check_spec_leaf(s, "in_specs", f"[{paths[k][0]}]", manual_set)
        aval = aval_of(x)
        _check_committed(x, mesh, paths[k][1], aval)
        _check_in(f, mesh, s, aval, paths[k][1], paths[k][0])
        if in_specs is not Infer and mesh.all_explicit and set(manual) == set(mesh.axis_names):
            have = _explicit_spec(x, aval.ndim)
            want = PartitionSpec(*padded(s, aval.ndim))
            if want != have:  # JAX prints the spec padded to the argument's rank
                raise ValueError(
                    f"in_specs passed to shard_map: {want} does not match the specs of the input: "
                    f"{have} for arg: {_type_str(aval)}. `in_specs` is an optional argument so "
                    "you can omit specifying it and shard_map will infer the in_specs from the "
                    "arguments. If you want to reshard your inputs, you can use `jax.reshard` "
                    "on the arguments and then pass those args to shard_map."
                )
        dyn.append(x)
        dyn_specs.append(s)
    n_leaves = len(leaves)

    store = {}

    def body(*blocks):
        it = iter(blocks)
        full = [static_pos[k] if k in static_pos else next(it) for k in range(n_leaves)]
        out = f(*tree_util.tree_unflatten(in_tree, full))
        out_flat, store["tree"] = tree_util.tree_flatten(out)
        for o in out_flat:
            check_output_leaf(o)
        return out_flat

    check_vma = bool(check_vma)
    # (nested in another shard_map's body, an operand keeps the outer axes it varies along)
    block_avals = [
        block_aval(
            _arr_aval(x),
            s,
            mesh,
            spec_axes(s, manual) | _arr_aval(x).vma if check_vma else frozenset(),
        )
        for x, s in zip(dyn, dyn_specs)
    ]
    axes = {a: mesh.shape[a] for a in manual}
    ctx = spmd.binding_axes(axes, partial=len(manual) < len(mesh.axis_names), check_vma=check_vma)
    with ctx:
        closed, _ = trace_to_jaxpr(body, block_avals)
    out_tree = store["tree"]
    out_avals = closed.out_avals
    out_struct = tree_util.tree_unflatten(out_tree, list(range(len(out_avals))))
    if isinstance(out_specs, list):
        out_specs = tuple(out_specs)
    # A None in out_specs is an empty pytree there, as in JAX: JAX's structure error.
    tree_util.check_prefix(
        tree_util.tree_structure(out_specs, is_leaf=lambda x: isinstance(x, PartitionSpec)),
        tree_util.tree_unflatten(out_tree, out_avals),
        "shard_map out_specs",
    )
    o_specs = _prefix(out_specs, out_struct, "out_specs")
    for s, a in zip(o_specs, out_avals):
        _check_spec_leaf(s, "out_specs", "", manual_set)
        _check_out_rank(f, s, a)
    if check_vma:
        for s, a in zip(o_specs, out_avals):
            named = spec_axes(s, manual)
            missing = [ax for ax in manual if ax in a.vma and ax not in named]
            if missing:
                raise _vma_error(f, mesh, s, missing)
        with ctx:
            closed = match_out_vma(closed, o_specs, manual, check_vma)
    closed, consts = closure_convert_consts(closed)
    all_specs = (PartitionSpec(),) * len(consts) + tuple(dyn_specs)
    params = dict(
        jaxpr=closed,
        mesh=mesh,
        in_specs=all_specs,
        out_specs=tuple(o_specs),
        manual_axes=manual,
        check_vma=check_vma,
        name=_fun_name(f),
    )
    if trace_ctx.trace is eval_trace:
        # Eagerly: each device's buffers in, each device's results out (no global copies).
        outs = run_sharded([to_array(a) for a in (*consts, *dyn)], **params)
    else:
        outs = shard_map_p.bind(*consts, *dyn, **params)
    return tree_util.tree_unflatten(out_tree, outs)


def _check_committed(x, mesh, path: str, aval) -> None:
    """An argument committed to other devices than the mesh's cannot be resharded (S9.3)."""
    have = getattr(x, "_sharding", None)
    if not getattr(x, "_committed", False) or have is None or mesh.size <= 1:
        return
    devs = set(mesh.devices.flat)
    if have.device_set == devs:
        return
    ids = sorted(d.id for d in have.device_set)
    raise ValueError(
        f"Received incompatible devices for jitted computation. Got argument {path} of "
        f"shard_map with shape {_type_str(aval)} and with device ids {ids} on platform CPU and "
        f"shard_map inside jit with device ids {sorted(d.id for d in devs)} on platform CPU at "
    )


def _arr_aval(x) -> ShapedArray:
    if isinstance(x, Array):
        return x.aval
    return aval_of(x)


def experimental_shard_map(f, mesh, in_specs, out_specs, check_rep: bool = True, auto=frozenset()):
    """``jax.experimental.shard_map.shard_map`` (deprecated): ``jax.shard_map`` with
    ``check_rep`` for ``check_vma``."""
    warnings.warn(
        "jax.experimental.shard_map is deprecated in v0.8.0. Used jax.shard_map instead.",
        DeprecationWarning,
        stacklevel=2,
    )
    names = frozenset(a for a in mesh.axis_names if a not in auto) if auto else frozenset()
    return shard_map(
        f, out_specs=out_specs, in_specs=in_specs, mesh=mesh, axis_names=names, check_vma=check_rep
    )


__all__ = ["Infer", "experimental_shard_map", "shard_map"]
