"""Regression tests for derivatives of ``lax.reduce_window`` with ``max`` / ``min``, found by
differential testing against JAX 0.10.2 (vjp and jvp under vmap). JAX differentiates them
by select-and-scatter: each window's whole cotangent (tangent) goes to one element, the
first in window order that ``current >= candidate`` (``<=`` for min) keeps. jaxlite split
ties evenly. Every expected value is JAX's; the file also passes in oracle mode."""

import numpy as np
import pytest

import jaxlite
from jaxlite import lax


def _rw(kind, window=(2,), padding="VALID"):
    op, init = (lax.max, -np.inf) if kind == "max" else (lax.min, np.inf)
    return lambda x: lax.reduce_window(x, init, op, window, (1,) * len(window), padding)


@pytest.mark.parametrize("mode", ["eager", "jit", "vmap"])
def test_max_window_cotangent_goes_to_the_first_tied_element(mode):
    x = np.array([2.0, 2.0, 0.0], np.float32)
    ct = np.array([1.0, 10.0, 100.0], np.float32)
    f = _rw("max", padding="SAME")

    def g(x):
        return jaxlite.vjp(f, x)[1](ct)[0]

    if mode == "jit":
        out = jaxlite.jit(g)(x)
    elif mode == "vmap":
        out = jaxlite.vmap(g)(np.stack([x, x]))[1]
    else:
        out = g(x)
    np.testing.assert_array_equal(np.asarray(out), [1.0, 10.0, 100.0])  # was 0.5, 10.5, 100


@pytest.mark.parametrize("kind", ["max", "min"])
def test_window_derivatives_with_signed_zeros_and_nans(kind):
    x = np.array([-0.0, 0.0, -0.0, np.nan, 1.0, np.nan, 2.0], np.float32)
    f = _rw(kind)
    ct = np.arange(1, 7).astype(np.float32)
    np.testing.assert_array_equal(np.asarray(jaxlite.vjp(f, x)[1](ct)[0]), [1, 2, 0, 3, 4, 5, 6])
    t = np.arange(1, 8).astype(np.float32) * 10
    np.testing.assert_array_equal(
        np.asarray(jaxlite.jvp(f, (x,), (t,))[1]), [10, 20, 40, 50, 60, 70]
    )
    out = np.asarray(f(x))
    assert np.isnan(out[2:]).all()


def test_two_dimensional_max_window_and_padding():
    x = np.array([[1.0, 3.0, 3.0, 0.0], [3.0, 1.0, 3.0, 3.0]], np.float32)
    f = lambda x: lax.reduce_window(x, -np.inf, lax.max, (2, 2), (1, 1), "VALID")  # noqa: E731
    ct = np.array([[1.0, 10.0, 100.0]], np.float32)
    want = [[0.0, 11.0, 100.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    np.testing.assert_array_equal(np.asarray(jaxlite.vjp(f, x)[1](ct)[0]), want)
    out = jaxlite.vmap(lambda x: jaxlite.vjp(f, x)[1](ct)[0], in_axes=1)(np.stack([x, x], 1))
    np.testing.assert_array_equal(np.asarray(out)[0], want)
    # A padded position (the init value) that ties wins the first window: its
    # cotangent is dropped.
    y = np.array([-np.inf, -np.inf, 1.0], np.float32)
    g = lambda y: lax.reduce_window(y, -np.inf, lax.max, (2,), (1,), ((1, 0),))  # noqa: E731
    ct3 = np.array([1.0, 10.0, 100.0], np.float32)
    np.testing.assert_array_equal(np.asarray(jaxlite.vjp(g, y)[1](ct3)[0]), [10.0, 0.0, 100.0])


def test_min_window_gradient_under_vmap():
    x = np.array([2.0, 2.0, 0.0], np.float32)
    ct = np.array([1.0, 10.0], np.float32)
    out = jaxlite.vmap(lambda x: jaxlite.vjp(_rw("min"), x)[1](ct)[0])(np.stack([x, x]))
    np.testing.assert_array_equal(np.asarray(out), [[1.0, 0.0, 10.0]] * 2)
    # Second derivative: the selection is piecewise constant, so zero.
    h = jaxlite.hessian(lambda x: _rw("max")(x).sum())(np.array([1.0, 3.0, 2.0], np.float32))
    np.testing.assert_array_equal(np.asarray(h), np.zeros((3, 3)))
