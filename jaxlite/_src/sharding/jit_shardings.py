"""Shardings in global-view ``jit``: ``in_shardings``/``out_shardings``, propagation of
shardings through the jaxpr to the results, and ``with_sharding_constraint`` (S7).

The computation itself is the single-device one (the generated code on global values);
this module only decides the placement of arguments and results. Propagation walks the
jaxpr once per (compiled function, input shardings): primitives in ``sharding_rules``
(``shard_map``, ``sharding_constraint``) state their results' shardings, every other one
follows the generic rule of ``array.result_sharding``.
"""

from __future__ import annotations

import inspect
import threading
import weakref
from typing import Any

from jaxlite._src import devices as _devices, tree_util
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import ArrayImpl, make_array, to_array
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.ir import Literal
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.core.trace import eval_trace, trace_ctx
from jaxlite._src.sharding import array as _arr, multiprocess
from jaxlite._src.sharding.callbacks_k import (
    EAGER_COMPILED,
    assigned_devices,
    check_ordered_effects,
    eager_plans,
    jit_plans,
    raise_pending,
)
from jaxlite._src.sharding.explicit import (
    placement_rules,
    propagate_eqn,
    relaxed,
    sharding_constraint_p,
)
from jaxlite._src.sharding.mesh import AbstractMesh, AxisType, Mesh, concrete_mesh, get_mesh
from jaxlite._src.sharding.specs import (
    IndivisibleError,
    NamedSharding,
    PartitionSpec,
    Sharding,
    padded,
)

# primitive -> rule(eqn, in_shardings) -> one (sharding, committed) per output: the
# primitives that state their results' placement (shard_map, sharding_constraint).
sharding_rules = placement_rules


class _Placement:
    """What propagation knows of a value: its sharding, committedness and aval."""

    __slots__ = ("_sharding", "_committed", "aval")

    def __init__(self, sharding, committed, aval):
        self._sharding = sharding
        self._committed = committed
        self.aval = aval


def _propagate(jaxpr, placements: list, consts=(), env=None) -> list:
    """Each result's placement: a placement rule, the Explicit-mode sharding rule (relaxed:
    its errors were raised while tracing), or the generic rule. ``env``, if given, receives
    every variable's placement (by id)."""
    env = {} if env is None else env
    for v, p in zip(jaxpr.invars, placements):
        env[id(v)] = p
    for v, c in zip(jaxpr.constvars, consts or [None] * len(jaxpr.constvars)):
        s = getattr(c, "_sharding", None)
        env[id(v)] = _Placement(s, _arr.is_committed(c), v.aval)

    def read(v):
        if type(v) is Literal:
            return _Placement(None, False, v.aval)
        return env[id(v)]

    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        rule = placement_rules.get(eqn.primitive)
        if rule is not None:
            outs = rule(eqn, [p._sharding for p in ins])
        else:
            with relaxed():
                got = propagate_eqn(eqn, [p._sharding for p in ins])
            committed = any(p._committed for p in ins)
            outs = [
                (s, committed)
                if s is not None
                else _arr.result_sharding(eqn.primitive.name, ins, v.aval)
                for v, s in zip(eqn.outvars, got)
            ]
        for v, (s, c) in zip(eqn.outvars, outs):
            env[id(v)] = _Placement(s, c, v.aval)
    return [read(v) for v in jaxpr.outvars]


_prop_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_plan_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _param_names(wrapped, n: int) -> list:
    names = []
    sig = wrapped._sig
    params = list(sig.parameters.values()) if sig is not None else []
    for i in range(n):
        if i < len(params) and params[i].kind in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        ):
            names.append(params[i].name)
        else:
            names.append(f"args[{i}]")
    return names


def _is_target(x) -> bool:
    return x is None or isinstance(x, (Sharding, PartitionSpec))


