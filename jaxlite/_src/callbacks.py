"""Host callbacks: ``pure_callback`` and ``io_callback`` (debug callbacks: ``debugging.py``).

Design:

* A callback call site becomes one equation of ``pure_callback_p`` (no effect: DCE removes
  it when its results are unused) or ``io_callback_p`` (``IOEffect`` / ``OrderedIOEffect``:
  never removed). Params: ``callback`` (a ``HostFn``, hashed by identity), ``result_avals``
  (declared, never weak) and ``vmap_method`` / ``ordered``.
* A ``HostFn`` is the flat host function: NumPy arrays in, a list of NumPy arrays out. It
  wraps the operands as read-only ``Array``s (no copies), rebuilds the call's
  ``(args, kwargs)`` pytree, calls the user function, then converts, canonicalises and
  validates the results (spec section B). Exceptions become ``CallbackError`` (C1-C3).
* Under ``vmap`` the sequential methods (and io/debug callbacks) do not unroll: the batching
  rule binds the same primitive with a ``MappedHostFn`` that loops over the batch inside the
  host function. Nested vmaps add loop levels; the innermost vmap's axis is the outermost
  loop (F7, F15), as in JAX.
* Codegen turns an equation into a direct Python call of a closure specialised for the
  equation's avals (``lower``): that is the whole per-call cost under ``jit``.
* Everything runs synchronously in program order, so ordered effects need no tokens and
  ``effects_barrier`` has nothing to wait for.
"""

from __future__ import annotations

import itertools
import logging
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes, tree_util
from jaxlite._src.core import effects as _effects, rules, sharding_hooks
from jaxlite._src.core.array import LOCAL_REFS, SOLE_REFS, ArrayImpl, freeze_chain
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.effects import Effect
from jaxlite._src.core.errors import CallbackError
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import eval_trace, set_current_trace, trace_ctx

callback_logger = logging.getLogger("jax._src.callback")


# ------------------------------------------------------------------------------- effects
class IOEffect(Effect):
    """An unordered host side effect (``io_callback(ordered=False)``)."""


class OrderedIOEffect(Effect):
    """An ordered host side effect (``io_callback(ordered=True)``)."""


_effects.ordered_effects.add_type(OrderedIOEffect)
for _t in (IOEffect, OrderedIOEffect):
    _effects.control_flow_allowed_effects.add_type(_t)
    _effects.custom_derivatives_allowed_effects.add_type(_t)
# Deliberately NOT in remat_allowed_effects (saved, never recomputed) nor in
# batched_cond_allowed_effects (run per element under a batched predicate).

io_effect = IOEffect()
ordered_io_effect = OrderedIOEffect()


# ------------------------------------------------------------------------ argument wraps
_ArrayImpl_new = ArrayImpl.__new__
_ndarray = np.ndarray


def _frozen(v: Any) -> np.ndarray:
    """An operand buffer made read-only in place, with its base chain (so the callback can
    neither write it nor re-enable writing: arguments are immutable). Generated code never
    writes a buffer a callback reads (only buffers read by ufuncs alone are reused)."""
    if type(v) is not _ndarray:
        v = np.asarray(v)
    v.setflags(False)
    if v.base is not None:
        freeze_chain(v.base)
    return v


def _as_array(v: np.ndarray, aval: ShapedArray) -> ArrayImpl:
    """An ``Array`` over ``v`` with no copy (``v`` is frozen first)."""
    a = _ArrayImpl_new(ArrayImpl)
    a._value = _frozen(v)
    a.aval = aval
    return a


def _aval_for(v: np.ndarray, weak: bool) -> ShapedArray:
    return ShapedArray(v.shape, dtypes.from_storage(v.dtype), weak)


