"""Explicit sharding mode: the sharding is part of the type (S8).

When an operand is placed on a mesh with Explicit axes, every primitive computes its
result's sharding with its rule in ``rules.sharding_rules`` (the rules see specs over the
Explicit axes only, ``core/sharding_types.py``) or raises ``ShardingTypeError``:

* eagerly, through ``sharding_hooks.eval_outputs`` (this module wraps ``array.py``'s generic
  rule, which stays in force for Auto meshes, single devices and primitives without a rule);
* under ``jit``, at trace time: ``jit`` keys its cache on the arguments' Explicit shardings
  (``trace_shardings``) and the staging trace records each value's sharding
  (``StagingTrace.shardings``, filled by ``staging_outputs``), so errors are raised while
  tracing and ``jax.typeof`` of a tracer prints ``float32[8@x,8]``. The placement of the
  jitted function's results is then propagated over the simplified jaxpr
  (``jit_shardings._propagate``) with ``propagate_eqn``, relaxed (errors were raised already).

Also here: ``out_sharding=`` arguments (``apply_out_sharding``), the sharding of arrays
created under ``jax.set_mesh`` (S8.5, ``created``), the gather error of indexing a sharded
dimension, and ``typeof`` of traced values.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, tree_util
from jaxlite._src.ad_checkpoint import checkpoint_p
from jaxlite._src.compile.jit import jit_p
from jaxlite._src.control_flow.scan import scan_p
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import ArrayImpl, to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.core.sharding_types import ShardingTypeError, is_relaxed, p_repr, relaxed
from jaxlite._src.core.trace import Tracer, eval_trace, trace_ctx
from jaxlite._src.custom_derivatives import custom_jvp_call_p, custom_vjp_call_p
from jaxlite._src.interpreters.staging import StagingTracer
from jaxlite._src.ops import shape as _shape_ops, spmd
from jaxlite._src.ops.sharding_rules import gather_error
from jaxlite._src.sharding import array as _arr
from jaxlite._src.sharding.mesh import (
    AbstractMesh,
    AxisType,
    Mesh,
    concrete_mesh,
    get_abstract_mesh,
    get_mesh,
)
from jaxlite._src.sharding.specs import NamedSharding, PartitionSpec, entry_names, padded

__all__ = [
    "ShardingTypeError",
    "placement_rules",
    "propagate_eqn",
    "sharding_constraint_p",
    "apply_out_sharding",
    "auto_axes",
    "explicit_axes",
    "check_index",
    "created",
    "keep_sharding",
    "placed_result",
    "sharding_of_value",
    "typeof",
]


# Inside ``auto_axes``: the Explicit axes treated as Auto (None: none; a set, or ``ALL``).
_hidden: list = [None]
_ALL = object()


def _is_explicit(mesh, name) -> bool:
    h = _hidden[0]
    if h is not None and (h is _ALL or name in h):
        return False
    return mesh.axis_type_of(name) == AxisType.Explicit


def _explicit_mesh(s) -> Mesh | None:
    """The mesh of a NamedSharding with an Explicit axis (else None)."""
    if isinstance(s, NamedSharding):
        mesh = s.mesh
        if any(_is_explicit(mesh, n) for n in mesh.axis_names):
            return mesh
    return None


def spec_of(s, ndim: int) -> tuple:
    """The rule-level spec of ``s`` for rank ``ndim``: Explicit names only, as tuples."""
    if not isinstance(s, NamedSharding):
        return (None,) * ndim
    mesh = s.mesh
    out = []
    for e in padded(s.spec, ndim):
        names = tuple(n for n in entry_names(e) if _is_explicit(mesh, n))
        out.append(names or None)
    return tuple(out)


def _to_sharding(mesh: Mesh, spec: tuple) -> NamedSharding:
    return NamedSharding(
        mesh, PartitionSpec(*[None if not e else e[0] if len(e) == 1 else tuple(e) for e in spec])
    )


def _common_mesh(shardings) -> Mesh | None:
    """The one Explicit mesh of the operands (None: no operand is on one). Operands on
    other meshes (Auto ones too) raise JAX's ``Mesh for all inputs should be equal``."""
    mesh = None
    for s in shardings:
        m = _explicit_mesh(s)
        if m is not None:
            mesh = m
            break
    if mesh is None:
        return None
    for s in shardings:
        if isinstance(s, NamedSharding) and s.mesh.abstract_mesh != mesh.abstract_mesh:
            raise ValueError(
                "Mesh for all inputs should be equal. Got one mesh: "
                f"{mesh.abstract_mesh} and another mesh: {s.mesh.abstract_mesh}"
            )
    return mesh


