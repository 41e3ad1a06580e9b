"""Host callbacks under sharding (spec/callbacks.md section K).

Most of K holds by construction of the engine: a global-view computation computes on global
values, so a callback there runs once with the gathered value (K1, K6); a shard_map body
runs per device, so a callback there runs once per device with its shard (K3, K4, K11).
This module adds the checks and the cases that need shardings:

* ``sharding=`` (K2, K5): a ``SingleDeviceSharding`` (or a NamedSharding over a scalar
  mesh) in a global-view computation; anything else raises JAX's ``NotImplementedError``;
  inside shard_map it is refused, and partially manual shard_maps refuse pure/io callbacks.
  JAX raises these when it lowers the computation: while tracing, the error waits on the
  ``HostFn`` (``pending``) and ``raise_pending`` raises it before the computation runs;
* ``partitioned=True`` debug callbacks run once per device of a global-view jit (or of an
  eager cond/while/scan, which JAX compiles) on each operand's propagated block, at any
  depth (K7; eagerly, as in JAX, they run once on the whole value): ``jit_plans``,
  ``eager_plans``, executed by ``PartitionedPlan.run`` from the debug callback's code;
* ordered debug effects over more than one device raise where JAX compiles them (K10): a
  jit, an eager cond/while/scan over placed operands, a staged shard_map, and inside an
  eager shard_map body any jit/loop/branch holding one (``check_eager_body``).
"""

from __future__ import annotations

from jaxlite._src import devices as _devices, tree_util
from jaxlite._src.core import effects as _effects, sharding_hooks
from jaxlite._src.core.ir import Literal
from jaxlite._src.core.trace import eval_trace, trace_ctx
from jaxlite._src.ops import spmd
from jaxlite._src.sharding.specs import NamedSharding, SingleDeviceSharding


def check_callback(api: str, sharding, args=()) -> Exception | None:
    """Validate ``sharding=`` of a pure/io callback at its call site (K2, K5); eagerly, its
    device must be one of the operands' (``args``, a pytree). JAX raises these errors when
    it lowers the computation, after the errors of tracing and K10's: while tracing, the
    error is returned, to be raised by ``raise_pending`` before the computation runs (or by
    the call itself)."""
    err = _callback_error(sharding)
    if err is None:
        if sharding is not None and trace_ctx.trace is eval_trace:
            _check_device(sharding, args)
        return None
    if trace_ctx.trace is eval_trace:
        raise err
    return err


def _callback_error(sharding) -> Exception | None:
    if spmd.tracing_axes() or spmd.current() is not None:
        if spmd.tracing_partial():
            return NotImplementedError(
                "callbacks are only supported in spmd computations when all mesh axes are "
                "partitioned manually (no partial automatic sharding)."
            )
        if sharding is not None:
            return NotImplementedError(
                "callbacks do not support specifying sharding inside spmd computations"
            )
        return None
    if sharding is None or isinstance(sharding, SingleDeviceSharding):
        return None
    if isinstance(sharding, NamedSharding) and not sharding.mesh.axis_names:
        return None  # a NamedSharding on a scalar mesh (not a one-device mesh with an axis)
    return NotImplementedError(
        f"pure_callback only supports SingleDeviceSharding, but got {type(sharding)}"
    )


def raise_pending(jaxpr, devices=None) -> None:
    """Raise the first deferred ``sharding=`` error of a callback in ``jaxpr`` (at any
    depth), as JAX's lowering of the computation does; with ``devices`` (a jit's device
    assignment), also a device that ``sharding=`` names outside it (K2)."""
    for eqn in jaxpr.eqns:
        cb = eqn.params.get("callback")
        host = getattr(cb, "base", cb)
        err = getattr(host, "pending", None)
        if err is not None:
            raise err
        device = getattr(host, "device", None)
        if device is not None and devices is not None and device not in devices:
            _refuse_device(device, devices)
        if eqn.primitive.name == "scan" and eqn.params.get("length") == 0:
            continue  # never lowered by JAX (a fori_loop(0, 0, ...))
        for sub in _param_jaxprs(eqn.params):
            raise_pending(sub, devices)


