"""What every jax.numpy function starts with: converting its arguments (``array`` --
``jnp.array`` itself, since ``asarray_any`` of a list is one -- and ``asarray_any``),
JAX's dtype promotion and NumPy-style broadcasting."""

from __future__ import annotations

import builtins
import operator
import warnings
from typing import Any

import numpy as np
from jaxlite._src import config as _cfg, dtypes
from jaxlite._src.core.array import Array, ArrayImpl, owned, to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.trace import Tracer, concrete_index, new_array, staged_constant
from jaxlite._src.ops import conversion, division, elementwise as ew, shape as _shape
from jaxlite._src.sharding import explicit as _explicit


def check_out(out: Any, what: str) -> None:
    """JAX's refusal of NumPy's ``out=`` argument: ``what`` is the rest of its message
    (``"jnp.sum is not supported."``; JAX's punctuation varies by function).

    Raises:
        NotImplementedError: ``out`` is not None.
    """
    if out is not None:
        raise NotImplementedError(f"The 'out' argument to {what}")


def check_arraylike(fun_name: str, *args: Any) -> None:
    for pos, a in enumerate(args):
        if not is_arraylike(a):
            raise TypeError(
                f"{fun_name} requires ndarray or scalar arguments, got {type(a)} at position {pos}."
            )


def is_arraylike(x: Any) -> bool:
    return (
        isinstance(x, (Array, np.ndarray, np.generic))
        or type(x) in (bool, int, float, complex)
        or hasattr(x, "__jax_array__")
        or dtypes.python_scalar_base(type(x)) is not None
    )


def asarray_any(x: Any):
    """Any array-like as an Array or tracer (Python scalars stay weakly typed; nested lists
    and tuples become arrays, as ``jnp.asarray`` does)."""
    if isinstance(x, (list, tuple)):
        return array(x)
    return to_array(x)


def asarray_staged(x: Any):
    """``asarray_any``, with host data (NumPy arrays and scalars, Python scalars, lists) a
    tracer while a jaxpr is staged, as ``jnp.asarray`` makes it: for the functions that
    can hand their converted argument back unchanged (``transpose`` with the identity
    permutation, ``broadcast_to`` the same shape...), where JAX's result is that tracer. An
    ``Array`` is returned as it is (a concrete one stays concrete, as in JAX)."""
    if isinstance(x, Array):
        return x
    return staged_constant(asarray_any(x))


def no_sequences(args) -> None:
    """JAX's promotion helpers take arrays and scalars only: a list or tuple has no dtype
    (its TypeError; the public functions that check their operands first say so with
    ``check_arraylike``'s message instead)."""
    for a in args:
        if isinstance(a, (list, tuple)):
            raise TypeError(f"Cannot determine dtype of {a}")


def promote_dtypes(*args: Any) -> list:
    """Convert args to their common JAX result type (weak types respected)."""
    no_sequences(args)
    if len(args) < 2:
        return [asarray_any(a) for a in args]
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    return [conversion.convert_element_type(asarray_any(a), to_dtype, weak) for a in args]


def promote_dtypes_for_contraction(*args: Any) -> tuple[list, bool]:
    """``promote_dtypes`` for ``dot``-like contractions, as JAX's: only operands of another
    dtype are cast (an operand of the result dtype keeps its weak type, so no cast stands
    between it and its cotangent), strongly typed (JAX hands them to ``dot_general`` in
    their own dtype with a strong ``preferred_element_type``, so a cotangent through them
    is strong); returns the arrays and the result's weak type."""
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    out = []
    for a in args:
        a = asarray_any(a)
        out.append(
            a if aval_of(a).dtype == to_dtype else conversion.convert_element_type(a, to_dtype)
        )
    return out, weak


def truth_test(x):
    """``x != 0`` against JAX's constant (``lax._const``): weakly typed only for a weak
    scalar (a Python zero there), strong for a weak array, which compares with a typed zero
    (jnp's logical functions, ``isreal``/``iscomplex``)."""
    return ew.ne(x, ew._formula_const(x, 0))


def with_weak_type(x, weak: bool):
    """``x`` with weak type ``weak`` (a cast only where it differs)."""
    a = aval_of(x)
    return x if a.weak_type == weak else conversion.convert_element_type(x, a.dtype, weak)