def _physical(flat: list) -> list:
    """``pure_callback``/``io_callback`` operands of an extended dtype (PRNG keys) reach
    the host function as their data, as in JAX (``debug.callback`` gets keys as keys)."""
    for i, x in enumerate(flat):
        d = getattr(x, "dtype", None)
        if isinstance(d, dtypes.ExtendedDType):
            flat[i] = d.to_physical(x)
    return flat


def _run_user(fn: Callable, args, kwargs) -> Any:
    """Call the user's function with the eval trace current, so that jaxlite code inside
    the callback computes concrete values whatever transformation is running it (K13)."""
    wrap = sharding_hooks.callback_wrap
    if wrap is not None:
        return wrap(_run_plain, fn, args, kwargs)
    return _run_plain(fn, args, kwargs)


def _run_plain(fn: Callable, args, kwargs) -> Any:
    if trace_ctx.trace is eval_trace:
        return fn(*args, **kwargs)
    with set_current_trace(eval_trace):
        return fn(*args, **kwargs)


# ------------------------------------------------------------------------ result checks
#
# Results are validated against the declared avals (spec 1.8, B1-B5) and become buffers
# jaxlite owns (results are immutable even if the callback keeps what it returned):
#
# * an ``Array`` result is already jaxlite's;
# * a view of one of the call's operands (``np.asarray(x)``) is read-only for good, since
#   the operands' buffers are frozen;
# * a fresh ndarray nobody else can reach (no base, no weak references, a reference count
#   showing that only the returned value holds it) is frozen in place: no copy;
# * anything else (an array the callback keeps, a view of its own buffer, a subclass, an
#   ``__array__`` object's buffer) is copied.
#
# The reference counts are sound only if each leaf reaches ``_result_value`` as a temporary
# and the pytree as a temporary too (``check_results(fn(...), ...)``): a caller that keeps
# its own reference only causes a copy.

_getrefcount = sys.getrefcount
_getweakrefcount = weakref.getweakrefcount


def _result_error(msg: str) -> CallbackError:
    return CallbackError(msg)


def _result_value(leaf: Any, aval: ShapedArray, i: int, ins: Sequence) -> np.ndarray:
    """One result leaf (passed as a temporary), converted, canonicalised, checked, owned."""
    t = type(leaf)
    if t is ArrayImpl:
        leaf = leaf._value
    elif t is not _ndarray:
        leaf = np.asarray(leaf)  # a subclass becomes a view of it (copied below)
    if leaf.dtype != aval.dtype:
        cdt = dtypes.canonicalize_dtype(leaf.dtype)
        if cdt != leaf.dtype:
            leaf = leaf.astype(cdt)
    if leaf.shape != aval.shape:
        raise _result_error(
            f"Incorrect output shape for return value #{i}: "
            f"Expected: {aval.shape}, Actual: {leaf.shape}"
        )
    if leaf.dtype != aval.dtype:
        raise _result_error(
            f"Incorrect output dtype for return value #{i}: "
            f"Expected: {aval.dtype}, Actual: {leaf.dtype}"
        )
    if t is ArrayImpl:
        return leaf
    b = leaf.base
    if b is None:
        if _getrefcount(leaf) <= SOLE_REFS and not _getweakrefcount(leaf):
            leaf.setflags(False)
            return leaf
    for op in ins:
        if leaf is op or b is op:
            return leaf  # a view of an operand, whose chain is frozen
    leaf = np.array(leaf)
    leaf.setflags(False)
    return leaf


def check_results(out: Any, avals: Sequence[ShapedArray], ins: Sequence = ()) -> list:
    """Convert, canonicalise, validate and own a callback's return value (spec 1.8, B1-B5).

    Pass ``out`` as a temporary (see above); ``ins`` are the operand buffers the callback
    received (a result that is a view of one needs no copy)."""
    if out is None:
        leaves = []
    elif type(out) is _ndarray or type(out) is ArrayImpl:
        leaves = [out]
    else:
        leaves = tree_util.tree_leaves(out)
    out = None  # drop the pytree, so that only ``leaves`` holds the leaves
    if len(leaves) != len(avals):
        raise _result_error(
            "Mismatched number of outputs from callback. "
            f"Expected: {len(avals)}, Actual: {len(leaves)}"
        )
    leaves.reverse()
    return [_result_value(leaves.pop(), aval, i, ins) for i, aval in enumerate(avals)]


