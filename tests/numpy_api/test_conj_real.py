"""jnp.conj / jnp.conjugate / Array.conj of non-complex input: the input unchanged (dtype
and weak type kept, no equation in the jaxpr), as in JAX; complex input is conjugated.
(jaxlite raised TypeError for integer and boolean input.)"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


@pytest.mark.parametrize(
    "x", [np.array([1, -2, 3]), np.array([True, False]), np.float16(1.5), 2, 2.5, np.uint8(7)]
)
@pytest.mark.parametrize("fn", [jnp.conj, jnp.conjugate, lambda v: jnp.asarray(v).conj()])
def test_conj_of_real_is_identity(x, fn):
    got = fn(x)
    want = jnp.asarray(x)
    assert got.dtype == want.dtype
    assert got.weak_type == want.weak_type
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))


def test_conj_jaxpr_and_complex():
    assert len(jax.make_jaxpr(jnp.conj)(np.arange(3)).jaxpr.eqns) == 0
    z = np.array([1 + 2j, -3j], np.complex64)
    np.testing.assert_array_equal(np.asarray(jnp.conj(z)), np.conj(z))
