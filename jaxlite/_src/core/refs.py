"""Mutable array references (``jax.Ref``): the ref object and how it crosses traces.

Design. A ``Ref`` is a mutable box holding an immutable value: an ``Array`` outside any
transformation, or a tracer of the trace that *owns* the ref. Reads return the value and
writes replace it (``state.py`` builds ``get``/``swap``/``addupdate`` over ``jax.numpy``
indexing), so inside a single trace a ref is ordinary functional code: ``r[...] += 1`` is a
read, an add and a replacement. This is JAX's state *discharge*, done while tracing: the
jaxprs jaxlite stages contain the functional updates (``dynamic_update_slice``,
``scatter``), never ``get``/``swap`` equations (docs/compat.md).

The work is at trace boundaries. Each access compares the current trace with the ref's
owner and walks the traces between them (``_cross``):

* a **staging** trace (a ``jit``, ``scan``, ``while_loop`` or ``cond`` body) must be one
  whose construct threads refs: it runs under a ``Collector`` (``threading``), which
  records every ref created outside it that the body touches. The construct then traces
  again with those refs *installed*: their values enter the body as extra inputs (loop
  carries, ``jit`` arguments, branch operands), the body owns them, their final values
  leave as extra outputs and are written back to the refs after the call (``custom_jvp``
  and ``custom_vjp`` bodies: ``custom_refs.py``). A staging trace of any other construct
  (``shard_map``, ``custom_vmap``...) refuses the access with ``NotImplementedError``;
* a **batch** (``vmap``), **jvp** or **partial_eval** (``grad``) trace lets reads through
  (the value is a constant of that trace) and checks writes by ``crossing_rules``
  (registered by ``state.py``): JAX's errors for a batched or differentiated value written
  to a ref made outside the transformation.

A ref whose owner trace has ended (made inside ``jit`` and kept) raises
``UnexpectedTracerError``, as JAX does.

``AbstractRef`` is the abstract value (``jax.typeof(ref)``, ``Ref{float32[3]}``).
"""

from __future__ import annotations

import threading
from typing import Any

from jaxlite._src.core.avals import AbstractValue
from jaxlite._src.core.errors import UnexpectedTracerError
from jaxlite._src.core.trace import Tracer, trace_ctx
from jaxlite._src.util import function_where

__all__ = [
    "AbstractRef",
    "Collector",
    "mapped_args",
    "Ref",
    "TransformedRef",
    "crossing_rules",
    "impl",
    "install",
    "read",
    "restore",
    "threading_construct",
    "write",
]


class AbstractRef(AbstractValue):
    """The abstract value of a mutable array reference (``jax.typeof(ref)`` in JAX).

    Attributes:
        inner_aval: the abstract value of the array the ref holds.
        memory_space: where the ref lives (``None``: the default memory).
        kind: JAX's ref kind tag (``None`` for an ordinary ref).
    """

    __slots__ = ("inner_aval", "memory_space", "kind")

    def __init__(self, inner_aval: AbstractValue, memory_space: Any = None, kind: Any = None):
        self.inner_aval = inner_aval
        self.memory_space = memory_space
        self.kind = kind

    @property
    def shape(self) -> tuple:
        return self.inner_aval.shape

    @property
    def dtype(self):
        return self.inner_aval.dtype

    @property
    def ndim(self) -> int:
        return len(self.inner_aval.shape)

    @property
    def size(self) -> int:
        n = 1
        for d in self.inner_aval.shape:
            n *= d
        return n

    @property
    def weak_type(self) -> bool:
        return getattr(self.inner_aval, "weak_type", False)

    def str_short(self, short_dtypes: bool = False) -> str:
        inner = self.inner_aval
        shown = inner.str_short(short_dtypes) if hasattr(inner, "str_short") else str(inner)
        return f"Ref{{{shown}}}"

    def __repr__(self) -> str:
        return self.str_short()

    def __eq__(self, other) -> bool:
        return (
            type(other) is type(self)
            and self.inner_aval == other.inner_aval
            and self.memory_space == other.memory_space
            and self.kind == other.kind
        )

    def __hash__(self) -> int:
        return hash((type(self), self.inner_aval, self.memory_space, self.kind))


