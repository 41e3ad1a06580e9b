"""Regression tests for wrong answers found by a differential sweep of sorting, searching
and set operations against JAX 0.10.2 (NaN, -0.0, inf, ties, bfloat16, complex). Every
expected value is JAX's, printed by the oracle and hard-coded; the file also passes in
oracle mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite
import jaxlite.lax as lax
import jaxlite.numpy as jnp

_D = np.array([0.0, -0.0, np.nan, -np.nan, 1.0, -np.inf, 0.0, -0.0, np.inf], np.float32)


def _modes(f):
    return [f, jaxlite.jit(f)]


def test_bfloat16_sort_puts_nans_last():
    # The old answers came from NumPy's bfloat16 sort, which does not order NaNs
    # ([0, -0, nan, nan, -inf, ...]).
    x = jnp.asarray(_D).astype(jnp.bfloat16)
    for f in _modes(jnp.sort):
        got = np.asarray(f(x)).astype(np.float32)
        np.testing.assert_array_equal(got, [-np.inf, 0, -0.0, 0, -0.0, 1, np.inf, np.nan, np.nan])
    for f in _modes(jnp.argsort):
        assert np.asarray(f(x)).tolist() == [5, 0, 1, 6, 7, 4, 8, 2, 3]
    assert np.asarray(jnp.argsort(x, descending=True)).tolist() == [2, 3, 8, 4, 0, 1, 6, 7, 5]
    keys, vals = lax.sort((x, jnp.arange(9)), num_keys=1)
    assert np.asarray(vals).tolist() == [5, 0, 1, 6, 7, 4, 8, 2, 3]
    batched = jaxlite.vmap(jnp.argsort)(jnp.stack([x, x]))
    assert np.asarray(batched).tolist() == [[5, 0, 1, 6, 7, 4, 8, 2, 3]] * 2


@pytest.mark.parametrize("dtype", [jnp.float32, jnp.float16, jnp.bfloat16])
def test_top_k_orders_floats_totally(dtype):
    # JAX's top_k: +NaN > +inf > ... > +0 > -0 > ... > -inf > -NaN (the old answer put the
    # -NaN first, with the +NaN).
    x = jnp.asarray(_D).astype(dtype)
    for f in _modes(lambda x: lax.top_k(x, 9)):
        v, i = f(x)
        assert np.asarray(i).tolist() == [2, 8, 4, 0, 6, 1, 7, 5, 3]
        sign = np.signbit(np.asarray(v).astype(np.float32)).tolist()
        assert sign == [False] * 5 + [True] * 4


@pytest.mark.parametrize("right, want", [(False, [2, 0, 4, 2, 1, 4]), (True, [4, 1, 6, 4, 2, 6])])
def test_digitize_decreasing_bins_search_on_the_same_side(right, want):
    # JAX (and NumPy): decreasing bins give len(bins) - searchsorted(reversed bins, x, side)
    # with the increasing case's side (the old answers swapped the two rows).
    x = jnp.array([3, 255, 0, 3, 128, 0], jnp.uint8)
    bins = jnp.array([255, 128, 3, 3, 0, 0], jnp.uint8)
    for f in _modes(lambda x, b: jnp.digitize(x, b, right=right)):
        assert np.asarray(f(x, bins)).tolist() == want
    assert np.asarray(jnp.digitize(x, bins, right=right, method="compare_all")).tolist() == want


def test_unique_collapses_nans_by_default():
    # JAX: every NaN (either sign) is one value with equal_nan=True (the default); the old
    # answer kept each NaN.
    f = jnp.array([np.nan, 1.0, -np.nan, 0.0, -0.0, np.nan, 1.0], jnp.float32)
    v, idx, inv, cnt = jnp.unique(f, return_index=True, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(np.asarray(v), [0.0, 1.0, np.nan])
    assert not np.signbit(np.asarray(v)).any()
    assert np.asarray(idx).tolist() == [3, 1, 0]
    assert np.asarray(inv).tolist() == [2, 1, 2, 0, 0, 2, 1]
    assert np.asarray(cnt).tolist() == [2, 2, 3]
    # the array-API functions keep NaNs distinct
    vals, counts = jnp.unique_counts(f)
    np.testing.assert_array_equal(np.asarray(vals), [0.0, 1.0, np.nan, np.nan, np.nan])
    assert np.asarray(counts).tolist() == [2, 2, 1, 1, 1]
    assert jnp.unique_values(f).shape == (5,)
    assert jnp.unique(f, equal_nan=False).shape == (5,)
    assert jnp.unique(jnp.array([np.nan, 1 + 1j, complex(1, np.nan)], jnp.complex64)).shape == (2,)


def test_unique_size_padding_indices_and_empty_inputs():
    i = jnp.array([3, -1, 3, 0, 7], jnp.int32)
    # JAX pads the indices with the index of the smallest element (1), whatever fill_value.
    for f in _modes(lambda i: jnp.unique(i, size=7, fill_value=99, return_index=True)):
        vals, idx = f(i)
        assert np.asarray(vals).tolist() == [-1, 0, 3, 7, 99, 99, 99]
        assert np.asarray(idx).tolist() == [1, 3, 0, 4, 1, 1, 1]
    with pytest.raises(ValueError, match="fill_value must be specified"):
        jnp.unique(jnp.zeros(0), size=4)
    v, idx, cnt = jnp.unique(
        jnp.zeros(0), size=4, fill_value=5, return_index=True, return_counts=True
    )
    assert np.asarray(v).tolist() == [5.0] * 4
    assert idx.shape == (0,) and cnt.shape == (0,)


def test_complex_maximum_minimum_follow_xla():
    # XLA: lexicographic on (real, imag), the second operand unless the first compares
    # strictly greater (less): a NaN part loses instead of propagating.
    n = np.nan
    a = jnp.array(
        [complex(n, n), complex(n, 0), complex(1, 2), complex(2, 1), complex(0, 0)], jnp.complex64
    )
    b = jnp.array(
        [complex(1, 1), complex(0, 0), complex(1, 3), complex(1, 5), complex(n, 0)], jnp.complex64
    )
    for f in _modes(jnp.maximum):
        got = np.asarray(f(a, b))
        np.testing.assert_array_equal(got, [1 + 1j, 0, 1 + 3j, 2 + 1j, complex(n, 0)])
    for f in _modes(lax.min):
        got = np.asarray(f(a, b))
        np.testing.assert_array_equal(got, [1 + 1j, 0, 1 + 2j, 1 + 5j, complex(n, 0)])


@pytest.mark.parametrize(
    "fn, name", [(jnp.argmax, "gt"), (jnp.argmin, "lt"), (jnp.nanargmax, "gt")]
)
def test_complex_argmax_is_a_type_error(fn, name):
    with pytest.raises(TypeError, match=f"{name} does not accept dtype complex64"):
        fn(jnp.array([1 + 1j, 2 - 1j]))


def test_complex_clip_is_a_value_error():
    with pytest.raises(ValueError, match="Complex values have no ordering"):
        jnp.clip(jnp.array([1 + 1j]), 0, 1)
    with pytest.raises(ValueError, match="Complex values have no ordering"):
        jnp.clip(jnp.array([1.0]), None, 1j)


def test_unique_inverse_has_the_input_shape():
    # JAX 0.10.2 (and NumPy 2): (2, 3) for a (2, 3) input, with or without size= (the old
    # answer was flat, (6,)).
    x = jnp.arange(6.0).reshape(2, 3)
    assert jnp.unique(x, return_inverse=True)[1].shape == (2, 3)
    assert jaxlite.jit(lambda x: jnp.unique(x, return_inverse=True, size=8)[1])(x).shape == (2, 3)
    assert jnp.unique_inverse(x)[1].shape == (2, 3)


_S = np.array([np.nan, -0.0, 0.0, np.inf, -np.inf, 1.0, 1.0, -1.0, np.nan, 2.0], np.float32)


def test_setdiff1d_and_intersect1d_keep_inf_and_nan():
    # JAX 0.10.2. The old answers used +inf as a sentinel for the dropped elements, so a
    # real inf or NaN was lost or replaced: setdiff1d([inf, 1, 3], [1], size=3) gave
    # [3, 3, 3]; setdiff1d of the NaN case ended in inf.
    f = jnp.array([np.inf, 1.0, 3.0])
    for g in _modes(lambda f: jnp.setdiff1d(f, jnp.array([1.0]), size=4)):
        assert np.asarray(g(f)).tolist() == [3.0, np.inf, 0.0, 0.0]  # padded with 0
    np.testing.assert_array_equal(
        np.asarray(jnp.setdiff1d(jnp.asarray(_S), jnp.asarray(_S[:4]))), [-np.inf, -1, 1, 2, np.nan]
    )
    for g in _modes(lambda a, b: jnp.intersect1d(a, b, size=5)):
        got = np.asarray(g(jnp.asarray(_S), jnp.asarray(_S[:4])))
        np.testing.assert_array_equal(
            got, [-0.0, np.inf, -0.0, -0.0, -0.0]
        )  # padded with the first
    i = jnp.array([3, 1, 3, 5, 9, 2**31 - 1], jnp.int32)
    got = jnp.intersect1d(i, jnp.array([2**31 - 1, 3], jnp.int32), size=3)
    assert np.asarray(got).tolist() == [3, 2**31 - 1, 3]
    assert np.asarray(jnp.intersect1d(jnp.asarray(_S), jnp.zeros(0), size=2)).tolist() == [0, 0]
