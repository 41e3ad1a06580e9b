"""Regression tests for wrong answers found by a differential sweep of dtype conversions
against JAX 0.10.2 (``astype``, ``convert_element_type``, ``array``, ``full``). Every
expected value is JAX's, printed by the oracle and hard-coded; the file also passes in
oracle mode (``JAXLITE_ORACLE=jax``)."""

import warnings

import numpy as np
import pytest

import jaxlite.lax as lax
import jaxlite.numpy as jnp


@pytest.mark.parametrize(
    "value, dtype, want",
    [
        # JAX 0.10.2 (eager jnp.full and lax.full agree): XLA's float -> int conversion
        # saturates and sends NaN to 0; the old answers were NumPy's casts (0, INT_MIN, 254).
        (np.inf, "int8", 127),
        (-np.inf, "int16", -32768),
        (np.nan, "int32", 0),
        (1e20, "uint8", 255),
        (-2.5, "uint32", 0),
        (65520.0, "int8", 127),
        (np.float32(np.inf), "int32", 2147483647),
        (np.array(-2.5), "uint8", 0),
        (3.7, "int32", 3),
        (-3.7, "int32", -3),
    ],
)
def test_full_with_a_float_scalar_converts_like_xla(value, dtype, want):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.asarray(jnp.full((2,), value, dtype)).tolist() == [want, want]
        assert np.asarray(lax.full((2,), value, jnp.dtype(dtype))).tolist() == [want, want]


def test_full_with_an_array_fill_casts_like_asarray():
    # JAX: jnp.full(shape, a, dtype) is broadcast_to(asarray(a, dtype)): NumPy's cast for
    # host data ([254, 0]), convert_element_type for an Array ([0, 255]).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        host = jnp.full((2,), np.array([-2.5, 1e10]), "uint8")
        dev = jnp.full((2,), jnp.array([-2.5, 1e10]), "uint8")
    assert np.asarray(host).tolist() == np.array([-2.5, 1e10]).astype(np.uint8).tolist()
    assert np.asarray(dev).tolist() == [0, 255]


@pytest.mark.parametrize(
    "dtype, message",
    [
        ("int32", "int\\(\\) argument must be a string, a bytes-like object or a real number"),
        ("float32", "float\\(\\) argument must be a string or a real number"),
    ],
)
def test_full_with_a_complex_fill_into_a_real_dtype_is_a_type_error(dtype, message):
    with pytest.raises(TypeError, match=message):
        jnp.full((2,), 1 + 2j, dtype)
    assert np.asarray(jnp.full((2,), 1 + 2j, bool)).tolist() == [True, True]


def test_arange_rejects_bool():
    with pytest.raises(TypeError, match="iota does not accept dtype bool"):
        jnp.arange(3, dtype=bool)
