"""jnp.roll with an array ``shift`` (or ``axis``), as JAX 0.10.2: a 1-d array is a sequence
of shifts, eagerly and traced under jit (jaxlite raised ``TypeError: only 0-dimensional
arrays can be converted to Python scalars``); mismatched lengths and 2-d shifts raise JAX's
``ValueError``s. Values computed by JAX in oracle mode, by NumPy's roll here."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

A = np.arange(12.0, dtype=np.float32).reshape(3, 4)

CASES = [
    (np.array([1, 2]), (0, 1)),
    (np.array([1, 2]), 0),  # both shifts on axis 0
    (np.array([1, 2]), np.array([0, 1])),
    (1, np.array([0, 1])),
    ((1, -2), (0, 1)),
    (np.array(-5), None),
]


@pytest.mark.parametrize("shift, axis", CASES)
def test_roll_array_shift_eager(shift, axis):
    got = jnp.roll(A, shift, axis=axis)
    expected = np.roll(A, shift, axis=axis)
    np.testing.assert_array_equal(np.asarray(got), expected)


@pytest.mark.parametrize("axis", [(0, 1), 0, 1])
def test_roll_traced_shift_array_under_jit(axis):
    f = jax.jit(lambda a, s: jnp.roll(a, s, axis=axis))
    shift = np.array([1, 2], np.int32)
    np.testing.assert_array_equal(np.asarray(f(A, shift)), np.roll(A, shift, axis=axis))


def test_roll_shift_and_axis_lengths_must_broadcast():
    with pytest.raises(ValueError, match="shape mismatch: objects cannot be broadcast"):
        jnp.roll(A, [1, 2, 3], axis=(0, 1))


def test_roll_refuses_a_2d_shift():
    with pytest.raises(ValueError, match="must be scalars or 1D arrays"):
        jnp.roll(A, np.ones((2, 2), np.int32), axis=(0, 1))