def lax_asarray(x):
    """``lax.asarray``: an array or scalar, not a list or tuple (JAX's ``TypeError``)."""
    if isinstance(x, (list, tuple)):
        raise TypeError(f"asarray: expected ArrayLike, got {x!r} of type {type(x)}.")
    return asarray_any(x)


def check_jit_arguments(fun, args: tuple, kwargs: dict | None = None) -> None:
    """JAX's ``jit`` argument ``TypeError`` for ``fun`` (a function JAX wraps in ``jit``,
    named by its public wrapper) called with an argument that is not an array, a number or
    a pytree of them: a string, an object. Checked up front, so an argument a path of
    ``fun`` does not read (``trapezoid``'s ``dx`` beside ``x``) is refused as in JAX."""
    kwargs = kwargs or {}
    plain = (type(None), bool, int, float, complex, np.ndarray, np.generic, Array, Tracer)
    if all(isinstance(v, plain) for v in (*args, *kwargs.values())):
        return
    from jaxlite._src.interpreters.staging import argument_type_error

    err = argument_type_error(fun, args, kwargs)
    if err is not None:
        raise err


def promote_dtypes_inexact(*args: Any) -> list:
    no_sequences(args)
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    to_dtype = dtypes.to_inexact_dtype(to_dtype)
    return [conversion.convert_element_type(asarray_any(a), to_dtype, weak) for a in args]


def promote_dtypes_numeric(*args: Any) -> list:
    no_sequences(args)
    to_dtype, weak = dtypes.result_type(*args, return_weak_type_flag=True)
    if to_dtype == dtypes.bool_:
        # int32 with or without x64, as JAX's to_numeric_dtype (not the default int)
        to_dtype, weak = np.dtype("int32"), False
    return [conversion.convert_element_type(asarray_any(a), to_dtype, weak) for a in args]


def broadcast_arrays(*args: Any) -> list:
    shapes = [aval_of(a).shape for a in args]
    if len(set(shapes)) == 1:
        return list(args)
    try:
        result = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            "Incompatible shapes for broadcasting: shapes=" + str([tuple(s) for s in shapes])
        ) from None
    return [_shape.broadcast_to_rank(a, result) if aval_of(a).shape != result else a for a in args]


def broadcast_nonscalar(*args: Any) -> list:
    """Broadcast to a common shape, leaving rank-0 operands alone (elementwise primitives
    accept rank-0 operands, so scalars stay literals in jaxprs)."""
    shapes = [aval_of(a).shape for a in args]
    if len({s for s in shapes if s != ()}) <= 1:
        return list(args)
    full = broadcast_arrays(*args)
    return [a if s == () else f for a, s, f in zip(args, shapes, full)]


def _rank_promotion_check(fun_name: str, args) -> None:
    """``jax_numpy_rank_promotion``: 'warn' or 'raise' when non-scalar operands of
    different ranks would be broadcast (rank-0 operands never count), as JAX's
    ``promote_shapes``. Read while tracing, so the flag is part of jit's cache key."""
    mode = _cfg.numpy_rank_promotion_mode()
    if mode == "allow":
        return
    shapes = [tuple(aval_of(a).shape) for a in args]
    if len({len(s) for s in shapes if s}) < 2:
        return
    shown = " ".join(map(str, shapes))
    if mode == "warn":
        warnings.warn(
            f"Following NumPy automatic rank promotion for {fun_name} on shapes {shown}. "
            "Set the jax_numpy_rank_promotion config option to 'allow' to disable this "
            "warning; for more information, see "
            "https://docs.jax.dev/en/latest/rank_promotion_warning.html.",
            stacklevel=4,
        )
    else:
        raise ValueError(
            f"Operands could not be broadcast together for {fun_name} on shapes {shown} and "
            "with the config option jax_numpy_rank_promotion='raise'. For more information, "
            "see https://docs.jax.dev/en/latest/rank_promotion_warning.html."
        )


def _broadcast_for(fun_name: str, args: list) -> list:
    _rank_promotion_check(fun_name, args)
    try:
        return broadcast_nonscalar(*args)
    except ValueError:
        # As JAX: operands of different (nonscalar) ranks go through its rank promotion,
        # whose broadcast raises ValueError listing every shape; equal ranks reach the lax
        # operation, which raises a TypeError naming the function.
        shapes = [tuple(aval_of(a).shape) for a in args]
        if len({len(s) for s in shapes if s}) > 1:
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None
        raise TypeError(
            f"{fun_name} got incompatible shapes for broadcasting: "
            + ", ".join(str(tuple(aval_of(a).shape)) for a in args)
            + "."
        ) from None


