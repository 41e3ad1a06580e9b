"""lax.custom_linear_solve and lax.custom_root: values, implicit derivatives (forward,
reverse, higher order), vmap, jit and the errors, against closed forms computed with NumPy.

The solvers are ``while_loop``s, which reverse mode cannot differentiate: a gradient that
comes out right shows the solver itself was never differentiated. Also run in oracle mode.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

A_NP = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]], np.float32)
B_NP = np.array([[2.0, 1.0, 0.0], [0.0, 3.0, 1.0], [1.0, 0.0, 4.0]], np.float32)
RHS = np.array([1.0, 2.0, 3.0], np.float32)


def cg(matvec, b, iters=6):
    """Conjugate gradients in a while_loop (not reverse-differentiable itself)."""

    def cond(s):
        return (s[4] < iters) & (s[3] > 1e-20)

    def body(s):
        x, r, p, rs, i = s
        ap = matvec(p)
        alpha = rs / jnp.vdot(p, ap)
        x = x + alpha * p
        r = r - alpha * ap
        rs2 = jnp.vdot(r, r)
        return x, r, r + rs2 / rs * p, rs2, i + 1

    s = lax.while_loop(cond, body, (jnp.zeros_like(b), b, b, jnp.vdot(b, b), 0))
    return s[0]


def gauss_seidel(matvec_unused, b, a, iters=60):
    """A fixed-point solve of a @ x = b (for non-symmetric systems), a while_loop."""
    d = jnp.diag(a)

    def body(s):
        x, i = s
        return x + (b - a @ x) / d, i + 1

    return lax.while_loop(lambda s: s[1] < iters, body, (jnp.zeros_like(b), 0))[0]


def sym_solve(a, b):
    return lax.custom_linear_solve(lambda x: a @ x, b, cg, symmetric=True)


def nonsym_solve(a, b):
    return lax.custom_linear_solve(
        lambda x: a @ x,
        b,
        lambda mv, r: gauss_seidel(mv, r, a),
        lambda vm, r: gauss_seidel(vm, r, a.T),
    )


def close(x, y, tol=2e-5):
    np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=tol, atol=tol)


def test_value_eager_and_jit():
    expected = np.linalg.solve(A_NP.astype(np.float64), RHS)
    close(sym_solve(A_NP, RHS), expected)
    close(jax.jit(sym_solve)(A_NP, RHS), expected)
    close(nonsym_solve(B_NP, RHS), np.linalg.solve(B_NP.astype(np.float64), RHS))


@pytest.mark.parametrize("solver", [sym_solve, nonsym_solve])
def test_reverse_mode_is_implicit(solver):
    a = A_NP if solver is sym_solve else B_NP
    a64 = a.astype(np.float64)
    x = np.linalg.solve(a64, RHS)
    lam = np.linalg.solve(a64.T, np.ones(3))  # d(sum x)/db = A^-T 1
    gb = jax.grad(lambda b: solver(a, b).sum())(jnp.asarray(RHS))
    close(gb, lam)
    ga = jax.grad(lambda m: solver(m, RHS).sum())(jnp.asarray(a))
    close(ga, -np.outer(lam, x))  # d(sum x)/dA = -lam x^T
    close(jax.jit(jax.grad(lambda b: solver(a, b).sum()))(jnp.asarray(RHS)), lam)


def test_forward_mode_and_jacobians():
    a64 = A_NP.astype(np.float64)
    x = np.linalg.solve(a64, RHS)
    da = np.full((3, 3), 0.5)
    db = np.array([1.0, -1.0, 2.0])
    out, tan = jax.jvp(sym_solve, (A_NP, RHS), (da.astype(np.float32), db.astype(np.float32)))
    close(out, x)
    close(tan, np.linalg.solve(a64, db - da @ x))
    close(jax.jacfwd(lambda b: sym_solve(A_NP, b))(RHS), np.linalg.inv(a64))
    close(jax.jacrev(lambda b: sym_solve(A_NP, b))(RHS), np.linalg.inv(a64))


def test_second_order():
    # f(b) = |A^-1 b|^2 has Hessian 2 A^-T A^-1.
    inv = np.linalg.inv(A_NP.astype(np.float64))
    h = jax.hessian(lambda b: (sym_solve(A_NP, b) ** 2).sum())(jnp.asarray(RHS))
    close(h, 2 * inv.T @ inv, tol=1e-4)


def test_vmap():
    bs = np.stack([RHS, 2 * RHS, -RHS])
    a64 = A_NP.astype(np.float64)
    close(jax.vmap(sym_solve, in_axes=(None, 0))(A_NP, bs), np.linalg.solve(a64, bs.T).T)
    mats = np.stack([A_NP, A_NP + np.eye(3, dtype=np.float32)])
    expected = np.stack([np.linalg.solve(m.astype(np.float64), RHS) for m in mats])
    close(jax.vmap(sym_solve, in_axes=(0, None))(mats, RHS), expected)
    close(
        jax.jit(jax.vmap(nonsym_solve, in_axes=(None, 0)))(B_NP, bs),
        np.linalg.solve(B_NP.astype(np.float64), bs.T).T,
    )
    grads = jax.vmap(jax.grad(lambda b: sym_solve(A_NP, b).sum()))(bs)
    lam = np.linalg.solve(a64.T, np.ones(3))
    close(grads, np.stack([lam] * 3))


def test_pytree_rhs_and_aux():
    a = jnp.asarray(A_NP)

    def mv(t):
        return {"u": a @ t["u"], "v": 2.0 * t["v"]}

    def solve(matvec, t):
        return {"u": jnp.linalg.solve(a, t["u"]), "v": t["v"] / 2.0}, jnp.int32(7)

    b = {"u": jnp.asarray(RHS), "v": jnp.ones(2, jnp.float32)}
    x, aux = lax.custom_linear_solve(mv, b, solve, symmetric=True, has_aux=True)
    close(x["u"], np.linalg.solve(A_NP.astype(np.float64), RHS))
    close(x["v"], np.full(2, 0.5))
    assert int(aux) == 7
    g = jax.grad(
        lambda b: lax.custom_linear_solve(mv, b, solve, symmetric=True, has_aux=True)[0]["v"].sum()
    )(b)
    close(g["v"], np.full(2, 0.5))
    close(g["u"], np.zeros(3))


def test_errors():
    a = jnp.asarray(A_NP)
    with pytest.raises(
        ValueError, match=r"solve\(\) output shapes must match b, got \[\(2,\)\] and \[\(3,\)\]"
    ):
        lax.custom_linear_solve(lambda x: a @ x, RHS, lambda mv, b: b[:2])
    with pytest.raises(ValueError, match=r"matvec\(\) output shapes must match b"):
        lax.custom_linear_solve(lambda x: x[:2], RHS, lambda mv, b: b)
    with pytest.raises(TypeError, match=r"solve\(\) output pytree structure must match b"):
        lax.custom_linear_solve(lambda x: a @ x, RHS, lambda mv, b: [b])
    with pytest.raises(ValueError):  # a float32[3] is not an (x, aux) pair
        lax.custom_linear_solve(lambda x: a @ x, RHS, lambda mv, b: b, has_aux=True)
    no_transpose = lambda b: lax.custom_linear_solve(lambda x: a @ x, b, cg).sum()  # noqa: E731
    close(
        jax.jvp(no_transpose, (RHS,), (RHS,))[0],
        np.linalg.solve(A_NP.astype(np.float64), RHS).sum(),
    )
    with pytest.raises(TypeError, match="transpose_solve required for backwards mode"):
        jax.grad(no_transpose)(RHS)


def newton_sqrt(x):
    def f(y):
        return y * y - x

    def solve(fn, y0):
        return lax.while_loop(lambda y: jnp.abs(fn(y)) > 1e-6, lambda y: y - fn(y) / (2 * y), y0)

    return lax.custom_root(f, 1.0, solve, lambda g, y: y / g(1.0))


def test_custom_root_derivatives():
    close(newton_sqrt(2.0), np.sqrt(2.0))
    close(jax.grad(newton_sqrt)(2.0), 0.5 / np.sqrt(2.0))
    close(jax.jit(jax.grad(newton_sqrt))(2.0), 0.5 / np.sqrt(2.0))
    out, tan = jax.jvp(newton_sqrt, (3.0,), (1.0,))
    close(out, np.sqrt(3.0))
    close(tan, 0.5 / np.sqrt(3.0))
    close(jax.grad(jax.grad(newton_sqrt))(2.0), -0.25 * 2.0**-1.5, tol=1e-4)
    xs = np.array([1.0, 4.0, 9.0], np.float32)
    close(jax.vmap(jax.grad(newton_sqrt))(xs), 0.5 / np.sqrt(xs))


def test_custom_root_vector_with_aux():
    # Root of A y - c (a linear system as a root problem); dy/dc = A^-1.
    a = jnp.asarray(A_NP)

    def root(c):
        def f(y):
            return a @ y - c

        def solve(fn, y0):
            return jnp.linalg.solve(a, c), jnp.float32(0.0)

        def tangent_solve(g, y):
            return jnp.linalg.solve(jax.jacobian(g)(y), y)

        return lax.custom_root(f, jnp.zeros(3), solve, tangent_solve, has_aux=True)

    y, aux = root(jnp.asarray(RHS))
    close(y, np.linalg.solve(A_NP.astype(np.float64), RHS))
    assert float(aux) == 0.0
    close(
        jax.jacrev(lambda c: root(c)[0])(jnp.asarray(RHS)), np.linalg.inv(A_NP.astype(np.float64))
    )


def test_custom_root_errors():
    with pytest.raises(TypeError, match=r"f\(\) output pytree structure must match initial"):
        lax.custom_root(lambda y: [y], 1.0, lambda f, y: y, lambda g, y: y)
    with pytest.raises(
        TypeError, match=r"solve\(\) output pytree structure must match initial_guess"
    ):
        lax.custom_root(lambda y: y, 1.0, lambda f, y: (y, y), lambda g, y: y)
