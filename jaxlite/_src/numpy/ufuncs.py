"""``jax.numpy`` elementwise functions (the ufuncs): arithmetic, powers, exponentials and
logarithms, trigonometry, rounding, comparisons, logic and bits, floating-point tests
(``isnan``...), complex parts (``real``, ``imag``, ``angle``), ``where`` and ``clip``.

Each promotes its arguments with JAX's rules (``util.promote_args*``), broadcasts them
NumPy-style, then binds ``ops.elementwise`` primitives.
"""

from __future__ import annotations

import operator
from functools import partial

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer, is_concrete, new_array
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy.creation import asarray, full, full_like, ones_like, zeros_like
from jaxlite._src.numpy.shape import _broadcast_all, broadcast_arrays
from jaxlite._src.numpy.util import (
    asarray_any,
    check_arraylike,
    check_out,
    check_where_args,
    div_by_constant,
    promote_args,
    promote_args_inexact,
    promote_args_numeric,
    promote_dtypes,
    promote_dtypes_inexact,
    promote_dtypes_numeric,
    truth_test,
)
from jaxlite._src.ops import conversion, elementwise as ew, windowed
from jaxlite._src.ops.bitcast import bitcast_convert_type
from jaxlite._src.ops.shape import full as _sh_full
from jaxlite._src.ops.structural import stop_gradient_p


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
    def f(x, y, /):
        x, y = promote(name, x, y)
        return lax_fn(x, y)

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


def _rounding(lax_fn, name):
    def f(x, /):
        check_arraylike(name, x)
        x = asarray_any(x)
        if x.dtype == dtypes.bool_ or dtypes.is_int(x.dtype):
            return new_array(x)  # integers are already whole: JAX returns them as they are
        (x,) = promote_dtypes_inexact(x)
        return lax_fn(x)

    f.__name__ = name
    f.__doc__ = f"Elementwise ``{name}`` (``jax.numpy.{name}``); integer input is returned as is."
    return f


floor = _rounding(ew.floor, "floor")


ceil = _rounding(ew.ceil, "ceil")


def conjugate(x, /):
    """Elementwise complex conjugate (``jax.numpy.conjugate``); real, integer and boolean
    input is returned as it is (dtype and weak type kept, no operation), as in JAX."""
    check_arraylike("conjugate", x)
    x = asarray_any(x)
    return ew.conj(x) if dtypes.is_complex(x.dtype) else new_array(x)


conj = conjugate


def positive(x, /):
    return new_array(asarray(x))


def abs(x, /):  # noqa: A001
    check_arraylike("abs", x)
    x = asarray_any(x)
    if x.dtype == dtypes.bool_ or dtypes.is_unsigned(x.dtype):
        return new_array(x)
    return ew.abs(x)


absolute = abs


def sign(x, /):
    x = asarray_any(x)
    if x.dtype == dtypes.bool_:
        raise TypeError(
            "sign does not accept dtype bool. Accepted dtypes are subtypes of integer, "
            "floating, complexfloating."
        )
    return ew.sign(x)


def square(x, /):
    (x,) = promote_dtypes_numeric(x)  # bools square as int32, as in JAX
    return ew.square(x)  # lax.square: a complex square is not x * x (square_p)


def reciprocal(x, /):
    (x,) = promote_dtypes_inexact(x)
    return ew.integer_pow(x, -1)


def log2(x, /):
    (x,) = promote_dtypes_inexact(x)
    # As JAX: log(x) / log(2) with NumPy (strongly typed) constants, so never weak.
    if dtypes.is_complex(x.dtype):
        return _complex_log_in_base(x, 2)
    return ew.div(ew.log(x), ew.log(_strong_const(x, 2)))


def log10(x, /):
    (x,) = promote_dtypes_inexact(x)
    # As JAX: log(x) times 1 / log(10) in x's real dtype (a strongly typed constant).
    if dtypes.is_complex(x.dtype):
        return _complex_log_in_base(x, 10)
    return ew.mul(ew.log(x), _strong_const(x, 0.4342944819032518))


def _complex_log_in_base(x, base):
    """log(x) / log(base) for complex ``x``: each part divided by the real log(base).
    JAX's complex division by log(base) + 0j gives exactly these quotients and keeps the
    finite phase of an infinite log (log10(-inf + 0j) = inf + 1.3643764j); NumPy's
    complex division turned that phase into NaN."""
    lx = ew.log(x)
    c = ew.log(_strong_const(ew.real(lx), base))
    return ew.complex_(ew.div(ew.real(lx), c), ew.div(ew.imag(lx), c))


