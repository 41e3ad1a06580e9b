"""Regression tests for wrong answers found by a differential sweep of indexing and
``.at[...]`` updates against JAX 0.10.2. Every expected value is JAX's (printed by the
oracle and hard-coded here, or computed in NumPy the way JAX defines it); the file also
passes in oracle mode (``JAXLITE_ORACLE=jax``)."""

import warnings

import numpy as np
import pytest

import jaxlite
import jaxlite.lax
import jaxlite.numpy as jnp


def _modes(f):
    return [f, jaxlite.jit(f)]


# ----------------------------------------------------------------- .at[].divide / .power
def test_at_divide_is_an_exact_division():
    # JAX divides x by the updates scattered into ones (not x times 1/u): 2 / 7.5 is
    # 0.26666668 (bits 1049135241), where 2 * (1/7.5) is one ulp above. (Eager only: under
    # jit XLA's simplifier turns the division by a broadcast constant into a product,
    # docs/compat.md.)
    x = jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4)
    row = np.asarray(x.at[0].divide(7.5))[0]
    assert row.view(np.uint32).tolist() == [0, 1040746633, 1049135241, 1053609165]


@pytest.mark.parametrize("mode", [None, "clip", "drop", "fill"])
def test_at_divide_and_power_honour_mode_and_duplicates(mode):
    xi = jnp.arange(6, dtype=jnp.int32)
    idx = jnp.array([1, 1, 4, 9])
    # JAX: integer x, float divisor: the product of the updates (2.5 * 2.5 = 6.25) is cast to
    # int32 (6) before dividing, and the result is float32.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        for f in _modes(lambda x: x.at[idx].divide(2.5, mode=mode)):
            got = f(xi)
            assert got.dtype == jnp.float32
            want = [0, 1 / 6, 2, 3, 2, 5 / 2.5 if mode == "clip" else 5]
            if mode == "clip":
                want[5] = 5 / 2  # the out-of-bounds 9 clamps to 5; its divisor 2.5 -> 2
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)
    # power: x ** (product of updates); 9 is dropped unless mode="clip" (JAX: [0,1,2,3,16,5]
    # and [0,1,2,3,16,25]).
    for f in _modes(lambda x: x.at[idx].power(2, mode=mode)):
        got = f(xi)
        assert got.dtype == jnp.int32
        want = [0, 1, 2, 3, 16, 25 if mode == "clip" else 5]
        assert np.asarray(got).tolist() == want


def test_at_power_float_grad():
    x = jnp.array([1.5, 2.0, 3.0])
    g = jaxlite.grad(lambda x: x.at[1].power(3.0).sum())(x)
    # d/dx x**3 at 2 is 12; the other entries pass through
    np.testing.assert_allclose(np.asarray(g), [1.0, 12.0, 1.0])


# --------------------------------------------------------------------- .at[].apply
@pytest.mark.parametrize("mode", [None, "clip"])
def test_at_apply_applies_once_per_occurrence(mode):
    # JAX's scatter_apply applies func once per index entry: row 0, named twice, is squared
    # twice (2 -> 16, 3 -> 81).
    x = jnp.arange(12.0, dtype=jnp.float32).reshape(3, 4)
    idx = jnp.array([0, 0, 2])
    want = [[0, 1, 16, 81], [4, 5, 6, 7], [64, 81, 100, 121]]
    for f in _modes(lambda x: x.at[idx].apply(jnp.square, mode=mode)):
        assert np.asarray(f(x)).tolist() == want
    # 7 is out of bounds: dropped by default, clamped to 4 with mode="clip" (JAX:
    # [0, 4, 2, 3, 5] with clip).
    y = jnp.arange(5.0)
    for f in _modes(lambda y: y.at[jnp.array([1, 1, 1, 7])].apply(lambda v: v + 1, mode=mode)):
        assert np.asarray(f(y)).tolist() == [0, 4, 2, 3, 5 if mode == "clip" else 4]


def test_at_apply_under_vmap():
    x = jnp.arange(8.0).reshape(2, 4)
    out = jaxlite.vmap(lambda r: r.at[jnp.array([0, 0])].apply(lambda v: v * 3))(x)
    assert np.asarray(out).tolist() == [[0, 1, 2, 3], [36, 5, 6, 7]]


# ------------------------------------------------------------------ bool updates
@pytest.mark.parametrize("op", ["add", "multiply", "subtract", "divide", "power"])
def test_bool_scatter_arithmetic_is_a_type_error(op):
    # JAX: "add does not accept dtype bool at position 0..." (mul for multiply/divide/power,
    # sub for subtract); set/min/max stay allowed.
    x = jnp.array([False, True])
    with pytest.raises(TypeError, match="does not accept dtype bool"):
        getattr(x.at[0], op)(jnp.array(True))
    assert np.asarray(x.at[0].set(True)).tolist() == [True, True]


