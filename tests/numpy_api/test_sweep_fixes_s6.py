"""Wrong answers and refusals found by a session-6 sweep of jax.numpy against JAX (one
input of each dtype through every function). Each case is JAX's behaviour (oracle mode).

* ``lax.complex`` built ``x + 1j * y``: ``1j * inf`` is ``nan + inf j`` and the sign of a
  zero real part was lost; now the parts are stored as they are.
* ``jnp.isfinite`` and ``jnp.round`` refused complex input.
* ``jnp.bincount`` dropped negative values (JAX counts them in bin 0) and refused booleans.
* ``jnp.cumulative_sum`` of small integers kept their dtype (JAX accumulates them like
  ``jnp.sum``: ``uint8 -> uint32``; ``cumsum`` and ``cumulative_prod`` keep it).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

F32 = np.float32


def _bits(z):
    z = np.asarray(z)
    return np.signbit(z.real).tolist(), z.real.tolist(), z.imag.tolist()


@pytest.mark.parametrize("mode", ["eager", "jit", "vmap"])
def test_lax_complex_keeps_infinities_and_signed_zeros(mode):
    re = np.array([1.0, -0.0, np.inf, 2.0, np.nan], F32)
    im = np.array([np.inf, 2.0, -0.0, -np.inf, 1.0], F32)
    fn = {"eager": lax.complex, "jit": jax.jit(lax.complex), "vmap": jax.vmap(lax.complex)}[mode]
    got = np.asarray(fn(re, im))
    assert got.dtype == np.complex64
    np.testing.assert_array_equal(got.real, re)
    np.testing.assert_array_equal(got.imag, im)
    assert np.signbit(got.real).tolist() == np.signbit(re).tolist()
    assert np.signbit(got.imag).tolist() == np.signbit(im).tolist()


def test_lax_complex_broadcasts_a_scalar_part():
    got = np.asarray(lax.complex(np.array([1.0, 2.0], F32), F32(np.inf)))
    np.testing.assert_array_equal(got.real, [1.0, 2.0])
    np.testing.assert_array_equal(got.imag, [np.inf, np.inf])


def test_isfinite_of_complex():
    z = np.array([1 + 1j, np.inf + 0j, complex(0, np.nan), complex(2.5, -np.inf)], np.complex64)
    assert jnp.isfinite(z).tolist() == [True, False, False, False]


def test_round_of_complex_rounds_each_part():
    z = np.array([1.25 + 2.55j, -0.5 + 1.5j, 2.5 - 3.5j], np.complex64)
    got = np.asarray(jnp.round(z))
    assert got.dtype == np.complex64
    np.testing.assert_array_equal(got.real, [1.0, -0.0, 2.0])
    np.testing.assert_array_equal(got.imag, [3.0, 2.0, -4.0])
    assert np.signbit(got.real).tolist() == [False, True, False]
    got1 = np.asarray(jnp.around(z, 1))
    np.testing.assert_allclose(got1.real, [1.2, -0.5, 2.5], rtol=1e-6)
    np.testing.assert_allclose(got1.imag, [2.6, 1.5, -3.5], rtol=1e-6)


def test_bincount_counts_negatives_in_bin_zero():
    assert jnp.bincount(np.array([1, -2, 3])).tolist() == [1, 1, 0, 1]
    assert jnp.bincount(np.array([-1, -1, 1, 3, 10]), length=5).tolist() == [2, 1, 0, 1, 0]
    assert jnp.bincount(np.array([-1])).tolist() == [1]
    assert jnp.bincount(np.array([-1]), minlength=2).tolist() == [1, 0]
    assert jnp.bincount(np.array([True, False, True])).tolist() == [1, 2]
    w = jnp.bincount(np.array([-3, 0, 2]), weights=np.array([0.5, 1.0, 2.0], F32))
    np.testing.assert_allclose(np.asarray(w), [1.5, 0.0, 2.0])
    f = jax.jit(lambda x: jnp.bincount(x, length=3))
    assert f(np.array([-5, 1, 1, 7])).tolist() == [1, 2, 0]


@pytest.mark.parametrize(
    "dtype, want",
    [(np.uint8, np.uint32), (np.int8, np.int32), (np.int16, np.int32), (np.bool_, np.int32)],
)
def test_cumulative_sum_accumulates_like_sum(dtype, want):
    x = np.array([1, 1, 0], dtype)
    got = jnp.cumulative_sum(x)
    assert got.dtype == want
    assert got.tolist() == [1, 2, 2]
    assert jnp.cumulative_sum(x, include_initial=True).tolist() == [0, 1, 2, 2]
    if dtype is not np.bool_:
        assert jnp.cumsum(x).dtype == dtype
        assert jnp.cumulative_prod(x).dtype == dtype