# The operations over jax.numpy, registered by ``jaxlite._src.state`` (above this layer):
# ``impl["get"](ref, idx)``, ``impl["set"](ref, idx, value)``, ``impl["repr"](ref)``.
impl: dict[str, Any] = {}


class Ref:
    """A mutable array reference (``jax.Ref``), made by ``jax.new_ref``.

    Indexing reads (``r[...]``, ``r[0]``, ``r[1:3]``) and item assignment writes
    (``r[...] = x``, ``r[0] += 1``); the written value must have the indexed shape and the
    ref's dtype exactly (no broadcasting, no promotion), as in JAX.
    """

    __slots__ = ("_value", "_trace", "_aval", "__weakref__")

    def __init__(self, aval, refs):
        # JAX's constructor is internal too (``jax.Ref(x)``: TypeError, a missing argument).
        raise TypeError("jax.Ref cannot be constructed directly: use jax.new_ref(value)")

    @classmethod
    def _make(cls, value: Any, aval: AbstractRef) -> Ref:
        r = object.__new__(cls)
        r._value = value
        r._trace = trace_ctx.trace
        r._aval = aval
        return r

    # -- abstract value and array-like attributes
    @property
    def aval(self) -> AbstractRef:
        return self._aval

    @property
    def shape(self) -> tuple:
        return self._aval.shape

    @property
    def dtype(self):
        return self._aval.dtype

    @property
    def ndim(self) -> int:
        return self._aval.ndim

    @property
    def size(self) -> int:
        return self._aval.size

    def __len__(self) -> int:
        if not self._aval.shape:
            raise TypeError("len() of unsized object")
        return self._aval.shape[0]

    # -- access
    def __getitem__(self, idx):
        return impl["get"](self, idx)

    def __setitem__(self, idx, value):
        impl["set"](self, idx, value)

    def addupdate(self, x, idx=()):
        """``ref[idx] += x`` (``jax.ref.addupdate``)."""
        impl["addupdate"](self, idx, x)

    @property
    def at(self):
        # JAX's refs have no functional ``.at`` updates either (write ``ref[idx] = x``).
        raise NotImplementedError()

    @property
    def sharding(self):
        v = self._value
        return v.sharding if not isinstance(v, Tracer) else None

    @property
    def committed(self) -> bool:
        return True

    def __repr__(self) -> str:
        return impl["repr"](self)

    __str__ = __repr__

    # As JAX's: ``copy.copy`` shares the buffer (writes through either are seen by both:
    # here it is the ref itself), ``copy.deepcopy`` and pickling make a new ref holding the
    # value (arrays are immutable, so holding the same one is a copy).
    def __copy__(self) -> Ref:
        return self

    def __deepcopy__(self, memo) -> Ref:
        return _rebuild(self._value, self._aval)

    def __reduce__(self):
        if isinstance(self._value, Tracer):
            raise TypeError(f"cannot pickle a jax.Ref holding a traced value: {self!r}")
        return _rebuild, (self._value, self._aval)


def _rebuild(value: Any, aval: AbstractRef) -> Ref:
    return Ref._make(value, aval)


class TransformedRef(Ref):
    """JAX's class of a ref seen through indexing transforms
    (``jax._src.state.types.TransformedRef``), exported for libraries that name it; jaxlite
    makes none (a ``scan`` body sees a plain ``Ref`` of its slice of a ref in ``xs``, as
    JAX's sees a ref tracer)."""

    __slots__ = ()


