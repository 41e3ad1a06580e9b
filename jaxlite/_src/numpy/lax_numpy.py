"""Core of ``jax.numpy``: creation, elementwise functions, reductions, shapes, dots.

Every function is a composition of ``ops``: arguments are promoted with JAX's rules
(``util.promote_args*``), broadcast NumPy-style, then primitives are bound.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    promote_args,
    promote_args_inexact,
    promote_args_numeric,
    promote_dtypes,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    linalg as _linalg,
    reductions as _red,
    shape as _sh,
)

ndarray = Array
pi = np.pi
e = np.e
inf = np.inf
nan = np.nan
euler_gamma = np.euler_gamma
newaxis = None

float16, float32, float64 = np.float16, np.float32, np.float64
bfloat16 = dtypes.bfloat16.type
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
complex64, complex128 = np.complex64, np.complex128
bool_ = np.bool_
float_, int_, complex_ = np.float64, np.int64, np.complex128
dtype = np.dtype
generic, number, inexact, floating = np.generic, np.number, np.inexact, np.floating
integer, signedinteger, unsignedinteger = np.integer, np.signedinteger, np.unsignedinteger
complexfloating = np.complexfloating
iinfo = dtypes.iinfo
finfo = dtypes.finfo
promote_types = dtypes.promote_types
result_type = dtypes.result_type
issubdtype = dtypes.issubdtype


def _shape(x):
    return aval_of(x).shape


# ----------------------------------------------------------------------------- creation
def array(object: Any, dtype=None, copy: bool = True, order=None, ndmin: int = 0) -> Array:
    """``jnp.array``: build an array from an array-like (nested lists allowed).

    Python scalars give weakly typed 0-d arrays only through ``asarray`` with no dtype;
    ``array`` of a scalar is weakly typed too, as in JAX.
    """
    if isinstance(object, Array):
        out = object
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
            out = _sh.concatenate([_sh.expand_dims(x, (0,)) for x in leaves], 0)
        if dtype is not None:
            out = conversion.convert_element_type(out, dtypes.canonicalize_dtype(dtype))
    else:
        if type(object) in (bool, int, float, complex) and dtype is None:
            out = asarray_any(object)
        else:
            if dtype is not None:
                dt = dtypes.check_user_dtype_supported(dtype, "array")
                v = np.array(object, dtype=dt)
            else:
                v = np.array(object)
                if v.dtype.kind == "O":
                    raise TypeError(
                        f"JAX only supports number and bool dtypes, got array "
                        f"with dtype object from {object!r}"
                    )
                if isinstance(object, (list, tuple)) and v.size and _all_py_scalars(object):
                    # Lists of Python scalars: JAX's default dtypes, not weak.
                    v = v.astype(dtypes.canonicalize_dtype(v.dtype))
                v = v.astype(dtypes.canonicalize_dtype(v.dtype), copy=False)
            out = ArrayImpl(v)
    if ndmin > out.ndim:
        out = _sh.reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def _flatten_nested(x):
    if isinstance(x, (list, tuple)):
        for y in x:
            yield from _flatten_nested(y)
    else:
        yield x


def _all_py_scalars(x):
    return builtins.all(type(v) in (bool, int, float, complex) for v in _flatten_nested(x))


def asarray(a: Any, dtype=None, order=None, copy=None) -> Array:
    """``jnp.asarray``: like ``array`` without forcing a copy."""
    if dtype is None and isinstance(a, Array):
        return a
    return array(a, dtype=dtype, copy=False)


def _dtype_or_default(dtype, default=None):
    if dtype is None:
        return default if default is not None else dtypes.default_float_dtype()
    return dtypes.check_user_dtype_supported(dtype)


def _canon_shape(shape):
    if isinstance(shape, (int, np.integer)) or (hasattr(shape, "ndim") and shape.ndim == 0):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def zeros(shape, dtype=None) -> Array:
    return _sh.full(_canon_shape(shape), 0, _dtype_or_default(dtype))


def ones(shape, dtype=None) -> Array:
    return _sh.full(_canon_shape(shape), 1, _dtype_or_default(dtype))


def empty(shape, dtype=None) -> Array:
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None) -> Array:
    shape = _canon_shape(shape)
    if dtype is None:
        dt, weak = dtypes.result_type(fill_value, return_weak_type_flag=True)
        fv = asarray_any(fill_value)
        if _shape(fv) != () and _shape(fv) != shape:
            return broadcast_to(fv, shape)
        return (
            _sh.full(shape, fill_value, dt, weak)
            if not isinstance(fill_value, Tracer)
            else broadcast_to(fv, shape)
        )
    dt = dtypes.check_user_dtype_supported(dtype)
    if isinstance(fill_value, Tracer) or _shape(fill_value) != ():
        return broadcast_to(conversion.convert_element_type(asarray_any(fill_value), dt), shape)
    return _sh.full(shape, fill_value, dt)


def zeros_like(a, dtype=None, shape=None) -> Array:
    av = aval_of(a)
    return _sh.full(
        av.shape if shape is None else _canon_shape(shape),
        0,
        av.dtype if dtype is None else _dtype_or_default(dtype),
        av.weak_type and dtype is None,
    )


def ones_like(a, dtype=None, shape=None) -> Array:
    av = aval_of(a)
    return _sh.full(
        av.shape if shape is None else _canon_shape(shape),
        1,
        av.dtype if dtype is None else _dtype_or_default(dtype),
        av.weak_type and dtype is None,
    )


def full_like(a, fill_value, dtype=None, shape=None) -> Array:
    av = aval_of(a)
    return full(
        av.shape if shape is None else shape, fill_value, av.dtype if dtype is None else dtype
    )


def empty_like(a, dtype=None, shape=None) -> Array:
    return zeros_like(a, dtype, shape)


def arange(start, stop=None, step=None, dtype=None) -> Array:
    """``jnp.arange`` (arguments must be concrete)."""
    from jaxlite._src.core.trace import concrete_or_error

    ctx = "It arose in jnp.arange: its arguments determine the output shape."
    start = concrete_or_error(start, ctx).item() if start is not None else None
    stop = concrete_or_error(stop, ctx).item() if stop is not None else None
    step = concrete_or_error(step, ctx).item() if step is not None else None
    if stop is None and step is None:
        v = np.arange(start)
    else:
        v = np.arange(start, stop, step if step is not None else 1)
    if dtype is None:
        dt = dtypes.canonicalize_dtype(v.dtype)
        if builtins.all(
            type(x) in (int, type(None)) or isinstance(x, (np.integer,))
            for x in (start, stop, step)
        ):
            dt = dtypes.default_int_dtype()
        else:
            dt = dtypes.default_float_dtype() if v.dtype.kind == "f" else dt
    else:
        dt = dtypes.check_user_dtype_supported(dtype, "arange")
    return ArrayImpl(v.astype(dt))


def linspace(
    start,
    stop,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype=None,
    axis: int = 0,
):
    dt = _dtype_or_default(dtype, dtypes.default_float_dtype())
    start, stop = asarray(start), asarray(stop)
    if isinstance(start, Tracer) or isinstance(stop, Tracer):
        n = num - 1 if endpoint else num
        step = (stop - start) / builtins.max(n, 1)
        out = start + arange(num).astype(dt) * step
        return (out, step) if retstep else out.astype(dt)
    v, step = np.linspace(np.asarray(start), np.asarray(stop), num, endpoint, True, axis=axis)
    out = ArrayImpl(np.asarray(v, dt))
    return (out, asarray(step)) if retstep else out


def eye(N: int, M: int | None = None, k: int = 0, dtype=None) -> Array:
    return ArrayImpl(np.eye(N, M, k, dtype=_dtype_or_default(dtype)))


def identity(n: int, dtype=None) -> Array:
    return eye(n, dtype=dtype)


# --------------------------------------------------------------------------- elementwise
def _unary(lax_fn, name, inexact=True):
    def f(x, /):
        check_arraylike(name, x)
        (x,) = promote_dtypes_inexact(x) if inexact else promote_dtypes(x)
        return lax_fn(x)

    f.__name__ = name
    f.__doc__ = f"Elementwise ``{name}`` (``jax.numpy.{name}``)."
    return f


def _binary(lax_fn, name, promote=promote_args):
    def f(x1, x2, /):
        x1, x2 = promote(name, x1, x2)
        return lax_fn(x1, x2)

    f.__name__ = name
    f.__doc__ = f"Elementwise ``{name}`` with NumPy broadcasting (``jax.numpy.{name}``)."
    return f


sin = _unary(ew.sin, "sin")
cos = _unary(ew.cos, "cos")
tan = _unary(ew.tan, "tan")
arcsin = _unary(ew.asin, "arcsin")
arccos = _unary(ew.acos, "arccos")
arctan = _unary(ew.atan, "arctan")
sinh = _unary(ew.sinh, "sinh")
cosh = _unary(ew.cosh, "cosh")
tanh = _unary(ew.tanh, "tanh")
arcsinh = _unary(ew.asinh, "arcsinh")
arccosh = _unary(ew.acosh, "arccosh")
arctanh = _unary(ew.atanh, "arctanh")
exp = _unary(ew.exp, "exp")
exp2 = _unary(ew.exp2, "exp2")
expm1 = _unary(ew.expm1, "expm1")
log = _unary(ew.log, "log")
log1p = _unary(ew.log1p, "log1p")
sqrt = _unary(ew.sqrt, "sqrt")
cbrt = _unary(ew.cbrt, "cbrt")
negative = _unary(ew.neg, "negative", inexact=False)
floor = _unary(ew.floor, "floor")
ceil = _unary(ew.ceil, "ceil")
conjugate = conj = _unary(ew.conj, "conj", inexact=False)


def positive(x, /):
    return asarray(x)


def abs(x, /):  # noqa: A001
    check_arraylike("abs", x)
    x = asarray_any(x)
    if x.dtype == dtypes.bool_ or dtypes.is_unsigned(x.dtype):
        return x
    return ew.abs(x)


absolute = abs


def sign(x, /):
    x = asarray_any(x)
    if x.dtype == dtypes.bool_:
        return x
    return ew.sign(x)


def square(x, /):
    (x,) = promote_dtypes(x)
    return ew.integer_pow(x, 2)


def reciprocal(x, /):
    (x,) = promote_dtypes_inexact(x)
    return ew.div(ew._const(x, 1), x)


def log2(x, /):
    (x,) = promote_dtypes_inexact(x)
    return ew.div(ew.log(x), ew._const(x, np.log(2)))


def log10(x, /):
    (x,) = promote_dtypes_inexact(x)
    return ew.div(ew.log(x), ew._const(x, np.log(10)))


add = _binary(ew.add, "add")
subtract = _binary(ew.sub, "subtract")
multiply = _binary(ew.mul, "multiply")


def _add_bool(x1, x2, /):
    x1, x2 = promote_args("add", x1, x2)
    if x1.dtype == dtypes.bool_:
        return ew.or_(x1, x2)
    return ew.add(x1, x2)


def _mul_bool(x1, x2, /):
    x1, x2 = promote_args("multiply", x1, x2)
    if x1.dtype == dtypes.bool_:
        return ew.and_(x1, x2)
    return ew.mul(x1, x2)


add = _add_bool
add.__name__ = "add"
multiply = _mul_bool
multiply.__name__ = "multiply"


def true_divide(x1, x2, /):
    x1, x2 = promote_args_inexact("true_divide", x1, x2)
    return ew.div(x1, x2)


divide = true_divide


def floor_divide(x1, x2, /):
    x1, x2 = promote_args_numeric("floor_divide", x1, x2)
    if dtypes.is_int(x1.dtype):
        q = ew.div(x1, x2)
        # Round toward negative infinity: adjust where signs differ and there's a remainder.
        r = ew.rem(x1, x2)
        zero = ew._const(x1, 0)
        adjust = ew.and_(ew.ne(r, zero), ew.ne(ew.lt(r, zero), ew.lt(x2, zero)))
        return ew.select_n(adjust, q, ew.sub(q, ew._const(q, 1)))
    return ew.floor(ew.div(x1, x2))


def remainder(x1, x2, /):
    x1, x2 = promote_args_numeric("remainder", x1, x2)
    r = ew.rem(x1, x2)
    zero = ew._const(r, 0)
    adjust = ew.and_(ew.ne(r, zero), ew.ne(ew.lt(r, zero), ew.lt(x2, zero)))
    return ew.select_n(adjust, r, ew.add(r, x2))


mod = remainder


def fmod(x1, x2, /):
    x1, x2 = promote_args_numeric("fmod", x1, x2)
    return ew.rem(x1, x2)


def power(x1, x2, /):
    check_arraylike("power", x1, x2)
    # Integer powers by a concrete Python int use integer_pow, as JAX does.
    if type(x2) is int or (isinstance(x2, (np.integer,))):
        (x1,) = promote_dtypes(x1)
        if x1.dtype != dtypes.bool_:  # raises for a negative power of integers, as JAX
            return ew.integer_pow(x1, int(x2))
    x1, x2 = promote_args_numeric("power", x1, x2)
    if dtypes.is_int(x1.dtype):
        return _int_power(x1, x2)
    return ew.pow(x1, x2)


def _int_power(x, y):
    from jaxlite._src.core.trace import is_concrete

    if is_concrete(y) and not isinstance(y, Tracer):
        yv = np.asarray(y)
        if yv.ndim == 0:
            return ew.integer_pow(x, int(yv))
    # Generic integer power by squaring, vectorised over the exponent bits.
    acc = ones_like(x)
    base = x
    yy = y
    for _ in range(np.iinfo(x.dtype).bits):
        bit = ew.ne(ew.and_(yy, ew._const(yy, 1)), ew._const(yy, 0))
        acc = ew.select_n(bit, acc, ew.mul(acc, base))
        base = ew.mul(base, base)
        yy = ew.shift_right_logical(yy, ew._const(yy, 1))
    return ew.select_n(ew.lt(y, ew._const(y, 0)), acc, ew.zeros_like(acc))


pow = power  # noqa: A001


def maximum(x1, x2, /):
    x1, x2 = promote_args("maximum", x1, x2)
    return ew.max(x1, x2)


def minimum(x1, x2, /):
    x1, x2 = promote_args("minimum", x1, x2)
    return ew.min(x1, x2)


def arctan2(x1, x2, /):
    x1, x2 = promote_args_inexact("arctan2", x1, x2)
    return ew.atan2(x1, x2)


def _cmp(lax_fn, name):
    def f(x1, x2, /):
        x1, x2 = promote_args(name, x1, x2)
        return lax_fn(x1, x2)

    f.__name__ = name
    return f


equal = _cmp(ew.eq, "equal")
not_equal = _cmp(ew.ne, "not_equal")
less = _cmp(ew.lt, "less")
less_equal = _cmp(ew.le, "less_equal")
greater = _cmp(ew.gt, "greater")
greater_equal = _cmp(ew.ge, "greater_equal")


def _logical(lax_fn, name):
    def f(x1, x2, /):
        x1, x2 = promote_args(name, x1, x2)
        if x1.dtype != dtypes.bool_:
            x1, x2 = ew.ne(x1, ew._const(x1, 0)), ew.ne(x2, ew._const(x2, 0))
        return lax_fn(x1, x2)

    f.__name__ = name
    return f


logical_and = _logical(ew.and_, "logical_and")
logical_or = _logical(ew.or_, "logical_or")
logical_xor = _logical(ew.xor, "logical_xor")


def logical_not(x, /):
    x = asarray_any(x)
    if x.dtype != dtypes.bool_:
        x = ew.ne(x, ew._const(x, 0))
    return ew.bitwise_not(x)


bitwise_and = _binary(ew.and_, "bitwise_and")
bitwise_or = _binary(ew.or_, "bitwise_or")
bitwise_xor = _binary(ew.xor, "bitwise_xor")


def bitwise_not(x, /):
    return ew.bitwise_not(asarray_any(x))


invert = bitwise_not
left_shift = _binary(ew.shift_left, "left_shift")


def right_shift(x1, x2, /):
    x1, x2 = promote_args_numeric("right_shift", x1, x2)
    if dtypes.is_unsigned(x1.dtype):
        return ew.shift_right_logical(x1, x2)
    return ew.shift_right_arithmetic(x1, x2)


def isfinite(x, /):
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return full(x.shape, True, dtypes.bool_)
    return ew.is_finite(x)


def isnan(x, /):
    x = asarray_any(x)
    return ew.ne(x, x)


def isinf(x, /):
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return full(x.shape, False, dtypes.bool_)
    return ew.eq(ew.abs(x), ew._const(ew.abs(x), np.inf))


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """``jnp.where``: three-argument select, or (one argument) the indices of nonzeros."""
    if x is None and y is None:
        from jaxlite._src.numpy.indexing import nonzero

        return nonzero(condition, size=size, fill_value=fill_value)
    check_arraylike("where", condition, x, y)
    if x is None or y is None:
        raise ValueError(
            "Either both or neither of the x and y arguments should be provided "
            "to jax.numpy.where, got x={x} and y={y}."
        )
    check_arraylike("where", condition, x, y)
    condition = asarray_any(condition)
    if condition.dtype != dtypes.bool_:
        condition = ew.ne(condition, ew._const(condition, 0))
    x, y = promote_dtypes(x, y)
    condition, x, y = _broadcast_all(condition, x, y)
    return ew.select_n(condition, y, x)


def _broadcast_all(*args):
    from jaxlite._src.numpy.util import broadcast_arrays

    return broadcast_arrays(*args)


def clip(arr=None, /, min=None, max=None, *, a=None, a_min=None, a_max=None):  # noqa: A002
    if arr is None:
        arr = a
    if min is None:
        min = a_min
    if max is None:
        max = a_max
    arr = asarray_any(arr)
    if min is not None:
        arr = maximum(min, arr)
    if max is not None:
        arr = minimum(max, arr)
    return arr


# -------------------------------------------------------------------------- reductions
def _reduction_axes(x, axis):
    nd = _ndim(x)
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, (tuple, list)):
        axes = tuple(canonicalize_axis(a, nd) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {axis}")
        return axes
    return (canonicalize_axis(axis, nd),)


def _ndim(x):
    return len(_shape(x))


def _keepdims(out, x, axes, keepdims):
    if not keepdims:
        return out
    shape = [1 if i in axes else s for i, s in enumerate(_shape(x))]
    return _sh.reshape(out, shape)


# ------------------------------------------------------------------------------ shapes
def shape(a):
    return _shape(a)


def ndim(a):
    return _ndim(a)


def size(a, axis=None):
    s = _shape(a)
    return int(np.prod(s, dtype=np.int64)) if axis is None else s[axis]


def reshape(a, shape=None, order="C", *, newshape=None, copy=None):
    """``jnp.reshape`` (one ``-1`` entry allowed)."""
    if shape is None:
        shape = newshape
    a = asarray_any(a)
    shape = _canon_shape(shape)
    if order == "F":
        return transpose(reshape(transpose(a), shape[::-1]))
    size_ = a.size
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if shape.count(-1) > 1 or known == 0 or size_ % known:
            raise TypeError(
                f"cannot reshape array of shape {a.shape} (size {size_}) into shape {shape}"
            )
        shape = tuple(size_ // known if s == -1 else s for s in shape)
    if int(np.prod(shape, dtype=np.int64)) != size_:
        raise TypeError(
            f"cannot reshape array of shape {a.shape} (size {size_}) into shape {shape}"
        )
    return _sh.reshape(a, shape)


def ravel(a, order="C"):
    a = asarray_any(a)
    return reshape(a, (a.size,), order)


def transpose(a, axes=None):
    a = asarray_any(a)
    if axes is None:
        axes = tuple(range(a.ndim))[::-1]
    axes = tuple(canonicalize_axis(i, a.ndim) for i in axes)
    return _sh.transpose(a, axes)


def permute_dims(a, axes):
    return transpose(a, axes)


def matrix_transpose(x, /):
    x = asarray_any(x)
    return swapaxes(x, -1, -2)


def swapaxes(a, axis1, axis2):
    a = asarray_any(a)
    perm = list(range(a.ndim))
    i, j = canonicalize_axis(axis1, a.ndim), canonicalize_axis(axis2, a.ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return _sh.transpose(a, perm)


def moveaxis(a, source, destination):
    a = asarray_any(a)
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [canonicalize_axis(s, a.ndim) for s in src]
    dst = [canonicalize_axis(d, a.ndim) for d in dst]
    perm = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return _sh.transpose(a, perm)


def squeeze(a, axis=None):
    a = asarray_any(a)
    if axis is None:
        axes = tuple(i for i, s in enumerate(a.shape) if s == 1)
    else:
        axes = _reduction_axes(a, axis)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one, "
                    f"got shape={a.shape} and dimensions={axes}"
                )
    return _sh.squeeze(a, axes)


def expand_dims(a, axis):
    a = asarray_any(a)
    axes = [axis] if isinstance(axis, int) else list(axis)
    nd = a.ndim + len(axes)
    axes = [canonicalize_axis(x, nd) for x in axes]
    return _sh.expand_dims(a, axes)


def broadcast_to(array, shape):
    a = asarray_any(array)
    shape = _canon_shape(shape)
    if a.shape == shape:
        return a
    try:
        res = np.broadcast_shapes(a.shape, shape)
    except ValueError:
        res = None
    if res != shape:
        raise ValueError(
            f"Incompatible shapes for broadcasting: {a.shape} and requested shape {shape}"
        )
    return _sh.broadcast_to_rank(a, shape)


def broadcast_arrays(*args):
    return _broadcast_all(*[asarray_any(a) for a in args])


def broadcast_shapes(*shapes):
    return tuple(np.broadcast_shapes(*shapes))


def atleast_1d(*arys):
    out = [reshape(a, (1,)) if _ndim(a) == 0 else asarray_any(a) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = asarray_any(a)
        out.append(_sh.reshape(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)
    return out[0] if len(out) == 1 else out


def concatenate(arrays, axis: int | None = 0, dtype=None):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("Need at least one array to concatenate.")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    arrays = promote_dtypes(*arrays)
    if dtype is not None:
        arrays = [
            conversion.convert_element_type(a, dtypes.canonicalize_dtype(dtype)) for a in arrays
        ]
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    return _sh.concatenate(arrays, canonicalize_axis(axis, nd))


def stack(arrays, axis: int = 0, dtype=None):
    arrays = [asarray_any(a) for a in arrays]
    if not arrays:
        raise ValueError("Need at least one array to stack.")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError("All input arrays must have the same shape.")
    axis = canonicalize_axis(axis, arrays[0].ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis, dtype)


def hstack(tup, dtype=None):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype)


def vstack(tup, dtype=None):
    return concatenate([atleast_2d(a) for a in tup], 0, dtype)


# -------------------------------------------------------------------------------- dots
def dot(a, b, *, precision=None, preferred_element_type=None):
    """``jnp.dot``: NumPy's rules for 0-d, 1-d and N-d operands."""
    a, b = promote_dtypes(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    contract_b = 0 if b.ndim == 1 else b.ndim - 2
    return _linalg.dot_general(
        a,
        b,
        (((a.ndim - 1,), (contract_b,)), ((), ())),
        preferred_element_type=preferred_element_type,
    )


def matmul(a, b, *, precision=None, preferred_element_type=None):
    """``jnp.matmul`` with batch broadcasting."""
    a, b = promote_dtypes(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError(f"matmul: inputs must be at least 1-D, got shapes {a.shape} and {b.shape}")
    a_vec, b_vec = a.ndim == 1, b.ndim == 1
    if a_vec:
        a = _sh.reshape(a, (1,) + a.shape)
    if b_vec:
        b = _sh.reshape(b, b.shape + (1,))
    if a.shape[-1] != b.shape[-2]:
        raise TypeError(f"matmul: contracting dimensions differ: {a.shape} @ {b.shape}")
    batch = tuple(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    if a.ndim == 2 and b.ndim == 2:
        out = _linalg.dot_general(
            a, b, (((1,), (0,)), ((), ())), preferred_element_type=preferred_element_type
        )
    else:
        a = broadcast_to(a, batch + a.shape[-2:])
        b = broadcast_to(b, batch + b.shape[-2:])
        nb = len(batch)
        out = _linalg.dot_general(
            a,
            b,
            (((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb)))),
            preferred_element_type=preferred_element_type,
        )
    if a_vec:
        out = _sh.squeeze(out, (out.ndim - 2,))
    if b_vec:
        out = _sh.squeeze(out, (out.ndim - 1,))
    return out


def vdot(a, b):
    a, b = promote_dtypes(a, b)
    if dtypes.is_complex(a.dtype):
        a = ew.conj(a)
    return dot(ravel(a), ravel(b))


def inner(a, b):
    a, b = promote_dtypes(a, b)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    return _linalg.dot_general(a, b, (((a.ndim - 1,), (b.ndim - 1,)), ((), ())))


def outer(a, b):
    a, b = promote_dtypes(ravel(a), ravel(b))
    return multiply(_sh.reshape(a, a.shape + (1,)), b)


def astype(x, dtype, copy: bool = False):
    x = asarray_any(x)
    return conversion.convert_element_type(x, dtypes.check_user_dtype_supported(dtype, "astype"))


def round(a, decimals: int = 0):  # noqa: A001
    (a,) = promote_dtypes(a)
    if not dtypes.is_inexact(a.dtype):
        return a
    if decimals == 0:
        return ew.round(a, 1)
    f = ew._const(a, 10.0**decimals)
    return ew.div(ew.round(ew.mul(a, f), 1), f)


around = round


# The reductions live in numpy/reductions.py; re-exported here so that ``lax_numpy`` stays
# the one namespace of the core functions.
from jaxlite._src.numpy.reductions import (  # noqa: E402
    all as all,
    amax as amax,
    amin as amin,
    any as any,
    argmax as argmax,
    argmin as argmin,
    cumprod as cumprod,
    cumsum as cumsum,
    max as max,
    mean as mean,
    min as min,
    prod as prod,
    std as std,
    sum as sum,
    var as var,
)