def assigned_devices(jaxpr, devs) -> set:
    """A global-view jit's device assignment: its arguments' devices ``devs`` and those of
    the constraints and shard_maps in ``jaxpr`` (device 0 where none)."""
    out = set(devs)
    stack = [jaxpr]
    while stack:
        j = stack.pop()
        for eqn in j.eqns:
            s = eqn.params.get("sharding")
            if s is not None and hasattr(s, "device_set"):
                out |= s.device_set
            mesh = eqn.params.get("mesh")
            if mesh is not None and hasattr(mesh, "devices"):
                out |= set(mesh.devices.flat)
            stack.extend(_param_jaxprs(eqn.params))
    return out or {_devices.devices()[0]}


def _check_device(sharding, args) -> None:
    """K2: eagerly, the callback's device must hold the operands (JAX's lookup of the device
    in the computation's device assignment fails with a ``ValueError``)."""
    devs: set = set()
    for a in tree_util.tree_leaves(args):
        s = getattr(a, "_sharding", None)
        if s is not None:
            devs |= s.device_set
    if not devs:
        devs = {_devices.devices()[0]}
    (device,) = sharding.device_set
    if device not in devs:
        _refuse_device(device, devs)


def _refuse_device(device, devs) -> None:
    order = tuple(sorted(devs, key=lambda d: d.id))
    raise ValueError(
        f"Sharding provided to pure_callback specifies a device {device} that is not in "
        f"the device assignment ({order})"
    )


def jit_plans(jaxpr, placements, consts, propagate) -> dict:
    """HostFn -> ``PartitionedPlan``, for the ``partitioned=True`` debug callbacks of a
    global-view jit over more than one device (K7), at any depth of its jaxpr (loop and
    branch bodies, nested jits, custom derivatives, vmapped callbacks).

    ``propagate(jaxpr, placements, consts, env=...)`` is the jit's placement propagation;
    it fills ``env`` (id of a var -> its placement). A callback runs once per device of the
    computation (the devices of its placed operands and of every placed value) with each
    operand's block there, or its whole value where no sharding is known for it; one whose
    operands depend on no placed value (constants) runs once, as in JAX."""
    found: list = []
    devs: set = set()
    _walk(jaxpr, list(placements), consts, [p._sharding is not None for p in placements],
          propagate, found, devs)  # fmt: skip
    if len(devs) <= 1:
        return {}
    devices = sorted(devs, key=lambda d: d.id)
    return {host: PartitionedPlan(devices, shardings) for host, shardings in found}


def eager_plans(primitive, args, params, propagate) -> dict:
    """``jit_plans`` for an eager ``cond`` / ``while_loop`` / ``scan`` over placed operands
    (JAX runs it as a jit over their devices)."""
    if not any(_partitioned_in(j) for j in _param_jaxprs(params)):
        return {}
    ins = [_Blank(_ArgPlacement(a)) for a in args]
    devs: set = set()
    for q in ins:
        if q._sharding is not None:
            devs |= q._sharding.device_set
    found: list = []
    eqn = _EqnView(primitive, params)
    for sub, sub_ins, sub_t in _bodies(eqn, ins, [q._sharding is not None for q in ins]):
        _walk(sub.jaxpr, sub_ins, sub.consts, sub_t, propagate, found, devs)
    if len(devs) <= 1:
        return {}
    devices = sorted(devs, key=lambda d: d.id)
    return {host: PartitionedPlan(devices, shardings) for host, shardings in found}


def _param_jaxprs(params):
    for v in params.values():
        for j in v if isinstance(v, tuple) else (v,):
            sub = getattr(j, "jaxpr", None)
            if sub is not None and hasattr(sub, "eqns"):
                yield sub
            elif hasattr(j, "eqns"):
                yield j


def _partitioned_in(jaxpr) -> bool:
    """Whether ``jaxpr`` holds a ``partitioned=True`` debug callback (at any depth)."""
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "debug_callback" and eqn.params.get("partitioned"):
            return True
        if any(_partitioned_in(j) for j in _param_jaxprs(eqn.params)):
            return True
    return False