def _reject_extended(fun_name: str, args) -> None:
    """Arithmetic on extended dtypes (PRNG keys) fails as in JAX: ``add does not accept
    dtypes key<fry>, int32.``"""
    dts = [dtypes.dtype_and_weak_type(a)[0] for a in args]
    if any(dtypes.is_extended(d) for d in dts):
        raise TypeError(f"{fun_name} does not accept dtypes {', '.join(map(str, dts))}.")


# 64-bit dtypes: an array may hold one while x64 is off (made while it was on), and then
# promotion canonicalizes it; such arrays take the full path.
_WIDE = frozenset(map(np.dtype, ("int64", "uint64", "float64", "complex128")))


def _same_arrays(args) -> bool:
    """Whether ``args`` are two or more concrete arrays of one aval (shape, dtype, weak type)
    of a canonical non-extended dtype: then promotion and broadcasting change nothing (the
    common eager ``x + y``), and the checks cannot fail."""
    a0 = args[0]
    if type(a0) is not ArrayImpl or len(args) < 2:
        return False
    aval = a0.aval
    for a in args[1:]:
        if type(a) is not ArrayImpl or not (a.aval is aval or a.aval == aval):
            return False
    if aval.weak_type and aval.dtype == dtypes.bool_:
        return False  # JAX's result of weak bools is a strong bool: a cast is needed
    return aval.dtype not in _WIDE and not dtypes.is_extended(aval.dtype)


# Real floating dtypes a Python float or int takes without changing (``_with_scalars``).
_FLOATS = frozenset(map(np.dtype, ("float16", "float32", dtypes.bfloat16)))
_SCALAR_AVALS: dict = {}  # (dtype, weak) -> ShapedArray((), dtype, weak)


def _with_scalars(args) -> list | None:
    """``promote_dtypes`` of one concrete array of a real floating dtype and Python floats or
    ints (the common eager ``x * 2.0``), or None for anything else: each scalar becomes a
    rank-0 array of the array's dtype and weak type, made as ``promote_dtypes`` makes it
    (the weakly typed scalar, then cast) without a conversion primitive."""
    arr = None
    for a in args:
        t = type(a)
        if t is ArrayImpl:
            if arr is not None:
                return None
            arr = a
        elif t is not float and not (t is int and -(2**31) <= a < 2**31):
            return None
    if arr is None:
        return None
    dt, weak = arr.aval.dtype, arr.aval.weak_type
    if dt not in _FLOATS:
        return None
    aval = _SCALAR_AVALS.get((dt, weak))
    if aval is None:
        aval = _SCALAR_AVALS[dt, weak] = ShapedArray((), dt, weak)
    return [a if a is arr else ArrayImpl(to_array(a)._value.astype(dt), aval) for a in args]


def promote_args(fun_name: str, *args: Any) -> list:
    if _same_arrays(args):
        return list(args)
    out = _with_scalars(args)
    if out is not None:
        return out
    check_arraylike(fun_name, *args)
    _reject_extended(fun_name, args)
    return _broadcast_for(fun_name, promote_dtypes(*args))


def promote_args_inexact(fun_name: str, *args: Any) -> list:
    check_arraylike(fun_name, *args)
    _reject_extended(fun_name, args)
    return _broadcast_for(fun_name, promote_dtypes_inexact(*args))


def promote_args_numeric(fun_name: str, *args: Any) -> list:
    check_arraylike(fun_name, *args)
    _reject_extended(fun_name, args)
    return _broadcast_for(fun_name, promote_dtypes_numeric(*args))