def out_shardings(primitive, params, shardings, avals_in, avals_out) -> list | None:
    """The results' NamedShardings by ``primitive``'s sharding rule, or None when no
    operand is on an Explicit mesh or the primitive has no rule (the generic rule applies)."""
    mesh = _common_mesh(shardings)
    if mesh is None:
        return None
    rule = rules.sharding_rules.get(primitive)
    if rule is None:
        call = _call_jaxpr(primitive, params)
        if call is None:
            return None
        return _propagate_call(call, mesh, shardings, avals_in)
    specs = [spec_of(s, len(a.shape)) for s, a in zip(shardings, avals_in)]
    multiple = primitive.multiple_results
    out = rule(mesh.abstract_mesh, specs, avals_in, avals_out, **params)
    outs = out if multiple else [out]
    return [_to_sharding(mesh, o) for o in outs]


def _scan_rule(mesh, specs, avals_in, avals_out, *, num_consts, num_carry, **params):
    # The scanned axis of every ``xs`` must be unsharded; the carry keeps its type (JAX
    # requires equal carry types); ``ys`` are typed unsharded (jaxlite does not type bodies).
    for s in specs[num_consts + num_carry :]:
        if s and s[0] and not is_relaxed():
            raise ValueError(f"0th dimension of all xs should be replicated. Got {p_repr(s)}")
    carry = list(specs[num_consts : num_consts + num_carry])
    return carry + [(None,) * len(a.shape) for a in avals_out[num_carry:]]


rules.sharding_rules[scan_p] = _scan_rule


# Higher-order primitives whose results' shardings come from their body (param name):
# calls whose jaxpr takes exactly their operands.
call_params: dict = {
    jit_p: "jaxpr",
    custom_jvp_call_p: "call_jaxpr",
    custom_vjp_call_p: "call_jaxpr",
    checkpoint_p: "jaxpr",
}


def _call_jaxpr(primitive, params):
    name = call_params.get(primitive)
    return None if name is None else params.get(name)


def _propagate_call(closed, mesh, shardings, avals_in) -> list | None:
    jaxpr = closed.jaxpr
    if len(jaxpr.invars) != len(shardings):
        return None
    env: dict = {}
    for v, s in zip(jaxpr.invars, shardings):
        env[id(v)] = s
    with relaxed():
        for eqn in jaxpr.eqns:
            got = propagate_eqn(eqn, [env.get(id(v)) for v in eqn.invars])
            for v, s in zip(eqn.outvars, got):
                env[id(v)] = s
    out = []
    for v in jaxpr.outvars:
        s = env.get(id(v))
        out.append(s if s is not None else _to_sharding(mesh, (None,) * len(v.aval.shape)))
    return out


def _auto_transpose(primitive, params, shardings):
    """A transpose of an array placed on an Auto mesh keeps each dimension's split (its
    spec permuted, as XLA and the explicit rule do); the generic rule would keep the
    operand's spec on a square array (the rows' split on the columns) or drop it."""
    if primitive is not _shape_ops.transpose_p:
        return None
    s = shardings[0]
    if not isinstance(s, NamedSharding) or _explicit_mesh(s) is not None:
        return None
    perm = params["permutation"]
    spec = padded(s.spec, len(perm))
    return NamedSharding(s.mesh, PartitionSpec(*[spec[p] for p in perm]))


def propagate_eqn(eqn, shardings) -> list:
    """One sharding (or None: the generic rule decides) per result of ``eqn``."""
    placement = placement_rules.get(eqn.primitive)
    if placement is not None:
        return [s for s, _ in placement(eqn, shardings)]
    t = _auto_transpose(eqn.primitive, eqn.params, shardings)
    if t is not None:
        return [t]
    outs = [v.aval for v in eqn.outvars]
    got = out_shardings(
        eqn.primitive,
        eqn.params,
        shardings,
        [v.aval for v in eqn.invars],
        outs if eqn.primitive.multiple_results else outs[0],
    )
    return [None] * len(outs) if got is None else got


