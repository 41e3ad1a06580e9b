"""More ``jax.numpy`` elementwise functions: the array-API spellings (``acos``, ``asin``,
``bitwise_invert``...), ``fabs``, ``divmod``, ``nextafter``, ``isposinf``/``isneginf``,
``isreal``/``iscomplex``, ``gcd``, ``lcm``, ``modf``, ``i0``, ``nan_to_num``."""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer, is_concrete, new_array
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy.creation import asarray, full, full_like, ones_like, zeros_like
from jaxlite._src.numpy.shape import _broadcast_all, broadcast_arrays
from jaxlite._src.numpy.ufuncs import (  # noqa: A004 (abs is jnp.abs here, as in ufuncs)
    _lax_const,
    _where,
    abs,
    add,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    bitwise_not,
    divide,
    equal,
    exp,
    exp2,
    floor_divide,
    greater,
    imag,
    isinf,
    isnan,
    left_shift,
    less,
    log1p,
    logical_and,
    logical_not,
    maximum,
    multiply,
    negative,
    not_equal,
    remainder,
    right_shift,
    round as around,  # jnp.around is jnp.round (ufuncs.py is at its size limit)
    sign,
    subtract,
    trunc,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    check_arraylike,
    check_jit_arguments,
    check_out,
    promote_args,
    promote_args_inexact,
    promote_args_numeric,
    promote_dtypes,
    promote_dtypes_inexact,
    promote_dtypes_numeric,
    with_weak_type,
)
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    lax_api,
    special as _special,
    windowed,
)
from jaxlite._src.ops.bitcast import bitcast_convert_type
from jaxlite._src.ops.shape import full as _sh_full

# --------------------------------------------------------------------- array-API aliases
acos, asin, atan, acosh, asinh, atanh = (
    arccos,
    arcsin,
    arctan,
    arccosh,
    arcsinh,
    arctanh,
)


atan2 = arctan2


bitwise_invert = bitwise_not


bitwise_left_shift = left_shift


bitwise_right_shift = right_shift


def heaviside(x1, x2, /):
    """``jnp.heaviside``: 0 for negative, ``x2`` at zero, 1 for positive ``x1``."""
    # Promoted dtypes, not shapes: where broadcasts (no rank-promotion check, as in JAX).
    check_arraylike("heaviside", x1, x2)
    x1, x2 = promote_dtypes_inexact(x1, x2)
    lax_api.check_accepted("lt", (lax_api.ORDERED,) * 2, x1, x2)  # JAX's lax.lt: no complex
    zero, one = _lax_const(x1, 0), _lax_const(x1, 1)
    return _where(less(x1, zero), zero, _where(greater(x1, zero), one, _where(isnan(x1), x1, x2)))


def fabs(x, /):
    """``jnp.fabs``: absolute value as a float.

    Raises:
        TypeError: complex input (as JAX).
    """
    x = asarray_any(x)
    if dtypes.is_complex(x.dtype):
        raise TypeError("ufunc 'fabs' does not support complex dtypes")
    (x,) = promote_dtypes_inexact(x)
    return abs(x)


def divmod(x1, x2, /):  # noqa: A001
    """``jnp.divmod``: ``(floor_divide, remainder)``."""
    return floor_divide(x1, x2), remainder(x1, x2)


def nextafter(x, y, /):
    """``jnp.nextafter``: the next representable float after ``x`` toward ``y``."""
    x, y = promote_args_inexact("nextafter", x, y)
    return ew.nextafter(x, y)


def isposinf(x, /, out=None):
    """``jnp.isposinf``."""
    check_out(out, "isneginf/isposinf is not supported.")
    x = asarray_any(x)
    if dtypes.is_complex(x.dtype):
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    return logical_and(isinf(x), greater(x, 0))


def isneginf(x, /, out=None):
    """``jnp.isneginf``."""
    check_out(out, "isneginf/isposinf is not supported.")
    x = asarray_any(x)
    if dtypes.is_complex(x.dtype):
        raise ValueError("isposinf/isneginf are not well defined for complex types")
    return logical_and(isinf(x), less(x, 0))


def isreal(x):
    """``jnp.isreal``: imaginary part is zero (weak only for a weak scalar, as in JAX)."""
    i = imag(asarray_any(x))
    return ew.eq(i, ew._formula_const(i, 0))


