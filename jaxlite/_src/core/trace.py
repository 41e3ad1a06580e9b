"""Traces and tracers, and the current-trace context.

Design (JAX's "stackless" model):

* There is always a *current trace* (thread-local). ``Primitive.bind`` hands the primitive
  to it. Outside any transformation it is the ``EvalTrace``, which runs ``impl`` rules on
  NumPy values.
* A transformation creates a new trace whose ``parent_trace`` is the trace current when it
  started, makes it current while the user function runs, and processes each primitive by
  unpacking *its own* tracers and re-binding on the parent trace. Values that are not its
  own tracers (constants, or tracers of enclosing transformations) are treated as constants
  of this trace, which is exactly right for closures.
* Tracers know their trace by identity, so nested transformations never confuse each other
  (no perturbation confusion).
* When a transformation ends it invalidates its trace; touching a tracer of an invalid
  trace raises ``UnexpectedTracerError`` (a leaked tracer).
"""

from __future__ import annotations

import contextlib
import itertools
import operator
import threading
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, devices as _devices, dtypes
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import Array, ArrayImpl, foreign_to_numpy, fresh, make_array
from jaxlite._src.core.avals import ShapedArray, aval_of, check_allocation
from jaxlite._src.core.errors import (
    ConcretizationTypeError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)

_trace_serials = itertools.count()


class Trace:
    """Base of all traces. Subclasses implement ``process_primitive`` and name their
    ``kind`` (the key of ``rules.custom_call_rules``)."""

    __slots__ = ("parent_trace", "_valid", "_serial", "__weakref__")
    kind = "trace"

    def __init__(self, parent_trace: Trace | None = None):
        self.parent_trace = parent_trace
        self._valid = True
        # Creation order: a trace started while another runs (nested inside it) has a
        # larger serial; its live tracers can never be the other's constants.
        self._serial = next(_trace_serials)

    def process_primitive(self, primitive, tracers, params):  # pragma: no cover
        raise NotImplementedError

    def process_custom_call(self, primitive, tracers, params):
        """Process a primitive bound with not-yet-traced callables (``custom_jvp_call``...)
        by its ``rules.custom_call_rules`` entry for this trace's ``kind``."""
        rule = rules.custom_call_rules.get(primitive, {}).get(self.kind)
        if rule is None:
            raise NotImplementedError(f"{primitive} is not supported by {type(self).__name__}")
        return rule(self, tracers, **params)

    @property
    def main(self):
        """The identity of this trace's transformation, JAX's ``Trace.main`` (its ``tag``;
        ``None`` for traces without one, such as evaluation and staging), which libraries
        compare to tell their own tracers from others (``x._trace.main is main``)."""
        return getattr(self, "tag", None)

    def invalidate(self) -> None:
        self._valid = False

    def is_valid(self) -> bool:
        return self._valid

    def __repr__(self):
        return f"{type(self).__name__}"


