"""``jit``: stage a function to a jaxpr, simplify, generate NumPy code, cache.

Cache key (per jitted function): the input pytree structure, each leaf's aval (shape, dtype,
weak type), the static arguments (with their types), the config epoch (the flags, x64 and
friends, and every context a trace reads: the mesh context, ``auto_axes``, ``checkify``...,
see ``config.set_trace_context``), the arguments' Explicit shardings and, under a
transformation, the named axes bound (``vmap(axis_name=...)``, shard_map bodies). A hit
costs a flatten, a dict lookup, the generated function and the output wrapping; the
one-argument identity hit compares the aval and the epoch only.

Under a transformation (jvp, vmap, an outer jit...), a jitted call binds ``jit_p`` with the
traced jaxpr as a param, so each transformation applies ``jit_p``'s rules to the whole body
(the user function is still traced only once per signature).
"""

from __future__ import annotations

import functools
import inspect
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes, tree_util
from jaxlite._src.api_plumbing import canonicalize_argnums
from jaxlite._src.compile import codegen, donation, jit_refs
from jaxlite._src.compile.jit_args import check_donation, infer_argnums_and_argnames
from jaxlite._src.compile.jit_debug import debug_after_trace, live_tracers, refuse_trace
from jaxlite._src.compile.jit_refs import leaf_value as _leaf_value
from jaxlite._src.compile.stage_info import StageInfo
from jaxlite._src.core import array as _array, rules, sharding_hooks, trace as _trace
from jaxlite._src.core.array import ArrayImpl, foreign_to_numpy, freeze_chain, make_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, closure_convert_consts, subjaxprs
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.core.trace import (
    Tracer,
    check_debug_values,
    escaped_tracer_error,
    eval_trace,
    find_debug_value,
    trace_ctx,
)
from jaxlite._src.interpreters import dce as _dce, simplify as _simplify, staging as _staging
from jaxlite._src.interpreters.batching import batch_jaxpr
from jaxlite._src.interpreters.eval import eval_closed_jaxpr
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_call
from jaxlite._src.interpreters.staging import abstractify, argument_type_error, trace_flat_refs
from jaxlite._src.interpreters.transpose import transpose_jaxpr
from jaxlite._src.ops.parallel import axis_env_key
from jaxlite._src.ops.structural import instantiate

# Process-wide counters, for tests and benchmarks (``jaxlite.jit_stats()``).
stats = {"traces": 0, "compiles": 0}


# ------------------------------------------------------------------------------ jit_p
jit_p = Primitive("jit", multiple_results=True)
_simplify.inline_primitives.add(jit_p)


class _Compiled:
    __slots__ = ("fn", "source", "out_avals", "jaxpr", "placed", "__weakref__")

    def __init__(self, closed: ClosedJaxpr):
        simplified = _simplify.simplify(closed)
        self.fn, self.source = codegen.compile_jaxpr(simplified)
        self.out_avals = closed.out_avals
        self.jaxpr = simplified
        # Results carry shardings (shard_map, with_sharding_constraint...): no fast path.
        prims = sharding_hooks.sharding_primitives
        self.placed = (
            any(e.primitive in prims for e in simplified.jaxpr.eqns)
            or any(
                type(c) is not ArrayImpl and isinstance(c, ArrayImpl) and c._placed
                for c in simplified.consts
            )
            or _pending_callback(simplified.jaxpr)
        )
        stats["compiles"] += 1


def _pending_callback(jaxpr) -> bool:
    """Whether a host callback in ``jaxpr`` (at any depth) holds a deferred ``sharding=``
    error or names a device: the sharding layer's ``jit_call`` then checks it before
    running anything."""
    for eqn in jaxpr.eqns:
        cb = eqn.params.get("callback")
        host = getattr(cb, "base", cb)
        if getattr(host, "pending", None) is not None or getattr(host, "device", None):
            return True
    return any(_pending_callback(sub) for sub in subjaxprs(jaxpr))


_compiled_cache: weakref.WeakKeyDictionary[ClosedJaxpr, _Compiled] = weakref.WeakKeyDictionary()


def compiled_for(closed: ClosedJaxpr) -> _Compiled:
    c = _compiled_cache.get(closed)
    if c is None:
        c = _Compiled(closed)
        _compiled_cache[closed] = c
    return c


