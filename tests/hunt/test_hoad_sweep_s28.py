"""Session 28's higher-order derivative work (tests/hunt/sweep_hoad_s28.py and the rest of
session 27's part 1): the families changed, pinned with reduced cases. Each case is compared
with JAX where JAX is importable (tests/hunt/oracle.py) and asserted against a hand-derived
or independently computed value in any case.

* ``jnp.linalg.lstsq``: its JVP rule now takes the solution and the pseudo-inverse from
  custom_jvp functions, so second and third derivatives use the pseudo-inverse's closed
  form again instead of the SVD's derivative: float32 third derivatives ~10x closer to the
  truth (they had been up to ~4x further from it than JAX's), and the solution's Hessian
  at repeated singular values is finite and true (NaN before, NaN in JAX: docs/compat.md).
* ``lax.pow``'s JVP in ``y`` reuses the primal output instead of recomputing ``x ** y``:
  fewer pows under ``jvp(grad)`` / ``hessian``, the same values.
"""

import numpy as np
import pytest

from tests.hunt.oracle import LITE, same

A42 = np.array([[3.5328, 1.4694], [0.1549, 2.3782], [-0.8878, -1.9808], [-0.3479, 0.1563]])
B4 = np.array([1.2303, 1.2024, -0.3873, -0.3023])


def _lstsq_d3(m, a, b, how, dtype):
    jx, jnp = m.jx, m.jnp
    d = {"rrr": (jx.jacrev,) * 3, "fff": (jx.jacfwd,) * 3, "frr": (jx.jacfwd, jx.jacrev, jx.jacrev)}
    f = lambda a: jnp.sum(jnp.linalg.lstsq(a, jnp.asarray(b, dtype))[0] ** 2)  # noqa: E731
    for t in d[how]:
        f = t(f)
    return np.asarray(f(jnp.asarray(a, dtype)), np.float64)


def _normal_eq_d3(a, b, how):
    # the same least-squares solution from the normal equations (a has full column rank),
    # through solve's rules in float64: an independent third derivative
    jx, jnp = LITE.jx, LITE.jnp
    d = {"rrr": (jx.jacrev,) * 3, "fff": (jx.jacfwd,) * 3, "frr": (jx.jacfwd, jx.jacrev, jx.jacrev)}

    def f(a):
        x = jnp.linalg.solve(a.T @ a, a.T @ jnp.asarray(b))
        return jnp.sum(x**2)

    for t in d[how]:
        f = t(f)
    with jx.enable_x64(True):
        return np.asarray(f(jnp.asarray(a)))


@pytest.mark.parametrize("how", ["rrr", "frr"])
def test_lstsq_third_derivative_float32(how):
    truth = _normal_eq_d3(A42, B4, how)
    got = _lstsq_d3(LITE, A42, B4, how, "float32")
    err = np.max(np.abs(got - truth)) / np.max(np.abs(truth))
    # 7e-7 now; 9.5e-6 when the rule's pseudo-inverse went through the SVD's derivative
    # (JAX's float32: 7.6e-6)
    assert err < 2e-6, err
    with LITE.jx.enable_x64(True):
        got64 = _lstsq_d3(LITE, A42, B4, how, "float64")
    # (JAX's float64 third derivative agrees to 1e-13; its compilation takes ~20 s, so
    # the JAX comparison is of the first and second derivatives, below)
    np.testing.assert_allclose(got64, truth, rtol=1e-9, atol=1e-10 * np.abs(truth).max())


