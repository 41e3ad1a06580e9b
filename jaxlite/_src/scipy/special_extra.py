"""The rest of ``jax.scipy.special``: ``dawsn``, ``fresnel``, ``sici``, ``spence``, ``wofz``,
``boxcox``/``boxcox1p``, ``owens_t``, ``hyp1f1``, ``hyp2f1``, ``bessel_jn`` and
``sph_harm_y``.

The kernels are SciPy's, in float64 (``ops/special_extra.py``), so values are accurate in
every float dtype, float16 and bfloat16 included (JAX 0.10.2 returns NaN for some of these
in low precision, and ``bessel_jn`` is NaN throughout in float32; see docs/compat.md).
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.control_flow.while_loop import while_loop
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import arange, full_like, ones_like, zeros_like
from jaxlite._src.numpy.shape import broadcast_arrays, expand_dims, reshape
from jaxlite._src.numpy.ufuncs import divide, equal, expm1, log, log1p, multiply, sinc, where
from jaxlite._src.numpy.util import asarray_any, promote_args_inexact
from jaxlite._src.ops import elementwise as ew, special_extra as sx
from jaxlite._src.scipy.special import digamma, float32_or_64
from jaxlite._src.scipy.special_more import _real1, _strong, _vectorized


def _real_n(name, *args):
    args = promote_args_inexact(name, *args)
    if dtypes.is_complex(args[0].dtype):
        raise ValueError(f"{name} does not support complex-valued inputs.")
    return broadcast_arrays(*args)


def dawsn(x):
    """Dawson's integral ``exp(-x**2) * int_0^x exp(t**2) dt`` (``jax.scipy.special.dawsn``).

    Args:
      x: real array (integers promote to float).

    Returns:
      An array of ``x``'s float dtype.

    Raises:
      ValueError: for complex input, as in JAX.
    """
    return _strong(sx.dawsn_p.bind(_real1("dawsn", x)))


# fresnel and sici are custom_jvp functions, as JAX's: strongly typed primal outputs, the
# tangents the rule's formulas (weak for a weak argument; its gradient strong).
@custom_jvp
def _fresnel(x):
    return _strong(sx.fresnel_s_p.bind(x)), _strong(sx.fresnel_c_p.bind(x))


@_fresnel.defjvp
def _fresnel_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    arg = sx._half_pi_x2(x)
    return _fresnel(x), (multiply(ew.sin(arg), t), multiply(ew.cos(arg), t))


@custom_jvp
def _sici(x):
    return _strong(sx.si_p.bind(x)), _strong(sx.ci_p.bind(x))


@_sici.defjvp
def _sici_jvp(primals, tangents):
    # Si'(x) = sinc(x / pi) (1 at 0), Ci'(x) = cos(x) / x
    (x,), (t,) = primals, tangents
    d_si = sinc(divide(x, np.pi))
    return _sici(x), (multiply(d_si, t), multiply(divide(ew.cos(x), x), t))


def fresnel(x):
    """The Fresnel integrals ``(S(x), C(x))`` (``jax.scipy.special.fresnel``).

    ``S(x) = int_0^x sin(pi t**2 / 2) dt`` and ``C(x) = int_0^x cos(pi t**2 / 2) dt``.

    Args:
      x: real array.

    Returns:
      A pair of arrays of ``x``'s float dtype.

    Raises:
      ValueError: for complex input.
    """
    (x,) = promote_args_inexact("fresnel", x)
    if dtypes.is_complex(x.dtype):
        raise NotImplementedError("Support for complex-valued inputs is not implemented yet.")
    return _fresnel(x)


def sici(x):
    """The sine and cosine integrals ``(Si(x), Ci(x))`` (``jax.scipy.special.sici``).

    ``Si(x) = int_0^x sin(t) / t dt``; ``Ci(x) = gamma + log|x| + int_0^|x| (cos t - 1) / t
    dt`` (the real part for negative ``x``, as SciPy). ``Ci(0)`` is ``-inf``.

    Args:
      x: real array.

    Returns:
      A pair of arrays of ``x``'s float dtype.

    Raises:
      ValueError: for complex input.
    """
    (x,) = promote_args_inexact("sici", x)
    if dtypes.is_complex(x.dtype):
        raise ValueError(f"Argument `x` to sici must be real-valued. Got dtype {x.dtype}.")
    return _sici(x)


def spence(x):
    """Spence's function (the dilogarithm ``int_1^x log(t) / (1 - t) dt``), as
    ``jax.scipy.special.spence``: NaN for ``x < 0``.

    Args:
      x: float32 or float64 array.

    Returns:
      An array of ``x``'s dtype.

    Raises:
      TypeError: for any other dtype (integers included), as in JAX.
    """
    # Strongly typed, as JAX's (its series mix in strongly typed constants).
    return _strong(sx.spence_p.bind(float32_or_64(x)))


def wofz(z):
    """The Faddeeva function ``exp(-z**2) * erfc(-1j * z)`` (``jax.scipy.special.wofz``).

    Args:
      z: real or complex array (real input is treated as complex).

    Returns:
      A complex array (complex64 for float32 and narrower input).
    """
    (z,) = promote_args_inexact("wofz", z)
    z = z.astype(dtypes.to_complex_dtype(z.dtype))
    return _strong(sx.wofz_p.bind(z))


def _boxcox(name, x, lmbda, log_fn):
    x, lmbda = promote_args_inexact(name, x, lmbda)
    zero = equal(lmbda, 0)
    safe = where(zero, ones_like(lmbda), lmbda)
    lg = log_fn(x)
    return where(zero, lg, divide(expm1(multiply(safe, lg)), safe))


def boxcox(x, lmbda):
    """The Box-Cox transform ``(x**lmbda - 1) / lmbda`` (``log(x)`` at ``lmbda == 0``), as
    ``jax.scipy.special.boxcox``. NaN for ``x < 0``; computed with ``expm1``.

    Args:
      x: positive real array.
      lmbda: real array broadcastable with ``x``.

    Returns:
      An array of the promoted float dtype.
    """
    return _boxcox("boxcox", x, lmbda, log)


def boxcox1p(x, lmbda):
    """The shifted Box-Cox transform ``((1 + x)**lmbda - 1) / lmbda`` (``log1p(x)`` at
    ``lmbda == 0``), as ``jax.scipy.special.boxcox1p``. NaN for ``x < -1``.

    Args:
      x: real array greater than -1.
      lmbda: real array broadcastable with ``x``.

    Returns:
      An array of the promoted float dtype.
    """
    return _boxcox("boxcox1p", x, lmbda, log1p)


def owens_t(h, a):
    """Owen's T function ``(1 / 2 pi) int_0^a exp(-h**2 (1 + t**2) / 2) / (1 + t**2) dt``
    (``jax.scipy.special.owens_t``), differentiable in ``h`` and ``a``.

    Returns:
      An array of the promoted float dtype (float32 for float16/bfloat16 input, as in JAX).

    Raises:
      ValueError: for complex input.
    """
    h, a = _real_n("owens_t", h, a)
    if h.dtype.itemsize < 4:  # JAX's quadrature tables are float32: half inputs give float32
        h, a = h.astype(np.float32), a.astype(np.float32)
    return _strong(sx.owens_t_p.bind(h, a))


def _param_series(x, ratio, weight, k_step):
    """The parameter derivatives of the hypergeometric series, as JAX computes them.

    ``sum_{k >= 1} t_k w_k`` with ``t_1 = ratio * x``, ``t_{k+1} = t_k * k_step(k) * x / (k + 1)``
    and ``w_k = weight(k)`` (a difference of digammas), in the operand dtype; each element
    stops when its next term is below ``eps`` relative to its sum, or after 249 terms
    (https://functions.wolfram.com/HypergeometricFunctions/Hypergeometric1F1/20/01/01/ and
    the neighbouring pages). A ``while_loop``, so it is forward-differentiable.
    """
    eps = np.asarray(dtypes.finfo(x.dtype).eps, x.dtype)

    def live(state):
        total, k, term = state
        with np.errstate(divide="ignore", invalid="ignore"):
            return (k < 250) & (abs(term) / abs(total) > eps)

    def cond(state):
        return reductions.any(live(state))

    def body(state):
        total, k, term = state
        go = live(state)
        kf = k.astype(x.dtype)
        total = where(go, total + term * weight(kf), total)
        term = where(go, term * k_step(kf) * x / (kf + 1), term)
        return total, where(go, k + 1, k), term

    init = (zeros_like(x), full_like(x, 1, dtype=np.int32), ratio * x)
    return while_loop(cond, body, init)[0]


@custom_jvp
def _hyp1f1(a, b, x):
    return _strong(sx.hyp1f1_p.bind(a, b, x))


def _hyp1f1_series(a, b, x, which):
    # d/da (which 0) or d/db (which 1) of the series of 1F1(a; b; x)
    if which == 0:
        weight = lambda k: digamma(a + k) - digamma(a)  # noqa: E731
    else:
        weight = lambda k: digamma(b) - digamma(b + k)  # noqa: E731
    return _param_series(x, a / b, weight, lambda k: (a + k) / (b + k))


def _hyp1f1_param(which):
    # For x < 0 the series alternates and cancels (JAX's float32 values there can be off in
    # every digit); Kummer's transformation 1F1(a; b; x) = e^x 1F1(b - a; b; -x) turns it
    # into a series of one sign.
    def rule(t, ans, a, b, x):
        neg = x < 0
        zero = zeros_like(x)
        direct = _hyp1f1_series(a, b, where(neg, zero, x), which)
        mx = where(neg, -x, zero)
        da = _hyp1f1_series(b - a, b, mx, 0)
        kummer = -da if which == 0 else da + _hyp1f1_series(b - a, b, mx, 1)
        return t * where(neg, ew.exp(x) * kummer, direct)

    return rule


def _hyp1f1_dx(t, ans, a, b, x):  # d/dx 1F1(a; b; x) = a / b 1F1(a + 1; b + 1; x)
    return t * (a / b * _hyp1f1(a + 1, b + 1, x))


_hyp1f1.defjvps(_hyp1f1_param(0), _hyp1f1_param(1), _hyp1f1_dx)


def hyp1f1(a, b, x):
    """The confluent hypergeometric function ``1F1(a; b; x)`` (``jax.scipy.special.hyp1f1``).

    Differentiable in every argument: in ``x`` by ``a / b 1F1(a + 1; b + 1; x)``, in ``a``
    and ``b`` by the series of JAX (a ``while_loop`` of at most 249 terms in the operand
    dtype, so forward-mode only at second order, as in JAX).

    Raises:
      ValueError: for complex input.
    """
    return _hyp1f1(*_real_n("hyp1f1", *_vectorized(a, b, x)))


@custom_jvp
def _hyp2f1(a, b, c, x):
    return _strong(sx.hyp2f1_p.bind(a, b, c, x))


def _hyp2f1_series(a, b, c, x, which):
    # d/da, d/db or d/dc (which 0, 1, 2) of the series of 2F1(a, b; c; x)
    if which == 2:
        weight = lambda k: digamma(c) - digamma(c + k)  # noqa: E731
    else:
        p = (a, b)[which]
        weight = lambda k: digamma(p + k) - digamma(p)  # noqa: E731
    step = lambda k: (a + k) * (b + k) / (c + k)  # noqa: E731
    return _param_series(x, a * b / c, weight, step)


def _hyp2f1_param(which):
    # For x < 0 the series alternates (and diverges below -1); Pfaff's transformation
    # 2F1(a, b; c; x) = (1 - x)^-a 2F1(a, c - b; c; x / (x - 1)) has 0 < x / (x - 1) < 1
    # and terms of one sign.
    def rule(t, ans, a, b, c, x):
        neg = x < 0
        zero = zeros_like(x)
        direct = _hyp2f1_series(a, b, c, where(neg, zero, x), which)
        xn = where(neg, x, zero)
        z, cb, scale = xn / (xn - 1), c - b, ew.exp(-a * ew.log1p(-xn))
        if which == 0:
            g = _hyp2f1(a, cb, c, z)
            pf = _hyp2f1_series(a, cb, c, z, 0) - ew.log1p(-xn) * g
        else:
            pf = _hyp2f1_series(a, cb, c, z, 1)
            pf = -pf if which == 1 else pf + _hyp2f1_series(a, cb, c, z, 2)
        return t * where(neg, scale * pf, direct)

    return rule


def _hyp2f1_dx(t, ans, a, b, c, x):  # d/dx 2F1 = a b / c 2F1(a + 1, b + 1; c + 1; x)
    return t * (a * b / c * _hyp2f1(a + 1, b + 1, c + 1, x))


_hyp2f1.defjvps(_hyp2f1_param(0), _hyp2f1_param(1), _hyp2f1_param(2), _hyp2f1_dx)


def hyp2f1(a, b, c, x):
    """The Gauss hypergeometric function ``2F1(a, b; c; x)`` (``jax.scipy.special.hyp2f1``).

    Differentiable in every argument: in ``x`` by ``a b / c 2F1(a + 1, b + 1; c + 1; x)``,
    in ``a``, ``b`` and ``c`` by the series of JAX (at most 249 terms in the operand dtype;
    like JAX's, it is the plain series, meaningful for ``|x| < 1``).

    Raises:
      ValueError: for complex input.
    """
    return _hyp2f1(*_real_n("hyp2f1", *_vectorized(a, b, c, x)))


def bessel_jn(z, *, v: int, n_iter: int = 50):
    """Bessel functions of the first kind ``J_0(z) ... J_v(z)`` (``jax.scipy.special.bessel_jn``).

    Args:
      z: real array.
      v: the highest order (a non-negative Python int).
      n_iter: accepted for JAX's signature; SciPy's kernel needs no iteration count.

    Returns:
      An array of shape ``(v + 1, *z.shape)``, ``z``'s float dtype.

    Raises:
      NotImplementedError: when differentiated in the order.
    """
    del n_iter
    z = _real1("bessel_jn", z)
    v = int(v)
    orders = reshape(arange(v + 1, dtype=z.dtype), (v + 1,) + (1,) * z.ndim)
    orders, zz = broadcast_arrays(orders, expand_dims(z, 0))
    return _strong(sx.jv_p.bind(orders, zz))


def sph_harm_y(n, m, theta, phi, diff_n: int | None = None, n_max: int | None = None):
    """Spherical harmonics ``Y_n^m(theta, phi)`` (``jax.scipy.special.sph_harm_y``, SciPy's
    convention: ``theta`` the polar angle, ``phi`` the azimuth).

    Args:
      n: integer degrees; m: integer orders (``|m| <= n``).
      theta, phi: real angles. All four broadcast together.
      diff_n: must be ``None`` (JAX does not support it either).
      n_max: accepted for JAX's signature (the kernel needs no static bound).

    Returns:
      A complex array (complex64 unless ``theta``/``phi`` are float64).

    Raises:
      NotImplementedError: for ``diff_n``, and when differentiated.
    """
    del n_max
    if diff_n is not None:
        raise NotImplementedError(
            "The 'diff_n' argument to jax.scipy.special.sph_harm_y is not supported."
        )
    theta, phi = promote_args_inexact("sph_harm_y", theta, phi)
    n, m = (asarray_any(t).astype(dtypes.canonicalize_dtype(np.int64)) for t in (n, m))
    n, m, theta, phi = broadcast_arrays(n, m, theta, phi)
    return sx.sph_harm_y_p.bind(n, m, theta, phi)