# ------------------------------------------------------------------------------ eagerly
_generic_eval_outputs = sharding_hooks.eval_outputs


def _eval_outputs(primitive, args, outs, params):
    shardings = [getattr(a, "_sharding", None) for a in args]
    if any(_explicit_mesh(s) is not None for s in shardings):
        _arr.check_devices(primitive.name, args)
        avals_in = [a.aval if isinstance(a, ArrayImpl) else aval_of(a) for a in args]
        multiple = primitive.multiple_results
        res = outs if multiple else [outs]
        avals_out = [o.aval for o in res]
        got = out_shardings(
            primitive, params, shardings, avals_in, avals_out if multiple else avals_out[0]
        )
        if got is not None:
            committed = any(getattr(a, "_committed", False) for a in args)
            new = [_arr.ShardedArray(o._value, o.aval, s, committed) for o, s in zip(res, got)]
            return new if multiple else new[0]
    t = _auto_transpose(primitive, params, shardings)
    if t is not None:
        _arr.check_devices(primitive.name, args)
        return _arr.ShardedArray(outs._value, outs.aval, t, getattr(args[0], "_committed", False))
    return _generic_eval_outputs(primitive, args, outs)


sharding_hooks.eval_outputs = _eval_outputs


# ------------------------------------------------------------------------------ staging
def sharding_of_value(x: Any):
    """The sharding of a concrete array or of a tracer of a staging trace (None: none)."""
    s = getattr(x, "_sharding", None)
    if s is not None:
        return s
    if isinstance(x, StagingTracer):
        d = x._trace.shardings
        if d:
            return d.get(id(x._var))
    return None


def trace_shardings(flat) -> tuple | None:
    """The Explicit shardings of jit's flat arguments (part of its cache key), or None."""
    out = None
    for i, x in enumerate(flat):
        if type(x) is ArrayImpl:
            continue
        s = sharding_of_value(x)
        if _explicit_mesh(s) is not None:
            if out is None:
                out = [None] * len(flat)
            out[i] = s
    return None if out is None else tuple(out)


def staging_outputs(trace, primitive, args, avals_in, avals_out, params, outvars) -> None:
    """Record the shardings of a staged equation's results in ``trace.shardings``."""
    shardings = [sharding_of_value(a) for a in args]
    placement = placement_rules.get(primitive)
    if placement is not None:
        got = [s for s, _ in placement(trace.eqns[-1], shardings)]
    elif any(_explicit_mesh(s) is not None for s in shardings):
        got = out_shardings(primitive, params, shardings, avals_in, avals_out)
    else:
        return
    if got is None:
        return
    d = trace.shardings
    for v, s in zip(outvars, got):
        if s is not None:
            d[id(v)] = s


sharding_hooks.staging_outputs = staging_outputs
sharding_hooks.apply_out_sharding = lambda fn, s, *args: apply_out_sharding(fn, s, *args)
sharding_hooks.trace_shardings = trace_shardings
sharding_hooks.place_created = lambda x, s: created(x, device=s)
sharding_hooks.aval_sharding = lambda aval: NamedSharding(
    get_abstract_mesh(), PartitionSpec(*[None] * aval.ndim)
)


def typeof(x: Any):
    """``jax.typeof``: the aval, with the sharding of placed and traced values (S8.1)."""
    s = sharding_of_value(x)
    if s is None:
        return _arr.typeof(x)
    if _hidden[0] is not None and isinstance(s, NamedSharding):
        s = NamedSharding(s.mesh, PartitionSpec(*_display(spec_of(s, x.ndim))))
    return _arr.ShardedType(x.aval, s)


def _display(spec) -> list:
    return [None if not e else e[0] if len(e) == 1 else tuple(e) for e in spec]