def make_checker(result_avals: Sequence[ShapedArray]) -> Callable:
    """``check(out, ins)``: ``check_results`` for fixed avals, with a fast path for one
    exactly matching result; ``out`` passed as a temporary."""
    result_avals = tuple(result_avals)
    if len(result_avals) != 1:

        def check(out, ins):
            box = [out]
            out = None
            return check_results(box.pop(), result_avals, ins)

        return check
    shape0, dtype0 = result_avals[0].shape, result_avals[0].dtype
    cls, ndarray = ArrayImpl, np.ndarray
    refcount, weakcount, sole = _getrefcount, _getweakrefcount, SOLE_REFS

    def check1(out, ins):
        t = type(out)
        if t is ndarray:
            if out.shape == shape0 and out.dtype == dtype0:
                b = out.base
                if b is None:
                    if refcount(out) <= sole and not weakcount(out):
                        out.setflags(False)
                        return [out]
                else:
                    for op in ins:
                        if b is op:
                            return [out]
        elif t is cls:
            v = out._value
            if v.shape == shape0 and v.dtype == dtype0:
                return [v]
        box = [out]
        out = None
        return check_results(box.pop(), result_avals, ins)

    return check1


# ------------------------------------------------------------------------------ HostFn
class HostFn:
    """The flat host function behind one callback call site.

    ``api`` names the public API for logs ("pure_callback", "io_callback",
    "debug.callback"). ``in_tree`` is the treedef of the call's ``(args, kwargs)``;
    ``statics`` maps leaf positions to static objects (debug callbacks only); the other
    leaves are the runtime operands, in order. ``weak`` gives each operand's weak-type flag
    as seen at the call site. Hashed and compared by identity (never CSE'd with another
    call site).
    """

    __slots__ = (
        "__weakref__",
        "api",
        "fn",
        "in_tree",
        "logger",
        "n_leaves",
        "returns",
        "simple",
        "statics",
        "weak",
    )

    def __init__(
        self,
        fn: Callable,
        api: str,
        in_tree,
        n_leaves: int,
        statics: dict | None = None,
        weak: Sequence[bool] | None = None,
        logger: logging.Logger = callback_logger,
        returns: bool = True,
    ):
        self.fn = fn
        self.api = api
        self.in_tree = in_tree
        self.statics = statics or {}
        self.n_leaves = n_leaves
        n_dyn = n_leaves - len(self.statics)
        self.weak = tuple(weak) if weak is not None else (False,) * n_dyn
        self.logger = logger
        self.returns = returns
        # (args, kwargs) == ((leaf, ..., leaf), {}): call fn(*arrays) directly.
        self.simple = not self.statics and in_tree == tree_util.tree_structure(
            (tuple(range(n_leaves)), {})
        )

    def __repr__(self):
        name = getattr(self.fn, "__name__", type(self.fn).__name__)
        return f"<{self.api} {name}>"

    # -- calling
    def _call_user(self, arrays: list, eager_debug: bool = False) -> Any:
        if self.simple:
            args, kwargs = arrays, {}
        else:
            if self.statics:
                it = iter(arrays)
                leaves = [
                    self.statics[i] if i in self.statics else next(it) for i in range(self.n_leaves)
                ]
            else:
                leaves = arrays
            args, kwargs = tree_util.tree_unflatten(self.in_tree, leaves)
        try:
            return _run_user(self.fn, args, kwargs)
        except Exception as e:
            err = _callback_failed(e, self.logger, self.api)
            if eager_debug or err is e:
                raise
            raise err from e

    def invoke(
        self, vals: Sequence[np.ndarray], result_avals: Sequence[ShapedArray], eager: bool = False
    ) -> list:
        arrays = [_as_array(v, _aval_for(v, w)) for v, w in zip(vals, self.weak)]
        if not self.returns:
            self._call_user(arrays, eager_debug=eager)
            return []
        return check_results(self._call_user(arrays), result_avals, [a._value for a in arrays])

    def specialise(
        self,
        in_avals: Sequence[ShapedArray],
        result_avals: Sequence[ShapedArray],
        bare: bool = False,
    ) -> Callable:
        """A fast closure ``f(*vals) -> list`` for fixed operand and result avals (codegen);
        with ``bare`` and one result, ``f(*vals) -> array``. Only generated code calls it:
        generated code makes the eval trace current first (``rules.runs_user_code``).

        What can be decided once per call site is decided here: the argument avals, the
        result checker (``make_checker``), whether the call is a plain ``fn(*arrays)``."""
        # Compiled code hands the callback plain (never weakly typed) arrays, as JAX does
        # under jit; eager calls (``invoke``) keep the call site's weak types.
        avals = tuple(ShapedArray(a.shape, a.dtype, False) for a in in_avals)
        returns = self.returns
        if self.simple and len(avals) == 1 and (not returns or len(result_avals) == 1):
            return self._specialise1(avals[0], result_avals, bare)
        call_user = self._call_user
        as_array = _as_array
        if not returns:

            def run_no_results(*vals):
                call_user([as_array(v, a) for v, a in zip(vals, avals)])
                return []

            return run_no_results
        if len(result_avals) == 1:
            check = make_checker(result_avals)

            def run(*vals):
                arrays = [as_array(v, a) for v, a in zip(vals, avals)]
                return check(call_user(arrays), [a._value for a in arrays])

            if bare:
                return lambda *vals: run(*vals)[0]
            return run
        result_avals = tuple(result_avals)

        def run_multi(*vals):
            arrays = [as_array(v, a) for v, a in zip(vals, avals)]
            return check_results(call_user(arrays), result_avals, [a._value for a in arrays])

        return run_multi

    def _specialise1(self, aval0: ShapedArray, result_avals, bare: bool) -> Callable:
        """``specialise`` for ``fn(x)`` with at most one result: the hot path of a callback
        in a loop body. The result checks that need no data are done here, once."""
        fn, api, logger, returns = self.fn, self.api, self.logger, self.returns
        new, cls, ndarray = _ArrayImpl_new, ArrayImpl, np.ndarray
        refcount, weakcount, local = _getrefcount, _getweakrefcount, LOCAL_REFS
        shape0, dtype0 = (), np.dtype(np.float32)
        if returns:
            check = make_checker(result_avals)
            shape0, dtype0 = result_avals[0].shape, result_avals[0].dtype

        # Two per-call-site caches, both safe under threads (list pop/append and item
        # assignment are atomic):
        # * ``spare``: the Array handed to the callback last time, if the callback kept no
        #   reference to it (strong or weak): reused instead of allocating one per call;
        # * ``last``: the previous result, which this closure froze and owns; when it comes
        #   back as the argument (a loop carry) it needs no freezing; likewise the last
        #   argument frozen (a loop-invariant argument). Only for buffers of at most 64 KiB,
        #   since it keeps the buffer alive until the next call.
        spare: list = []
        last: list = [None]
        keep_last = returns and int(np.prod(shape0)) * dtype0.itemsize <= 65536
        keep_arg = int(np.prod(aval0.shape)) * aval0.dtype.itemsize <= 65536

        def run1(v):
            if v is not last[0]:
                if type(v) is not ndarray:
                    v = np.asarray(v)
                v.setflags(False)  # arguments are immutable (see ``_frozen``)
                b = v.base
                if b is not None:
                    freeze_chain(b)
                if keep_arg:
                    last[0] = v
            try:
                a = spare.pop()
            except IndexError:
                a = new(cls)
                a.aval = aval0
            a._value = v
            try:
                if sharding_hooks.callback_wrap is None:
                    out = fn(a)  # the eval trace is current (``rules.runs_user_code``)
                else:
                    out = _run_user(fn, (a,), {})
            except Exception as e:
                err = _callback_failed(e, logger, api)
                if err is e:
                    raise
                raise err from e
            if refcount(a) <= local and not weakcount(a):
                a._value = None
                spare.append(a)
            a = None
            if not returns:
                return None
            # The result checks of ``check_results`` for the common case, inline: a fresh
            # array only ``out`` holds is taken as it is; a view of the argument is frozen.
            if type(out) is ndarray and out.shape == shape0:
                dt = out.dtype
                if dt is dtype0 or dt == dtype0:
                    b = out.base
                    if b is None:
                        if refcount(out) <= local and not weakcount(out):
                            out.setflags(False)
                            if keep_last:
                                last[0] = out
                            return out
                    elif b is v:
                        return out
            box = [out]
            out = None
            return check(box.pop(), (v,))[0]

        if bare:
            return run1
        if not returns:

            def run1_none(v):
                run1(v)
                return []

            return run1_none
        return lambda v: [run1(v)]


