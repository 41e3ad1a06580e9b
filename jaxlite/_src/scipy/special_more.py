"""More of ``jax.scipy.special``: ``polygamma``, ``zeta``, ``beta``, ``factorial``, ``comb``,
``poch``, ``loggamma``, ``erfcx``, ``expi``, ``exp1``, ``expn``, ``bernoulli``.

Compositions of ``jax.numpy`` functions and the elementwise primitives of
``ops/special_more.py`` and ``ops/elementwise.py``. ``zeta`` differentiates in both
arguments, as JAX's: its JVP is that of the Euler-Maclaurin form of the Hurwitz zeta
function (Johansson 2015, eq. 5), the value SciPy's.
"""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.api import jvp as _jvp
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import asarray
from jaxlite._src.numpy.shape import expand_dims
from jaxlite._src.numpy.ufuncs import divide, exp, multiply, where
from jaxlite._src.numpy.util import promote_args_inexact
from jaxlite._src.ops import elementwise as ew, special_more as sm
from jaxlite._src.scipy import special_complex
from jaxlite._src.scipy.special import betaln, digamma, gamma, gammaln, gammasgn
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


def _real1(name, x, what=None):
    (x,) = promote_args_inexact(name, x)
    if dtypes.is_complex(x.dtype):
        raise ValueError(what or f"{name} does not support complex-valued inputs.")
    return x


def _strong(x):
    # JAX's implementations of these mix in strongly typed constants: the result is strong.
    return x.astype(x.dtype)


def _real2(name, a, b):
    a, b = promote_args_inexact(name, a, b)
    if dtypes.is_complex(a.dtype):
        raise ValueError(f"{name} does not support complex-valued inputs.")
    return a, b


def _vectorized(*args):
    """JAX's ``hyp1f1`` / ``hyp2f1`` / ``expn`` run under ``jnp.vectorize``, which makes
    arrays of its arguments: a list or tuple operand is taken (not refused)."""
    return tuple(asarray(x) if isinstance(x, (list, tuple)) else x for x in args)


def polygamma(n, x):
    """The ``n``-th derivative of the digamma function (``jax.scipy.special.polygamma``).

    Args:
      n: integer array of orders (non-negative; others give NaN).
      x: real array.

    Returns:
      An array of the promoted inexact dtype; ``inf`` (odd ``n``) or NaN (even ``n``) at the
      poles ``x = 0, -1, -2, ...``. Differentiable in ``x``.

    Raises:
      ValueError: if ``n`` is not of integer dtype, or for complex ``x``.
    """
    n_dtype = dtypes.dtype_and_weak_type(n)[0]
    if not dtypes.issubdtype(n_dtype, np.integer):
        raise ValueError(f"Argument `n` to polygamma must be of integer type. Got dtype {n_dtype}.")
    n_arr, x_arr = _real2("polygamma", n, x)
    return sm.polygamma(n_arr, x_arr)


def _zeta_series(s, a):
    # zeta(s, a) = sum_{k<N} (a+k)^-s + (a+N)^(1-s)/(s-1)
    #            + (a+N)^-s (1/2 + sum_{j=1..M} B_2j/(2j)! (s)_(2j-1) / (a+N)^(2j-1))
    # The constants are NumPy scalars and arrays (strongly typed), as in JAX's series, so the
    # derivatives' weak types are JAX's: strong tangents, a weak argument's gradient weak.
    dt = a.dtype
    n_terms = dt.type(8 if dt == np.float32 else 16)
    one = dt.type(1)
    k = np.arange(int(n_terms), dtype=dt)
    head = reductions.sum((expand_dims(a, -1) + k) ** -expand_dims(s, -1), axis=-1)
    aN = a + n_terms
    tail = aN ** (one - s) / (s - one)
    n_terms = int(n_terms)
    j = np.arange(1, n_terms + 1)
    bernoulli = scipy.special.bernoulli(2 * n_terms)[2 * j]
    coefs = (bernoulli / scipy.special.factorial(2 * j)).astype(dt)
    # (s)_(2j-1) / (a+N)^(2j-1): the running product of (s + i) / (a + N), odd terms.
    i = np.arange(2 * n_terms, dtype=dt)
    ratios = (expand_dims(s, -1) + i) / expand_dims(aN, -1)
    prods = reductions.cumprod(ratios, axis=-1)[..., ::2]
    corr = aN**-s * (dt.type(0.5) + reductions.sum(prods * coefs, axis=-1))
    return head + tail + corr


