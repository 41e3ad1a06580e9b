"""Real ``pow`` with an exponent of 0.5 that does not move (a Python scalar, a literal under
jit, a broadcast row), as JAX 0.10.2 and C99: pow(-0, 0.5) is +0 and pow(-inf, 0.5) is
+inf. NumPy's power loop computes such a power as sqrt, so jaxlite gave -0 and NaN
(``jnp.power(x, 0.5)``, ``jit(lambda x: x ** 0.5)``, ``jnp.sqrt``-like results for
``x ** 0.5``), eagerly, under jit and vmap. Expected values are JAX's (oracle mode)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

X = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, -1.0, 4.0, 1e-30], np.float32)
EXPECTED = np.array([0.0, 0.0, np.inf, np.inf, np.nan, np.nan, 2.0, 1e-15], np.float32)

WAYS = {
    "jnp.power scalar": lambda x: jnp.power(x, 0.5),
    "operator": lambda x: jnp.asarray(x) ** 0.5,
    "jit literal": jax.jit(lambda x: x**0.5),
    "jit traced scalar": lambda x: jax.jit(lambda x, y: x**y)(x, np.float32(0.5)),
    "lax.pow array": lambda x: jax.lax.pow(x, np.full(x.shape, 0.5, np.float32)),
    "vmap": jax.vmap(lambda a: a**0.5),
}


def _check(out, expected):
    out = np.asarray(out)
    np.testing.assert_allclose(out, expected, rtol=1e-6)  # NaN positions must agree
    finite_zero = expected == 0
    assert not np.signbit(out[finite_zero]).any(), out


@pytest.mark.parametrize("way", list(WAYS))
def test_pow_half_at_signed_zero_and_minus_infinity(way):
    _check(WAYS[way](X), EXPECTED)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_pow_with_a_broadcast_row_of_exponents(dtype):
    x = np.array([[-0.0, -np.inf, 4.0], [-0.0, -np.inf, 4.0]], dtype)
    y = np.array([[0.5], [2.0]], dtype)
    out = jnp.power(x, y)
    _check(out, np.array([[0.0, np.inf, 2.0], [0.0, np.inf, 16.0]], dtype))


def test_pow_half_in_float64():
    with jax.enable_x64(True):
        x = np.array([-0.0, -np.inf, 9.0], np.float64)
        out = jnp.power(x, 0.5)
        assert out.dtype == np.float64
        _check(out, np.array([0.0, np.inf, 3.0]))
