"""Regression tests for compositions of transformations around ``lax.scan`` found by
differential testing against JAX 0.10.2. Every expected value is JAX's; the file also
passes in oracle mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite import lax

_X3 = np.array([0.5, -1.5, 2.0], np.float32)


def _custom_sin_mul():
    seen = []

    @jaxlite.custom_vjp
    def f(x, y):
        return jnp.sin(x) * y

    def fwd(x, y):
        return f(x, y), (jnp.cos(x), y)

    def bwd(res, g):
        seen.append(g.aval.weak_type)
        c, y = res
        return (5.0 * g * c * y, g * 2.0)

    f.defvjp(fwd, bwd)
    return f, seen


@pytest.mark.parametrize("jit", [False, True])
def test_grad_through_scan_with_python_scalar_carry_and_custom_vjp_is_strong(jit):
    # The carry starts as the Python float 1.0 (weak) and becomes strong in the body. The
    # transposed scan used to be traced at the weak initial carry's type, so the custom
    # rule saw a weak cotangent and grad w.r.t. a float32 array came out weak (JAX: strong).
    f, seen = _custom_sin_mul()

    def g(x):
        return lax.scan(lambda c, xi: (f(c, xi), c), 1.0, x)[0]

    gr = jaxlite.jit(jaxlite.grad(g)) if jit else jaxlite.grad(g)
    out = gr(_X3)
    assert out.dtype == jnp.float32 and not out.weak_type
    np.testing.assert_allclose(np.asarray(out), [-112.016754, 16.362566, 2.0], rtol=1e-5)
    assert seen and not any(seen)


def test_grad_through_ys_of_a_python_scalar_carry_is_strong():
    # ys are the weak carry itself; the cotangent of the (strong) final carry is a
    # symbolic zero of the strong type. JAX: 1.0, strong (jaxlite was weak).
    x = np.float32(0.5)

    def f(x):
        return lax.scan(lambda c, xi: (c * 2.0 + xi, c), 1.0, jnp.stack([x, x]))[1].sum()

    out = jaxlite.grad(f)(x)
    assert out.dtype == jnp.float32 and not out.weak_type
    assert float(out) == 1.0
    out = jaxlite.vmap(jaxlite.grad(f))(np.array([0.5, 2.0], np.float32))
    assert not out.weak_type
    np.testing.assert_array_equal(np.asarray(out), [1.0, 1.0])


def test_static_fori_loop_grad_with_python_scalar_carry():
    # Static bounds make fori_loop a scan (reverse-differentiable): 7.0, strong, in JAX.
    x = np.float32(0.5)
    out = jaxlite.grad(lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2.0 + x, 1.0))(x)
    assert out.dtype == jnp.float32 and not out.weak_type
    assert float(out) == 7.0