@custom_jvp
def _zeta(x, q):
    return sm.zeta(x, q)


@_zeta.defjvp
def _zeta_jvp(primals, tangents):
    x, q = primals
    _, t = _jvp(_zeta_series, (x, q), tangents)
    # JAX's rule is the JVP of the series, whose primal is strongly typed; the value here is
    # SciPy's (the series agrees to float rounding).
    return _strong(_zeta(x, q)), t


def zeta(x, q=None):
    """The Hurwitz zeta function ``sum_k (k + q) ** -x`` (``jax.scipy.special.zeta``).

    Args:
      x: real array (the exponent).
      q: real array (the shift); required.

    Returns:
      An array of the promoted inexact dtype; differentiable in ``x`` and ``q``.

    Raises:
      NotImplementedError: for ``q=None`` (the Riemann zeta function), as in JAX.
    """
    if q is None:
        raise NotImplementedError(
            "Riemann zeta function not implemented; pass q != None to compute the Hurwitz "
            "Zeta function."
        )
    x, q = promote_args_inexact("zeta", x, q)
    return _zeta(x, q)


def loggamma(x):
    """The principal branch of the log of the gamma function
    (``jax.scipy.special.loggamma``).

    Args:
      x: real or complex array.

    Returns:
      For real ``x``: ``gammaln(x)`` where ``x > 0``, NaN elsewhere. For complex ``x``: the
      analytic continuation of the real branch with one cut on the negative real axis (the
      sign of a zero imaginary part picks the side, as SciPy's); ``nan + nan j`` at the
      poles and for non-finite parts (``scipy/special_complex.py``).
    """
    (x,) = promote_args_inexact("loggamma", x)
    if dtypes.is_complex(x.dtype):
        return _strong(special_complex.complex_loggamma(x))
    return where(x > 0, ew.lgamma(x), np.nan)


def beta(a, b):
    """The beta function ``Gamma(a) Gamma(b) / Gamma(a + b)`` (``jax.scipy.special.beta``).

    Args:
      a: real array.
      b: real array.

    Returns:
      An array of the promoted inexact dtype, signed (negative arguments allowed).

    Raises:
      ValueError: for complex input.
    """
    a, b = _real2("beta", a, b)
    sign = gammasgn(a) * gammasgn(b) * gammasgn(a + b)
    return sign * exp(betaln(a, b))


def factorial(n, exact: bool = False):
    """``n!`` as ``Gamma(n + 1)``, 0 for negative ``n`` (``jax.scipy.special.factorial``).

    Args:
      n: real array.
      exact: must be False (exact integer factorials are not supported, as in JAX).

    Returns:
      An array of the promoted inexact dtype.

    Raises:
      NotImplementedError: for ``exact=True``.
    """
    if exact:
        raise NotImplementedError("factorial with exact=True")
    (n,) = promote_args_inexact("factorial", n)
    return where(n < 0, 0, exp(ew.lgamma(n + 1)))


def comb(N, k, *, repetition: bool = False):
    """The number of combinations of ``N`` things taken ``k`` at a time
    (``jax.scipy.special.comb``), through the gamma function (real ``N``, ``k`` allowed).

    Args:
      N: real array.
      k: real array.
      repetition: count combinations with repetition (``comb(N + k - 1, k)``).

    Returns:
      An array of the promoted inexact dtype; 0 where ``k > N``, ``N < 0`` or ``k < 0``.
    """
    N, k = promote_args_inexact("comb", N, k)
    if repetition:
        return where((k == 0) & (N >= 0), 1.0, comb(N + k - 1, k))
    ok = (k <= N) & (N >= 0) & (k >= 0)
    sN, sk = where(ok, N, 0.0), where(ok, k, 0.0)
    return where(ok, exp(gammaln(sN + 1) - gammaln(sk + 1) - gammaln(sN + 1 - sk)), 0.0)


@custom_jvp
def _poch(z, m):
    return where(m == 0.0, asarray(1, z.dtype), gamma(z + m) / gamma(z))


@_poch.defjvp
def _poch_jvp(primals, tangents):
    (z, m), (tz, tm) = primals, tangents
    out = _poch(z, m)
    dz = (digamma(z + m) - digamma(z)) * out
    dm = digamma(z + m) * out
    return out, dz * tz + dm * tm


