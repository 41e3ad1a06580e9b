"""Regression tests for wrong answers found by a differential sweep of convolutions and
windowed reductions against JAX 0.10.2 (session 9). Expected values are JAX 0.10.2's,
printed by it and hard-coded.

Before the fix: ``jnp.correlate(a, v)`` with a complex ``a`` shorter than ``v`` returned
the complex conjugate of JAX's answer ([15-2j, ...] for [15+2j, ...]); string padding of
``lax.reduce_window`` with ``base_dilation`` was computed from the dilated operand shape
(shape (8, 3) for JAX's (7, 3), values shifted); ``conv_general_dilated`` accepted string
padding with ``lhs_dilation``, which JAX rejects."""

import numpy as np
import pytest

import jaxlite
import jaxlite.lax as lax
import jaxlite.numpy as jnp

A = np.array([1 + 2j, 3 - 1j, 0.5j], np.complex64)
V = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
B = np.array([1 - 1j, 2 + 0.5j], np.complex64)
C = np.array([0.5 + 1j, -1j, 2, 1 + 1j], np.complex64)


@pytest.mark.parametrize(
    "a, v, mode, want",
    [
        (A, V, "full", [4 + 8j, 15 + 2j, 11 + 3j, 7 + 1.5j, 3 + 0j, 0.5j]),
        (A, V, "same", [15 + 2j, 11 + 3j, 7 + 1.5j, 3 + 0j]),
        (A, V, "valid", [11 + 3j, 7 + 1.5j]),
        (B, C, "full", [-2j, 4.5 - 3.5j, 5 + 2j, -1 + 0.5j, 1.5 - 1.75j]),
        (B, C, "same", [4.5 - 3.5j, 5 + 2j, -1 + 0.5j, 1.5 - 1.75j]),
        (B, C, "valid", [4.5 - 3.5j, 5 + 2j, -1 + 0.5j]),
    ],
)
def test_correlate_of_a_shorter_complex_operand(a, v, mode, want):
    out = jnp.correlate(a, v, mode=mode)
    assert out.dtype == np.complex64
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6, atol=1e-6)
    jitted = jaxlite.jit(lambda x, y: jnp.correlate(x, y, mode=mode))(a, v)
    np.testing.assert_allclose(np.asarray(jitted), want, rtol=1e-6, atol=1e-6)


Y = np.arange(40, dtype=np.float32).reshape(8, 5)


def test_reduce_window_same_padding_with_base_dilation():
    out = lax.reduce_window(Y, 0.0, lax.add, (2, 2), (2, 2), "SAME", (2, 1))
    want = [[1.0, 5.0, 4.0], [11.0, 15.0, 9.0], [21.0, 25.0, 14.0], [31.0, 35.0, 19.0]]
    want += [[41.0, 45.0, 24.0], [51.0, 55.0, 29.0], [61.0, 65.0, 34.0]]
    np.testing.assert_array_equal(np.asarray(out), want)
    m = lax.reduce_window(Y, -np.inf, lax.max, (3, 1), (1, 1), "SAME_LOWER", (3, 1), (2, 1))
    assert m.shape == (22, 5)


def test_reduce_window_same_padding_with_base_dilation_grad():
    def f(a):
        return lax.reduce_window(a, 0.0, lax.add, (2, 2), (2, 1), "SAME", (2, 1)).sum()

    g = np.asarray(jaxlite.grad(f)(Y))
    want = np.full((8, 5), 2.0, np.float32)
    want[:, 0] = 1.0
    want[7] = 0.0  # JAX: the last row enters no window
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("padding", ["SAME", "VALID", "SAME_LOWER"])
def test_conv_string_padding_with_lhs_dilation_is_rejected(padding):
    x = np.ones((1, 1, 4), np.float32)
    w = np.ones((1, 1, 2), np.float32)
    with pytest.raises(ValueError, match="String padding is not implemented for transposed"):
        lax.conv_general_dilated(x, w, (1,), padding, lhs_dilation=(2,))
    out = lax.conv_general_dilated(x, w, (1,), ((1, 1),), lhs_dilation=(2,))
    np.testing.assert_array_equal(np.asarray(out)[0, 0], [1, 1, 1, 1, 1, 1, 1, 1])