# ------------------------------------------------------------------- crossing traces
class Collector:
    """The refs a construct's body touches that were made outside the construct.

    ``base`` is the trace current when the construct started; its bodies are traced in
    staging traces whose parent is ``base``. ``saved`` keeps each recorded ref's value and
    owner as first seen, restored when the construct's discovery pass ends. ``kind``: the
    construct (``"scan"``, ``"while"``, ``"checkpoint"``; None for the others).
    ``cond_effects``: a ``cond`` in its bodies touched refs made outside that ``cond``.
    """

    __slots__ = (
        "base",
        "found",
        "saved",
        "threaded",
        "kind",
        "cond_effects",
        "recomputed_writes",
        "touched",
    )

    def __init__(self, base, threaded=(), kind=None):
        self.base = base
        self.kind = kind
        self.cond_effects = False  # a cond in its bodies touched refs made outside that cond
        self.recomputed_writes = False  # a checkpoint in its bodies writes refs (remat)
        self.touched: list[Ref] = []  # every recorded access, in order (repeats included)
        self.found: list[Ref] = []
        self.saved: dict[int, tuple] = {}
        self.threaded = {id(r) for r in threaded}

    def record(self, ref: Ref) -> None:
        if id(ref) in self.threaded:
            return
        self.touched.append(ref)
        if id(ref) in self.saved:
            return
        self.saved[id(ref)] = (ref, ref._value, ref._trace)
        self.found.append(ref)

    def restore(self) -> None:
        for ref, value, trace in self.saved.values():
            ref._value, ref._trace = value, trace


class _State(threading.local):
    def __init__(self):
        self.collectors: list[Collector] = []


_state = _State()

# trace kind -> rule(trace, ref, value, op) -> value (``value`` None for a read). The rule
# returns the value as seen from the trace's parent, or raises.
crossing_rules: dict[str, Any] = {}


# id(batch trace) -> {id(ref): (box, initial value)}: the refs a running ``vmap`` maps as
# arguments (its function sees ``box``, written back to ``ref`` when it returns). Touching
# ``ref`` itself in that function (closed over, or passed again unmapped) is refused by the
# batch crossing rule once it would disagree with the box.
mapped_args: dict[int, dict[int, tuple]] = {}


def leaked_ref_error(ref: Ref) -> UnexpectedTracerError:
    v = ref._value
    kind = v._jax_class_name() if isinstance(v, Tracer) else "DynamicJaxprTracer"
    return UnexpectedTracerError(
        "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
        f"allowing for a reference to an intermediate value with type {ref._aval.str_short()} "
        f"wrapped in a {kind} to escape the scope of the transformation.\n"
        "The ref was made inside a transformation (jit, vmap, a loop body...) that has "
        "finished; make refs outside it and pass them in, or return arrays instead."
    )


def _unsupported(trace) -> NotImplementedError:
    return NotImplementedError(
        "jaxlite threads mutable array references (jax.Ref) made outside a traced function "
        "through jit, checkpoint, lax.scan, fori_loop, while_loop, cond and switch (and lets "
        "vmap, jvp and grad read them); this access crosses a "
        f"{trace.kind} trace ({type(trace).__name__}) of another construct (shard_map, "
        "custom_vmap, a staged custom_vjp rule, ...), which does not. Pass the ref's value in "
        "and write the result back outside instead."
    )


def _cross(ref: Ref, cur, value, op: str):
    owner = ref._trace
    if not owner._valid:
        raise leaked_ref_error(ref)
    chain = []
    t = cur
    while t is not None and t is not owner:
        chain.append(t)
        t = t.parent_trace
    if t is None:  # made in a trace that is not an enclosing one (another thread's)
        raise leaked_ref_error(ref)
    collectors = _state.collectors
    for tr in chain:  # innermost first
        if tr.kind == "staging":
            if not any(c.base is tr.parent_trace for c in collectors):
                raise _unsupported(tr)
        else:
            rule = crossing_rules.get(tr.kind)
            if rule is None:
                raise _unsupported(tr)
            value = rule(tr, ref, value, op)
    if collectors:
        inside = {id(t) for t in chain[1:]}
        inside.add(id(owner))
        for c in collectors:
            # accesses at the construct's own level (reading the initial values) are not
            # inside it: ``cur`` itself does not count.
            if id(c.base) in inside:
                c.record(ref)
    return value


