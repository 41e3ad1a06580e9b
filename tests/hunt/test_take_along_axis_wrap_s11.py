"""jnp.take_along_axis(..., wrap_negative_indices=) as JAX 0.10.2 (jaxlite had no such
keyword: TypeError). None wraps negative indices in every mode but promise_in_bounds;
False leaves them out of bounds (filled, or clamped to 0 with mode='clip'). Expected values
are JAX's (checked in oracle mode)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

A = np.arange(10.0, dtype=np.float32)
I = np.array([-1, 2, 12], np.int32)
NAN = np.nan

EXPECTED = {
    (None, None): [9, 2, NAN],
    (None, "clip"): [9, 2, 9],
    (None, "fill"): [9, 2, NAN],
    (None, "promise_in_bounds"): [0, 2, 9],
    (True, "promise_in_bounds"): [9, 2, 9],
    (True, "clip"): [9, 2, 9],
    (False, None): [NAN, 2, NAN],
    (False, "clip"): [0, 2, 9],
    (False, "fill"): [NAN, 2, NAN],
    (False, "promise_in_bounds"): [0, 2, 9],
}


@pytest.mark.parametrize("wrap, mode", list(EXPECTED))
@pytest.mark.parametrize("jitted", [False, True])
def test_wrap_negative_indices(wrap, mode, jitted):
    def f(a, i):
        return jnp.take_along_axis(a, i, axis=0, mode=mode, wrap_negative_indices=wrap)

    out = (jax.jit(f) if jitted else f)(A, I)
    np.testing.assert_array_equal(np.asarray(out), np.array(EXPECTED[wrap, mode], np.float32))


def test_clip_after_wrapping_far_negative_indices():
    out = jnp.take_along_axis(
        A, np.array([-11, -10, 10]), axis=0, mode="clip", wrap_negative_indices=True
    )
    np.testing.assert_array_equal(np.asarray(out), np.array([0, 0, 9], np.float32))