def _jit_impl(*args, jaxpr, name):
    outs = compiled_for(jaxpr).fn(*args)
    checks = _cfg.debug_value_checks()
    if checks is not None:
        _debug_deoptimize(jaxpr, args, outs, checks, name)
    return outs


def _debug_deoptimize(closed: ClosedJaxpr, args, outs, checks, name: str) -> None:
    """``jax_debug_nans``/``jax_debug_infs`` for compiled code: if an output holds a NaN
    (inf), re-run the jaxpr one primitive at a time, which raises ``FloatingPointError``
    naming the primitive that produced it (as JAX re-runs the de-optimized function)."""
    kind = find_debug_value(outs, checks)
    if kind is None:
        return
    eval_closed_jaxpr(closed, *args)
    # No primitive produced it (e.g. an input passed through): blame the jitted function.
    check_debug_values(f"jit({name})", outs, checks)


def _jit_abstract_eval(*avals, jaxpr, name):
    return jaxpr.out_avals


def _jit_effects(*avals, jaxpr, name):
    return jaxpr.effects


def _jit_jvp(primals, tangents, *, jaxpr, name):
    nonzeros = [type(t) is not Zero for t in tangents]
    new, out_nz = jvp_jaxpr(jaxpr, nonzeros, instantiate=False)
    nz_tangents = [t for t in tangents if type(t) is not Zero]
    outs = jit_p.bind(*primals, *nz_tangents, jaxpr=new, name=name)
    n = len(jaxpr.out_avals)
    primals_out, it = outs[:n], iter(outs[n:])
    tangents_out = [
        next(it) if nz else Zero(a.to_tangent_aval()) for nz, a in zip(out_nz, jaxpr.out_avals)
    ]
    return primals_out, tangents_out


def _jit_batch(axis_data, args, dims, *, jaxpr, name):
    new, out_dims = batch_jaxpr(jaxpr, axis_data, dims, instantiate=False)
    return jit_p.bind(*args, jaxpr=new, name=name), out_dims


def _jit_partial_eval(trace, tracers, *, jaxpr, name):
    """Split a jit call into a known call (run now, also returns residuals) and an unknown
    call staged with the residuals."""
    return partial_eval_call(trace, jit_p, tracers, jaxpr, name=name)


def _jit_transpose(cts, *args, jaxpr, name):
    mask = [is_undefined_primal(a) for a in args]
    if not any(type(c) is not Zero for c in cts) and not jaxpr.effects:
        return [Zero(a.aval.to_tangent_aval()) if m else None for a, m in zip(args, mask)]
    cts = [instantiate(c) for c in cts]
    # Traced with the actual cotangents' avals, as JAX does (their weak types matter).
    t, tconsts = closure_convert_consts(transpose_jaxpr(jaxpr, mask, map(aval_of, cts)))
    nonlin = [a for a, m in zip(args, mask) if not m]
    outs = jit_p.bind(*tconsts, *nonlin, *cts, jaxpr=t, name=f"transpose({name})")
    it = iter(outs)
    return [next(it) if m else None for m in mask]


rules.partial_eval_rules[jit_p] = _jit_partial_eval
rules.transpose_rules[jit_p] = _jit_transpose
rules.impl_rules[jit_p] = _jit_impl
rules.abstract_eval_rules[jit_p] = _jit_abstract_eval
rules.vma_rules[jit_p] = rules.keep_vma
rules.effects_rules[jit_p] = _jit_effects
rules.jvp_rules[jit_p] = _jit_jvp
rules.batch_rules[jit_p] = _jit_batch
rules.dce_rules[jit_p] = _dce.dce_call_rule
rules.remat_replay_rules[jit_p] = "call"


rules.lower_rules[jit_p] = codegen.lower_as_call
rules.native_inline[jit_p] = "jaxpr"


# -------------------------------------------------------------------------- front end
def hash_static(x, what):
    try:
        hash(x)
    except TypeError as e:
        raise ValueError(
            f"Non-hashable static arguments are not supported. An error occurred while trying "
            f"to hash an object of type {type(x)}, {x}. The error was:\nTypeError: {e}\n"
            f"(while handling {what}). Pass it as a regular (traced) argument, or convert it "
            "to a hashable type such as a tuple."
        ) from None
    return x


