"""Pins of the differences the session-28 batching sweep of ``jnp`` on narrow, half-precision,
bool and x64 dtypes (tests/hunt/sweep_vmap_s28.py) found: each compared with JAX where JAX
is importable and gives the true answer, else with NumPy or a Python loop over the batch."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp

try:
    import jax
    import jax.numpy as jax_np
except ImportError:
    jax = None

X300 = np.arange(300, dtype=np.float32)


def _narrow_indices(dt):
    ii = np.iinfo(dt)
    vals = [0, 1, ii.max, ii.min, ii.max // 2 + 1, 100, ii.max - 1]
    if ii.min < 0:
        vals += [-1, -77]
    return np.array(vals, dt)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int16])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_take_with_narrow_indices_on_a_longer_axis(dt, mode):
    # Before: "clip" clamped to n - 1 converted into the index type (299 is 43 in int8 and
    # uint8: every index past 43 read element 43) and "wrap" reduced modulo 300 as int8 (44).
    # The index is widened to int32 first; JAX's clip clamps the same way, its wrap raises
    # OverflowError (docs/compat.md).
    i = _narrow_indices(dt)
    want = np.take(X300, i.astype(np.int64), mode=mode)
    for f in (
        lambda i: jnp.take(X300, i, mode=mode),
        jaxlite.jit(lambda i: jnp.take(X300, i, mode=mode)),
        jaxlite.vmap(lambda j: jnp.take(X300, j, mode=mode)),
    ):
        np.testing.assert_array_equal(np.asarray(f(i)), want)
    if jax is not None and mode == "clip":
        np.testing.assert_array_equal(np.asarray(jax_np.take(X300, i, mode=mode)), want)


@pytest.mark.parametrize("dt", [np.int8, np.uint8])
@pytest.mark.parametrize("mode", ["clip", "wrap"])
def test_put_with_narrow_indices_into_a_longer_array(dt, mode):
    # Before: the same conversion of n - 1 / n into the index type put the values at the
    # wrong positions (uint8 255 clipped to 43).
    i = _narrow_indices(dt)
    v = -np.arange(1, i.size + 1, dtype=np.float32)
    want = X300.copy()
    np.put(want, i.astype(np.int64), v, mode=mode)
    got = jnp.put(X300, i, v, mode=mode, inplace=False)
    np.testing.assert_array_equal(np.asarray(got), want)
    got = jaxlite.jit(lambda i: jnp.put(X300, i, v, mode=mode, inplace=False))(i)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dt", ["float16", "bfloat16"])
def test_half_precision_vecdot_multiplies_and_sums_in_float32(dt):
    # Before: the products were rounded to the half type, so 64860 * 2 overflowed to inf and
    # inf + -inf gave NaN where JAX's dot (float32 products and sum, rounded once) gives
    # -inf; a sum of products near the type's max the same. Found as vecdot differences
    # (unbatched and vmap of jvp) on float16 edge values.
    # bfloat16 has float32's range: there the rounded products cancel (0 instead of 2**-14)
    big = 64860.0 if dt == "float16" else 2.0**100
    e = 1 + 2.0**-7
    x = np.array([[big, np.inf], [big, 1.0], [e, 1.0]], np.float32).astype(dt)
    y = np.array([[2.0, -1.0], [2.0, -2.0], [e, -(1 + 2.0**-6)]], np.float32).astype(dt)
    want = np.sum(x.astype(np.float32) * y.astype(np.float32), axis=-1).astype(dt)
    assert np.isneginf(want[0]) and want[2] == 2.0**-14
    for f in (jnp.vecdot, jaxlite.jit(jnp.vecdot), jaxlite.vmap(jnp.vecdot)):
        got = f(x, y)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(np.asarray(got), want)
    # the jvp in the first operand with tangent x is the same contraction
    _, t = jaxlite.vmap(lambda a, b: jaxlite.jvp(lambda u: jnp.vecdot(u, b), (b,), (a,)))(x, y)
    np.testing.assert_array_equal(np.asarray(t), want)
    if jax is not None:
        np.testing.assert_array_equal(np.asarray(jax_np.vecdot(x, y)), want)


@pytest.mark.parametrize("mode", ["mean", "median"])
def test_pad_statistic_of_bool_is_not_rounded(mode):
    # Before: the statistic of a bool array was rounded like an integer's before the cast
    # (a column mean of 0.5 padded False); JAX and NumPy round integers only, so it is True.
    x = np.array([[True, False, True, True], [False, False, True, False]])
    want = np.pad(x, ((1, 2), (2, 1)), mode=mode)
    assert want[0, 2]  # column 0: mean and median 0.5
    for f in (jnp.pad, jaxlite.jit(jnp.pad, static_argnums=(1, 2))):
        got = f(x, ((1, 2), (2, 1)), mode)
        assert got.dtype == np.bool_
        np.testing.assert_array_equal(np.asarray(got), want)
    got = jaxlite.vmap(lambda r: jnp.pad(r, 2, mode=mode))(x)
    np.testing.assert_array_equal(np.asarray(got), np.stack([np.pad(r, 2, mode=mode) for r in x]))
    if jax is not None:
        np.testing.assert_array_equal(np.asarray(jax_np.pad(x, ((1, 2), (2, 1)), mode=mode)), want)