def read(ref: Ref, op: str = "get") -> Any:
    """The ref's whole value, as seen from the current trace (``op``: the operation it is
    part of, ``"swap"``/``"addupdate"`` for a write's read of the current value)."""
    if ref._trace is not trace_ctx.trace:
        _cross(ref, trace_ctx.trace, None, op)
    return ref._value


def write(ref: Ref, value: Any, op: str = "swap") -> None:
    """Replace the ref's whole value (already of the ref's type) from the current trace.

    ``op``: ``"swap"`` or ``"addupdate"``, naming the operation in errors."""
    cur = trace_ctx.trace
    if ref._trace is not cur:
        value = _cross(ref, cur, value, op)
    ref._value = value


# ------------------------------------------------------------------- threading constructs
class _Discovered(Exception):
    """Raised at a construct's bind point when its body touched outer refs."""


def before_bind() -> None:
    """Called by a threading construct after tracing its bodies, before binding its
    primitive: a discovery pass that found refs stops here (nothing runs)."""
    cols = _state.collectors
    if cols and cols[-1].found:
        raise _Discovered()


class Discovery:
    """``threading_construct`` for a construct that writes the loop itself, keeping the
    Python stack shallow (``cond`` nests once per level: 99 nested conds fit in Python's
    default recursion limit, as in JAX)::

        d = Discovery()
        while d.retry:
            with d as rs:
                ...  # trace and bind threading the refs ``rs``, calling before_bind()

    An exception leaving the block after the bodies touched outer refs is swallowed and
    ``retry`` set, as ``threading_construct`` retries; any other propagates.
    """

    __slots__ = ("refs", "col", "retry")

    def __init__(self):
        self.refs: list[Ref] = []
        self.col = None
        self.retry = True

    def __enter__(self) -> list:
        self.col = Collector(trace_ctx.trace, self.refs)
        _state.collectors.append(self.col)
        self.retry = False
        return list(self.refs)

    def __exit__(self, tp, exc, tb) -> bool:
        col = self.col
        _state.collectors.pop()
        col.restore()
        if tp is None or not col.found:
            return False
        self.refs.extend(col.found)
        self.retry = True
        return True


def threading_construct(run, kind=None):
    """Run a construct that threads refs: ``run(refs)`` traces and binds the construct with
    ``refs`` (a list) threaded through its bodies, calling ``before_bind()`` before binding
    (``kind``: the construct's, for ``Collector.kind``).

    The first pass threads none; if its bodies touched refs made outside, it stops at
    ``before_bind`` (or at any error after the discovery), the refs are restored, and the
    construct runs again threading them (repeating while new ones appear).
    """
    refs: list[Ref] = []
    while True:
        col = Collector(trace_ctx.trace, refs, kind)
        _state.collectors.append(col)
        try:
            return run(list(refs))
        except BaseException:
            if not col.found:
                raise
            refs.extend(col.found)
        finally:
            _state.collectors.pop()
            col.restore()


def enclosing_constructs() -> list:
    """The ``Collector`` of each threading construct being traced, outermost first."""
    return _state.collectors


def refuse_cond_effects() -> None:
    """JAX's errors for a ``cond``/``switch`` whose branches touch refs made outside them
    (a state effect), called before binding one (and by a cached ``jit`` call whose jaxpr
    has one). JAX's batching rule of ``cond`` refuses any state effect, batched or not, and
    so does its partial evaluation, which reverse-mode differentiation applies to the
    ``cond``s inside a differentiated ``scan``, ``while_loop``/``fori_loop`` or
    ``checkpoint`` body (not to one traced directly under ``grad``, nor inside ``jit`` or
    another ``cond`` alone). Whichever transformation meets the ``cond`` first raises:
    walking up from the current trace, a ``vmap`` (batch) trace, or a ``grad``
    (partial_eval) trace at or above the trace where such a loop or ``checkpoint`` is
    bound. Otherwise marks the enclosing constructs (``Collector.cond_effects``)."""
    cols = _state.collectors
    loops = {id(c.base) for c in cols if c.kind is not None}
    inside_loop = False
    t = trace_ctx.trace
    while t is not None:
        if t.kind == "batch":
            raise NotImplementedError("State effect not supported in vmap-of-cond.")
        inside_loop = inside_loop or id(t) in loops
        if inside_loop and t.kind == "partial_eval":
            raise NotImplementedError("State effect not supported in cond partial-eval.")
        t = t.parent_trace
    for c in cols:
        c.cond_effects = True


