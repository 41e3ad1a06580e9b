"""``jax.lax`` never promotes: a Python scalar counts as its default dtype (int32, float32,
complex64, bool) and each position accepts JAX's dtype categories. jaxlite's public lax
functions followed this only for the arithmetic operators; the others adapted weak
operands, so ``lax.bitwise_and(x_int32, 1.5)`` silently computed ``x & 1`` and
``lax.complex(x, 1j)`` dropped the imaginary part. Expected behaviour is JAX 0.10.2's (the
file passes in oracle mode)."""

import numpy as np
import pytest

import jaxlite.lax as lax
import jaxlite.numpy as jnp

F32 = jnp.array([1.5, 2.5], jnp.float32)
F16 = jnp.array([1.5, 2.5], jnp.float16)
I8 = jnp.array([1, 2], jnp.int8)
I32 = jnp.array([1, 2], jnp.int32)
B = jnp.array([True, False])
C64 = jnp.array([1 + 1j, 2], jnp.complex64)

REFUSED = [
    # (call, message fragment)
    (lambda: lax.bitwise_and(I32, 1.5), "and does not accept dtype float32 at position 1"),
    (lambda: lax.bitwise_or(1.5, I32), "or does not accept dtype float32 at position 0"),
    (
        lambda: lax.bitwise_xor(B, 1),
        "lax.xor requires arguments to have the same dtypes, got bool, int32",
    ),
    (
        lambda: lax.bitwise_and(I8, 2),
        "lax.and requires arguments to have the same dtypes, got int8, int32",
    ),
    (lambda: lax.shift_left(I8, 1), "lax.shift_left requires arguments to have the same dtypes"),
    (lambda: lax.shift_right_logical(I8, 2), "lax.shift_right_logical requires arguments"),
    (
        lambda: lax.shift_right_arithmetic(1.5, I32),
        "shift_right_arithmetic does not accept dtype float32",
    ),
    (lambda: lax.shift_left(B, B), "shift_left does not accept dtype bool at position 0"),
    (lambda: lax.complex(F32, 1j), "complex does not accept dtype complex64 at position 1"),
    (lambda: lax.complex(2, F32), "complex does not accept dtype int32 at position 0"),
    (lambda: lax.complex(F16, F16), "complex does not accept dtype float16 at position 0"),
    (lambda: lax.igamma(2, F32), "igamma does not accept dtype int32 at position 0"),
    (lambda: lax.igamma(1.5, 2), "igamma does not accept dtype int32 at position 1"),
    (
        lambda: lax.igammac(F16, 2.5),
        "lax.igammac requires arguments to have the same dtypes, got float16, float32",
    ),
    (
        lambda: lax.betainc(1, F32, F32),
        "regularized_incomplete_beta does not accept dtype int32 at position 0",
    ),
    (lambda: lax.polygamma(1, F32), "polygamma does not accept dtype int32 at position 0"),
    (
        lambda: lax.zeta(F16, 2.0),
        "lax.zeta requires arguments to have the same dtypes, got float16, float32",
    ),
    (
        lambda: lax.clamp(0, F32, 1.0),
        "lax.clamp requires arguments to have the same dtypes, got int32, float32, float32",
    ),
    (
        lambda: lax.clamp(0, I8, 1),
        "lax.clamp requires arguments to have the same dtypes, got int32, int8, int32",
    ),
    (lambda: lax.pow(2, F32), "pow does not accept dtype int32 at position 0"),
    (lambda: lax.pow(F32, B), "pow does not accept dtype bool at position 1"),
    (lambda: lax.pow(F32, 1j), "two inexact dtypes must match, but got float32 and complex64"),
    (lambda: lax.pow(F16, 2.0), "two inexact dtypes must match, but got float16 and float32"),
    (lambda: lax.lt(C64, C64), "lt does not accept dtype complex64 at position 0"),
    (lambda: lax.ge(C64, 1j), "ge does not accept dtype complex64 at position 0"),
    (lambda: lax.abs(B), "abs does not accept dtype bool"),
    (lambda: lax.abs(I8.astype(jnp.uint8)), "abs does not accept dtype uint8"),
    (lambda: lax.cumsum(B), "cumsum does not accept dtype bool"),
    (lambda: lax.cummax(B), "cummax does not accept dtype bool"),
    (lambda: lax.reciprocal(I8), "Integers cannot be raised to negative powers"),
]


@pytest.mark.parametrize("k", range(len(REFUSED)))
def test_lax_refuses_what_jax_refuses(k):
    call, fragment = REFUSED[k]
    with pytest.raises(TypeError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_lax_accepts_what_jax_accepts():
    out = lax.bitwise_and(I32, 3)
    np.testing.assert_array_equal(out, [1, 2])
    assert lax.bitwise_or(B, True).dtype == jnp.bool_
    np.testing.assert_array_equal(lax.shift_left(I32, 2), [4, 8])
    out = lax.complex(F32, 2.0)
    assert out.dtype == jnp.complex64
    np.testing.assert_array_equal(out, [1.5 + 2j, 2.5 + 2j])
    np.testing.assert_allclose(lax.igamma(F32, 1.0), [0.42759, 0.150855], rtol=1e-4)
    np.testing.assert_allclose(lax.clamp(0.0, F32, 2.0), [1.5, 2.0])
    assert lax.cumsum(I8).dtype == jnp.int8


def test_lax_pow_takes_an_integer_exponent_without_promotion():
    out = lax.pow(F32, I32)
    assert out.dtype == jnp.float32 and not out.weak_type
    np.testing.assert_allclose(out, [1.5, 6.25], rtol=1e-6)
    assert lax.pow(F16, I8).dtype == jnp.float16
    assert lax.pow(C64, 2).dtype == jnp.complex64
    out = lax.pow(2.0, 2)
    assert out.dtype == jnp.float32 and out.weak_type and float(out) == 4.0
    out = lax.pow(2.0, I32)
    assert not out.weak_type
    np.testing.assert_array_equal(out, [2.0, 4.0])