def _leaf_key(x):
    if type(x) is ArrayImpl:
        return x.aval
    return abstractify(x)


class _CacheEntry:
    __slots__ = ("closed", "out_tree", "compiled", "has_tracer_consts", "donation", "ref_plan")

    def __init__(self, closed, out_tree, ref_plan=None):
        self.closed = closed
        self.out_tree = out_tree
        self.ref_plan = ref_plan  # staging.RefPlan: refs taken or touched (jit_refs.py)
        self.compiled = None
        self.donation = None  # donation.Plan of a donating jit, made on its first call
        self.has_tracer_consts = any(isinstance(c, Tracer) for c in closed.consts)


def _output_wrapper(out_avals, out_tree) -> Callable:
    """A function turning the generated code's output list into the user's pytree."""
    new, cls, ndarray = ArrayImpl.__new__, ArrayImpl, np.ndarray

    def adopt_fast(o, aval):
        # ``ArrayImpl(o, aval)`` inline: the hit path of every jitted call.
        if type(o) is ndarray and (o.dtype is aval.dtype or o.dtype == aval.dtype):
            o.setflags(False)
            b = o.base
            if b is not None:
                freeze_chain(b)
            a = new(cls)
            a._value = o
            a.aval = aval
            return a
        return make_array(o, aval)

    # float0 outputs (gradients of integer inputs) are NumPy arrays, as JAX returns them.
    float0 = any(a.dtype == dtypes.float0 for a in out_avals)
    adopt = _array.make_output if float0 else adopt_fast

    if tree_util.treedef_is_one_leaf(out_tree):
        (aval,) = out_avals
        return lambda outs: adopt(outs[0], aval)

    unflatten = tree_util.tree_unflatten

    def wrap(outs):
        return unflatten(out_tree, list(map(adopt, outs, out_avals)))

    return wrap


def _trace_key(in_tree, statics, avals, in_shardings=None) -> tuple:
    """The trace cache key of a call: everything its trace depends on (module docstring).
    The hit paths of ``PjitFunction.__call__`` key on the epoch and avals alone: they run only
    at the top level (no axes bound) with plain arrays (no Explicit shardings)."""
    key = (in_tree, statics, _cfg.config.epoch, avals)
    if in_shardings is not None:
        key = (*key, in_shardings)
    if trace_ctx.trace is not eval_trace:
        axes = axis_env_key()
        if axes is not None:
            key = (*key, "axes", axes)
    return key


# fun -> {jit options: (trace cache, fast cache)}; entries die with the function.
_caches_by_fun: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def clear_caches() -> None:
    """Drop every jit trace and compiled function: each jitted function traces again on
    its next call. A new config epoch makes the keys made before miss, the one-argument
    identity hit of every wrapper included."""
    for per_options in list(_caches_by_fun.values()):
        for trace_cache, fast_cache in list(per_options.values()):
            trace_cache.clear()
            fast_cache.clear()
    _compiled_cache.clear()
    _trace._avals_cache.clear()
    _cfg.config.new_epoch()


def _freeze(x):
    return tuple(x) if isinstance(x, (list, tuple)) else x


def _shared_caches(fun: Callable, options: tuple) -> tuple[dict, dict]:
    """The trace and fast caches of ``fun`` jitted with ``options``, shared by every
    ``jit(fun, **options)`` wrapper (private ones for functions that cannot be weakly keyed)."""
    try:
        per_fun = _caches_by_fun.get(fun)
        if per_fun is None:
            per_fun = _caches_by_fun[fun] = {}
        caches = per_fun.get(options)
        if caches is None:
            caches = per_fun[options] = ({}, {})
        return caches
    except TypeError:  # unhashable or not weakly referenceable (a builtin, an odd callable)
        return {}, {}