def _strong_const(x, v):
    a = aval_of(x)
    return _sh_full(a.shape, v, a.dtype)


add = _binary(ew.add, "add")


subtract = _binary(ew.sub, "subtract")


multiply = _binary(ew.mul, "multiply")


def _add_bool(x1, x2, /):
    x1, x2 = promote_args("add", x1, x2)
    if x1.dtype == dtypes.bool_:
        return ew.or_(x1, x2)
    return ew.add(x1, x2)


def _mul_bool(x1, x2, /):
    p1, p2 = promote_args("multiply", x1, x2)
    if p1.dtype == dtypes.bool_:
        return ew.and_(p1, p2)
    # One boolean operand: XLA simplifies A * convert(pred) to select(pred, A, 0), so
    # inf * False is 0.
    b1 = getattr(x1, "dtype", None) == dtypes.bool_
    if b1 != (getattr(x2, "dtype", None) == dtypes.bool_):
        return _where(x1 if b1 else x2, p2 if b1 else p1, zeros_like(p2 if b1 else p1))
    return ew.mul(p1, p2)


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
    if dtypes.is_unsigned(x1.dtype):
        return ew.div(x1, x2)
    if dtypes.is_int(x1.dtype):
        q = ew.div(x1, x2)
        # Round toward negative infinity where the signs differ and there is a remainder
        # (JAX's formula, which also fixes x // 0: [5, -5, 0] // 0 is [-2, -2, -1]).
        zero = ew._const(x1, 0)
        adjust = ew.and_(ew.ne(ew.sign(x1), ew.sign(x2)), ew.ne(ew.rem(x1, x2), zero))
        return ew.select_n(adjust, q, ew.sub(q, ew._const(q, 1)))
    return _float_floor_divide(x1, x2)


def _float_floor_divide(x1, x2):
    # floor(x1 / x2) rounds a near-integer quotient the wrong way (-3 * -0.84 // -0.84 must
    # be -4, consistent with ``%``): take the quotient of x1 minus the truncated remainder,
    # step it down where the remainder's sign differs from x2's, then round to a whole number.
    mod = ew.rem(x1, x2)
    div = ew.div(ew.sub(x1, mod), x2)
    fix = ew.and_(ew.ne(mod, ew._const(mod, 0)), ew.ne(ew.sign(x2), ew.sign(mod)))
    div = ew.select_n(fix, div, ew.sub(div, ew._const(div, 1)))
    # Division by zero: x1 / x2 (+-inf, or NaN for 0 / 0), as in NumPy and JAX.
    by_zero = stop_gradient_p.bind(ew.div(x1, x2))  # floor division has a zero derivative
    return ew.select_n(ew.eq(x2, ew._const(x2, 0)), ew.round(div, 0), by_zero)


def remainder(x1, x2, /):
    x1, x2 = promote_args_numeric("remainder", x1, x2)
    x2 = _int_divisor_or_one(x2)  # x % 0 is 0 for integers, as JAX
    r = ew.rem(x1, x2)
    zero = ew._const(r, 0)
    adjust = ew.and_(ew.ne(r, zero), ew.ne(ew.lt(r, zero), ew.lt(x2, zero)))
    return ew.select_n(adjust, r, ew.add(r, x2))


mod = remainder


def fmod(x1, x2, /):
    # Bools keep lax.rem's value at a zero divisor (the dividend), as in JAX, where the
    # zero-divisor fix applies only when the operands' common type is an integer type.
    boolean = dtypes.result_type(x1, x2) == dtypes.bool_
    x1, x2 = promote_args_numeric("fmod", x1, x2)
    return ew.rem(x1, x2 if boolean else _int_divisor_or_one(x2))


def _int_divisor_or_one(x2):
    """Integer divisors with 0 replaced by 1 (JAX's ``remainder``/``fmod`` by zero give 0)."""
    if not dtypes.is_int(x2.dtype):
        return x2
    return ew.select_n(ew.eq(x2, ew._const(x2, 0)), x2, ew._const(x2, 1))


