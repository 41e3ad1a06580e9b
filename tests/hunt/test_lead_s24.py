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