class PjitFunction:
    """The callable ``jax.jit`` returns (JAX's type name: chex looks for it)."""

    def __init__(
        self,
        fun: Callable,
        static_argnums=None,
        static_argnames=None,
        donate_argnums=None,
        donate_argnames=None,
        inline: bool = False,
        keep_unused: bool = False,
        in_shardings: Any = None,
        out_shardings: Any = None,
        **unsupported,
    ):
        if not callable(fun):
            raise TypeError(f"Expected a callable value, got {fun}")
        self._fun = fun
        functools.update_wrapper(self, fun, updated=())
        self._sig = None
        try:
            self._sig = inspect.signature(fun)
        except (TypeError, ValueError):
            pass
        # negative indices, in the order given (checked against each call's arguments)
        self._neg_statics = tuple(i for i in canonicalize_argnums(static_argnums) if i < 0)
        static_argnums, static_argnames = infer_argnums_and_argnames(
            self._sig, static_argnums, static_argnames
        )
        self._static_argnums = static_argnums
        self._static_argnames = static_argnames
        # (argnums, argnames) donated, one inferred from the other when only one is given
        self._donate = check_donation(self._sig, donate_argnums, donate_argnames, static_argnames)
        self._keep_unused = keep_unused
        self._name = getattr(fun, "__name__", "fun")
        # Hit path for the common call: positional ArrayImpl arguments, no statics, nothing
        # donated (a donating call deletes arguments: compile/donation.py).
        self._fast_ok = not static_argnums and not static_argnames and self._donate is None
        # (in_shardings, out_shardings) when either is given (sharding/jit_shardings.py).
        self.shardings = None
        if in_shardings is not None or out_shardings is not None:
            self.shardings = (in_shardings, out_shardings)
            self._fast_ok = False
        # As in JAX, the caches belong to the function (and the jit options), not to this
        # wrapper: ``jit(f)(x); jit(f)(y)`` traces ``f`` once.
        self._cache, self._fast_cache = _shared_caches(
            fun,
            (
                static_argnums,
                static_argnames,
                self._donate,
                inline,
                keep_unused,
                _freeze(self.shardings),
            ),
        )
        self._last_hit: tuple | None = None  # (aval, config epoch, fn, wrap)
        self.trace_count = 0

    # -- signature handling
    def _split(self, args, kwargs):
        for i in self._neg_statics:
            if i < -len(args):
                raise ValueError(
                    "Positional argument indices, e.g. for `static_argnums`, must have value "
                    "greater than or equal to -len(args) and less than len(args), but got "
                    f"value {i} for len(args) == {len(args)}."
                )
        statics = []
        dyn_args = []
        for i, a in enumerate(args):
            if i in self._static_argnums or (i - len(args)) in self._static_argnums:
                # The type is part of the key: 1, 1.0 and True are equal but trace apart.
                statics.append(("p", i, hash_static(a, f"static argument {i}"), type(a)))
            else:
                dyn_args.append(a)
        dyn_kwargs = {}
        for k, v in kwargs.items():
            if k in self._static_argnames:
                statics.append(("k", k, hash_static(v, f"static argument {k!r}"), type(v)))
            else:
                dyn_kwargs[k] = v
        return tuple(statics), tuple(dyn_args), dyn_kwargs

    def _avals(self, flat, args, kwargs, abstract_ok: bool = False):
        try:
            if abstract_ok:  # trace/lower: ShapeDtypeStructs and ShapedArrays stand for arrays
                return tuple(map(_staging.abstract_arg_aval, flat))
            return tuple(map(_leaf_key, flat))
        except TypeError:
            # JAX's message names the bad argument by its path (static ones skipped)
            n = len(args)
            err = argument_type_error(
                self._fun,
                tuple(
                    None if i in self._static_argnums or i - n in self._static_argnums else a
                    for i, a in enumerate(args)
                ),
                {k: None if k in self._static_argnames else v for k, v in kwargs.items()},
                structs_ok=abstract_ok,
            )
            if err is None:
                raise
            raise err from None

    def _rebuild(self, statics, nargs):
        pos = {i: v for kind, i, v, _ in statics if kind == "p"}
        kws = {k: v for kind, k, v, _ in statics if kind == "k"}

        def f(*dyn_args, **dyn_kwargs):
            it = iter(dyn_args)
            full = [pos[i] if i in pos else next(it) for i in range(nargs)]
            return self._fun(*full, **dyn_kwargs, **kws)

        return f

    def _get_entry(self, statics, nargs, in_tree, avals, key, in_shardings=None):
        try:
            entry = self._cache.get(key)
        except Exception:
            # A key of the same hash compared: JAX's error where its structure's metadata
            # cannot be compared (arrays in a custom node's aux data), else the comparison's.
            for k in list(self._cache):
                tree_util.treedefs_equal(in_tree, k[0])
            raise
        if entry is None or entry.has_tracer_consts:
            if _cfg.config.read("jax_no_tracing"):
                refuse_trace(self._fun)
            f = self._rebuild(statics, nargs)
            self.trace_count += 1
            stats["traces"] += 1
            t0 = time.perf_counter()
            before = live_tracers() if _cfg.config.read("jax_check_tracer_leaks") else None
            closed, out_tree, plan = trace_flat_refs(
                f, in_tree, avals, in_shardings=in_shardings, source=(self._fun, "jit")
            )
            if before is not None or _cfg.config.read("jax_log_compiles"):
                debug_after_trace(self, avals, time.perf_counter() - t0, before)
            entry = _CacheEntry(closed, out_tree, plan)
            if not entry.has_tracer_consts:
                self._cache[key] = entry
        return entry

    def __call__(self, *args, **kwargs):
        if self._fast_ok and not kwargs and trace_ctx.trace is eval_trace:
            if len(args) == 1:
                # The last one-argument hit, checked by identity: no key to build or hash.
                a, last = args[0], self._last_hit
                if (
                    last is not None
                    and type(a) is ArrayImpl
                    and a.aval is last[0]
                    and last[1] == _cfg.config.epoch
                ):
                    return last[3](last[2](a._value))
            try:
                key = (_cfg.config.epoch, *[a.aval for a in args if type(a) is ArrayImpl])
            except AttributeError:
                key = None
            hit = (
                self._fast_cache.get(key) if key is not None and len(key) == len(args) + 1 else None
            )
            if hit is not None:
                fn, wrap = hit
                if len(args) == 1:
                    self._last_hit = (args[0].aval, key[0], fn, wrap)
                return wrap(fn(*[a._value for a in args]))
            # Pytrees of arrays (a model's parameters): keyed on the arguments' treespec too.
            leaves, spec = tree_util.flatten_for_key(args)
            key = (_cfg.config.epoch, spec, *[a.aval for a in leaves if type(a) is ArrayImpl])
            if len(key) == len(leaves) + 2:
                try:
                    hit = self._fast_cache.get(key)
                except TypeError:  # a node's unhashable metadata: the trace cache says why
                    hit = None
                if hit is not None:
                    fn, wrap = hit
                    return wrap(fn(*[a._value for a in leaves]))
        if _cfg.disable_jit_enabled():
            return self._fun(*args, **kwargs)
        statics, dyn_args, dyn_kwargs = self._split(args, kwargs)
        flat, in_tree = tree_util.tree_flatten((dyn_args, dyn_kwargs))
        avals = self._avals(flat, args, kwargs)
        # Arguments on Explicit meshes: their shardings are part of the traced types (S8).
        in_shardings = sharding_hooks.trace_shardings(flat)
        key = _trace_key(in_tree, statics, avals, in_shardings)
        entry = self._get_entry(statics, len(args), in_tree, avals, key, in_shardings)
        if entry.ref_plan is not None:
            return jit_refs.call(self, entry, flat, args, kwargs, compiled_for, jit_p)
        if trace_ctx.trace is eval_trace:
            compiled = entry.compiled
            if compiled is None:
                compiled = entry.compiled = compiled_for(entry.closed)
            checks = _cfg.debug_value_checks()
            plan = None if self._donate is None else self._donation_plan(entry, args, kwargs)
            if plan is not None:
                plan.check(flat)
            if (
                self.shardings is not None
                or compiled.placed
                or any(
                    type(x) is not ArrayImpl and isinstance(x, ArrayImpl) and x._placed
                    for x in flat
                )
            ):
                outs = sharding_hooks.jit_call(self, compiled, flat, in_tree, entry.out_tree)
                if plan is not None:
                    plan.delete(flat)
                return tree_util.tree_unflatten(entry.out_tree, outs)
            if (
                self._fast_ok
                and checks is None
                and not kwargs
                and all(type(a) is ArrayImpl for a in flat)
            ):
                hit = compiled.fn, _output_wrapper(compiled.out_avals, entry.out_tree)
                if len(flat) == len(args) and all(type(a) is ArrayImpl for a in args):
                    self._fast_cache[(_cfg.config.epoch, *avals)] = hit
                else:
                    spec = tree_util.flatten_for_key(args)[1]
                    self._fast_cache[(_cfg.config.epoch, spec, *avals)] = hit
            in_vals = [_leaf_value(x, a) for x, a in zip(flat, avals)]
            outs = compiled.fn(*in_vals)
            if checks is not None:
                _debug_deoptimize(entry.closed, in_vals, outs, checks, self._name)
            outs = [_array.make_output(o, a) for o, a in zip(outs, compiled.out_avals)]
            if plan is not None:
                plan.delete(flat)
            return tree_util.tree_unflatten(entry.out_tree, outs)
        closed, consts = closure_convert_consts(entry.closed)
        outs = jit_p.bind(*consts, *flat, jaxpr=closed, name=self._name)
        return tree_util.tree_unflatten(entry.out_tree, outs)

    def _donation_plan(self, entry: _CacheEntry, args, kwargs) -> donation.Plan | None:
        """The donation plan of this signature (JAX's warning on its first call), or None
        if no leaf of it is donated."""
        plan = entry.donation
        if plan is None:
            nums, names = self._donate
            mask = donation.leaf_mask(
                args, kwargs, self._static_argnums, self._static_argnames, nums, names
            )
            plan = False
            if mask is not None:
                plan = donation.Plan(entry.closed, entry.closed.in_avals, mask, self._keep_unused)
            entry.donation = plan
            if plan:
                plan.warn_once()
        return plan or None

    # -- inspection
    def trace(self, *args, **kwargs) -> Traced:
        statics, dyn_args, dyn_kwargs = self._split(args, kwargs)
        flat, in_tree = tree_util.tree_flatten((dyn_args, dyn_kwargs))
        avals = self._avals(flat, args, kwargs, abstract_ok=True)
        entry = self._get_entry(
            statics, len(args), in_tree, avals, _trace_key(in_tree, statics, avals)
        )
        return Traced(self, entry, in_tree)

    def lower(self, *args, **kwargs) -> Lowered:
        return self.trace(*args, **kwargs).lower()

    def eval_shape(self, *args, **kwargs):
        return self.trace(*args, **kwargs).out_info

    def _cache_size(self) -> int:
        return len(self._cache)

    def clear_cache(self) -> None:
        self._cache.clear()
        self._fast_cache.clear()
        self._last_hit = None

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    @property
    def __signature__(self):  # ``inspect`` takes a ``__get__`` object for a method descriptor
        return self._sig

    def __repr__(self):  # JAX's text (chex tells jitted functions apart by it)
        return f"<PjitFunction of {self._fun!r}>"