class Tracer(Array):
    """A value standing for an array during a transformation."""

    # Weakly referenceable, as JAX's tracers (TFP caches bijector results keyed by weak
    # references to their inputs, also under jit, grad and vmap).
    __slots__ = ("_trace", "__weakref__")

    @property
    def aval(self) -> ShapedArray:  # pragma: no cover
        raise NotImplementedError

    def to_concrete_value(self) -> Any:
        """The concrete value behind this tracer, if the transformation knows it."""
        return None

    def _concrete_or_raise(self, err):
        # A leaked tracer (its transformation has finished) has no usable value, even if
        # its transformation knew one.
        v = self.to_concrete_value() if self._trace._valid else None
        if v is None:
            raise err
        return v

    # Conversions follow JAX exactly. A conversion that would hand the value to code that
    # jaxlite cannot see (NumPy through ``__array__``, Python floats and lists) always raises,
    # even when the value is known (a grad/jvp tracer): the derivative would be dropped
    # silently otherwise. ``bool``/``int``/``__index__``/``item`` of a *concrete* tracer are
    # allowed (Python control flow on known values under grad), as in JAX.

    def __array__(self, dtype=None, copy=None):
        raise TracerArrayConversionError(self)

    def __bool__(self):
        size = self.aval.size
        if size == 0:
            raise ValueError(
                "The truth value of an empty array is ambiguous. Use "
                "`array.size > 0` to check that an array is not empty."
            )
        if size > 1:
            # Ambiguous whatever the values are, exactly as for a NumPy array.
            raise ValueError(
                "The truth value of an array with more than one element is "
                "ambiguous. Use a.any() or a.all()"
            )
        return bool(
            self._concrete_or_raise(
                TracerBoolConversionError(
                    self, f"The problem arose with the `bool` function on {self}."
                )
            )
        )

    def _check_scalar_conversion(self):
        # As JAX (and a concrete array): the rank is checked before the value is asked for.
        if self.aval.ndim:
            raise TypeError(
                "Only scalar arrays can be converted to Python scalars; "
                f"got arr.ndim={self.aval.ndim}"
            )

    def __int__(self):
        self._check_scalar_conversion()
        return int(
            self._concrete_or_raise(
                ConcretizationTypeError(
                    self, f"The problem arose with the `int` function on {self}."
                )
            )
        )

    def __float__(self):
        self._check_scalar_conversion()
        check_valid_tracer(self)
        raise ConcretizationTypeError(
            self,
            f"The problem arose with the `float` function on {self}. If trying to convert "
            "the data type of a value, try using `x.astype(float)` or "
            "`jnp.array(x, dtype=float)` instead.",
        )

    def __complex__(self):
        self._check_scalar_conversion()
        check_valid_tracer(self)
        raise ConcretizationTypeError(
            self,
            f"The problem arose with the `complex` function on {self}. If trying to convert "
            "the data type of a value, try using `x.astype(complex)` or "
            "`jnp.array(x, dtype=complex)` instead.",
        )

    def __index__(self):
        # As JAX (and a concrete array): only an integer scalar is an index, whatever its
        # value (a float or bool tracer with a known value is refused too).
        if self.aval.ndim or not dtypes.is_int(self.aval.dtype):
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        return int(self._concrete_or_raise(TracerIntegerConversionError(self)))

    def item(self, *args):
        v = self._concrete_or_raise(
            ConcretizationTypeError(self, f"The problem arose with the `item` method on {self}.")
        )
        return np.asarray(v).item(*args)

    def tolist(self):
        check_valid_tracer(self)
        raise ConcretizationTypeError(
            self, f"The problem arose with the `tolist` method on {self}."
        )

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __hash__(self):
        raise TypeError(f"unhashable type: '{self._jax_class_name()}'")

    def block_until_ready(self):
        return self

    def __repr__(self):
        # Each interpreter's tracer names itself as JAX's does (``JitTracer(~float32[])``,
        # ``VmapTracer(...)``...); this is the fallback for the others.
        a = self.aval
        shape = ",".join(map(str, a.shape))
        return f"Traced<{a.dtype.name}[{shape}]>with<{type(self._trace).__name__}>"

    def __str__(self):
        return self.__repr__()

    def _jax_class_name(self) -> str:
        """The name of JAX's tracer class for this kind of value (in leak errors)."""
        return type(self).__name__

    def __format__(self, spec):
        if spec:  # as JAX's (object.__format__): no format specification for a tracer
            raise TypeError(
                f"unsupported format string passed to {self._jax_class_name()}.__format__"
            )
        return self.__repr__()

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


def escaped_tracer_error(tracer, detail: str = "") -> UnexpectedTracerError:
    # First two lines as JAX's (the tracer named by JAX's class for it); then our advice.
    return UnexpectedTracerError(
        "Encountered an unexpected tracer. A function transformed by JAX had a side effect, "
        "allowing for a reference to an intermediate value with type "
        f"{tracer.aval.str_short()} wrapped in a {tracer._jax_class_name()} to escape the "
        "scope of the transformation.\n"
        "JAX transformations require that functions explicitly return their outputs, and "
        "disallow saving intermediate values to global state.\n"
        f"The leaked value: {tracer}. A tracer created inside a transformation (jit, vmap, "
        "grad, a control-flow body...) was used outside of it, after that transformation "
        "had finished: it was stored in a global, a closure or an object attribute. "
        "Return the value from the transformed function instead, or pass it as an argument."
        + (f"\n{detail}" if detail else "")
    )


def check_valid_tracer(x: Tracer) -> None:
    if not x._trace._valid:
        raise escaped_tracer_error(x)


# ----------------------------------------------------------------------------- eval


def to_numpy_value(x: Any) -> tuple[np.ndarray, ShapedArray]:
    """A concrete value's NumPy buffer and aval (Python scalars canonicalised, weakly typed)."""
    if isinstance(x, ArrayImpl):
        return x._value, x.aval
    if isinstance(x, Tracer):
        raise escaped_tracer_error(x)
    if hasattr(x, "__jax_array__"):
        return to_numpy_value(x.__jax_array__())
    aval = aval_of(x)
    # The caller's memory is copied, so results never alias it and wrapping them as
    # (read-only) Arrays never freezes the caller's array.
    return foreign_to_numpy(x, aval.dtype), aval


_device_state = _devices._state
_config = _cfg.config

# ``EvalTrace``'s cache of abstract evaluation: (primitive, params, settings epoch, *avals)
# -> output aval(s). Cleared when full; holds no arrays and no jaxprs (``_params_key``).
_avals_cache: dict = {}
_AVALS_CACHE_SIZE = 4096
_PLAIN = frozenset({int, float, bool, complex, str, type(None), type})


class _NotPlain(Exception):
    pass