def canonicalize_axis(axis: int, ndim: int, index_error: bool = False) -> int:
    """``axis`` in ``[0, ndim)``. Out of range: a plain ValueError, as JAX's
    ``canonicalize_axis`` raises (not NumPy's AxisError, which is also an IndexError), or
    with ``index_error`` a plain IndexError, for the functions where JAX indexes the shape
    first (``argmax``, ``mean``, ``var``, ``split``...: its ``tuple index out of range``).
    A float axis is a TypeError (``operator.index``, as JAX), never truncated; a traced one
    is JAX's ``ConcretizationTypeError``."""
    axis = concrete_index(axis, "The axis argument must be known statically.")
    if not -ndim <= axis < ndim:
        msg = f"axis {axis} is out of bounds for array of dimension {ndim}"
        raise IndexError(msg) if index_error else ValueError(msg)
    return axis % ndim


def check_where_args(condition, x, y, size, fill_value) -> None:
    """The three-term ``where``'s operands are arrays (or scalars), and JAX refuses
    ``size=`` / ``fill_value=`` there (they belong to the one-argument form)."""
    if size is not None or fill_value is not None:
        raise ValueError(
            "size and fill_value arguments cannot be used in three-term where function."
        )
    check_arraylike("where", condition, x, y)


def is_tracer(x) -> bool:
    return isinstance(x, Tracer)


__all__ = ["ShapedArray"]


def check_order(order) -> None:
    """JAX's arrays have one memory layout: ``order`` may only be 'K' (or None)."""
    if order is not None and order != "K":
        raise NotImplementedError("Only implemented for order='K'")


def array(
    object: Any,
    dtype=None,
    *args,
    copy: bool = True,
    order: str | None = "K",
    ndmin: int = 0,
    device=None,
    out_sharding=None,
) -> Array:
    """``jnp.array``: build an array from an array-like (nested lists allowed).

    ``device``/``out_sharding`` place the result; under ``jax.set_mesh`` a new array is
    replicated on the context mesh (``P()``, S8.5).

    Python scalars give weakly typed 0-d arrays only through ``asarray`` with no dtype;
    ``array`` of a scalar is weakly typed too, as in JAX.

    Raises:
        ValueError: for a NumPy masked array (its mask would be dropped; JAX raises in
            ``asarray``, jaxlite in ``array`` too).
        TypeError: for values of a non-numeric dtype (str, object, datetime64...).
        NotImplementedError: an ``order`` other than 'K' or None (as JAX).
    """
    if args:  # copy, order, ndmin passed positionally: JAX's deprecated form
        if len(args) > 3:
            raise TypeError(
                f"array() takes at most 5 positional arguments but {len(args) + 2} were given"
            )
        given, defaults = [copy, order, ndmin], [True, "K", 0]
        for i, name in enumerate(["copy", "order", "ndmin"][: len(args)]):
            if given[i] != defaults[i]:
                raise TypeError(f"array() got multiple values for argument '{name}'")
        copy, order, ndmin = (list(args) + given[len(args) :])[:3]
        warnings.warn(
            "Passing the copy, order, and ndmin arguments to jnp.array positionally is "
            "deprecated. Use keyword arguments instead.",
            DeprecationWarning,
            stacklevel=2,
        )
    check_order(order)
    if isinstance(object, np.ma.MaskedArray):
        aval_of(object)  # raises JAX's error for masked arrays
    if isinstance(object, Array):
        out = new_array(object) if copy else object  # a new array, as JAX's copy
        if dtype is not None:
            out = conversion.convert_element_type(
                out, dtypes.check_user_dtype_supported(dtype, "array")
            )
    elif isinstance(object, (list, tuple)) and builtins.any(
        isinstance(x, Array) for x in _flatten_nested(object)
    ):
        leaves = [array(x) for x in object]
        if not leaves:
            out = asarray_any(np.asarray(object, dtype=dtype or dtypes.float32))
        else:
            leaves = promote_dtypes(*leaves)
            out = _shape.concatenate([_shape.expand_dims(x, (0,)) for x in leaves], 0)
        if dtype is not None:
            out = conversion.convert_element_type(out, dtypes.canonicalize_dtype(dtype))
    else:
        if dtype is None and (
            type(object) in (bool, int, float, complex)
            or dtypes.python_scalar_base(type(object)) is not None
        ):
            out = asarray_any(object)
        else:
            if dtype is not None:
                dt = dtypes.check_user_dtype_supported(dtype, "array")
                v = np.array(object, dtype=dt)
            elif isinstance(object, (list, tuple)):
                v = _nested_to_numpy(object)
            else:
                v = np.array(object)
                if v.dtype.kind == "O":
                    _raise_object_dtype(object)
                if dtypes.is_invalid_dtype(v.dtype):
                    _raise_not_numeric(object, v.dtype)
                v = v.astype(dtypes.canonicalize_dtype(v.dtype), copy=False)
            # ``np.array`` may hand back a buffer an ``__array__`` object keeps: own it.
            out = ArrayImpl(owned(v, held=1))
    if ndmin > out.ndim:
        out = _shape.reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    if device is not None or out_sharding is not None or not isinstance(object, Array):
        out = _explicit.created(out, out_sharding, device, bare=True)
    if not isinstance(object, Array) or out is not object:
        out = staged_constant(out)  # host data or a copy: a tracer while staging, as JAX's
    return out


