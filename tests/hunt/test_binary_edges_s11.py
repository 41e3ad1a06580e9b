"""Binary float ufuncs at signed zeros, as JAX 0.10.2 (session 11 sweep of add ... hypot,
logaddexp over an edge grid, float16/bfloat16/float32/float64, array and scalar operands,
eager and jit). Expected values are JAX's (the file passes in oracle mode)."""

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
