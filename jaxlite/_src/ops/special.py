"""Special-function primitives: incomplete gamma and beta, scaled Bessel functions, log_ndtr.

``xlogy`` and ``xlog1py`` are here too: JAX defines them with a custom JVP, so their
derivative convention is not that of their composition. The value is 0 where ``x == 0``; the
derivative is the plain formula everywhere (``d/dx = log(y)``, ``d/dy = x / y``), so at
``(0, 0)`` it is ``(-inf, nan)`` as in JAX.

Each is an elementwise primitive whose impl is the SciPy kernel in the operand dtype, with
JVP rules for the arguments JAX differentiates. A derivative JAX computes but jaxlite does
not raises NotImplementedError when it is actually needed, never a silent zero; JAX itself
refuses ``betainc``'s derivative in ``a``/``b`` (ValueError, as here). ``igamma``'s
derivative in ``a`` is ``igamma_grad_a``, a numerical derivative of SciPy's kernel in
float64.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.ops._factories import FLOAT, INEXACT, defjvp, defjvp2, naryop, unop
from jaxlite._src.ops.conversion import convert_element_type
from jaxlite._src.ops.elementwise import (
    _const,
    _lax_args,
    abs as _abs,
    add,
    div,
    exp,
    gt,
    lgamma,
    log,
    log1p,
    mul,
    neg,
    select_n,
    sign,
    sub,
)
from jaxlite._src.ops.structural import instantiate
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


def _in_dtype(name):
    """The impl computing ``scipy.special.<name>`` in the last operand's dtype. The function
    is looked up at the call, so that importing jaxlite does not import scipy.special."""

    def impl(*args):
        fn = getattr(scipy.special, name)
        return np.asarray(fn(*args)).astype(args[-1].dtype, copy=False)

    return impl


def _no_grad(name: str, arg: str):
    def rule(*_args, **_params):
        raise NotImplementedError(
            f"Differentiation of {name} with respect to {arg} is not implemented in jaxlite"
        )

    return rule


# igamma(a, x): regularized lower incomplete gamma P(a, x); igammac = 1 - P.
def _igamma_dx(t, a, x):
    # d/dx P(a, x) = exp(-x) x^(a-1) / Gamma(a)
    return mul(t, exp(sub(sub(mul(sub(a, _const(a, 1)), log(x)), x), lgamma(a))))


def _igamma_da_kernel(a, x):
    """d/da P(a, x) in float64: Richardson-extrapolated central differences (step
    2e-3 * min(a, 1)) of SciPy's gammainc where P < 1/2, of -gammaincc elsewhere, so the
    difference is never taken of values near 1 (error ~1e-9 relative; NaN for a <= 0, at
    x == 0 too, as JAX's)."""
    a, x = np.asarray(a, np.float64), np.asarray(x, np.float64)
    h = 2e-3 * np.minimum(np.where(a > 0, a, np.nan), 1.0)
    with np.errstate(all="ignore"):
        lower = scipy.special.gammainc(a, x) < 0.5
        sp = scipy.special

        def central(step):
            up = np.where(lower, sp.gammainc(a + step, x), -sp.gammaincc(a + step, x))
            down = np.where(lower, sp.gammainc(a - step, x), -sp.gammaincc(a - step, x))
            return (up - down) / (2 * step)

        d = (4 * central(h / 2) - central(h)) / 3
        d = np.where(((x == 0) | (x == np.inf)) & (a > 0), 0.0, d)
    return np.asarray(d)


def _igamma_da_impl(a, x):
    return _igamma_da_kernel(a, x).astype(x.dtype, copy=False)


igamma_grad_a_p = naryop("igamma_grad_a", _igamma_da_impl, (FLOAT, FLOAT))
defjvp(igamma_grad_a_p, _no_grad("igamma_grad_a", "a"), _no_grad("igamma_grad_a", "x"))


# random_gamma_grad(a, x) = G = -P_a(a, x) / p(a, x): d sample / d a of a Gamma(a, 1) sample
# x (implicit reparameterization; p is the density). Its partials, for the second and third
# derivatives of gamma samples (JAX differentiates its series), with psi the digamma,
# L = log x - psi(a) (= p_a / p) and r = (a - 1) / x - 1 (= p_x / p):
#   G_x = -L - G r                      G_a = -P_aa / p - G L
#   G_xx = -1 / x - G_x r + G (a - 1) / x**2
#   G_ax = psi'(a) - G_a r - G / x
#   G_aa = -P_aaa / p - 2 G_a L - G L**2 + G psi'(a)
# (P_aa, P_aaa by central differences of SciPy's P in float64). As JAX: G is NaN for x < 0
# or a <= 0 (or NaN) and 0 at x == 0 otherwise, constants with zero derivatives. The
# second partials' own derivatives are not written (NotImplementedError).
def _gamma_grad_parts(a, x):
    a, x = np.asarray(a, np.float64), np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        log_p = (a - 1) * np.log(x) - x - scipy.special.gammaln(a)
        g = -_igamma_da_kernel(a, x) / np.exp(log_p)
        g = np.where((x == 0) & (a > 0), 0.0, np.where((x < 0) | ~(a > 0), np.nan, g))
    return a, x, g, (x > 0) & (a > 0) & np.isfinite(g)


def _p_differences(a, x, order):
    """The ``order``-th derivative in ``a`` (2 or 3) of P(a, x) in float64: Richardson-
    extrapolated central differences (step ~1e-2 * min(a, 1)) of SciPy's gammainc where
    P < 1/2, of -gammaincc elsewhere (as ``_igamma_da_kernel``)."""
    sp = scipy.special
    h = 2e-2 * np.minimum(np.where(a > 0, a, np.nan), 1.0)
    lower = sp.gammainc(a, x) < 0.5

    def p_at(s):
        return np.where(lower, sp.gammainc(a + s, x), -sp.gammaincc(a + s, x))

    if order == 2:

        def diff(s):
            return (_igamma_da_kernel(a + s, x) - _igamma_da_kernel(a - s, x)) / (2 * s)

        return (4 * diff(h / 4) - diff(h / 2)) / 3

    def diff(s):
        return (p_at(2 * s) - 2 * p_at(s) + 2 * p_at(-s) - p_at(-2 * s)) / (2 * s**3)

    return (4 * diff(h / 2) - diff(h)) / 3


def _gamma_grad_partials(a, x, with_ga=True):
    """float64 (a, x, G, ok, L, r, G_x, G_a, log p); G_a (differences of SciPy's P, the
    costly part) is None unless ``with_ga``."""
    a, x, g, ok = _gamma_grad_parts(a, x)
    with np.errstate(all="ignore"):
        log_p = (a - 1) * np.log(x) - x - scipy.special.gammaln(a)
        lg = np.log(x) - scipy.special.digamma(a)
        r = (a - 1) / x - 1
        gx = -lg - g * r
        ga = -_p_differences(a, x, 2) / np.exp(log_p) - g * lg if with_ga else None
    return a, x, g, ok, lg, r, gx, ga, log_p


def _gamma_grad_impl(a, x):
    return _gamma_grad_parts(a, x)[2].astype(x.dtype, copy=False)


def _gamma_grad_dx_impl(a, x):
    p = _gamma_grad_partials(a, x, with_ga=False)
    return np.where(p[3], p[6], 0.0).astype(x.dtype, copy=False)


def _gamma_grad_da_impl(a, x):
    p = _gamma_grad_partials(a, x)
    return np.where(p[3], p[7], 0.0).astype(x.dtype, copy=False)


def _gamma_grad_d2_impl(a, x, *, wrt):
    dt = x.dtype
    a, x, g, ok, lg, r, gx, ga, log_p = _gamma_grad_partials(a, x, with_ga=wrt != "xx")
    with np.errstate(all="ignore"):
        if wrt == "xx":
            d = -1 / x - gx * r + g * (a - 1) / x**2
        elif wrt == "ax":
            d = scipy.special.polygamma(1, a) - ga * r - g / x
        else:
            d = (
                -_p_differences(a, x, 3) / np.exp(log_p)
                - 2 * ga * lg
                - g * lg**2
                + g * scipy.special.polygamma(1, a)
            )
    return np.where(ok, d, 0.0).astype(dt, copy=False)


random_gamma_grad_p = naryop("random_gamma_grad", _gamma_grad_impl, (FLOAT, FLOAT))
_gamma_grad_da_p = naryop("random_gamma_grad_da", _gamma_grad_da_impl, (FLOAT, FLOAT))
_gamma_grad_dx_p = naryop("random_gamma_grad_dx", _gamma_grad_dx_impl, (FLOAT, FLOAT))
_gamma_grad_d2_p = naryop("random_gamma_grad_d2", _gamma_grad_d2_impl, (FLOAT, FLOAT))
for _p in (random_gamma_grad_p, _gamma_grad_da_p, _gamma_grad_dx_p, _gamma_grad_d2_p):
    rules.quiet_fp.add(_p)
defjvp(
    _gamma_grad_d2_p,
    _no_grad(_gamma_grad_d2_p.name, "a"),
    _no_grad(_gamma_grad_d2_p.name, "x"),
)


def _d2(wrt):
    return lambda t, a, x: mul(t, _gamma_grad_d2_p.bind(a, x, wrt=wrt))


defjvp(_gamma_grad_da_p, _d2("aa"), _d2("ax"))
defjvp(_gamma_grad_dx_p, _d2("ax"), _d2("xx"))
defjvp(
    random_gamma_grad_p,
    lambda t, a, x: mul(t, _gamma_grad_da_p.bind(a, x)),
    lambda t, a, x: mul(t, _gamma_grad_dx_p.bind(a, x)),
)


def _igamma_da(t, a, x):
    return mul(t, igamma_grad_a_p.bind(a, x))


igamma_p = naryop("igamma", _in_dtype("gammainc"), (FLOAT, FLOAT))
defjvp(igamma_p, _igamma_da, _igamma_dx)
igammac_p = naryop("igammac", _in_dtype("gammaincc"), (FLOAT, FLOAT))
defjvp(
    igammac_p, lambda t, a, x: neg(_igamma_da(t, a, x)), lambda t, a, x: neg(_igamma_dx(t, a, x))
)


def _betainc_shape_grad(*_args, **_params):
    raise ValueError("Betainc gradient with respect to a and b not supported.")


def _betainc_dx(t, a, b, x):
    # d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b)
    one = _const(a, 1)
    log_beta = sub(add(lgamma(a), lgamma(b)), lgamma(add(a, b)))
    logd = add(mul(sub(a, one), log(x)), mul(sub(b, one), log1p(neg(x))))
    return mul(t, exp(sub(logd, log_beta)))


regularized_incomplete_beta_p = naryop(
    "regularized_incomplete_beta", _in_dtype("betainc"), (FLOAT, FLOAT, FLOAT)
)
defjvp(
    regularized_incomplete_beta_p,
    _betainc_shape_grad,
    _betainc_shape_grad,
    _betainc_dx,
)

bessel_i0e_p = unop("bessel_i0e", _in_dtype("i0e"), FLOAT)
bessel_i1e_p = unop("bessel_i1e", _in_dtype("i1e"), FLOAT)
# i0e(x) = exp(-|x|) I0(x): d/dx = i1e(x) - sign(x) i0e(x)
defjvp2(bessel_i0e_p, lambda t, ans, x: mul(t, sub(bessel_i1e(x), mul(sign(x), ans))))


def _bessel_i1e_jvp(t, ans, x):
    # d/dx i1e(x) = i0e(x) - i1e(x) (sign(x) + 1/x), with the limit 1/2 at x = 0.
    eps = float(dtypes.finfo(aval_of(x).dtype).eps)
    not_tiny = gt(_abs(x), _const(x, eps))
    safe_x = select_n(not_tiny, _const(x, eps), x)
    d = sub(
        bessel_i0e(safe_x), mul(bessel_i1e(safe_x), add(sign(safe_x), div(_const(x, 1), safe_x)))
    )
    return mul(t, select_n(not_tiny, _const(x, 0.5), d))


defjvp2(bessel_i1e_p, _bessel_i1e_jvp)

# log of the standard normal CDF, accurate in both tails (SciPy's kernel).
log_ndtr_p = unop("log_ndtr", _in_dtype("log_ndtr"), FLOAT)
# d/dx log ndtr(x) = phi(x) / ndtr(x) = exp(-x^2/2 - log_ndtr(x)) / sqrt(2 pi)
defjvp2(
    log_ndtr_p,
    lambda t, ans, x: mul(
        t,
        mul(_const(x, 1 / np.sqrt(2 * np.pi)), exp(sub(mul(_const(x, -0.5), mul(x, x)), ans))),
    ),
)

rules.quiet_fp.update(
    [igamma_p, igammac_p, igamma_grad_a_p, regularized_incomplete_beta_p, log_ndtr_p]
)


def igamma(a, x):
    """``jax.lax.igamma``: the regularized lower incomplete gamma function ``P(a, x)``."""
    return igamma_p.bind(*_lax_args(a, x))


def igammac(a, x):
    """``jax.lax.igammac``: the regularized upper incomplete gamma function ``Q(a, x)``."""
    return igammac_p.bind(*_lax_args(a, x))


def igamma_grad_a(a, x):
    """``jax.lax.igamma_grad_a``: the derivative ``d/da P(a, x)`` of the regularized lower
    incomplete gamma function (float operands of one dtype; NaN for ``a <= 0``)."""
    return igamma_grad_a_p.bind(*_lax_args(a, x))


def random_gamma_grad(a, x):
    """``jax.lax.random_gamma_grad``: ``d x / d a`` of a Gamma(a, 1) sample ``x`` by implicit
    reparameterization, ``-(dP/da) / (dP/dx)`` with ``P`` the Gamma CDF."""
    return random_gamma_grad_p.bind(*_lax_args(a, x))


def betainc(a, b, x):
    """``jax.lax.betainc``: the regularized incomplete beta function ``I_x(a, b)``."""
    return regularized_incomplete_beta_p.bind(*_lax_args(a, b, x))


def bessel_i0e(x):
    """``jax.lax.bessel_i0e``: the exponentially scaled modified Bessel function of order 0."""
    return bessel_i0e_p.bind(x)


def bessel_i1e(x):
    """``jax.lax.bessel_i1e``: the exponentially scaled modified Bessel function of order 1."""
    return bessel_i1e_p.bind(x)


def log_ndtr(x):
    """The log of the standard normal CDF (``jax.scipy.special.log_ndtr``'s kernel)."""
    return log_ndtr_p.bind(x)


# xlogy / xlog1py ----------------------------------------------------------------------
def _xlogy_impl(x, y):
    # NaN in y propagates even where x == 0 (as JAX and SciPy).
    out = np.where((x == 0) & ~np.isnan(y), np.zeros((), x.dtype), x * np.log(y))
    return out.astype(x.dtype, copy=False)


def _xlog1py_impl(x, y):
    out = np.where((x == 0) & ~np.isnan(y), np.zeros((), x.dtype), x * np.log1p(y))
    return out.astype(x.dtype, copy=False)


# Complex operands are accepted, as JAX (log of a complex number; the same JVP).
xlogy_p = naryop("xlogy", _xlogy_impl, [INEXACT, INEXACT])


def _instantiating_jvp(prim, d_dx, y_term):
    """The JVP of a binary ``prim`` that JAX defines with a custom JVP, which instantiates
    zero tangents: ``tx * d_dx(x, y) + y_term(ty, x, y)`` in full (NaN where a partial
    derivative is, even if that operand is fixed), in JAX's order of operations, cast to
    the result's dtype (strongly typed, as JAX's ``astype``)."""

    def jvp(primals, tangents):
        x, y = primals
        out = prim.bind(x, y)
        tx, ty = tangents
        if type(tx) is Zero and type(ty) is Zero:
            return out, Zero(aval_of(out).to_tangent_aval())
        tx, ty = instantiate(tx), instantiate(ty)
        t = add(mul(tx, d_dx(x, y)), y_term(ty, x, y))
        return out, convert_element_type(t, aval_of(out).dtype)

    return jvp


rules.jvp_rules[xlogy_p] = _instantiating_jvp(
    xlogy_p, lambda x, y: log(y), lambda ty, x, y: div(mul(ty, x), y)
)

xlog1py_p = naryop("xlog1py", _xlog1py_impl, [INEXACT, INEXACT])
rules.jvp_rules[xlog1py_p] = _instantiating_jvp(
    xlog1py_p, lambda x, y: log1p(y), lambda ty, x, y: div(mul(ty, x), add(_const(y, 1), y))
)

rules.quiet_fp.update([xlogy_p, xlog1py_p])


def xlogy(x, y):
    """``x * log(y)``, 0 where ``x == 0`` (operands of one inexact dtype)."""
    return xlogy_p.bind(*_lax_args(x, y))


def xlog1py(x, y):
    """``x * log1p(y)``, 0 where ``x == 0`` (operands of one inexact dtype)."""
    return xlog1py_p.bind(*_lax_args(x, y))