# ------------------------------------------------------------- 0-d boolean indices
_X = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize(
    "idx, shape",
    [
        # shapes printed by JAX 0.10.2 (NumPy gives the same)
        ((False,), (0, 2, 3, 4)),
        ((True,), (1, 2, 3, 4)),
        ((np.array(False),), (0, 2, 3, 4)),
        ((True, [0, 1]), (2, 3, 4)),
        ((0, False), (0, 3, 4)),
        ((slice(None), False, 1), (2, 0, 4)),
        ((slice(None), True, np.array([1, 2])), (2, 2, 4)),
        ((False, Ellipsis, None), (0, 2, 3, 4, 1)),
        ((1, True, np.array([2, 0]), slice(None, None, -1)), (2, 4)),
    ],
)
def test_scalar_boolean_index_is_an_advanced_index(idx, shape):
    for f in _modes(lambda x: x[idx]):
        got = f(jnp.asarray(_X))
        assert got.shape == shape
        np.testing.assert_array_equal(np.asarray(got), _X[idx])


def test_scalar_boolean_index_updates():
    x = jnp.asarray(_X)
    assert np.asarray(x.at[False].set(5.0)).tolist() == _X.tolist()  # nothing selected
    assert float(x.at[True].set(5.0).sum()) == 5.0 * 24
    assert np.asarray(x.at[0, False].add(1.0)).tolist() == _X.tolist()
    got = x.at[True, 1].add(jnp.ones((1, 3, 4)))
    want = _X.copy()
    want[1] += 1
    np.testing.assert_array_equal(np.asarray(got), want)
    assert x.at[np.array(False)].get(mode="fill").shape == (0, 2, 3, 4)
    g = jaxlite.grad(lambda x: (x[True, 0] ** 2).sum())(x)
    np.testing.assert_array_equal(np.asarray(g)[0], 2 * _X[0])
    np.testing.assert_array_equal(np.asarray(g)[1], 0 * _X[1])


@pytest.mark.parametrize(
    "idx, message",
    [
        # JAX 0.10.2's messages
        (
            (0, np.array([True, False, True, True])),
            r"in index 1: got \(4,\), expected \[3\]",
        ),
        ((Ellipsis, np.array([True, False])), r"in index 1: got \(2,\), expected \[4\]"),
        ((None, np.ones((2, 4), bool)), r"in index 1: got \(2, 4\), expected \[2, 3\]"),
        ((np.ones((1, 3), bool),), r"in index 0: got \(1, 3\), expected \[2, 3\]"),
    ],
)
def test_boolean_mask_of_the_wrong_shape_is_an_index_error(idx, message):
    x = jnp.asarray(_X)
    for f in (lambda: x[idx], lambda: x.at[idx].set(0.0), lambda: x.at[idx].get(mode="fill")):
        with pytest.raises(
            IndexError, match="boolean index did not match shape of indexed array " + message
        ):
            f()


# ---------------------------------------------------------------------------- lcm
def test_lcm_wraps_like_jax():
    # JAX takes |x| before the product and wraps: lcm(int8 127, 2) is -2, lcm(int16
    # -32767, 2) is -2 (the old answer was 2, the absolute value of the wrapped product).
    assert int(jnp.lcm(jnp.int8(127), jnp.int8(2))) == -2
    assert int(jnp.lcm(jnp.int16(-32767), jnp.int16(2))) == -2
    assert np.asarray(jaxlite.jit(jnp.lcm)(jnp.array([4, -6]), 6)).tolist() == [12, 6]
    with pytest.raises(ValueError, match="must be integers"):
        jnp.lcm(1.5, 2)


# ------------------------------------------------------- take_along_axis / put_along_axis
_T = np.arange(15.0, dtype=np.float32).reshape(3, 5)
_TI = np.array([[0, 4, -1, 7], [-6, 2, 5, 1], [3, 3, -5, 0]], np.int32)
_NAN = np.nan