def _concrete_index(x):
    """``operator.index(x)`` of a concrete integer scalar (Python int or bool, NumPy or
    jaxlite integer scalar), else None: JAX's test for an ``integer_pow`` exponent (an
    array made from host data under ``jit`` is a tracer, so not concrete)."""
    if isinstance(x, Tracer):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None


def power(x1, x2, /):
    check_arraylike("power", x1, x2)
    # Concrete integer scalar powers use integer_pow, as JAX does (the base keeps its dtype
    # and weak type); integer_pow raises for a negative power of integers, as JAX's does.
    n = _concrete_index(x2)
    if n is not None:
        (x1,) = promote_dtypes_numeric(x1)
        return ew.integer_pow(x1, n)
    a2 = aval_of(x2) if hasattr(x2, "dtype") else None
    # lax.pow(float, int) as JAX: an inexact base only (int32 ** uint64 is promoted)
    base = aval_of(x1).dtype if hasattr(x1, "dtype") else np.result_type(x1)
    strong_int = a2 is not None and dtypes.is_int(a2.dtype) and not a2.weak_type
    int_exponent = strong_int and dtypes.is_inexact(base)
    x1, x2 = promote_args_numeric("power", x1, x2)
    if dtypes.is_int(x1.dtype):
        return _int_power(x1, x2)
    out = ew.pow(x1, x2)
    if int_exponent and out.weak_type:
        # JAX raises floats to a strongly typed integer array's powers with lax.pow(float,
        # int), whose result is strongly typed.
        out = conversion.convert_element_type(out, out.dtype, False)
    return out


# JAX's integer power reads 6 bits of the exponent (x ** e is x ** (e % 64) for e >= 64:
# those powers overflow for every base but 0 and +-1, which this reproduces exactly).
_INT_POW_BITS = 6


def _int_power(x, y):
    # Power by squaring over the exponent's low bits, at the broadcast shape; the result
    # is strongly typed (JAX starts from strong constants).
    x, y = broadcast_arrays(x, y)
    one_y, zero_y = ew._const(y, 1), ew._const(y, 0)
    zero, one = _sh_full(x.shape, 0, x.dtype), _sh_full(x.shape, 1, x.dtype)
    acc = ew.select_n(ew.and_(ew.eq(x, ew._const(x, 0)), ew.ne(y, zero_y)), one, zero)
    base, yy = x, y
    for _ in range(_INT_POW_BITS):
        bit = ew.ne(ew.and_(yy, one_y), zero_y)
        acc = ew.select_n(bit, acc, ew.mul(acc, base))
        base = ew.mul(base, base)
        yy = ew.shift_right_logical(yy, one_y)
    if not dtypes.is_signed(y.dtype):
        return acc
    # Negative powers: 1 and -1 have exact ones (+-1 by the exponent's parity), 0 for
    # every other base (the truncated value; JAX returns XLA's wrapped arithmetic there).
    odd = ew.ne(ew.and_(y, one_y), zero_y)
    minus_one = ew.select_n(odd, one, _sh_full(x.shape, -1, x.dtype))
    not_one = ew.select_n(ew.eq(x, ew._const(x, -1)), zero, minus_one)
    unit = ew.select_n(ew.eq(x, ew._const(x, 1)), not_one, one)
    return ew.select_n(ew.lt(y, zero_y), acc, unit)


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
    def f(x, y, /):
        x, y = promote_args(name, x, y)
        return lax_fn(x, y)

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
            # A truth test against JAX's constant: weak only for a weak scalar (a Python
            # zero), strong for a weak array, which compares with a typed zero.
            x1, x2 = truth_test(x1), truth_test(x2)
        return lax_fn(x1, x2)

    f.__name__ = name
    return f


logical_and = _logical(ew.and_, "logical_and")


logical_or = _logical(ew.or_, "logical_or")


logical_xor = _logical(ew.xor, "logical_xor")


def logical_not(x, /):
    x = asarray_any(x)
    if x.dtype != dtypes.bool_:
        x = truth_test(x)
    return ew.bitwise_not(x)


bitwise_and = _binary(ew.and_, "bitwise_and")


bitwise_or = _binary(ew.or_, "bitwise_or")


bitwise_xor = _binary(ew.xor, "bitwise_xor")


def bitwise_not(x, /):
    return ew.bitwise_not(asarray_any(x))


invert = bitwise_not


left_shift = _binary(ew.shift_left, "left_shift", promote_args_numeric)  # bools shift as ints


