"""jnp.linalg against JAX 0.10.2 (a session-8 sweep): the derivative of det at singular
matrices (jaxlite gave NaN, JAX the adjugate), pinv's derivative at rank-deficient matrices
(NaN vs finite), qr(mode="raw") (jaxlite returned Q and R instead of LAPACK's Householder
form), and matrix_rank's rtol (JAX compares it with the singular values directly)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as L  # noqa: E402

rng = np.random.default_rng(0)
A = rng.normal(size=(4, 4)).astype(np.float32)
MATS = {
    "regular": A,
    "rank1": np.ones((3, 3), np.float32),
    "rank_n-1": np.diag([1.0, 2.0, 0.0]).astype(np.float32) @ A[:3, :3],
    "zero": np.zeros((3, 3), np.float32),
    "batch": np.stack([A, np.outer(A[0], A[1]).astype(np.float32)]),
    "1x1": np.array([[0.0]], np.float32),
    "complex": (A + 1j * A.T).astype(np.complex64),
}


def close(a, b, rtol=2e-3, atol=2e-4):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize("name", list(MATS))
def test_det_gradient(name):
    x = MATS[name]
    f = lambda m: lambda v: m.real(m.linalg.det(v)).sum()  # noqa: E731
    close(jaxlite.grad(f(L))(x), jax.grad(f(J))(x))
    close(jaxlite.jit(jaxlite.grad(f(L)))(x), jax.grad(f(J))(x))
    if x.ndim == 2 and x.size:
        t = rng.normal(size=x.shape).astype(x.dtype)
        y1, dy1 = jaxlite.jvp(L.linalg.det, (x,), (t,))
        y2, dy2 = jax.jvp(J.linalg.det, (x,), (t,))
        close(y1, y2)
        close(dy1, dy2)


def test_det_of_empty_matrix():
    x = np.zeros((0, 0), np.float32)
    close(L.linalg.det(x), J.linalg.det(x))
    # JAX 0.10.2's derivative here fails with an IndexError; jaxlite's is the empty matrix.
    assert jaxlite.grad(L.linalg.det)(x).shape == (0, 0)


def test_det_gradient_under_vmap():
    x = MATS["batch"]
    g1 = jaxlite.vmap(jaxlite.grad(L.linalg.det))(x)
    g2 = jax.vmap(jax.grad(J.linalg.det))(x)
    close(g1, g2)


@pytest.mark.parametrize("name", ["regular", "rank1", "rank_n-1", "complex"])
def test_pinv_gradient(name):
    x = MATS[name]
    w = rng.normal(size=x.shape[::-1]).astype(np.float32)
    f = lambda m: lambda v: m.real(m.linalg.pinv(v) * w).sum()  # noqa: E731
    close(jaxlite.grad(f(L))(x), jax.grad(f(J))(x), rtol=5e-3, atol=1e-3)


def test_pinv_tall_jvp():
    x = rng.normal(size=(5, 3)).astype(np.float32)
    t = rng.normal(size=(5, 3)).astype(np.float32)
    for a, b in zip(jaxlite.jvp(L.linalg.pinv, (x,), (t,)), jax.jvp(J.linalg.pinv, (x,), (t,))):
        close(a, b)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 4, 3)])
def test_qr_raw(shape):
    x = rng.normal(size=shape).astype(np.float32)
    for a, b in zip(L.linalg.qr(x, mode="raw"), J.linalg.qr(x, mode="raw")):
        close(a, b, rtol=1e-4, atol=1e-5)
    with pytest.raises(NotImplementedError):
        jaxlite.grad(lambda v: L.linalg.qr(v, mode="raw")[0].sum())(x)


def test_matrix_rank_tolerances():
    x = rng.normal(size=(5, 3)).astype(np.float32)
    for r in (0.1, 0.3, 0.5, 0.7, 2.5):
        assert int(L.linalg.matrix_rank(x, rtol=r)) == int(J.linalg.matrix_rank(x, rtol=r))
        assert int(L.linalg.matrix_rank(x, tol=r)) == int(J.linalg.matrix_rank(x, tol=r))
    s = np.stack([x, x * 1e-3])
    close(L.linalg.matrix_rank(s, rtol=np.float32(0.01)), J.linalg.matrix_rank(s, rtol=0.01))
    assert int(L.linalg.matrix_rank(x @ x.T, hermitian=True)) == 3
    with pytest.raises(ValueError, match="only one of tol or rtol"):
        L.linalg.matrix_rank(x, rtol=0.1, tol=0.1)


@pytest.mark.parametrize("name", ["regular", "rank1", "rank_n-1"])
def test_det_higher_orders(name):
    x = MATS[name][:3, :3]
    close(jaxlite.hessian(L.linalg.det)(x), jax.hessian(J.linalg.det)(x))
    if name != "rank1":  # (third order at repeated zero singular values: not smooth here)
        g3 = jaxlite.grad(lambda v: L.sum(jaxlite.hessian(L.linalg.det)(v) ** 2))(x)
        close(g3, jax.grad(lambda v: J.sum(jax.hessian(J.linalg.det)(v) ** 2))(x))


def test_det_second_order_complex():
    c, t = MATS["complex"][:3, :3], MATS["complex"][1:, 1:]

    def second(m, jvp):
        return jvp(lambda v: jvp(m.linalg.det, (v,), (t,))[1], (c,), (t,))[1]

    close(second(L, jaxlite.jvp), second(J, jax.jvp), rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4), (2, 4, 3)])
def test_lu_rectangular(shape):
    x = rng.normal(size=shape).astype(np.float32)
    t = rng.normal(size=shape).astype(np.float32)
    for a, b in zip(jaxlite.lax.linalg.lu(x), jax.lax.linalg.lu(x)):
        close(a, b, rtol=1e-5, atol=1e-6)
    f = lambda m: lambda v: m.lax.linalg.lu(v)[0]  # noqa: E731
    close(jaxlite.jvp(f(jaxlite), (x,), (t,))[1], jax.jvp(f(jax), (x,), (t,))[1], 1e-4, 1e-5)
    if len(shape) == 2:
        import jax.scipy.linalg as JS

        import jaxlite.scipy.linalg as LS

        for a, b in zip(LS.lu(x), JS.lu(x)):
            close(a, b, rtol=1e-5, atol=1e-6)
        g = lambda s: lambda v: (s.lu(v)[1] ** 2).sum() + s.lu(v)[2].sum()  # noqa: E731
        close(jaxlite.grad(g(LS))(x), jax.grad(g(JS))(x), 1e-4, 1e-5)


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
@pytest.mark.parametrize("mode", ["full", "economic", "r"])
def test_scipy_qr_pivoting(shape, mode):
    import jax.scipy.linalg as JS

    import jaxlite.scipy.linalg as LS

    x = rng.normal(size=shape).astype(np.float32)
    ours, theirs = LS.qr(x, pivoting=True, mode=mode), JS.qr(x, pivoting=True, mode=mode)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        close(a, b, rtol=1e-4, atol=1e-5)
    if shape[0] >= shape[1] and mode == "economic":
        w = rng.normal(size=(shape[1], shape[1])).astype(np.float32)
        g = lambda s: lambda v: (s.qr(v, pivoting=True, mode=mode)[1] * w).sum()  # noqa: E731
        close(jaxlite.grad(g(LS))(x), jax.grad(g(JS))(x), 1e-4, 1e-5)
    batch = rng.normal(size=(3,) + shape).astype(np.float32)
    p = jaxlite.vmap(lambda v: LS.qr(v, pivoting=True, mode=mode)[-1])(batch)
    for i in range(3):
        np.testing.assert_array_equal(
            np.asarray(p[i]), np.asarray(JS.qr(batch[i], pivoting=True, mode=mode)[-1])
        )
    with pytest.raises(ValueError, match="Unsupported QR decomposition mode 'raw'"):
        LS.qr(x, mode="raw")
