"""``jax.scipy.special`` subset: logsumexp, erf, erfc, erfinv, gammaln, digamma, xlogy,
xlog1py, expit, logit, ndtr, log_ndtr-free. Compositions of ``jax.numpy`` functions and ``lax``
elementwise primitives."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import indexing_routines, reductions, ufuncs
from jaxlite._src.numpy.creation import full, full_like, ones_like, zeros_like
from jaxlite._src.numpy.list_args import list_checked
from jaxlite._src.numpy.shape import _reduction_axes, broadcast_arrays, broadcast_to, squeeze
from jaxlite._src.numpy.ufuncs import (
    add,
    divide,
    equal,
    exp,
    floor,
    greater,
    greater_equal,
    isfinite,
    isnan,
    less,
    less_equal,
    log,
    log1p,
    logical_and,
    logical_or,
    multiply,
    negative,
    remainder,
    signbit,
    subtract,
    where,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    promote_args_inexact,
    promote_dtypes_inexact,
    with_weak_type,
)
from jaxlite._src.ops import (
    elementwise as ew,
    special as special_ops,
    special_more as special_more_ops,
)
from jaxlite._src.ops.structural import stop_gradient_p
from jaxlite._src.scipy import special_complex


def _inexact1(x):
    (x,) = promote_dtypes_inexact(x)
    return x


def logsumexp(a, axis=None, b=None, keepdims: bool = False, return_sign: bool = False, where=None):
    """``jax.scipy.special.logsumexp``: ``log(sum(b * exp(a)))`` computed stably.

    Args:
        a: input array (promoted to an inexact dtype).
        axis: int, tuple of ints or None (all axes).
        b: optional scale factors broadcastable to ``a``.
        keepdims: keep reduced axes as size-1 dimensions.
        return_sign: also return the sign of the sum (then negative sums are allowed).
        where: optional mask of the elements to include.

    Returns:
        The reduced array (and the sign array if ``return_sign``).
    """
    if b is not None:
        a, b = promote_args_inexact("logsumexp", a, b)
        a, b = broadcast_arrays(a, b)
        # Terms with b == 0 are left out, also from the maximum: a large ``a`` there must
        # not swamp the others, and none of its derivatives reach ``a`` (as JAX).
        a = ufuncs.where(ufuncs.not_equal(b, zeros_like(b)), a, full_like(a, -np.inf))
    else:
        a = _inexact1(a)
    axes = _reduction_axes(a, axis)
    if where is not None:
        a = ufuncs.where(where, a, -np.inf)
    cplx = dtypes.issubdtype(a.dtype, np.complexfloating)
    # The shift is real (the real parts' maximum), so a complex result keeps the imaginary
    # parts of ``a``; initial=-inf: an empty axis gives -inf rather than an error.
    amax = reductions.max(
        ufuncs.real(a) if cplx else a, axis=axes, keepdims=True, where=where, initial=-np.inf
    )
    amax = stop_gradient_p.bind(ufuncs.where(isfinite(amax), amax, zeros_like(amax)))
    shift = broadcast_to(amax.astype(a.dtype) if cplx else amax, a.shape)
    # lax-level sub/exp/mul (as JAX): no cast of a weakly typed ``a`` or ``b``, so their
    # cotangents keep the strong type of the computation.
    e = ew.exp(ew.sub(a, shift))
    if b is not None:
        e = ew.mul(e, b)
    s = reductions.sum(e, axis=axes, keepdims=True, where=where)
    sign = ufuncs.sign(s)
    if return_sign or not cplx:
        s = ufuncs.abs(s)
    out = add(log(s), amax.astype(s.dtype) if cplx else amax)
    if not keepdims:
        out = squeeze(out, axis=axes)
        sign = squeeze(sign, axis=axes)
    if return_sign:
        return out, sign
    if b is not None and not cplx:
        out = ufuncs.where(less(sign, 0), full_like(out, np.nan), out)
    return out


def erf(x):
    """``jax.scipy.special.erf``."""
    return ew.erf(_inexact1(x))


def erfc(x):
    """``jax.scipy.special.erfc``."""
    return ew.erfc(_inexact1(x))


def erfinv(x):
    """``jax.scipy.special.erfinv``."""
    return ew.erf_inv(_inexact1(x))


def gammaln(x):
    """``jax.scipy.special.gammaln``: ``log|Gamma(x)|``."""
    return ew.lgamma(_inexact1(x))


def digamma(x):
    """``jax.scipy.special.digamma``."""
    return ew.digamma(_inexact1(x))


def xlogy(x, y):
    """``jax.scipy.special.xlogy``: ``x * log(y)``, 0 where ``x == 0``.

    Its derivative is ``(log(y), x / y)`` everywhere, as in JAX (``(-inf, nan)`` at ``(0, 0)``).
    """
    x, y = promote_args_inexact("xlogy", x, y)
    return special_ops.xlogy(*broadcast_arrays(x, y))


def xlog1py(x, y):
    """``jax.scipy.special.xlog1py``: ``x * log1p(y)``, 0 where ``x == 0``."""
    x, y = promote_args_inexact("xlog1py", x, y)
    return special_ops.xlog1py(*broadcast_arrays(x, y))


def expit(x):
    """``jax.scipy.special.expit``: the logistic sigmoid."""
    return ew.logistic(_inexact1(x))


@custom_jvp
def _logit(x):
    # JAX's typed one (lax._const): a weak array's logit is strongly typed
    return log(divide(x, subtract(ew._formula_const(x, 1), x)))


# JAX's rule: 1 / (x (1 - x)), so the derivative is inf at 0 and 1 (not NaN) and -0 at +-inf.
_logit.defjvps(lambda g, ans, x: divide(g, multiply(x, subtract(1, x))))


def logit(x):
    """``jax.scipy.special.logit``: ``log(x / (1 - x))``; derivative ``1 / (x (1 - x))``."""
    return _logit(_inexact1(x))


def ndtr(x):
    """``jax.scipy.special.ndtr``: the standard normal CDF.

    float32 or float64 only (JAX's TypeError otherwise); the result has the argument's
    dtype and is strongly typed, as JAX's (its constants are arrays of that dtype).
    """
    x = float32_or_64(x)
    # A Python float: a NumPy float64 constant would promote float32 to float64 under x64.
    return with_weak_type(multiply(0.5, ew.erfc(multiply(x, -float(np.sqrt(0.5))))), False)


def gamma(x):
    """``jax.scipy.special.gamma``: ``gammasgn(x) * exp(lgamma(x))`` for real arguments.

    Negative non-integers get their sign from ``gammasgn``; the poles (non-positive
    integers) give NaN, except ``+inf`` at ``+0`` and ``-inf`` at ``-0`` (as JAX). Complex
    arguments give ``exp(loggamma(x))``, ``nan + nan j`` at the poles and for non-finite
    parts (``scipy/special_complex.py``).
    """
    x = _inexact1(x)
    if dtypes.is_complex(x.dtype):
        return with_weak_type(special_complex.complex_gamma(x), False)
    return multiply(gammasgn(x), exp(ew.lgamma(x)))


def gammasgn(x):
    """The sign of the gamma function (``jax.scipy.special.gammasgn``).

    Args:
      x: real array.

    Returns:
      ``1`` or ``-1`` of the promoted inexact dtype; NaN at the poles (non-positive
      integers) except ``+1`` at ``+0`` and ``-1`` at ``-0``; NaN for NaN.

    Raises:
      ValueError: for complex input.
    """
    (x,) = promote_args_inexact("gammasgn", x)
    if dtypes.is_complex(x.dtype):
        raise ValueError("gammasgn does not support complex-valued inputs.")
    fl = floor(x)
    nan_at = ((x < 0) & (x == fl)) | isnan(x)
    # Gamma is negative on (-2k-1, -2k): where floor(x) is odd; and "-1" at -0.
    minus_at = ((x < 0) & (remainder(fl, 2) != 0)) | ((x == 0) & signbit(x))
    one = full((), 1, x.dtype)
    return where(nan_at, full((), np.nan, x.dtype), where(minus_at, -one, one))


def float32_or_64(x):
    """``x`` as an array, which must be float32 or float64: JAX's ``ndtri`` and ``spence``
    refuse every other dtype (integers and half floats included) with this TypeError."""
    x = asarray_any(x)
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={x.dtype} is not supported, see docstring for supported types.")
    return x


def ndtri(p):
    """``jax.scipy.special.ndtri``: inverse of the standard normal CDF.

    Raises:
      TypeError: a list or tuple (JAX reads the operand's dtype first), or a dtype other
        than float32 / float64.
    """
    if isinstance(p, (list, tuple)):
        raise TypeError(f"Cannot determine dtype of {p!r}")
    p = float32_or_64(p)
    # Strongly typed, as JAX's (its piecewise rational approximation mixes in strongly typed
    # constants): ndtri(0.3) next to a bfloat16 array promotes to float32.
    out = special_more_ops.ndtri(p)
    return out.astype(out.dtype)


# Coefficients of the asymptotic series of del(b) - del(a + b), where
# lgamma(x) = (x - 1/2) log x - x + log(2 pi) / 2 + del(x) (SciPy's cdflib ``algdiv``),
# highest power of 1 / b**2 first.
_DEL_SERIES = (
    -0.165322962780713e-02,
    0.837308034031215e-03,
    -0.595202931351870e-03,
    0.793650666825390e-03,
    -0.277777777760991e-02,
    0.833333333333333e-01,
)


def _lgamma_ratio_large_b(a, b):
    """``lgamma(b) - lgamma(a + b)`` for ``a <= b`` and ``b >= 8``, from Stirling's series
    (no cancellation between two large log-gammas). Every element is computed (``betaln``
    selects it where ``b >= 8``), so its derivative is NaN where the series is undefined,
    as JAX's."""
    ratio = divide(a, b)
    frac = divide(ratio, add(1, ratio))  # a / (a + b)
    frac2 = multiply(frac, frac)
    # s[k] = 1 + x + ... + x**(2k), k = 1..5, by s[k] = 1 + (x + x**2 s[k-1])
    sums = [add(1.0, add(frac, frac2))]
    for _ in range(4):
        sums.append(add(1.0, add(frac, multiply(frac2, sums[-1]))))
    t = ufuncs.square(divide(1.0, b))
    w = multiply(_DEL_SERIES[0], sums[4])
    for coeff, s_k in zip(_DEL_SERIES[1:5], sums[3::-1]):
        w = add(multiply(w, t), multiply(coeff, s_k))
    w = add(multiply(w, t), _DEL_SERIES[5])
    w = multiply(w, divide(frac, b))
    u = multiply(add(b, subtract(a, 0.5)), log1p(divide(a, b)))
    v = multiply(a, subtract(log(b), 1.0))
    return where(less_equal(u, v), subtract(subtract(w, v), u), subtract(subtract(w, u), v))


def betaln(a, b):
    """``jax.scipy.special.betaln``: ``log|B(a, b)|``.

    With ``a <= b`` (swapped if needed): ``lgamma(a) + (lgamma(b) - lgamma(a + b))`` for
    ``b < 8``, else ``lgamma(a)`` plus the Stirling-series difference, which keeps large
    arguments accurate in float32 (``betaln(3, 1e5)`` is ``-33.8457``, where the plain
    difference of log-gammas gives ``-33.75``), as JAX.
    """
    a, b = promote_args_inexact("betaln", a, b)
    a, b = ufuncs.minimum(a, b), ufuncs.maximum(a, b)
    small_b = add(ew.lgamma(a), subtract(ew.lgamma(b), ew.lgamma(add(a, b))))
    large_b = add(ew.lgamma(a), _lgamma_ratio_large_b(a, b))
    return where(less(b, 8), small_b, large_b)


def multigammaln(a, d: int):
    """``jax.scipy.special.multigammaln``: log of the multivariate gamma function."""
    a = _inexact1(a)
    d = int(d)
    # a strong constant in a's dtype: the result keeps a's dtype (float16 / bfloat16 too)
    # and is strongly typed, as JAX's (its arange of d is)
    # in a's shape even with no terms (d <= 0: JAX's sum over an empty axis)
    out = full(a.shape, np.asarray(d * (d - 1) / 4.0 * np.log(np.pi), dtype=a.dtype), a.dtype)
    for j in range(d):
        out = add(out, ew.lgamma(subtract(a, j / 2.0)))
    return out


def entr(x):
    """``jax.scipy.special.entr``: ``-x log x`` (0 at 0, -inf for negative ``x``)."""
    x = _inexact1(x)
    _no_complex("entr", x)
    return where(less(x, 0), full_like(x, -np.inf), negative(_xlogx(x)))


def _no_complex(name, x):
    if dtypes.is_complex(x.dtype):
        raise ValueError(f"{name} does not support complex-valued inputs.")


@custom_jvp
def _xlogx(x):
    return xlogy(x, x)


# d/dx x log x = log x + 1: -inf at 0, so entr's derivative is +inf there (xlogy's own
# rule, log y + x / y, gives NaN at 0).
_xlogx.defjvps(lambda g, ans, x: multiply(g, add(log(x), 1)))


def rel_entr(p, q):
    """``jax.scipy.special.rel_entr``: ``p log(p / q)`` with the conventions at 0."""
    p, q = promote_args_inexact("rel_entr", p, q)
    _no_complex("rel_entr", p)
    # JAX's zero is its lax constant of p (before broadcasting): strong unless p is a weak
    # scalar, so rel_entr(int_array, 1.5) is strongly typed.
    zero_c = ew._formula_const(p, 0)
    p, q = broadcast_arrays(p, q)
    both = logical_and(greater(p, 0), greater(q, 0))
    safe_p = where(both, p, ones_like(p))
    safe_q = where(both, q, ones_like(q))
    # x log x - x log y, as JAX: p log(p / q)'s derivative is 0 / 0 where q is infinite
    val = subtract(_xlogx(safe_p), xlogy(safe_p, safe_q))
    zero = logical_and(equal(p, 0), greater_equal(q, 0))
    return where(both, val, where(zero, zero_c, full_like(p, np.inf)))


def kl_div(p, q):
    """``jax.scipy.special.kl_div``: ``p log(p / q) - p + q``."""
    p, q = promote_args_inexact("kl_div", p, q)
    _no_complex("kl_div", p)
    return add(subtract(rel_entr(p, q), p), q)


# -------------------------------------------- incomplete gamma/beta, Bessel, log_ndtr


def gammainc(a, x):
    """``jax.scipy.special.gammainc``: regularized lower incomplete gamma ``P(a, x)``."""
    a, x = promote_args_inexact("gammainc", a, x)
    return special_ops.igamma(a, x)


def gammaincc(a, x):
    """``jax.scipy.special.gammaincc``: regularized upper incomplete gamma ``Q(a, x)``."""
    a, x = promote_args_inexact("gammaincc", a, x)
    return special_ops.igammac(a, x)


def betainc(a, b, x):
    """``jax.scipy.special.betainc``: the regularized incomplete beta function ``I_x(a, b)``.

    Differentiable with respect to ``x`` (the derivative in ``a``/``b`` raises).
    """
    a, b, x = promote_args_inexact("betainc", a, b, x)
    return special_ops.betainc(a, b, x)


def i0e(x):
    """``jax.scipy.special.i0e``: ``exp(-|x|) I0(x)``."""
    (x,) = promote_args_inexact("i0e", x)
    return special_ops.bessel_i0e(x)


def i0(x):
    """``jax.scipy.special.i0``: the modified Bessel function of the first kind, order 0."""
    (x,) = promote_args_inexact("i0", x)
    return multiply(exp(ew.abs(x)), special_ops.bessel_i0e(x))


def i1e(x):
    """``jax.scipy.special.i1e``: ``exp(-|x|) I1(x)``."""
    (x,) = promote_args_inexact("i1e", x)
    return special_ops.bessel_i1e(x)


def i1(x):
    """``jax.scipy.special.i1``: the modified Bessel function of the first kind, order 1."""
    (x,) = promote_args_inexact("i1", x)
    return multiply(exp(ew.abs(x)), special_ops.bessel_i1e(x))


def log_ndtr(x, series_order: int = 3):
    """``jax.scipy.special.log_ndtr``: ``log(ndtr(x))``, accurate far into both tails."""
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    # SciPy's kernel is accurate without a user-chosen series order (docs/compat.md)
    x = asarray_any(x)
    if x.dtype not in (np.float32, np.float64):
        raise TypeError(f"x.dtype={x.dtype} is not supported.")
    return _log_ndtr(x)


# A custom_jvp function, as JAX's: the result is strongly typed even for a weak argument (its
# kernel mixes in strong constants), so norm.logcdf(0.5) is too; the tangent is the rule's
# formula ``t * exp(log_pdf(x) - log_ndtr(x))``, so the gradient of a weak argument is strong
# (a cast on the tangent path made it weak).
# JAX's segments (float64, float32): above the upper one ``-ndtr(-x)``, between them
# ``log(ndtr(x))``, below the lower one the asymptotic series (here SciPy's kernel). The
# middle segment inherits ndtr's rounding, so ``exp(log_ndtr(x))`` agrees with ``ndtr(x)``
# as in JAX (numpyro's Normal.log_cdf against its cdf).
_LOG_NDTR_SEGMENTS = {np.dtype(np.float64): (-20.0, 8.0), np.dtype(np.float32): (-10.0, 5.0)}


@custom_jvp
def _log_ndtr(x):
    lower, upper = _LOG_NDTR_SEGMENTS[np.dtype(x.dtype)]
    lo, up = ew._const(x, lower), ew._const(x, upper)
    tail = special_ops.log_ndtr(x)
    middle = ew.log(ndtr(ew.max(x, lo)))
    out = ew.select(ew.gt(x, up), ew.neg(ndtr(ew.neg(x))), ew.select(ew.gt(x, lo), middle, tail))
    return with_weak_type(out, False)


@_log_ndtr.defjvp
def _log_ndtr_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    ans = _log_ndtr(x)
    log_pdf = ew.sub(
        ew.mul(ew._const(x, -0.5), ew.square(x)), ew._const(x, 0.5 * np.log(2 * np.pi))
    )
    return ans, ew.mul(t, ew.exp(ew.sub(log_pdf, ans)))


# JAX refuses a list or tuple as the first operand of these (tests/hunt/test_err_sweep_s25.py)
digamma, entr, erf, erfc, erfinv, expit, gamma, gammaln, logit, logsumexp = (
    list_checked(digamma),
    list_checked(entr),
    list_checked(erf),
    list_checked(erfc),
    list_checked(erfinv),
    list_checked(expit),
    list_checked(gamma),
    list_checked(gammaln),
    list_checked(logit),
    list_checked(logsumexp),
)
