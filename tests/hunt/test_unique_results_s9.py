"""jnp.unique_all / unique_counts / unique_inverse return named tuples with JAX's field names
(they returned plain tuples, so ``r.counts`` raised AttributeError)."""

import jax.numpy as real_jnp  # the oracle
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


@pytest.mark.parametrize("name", ["unique_all", "unique_counts", "unique_inverse"])
def test_named_fields_match_jax(name):
    x = np.array([3, 1, 3, 2, 1], np.int32)
    ours = getattr(jnp, name)(x)
    theirs = getattr(real_jnp, name)(x)
    assert ours._fields == theirs._fields
    for field in theirs._fields:
        np.testing.assert_array_equal(getattr(ours, field), getattr(theirs, field))


def test_results_are_pytrees_under_jit():
    x = np.array([2.0, 2.0, 5.0], np.float32)
    r = jax.jit(lambda a: jnp.unique_all(a, size=3, fill_value=0.0))(x)
    assert type(r).__name__ == "_UniqueAllResult"
    np.testing.assert_array_equal(r.values, [2.0, 5.0, 0.0])
    np.testing.assert_array_equal(r.counts, [2, 1, 0])
    np.testing.assert_array_equal(r.inverse_indices, [0, 0, 1])
    assert len(jax.tree_util.tree_leaves(r)) == 4