class _EqnView:
    __slots__ = ("primitive", "params")

    def __init__(self, primitive, params):
        self.primitive, self.params = primitive, params


class _ArgPlacement:
    __slots__ = ("_sharding", "_committed", "aval")

    def __init__(self, a):
        self._sharding = getattr(a, "_sharding", None)
        self._committed = bool(getattr(a, "_committed", False))
        self.aval = getattr(a, "aval", None)


def _walk(jaxpr, placements, consts, tainted, propagate, found, devs) -> None:
    env: dict = {}
    propagate(jaxpr, placements, consts, env=env)
    for p in env.values():
        if p._sharding is not None:
            devs |= p._sharding.device_set
    taint = {id(v) for v, t in zip(jaxpr.invars, tainted) if t}
    taint |= {id(v) for v in jaxpr.invars if env[id(v)]._sharding is not None}
    for eqn in jaxpr.eqns:
        t_in = [not _is_literal(v) and id(v) in taint for v in eqn.invars]
        for v in eqn.outvars:
            if any(t_in) or env[id(v)]._sharding is not None:
                taint.add(id(v))
        ins = [None if _is_literal(v) else env[id(v)] for v in eqn.invars]
        if eqn.primitive.name == "debug_callback":
            if eqn.params.get("partitioned") and any(t_in):
                found.append(
                    (eqn.params["callback"], [None if p is None else p._sharding for p in ins])
                )
            continue
        for sub, sub_ins, sub_t in _bodies(eqn, ins, t_in):
            _walk(sub.jaxpr, sub_ins, sub.consts, sub_t, propagate, found, devs)


def _is_literal(v) -> bool:
    return type(v) is Literal


def _bodies(eqn, ins, t_in):
    """(closed body, its inputs' placements, whether each depends on a placed value) for
    the bodies of a higher-order equation (operands passed through; a scanned operand's
    element drops its leading dimension)."""
    p = eqn.params
    name = eqn.primitive.name
    blank = _Blank
    if name == "cond":
        for br in p["branches"]:
            yield br, [blank(q) for q in ins[1:]], t_in[1:]
        return
    if name == "scan":
        k = p["num_consts"] + p["num_carry"]
        body_ins = [blank(q) for q in ins[:k]] + [_drop_lead(q) for q in ins[k:]]
        yield p["jaxpr"], body_ins, t_in
        return
    if name == "while":
        nc = p["cond_nconsts"]
        nb = p["body_nconsts"]
        carry = ins[nc + nb :]
        yield p["cond_jaxpr"], [blank(q) for q in ins[:nc] + carry], t_in[:nc] + t_in[nc + nb :]
        yield p["body_jaxpr"], [blank(q) for q in ins[nc:]], t_in[nc:]
        return
    for key in ("jaxpr", "call_jaxpr"):
        sub = p.get(key)
        if sub is not None and hasattr(sub, "jaxpr") and len(sub.jaxpr.invars) == len(ins):
            if name != "shard_map":  # a shard_map body's callbacks run per device (K3)
                yield sub, [blank(q) for q in ins], t_in
            return


class _Blank:
    """A placement passed into a body (or none: no sharding)."""

    __slots__ = ("_sharding", "_committed", "aval")

    def __init__(self, q, sharding=False):
        self._sharding = None if q is None else (q._sharding if sharding is False else sharding)
        self._committed = False if q is None else q._committed
        self.aval = None if q is None else q.aval


def _drop_lead(q):
    if q is None or not isinstance(q._sharding, NamedSharding):
        return _Blank(q, None)
    return _Blank(q, _without_dims(q._sharding, (0,)))


def _without_dims(s: NamedSharding, dims) -> NamedSharding:
    spec = tuple(s.spec)
    keep = [e for i, e in enumerate(spec) if i not in dims]
    return NamedSharding(s.mesh, type(s.spec)(*keep))


