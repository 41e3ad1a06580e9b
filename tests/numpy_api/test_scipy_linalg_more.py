"""jax.scipy.linalg.expm / expm_frechet / toeplitz / hankel / circulant / hilbert against
JAX (values, dtypes, shapes, batching, NaN past max_squarings, gradients) and SciPy."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.linalg  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.scipy.linalg  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")
RNG = np.random.default_rng(11)


def _same(got, want, tol=1e-5):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


# 1-norms across every Padé degree of float32 (thresholds ~0.43, 1.9, 3.9) and squarings.
@pytest.mark.parametrize("scale", [1e-3, 0.1, 0.3, 1.0, 3.0, 10.0, 60.0])
def test_expm_matches_scipy_and_jax(scale):
    # Its own generator: the module's RNG gave an input that depended on which tests the
    # xdist worker ran before (one such float32 matrix at scale 60 was 8.8e-5 off)
    a = (np.random.default_rng(29).standard_normal((4, 4)) * scale / 4).astype(np.float32)
    got = jaxlite.scipy.linalg.expm(a)
    ref = sla.expm(a.astype(np.float64))
    rel = np.abs(np.asarray(got) - ref).max() / max(np.abs(ref).max(), 1.0)
    assert rel < 2e-5
    want = jax.scipy.linalg.expm(a)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(
        np.asarray(got), np.asarray(want), rtol=5e-5, atol=5e-5 * np.abs(ref).max()
    )


def test_expm_complex_batched_int_and_jit():
    z = (RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))).astype(np.complex64)
    _same(jaxlite.scipy.linalg.expm(z), jax.scipy.linalg.expm(z), tol=1e-4)
    stack = RNG.standard_normal((2, 3, 3, 3)).astype(np.float32)
    _same(jaxlite.scipy.linalg.expm(stack), jax.scipy.linalg.expm(stack), tol=1e-4)
    ints = np.array([[1, 2], [3, 4]])
    _same(jaxlite.scipy.linalg.expm(ints), jax.scipy.linalg.expm(ints), tol=1e-3)
    a = RNG.standard_normal((3, 3)).astype(np.float32)
    _same(jaxlite.jit(jaxlite.scipy.linalg.expm)(a), jax.scipy.linalg.expm(a), tol=1e-5)


def test_expm_too_many_squarings_is_nan():
    a = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32) * 100
    got = jaxlite.scipy.linalg.expm(a, max_squarings=4)
    want = jax.scipy.linalg.expm(a, max_squarings=4)
    assert np.isnan(np.asarray(want)).all() and np.isnan(np.asarray(got)).all()


def test_expm_grad_and_errors():
    a = (RNG.standard_normal((3, 3)) * 0.7).astype(np.float32)
    for m in (jax, jaxlite):
        g = m.grad(lambda x, m=m: m.scipy.linalg.expm(x).sum())(a)
        if m is jax:
            want = g
    _same(g, want, tol=1e-4)
    with pytest.raises(ValueError, match="square matrix"):
        jaxlite.scipy.linalg.expm(np.ones((2, 3), np.float32))


def test_expm_frechet():
    a = (RNG.standard_normal((3, 3)) * 0.5).astype(np.float32)
    e = RNG.standard_normal((3, 3)).astype(np.float32)
    ea, l_ae = jaxlite.scipy.linalg.expm_frechet(a, e)
    ref_ea, ref_l = sla.expm_frechet(a.astype(np.float64), e.astype(np.float64))
    np.testing.assert_allclose(np.asarray(ea), ref_ea, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(l_ae), ref_l, rtol=1e-4, atol=1e-4)
    only = jaxlite.scipy.linalg.expm_frechet(a, e, compute_expm=False)
    _same(only, jax.scipy.linalg.expm_frechet(a, e, compute_expm=False), tol=1e-4)
    with pytest.raises(ValueError):
        jaxlite.scipy.linalg.expm_frechet(a, e[:2])


CONSTRUCTORS = [
    ("toeplitz", (np.array([1, 2, 3]),)),
    ("toeplitz", (np.array([1.0, 2, 3]), np.array([9.0, 5, 6, 7]))),
    ("toeplitz", (np.array([1 + 2j, 2, 3j]),)),
    ("toeplitz", (np.arange(6).reshape(2, 3), np.arange(8).reshape(2, 4))),
    ("toeplitz", (np.arange(6.0).reshape(2, 3),)),
    ("hankel", (np.array([1, 2, 3]),)),
    ("hankel", (np.array([1, 2, 3]), np.array([9, 5, 6, 7]))),
    ("hankel", (np.array([1.5, 2.0]), np.array([4.0, 5.0, 6.0]))),
    ("circulant", (np.array([1, 2, 3]),)),
    ("circulant", (np.arange(6.0).reshape(2, 3),)),
]


@pytest.mark.parametrize(
    "name, args", CONSTRUCTORS, ids=[f"{n}{i}" for i, (n, _) in enumerate(CONSTRUCTORS)]
)
def test_constructors(name, args):
    _same(getattr(jaxlite.scipy.linalg, name)(*args), getattr(jax.scipy.linalg, name)(*args))


@pytest.mark.parametrize("n", [1, 3, 6])
def test_hilbert(n):
    _same(jaxlite.scipy.linalg.hilbert(n), jax.scipy.linalg.hilbert(n))