def _callback_failed(e: Exception, logger: logging.Logger, api: str) -> Exception:
    """Log a callback's exception; what to raise in its place (``CallbackError``, C1)."""
    logger.error("jax.%s failed", api, exc_info=(type(e), e, e.__traceback__))
    if isinstance(e, CallbackError):
        return e  # a nested callback's error already names the original exception
    return CallbackError(f"{type(e).__name__}: {e}")


class MappedHostFn:
    """A host function looped over vmapped axes (sequential batching).

    ``levels[k]`` is the size of the k-th loop, outermost first; ``operand_axes[j]`` maps a
    level to the axis of operand j that it indexes. Output axis ``n-1-k`` is level k (the
    most recently added level, the outermost vmap, is axis 0 of the results).
    """

    __slots__ = ("__weakref__", "base", "levels", "operand_axes")

    def __init__(self, base: HostFn, levels: tuple, operand_axes: tuple):
        self.base = base
        self.levels = levels
        self.operand_axes = operand_axes

    def __repr__(self):
        return f"<mapped{list(self.levels)} {self.base!r}>"

    @property
    def returns(self):
        return self.base.returns

    @property
    def api(self):
        return self.base.api

    def invoke(self, vals, result_avals, eager: bool = False) -> list:
        n = len(self.levels)
        elem_avals = [ShapedArray(a.shape[n:], a.dtype) for a in result_avals]
        outs = [np.empty(a.shape, a.dtype) for a in result_avals]
        for idx in itertools.product(*[range(s) for s in self.levels]):
            sub = []
            for v, axes in zip(vals, self.operand_axes):
                if axes:
                    ix = [slice(None)] * (max(axes.values()) + 1)
                    for lvl, pos in axes.items():
                        ix[pos] = idx[lvl]
                    v = np.asarray(v)[tuple(ix) + (Ellipsis,)]
                sub.append(v)
            res = self.base.invoke(sub, elem_avals, eager)
            if outs:
                out_ix = tuple(idx[n - 1 - p] for p in range(n))
                for o, r in zip(outs, res):
                    o[out_ix] = r
        for o in outs:
            o.setflags(False)
        return outs

    def specialise(self, in_avals, result_avals) -> Callable:
        n = len(self.levels)
        result_avals = tuple(result_avals)
        if n != 1:
            invoke = self.invoke

            def run(*vals):
                return invoke(vals, result_avals)

            return run
        # One loop level (the common case): operands batched at axis 0.
        size = self.levels[0]
        batched = [bool(ax) for ax in self.operand_axes]
        elem_in = [
            ShapedArray(a.shape[1:] if b else a.shape, a.dtype, a.weak_type)
            for a, b in zip(in_avals, batched)
        ]
        elem_out = [ShapedArray(a.shape[1:], a.dtype) for a in result_avals]
        inner = self.base.specialise(elem_in, elem_out)
        shapes = [(a.shape, a.dtype) for a in result_avals]
        flags = tuple(batched)
        ell = Ellipsis

        def run_seq(*vals):
            outs = [np.empty(s, d) for s, d in shapes]
            for i in range(size):
                res = inner(*[v[i, ell] if b else v for v, b in zip(vals, flags)])
                for o, r in zip(outs, res):
                    o[i] = r
            for o in outs:
                o.setflags(False)
            return outs

        return run_seq


