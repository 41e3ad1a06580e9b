"""Session 26's higher-order derivative sweep (tests/hunt/sweep_hoad_s26.py): the families
it found wrong, pinned with reduced cases. Each case is compared with JAX where JAX is
importable (tests/hunt/oracle.py) and asserted against a hand-derived value in any case.

* A custom_vjp function whose input tangent does not depend on the linear inputs (a
  custom_jvp rule returning ``zeros_like``, upstream of it): linearizing bound its tangent
  map ``custom_lin`` on known operands, which evaluated it forward, the jvp-of-custom_vjp
  TypeError (eager ``grad`` / ``vjp`` / ``linearize``), the same in the known half of a
  ``scan`` / ``cond`` / ``checkpoint`` body, and NotImplementedError under a second
  ``jacrev``. A linear map of nothing is zero: JAX answers.
"""

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE, run, same


def _zero_tangent_chain(m):
    """``f(x) = cv(cj(x))`` with ``cj = sin`` whose custom_jvp rule says its derivative
    is 0 (a ``zeros_like`` tangent) and ``cv = u**2`` a custom_vjp function: every
    derivative of ``f`` is 0."""

    @m.jx.custom_vjp
    def cv(u):
        return u * u

    cv.defvjp(lambda u: (u * u, u), lambda u, g: (2 * u * g,))

    @m.jx.custom_jvp
    def cj(u):
        return m.jnp.sin(u)

    @cj.defjvp
    def _cj_jvp(primals, tangents):
        (u,) = primals
        return m.jnp.sin(u), m.jnp.zeros_like(u)

    return cv, cj


X2 = np.array([1.0, 2.0], np.float32)


@pytest.mark.parametrize("how", ["grad", "vjp", "linearize", "jit_grad", "revrev", "gradgrad"])
def test_custom_vjp_after_zero_tangent_rule(how):
    def build(m):
        cv, cj = _zero_tangent_chain(m)

        def f(x):
            return m.jnp.sum(cv(cj(x)) + x * x)  # the x * x term: derivative 2x, 2

        if how == "grad":
            return m.jx.grad(f)(X2)
        if how == "jit_grad":
            return m.jx.jit(m.jx.grad(f))(X2)
        if how == "vjp":
            return m.jx.vjp(f, X2)[1](np.float32(1.0))[0]
        if how == "linearize":
            return m.jx.linearize(f, X2)[1](np.ones(2, np.float32))
        if how == "revrev":
            return m.jx.jacrev(m.jx.jacrev(f))(X2)
        return m.jx.grad(lambda x: m.jx.grad(f)(x).sum())(X2)

    out = np.asarray(same(build, signs=False))
    expected = {
        "linearize": 2 * X2.sum(),
        "revrev": 2 * np.eye(2),
        "gradgrad": np.full(2, 2.0),
    }.get(how, 2 * X2)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


@pytest.mark.parametrize("where", ["scan", "cond", "checkpoint"])
def test_custom_vjp_after_zero_tangent_rule_in_bodies(where):
    # f(x) = sum(b(x) * x), b = cv(cj(x)) of zero derivative by its rules (b is sin(x)**2):
    # grad = b(x) = sin(x)**2, the Hessian diag(d/dx sin(x)**2) = diag(sin(2x)).
    def build(m):
        cv, cj = _zero_tangent_chain(m)

        def body(y):
            return cv(cj(y))

        def f(x):
            if where == "scan":
                b = m.lax.scan(lambda c, _: (body(c), None), x, None, length=1)[0]
            elif where == "cond":
                b = m.lax.cond(x[0] > 0, body, lambda y: y, x)
            else:
                b = m.jx.checkpoint(body)(x)
            return m.jnp.sum(b * x)

        if where == "checkpoint" and m is not LITE:
            # JAX answers only jit(grad): its eager grad raises the jvp-of-custom_vjp
            # TypeError and its jacrev(jacrev) NotImplementedError (docs/compat.md)
            return m.jx.jit(m.jx.grad(f))(X2)
        return m.jx.jit(m.jx.grad(f))(X2), m.jx.grad(f)(X2), m.jx.jacrev(m.jx.jacrev(f))(X2)

    if where == "checkpoint":
        gj = same(lambda m: build(m) if m is not LITE else build(m)[0], signs=False)
        _, g, h = build(LITE)
        np.testing.assert_allclose(np.asarray(gj), np.asarray(g), rtol=1e-6)
    else:
        gj, g, h = same(build, signs=False)
    np.testing.assert_allclose(np.asarray(gj), np.sin(X2) ** 2, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(g), np.sin(X2) ** 2, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(h), np.diag(np.sin(2 * X2)), rtol=1e-6, atol=1e-7)


def test_forward_over_reverse_of_custom_vjp():
    # jacfwd(jacrev(f)) of a custom_vjp function: the outer forward mode runs through fwd
    # and bwd (ordinary code), never the tangent map; JAX answers, and so must jaxlite.
    def build(m):
        cv, _ = _zero_tangent_chain(m)
        return m.jx.hessian(lambda x: m.jnp.sum(cv(x)))(X2)

    np.testing.assert_allclose(np.asarray(same(build)), 2 * np.eye(2), rtol=1e-6)