def poch(z, m):
    """The Pochhammer symbol ``Gamma(z + m) / Gamma(z)`` (``jax.scipy.special.poch``).

    Args:
      z: real array.
      m: real array.

    Returns:
      An array of the promoted inexact dtype; 1 where ``m == 0``.

    Raises:
      ValueError: for complex input.
    """
    z, m = promote_args_inexact("poch", z, m)
    if dtypes.is_complex(z.dtype):
        raise ValueError("jnp.poch does not support complex-valued inputs.")
    return _poch(z, m)


def erfcx(x):
    """The scaled complementary error function ``exp(x**2) erfc(x)``
    (``jax.scipy.special.erfcx``).

    Args:
      x: real or complex array; complex ``x`` gives the Faddeeva function ``wofz(1j * x)``.
    """
    (x,) = promote_args_inexact("erfcx", x)
    if dtypes.is_complex(x.dtype):
        return _strong(special_complex.complex_erfcx(x))
    return _strong(sm.erfcx(x))


# expi, exp1 and expn are custom_jvp functions, as JAX's: the primal is cast to a strong
# type but the tangent is the rule's formula, so a weak argument's JVP tangent is weak and
# its gradient strong (a cast on the tangent path made them the other way round).
@custom_jvp
def _expi(x):
    return _strong(sm.expi(x))


@_expi.defjvp
def _expi_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _expi(x), multiply(divide(exp(x), x), t)


@custom_jvp
def _expn(n, x):
    # The arguments are promoted inside, as JAX's: a weak x next to a strong n keeps its
    # weak type outside (its gradient is strong, not converted back to weak).
    n, x = _real2("expn", n, x)
    return _strong(sm.expn(n, x))


@_expn.defjvp
def _expn_jvp(primals, tangents):
    # d/dx E_n(x) = -E_{n-1}(x); none in n (JAX's n is a non-differentiable argument).
    (n, x), (_, t) = primals, tangents
    n, _ = _real2("expn", n, x)
    return _expn(n, x), ew.mul(ew.neg(t), _expn(ew.sub(n, ew._const(n, 1)), x))


def expi(x):
    """The exponential integral ``Ei(x)`` (``jax.scipy.special.expi``).

    Returns:
      An array of the promoted inexact dtype (``Ei(0) = -inf``; JAX gives NaN there).

    Raises:
      ValueError: for complex input.
    """
    return _expi(_real1("expi", x))


def exp1(x):
    """The exponential integral ``E1(x)`` (``jax.scipy.special.exp1``); NaN for ``x < 0``.

    As in JAX it is ``expn(1, x)``, so its derivative is ``-expn(0, x)``.

    Raises:
      ValueError: for complex input.
    """
    x = _real1("exp1", x)
    return _expn(ew._const(x, 1), x)


def expn(n, x):
    """The generalized exponential integral ``E_n(x)`` (``jax.scipy.special.expn``).

    Args:
      n: the order (integer-valued; other values give NaN); not differentiable.
      x: real array.

    Returns:
      An array of the promoted inexact dtype; NaN for ``n < 0`` or ``x < 0``, ``inf`` at
      ``x = 0`` for ``n < 2``, ``1 / (n - 1)`` at ``x = 0`` otherwise (JAX gives ``1/n``).

    Raises:
      ValueError: for complex input.
    """
    n, x = _vectorized(n, x)
    _real2("expn", n, x)  # JAX's errors before any tracing
    return _expn(n, x)


def bernoulli(n: int):
    """The Bernoulli numbers ``B_0 .. B_n`` (``B_1 = -1/2``; ``jax.scipy.special.bernoulli``).

    Args:
      n: a static non-negative integer.

    Returns:
      A 1-D array of length ``n + 1`` of the default float dtype.

    Raises:
      ValueError: for negative ``n``.
      ConcretizationTypeError: for a traced ``n``.
    """
    if isinstance(n, Tracer):
        value = n.to_concrete_value()
        if value is None:
            raise ConcretizationTypeError(n, "Argument n of bernoulli")
        n = value
    n = operator.index(n)
    if n < 0:
        raise ValueError("n must be a non-negative integer.")
    return asarray(scipy.special.bernoulli(n)[: n + 1], dtypes.default_float_dtype())