def map_host_fn(cb, size: int, batched: Sequence[bool]) -> MappedHostFn:
    """Add a loop level of ``size`` over the operands marked ``batched`` (batch axis at 0)."""
    if isinstance(cb, MappedHostFn):
        base, levels, old_axes = cb.base, cb.levels, cb.operand_axes
    else:
        base, levels, old_axes = cb, (), tuple({} for _ in batched)
    new_level = len(levels)
    axes = []
    for b, ax in zip(batched, old_axes):
        if b:
            ax = {lvl: pos + 1 for lvl, pos in ax.items()}
            ax[new_level] = 0
        axes.append(dict(ax))
    return MappedHostFn(base, levels + (size,), tuple(axes))


# ------------------------------------------------------------------------ front ends
_VMAP_METHODS = [
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
    None,
]


def _result_avals(result_shape_dtypes: Any) -> tuple[tuple, Any]:
    leaves, tree = tree_util.tree_flatten(result_shape_dtypes)
    avals = []
    for leaf in leaves:
        shape, dtype = leaf.shape, leaf.dtype  # AttributeError for non-specs (1.1 check 2)
        dtype = np.dtype(dtype)
        if not _cfg.x64() and dtypes.canonicalize_dtype(dtype) != dtype:
            raise ValueError(
                "result_shape_dtypes cannot specify 64-bit types when `jax_enable_x64` is disabled"
            )
        avals.append(ShapedArray(tuple(shape), dtype, False))
    return tuple(avals), tree


