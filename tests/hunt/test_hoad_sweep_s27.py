"""Session 27's higher-order derivative sweep (tests/hunt/sweep_hoad_s27.py, and session
26's sweep on the functions it had not run): the families it found wrong or missing, pinned
with reduced cases. Each case is compared with JAX where JAX is importable
(tests/hunt/oracle.py) and asserted against a hand-derived or finite-difference value in
any case.

* ``lax.random_gamma_grad``'s second derivatives (third derivatives of gamma samples in
  their shape parameter) raised NotImplementedError; JAX's forward mode answers.
* ``jnp.polyval``'s Hessian with an infinite coefficient: the true (finite) second
  derivatives, where JAX's scan gives NaN (docs/compat.md).
"""

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE, run, same

A = np.array([0.3, 0.9, 1.5, 4.0, 1.5, 0.5])
X = np.array([0.05, 0.7, 0.8, 3.0, 6.0, 2.0])


def _gamma_grad_hessians(m, how):
    f = lambda a, x: m.lax.random_gamma_grad(a, x)  # noqa: E731
    d = {"fwdfwd": m.jx.jacfwd, "revrev": m.jx.jacrev}[how]
    h = m.jx.vmap(d(d(f, argnums=(0, 1)), argnums=(0, 1)))
    with m.jx.enable_x64(True):
        r = h(m.jnp.asarray(A), m.jnp.asarray(X))
        return np.array([[np.asarray(r[i][j]) for j in range(2)] for i in range(2)])


def _gamma_grad_jvp_jvp(m):
    # t' H t for t = (1, 1): G_aa + 2 G_ax + G_xx, elementwise (JAX's forward mode through
    # its series is slow to compile: one call covers the three partials)
    f = lambda a, x: m.lax.random_gamma_grad(a, x)  # noqa: E731
    with m.jx.enable_x64(True):
        a, x = m.jnp.asarray(A), m.jnp.asarray(X)
        ones = m.jnp.ones_like(a)
        inner = lambda a, x: m.jx.jvp(f, (a, x), (ones, ones))[1]  # noqa: E731
        return m.jx.jvp(inner, (a, x), (ones, ones))[1]


@pytest.mark.parametrize("how", ["fwdfwd", "revrev"])
def test_random_gamma_grad_second_derivatives(how):
    got = _gamma_grad_hessians(LITE, how)
    if how == "fwdfwd":  # JAX's reverse mode raises (its while_loop)
        tht = np.asarray(same(_gamma_grad_jvp_jvp, rtol=1e-6, atol=1e-9))
        np.testing.assert_allclose(tht, got[0, 0] + 2 * got[0, 1] + got[1, 1], rtol=1e-12)
    # central differences of jaxlite's first partials (G_x is closed-form in G; G_a is a
    # difference of SciPy's P, accurate to ~1e-9 relative)
    with LITE.jx.enable_x64(True):
        g = LITE.jx.grad(lambda a, x: LITE.lax.random_gamma_grad(a, x), argnums=(0, 1))
        g = LITE.jx.vmap(g)
        jnp = LITE.jnp

        def first(a, x):
            return np.array([np.asarray(v) for v in g(jnp.asarray(a), jnp.asarray(x))])

        # G_a's own noise, divided by the step, limits the differences of it: G_aa is
        # differenced with a wide step, the cross term from the closed-form G_x
        ha, hx = 1e-3 * A, 1e-5 * X
        d_a = (first(A + ha, X) - first(A - ha, X)) / (2 * ha)
        d_x = (first(A, X + hx) - first(A, X - hx)) / (2 * hx)
    np.testing.assert_allclose(got[0, 0], d_a[0], rtol=2e-5)
    np.testing.assert_allclose(got[0, 1], d_a[1], rtol=2e-5)
    np.testing.assert_allclose(got[1, 1], d_x[1], rtol=2e-5)
    np.testing.assert_array_equal(got[0, 1], got[1, 0])
    assert got.shape == (2, 2, 6)


def test_random_gamma_grad_second_derivative_jit_and_limits():
    # jit gives the eager values; at x == 0 and a <= 0 G is a constant (0 / NaN): every
    # second partial is 0 there, as JAX's
    a = np.array([1.5, 1.5, -1.0], np.float32)
    x = np.array([0.8, 0.0, 0.8], np.float32)

    def build(m, jit=False):
        f = lambda a, x: m.lax.random_gamma_grad(a, x)  # noqa: E731
        h = m.jx.vmap(m.jx.jacfwd(m.jx.jacfwd(f, argnums=(0, 1)), argnums=(0, 1)))
        return (m.jx.jit(h) if jit else h)(a, x)

    r = build(LITE)
    rj = build(LITE, jit=True)
    for i in range(2):
        for j in range(2):
            np.testing.assert_array_equal(np.asarray(rj[i][j]), np.asarray(r[i][j]))
            assert np.asarray(r[i][j]).dtype == np.float32
            np.testing.assert_array_equal(np.asarray(r[i][j])[1:], 0.0)
    # G_xx at (1.5, 0.8) by hand from G and G_x: -1 / x - G_x r + G (a - 1) / x**2
    import scipy.special as sc

    a0, x0 = 1.5, 0.8
    h = 1e-5
    P = lambda a: sc.gammainc(a, x0)  # noqa: E731
    p = np.exp((a0 - 1) * np.log(x0) - x0 - sc.gammaln(a0))
    G = -(P(a0 + h) - P(a0 - h)) / (2 * h) / p
    L, rr = np.log(x0) - sc.digamma(a0), (a0 - 1) / x0 - 1
    Gx = -L - G * rr
    np.testing.assert_allclose(
        float(r[1][1][0]), -1 / x0 - Gx * rr + G * (a0 - 1) / x0**2, rtol=1e-5
    )


def test_polyval_hessian_infinite_coefficient():
    # polyval(p, x) = p0 x**2 + p1 x + p2: d2/dx2 = 2 p0, d2/dp dx = (2x, 1, 0), whatever
    # p1 is. JAX's scan over the coefficients gives NaN there (0 * inf in its transpose;
    # docs/compat.md); jaxlite's unrolled Horner loop gives the true values.
    p = np.array([1.0, np.inf, 2.0], np.float32)
    x = np.float32(0.5)

    def build(m):
        f = lambda p, x: m.jnp.polyval(p, x)  # noqa: E731
        return m.jx.hessian(f, argnums=(0, 1))(p, x)

    (hpp, hpx), (hxp, hxx) = build(LITE)
    np.testing.assert_array_equal(np.asarray(hpp), np.zeros((3, 3)))
    np.testing.assert_array_equal(np.asarray(hpx), [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(np.asarray(hxp), [1.0, 1.0, 0.0])
    np.testing.assert_array_equal(np.asarray(hxx), 2.0)
    if JAX is not None:
        kind, r = run(build, JAX)
        assert kind == "ok"
        assert np.isnan(np.asarray(r[1][1])) and np.isnan(np.asarray(r[1][0])).all()
        # the finite coefficients agree
        p2 = np.array([1.0, 3.0, 2.0], np.float32)
        same(lambda m: m.jx.hessian(lambda p, x: m.jnp.polyval(p, x), argnums=(0, 1))(p2, x))