def _resolve_jit(t, what: str):
    if isinstance(t, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise RuntimeError(
                f"jit requires a non-empty mesh in context if you are passing `PartitionSpec`s "
                f"to {what}. You can define a context mesh via `jax.set_mesh(mesh)`. "
                f"Alternatively, provide `Sharding`s to {what} and then the mesh context "
                "manager is not required."
            )
        return NamedSharding(mesh, t)
    return t


def _prefix_targets(spec, tree, what: str, n_args: int | None = None) -> list:
    if _is_target(spec):
        return [_resolve_jit(spec, what)] * len(tree_util.tree_leaves(tree))
    if n_args is not None and isinstance(spec, (tuple, list)) and len(spec) != n_args:
        raise ValueError(
            f"pjit {what} specification must be a tree prefix of the positional arguments "
            f"tuple. In particular, pjit {what} must either be a Sharding, a PartitionSpec, or "
            f"a tuple of length equal to the number of positional arguments. But pjit {what} "
            f"is the wrong length: got a tuple or list of length {len(spec)} for an args tuple "
            f"of length {n_args}."
        )
    return [
        _resolve_jit(t, what) for t in tree_util.broadcast_prefix(spec, tree, is_leaf=_is_target)
    ]


def _place_args(wrapped, flat: list, in_tree) -> list:
    in_s = wrapped.shardings[0] if wrapped.shardings is not None else None
    if in_s is None:
        return flat
    args, kwargs = tree_util.tree_unflatten(in_tree, flat)
    targets = _prefix_targets(in_s, tuple(args), "in_shardings", len(args))
    names = _param_names(wrapped, len(args))
    paths = []
    for i, a in enumerate(args):
        for path, _ in tree_util.tree_leaves_with_path(a):
            paths.append(names[i] + tree_util.keystr(path))
    n = len(targets)
    out = []
    for x, s, path in zip(flat[:n], targets, paths):
        if s is None:
            out.append(x)
            continue
        if _arr.is_committed(x):
            have = _arr.sharding_of(x)
            if not have.is_equivalent_to(s, x.aval.ndim):
                raise ValueError(
                    "Sharding passed to jit does not match the sharding on the respective arg. "
                    f"Got jit sharding: {s},\narg sharding: {have} for arg type: "
                    f"{_arr._type_str(x.aval)}"
                )
            out.append(x)
            continue
        value, aval = _arr._as_value(x)
        _arr.check_fits(s, aval, f"pjit arguments with pytree key path {path}")
        out.append(_arr.ShardedArray(value, aval, s, True))
    return out + list(flat[n:])


def _flat_names(wrapped, flat, in_tree) -> list:
    args, kwargs = tree_util.tree_unflatten(in_tree, flat)
    names = _param_names(wrapped, len(args))
    out = []
    for i, a in enumerate(args):
        for path, _ in tree_util.tree_leaves_with_path(a):
            out.append(names[i] + tree_util.keystr(path))
    for k, v in kwargs.items():
        for path, _ in tree_util.tree_leaves_with_path(v):
            out.append(k + tree_util.keystr(path))
    return out


_direct_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_placing = threading.local()


def placing() -> bool:
    """Whether a jitted computation is being placed (its shardings propagated, once per
    compiled function and argument placement: JAX's compile time)."""
    return getattr(_placing, "on", False)


def _direct_plan(compiled):
    """For a jitted function that is one ``shard_map`` (results straight from it):
    ``(eqn, sources, out_index)`` with ``sources[j]`` ``("arg", k)`` or ``("value", v)``
    per operand; else None."""
    plan = _direct_cache.get(compiled, False)
    if plan is not False:
        return plan
    plan = None
    jaxpr = compiled.jaxpr.jaxpr
    if (
        len(jaxpr.eqns) == 1
        and jaxpr.eqns[0].primitive.name == "shard_map"
        and sharding_hooks.run_sharded is not None
    ):
        eqn = jaxpr.eqns[0]
        args = {id(v): k for k, v in enumerate(jaxpr.invars)}
        consts = {id(v): c for v, c in zip(jaxpr.constvars, compiled.jaxpr.consts)}
        sources = []
        for v in eqn.invars:
            if type(v) is Literal:
                sources.append(("value", to_array(v.val)))
            elif id(v) in args:
                sources.append(("arg", args[id(v)]))
            else:
                sources.append(("value", to_array(consts[id(v)])))
        outs = {id(v): i for i, v in enumerate(eqn.outvars)}
        if all(id(v) in outs for v in jaxpr.outvars):
            plan = (eqn, sources, [outs[id(v)] for v in jaxpr.outvars])
    _direct_cache[compiled] = plan
    return plan


def jit_call(wrapped, compiled, flat: list, in_tree, out_tree) -> list:
    """Run a compiled jit function on (possibly sharded) arguments; place the results."""
    flat = _place_args(wrapped, list(flat), in_tree)
    _arr.check_devices(wrapped._name, flat, _flat_names(wrapped, flat, in_tree))
    placements = [
        _Placement(getattr(x, "_sharding", None), _arr.is_committed(x), x.aval)
        if isinstance(x, ArrayImpl)
        else _Placement(None, False, None)
        for x in flat
    ]
    key = tuple((p._sharding, p._committed) for p in placements)
    per = _prop_cache.setdefault(compiled, {})
    outs_p = per.get(key)
    if outs_p is None:
        _placing.on = True
        try:
            outs_p = per[key] = _propagate(compiled.jaxpr.jaxpr, placements, compiled.jaxpr.consts)
        finally:
            _placing.on = False
    devs = set()
    for p in placements:
        if p._sharding is not None:
            devs |= p._sharding.device_set
    check_ordered_effects(compiled.jaxpr.effects, len(devs))
    if compiled.placed:
        jaxpr = compiled.jaxpr.jaxpr
        raise_pending(jaxpr, assigned_devices(jaxpr, devs))
    out_s = wrapped.shardings[1] if wrapped.shardings is not None else None
    direct = _direct_plan(compiled) if out_s is None and _devices.process_count() == 1 else None
    if direct is not None:  # jit(shard_map(f)): per-device buffers in and out
        eqn, sources, out_index = direct
        ins = [to_array(flat[k]) if kind == "arg" else k for kind, k in sources]
        res = sharding_hooks.run_sharded(ins, **eqn.params)
        return [res[i] for i in out_index]
    values = [x._value if isinstance(x, ArrayImpl) else _arr._as_value(x)[0] for x in flat]
    global_view = multiprocess.global_view(compiled, key, flat, placements)
    if global_view:  # across processes, on every process's blocks (multiprocess.py)
        values = multiprocess.gather_values(flat, values)
    plans = _plan_cache.get(compiled, {}).get(key)
    if plans is None:
        plans = _plan_cache.setdefault(compiled, {})[key] = jit_plans(
            compiled.jaxpr.jaxpr, placements, compiled.jaxpr.consts, _propagate
        )
    if global_view:
        with multiprocess.callbacks_once():
            raw = compiled.fn(*values)
    elif plans:
        sharding_hooks.partitioned_plans.update(plans)
        try:
            raw = compiled.fn(*values)
        finally:
            for h in plans:
                sharding_hooks.partitioned_plans.pop(h, None)
    else:
        raw = compiled.fn(*values)
    outs = [make_array(o, a) for o, a in zip(raw, compiled.out_avals)]
    if out_s is not None:
        targets = _prefix_targets(out_s, tree_util.tree_unflatten(out_tree, outs), "out_shardings")
    else:
        targets = [None] * len(outs)
    result = []
    for o, p, t in zip(outs, outs_p, targets):
        if t is not None:
            _arr.check_fits(t, o.aval, "pjit outputs")
            result.append(_arr.ShardedArray(o._value, o.aval, t, True))
        elif p._sharding is not None:
            result.append(_arr.ShardedArray(o._value, o.aval, p._sharding, p._committed))
        else:
            result.append(o)
    return result


sharding_hooks.jit_call = jit_call


def _eager_wrap(primitive, args, params, impl, vals):
    """An eager cond / while_loop / scan / jit over placed operands: JAX compiles it for
    their devices, so its partitioned debug callbacks run per device (K7)."""
    plans = eager_plans(primitive, args, params, _propagate)
    if not plans:
        return impl(*vals, **params)
    sharding_hooks.partitioned_plans.update(plans)
    try:
        return impl(*vals, **params)
    finally:
        for h in plans:
            sharding_hooks.partitioned_plans.pop(h, None)


sharding_hooks.eager_wrap = _eager_wrap
sharding_hooks.eager_wrapped.update(EAGER_COMPILED)


# ---------------------------------------------------------------- with_sharding_constraint
def _wsc_resolve(s):
    if isinstance(s, PartitionSpec):
        mesh = get_mesh()
        if mesh.empty:
            raise RuntimeError(
                "with_sharding_constraint requires a non-empty mesh in context if you are "
                "passing `PartitionSpec`s to shardings. You can define a context mesh via "
                "`jax.set_mesh(mesh)`. Alternatively, provide `Sharding`s to shardings and "
                "then the mesh context manager is not required."
            )
        return NamedSharding(mesh, s)
    if isinstance(s, NamedSharding) and isinstance(s.mesh, (Mesh, AbstractMesh)):
        explicit = [
            n
            for e in s.spec
            for n in ((e,) if isinstance(e, str) else (e or ()))
            if s.mesh.axis_type_of(n) == AxisType.Explicit
        ]
        if explicit:
            raise ValueError(
                "The spec of NamedSharding passed to with_sharding_constraint can only refer to "
                f"Auto axes of the mesh. Got spec={s.spec} and mesh={s.mesh.abstract_mesh}. You "
                "probably meant to use `reshard` API?"
            )
    return s


def _assert_same_spec(v, s: NamedSharding) -> None:
    """On an all-Explicit mesh a bare ``P`` constraint is an assertion (S16.4)."""
    nd = v.aval.ndim
    have = getattr(v, "_sharding", None)
    have_spec = padded(have.spec, nd) if isinstance(have, NamedSharding) else (None,) * nd
    want = padded(s.spec, nd)
    if tuple(have_spec) != tuple(want):
        raise AssertionError(
            "`with_sharding_constraint` acts as an assert when all axes of mesh are of type "
            f"`Explicit`. The array sharding: {PartitionSpec(*have_spec)} did not match the "
            f"sharding provided: {PartitionSpec(*want)}. Please use `jax.sharding.reshard` to "
            "shard your input to the sharding you want."
        )


def with_sharding_constraint(x: Any, shardings: Any):
    """``jax.lax.with_sharding_constraint``: ``x`` (a pytree) placed by ``shardings``.

    The values are unchanged; eagerly the result is placed at once, under ``jit`` the
    result of the jitted function carries the sharding.

    Raises:
        RuntimeError: a ``P`` without a mesh context.
        ValueError: a sharding that does not fit (rank, divisibility), or a NamedSharding
            over Explicit axes (use ``reshard``).
    """
    leaves, treedef = tree_util.tree_flatten(x)
    if _is_target(shardings):
        targets = [shardings] * len(leaves)
    else:
        targets = tree_util.broadcast_prefix(shardings, x, is_leaf=_is_target)
    bare = [isinstance(t, PartitionSpec) for t in targets]
    targets = [None if t is None else _wsc_resolve(t) for t in targets]
    out = []
    for v, s, is_p in zip(leaves, targets, bare):
        if s is None:
            out.append(v)
            continue
        v = to_array(v)
        try:
            _arr.check_fits(s, v.aval, "with_sharding_constraint arguments")
        except IndivisibleError:
            if trace_ctx.trace is eval_trace or not isinstance(s, NamedSharding):
                raise
            # Under jit XLA pads an uneven split; the value ends up replicated (JAX's result).
            s = NamedSharding(s.mesh, PartitionSpec())
        if is_p and s.mesh.all_explicit and trace_ctx.trace is eval_trace:
            _assert_same_spec(v, s)
        if trace_ctx.trace is eval_trace:
            if isinstance(s.mesh, AbstractMesh):  # on the context's (or v's) devices
                s = NamedSharding(
                    concrete_mesh(s.mesh, _arr.sharding_of(v).device_set, v.aval), s.spec
                )
            out.append(_arr.ShardedArray(v._value, v.aval, s, True))
        else:
            out.append(sharding_constraint_p.bind(v, sharding=s))
    return tree_util.tree_unflatten(treedef, out)


__all__ = ["jit_call", "sharding_constraint_p", "sharding_rules", "with_sharding_constraint"]