@pytest.mark.parametrize("where", ["scan", "cond"])
def test_forward_over_reverse_after_zero_tangent_rule_in_bodies(where):
    # JAX raises its jvp-of-custom_vjp TypeError here (the tangent map sits in the known
    # half of the loop / branch that the outer jvp differentiates); jaxlite answers the
    # value, zero for the custom functions' term (docs/compat.md). It raised
    # NotImplementedError for custom_lin's missing jvp rule before.
    def build(m):
        cv, cj = _zero_tangent_chain(m)

        def f(x):
            if where == "scan":
                b = m.lax.scan(lambda c, _: (c + cv(cj(c)), None), x, None, length=1)[0]
            else:
                b = m.lax.cond(x[0] > 0, lambda y: cv(cj(y)) + y * y, lambda y: y, x)
            return m.jnp.sum(b)

        return m.jx.hessian(f)(X2)

    if JAX is not None:
        kind, err = run(build, JAX)
        assert kind == "err" and isinstance(err, TypeError), err
    expected = np.zeros((2, 2)) if where == "scan" else 2 * np.eye(2)
    np.testing.assert_array_equal(np.asarray(build(LITE)), expected)


def test_grad_of_grad_through_loop_of_custom_vjp_calling_vjp():
    # JAX raises ValueError ("unexpected JAX type ... for argument to VJP function") for
    # the loop (docs/compat.md); the loop must equal the unrolled program, which JAX
    # answers too.
    x = np.array([-0.846, 0.262, -0.642], np.float32)

    def make(m):
        @m.jx.custom_vjp
        def cv(u):
            return m.jnp.clip(u, -0.5, 0.5)

        def bwd(u, g):
            return (
                m.jx.vjp(lambda v: m.jnp.clip(v, -0.5, 0.5), u)[1](g)[0]
                * (1 + 0.25 * m.jnp.sin(u)),
            )

        cv.defvjp(lambda u: (cv(u), u), bwd)
        return cv

    def unrolled(m):
        cv = make(m)
        f = lambda x: m.jnp.sum(cv(cv(cv(x) * 1.0) * 1.1) * 1.2)  # noqa: E731
        return m.jx.grad(lambda x: m.jx.grad(f)(x).sum())(x)

    cv = make(LITE)
    loop = LITE.lax.fori_loop
    f = lambda x: LITE.jnp.sum(loop(0, 3, lambda i, c: cv(c) * (1.0 + 0.1 * i), x))  # noqa: E731
    got = np.asarray(LITE.jx.grad(lambda x: LITE.jx.grad(f)(x).sum())(x))
    np.testing.assert_allclose(got, np.asarray(same(unrolled)), rtol=1e-6)
    # by hand: only x[1] is inside the clip, where cv's primal is the identity: the carries
    # are c0 = x, c1 = x, c2 = 1.1 x and grad = 1.32 F(c0) F(c1) F(c2), F(u) = 1 + sin(u) / 4
    # (bwd's factor); its derivative differentiates the carries with the custom rule
    # again: dc1 = F(c0), dc2 = 1.1 F(c1) F(c0).
    c = x[1].astype(np.float64) * np.array([1.0, 1.0, 1.1])
    F, dF = 1 + 0.25 * np.sin(c), 0.25 * np.cos(c)
    dc = [1.0, F[0], 1.1 * F[1] * F[0]]
    d = 1.32 * sum(dF[k] * dc[k] * np.prod(np.delete(F, k)) for k in range(3))
    np.testing.assert_allclose(got, [0, d, 0], rtol=1e-5)


def test_pow_second_reverse_derivative_at_zero_base():
    # pow's derivative in y is x**y log(x) with log(0) masked to 0; the mask came after
    # log(0) = -inf, so reverse over reverse multiplied the masked branch's 0 cotangent by
    # 1 / 0: NaN in the Hessian's cross terms at x = 0 (jnp.power, float_power, **).
    x = np.array([0.0, -0.0, 2.0], np.float32)
    y = np.array([2.0, 3.0, 1.5], np.float32)

    def build(m):
        f = lambda x, y: m.jnp.power(x, y).sum()  # noqa: E731
        return m.jx.jacrev(m.jx.jacrev(f, argnums=(0, 1)), argnums=(0, 1))(x, y)

    (_, dxdy), _ = same(build, signs=False)
    # d2/dxdy x**y = x**(y-1) (1 + y log x): 0 at x = 0 (y > 1), sqrt(2) (1 + 1.5 log 2)
    np.testing.assert_allclose(
        np.asarray(dxdy), np.diag([0.0, 0.0, np.sqrt(2) * (1 + 1.5 * np.log(2))]), rtol=1e-6
    )


@pytest.mark.parametrize("name", ["spence", "si"])
def test_masked_derivative_second_reverse_at_masked_points(name):
    # spence' = log(x) / (1 - x) masked to 0 at x <= 0 and x = 1, sici's Si' = sin(x) / x
    # masked to 1 at 0: the masks came after log(0) / 0 / 0, which reverse over reverse
    # multiplied by the masked branch's zero cotangent (NaN rows in jacrev(jacrev)).
    x = np.array([0.0, -1.0, 1.0, 0.5], np.float32)

    def build(m):
        fn = m.sp.spence if name == "spence" else (lambda x: m.sp.sici(x)[0])
        return m.jx.jacrev(m.jx.jacrev(lambda x: fn(x).sum()))(x)

    h = np.asarray(same(build, signs=False, rtol=1e-4))
    if name == "spence":  # (log(x) / (1 - x))' = 1 / (x (1 - x)) + log(x) / (1 - x)**2
        d = [0.0, 0.0, 0.0, 4 + 4 * np.log(0.5)]
    else:  # (sin(x) / x)' = cos(x) / x - sin(x) / x**2, 0 at 0
        d = [0.0] + [np.cos(v) / v - np.sin(v) / v**2 for v in x[1:].astype(np.float64)]
    np.testing.assert_allclose(h, np.diag(d), rtol=1e-4, atol=1e-6)
