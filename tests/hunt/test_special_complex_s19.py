"""Complex arguments of ``jax.scipy.special.loggamma``, ``gamma`` and ``erfcx``
(``jaxlite/_src/scipy/special_complex.py``), complex64 and complex128.

Against JAX 0.10.2 (``oracle.same``: values, NaN patterns, dtypes, weak types, first and
second derivatives, ``jit``/``vmap``) where JAX is accurate, and against SciPy's
``scipy.special`` values (``loggamma``, ``gamma``, ``erfcx``, ``psi``) everywhere. JAX's own
errors are the tolerances of the JAX comparisons: its complex64 ``loggamma`` is off by up to
2e-4 relative near ``z = 2`` (complex128: 1.3e-12), its ``wofz`` by 1.5e-11 in complex128.
Where JAX is wrong or limited (the ``jaxlite_only`` tests: skipped in oracle mode), the
expected values are SciPy's; docs/compat.md lists each:

* ``loggamma(x - 0j)`` on the negative real axis: JAX's upward recurrence adds ``+ 0`` to
  ``z`` and so returns the value above the cut; SciPy (and ``jnp.log``) follow the sign of
  the zero, the conjugate.
* ``loggamma(1)``, ``loggamma(2)`` in complex64: JAX ``4.8e-7``, exactly 0 here; far out on
  the negative axis JAX sums ``ceil(0.5 - Re z)`` logs in a ``while_loop`` (1% off at
  ``-1e6 + 0.5j`` in complex64, and unbounded time).
* ``gamma`` where ``sin(pi z)`` overflows (``Re z < 0.5``, ``|Im z| > ~220``, complex64
  ``> ~30``): JAX 0, the true value is representable.
* reverse-mode derivatives of ``loggamma``: JAX raises (its ``while_loop``), jaxlite's are
  the ``jvp``'s (digamma).
* ``erfcx`` at infinite parts (and ``-200.5 + 0j``): JAX ``nan``; jaxlite has SciPy's
  limits, as its ``wofz``.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.special as ss

import jaxlite
from tests.hunt.oracle import same

NAMES = ["loggamma", "gamma", "erfcx"]
NAN = complex(np.nan, np.nan)


@pytest.fixture(params=[np.complex64, np.complex128], ids=["c64", "c128"])
def dtype(request):
    x64 = request.param == np.complex128
    jaxlite.config.update("jax_enable_x64", x64)
    try:
        import jax

        jax.config.update("jax_enable_x64", x64)
    except ImportError:
        pass
    try:
        yield request.param
    finally:
        jaxlite.config.update("jax_enable_x64", False)
        try:
            import jax

            jax.config.update("jax_enable_x64", False)
        except ImportError:
            pass


def _c64(dtype):
    return dtype == np.complex64


def _grid(lo, hi, n, dtype, log=False):
    r = np.geomspace(lo, hi, n) if log else np.linspace(lo, hi, n)
    x, y = np.meshgrid(r, r)
    return (x + 1j * y).ravel().astype(dtype)


def _moderate(dtype):
    # |Re z|, |Im z| <= 12 and points near the poles, the zeros and the cut: where JAX is
    # accurate (and its recurrence short). Only +0 imaginary parts on the negative axis. Not
    # within 1e-7 of a pole or zero (the SciPy tests go there): JAX's sin(pi z) is computed
    # from the rounded pi z (complex64 gamma(-3 + 2.4e-7) is 30% off, complex128 4e-9), its
    # loggamma has an absolute error (4.8e-7 at 1 in complex64, 1e-15 in complex128).
    z = [_grid(-12.3, 12.1, 41, dtype)]
    near = np.array([-3, -2, -1, 0, 1, 2], float)
    for d in [1e-3, 0.3]:
        z.append((near + d).astype(dtype))
        z.append((near - d).astype(dtype))
        z.append((near + 1j * d).astype(dtype))
    return np.concatenate(z)


def _jax_points(dtype, name):
    z = _moderate(dtype)
    if name == "erfcx":  # where exp(-z**2) overflows JAX's wofz is NaN, SciPy's +-inf
        z = z[np.isfinite(ss.erfcx(z.astype(np.complex128)).astype(dtype))]
    return z


def _jax_tolerance(dtype, name):
    # JAX's own errors: complex64 loggamma 2e-4 near z = 2 and 4.8e-7 absolute at its zeros,
    # gamma 7e-5 at 1e-3 from a pole (sin of the rounded pi z), wofz 1.7e-5
    if _c64(dtype):
        return {"loggamma": (3e-4, 1e-6), "gamma": (1e-4, 1e-30), "erfcx": (3e-5, 1e-30)}[name]
    return 5e-12, 1e-15


EDGES = [
    0j, complex(-0.0, 0.0), complex(0.0, -0.0), -1 + 0j, -7 + 0j, complex(-7, -0.0),
    complex(np.inf, 0), complex(-np.inf, 0), complex(0, np.inf), complex(0, -np.inf),
    complex(np.inf, np.inf), complex(np.nan, 0), complex(1, np.nan), complex(np.inf, np.nan),
]  # fmt: skip


def _rel(got, want):
    got, want = np.asarray(got, complex), np.asarray(want, complex)
    return np.abs(got - want) / np.abs(want)


# --- against JAX -----------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_values_dtypes_and_weak_types_match_jax(dtype, name):
    z = _jax_points(dtype, name)
    rtol, atol = _jax_tolerance(dtype, name)
    same(lambda m: getattr(m.sp, name)(z), rtol=rtol, atol=atol)
    same(lambda m: getattr(m.sp, name)(1.5 - 2j))  # a weak complex: a strong result
    same(lambda m: getattr(m.sp, name)(m.jnp.asarray(z[:6]).reshape(2, 3)), rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", ["loggamma", "gamma"])
def test_poles_nans_and_infinities_give_nan_as_jax(dtype, name):
    z = np.array(EDGES, dtype)
    out = same(lambda m: getattr(m.sp, name)(z))
    assert np.isnan(np.asarray(out).real).all() and np.isnan(np.asarray(out).imag).all()


@pytest.mark.parametrize("name", NAMES)
def test_jit_and_vmap_match_eager_and_jax(dtype, name):
    z = _jax_points(dtype, name)[::7]
    rtol, atol = _jax_tolerance(dtype, name)
    f = lambda m: getattr(m.sp, name)  # noqa: E731
    jitted = same(lambda m: m.jx.jit(f(m))(z), rtol=rtol, atol=atol)
    mapped = same(lambda m: m.jx.vmap(f(m))(z.reshape(-1, 1)), rtol=rtol, atol=atol)
    eager = np.asarray(getattr(jaxlite.scipy.special, name)(z))
    # JAX's own jit and eager results differ (complex64 gamma: 4e-6 relative)
    np.testing.assert_allclose(np.asarray(jitted), eager, rtol=rtol, atol=atol)
    np.testing.assert_allclose(np.asarray(mapped)[:, 0], eager, rtol=rtol, atol=atol)


def _jvp_orders(m, name, z):
    f = getattr(m.sp, name)

    def d1(x):
        return m.jx.jvp(f, (x,), (m.jnp.ones_like(x),))[1]

    def d2(x):
        return m.jx.jvp(d1, (x,), (m.jnp.ones_like(x),))[1]

    return m.jx.vmap(d1)(z), m.jx.vmap(d2)(z)


@pytest.mark.parametrize("name", NAMES)
def test_forward_derivatives_match_jax(dtype, name):
    # first and second derivatives, and JAX's conventions where the value is NaN: 0 at the
    # poles and at NaN parts, NaN at infinities
    z = np.concatenate([_jax_points(dtype, name)[::5], np.array(EDGES, dtype)])
    if name == "erfcx":  # JAX's wofz is NaN at infinite parts, jaxlite's has the limits
        z = z[np.isfinite(z)]
    c64 = _c64(dtype)
    # JAX's wofz: second derivatives off by 2% (complex64) and 7.5e-9 (complex128) relative
    rtol = {"loggamma": 2e-4, "gamma": 1e-4, "erfcx": 3e-2}[name] if c64 else 2e-9
    if name == "erfcx" and not c64:
        rtol = 2e-8
    same(lambda m: _jvp_orders(m, name, z), rtol=rtol, atol=1e-5 if c64 else 1e-13)


@pytest.mark.parametrize("name", ["gamma", "erfcx"])
def test_holomorphic_grads_match_jax(dtype, name):
    z = _jax_points(dtype, name)[::9]
    rtol = (
        (1e-4 if name == "gamma" else 3e-2) if _c64(dtype) else (2e-9 if name == "gamma" else 2e-8)
    )

    def build(m):
        g = m.jx.grad(getattr(m.sp, name), holomorphic=True)
        return m.jx.vmap(g)(z), m.jx.vmap(m.jx.grad(g, holomorphic=True))(z)

    same(build, rtol=rtol, atol=1e-5 if _c64(dtype) else 1e-13)


# --- against SciPy ---------------------------------------------------------------------


def _wide(dtype):
    # large |z|, tiny |z|, both half-planes, near the negative real axis (+0 only: see the
    # signed-zero test), near the poles and the zeros 1 and 2
    big = 1e30 if _c64(dtype) else 1e300
    z = [
        _grid(1e-7, 1e3, 25, dtype, log=True),
        -_grid(1e-7, 1e3, 25, dtype, log=True),
        np.conj(_grid(1e-7, 1e3, 25, dtype, log=True)),
        -np.conj(_grid(1e-7, 1e3, 25, dtype, log=True)),
        np.array([big * (1 + 1j), big, 1j * big, -big + 1j, 1e-30 + 1e-30j], dtype),
        np.array([-1e6 + 0.5j, -200.5, -50.25 + 0.01j, 1 + 1e-6j, 2 - 1e-6j, 1.46 + 0.1j], dtype),
        (np.arange(-20, 1) + np.array([[1e-6], [-1e-6], [1e-6j]])).ravel().astype(dtype),
    ]
    return np.concatenate(z)


@pytest.mark.jaxlite_only
def test_loggamma_matches_scipy_everywhere(dtype):
    # relative to |loggamma|: complex64 within 1e-5 (the recurrence's cancellation where
    # loggamma is small), complex128 within 5e-14
    z = _wide(dtype)
    got = np.asarray(jaxlite.scipy.special.loggamma(z))
    want = ss.loggamma(z.astype(np.complex128))
    ok = np.isfinite(want)
    assert np.array_equal(np.isfinite(got), ok)
    assert _rel(got[ok], want[ok]).max() < (1e-5 if _c64(dtype) else 5e-14)
    # exact zeros at 1 and 2 (JAX's complex64: 4.8e-7)
    one_two = np.asarray(jaxlite.scipy.special.loggamma(np.array([1, 2], dtype)))
    np.testing.assert_array_equal(one_two, [0, 0])


@pytest.mark.jaxlite_only
def test_gamma_matches_scipy_where_representable(dtype):
    # gamma amplifies loggamma's absolute error by exp: |z psi(z)| of relative error, so
    # complex64 stays within |z| <= 40 here; JAX is 0 where sin(pi z) overflows
    z = _wide(dtype)
    if _c64(dtype):
        z = np.concatenate([z[np.abs(z) <= 40], np.array([-5 + 34j, -20.5 + 25j], dtype)])
    else:
        z = np.concatenate([z, np.array([-116.9 - 13.7j, -20 + 275j, -3 + 1e-300j], dtype)])
    got = np.asarray(jaxlite.scipy.special.gamma(z))
    want = ss.gamma(z.astype(np.complex128))
    tiny = np.finfo(dtype).tiny
    ok = np.isfinite(want) & (np.abs(want) > tiny * 1e3) & (np.abs(want) < 1 / tiny)
    assert _rel(got[ok], want[ok]).max() < (2e-5 if _c64(dtype) else 1e-12)
    poles = np.asarray(jaxlite.scipy.special.gamma(np.array([0, -1, -30], dtype)))
    assert np.isnan(poles.real).all() and np.isnan(poles.imag).all()


@pytest.mark.jaxlite_only
def test_erfcx_is_scipys_at_every_point(dtype):
    z = np.concatenate([_wide(dtype), np.array(EDGES, dtype), np.array([-200.5 + 0j], dtype)])
    got = np.asarray(jaxlite.scipy.special.erfcx(z))
    want = ss.erfcx(z.astype(np.complex128)).astype(dtype)
    np.testing.assert_allclose(got, want, rtol=1e-6 if _c64(dtype) else 1e-15)
    assert got.dtype == dtype


@pytest.mark.jaxlite_only
def test_loggamma_branch_cut_follows_the_sign_of_zero(dtype):
    x = np.array([-0.5, -2.5, -7.25, -1e5 - 0.5], float)
    up = np.asarray(jaxlite.scipy.special.loggamma((x + 0j).astype(dtype)))
    down = np.asarray(
        jaxlite.scipy.special.loggamma(np.array([complex(v, -0.0) for v in x], dtype))
    )
    np.testing.assert_allclose(down, np.conj(up), rtol=1e-6)
    # the imaginary part above the cut is pi * floor(x), as SciPy's
    np.testing.assert_allclose(up.imag, np.pi * np.floor(x), rtol=1e-6)
    want = ss.loggamma(np.array([complex(v, -0.0) for v in x]))
    np.testing.assert_allclose(down, want, rtol=1e-5 if _c64(dtype) else 1e-13)


@pytest.mark.jaxlite_only
def test_loggamma_far_on_the_negative_axis_is_accurate(dtype):
    # JAX sums ceil(0.5 - Re z) logs: 1% off at -1e6 + 0.5j in complex64 (and loops 1e15
    # times at -1e15); the reflection here costs the same at any |z|
    far = -4e6 - 0.5 if _c64(dtype) else -1e15 - 0.5  # representable half-integers
    z = np.array([-1e6 + 0.5j, far + 0j, -3.5e7 + 2j], dtype)
    got = np.asarray(jaxlite.scipy.special.loggamma(z))
    want = ss.loggamma(z.astype(np.complex128))
    assert _rel(got, want).max() < (1e-6 if _c64(dtype) else 1e-14)


@pytest.mark.jaxlite_only
def test_loggamma_reverse_mode_is_digamma(dtype):
    # JAX raises here (its while_loop with a dynamic trip count); psi is SciPy's
    z = _moderate(dtype)[::5]
    z = z[~((z.imag == 0) & (z.real <= 0) & (z.real == np.floor(z.real)))]
    g = jaxlite.grad(jaxlite.scipy.special.loggamma, holomorphic=True)
    got = np.asarray(jaxlite.vmap(g)(z))
    want = ss.psi(z.astype(np.complex128))
    assert _rel(got, want).max() < (2e-5 if _c64(dtype) else 1e-13)
    d1 = jaxlite.vmap(lambda x: jaxlite.jvp(jaxlite.scipy.special.loggamma, (x,), (1 + 0 * x,))[1])
    np.testing.assert_allclose(got, np.asarray(d1(z)), rtol=1e-6 if _c64(dtype) else 1e-14)
    # second order: trigamma (complex64 reflection: pi**2 / sin**2 - trigamma(1 - z) cancels)
    g2 = jaxlite.vmap(jaxlite.grad(g, holomorphic=True))(z)
    want2 = ss.polygamma(1, z.real.astype(float))  # real part only on the real axis
    real_axis = (z.imag == 0) & (z.real > 0)
    np.testing.assert_allclose(
        np.asarray(g2)[real_axis].real, want2[real_axis], rtol=1e-4 if _c64(dtype) else 1e-12
    )
    # poles and NaNs: derivative 0; infinities: NaN (JAX's forward-mode conventions)
    edges = np.asarray(jaxlite.vmap(g)(np.array([-2 + 0j, complex(np.nan, 0), np.inf], dtype)))
    assert edges[0] == 0 and edges[1] == 0 and np.isnan(edges[2])


@pytest.mark.jaxlite_only
def test_erfcx_derivative_is_closed_form(dtype):
    # d/dz erfcx(z) = 2 z erfcx(z) - 2 / sqrt(pi) (where erfcx does not overflow)
    z = _jax_points(dtype, "erfcx")[::5]
    g = jaxlite.vmap(jaxlite.grad(jaxlite.scipy.special.erfcx, holomorphic=True))(z)
    w = ss.erfcx(z.astype(np.complex128))
    want = 2 * z.astype(np.complex128) * w - 2 / np.sqrt(np.pi)
    np.testing.assert_allclose(
        np.asarray(g),
        want,
        rtol=1e-4 if _c64(dtype) else 1e-12,
        atol=1e-5 if _c64(dtype) else 1e-13,
    )
