"""More special-function primitives: ``polygamma(m, x)`` and ``zeta(x, q)`` (``jax.lax``'s
binary forms), and the exponential integrals ``expi``, ``expn`` and the scaled
complementary error function ``erfcx`` (the kernels of ``jax.scipy.special``).

Each is elementwise; its impl is the SciPy kernel evaluated in float64 and rounded to the
operand dtype. All rules of each primitive are in its block: the factory gives abstract_eval,
impl, batching and sharding; the JVPs are below. A derivative JAX computes but jaxlite does
not (``zeta`` with respect to ``x`` at the lax level, orders ``m``/``n``) raises
NotImplementedError when it is actually needed, never a silent zero.

Edge values are SciPy's (the mathematically right ones) where JAX's differ: ``expn(n, 0)``
is ``1/(n-1)`` (JAX: ``1/n``), ``expi(0)`` is ``-inf`` (JAX: NaN); see docs/compat.md.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops._factories import FLOAT, defjvp, defjvp2, naryop, unop
from jaxlite._src.ops.elementwise import (
    _const,
    _lax_args,
    add,
    div,
    eq,
    exp,
    lt,
    mul,
    neg,
    select_n,
    sub,
)
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


def _f64(fn):
    """A NumPy kernel computed in float64, rounded to the last operand's dtype."""

    def impl(*args):
        dt = args[-1].dtype
        with np.errstate(all="ignore"):
            out = fn(*[np.asarray(a, np.float64) for a in args])
        return np.asarray(out).astype(dt, copy=False)

    return impl


def _no_grad(name: str, arg: str):
    def rule(*_args, **_params):
        raise NotImplementedError(
            f"Differentiation of {name} with respect to {arg} is not implemented in jaxlite"
        )

    return rule


# --- polygamma(m, x) ------------------------------------------------------------------------
def _polygamma_kernel(m, x):
    integral = (m == np.floor(m)) & (m >= 0)
    safe_m = np.where(integral, m, 0)
    out = scipy.special.polygamma(safe_m.astype(np.int64), x)
    # At the poles (x a non-positive integer): inf for odd orders, NaN for even ones (JAX).
    pole = (x <= 0) & (x == np.floor(x))
    out = np.where(pole, np.where(safe_m % 2 == 1, np.inf, np.nan), out)
    return np.where(integral, out, np.nan)


polygamma_p = naryop("polygamma", _f64(_polygamma_kernel), (FLOAT, FLOAT))
defjvp(
    polygamma_p,
    _no_grad("polygamma", "m"),
    lambda t, m, x: mul(t, polygamma_p.bind(add(m, _const(m, 1)), x)),
)


# --- zeta(x, q): the Hurwitz zeta function --------------------------------------------------
zeta_p = naryop("zeta", _f64(lambda x, q: scipy.special.zeta(x, q)), (FLOAT, FLOAT))
# d/dq zeta(x, q) = -x zeta(x + 1, q)
defjvp(
    zeta_p,
    _no_grad("zeta", "x"),
    lambda t, x, q: mul(t, neg(mul(x, zeta_p.bind(add(x, _const(x, 1)), q)))),
)


# --- erfcx(x) = exp(x^2) erfc(x) ------------------------------------------------------------
erfcx_p = unop("erfcx", _f64(lambda x: scipy.special.erfcx(x)), FLOAT)
# d/dx erfcx(x) = 2 x erfcx(x) - 2 / sqrt(pi)
defjvp(
    erfcx_p,
    lambda t, x: mul(
        t, sub(mul(mul(_const(x, 2), x), erfcx_p.bind(x)), _const(x, 2 / np.sqrt(np.pi)))
    ),
)


# --- expi(x), expn(n, x); exp1 is expn(1, x) (scipy/special_more.py) ------------------------------
expi_p = unop("expi", _f64(lambda x: scipy.special.expi(x)), FLOAT)
defjvp(expi_p, lambda t, x: mul(t, div(exp(x), x)))  # d/dx Ei(x) = e^x / x


def _expn_kernel(n, x):
    integral = n == np.floor(n)
    out = scipy.special.expn(np.where(integral, n, 0).astype(np.int64), x)
    # E_0(x) = e^-x / x, as JAX computes it for x >= 0: -inf at -0.0 (SciPy: +inf), so the
    # derivative of exp1 at -0.0 is +inf.
    out = np.where((n == 0) & (x >= 0), np.exp(-x) / x, out)
    return np.where(integral, out, np.nan)