class PartitionedPlan:
    """How a partitioned debug callback runs in a global-view jit: once per device of
    ``devices``, each operand cut to its block there by its sharding (None: whole)."""

    __slots__ = ("devices", "shardings", "_index")

    def __init__(self, devices, shardings):
        self.devices = devices
        self.shardings = shardings
        self._index: dict = {}

    def _blocks(self, j: int, shape: tuple, dropped: tuple) -> list:
        key = (j, shape, dropped)
        got = self._index.get(key)
        if got is None:
            s = self.shardings[j]
            if isinstance(s, NamedSharding) and dropped:
                s = _without_dims(s, dropped)
            if not isinstance(s, NamedSharding) or len(tuple(s.spec)) > len(shape):
                got = [Ellipsis] * len(self.devices)
            else:
                m = s.devices_indices_map(shape)
                got = [m.get(d, Ellipsis) for d in self.devices]
            self._index[key] = got
        return got

    def run(self, fn, vals, dropped=None) -> None:
        """``fn`` once per device on its blocks of ``vals`` (``dropped[j]``: the vmapped
        axes of operand j, not in ``vals`` any more)."""
        import numpy as np

        vals = [np.asarray(v) for v in vals]
        idx = [
            self._blocks(j, v.shape, () if dropped is None else dropped[j])
            for j, v in enumerate(vals)
        ]
        for k in range(len(self.devices)):
            fn(*[v[i[k]] for v, i in zip(vals, idx)])


def check_ordered_effects(effects, n_devices: int) -> None:
    """K10: ordered debug effects cannot span more than one device."""
    if n_devices <= 1:
        return
    bad = [
        e for e in effects if _effects.ordered_effects.contains(e) and "Debug" in type(e).__name__
    ]
    if bad:
        raise ValueError(
            f"The following ordered effects are not supported for more than 1 device: {bad}"
        )


# Eagerly, JAX runs these primitives as a jit over their operands' devices (K10 applies):
# control flow, and a jit that a transformation (grad, vmap...) binds at the eval trace.
EAGER_COMPILED = frozenset({"cond", "while", "scan", "jit"})
_INLINED = frozenset({"custom_jvp_call", "custom_vjp_call"})


def _has_ordered_debug(effects) -> bool:
    return any(
        _effects.ordered_effects.contains(e) and "Debug" in type(e).__name__ for e in effects
    )


def check_eager_primitive(primitive, args, params) -> None:
    """For an eager ``cond`` / ``while_loop`` / ``scan`` / ``jit`` whose operands are placed
    on more than one device, what JAX's compilation of it raises: K10 for its ordered debug
    effects, then its callbacks' deferred ``sharding=`` errors (K2, K5)."""
    if primitive.name not in EAGER_COMPILED:
        return
    effects = set()
    bodies = list(_param_jaxprs(params))
    for j in bodies:
        effects |= set(getattr(j, "effects", None) or ())
    devs: set = set()
    for a in args:
        s = getattr(a, "_sharding", None)
        if s is not None:
            devs |= s.device_set
    if _has_ordered_debug(effects):
        check_ordered_effects(effects, len(devs))
    for j in bodies:
        raise_pending(j, assigned_devices(j, devs))


def check_eager_body(jaxpr, n_devices: int) -> None:
    """K10 in an eager ``shard_map``: JAX runs its body one primitive at a time, a debug
    callback by its eager rule (once per device) but any other primitive as a jit over the
    mesh, so an ordered debug effect nested in a ``jit``, loop, branch or ``checkpoint``
    raises; custom derivative functions run inline."""
    if n_devices <= 1:
        return
    for eqn in jaxpr.eqns:
        name = eqn.primitive.name
        if name == "debug_callback":
            continue
        if name in _INLINED:
            check_eager_body(eqn.params["call_jaxpr"].jaxpr, n_devices)
            continue
        check_ordered_effects(eqn.effects, n_devices)


sharding_hooks.check_callback = check_callback

__all__ = [
    "PartitionedPlan",
    "assigned_devices",
    "check_callback",
    "check_eager_body",
    "check_eager_primitive",
    "check_ordered_effects",
    "jit_plans",
    "raise_pending",
]
