"""``shard_map_p``: run a body once per device, on threads, and its transformation rules.

Params of ``shard_map_p``: ``jaxpr`` (the body, a ``ClosedJaxpr`` over per-device blocks),
``mesh``, ``in_specs``/``out_specs`` (one ``P`` per operand/result), ``manual_axes`` (the
manual mesh axes, in mesh order), ``check_vma`` and ``name`` (the user's function name).

Execution (``_shard_map_impl``, the same callable eagerly and from generated code): one
task per position of the manual sub-mesh. Each cuts its blocks out of the global operands
(views), runs the compiled body with a ``spmd.DeviceContext`` (collectives exchange values
through it) and writes its result blocks into preallocated global outputs. Along a manual
axis an out_spec does not name, the device at coordinate 0 provides the value (S9.2). The
tasks run on a thread pool; NumPy releases the GIL in its kernels, so N devices use N cores.
Over a mesh spanning processes (``multiprocess.plan``) each process runs only its own
devices' tasks, the exchange crosses processes over MPI, and each output block is written
by the first local device holding it (remote blocks stay zero: the array is local-only).

Rules: JVP (the body's JVP, tangents with the primal specs), partial evaluation (the body
split into a known and an unknown shard_map; residuals travel stacked along a leading
dimension sharded over every manual axis), transposition (the body transposed per device)
and batching (vmap adds an unsharded leading dimension, S10.4). Every body these rules
build is traced inside ``in_body`` (the manual axes bound, vma types when ``check_vma``)
and its outputs cast to their specs' axes (``match_out_vma``). With vma types every device
receives a replicated result's whole cotangent and the body's own pvary/psum transposes do
the summing; with ``check_vma=False`` a replicated result's cotangent enters only on the
devices that provided it and an operand's cotangent is summed over the axes its spec does
not name (the transpose of replicating it).
"""

from __future__ import annotations

import concurrent.futures
import math
import threading
import weakref

import numpy as np

from jaxlite._src import devices as _devices
from jaxlite._src.compile.codegen import lower_impl
from jaxlite._src.compile.jit import closure_convert_consts, compiled_for
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import make_array, to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import eval_trace, trace_ctx
from jaxlite._src.interpreters.batching import batch_jaxpr
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.interpreters.transpose import transpose_jaxpr
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    parallel,
    shape as _shape,
    spmd,
    structural,
)
from jaxlite._src.sharding import array as _arr, multiprocess
from jaxlite._src.sharding.callbacks_k import (
    check_eager_body,
    check_ordered_effects,
    raise_pending,
)
from jaxlite._src.sharding.jit_shardings import sharding_rules
from jaxlite._src.sharding.specs import NamedSharding, PartitionSpec, entry_names, padded

shard_map_p = Primitive("shard_map", multiple_results=True)
sharding_hooks.sharding_primitives.add(shard_map_p)
multiprocess.passthrough.add(shard_map_p)


# ------------------------------------------------------------------------------ shapes
def _tiling(spec, ndim: int, mesh) -> list:
    return [math.prod(mesh.shape[n] for n in entry_names(e)) for e in padded(spec, ndim)]


def global_aval(block: ShapedArray, spec, mesh) -> ShapedArray:
    t = _tiling(spec, block.ndim, mesh)
    return ShapedArray(tuple(s * k for s, k in zip(block.shape, t)), block.dtype, block.weak_type)


