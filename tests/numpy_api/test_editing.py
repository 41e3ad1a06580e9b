"""jnp.insert/delete/piecewise/packbits/unpackbits, the index helpers (mgrid, ogrid, r_,
c_, s_, index_exp), frexp/spacing/bitwise_count/isdtype and the window functions, against
real JAX: values, dtypes, shapes and weak types eager and under jit, grad and vmap where
JAX transforms them, and JAX's errors (type and message)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as L  # noqa: E402

from ._oracle import check  # noqa: E402

jax.config.update("jax_platforms", "cpu")

A = np.arange(6, dtype=np.int32).reshape(2, 3)
X = np.linspace(-2, 2, 9).astype(np.float32)


def both(name, *args, **kw):
    check(lambda: getattr(L, name)(*args, **kw), lambda: getattr(J, name)(*args, **kw))


INSERT_CASES = [
    ((A, 1, 5), {}),
    ((A, 1, np.array([7, 8])), {"axis": 1}),
    ((A, np.array([0, 2, 2]), np.array([1, 2, 3])), {"axis": 1}),
    ((A, slice(0, 2), 9), {"axis": 1}),
    ((A, 1, 1.5), {}),
    ((A, -1, np.array([[1], [2]])), {"axis": 1}),
    ((A, 1, np.array([[1, 2, 3], [4, 5, 6]])), {"axis": 0}),
    ((A, np.array([1]), np.array([[1], [2]])), {"axis": 1}),
    ((A, np.array([-5, 10, 1]), 0), {"axis": 0}),
    ((A.astype(np.float32), np.array([3, 0]), np.float32(2.5)), {"axis": -1}),
    ((A, np.array([], np.int32), 1), {}),
    # errors
    ((A, np.array([[1]]), 0), {"axis": 1}),
    ((A, 1.5, 0), {}),
    ((A, 1, 0), {"axis": 3}),
    (([1, 2], 1, 0), {}),
]


@pytest.mark.parametrize("args,kw", INSERT_CASES)
def test_insert(args, kw):
    both("insert", *args, **kw)


def test_insert_traced_indices_jit_grad_vmap():
    idx = np.array([0, 3, 1])
    check(
        lambda: jaxlite.jit(lambda a, i: L.insert(a, i, 0, axis=1))(A, idx),
        lambda: jax.jit(lambda a, i: J.insert(a, i, 0, axis=1))(A, idx),
    )
    x = np.arange(4.0, dtype=np.float32)

    def f(mod):
        return lambda v: (mod.insert(v, np.array([1, 1]), v[:2] * 3) ** 2).sum()

    check(lambda: jaxlite.grad(f(L))(x), lambda: jax.grad(f(J))(x))
    rows = np.arange(12.0, dtype=np.float32).reshape(3, 4)
    check(
        lambda: jaxlite.vmap(lambda r: L.insert(r, 2, -1.0))(rows),
        lambda: jax.vmap(lambda r: J.insert(r, 2, -1.0))(rows),
    )


DELETE_CASES = [
    ((A, 1), {}),
    ((A, np.array([0, 2])), {"axis": 1}),
    ((A, slice(0, None, 2)), {"axis": 1}),
    ((A, -1), {"axis": 0}),
    ((A, np.array([1, 1])), {"axis": 1}),
    ((A, np.array([True, False, True])), {"axis": 1}),
    ((A, np.array([1, 3])), {"assume_unique_indices": True}),
    ((A, np.array([5])), {"axis": 1}),
    # errors
    ((A, np.array([True, False])), {"axis": 1}),
    ((A, np.array([1.0])), {}),
    ((A, 1.5), {}),
    (([1, 2], 0), {}),
]


@pytest.mark.parametrize("args,kw", DELETE_CASES)
def test_delete(args, kw):
    both("delete", *args, **kw)


def test_delete_out_of_bounds_integer_raises_value_error():
    with pytest.raises(ValueError, match="out of bounds"):
        L.delete(A, 5, axis=1)


def test_delete_under_jit():
    idx = np.array([2, 0])
    for unique in (True, False):
        check(
            lambda u=unique: jaxlite.jit(
                lambda a, i: L.delete(a, i, axis=1, assume_unique_indices=u)
            )(A, idx),
            lambda u=unique: jax.jit(lambda a, i: J.delete(a, i, axis=1, assume_unique_indices=u))(
                A, idx
            ),
        )
    x = np.arange(5.0, dtype=np.float32)
    check(
        lambda: jaxlite.grad(lambda v: (L.delete(v, np.array([1, 3])) ** 2).sum())(x),
        lambda: jax.grad(lambda v: (J.delete(v, np.array([1, 3])) ** 2).sum())(x),
    )


PIECEWISE_CASES = [
    ([X < 0, X > 0], [lambda v: -v, lambda v: v**2]),
    ([X < 0], [1, lambda v: v * 3]),
    ([X < 0, X < 1], [1, 2, 3]),
    ([X < 0], [1, 2, 3]),  # error: too many functions
]


@pytest.mark.parametrize("i", range(len(PIECEWISE_CASES)))
def test_piecewise(i):
    conds, funcs = PIECEWISE_CASES[i]
    both("piecewise", X, conds, funcs)
    if i < 3:
        check(
            lambda: jaxlite.jit(lambda x: L.piecewise(x, [x < 0, x > 1], funcs[-2:]))(X),
            lambda: jax.jit(lambda x: J.piecewise(x, [x < 0, x > 1], funcs[-2:]))(X),
        )


def test_piecewise_casts_to_input_dtype_extra_args_and_grad():
    xi = np.arange(7)
    both("piecewise", xi, [xi < 3], [lambda v: v * 1.5, 2])
    both("piecewise", X, [X < 0], [lambda v, k, s=1.0: v * k + s, 0.0], 2.0, s=3.0)

    def f(mod):
        return lambda x: mod.piecewise(x, [x < 0], [lambda v: v**2, lambda v: v**3]).sum()

    check(lambda: jaxlite.grad(f(L))(X), lambda: jax.grad(f(J))(X))


BOOLS = np.arange(30).reshape(3, 10) % 3 == 0
BYTES = np.array([[3, 255, 128], [1, 2, 64]], np.uint8)


@pytest.mark.parametrize(
    "kw",
    [{}, {"axis": 0}, {"axis": 1}, {"bitorder": "little"}, {"axis": -1, "bitorder": "little"}],
)
def test_packbits(kw):
    both("packbits", BOOLS, **kw)
    both("packbits", BOOLS.astype(np.int16) * 7, **kw)
    check(
        lambda: jaxlite.jit(lambda b: L.packbits(b, **kw))(BOOLS),
        lambda: jax.jit(lambda b: J.packbits(b, **kw))(BOOLS),
    )


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"axis": 0},
        {"axis": 1},
        {"bitorder": "little"},
        {"axis": 1, "count": 5},
        {"count": 30},
        {"axis": 0, "count": -3},
    ],
)
def test_unpackbits(kw):
    both("unpackbits", BYTES, **kw)
    check(
        lambda: jaxlite.vmap(lambda b: L.unpackbits(b, **kw))(BYTES[None]),
        lambda: jax.vmap(lambda b: J.unpackbits(b, **kw))(BYTES[None]),
    )


def test_bits_errors():
    both("packbits", X)
    both("packbits", BOOLS, bitorder="x")
    both("unpackbits", A)
    both("unpackbits", BYTES, bitorder="x")


GRID_KEYS = [
    (slice(0, 3), slice(0, 2)),
    slice(0, 1, 5j),
    slice(0, 1, 0.25),
    slice(4),
    slice(0.5, 3),
    (slice(1, 3), slice(0, 1, 3j)),
    (slice(0, 3), slice(0, 2.0)),
    (slice(0, 2), slice(0, 3), slice(2, 0, -1)),
]


@pytest.mark.parametrize("key", GRID_KEYS)
def test_mgrid_ogrid(key):
    check(lambda: L.mgrid[key], lambda: J.mgrid[key])
    check(lambda: L.ogrid[key], lambda: J.ogrid[key])


R_KEYS = [
    (1, 2, np.array([3, 4])),
    (slice(0, 3), 5),
    ("0,2,1", np.array([1, 2]), np.array([3, 4])),
    ("-1", np.array([[1]]), np.array([[2]])),
    (1.0, 2),
    slice(0, 1, 3j),
    ("r", np.array([1, 2])),
    ("c", np.array([1, 2, 3])),
    ("c", np.array([[1, 2]]), np.array([[3, 4]])),
    ("0,3,-1", np.array([1, 2])),
    ("0,3,0", np.array([1, 2])),
    ("0,3,1", np.array([1, 2])),
    ("0,3,1", slice(0, 3)),
    ("0,4,1", np.ones((2, 3))),
    ("0,4,-2", np.ones((2, 3))),
    ("1", np.array([[1], [2]]), np.array([[3], [4]])),
    ("0,2,1,2", np.array([1])),
    # errors
    (np.array([1, 2]), "c"),
    ("a", np.array([1])),
]


@pytest.mark.parametrize("key", R_KEYS)
def test_r_(key):
    check(lambda: L.r_[key], lambda: J.r_[key])


@pytest.mark.parametrize(
    "key",
    [
        (np.array([1, 2]), np.array([3, 4])),
        (slice(1, 3), slice(4, 6)),
        (1, 2),
        (np.ones((2, 2)), np.array([1, 2])),
    ],
)
def test_c_(key):
    check(lambda: L.c_[key], lambda: J.c_[key])


def test_s_and_index_exp():
    assert L.s_[1:2, ::-1] == J.s_[1:2, ::-1]
    assert L.index_exp[3] == J.index_exp[3] == (3,)
    assert L.s_[3] == J.s_[3] == 3


FLOATS = [
    np.array([3.0, -0.1, 0.0, -0.0, np.inf, -np.inf, np.nan, 1e30, 7], np.float32),
    np.array([1, 2, -8]),
    np.array([0.3, 1e-3, 65504], np.float16),
    np.array([0.75, -3], dtype=J.bfloat16),
    3,
    2.5,
]


@pytest.mark.parametrize("i", range(len(FLOATS)))
def test_frexp_spacing(i):
    x = FLOATS[i]
    both("frexp", x)
    both("spacing", x)
    check(lambda: jaxlite.jit(L.frexp)(x), lambda: jax.jit(J.frexp)(x))
    check(lambda: jaxlite.jit(L.spacing)(x), lambda: jax.jit(J.spacing)(x))


@pytest.mark.jaxlite_only
def test_frexp_subnormals_are_exact():
    # Checked against NumPy (XLA:CPU flushes subnormal inputs, so JAX is no reference here).
    for dt, vals in [(np.float32, [1e-40, -3e-45, 1e-38]), (np.float16, [6e-8, 1e-5, -3e-5])]:
        x = np.array(vals, dt)
        m, e = L.frexp(x)
        want_m, want_e = np.frexp(x)
        np.testing.assert_array_equal(np.asarray(m), want_m)
        np.testing.assert_array_equal(np.asarray(e), want_e)


def test_frexp_spacing_errors_and_derivatives():
    both("frexp", 1j)
    both("spacing", 1j)
    check(
        lambda: jaxlite.grad(lambda x: L.frexp(x)[0])(3.0),
        lambda: jax.grad(lambda x: J.frexp(x)[0])(3.0),
    )
    check(lambda: jaxlite.vmap(L.frexp)(FLOATS[0]), lambda: jax.vmap(J.frexp)(FLOATS[0]))


@pytest.mark.parametrize(
    "x",
    [
        np.array([-3, 7, 0, -128], np.int8),
        np.array([2**20 + 3, -1], np.int32),
        True,
        5,
        np.array([True, False]),
        np.uint16(65535),
        1.0,
    ],
)
def test_bitwise_count(x):
    both("bitwise_count", x)


@pytest.mark.parametrize(
    "dtype,kind",
    [
        (np.float32, "real floating"),
        (J.bfloat16, "real floating"),
        (J.bfloat16, "numeric"),
        (np.int8, ("integral", np.float32)),
        (np.bool_, "bool"),
        (np.bool_, "numeric"),
        (np.complex64, "complex floating"),
        (np.uint8, "unsigned integer"),
        (np.uint8, "signed integer"),
        (np.int8, "signed integer"),
        (np.float32, np.float32),
        (np.float32, np.float64),
        ("float32", "numeric"),
        (np.float64, ("bool", "complex floating")),
        (J.int4, "integral"),
        (np.float32, np.floating),
        (np.float32, "foo"),
        (np.float32, 3),
    ],
)
def test_isdtype(dtype, kind):
    check(lambda: L.isdtype(dtype, kind), lambda: J.isdtype(dtype, kind))


@pytest.mark.parametrize("name", ["hanning", "hamming", "blackman", "bartlett"])
@pytest.mark.parametrize("M", [0, 1, 2, 5, 12, -1])
def test_windows(name, M):
    both(name, M)


@pytest.mark.parametrize("M,beta", [(0, 1.0), (1, 2.0), (5, 0.0), (8, 14.0), (7, 3)])
def test_kaiser(M, beta):
    both("kaiser", M, beta)


def test_windows_under_transformations():
    check(
        lambda: jaxlite.jit(L.hanning, static_argnums=0)(4),
        lambda: jax.jit(J.hanning, static_argnums=0)(4),
    )
    check(
        lambda: jaxlite.grad(lambda b: L.kaiser(6, b).sum())(2.0),
        lambda: jax.grad(lambda b: J.kaiser(6, b).sum())(2.0),
        rtol=1e-5,
    )
    check(lambda: jaxlite.jit(L.hanning)(4), lambda: jax.jit(J.hanning)(4))