def iscomplex(x):
    """``jnp.iscomplex``: imaginary part is nonzero (weak only for a weak scalar)."""
    i = imag(asarray_any(x))
    return ew.ne(i, ew._formula_const(i, 0))


def gcd(x1, x2):
    """``jnp.gcd``: greatest common divisor (Euclid, a fixed number of unrolled steps)."""
    x1, x2 = promote_args("gcd", x1, x2)
    if not dtypes.is_int(x1.dtype):
        raise ValueError("Arguments to jax.numpy.gcd must be integers.")
    a, b = abs(x1), abs(x2)
    for _ in range(np.iinfo(a.dtype).bits * 2):
        nz = not_equal(b, 0)
        safe_b = _where(nz, b, ones_like(b))
        a, b = _where(nz, b, a), _where(nz, remainder(a, safe_b), b)
    # JAX's loop compares with typed zeros: weakly typed only for weak scalar operands.
    return _scalar_weak(a)


def _scalar_weak(x):
    return with_weak_type(x, aval_of(x).weak_type and not aval_of(x).shape)


def lcm(x1, x2):
    """``jnp.lcm``: least common multiple of ``|x1|`` and ``|x2|``.

    As JAX, the product wraps on overflow and keeps its sign (``lcm(int8(127), 2)`` is -2):
    the absolute values are taken before the product, not after.
    """
    x1, x2 = promote_args("lcm", x1, x2)
    if not dtypes.is_int(x1.dtype):
        raise ValueError("Arguments to jax.numpy.lcm must be integers.")
    x1, x2 = abs(x1), abs(x2)
    g = gcd(x1, x2)
    safe = _where(equal(g, 0), ones_like(g), g)
    return _scalar_weak(_where(equal(g, 0), zeros_like(g), multiply(x1, floor_divide(x2, safe))))


def modf(x, /, out=None):
    """``jnp.modf``: ``(fractional part, integral part)``."""
    check_out(out, "jnp.modf is not supported.")
    (x,) = promote_dtypes_inexact(asarray_any(x))
    whole = trunc(x)
    return subtract(x, whole), whole


def i0(x):
    """``jnp.i0``: the modified Bessel function of the first kind, order 0.

    ``exp(|x|) * lax.bessel_i0e(|x|)`` as JAX computes it (so it overflows to inf where
    ``exp(|x|)`` does: past about 88.7 in float32), with JAX's derivative ``i1(x)`` =
    ``exp(|x|) * bessel_i1e(x)``. Float input keeps its dtype, integers become float.

    Raises:
      ValueError: for complex input (as JAX).
    """
    (x,) = promote_dtypes_inexact(asarray_any(x))
    if dtypes.is_complex(x.dtype):
        raise ValueError(f"Unsupported input type to jax.numpy.i0: {x.dtype}")
    return _i0(x)


@custom_jvp
def _i0(x):
    ax = abs(x)
    return multiply(exp(ax), _special.bessel_i0e(ax))


@_i0.defjvp
def _i0_jvp(primals, tangents):
    # JAX's tangent: the product rule through exp(|x|) * i0e(|x|), term by term (so where
    # exp(|x|) overflows the two infinite terms cancel to NaN, as in JAX: i0'(100) is NaN in
    # float32), and 0 at x == 0.
    (x,), (t,) = primals, tangents
    ax = abs(x)
    t_ax = multiply(t, sign(x))
    e, i0e = exp(ax), _special.bessel_i0e(ax)
    t_i0e = multiply(t_ax, subtract(_special.bessel_i1e(ax), multiply(sign(ax), i0e)))
    t_out = add(multiply(multiply(t_ax, e), i0e), multiply(e, t_i0e))
    return _i0(x), _where(equal(x, 0), zeros_like(t_out), t_out)


# ---------------------------------------------------------------- logaddexp, logaddexp2
def logaddexp(x1, x2, /):
    """``jnp.logaddexp``: ``log(exp(x1) + exp(x2))`` computed stably.

    Its derivative is JAX's: ``exp(x_i - out)`` per operand (so 1/2 each at a tie), with
    +inf replaced by 0 in that formula.
    """
    x1, x2 = promote_args_inexact("logaddexp", x1, x2)
    return _logaddexp(x1, x2)


def _replace_inf(x):
    # +inf only: at (-inf, -inf) the derivative is NaN, as in JAX.
    return _where(logical_and(isinf(x), greater(x, 0)), zeros_like(x), x)


