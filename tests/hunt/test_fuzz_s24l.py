"""Session 24 hunt of raw ``lax`` structural operations (generators in
tests/hunt/fuzz_s24l.py: gather / scatter with raw dimension numbers, ``lax.reduce`` with
custom and variadic computations, ``reduce_precision``, ``bitcast_convert_type``,
dynamic slicing) checked against JAX 0.10.2. Each case asserts a value or property that
holds without JAX (so the file means something in oracle mode, ``JAXLITE_ORACLE=jax``)
and, where JAX is importable, compares the whole result (or the raised exception's class,
and for errors the first line of the message) with JAX's through tests/hunt/oracle.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt import fuzz_s24l
from tests.hunt.oracle import JAX, LITE, same


def _first_line(m, f):
    try:
        f(m)
    except Exception as e:  # noqa: BLE001 - the message is the subject
        return type(e), str(e).split("\n")[0]
    return None


def _same_message(f):
    if JAX is not None:
        assert _first_line(LITE, f)[1] == _first_line(JAX, f)[1]


_X = np.arange(12.0, dtype=np.float32).reshape(3, 4)
_I = np.array([[1], [3], [0]], np.int32)


# -------------------------- gather / scatter batching dims (seeds gather 7, 25, 50, 71)
# Operand / index batching dimensions raised NotImplementedError; element b of the
# batch now reads (writes) operand row b.
def _gather_b(m, x):
    dn = m.lax.GatherDimensionNumbers(
        offset_dims=(),
        collapsed_slice_dims=(1,),
        start_index_map=(1,),
        operand_batching_dims=(0,),
        start_indices_batching_dims=(0,),
    )
    return m.lax.gather(x, _I, dn, (1, 1), mode="clip")


def _scatter_b(m, op, x, u):
    dn = m.lax.ScatterDimensionNumbers(
        update_window_dims=(),
        inserted_window_dims=(1,),
        scatter_dims_to_operand_dims=(1,),
        operand_batching_dims=(0,),
        scatter_indices_batching_dims=(0,),
    )
    return getattr(m.lax, op)(x, _I, u, dn)


def test_gather_with_batching_dims():
    r = same(lambda m: _gather_b(m, _X))
    np.testing.assert_array_equal(np.asarray(r), [1.0, 7.0, 8.0])
    g = same(lambda m: m.jx.grad(lambda x: (_gather_b(m, x) * np.array([1.0, 2, 3])).sum())(_X))
    want = np.zeros((3, 4), np.float32)
    want[0, 1], want[1, 3], want[2, 0] = 1, 2, 3
    np.testing.assert_array_equal(np.asarray(g), want)
    same(lambda m: m.jx.vmap(lambda x: _gather_b(m, x))(np.stack([_X, -_X])))


@pytest.mark.parametrize("op", ["scatter", "scatter_add", "scatter_mul", "scatter_min"])
def test_scatter_with_batching_dims(op):
    u = np.array([10.0, -1.0, 0.5], np.float32)
    r = np.asarray(same(lambda m: _scatter_b(m, op, _X, u)))
    want = _X.copy()
    for b, (j,) in enumerate(_I):
        want[b, j] = {"scatter": u[b], "scatter_add": want[b, j] + u[b],
                      "scatter_mul": want[b, j] * u[b],
                      "scatter_min": min(want[b, j], u[b])}[op]  # fmt: skip
    np.testing.assert_array_equal(r, want)
    if op != "scatter_mul":  # (JAX wants unique_indices=True for the updates' derivative)
        same(lambda m: m.jx.jvp(lambda x, v: _scatter_b(m, op, x, v), (_X, u), (_X + 1, u * 2)))


_G = lambda m: m.lax.GatherDimensionNumbers  # noqa: E731
_S = lambda m: m.lax.ScatterDimensionNumbers  # noqa: E731
_BAD_BATCHING = {
    "shapes": lambda m: m.lax.gather(
        _X, np.zeros((2, 1), np.int32), _G(m)((), (1,), (1,), (0,), (0,)), (1, 1)
    ),
    "bound": lambda m: m.lax.gather(_X, _I, _G(m)((), (1,), (1,), (0,), (0,)), (2, 1)),
    "counts": lambda m: m.lax.gather(_X, _I, _G(m)((), (1,), (1,), (0,), ()), (1, 1)),
    "vector_dim": lambda m: m.lax.gather(_X, _I, _G(m)((), (1,), (1,), (0,), (1,)), (1, 1)),
    "collapsed": lambda m: m.lax.gather(_X, _I, _G(m)((), (0, 1), (1,), (0,), (0,)), (1, 1)),
    "index_map": lambda m: m.lax.gather(_X, _I, _G(m)((), (1,), (0,), (0,), (0,)), (1, 1)),
    "scatter_shapes": lambda m: m.lax.scatter_add(
        _X, np.zeros((2, 1), np.int32), np.ones(2, np.float32), _S(m)((), (1,), (1,), (0,), (0,))
    ),
    "scatter_map": lambda m: m.lax.scatter_add(
        _X, _I, np.ones(3, np.float32), _S(m)((), (1,), (0,), (0,), (0,))
    ),
}


@pytest.mark.parametrize("case", sorted(_BAD_BATCHING))
def test_batching_dims_that_do_not_pair_raise_as_jax(case):
    f = _BAD_BATCHING[case]
    with pytest.raises(TypeError):
        f(LITE)
    same(f)
    _same_message(f)


# ------------------------------------- scatter dtypes (seeds gather 11, 16, 21)
# jaxlite cast updates of another dtype to the operand's (JAX refuses them, weak Python
# scalars included) and added / multiplied booleans (JAX's combiners refuse bool).
_DN1 = lambda m: m.lax.ScatterDimensionNumbers((), (0,), (0,))  # noqa: E731
_IDX = np.array([[0], [2]], np.int32)
_BAD_SCATTER = {
    "int_updates": lambda m: m.lax.scatter_add(
        np.ones(3, np.float32), _IDX, np.ones(2, np.int32), _DN1(m)
    ),
    "bool_updates": lambda m: m.lax.scatter(
        np.ones(3, np.float32), _IDX, np.ones(2, bool), _DN1(m)
    ),
    "bool_add": lambda m: m.lax.scatter_add(np.ones(3, bool), _IDX, np.ones(2, bool), _DN1(m)),
    "bool_mul": lambda m: m.lax.scatter_mul(np.ones(3, bool), _IDX, np.ones(2, bool), _DN1(m)),
    "bool_sub": lambda m: m.lax.scatter_sub(np.ones(3, bool), _IDX, np.ones(2, bool), _DN1(m)),
}


@pytest.mark.parametrize("case", sorted(_BAD_SCATTER))
def test_scatter_dtypes_raise_as_jax(case):
    f = _BAD_SCATTER[case]
    with pytest.raises(TypeError):
        f(LITE)
    same(f)
    _same_message(f)


def test_bool_scatter_set_min_max_allowed():
    for op in ("scatter", "scatter_min", "scatter_max"):
        r = same(
            lambda m, op=op: getattr(m.lax, op)(
                np.array([True, False, True]), _IDX, np.array([False, True]), _DN1(m)
            )
        )
        assert np.asarray(r).dtype == np.bool_


# --------------------------------- gather's default fill value (seed gather 72)
@pytest.mark.parametrize(
    "dtype, fill", [("uint8", 255), ("bool", True), ("int16", -32768), ("float32", np.nan)]
)
def test_gather_fill_default(dtype, fill):
    x = np.array([1, 0, 1], dtype=dtype)
    f = lambda m: m.lax.gather(  # noqa: E731
        x, np.array([[1], [5]], np.int32), _G(m)((), (0,), (0,)), (1,), mode="fill"
    )
    r = np.asarray(same(f))
    assert r[0] == x[1]
    np.testing.assert_array_equal(r[1], np.asarray(fill, dtype))


# --------------------------------- lax.reduce (seeds reduce 2, 12, 40, 42, 89)
# A tuple of operands raised NotImplementedError; the computation's pytree is the
# result's; max ties share the tangent as JAX's pairwise tree does.
_V = np.array([[1.0, 3.0, 3.0, 2.0], [5.0, -1.0, 5.0, 0.0]], np.float32)


def _argmax(m, x, axis):
    def comp(a, b):
        pick = (a[0] > b[0]) | ((a[0] == b[0]) & (a[1] < b[1]))
        return m.lax.select(pick, a[0], b[0]), m.lax.select(pick, a[1], b[1])

    iota = m.lax.broadcasted_iota(np.int32, x.shape, axis)
    return m.lax.reduce((x, iota), (np.float32(-np.inf), np.int32(0)), comp, (axis,))


def test_reduce_variadic_argmax():
    v, i = same(lambda m: _argmax(m, _V, 1))
    np.testing.assert_array_equal(np.asarray(v), [3.0, 5.0])
    np.testing.assert_array_equal(np.asarray(i), [1, 0])
    same(lambda m: m.jx.vmap(lambda x: _argmax(m, x, 0))(np.stack([_V, _V[::-1]])))


@pytest.mark.jaxlite_only
def test_reduce_variadic_argmax_gradient():
    # the winners get the cotangent; JAX's JVP trips on the iota's zero tangent
    # (a TypeError, docs/compat.md)
    f = lambda m: m.jx.grad(lambda x: _argmax(m, x, 1)[0].sum())(_V)  # noqa: E731
    want = np.zeros_like(_V)
    want[0, 1] = want[1, 0] = 1
    np.testing.assert_array_equal(np.asarray(f(LITE)), want)
    g = LITE.jx.jit(LITE.jx.grad(lambda x: _argmax(LITE, x, 1)[0].sum()))(_V)
    np.testing.assert_array_equal(np.asarray(g), want)
    if JAX is not None:
        with pytest.raises(TypeError):
            f(JAX)


def test_reduce_dict_pytree_and_bare_results():
    f = lambda m: m.lax.reduce(  # noqa: E731
        {"s": _V, "m": _V},
        {"s": np.float32(0), "m": np.float32(-np.inf)},
        lambda a, b: {"s": a["s"] + b["s"], "m": m.lax.max(a["m"], b["m"])},
        (1,),
    )
    r = same(f)
    np.testing.assert_array_equal(np.asarray(r["s"]), [9.0, 9.0])
    np.testing.assert_array_equal(np.asarray(r["m"]), [3.0, 5.0])
    # a recognised monoid answers one array even for a tuple of one operand
    r = same(lambda m: m.lax.reduce((_V,), (0,), m.lax.add, (0, 1)))
    assert not isinstance(r, tuple) and float(r) == 18.0
    r = same(lambda m: m.lax.reduce((_V,), (np.float32(0),), lambda a, b: (a[0] + b[0],), (0,)))
    assert isinstance(r, tuple) and len(r) == 1


def test_reduce_max_ties_share_the_tangent_as_jax():
    x = np.array([[-0.5, 1.0], [1.0, 0.5], [1.0, -1.0]], np.float16)
    # init 0 is not max's identity: JAX's generic reduction, whose JVP pairs elements
    # (first half against second half); a left fold would give [1/4, 1/4, 1/2]
    g = same(lambda m: m.jx.grad(lambda v: m.lax.reduce(v, np.float16(0), m.lax.max, (0, 1)))(x))
    np.testing.assert_array_equal(np.asarray(g)[[0, 1, 2], [1, 0, 0]], [0.25, 0.5, 0.25])


_BAD_REDUCE = {
    "init_dtype": lambda m: m.lax.reduce(_V, np.int32(0), lambda a, b: a + b, (0,)),
    "weak_init_f16": lambda m: m.lax.reduce(_V.astype(np.float16), 0.0, lambda a, b: a + b, (0,)),
    "tree": lambda m: m.lax.reduce((_V, _V), [0.0, 0.0], lambda a, b: a, (0,)),
    "nonscalar_init": lambda m: m.lax.reduce(_V, np.zeros(4, np.float32), lambda a, b: a + b, (0,)),
    "monoid_axes": lambda m: m.lax.reduce(_V, 0.0, m.lax.add, (2,)),
    # (seed reduce 363) the computation's dtype is checked even where nothing is reduced
    "out_dtype": lambda m: m.lax.reduce(_V > 2, np.bool_(False), lambda a, b: a + b * 1, ()),
    "init_derivative": lambda m: m.jx.grad(
        lambda i: m.lax.reduce(_V, i, lambda a, b: a + b, (0,)).sum()
    )(np.float32(1)),
}


@pytest.mark.parametrize("case", sorted(_BAD_REDUCE))
def test_reduce_bad_input_raises_as_jax(case):
    f = _BAD_REDUCE[case]
    with pytest.raises((TypeError, ValueError, NotImplementedError)):
        f(LITE)
    same(f)
    # (optree names its spec PyTreeSpec, JAX PyTreeDef; JAX's XLA verifier words the
    # dtype error, docs/compat.md)
    if case not in ("tree", "out_dtype"):
        _same_message(f)


def test_reduce_init_applied_once_and_single_elements_reshaped():
    r = same(lambda m: m.lax.reduce(_V, np.float32(1), m.lax.add, (1,)))
    np.testing.assert_array_equal(np.asarray(r), [10.0, 10.0])
    # one element per output: XLA's reshape, the init is not applied
    r = same(lambda m: m.lax.reduce(_V[:, :1], np.float32(5), lambda a, b: a + b, (1,)))
    np.testing.assert_array_equal(np.asarray(r), [1.0, 5.0])
    r = same(lambda m: m.lax.reduce(_V[:0], np.float32(2), lambda a, b: a + b, (0,)))
    np.testing.assert_array_equal(np.asarray(r), [2.0] * 4)


def test_reduce_and_or_of_integers_are_bitwise():  # seeds reduce 4, 70
    x = np.array([[6, 3], [5, 7]], np.uint8)
    r = same(lambda m: m.lax.reduce(x, np.uint8(255), m.lax.bitwise_and, (0,)))
    np.testing.assert_array_equal(np.asarray(r), [4, 3])
    r = same(lambda m: m.lax.reduce_or(x.astype(np.int32), (1,)))
    np.testing.assert_array_equal(np.asarray(r), [7, 7])
    f = lambda m: m.lax.reduce_and(_V, (0,))  # noqa: E731
    with pytest.raises(TypeError):
        f(LITE)
    same(f)
    _same_message(f)


# --------------------------- reduce_precision (seeds reduce 60, 67, 111, 119, 136)
# jaxlite rounded the mantissa but kept the exponent range (70000 with 5 exponent bits
# stayed finite; values below the narrow format's normals stayed), also for tangents.
def test_reduce_precision_overflows_and_flushes_as_xla():
    x = np.array([70000.0, 57344.0, 3e-5, 2.0**-14, -1e-8, np.inf, np.nan, 1.2345678], np.float32)
    r = np.asarray(same(lambda m: m.lax.reduce_precision(x, 5, 2)))
    np.testing.assert_array_equal(r[:6], [np.inf, 57344.0, 0.0, 2.0**-14, -0.0, np.inf])
    assert np.signbit(r[4]) and np.isnan(r[6]) and r[7] == 1.25
    # float16's exponent range from float32: its subnormals flush to zero
    r = np.asarray(same(lambda m: m.lax.reduce_precision(x, 5, 10)))
    assert r[2] == 0.0 and r[3] == 2.0**-14
    # the tangent is reduced too
    t = same(
        lambda m: m.jx.jvp(
            lambda v: m.lax.reduce_precision(v, 2, 1), (x,), (np.full_like(x, -0.5),)
        )
    )
    np.testing.assert_array_equal(np.asarray(t[1])[:6], -np.zeros(6, np.float32))


def test_reduce_precision_bits_match_jax():
    pytest.importorskip("jax")
    rng = np.random.RandomState(0)
    for dt in (np.float32, np.float16):
        bits = rng.randint(0, 2 ** (8 * np.dtype(dt).itemsize), size=500, dtype=np.uint64)
        x = bits.astype({4: np.uint32, 2: np.uint16}[np.dtype(dt).itemsize]).view(dt)
        for eb, mb in [(5, 10), (8, 7), (4, 3), (2, 1), (8, 0)]:
            a = np.asarray(JAX.lax.reduce_precision(x, eb, mb))
            b = np.asarray(LITE.lax.reduce_precision(x, eb, mb))
            with np.errstate(invalid="ignore"):
                assert ((a == b) | (np.isnan(a) & np.isnan(b))).all(), (dt, eb, mb)
            assert np.array_equal(np.signbit(a), np.signbit(b))


# ----------------------------------------------- bitcast_convert_type (seed reduce 53)
def test_bitcast_bool_and_complex_only_to_themselves():
    r = same(lambda m: m.lax.bitcast_convert_type(np.array([True, False]), np.bool_))
    np.testing.assert_array_equal(np.asarray(r), [True, False])
    same(lambda m: m.lax.bitcast_convert_type(np.array([1 + 2j], np.complex64), np.complex64))
    for src, dt in ((np.array([True]), np.int8), (np.ones(2, np.float64), np.complex64)):
        f = lambda m, src=src, dt=dt: m.lax.bitcast_convert_type(src, dt)  # noqa: E731
        with pytest.raises(TypeError):
            f(LITE)
        same(f)
        _same_message(f)


# ------------------------------------------------------------------ a spread of seeds
_SPREAD = {
    "gather": (7, 25, 50, 71, 72),
    "reduce": (2, 4, 12, 40, 53, 60, 67, 70, 89),
    "slicing": (0, 3, 5),
}


@pytest.mark.parametrize("name, seed", [(n, s) for n, seeds in _SPREAD.items() for s in seeds])
def test_hunt_seed_agrees_with_jax(name, seed):
    pytest.importorskip("jax")
    d, src = fuzz_s24l.check(name, seed)
    assert d is None, f"{d}\n{src}"
