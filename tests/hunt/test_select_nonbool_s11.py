"""jnp.select with non-boolean conditions, as JAX 0.10.2: a nonzero condition (int, float,
NaN, complex) selects its choice; jaxlite raised TypeError 'condlist must be a list of
boolean arrays'. Expected values are JAX's (checked in oracle mode)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

X = np.arange(5.0, dtype=np.float32)

CASES = [
    ([np.array([0, 1, 0, 2, 0]), np.array([1, 0, 0, 0, 0])], [-0.0, 1, 7, 3, 7]),
    ([np.array([0.0, 1.5, np.nan, -0.0, 0], np.float32), np.zeros(5, bool)], [7, 1, 2, 7, 7]),
    ([np.array([0j, 1j, 0, 0, 0], np.complex64), np.ones(5, bool)], [-0.0, 1, -2, -3, -4]),
]


@pytest.mark.parametrize("jitted", [False, True])
@pytest.mark.parametrize("conds, expected", CASES)
def test_select_nonzero_conditions(conds, expected, jitted):
    def f(*cs):
        return jnp.select(list(cs), [X, -X], default=7)

    out = (jax.jit(f) if jitted else f)(*conds)
    np.testing.assert_array_equal(np.asarray(out), np.array(expected, np.float32))
