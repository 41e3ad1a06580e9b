"""Session 25 (lead): differences a sweep of every binary jnp function on mixed float /
complex / low-precision dtype pairs found against JAX, reduced. Expectations are derived by
hand (the arithmetic XLA:CPU compiles JAX's function to) and checked against JAX where it is
installed."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

try:
    import jax as real_jax
    import jax.numpy as real_jnp
except ImportError:  # the hand-derived expectations still hold
    real_jax = real_jnp = None

# --- jnp.percentile at exact percentiles --------------------------------------------------
# JAX's percentile is a jitted function (also when called eagerly): XLA:CPU computes q / 100
# as q * float32(0.01) and merges that constant with the static count (n - 1) before
# anything runs, so the position is q * float32(0.01 * (n - 1)). For 21 float32 values and
# q = 50 that is 50 * 0.19999999 = 9.9999995: 'lower' picks element 9, where exact
# arithmetic (NumPy, and jaxlite before) picks element 10. float64 keeps 10.


def _f32_position(q, n):
    recip = np.float32(np.float32(1) / np.float32(100))
    return np.float32(q) * np.float32(recip * np.float32(n - 1))


@pytest.mark.parametrize("method", ["lower", "higher", "midpoint", "nearest", "linear"])
@pytest.mark.parametrize("fn", ["percentile", "nanpercentile"])
def test_percentile_positions_are_xla_compiled_ones(method, fn):
    x = np.arange(21, dtype=np.float32)
    q = np.array([50.0, 10.0, 30.0, 70.0], np.float32)
    pos = _f32_position(q, 21)
    assert pos[0] < 10  # the merged factor rounds down
    lo, hi = np.floor(pos), np.ceil(pos)
    want = {
        "lower": lo,
        "higher": hi,
        "midpoint": (lo + hi) / 2,
        "nearest": np.where(pos - lo <= 0.5, lo, hi),
        "linear": pos,  # x[i] = i: the interpolation gives the position back
    }[method]
    got = getattr(jnp, fn)(jnp.asarray(x), jnp.asarray(q), method=method)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    if real_jnp is not None:
        theirs = getattr(real_jnp, fn)(x, q, method=method)
        np.testing.assert_array_equal(np.asarray(got), np.asarray(theirs))


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_nanpercentile_merges_the_factors_for_a_vector_q_only(dtype):
    # The NaN-ignoring count is computed at run time; XLA still multiplies it by the
    # reciprocal first where q is a vector (9 for the median of 0..20), not for a scalar q
    # (10), whatever the data's dtype (JAX 0.10.2).
    x = jnp.asarray(np.arange(21).astype(dtype))
    assert float(jnp.nanpercentile(x, 50, method="lower")) == 10.0
    got = np.asarray(jnp.nanpercentile(x, jnp.asarray([50.0, 70.0]), method="lower"))
    assert got.tolist() == [9.0, 13.0]
    if real_jnp is not None:
        xn = np.arange(21).astype(dtype)
        assert float(real_jnp.nanpercentile(xn, 50, method="lower")) == 10.0
        theirs = real_jnp.nanpercentile(xn, np.array([50.0, 70.0], np.float32), method="lower")
        assert np.asarray(theirs).tolist() == [9.0, 13.0]


def test_percentile_float64_keeps_the_exact_position():
    with jax.enable_x64(True):
        x = jnp.asarray(np.arange(21, dtype=np.float64))
        assert float(jnp.percentile(x, 50.0, method="lower")) == 10.0


# --- quantile positions and interpolation in q's own dtype --------------------------------
# JAX computes the positions, the weights and the linear interpolation in q's dtype and casts
# the result to the data's: a float16 q on float32 data interpolates in float16. jaxlite
# cast q to the data's dtype first (more digits than JAX).


def test_float16_q_interpolates_in_float16():
    x = jnp.asarray(np.array([0.0, 1.0, 2.0, 3.0], np.float32))
    q = np.float16(0.02)
    got = jnp.quantile(x, jnp.asarray(q))
    assert got.dtype == np.float32
    # x[i] = i: the result is the float16 position q * 3, whatever the interpolation does
    want = np.float16(q * np.float16(3))
    assert float(got) == float(want) != float(np.float32(q) * np.float32(3))
    if real_jnp is not None:
        assert float(real_jnp.quantile(np.asarray(x), real_jnp.asarray(q))) == float(got)


def _fma(a, b, c):
    return float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))


def test_nanquantile_linear_contracts_the_upper_product():
    # XLA fuses hi * w_hi into the multiply-add in the NaN-ignoring branch (lo * w_lo in the
    # other): fma(hi, w_hi, lo * w_lo), rounded once, in float64.
    with jax.enable_x64(True):
        rng = np.random.RandomState(0)
        a = rng.randn(3, 7)
        a[0, 2] = np.nan
        qs = np.array([0.013, 0.37, 0.5, 0.999])
        got = np.asarray(jnp.nanquantile(jnp.asarray(a), jnp.asarray(qs), axis=1))
        for i, q in enumerate(qs):
            for r in range(3):
                s = np.sort(a[r][~np.isnan(a[r])])
                pos = q * (len(s) - 1)
                lo, hi = math.floor(pos), math.ceil(pos)
                w_hi = pos - lo
                want = _fma(s[hi], w_hi, s[lo] * (1 - w_hi))
                assert got[i, r] == want, (i, r)
        plain = np.asarray(jnp.quantile(jnp.asarray(a[1:]), jnp.asarray(qs), axis=1))
        for i, q in enumerate(qs):
            for r in range(2):
                s = np.sort(a[r + 1])
                pos = q * 6
                lo, hi = math.floor(pos), math.ceil(pos)
                w_hi = pos - lo
                assert plain[i, r] == _fma(s[lo], 1 - w_hi, s[hi] * w_hi), (i, r)


# --- jnp.histogram counts as JAX's does ---------------------------------------------------
# A value's slot is the number of edges <= it (searchsorted right), the last edge counted in
# the last bin, slots 0 and len(edges) dropped. jaxlite dropped values outside
# [edges[0], edges[-1]] instead: the same on increasing edges, zero counts on edges that do
# not increase (JAX, unlike NumPy, does not check them).


def test_histogram_on_sorted_edges_matches_numpy():
    a = np.array([-2.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, np.nan], np.float32)
    edges = np.array([-1.0, 0.5, 1.0, 2.0], np.float32)
    counts, e = jnp.histogram(jnp.asarray(a), jnp.asarray(edges))
    want, _ = np.histogram(a[~np.isnan(a)], edges)
    np.testing.assert_array_equal(np.asarray(counts), want)
    np.testing.assert_array_equal(np.asarray(e), edges)


@pytest.mark.parametrize("edges", [[2.0, 0.5, -0.0, 1.0], [2.0, 1.0, 0.0, -1.0]])
def test_histogram_on_edges_that_do_not_increase_counts_like_jax(edges):
    a = np.array([1.5, -2.0, 0.0, 3.0, 1.0, 2.0], np.float32)
    edges = np.array(edges, np.float32)
    counts, _ = jnp.histogram(jnp.asarray(a), jnp.asarray(edges))
    slots = np.asarray(jnp.searchsorted(jnp.asarray(edges), jnp.asarray(a), side="right"))
    slots = np.where(a == edges[-1], len(edges) - 1, slots)
    want = np.bincount(slots, minlength=len(edges) + 1)[1 : len(edges)]
    np.testing.assert_array_equal(np.asarray(counts), want)
    if real_jnp is not None:
        theirs, _ = real_jnp.histogram(a, edges)
        np.testing.assert_array_equal(np.asarray(counts), np.asarray(theirs))


# --- jnp.lexsort reads its axis before anything else --------------------------------------
# Keys that are one 1-D array are iterated into 0-d keys, and jaxlite returned 0 for them
# before looking at the axis: a float-array axis answered where JAX raises (its axis is a
# static argument: an array is not hashable, a float is no index).


def test_lexsort_refuses_a_float_axis_even_for_0d_keys():
    with pytest.raises(TypeError):
        jnp.lexsort(jnp.asarray([1.0, 2.0]), jnp.asarray([1.0, 0.0]))
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        jnp.lexsort([jnp.asarray([3.0, 1.0, 2.0])], 1.5)
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda a: jnp.lexsort([jnp.asarray([3.0, 1.0, 2.0])], a))(0)
    assert np.asarray(jnp.lexsort([jnp.asarray([3.0, 1.0, 2.0])], 0)).tolist() == [1, 2, 0]
    if real_jnp is not None:
        with pytest.raises((TypeError, ValueError)):
            real_jnp.lexsort(real_jnp.asarray([1.0, 2.0]), real_jnp.asarray([1.0, 0.0]))


# --- jaxlite's own multiply-add raises no NumPy warning -----------------------------------
# fma (XLA's contraction of a product and a sum, which jaxlite reproduces inside histogram,
# linspace and the quantile weights) warned "invalid value encountered in multiply" on
# infinite data eagerly; the user wrote no such product (XLA raises no IEEE warnings).


def test_histogram_of_infinite_data_raises_no_numpy_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        counts, edges = jnp.histogram(jnp.asarray([1.0, 2.0, np.inf]))
    assert np.asarray(counts).tolist() == [0.0] * 9 + [1.0]
    assert np.isnan(np.asarray(edges)[0]) and np.all(np.isinf(np.asarray(edges)[1:]))
    if real_jnp is not None:
        theirs, _ = real_jnp.histogram(real_jnp.asarray([1.0, 2.0, np.inf]))
        np.testing.assert_array_equal(np.asarray(counts), np.asarray(theirs))