def right_shift(x1, x2, /):
    x1, x2 = promote_args_numeric("right_shift", x1, x2)
    if dtypes.is_unsigned(x1.dtype):
        return ew.shift_right_logical(x1, x2)
    return ew.shift_right_arithmetic(x1, x2)


def isfinite(x, /):
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return full(x.shape, True, dtypes.bool_)
    if dtypes.is_complex(x.dtype):  # finite when both parts are, as in JAX
        return ew.and_(ew.is_finite(ew.real(x)), ew.is_finite(ew.imag(x)))
    return ew.is_finite(x)


def isnan(x, /):
    x = asarray_any(x)
    return ew.ne(x, x)


def isinf(x, /):
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return full(x.shape, False, dtypes.bool_)
    if dtypes.is_complex(x.dtype):  # either part (|inf + nan j| is NaN, as in XLA)
        return ew.or_(isinf(ew.real(x)), isinf(ew.imag(x)))
    return ew.eq(ew.abs(x), full(x.shape, np.inf, x.dtype))  # strong inf: a strong result


# ``where(condition)`` is ``nonzero(condition)``, which lives in ``indexing_routines`` (above
# this module: it uses the reductions); that module registers it here when it is imported.
_one_argument_where = None


def where(condition, x=None, y=None, /, *, size=None, fill_value=None):
    """``jnp.where``: three-argument select, or (one argument) the indices of nonzeros."""
    if x is None and y is None:
        return _one_argument_where(condition, size=size, fill_value=fill_value)
    check_where_args(condition, x, y, size, fill_value)
    if x is None or y is None:
        raise ValueError(
            "Either both or neither of the x and y arguments should be provided "
            "to jax.numpy.where, got x={x} and y={y}."
        )
    return _where(condition, x, y)


def _where(condition, x, y):
    """Three-argument ``where`` (what the functions of this package use)."""
    check_arraylike("where", condition, x, y)
    condition = asarray_any(condition)
    if condition.dtype != dtypes.bool_:
        condition = ew.ne(condition, ew._const(condition, 0))
    x, y = promote_dtypes(x, y)
    condition, x, y = _broadcast_all(condition, x, y)
    if 0 in aval_of(x).shape:
        return x  # an empty result is x (broadcast), as in JAX: y's derivative is pruned
    return ew.select_n(condition, y, x)


def clip(arr=None, /, min=None, max=None, *, a=None, a_min=None, a_max=None):  # noqa: A002
    if arr is None:
        arr = a
    if min is None:
        min = a_min
    if max is None:
        max = a_max
    arr = asarray_any(arr)
    if any(
        v is not None and dtypes.is_complex(aval_of(asarray_any(v)).dtype) for v in (arr, min, max)
    ):
        raise ValueError(
            "Clip received a complex value either through the input or the min/max keywords. "
            "Complex values have no ordering and cannot be clipped. Please convert to a real "
            "value or array by taking the real or imaginary components via "
            "jax.numpy.real/imag respectively."
        )
    if min is not None:
        arr = maximum(min, arr)
    if max is not None:
        arr = minimum(max, arr)
    return new_array(arr) if min is None and max is None else arr


def round(a, decimals: int = 0, out=None):  # noqa: A001
    check_out(out, "jnp.round is not supported.")
    decimals = operator.index(decimals)  # as JAX: a float is a TypeError, not 10.0**1.5
    (a,) = promote_dtypes(a)
    if a.dtype == dtypes.bool_:  # as JAX (NumPy rounds booleans as they are)
        raise ValueError(f"data type {a.dtype.type} not inexact")
    if not dtypes.is_inexact(a.dtype):
        if decimals < 0:  # as JAX; returning the integers unrounded would be wrong
            raise NotImplementedError("integer np.round not implemented for decimals < 0")
        return new_array(a)
    if dtypes.is_complex(a.dtype):  # each part rounded, as in JAX
        return ew.complex_(round(ew.real(a), decimals), round(ew.imag(a), decimals))
    if decimals == 0:
        return ew.round(a, 1)
    if a.dtype == np.float16:  # as JAX: scaled in float32 (10.0**5 overflows float16)
        wide = conversion.convert_element_type(a, np.dtype(np.float32), a.weak_type)
        return conversion.convert_element_type(round(wide, decimals), a.dtype, a.weak_type)
    f = ew._formula_const(a, 10.0**decimals)  # JAX's typed constant: strong for arrays
    return div_by_constant(ew.round(ew.mul(a, f), 1), 10.0**decimals)


