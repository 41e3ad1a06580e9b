"""``jax.new_ref`` and ``jax.ref``: making, reading and writing mutable array references.

The ``Ref`` object and how accesses cross traces live in ``core/refs.py``; this module
builds the operations over ``jax.numpy`` indexing: a read is ``value[idx]``, a write is
``value.at[idx].set(x)`` (the whole value replaced for ``r[...] = x``), and ``addupdate``
is ``value.at[idx].add(x)``. Written values are checked as JAX checks them: the indexed
shape and the ref's dtype exactly. Reads return the ref's type (its weak type included).

It also registers ``refs.crossing_rules`` for vmap, jvp and grad traces: a ref made outside
the transformation may be read inside it; writing it raises JAX's errors.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import refs
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.errors import NonConcreteBooleanIndexError
from jaxlite._src.core.refs import AbstractRef, Ref
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.core.trace import Tracer, eval_trace, trace_ctx
from jaxlite._src.interpreters.jvp import JVPTracer
from jaxlite._src.interpreters.partial_eval import PETracer
from jaxlite._src.interpreters.staging import StagingTracer
from jaxlite._src.numpy import util as _np_util
from jaxlite._src.ops import conversion, shape as _shape

__all__ = [
    "AbstractRef",
    "Ref",
    "addupdate",
    "empty_ref",
    "free_ref",
    "freeze",
    "get",
    "new_ref",
    "set",
    "swap",
]


# ----------------------------------------------------------------------------- making
def _as_value(x: Any, what: str, position: int = 0):
    if isinstance(x, Ref):
        raise AssertionError(f"{what} of a jax.Ref: pass the ref's value (ref[...]) instead")
    if isinstance(x, Array):  # ArrayImpl or a tracer
        return x
    try:
        aval = aval_of(x)
    except TypeError:
        aval = None
    if aval is None or isinstance(x, (list, tuple, dict)):
        raise TypeError(
            f"Error interpreting argument to {what} as a JAX value. The problematic value is "
            f"of type {type(x)} and was passed to {what} at position {position}."
        )
    return _np_util.asarray_any(x)


def new_ref(init_val: Any, *, memory_space: Any = None, kind: str | None = None) -> Ref:
    """``jax.new_ref``: a mutable array reference holding ``init_val``.

    Args:
        init_val: an array (or a NumPy array or Python scalar, converted as by
            ``jnp.asarray``); a Python scalar gives a weakly typed ref, as in JAX.
        memory_space: accepted for compatibility (jaxlite has one memory).
        kind: JAX's ref kind tag, kept on the abstract value.

    Returns:
        The ``Ref``; ``r[idx]`` reads it and ``r[idx] = x`` writes it.

    Raises:
        TypeError: ``init_val`` is not an array or scalar (a list...).
    """
    value = _as_value(init_val, "new_ref")
    return Ref._make(value, AbstractRef(value.aval, memory_space, kind))


def empty_ref(ty: Any, *, memory_space: Any = None) -> Ref:
    """``jax.empty_ref``: a ref of type ``ty`` (a ``ShapeDtypeStruct`` or ``ShapedArray``)
    whose contents are unspecified (zeros in jaxlite) until written.

    As in JAX it can only be made while tracing (under ``jit`` or a loop body).

    Raises:
        NotImplementedError: outside any transformation (JAX has no evaluation rule).
    """
    if trace_ctx.trace is eval_trace:
        raise NotImplementedError("Evaluation rule for 'empty_ref' not implemented")
    dtype = dtypes.canonicalize_dtype(ty.dtype)
    value = _shape.full(tuple(ty.shape), 0, dtype)
    return Ref._make(value, AbstractRef(ShapedArray(tuple(ty.shape), dtype), memory_space))


def free_ref(ref: Ref) -> tuple:
    """``jax.free_ref``: release ``ref`` (a no-op in jaxlite, whose buffers are garbage
    collected; the ref stays readable, as in JAX outside ``jit``)."""
    _check_ref(ref, "free_ref")
    return ()


def freeze(ref: Ref) -> Any:
    """``jax.freeze``: the ref's value as an immutable array."""
    _check_ref(ref, "freeze")
    return get(ref)


def _check_ref(ref: Any, what: str) -> None:
    if not isinstance(ref, Ref):
        raise ValueError(f"Can only call `{what}` on a `Ref`: {ref}.")