def _complex_logaddexp(x1, x2):
    """``log(exp(x1) + exp(x2))`` on the principal branch, for complex operands: shifted by
    the larger (``maximum``'s order), the imaginary part wrapped into ``[-pi, pi)``."""
    amax = maximum(x1, x2)
    out = add(amax, log1p(exp(subtract(add(x1, x2), multiply(amax, 2)))))
    im = ew.imag(out)
    pi = ew._const(im, np.pi)
    wrapped = subtract(remainder(add(im, pi), ew._const(im, 2 * np.pi)), pi)
    return ew.complex_(ew.real(out), wrapped)


@custom_jvp
def _logaddexp(x1, x2):
    if dtypes.is_complex(x1.dtype):
        return _complex_logaddexp(x1, x2)
    amax = maximum(x1, x2)
    delta = subtract(x1, x2)
    out = add(amax, log1p(exp(negative(abs(delta)))))
    return _where(isnan(delta), add(x1, x2), out)


@_logaddexp.defjvp
def _logaddexp_jvp(primals, tangents):
    (x1, x2), (t1, t2) = primals, tangents
    out = _logaddexp(x1, x2)
    r = _replace_inf(out)
    return out, add(
        multiply(t1, exp(subtract(_replace_inf(x1), r))),
        multiply(t2, exp(subtract(_replace_inf(x2), r))),
    )


def logaddexp2(x1, x2, /):
    """``jnp.logaddexp2``: ``log2(2**x1 + 2**x2)`` computed stably (derivative as JAX's:
    ``2**(x_i - out)`` per operand)."""
    x1, x2 = promote_args_inexact("logaddexp2", x1, x2)
    return _logaddexp2(x1, x2)


@custom_jvp
def _logaddexp2(x1, x2):
    if dtypes.is_complex(x1.dtype):
        ln2 = float(np.log(2))
        return divide(_complex_logaddexp(multiply(x1, ln2), multiply(x2, ln2)), ln2)
    amax = maximum(x1, x2)
    delta = subtract(x1, x2)
    # JAX's: times 1/ln 2, a constant of the operands' dtype, which is strongly typed unless
    # the operands are 0-d (so logaddexp2(int32 array, 2.0) is strong, (1.0, 2.0) weak)
    inv_ln2 = np.asarray(1 / np.log(2), x1.dtype) if np.ndim(amax) else float(1 / np.log(2))
    out = add(amax, multiply(inv_ln2, log1p(exp2(negative(abs(delta))))))
    return _where(isnan(delta), add(x1, x2), out)


@_logaddexp2.defjvp
def _logaddexp2_jvp(primals, tangents):
    (x1, x2), (t1, t2) = primals, tangents
    out = _logaddexp2(x1, x2)
    r = _replace_inf(out)
    return out, add(
        multiply(t1, exp2(subtract(_replace_inf(x1), r))),
        multiply(t2, exp2(subtract(_replace_inf(x2), r))),
    )


def nan_to_num(x, copy: bool = True, nan=0.0, posinf=None, neginf=None):
    """``jnp.nan_to_num``: replace NaN and infinities by finite numbers.

    Raises:
      TypeError: an argument (``copy`` included, which is otherwise unused) that is not an
        array, a number or a pytree of them: JAX passes every argument to its ``jit``.
    """
    check_jit_arguments(nan_to_num, (x, copy, nan, posinf, neginf))
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return new_array(x)
    if dtypes.is_complex(x.dtype):
        return ew.complex_(
            nan_to_num(ew.real(x), nan=nan, posinf=posinf, neginf=neginf),
            nan_to_num(ew.imag(x), nan=nan, posinf=posinf, neginf=neginf),
        )
    info = dtypes.finfo(x.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    # The replacements are strongly typed scalars of x's dtype (JAX's), so the result is
    # strongly typed even for a weak x.
    # (arrays broadcast against x, as JAX's where: nan=[1, 2, 3] fills element by element)
    nan, posinf, neginf = (
        full((), v, x.dtype) if isinstance(v, (int, float)) else asarray_any(v).astype(x.dtype)
        for v in (nan, posinf, neginf)
    )
    out = _where(isnan(x), nan, x)
    out = _where(logical_and(isinf(out), greater(out, 0)), posinf, out)
    out = _where(logical_and(isinf(out), less(out, 0)), neginf, out)
    return out
