"""Session 26's bad-input sweep (tests/hunt/sweep_err_s25.py re-run whole, and its other
direction tests/hunt/sweep_err_s26.py: valid but unusual arguments). Two families:

* jaxlite refused what JAX 0.10.2 accepts: ``tensordot`` with a negative int ``axes``,
  ``fftfreq`` / ``rfftfreq`` of a float (or bool, or 0-d array) ``n``, ``take`` with bool
  indices, ``scipy.linalg.expm`` of an empty matrix or with a float ``max_squarings``,
  ``std`` / ``scipy.stats.sem`` with ``ddof=None``, ``histogram`` of a 0-d array ``bins``;
  the values are JAX's (checked by hand here, and against JAX where it is installed);
* jaxlite answered where JAX raises: lists in later positions and by keyword (JAX's
  ``check_arraylike`` covers every array argument), NumPy integers as ``tensordot`` axes.

Errors are asserted with JAX's class and first line; JAX's own error is asked after
``jax.clear_caches()`` (its static-argument cache can turn an error into an answer)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import jaxlite.numpy as jnp
import jaxlite.scipy.linalg as sla
import jaxlite.scipy.stats as stats

try:
    import jax as real_jax
    import jax.numpy as real_jnp
    import jax.scipy.linalg as real_sla
    import jax.scipy.stats as real_stats
except ImportError:  # the hand-derived expectations still hold
    real_jax = real_jnp = real_sla = real_stats = None

A = np.array([1.0, 2.0, 3.0], np.float32)
M = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)


def _list_msg(name, pos, kind="list"):
    return f"{name} requires ndarray or scalar arguments, got <class '{kind}'> at position {pos}."


def _raises(exc, first_line):
    return pytest.raises(exc, match="^" + re.escape(first_line))


def _same_as_jax(got, build, rtol=2e-6):
    """``got`` equals JAX's answer to ``build(jnp-like module namespace)`` in shape, dtype,
    weak type and value (where JAX is installed)."""
    if real_jax is None:
        return
    theirs = build(_JAX)
    got_l = got if isinstance(got, tuple) else (got,)
    theirs_l = theirs if isinstance(theirs, tuple) else (theirs,)
    assert len(got_l) == len(theirs_l)
    for g, t in zip(got_l, theirs_l):
        assert g.shape == t.shape and g.dtype == t.dtype, (g, t)
        assert g.weak_type == t.weak_type
        np.testing.assert_allclose(np.asarray(g), np.asarray(t), rtol=rtol, atol=1e-7)


def _jax_raises(exc, first_line, build):
    if real_jax is None:
        return
    real_jax.clear_caches()
    with _raises(exc, first_line):
        build(_JAX)


class _Mods:
    def __init__(self, jnp_, sla_, stats_):
        self.jnp, self.sla, self.stats = jnp_, sla_, stats_


_LITE = _Mods(jnp, sla, stats)
_JAX = _Mods(real_jnp, real_sla, real_stats) if real_jax is not None else None


def _check(build, want):
    """jaxlite's answer equals the hand-derived ``want`` and JAX's."""
    got = build(_LITE)
    np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6, atol=1e-7)
    _same_as_jax(got, build)
    return got


def _check_error(build, exc, msg):
    with _raises(exc, msg):
        build(_LITE)
    _jax_raises(exc, msg, build)


# ------------------------------------------------------------------------- tensordot axes
X23 = np.arange(6.0, dtype=np.float32).reshape(2, 3)
Y34 = np.arange(12.0, dtype=np.float32).reshape(3, 4)
TD_PAIR = "tensordot requires both axes lists to be either ints, tuples or lists, got "
TD_AXES = (
    "tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples of ints."
)


@pytest.mark.parametrize("k", [-1, -3])
def test_tensordot_negative_int_axes_contract_nothing(k):
    # JAX's ranges: the last k axes of a are range(ndim - k, ndim), empty for k < 0
    got = _check(lambda m: m.jnp.tensordot(X23, Y34, k), np.multiply.outer(X23, Y34))
    assert got.shape == (2, 3, 3, 4)


@pytest.mark.parametrize(
    "axes", [([-1], [-2]), (-1, 0), [[1], (0,)], ([np.int64(1)], [0])], ids=str
)
def test_tensordot_pair_axes_forms(axes):
    _check(lambda m: m.jnp.tensordot(X23, Y34, axes), X23 @ Y34)


@pytest.mark.parametrize(
    "axes, msg",
    [
        (np.int64(1), TD_AXES),
        (True, TD_AXES),
        (np.array([[1], [0]]), TD_AXES),
        ((1, 0, 0), TD_AXES),
        ((np.int64(1), 0), TD_PAIR + "1 and 0"),
        ((1, [0]), TD_PAIR + "1 and [0]"),
        (([1.0], [0]), "'float' object cannot be interpreted as an integer"),
    ],
    ids=str,
)  # fmt: skip
def test_tensordot_axes_jax_refuses(axes, msg):
    _check_error(lambda m: m.jnp.tensordot(X23, Y34, axes), TypeError, msg)


# ------------------------------------------------------------------ fftfreq of a float n
@pytest.mark.parametrize("n", [4.0, np.float32(4.0), np.array(4), np.array(4.0)], ids=repr)
def test_fftfreq_integral_float_n_is_the_int_one(n):
    _check(lambda m: m.jnp.fft.fftfreq(n, d=0.5), [0.0, 0.5, -1.0, -0.5])
    _check(lambda m: m.jnp.fft.rfftfreq(n, d=0.5), [0.0, 0.5, 1.0])


def test_fftfreq_non_integral_n_is_jax_arithmetic():
    # ((arange(4.5) + 2.0) % 4.5 - 2.0) / 4.5: [0, 1, 2, -1.5, -0.5] / 4.5
    want = np.array([0.0, 1.0, 2.0, -1.5, -0.5], np.float32) / np.float32(4.5)
    _check(lambda m: m.jnp.fft.fftfreq(4.5), want)
    # rfftfreq: 4.5 % 2 is not 0, so arange(0, (4.5 - 1) // 2 + 1) = [0, 1]
    _check(lambda m: m.jnp.fft.rfftfreq(4.5), np.array([0.0, 1.0], np.float32) / 4.5)
    _check(lambda m: m.jnp.fft.fftfreq(True), [0.0])
    assert jnp.fft.fftfreq(False).shape == (0,)


def test_fftfreq_refuses_a_list_n():
    msg = "The n argument of jax.numpy.fft.fftfreq only takes an int. Got n = [4]."
    _check_error(lambda m: m.jnp.fft.fftfreq([4]), ValueError, msg)
    msg = "The d argument of jax.numpy.fft.rfftfreq only takes a single value. Got d = [1.0]."
    _check_error(lambda m: m.jnp.fft.rfftfreq(4.0, [1.0]), ValueError, msg)


# ------------------------------------------------------------------ take with bool indices
def test_take_bool_indices_are_jax_arithmetic():
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    ix = np.array([True, False])
    _check(lambda m: m.jnp.take(x, ix), [1.0, 0.0])  # flattened, as 1 and 0
    _check(lambda m: m.jnp.take(x, ix, axis=1), [[1.0, 0.0], [4.0, 3.0]])
    # "wrap" reduces modulo n cast to bool (True): every index is 0
    _check(lambda m: m.jnp.take(x, ix, axis=1, mode="wrap"), [[0.0, 0.0], [3.0, 3.0]])
    _check(lambda m: m.jnp.take(x, np.array([], bool), mode="clip"), np.zeros(0))


@pytest.mark.parametrize(
    "ix, mode", [(np.array([True]), "clip"), (np.array([1.0]), None)], ids=["boolclip", "float"]
)
def test_take_non_integer_indices_are_jax_value_error(ix, mode):
    _check_error(
        lambda m: m.jnp.take(A, ix, mode=mode), ValueError, "indices must have an integer type"
    )


# ------------------------------------------------------------------------------------ expm
def test_expm_of_empty_matrices():
    for shape in [(0, 0), (3, 0, 0), (0, 2, 2)]:
        got = _check(lambda m: m.sla.expm(np.zeros(shape, np.float32)), np.zeros(shape))
        assert got.shape == shape and got.dtype == np.float32


def test_expm_float_max_squarings_and_jax_squaring_count():
    scipy_linalg = pytest.importorskip("scipy.linalg")
    want = scipy_linalg.expm(M.astype(np.float64))
    got = sla.expm(M, max_squarings=16.0)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5)
    _same_as_jax(got, lambda m: m.sla.expm(M, max_squarings=16.0), rtol=1e-5)
    # 1-norm 40: JAX scales by 2**floor(log2(40 / 3.9257)) = 2**3, so 3 squarings are
    # enough (jaxlite counted ceil: 4 > 3, and answered NaN)
    big = 10 * M
    got = sla.expm(big, max_squarings=3)
    want = scipy_linalg.expm(big.astype(np.float64))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4)
    _same_as_jax(got, lambda m: m.sla.expm(big, max_squarings=3), rtol=1e-4)
    assert np.isnan(np.asarray(sla.expm(big, max_squarings=2.5))).all()  # 3 scan steps, 3 > 2.5


# --------------------------------------------------------------------------- ddof=None
def test_std_and_sem_ddof_none_is_ddof_zero():
    x = np.arange(6.0, dtype=np.float32)
    _check(lambda m: m.jnp.std(x, ddof=None), np.std(x))
    _check(lambda m: m.stats.sem(x, ddof=None), np.std(x) / np.sqrt(6))
    assert float(jnp.asarray(x).std(ddof=None)) == pytest.approx(float(np.std(x)))


def test_var_ddof_none_is_jax_value_error():
    _check_error(
        lambda m: m.jnp.var(np.ones(3), ddof=None), ValueError, "Invalid argument to dtype: None."
    )
    msg = "ddof and correction can't be provided simultaneously."
    _check_error(lambda m: m.jnp.std(np.ones(3), ddof=None, correction=1), ValueError, msg)


# ------------------------------------------------------------------------------- histogram
H = np.array([0.5, 1.5, 2.5, 3.5, 1.0], np.float32)


@pytest.mark.parametrize("bins", [np.array(2), np.int64(2), True], ids=repr)
def test_histogram_integer_scalar_bins_is_a_count(bins):
    n = int(bins)
    edges = np.linspace(0.5, 3.5, n + 1, dtype=np.float32)
    counts = np.histogram(H, edges)[0].astype(np.float32)
    got = jnp.histogram(H, bins)
    np.testing.assert_allclose(np.asarray(got[0]), counts)
    np.testing.assert_allclose(np.asarray(got[1]), edges)
    _same_as_jax(got, lambda m: m.jnp.histogram(H, bins))


@pytest.mark.parametrize(
    "call, msg",
    [
        (lambda m: m.jnp.histogram(H, [0.0, 2.0, 4.0]), _list_msg("histogram", 1)),
        (lambda m: m.jnp.histogram(H, bins=(0.0, 4.0)), _list_msg("histogram", 1, "tuple")),
        (lambda m: m.jnp.histogram(H, weights=H.tolist()), _list_msg("histogram", 2)),
        (lambda m: m.jnp.histogram_bin_edges(H, [0.0, 1.0]), _list_msg("histogram_bin_edges", 1)),
        (lambda m: m.jnp.histogram(H, 2.0), "'float' object cannot be interpreted as an integer"),
    ],
)  # fmt: skip
def test_histogram_bins_lists_and_floats_are_refused(call, msg):
    _check_error(call, TypeError, msg)


def test_histogram_range_of_three_and_string_bins():
    with pytest.raises(ValueError, match="^`range` must be either None or a sequence of scalars"):
        jnp.histogram(H, 2, range=(0.0, 1.0, 2.0))
    _check_error(
        lambda m: m.jnp.histogram_bin_edges(H, "auto"),
        NotImplementedError,
        "string values for `bins` not implemented.",
    )
    # a range given as a list is a range (not an operand JAX checks)
    _check(lambda m: m.jnp.histogram(H, 2, range=[0, 4])[0], [3.0, 2.0])


# ----------------------------------- lists where JAX's check_arraylike covers the argument
_V = np.array([1.0, 2.0, 3.0], np.float32)
_L = [1.0, 2.0, 3.0]


@pytest.mark.parametrize(
    "call, msg",
    [
        # by keyword: JAX checks the value, however it is passed
        (lambda m: m.jnp.take(_V, indices=[0]), _list_msg("take", 1)),
        (lambda m: m.jnp.interp(_V, xp=_L, fp=_V), _list_msg("interp", 1)),
        (lambda m: m.jnp.repeat(_V, repeats=[1, 1, 1]), _list_msg("repeat", 1)),
        (lambda m: m.jnp.allclose(_V, b=_L), _list_msg("allclose", 1)),
        # parameters named in the table, reported where JAX reports them
        (lambda m: m.jnp.cov(_V, aweights=_L), _list_msg("cov", 0)),
        (lambda m: m.jnp.cov(_V, y=_L), _list_msg("cov", 1)),
        (lambda m: m.jnp.diff(_V, prepend=_L), _list_msg("diff", 0)),
        (lambda m: m.jnp.ediff1d(_V, to_end=_L), _list_msg("ediff1d", 0)),
        (lambda m: m.jnp.extract(_V > 1, _V, fill_value=[0.0]), _list_msg("extreact", 2)),
        (lambda m: m.jnp.searchsorted(_V, _V, sorter=[0, 1, 2]), _list_msg("searchsorted", 2)),
        (lambda m: m.jnp.quantile(_V, 0.5, weights=_L), _list_msg("quantile", 0)),
        (lambda m: m.jnp.nanpercentile(_V, 50, weights=_L), _list_msg("nanpercentile", 0)),
        (lambda m: m.jnp.moveaxis(_L, 0, 0), _list_msg("moveaxis", 0)),
        (lambda m: m.jnp.swapaxes([[1.0]], 0, 1), _list_msg("swapaxes", 0)),
        # variadic: every operand
        (lambda m: m.jnp.atleast_2d(_V, (0.0,)), _list_msg("atleast_2d", 1, "tuple")),
        (lambda m: m.jnp.atleast_3d(_V, _V, [1.0]), _list_msg("atleast_3d", 2)),
        (lambda m: m.jnp.broadcast_arrays(_V, _L), _list_msg("broadcast_arrays", 1)),
        (lambda m: m.jnp.meshgrid(_V, _L), _list_msg("meshgrid", 1)),
        (lambda m: m.jnp.ix_(_V, [1]), _list_msg("ix", 1)),
        # later positions of linalg / scipy.linalg / nn functions
        (lambda m: m.jnp.linalg.matrix_power([[1.0]], 2), _list_msg("jnp.linalg.matrix_power", 0)),
        (lambda m: m.jnp.linalg.cross(_V, _L), _list_msg("jnp.linalg.outer", 1)),
        (lambda m: m.sla.toeplitz(_V, (1.0,)), _list_msg("toeplitz", 1, "tuple")),
        (lambda m: m.sla.toeplitz(_V, r=_L), _list_msg("toeplitz", 1)),
        (lambda m: m.sla.hankel(_V, _L), _list_msg("hankel", 1)),
        (lambda m: m.sla.circulant(c=_L), _list_msg("circulant", 0)),
        (lambda m: m.sla.leslie(_V, [0.5, 0.5]), _list_msg("leslie", 1)),
        (lambda m: m.sla.convolution_matrix(_L, 2), _list_msg("convolution_matrix", 0)),
    ],
)  # fmt: skip
def test_lists_jax_checks_are_refused(call, msg):
    _check_error(call, TypeError, msg)


def test_nn_lists_name_the_function():
    import jaxlite.nn as nn

    for f, name in [(nn.hard_silu, "hard_silu"), (nn.hard_swish, "hard_silu"), (nn.mish, "mish")]:
        with _raises(TypeError, _list_msg(name, 0)):
            f(_L)
    with _raises(TypeError, _list_msg("squareplus", 1)):
        nn.squareplus(_V, b=[1.0])


@pytest.mark.parametrize(
    "call",
    [
        lambda m: m.sla.block_diag(np.eye(2, dtype=np.float32), [[1.0]]),
        lambda m: m.sla.expm([[1.0]]),
        lambda m: m.stats.multivariate_normal.logpdf(np.zeros(2), np.zeros(2), [[1, 0], [0, 1]]),
        lambda m: m.stats.multivariate_normal.pdf(np.zeros(2), [0.0, 0.0], np.eye(2)),
    ],
)
def test_lists_jax_promotes_have_no_dtype(call):
    # JAX promotes these operands' dtypes without check_arraylike: a list has no dtype
    # (its message shows the list's tracers under jit, so only the start is compared)
    with pytest.raises(TypeError, match=r"^Cannot determine dtype of \["):
        call(_LITE)
    if real_jax is not None:
        real_jax.clear_caches()
        with pytest.raises(TypeError, match=r"^Cannot determine dtype of \["):
            call(_JAX)


def test_scipy_eigh_and_svd_take_a_list_as_jax():
    x = [[2.0, 1.0], [1.0, 2.0]]
    _check(lambda m: m.sla.eigh(x, eigvals_only=True), [1.0, 3.0])
    _check(lambda m: m.sla.svd(x, compute_uv=False), [3.0, 1.0])


# ------------------------------------------------ float axes read with int() (truncated)
_FLOAT = "'float' object cannot be interpreted as an integer"


@pytest.mark.parametrize(
    "call",
    [
        lambda J: J.lax.top_k(X23, 1, axis=0.0),
        lambda J: J.random.permutation(J.random.key(0), X23, axis=1.0),
        lambda J: J.numpy.linalg.tensorsolve(
            np.eye(4, dtype=np.float32).reshape(2, 2, 4), np.ones((2, 2), np.float32), axes=[2.0]
        ),
    ],
    ids=["top_k", "permutation", "tensorsolve"],
)
def test_float_axes_are_type_errors(call):
    import jaxlite

    with _raises(TypeError, _FLOAT):
        call(jaxlite)
    if real_jax is not None:
        real_jax.clear_caches()
        with _raises(TypeError, _FLOAT):
            call(real_jax)


def test_slice_in_dim_float_axis_is_a_type_error():
    from jaxlite import lax

    with pytest.raises(TypeError):  # JAX: 'tuple indices must be integers or slices, not float'
        lax.slice_in_dim(X23, 0, 1, axis=1.0)
    assert lax.slice_in_dim(X23, 0, 1, axis=np.int64(1)).shape == (2, 1)


def test_compress_takes_a_one_element_axis_sequence():
    # JAX moves ``axis`` to the front with moveaxis: (1,) and [-1] are axis 1
    c = np.array([True, False, True])
    for axis in [(1,), [-1]]:
        _check(lambda m: m.jnp.compress(c, X23, axis=axis), X23[:, [0, 2]])
    got = jnp.compress(c, X23, axis=(1,), size=3, fill_value=9)
    np.testing.assert_array_equal(np.asarray(got), [[0, 2, 9], [3, 5, 9]])
    _check_error(
        lambda m: m.jnp.compress(c, X23, axis=(0, 1)),
        ValueError,
        "Inconsistent number of elements: 2 vs 1",
    )


def test_numpy_integer_and_keyword_forms():
    g = np.array([3.0, 1.0, 2.0], np.float32)
    _check(lambda m: m.jnp.gradient(g, axis=np.int64(0)), [-2.0, -0.5, 1.0])
    _check(lambda m: m.jnp.isclose(a=g, b=g + 1e-7), [True, True, True])
    # 0-d keys: JAX returns 0 without reading a hashable axis
    for axis in [None, (0,), 1.5]:
        _check(lambda m: m.jnp.lexsort(g, axis=axis), 0)
    with pytest.raises(TypeError):  # a float array axis is refused (JAX: not hashable)
        jnp.lexsort(g, axis=np.array(1.5))


def test_fft_axis_none_is_the_nd_transform():
    # JAX: axes = None if axis is None: all axes (the last one when n is given)
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    _check(lambda m: m.jnp.fft.fft(x, axis=None), np.fft.fftn(x))
    _check(lambda m: m.jnp.fft.rfft(x, axis=None), np.fft.rfftn(x))
    _check(lambda m: m.jnp.fft.fft(x, n=4, axis=None), np.fft.fft(x, n=4, axis=-1))


def test_swapaxes_takes_a_one_element_tuple_axis():
    # JAX indexes a NumPy permutation with the static axes: (1,) is axis 1
    _check(lambda m: m.jnp.swapaxes(X23, (1,), 0), X23.T)
    _check(lambda m: m.jnp.swapaxes(X23, 1, (0,)), X23.T)


def test_array_equiv_of_shapes_of_different_ranks_that_do_not_broadcast_is_false():
    # JAX's rank promotion raises the ValueError it catches (False); equal ranks reach
    # lax.eq's TypeError (session 25's test)
    _check(lambda m: m.jnp.array_equiv(_V, np.ones((2, 2, 2), np.float32)), False)
    _check(lambda m: m.jnp.array_equiv(np.ones((2, 2), np.float32), _V), False)
    _check_error(
        lambda m: m.jnp.array_equiv(_V, np.ones(5, np.float32)),
        TypeError,
        "eq got incompatible shapes for broadcasting: (3,), (5,).",
    )


def test_bool_size_and_0d_integer_array_axis():
    c = np.array([True, False, True])
    _check(lambda m: m.jnp.compress(c, _V, size=True), [1.0])  # JAX slices [:True]
    _check(lambda m: m.jnp.extract(c, _V, size=True), [1.0])
    _check(lambda m: m.jnp.expand_dims(_V, np.array(0)), _V[None])


def test_space_axes_and_obj_predicates():
    lo, hi = np.ones(2, np.float32), np.full(2, 4, np.float32)
    _check(lambda m: m.jnp.linspace(lo, hi, 3, axis=np.array(0)), [[1, 1], [2.5, 2.5], [4, 4]])
    _check(lambda m: m.jnp.geomspace(lo, hi, 3, axis=np.array(0)), [[1, 1], [2, 2], [4, 4]])
    with pytest.raises(TypeError, match="^only integer scalar arrays"):
        jnp.geomspace(lo, hi, 3, axis=np.array([0]))
    # JAX's shortcut: None and Python / NumPy scalars (strings too) answer from their type
    for x, want in [("abc", False), (None, False), (1j, True), (np.complex64(1), True)]:
        assert jnp.iscomplexobj(x) is want and jnp.isrealobj(x) is (not want)
        if real_jnp is not None:
            assert real_jnp.iscomplexobj(x) is want


def test_moveaxis_takes_0d_integer_array_axes():
    _check(lambda m: m.jnp.moveaxis(X23, np.array(0), 1), X23.T)
    _check(lambda m: m.jnp.moveaxis(X23, 0, np.array(1)), X23.T)