# ----------------------------------------------------------------------------- indexing
def _normalize(ref: Ref, idx: Any) -> tuple[tuple, bool]:
    """``idx`` as a tuple of one entry per dimension (ints made non-negative and checked,
    slices, integer arrays), and whether it selects the whole ref."""
    shape = ref._aval.shape
    if idx is None:
        idx = ()
    if not isinstance(idx, tuple):
        idx = (idx,)
    idx = tuple(i for i in idx if i is not None)  # JAX's ref indexers ignore None
    n_ell = sum(1 for i in idx if i is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    n_real = len(idx) - n_ell
    if n_real > len(shape):
        raise IndexError(
            f"Too many indices for ref: array is {len(shape)}-dimensional, but {n_real} "
            "were indexed"
        )
    if n_ell:
        k = idx.index(Ellipsis)
        idx = idx[:k] + (slice(None),) * (len(shape) - n_real) + idx[k + 1 :]
    else:
        idx = idx + (slice(None),) * (len(shape) - n_real)
    out = []
    whole = True
    for i, dim in zip(idx, shape):
        if isinstance(i, slice):
            if isinstance(i.step, (int, np.integer)) and i.step < 0:  # JAX's ref indexers
                raise ValueError(f"slice must have a step >= 1 (found: {i.step})")
            if not (i.start is None and i.stop is None and i.step is None):
                start, stop, step = i.indices(dim)
                if not (start == 0 and step == 1 and stop == dim):
                    whole = False
            out.append(i)
            continue
        whole = False
        if isinstance(i, (bool, np.bool_)):
            raise NonConcreteBooleanIndexError(_Typed(ShapedArray((), np.dtype(bool))))
        if isinstance(i, (int, np.integer)):
            i = operator.index(i)
            if not -dim <= i < dim:
                raise ValueError(f"Out of bound indexer: idx={i}, dim={dim}.")
            out.append(i + dim if i < 0 else i)
            continue
        try:
            aval = aval_of(i)
        except TypeError:
            raise TypeError(f"Invalid index for a ref: {i!r} of type {type(i)}") from None
        if aval.dtype == np.dtype(bool):
            raise NonConcreteBooleanIndexError(_Typed(aval))
        if not dtypes.issubdtype(aval.dtype, np.integer):
            raise TypeError(f"Ref indices must be integers, got {aval.str_short()}")
        out.append(i)
    return tuple(out), whole


class _Typed:
    """Something with an ``aval``, for errors that name a value by its type."""

    def __init__(self, aval):
        self.aval = aval


def _as_ref_type(x, ref: Ref):
    """``x`` with the ref's weak type (its dtype and shape are checked already)."""
    inner = ref._aval.inner_aval
    if aval_of(x).weak_type != inner.weak_type:
        return conversion.convert_element_type_p.bind(
            x, new_dtype=inner.dtype, weak_type=inner.weak_type
        )
    return x


def _check_value(ref: Ref, op: str, idx, whole: bool, expected_shape: tuple, x: Any):
    x = _as_value(x, op, 1)
    aval = x.aval
    if tuple(aval.shape) != tuple(expected_shape):
        shown = "()" if whole else f"({idx!r},)"
        raise ValueError(
            f"Invalid shape for `{op}`. Ref shape: {ref._aval.shape}. Expected shape: "
            f"{tuple(expected_shape)}. Value shape: {tuple(aval.shape)}. Transforms: {shown}. "
        )
    if aval.dtype != ref._aval.dtype:
        second = "Value dtype" if op == "swap" else "Value shape"  # JAX's words
        raise ValueError(
            f"Invalid dtype for `{op}`. Ref dtype: {ref._aval.dtype}. {second}: {aval.dtype}. "
        )
    return x


def get(ref: Ref, idx: Any = None) -> Any:
    """``jax.ref.get``: ``ref[idx]`` (the whole value for ``idx`` None or ``...``)."""
    _check_ref(ref, "ref_get")
    norm, whole = _normalize(ref, idx)
    value = refs.read(ref)
    if whole:
        return value
    return value[norm]


def _implicit_cast(dtype, value: Any) -> Any:
    """JAX's conversion of a written value (``swap``/``set``, not ``addupdate``): a weakly
    typed floating value written to a floating ref, and any integer value to an integer
    ref (strongly typed too: it wraps, ``int32(300)`` into an ``int8`` ref is 44), take the
    ref's dtype; anything else is checked as it is."""
    if isinstance(value, (Ref, list, tuple, dict)):
        return value
    try:
        aval = aval_of(value)
    except TypeError:
        return value
    if not isinstance(aval, ShapedArray) or aval.dtype == dtype:
        return value
    floats = aval.weak_type and all(dtypes.issubdtype(d, np.floating) for d in (dtype, aval.dtype))
    ints = all(dtypes.issubdtype(d, np.integer) for d in (dtype, aval.dtype))
    if floats or ints:
        return conversion.convert_element_type_p.bind(
            _as_value(value, "swap", 1), new_dtype=np.dtype(dtype), weak_type=False
        )
    return value


def swap(ref: Ref, idx: Any, value: Any) -> Any:
    """``jax.ref.swap``: write ``value`` at ``ref[idx]`` and return what was there."""
    _check_ref(ref, "ref_swap")
    value = _implicit_cast(ref._aval.dtype, value)
    norm, whole = _normalize(ref, idx)
    cur = refs.read(ref, "swap")
    old = cur if whole else cur[norm]
    x = _check_value(ref, "swap", idx, whole, old.shape, value)
    new = x if whole else cur.at[norm].set(x)
    refs.write(ref, _as_ref_type(new, ref))
    return old


def set(ref: Ref, idx: Any, value: Any) -> None:  # noqa: A001 (JAX's name)
    """``jax.ref.set``: ``ref[idx] = value``."""
    _check_ref(ref, "ref_set")
    swap(ref, idx, value)


def addupdate(ref: Ref, idx: Any, x: Any) -> None:
    """``jax.ref.addupdate``: ``ref[idx] += x``, as one update."""
    _check_ref(ref, "addupdate")
    norm, whole = _normalize(ref, idx)
    cur = refs.read(ref, "addupdate")
    expected = cur.shape if whole else cur[norm].shape
    x = _check_value(ref, "addupdate", idx, whole, expected, x)
    new = cur + x if whole else cur.at[norm].add(x)
    refs.write(ref, _as_ref_type(new, ref), "addupdate")


def _repr(ref: Ref) -> str:
    v = ref._value
    if type(v) is ArrayImpl or (isinstance(v, Array) and not isinstance(v, Tracer)):
        text = repr(v)
        return "Ref" + text[text.index("(") :]
    if isinstance(v, StagingTracer):
        return f"JitTracer({ref._aval.str_short()})"
    return f"Ref({v!r})"


def _setitem(ref: Ref, idx: Any, value: Any) -> None:
    swap(ref, idx, value)


refs.impl.update(
    get=get,
    set=_setitem,
    addupdate=addupdate,
    repr=_repr,
)


# ----------------------------------------------------------------------------- crossing
def _op_words(op: str) -> str:
    return "an addupdate operation" if op == "addupdate" else "a set/swap operation"


def _cross_batch(trace, ref, value, op):
    entry = refs.mapped_args.get(id(trace), {}).get(id(ref))
    stale = entry is not None and entry[0]._value is not entry[1]
    if stale and value is None and op == "get":  # a write's own read: it raises below
        # JAX's vmap writes the mapped slices into the ref's own buffer as it goes, so this
        # read sees the mapped argument's writes; jaxlite's function holds them in a
        # separate ref until it returns (the read would be stale). Writes raise below.
        raise NotImplementedError(
            "jaxlite cannot read a mutable array "
            f"reference of type {ref._aval.str_short()} inside a vmapped function that also "
            "receives it as a mapped argument and has written it there (closed over, or "
            "passed again with in_axes None): use the argument only"
        )
    if value is None:  # a read: the ref's value is a constant of the vmapped function
        return None
    raise Exception(
        f"performing {_op_words(op)} with vmapped value on an unbatched array reference of "
        f"type {ref._aval.str_short()}. Move the array reference to be an argument to the "
        "vmapped function?"
    )


def _differentiated(ref, op) -> Exception:
    return Exception(
        f"performing {_op_words(op)} with a differentiated value on a non-differentiated "
        f"array reference of type {ref._aval.str_short()}. Move the array reference to be an "
        "argument of the differentiated function?"
    )


def _cross_jvp(trace, ref, value, op):
    if isinstance(value, JVPTracer) and value._trace is trace:
        if type(value.tangent) is not Zero:
            raise _differentiated(ref, op)
        return value.primal
    return value


def _cross_partial_eval(trace, ref, value, op):
    if isinstance(value, PETracer) and value._trace is trace:
        raise _differentiated(ref, op)
    return value


refs.crossing_rules.update(batch=_cross_batch, jvp=_cross_jvp, partial_eval=_cross_partial_eval)