# ----------------------------------------------------------------- auto_axes, explicit_axes
def auto_axes(f=None, /, *, axes=None, out_sharding=None):
    """``jax.sharding.auto_axes``: run ``f`` with the Explicit mesh ``axes`` (all when
    ``None``) treated as Auto, so its operations are not sharding-typed, then place its
    results by ``out_sharding`` (a pytree prefix of them; a ``P`` needs ``jax.set_mesh``).

    Raises:
        TypeError: without ``out_sharding`` (JAX's message).
    """
    if f is None:
        return lambda g: auto_axes(g, axes=axes, out_sharding=out_sharding)

    def wrapped(*args, **kwargs):
        if out_sharding is None:
            raise TypeError("Missing required keyword argument: 'out_sharding'")
        prev = _hidden[0]
        if axes is None:
            # All axes of the context mesh (none without one).
            _hidden[0] = frozenset() if get_mesh().empty else _ALL
        else:
            _hidden[0] = frozenset((axes,) if isinstance(axes, str) else axes)
        # A trace reads the mode (which axes are Explicit): name it in jit's cache key.
        prev_key = _cfg.set_global_trace_context("auto_axes", _hidden[0])
        try:
            out = f(*args, **kwargs)
        finally:
            _hidden[0] = prev
            _cfg.set_global_trace_context("auto_axes", prev_key)
        return _place_tree(out, out_sharding)

    return wrapped


def explicit_axes(f=None, /, *, axes=None, in_sharding=None):
    """``jax.sharding.explicit_axes``: on a mesh with Auto axes, run ``f`` with ``axes`` (all
    when ``None``) Explicit and its arguments placed by ``in_sharding`` (a prefix of them);
    the results are placed back on the original (Auto) mesh with the specs ``f`` gave them.

    Raises:
        TypeError: without ``in_sharding``.
    """
    if f is None:
        return lambda g: explicit_axes(g, axes=axes, in_sharding=in_sharding)

    def wrapped(*args, **kwargs):
        if in_sharding is None:
            raise TypeError("Missing required keyword argument: 'in_sharding'")
        mesh = get_mesh()
        if mesh.empty:
            raise ValueError("explicit_axes requires a mesh in context: use `jax.set_mesh(mesh)`")
        names = mesh.axis_names if axes is None else ((axes,) if isinstance(axes, str) else axes)
        types = tuple(
            AxisType.Explicit if n in names else t for n, t in zip(mesh.axis_names, mesh.axis_types)
        )
        emesh = Mesh(mesh.devices, mesh.axis_names, axis_types=types)

        def to_explicit(s):
            spec = s.spec if isinstance(s, NamedSharding) else s
            return NamedSharding(emesh, spec)

        leaves, tree = tree_util.tree_flatten(args)
        targets = _prefix(in_sharding, args, len(leaves))
        placed = [_place(x, to_explicit(t)) for x, t in zip(leaves, targets)]
        out = f(*tree_util.tree_unflatten(tree, placed), **kwargs)

        def back(x):
            s = sharding_of_value(x)
            if isinstance(s, NamedSharding) and s.mesh == emesh:
                return _place(x, NamedSharding(mesh, s.spec))
            return x

        return tree_util.tree_map(back, out)

    return wrapped


def _is_target(t) -> bool:
    return isinstance(t, (NamedSharding, PartitionSpec))


def _prefix(spec, tree, n: int) -> list:
    if _is_target(spec):
        return [spec] * n
    return tree_util.broadcast_prefix(spec, tree, is_leaf=_is_target)


def _place_tree(out, shardings):
    leaves, tree = tree_util.tree_flatten(out)
    targets = _prefix(shardings, out, len(leaves))
    placed = [
        _place(x, _padded(resolve_out_sharding(t), len(getattr(x, "shape", ()))))
        for x, t in zip(leaves, targets)
    ]
    return tree_util.tree_unflatten(tree, placed)


# ------------------------------------------------------------------ sharding_constraint_p
# primitive -> rule(eqn, in_shardings) -> one (sharding, committed) per result: primitives
# that state their results' placement (constraints, reshard, shard_map).
placement_rules: dict = {}

sharding_constraint_p = Primitive("sharding_constraint")
sharding_hooks.sharding_primitives.add(sharding_constraint_p)


def _identity_impl(x, *, sharding):
    return x


def _constraint_jvp(primals, tangents, *, sharding):
    t = tangents[0]
    out = sharding_constraint_p.bind(primals[0], sharding=sharding)
    return out, t if type(t) is Zero else sharding_constraint_p.bind(t, sharding=sharding)


def _constraint_transpose(ct, x, *, sharding):
    return [ct if type(ct) is Zero else sharding_constraint_p.bind(ct, sharding=sharding)]


