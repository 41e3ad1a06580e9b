"""Special-function primitives behind the rest of ``jax.scipy.special``: ``dawsn``, the
Fresnel integrals, the sine/cosine integrals, ``spence``, the Faddeeva function ``wofz``,
Owen's T, the confluent and Gauss hypergeometric functions and the Bessel functions ``J_n``.

Each impl is SciPy's kernel evaluated in float64 (complex128 for ``wofz``) and rounded to
the operand dtype, so the values are accurate for every float dtype. The JVPs are the
closed forms in the differentiated argument; derivatives in a Bessel order (which JAX
computes by series) raise NotImplementedError when actually needed, never a silent zero.
``jax.scipy.special.hyp1f1``/``hyp2f1`` are ``custom_jvp`` functions over these primitives
(``scipy/special_extra.py``) with the parameter derivatives as series, so the primitives'
own parameter JVPs are reached only by binding them directly.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.ops._factories import FLOAT, INEXACT, defjvp, defjvp2, naryop, unop
from jaxlite._src.ops.elementwise import (
    _const,
    add,
    cos,
    div,
    eq,
    erf,
    exp,
    le,
    log,
    mul,
    neg,
    or_,
    select_n,
    sin,
    sub,
)
from jaxlite._src.ops.special_more import _f64, _no_grad
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


def _sp(name, index=None):
    def kernel(*args):
        out = getattr(scipy.special, name)(*args)
        return out if index is None else out[index]

    return _f64(kernel)


def _half_pi_x2(x):
    return mul(_const(x, np.pi / 2), mul(x, x))


# --- dawsn(x): D'(x) = 1 - 2 x D(x) ---------------------------------------------------------
dawsn_p = unop("dawsn", _sp("dawsn"), FLOAT)
defjvp2(dawsn_p, lambda t, ans, x: mul(t, sub(_const(x, 1), mul(_const(x, 2), mul(x, ans)))))

# --- Fresnel integrals: S'(x) = sin(pi x^2 / 2), C'(x) = cos(pi x^2 / 2) ------------------
fresnel_s_p = unop("fresnel_s", _sp("fresnel", 0), FLOAT)
defjvp(fresnel_s_p, lambda t, x: mul(t, sin(_half_pi_x2(x))))
fresnel_c_p = unop("fresnel_c", _sp("fresnel", 1), FLOAT)
defjvp(fresnel_c_p, lambda t, x: mul(t, cos(_half_pi_x2(x))))

# --- sine and cosine integrals: Si'(x) = sin(x) / x (1 at 0), Ci'(x) = cos(x) / x ----------
si_p = unop("sici_si", _sp("sici", 0), FLOAT)


def _si_jvp(t, x):
    # the masked points get a harmless operand (1), not only a masked result: a second
    # reverse derivative multiplies the masked branch's 0 cotangent by its derivative,
    # which is 0 / 0 at x = 0
    at0 = eq(x, _const(x, 0))
    xs = select_n(at0, x, _const(x, 1))
    return mul(t, select_n(at0, div(sin(xs), xs), _const(x, 1)))


defjvp(si_p, _si_jvp)
ci_p = unop("sici_ci", _sp("sici", 1), FLOAT)
defjvp(ci_p, lambda t, x: mul(t, div(cos(x), x)))


# --- spence(x) = int_1^x log(t) / (1 - t) dt: spence'(x) = log(x) / (1 - x) ---------------
# As in JAX (whose spence is piecewise, with constants for x < 0, x == 0 and x == 1), the
# derivative is 0 at x <= 0 and at x == 1.
def _spence_jvp(t, x):
    zero, one = _const(x, 0), _const(x, 1)
    flat = or_(le(x, zero), eq(x, one))
    # a harmless operand (2) where masked: log(0) and 0 / 0 there would leak NaN into a
    # second reverse derivative through the masked branch's zero cotangent (JAX gives 0)
    xs = select_n(flat, x, _const(x, 2))
    return mul(t, select_n(flat, div(log(xs), sub(one, xs)), zero))


spence_p = unop("spence", _sp("spence"), FLOAT)
defjvp(spence_p, _spence_jvp)


# --- wofz(z) = exp(-z^2) erfc(-i z): w'(z) = 2i / sqrt(pi) - 2 z w(z) ----------------------
def _wofz_impl(z):
    with np.errstate(all="ignore"):
        return scipy.special.wofz(np.asarray(z, np.complex128)).astype(z.dtype, copy=False)


wofz_p = unop("wofz", _wofz_impl, INEXACT)
defjvp2(
    wofz_p,
    lambda t, ans, z: mul(t, sub(_const(z, 2j / np.sqrt(np.pi)), mul(_const(z, 2), mul(z, ans)))),
)


# --- Owen's T(h, a) -------------------------------------------------------------------------
def _owens_t_dh(t, h, a):
    # dT/dh = -phi(h) erf(a h / sqrt 2) / 2
    phi = mul(_const(h, 1 / np.sqrt(2 * np.pi)), exp(neg(div(mul(h, h), _const(h, 2)))))
    return mul(
        t, neg(mul(mul(phi, erf(mul(mul(a, h), _const(h, 1 / np.sqrt(2))))), _const(h, 0.5)))
    )


def _owens_t_da(t, h, a):
    # dT/da = exp(-h^2 (1 + a^2) / 2) / (2 pi (1 + a^2))
    q = add(_const(a, 1), mul(a, a))
    return mul(t, div(exp(neg(div(mul(mul(h, h), q), _const(a, 2)))), mul(_const(a, 2 * np.pi), q)))


owens_t_p = naryop("owens_t", _sp("owens_t"), (FLOAT, FLOAT))
defjvp(owens_t_p, _owens_t_dh, _owens_t_da)


# --- hypergeometric functions: derivatives in x only ----------------------------------------
hyp1f1_p = naryop("hyp1f1", _sp("hyp1f1"), (FLOAT, FLOAT, FLOAT))
# d/dx 1F1(a; b; x) = a / b 1F1(a + 1; b + 1; x)
defjvp(
    hyp1f1_p,
    _no_grad("hyp1f1", "a"),
    _no_grad("hyp1f1", "b"),
    lambda t, a, b, x: mul(
        t, mul(div(a, b), hyp1f1_p.bind(add(a, _const(a, 1)), add(b, _const(b, 1)), x))
    ),
)
hyp2f1_p = naryop("hyp2f1", _sp("hyp2f1"), (FLOAT, FLOAT, FLOAT, FLOAT))


# d/dx 2F1(a, b; c; x) = a b / c 2F1(a + 1, b + 1; c + 1; x)
def _hyp2f1_dx(t, a, b, c, x):
    one = _const(a, 1)
    up = hyp2f1_p.bind(add(a, one), add(b, one), add(c, one), x)
    return mul(t, mul(div(mul(a, b), c), up))


defjvp(
    hyp2f1_p,
    _no_grad("hyp2f1", "a"),
    _no_grad("hyp2f1", "b"),
    _no_grad("hyp2f1", "c"),
    _hyp2f1_dx,
)

# --- Bessel J_v(z): J_v' = (J_{v-1} - J_{v+1}) / 2 -----------------------------------------
jv_p = naryop("bessel_jv", _sp("jv"), (FLOAT, FLOAT))
defjvp(
    jv_p,
    _no_grad("bessel_jn", "the order v"),
    lambda t, v, z: mul(
        t,
        mul(
            _const(z, 0.5),
            sub(jv_p.bind(sub(v, _const(v, 1)), z), jv_p.bind(add(v, _const(v, 1)), z)),
        ),
    ),
)


# --- sph_harm_y(n, m, theta, phi): spherical harmonics, complex, not differentiated ---------
def _sph_harm_y_impl(n, m, theta, phi):
    with np.errstate(all="ignore"):
        out = scipy.special.sph_harm_y(n, m, theta.astype(np.float64), phi.astype(np.float64))
    return np.asarray(out).astype(dtypes.to_complex_dtype(theta.dtype), copy=False)


sph_harm_y_p = naryop(
    "sph_harm_y",
    _sph_harm_y_impl,
    ("i", "i", FLOAT, FLOAT),
    out_dtype=lambda n, m, theta, phi: dtypes.to_complex_dtype(theta),
    require_same_dtype=False,
)
defjvp(sph_harm_y_p, *[_no_grad("sph_harm_y", arg) for arg in ("n", "m", "theta", "phi")])

rules.quiet_fp.update(
    [dawsn_p, fresnel_s_p, fresnel_c_p, si_p, ci_p, spence_p, wofz_p, owens_t_p]
    + [hyp1f1_p, hyp2f1_p, jv_p]
)
