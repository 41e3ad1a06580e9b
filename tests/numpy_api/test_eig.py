"""jnp.linalg.eig / eigvals and lax.linalg.eig against JAX: values (LAPACK's order and
normalisation), dtypes, stacks, vmap, jit, eigenvalue derivatives (forward and reverse),
and JAX's refusal to differentiate eigenvectors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")
RNG = np.random.default_rng(5)
MATS = {
    "real-eigs": np.array([[1.0, 2.0], [3.0, 4.0]], np.float32),
    "complex-eigs": RNG.standard_normal((4, 4)).astype(np.float32),
    "complex-input": (RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))).astype(
        np.complex64
    ),
    "stack": RNG.standard_normal((2, 3, 3)).astype(np.float32),
    "int": np.array([[2, 1], [1, 3]], np.int32),
}


def _close(got, want, tol=1e-4):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@pytest.mark.parametrize("name", list(MATS))
def test_eig_and_eigvals_match_jax(name):
    a = MATS[name]
    w, v = jaxlite.numpy.linalg.eig(a)
    jw, jv = jax.numpy.linalg.eig(a)
    _close(w, jw)
    _close(v, jv)
    _close(jaxlite.numpy.linalg.eigvals(a), jax.numpy.linalg.eigvals(a))
    _close(jaxlite.jit(jaxlite.numpy.linalg.eigvals)(a), jax.numpy.linalg.eigvals(a))


def test_lax_eig_left_and_right():
    a = MATS["complex-eigs"]
    got = jaxlite.lax.linalg.eig(a)
    want = jax.lax.linalg.eig(a)
    assert len(got) == len(want) == 3
    for g, w in zip(got, want):
        _close(g, w)
    only_w = jaxlite.lax.linalg.eig(
        a, compute_left_eigenvectors=False, compute_right_eigenvectors=False
    )
    assert len(only_w) == 1


def test_eigvals_derivatives_and_vmap():
    a = MATS["complex-eigs"]

    def loss(m, x):
        w = m.numpy.linalg.eigvals(x)
        return w.real.sum() + (w**2).imag.sum()

    _close(jaxlite.grad(lambda x: loss(jaxlite, x))(a), jax.grad(lambda x: loss(jax, x))(a))
    t = RNG.standard_normal(a.shape).astype(np.float32)
    _close(
        jaxlite.jvp(jaxlite.numpy.linalg.eigvals, (a,), (t,))[1],
        jax.jvp(jax.numpy.linalg.eigvals, (a,), (t,))[1],
    )
    stack = MATS["stack"]
    _close(
        jaxlite.vmap(jaxlite.numpy.linalg.eigvals)(stack), jax.vmap(jax.numpy.linalg.eigvals)(stack)
    )


def test_eigenvector_derivatives_raise_as_in_jax():
    a = MATS["real-eigs"]
    for m in (jax, jaxlite):
        with pytest.raises(NotImplementedError, match="Derivatives of non-symmetric eigenvectors"):
            m.grad(lambda x, m=m: m.numpy.linalg.eig(x)[1].real.sum())(a)
    with pytest.raises(ValueError, match="square"):
        jaxlite.numpy.linalg.eig(np.ones((2, 3), np.float32))
