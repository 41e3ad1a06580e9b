"""Calling the host, for the callback primitives (``callbacks``) and ``jax.debug``
(``debugging``): operands wrapped as read-only ``Array``s, results validated against the
declared shapes and dtypes (spec 1.8, B1-B5) and turned into buffers jaxlite owns, and
``HostFn`` / ``MappedHostFn``, the callables that generated code and eager evaluation
invoke."""

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
from jaxlite._src.core.array import (
    LOCAL_REFS,
    SOLE_REFS,
    ArrayImpl,
    CallbackArray,
    callback_array,
    freeze_chain,
)
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.effects import Effect
from jaxlite._src.core.errors import CallbackError
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import eval_trace, set_current_trace, trace_ctx

callback_logger = logging.getLogger("jax._src.callback")


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
    """The ``Array`` a callback receives for ``v``: no copy of the data (``v`` is frozen,
    and wrapped as a ``CallbackArray``)."""
    return callback_array(_frozen(v), aval)


def _operands(vals: Sequence, arrays: Sequence[ArrayImpl]) -> list:
    """The buffers a result may be a view of without a copy: the operands and the views of
    them the callback was handed."""
    return [*vals, *(a._value for a in arrays)]


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
# * an ``Array`` result is already jaxlite's buffer, and a view of one of the call's
#   operands (``np.asarray(x)``) is read-only for good, since the operands' buffers are
#   frozen: either is adopted as a new view of that buffer, never as the object the
#   callback returned, which it may keep and reshape in place (``a.shape = ...``) later;
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
    if t is ArrayImpl or t is CallbackArray:
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
    if t is ArrayImpl or t is CallbackArray:
        return leaf.view()
    b = leaf.base
    if b is None:
        if _getrefcount(leaf) <= SOLE_REFS and not _getweakrefcount(leaf):
            leaf.setflags(False)
            return leaf
    for op in ins:
        if leaf is op or b is op:
            return leaf.view()  # (a view of) an operand, whose chain is frozen
    leaf = np.array(leaf)
    leaf.setflags(False)
    return leaf


