"""Regression tests for wrong derivatives of ``jax.nn`` activations found by a sweep against
JAX 0.10.2 (eager, jit and ``vmap(grad)`` over edge inputs in float32/float16/bfloat16).
Every expected value is JAX's; the file also passes in oracle mode."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp

_X = np.array([-np.inf, -7.0, -3.0, -1.0, -0.0, 0.0, 1.0, 3.0, 6.0, 7.0, np.inf], np.float32)


def _grads(fn, x, dtype=jnp.float32):
    g = jaxlite.vmap(jaxlite.grad(fn))(jnp.asarray(np.asarray(x, dtype)))
    return np.asarray(g, np.float64)


@pytest.mark.parametrize("dtype", [jnp.float32, jnp.float16, jnp.bfloat16])
@pytest.mark.parametrize("jit", [False, True])
def test_relu6_derivative_is_zero_at_both_kinks(dtype, jit):
    # JAX: 1 on the open interval (0, 6), 0 elsewhere (was 0.5 at 0, -0 and 6).
    fn = jaxlite.jit(jaxlite.nn.relu6) if jit else jaxlite.nn.relu6
    want = [0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0]
    np.testing.assert_array_equal(_grads(fn, _X, dtype), want)
    np.testing.assert_array_equal(np.asarray(fn(jnp.asarray(_X))), np.clip(_X, 0, 6))


def test_relu6_second_derivative_is_zero():
    g2 = jaxlite.vmap(jaxlite.grad(jaxlite.grad(jaxlite.nn.relu6)))(jnp.asarray(_X))
    np.testing.assert_array_equal(np.asarray(g2), np.zeros(_X.shape))


def test_relu6_of_nan_and_int_input():
    assert np.isnan(float(jaxlite.nn.relu6(jnp.float32(np.nan))))
    # JAX clips against the Python float 6.0: an integer input gives weak float32.
    out = jaxlite.nn.relu6(jnp.array([-2, 3, 9], jnp.int32))
    assert out.dtype == jnp.float32 and out.weak_type
    np.testing.assert_array_equal(np.asarray(out), [0, 3, 6])


def test_hard_sigmoid_and_hard_silu_derivatives_at_the_kinks():
    # hard_sigmoid = relu6(x + 3) / 6: derivative 0 at -3 and 3 (was 1/12).
    want = [0, 0, 0, 1 / 6, 1 / 6, 1 / 6, 1 / 6, 0, 0, 0, 0]
    np.testing.assert_allclose(_grads(jaxlite.nn.hard_sigmoid, _X), want, rtol=1e-6)
    # hard_silu = x * hard_sigmoid(x): 1 at 3 and at +inf, 0 at -3 and -inf (was 1.25,
    # -0.25 and NaN at the infinities).
    g = _grads(jaxlite.nn.hard_silu, _X)
    np.testing.assert_allclose(g[[0, 2, 7, 10]], [0, 0, 1, 1])
    np.testing.assert_allclose(g[[3, 5, 6]], [1 / 6, 0.5, 5 / 6], rtol=1e-6)


@pytest.mark.parametrize("jit", [False, True])
def test_log1mexp_derivative_is_one_over_expm1(jit):
    x = np.array([-100.0, -10.0, -1.0, 0.1, np.log(2.0), 1.0, 5.0, 30.0], np.float32)
    fn = jaxlite.jit(jaxlite.nn.log1mexp) if jit else jaxlite.nn.log1mexp
    # JAX's JVP rule g / expm1(x): finite (-1) far below zero, where the value is NaN.
    want = 1.0 / np.expm1(x.astype(np.float64))
    np.testing.assert_allclose(_grads(fn, x), want, rtol=2e-6)
    v = np.asarray(fn(jnp.asarray(x)))
    assert np.isnan(v[:3]).all()
    np.testing.assert_allclose(v[3:], np.log1p(-np.exp(-x[3:].astype(np.float64))), rtol=2e-6)
