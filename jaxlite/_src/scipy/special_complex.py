"""Complex arguments of ``jax.scipy.special.loggamma``, ``gamma`` and ``erfcx``.

``loggamma`` is the principal branch of the log of the gamma function: the analytic
continuation of the real ``log(Gamma(x))``, ``x > 0``, with one branch cut on the negative
real axis, as SciPy's ``scipy.special.loggamma``. It is composed of ``jax.numpy``
operations (so ``jit``, ``vmap`` and derivatives of every order go through it), element by
element from four pieces:

* Stirling's series with 12 terms where ``Re z > R`` or ``|Im z| > R``, ``R = 7`` in
  complex128 (remainder below ``1e-17``, away from the poles) and 4 in complex64 (below
  ``1e-11``);
* Taylor series about 1, 2 and 1.5 (``|z - 1| < 0.4``, ``|z - 2| < 0.5``,
  ``|z - 1.5| < 0.7``), where ``loggamma`` is small: the zeros at 1 and 2 keep their
  relative accuracy, and the recurrence's cancellation is avoided;
* the recurrence ``loggamma(z) = loggamma(z + n) - sum_k log(z + k)`` (at most
  ``ceil(R - 0.5)`` masked steps) for the rest of ``Re z >= 0.5``: on the right half-plane
  the sum of principal logs is the principal branch;
* the reflection ``loggamma(z) = log(pi) - L(z) - loggamma(1 - z)`` for ``Re z < 0.5``
  and ``|Im z| <= R``, where ``L`` is the branch of ``log(sin(pi z))`` on the upper
  half-plane that is continuous there and real on ``(0, 1)``:
  ``L(z) = -log 2 + i pi / 2 - i pi z + log(-expm1(2 pi i z))``, the exponential taken of
  ``z`` reduced modulo 1 (exactly) so large ``|Re z|`` loses nothing. The lower half-plane
  follows from ``loggamma(conj z) = conj(loggamma(z))``; the sign of a zero imaginary part
  picks the side of the cut, as SciPy's (``loggamma(-2.5 - 0j)`` is the conjugate of
  ``loggamma(-2.5 + 0j)``).

The poles (non-positive integers with a zero imaginary part), NaN and infinite parts give
``nan + nan j``, as JAX's. ``gamma`` is ``exp(loggamma(z))``. ``erfcx(z)`` is the Faddeeva
function ``w(iz)`` (``ops/special_extra.wofz_p``, SciPy's kernel).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from jaxlite._src.compile.jit import jit
from jaxlite._src.numpy import ufuncs as uf
from jaxlite._src.ops import elementwise as ew, special_extra as sx
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use

_N_STIRLING = 12
# Taylor series about 1, 2 and 1.5 (radius, terms): where loggamma is small, so the
# recurrence's cancellation would cost relative accuracy. Remainders below 1e-17.
_RADIUS1, _N_TAYLOR1 = 0.4, 44
_RADIUS2, _N_TAYLOR2 = 0.5, 30
_RADIUS_MID, _N_TAYLOR_MID = 0.7, 52
_HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
_LOG_PI = math.log(math.pi)


def _stirling_coefficients():
    # B_2k / (2k (2k - 1)), k = 1.._N_STIRLING, highest first (for Horner in 1 / z**2)
    k = np.arange(1, _N_STIRLING + 1)
    b = scipy.special.bernoulli(2 * _N_STIRLING)[2 * k]
    return [float(c) for c in (b / (2 * k * (2 * k - 1)))[::-1]]


def _taylor_coefficients():
    # loggamma(1 + e) = -euler_gamma e + sum_{k >= 2} (-1)**k zeta(k) / k e**k and
    # loggamma(2 + e) = (1 - euler_gamma) e + sum_{k >= 2} (-1)**k (zeta(k) - 1) / k e**k;
    # coefficients of e**1..e**N, highest first.
    k = np.arange(2, _N_TAYLOR1 + 1)
    at1 = [-np.euler_gamma, *((-1.0) ** k * scipy.special.zeta(k) / k)]
    k = np.arange(2, _N_TAYLOR2 + 1)
    at2 = [1 - np.euler_gamma, *((-1.0) ** k * scipy.special.zetac(k) / k)]
    # loggamma(1.5 + e) = loggamma(1.5) + sum_{k >= 1} polygamma(k - 1, 1.5) / k! e**k
    k = np.arange(1, _N_TAYLOR_MID + 1)
    mid = scipy.special.polygamma(k - 1, 1.5) / scipy.special.factorial(k)
    mid = [float(c) for c in mid[::-1]]
    at1, at2 = [float(c) for c in at1[::-1]], [float(c) for c in at2[::-1]]
    return at1, at2, mid, float(scipy.special.gammaln(1.5))


# Computed at first use: scipy.special loads lazily (tests/test_import_time.py).
_stirling_coefficients = functools.cache(_stirling_coefficients)
_taylor_coefficients = functools.cache(_taylor_coefficients)


def _radius(z):
    # Stirling's series where Re z > R or |Im z| > R: R = 7 in complex128, 4 in complex64
    # (a shorter recurrence cancels less where loggamma is small; the series' remainder
    # there is still below 1e-11).
    return 4.0 if z.dtype == np.complex64 else 7.0


def _horner(coefs, x):
    acc = coefs[0]
    for c in coefs[1:]:
        acc = uf.add(uf.multiply(acc, x), c)
    return acc


def _stirling(z):
    # (z - 1/2) log z - z + log(2 pi) / 2 + sum_k B_2k / (2k (2k - 1) z**(2k - 1))
    r = uf.reciprocal(z)
    series = uf.multiply(_horner(_stirling_coefficients(), uf.multiply(r, r)), r)
    head = uf.subtract(uf.multiply(uf.subtract(z, 0.5), uf.log(z)), z)
    return uf.add(uf.add(head, _HALF_LOG_2PI), series)


def _loggamma_right(z):
    """``loggamma`` where ``Re z >= 0.5`` or ``|Im z| > R`` (no reflection needed)."""
    r = _radius(z)
    x, y = uf.real(z), uf.imag(z)
    far = uf.logical_or(uf.greater(x, r), uf.greater(uf.abs(y), r))
    near1 = uf.less(uf.abs(uf.subtract(z, 1.0)), _RADIUS1)
    near2 = uf.less(uf.abs(uf.subtract(z, 2.0)), _RADIUS2)
    mid = uf.less(uf.abs(uf.subtract(z, 1.5)), _RADIUS_MID)
    taylor = uf.logical_or(mid, uf.logical_or(near1, near2))
    # Shift the rest past Re z = R (at most ceil(R - 0.5) steps); each masked step keeps a
    # harmless operand (no NaN or infinity reaches a derivative through the unselected side
    # of a where).
    shift = uf.logical_not(uf.logical_or(far, taylor))
    n = uf.where(shift, uf.ceil(uf.subtract(r, x)), 0.0)
    zs = uf.where(taylor, 10.0, z)
    total = None
    for k in range(math.ceil(r - 0.5)):
        term = uf.where(uf.less(k, n), uf.log(uf.add(zs, float(k))), 0.0)
        total = term if total is None else uf.add(total, term)
    big = uf.subtract(_stirling(uf.add(zs, n)), total)
    taylor1, taylor2, taylor_mid, loggamma_mid = _taylor_coefficients()
    e1 = uf.where(near1, uf.subtract(z, 1.0), 0.0)
    e2 = uf.where(near2, uf.subtract(z, 2.0), 0.0)
    t1 = uf.multiply(_horner(taylor1, e1), e1)
    t2 = uf.multiply(_horner(taylor2, e2), e2)
    em = uf.where(mid, uf.subtract(z, 1.5), 0.0)
    tm = uf.add(uf.multiply(_horner(taylor_mid, em), em), loggamma_mid)
    return uf.where(near1, t1, uf.where(near2, t2, uf.where(mid, tm, big)))


def _log_sin_pi_upper(z):
    """The branch of ``log(sin(pi z))`` for ``Im z >= 0`` continuous on the upper half-plane
    and real on ``(0, 1)``: ``-log 2 + i pi / 2 - i pi z + log(1 - exp(2 pi i z))``."""
    x, y = uf.real(z), uf.imag(z)
    d = uf.subtract(x, uf.round(x))  # exact; exp(2 pi i z) has period 1 in x
    a, b = uf.multiply(-2 * math.pi, y), uf.multiply(2 * math.pi, d)
    # 1 - exp(a + ib) = -expm1(a + ib), its real part without cancellation near a = b = 0
    s = uf.sin(uf.multiply(0.5, b))
    one_minus_re = uf.add(
        uf.multiply(uf.negative(uf.expm1(a)), uf.cos(b)), uf.multiply(2.0, uf.multiply(s, s))
    )
    one_minus_im = uf.negative(uf.multiply(uf.exp(a), uf.sin(b)))
    lg = uf.log(ew.complex_(one_minus_re, one_minus_im))
    re = uf.add(uf.add(uf.multiply(math.pi, y), -math.log(2.0)), uf.real(lg))
    im = uf.add(uf.subtract(0.5 * math.pi, uf.multiply(math.pi, x)), uf.imag(lg))
    return ew.complex_(re, im)


def _poles_and_nans(z):
    x, y = uf.real(z), uf.imag(z)
    pole = uf.logical_and(
        uf.equal(y, 0), uf.logical_and(uf.less_equal(x, 0), uf.equal(x, uf.floor(x)))
    )
    return uf.logical_or(pole, uf.logical_or(uf.isnan(x), uf.isnan(y)))


def _complex_loggamma(z):
    # Poles and NaNs are computed at a harmless point (their derivative is 0, as JAX's);
    # an infinite part gives nan + nan j with a NaN derivative (JAX's, where its series
    # meets infinity).
    masked = _poles_and_nans(z)
    lower = uf.signbit(uf.imag(z))
    zu = uf.where(masked, 1.5, uf.where(lower, uf.conjugate(z), z))
    xu, yu = uf.real(zu), uf.imag(zu)
    reflect = uf.logical_and(uf.less(xu, 0.5), uf.less_equal(yu, _radius(z)))
    right = _loggamma_right(uf.where(reflect, uf.subtract(1.0, zu), zu))
    lsin = _log_sin_pi_upper(uf.where(reflect, zu, 0.5))
    upper = uf.where(reflect, uf.subtract(uf.subtract(_LOG_PI, lsin), right), right)
    out = uf.where(lower, uf.conjugate(upper), upper)
    out = uf.where(masked, complex(np.nan, np.nan), out)
    # At an infinity: nan + nan j, and NaN derivatives of every order from
    # (w - w) sin(w), w = z there (JAX's, where its series meets infinity); elsewhere
    # w = 1 and the term and its derivatives are finite, so no NaN reaches the
    # cotangents of other elements.
    inf = uf.logical_and(uf.isinf(z), uf.logical_not(masked))
    w = uf.where(inf, z, 1.0)
    at_inf = uf.add(complex(np.nan, np.nan), uf.multiply(uf.subtract(w, w), uf.sin(w)))
    return uf.where(inf, at_inf, out)


def _complex_gamma(z):
    masked = _poles_and_nans(z)
    out = uf.exp(_complex_loggamma(uf.where(masked, 1.0, z)))
    return uf.where(masked, complex(np.nan, np.nan), out)


# Jitted, as JAX's: an eager call runs one traced program (~200 operations) instead of
# dispatching each operation (a scalar call: 1.4 ms instead of 15 ms).
_loggamma_jit = jit(_complex_loggamma)
_gamma_jit = jit(_complex_gamma)


def complex_loggamma(z):
    """``loggamma`` of a complex array ``z`` (complex64 or complex128), same dtype."""
    return _loggamma_jit(z)


def complex_gamma(z):
    """``gamma`` of a complex array: ``exp(loggamma(z))``, ``nan + nan j`` at the poles
    (derivative 0 there and at NaNs, as JAX's)."""
    return _gamma_jit(z)


def complex_erfcx(z):
    """``erfcx`` of a complex array: ``w(i z)``, the Faddeeva function at ``i z``."""
    return sx.wofz_p.bind(ew.complex_(uf.negative(uf.imag(z)), uf.real(z)))