def check_results(out: Any, avals: Sequence[ShapedArray], ins: Sequence = ()) -> list:
    """Convert, canonicalise, validate and own a callback's return value (spec 1.8, B1-B5).

    Pass ``out`` as a temporary (see above); ``ins`` are the operand buffers the callback
    received (a result that is a view of one needs no copy)."""
    if out is None:
        leaves = []
    elif type(out) is _ndarray or isinstance(out, ArrayImpl):
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
    cls, cb_cls, ndarray = ArrayImpl, CallbackArray, np.ndarray
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
                            return [out.view()]
        elif t is cls or t is cb_cls:
            v = out._value
            if v.shape == shape0 and v.dtype == dtype0:
                return [v.view()]
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
        "device",
        "n_leaves",
        "pending",
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
        # An error of the call site's ``sharding=`` that JAX raises when it lowers the
        # computation (K2, K5): raised before the computation runs, or by any call.
        self.pending: Exception | None = None
        # The device ``sharding=`` names (K2), checked against a jit's devices before it runs.
        self.device = None
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
        if self.pending is not None:
            raise self.pending
        arrays = [_as_array(v, _aval_for(v, w)) for v, w in zip(vals, self.weak)]
        if not self.returns:
            self._call_user(arrays, eager_debug=eager)
            return []
        return check_results(self._call_user(arrays), result_avals, _operands(vals, arrays))

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
        if self.pending is not None:
            pending = self.pending

            def refuse(*vals):
                raise pending

            return refuse
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
                return check(call_user(arrays), _operands(vals, arrays))

            if bare:
                return lambda *vals: run(*vals)[0]
            return run
        result_avals = tuple(result_avals)

        def run_multi(*vals):
            arrays = [as_array(v, a) for v, a in zip(vals, avals)]
            return check_results(call_user(arrays), result_avals, _operands(vals, arrays))

        return run_multi

    def _specialise1(self, aval0: ShapedArray, result_avals, bare: bool) -> Callable:
        """``specialise`` for ``fn(x)`` with at most one result: the hot path of a callback
        in a loop body. The result checks that need no data are done here, once."""
        fn, api, logger, returns = self.fn, self.api, self.logger, self.returns
        # Keys (debug callbacks only) are handed over as ArrayImpls over their own buffer;
        # everything else as a CallbackArray over a non-owning view (``callback_array``).
        plain = dtypes.is_extended(aval0.dtype)
        cls = ArrayImpl if plain else CallbackArray
        new, ndarray = _ArrayImpl_new, np.ndarray
        refcount, weakcount, local = _getrefcount, _getweakrefcount, LOCAL_REFS
        shape0, dtype0 = (), np.dtype(np.float32)
        if returns:
            check = make_checker(result_avals)
            shape0, dtype0 = result_avals[0].shape, result_avals[0].dtype

        # Two per-call-site caches, both safe under threads (a race only allocates an Array
        # or freezes a buffer twice):
        # * ``held[0]``: the Array handed to the callback last time. It is reused when the
        #   callback kept no reference to it (strong or weak), instead of allocating one per
        #   call (a reference count check costs less than an allocation);
        # * ``last[0]``: the previous result, which this closure froze and owns; when it
        #   comes back as the argument (a loop carry) it needs no freezing; likewise the
        #   last argument frozen (a loop-invariant argument). Only for buffers of at most
        #   64 KiB, since it keeps the buffer alive until the next call.
        # The Array's buffer is a fresh view every call (``callback_array``): the callback
        # may reshape what ``np.asarray`` gives it in place without reaching the next call.
        held: list = [new(cls)]
        held[0].aval = aval0
        last: list = [None]
        keep_last = returns and int(np.prod(shape0)) * dtype0.itemsize <= 65536
        keep_arg = int(np.prod(aval0.shape)) * aval0.dtype.itemsize <= 65536
        hooks, setflags = sharding_hooks, ndarray.setflags

        def run1(v):
            if v is not last[0]:
                if type(v) is not ndarray:
                    v = np.asarray(v)
                setflags(v, False)  # arguments are immutable (see ``_frozen``)
                b = v.base
                if b is not None:
                    freeze_chain(b)
                if keep_arg:
                    last[0] = v
            w = v if plain else v.view()
            if keep_arg:
                a = held[0]
                # Held here and in ``held`` only: the callback kept no reference to it.
                if refcount(a) > local + 1 or weakcount(a):
                    a = held[0] = new(cls)
                    a.aval = aval0
            else:
                a = new(cls)
                a.aval = aval0
            a._value = w
            try:
                if hooks.callback_wrap is None:
                    out = fn(a)  # the eval trace is current (``rules.runs_user_code``)
                else:
                    out = _run_user(fn, (a,), {})
            except Exception as e:
                err = _callback_failed(e, logger, api)
                if err is e:
                    raise
                raise err from e
            if not returns:
                return None
            # The result checks of ``check_results`` for the common case, inline: a fresh
            # array only ``out`` holds is taken as it is; a view of the argument is frozen.
            if type(out) is ndarray and out.shape == shape0 and out.dtype is dtype0:
                b = out.base
                if b is None:
                    if refcount(out) <= local and not weakcount(out):
                        setflags(out, False)
                        if keep_last:
                            last[0] = out
                        return out
                elif b is v:
                    return out.view()  # the callback's object, which it may reshape
            box = [out]
            out = None
            return check(box.pop(), (v, w))[0]

        if bare:
            return run1
        if not returns:

            def run1_none(v):
                run1(v)
                return []

            return run1_none
        return lambda v: [run1(v)]

    def inline(self, ctx, in_aval: ShapedArray, result_avals, x: str, t: str) -> list | None:
        """``t = run1(x)`` of ``_specialise1`` written as lines of the generated function
        (no call per step; the closure's two caches become locals of the generated function,
        set in ``ctx.prologue``), or None where the closure is used: not ``fn(x)`` with one
        result, buffers over 64 KiB, or a context without a prologue.

        Every step is the closure's, in its order, with the same checks and errors; the
        user's function and the declared shape and dtype reach the code as globals only."""
        if self.pending is not None:
            return None
        if not (self.simple and self.returns and len(result_avals) == 1):
            return None
        if getattr(ctx, "prologue", None) is None:
            return None
        aval0 = ShapedArray(in_aval.shape, in_aval.dtype, False)
        res = result_avals[0]
        for a in (aval0, res):
            if int(np.prod(a.shape)) * a.dtype.itemsize > 65536:
                return None
        if dtypes.is_extended(aval0.dtype):
            return None  # pure/io callbacks get key data (``_physical``), never keys
        check = make_checker(result_avals)

        def new_array():
            a = _ArrayImpl_new(CallbackArray)
            a.aval = aval0
            return a

        def slow(box, v, w):  # the box holds the result, so that ``check`` gets a temporary
            return check(box.pop(), (v, w))[0]

        g = ctx.add_global
        fn, new, api, logger = g(self.fn, "_ufn"), g(new_array), g(self.api), g(self.logger)
        nd, asarray, setflags = g(np.ndarray), g(np.asarray), g(np.ndarray.setflags)
        freeze, refc, weakc = g(freeze_chain), g(_getrefcount), g(_getweakrefcount)
        hooks, run_user, failed = g(sharding_hooks), g(_run_user), g(_callback_failed)
        dtype, local, slow = g(res.dtype), g(LOCAL_REFS), g(slow)
        h, last, w, u, o, e, r, cw = (
            ctx.fresh(p) for p in ("_h", "_l", "_w", "_u", "_o", "_e", "_r", "_cw")
        )
        # The declared shape, checked the cheap way for ranks 0 and 1 (``o.shape`` builds a
        # tuple): ``len`` of a 1-d array is its one dimension.
        if res.ndim == 0:
            shape_ok = f"{o}.ndim == 0"
        elif res.ndim == 1:
            shape_ok = f"{o}.ndim == 1 and len({o}) == {g(res.shape[0])}"
        else:
            shape_ok = f"{o}.shape == {g(res.shape)}"
        # The sharding hook is read once per call of the generated function: it changes only
        # around whole calls (``callbacks_once``, a mesh context) and shard_map executions,
        # which are calls of other generated functions with their own prologues.
        ctx.prologue += [f"{h} = {new}()", f"{last} = None", f"{cw} = {hooks}.callback_wrap"]
        return [
            f"{u} = {x}",
            f"if {u} is not {last}:",  # neither the previous result nor the last argument
            f"    if type({u}) is not {nd}:",
            f"        {u} = {asarray}({u})",
            f"    {setflags}({u}, False)",  # arguments are immutable (``_frozen``)
            f"    if {u}.base is not None:",
            f"        {freeze}({u}.base)",
            f"    {last} = {u}",
            # The Array handed over last time, unless the callback kept a reference to it,
            # over a fresh view (``CallbackArray``; the callback may reshape it in place).
            f"if {refc}({h}) > {local} or {weakc}({h}):",
            f"    {h} = {new}()",
            f"{w} = {u}.view()",
            f"{h}._value = {w}",
            "try:",
            f"    if {cw} is None:",
            f"        {o} = {fn}({h})",
            "    else:",
            f"        {o} = {run_user}({fn}, ({h},), {{}})",
            f"except Exception as {e}:",
            f"    {r} = {failed}({e}, {logger}, {api})",
            f"    if {r} is {e}:",
            "        raise",
            f"    raise {r} from {e}",
            # A fresh array only the result holds is owned as it is; a view of the argument
            # is read-only for good (adopted as a new view: the callback may keep its object
            # and reshape it); anything else goes through ``check_results``.
            f"if (type({o}) is {nd} and {shape_ok} and {o}.dtype is {dtype}"
            f" and {o}.base is None and {refc}({o}) <= {local} and not {weakc}({o})):",
            f"    {setflags}({o}, False)",
            f"    {last} = {o}",
            f"    {t} = {o}",
            f"elif (type({o}) is {nd} and {o}.base is {u} and {shape_ok}"
            f" and {o}.dtype is {dtype}):",
            f"    {t} = {o}.view()",
            "else:",
            f"    {o} = [{o}]",
            f"    {t} = {slow}({o}, {u}, {w})",
            f"del {o}",
        ]


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

    def invoke(self, vals, result_avals, eager: bool = False, call=None) -> list:
        """Loop over the batch; ``call(sub)`` (default ``base.invoke``, the eager path) runs
        one element."""
        n = len(self.levels)
        elem_avals = [ShapedArray(a.shape[n:], a.dtype) for a in result_avals]
        if call is None:

            def call(sub):
                return self.base.invoke(sub, elem_avals, eager)

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
            res = call(sub)
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
            # Compiled code: each element's call gets the base's compiled closure, whose
            # arrays are not weakly typed (as a one-level loop's and JAX's under jit).
            elem_in = [
                ShapedArray(
                    tuple(d for i, d in enumerate(a.shape) if i not in ax.values()), a.dtype
                )
                for a, ax in zip(in_avals, self.operand_axes)
            ]
            elem_out = [ShapedArray(a.shape[n:], a.dtype) for a in result_avals]
            inner = self.base.specialise(elem_in, elem_out)
            invoke = self.invoke

            def run(*vals):
                return invoke(vals, result_avals, call=lambda sub: inner(*sub))

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