def _constraint_batch(axis_data, args, dims, *, sharding):
    # The batch dimension is not split (``None`` is inserted into the spec there), as in
    # JAX: ``vmap`` of a constraint to ``P('i')`` places the result by ``P(None, 'i')``.
    # Constraints over abstract meshes are dropped under vmap (no effect on values).
    (x,), (d,) = args, dims
    if d is not_mapped:
        return sharding_constraint_p.bind(x, sharding=sharding), d
    if not isinstance(sharding, NamedSharding) or isinstance(sharding.mesh, AbstractMesh):
        return x, d
    spec = tuple(sharding.spec)
    if d <= len(spec):
        spec = (*spec[:d], None, *spec[d:])
    s = NamedSharding(sharding.mesh, PartitionSpec(*spec))
    if trace_ctx.trace is eval_trace:
        x = to_array(x)
        return _arr.ShardedArray(x._value, x.aval, s, True), d
    return sharding_constraint_p.bind(x, sharding=s), d


rules.impl_rules[sharding_constraint_p] = _identity_impl
rules.abstract_eval_rules[sharding_constraint_p] = lambda x, *, sharding: ShapedArray(
    x.shape, x.dtype, x.weak_type
)
rules.jvp_rules[sharding_constraint_p] = _constraint_jvp
rules.transpose_rules[sharding_constraint_p] = _constraint_transpose
rules.batch_rules[sharding_constraint_p] = _constraint_batch


def _constraint_placement(eqn, ins):
    # A sharding over an abstract mesh (flax's Variables under ``jax.set_mesh``) places the
    # result on the context mesh's devices, else on the operand's (JAX's resolution).
    s = eqn.params["sharding"]
    if isinstance(s, NamedSharding) and isinstance(s.mesh, AbstractMesh):
        own = (ins[0] or _arr.sharding_of(None)).device_set
        s = NamedSharding(concrete_mesh(s.mesh, own, eqn.invars[0].aval), s.spec)
    return [(s, True)]


placement_rules[sharding_constraint_p] = _constraint_placement