expn_p = naryop("expn", _f64(_expn_kernel), (FLOAT, FLOAT))
# d/dx E_n(x) = -E_{n-1}(x); none in n (JAX's custom_jvp takes n as a non-differentiable
# argument: its tangent is dropped)
defjvp(
    expn_p,
    None,
    lambda t, n, x: mul(t, neg(expn_p.bind(sub(n, _const(n, 1)), x))),
)


# --- ndtri(p): the inverse of the standard normal CDF --------------------------------------
# SciPy's kernel in float64: accurate in the tails, where sqrt(2) * erfinv(2p - 1) loses
# everything to the cancellation in 2p - 1 (float32 ndtri(1e-10) was -inf; it is -6.3613).
ndtri_p = unop("ndtri", _f64(lambda p: scipy.special.ndtri(p)), FLOAT)


# d/dp ndtri(p) = sqrt(2 pi) exp(ndtri(p)**2 / 2), and as JAX's (which differentiates its
# own implementation, a select among rational approximations): the tangent is dropped, not
# multiplied by 0, where ndtri is infinite (p = 0 and 1: an infinite tangent or cotangent
# gives 0 there, not NaN), and an infinite tangent elsewhere gives NaN (``t - t``: the
# intermediate products of JAX's approximations). Both are linear in ``t``, so the
# transpose does the same to cotangents.
def _ndtri_jvp(t, ans, p):
    edge = eq(mul(ans, ans), _const(p, np.inf))  # ans = +-inf (NaN stays NaN)
    scale = mul(_const(p, np.sqrt(2 * np.pi)), exp(div(mul(ans, ans), _const(p, 2))))
    scale = select_n(edge, scale, _const(p, 0))  # finite: 0 * scale in the dropped branch
    return select_n(edge, add(mul(t, scale), sub(t, t)), _const(p, 0))


defjvp2(ndtri_p, _ndtri_jvp)
rules.quiet_fp.update([polygamma_p, zeta_p, erfcx_p, expi_p, expn_p, ndtri_p])


def _check_float(name, *args):
    # lax-level: Python ints are not floats here (JAX raises for lax.polygamma(1, x)).
    for i, a in enumerate(args):
        dt = aval_of(a).dtype
        if not dtypes.is_float(dt):
            raise TypeError(
                f"{name} does not accept dtype {np.dtype(dt).name} at position {i}. "
                f"Accepted dtypes at position {i} are subtypes of floating."
            )


def polygamma(m, x):
    """``jax.lax.polygamma``: the ``m``-th derivative of the digamma function at ``x``.

    Args:
      m: the order, an array of ``x``'s float dtype holding non-negative integers (other
        values give NaN).
      x: float array.

    Returns:
      An array of the common shape and dtype; at the poles (non-positive integer ``x``)
      ``inf`` for odd orders and NaN for even ones, as in JAX.

    Raises:
      TypeError: for non-float operands or operands of different dtypes.
      NotImplementedError: when differentiated with respect to ``m``.
    """
    _check_float("polygamma", m, x)
    return polygamma_p.bind(*_lax_args(m, x))


def zeta(x, q):
    """``jax.lax.zeta``: the Hurwitz zeta function ``sum_k (k + q) ** -x``.

    Args:
      x: float array (the exponent).
      q: float array of ``x``'s dtype (the shift).

    Returns:
      An array of the common shape and dtype.

    Raises:
      TypeError: for non-float operands or operands of different dtypes.
      NotImplementedError: when differentiated with respect to ``x`` at this level
        (``jax.scipy.special.zeta`` differentiates in both arguments).
    """
    _check_float("zeta", x, q)
    return zeta_p.bind(*_lax_args(x, q))


def ndtri(p):
    """The inverse of the standard normal CDF (float ``p``; NaN outside ``[0, 1]``)."""
    return ndtri_p.bind(p)


def erfcx(x):
    """The scaled complementary error function ``exp(x**2) * erfc(x)`` (float ``x``)."""
    return erfcx_p.bind(x)


def expi(x):
    """The exponential integral ``Ei(x)`` (float ``x``)."""
    return expi_p.bind(x)


def expn(n, x):
    """The generalized exponential integral ``E_n(x)`` (``n`` of ``x``'s float dtype)."""
    return expn_p.bind(*_lax_args(n, x))