def _typed(v):
    t = type(v)
    if t in _PLAIN or isinstance(v, np.dtype):
        return t, v  # typed: 1, 1.0 and True are equal keys otherwise
    if t is tuple:
        return tuple(_typed(e) for e in v)
    raise _NotPlain


def _params_key(params: dict) -> tuple | None:
    """``params`` as part of a cache key, or None when a value is not a plain constant (an
    int, float, string, dtype, None, or tuples of them): jaxprs, functions, arrays and
    objects with state are never keys, so the cache keeps nothing alive and never hashes
    an object whose meaning can change. Each constant is keyed with its type."""
    try:
        return tuple((k, _typed(v)) for k, v in params.items())
    except _NotPlain:
        return None


def eval_abstract(primitive, abstract_eval, avals, params):
    """``abstract_eval(*avals, **params)``, checked by ``check_allocation``, from the cache
    when ``params`` are plain: abstract evaluation depends on the avals, the params and the
    settings (``config.epoch``) only. JAX's eager operations are cached jit calls, which
    evaluate abstractly once per signature too."""
    if primitive in rules.device_context:
        pk = None
    else:
        pk = _params_key(params) if params else ()
    if pk is not None:
        key = (primitive, pk, _config.epoch, *avals)
        avals_out = _avals_cache.get(key)
        if avals_out is not None:
            return avals_out
    avals_out = abstract_eval(*avals, **params)
    multiple = primitive.multiple_results
    check_allocation(avals_out if multiple else (avals_out,), primitive.name)
    if pk is not None:
        if multiple:
            avals_out = tuple(avals_out)
        if len(_avals_cache) >= _AVALS_CACHE_SIZE:
            _avals_cache.clear()
        _avals_cache[key] = avals_out
    return avals_out


class EvalTrace(Trace):
    """The bottom trace: evaluates primitives on concrete NumPy values."""

    __slots__ = ()
    kind = "eval"

    def process_primitive(self, primitive, args, params):
        if not _device_state.initialized:
            _devices.initialize()  # the first computation fixes the device count
        vals, avals = [], []
        placed = False
        for a in args:
            if type(a) is ArrayImpl:
                vals.append(a._value)
                avals.append(a.aval)
            elif isinstance(a, ArrayImpl):  # a sharded array (sharding/array.py), or a
                vals.append(a._value)  # callback's argument (CallbackArray)
                avals.append(a.aval)
                if a._placed:
                    placed = True
            else:
                v, aval = to_numpy_value(a)
                vals.append(v)
                avals.append(aval)
        try:
            abstract_eval = rules.abstract_eval_rules[primitive]
            impl = rules.impl_rules[primitive]
        except KeyError:
            kind = "abstract_eval" if primitive not in rules.abstract_eval_rules else "impl"
            raise rules.missing_rule(kind, primitive) from None
        if placed and sharding_hooks.eval_check is not None:
            gathered = sharding_hooks.eval_check(primitive, args, vals, params)
            if gathered is not None:
                vals = gathered
        avals_out = eval_abstract(primitive, abstract_eval, avals, params)
        if placed and primitive.name in sharding_hooks.eager_wrapped:
            out = sharding_hooks.eager_wrap(primitive, args, params, impl, vals)
        elif primitive in rules.quiet_fp:
            with np.errstate(all="ignore"):
                out = impl(*vals, **params)
        else:
            out = impl(*vals, **params)
        checks = _cfg.debug_value_checks()
        if checks is not None:
            check_debug_values(primitive.name, out if primitive.multiple_results else [out], checks)
        fwd = rules.forwarding_rules.get(primitive)
        if primitive.multiple_results:
            outs = [make_array(o, a) for o, a in zip(out, avals_out)]
            if fwd is not None:
                outs = _forward_operands(args, outs, fwd(params))
        else:
            outs = make_array(out, avals_out)
            if fwd is not None:
                (outs,) = _forward_operands(args, [outs], fwd(params))
        if placed:
            return sharding_hooks.eval_outputs(primitive, args, outs, params)
        return outs


eval_trace = EvalTrace()


def _forward_operands(args, outs, fwd):
    """``outs`` with each output that the primitive's body returns unchanged replaced by
    its operand object (an ``ArrayImpl`` of the same type), as JAX forwards inputs."""
    res = list(outs)
    for j, i in enumerate(fwd):
        if i is None:
            continue
        a = args[i]
        if type(a) is ArrayImpl and a.aval == res[j].aval:
            res[j] = a
    return res


def find_debug_value(outs, checks: tuple[bool, bool]) -> str | None:
    """``"nan"`` or ``"inf"`` if an inexact value in ``outs`` has one that ``checks``
    (``(debug_nans, debug_infs)``) asks about, else None."""
    nans, infs = checks
    for o in outs:
        o = np.asarray(o)
        if not dtypes.is_inexact(o.dtype):
            continue
        if nans and np.isnan(o).any():
            return "nan"
        if infs and np.isinf(o).any():
            return "inf"
    return None


