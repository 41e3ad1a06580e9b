"""Regression tests for a wrong dtype found by a differential sweep of histograms against
JAX 0.10.2 (session 9). Expected values are JAX 0.10.2's, printed by it and hard-coded.

Before the fix jaxlite cast only the data to an inexact dtype and kept the weights' own:
integer weights gave int32 counts (JAX: float32), float16 data with float32 weights gave
float16 edges (JAX: float32), and mismatched shapes were broadcast instead of rejected."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp

A16 = np.array([0.0, 1.0, 1.0, 2.0, 3.0], np.float16)


@pytest.mark.parametrize(
    "a, w, dtype",
    [
        (A16, np.arange(5, dtype=np.float32), np.float32),
        (A16.astype(np.float32), np.arange(5, dtype=np.int32), np.float32),
        (np.array([0, 1, 1, 2, 3], np.int32), np.arange(5, dtype=np.int32), np.float32),
        (A16, np.arange(5, dtype=np.int8), np.float16),
    ],
)
def test_histogram_weights_and_data_share_one_inexact_dtype(a, w, dtype):
    counts, edges = jnp.histogram(a, 3, weights=w)
    assert counts.dtype == dtype and edges.dtype == dtype and not counts.weak_type
    np.testing.assert_array_equal(np.asarray(counts), [0.0, 3.0, 7.0])
    np.testing.assert_array_equal(np.asarray(edges), [0.0, 1.0, 2.0, 3.0])
    jc, je = jaxlite.jit(lambda a, w: jnp.histogram(a, 3, weights=w))(a, w)
    assert jc.dtype == dtype and je.dtype == dtype


def test_histogram_density_with_float32_weights_on_float16_data():
    counts, _ = jnp.histogram(A16, 3, weights=np.arange(5, dtype=np.float32), density=True)
    assert counts.dtype == np.float32
    np.testing.assert_allclose(np.asarray(counts), [0.0, 0.3, 0.7], rtol=1e-6)


def test_histogram_weights_of_another_shape_are_rejected():
    with pytest.raises(ValueError, match="weights should have the same shape as a."):
        jnp.histogram(A16, 3, weights=np.ones(3, np.float32))
