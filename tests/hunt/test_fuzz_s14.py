"""Session 14 differential hunt: silent wrong answers and JAX deviations found by comparing
edge inputs and random programs with JAX 0.10.2. Each case asserts the known-correct value
(so it means something without JAX) and, where JAX is importable, compares with it through
tests/hunt/oracle.py: raised exception class, or structure, shapes, dtypes, weak types,
values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import JAX, same

INF, NAN = np.inf, np.nan


def _nan_inf_pattern(a):
    a = np.asarray(a)
    return [np.isnan(a.real), np.isinf(a.real), np.isnan(a.imag), np.isinf(a.imag)]


# ---------------------------------------------------------- cumulative sums and products
# XLA:CPU folds each output's window into the init (0 or 1) in index order, and past 16
# elements scans blocks of 16 and their totals. jaxlite reversed the array and ran NumPy's
# running product, so a reverse product [1e30, 1e30, 1e-30] was 1e30 (JAX: inf), a complex
# reverse product skipped the init's (1 + 0j) * (inf + 1j) = inf + nanj, and a long sum
# reached inf where JAX's block totals meet as inf + -inf = NaN.

_CUM_KNOWN = {
    "prod_rev_overflow": (
        lambda m: m.lax.cumprod(m.jnp.array([1e30, 1e30, 1e-30], "float32"), reverse=True),
        [INF, 1.0, 1e-30],
    ),
    "prod_rev_underflow": (
        lambda m: m.lax.cumprod(m.jnp.array([1e-30, 1e-30, 1e30], "float32"), reverse=True),
        [0.0, 1.0, 1e30],
    ),
    "sum_rev_overflow": (
        lambda m: m.lax.cumsum(m.jnp.array([3e38, 3e38, -3e38], "float32"), reverse=True),
        [INF, 0.0, -3e38],
    ),
    "sum_blocks": (
        lambda m: m.jnp.cumsum(m.jnp.array([3e38] * 10 + [-3e38] * 10, "float32"))[14:],
        [INF, INF, INF, NAN, NAN, NAN],
    ),
    "complex_rev": (
        lambda m: m.lax.cumprod(m.jnp.array([1 + 1j, complex(INF, 1)], "complex64"), reverse=True),
        [complex(INF, INF), complex(INF, NAN)],
    ),
    "complex_rev_first_inf": (
        lambda m: m.lax.cumprod(m.jnp.array([complex(INF, 1), 1 + 1j], "complex64"), reverse=True),
        [complex(NAN, NAN), 1 + 1j],
    ),
    "complex_rev_one": (
        lambda m: m.lax.cumprod(m.jnp.array([complex(INF, 1)], "complex64"), reverse=True),
        [complex(INF, NAN)],
    ),
    "complex_rev_axis1": (
        lambda m: m.lax.cumprod(
            m.jnp.array([[complex(0, INF), 1 + 1j, 2 - 1j, 3j]], "complex64"), axis=1, reverse=True
        )[0],
        [complex(NAN, NAN), -3 + 9j, 3 + 6j, 3j],
    ),
    "bfloat16_sum_one_zero": (lambda m: m.lax.cumsum(m.jnp.array([-0.0], "bfloat16")), [0.0]),
    "float32_sum_one_zero": (lambda m: m.lax.cumsum(m.jnp.array([-0.0], "float32")), [-0.0]),
}


@pytest.mark.parametrize("name", list(_CUM_KNOWN))
def test_cumulative_order_known_values(name):
    build, want = _CUM_KNOWN[name]
    out = np.asarray(same(build, rtol=1e-6), dtype=np.complex128)
    want = np.asarray(want, dtype=np.complex128)
    for got, exp in zip(_nan_inf_pattern(out), _nan_inf_pattern(want)):
        np.testing.assert_array_equal(got, exp)
    fin = np.isfinite(want)
    np.testing.assert_allclose(out[fin], want[fin], rtol=1e-6)
    assert np.array_equal(np.signbit(out.real[want == 0]), np.signbit(want.real[want == 0]))


def test_cumulative_product_grouping_under_jit_and_vmap():
    x = jnp.array([[1 + 1j, complex(INF, 1)]] * 2, "complex64")
    want = np.array([complex(INF, INF), complex(INF, NAN)])
    for f in (
        jaxlite.jit(lambda u: jaxlite.lax.cumprod(u, axis=1, reverse=True)),
        jaxlite.vmap(lambda u: jaxlite.lax.cumprod(u, reverse=True)),
    ):
        out = np.asarray(f(x))
        for got in out:
            for a, b in zip(_nan_inf_pattern(got), _nan_inf_pattern(want)):
                np.testing.assert_array_equal(a, b)


@pytest.mark.skipif(JAX is None, reason="compares with JAX")
@pytest.mark.parametrize("n", [2, 3, 7, 16, 17, 33, 40, 300])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("fn", ["cumsum", "cumprod"])
def test_cumulative_non_finite_patterns_match_jax(n, reverse, fn):
    rng = np.random.default_rng(n)
    for dtype in ("float32", "complex64"):
        for _ in range(4):
            x = rng.integers(-2, 3, (n, 2)) * 0.75
            if dtype == "complex64":
                x = x + 1j * rng.integers(-2, 3, (n, 2))
            k = rng.integers(0, n, 3)
            x[k[0], 0] = INF
            x[k[1], 1] = -INF if dtype == "float32" else complex(1, -INF)
            x[k[2], 0] = 3e38 if fn == "cumsum" else 0.0
            x = x.astype(dtype)
            want = np.asarray(getattr(JAX.lax, fn)(x, axis=0, reverse=reverse))
            got = np.asarray(getattr(jaxlite.lax, fn)(x, axis=0, reverse=reverse))
            for a, b in zip(_nan_inf_pattern(got), _nan_inf_pattern(want)):
                np.testing.assert_array_equal(a, b)


# ------------------------------------------------------------- jnp.reshape of NumPy input
# JAX's jnp.reshape calls the operand's own reshape method: a NumPy array or scalar comes
# back as a NumPy array of its own dtype (float64 stays float64); jaxlite converted it to a
# float32 Array. Only reshape forwards (ravel, transpose, squeeze... convert). A list is
# refused, order="A" is NotImplementedError and another order a ValueError.

_X64 = np.arange(6.0).reshape(2, 3)

_RESHAPE = {
    "ndarray": (lambda m: m.jnp.reshape(_X64, (3, 2)), np.ndarray, "float64"),
    "ndarray_F": (lambda m: m.jnp.reshape(_X64, (3, 2), order="F"), np.ndarray, "float64"),
    "ndarray_minus_one": (lambda m: m.jnp.reshape(np.arange(4), (2, -1)), np.ndarray, "int64"),
    "numpy_scalar": (lambda m: m.jnp.reshape(np.float64(2.0), (1,)), np.ndarray, "float64"),
    "python_scalar": (lambda m: m.jnp.reshape(2.0, (1,)), None, "float32"),
    "ravel_converts": (lambda m: m.jnp.ravel(_X64), None, "float32"),
    "under_jit": (lambda m: m.jx.jit(lambda a: m.jnp.reshape(a, (3, 2)))(_X64), None, "float32"),
}


@pytest.mark.parametrize("name", list(_RESHAPE))
def test_reshape_of_numpy_input_is_numpy_reshape(name):
    build, cls, dtype = _RESHAPE[name]
    out = same(build)
    assert str(out.dtype) == dtype
    assert isinstance(out, cls) if cls is not None else isinstance(out, jaxlite.Array)


_RESHAPE_ERR = {
    "list": (lambda m: m.jnp.reshape([1.0, 2.0], (2,)), TypeError),
    "tuple": (lambda m: m.jnp.reshape((1.0, 2.0), (2,)), TypeError),
    "ndarray_bad_size": (lambda m: m.jnp.reshape(_X64, (4, 2)), ValueError),
    "ndarray_two_unknown": (lambda m: m.jnp.reshape(_X64, (-1, -1)), ValueError),
    "ndarray_order_K": (lambda m: m.jnp.reshape(_X64, (3, 2), order="K"), ValueError),
    "array_order_A": (
        lambda m: m.jnp.reshape(m.jnp.ones(6), (3, 2), order="A"),
        NotImplementedError,
    ),
    "array_order_K": (lambda m: m.jnp.reshape(m.jnp.ones(6), (3, 2), order="K"), ValueError),
    "method_order_K": (lambda m: m.jnp.ones(6).reshape((3, 2), order="K"), ValueError),
}


@pytest.mark.parametrize("name", list(_RESHAPE_ERR))
def test_reshape_refusals(name):
    build, exc = _RESHAPE_ERR[name]
    assert isinstance(same(build), exc)


# ------------------------------------------------------- convolutions of one product each
# An output that is one product (one input feature per group, a 1x..x1 kernel): XLA:CPU
# keeps the product (-0.0 * 1 is -0.0, -0.0 * -1 is +0.0) where a group has one output
# feature, or (ungrouped) one output position has up to seven; otherwise its GEMM adds it
# to +0.0 (batch groups always). jaxlite's einsum gave its own signs (-0.0 * -1 was -0.0).


def _conv(m, n, c, o, w, vx, vk, groups=1, batch_groups=1):
    x = m.jnp.full((n, c, w), vx, "float32")
    k = m.jnp.full((o, c // groups, 1), vk, "float32")
    return m.lax.conv_general_dilated(
        x, k, (1,), "VALID", feature_group_count=groups, batch_group_count=batch_groups
    )


_CONV1 = {
    # (n, c, o, w, vx, vk, groups, batch_groups): sign bit of every output
    "one_out": ((1, 1, 1, 1, -0.0, 1.0, 1, 1), True),
    "one_out_neg_neg": ((1, 1, 1, 1, -0.0, -1.0, 1, 1), False),
    "one_out_many_positions": ((2, 1, 1, 3, 0.0, -1.0, 1, 1), True),
    "seven_outs_one_position": ((1, 1, 7, 1, 2.0, -0.0, 1, 1), True),
    "eight_outs_one_position": ((1, 1, 8, 1, 2.0, -0.0, 1, 1), False),
    "two_outs_two_positions": ((1, 1, 2, 2, -0.0, 1.0, 1, 1), False),
    "grouped_one_out_each": ((2, 3, 3, 2, -0.0, 1.0, 3, 1), True),
    "grouped_two_outs_one_position": ((1, 2, 4, 1, -0.0, 1.0, 2, 1), False),
    "batch_grouped": ((2, 1, 2, 1, -0.0, 1.0, 1, 2), False),
}


@pytest.mark.parametrize("name", list(_CONV1))
def test_one_product_convolution_signs(name):
    args, neg = _CONV1[name]
    out = np.asarray(same(lambda m: _conv(m, *args)))
    assert out.size and np.all(out == 0) and np.all(np.signbit(out) == neg)


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_one_element_convolve_keeps_the_product(dtype):
    for a, b, neg in [(-0.0, 1.0, True), (-0.0, -1.0, False), (2.0, -0.0, True)]:
        for fn in ("convolve", "correlate"):
            out = same(
                lambda m: getattr(m.jnp, fn)(m.jnp.array([a], dtype), m.jnp.array([b], dtype))
            )
            assert float(out[0]) == 0 and bool(np.signbit(np.asarray(out, np.float32))[0]) == neg


# ---------------------------------------------------- out-of-range axes: JAX's error type
# broadcasted_iota took a negative dimension from the end (JAX refuses any dimension
# outside [0, ndim): ValueError) and raised a bare IndexError past the end. Where JAX
# indexes the shape before checking (argmax, mean, var, split, swapaxes, vecdot...) it
# raises IndexError; jaxlite raised NumPy's AxisError, whose first built-in class is
# ValueError. Elsewhere (concatenate, stack, moveaxis, sum...) both raise a ValueError.

_AXES = {
    "iota": (lambda m, x: m.lax.broadcasted_iota("int32", (2, 3), 2), ValueError),
    "iota_negative": (lambda m, x: m.lax.broadcasted_iota("int32", (2, 3), -1), ValueError),
    "iota_jit": (
        lambda m, x: m.jx.jit(lambda: m.lax.broadcasted_iota("int32", (2, 3), -1))(),
        ValueError,
    ),
    "argmax": (lambda m, x: m.jnp.argmax(x, axis=2), IndexError),
    "argmin": (lambda m, x: m.jnp.argmin(x, axis=-3), IndexError),
    "nanargmax": (lambda m, x: m.jnp.nanargmax(x, axis=2), IndexError),
    "method_argmax": (lambda m, x: x.argmax(axis=2), IndexError),
    "mean": (lambda m, x: m.jnp.mean(x, axis=2), IndexError),
    "mean_tuple": (lambda m, x: m.jnp.mean(x, axis=(0, 2)), IndexError),
    "var": (lambda m, x: m.jnp.var(x, axis=2), IndexError),
    "std": (lambda m, x: m.jnp.std(x, axis=-3), IndexError),
    "unwrap": (lambda m, x: m.jnp.unwrap(x, axis=2), IndexError),
    "split": (lambda m, x: m.jnp.split(x, 2, axis=2), IndexError),
    "array_split": (lambda m, x: m.jnp.array_split(x, 2, axis=-3), IndexError),
    "dsplit": (lambda m, x: m.jnp.dsplit(x, 3), IndexError),
    "hsplit_0d": (lambda m, x: m.jnp.hsplit(m.jnp.float32(1), 1), IndexError),
    "swapaxes": (lambda m, x: m.jnp.swapaxes(x, 0, 2), IndexError),
    "swapaxes_negative": (lambda m, x: m.jnp.swapaxes(x, -3, 0), IndexError),
    "vecdot": (lambda m, x: m.jnp.vecdot(x, x, axis=2), IndexError),
    "linalg_vecdot": (lambda m, x: m.jnp.linalg.vecdot(x, x, axis=2), IndexError),
    "average": (lambda m, x: m.jnp.average(x, axis=2), ValueError),
    "nanmean": (lambda m, x: m.jnp.nanmean(x, axis=2), ValueError),
    "matrix_transpose_1d": (lambda m, x: m.jnp.matrix_transpose(x[0]), ValueError),
    "concatenate": (lambda m, x: m.jnp.concatenate([x, x], axis=2), ValueError),
    "stack": (lambda m, x: m.jnp.stack([x, x], axis=-4), ValueError),
    "moveaxis": (lambda m, x: m.jnp.moveaxis(x, 0, 2), ValueError),
    "sum": (lambda m, x: m.jnp.sum(x, axis=2), ValueError),
}


@pytest.mark.parametrize("name", list(_AXES))
def test_out_of_range_axes_raise_jax_type(name):
    build, exc = _AXES[name]
    out = same(lambda m: build(m, m.jnp.arange(6.0).reshape(2, 3)))
    assert isinstance(out, exc), out
    base = next(c for c in type(out).__mro__ if c.__module__ == "builtins")
    assert base is exc, out


def test_in_range_axes_still_work():
    x = jnp.arange(6.0).reshape(2, 3)
    assert jaxlite.lax.broadcasted_iota("int32", (2, 3), 1).tolist() == [[0, 1, 2]] * 2
    assert jnp.swapaxes(x, -1, -2).shape == (3, 2)
    assert float(jnp.mean(x, axis=-1)[1]) == 4.0
    assert [a.shape for a in jnp.split(x, 3, axis=-1)] == [(2, 1)] * 3
    assert jnp.argmax(x, axis=-2).tolist() == [1, 1, 1]
    assert jnp.vecdot(x, x, axis=-2).tolist() == [9.0, 17.0, 29.0]
    assert jnp.matrix_transpose(x).shape == (3, 2)


# -------------------------------------------------- searchsorted, digitize, complex sorts
# JAX's default searchsorted (method="scan") halves (low, high] ceil(log2(n + 1)) times;
# jaxlite counted the elements below the query, the same on sorted input but not on
# unsorted input, which digitize searches when bins end in NaN (bins[-1] >= bins[0] is
# false, so the reversed bins [nan, 0] are searched). Complex keys sort by real part then
# imaginary part, each with NaN last (0 + nanj before 1 + 0j); jaxlite used NumPy's
# complex order, which puts any NaN last, in sort, argsort, lexsort and searchsorted.

_BINS_NAN = np.array([0.0, NAN], "float32")
_Q = np.array([NAN, -0.0, 0.0, INF, -INF, 0.5, 1.0, 2.0], "float32")
_UNSORTED = np.array([3.0, 1.0, 2.0, 0.0, 5.0], "float32")
_C = np.array(
    [complex(NAN, 0), complex(0, NAN), 1 + 1j, -0.0 + 0j, 1 - 1j, complex(1, NAN), complex(INF, 0)],
    "complex64",
)

_SEARCH = {
    "digitize_nan_bins": (
        lambda m: m.jnp.digitize(m.jnp.asarray(_Q), m.jnp.asarray(_BINS_NAN)),
        [0, 0, 0, 0, 2, 0, 0, 0],
    ),
    "digitize_nan_bins_right": (
        lambda m: m.jnp.digitize(m.jnp.asarray(_Q), m.jnp.asarray(_BINS_NAN), right=True),
        [0, 2, 2, 0, 2, 0, 0, 0],
    ),
    "digitize_nan_bins_compare_all": (
        lambda m: m.jnp.digitize(m.jnp.asarray(_Q), m.jnp.asarray(_BINS_NAN), method="compare_all"),
        [0, 1, 1, 1, 2, 1, 1, 1],
    ),
    "unsorted_left": (
        lambda m: m.jnp.searchsorted(m.jnp.asarray(_UNSORTED), m.jnp.asarray(_Q)),
        [5, 0, 0, 5, 0, 0, 0, 2],
    ),
    "unsorted_right_unrolled": (
        lambda m: m.jnp.searchsorted(
            m.jnp.asarray(_UNSORTED), m.jnp.asarray(_Q), side="right", method="scan_unrolled"
        ),
        [5, 0, 0, 5, 0, 0, 2, 4],
    ),
    "unsorted_jit": (
        lambda m: m.jx.jit(m.jnp.searchsorted)(m.jnp.asarray(_UNSORTED), m.jnp.asarray(_Q)),
        [5, 0, 0, 5, 0, 0, 0, 2],
    ),
    "sorted_complex_nan": (
        lambda m: m.jnp.searchsorted(m.jnp.sort(m.jnp.asarray(_C)), m.jnp.asarray(_C)),
        [6, 1, 3, 0, 2, 4, 5],
    ),
    "sorted_complex_nan_compare_all": (
        lambda m: m.jnp.searchsorted(
            m.jnp.sort(m.jnp.asarray(_C)), m.jnp.asarray(_C), side="right", method="compare_all"
        ),
        [7, 2, 4, 1, 3, 5, 6],
    ),
    "argsort_complex_nan": (lambda m: m.jnp.argsort(m.jnp.asarray(_C)), [3, 1, 4, 2, 5, 6, 0]),
    "lexsort_complex_nan": (lambda m: m.jnp.lexsort([m.jnp.asarray(_C)]), [3, 1, 4, 2, 5, 6, 0]),
}


@pytest.mark.parametrize("name", list(_SEARCH))
def test_search_and_sort_orders(name):
    build, want = _SEARCH[name]
    assert np.asarray(same(build)).tolist() == want


def test_complex_sort_nan_order():
    out = np.asarray(same(lambda m: m.jnp.sort(m.jnp.asarray(_C))))
    want = [-0.0 + 0j, complex(0, NAN), 1 - 1j, 1 + 1j, complex(1, NAN), complex(INF, 0)]
    want += [complex(NAN, 0)]
    np.testing.assert_array_equal(out, np.array(want, "complex64"))
    out = np.asarray(same(lambda m: m.lax.sort(m.jnp.asarray(_C[::-1]))))
    np.testing.assert_array_equal(out, np.array(want, "complex64"))


# ------------------------------------------------------------------------------- jnp.put
# JAX's put repeats the values cyclically to the number of indices, unravels indices for
# mode=None (negative from the end, then clamped; -20 into 6 elements lands on 0) and
# refuses other modes. jaxlite dropped out-of-range indices, raised a broadcasting error
# for 2 values at 4 indices, and took mode="raise" / "fill" / any string as mode=None.

_PUT = {
    "oob_default": (
        lambda m: m.jnp.put(
            m.jnp.arange(6.0),
            m.jnp.array([20, -20, -1]),
            m.jnp.array([7.0, 8.0, 9.0]),
            inplace=False,
        ),
        [8, 1, 2, 3, 4, 9],
    ),
    "values_repeat": (
        lambda m: m.jnp.put(
            m.jnp.arange(6.0), m.jnp.array([0, 1, 2, 3]), m.jnp.array([7.0, 8.0]), inplace=False
        ),
        [7, 8, 7, 8, 4, 5],
    ),
    "values_cut": (
        lambda m: m.jnp.put(
            m.jnp.arange(6.0), m.jnp.array([0]), m.jnp.array([7.0, 8.0]), inplace=False, mode="clip"
        ),
        [7, 1, 2, 3, 4, 5],
    ),
    "wrap": (
        lambda m: m.jnp.put(
            m.jnp.arange(6.0), m.jnp.array([-7, 8]), 9.0, mode="wrap", inplace=False
        ),
        [0, 1, 9, 3, 4, 9],
    ),
    "under_jit": (
        lambda m: m.jx.jit(lambda a, i: m.jnp.put(a, i, 9.0, inplace=False))(
            m.jnp.arange(6.0), m.jnp.array([20, -20])
        ),
        [9, 1, 2, 3, 4, 9],
    ),
}


@pytest.mark.parametrize("name", list(_PUT))
def test_put_values_and_indices(name):
    build, want = _PUT[name]
    assert np.asarray(same(build)).tolist() == want


@pytest.mark.parametrize(
    "mode, exc", [("raise", NotImplementedError), ("fill", ValueError), ("drop", ValueError)]
)
def test_put_refuses_other_modes(mode, exc):
    out = same(
        lambda m: m.jnp.put(m.jnp.arange(6.0), m.jnp.array([1]), 2.0, mode=mode, inplace=False)
    )
    assert isinstance(out, exc)


# ------------------------------------------------------------ linalg of empty matrices
# A stack of 0x0 matrices (3, 0, 0) failed in det/slogdet/inv/matrix_power (a reshape to
# (-1, 0, 0)); pinv of an empty matrix raised (a max of no singular values); JAX gives
# the empty (or unit-determinant) results. cond of an empty matrix is JAX's ValueError,
# lstsq's rank an int32 even for an empty matrix, matrix_power of a non-square array a
# TypeError, as in JAX.

_EMPTY_LINALG = {
    "det": (lambda m, a: m.jnp.linalg.det(a), [1.0, 1.0, 1.0]),
    "slogdet": (lambda m, a: m.jnp.linalg.slogdet(a)[1], [0.0, 0.0, 0.0]),
    "inv": (lambda m, a: m.jnp.linalg.inv(a), (3, 0, 0)),
    "pinv": (lambda m, a: m.jnp.linalg.pinv(a), (3, 0, 0)),
    "matrix_power": (lambda m, a: m.jnp.linalg.matrix_power(a, -1), (3, 0, 0)),
    "grad_slogdet": (
        lambda m, a: m.jx.grad(lambda u: m.jnp.linalg.slogdet(u)[1].sum())(a),
        (3, 0, 0),
    ),
}


@pytest.mark.parametrize("name", list(_EMPTY_LINALG))
def test_stacks_of_empty_matrices(name):
    build, want = _EMPTY_LINALG[name]
    out = same(lambda m: build(m, m.jnp.zeros((3, 0, 0))))
    assert (out.shape if isinstance(want, tuple) else np.asarray(out).tolist()) == want


def test_empty_and_non_square_linalg_errors_and_types():
    assert same(lambda m: m.jnp.linalg.pinv(m.jnp.zeros((0, 0)))).shape == (0, 0)
    assert isinstance(same(lambda m: m.jnp.linalg.cond(m.jnp.zeros((2, 0, 0)))), ValueError)
    assert (
        same(lambda m: m.jnp.linalg.lstsq(m.jnp.zeros((0, 0)), m.jnp.zeros(0)))[2].dtype == np.int32
    )
    assert isinstance(same(lambda m: m.jnp.linalg.matrix_power(m.jnp.zeros((3, 2)), 2)), TypeError)
    assert isinstance(same(lambda m: m.jnp.linalg.matrix_power(m.jnp.ones(3), 2)), TypeError)


# ----------------------------------------------------------------- FFTs of no points
# fft/ifft/fftn over an axis of length 0: JAX returns the empty result, jaxlite raised
# SciPy's "invalid number of data points" (asking for n=0 points is a ValueError in both).

_EMPTY_FFT = {
    "fft": (lambda m: m.jnp.fft.fft(m.jnp.zeros((3, 0))), (3, 0)),
    "ifft_1d": (lambda m: m.jnp.fft.ifft(m.jnp.zeros(0)), (0,)),
    "fft2": (lambda m: m.jnp.fft.fft2(m.jnp.zeros((0, 3))), (0, 3)),
    "grad": (
        lambda m: m.jx.grad(lambda u: m.jnp.fft.fft(u).real.sum())(m.jnp.zeros((2, 0))),
        (2, 0),
    ),
}


@pytest.mark.parametrize("name", list(_EMPTY_FFT))
def test_fft_of_no_points_is_empty(name):
    build, shape = _EMPTY_FFT[name]
    assert same(build).shape == shape


def test_fft_asked_for_no_points_raises():
    assert isinstance(same(lambda m: m.jnp.fft.fft(m.jnp.zeros(3), n=0)), ValueError)


# ------------------------------------------------------- reduce_window padding and holes
# XLA skips padded positions and base-dilation holes; jaxlite filled them with the init
# value, so a non-identity init of add/mul entered once per padded position too (a SAME
# sum with init 1.5 ended in 8.0 where JAX gives 6.5), and a general computation folded
# the init in again. A window larger than the padded operand gives no windows (jaxlite
# raised a slice error).

_RW = {
    "same_add_init": (
        lambda m: m.lax.reduce_window(m.jnp.arange(6.0), 1.5, m.lax.add, (2,), (1,), "SAME"),
        [2.5, 4.5, 6.5, 8.5, 10.5, 6.5],
    ),
    "holes_add_init": (
        lambda m: m.lax.reduce_window(
            m.jnp.arange(3.0), 1.5, m.lax.add, (2,), (1,), "VALID", base_dilation=(2,)
        ),
        [1.5, 2.5, 2.5, 3.5],
    ),
    "pad_mul_init": (
        lambda m: m.lax.reduce_window(
            m.jnp.arange(1.0, 4.0), 2.0, m.lax.mul, (2,), (1,), ((1, 1),)
        ),
        [2.0, 4.0, 12.0, 6.0],
    ),
    "pad_general": (
        lambda m: m.lax.reduce_window(
            m.jnp.arange(1.0, 4.0), 2.0, lambda a, b: a * 0.5 + b, (2,), (1,), ((1, 1),)
        ),
        [2.0, 3.0, 4.5, 4.0],
    ),
    "holes_general": (
        lambda m: m.lax.reduce_window(
            m.jnp.arange(1.0, 4.0),
            2.0,
            lambda a, b: a * 0.5 + b,
            (2,),
            (1,),
            "VALID",
            base_dilation=(2,),
        ),
        [2.0, 3.0, 3.0, 4.0],
    ),
    "jit_vmap": (
        lambda m: m.jx.jit(
            m.jx.vmap(lambda u: m.lax.reduce_window(u, 1.5, m.lax.add, (2,), (1,), "SAME"))
        )(m.jnp.arange(6.0).reshape(2, 3)),
        [[2.5, 4.5, 3.5], [8.5, 10.5, 6.5]],
    ),
    "window_too_large": (
        lambda m: m.lax.reduce_window(m.jnp.ones((3, 4)), 0.0, m.lax.max, (5, 1), (1, 1), "VALID"),
        [],
    ),
}


@pytest.mark.parametrize("name", list(_RW))
def test_reduce_window_skips_padding(name):
    build, want = _RW[name]
    assert np.asarray(same(build)).tolist() == want


def test_ihfft_zero_imaginary_parts_follow_the_real_part():
    # JAX scales conj(rfft(x)) by a complex scalar, so a zero imaginary part (the mean and,
    # for even n, the Nyquist term) is +0.0 beside a positive real part and -0.0 beside a
    # negative one; jaxlite's conjugate left -0.0 everywhere.
    out = np.asarray(same(lambda m: m.jnp.fft.ihfft(m.jnp.array([1.0, 3.0, 5.0, 7.0]))))
    assert out.real.tolist() == [4.0, -1.0, -1.0]
    assert np.signbit(out.imag).tolist() == [False, True, True]
    out = np.asarray(same(lambda m: m.jnp.fft.ihfft(m.jnp.array([-1.0, -3.0]), norm="ortho")))
    assert np.signbit(out.imag).tolist() == [True, False]