# -------------------------------------------------------------------- out_sharding=, set_mesh
def resolve_out_sharding(out_sharding):
    """A NamedSharding from ``out_sharding=`` (a ``P`` needs a mesh context)."""
    if isinstance(out_sharding, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise ValueError(
                "Using PartitionSpec when you are not under a mesh context is not allowed. "
                "Please pass a NamedSharding instance or enter into a mesh context via "
                f"`jax.set_mesh`. Got {out_sharding}"
            )
        return NamedSharding(mesh, out_sharding)
    if isinstance(out_sharding, NamedSharding):
        return out_sharding
    raise TypeError(
        f"out_sharding must be a NamedSharding or a PartitionSpec, got {out_sharding!r}"
    )


def _place(x, s, committed: bool = True):
    """``x`` carrying sharding ``s``: relabelled eagerly, a constraint when traced.

    ``s`` over an abstract mesh (``jax.typeof(y).sharding`` passed on as ``out_sharding=``,
    as optax's ``add_noise`` does): over no axes it places nothing; else the context mesh
    with the same axes carries it."""
    if isinstance(s, NamedSharding) and isinstance(s.mesh, AbstractMesh):
        if s.mesh.empty:
            return x
        mesh = get_mesh()
        if not mesh.empty and mesh.abstract_mesh == s.mesh:
            s = NamedSharding(mesh, s.spec)
    if isinstance(x, Tracer):
        return sharding_constraint_p.bind(x, sharding=s)
    x = x if isinstance(x, ArrayImpl) else _arr._uncommitted(x)
    _arr.check_fits(s, x.aval)
    return _arr.ShardedArray(x._value, x.aval, s, committed)


def apply_out_sharding(fn, out_sharding, *args, **kwargs):
    """``fn(*args, **kwargs)`` with its result placed by ``out_sharding`` (None: as is).

    The computation runs relaxed: with an explicit output sharding no operand combination
    is ambiguous."""
    if out_sharding is None:
        return fn(*args, **kwargs)
    s = resolve_out_sharding(out_sharding)
    with relaxed():
        out = fn(*args, **kwargs)
    return _place(out, _padded(s, out.ndim))


def _padded(s: NamedSharding, ndim: int) -> NamedSharding:
    """``s`` with its spec padded to ``ndim`` entries (as ``out_sharding=`` results are)."""
    if len(s.spec) >= ndim:
        return s
    return NamedSharding(s.mesh, PartitionSpec(*padded(s.spec, ndim)))


def created(x, out_sharding=None, device=None, like=None, bare: bool = False):
    """An array made by a creation function, placed by ``out_sharding`` or ``device``;
    else like ``like`` (``zeros_like``...) when that is on an Explicit mesh; else, under
    ``jax.set_mesh``, on the context mesh: ``P(None, ...)`` there if it has Explicit axes,
    ``P()`` otherwise, or with ``bare`` (``jnp.array``), S8.5. Outside a mesh context, and
    while a ``shard_map`` body is traced, ``x`` is returned as it is.

    Raises:
        ValueError: both ``device`` and ``out_sharding``; a ``P`` without a mesh context;
            a spec that does not fit ``x`` (S5.4).
    """
    if device is not None:
        if out_sharding is not None:
            raise ValueError("Only one of `device` or `out_sharding` can be set.")
        if isinstance(x, Tracer):
            s = _arr._resolve(device)
            return _place(x, s) if isinstance(s, NamedSharding) else x
        return _arr.device_put(x, device)
    if out_sharding is not None:
        return _place(x, _padded(resolve_out_sharding(out_sharding), x.ndim))
    if like is not None:
        s = sharding_of_value(like)
        if _explicit_mesh(s) is not None:
            return _place(x, _to_sharding(s.mesh, spec_of(s, x.ndim)))
    mesh = get_mesh()
    if mesh.empty or spmd.tracing_axes():
        return x
    if not bare and any(t == AxisType.Explicit for t in mesh.axis_types):
        return _place(x, NamedSharding(mesh, PartitionSpec(*([None] * x.ndim))), False)
    return _place(x, NamedSharding(mesh, PartitionSpec()), False)


def placed_result(fn):
    """Decorator: ``fn``'s ``out_sharding`` argument places its result (``created``), so
    ``fn`` itself ignores it; under ``jax.set_mesh`` the result lies on the context mesh."""
    params = list(inspect.signature(fn).parameters.values())
    names = [p.name for p in params]
    pos = names.index("out_sharding") if "out_sharding" in names else None
    if pos is not None and params[pos].kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
        pos = None

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        out_sharding = kwargs.pop("out_sharding", None)
        if pos is not None and len(args) > pos:
            out_sharding, args = args[pos], args[:pos] + args[pos + 1 :]
        return created(fn(*args, **kwargs), out_sharding)

    return wrapped


def check_index(x, items) -> None:
    """Indexing a dimension sharded over Explicit axes raises JAX's gather error (S8.3).

    ``items``: the expanded index of ``jnp``'s ``x[...]``: ``None`` (a new axis), slices,
    ints or integer arrays, one per dimension of ``x`` apart from the ``None`` entries."""
    s = sharding_of_value(x)
    if _explicit_mesh(s) is None or is_relaxed() or isinstance(x, Tracer):
        # Under jit the slices' own rule decides (JAX's jitted indexing is a slice too).
        return
    spec = spec_of(s, x.ndim)
    dims = [i for i in items if i is not None]
    hit = False
    bshape: tuple = ()
    n_idx = 0
    for e, it, n in zip(spec, dims, x.shape):
        if isinstance(it, slice):
            if it.indices(n) == (0, n, 1):
                continue
        elif not isinstance(it, (int, np.integer)):
            shape = getattr(it, "shape", None)
            if shape is None:
                continue
            bshape = tuple(shape)
        n_idx += 1
        hit = hit or bool(e)
    if hit:
        raise gather_error(x.aval, spec, bshape + (n_idx,))


def is_explicit_sharding(s) -> bool:
    return _explicit_mesh(s) is not None


def like_primal(ct, s):
    """A cotangent placed with its primal's Explicit sharding ``s`` (else unchanged)."""
    if _explicit_mesh(s) is None or not isinstance(ct, (ArrayImpl, Tracer)):
        return ct
    if len(getattr(ct, "shape", ())) != len(s.spec) and len(s.spec) > len(ct.shape):
        return ct
    return _place(ct, s, True)


def keep_sharding(x, fn, *args):
    """``fn(*args)`` (an update of ``x``: ``x.at[...].set``...) with ``x``'s sharding."""
    s = sharding_of_value(x)
    if _explicit_mesh(s) is None:
        return fn(*args)
    with relaxed():
        out = fn(*args)
    return _place(out, s, _arr.is_committed(x))
