"""Regression tests from the fuzz session of 2026-12-02: compositions of transformations
checked against JAX 0.10.2. Expected values are JAX's (restated as NumPy facts); the file
also passes in oracle mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp


def test_vmap_passes_unmapped_python_int_through_unchanged():
    # JAX hands an in_axes=None leaf to the function as given: a Python int stays a Python
    # int, so `n * 2**20` is Python arithmetic and reaches jnp as an out-of-range int
    # (OverflowError), as it would without vmap. jaxlite made it an int32 array first and
    # wrapped around silently (4096 * 2**20 -> 0: x + 0 = x, a wrong answer).
    f = jaxlite.vmap(lambda x, n: x + n * 2**20, in_axes=(0, None))
    with pytest.raises(OverflowError):
        f(jnp.array([1, 2]), 4096)


def test_vmap_unmapped_leaves_keep_their_python_types():
    seen = []

    def f(x, n, s, y):
        seen.append((type(n), type(s), type(y)))
        return x * len(s) + n, y

    out, y = jaxlite.vmap(f, in_axes=(0, None, None, None), out_axes=(0, None))(
        jnp.ones(2), 3, "abc", 2.5
    )
    assert seen == [(int, str, float)]
    np.testing.assert_array_equal(np.asarray(out), [6.0, 6.0])
    assert type(y) is float and y == 2.5


def test_vmap_unmapped_python_scalar_weak_types():
    # x * s with s a Python float stays float16 (weak scalar), as without vmap.
    out = jaxlite.vmap(lambda x, s: x * s, in_axes=(0, None))(jnp.ones(3, jnp.float16), 0.5)
    assert out.dtype == jnp.float16
    np.testing.assert_array_equal(np.asarray(out), np.full(3, 0.5, np.float16))