def check_debug_values(name: str, outs, checks: tuple[bool, bool]) -> None:
    """``jax_debug_nans``/``jax_debug_infs``: raise ``FloatingPointError`` naming the
    primitive ``name`` whose outputs hold a NaN (or an inf)."""
    kind = find_debug_value(outs, checks)
    if kind is not None:
        raise FloatingPointError(f"invalid value ({kind}) encountered in {name}")


class _TraceCtx(threading.local):
    def __init__(self):
        self.trace = eval_trace


trace_ctx = _TraceCtx()


@contextlib.contextmanager
def set_current_trace(trace: Trace):
    """Make ``trace`` current for the duration of the block."""
    prev = trace_ctx.trace
    trace_ctx.trace = trace
    try:
        yield
    finally:
        trace_ctx.trace = prev


def current_trace() -> Trace:
    return trace_ctx.trace


@contextlib.contextmanager
def take_current_trace():
    """Yield the current trace and evaluate eagerly inside the block.

    A trace's ``process_primitive`` uses this to take itself off the stack while it
    binds on its parent (``jax.extend.core.take_current_trace``).
    """
    prev = trace_ctx.trace
    trace_ctx.trace = eval_trace
    try:
        yield prev
    finally:
        trace_ctx.trace = prev


class TraceTag:
    """Identifies the tracers that one run of a transformation created
    (``jax.extend.core.TraceTag``).

    A user-defined ``Trace`` keeps its tag and unwraps only tracers whose trace has the same
    tag. All tags compare equal, so caches keyed on a function and its tag still hit.
    """

    __slots__ = ()

    def __hash__(self):
        return hash(TraceTag)

    def __eq__(self, other):
        return isinstance(other, TraceTag)


def is_concrete(x: Any) -> bool:
    """True for values whose contents are known (not tracers, or tracers with known values)."""
    if isinstance(x, Tracer):
        return x.to_concrete_value() is not None
    return True


def concrete_or_error(x: Any, context: str = ""):
    """Return the concrete NumPy value of ``x`` or raise ``ConcretizationTypeError``."""
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            raise ConcretizationTypeError(x, context)
        return np.asarray(v)
    if type(x) is ArrayImpl:
        return x._value
    return np.asarray(x)


def concrete_index(x: Any, context: str = "") -> int:
    """``operator.index`` of a static integer argument (a size, a count): a float or a
    string is its TypeError (never truncated); a tracer must have a known value
    (``ConcretizationTypeError`` otherwise), as JAX's ``concrete_or_error(operator.index)``."""
    if isinstance(x, Tracer):
        x = concrete_or_error(x, context)[()]
    return operator.index(x)


def staging_active() -> bool:
    """True when the current trace, or one it sits on, stages a jaxpr (``jit``,
    ``make_jaxpr``, control-flow bodies)."""
    t = trace_ctx.trace
    while t is not None:
        if t.kind == "staging":
            return True
        t = t.parent_trace
    return False


def staged_constant(x: Any) -> Any:
    """``x``, an array a creation function (``jnp.array``, ``jnp.zeros``, ``lax.full``...)
    has just made from host data, as JAX has it: while a jaxpr is staged (``jit``,
    ``make_jaxpr``, ``eval_shape``, loop and branch bodies, ``checkpoint``) a tracer of the
    innermost staging trace, so not concrete (``jnp.zeros(jnp.int32(3))`` under ``jit``
    raises, as in JAX); ``x`` itself otherwise (eagerly, under ``grad`` / ``vmap`` alone)
    and inside ``ensure_compile_time_eval``."""
    if not isinstance(x, ArrayImpl):
        return x
    t = trace_ctx.trace
    while t is not None:
        if t.kind == "staging":
            return x if _cfg.eager_constant_folding_enabled() else t.new_const(x)
        t = t.parent_trace
    return x


def new_array(x: Any) -> Any:
    """A new array over ``x``'s buffer, where JAX's function makes one (a jitted
    ``jax.numpy`` function or a primitive that changes nothing: ``ravel`` of a 1-d array,
    ``real`` of a real one, ``+x``, ``optimization_barrier``): ``core.array.fresh``, and
    while a jaxpr is staged a tracer (``staged_constant``), as the result of JAX's call
    is. Tracers and other values pass through."""
    return staged_constant(fresh(x))


def full_lower_concrete(x):
    """The concrete ArrayImpl behind ``x`` if there is one, else ``x`` unchanged."""
    return x


__all__ = [
    "Trace",
    "Tracer",
    "EvalTrace",
    "eval_trace",
    "trace_ctx",
    "set_current_trace",
    "current_trace",
    "dtypes",
]
