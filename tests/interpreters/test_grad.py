"""Behaviour tests for automatic differentiation: jvp, linearize, vjp, grad and friends.

Every expected value comes from NumPy, an analytic derivative or a finite difference, never
from a hand-written number. The file runs unchanged against real JAX in oracle mode
(``JAXLITE_ORACLE=jax``), which is how its expectations are shown to be JAX's.
"""

import numpy as np
import pytest
from helpers import close

import jaxlite as jax
import jaxlite.numpy as jnp


def fd_grad(f, x, eps=1e-3):
    """Central finite-difference gradient of a scalar NumPy function (float64)."""
    x = np.asarray(x, dtype=np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


# Unary functions: (name, jaxlite fn, numpy fn, first derivative, second derivative).
UNARY = [
    ("sin", jnp.sin, np.sin, np.cos, lambda x: -np.sin(x)),
    ("cos", jnp.cos, np.cos, lambda x: -np.sin(x), lambda x: -np.cos(x)),
    ("exp", jnp.exp, np.exp, np.exp, np.exp),
    ("log", jnp.log, np.log, lambda x: 1 / x, lambda x: -1 / x**2),
    (
        "tanh",
        jnp.tanh,
        np.tanh,
        lambda x: 1 - np.tanh(x) ** 2,
        lambda x: -2 * np.tanh(x) * (1 - np.tanh(x) ** 2),
    ),
    ("cube", lambda x: x * x * x, lambda x: x**3, lambda x: 3 * x**2, lambda x: 6 * x),
    ("recip", lambda x: 1.0 / x, lambda x: 1 / x, lambda x: -1 / x**2, lambda x: 2 / x**3),
    ("pow", lambda x: x**4, lambda x: x**4, lambda x: 4 * x**3, lambda x: 12 * x**2),
    (
        "sin_exp",
        lambda x: jnp.sin(jnp.exp(x)),
        lambda x: np.sin(np.exp(x)),
        lambda x: np.cos(np.exp(x)) * np.exp(x),
        lambda x: np.exp(x) * np.cos(np.exp(x)) - np.exp(2 * x) * np.sin(np.exp(x)),
    ),
    (
        "x_sin",
        lambda x: x * jnp.sin(x),
        lambda x: x * np.sin(x),
        lambda x: np.sin(x) + x * np.cos(x),
        lambda x: 2 * np.cos(x) - x * np.sin(x),
    ),
]
UNARY_IDS = [u[0] for u in UNARY]
POINTS = np.array([0.3, 0.7, 1.4, 2.2], dtype=np.float32)


@pytest.mark.parametrize("name,f,nf,df,d2f", UNARY, ids=UNARY_IDS)
def test_grad_scalar_matches_analytic(name, f, nf, df, d2f):
    for x in [0.5, 1.3]:
        close(jax.grad(f)(x), df(np.float64(x)))


@pytest.mark.parametrize("name,f,nf,df,d2f", UNARY, ids=UNARY_IDS)
def test_jvp_and_vjp_elementwise(name, f, nf, df, d2f):
    x = jnp.asarray(POINTS)
    x64 = POINTS.astype(np.float64)
    t = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    y, ty = jax.jvp(f, (x,), (jnp.asarray(t),))
    close(y, nf(x64))
    close(ty, df(x64) * t)
    y, f_vjp = jax.vjp(f, x)
    close(y, nf(x64))
    (gx,) = f_vjp(jnp.asarray(t))
    close(gx, df(x64) * t)
    # grad of the sum is the elementwise derivative.
    close(jax.grad(lambda v: jnp.sum(f(v)))(x), df(x64))


@pytest.mark.parametrize("name,f,nf,df,d2f", UNARY, ids=UNARY_IDS)
def test_second_derivative(name, f, nf, df, d2f):
    close(jax.grad(jax.grad(f))(0.9), d2f(np.float64(0.9)), rtol=1e-4)


@pytest.mark.parametrize("name,f,nf,df,d2f", UNARY, ids=UNARY_IDS)
def test_jit_of_grad_and_grad_of_jit(name, f, nf, df, d2f):
    expected = df(np.float64(1.1))
    close(jax.jit(jax.grad(f))(1.1), expected)
    close(jax.grad(jax.jit(f))(1.1), expected)
    close(jax.jit(jax.grad(jax.jit(f)))(1.1), expected)


# Functions of several array arguments, compared with finite differences.
A = np.array([[1.0, 2.0, -1.0], [0.5, -0.3, 0.8]], np.float32)
MULTI = [
    ("dot", lambda x, y: jnp.dot(x, y), lambda x, y: np.dot(x, y)),
    ("sum_prod", lambda x, y: jnp.sum(x * y * y), lambda x, y: np.sum(x * y * y)),
    (
        "quotient",
        lambda x, y: jnp.sum(jnp.sin(x) / (2.0 + y)),
        lambda x, y: np.sum(np.sin(x) / (2.0 + y)),
    ),
    (
        "matvec",
        lambda x, y: jnp.sum(jnp.tanh(jnp.asarray(A) @ (x * y))),
        lambda x, y: np.sum(np.tanh(A.astype(np.float64) @ (x * y))),
    ),
    (
        "mean_max",
        lambda x, y: jnp.mean(x * y) + jnp.max(x + 0.1 * y),
        lambda x, y: np.mean(x * y) + np.max(x + 0.1 * y),
    ),
    (
        "where",
        lambda x, y: jnp.sum(jnp.where(x > 0.5, x * y, y * y)),
        lambda x, y: np.sum(np.where(x > 0.5, x * y, y * y)),
    ),
]
X3 = np.array([0.2, 0.9, 1.7], np.float32)
Y3 = np.array([1.1, -0.4, 0.6], np.float32)


@pytest.mark.parametrize("name,f,nf", MULTI, ids=[m[0] for m in MULTI])
@pytest.mark.parametrize("argnums", [0, (1, 0)])
def test_grad_argnums_finite_differences(name, f, nf, argnums):
    got = jax.grad(f, argnums=argnums)(jnp.asarray(X3), jnp.asarray(Y3))
    x64, y64 = X3.astype(np.float64), Y3.astype(np.float64)
    fds = [fd_grad(lambda x: nf(x, y64), x64), fd_grad(lambda y: nf(x64, y), y64)]
    if isinstance(argnums, int):
        close(got, fds[argnums], rtol=1e-3, atol=1e-3)
    else:
        assert isinstance(got, tuple) and len(got) == len(argnums)
        for g, a in zip(got, argnums):
            close(g, fds[a], rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("name,f,nf", MULTI, ids=[m[0] for m in MULTI])
def test_value_and_grad(name, f, nf):
    v, (gx, gy) = jax.value_and_grad(f, argnums=(0, 1))(jnp.asarray(X3), jnp.asarray(Y3))
    x64, y64 = X3.astype(np.float64), Y3.astype(np.float64)
    close(v, nf(x64, y64))
    close(gx, fd_grad(lambda x: nf(x, y64), x64), rtol=1e-3, atol=1e-3)
    close(gy, fd_grad(lambda y: nf(x64, y), y64), rtol=1e-3, atol=1e-3)


def test_value_and_grad_int_argnum_returns_single_gradient():
    v, g = jax.value_and_grad(lambda a, b: a * jnp.sin(b), argnums=1)(2.0, 0.4)
    close(v, 2.0 * np.sin(0.4))
    close(g, 2.0 * np.cos(0.4))


def test_grad_pytree_input():
    def f(p):
        return jnp.sum(p["w"] * p["x"][0]) + jnp.sin(p["x"][1])

    p = {"w": jnp.asarray(X3), "x": (jnp.asarray(Y3), 0.5)}
    g = jax.grad(f)(p)
    assert set(g) == {"w", "x"} and isinstance(g["x"], tuple)
    close(g["w"], Y3)
    close(g["x"][0], X3)
    close(g["x"][1], np.cos(0.5))


def test_grad_has_aux():
    def f(x):
        y = jnp.sin(x)
        return jnp.sum(y), {"y": y, "n": x.shape[0]}

    g, aux = jax.grad(f, has_aux=True)(jnp.asarray(X3))
    close(g, np.cos(X3))
    close(aux["y"], np.sin(X3))
    assert aux["n"] == 3


def test_value_and_grad_has_aux():
    (v, aux), g = jax.value_and_grad(lambda x: (x * x, x + 1.0), has_aux=True)(3.0)
    close(v, 9.0)
    close(aux, 4.0)
    close(g, 6.0)


def test_grad_allow_int_gives_float0_for_int_argument():
    gx, gi = jax.grad(lambda x, i: x * i, argnums=(0, 1), allow_int=True)(2.0, 3)
    close(gx, 3.0)
    assert gi.dtype == jax.dtypes.float0


def test_grad_of_function_with_integer_nondiff_arg():
    # Only argument 0 is differentiated, so an int in argument 1 is fine.
    close(jax.grad(lambda x, n: x**n)(2.0, 3), 3 * 2.0**2)


def test_jvp_pytree_and_multiple_outputs():
    def f(p):
        return {"s": jnp.sin(p[0]) * p[1], "c": jnp.cos(p[0])}

    x, y = np.float32(0.4), np.float32(1.5)
    tx, ty = np.float32(1.0), np.float32(-2.0)
    out, tout = jax.jvp(f, ((x, y),), ((tx, ty),))
    close(out["s"], np.sin(x) * y)
    close(out["c"], np.cos(x))
    close(tout["s"], np.cos(x) * y * tx + np.sin(x) * ty)
    close(tout["c"], -np.sin(x) * tx)


def test_jvp_of_constant_function_has_zero_tangent():
    y, t = jax.jvp(lambda x: jnp.ones(3), (jnp.asarray(X3),), (jnp.ones(3),))
    close(y, np.ones(3))
    close(t, np.zeros(3))


def test_linearize_matches_jvp_for_many_tangents():
    def f(x):
        return jnp.sin(x) * jnp.sum(x * x)

    x = jnp.asarray(X3)
    y, f_lin = jax.linearize(f, x)
    close(y, np.sin(X3) * np.sum(X3 * X3))
    for t in [np.ones(3, np.float32), Y3, np.array([0.0, 1.0, 0.0], np.float32)]:
        _, expected = jax.jvp(f, (x,), (jnp.asarray(t),))
        close(f_lin(jnp.asarray(t)), expected)
    # Linearity: f_lin(a t1 + t2) = a f_lin(t1) + f_lin(t2).
    t1, t2 = jnp.asarray(Y3), jnp.ones(3)
    close(f_lin(2.0 * t1 + t2), 2.0 * np.asarray(f_lin(t1)) + np.asarray(f_lin(t2)))


def test_linearize_multiple_args():
    y, f_lin = jax.linearize(lambda a, b: a * jnp.exp(b), 2.0, 0.5)
    close(y, 2.0 * np.exp(0.5))
    close(f_lin(1.0, 0.0), np.exp(0.5))
    close(f_lin(0.0, 1.0), 2.0 * np.exp(0.5))


def test_vjp_has_aux_and_multiple_args():
    def f(x, y):
        return x * y, jnp.sum(x)

    out, f_vjp, aux = jax.vjp(f, jnp.asarray(X3), jnp.asarray(Y3), has_aux=True)
    close(out, X3 * Y3)
    close(aux, np.sum(X3))
    ct = np.array([1.0, 2.0, 3.0], np.float32)
    gx, gy = f_vjp(jnp.asarray(ct))
    close(gx, ct * Y3)
    close(gy, ct * X3)


def test_vjp_pytree_output():
    out, f_vjp = jax.vjp(lambda x: (jnp.sin(x), {"sq": x * x}), jnp.asarray(X3))
    close(out[1]["sq"], X3 * X3)
    ct = (jnp.ones(3), {"sq": jnp.asarray(Y3)})
    (g,) = f_vjp(ct)
    close(g, np.cos(X3) + 2 * X3 * Y3)


def test_vjp_function_reusable():
    _, f_vjp = jax.vjp(jnp.exp, jnp.asarray(X3))
    for ct in [np.ones(3, np.float32), Y3]:
        close(f_vjp(jnp.asarray(ct))[0], np.exp(X3) * ct)


def _jac_f(x):
    return jnp.sin(x) * jnp.sum(x)


def _jac_expected(x):
    x = x.astype(np.float64)
    return np.diag(np.cos(x) * np.sum(x)) + np.sin(x)[:, None] * np.ones((1, x.size))


@pytest.mark.parametrize("jac", ["jacfwd", "jacrev"])
def test_jacobian_analytic(jac):
    J = getattr(jax, jac)(_jac_f)(jnp.asarray(X3))
    assert J.shape == (3, 3)
    close(J, _jac_expected(X3))


@pytest.mark.parametrize("jac", ["jacfwd", "jacrev"])
def test_jacobian_nonsquare_and_argnums(jac):
    M = jnp.asarray(A)

    def f(x, y):
        return M @ x + 2.0 * y[:2]

    Jx, Jy = getattr(jax, jac)(f, argnums=(0, 1))(jnp.asarray(X3), jnp.asarray(Y3))
    close(Jx, A)
    close(Jy, 2.0 * np.eye(2, 3))


@pytest.mark.parametrize("jac", ["jacfwd", "jacrev"])
def test_jacobian_pytree_output(jac):
    J = getattr(jax, jac)(lambda x: {"a": x * x, "b": jnp.sum(x)})(jnp.asarray(X3))
    close(J["a"], np.diag(2 * X3))
    close(J["b"], np.ones(3))


def test_jacfwd_equals_jacrev_on_matrix_input():
    def f(m):
        return jnp.tanh(m @ jnp.transpose(m))

    m = jnp.asarray(A)
    Jf, Jr = jax.jacfwd(f)(m), jax.jacrev(f)(m)
    assert Jf.shape == (2, 2, 2, 3)
    close(Jf, Jr)


def test_hessian_of_quadratic_form():
    B = np.array([[2.0, 1.0, 0.0], [-1.0, 3.0, 0.5], [0.2, 0.0, 1.0]], np.float32)
    H = jax.hessian(lambda x: jnp.dot(x, jnp.asarray(B) @ x))(jnp.asarray(X3))
    close(H, B + B.T)


def test_hessian_analytic_nonlinear():
    # f(x) = sum(sin(x)) * x0 ; H = diag(-sin x) * x0 + e0 cos(x)^T + cos(x) e0^T
    def f(x):
        return jnp.sum(jnp.sin(x)) * x[0]

    x = X3.astype(np.float64)
    e0 = np.eye(3)[0]
    expected = np.diag(-np.sin(x)) * x[0] + np.outer(e0, np.cos(x)) + np.outer(np.cos(x), e0)
    close(jax.hessian(f)(jnp.asarray(X3)), expected, rtol=1e-4)


def test_linear_transpose_matvec():
    M = jnp.asarray(A)
    f_t = jax.linear_transpose(lambda x: M @ x, jnp.zeros(3))
    ct = np.array([1.0, -2.0], np.float32)
    (res,) = f_t(jnp.asarray(ct))
    close(res, A.T @ ct)


def test_linear_transpose_multiple_inputs():
    f_t = jax.linear_transpose(lambda x, y: 2.0 * x - y, 1.0, 1.0)
    gx, gy = f_t(3.0)
    close(gx, 6.0)
    close(gy, -3.0)


def test_linear_transpose_of_sum_and_reshape():
    f_t = jax.linear_transpose(lambda x: jnp.sum(jnp.reshape(x, (2, 3)), axis=0), jnp.zeros(6))
    ct = np.array([1.0, 2.0, 3.0], np.float32)
    (res,) = f_t(jnp.asarray(ct))
    close(res, np.tile(ct, 2))


@pytest.mark.parametrize(
    "f,df",
    [
        (lambda x: x * jax.lax.stop_gradient(x), lambda x: x),
        (lambda x: jax.lax.stop_gradient(jnp.sin(x)) + jnp.cos(x), lambda x: -np.sin(x)),
        (lambda x: jnp.exp(jax.lax.stop_gradient(x * x)), lambda x: 0.0 * x),
    ],
)
def test_stop_gradient(f, df):
    close(jax.grad(f)(0.7), df(np.float64(0.7)))
    close(jax.jit(jax.grad(f))(0.7), df(np.float64(0.7)))


def test_stop_gradient_value_unchanged():
    close(jax.lax.stop_gradient(jnp.asarray(X3)), X3)
    _, t = jax.jvp(jax.lax.stop_gradient, (jnp.asarray(X3),), (jnp.ones(3),))
    close(t, np.zeros(3))


# ---------------------------------------------------------------- custom_jvp


def _make_custom_jvp_with_scaled_rule(scale):
    """A custom_jvp sin whose tangent rule is deliberately scale*cos, so tests see it is used."""

    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), scale * jnp.cos(x) * t

    return f


def test_custom_jvp_rule_is_used():
    f = _make_custom_jvp_with_scaled_rule(3.0)
    close(f(0.4), np.sin(0.4))
    y, t = jax.jvp(f, (0.4,), (2.0,))
    close(y, np.sin(0.4))
    close(t, 6.0 * np.cos(0.4))
    close(jax.grad(f)(0.4), 3.0 * np.cos(0.4))
    close(jax.jit(jax.grad(f))(0.4), 3.0 * np.cos(0.4))


def test_custom_jvp_second_order_and_vmap():
    f = _make_custom_jvp_with_scaled_rule(2.0)
    # d/dx of the rule's tangent 2*cos(x) is -2*sin(x) (f(x) inside the rule is differentiated
    # with the rule again, but cos is plain).
    close(jax.grad(jax.grad(f))(0.4), -2.0 * np.sin(0.4))
    close(jax.vmap(jax.grad(f))(jnp.asarray(X3)), 2.0 * np.cos(X3))


def test_custom_jvp_numerically_stable_log1pexp():
    @jax.custom_jvp
    def softplus(x):
        return jnp.log(1.0 + jnp.exp(x))

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return softplus(x), t * (1.0 - 1.0 / (1.0 + jnp.exp(x)))

    # The naive derivative would be inf/inf = nan at x=100; the custom rule gives 1.
    close(jax.grad(softplus)(100.0), 1.0)
    close(jax.grad(softplus)(0.3), 1 / (1 + np.exp(-0.3)))


def test_custom_jvp_defjvps():
    @jax.custom_jvp
    def f(x, y):
        return x * y

    f.defjvps(lambda tx, ans, x, y: 10.0 * tx * y, lambda ty, ans, x, y: 100.0 * x * ty)
    x, y = 2.0, 3.0
    _, t = jax.jvp(f, (x, y), (1.0, 0.0))
    close(t, 10.0 * y)
    _, t = jax.jvp(f, (x, y), (0.0, 1.0))
    close(t, 100.0 * x)
    gx, gy = jax.grad(f, argnums=(0, 1))(x, y)
    close(gx, 10.0 * y)
    close(gy, 100.0 * x)


def test_custom_jvp_defjvps_with_none():
    @jax.custom_jvp
    def f(x, y):
        return jnp.sin(x) * y

    f.defjvps(lambda tx, ans, x, y: jnp.cos(x) * y * tx, None)
    gx, gy = jax.grad(f, argnums=(0, 1))(0.5, 2.0)
    close(gx, np.cos(0.5) * 2.0)
    close(gy, 0.0)


def test_custom_jvp_nondiff_argnums():
    def app(fn, x):
        return fn(x)

    app = jax.custom_jvp(app, nondiff_argnums=(0,))

    @app.defjvp
    def app_jvp(fn, primals, tangents):
        (x,), (t,) = primals, tangents
        return app(fn, x), 5.0 * t

    close(app(jnp.sin, 0.3), np.sin(0.3))
    close(jax.grad(lambda x: app(jnp.sin, x))(0.3), 5.0)
    _, t = jax.jvp(lambda x: app(jnp.cos, x), (0.3,), (2.0,))
    close(t, 10.0)


def test_custom_jvp_nondiff_int_arg():
    def power(n, x):
        return x**n

    power = jax.custom_jvp(power, nondiff_argnums=(0,))

    @power.defjvp
    def power_jvp(n, primals, tangents):
        (x,), (t,) = primals, tangents
        return power(n, x), n * x ** (n - 1) * t

    close(jax.grad(power, argnums=1)(3, 2.0), 12.0)
    close(jax.jit(jax.grad(power, argnums=1), static_argnums=0)(4, 2.0), 32.0)


# ---------------------------------------------------------------- custom_vjp


def test_custom_vjp_rule_is_used():
    @jax.custom_vjp
    def clip_grad(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        return (jnp.where(g > 1.0, 1.0, jnp.where(g < -1.0, -1.0, g)),)

    clip_grad.defvjp(fwd, bwd)

    def f(x):
        return jnp.sum(clip_grad(x) * jnp.asarray([5.0, 0.5, -3.0]))

    close(f(jnp.ones(3)), np.sum([5.0, 0.5, -3.0]))
    close(jax.grad(f)(jnp.ones(3)), np.clip([5.0, 0.5, -3.0], -1, 1))
    close(jax.jit(jax.grad(f))(jnp.ones(3)), np.clip([5.0, 0.5, -3.0], -1, 1))


def test_custom_vjp_pytree_residuals_and_args():
    @jax.custom_vjp
    def f(p, y):
        return jnp.sin(p["a"]) * y + p["b"]

    def f_fwd(p, y):
        res = {"cos": jnp.cos(p["a"]), "sin": jnp.sin(p["a"]), "ys": (y, 2.0 * y)}
        return f(p, y), res

    def f_bwd(res, g):
        y = res["ys"][0]
        return {"a": g * res["cos"] * y, "b": g}, g * res["sin"]

    f.defvjp(f_fwd, f_bwd)
    p = {"a": jnp.asarray(X3), "b": jnp.asarray(Y3)}
    y = jnp.asarray(Y3)
    gp, gy = jax.grad(lambda p, y: jnp.sum(f(p, y)), argnums=(0, 1))(p, y)
    close(gp["a"], np.cos(X3) * Y3)
    close(gp["b"], np.ones(3))
    close(gy, np.sin(X3))


def test_custom_vjp_nondiff_argnums():
    def scaled(k, x):
        return k * x

    scaled = jax.custom_vjp(scaled, nondiff_argnums=(0,))
    scaled.defvjp(lambda k, x: (k * x, None), lambda k, res, g: (7.0 * g,))
    close(scaled(2.0, 3.0), 6.0)
    close(jax.grad(scaled, argnums=1)(2.0, 3.0), 7.0)


def test_custom_vjp_under_vmap_and_value():
    @jax.custom_vjp
    def f(x):
        return jnp.exp(x)

    f.defvjp(lambda x: (jnp.exp(x), jnp.exp(x)), lambda e, g: (2.0 * e * g,))
    close(jax.vmap(f)(jnp.asarray(X3)), np.exp(X3))
    close(jax.vmap(jax.grad(f))(jnp.asarray(X3)), 2.0 * np.exp(X3))


def test_custom_vjp_jvp_raises_type_error():
    @jax.custom_vjp
    def f(x):
        return x

    f.defvjp(lambda x: (x, None), lambda _, g: (g,))
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        jax.jvp(f, (1.0,), (1.0,))


def test_custom_vjp_bwd_wrong_number_of_cotangents():
    @jax.custom_vjp
    def f(x, y):
        return x * y

    f.defvjp(lambda x, y: (x * y, (x, y)), lambda res, g: (g * res[1],))
    with pytest.raises(TypeError):
        jax.grad(f)(1.0, 2.0)


# ---------------------------------------------------------------- checkpoint


def _counting_checkpoint_setup():
    """A function whose first stage runs through a counted pure_callback.

    The stage is sin(x) with a tangent rule that needs only x. The backward pass needs the
    dot's output z (for cos(z)); if z is not saved it must be recomputed from the callback's
    output, which runs the callback again. dots_saveable keeps z, so no recomputation.
    """
    counts = {"trace": 0, "run": 0}

    def np_sin(x):
        counts["run"] += 1
        return np.sin(x).astype(x.dtype)

    @jax.custom_jvp
    def csin(x):
        return jax.pure_callback(np_sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    @csin.defjvp
    def csin_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return csin(x), jnp.cos(x) * t

    M_np = np.array([[0.5, -1.0, 0.2], [0.3, 0.1, 0.7], [1.0, 0.0, -0.4]])
    M = jnp.asarray(M_np.astype(np.float32))

    def f(x):
        counts["trace"] += 1
        return jnp.sum(jnp.sin(M @ csin(x)))

    def expected_grad(x):
        x = np.asarray(x, np.float64)
        return (M_np.T @ np.cos(M_np @ np.sin(x))) * np.cos(x)

    return counts, f, expected_grad


@pytest.mark.parametrize(
    "policy_name,runs",
    [(None, 2), ("nothing_saveable", 2), ("everything_saveable", 1), ("dots_saveable", 1)],
)
def test_checkpoint_policy_controls_recomputation(policy_name, runs):
    counts, f, expected_grad = _counting_checkpoint_setup()
    policy = None if policy_name is None else getattr(jax.checkpoint_policies, policy_name)
    x = jnp.asarray(np.array([0.1, -0.2, 0.3], np.float32))
    g = jax.grad(jax.checkpoint(f, policy=policy))(x)
    close(g, expected_grad(x), rtol=1e-4)
    assert counts["run"] == runs
    # The Python function is traced once; rematerialisation replays the recorded computation.
    assert counts["trace"] == 1


def test_without_checkpoint_forward_runs_once():
    counts, f, expected_grad = _counting_checkpoint_setup()
    x = jnp.asarray(np.array([0.1, -0.2, 0.3], np.float32))
    close(jax.grad(f)(x), expected_grad(x), rtol=1e-4)
    assert counts == {"trace": 1, "run": 1}


def test_checkpoint_values_under_jit_and_value_and_grad():
    def f(x):
        return jnp.sum(jnp.sin(x) * jnp.cos(x))

    x = jnp.asarray(X3)
    cf = jax.checkpoint(f)
    close(cf(x), np.sum(np.sin(X3) * np.cos(X3)))
    v, g = jax.jit(jax.value_and_grad(cf))(x)
    close(v, np.sum(np.sin(X3) * np.cos(X3)))
    close(g, np.cos(2 * X3.astype(np.float64)))
    close(jax.grad(jax.grad(jax.checkpoint(jnp.sin)))(0.3), -np.sin(0.3))


def test_remat_alias():
    close(jax.grad(jax.remat(lambda x: x * jnp.exp(x)))(0.5), np.exp(0.5) * 1.5)


# ---------------------------------------------------------------- nesting


def test_no_perturbation_confusion_grad():
    # d/dx [ x * d/dy (x + y) ] = d/dx [ x * 1 ] = 1; confusing perturbations would give 2.
    def outer(x):
        return x * jax.grad(lambda y: x + y)(1.0)

    close(jax.grad(outer)(2.0), 1.0)


def test_no_perturbation_confusion_jvp():
    def outer(x):
        _, t = jax.jvp(lambda y: x * y, (1.0,), (1.0,))
        return t * x

    # inner tangent is x, so outer(x) = x**2 and its derivative is 2x.
    _, t = jax.jvp(outer, (3.0,), (1.0,))
    close(t, 6.0)


def test_nested_grad_closing_over_outer_variable():
    # g(x) = d/dy [sin(x*y)] at y=x = x cos(x^2); g'(x) = cos(x^2) - 2 x^2 sin(x^2)
    def g(x):
        return jax.grad(lambda y: jnp.sin(x * y))(x)

    x = 0.8
    close(jax.grad(g)(x), np.cos(x * x) - 2 * x * x * np.sin(x * x), rtol=1e-4)


def test_mixed_forward_over_reverse():
    def f(x):
        return jnp.sum(jnp.sin(x) * x)

    x = jnp.asarray(X3)
    v = jnp.asarray(Y3)
    # Hessian-vector product via jvp of grad.
    _, hvp = jax.jvp(jax.grad(f), (x,), (v,))
    h_diag = 2 * np.cos(X3) - X3 * np.sin(X3)
    close(hvp, h_diag * Y3, rtol=1e-4)
    close(jax.jacfwd(jax.grad(f))(x), np.diag(h_diag), rtol=1e-4)


def test_third_derivative():
    close(jax.grad(jax.grad(jax.grad(jnp.sin)))(0.6), -np.cos(0.6), rtol=1e-4)


# ---------------------------------------------------------------- errors


def test_grad_of_non_scalar_output_is_type_error():
    with pytest.raises(TypeError, match="Gradient only defined for scalar-output functions"):
        jax.grad(lambda x: x * 2.0)(jnp.ones(3))


@pytest.mark.parametrize("x", [3, np.arange(3, dtype=np.int32), True])
def test_grad_of_integer_input_is_type_error(x):
    with pytest.raises(TypeError, match="grad requires real- or complex-valued inputs"):
        jax.grad(lambda v: jnp.sum(v * 2.0))(x)


def test_grad_has_aux_requires_pair():
    with pytest.raises(TypeError):
        jax.grad(lambda x: x, has_aux=True)(1.0)


@pytest.mark.parametrize("tangent_dtype", [np.int32, np.float16])
def test_jvp_tangent_dtype_mismatch(tangent_dtype):
    with pytest.raises(TypeError):
        jax.jvp(jnp.sin, (jnp.ones(3),), (jnp.ones(3, dtype=tangent_dtype),))


def test_jvp_tangent_shape_mismatch():
    with pytest.raises(ValueError):
        jax.jvp(jnp.sin, (jnp.ones(3),), (jnp.ones(4),))


def test_jvp_tangent_structure_mismatch():
    with pytest.raises(TypeError):
        jax.jvp(jnp.sin, (jnp.ones(3),), (jnp.ones(3), jnp.ones(3)))


def test_vjp_cotangent_shape_mismatch():
    _, f_vjp = jax.vjp(jnp.sin, jnp.ones(3))
    with pytest.raises(ValueError):
        f_vjp(jnp.ones(4))
