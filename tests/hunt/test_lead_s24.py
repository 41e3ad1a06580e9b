"""Session 24 (lead): differences the differential hunts (tests/hunt/fuzz_s21.py,
fuzz_s22.py, tests/fuzz) found on fresh seeds, reduced; expectations are JAX 0.10.2's
answers, checked against JAX where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

# --- jnp.power of an integer base by an integer exponent it promotes to a float with --------
# (fuzz_s21 mixed seed 24000108). int32 and uint64 join at a weak float: JAX promotes both
# and computes lax.pow(float64 weak, float64 weak), a weakly typed result. jaxlite kept its
# rule for a float base and an integer exponent (lax.pow(float, int): strongly typed) for
# every strongly typed integer exponent, so the result lost its weak type.

_INT_BY_U64 = [("int32", "uint64"), ("int8", "uint64"), ("int64", "uint64"), ("int16", "uint64")]


@pytest.mark.parametrize("base, exponent", _INT_BY_U64)
@pytest.mark.parametrize("jit", [False, True])
def test_power_of_int_by_uint64_is_a_weak_float(base, exponent, jit):
    with jax.enable_x64(True):
        a = jnp.asarray(np.array([1, 2, 3], base))
        b = jnp.asarray(np.array([1, 1, 2], exponent))
        f = jax.jit(jnp.power) if jit else jnp.power
        r = f(a, b)
        assert r.dtype == np.float64 and r.weak_type
        assert np.asarray(r).tolist() == [1.0, 2.0, 9.0]
        assert (a**b).weak_type


@pytest.mark.parametrize(
    "base, exponent, dtype",
    [("float32", "uint64", np.float32), ("float16", "int64", np.float16)],
)
def test_power_of_a_float_by_a_strong_int_stays_strong(base, exponent, dtype):
    # lax.pow(float, int): the base's dtype, strongly typed (unchanged by the fix)
    with jax.enable_x64(True):
        r = jnp.asarray(np.array([1.0, 2, 3], base)) ** jnp.asarray(np.array([1, 1, 2], exponent))
        assert r.dtype == dtype and not r.weak_type
        r = jnp.asarray(2.0) ** jnp.asarray(np.array([1, 1, 2], exponent))
        assert not r.weak_type


def test_power_weak_types_match_jax():
    real = pytest.importorskip("jax")
    for base, exponent in _INT_BY_U64 + [("float32", "uint64"), ("bool", "uint64")]:
        for mod in (jax, real):
            with mod.enable_x64(True):
                a = mod.numpy.asarray(np.array([1, 0, 1], base))
                b = mod.numpy.asarray(np.array([1, 1, 2], exponent))
                r = mod.numpy.power(a, b)
                got = (str(r.dtype), bool(r.weak_type), np.asarray(r).tolist())
            if mod is jax:
                mine = got
        assert mine == got, (base, exponent, mine, got)


# --- binary jnp functions on mixed integer dtypes (a sweep of every jnp function on pairs
# like int32/uint64, int8/uint8 under x64, against JAX) ---------------------------------------


@pytest.mark.parametrize(
    "d1, d2, want_dtype",
    [("int8", "int8", np.int8), ("int8", "uint8", np.int16), ("uint8", "uint8", np.uint8),
     ("int16", "int16", np.int16), ("uint16", "uint16", np.uint16)],
)  # fmt: skip
@pytest.mark.parametrize("fn", ["vecdot", "linalg.vecdot"])
def test_vecdot_of_small_integers_keeps_their_dtype_and_wraps(d1, d2, want_dtype, fn):
    # JAX's vecdot is a dot_general: the products and their sum in the operands' promoted
    # dtype (an int8 vecdot wraps at int8). jaxlite summed with jnp.sum, which widens small
    # integers to the default integer: int64 10006 where JAX gives int8 22.
    f = jnp.linalg.vecdot if fn == "linalg.vecdot" else jnp.vecdot
    a, b = np.array([100, 2, 3], d1), np.array([100, 0, 2], d2)
    with jax.enable_x64(True):
        for g in (f, jax.jit(f)):
            r = g(jnp.asarray(a), jnp.asarray(b))
            assert r.dtype == want_dtype
            want = (a.astype(np.int64) * b.astype(np.int64)).sum().astype(want_dtype)
            assert int(r) == int(want)
        # preferred_element_type: the sum in that dtype, no wrapping at int8
        r = f(jnp.asarray(a), jnp.asarray(b), preferred_element_type=jnp.int32)
        assert r.dtype == np.int32 and int(r) == 10006


@pytest.mark.parametrize("dtype", ["float32", "bool", "bfloat16"])
def test_take_along_axis_refuses_non_integer_indices(dtype):
    # JAX raises; jaxlite cast the indices to int32 and answered (float 1.7 -> index 1)
    idx = jnp.asarray(np.array([1.7, 0, 2], "float32")).astype(dtype)
    with pytest.raises(TypeError, match="take_along_axis indices must be of integer type"):
        jnp.take_along_axis(jnp.arange(3), idx, axis=0)


@pytest.mark.parametrize("reps", [[1.5, 2], (2.0,), [2, 0.5]])
def test_tile_refuses_float_repetitions(reps):
    # int(1.5) was 1: a silently truncated count
    with pytest.raises(TypeError, match="Shapes must be 1D sequences of concrete values"):
        jnp.tile(jnp.arange(3), reps)


@pytest.mark.parametrize("shape", [(2.0, 2), (2.5,), (1, 1.5)])
def test_resize_refuses_float_sizes(shape):
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        jnp.resize(jnp.arange(3), shape)


@pytest.mark.parametrize("dtype", ["uint64", "uint32", "uint8"])
def test_repeat_takes_unsigned_repeat_counts(dtype):
    # np.repeat refused uint64 counts ("Cannot cast ... according to the rule 'safe'")
    with jax.enable_x64(True):
        reps = jnp.asarray(np.array([1, 0, 2], dtype))
        x = jnp.asarray(np.array([1, 2, 3], "int32"))
        assert np.asarray(jnp.repeat(x, reps)).tolist() == [1, 3, 3]
        r = jnp.repeat(x, reps, total_repeat_length=4)
        assert np.asarray(r).tolist() == [1, 3, 3, 3]


@pytest.mark.parametrize(
    "values, kwargs",
    [([1, 127], {}), ([1, 2], {"length": 128}), ([1, 2], {"minlength": 200})],
)
def test_bincount_length_past_a_signed_dtype_overflows(values, kwargs):
    # JAX: OverflowError (the length in the indices' dtype). jaxlite answered, and for an
    # int32 maximum with x64 off allocated 2**31 bins (the sweep's process ran out of memory)
    x = jnp.asarray(np.array(values, np.int8))
    with pytest.raises(OverflowError, match="out of bounds for int8"):
        jnp.bincount(x, **kwargs)
    with pytest.raises(OverflowError, match="out of bounds for int32"):
        jnp.bincount(jnp.asarray(np.array([0, 2**31 - 1], np.int32)))


def test_bincount_of_unsigned_values_at_the_dtype_maximum():
    # unsigned indices are widened: 255 in uint8 counts in bin 255 (as JAX)
    r = jnp.bincount(jnp.asarray(np.array([1, 255], np.uint8)))
    assert r.shape == (256,) and int(r[255]) == 1 and int(r[1]) == 1
    r = jnp.bincount(jnp.asarray(np.array([1, 126], np.int8)))
    assert r.shape == (127,) and int(r[126]) == 1


@pytest.mark.parametrize(
    "computation, init, reducer",
    [(jnp.add, 0.0, np.sum), (lambda a, b: a + b, 0.0, np.sum), (jnp.maximum, -np.inf, np.max),
     (lambda a, b: jax.lax.min(b, a), np.inf, np.min), (jnp.multiply, 1.0, np.prod)],
)  # fmt: skip
def test_lax_reduce_of_a_traced_monoid_is_one_reduction(computation, init, reducer):
    # JAX stages a generic reduce for these computations, whose HLO XLA reduces as its
    # reduce_* (the same values); jaxlite folded them element by element (one traced step
    # per element: a 200,000-element sum took seconds and a jitted one that many equations)
    x = np.linspace(0.9999, 1.0001, 200_000, dtype=np.float32)
    text = str(jax.make_jaxpr(lambda v: jax.lax.reduce(v, init, computation, (0,)))(x))
    assert text.count("\n") < 12
    r = jax.lax.reduce(x, np.float32(init), computation, (0,))
    np.testing.assert_allclose(float(r), float(reducer(x.astype(np.float64))), rtol=3e-3)
