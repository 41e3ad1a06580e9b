"""jnp.unique(..., axis=k) and jnp.intersect1d(..., return_indices=True) against JAX
0.10.2 (both raised NotImplementedError in jaxlite before session 10): every return_*
flag, size=/fill_value, equal_nan, jit/vmap/grad, assume_unique (including JAX's result
for inputs that break the assumption) and the errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as L  # noqa: E402


def same(a, b):
    if isinstance(b, tuple):
        assert isinstance(a, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
        return
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_array_equal(a, b)


X = np.array([[1, 2], [1, 2], [0, 5], [3, -1], [0, 5]], np.int32)
X3 = (np.arange(24).reshape(2, 3, 4) % 3).astype(np.int32)
F = np.array([[np.nan, 1], [np.nan, 1], [0, 2.0], [-0.0, 2], [0, 1]], np.float32)
C = np.array([[1 + 2j, 0], [1 + 1j, 0], [1 + 2j, 0]], np.complex64)
FLAGS = dict(return_index=True, return_inverse=True, return_counts=True)

CASES = [
    (X, dict(axis=0)),
    (X, dict(axis=1)),
    (X.T, dict(axis=-1)),
    (X, dict(axis=0, size=5)),
    (X, dict(axis=0, size=2)),
    (X, dict(axis=0, size=5, fill_value=9)),
    (X, dict(axis=0, size=4, fill_value=np.array([7, 8]))),
    (X3, dict(axis=1)),
    (X3, dict(axis=2)),
    (X3, dict(axis=0)),
    (F, dict(axis=0)),
    (F, dict(axis=0, equal_nan=False)),
    (F, dict(axis=1)),
    (C, dict(axis=0)),
    (np.array([[True, False], [True, False]]), dict(axis=0)),
    (np.array([3, 1, 3], np.int32), dict(axis=0)),
    (np.zeros((0, 3), np.float32), dict(axis=0)),
    (np.zeros((0, 3), np.float32), dict(axis=1)),
    (np.zeros((0, 3), np.float32), dict(axis=0, size=2, fill_value=1.0)),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_unique_axis_matches_jax(i):
    x, kw = CASES[i]
    want = J.unique(x, **kw, **FLAGS)  # (one JAX call per case: its compiles dominate)
    same(L.unique(x, **kw, **FLAGS), want)
    same(L.unique(x, **kw), want[0])


def test_unique_axis_under_jit_vmap_grad():
    f = lambda m: lambda v: m.unique(v, axis=0, size=4, **FLAGS)  # noqa: E731
    same(jaxlite.jit(f(L))(X), f(J)(X))
    same(jaxlite.vmap(f(L))(np.stack([X, X[::-1]])), jax.vmap(f(J))(np.stack([X, X[::-1]])))
    g = lambda m: lambda v: (m.unique(v, axis=0, size=3) ** 2).sum()  # noqa: E731
    same(jaxlite.grad(g(L))(F), jax.grad(g(J))(F))
    with pytest.raises(jaxlite.errors.ConcretizationTypeError):
        jaxlite.jit(lambda v: L.unique(v, axis=0))(X)


@pytest.mark.parametrize(
    "x, kw",
    [
        (X, dict(axis=2)),
        (np.int32(3), dict(axis=0)),
        (np.zeros((0, 3), np.float32), dict(axis=0, size=2)),
        (X, dict(axis=0.0)),
    ],
)
def test_unique_axis_errors(x, kw):
    with pytest.raises(Exception) as ej:
        J.unique(x, **kw)
    with pytest.raises(type(ej.value)) as el:
        L.unique(x, **kw)
    assert str(el.value) == str(ej.value)


A = np.array([5, 1, 3, 1, 7, 3], np.int32)
B = np.array([3, 9, 1, 1, 4], np.int32)
AU = np.array([5, 1, 3, 7], np.int32)
BU = np.array([3, 9, 1, 4], np.int32)
FA = np.array([np.nan, 1.0, 2.0, np.nan], np.float32)
FB = np.array([np.nan, 2.0], np.float32)

ICASES = [
    (A, B, dict()),
    (A, B, dict(size=4)),
    (A, B, dict(size=4, fill_value=-1)),
    (A, B, dict(size=1)),
    (AU, BU, dict(assume_unique=True)),
    (AU, BU, dict(assume_unique=True, size=3)),
    (A, B, dict(assume_unique=True)),  # the assumption broken: JAX's repeats and indices
    (A.reshape(2, 3), B, dict()),
    (FA, FB, dict()),
    (A.astype(np.int8), B.astype(np.float32), dict()),
    (np.array([], np.int32), B, dict()),
    (np.array([True]), np.array([True, False]), dict(size=3, fill_value=9)),
    (np.array([2.0, 1.0], np.float32), np.array([4.0, 3.0], np.float32), dict(size=2)),
]


@pytest.mark.parametrize("i", range(len(ICASES)))
def test_intersect1d_return_indices_matches_jax(i):
    a, b, kw = ICASES[i]
    want = J.intersect1d(a, b, return_indices=True, **kw)
    same(L.intersect1d(a, b, return_indices=True, **kw), want)
    same(L.intersect1d(a, b, **kw), want[0])


def test_intersect1d_return_indices_jit():
    f = lambda m: lambda x, y: m.intersect1d(x, y, return_indices=True, size=3)  # noqa: E731
    same(jaxlite.jit(f(L))(A, B), f(J)(A, B))
    g = lambda m: lambda x, y: m.intersect1d(x, y, assume_unique=True, size=3)  # noqa: E731
    same(jaxlite.jit(g(L))(AU, BU), g(J)(AU, BU))
    with pytest.raises(jaxlite.errors.ConcretizationTypeError):
        jaxlite.jit(lambda x, y: L.intersect1d(x, y, return_indices=True))(A, B)
