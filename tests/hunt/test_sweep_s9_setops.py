"""Regression tests for wrong answers found by a differential sweep of the jnp set
operations against JAX 0.10.2 (session 9). Expected values are JAX 0.10.2's, printed by
it and hard-coded (values, dtype, weak type), so the file runs fast and without JAX.

What was wrong in jaxlite before: setxor1d merged a NaN of each array into one value
([1., nan] for JAX's [1., nan, nan]) and padded size= results with the smallest value
even when a result was NaN; intersect1d/setxor1d kept ar1's dtype instead of promoting
both operands (int32 [2] for JAX's float32 [2.], uint8 for int16) and cast fill_value to
that dtype instead of promoting it (bool [True, True, True] for JAX's int32 [1, 9, 9]);
setxor1d with size= failed under jit and for an empty xor of a 0-d operand; unique and
union1d of Python scalars lost their weak type."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp

NAN_A = np.array([1.0, np.nan, 2.0, -0.0], np.float32)
NAN_B = np.array([np.nan, 0.0, 2.0], np.float32)
INTS = (np.array([1, 2, 3, 4, 2], np.int32), np.array([3, 4, 5, 3], np.int32))
nan = np.nan

# (function, operands (evaluated), keywords, JAX's values, dtype, weak type)
CASES = [
    ("setxor1d", "NAN_A, NAN_B", {}, [1.0, nan, nan], "float32", False),
    ("setxor1d", "NAN_B, NAN_A", {}, [1.0, nan, nan], "float32", False),
    ("setxor1d", "NAN_A, NAN_B", {"assume_unique": True}, [1.0, nan, nan], "float32", False),
    ("setxor1d", "NAN_A, NAN_B", {"size": 6}, [1.0, nan, nan, nan, nan, nan], "float32", False),
    (
        "setxor1d",
        "NAN_A, NAN_B",
        {"size": 6, "fill_value": 9},
        [1.0, nan, nan, 9.0, 9.0, 9.0],
        "float32",
        False,
    ),
    ("setxor1d", "NAN_A, NAN_B", {"size": 2}, [1.0, nan], "float32", False),
    ("setxor1d", "*INTS", {"size": 6}, [1, 2, 5, 1, 1, 1], "int32", False),
    (
        "setxor1d",
        "*INTS",
        {"size": 6, "fill_value": 2.5},
        [1.0, 2.0, 5.0, 2.5, 2.5, 2.5],
        "float32",
        True,
    ),
    (
        "setxor1d",
        "np.array(3, np.int32), np.array([3], np.int32)",
        {"size": 2},
        [0, 0],
        "int32",
        False,
    ),
    (
        "intersect1d",
        "np.array([1, 2], np.int32), np.array([1.5, 2.0], np.float32)",
        {},
        [2.0],
        "float32",
        False,
    ),
    (
        "intersect1d",
        "np.array([1.5, 2.0], np.float32), np.array([1, 2], np.int32)",
        {"size": 3},
        [2.0, 2.0, 2.0],
        "float32",
        False,
    ),
    (
        "intersect1d",
        "np.array([1, 2, 3], np.uint8), np.array([2, 3, 4], np.int8)",
        {},
        [2, 3],
        "int16",
        False,
    ),
    (
        "setxor1d",
        "np.array([1, 2, 3], np.uint8), np.array([2, 3, 4], np.int8)",
        {},
        [1, 4],
        "int16",
        False,
    ),
    (
        "setxor1d",
        "np.array([1, 2], np.int32), np.array([1.5, 2.0], np.float32)",
        {},
        [1.0, 1.5],
        "float32",
        False,
    ),
    (
        "intersect1d",
        "np.array([True, False]), np.array([True])",
        {"size": 3, "fill_value": 9},
        [1, 9, 9],
        "int32",
        True,
    ),
    (
        "setxor1d",
        "np.array([True, False]), np.array([True])",
        {"size": 3, "fill_value": 9},
        [0, 9, 9],
        "int32",
        True,
    ),
    (
        "intersect1d",
        "*INTS",
        {"size": 4, "fill_value": -1.5},
        [3.0, 4.0, -1.5, -1.5],
        "float32",
        True,
    ),
    ("union1d", "3, 2.0", {}, [2.0, 3.0], "float32", True),
    ("unique", "2.5,", {}, [2.5], "float32", True),
    ("unique", "True,", {"size": 2}, [True, True], "bool", False),
]


@pytest.mark.parametrize("fn, args, kw, values, dtype, weak", CASES)
def test_set_operation_matches_jax(fn, args, kw, values, dtype, weak):
    operands = eval("[" + args + "]", {"np": np, "NAN_A": NAN_A, "NAN_B": NAN_B, "INTS": INTS})
    out = getattr(jnp, fn)(*operands, **kw)
    assert out.dtype == np.dtype(dtype)
    assert out.weak_type == weak
    np.testing.assert_array_equal(np.asarray(out), np.array(values, dtype))


def test_setxor1d_with_size_under_jit_matches_eager():
    # jaxlite raised ConcretizationTypeError here; JAX gives [1., nan, nan, nan, nan].
    f = jaxlite.jit(lambda a, b: jnp.setxor1d(a, b, size=5))
    np.testing.assert_array_equal(np.asarray(f(NAN_A, NAN_B)), [1.0, nan, nan, nan, nan])
    g = jaxlite.jit(lambda a, b: jnp.setxor1d(a, b, size=6, fill_value=0))
    np.testing.assert_array_equal(np.asarray(g(*INTS)), [1, 2, 5, 0, 0, 0])


def test_intersect1d_under_vmap_promotes():
    f = jaxlite.vmap(lambda a: jnp.intersect1d(a, np.array([1.5, 2.0], np.float32), size=2))
    out = f(np.array([[1, 2], [2, 3]], np.int32))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), [[2.0, 2.0], [2.0, 2.0]])
