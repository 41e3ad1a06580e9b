"""jax.numpy.from_dlpack / jax.dlpack against JAX 0.10.2: dtype canonicalisation, producers,
the error for a non-DLPack object, supported dtypes; and jaxlite arrays as DLPack producers."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.dlpack  # noqa: E402,F401
import jax.numpy  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.dlpack  # noqa: E402,F401
import jaxlite.numpy as jnp  # noqa: E402


@pytest.mark.parametrize(
    "dt", ["float32", "float64", "int64", "int8", "uint16", "bool", "complex64"]
)
def test_from_dlpack_matches_jax(dt):
    x = (np.arange(6) % 3).astype(dt).reshape(2, 3)
    ours, theirs = jnp.from_dlpack(x), jax.numpy.from_dlpack(x)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    assert isinstance(jaxlite.dlpack.from_dlpack(x), jaxlite.Array)


def test_from_dlpack_copies_and_round_trips():
    x = np.arange(4.0, dtype=np.float32)
    y = jnp.from_dlpack(x)
    x[0] = 9.0
    assert float(y[0]) == 0.0  # never aliases a buffer the producer can write
    back = np.from_dlpack(jnp.arange(3.0))  # jaxlite arrays export DLPack
    np.testing.assert_array_equal(back, [0.0, 1.0, 2.0])
    z = jnp.from_dlpack(jnp.arange(3.0) * 2)
    np.testing.assert_array_equal(np.asarray(z), [0.0, 2.0, 4.0])


def test_from_dlpack_error():
    with pytest.raises(TypeError) as theirs:
        jax.numpy.from_dlpack([1, 2])
    with pytest.raises(TypeError) as ours:
        jnp.from_dlpack([1, 2])
    assert str(ours.value) == str(theirs.value)


def test_is_supported_dtype():
    for t in (np.bool_, np.int8, np.uint64, np.float16, ml_dtypes.bfloat16, np.float64,
              np.complex64, ml_dtypes.float8_e4m3fn, ml_dtypes.int4, np.str_):  # fmt: skip
        assert jaxlite.dlpack.is_supported_dtype(t) == jax.dlpack.is_supported_dtype(t), t