class Traced:
    """``jit(f).trace(*args)``: the staged jaxpr and output shapes."""

    def __init__(self, wrapped: PjitFunction, entry: _CacheEntry, in_tree):
        self._wrapped = wrapped
        self._entry = entry
        self.jaxpr = entry.closed
        self.in_tree = in_tree

    @property
    def out_info(self):
        plan = self._entry.ref_plan  # the refs' new values are not outputs of the function
        avals = self.jaxpr.out_avals if plan is None else self.jaxpr.out_avals[: plan.n_out]
        leaves = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in avals]
        return tree_util.tree_unflatten(self._entry.out_tree, leaves)

    def lower(self) -> Lowered:
        return Lowered(self._wrapped, self._entry, self.in_tree)


class Lowered(StageInfo):
    """``jit(f).lower(*args)``: shows the jaxpr and the generated Python source."""

    def __init__(self, wrapped: PjitFunction, entry: _CacheEntry, in_tree=None):
        self._wrapped = wrapped
        self._entry = entry
        self._in_tree = in_tree
        self.jaxpr = entry.closed

    def _compiled(self) -> _Compiled:
        if self._entry.compiled is None:
            self._entry.compiled = compiled_for(self._entry.closed)
        return self._entry.compiled

    def as_text(self) -> str:
        c = self._compiled()
        return (
            f"# jaxpr\n{self._entry.closed}\n\n# simplified jaxpr\n{c.jaxpr}\n\n"
            f"# generated Python source\n{c.source}"
        )

    def compiler_ir(self, dialect=None):
        """JAX's MLIR/HLO module; jaxlite has none (it compiles to Python source)."""
        raise NotImplementedError(
            "Lowered.compiler_ir is not implemented in jaxlite: it compiles jaxprs to "
            "Python source on NumPy, not to StableHLO/HLO; Lowered.as_text() shows both."
        )

    def compile(self, compiler_options=None, *, device_assignment=None) -> Compiled:
        return Compiled(self._wrapped, self._entry, self._compiled(), self._in_tree)


