"""The rest of ``jax.scipy.special`` (dawsn, fresnel, sici, spence, wofz, boxcox, boxcox1p,
owens_t, hyp1f1, hyp2f1, bessel_jn, sph_harm_y) against real JAX 0.10.2 on a grid with the
edge values, values and derivatives. Where JAX's values are wrong (hyp2f1 near and beyond
the unit interval, wofz at +-inf, bessel_jn in float32), the expected values are
mpmath/SciPy's, and docs/compat.md lists the row."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.special as js  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.scipy.special as ls  # noqa: E402

X = np.array(
    [-np.inf, -5.0, -2.0, -0.5, -0.0, 0.0, 0.3, 0.5, 1.0, 1.5, 3.0, 10.0, np.inf, np.nan],
    np.float32,
)
FINITE = X[np.isfinite(X)]


def _leaves(tree):
    return [np.asarray(t) for t in jax.tree_util.tree_leaves(tree)]


def _same(got, want, rtol=3e-5):
    got, want = _leaves(got), _leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-6)


@pytest.mark.parametrize("name", ["dawsn", "fresnel", "sici", "spence"])
def test_unary_values_and_derivatives_match_jax(name):
    fj, fl = getattr(js, name), getattr(ls, name)
    _same(fl(X), fj(X))
    _same(jaxlite.jit(fl)(X), fj(X))
    x = FINITE[np.abs(FINITE) < 5] if name == "fresnel" else FINITE
    if name == "spence":
        x = x[x != 1.5]  # JAX's derivative is NaN at its branch point 1.5 (jaxlite: log(x)/(1-x))
    for k in range(len(jax.tree_util.tree_leaves(fj(x[:1])))):

        def part(m, f):
            return lambda t: m.tree_util.tree_leaves(f(t))[k]

        _same(
            jaxlite.vmap(jaxlite.grad(part(jaxlite, fl)))(x), jax.vmap(jax.grad(part(jax, fj)))(x)
        )


def test_wofz_matches_jax_for_complex_and_finite_real_input():
    z = np.array([0.5 + 1j, -1 + 0.2j, 2j, 3 - 2j, 0, -4 + 0.1j], np.complex64)
    _same(ls.wofz(z), js.wofz(z))
    _same(
        jaxlite.jvp(ls.wofz, (z,), (np.ones_like(z),)), jax.jvp(js.wofz, (z,), (np.ones_like(z),))
    )
    _same(ls.wofz(FINITE), js.wofz(FINITE))
    # JAX gives NaN at +-inf; w(x) ~ i / (sqrt(pi) x) -> 0.
    np.testing.assert_array_equal(np.asarray(ls.wofz(np.float32([np.inf, -np.inf]))), [0, 0])


@pytest.mark.parametrize("name", ["boxcox", "boxcox1p"])
def test_boxcox_matches_jax(name):
    lam = np.array([-2, -0.5, 0, 0.5, 1, 2, 0, 3, -1, 0.25, 1.5, 0.1, 0.2, 0.0], np.float32)
    _same(getattr(ls, name)(X, lam), getattr(js, name)(X, lam))
    pos = np.abs(X[np.isfinite(X)]) + 0.1
    lam = lam[: len(pos)]
    gj = jax.vmap(jax.grad(getattr(js, name), (0, 1)))(pos, lam)
    _same(jaxlite.vmap(jaxlite.grad(getattr(ls, name), (0, 1)))(pos, lam), gj)


def test_owens_t_values_derivatives_and_dtype():
    a = np.array(
        [-3, -1, -0.3, 0, 0.2, 0.7, 1, 2, 5, np.inf, -np.inf, 0.5, 1.5, np.nan], np.float32
    )
    _same(ls.owens_t(X, a), js.owens_t(X, a))
    h, b = FINITE, np.linspace(-2, 3, len(FINITE)).astype(np.float32)
    _same(
        jaxlite.vmap(jaxlite.grad(ls.owens_t, (0, 1)))(h, b),
        jax.vmap(jax.grad(js.owens_t, (0, 1)))(h, b),
    )
    for dt in (np.float16, ml_dtypes.bfloat16):  # JAX returns float32 for half inputs
        assert ls.owens_t(np.array([1], dt), np.array([2], dt)).dtype == np.float32


def test_hyp1f1_matches_jax_and_differentiates():
    x = np.clip(FINITE, -5, 5)
    _same(ls.hyp1f1(1.5, 2.5, x), js.hyp1f1(1.5, 2.5, x), rtol=1e-4)
    _same(ls.hyp1f1(-2.0, 3.5, x), js.hyp1f1(-2.0, 3.5, x), rtol=1e-4)
    gx = jaxlite.vmap(jaxlite.grad(ls.hyp1f1, 2))(x + 3, x + 4, x)
    _same(gx, jax.vmap(jax.grad(js.hyp1f1, 2))(x + 3, x + 4, x), rtol=1e-4)
    # in a and b by JAX's series (tests/hunt/test_fuzz_s13.py has the rest)
    ga = jaxlite.grad(ls.hyp1f1, (0, 1))(1.5, 2.5, 0.3)
    np.testing.assert_allclose(ga, jax.grad(js.hyp1f1, (0, 1))(1.5, 2.5, 0.3), rtol=1e-5)


def test_hyp2f1_is_right_where_jax_is_not():
    x = np.array([-0.9, -0.5, 0.0, 0.2, 0.5, 0.8, 0.95], np.float32)
    _same(ls.hyp2f1(0.5, 1.5, 2.5, x), js.hyp2f1(0.5, 1.5, 2.5, x), rtol=1e-4)
    # mpmath: 2F1(0.5, 1.5; 2.5; 0.99) = 2.0879359, (..; -2) = 0.6911654 (JAX: 2.0867543,
    # -inf); the terminating 2F1(-3, 1.5; 2.5; 1.5) = 0.0678571 (JAX: inf).
    got = np.asarray(ls.hyp2f1(0.5, 1.5, 2.5, np.float32([0.99, -2.0])))
    np.testing.assert_allclose(got, [2.08793585, 0.69116536], rtol=1e-5)
    np.testing.assert_allclose(float(ls.hyp2f1(-3.0, 1.5, 2.5, 1.5)), 0.06785714, rtol=1e-5)
    g = jaxlite.grad(ls.hyp2f1, 3)(1.0, 2.0, 3.5, 0.5)
    want = jax.grad(js.hyp2f1, 3)(1.0, 2.0, 3.5, 0.5)
    np.testing.assert_allclose(float(g), float(want), rtol=1e-4)


def test_bessel_jn_shapes_and_values():
    z = np.array([0.0, 0.5, 1.0, 3.0, 10.0], np.float32)
    out = ls.bessel_jn(z, v=3)
    assert out.shape == (4, 5) and out.dtype == np.float32
    import scipy.special

    want = scipy.special.jv(np.arange(4)[:, None], z.astype(np.float64))
    np.testing.assert_allclose(np.asarray(out), want, rtol=2e-6, atol=1e-7)  # JAX: NaN in float32
    assert ls.bessel_jn(0.5, v=1).shape == js.bessel_jn(0.5, v=1).shape
    with jaxlite.enable_x64(True), jax.enable_x64(True):
        z64 = z[1:].astype(np.float64)  # JAX's J_n(0) is NaN even in float64 (it is 1, 0, ...)
        _same(ls.bessel_jn(z64, v=3), js.bessel_jn(z64, v=3), rtol=1e-6)
        g = jaxlite.grad(lambda t: ls.bessel_jn(t, v=2)[2])(1.3)
        np.testing.assert_allclose(
            float(g), float(jax.grad(lambda t: js.bessel_jn(t, v=2)[2])(1.3)), 1e-6
        )


def test_sph_harm_y_matches_jax():
    n, m = np.array([2, 3, 0, 5]), np.array([1, -2, 0, 5])
    th, ph = np.array([0.3, 1.0, 2.0, 0.1], np.float32), np.array([0.7, 2.0, 0.0, 3.0], np.float32)
    _same(ls.sph_harm_y(n, m, th, ph), js.sph_harm_y(n, m, th, ph, n_max=5))
    _same(jaxlite.jit(ls.sph_harm_y)(n, m, th, ph), js.sph_harm_y(n, m, th, ph, n_max=5))
    with pytest.raises(NotImplementedError, match="'diff_n' argument"):
        ls.sph_harm_y(n, m, th, ph, diff_n=1)


@pytest.mark.parametrize("name", ["dawsn", "fresnel", "sici", "spence", "hyp1f1"])
def test_dtype_handling_and_errors_match_jax(name):
    k = 3 if name == "hyp1f1" else 1
    for dt in (np.int32, np.float16, ml_dtypes.bfloat16, np.complex64):
        args = [np.array([1, 2], dt)] * k
        try:
            want = getattr(js, name)(*args)
        except Exception as e:  # noqa: BLE001 - the test compares the exception with JAX's
            with pytest.raises(type(e)) as got:
                getattr(ls, name)(*args)
            assert str(got.value) == str(e)
            continue
        got = getattr(ls, name)(*args)
        assert [t.dtype for t in _leaves(got)] == [t.dtype for t in _leaves(want)]