def _raise_object_dtype(object):
    # JAX's errors: None anywhere is a ValueError; else the first value that is no number
    leaves = list(_flatten_nested(object))
    if any(x is None for x in leaves):
        raise ValueError("None is not a valid value for jnp.array")
    bad = next((x for x in leaves if np.asarray(x).dtype.kind in "OUSV"), object)
    _raise_not_numeric(bad, np.asarray(bad).dtype if bad is not object else "object")


def _raise_not_numeric(value, dtype):
    raise TypeError(
        f"Value '{value}' with dtype {dtype} is not a valid JAX array type. Only arrays of "
        "numeric types are supported by JAX."
    )


def _nested_to_numpy(object) -> np.ndarray:
    """A nested list/tuple as JAX builds it: the dtype is ``result_type`` of the leaves
    (Python scalars weak, NumPy scalars and arrays strong, each canonicalised), the array
    itself not weak; a Python int outside that dtype raises ``OverflowError`` (NumPy alone
    would pick int64 and the cast to int32 would wrap silently)."""
    leaves = list(_flatten_nested(object))
    if not leaves:
        return np.array(object, dtype=dtypes.default_float_dtype())
    py_ints = [x for x in leaves if type(x) is int]
    if len(py_ints) == len(leaves) or _all_py_scalars(object):
        v = np.array(object)  # all Python scalars: NumPy's kind, JAX's default width
        if py_ints and (v.dtype.kind == "O" or v.dtype == np.uint64):
            # An int beyond int64: NumPy makes it uint64 or an object, JAX refuses it.
            raise OverflowError("Python int too large to convert to C long")
        if v.dtype.kind == "O":
            _raise_object_dtype(object)
        dt = dtypes.canonicalize_dtype(v.dtype)
    else:
        try:
            dt = dtypes.result_type(*leaves)
        except TypeError:
            _raise_object_dtype(object)
        v = None
    if py_ints and np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        if v is not None and v.dtype.kind in "iu" and v.size:
            lo, hi = v.min(), v.max()  # the ints only reach Python through the bad ones
            py_ints = [int(lo), int(hi)] if lo < info.min or hi > info.max else []
        for x in py_ints:
            if not -(2**63) <= x < 2**63:
                raise OverflowError("Python int too large to convert to C long")
            if not info.min <= x <= info.max:
                raise OverflowError(f"Python integer {x} out of bounds for {np.dtype(dt).name}")
    if v is None:
        v = np.array(object, dtype=dt)
        if v.dtype.kind == "O":
            _raise_object_dtype(object)
    return v.astype(dt, copy=False)


def _flatten_nested(x):
    if isinstance(x, (list, tuple)):
        for y in x:
            yield from _flatten_nested(y)
    else:
        yield x


def _all_py_scalars(x):
    return builtins.all(type(v) in (bool, int, float, complex) for v in _flatten_nested(x))


def div_by_constant(x, v):
    """``x / v`` for a Python number ``v`` as JAX computes it inside its own jitted
    functions (``jnp.mean``, ``average``, ``round``): XLA rewrites ``A / Const`` as
    ``A * (1 / Const)``, so float16/32/64 multiply by the reciprocal rounded to the dtype,
    eagerly too (an exact division of a rank-0 total would differ in the last bit)."""
    a = aval_of(x)
    if np.dtype(a.dtype) in division.RECIP_DTYPES:
        t = np.dtype(a.dtype).type
        with np.errstate(divide="ignore"):
            return ew.mul(x, ew._const(x, np.true_divide(t(1), t(v))))
    return ew.div(x, ew._const(x, v))