def _check_operands(flat: Sequence[Any], api: str) -> None:
    for i, x in enumerate(flat):
        try:
            aval_of(x)
        except TypeError:
            raise TypeError(
                f"Error interpreting argument to {api} as a JAX value. The problematic value "
                f"is of type {type(x)} and was passed to {api} at position {i}."
            ) from None


def _check_callable(callback: Any, api: str) -> None:
    if not callable(callback):
        raise TypeError(
            f"first argument to {api} must be callable, but got an object of type {type(callback)}"
        )


def pure_callback(
    callback: Callable,
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Any:
    """Call a side-effect-free host function from (possibly transformed) code.

    Args:
        callback: a Python callable; it receives jaxlite Arrays in the structure of
            ``(args, kwargs)`` and returns array-likes matching ``result_shape_dtypes``.
        result_shape_dtypes: a pytree of objects with ``.shape`` and ``.dtype``
            (``ShapeDtypeStruct``...), or ``None`` for no outputs.
        *args, **kwargs: pytrees of arrays forwarded to ``callback``.
        sharding: the device that runs the callback in a global-view computation (a
            ``SingleDeviceSharding``); every device shares this host, so it changes no value.
        vmap_method: how ``vmap`` batches the call: "sequential", "sequential_unrolled",
            "expand_dims", "broadcast_all", "legacy_vectorized" or ``None`` (vmap raises).

    Returns:
        A pytree with the structure of ``result_shape_dtypes``.

    The call may be removed when its results are unused, or run more than once.
    Exceptions inside ``callback`` reach the caller as ``jaxlite.errors.CallbackError``.
    """
    if sharding is not None or sharding_hooks.check_callback is not None:
        sharding_hooks.check_callback("pure_callback", sharding)
    if vmap_method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {_VMAP_METHODS}, but got: {vmap_method}"
        )
    _check_callable(callback, "pure_callback")
    result_avals, out_tree = _result_avals(result_shape_dtypes)
    flat, in_tree = tree_util.tree_flatten((args, kwargs))
    flat = _physical(flat)
    _check_operands(flat, "pure_callback")
    host = HostFn(callback, "pure_callback", in_tree, len(flat))
    outs = pure_callback_p.bind(
        *flat, callback=host, result_avals=result_avals, vmap_method=vmap_method
    )
    return tree_util.tree_unflatten(out_tree, outs)


