"""Session 19 differential hunt (generators in tests/hunt/fuzz_s19.py: x64 mode, size-0
operands, named-axis collectives under vmap, deep transformation stacks) checked against
JAX 0.10.2. Each case asserts JAX's answer as a known value (so it means something
without JAX, and the file passes in oracle mode, ``JAXLITE_ORACLE=jax``) and, where JAX is
importable, compares the whole result with it through tests/hunt/oracle.py: raised
exception class, or structure, shapes, dtypes, weak types, values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import same


def _x64(build):
    """``build`` run under ``enable_x64(True)``."""

    def run(m):
        with m.jx.enable_x64(True):
            return build(m)

    return run


# --------------------------------------------------- bools made numeric are int32 in x64
# JAX's numeric promotion of bool operands (square, power, shifts, floor_divide, divmod,
# remainder, fmod) gives int32 with or without x64 (its to_numeric_dtype); jaxlite gave
# the default integer type, int64 under x64 (``jnp.square(bools)`` was int64).

_BOOL_NUMERIC = {
    "square": lambda m: m.jnp.square(m.jnp.array([True, False])),
    "square_scalar": lambda m: m.jnp.square(True),
    "power_int": lambda m: m.jnp.array([True, False]) ** 2,
    "power_bool": lambda m: m.jnp.power(m.jnp.array([True, False]), True),
    "power_bools": lambda m: m.jnp.power(m.jnp.array([True, False]), m.jnp.array([True, True])),
    "power_int8_scalar": lambda m: m.jnp.power(m.jnp.array([True, False]), m.jnp.int8(3)),
    "left_shift": lambda m: m.jnp.left_shift(m.jnp.array([True, False]), True),
    "right_shift": lambda m: m.jnp.right_shift(m.jnp.array([True, False]), False),
    "floor_divide": lambda m: m.jnp.array([True, False]) // m.jnp.array([True, True]),
    "divmod": lambda m: m.jnp.divmod(m.jnp.array([True, False]), True),
    "remainder": lambda m: m.jnp.array([True, False]) % m.jnp.array([True, True]),
    "fmod": lambda m: m.jnp.fmod(m.jnp.array([True, False]), True),
    "jit_power": lambda m: m.jx.jit(lambda b: b**2)(m.jnp.array([True, False])),
    "vmap_square": lambda m: m.jx.vmap(m.jnp.square)(m.jnp.array([True, False])),
    "grad_allow_int": lambda m: m.jx.grad(
        lambda x, b: (x * m.jnp.square(b).astype(x.dtype)).sum(), allow_int=True
    )(m.jnp.ones(2), m.jnp.array([True, False])),
}


@pytest.mark.parametrize("name", sorted(_BOOL_NUMERIC))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_bools_made_numeric_are_int32(name, x64):
    build = _BOOL_NUMERIC[name]
    same(_x64(build) if x64 else build)


def test_bools_made_numeric_known_values():
    with jaxlite.enable_x64(True):
        b = jnp.array([True, False])
        for r in (jnp.square(b), b**2, jnp.left_shift(b, b), b // True, jnp.fmod(b, True)):
            assert r.dtype == np.int32
        np.testing.assert_array_equal(jnp.square(b), [1, 0])
        np.testing.assert_array_equal(jnp.left_shift(b, True), [2, 0])
        # a non-bool operand decides as before: int64 under x64
        assert (b // jnp.int64(1)).dtype == np.int64
        assert jnp.power(b, jnp.asarray(np.array([2], np.int64))).dtype == np.int64


# ----------------------------------------------------- jnp.tri's default is float32 always
# JAX's tri defaults to float32 even under x64 (not the default float type); jaxlite gave
# float64 there.

_TRI = {
    "default": lambda m: m.jnp.tri(2, 3, 1),
    "int": lambda m: m.jnp.tri(2, dtype=int),
    "float": lambda m: m.jnp.tri(3, k=-1, dtype=float),
    "jit": lambda m: m.jx.jit(lambda: m.jnp.tri(2))(),
}


@pytest.mark.parametrize("name", sorted(_TRI))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_tri_default_dtype(name, x64):
    same(_x64(_TRI[name]) if x64 else _TRI[name])


def test_tri_default_dtype_known_value():
    with jaxlite.enable_x64(True):
        assert jnp.tri(2).dtype == np.float32
        assert jnp.tri(2, dtype=float).dtype == np.float64


# ------------------------------------------------- jnp.vander keeps x's integer dtype
# JAX's powers are an iota of x's own dtype, so an int8 / uint8 / int32-under-x64 x gives
# a matrix of that dtype (wrapping in it); jaxlite raised x to default-int powers, so the
# result was int32 (int64 under x64).

_VANDER = {
    "int8": lambda m: m.jnp.vander(m.jnp.array([3, 1, 2], "int8")),
    "uint8_wraps": lambda m: m.jnp.vander(m.jnp.array([30, 1, 2], "uint8"), 4),
    "int32_increasing": lambda m: m.jnp.vander(m.jnp.array([3, -1], "int32"), increasing=True),
    "float16": lambda m: m.jnp.vander(m.jnp.array([1.5, 2.0], "float16"), 3),
    "complex": lambda m: m.jnp.vander(m.jnp.array([1j, 2.0]), 3),
    "N0": lambda m: m.jnp.vander(m.jnp.array([1, 2], "int8"), 0),
    "negative_N": lambda m: m.jnp.vander(m.jnp.array([1, 2]), -1),
    "bool": lambda m: m.jnp.vander(m.jnp.array([True, False])),
    "jit": lambda m: m.jx.jit(m.jnp.vander)(m.jnp.array([7, 2], "int16")),
}


@pytest.mark.parametrize("name", sorted(_VANDER))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_vander_keeps_the_dtype(name, x64):
    same(_x64(_VANDER[name]) if x64 else _VANDER[name])


def test_vander_known_values():
    r = jnp.vander(jnp.array([30, 2], "uint8"), 4)
    assert r.dtype == np.uint8
    np.testing.assert_array_equal(r, [[120, 132, 30, 1], [8, 4, 2, 1]])  # 30**3 % 256
    with jaxlite.enable_x64(True):
        assert jnp.vander(jnp.array([3], "int32")).dtype == np.int32


# ------------------------------------------------ jnp.unravel_index in narrow int types
# jaxlite clipped the indices to [0, size - 1] in their own dtype, which wraps when the
# size does not fit: unravel_index(int8(100), (20, 20)) was (14, 7) (399 is -113 in int8);
# JAX's chain of divmods gives (5, 0). A bare int shape is accepted, as JAX's.

_UNRAVEL = {
    "int8_size_past_dtype": lambda m: m.jnp.unravel_index(m.jnp.int8(100), (20, 20)),
    "int8_negative": lambda m: m.jnp.unravel_index(m.jnp.int8(-100), (20, 20)),
    "int8_max": lambda m: m.jnp.unravel_index(m.jnp.int8(127), (20, 20)),
    "uint8": lambda m: m.jnp.unravel_index(m.jnp.uint8(250), (16, 16)),
    "int16": lambda m: m.jnp.unravel_index(m.jnp.int16(30000), (200, 200)),
    "clamped": lambda m: m.jnp.unravel_index(m.jnp.array([-1, 7, 3, -7, 6, -6, 5]), (2, 3)),
    "int_shape": lambda m: m.jnp.unravel_index(m.jnp.arange(-3, 12), 6),
    "zero_dim": lambda m: m.jnp.unravel_index(m.jnp.arange(-3, 12), (2, 0, 3)),
    "python_int": lambda m: m.jnp.unravel_index(-7, (2, 3)),
    "scalar_shape": lambda m: m.jnp.unravel_index(m.jnp.int64(0), ()),
    "jit": lambda m: m.jx.jit(lambda i: m.jnp.unravel_index(i, (4, 5)))(m.jnp.arange(-25, 25)),
    "vmap_int8": lambda m: m.jx.vmap(lambda i: m.jnp.unravel_index(i, (12, 11)))(
        m.jnp.array([-128, -1, 0, 100, 127], "int8")
    ),
    "nd_shape_error": lambda m: m.jnp.unravel_index(1, [(2,), 3]),
}


@pytest.mark.parametrize("name", sorted(_UNRAVEL))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_unravel_index_without_overflow(name, x64):
    same(_x64(_UNRAVEL[name]) if x64 else _UNRAVEL[name])


def test_unravel_index_known_values():
    r = jnp.unravel_index(jnp.int8(100), (20, 20))
    assert [int(v) for v in r] == [5, 0] and r[0].dtype == np.int8
    assert [int(v) for v in jnp.unravel_index(jnp.int8(127), (20, 20))] == [6, 7]
    np.testing.assert_array_equal(jnp.unravel_index(jnp.array([9, -1]), 4)[0], [3, 3])


# ------------------------------------------------ ix_ and diag_indices_from input checks
# JAX refuses bool ix_ arguments (NotImplementedError; jaxlite returned the mask itself,
# not its indices as NumPy would), gives an empty argument the index dtype, and
# diag_indices_from refuses arrays below 2-D or of unequal dimensions (jaxlite returned
# indices for them).

_IX = {
    "bool": lambda m: m.jnp.ix_(m.jnp.array([True, False, True])),
    "empty_float": lambda m: m.jnp.ix_(m.jnp.zeros(0), m.jnp.array([1.5])),
    "empty_uint8": lambda m: m.jnp.ix_(m.jnp.zeros(0, "uint8")),
    "ints": lambda m: m.jnp.ix_(m.jnp.array([2, 0], "int8"), m.jnp.array([1])),
    "diag_1d": lambda m: m.jnp.diag_indices_from(m.jnp.ones(3)),
    "diag_unequal": lambda m: m.jnp.diag_indices_from(m.jnp.ones((2, 3))),
    "diag_3d": lambda m: m.jnp.diag_indices_from(m.jnp.ones((2, 2, 2))),
}


@pytest.mark.parametrize("name", sorted(_IX))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_ix_and_diag_indices_from_checks(name, x64):
    same(_x64(_IX[name]) if x64 else _IX[name])


def test_ix_and_diag_indices_from_known_errors():
    with pytest.raises(NotImplementedError):
        jnp.ix_(jnp.array([True, False]))
    with pytest.raises(ValueError, match="at least 2-d"):
        jnp.diag_indices_from(jnp.ones(3))
    assert jnp.ix_(jnp.zeros(0))[0].dtype == np.int32


# ---------------------------------------------- jnp.gradient promotes f with its spacing
# JAX promotes f together with every spacing argument: an int8 f with a float16 step is
# float16, an int f with a Python float step is weakly typed, and one float32 spacing
# makes every axis float32; jaxlite promoted f alone.

_GRADIENT = {
    "int_python_float": lambda m: m.jnp.gradient(m.jnp.array([3, 1, 2]), 1.5),
    "int8_float16": lambda m: m.jnp.gradient(m.jnp.array([3, 1, 2], "int8"), m.jnp.float16(2)),
    "float16_python": lambda m: m.jnp.gradient(m.jnp.array([3.0, 1, 2], "float16"), 2.0),
    "mixed_axes": lambda m: m.jnp.gradient(
        m.jnp.arange(9.0, dtype="float16").reshape(3, 3) ** 2, 1.0, m.jnp.float32(2)
    ),
    "coordinates": lambda m: m.jnp.gradient(m.jnp.array([1, 4, 9]), m.jnp.array([1, 2, 4])),
    "float16_coordinates": lambda m: m.jnp.gradient(
        m.jnp.array([1.0, 4, 9], "float16"), m.jnp.array([1.0, 2.5, 4.0])
    ),
}


@pytest.mark.parametrize("name", sorted(_GRADIENT))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_gradient_promotes_with_spacing(name, x64):
    same(_x64(_GRADIENT[name]) if x64 else _GRADIENT[name])


def test_gradient_promotes_with_spacing_known_values():
    r = jnp.gradient(jnp.array([3, 1, 2], "int8"), jnp.float16(2))
    assert r.dtype == np.float16
    np.testing.assert_array_equal(r, [-1.0, -0.25, 0.5])
    assert jnp.gradient(jnp.array([3, 1, 2]), 1.5).weak_type


# ---------------------------------------------------------------- top_k of complex input
# JAX refuses complex operands when top_k is bound (ValueError, an empty operand too);
# jaxlite raised TypeError, and only when it ran.

_TOPK = {
    "eager": lambda m: m.lax.top_k(m.jnp.array([1 + 1j, 2]), 1),
    "empty": lambda m: m.lax.top_k(m.jnp.zeros((2, 0), "complex64"), 0),
    "jit": lambda m: m.jx.jit(lambda x: m.lax.top_k(x, 1))(m.jnp.array([1j])),
    "eval_shape": lambda m: m.jx.eval_shape(lambda x: m.lax.top_k(x, 1), m.jnp.array([1j])),
}


@pytest.mark.parametrize("name", sorted(_TOPK))
def test_top_k_refuses_complex(name):
    same(_TOPK[name])


def test_top_k_refuses_complex_known_error():
    with pytest.raises(ValueError, match="complex"):
        jaxlite.eval_shape(lambda x: jaxlite.lax.top_k(x, 1), jnp.array([1j]))


# ------------------------------------------- set operations without size= are constants
# JAX computes unique (and union1d / intersect1d / setdiff1d / setxor1d, which de-duplicate
# through it) without ``size`` from the operand's concrete value, so the result is a
# constant: its derivative under grad / jvp is zero. jaxlite differentiated through the
# sort (grad of sum(unique(x) ** 2) was 2x). With ``assume_unique=True`` there is no
# de-duplication and the derivative flows, as in JAX.

_X3 = [3.0, 1.0, 2.0]


def _set_grad(expr, argnums=0):
    def build(m):
        def loss(x, y):
            out = expr(m.jnp, x, y)
            return m.jnp.sum(m.jnp.sin(m.jnp.asarray(m.jx.tree_util.tree_leaves(out)[0])))

        x = m.jnp.array(_X3)
        return m.jx.grad(loss, argnums=argnums)(x, x[:2] * 2.0)

    return build


_SET_GRADS = {
    "unique": _set_grad(lambda jnp, x, y: jnp.unique(x)),
    "unique_values": _set_grad(lambda jnp, x, y: jnp.unique_values(x)),
    "unique_counts": _set_grad(lambda jnp, x, y: jnp.unique_counts(x).values),
    "unique_axis": _set_grad(lambda jnp, x, y: jnp.unique(jnp.stack([x, x]), axis=0)),
    "unique_return_index": _set_grad(lambda jnp, x, y: jnp.unique(x, return_index=True)),
    "unique_sized": _set_grad(lambda jnp, x, y: jnp.unique(x, size=4, fill_value=0.0)),
    "union1d": _set_grad(lambda jnp, x, y: jnp.union1d(x, y), (0, 1)),
    "union1d_sized": _set_grad(lambda jnp, x, y: jnp.union1d(x, y, size=5), (0, 1)),
    "intersect1d": _set_grad(lambda jnp, x, y: jnp.intersect1d(x, x[:2]), (0, 1)),
    "intersect1d_indices": _set_grad(
        lambda jnp, x, y: jnp.intersect1d(x, x[1:], return_indices=True), (0, 1)
    ),
    "intersect1d_assume_unique": _set_grad(
        lambda jnp, x, y: jnp.intersect1d(x, x[1:], assume_unique=True), (0, 1)
    ),
    "setdiff1d": _set_grad(lambda jnp, x, y: jnp.setdiff1d(x, y), (0, 1)),
    "setdiff1d_assume_unique": _set_grad(
        lambda jnp, x, y: jnp.setdiff1d(x, x[1:2], assume_unique=True), (0, 1)
    ),
    "setxor1d": _set_grad(lambda jnp, x, y: jnp.setxor1d(x, y), (0, 1)),
    "setxor1d_assume_unique": _set_grad(
        lambda jnp, x, y: jnp.setxor1d(x, y, assume_unique=True), (0, 1)
    ),
    "jvp_unique": lambda m: m.jx.jvp(
        m.jnp.unique, (m.jnp.array(_X3),), (m.jnp.array([1.0, 2.0, 3.0]),)
    ),
    "jacfwd_union": lambda m: m.jx.jacfwd(lambda x: m.jnp.union1d(x, x + 1.0))(
        m.jnp.array([1.0, 2.5])
    ),
    "jit_unique_needs_size": lambda m: m.jx.jit(m.jnp.unique)(m.jnp.array(_X3)),
    "weak_unique_under_grad": lambda m: m.jx.grad(
        lambda s: (m.jnp.unique(s * m.jnp.ones(2)) * s).sum()
    )(2.0),
}


@pytest.mark.parametrize("name", sorted(_SET_GRADS))
def test_set_operations_without_size_are_constants(name):
    same(_SET_GRADS[name])


def test_set_operations_without_size_known_values():
    x = jnp.array(_X3)
    g = jaxlite.grad(lambda x: jnp.sum(jnp.unique(x) ** 2))(x)
    np.testing.assert_array_equal(g, [0.0, 0.0, 0.0])
    g = jaxlite.grad(lambda x: jnp.sum(jnp.unique(x, size=3) ** 2))(x)
    np.testing.assert_array_equal(g, [6.0, 2.0, 4.0])
    g = jaxlite.grad(lambda x: jnp.sum(jnp.setdiff1d(x, x[1:2], assume_unique=True) ** 2))(x)
    np.testing.assert_array_equal(g, [6.0, 0.0, 4.0])


# ------------------------------------------- setdiff1d / setxor1d with assume_unique=True
# With ``assume_unique`` JAX (and NumPy) neither sort nor de-duplicate setdiff1d's result:
# setdiff1d([3, 1, 2, 5], [2], assume_unique=True) is [3, 1, 5]; jaxlite sorted it. A value
# repeated within one operand of setxor1d is not in the result (it appears twice).

_ASSUME = {
    "setdiff_order": lambda m: m.jnp.setdiff1d(
        m.jnp.array([3, 1, 2, 5]), m.jnp.array([2]), assume_unique=True
    ),
    "setdiff_sized": lambda m: m.jnp.setdiff1d(
        m.jnp.array([3, 1, 2, 5]), m.jnp.array([2]), assume_unique=True, size=5
    ),
    "setdiff_sized_fill": lambda m: m.jnp.setdiff1d(
        m.jnp.array([3.0, 1, 2, 5]), m.jnp.array([2.0]), assume_unique=True, size=2, fill_value=-1
    ),
    "setdiff_repeats": lambda m: m.jnp.setdiff1d(
        m.jnp.array([1.0, 1, 2, 3]), m.jnp.array([2.0]), assume_unique=True
    ),
    "setdiff_jit": lambda m: m.jx.jit(
        lambda a, b: m.jnp.setdiff1d(a, b, assume_unique=True, size=3, fill_value=9)
    )(m.jnp.array([7, 1, 4, 2], "uint8"), m.jnp.array([4], "uint8")),
    "setdiff_weak": lambda m: m.jnp.setdiff1d(2.5, m.jnp.array([1.0]), assume_unique=True),
    "setdiff_empty": lambda m: m.jnp.setdiff1d(
        m.jnp.zeros(0), m.jnp.array([1.0]), assume_unique=True, size=2
    ),
    "setxor_repeats": lambda m: m.jnp.setxor1d(
        m.jnp.array([1, 1, 2, 3]), m.jnp.array([2, 7]), assume_unique=True
    ),
    "setxor_repeats_sized": lambda m: m.jnp.setxor1d(
        m.jnp.array([1, 1, 2, 3]), m.jnp.array([2, 7]), assume_unique=True, size=4
    ),
}


@pytest.mark.parametrize("name", sorted(_ASSUME))
def test_assume_unique_keeps_order_and_repeats(name):
    same(_ASSUME[name])


def test_assume_unique_known_values():
    r = jnp.setdiff1d(jnp.array([3, 1, 2, 5]), jnp.array([2]), assume_unique=True)
    np.testing.assert_array_equal(r, [3, 1, 5])
    r = jnp.setxor1d(jnp.array([1, 1, 2, 3]), jnp.array([2, 7]), assume_unique=True)
    np.testing.assert_array_equal(r, [3, 7])


# ------------------------------------------------ ravel_pytree's weak types (review)
# JAX joins leaves of one dtype with lax.reshape/lax.concatenate, no jnp promotion: all
# weak leaves give a weak vector (and weak leaves back), and a weak leaf next to a strong
# one gets a strong cotangent. jaxlite cast every leaf (jnp.asarray(x, dtype)): the vector
# of two Python floats was strong, and the weak leaf's gradient weak.
def _ravel_case(args):
    def build(m):
        import importlib

        ravel = importlib.import_module(m.jx.__name__ + ".flatten_util").ravel_pytree

        def f(*xs):
            flat, _ = ravel(xs)
            return (flat * flat).sum()

        flat, unravel = ravel(args(m))
        return flat, unravel(flat), m.jx.grad(f, argnums=(0, 1))(*args(m))

    return build


_S, _W = (False, (False, False), (False, False)), (True, (True, True), (True, True))


@pytest.mark.parametrize(
    "name,args,weak",
    [
        ("two_floats", lambda m: (1.0, 2.0), _W),
        ("float_and_array", lambda m: (1.0, m.jnp.ones(2)), _S),
        ("f32_and_float", lambda m: (m.jnp.float32(1), 2.0), _S),
    ],
    ids=["two_floats", "float_and_array", "f32_and_float"],
)
def test_ravel_pytree_weak_types_like_jax(name, args, weak):
    def w(x):
        return x.aval.weak_type if hasattr(x, "aval") else x.weak_type

    flat, leaves, grads = same(_ravel_case(args))
    assert (w(flat), tuple(map(w, leaves)), tuple(map(w, grads))) == weak