# ------------------------------------------------------- checkpoint writes under grad
# JAX recomputes a checkpointed function in the backward pass, ref writes included (they
# happen twice); jaxlite runs them once, so it refuses reverse mode of such a function.
# ``ad_checkpoint`` binds it through ``bind_recomputing``; its partial evaluation rule calls
# ``note_partial_eval`` when reverse mode splits it. A jit whose trace bound one records it
# (``mark_recomputed_writes``, ``RefPlan.recomputed_writes``) and binds through here too.
class _Recompute(threading.local):
    def __init__(self):
        self.depth = 0
        self.refused = False


_recompute = _Recompute()


def mark_recomputed_writes() -> None:
    for c in _state.collectors:
        c.recomputed_writes = True


def note_partial_eval() -> None:
    if _recompute.depth:
        _recompute.refused = True


def bind_recomputing(bind, plan, ins) -> list:
    """``bind(ins)`` for a call (``plan``: its ``RefPlan``) writing refs that reverse mode
    would recompute: raises if it did (``note_partial_eval``), unless a written value is
    itself differentiated (writing it back raises JAX's error for that first)."""
    outer = _recompute.refused
    _recompute.depth += 1
    _recompute.refused = False
    try:
        outs = bind(ins)
        refused = _recompute.refused
    finally:
        _recompute.depth -= 1
        _recompute.refused = outer
    if refused:
        finals = outs[plan.n_out :]
        if not any(w and _differentiated(v) for v, w in zip(finals, plan.written)):
            raise impl["recomputed_writes_error"]()
    return outs


def watch_recomputed(fn):
    """``fn()`` (a loop construct binding its primitive) raising as ``bind_recomputing``
    does when reverse mode split a checkpoint inside its body that writes refs (the
    construct's ``Collector.recomputed_writes``)."""
    outer = _recompute.refused
    _recompute.depth += 1
    _recompute.refused = False
    try:
        out = fn()
        refused = _recompute.refused
    finally:
        _recompute.depth -= 1
        _recompute.refused = outer
    if refused and _state.collectors and _state.collectors[-1].recomputed_writes:
        raise impl["recomputed_writes_error"]()
    return out


def _differentiated(x) -> bool:
    return isinstance(x, Tracer) and x._trace.kind == "jvp" and not _is_zero(x.tangent)


def _is_zero(t) -> bool:
    return type(t).__name__ == "Zero"


def install(refs, values) -> list:
    """Make the current trace own ``refs`` with ``values`` (a threaded body's inputs);
    returns what ``restore`` puts back."""
    cur = trace_ctx.trace
    saved = [(r._value, r._trace) for r in refs]
    for r, v in zip(refs, values):
        r._value, r._trace = v, cur
    return saved


def restore(refs, saved) -> list:
    """The threaded refs' final values (the body's extra outputs); puts back ``saved``."""
    finals = [r._value for r in refs]
    for r, (v, t) in zip(refs, saved):
        r._value, r._trace = v, t
    return finals


def returned_ref_error(ref_or_aval, fun, what: str, path: str = "") -> ValueError:
    """JAX's error for a ref among a traced function's outputs."""
    aval = ref_or_aval._aval if isinstance(ref_or_aval, Ref) else ref_or_aval
    at = f" at output tree path {path}" if path else ""
    return ValueError(
        f"function {function_where(fun)} traced for {what} returned a mutable array reference of "
        f"type {aval.str_short()}{at}, but mutable array references cannot be returned."
    )