def block_aval(aval: ShapedArray, spec, mesh, vma=frozenset()) -> ShapedArray:
    """The per-device aval of a global ``aval`` cut by ``spec`` (varying along ``vma``)."""
    t = _tiling(spec, aval.ndim, mesh)
    shape = tuple(s // k for s, k in zip(aval.shape, t))
    return ShapedArray(shape, aval.dtype, aval.weak_type, vma)


def spec_axes(spec, manual) -> frozenset:
    """The manual axes ``spec`` names: what a block with this spec varies along."""
    return frozenset(a for e in spec for a in entry_names(e) if a in manual)


def in_body(params):
    """Context for tracing (or re-tracing) a body of ``shard_map_p`` with these params:
    its manual axes bound, with vma types when ``check_vma``."""
    mesh, manual = params["mesh"], params["manual_axes"]
    return spmd.binding_axes(
        {a: mesh.shape[a] for a in manual},
        partial=len(manual) < len(mesh.axis_names),
        check_vma=params["check_vma"],
    )


def match_out_vma(closed, out_specs, manual, check_vma: bool):
    """With ``check_vma``, cast body outputs to vary along every manual axis their spec
    names (``pvary``), as JAX types them: a replicated value returned with ``P('i')`` is
    then varying, and its cotangent's transpose sums it. Must run inside ``in_body``."""
    if not check_vma:
        return closed
    want = [spec_axes(s, manual) for s in out_specs]
    if all(w <= a.vma for w, a in zip(want, closed.out_avals)):
        return closed

    def cast(*xs):
        outs = eval_jaxpr(closed.jaxpr, closed.consts, *xs)
        return [parallel.pvary(o, tuple(w - aval_of(o).vma)) for o, w in zip(outs, want)]

    new, _ = trace_to_jaxpr(cast, closed.in_avals)
    return new


def _block_slices(spec, shape: tuple, mesh, coords: dict) -> tuple:
    out = []
    for n, e in zip(shape, padded(spec, len(shape))):
        names = entry_names(e)
        if not names:
            out.append(slice(None))
            continue
        b, k = 0, 1
        for a in names:
            b = b * mesh.shape[a] + coords[a]
            k *= mesh.shape[a]
        size = n // k
        out.append(slice(b * size, (b + 1) * size))
    return tuple(out)


def _provides(spec, coords: dict, manual_axes) -> bool:
    named = {a for e in spec for a in entry_names(e)}
    return all(coords[a] == 0 for a in manual_axes if a not in named)


# ---------------------------------------------------------------------------- executor
_pool_lock = threading.Lock()
_pool: list = [None, 0]


def _executor(n: int) -> concurrent.futures.ThreadPoolExecutor:
    """A pool with room for ``n`` concurrent device tasks (all must run at once)."""
    with _pool_lock:
        if _pool[0] is None or _pool[1] < n:
            size = max(n, 2 * _pool[1], 8)
            _pool[0] = concurrent.futures.ThreadPoolExecutor(size, "jaxlite-device")
            _pool[1] = size
        return _pool[0]


# Top-level host callbacks of a body run in lockstep (``Exchange.in_turn``): each one on all
# devices, in device order, before the next effect starts; an effectful control-flow
# equation starts once every device is there, and the callbacks nested in it run where each
# device's thread reaches them (devices may loop different numbers of times). ``lockstep_p``
# wraps such an equation for execution only (its jaxpr holds that one equation).
lockstep_p = Primitive("shard_map_lockstep", multiple_results=True)


def _lockstep_impl(*args, jaxpr, turns):
    fn = compiled_for(jaxpr).fn
    ctx = spmd.current()
    if ctx is None or ctx.exchange.n == 1:
        return fn(*args)
    if not turns:  # an effectful control-flow equation: it starts when all devices are here
        ctx.exchange.in_turn(ctx.index, None)
        return fn(*args)
    return ctx.exchange.in_turn(ctx.index, lambda: fn(*args))


rules.impl_rules[lockstep_p] = _lockstep_impl
rules.abstract_eval_rules[lockstep_p] = lambda *avals, jaxpr, turns: list(jaxpr.out_avals)
rules.effects_rules[lockstep_p] = lambda *avals, jaxpr, turns: jaxpr.effects


# The wrapper exists only in executed jaxprs; its other rules are those of the equation it
# holds (applied by evaluating its transformed jaxpr).
def _lockstep_jvp(primals, tangents, *, jaxpr, turns):
    nonzeros = [type(t) is not Zero for t in tangents]
    new, out_nz = jvp_jaxpr(jaxpr, nonzeros, instantiate=False)
    nz = [t for t in tangents if type(t) is not Zero]
    outs = eval_jaxpr(new.jaxpr, new.consts, *primals, *nz)
    n = len(jaxpr.out_avals)
    it = iter(outs[n:])
    tangents_out = [
        next(it) if z else Zero(a.to_tangent_aval()) for z, a in zip(out_nz, jaxpr.out_avals)
    ]
    return list(outs[:n]), tangents_out


def _lockstep_batch(axis_data, args, dims, *, jaxpr, turns):
    new, out_dims = batch_jaxpr(jaxpr, axis_data, list(dims), instantiate=True)
    return eval_jaxpr(new.jaxpr, new.consts, *args), out_dims


rules.jvp_rules[lockstep_p] = _lockstep_jvp
rules.batch_rules[lockstep_p] = _lockstep_batch

_lockstep_cache: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _lockstep_jaxpr(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with each top-level host-callback equation (an effectful one, or a
    ``pure_callback``, which has no effect but runs user code) wrapped in ``lockstep_p``."""
    out = _lockstep_cache.get(closed, False)
    if out is not False:
        return closed if out is None else out
    jaxpr = closed.jaxpr
    user = rules.runs_user_code
    if not any(e.effects or e.primitive in user for e in jaxpr.eqns):
        _lockstep_cache[closed] = None  # unchanged (a value must not refer to its key)
        return closed
    eqns = []
    for e in jaxpr.eqns:
        if not (e.effects or e.primitive in user):
            eqns.append(e)
            continue
        ins = [Var(v.aval) for v in e.invars]
        sub_outs = [Var(v.aval) for v in e.outvars]
        inner = e.replace(invars=[v if type(v) is Literal else w for v, w in zip(e.invars, ins)])
        inner = inner.replace(outvars=sub_outs)
        keep = [w for v, w in zip(e.invars, ins) if type(v) is not Literal]
        sub = ClosedJaxpr(Jaxpr([], keep, sub_outs, [inner], e.effects), [])
        eqns.append(
            JaxprEqn(
                lockstep_p,
                [v for v in e.invars if type(v) is not Literal],
                e.outvars,
                {"jaxpr": sub, "turns": e.primitive in user},
                e.effects,
            )
        )
    out = ClosedJaxpr(
        Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, eqns, jaxpr.effects), closed.consts
    )
    _lockstep_cache[closed] = out
    return out


def _bounds(slices: tuple, shape: tuple) -> tuple:
    return tuple(
        (0 if sl.start is None else sl.start, n if sl.stop is None else sl.stop)
        for sl, n in zip(slices, shape)
    )


def _spans_processes(mesh) -> bool:
    if _devices.process_count() == 1:
        return False
    me = _devices.process_index()
    return any(d.process_index != me for d in mesh.devices.flat)


def _run_devices(sources, jaxpr, mesh, in_specs, out_specs, manual_axes, sink, name):
    """Run the body once per position of the manual sub-mesh (this process's positions,
    across processes: ``multiprocess.plan``), on threads.

    ``sources[j]`` is operand ``j``: a NumPy (global) value, or a concrete array whose
    per-device buffers feed the devices directly (``array.block_of``). ``sink(ctx,
    results)`` receives each device's results on its thread. Returns ``(exchange, procs)``.
    """
    sizes = tuple(mesh.shape[a] for a in manual_axes)
    exchange = spmd.Exchange(manual_axes, sizes)
    procs = multiprocess.plan(mesh, manual_axes, exchange.coords, name)
    if procs is not None:
        local, transport, timeout = procs
        exchange = spmd.Exchange(manual_axes, sizes, local, transport, timeout + 30.0)
    fn = compiled_for(_lockstep_jaxpr(jaxpr)).fn
    outer = spmd.current()  # nested in another shard_map's device: its coordinates stay
    contexts = [spmd.DeviceContext(exchange, i, outer) for i in exchange.local]
    shapes = [tuple(a.aval.shape) if hasattr(a, "aval") else a.shape for a in sources]
    names = mesh.axis_names

    def run(j: int) -> None:
        ctx = contexts[j]
        prev = spmd.current()
        spmd.set_current(ctx)
        try:
            device = mesh.devices[tuple(ctx.coords.get(a, 0) for a in names)]
            blocks = []
            for a, sh, sp in zip(sources, shapes, in_specs):
                sl = _block_slices(sp, sh, mesh, ctx.coords)
                if type(a) is np.ndarray:
                    blocks.append(a[sl])
                else:
                    blocks.append(_arr.block_of(a, device, _bounds(sl, sh)))
            sink(ctx, fn(*blocks))
        except BaseException:
            exchange.abort()
            raise
        finally:
            spmd.set_current(prev)

    if procs is not None:
        with multiprocess.per_device_callbacks():
            _run_all(contexts, run)
    else:
        _run_all(contexts, run)
    return exchange, procs


def _run_all(contexts, run) -> None:
    n = len(contexts)
    if n == 1:
        run(0)
    elif n > 1:
        pool = _executor(n - 1)
        futures = [pool.submit(run, i) for i in range(1, n)]
        errors = []
        try:
            run(0)
        except BaseException as e:  # noqa: BLE001 (re-raised below, after the others)
            errors.append(e)
        for f in futures:
            e = f.exception()
            if e is not None:
                errors.append(e)
        if errors:
            real = [e for e in errors if not isinstance(e, threading.BrokenBarrierError)]
            raise (real or errors)[0]


def _shard_map_impl(*args, jaxpr, mesh, in_specs, out_specs, manual_axes, check_vma, name):
    """The impl on NumPy values (generated code): global operands in, global results out,
    each device writing its result blocks into them (across processes: this process's
    blocks of zero-filled global buffers, ``multiprocess``)."""
    args = [np.asarray(a) for a in args]
    alloc = np.zeros if _spans_processes(mesh) else np.empty
    outs = [
        alloc(global_aval(a, s, mesh).shape, a.dtype) for a, s in zip(jaxpr.out_avals, out_specs)
    ]
    providers: list = []

    def sink(ctx, res):
        ex = ctx.exchange
        for k, (o, r, s) in enumerate(zip(outs, res, out_specs)):
            if ex.transport is None and len(ex.local) == ex.n:
                ok = _provides(s, ctx.coords, manual_axes)
            else:
                with _pool_lock:
                    if not providers:
                        providers.extend(multiprocess.out_providers(out_specs, ex.coords, ex.local))
                ok = ctx.index in providers[k]
            if ok:
                o[_block_slices(s, o.shape, mesh, ctx.coords)] = r

    _run_devices(args, jaxpr, mesh, in_specs, out_specs, manual_axes, sink, name)
    return outs


def run_sharded(args, *, jaxpr, mesh, in_specs, out_specs, manual_axes, check_vma, name) -> list:
    """Run a shard_map on concrete operands without global copies: each device's body gets
    its own buffer (a view of it) and its results become that device's buffers of the
    returned ``ShardedArray``s (``NamedSharding(mesh, out_spec)``). Devices along the
    automatic axes of a partially manual mesh share their manual position's buffers.
    Across processes it runs the global-buffer impl (``multiprocess``'s model)."""
    check_eager_body(jaxpr.jaxpr, mesh.size)  # K10 (eager callers only)
    raise_pending(jaxpr.jaxpr)
    params = dict(jaxpr=jaxpr, mesh=mesh, in_specs=in_specs, out_specs=out_specs)
    params.update(manual_axes=manual_axes, check_vma=check_vma, name=name)
    if _spans_processes(mesh):
        outs = shard_map_p.bind(*args, **params)
        return [_arr.with_sharding(o, NamedSharding(mesh, s)) for o, s in zip(outs, out_specs)]
    n_out = len(jaxpr.out_avals)
    results: dict = {}

    def sink(ctx, res):
        results[ctx.index] = [make_array(r, a)._value for r, a in zip(res, jaxpr.out_avals)]

    ex, _ = _run_devices(args, jaxpr, mesh, in_specs, out_specs, manual_axes, sink, name)
    pos = {tuple(c[a] for a in manual_axes): i for i, c in enumerate(ex.coords)}
    index = {}
    for coords in np.ndindex(*mesh.devices.shape):
        full = dict(zip(mesh.axis_names, coords))
        index[mesh.devices[coords]] = pos[tuple(full[a] for a in manual_axes)]
    outs = []
    for k in range(n_out):
        aval = global_aval(jaxpr.out_avals[k], out_specs[k], mesh)
        sharding = NamedSharding(mesh, out_specs[k])
        bufs = {d: results[i][k] for d, i in index.items()}
        outs.append(_arr.ShardedArray.from_buffers(bufs, aval, sharding, True))
    return outs


def _shard_map_abstract_eval(*avals, jaxpr, mesh, out_specs, **params):
    return [global_aval(a, s, mesh) for a, s in zip(jaxpr.out_avals, out_specs)]


def _shard_map_effects(*avals, jaxpr, **params):
    return jaxpr.effects


def _shard_map_eager_impl(*args, **params):
    """Bound eagerly (a transformation's shard_map at the eval trace): JAX's eager rules (K10)."""
    check_eager_body(params["jaxpr"].jaxpr, params["mesh"].size)
    raise_pending(params["jaxpr"].jaxpr)
    return _shard_map_impl(*args, **params)


def _shard_map_lower(ctx, eqn, ins, outs):
    """Compiled: JAX raises K10 for ordered debug effects when it lowers for the mesh."""
    check_ordered_effects(eqn.params["jaxpr"].effects, eqn.params["mesh"].size)
    raise_pending(eqn.params["jaxpr"].jaxpr)
    return lower_impl(_shard_map_impl, ctx, eqn, ins, outs)


rules.impl_rules[shard_map_p] = _shard_map_eager_impl
rules.lower_rules[shard_map_p] = _shard_map_lower
sharding_hooks.run_sharded = run_sharded
rules.abstract_eval_rules[shard_map_p] = _shard_map_abstract_eval
rules.effects_rules[shard_map_p] = _shard_map_effects


def _shard_map_vma(avals_in, avals_out, **params):
    # Nested in another vma-checked body: the results vary along the outer axes the
    # operands vary along.
    union = frozenset().union(*(a.vma for a in avals_in))
    return [a.update(vma=union) for a in avals_out]


rules.vma_rules[shard_map_p] = _shard_map_vma
sharding_rules[shard_map_p] = lambda eqn, ins: [
    (NamedSharding(eqn.params["mesh"], s), True) for s in eqn.params["out_specs"]
]


# ------------------------------------------------------------------------------- rules
def _replace(params, **kw):
    new = dict(params)
    new.update(kw)
    return new


def _shard_map_jvp(primals, tangents, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    nonzeros = [type(t) is not Zero for t in tangents]
    with in_body(params):
        new, out_nz = jvp_jaxpr(jaxpr, nonzeros, instantiate=False)
        new_out_specs = tuple(out_specs) + tuple(s for s, nz in zip(out_specs, out_nz) if nz)
        new = match_out_vma(new, new_out_specs, params["manual_axes"], params["check_vma"])
    nz_tangents = [t for t in tangents if type(t) is not Zero]
    outs = shard_map_p.bind(
        *primals,
        *nz_tangents,
        **_replace(
            params,
            jaxpr=new,
            in_specs=tuple(in_specs) + tuple(s for s, nz in zip(in_specs, nonzeros) if nz),
            out_specs=new_out_specs,
        ),
    )
    n = len(jaxpr.out_avals)
    primals_out, it = outs[:n], iter(outs[n:])
    tangents_out = [
        next(it) if nz else Zero(a.to_tangent_aval())
        for nz, a in zip(out_nz, _shard_map_abstract_eval(*primals, **params))
    ]
    return primals_out, tangents_out


def _stack_spec(manual_axes) -> PartitionSpec:
    return PartitionSpec(tuple(manual_axes) if len(manual_axes) > 1 else manual_axes[0])


def _shard_map_partial_eval(trace, tracers, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    manual = params["manual_axes"]
    check_vma = params["check_vma"]
    unknowns = [trace.is_unknown(t) for t in tracers]
    with in_body(params):
        known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(jaxpr, unknowns, False)
    known, kconsts = closure_convert_consts(known)
    n_known_out = len(known.out_avals) - num_res
    res_avals = [a for a in known.out_avals[n_known_out:]]
    # Residuals leave the known body stacked along a new leading dimension sharded over
    # every manual axis, so each device gets its own back, whatever its type says (a
    # callback's result is typed invariant but may differ between devices). The unknown
    # body still sees each residual with its own type (vma), as JAX's staged body does.
    stack = _stack_spec(manual) if manual else PartitionSpec()
    res_specs = (stack,) * num_res

    # Known part: residuals leave each device with a leading dimension of size 1, so the
    # global residual stacks every device's value.
    def known_body(*xs):
        outs = eval_jaxpr(known.jaxpr, known.consts, *xs)
        res = [_shape.reshape(r, (1, *r.aval.shape)) for r in outs[n_known_out:]]
        return list(outs[:n_known_out]) + res

    k_out_specs = tuple(s for s, u in zip(out_specs, out_unk) if not u) + res_specs
    with in_body(params):
        known_body_j, _ = trace_to_jaxpr(known_body, known.in_avals)
        known_body_j = match_out_vma(known_body_j, k_out_specs, manual, check_vma)
    known_body_j, kc2 = closure_convert_consts(known_body_j)
    k_in_specs = (PartitionSpec(),) * (len(kc2) + len(kconsts)) + tuple(
        s for s, u in zip(in_specs, unknowns) if not u
    )
    known_ins = [t for t, u in zip(tracers, unknowns) if not u]
    k_outs = shard_map_p.bind_with_trace(
        trace.parent_trace,
        list(kc2) + list(kconsts) + known_ins,
        _replace(params, jaxpr=known_body_j, in_specs=k_in_specs, out_specs=k_out_specs),
    )
    known_outs, res = k_outs[:n_known_out], k_outs[n_known_out:]

    unknown, uconsts = closure_convert_consts(unknown)
    n_uc = len(uconsts)

    def unknown_body(*xs):
        consts, stacked, rest = xs[:n_uc], xs[n_uc : n_uc + num_res], xs[n_uc + num_res :]
        res_vals = [_shape.reshape(r, a.shape) for r, a in zip(stacked, res_avals)]
        return eval_jaxpr(unknown.jaxpr, unknown.consts, *consts, *res_vals, *rest)

    unk_in_avals = unknown.in_avals
    stacked_avals = [a.update(shape=(1, *a.shape)) for a in res_avals]
    u_out_specs = tuple(s for s, u in zip(out_specs, out_unk) if u)
    with in_body(params):
        unknown_body_j, _ = trace_to_jaxpr(
            unknown_body,
            list(unk_in_avals[:n_uc]) + stacked_avals + list(unk_in_avals[n_uc + num_res :]),
        )
        unknown_body_j = match_out_vma(unknown_body_j, u_out_specs, manual, check_vma)
    unknown_body_j, uc2 = closure_convert_consts(unknown_body_j)
    u_in_specs = (
        (PartitionSpec(),) * (len(uc2) + n_uc)
        + res_specs
        + tuple(s for s, u in zip(in_specs, unknowns) if u)
    )
    unk_ins = [t for t, u in zip(tracers, unknowns) if u]
    u_outs = trace.stage(
        shard_map_p,
        list(uc2) + list(uconsts) + list(res) + unk_ins,
        _replace(params, jaxpr=unknown_body_j, in_specs=u_in_specs, out_specs=u_out_specs),
    )
    k_it, u_it = iter(known_outs), iter(u_outs)
    return [next(u_it) if u else next(k_it) for u in out_unk]


def _missing_axes(spec, manual) -> tuple:
    named = {a for e in spec for a in entry_names(e)}
    return tuple(a for a in manual if a not in named)


def _first_along(axes) -> object:
    """A boolean: this device has coordinate 0 along every axis in ``axes``."""
    ok = None
    for a in axes:
        z = ew.eq(parallel.axis_index_p.bind(axis_name=(a,)), _shape.full((), 0, np.int32))
        ok = z if ok is None else ew.and_(ok, z)
    return ok


def _shard_map_transpose(cts, *args, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    manual = params["manual_axes"]
    check_vma = params["check_vma"]
    mask = [is_undefined_primal(a) for a in args]
    if all(type(c) is Zero for c in cts) and not jaxpr.effects:
        return [Zero(a.aval.to_tangent_aval()) if m else None for a, m in zip(args, mask)]
    # Traced with the weak types of the actual cotangents, as JAX does.
    ct_avals = [
        a.to_tangent_aval().update(weak_type=aval_of(c).weak_type) if type(c) is not Zero else None
        for a, c in zip(jaxpr.out_avals, cts)
    ]
    ct_avals = [c or a.to_tangent_aval() for c, a in zip(ct_avals, jaxpr.out_avals)]
    with in_body(params):
        t = transpose_jaxpr(jaxpr, mask, ct_avals)
    t, tconsts = closure_convert_consts(t)
    n_tc = len(tconsts)
    n_nl = sum(not m for m in mask)
    lin_specs = [s for s, m in zip(in_specs, mask) if m]

    # With vma types every device receives a replicated result's whole cotangent, and the
    # body's transpose sums the cotangents of invariant values itself (the transpose of
    # their implicit pvary), so an operand's cotangent is complete on each device; one that
    # still varies along an axis its spec does not name is summed along it. Without vma
    # types (check_vma=False) a replicated result's cotangent enters only on the devices
    # that provided the value, and an operand's cotangent is summed over the axes its spec
    # does not name (the transpose of replicating it): the derivative of what runs.
    def body(*xs):
        consts, nonlin, cts_b = xs[:n_tc], xs[n_tc : n_tc + n_nl], list(xs[n_tc + n_nl :])
        for i, s in enumerate(out_specs):
            missing = _missing_axes(s, manual)
            if missing and not check_vma:
                keep = _first_along(missing)
                c = cts_b[i]
                keep = _shape.broadcast_to_rank(
                    conversion.convert_element_type(keep, c.aval.dtype), c.aval.shape
                )
                cts_b[i] = ew.mul(c, keep)
        outs = eval_jaxpr(t.jaxpr, t.consts, *consts, *nonlin, *cts_b)
        res = []
        for o, s in zip(outs, lin_specs):
            missing = _missing_axes(s, manual)
            if check_vma:
                missing = tuple(a for a in missing if a in aval_of(o).vma)
            res.append(parallel.psum_p.bind(o, axis_name=missing) if missing else o)
        return res

    with in_body(params):
        body_j, _ = trace_to_jaxpr(body, t.in_avals)
        body_j = match_out_vma(body_j, lin_specs, manual, check_vma)
    body_j, bconsts = closure_convert_consts(body_j)
    nonlin = [a for a, m in zip(args, mask) if not m]
    nl_specs = tuple(s for s, m in zip(in_specs, mask) if not m)
    outs = shard_map_p.bind(
        *bconsts,
        *tconsts,
        *nonlin,
        *[structural.instantiate(c) for c in cts],
        **_replace(
            params,
            jaxpr=body_j,
            in_specs=(PartitionSpec(),) * (len(bconsts) + n_tc) + nl_specs + tuple(out_specs),
            out_specs=tuple(lin_specs),
            name=f"transpose({params['name']})",
        ),
    )
    it = iter(outs)
    return [next(it) if m else None for m in mask]


def _shard_map_batch(axis_data, args, dims, **params):
    jaxpr, in_specs, out_specs = params["jaxpr"], params["in_specs"], params["out_specs"]
    moved, new_in_specs, dims_in = [], [], []
    for x, d, s in zip(args, dims, in_specs):
        if d is not_mapped:
            moved.append(x)
            new_in_specs.append(s)
            dims_in.append(not_mapped)
        else:
            moved.append(_shape.moveaxis(x, d, 0) if d != 0 else x)
            new_in_specs.append(PartitionSpec(None, *s))
            dims_in.append(0)
    with in_body(params):
        new, out_dims = batch_jaxpr(jaxpr, axis_data, dims_in, instantiate=True)
    new_out_specs = tuple(PartitionSpec(None, *s) for s in out_specs)
    new_params = _replace(params, jaxpr=new, in_specs=tuple(new_in_specs), out_specs=new_out_specs)
    if trace_ctx.trace is eval_trace:
        # Eager vmap of a shard_map: per-device buffers, results placed as
        # ``NamedSharding(mesh, P(None, *out_spec))`` (S10.4), as the unbatched call.
        outs = run_sharded([to_array(x) for x in moved], **new_params)
    else:
        outs = shard_map_p.bind(*moved, **new_params)
    return outs, [0] * len(outs)


rules.jvp_rules[shard_map_p] = _shard_map_jvp
rules.partial_eval_rules[shard_map_p] = _shard_map_partial_eval
rules.transpose_rules[shard_map_p] = _shard_map_transpose
rules.batch_rules[shard_map_p] = _shard_map_batch

__all__ = ["block_aval", "global_aval", "in_body", "match_out_vma", "shard_map_p", "spec_axes"]