def io_callback(
    callback: Callable,
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Any:
    """Call a host function with side effects (``jax.experimental.io_callback``).

    Never removed by dead-code elimination. With ``ordered=True`` successive ordered calls
    run in program order (in jaxlite every callback runs synchronously in program order);
    an ordered call cannot be vmapped over a batched operand.
    Exceptions inside ``callback`` reach the caller as ``jaxlite.errors.CallbackError``.
    """
    if sharding is not None or sharding_hooks.check_callback is not None:
        sharding_hooks.check_callback("io_callback", sharding)
    _check_callable(callback, "io_callback")
    result_avals, out_tree = _result_avals(result_shape_dtypes)
    flat, in_tree = tree_util.tree_flatten((args, kwargs))
    flat = _physical(flat)
    _check_operands(flat, "io_callback")
    host = HostFn(callback, "io_callback", in_tree, len(flat))
    outs = io_callback_p.bind(
        *flat, callback=host, result_avals=result_avals, ordered=bool(ordered)
    )
    return tree_util.tree_unflatten(out_tree, outs)


# ----------------------------------------------------------------------- primitives
pure_callback_p = Primitive("pure_callback", multiple_results=True)
io_callback_p = Primitive("io_callback", multiple_results=True)


def _pure_impl(*vals, callback, result_avals, vmap_method):
    if not result_avals:
        return []  # D4: nothing could use it, so it never runs
    return callback.invoke(vals, result_avals, True)


def _io_impl(*vals, callback, result_avals, ordered):
    return callback.invoke(vals, result_avals, True)


def _abstract_eval(*avals, callback, result_avals, **_):
    return list(result_avals)


def _io_effects(*avals, callback, result_avals, ordered):
    return {ordered_io_effect if ordered else io_effect}


rules.runs_user_code.update({pure_callback_p, io_callback_p})
rules.impl_rules[pure_callback_p] = _pure_impl
rules.impl_rules[io_callback_p] = _io_impl
rules.abstract_eval_rules[pure_callback_p] = _abstract_eval
rules.abstract_eval_rules[io_callback_p] = _abstract_eval
rules.effects_rules[io_callback_p] = _io_effects


def _pure_jvp(primals, tangents, **params):
    raise ValueError(
        "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use "
        "callbacks while taking gradients."
    )


def _io_jvp(primals, tangents, **params):
    raise ValueError("IO callbacks do not support JVP.")


def _pure_transpose(cts, *args, **params):
    raise ValueError(
        "Pure callbacks do not support transpose. Please use `jax.custom_vjp` "
        "to use callbacks while taking gradients."
    )


def _io_transpose(cts, *args, **params):
    raise ValueError("IO callbacks do not support transpose.")


rules.jvp_rules[pure_callback_p] = _pure_jvp
rules.jvp_rules[io_callback_p] = _io_jvp
rules.transpose_rules[pure_callback_p] = _pure_transpose
rules.transpose_rules[io_callback_p] = _io_transpose


# ------------------------------------------------------------------------- batching
def _batched_avals(result_avals, size):
    return tuple(ShapedArray((size,) + a.shape, a.dtype, False) for a in result_avals)


def _front(args, dims):
    from jaxlite._src.ops import shape as _shape

    return [
        x if d is not_mapped or d == 0 else _shape.moveaxis(x, d, 0) for x, d in zip(args, dims)
    ]


def sequential_batch(prim, axis_data, args, dims, params):
    """Batch a callback equation as a loop over the batch inside the host function."""
    size = axis_data.size
    args = _front(args, dims)
    batched = [d is not not_mapped for d in dims]
    cb = map_host_fn(params["callback"], size, batched)
    new = dict(params, callback=cb)
    if "result_avals" in params:
        new["result_avals"] = _batched_avals(params["result_avals"], size)
    outs = prim.bind(*args, **new)
    return outs, [0] * len(outs)


def _pure_batch(axis_data, args, dims, *, callback, result_avals, vmap_method):
    from jaxlite._src.ops import shape as _shape

    params = {"callback": callback, "result_avals": result_avals, "vmap_method": vmap_method}
    if vmap_method in ("sequential", "sequential_unrolled"):
        return sequential_batch(pure_callback_p, axis_data, args, dims, params)
    if vmap_method is None:
        raise NotImplementedError(
            "vmap is only supported for the pure_callback primitive when vmap_method is one "
            "of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
            "'legacy_vectorized'. Got vmap_method=None."
        )
    size = axis_data.size
    new_args = []
    for x, d in zip(_front(args, dims), dims):
        if d is not_mapped:
            if vmap_method == "expand_dims":
                x = _shape.expand_dims(x, (0,))
            elif vmap_method == "broadcast_all":
                x = _shape.broadcast_batch(x, size)
        new_args.append(x)
    outs = pure_callback_p.bind(
        *new_args,
        callback=callback,
        result_avals=_batched_avals(result_avals, size),
        vmap_method=vmap_method,
    )
    return outs, [0] * len(outs)


def _io_batch(axis_data, args, dims, *, callback, result_avals, ordered):
    if ordered:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    return sequential_batch(
        io_callback_p,
        axis_data,
        args,
        dims,
        {"callback": callback, "result_avals": result_avals, "ordered": ordered},
    )


rules.batch_rules[pure_callback_p] = _pure_batch
rules.batch_rules[io_callback_p] = _io_batch


# -------------------------------------------------------------------------- codegen
def lower_callback(ctx, eqn, ins, outs):
    """A callback equation is one direct Python call of a closure specialised for its avals."""
    params = eqn.params
    result_avals = params.get("result_avals", ())
    if eqn.primitive is pure_callback_p and not result_avals:
        return []
    in_avals = [v.aval for v in eqn.invars]
    cb = params["callback"]
    # One result (or none): the closure returns the array itself, no list to unpack.
    bare = len(outs) <= 1 and isinstance(cb, HostFn)
    fn = (
        cb.specialise(in_avals, result_avals, bare=True)
        if bare
        else cb.specialise(in_avals, result_avals)
    )
    name = ctx.add_global(fn, "_cb")
    call = f"{name}({', '.join(ins)})"
    if not outs:
        return [call]
    if bare:
        return [f"{outs[0]} = {call}"]
    return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"]


rules.lower_rules[pure_callback_p] = lower_callback
rules.lower_rules[io_callback_p] = lower_callback


def effects_barrier() -> None:
    """Wait until every callback dispatched so far has run.

    jaxlite runs callbacks synchronously, in program order, when the computation runs, so
    there is never anything pending: this returns immediately. It exists for JAX
    compatibility (code and tests call it before looking at callback side effects).
    """
    return


__all__ = [
    "HostFn",
    "IOEffect",
    "MappedHostFn",
    "OrderedIOEffect",
    "Zero",
    "check_results",
    "effects_barrier",
    "io_callback",
    "io_callback_p",
    "is_undefined_primal",
    "lower_callback",
    "pure_callback",
    "pure_callback_p",
    "sequential_batch",
]