def test_lstsq_first_and_second_derivatives_unchanged():
    # the first derivatives (and the solution, residuals, s) as JAX's; float64 Hessians
    # of x and s at a square matrix with distinct singular values
    a = np.array([[3.0, 1.0, 0.2], [0.5, 2.0, -0.4], [0.1, -0.3, 1.0]])
    b = np.array([1.0, -2.0, 0.5])

    def build(m):
        jx, jnp = m.jx, m.jnp

        def f(a, b):
            x, r, k, s = jnp.linalg.lstsq(a, b)
            return jnp.sum(x**2) + jnp.sum(jnp.sin(s))

        def both(a, b):
            return jx.grad(f, argnums=(0, 1))(a, b), jx.hessian(f, argnums=(0, 1))(a, b)

        with jx.enable_x64(True):  # one compilation of JAX's (its eager hessian is slow)
            return jx.jit(both)(jnp.asarray(a), jnp.asarray(b))

    g1, h = same(build, rtol=1e-9, atol=1e-10)

    # by hand: x = solve(a, b); s from svdvals (distinct)
    jx, jnp = LITE.jx, LITE.jnp

    def ref(a, b):
        return jnp.sum(jnp.linalg.solve(a, b) ** 2) + jnp.sum(jnp.sin(jnp.linalg.svdvals(a)))

    with jx.enable_x64(True):
        r1 = jx.grad(ref, argnums=(0, 1))(jnp.asarray(a), jnp.asarray(b))
        r2 = jx.hessian(ref, argnums=(0, 1))(jnp.asarray(a), jnp.asarray(b))
    for u, v in zip(jx.tree_util.tree_leaves(g1), jx.tree_util.tree_leaves(r1)):
        np.testing.assert_allclose(np.asarray(u), np.asarray(v), rtol=1e-10, atol=1e-12)
    for u, v in zip(jx.tree_util.tree_leaves(h), jx.tree_util.tree_leaves(r2)):
        np.testing.assert_allclose(np.asarray(u), np.asarray(v), rtol=1e-8, atol=1e-10)


def test_lstsq_hessian_at_repeated_singular_values():
    # singular values (4, 1, 1): the solution's Hessian is solve's (the matrix is
    # invertible), finite; the SVD's derivative divides by 1 - 1 (NaN before; JAX NaN)
    a = np.array([[2.0, 1, 1], [1, 2, 1], [1, 1, 2]])
    b = np.array([1.0, -2.0, 0.5])
    jx, jnp = LITE.jx, LITE.jnp
    with jx.enable_x64(True), np.errstate(invalid="ignore"):  # s's derivative: NaN, unused
        h = jx.hessian(lambda a: jnp.sum(jnp.linalg.lstsq(a, jnp.asarray(b))[0] ** 2))(
            jnp.asarray(a)
        )
        r = jx.hessian(lambda a: jnp.sum(jnp.linalg.solve(a, jnp.asarray(b)) ** 2))(jnp.asarray(a))
    np.testing.assert_allclose(np.asarray(h), np.asarray(r), rtol=1e-10, atol=1e-12)
    # float32, jitted, under vmap of a batch of two: the same, finite
    with np.errstate(invalid="ignore"):
        hv = jx.jit(jx.vmap(jx.hessian(lambda a: jnp.sum(jnp.linalg.lstsq(a, b)[0] ** 2))))(
            np.stack([a, a]).astype(np.float32)
        )
    assert np.asarray(hv).dtype == np.float32
    np.testing.assert_allclose(np.asarray(hv)[1], np.asarray(r), rtol=2e-4, atol=2e-5)


def _pow_jvp_grad(m, x, y):
    g = m.jx.grad(lambda x, y: m.lax.pow(x, y), argnums=(0, 1))
    return m.jx.jvp(g, (x, y), (x * 0.5, y * 0.25))


def test_pow_second_order_shares_primal():
    x, y = np.float32(1.3), np.float32(2.7)
    jaxpr = str(LITE.jx.make_jaxpr(lambda x, y: _pow_jvp_grad(LITE, x, y))(x, y))
    # the primal, x**(y-1) and its jvp's x**(y-2) and x**(y-1): 9 before
    assert jaxpr.count(" pow ") == 4, jaxpr
    r = same(lambda m: _pow_jvp_grad(m, x, y), rtol=2e-6)
    # by hand: f = x**y; the tangent of (f_x, f_y) along (dx, dy) = (x / 2, y / 4)
    x, y = float(x), float(y)
    dx, dy = x * 0.5, y * 0.25
    lx = np.log(x)
    fxx = y * (y - 1) * x ** (y - 2)
    fxy = x ** (y - 1) * (1 + y * lx)
    fyy = lx**2 * x**y
    (gx, gy), (tx, ty) = r
    np.testing.assert_allclose([float(gx), float(gy)], [y * x ** (y - 1), lx * x**y], rtol=1e-6)
    np.testing.assert_allclose(
        [float(tx), float(ty)], [fxx * dx + fxy * dy, fxy * dx + fyy * dy], rtol=1e-5
    )
    # weak types and zeros: x = 0 (log's safe branch), Python scalars (weak)
    same(lambda m: _pow_jvp_grad(m, np.float32(0.0), np.float32(2.0)))
    same(lambda m: m.jx.hessian(lambda x, y: x**y, argnums=(0, 1))(2.0, 3.0))
