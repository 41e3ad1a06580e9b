"""Real float functions at signed zeros and 0-d operands, as JAX 0.10.2 (session 11 sweeps of
the unary and binary jnp ufuncs over an edge grid, float16/bfloat16/float32/float64, array,
0-d and scalar operands, eager and jit). Expected values are JAX's (the file passes in oracle
mode)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


@pytest.mark.parametrize("jitted", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_nextafter_of_equal_operands_is_the_second(dtype, jitted):
    # C99 and XLA: nextafter(x, y) is y when x == y; NumPy's float16 loop returned x, so
    # nextafter(-0, +0) was -0 in jaxlite's float16 (JAX: +0).
    x = np.array([-0.0, 0.0, 1.0, np.nan], dtype)
    y = np.array([0.0, -0.0, 1.0, 1.0], dtype)
    f = jax.jit(jnp.nextafter) if jitted else jnp.nextafter
    out = np.asarray(f(x, y))
    assert out.dtype == dtype
    np.testing.assert_array_equal(out, np.array([0.0, -0.0, 1.0, np.nan], dtype))
    np.testing.assert_array_equal(np.signbit(out[:3]), [False, True, False])


@pytest.mark.parametrize("jitted", [False, True])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, jnp.bfloat16])
def test_sign_keeps_the_sign_of_zero(dtype, jitted):
    # XLA: sign(-0.0) is -0.0; NumPy's sign ufunc gave +0.0 (float16/32/64).
    x = np.array([-0.0, 0.0, -2.0, 3.0, np.nan], dtype)
    f = jax.jit(jnp.sign) if jitted else jnp.sign
    out = np.asarray(f(x)).astype(np.float32)
    np.testing.assert_array_equal(out, [-0.0, 0.0, -1.0, 1.0, np.nan])
    np.testing.assert_array_equal(np.signbit(out[:4]), [True, False, True, False])
    assert np.signbit(np.asarray(f(np.asarray(-0.0, dtype)), np.float32))


ANGLE_CASES = [
    # (operand, dtype JAX gives, weak_type JAX gives)
    (np.float16(2.0), np.float32, False),  # a 0-d float: the default float
    (np.array(-0.0, np.float16), np.float32, False),
    (np.array([2.0], np.float16), np.float16, False),
    (2.0, np.float32, False),  # a Python float is strongly typed here
    (2, np.float32, False),
    (np.array([1, 2], np.int8), np.float32, False),
    (1 + 2j, np.float32, True),
]


@pytest.mark.parametrize("z, dtype, weak", ANGLE_CASES)
def test_angle_dtype_and_weak_type(z, dtype, weak):
    out = jnp.angle(z)
    assert out.dtype == dtype and out.weak_type == weak
    expected = np.angle(np.asarray(z).astype(np.complex128))
    rtol = 1e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(np.asarray(out, np.float64), expected, rtol=rtol)
