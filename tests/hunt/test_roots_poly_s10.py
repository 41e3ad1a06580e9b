"""jnp.roots under jit/vmap/grad (strip_zeros=False: JAX's fixed-shape form with NaN roots
for leading zeros) and jnp.poly of a square matrix (its characteristic polynomial from
eigvals, complex as JAX's), against JAX 0.10.2. Both raised NotImplementedError before
session 10. Also: eig/eigvals of a non-finite matrix give nan+nanj as JAX (SciPy's
finiteness check raised ValueError)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as L  # noqa: E402


def close(a, b, rtol=1e-5, atol=1e-5):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


P = [
    np.array([1.0, -3, 2], np.float32),
    np.array([0, 0, 1.0, -3, 2, 0], np.float32),  # leading zeros -> NaN roots last
    np.zeros(3, np.float32),  # all zero: every root NaN
    np.array([1, 1j, 2], np.complex64),
    np.array([1, 0, -4], np.int32),
    np.array([3.0], np.float32),
]


@pytest.mark.parametrize("i", range(len(P)))
def test_roots_no_strip_under_jit(i):
    f = lambda m: lambda p: m.roots(p, strip_zeros=False)  # noqa: E731
    want = jax.jit(f(J))(P[i])
    close(jaxlite.jit(f(L))(P[i]), want)
    close(f(L)(P[i]), want)


def test_roots_vmap_grad_and_strip_error():
    p = P[0]
    f = lambda m: lambda v: m.roots(v, strip_zeros=False)  # noqa: E731
    ps = np.stack([p, 2 * p, np.array([1.0, 0, -1], np.float32)])
    close(jaxlite.vmap(f(L))(ps), jax.vmap(f(J))(ps))
    g = lambda m: lambda v: m.roots(v, strip_zeros=False).real.sum()  # noqa: E731
    close(jaxlite.grad(g(L))(p), jax.grad(g(J))(p), 1e-4, 1e-4)
    h = lambda m: lambda v: (m.roots(v).real ** 2).sum()  # noqa: E731
    q = np.array([0.0, 1.0, -3, 2], np.float32)  # strip_zeros under grad: concrete count
    close(jaxlite.grad(h(L))(q), jax.grad(h(J))(q), 1e-4, 1e-4)
    with pytest.raises(jaxlite.errors.ConcretizationTypeError, match="strip_zeros=False"):
        jaxlite.jit(L.roots)(p)


M = [
    np.array([[1.0, 2], [3, 4]], np.float32),
    np.array([[0.0, -1], [1, 0]], np.float32),  # complex eigenvalues
    np.array([[1.0, 2], [3, 4]], np.complex64),
    np.array([[1, 2], [3, 4]], np.int32),
    np.array([[2.0]], np.float32),
    np.arange(9.0, dtype=np.float32).reshape(3, 3),
]


@pytest.mark.parametrize("i", range(len(M)))
def test_poly_of_square_matrix(i):
    want = J.poly(M[i])
    close(L.poly(M[i]), want, 1e-4, 1e-4)
    close(jaxlite.jit(L.poly)(M[i]), want, 1e-4, 1e-4)


def test_poly_matrix_vmap_errors_and_derivative():
    ms = np.stack(M[:2])
    close(jaxlite.vmap(L.poly)(ms), jax.vmap(J.poly)(ms), 1e-4, 1e-4)
    for bad in (np.zeros((0, 0), np.float32), np.zeros((2, 3), np.float32)):
        with pytest.raises(ValueError, match="input must be 1d or non-empty square 2d array"):
            L.poly(bad)
    # d/dM of the real parts of the characteristic polynomial (trace and det terms)
    x = M[0]
    f = lambda m: lambda v: m.poly(v).real.sum()  # noqa: E731
    close(jaxlite.grad(f(L))(x), jax.grad(f(J))(x), 1e-3, 1e-3)


def test_eigvals_of_non_finite_matrix_is_nan():
    x = np.array([[[np.nan, 1], [0, 1]], [[1, 2], [3, 4]]], np.float32)
    close(L.linalg.eigvals(x), J.linalg.eigvals(x))
    y = np.array([[np.inf, 1], [0, 1]], np.float32)
    for a, b in zip(jaxlite.lax.linalg.eig(y), jax.lax.linalg.eig(y)):
        close(a, b)
