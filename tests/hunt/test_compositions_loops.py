"""Regression tests for ``fori_loop`` / ``while_loop`` / ``scan`` index and carry types
found by differential testing against JAX 0.10.2. Every expected value is JAX's; the file
also passes in oracle mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite import lax


def _check(out, value, dtype, weak):
    assert out.dtype == dtype and bool(out.weak_type) == weak
    np.testing.assert_array_equal(np.asarray(out), value)


@pytest.mark.parametrize("jit", [False, True])
def test_static_fori_loop_index_is_a_weak_int32_whatever_the_bounds_dtype(jit):
    # JAX counts a static-bound fori_loop with the Python int int(lower): with np.int16
    # bounds, i * 20000 does not overflow (jaxlite computed it in int16: -5536).
    def f():
        return lax.fori_loop(np.int16(0), np.int16(3), lambda i, c: c + i * 20000, 0)

    _check(jaxlite.jit(f)() if jit else f(), 60000, jnp.int32, True)

    def g():
        return lax.fori_loop(np.int8(0), np.int8(3), lambda i, c: c + (i * 100).astype(float), 0.0)

    _check(jaxlite.jit(g)() if jit else g(), 300.0, jnp.float32, False)
    # A strongly typed bound and a Python int: still the weak int32 counter.
    _check(lax.fori_loop(np.int16(0), 3, lambda i, c: i, 0), 2, jnp.int32, True)


def test_traced_fori_loop_index_has_the_bounds_dtype():
    # Traced bounds give a while_loop over the bounds' own dtype: int16 overflows there in
    # JAX too.
    f = jaxlite.jit(lambda n: lax.fori_loop(np.int16(0), n, lambda i, c: c + i * 20000, 0))
    _check(f(np.int16(3)), -5536, jnp.int16, False)
    g = jaxlite.jit(lambda n: lax.fori_loop(0, n, lambda i, c: i, 0))
    _check(g(np.int16(3)), 2, jnp.int16, False)
    _check(g(3), 2, jnp.int32, True)


def test_static_fori_loop_with_int16_bounds_is_reverse_differentiable():
    f = lambda x: lax.fori_loop(np.int16(0), np.int16(3), lambda i, c: c * x + i, x)  # noqa: E731
    _check(jaxlite.grad(f)(1.5), 14.5, jnp.float32, True)


@pytest.mark.parametrize(
    "lower, upper",
    [(np.uint8(0), 3), (np.int16(0), np.int32(3)), (0, 3.0), (np.uint8(0), np.int8(3))],
)
def test_fori_loop_bounds_of_different_types_raise(lower, upper):
    # JAX promotes only a Python int bound, to the other bound's type, when both are
    # signed integers (jaxlite promoted uint8 with a Python int).
    with pytest.raises(TypeError, match="lower and upper arguments to fori_loop"):
        lax.fori_loop(lower, upper, lambda i, c: c + i, 0)


def test_weak_carry_promoted_by_the_body_becomes_strong():
    # A Python int carry that the body turns into a float: JAX converts the initial
    # value to float32, strongly typed (jaxlite kept it weak).
    _check(lax.while_loop(lambda c: c < 3, lambda c: c + 1.0, 0), 3.0, jnp.float32, False)
    _check(lax.while_loop(lambda c: c < 3, lambda c: c + 1.5, 0), 3.0, jnp.float32, False)
    _check(lax.fori_loop(0, 3, lambda i, c: c + 1.0, 0), 3.0, jnp.float32, False)
    out = lax.scan(lambda c, _: (c + 1.0, c), 0, None, length=3)
    _check(out[0], 3.0, jnp.float32, False)
    _check(out[1], [0.0, 1.0, 2.0], jnp.float32, False)
    # Same dtype, only the weak type differs: no promotion, as in JAX.
    _check(lax.fori_loop(0, 3, lambda i, c: c + 1.0, 0.0), 3.0, jnp.float32, True)
    _check(lax.while_loop(lambda c: c < 3, lambda c: c + np.int32(1), 0), 3, jnp.int32, False)
