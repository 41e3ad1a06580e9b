"""Shape arguments (``jax.core.canonicalize_shape``, behind jnp.zeros/ones/reshape, lax and
jax.image): 1-d NumPy/jaxlite integer arrays are sequences of dimensions (jaxlite refused
them: ``jnp.zeros(np.array([2, 3]))`` raised TypeError, JAX gives shape (2, 3)), 0-d
arrays and integers one dimension; refusals carry JAX's message, a non-sequence shown as
the 1-tuple JAX shows."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite.numpy as jnp

ref = pytest.importorskip("jax.numpy")

SHAPES = [
    np.array([2, 3]),
    np.array([5], np.int64),
    np.array([], np.int32),
    np.array(4),
    np.int64(4),
    [np.int32(2), np.array(3)],
    (2, 3),
    [2.0, 3.0],
    (2.0, 3),
    3.0,
    "ab",
    None,
    np.float32(2.0),
    np.array(3.0),
    np.array([2.0, 3.0]),
    np.array([[2, 3]]),
    {2: 3},
]


def outcome(f):
    try:
        return f().shape
    except TypeError as e:
        return str(e)


@pytest.mark.parametrize("shape", SHAPES, ids=repr)
def test_shape_arguments_match_jax(shape):
    assert outcome(lambda: jnp.zeros(shape)) == outcome(lambda: ref.zeros(shape))


def test_array_shapes_in_reshape_and_device_arrays():
    assert jnp.reshape(jnp.ones(6), np.array([2, 3])).shape == (2, 3)
    assert jnp.ones(jnp.array([2, 3])).shape == (2, 3)
    assert jnp.full(np.array([3]), 1.5).shape == (3,)