class Compiled(StageInfo):
    """``jit(f).lower(*args).compile()``: call it with arguments of the lowered signature."""

    def __init__(self, wrapped, entry, compiled, in_tree=None):
        self._wrapped = wrapped
        self._entry = entry
        self._compiled = compiled
        self._in_tree = in_tree

    def as_text(self) -> str:
        return self._compiled.source

    def __call__(self, *args, **kwargs):
        statics, dyn_args, dyn_kwargs = self._wrapped._split(args, kwargs)
        flat, in_tree = tree_util.tree_flatten((dyn_args, dyn_kwargs))
        if self._entry.ref_plan is not None:
            own = lambda closed: self._compiled  # noqa: E731 (this stage's compiled function)
            return jit_refs.call(self._wrapped, self._entry, flat, args, kwargs, own, jit_p)
        avals = self._wrapped._avals(flat, args, kwargs)
        expected = self._entry.closed.in_avals
        if [(a.shape, a.dtype) for a in avals] != [(a.shape, a.dtype) for a in expected]:
            raise TypeError(
                "Argument types differ from the types for which this computation was "
                f"compiled: got {[a.str_short(short_dtypes=True) for a in avals]}, expected "
                f"{[a.str_short(short_dtypes=True) for a in expected]}."
            )
        outs = self._compiled.fn(*[_leaf_value(x, a) for x, a in zip(flat, avals)])
        outs = [make_array(o, a) for o, a in zip(outs, self._compiled.out_avals)]
        return tree_util.tree_unflatten(self._entry.out_tree, outs)