def _inexact(x):
    (x,) = promote_dtypes_inexact(asarray_any(x))
    return x


# ---------------------------------------------------------------------- more elementwise
def rint(x, /):
    """``jnp.rint``: round to the nearest integer, ties to even (ints become floats)."""
    check_arraylike("rint", x)
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        # JAX: integers and bools become the default float (float64 under x64, whatever
        # the integer's width), strong.
        return conversion.convert_element_type(x, dtypes.default_float_dtype())
    if dtypes.is_complex(x.dtype):
        return ew.complex_(rint(ew.real(x)), rint(ew.imag(x)))
    return ew.round(x, 1)


def trunc(x):
    """``jnp.trunc``: round toward zero (integers are returned unchanged)."""
    check_arraylike("trunc", x)
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return new_array(x)
    return _where(less(x, 0), ew.ceil(x), ew.floor(x))


fix = trunc


def deg2rad(x, /):
    """``jnp.deg2rad``: degrees to radians."""
    x = _inexact(x)
    return ew.mul(x, ew._formula_const(x, np.pi / 180))


def rad2deg(x, /):
    """``jnp.rad2deg``: radians to degrees."""
    x = _inexact(x)
    return ew.mul(x, ew._formula_const(x, 180 / np.pi))


radians = deg2rad


degrees = rad2deg


def sinc(x, /):
    """``jnp.sinc``: ``sin(pi x) / (pi x)``, 1 at 0."""
    x = _inexact(x)
    zero = ew.eq(x, ew._formula_const(x, 0))
    pi_x = ew.mul(ew._formula_const(x, np.pi), x)
    safe = _where(zero, ew._formula_const(x, 1), pi_x)
    return _where(zero, _sinc_maclaurin(0, pi_x), ew.div(ew.sin(safe), safe))


