"""jax.lax.linalg functions jaxlite lacked (session 10), against JAX 0.10.2:
tridiagonal_solve (values, gradient in all operands, vmap, jit, errors, perturb_singular),
tridiagonal (sytrd/hetrd packed outputs), cholesky_update, householder_product, ormqr,
lu_pivots_to_permutation, symmetric_product, and the exported primitives / enums."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax.linalg as JL  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax.linalg as LL  # noqa: E402

rng = np.random.default_rng(10)


def close(a, b, rtol=2e-5, atol=2e-5):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


def same_error(f):
    """``f(module)`` raises the same exception type and message in JAX and jaxlite."""
    with pytest.raises(Exception) as ej:
        f(JL)
    with pytest.raises(type(ej.value)) as el:
        f(LL)
    assert str(el.value) == str(ej.value)


def tri(n, batch=(), dtype=np.float32):
    def draw(*s):
        v = rng.normal(size=batch + s)
        if np.issubdtype(dtype, np.complexfloating):
            v = v + 1j * rng.normal(size=batch + s)
        return v.astype(dtype)

    dl, d, du = draw(n), draw(n) + 4, draw(n)
    return dl, d, du, draw(n, 2)


# ---------------------------------------------------------------- tridiagonal_solve
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("batch", [(), (2,)])
def test_tridiagonal_solve_values(dtype, batch):
    args = tri(5, batch, dtype)
    close(LL.tridiagonal_solve(*args), JL.tridiagonal_solve(*args), rtol=1e-5, atol=1e-6)
    close(jaxlite.jit(LL.tridiagonal_solve)(*args), JL.tridiagonal_solve(*args), 1e-5, 1e-6)


def test_tridiagonal_solve_gradient_all_operands():
    args = tri(4)
    w = rng.normal(size=(4, 2)).astype(np.float32)

    def f(mod):
        return lambda *a: (mod.tridiagonal_solve(*a) * w).sum() ** 2

    gl = jaxlite.grad(f(LL), argnums=(0, 1, 2, 3))(*args)
    gj = jax.grad(f(JL), argnums=(0, 1, 2, 3))(*args)
    for a, b in zip(gl, gj):
        close(a, b, 1e-4, 1e-4)
    # dl[0] and du[-1] are not part of the matrix: exactly zero gradient, as JAX.
    assert gl[0][0] == 0 and gl[2][-1] == 0
    gjit = jaxlite.jit(jaxlite.grad(f(LL), argnums=(0, 1, 2, 3)))(*args)
    for a, b in zip(gjit, gj):
        close(a, b, 1e-4, 1e-4)


def test_tridiagonal_solve_jvp_complex_and_vmap():
    args = tri(4, dtype=np.complex64)
    ts = tri(4, dtype=np.complex64)
    yl, tl = jaxlite.jvp(LL.tridiagonal_solve, args, ts)
    yj, tj = jax.jvp(JL.tridiagonal_solve, args, ts)
    close(yl, yj, 1e-5, 1e-5)
    close(tl, tj, 1e-4, 1e-4)
    # vjp of complex b: the transpose is A^T, not A^H
    ct = rng.normal(size=(4, 2)).astype(np.complex64)
    (bl,) = jaxlite.vjp(lambda b: LL.tridiagonal_solve(*args[:3], b), args[3])[1](ct)
    (bj,) = jax.vjp(lambda b: JL.tridiagonal_solve(*args[:3], b), args[3])[1](ct)
    close(bl, bj, 1e-4, 1e-4)
    bat = tri(4, (3,))
    # batched diagonals, one b; and batched b only
    close(
        jaxlite.vmap(LL.tridiagonal_solve, (0, 0, 0, None))(*bat[:3], bat[3][0]),
        jax.vmap(JL.tridiagonal_solve, (0, 0, 0, None))(*bat[:3], bat[3][0]),
        1e-5,
        1e-6,
    )
    close(
        jaxlite.vmap(LL.tridiagonal_solve, (None, None, None, 0))(*args[:3], bat[3] + 0j),
        jax.vmap(JL.tridiagonal_solve, (None, None, None, 0))(*args[:3], bat[3] + 0j),
        1e-5,
        1e-6,
    )


def test_tridiagonal_solve_singular():
    z = np.zeros(4, np.float32)
    b = np.ones((4, 2), np.float32)
    # LAPACK gtsv fails: NaN, as JAX
    assert np.isnan(np.asarray(LL.tridiagonal_solve(z, z, z, b))).all()
    assert np.isnan(np.asarray(JL.tridiagonal_solve(z, z, z, b))).all()
    # perturb_singular: finite (the exact values of a singular system are the kernel's)
    out = np.asarray(LL.tridiagonal_solve(z, z, z, b, perturb_singular=True))
    assert np.isfinite(out).all()
    # ... and the ordinary answer for a regular system
    args = tri(5)
    close(
        LL.tridiagonal_solve(*args, perturb_singular=True),
        JL.tridiagonal_solve(*args, perturb_singular=True),
        1e-5,
        1e-6,
    )
    # a system that needs row swaps (zero leading diagonal entry)
    dl = np.array([0, 3, 1, 2], np.float32)
    d = np.array([0, 1, 5, 1], np.float32)
    du = np.array([2, 1, 1, 0], np.float32)
    for p in (False, True):
        close(
            LL.tridiagonal_solve(dl, d, du, b, perturb_singular=p),
            JL.tridiagonal_solve(dl, d, du, b, perturb_singular=p),
            1e-5,
            1e-6,
        )


def test_tridiagonal_solve_errors():
    dl, d, du, b = tri(4)
    same_error(lambda m: m.tridiagonal_solve(dl, d, du, b[:, 0]))
    same_error(lambda m: m.tridiagonal_solve(*(v.astype(np.int32) for v in (dl, d, du, b))))
    same_error(lambda m: m.tridiagonal_solve(dl, d, du, b.astype(np.float16)))
    same_error(lambda m: m.tridiagonal_solve(dl[:3], d, du, b))
    same_error(lambda m: m.tridiagonal_solve(dl, d, du, b[:3]))
    same_error(lambda m: m.tridiagonal_solve(np.stack([dl, dl]), d, du, b))
    same_error(lambda m: m.tridiagonal_solve(list(dl), d, du, b))
    same_error(lambda m: m.tridiagonal_solve(1.0, 2.0, 3.0, b))


# ---------------------------------------------------------------------- tridiagonal
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
@pytest.mark.parametrize("lower", [True, False])
def test_tridiagonal_matches_lapack_packing(dtype, lower):
    a = rng.normal(size=(2, 4, 4))
    if dtype == np.complex64:
        a = a + 1j * rng.normal(size=(2, 4, 4))
    a = (a + np.conj(np.swapaxes(a, -1, -2))).astype(dtype)
    for x, y in zip(LL.tridiagonal(a, lower=lower), JL.tridiagonal(a, lower=lower)):
        close(x, y, 1e-5, 1e-5)
    for x, y in zip(jaxlite.vmap(LL.tridiagonal)(a), jax.vmap(JL.tridiagonal)(a)):
        close(x, y, 1e-5, 1e-5)


def test_tridiagonal_errors_and_no_derivative():
    same_error(lambda m: m.tridiagonal(np.zeros((0, 0), np.float32)))
    same_error(lambda m: m.tridiagonal(np.zeros((2, 3), np.float32)))
    same_error(lambda m: m.tridiagonal(np.zeros((2, 2), np.int32)))
    one = np.ones((1, 1), np.float32)
    for x, y in zip(LL.tridiagonal(one), JL.tridiagonal(one)):
        close(x, y)
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'tridiagonal'"):
        jaxlite.grad(lambda m: LL.tridiagonal(m)[1].sum())(np.eye(3, dtype=np.float32))


# ------------------------------------------------------------------ cholesky_update
def test_cholesky_update():
    a = rng.normal(size=(4, 4)).astype(np.float32)
    r = np.linalg.cholesky(a @ a.T + np.eye(4, dtype=np.float32)).T
    w = rng.normal(size=4).astype(np.float32)
    close(LL.cholesky_update(r, w), JL.cholesky_update(r, w), 1e-5, 1e-5)
    close(jaxlite.jit(LL.cholesky_update)(r, w), JL.cholesky_update(r, w), 1e-5, 1e-5)
    # a general matrix: the rotations act on whole rows, as JAX
    close(LL.cholesky_update(a, w), JL.cholesky_update(a, w), 1e-5, 1e-5)
    neg = -np.eye(3, dtype=np.float32)
    v = np.array([1.0, 1.0, 0.0], np.float32)
    close(LL.cholesky_update(neg, v), JL.cholesky_update(neg, v), 1e-6, 1e-6)
    same_error(lambda m: m.cholesky_update(np.stack([r, r]), np.stack([w, w])))
    same_error(lambda m: m.cholesky_update(r + 0j, w + 0j))
    same_error(lambda m: m.cholesky_update(r, w[:3]))
    same_error(lambda m: m.cholesky_update(r, w.astype(np.float16)))
    with pytest.raises(NotImplementedError, match="Batching rule for 'cholesky_update'"):
        jaxlite.vmap(LL.cholesky_update)(np.stack([r, r]), np.stack([w, w]))


# ------------------------------------------------------------ householder / ormqr
def _raw_qr(shape, dtype=np.float32):
    x = rng.normal(size=shape).astype(dtype)
    h, t = jax.numpy.linalg.qr(x, mode="raw")
    return np.asarray(np.swapaxes(h, -1, -2)).copy(), np.asarray(t)


def test_householder_product():
    a, t = _raw_qr((2, 5, 3))
    close(LL.householder_product(a, t), JL.householder_product(a, t), 1e-5, 1e-5)
    close(LL.householder_product(a, t[:, :2]), JL.householder_product(a, t[:, :2]), 1e-5, 1e-5)
    close(
        jaxlite.vmap(LL.householder_product, (None, 0))(a[0], t),
        jax.vmap(JL.householder_product, (None, 0))(a[0], t),
        1e-5,
        1e-5,
    )
    same_error(lambda m: m.householder_product(a[0].T, t[0]))
    same_error(lambda m: m.householder_product(a[0], np.ones(4, np.float32)))
    same_error(lambda m: m.householder_product(a, t[0]))
    same_error(lambda m: m.householder_product(a, t.astype(np.complex64)))


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_ormqr(dtype):
    a, t = _raw_qr((5, 3), dtype)
    c = rng.normal(size=(5, 2)).astype(dtype)
    for left in (True, False):
        for tr in (False, True):
            cc = c if left else c.T.copy()
            close(
                LL.ormqr(a, t, cc, left=left, transpose=tr),
                JL.ormqr(a, t, cc, left=left, transpose=tr),
                1e-5,
                1e-5,
            )
    same_error(lambda m: m.ormqr(a, t, c.T))
    same_error(lambda m: m.ormqr(a, t, c, left=False))
    same_error(lambda m: m.ormqr(a, t, c[:, 0]))


# ------------------------------------------------------- lu_pivots_to_permutation
def test_lu_pivots_to_permutation():
    cases = [
        (np.array([2, 2, 3], np.int32), 5),
        (np.array([[1, 1], [0, 2]], np.int32), 3),
        (np.array([7, -1], np.int32), 3),  # out of range / negative: jnp indexing rules
        (np.array([-1, 0], np.int32), 3),
        (np.zeros(0, np.int32), 3),
    ]
    for piv, n in cases:
        a, b = LL.lu_pivots_to_permutation(piv, n), JL.lu_pivots_to_permutation(piv, n)
        np.testing.assert_array_equal(a, b)
        assert np.asarray(a).dtype == np.int32
    p = np.array([[1, 1], [0, 2]], np.int32)
    np.testing.assert_array_equal(
        jaxlite.vmap(lambda v: LL.lu_pivots_to_permutation(v, 3))(p),
        jax.vmap(lambda v: JL.lu_pivots_to_permutation(v, 3))(p),
    )
    np.testing.assert_array_equal(
        jaxlite.jit(LL.lu_pivots_to_permutation, static_argnums=1)(p, 4),
        JL.lu_pivots_to_permutation(p, 4),
    )
    # the lu permutation is the pivots' permutation
    x = rng.normal(size=(4, 4)).astype(np.float32)
    _, piv, perm = LL.lu(x)
    np.testing.assert_array_equal(LL.lu_pivots_to_permutation(piv, 4), perm)
    same_error(lambda m: m.lu_pivots_to_permutation(np.array([2, 2, 3], np.int32), 2))
    same_error(lambda m: m.lu_pivots_to_permutation(np.array([1, 0], np.uint32), 3))
    same_error(lambda m: m.lu_pivots_to_permutation(np.int32(1), 3))


# -------------------------------------------------------------- symmetric_product
def test_symmetric_product():
    a = rng.normal(size=(2, 3, 4)).astype(np.float32)
    c = rng.normal(size=(2, 3, 3)).astype(np.float32)
    for sym in (False, True):
        kw = dict(alpha=2.0, beta=0.5, symmetrize_output=sym)
        close(LL.symmetric_product(a, c, **kw), JL.symmetric_product(a, c, **kw), 1e-5, 1e-5)
    close(
        jaxlite.vmap(lambda x, y: LL.symmetric_product(x, y, beta=3))(a, c),
        jax.vmap(lambda x, y: JL.symmetric_product(x, y, beta=3))(a, c),
        1e-5,
        1e-5,
    )
    same_error(lambda m: m.symmetric_product(a[0], c[0, :2, :2]))
    same_error(lambda m: m.symmetric_product(a + 0j, c + 0j))
    with pytest.raises(TypeError):
        LL.symmetric_product(a, c, alpha=np.array([2.0]))
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'symmetric_pr"):
        jaxlite.grad(lambda x: LL.symmetric_product(x, c[0]).sum())(a[0])


def test_public_names_match_jax():
    names = {n for n in dir(JL) if not n.startswith("_")}
    missing = sorted(names - set(dir(LL)))
    assert not missing, missing
    assert [e.value for e in LL.SvdAlgorithm] == [e.value for e in JL.SvdAlgorithm]
    assert [e.value for e in LL.EighImplementation] == [e.value for e in JL.EighImplementation]
    assert [e.value for e in LL.EigImplementation] == [e.value for e in JL.EigImplementation]


# ------------------------------------- keyword arguments of qr / eigh / svd (session 10)
def test_qr_pivoting():
    x = rng.normal(size=(2, 5, 3)).astype(np.float32)
    for full in (True, False):
        got, want = (
            LL.qr(x, pivoting=True, full_matrices=full),
            JL.qr(x, pivoting=True, full_matrices=full),
        )
        assert len(got) == 3
        for a, b in zip(got, want):
            close(a, b, 1e-5, 1e-5)
    for a, b in zip(jaxlite.jit(lambda v: LL.qr(v, pivoting=True))(x), JL.qr(x, pivoting=True)):
        close(a, b, 1e-5, 1e-5)
    f = lambda m: lambda v: m.qr(v, pivoting=True, full_matrices=False)[1].sum()  # noqa: E731
    close(jaxlite.grad(f(LL))(x[0]), jax.grad(f(JL))(x[0]), 1e-4, 1e-4)
    assert len(LL.qr(x, use_magma=True)) == 2


def test_eigh_and_svd_keywords():
    a = rng.normal(size=(4, 4)).astype(np.float32)
    s = a + a.T
    r = rng.normal(size=(5, 3)).astype(np.float32)
    for kw in (
        dict(sort_eigenvalues=False),
        dict(subset_by_index=(0, 4)),
        dict(implementation=LL.EighImplementation.QR),
    ):
        jkw = {
            k: getattr(JL.EighImplementation, v.name) if k == "implementation" else v
            for k, v in kw.items()
        }
        for x, y in zip(LL.eigh(s, **kw), JL.eigh(s, **jkw)):
            close(np.abs(x), np.abs(y), 1e-5, 1e-5)  # eigenvector signs are LAPACK's
    for x, y in zip(LL.svd(r, subset_by_index=(0, 3)), JL.svd(r, subset_by_index=(0, 3))):
        close(np.abs(x), np.abs(y), 1e-5, 1e-5)
    close(LL.svd(r, algorithm=LL.SvdAlgorithm.QR)[1], JL.svd(r, algorithm=JL.SvdAlgorithm.QR)[1])

    def err(f, jf):
        with pytest.raises(Exception) as ej:
            jf()
        with pytest.raises(type(ej.value)) as el:
            f()
        assert str(el.value) == str(ej.value)

    err(lambda: LL.eigh(s, subset_by_index=(1, 3)), lambda: JL.eigh(s, subset_by_index=(1, 3)))
    err(
        lambda: LL.eigh(s, implementation=LL.EighImplementation.JACOBI),
        lambda: JL.eigh(s, implementation=JL.EighImplementation.JACOBI),
    )
    err(
        lambda: LL.eigh(s, implementation=LL.EighImplementation.QDWH),
        lambda: JL.eigh(s, implementation=JL.EighImplementation.QDWH),
    )
    err(lambda: LL.svd(r, subset_by_index=(1, 3)), lambda: JL.svd(r, subset_by_index=(1, 3)))
    err(
        lambda: LL.svd(r, subset_by_index=(1, 3), full_matrices=False),
        lambda: JL.svd(r, subset_by_index=(1, 3), full_matrices=False),
    )
    err(
        lambda: LL.svd(r, algorithm=LL.SvdAlgorithm.JACOBI),
        lambda: JL.svd(r, algorithm=JL.SvdAlgorithm.JACOBI),
    )


# ----------------------------------------------------------------------------- qdwh
QDWH_CASES = [
    ("tall", dict()),
    ("complex", dict()),
    ("square_sym", dict(is_hermitian=True)),
    ("tall", dict(max_iterations=2)),  # stops early: is_converged False, as JAX
    ("illcond", dict()),
    ("tall", dict(eps=1e-3)),
    ("zero", dict()),
]


def _qdwh_input(name):
    a = np.random.default_rng(5).normal(size=(5, 3)).astype(np.float32)
    return {
        "tall": a,
        "complex": (a + 0.5j * a[::-1]).astype(np.complex64),
        "square_sym": a[:3] + a[:3].T,
        "illcond": np.diag([1.0, 1e-3, 1e-6]).astype(np.float32),
        "zero": np.zeros((3, 2), np.float32),
    }[name]


@pytest.mark.parametrize("i", range(len(QDWH_CASES)))
def test_qdwh_matches_jax(i):
    name, kw = QDWH_CASES[i]
    x = _qdwh_input(name)
    u, h, k, ok = LL.qdwh(x, **kw)
    ju, jh, jk, jok = JL.qdwh(x, **kw)
    close(u, ju, 1e-5, 1e-5)
    close(h, jh, 1e-5, 1e-5)
    assert int(k) == int(jk) and bool(ok) == bool(jok)
    assert np.asarray(k).dtype == np.int32


def test_qdwh_jit_vmap_errors():
    x = _qdwh_input("tall")
    for a, b in zip(jaxlite.jit(LL.qdwh)(x)[:2], JL.qdwh(x)[:2]):
        close(a, b, 1e-5, 1e-5)
    xs = np.stack([x, 2 * x])
    got, want = jaxlite.vmap(LL.qdwh)(xs), jax.vmap(JL.qdwh)(xs)
    close(got[0], want[0], 1e-5, 1e-5)
    np.testing.assert_array_equal(got[2], want[2])
    same_error(lambda m: m.qdwh(x.T))
    same_error(lambda m: m.qdwh(x.astype(np.int32)))
    same_error(lambda m: m.qdwh(xs))