@pytest.mark.parametrize(
    "mode, want",
    [
        # JAX 0.10.2. clip: negatives count from the end, then clamp (-1 -> 4, -6 -> 0); the
        # old answer clamped -1 to 0. drop reads as fill for a gather (the old jit answer
        # read out of bounds). promise_in_bounds: XLA's clamp, negatives not wrapped.
        ("clip", [[0, 4, 4, 4], [5, 7, 9, 6], [13, 13, 10, 10]]),
        ("fill", [[0, 4, 4, _NAN], [_NAN, 7, _NAN, 6], [13, 13, 10, 10]]),
        ("drop", [[0, 4, 4, _NAN], [_NAN, 7, _NAN, 6], [13, 13, 10, 10]]),
        (None, [[0, 4, 4, _NAN], [_NAN, 7, _NAN, 6], [13, 13, 10, 10]]),
        ("promise_in_bounds", [[0, 4, 0, 4], [5, 7, 9, 6], [13, 13, 10, 10]]),
    ],
)
def test_take_along_axis_modes(mode, want):
    x, i = jnp.asarray(_T), jnp.asarray(_TI)
    for f in _modes(lambda x, i: jnp.take_along_axis(x, i, axis=1, mode=mode)):
        np.testing.assert_array_equal(np.asarray(f(x, i)), want)
    got = jaxlite.vmap(lambda x, i: jnp.take_along_axis(x, i, axis=0, mode=mode))(x, i)
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize(
    "mode, want",
    [
        # JAX 0.10.2: clip clamps after wrapping negatives, and the last duplicate wins; by
        # default out-of-bounds updates are dropped (the old answer ignored mode=).
        ("clip", [[-1, 1, 2, 3, -4], [-5, -8, -6, 8, -7], [-12, 11, 12, -10, 14]]),
        (None, [[-1, 1, 2, 3, -3], [5, -8, -6, 8, 9], [-12, 11, 12, -10, 14]]),
    ],
)
def test_put_along_axis_modes(mode, want):
    vals = -1 - jnp.arange(12.0).reshape(3, 4)
    for f in _modes(lambda x, i: jnp.put_along_axis(x, i, vals, axis=1, inplace=False, mode=mode)):
        np.testing.assert_array_equal(np.asarray(f(jnp.asarray(_T), jnp.asarray(_TI))), want)


def test_unknown_gather_modes_are_value_errors():
    x = jnp.arange(3.0)
    for f in (
        lambda: jnp.take_along_axis(x, jnp.array([0]), axis=0, mode="wrap"),
        lambda: x.at[1].get(mode="bogus"),
        lambda: x.at[1].add(1.0, mode="wrap"),
        lambda: jnp.put_along_axis(x, jnp.array([0]), 1.0, axis=0, inplace=False, mode="x"),
    ):
        with pytest.raises(ValueError, match="Unknown gather mode"):
            f()
    # the enum is accepted: clip clamps 5 to 2
    assert float(x.at[5].get(mode=jaxlite.lax.GatherScatterMode.CLIP)) == 2.0
    assert np.asarray(x.at[5].add(1.0, mode=jaxlite.lax.GatherScatterMode.CLIP)).tolist() == [
        0,
        1,
        3,
    ]


# ------------------------------------------------------------ lax.gather / lax.scatter
_G = np.arange(20.0, dtype=np.float32).reshape(4, 5)
_GI = np.array([[0, 1], [3, 4], [-1, 2], [2, 5], [7, -3]], np.int32)


def _gdn():
    return jaxlite.lax.GatherDimensionNumbers(
        offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1)
    )


def _sdn():
    return jaxlite.lax.ScatterDimensionNumbers(
        update_window_dims=(), inserted_window_dims=(0, 1), scatter_dims_to_operand_dims=(0, 1)
    )


@pytest.mark.parametrize("mode", [None, "promise_in_bounds"])
def test_lax_gather_promise_in_bounds_clamps_but_its_gradient_drops(mode):
    # JAX 0.10.2: lax.gather's default mode is PROMISE_IN_BOUNDS: the values clamp
    # ([1, 19, 2, 14, 15]) but the transpose scatter drops the out-of-bounds windows, so
    # only (0, 1) and (3, 4) get a derivative (the old answer also gave 4, 28, 30 at the
    # clamped positions).
    x, i = jnp.asarray(_G), jnp.asarray(_GI)
    g = lambda x: jaxlite.lax.gather(x, i, _gdn(), (1, 1), mode=mode)  # noqa: E731
    for f in _modes(g):
        assert np.asarray(f(x)).tolist() == [1, 19, 2, 14, 15]
    want = np.zeros(20)
    want[1], want[19] = 2, 38
    for f in _modes(jaxlite.grad(lambda x: (g(x) ** 2).sum())):
        np.testing.assert_array_equal(np.asarray(f(x)).ravel(), want)


def test_lax_scatter_promise_in_bounds_drops_out_of_bounds():
    # JAX 0.10.2 (XLA's scatter): the out-of-bounds windows are skipped; the old answer
    # clamped them (writing 12, 13, 14 at (0, 2), (2, 4), (3, 0)).
    x, i = jnp.asarray(_G), jnp.asarray(_GI)
    u = jnp.arange(5.0) + 10
    for f in _modes(lambda x, u: jaxlite.lax.scatter(x, i, u, _sdn(), mode="promise_in_bounds")):
        want = _G.ravel().copy()
        want[1], want[19] = 10, 11
        np.testing.assert_array_equal(np.asarray(f(x, u)).ravel(), want)