@partial(custom_jvp, nondiff_argnums=(0,))
def _sinc_maclaurin(k, x):
    # The k-th derivative of sin(x) / x at 0 (JAX's rule: every order is exact at 0).
    zero = ew.mul(x, ew._formula_const(x, 0))
    return zero if k % 2 else ew.add(zero, ew._formula_const(x, (-1) ** (k // 2) / (k + 1)))


@_sinc_maclaurin.defjvp
def _sinc_maclaurin_jvp(k, primals, tangents):
    (x,), (t,) = primals, tangents
    return _sinc_maclaurin(k, x), ew.mul(_sinc_maclaurin(k + 1, x), t)


def real(val, /):
    """``jnp.real``: the real part (real inputs are returned as is)."""
    val = asarray_any(val)
    return ew.real(val) if dtypes.is_complex(val.dtype) else new_array(val)


def imag(val, /):
    """``jnp.imag``: the imaginary part (zeros for real inputs)."""
    val = asarray_any(val)
    return ew.imag(val) if dtypes.is_complex(val.dtype) else zeros_like(val)


def angle(z, deg: bool = False):
    """``jnp.angle``: the argument of a complex number (0 or pi for reals)."""
    z = asarray_any(z)
    if dtypes.is_complex(z.dtype):
        re, im = ew.real(z), ew.imag(z)
    else:
        re, im = z, zeros_like(z)
    if not dtypes.is_inexact(re.dtype) or (dtypes.is_float(z.dtype) and z.ndim == 0):
        # As JAX: integer and 0-d float operands give the default float, strongly typed.
        f = dtypes.default_float_dtype()
        re, im = conversion.convert_element_type(re, f), conversion.convert_element_type(im, f)
    out = ew.atan2(im, re)
    return rad2deg(out) if deg else out


def signbit(x, /):
    """``jnp.signbit``: True where the sign bit is set (including ``-0.0``)."""
    x = asarray_any(x)
    if x.dtype == dtypes.bool_ or dtypes.is_unsigned(x.dtype):
        return full(x.shape, False, dtypes.bool_)
    if dtypes.is_int(x.dtype):
        return ew.lt(x, full(x.shape, 0, x.dtype))  # a strong 0: never a weak result
    if dtypes.is_complex(x.dtype):
        raise ValueError(f"jax.numpy.signbit is not well defined for {x.dtype}")
    itype = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    return less(bitcast_convert_type(x, itype), 0)


def float_power(x, y, /):
    """``jnp.float_power``: ``x ** y`` in the widest available float type."""
    x, y = promote_args_inexact("float_power", x, y)
    return ew.pow(x, y)


def fmax(x1, x2):
    """``jnp.fmax``: elementwise maximum that ignores NaNs."""
    x1, x2 = promote_args("fmax", x1, x2)
    return _where(logical_or(greater(x1, x2), isnan(x2)), x1, x2)


def fmin(x1, x2):
    """``jnp.fmin``: elementwise minimum that ignores NaNs."""
    x1, x2 = promote_args("fmin", x1, x2)
    return _where(logical_or(less(x1, x2), isnan(x2)), x1, x2)


def hypot(x1, x2, /):
    """``jnp.hypot``: ``sqrt(x1**2 + x2**2)`` without undue overflow.

    Raises:
      ValueError: for complex operands, as JAX.
    """
    x1, x2 = promote_args_inexact("hypot", x1, x2)
    if dtypes.is_complex(x1.dtype):
        raise ValueError(
            "jnp.hypot is not well defined for complex-valued inputs. Please convert to real "
            "values first, such as by using abs(x)"
        )
    a, b = abs(x1), abs(x2)
    big, small = maximum(a, b), minimum(a, b)
    safe_big = _where(equal(big, 0), ones_like(big), big)
    r = divide(small, safe_big)
    out = multiply(big, sqrt(add(1, multiply(r, r))))
    # ``big`` itself (not a constant 0) where both are 0: JAX's derivative there is 1/2 each.
    out = _where(equal(big, 0), big, out)
    # An infinite operand gives inf even with a NaN partner. As observed in JAX 0.10, the
    # result stays weak only for rank-0 weak operands.
    inf = _sh_full(out.shape, np.inf, out.dtype, out.weak_type and out.ndim == 0)
    return _where(logical_or(isinf(x1), isinf(x2)), inf, out)


def copysign(x1, x2, /):
    """``jnp.copysign``: magnitude of ``x1`` with the sign of ``x2``.

    Raises:
      TypeError: for complex operands, as JAX.
    """
    x1, x2 = promote_args_inexact("copysign", x1, x2)
    if dtypes.is_complex(x1.dtype):
        raise TypeError("copysign does not support complex-valued inputs")
    return _where(signbit(x2), negative(abs(x1)), abs(x1))


def _lax_const(x, v):
    """A constant ``v`` of ``x``'s dtype: weakly typed only when ``x`` is a weakly typed
    scalar (JAX's rule for the constants inside its ``jnp`` functions)."""
    a = aval_of(x)
    c = np.asarray(v, a.dtype)
    return _sh_full((), c, a.dtype, True) if a.weak_type and a.ndim == 0 else c


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan: bool = False):
    """``jnp.isclose``: ``|a - b| <= atol + rtol * |b|`` elementwise (infinities equal)."""
    a, b = promote_args("isclose", a, b)
    for tol in (rtol, atol):  # JAX's jit turns a list into tracers that have no dtype
        if isinstance(tol, (list, tuple)):
            raise TypeError(f"Cannot determine dtype of {tol}")
    if not dtypes.is_inexact(a.dtype):
        return conversion.convert_element_type(equal(a, b), dtypes.bool_)  # strong, as JAX
    a, b = broadcast_arrays(a, b)
    diff = abs(subtract(a, b))
    # the tolerances in the real dtype, combined with lax's rank-strict arithmetic as
    # JAX's: an array rtol / atol of another rank than the operands' is a TypeError
    rtol = conversion.convert_element_type(asarray_any(rtol), diff.dtype)
    atol = conversion.convert_element_type(asarray_any(atol), diff.dtype)
    tol = ew.add(atol, ew.mul(rtol, abs(b)))
    out = ew.le(diff, tol)
    both_inf = logical_and(isinf(a), isinf(b))
    out = _where(logical_or(isinf(a), isinf(b)), logical_and(both_inf, equal(a, b)), out)
    if equal_nan:
        out = logical_or(out, logical_and(isnan(a), isnan(b)))
    return out


# reduce_window / lax.reduce recognise these jnp functions as monoids, like their lax forms.
for _fn, _kind in ((add, "add"), (maximum, "max"), (minimum, "min"), (multiply, "mul")):
    windowed.register_monoid(_fn, _kind)
del _fn, _kind
