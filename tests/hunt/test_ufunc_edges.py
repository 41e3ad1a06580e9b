"""Regression tests for wrong answers found by differential hunting against JAX 0.10.2:
``jnp`` ufuncs at dtype edges (complex operands, bool division by zero, integer powers,
scalar indices). Every expected value is JAX's; the file also passes in oracle mode."""

import operator

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp


def _c64(values):
    return jnp.array(values, jnp.complex64)


# Reference values: the principal branch of log(exp(a) + exp(b)) (log2(2**a + 2**b)),
# computed here in complex128 and rounded.
_A = [1 + 2j, -3 + 0.5j, 0j, 1e3 + 1j, 2 - 3j]
_B = [0.5 - 1j, 2 + 3j, 0j, 1e3 - 0.5j, 2 - 3j]


def _principal(z, period):
    # imaginary part wrapped into [-period, period)
    return z.real + 1j * ((z.imag + period) % (2 * period) - period)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
def test_complex_logaddexp_is_the_complex_log_of_the_sum(name):
    a, b = np.array(_A), np.array(_B)
    if name == "logaddexp":
        big = np.maximum(a.real, b.real)
        want = big + np.log(np.exp(a - big) + np.exp(b - big))
        want = _principal(want, np.pi)
    else:
        big = np.maximum(a.real, b.real)
        want = big + np.log2(np.exp2(a - big) + np.exp2(b - big))
        want = _principal(want, np.pi / np.log(2))
    for fn in (getattr(jnp, name), jaxlite.jit(getattr(jnp, name))):
        got = fn(_c64(_A), _c64(_B))
        assert got.dtype == jnp.complex64
        np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6, atol=1e-6)


def test_complex_logaddexp_derivative():
    a, b = _c64(_A[:3]), _c64(_B[:3])
    out, t = jaxlite.jvp(
        jnp.logaddexp, (a, b), (jnp.ones(3, jnp.complex64), jnp.zeros(3, jnp.complex64))
    )
    # d/da log(e^a + e^b) = e^a / (e^a + e^b) = exp(a - out)
    np.testing.assert_allclose(np.asarray(t), np.exp(np.asarray(a) - np.asarray(out)), rtol=1e-5)


def test_hypot_rejects_complex():
    with pytest.raises(ValueError, match="not well defined for complex-valued inputs"):
        jnp.hypot(jnp.array([1.0, 2.0]), 3j)


@pytest.mark.parametrize("order", [0, 1])
def test_copysign_rejects_complex(order):
    args = (jnp.array([1.0, 2.0]), 3j)
    with pytest.raises(TypeError, match="copysign does not support complex-valued inputs"):
        jnp.copysign(*(args if order == 0 else args[::-1]))


def test_fmod_of_bools_by_false_keeps_the_dividend():
    # JAX replaces a zero divisor only when the common type is an integer type.
    out = jnp.fmod(True, jnp.array([True, False]))
    assert out.dtype == jnp.int32
    np.testing.assert_array_equal(out, [0, 1])
    np.testing.assert_array_equal(
        jnp.fmod(jnp.array([True, False]), jnp.array([False, False])), [1, 0]
    )
    # Integers keep 0 for a zero divisor.
    np.testing.assert_array_equal(jnp.fmod(1, jnp.array([1, 0])), [0, 0])


@pytest.mark.parametrize("dt", ["int8", "uint8", "int16", "int32"])
def test_power_by_a_concrete_array_scalar_keeps_the_base_dtype(dt):
    # A concrete integer scalar exponent (a jax array too) is an integer_pow.
    x = jnp.array([2, 0, 3], dt)
    out = x ** jnp.int32(3)
    assert out.dtype == np.dtype(dt)
    np.testing.assert_array_equal(out, np.array([8, 0, 27], dt))
    out = jnp.power(2.0, jnp.int32(3))
    assert out.dtype == jnp.float32 and out.weak_type
    assert float(out) == 8.0


def test_integer_power_by_an_array_exponent_reads_six_bits():
    # JAX's integer power reads the exponent's low 6 bits: x ** e == x ** (e % 64).
    e = jnp.arange(0, 130, dtype=jnp.int32)
    got = np.asarray(jnp.power(jnp.int32(3), e))
    want = np.array([pow(3, int(k) % 64, 2**32) for k in range(130)], np.uint64).astype(np.uint32)
    np.testing.assert_array_equal(got.view(np.uint32), want)
    u = jnp.array([65535, 7, 128], jnp.uint16)
    want16 = [pow(65533, int(k) % 64, 2**16) for k in (65535, 7, 128)]
    np.testing.assert_array_equal(jnp.power(jnp.uint16(65533), u), want16)
    np.testing.assert_array_equal(jnp.power(0, jnp.array([0, 1, 64])), [1, 0, 0])


def test_integer_power_result_is_strongly_typed():
    out = jnp.power(2, jnp.array([True, False]))
    assert out.dtype == jnp.int32 and not out.weak_type
    np.testing.assert_array_equal(out, [2, 1])


@pytest.mark.parametrize("value", [True, False])
def test_bool_array_is_not_an_index(value):
    with pytest.raises(TypeError, match="Only integer scalar arrays"):
        operator.index(jnp.array(value))
    with pytest.raises(TypeError):
        [10, 20][jnp.array(value)]


def test_rank_one_array_is_not_an_index():
    with pytest.raises(TypeError, match="Only integer scalar arrays"):
        operator.index(jnp.array([1]))
    assert [10, 20, 30][jnp.int8(2)] == 30