def jit(
    fun: Callable | None = None,
    *,
    static_argnums=None,
    static_argnames=None,
    donate_argnums=None,
    donate_argnames=None,
    inline: bool = False,
    keep_unused: bool = False,
    in_shardings: Any = None,
    out_shardings: Any = None,
    **kwargs,
):
    """Compile ``fun`` to generated NumPy code (``jax.jit``).

    Args:
        fun: the function; its arguments are pytrees of arrays (or static, see below).
        static_argnums: positions of arguments that are hashable configuration values; a new
            trace happens for each distinct value.
        static_argnames: the same, by keyword name.
        donate_argnums: accepted for compatibility (NumPy buffers are never reused across
            calls, so donation has no effect).
        in_shardings: a ``Sharding``, ``PartitionSpec`` (needs a mesh context) or a pytree
            prefix of the positional arguments: uncommitted arguments are placed so, and a
            committed argument with another sharding raises ``ValueError``.
        out_shardings: the same for the outputs (a prefix of the output tree).

    Returns:
        A callable with the same signature, plus ``.lower(*args)``, ``.trace(*args)`` and
        ``.eval_shape(*args)`` for inspection.

    Raises:
        ValueError: for unhashable static arguments.
        TypeError: for arguments that are not arrays, numbers or pytrees of them, and for
            keyword arguments JAX's ``jit`` does not take (``device``, ``backend`` and
            ``compiler_options`` are accepted and have no effect here): a misspelled
            ``static_argnum`` would otherwise be silently ignored.
    """
    unknown = sorted(set(kwargs) - {"device", "backend", "compiler_options"})
    if unknown:
        raise TypeError(f"jit() got an unexpected keyword argument '{unknown[0]}'")
    if fun is None:
        return functools.partial(
            jit,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
            donate_argnums=donate_argnums,
            donate_argnames=donate_argnames,
            inline=inline,
            keep_unused=keep_unused,
            in_shardings=in_shardings,
            out_shardings=out_shardings,
            **kwargs,
        )
    return PjitFunction(
        fun,
        static_argnums,
        static_argnames,
        donate_argnums,
        donate_argnames,
        inline,
        keep_unused,
        in_shardings,
        out_shardings,
    )


def disable_jit(disable: bool = True):
    """Context manager: run jitted functions as plain Python (``jax.disable_jit``)."""
    return _cfg.config._override("jax_disable_jit", disable)


__all__ = [
    "jit",
    "jit_p",
    "disable_jit",
    "stats",
    "not_mapped",
    "Sequence",
    "Any",
    "ShapedArray",
    "aval_of",
]
