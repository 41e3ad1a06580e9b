"""jax.scipy.linalg schur / rsf2csf / sqrtm / funm / solve_sylvester / hessenberg / polar /
qr_multiply / eigh_tridiagonal and the special matrices, against JAX (values, dtypes,
shapes, errors, which gradients exist) and SciPy; jax.lax.linalg.schur / hessenberg."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax.linalg  # noqa: E402
import jax.numpy  # noqa: E402
import jax.scipy.linalg  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax.linalg  # noqa: E402
import jaxlite.numpy  # noqa: E402
import jaxlite.scipy.linalg  # noqa: E402

from ._oracle import assert_same, outcome  # noqa: E402

jax.config.update("jax_platforms", "cpu")
RNG = np.random.default_rng(7)
JSL, LSL = jax.scipy.linalg, jaxlite.scipy.linalg


def _mat(n, seed=0, dtype=np.float32, shape=()):
    r = np.random.default_rng(seed)
    a = r.standard_normal(shape + (n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * r.standard_normal(shape + (n, n))
    return a.astype(dtype)


def _both(name, *args, tol=1e-4, **kw):
    got = outcome(lambda: getattr(LSL, name)(*args, **kw))
    want = outcome(lambda: getattr(JSL, name)(*args, **kw))
    assert_same(got, want, rtol=tol, atol=tol, check_weak=False)
    return got


def _H(x):
    return np.conj(np.swapaxes(np.asarray(x), -1, -2))


# ------------------------------------------------------------------------------ schur
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("output", ["real", "complex"])
@pytest.mark.parametrize("n", [1, 3, 5])
def test_schur_matches_jax_and_reconstructs(dtype, output, n):
    a = _mat(n, seed=n, dtype=dtype)
    t, z = _both("schur", a, output=output)
    np.testing.assert_allclose(np.asarray(z) @ np.asarray(t) @ _H(z), a, atol=2e-4, rtol=2e-4)


def test_schur_batched_vmap_jit_and_lax():
    a = _mat(4, seed=1, shape=(2, 3))
    _both("schur", a)
    assert_same(jaxlite.vmap(LSL.schur)(a[0]), jax.vmap(JSL.schur)(a[0]), rtol=1e-4, atol=1e-4)
    assert_same(jaxlite.jit(LSL.schur)(a[1]), jax.jit(JSL.schur)(a[1]), rtol=1e-4, atol=1e-4)
    for kw in [{}, {"compute_schur_vectors": False}, {"sort_eig_vals": True}]:
        got = outcome(lambda: jaxlite.lax.linalg.schur(a[0, 0], **kw))
        want = outcome(lambda: jax.lax.linalg.schur(a[0, 0], **kw))
        assert_same(got, want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "args, kw",
    [
        ((np.eye(3, dtype=np.int32),), {}),
        ((np.ones((2, 3), np.float32),), {}),
        ((np.ones((3,), np.float32),), {}),
        ((np.eye(3, dtype=np.float32),), {"output": "foo"}),
    ],
)
def test_schur_errors_match_jax(args, kw):
    _both("schur", *args, **kw)


@pytest.mark.parametrize(
    "fn",
    [
        lambda L, x: L.scipy.linalg.schur(x)[0].sum(),
        lambda L, x: L.numpy.real(L.scipy.linalg.sqrtm(x)).sum(),
        lambda L, x: L.numpy.real(L.scipy.linalg.funm(x, L.numpy.exp)).sum(),
        lambda L, x: L.scipy.linalg.solve_sylvester(x, x.T + 5, x).sum(),
        lambda L, x: L.scipy.linalg.hessenberg(x).sum(),
        lambda L, x: L.scipy.linalg.hessenberg(x, calc_q=True)[1].sum(),
    ],
)
def test_no_gradient_through_schur_or_hessenberg_as_jax(fn):
    a = _mat(3, seed=2) + 3 * np.eye(3, dtype=np.float32)
    got = outcome(lambda: jaxlite.grad(lambda x: fn(jaxlite, x))(a))
    want = outcome(lambda: jax.grad(lambda x: fn(jax, x))(a))
    assert isinstance(want, NotImplementedError)
    assert_same(got, want)


# ---------------------------------------------------------------------- sqrtm, funm
SPD = (_mat(4, seed=3) @ _mat(4, seed=3).T + 4 * np.eye(4)).astype(np.float32)


@pytest.mark.parametrize(
    "a",
    [
        SPD,
        _mat(4, seed=4) + 4 * np.eye(4, dtype=np.float32),
        np.array([[-4.0, 0], [0, 1]], np.float32),
        np.eye(3, dtype=np.int32),
        _mat(3, seed=5, dtype=np.complex64),
        np.float64(SPD),
    ],
)
def test_sqrtm_matches_jax_and_squares_back(a):
    r = _both("sqrtm", a, tol=2e-4)
    np.testing.assert_allclose(np.asarray(r) @ np.asarray(r), a, atol=1e-3, rtol=1e-3)


@pytest.mark.parametrize(
    "args, kw",
    [
        ((SPD,), {"blocksize": 2}),
        ((np.ones((2, 3), np.float32),), {}),
        ((np.stack([SPD, SPD]),), {}),
        ((np.ones(3, np.float32),), {}),
    ],
)
def test_sqrtm_errors_match_jax(args, kw):
    got = outcome(lambda: LSL.sqrtm(*args, **kw))
    want = outcome(lambda: JSL.sqrtm(*args, **kw))
    assert type(got) is type(want), (got, want)


@pytest.mark.parametrize("name", ["exp", "sin", "cos", "log1p"])
@pytest.mark.parametrize("disp", [True, False])
def test_funm_matches_jax(name, disp):
    a = _mat(4, seed=6) / 2 + np.eye(4, dtype=np.float32)
    got = outcome(lambda: LSL.funm(a, getattr(jaxlite.numpy, name), disp=disp))
    want = outcome(lambda: JSL.funm(a, getattr(jax.numpy, name), disp=disp))
    assert_same(got, want, rtol=2e-4, atol=2e-4, check_weak=False)
    if name == "exp":
        f = got if disp else got[0]
        np.testing.assert_allclose(np.asarray(f).real, sla.expm(a), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "a",
    [
        np.eye(3, dtype=np.float32),  # repeated eigenvalues, numerator 0
        np.array([[1.0, 1, 0], [0, 2, 1], [0, 0, 1]], np.float32),  # coinciding, flagged
        np.array([[0.0, 1], [-1, 0]], np.float32),  # complex eigenvalues
    ],
)
def test_funm_edge_cases_match_jax_and_scipy(a):
    got = LSL.funm(a, jaxlite.numpy.exp, disp=False)
    want = JSL.funm(a, jax.numpy.exp, disp=False)
    assert_same(got, want, rtol=1e-4, atol=1e-4)
    f, err = sla.funm(a.astype(np.float64), np.exp, disp=False)
    np.testing.assert_allclose(np.asarray(got[0]), f, rtol=1e-4, atol=1e-4)
    assert (float(got[1]) == 1.0) == (err == 1)


def test_funm_under_jit_and_errors():
    a = _mat(3, seed=8)
    assert_same(
        jaxlite.jit(lambda x: LSL.funm(x, jaxlite.numpy.sin))(a),
        jax.jit(lambda x: JSL.funm(x, jax.numpy.sin))(a),
        rtol=1e-4,
        atol=1e-4,
    )
    got = outcome(lambda: LSL.funm(np.ones((2, 3), np.float32), jaxlite.numpy.exp))
    want = outcome(lambda: JSL.funm(np.ones((2, 3), np.float32), jax.numpy.exp))
    assert_same(got, want)


# ------------------------------------------------------------------- solve_sylvester
@pytest.mark.parametrize("method", ["schur", "eigen"])
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64])
@pytest.mark.parametrize("m, n", [(3, 3), (3, 2), (1, 4)])
def test_solve_sylvester_matches_jax_and_solves(method, dtype, m, n):
    a = _mat(m, seed=m, dtype=dtype) + 3 * np.eye(m, dtype=dtype)
    b = _mat(n, seed=n + 10, dtype=dtype) + 3 * np.eye(n, dtype=dtype)
    c = np.random.default_rng(1).standard_normal((m, n)).astype(dtype)
    x = _both("solve_sylvester", a, b, c, method=method, tol=1e-3)
    np.testing.assert_allclose(a @ np.asarray(x) + np.asarray(x) @ b, c, atol=1e-3, rtol=1e-3)


def test_solve_sylvester_batching_nan_and_errors():
    a = _mat(3, seed=1, shape=(2,)) + 3 * np.eye(3, dtype=np.float32)
    b = _mat(3, seed=2) + 3 * np.eye(3, dtype=np.float32)
    c = np.ones((2, 3, 3), np.float32)
    _both("solve_sylvester", a, b, c)
    assert_same(
        jaxlite.vmap(LSL.solve_sylvester, in_axes=(0, None, 0))(a, b, c),
        jax.vmap(JSL.solve_sylvester, in_axes=(0, None, 0))(a, b, c),
        rtol=1e-4,
        atol=1e-4,
    )
    eye = np.eye(2, dtype=np.float32)
    _both("solve_sylvester", eye, -eye, np.ones((2, 2), np.float32))  # all NaN in both
    got = outcome(lambda: LSL.solve_sylvester(eye, eye, eye, method="foo"))
    want = outcome(lambda: JSL.solve_sylvester(eye, eye, eye, method="foo"))
    assert_same(got, want)


# --------------------------------------------------------------------------- rsf2csf
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_rsf2csf_matches_jax_values_and_gradients(n):
    a = _mat(n, seed=20 + n)
    t, z = sla.schur(a)
    tt, zz = _both("rsf2csf", t, z)
    np.testing.assert_allclose(np.tril(np.asarray(tt), -1), 0, atol=1e-6)

    def loss(L):
        def f(t_):
            t2, z2 = L.scipy.linalg.rsf2csf(t_, z)
            return L.numpy.real(t2).sum() + L.numpy.imag(z2).sum()

        return f

    assert_same(jaxlite.grad(loss(jaxlite))(t), jax.grad(loss(jax))(t), rtol=1e-4, atol=1e-4)


def test_rsf2csf_batched_and_errors():
    a = _mat(3, seed=3, shape=(2,))
    t, z = (np.stack(x) for x in zip(*[sla.schur(m) for m in a]))
    _both("rsf2csf", t, z)
    _both("rsf2csf", t[0], z[0][:2, :2])


# ------------------------------------------------------------------------ hessenberg
@pytest.mark.parametrize("dtype", [np.float32, np.complex64, np.float64])
@pytest.mark.parametrize("n", [1, 2, 4])
def test_hessenberg_matches_jax(dtype, n):
    a = _mat(n, seed=30 + n, dtype=dtype)
    h = _both("hessenberg", a)
    np.testing.assert_allclose(np.tril(np.asarray(h), -2), 0)
    h, q = _both("hessenberg", a, calc_q=True)
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(h) @ _H(q), a, atol=1e-4, rtol=1e-4)
    got = jaxlite.lax.linalg.hessenberg(a)
    want = jax.lax.linalg.hessenberg(a)
    assert_same(got, want, rtol=1e-4, atol=1e-4)


def test_hessenberg_batched_vmap_and_errors():
    a = _mat(3, seed=5, shape=(2,))
    _both("hessenberg", a, calc_q=True)
    assert_same(
        jaxlite.vmap(lambda x: LSL.hessenberg(x, calc_q=True))(a),
        jax.vmap(lambda x: JSL.hessenberg(x, calc_q=True))(a),
        rtol=1e-4,
        atol=1e-4,
    )
    _both("hessenberg", np.eye(3, dtype=np.int32))
    _both("hessenberg", np.ones((2, 3), np.float32))


# ------------------------------------------------------------------------------ polar
@pytest.mark.parametrize(
    "shape, side, method",
    [
        ((3, 3), "right", "qdwh"),
        ((4, 2), "right", "qdwh"),
        ((2, 4), "left", "qdwh"),
        ((3, 3), "right", "svd"),
        ((3, 3), "left", "svd"),
        ((4, 2), "right", "svd"),
        ((2, 4), "left", "svd"),
        ((4, 2), "left", "svd"),
        ((3, 3), "left", "qdwh"),  # NotImplementedError in both
        ((2, 4), "right", "qdwh"),  # NotImplementedError in both
        ((3, 3), "up", "svd"),
        ((3, 3), "right", "eig"),
    ],
)
def test_polar_matches_jax(shape, side, method):
    a = RNG.standard_normal(shape).astype(np.float32)
    res = _both("polar", a, side, method=method, tol=2e-4)
    if not isinstance(res, Exception):
        u, p = (np.asarray(x) for x in res)
        np.testing.assert_allclose(u @ p if side == "right" else p @ u, a, atol=1e-4)


def test_polar_complex_batched_int_and_svd_gradient():
    a = _mat(3, seed=9, dtype=np.complex64, shape=(2,))
    _both("polar", a)
    _both("polar", np.eye(3, dtype=np.int32))
    b = _mat(3, seed=10)

    def loss(L):
        return lambda x: L.scipy.linalg.polar(x, method="svd")[0].sum()

    assert_same(jaxlite.grad(loss(jaxlite))(b), jax.grad(loss(jax))(b), rtol=1e-3, atol=1e-4)


# ------------------------------------------------------------------------ qr_multiply
@pytest.mark.parametrize(
    "a_shape, c_shape, mode",
    [
        ((3, 3), (3,), "right"),
        ((4, 2), (3, 4), "right"),
        ((4, 2), (2, 3), "left"),
        ((3, 3), (3,), "left"),
        ((3, 3), (3, 2), "left"),
    ],
)
@pytest.mark.parametrize("conjugate", [False, True])
def test_qr_multiply_matches_jax_and_scipy(a_shape, c_shape, mode, conjugate):
    a = RNG.standard_normal(a_shape).astype(np.float32)
    c = RNG.standard_normal(c_shape).astype(np.float32)
    got = _both("qr_multiply", a, c, mode, conjugate=conjugate)
    want = sla.qr_multiply(a, c, mode, conjugate=conjugate)
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-4, atol=1e-4)


# ------------------------------------------------------------------- eigh_tridiagonal
@pytest.mark.parametrize(
    "kw",
    [
        {"eigvals_only": True},
        {},
        {"select": "i", "select_range": (1, 2)},
        {"eigvals_only": True, "select": "i", "select_range": (0, 0)},
        {"select": "v", "select_range": (0.0, 1.0)},
    ],
)
def test_eigh_tridiagonal_matches_jax(kw):
    d = RNG.standard_normal(4).astype(np.float32)
    e = RNG.standard_normal(3).astype(np.float32)
    got = outcome(lambda: LSL.eigh_tridiagonal(d, e, **kw))
    want = outcome(lambda: JSL.eigh_tridiagonal(d, e, **kw))
    if isinstance(want, tuple):  # eigenvectors up to sign
        assert_same(got[0], want[0], rtol=1e-4, atol=1e-4)
        g, w = np.asarray(got[1]), np.asarray(want[1])
        np.testing.assert_allclose(np.abs(g), np.abs(w), rtol=1e-4, atol=1e-4)
    else:
        assert_same(got, want, rtol=1e-4, atol=1e-4)


# ------------------------------------------------------------------- special matrices
A4 = np.array([2.0, 3.0, -4.0, 5.0], np.float32)
CONSTRUCTORS = [
    ("companion", (A4,), {}),
    ("companion", (np.stack([A4, A4 + 1]),), {}),
    ("companion", (np.array([1, 2, 3]),), {}),
    ("companion", (A4[:1],), {}),
    ("convolution_matrix", (A4[:3], 5), {}),
    ("convolution_matrix", (A4[:3], 5, "same"), {}),
    ("convolution_matrix", (A4[:3], 5, "valid"), {}),
    ("convolution_matrix", (np.arange(5.0, dtype=np.float32), 3, "same"), {}),
    ("convolution_matrix", (np.arange(5.0, dtype=np.float32), 3, "valid"), {}),
    ("convolution_matrix", (np.ones((2, 3), np.float32), 4), {}),
    ("convolution_matrix", (np.array([1, 2]), 3), {}),
    ("convolution_matrix", (A4, 0), {}),
    ("convolution_matrix", (A4, 3, "x"), {}),
    ("dft", (4,), {}),
    ("dft", (5, "sqrtn"), {}),
    ("dft", (3, "n"), {}),
    ("dft", (3, "x"), {}),
    ("dft", (0,), {}),
    ("fiedler", (A4,), {}),
    ("fiedler", (np.array([1, 5, 2]),), {}),
    ("fiedler", (np.ones((2, 3), np.float32),), {}),
    ("fiedler_companion", (A4,), {}),
    ("fiedler_companion", (np.arange(1.0, 8.0, dtype=np.float32),), {}),
    ("fiedler_companion", (A4[:2],), {}),
    ("fiedler_companion", (np.ones((2, 4), np.float32),), {}),
    ("hadamard", (8,), {}),
    ("hadamard", (1,), {}),
    ("hadamard", (4,), {"dtype": np.float32}),
    ("hadamard", (6,), {}),
    ("helmert", (4,), {}),
    ("helmert", (4,), {"full": True}),
    ("helmert", (1,), {}),
    ("invhilbert", (4,), {}),
    ("invhilbert", (0,), {}),
    ("pascal", (4,), {}),
    ("pascal", (4, "lower"), {}),
    ("pascal", (5, "upper"), {}),
    ("pascal", (3, "x"), {}),
    ("invpascal", (4,), {}),
    ("invpascal", (4, "lower"), {}),
    ("invpascal", (5, "upper"), {}),
    ("invpascal", (3, "x"), {}),
    ("leslie", (A4, A4[:3] / 10), {}),
    ("leslie", (np.ones((2, 3), np.float32), np.ones((2, 2), np.float32)), {}),
    ("leslie", (np.array([1, 2]), np.array([1])), {}),
    ("leslie", (A4, A4), {}),
    ("leslie", (A4[:1], A4[:0]), {}),
]


@pytest.mark.parametrize("name, args, kw", CONSTRUCTORS)
def test_special_matrices_match_jax(name, args, kw):
    _both(name, *args, tol=1e-4, **kw)


@pytest.mark.parametrize(
    "name, args",
    [
        ("pascal", (6,)),
        ("pascal", (6, "lower")),
        ("invpascal", (6,)),
        ("invpascal", (6, "upper")),
        ("invhilbert", (5,)),
        ("helmert", (5,)),
        ("companion", (A4,)),
        ("fiedler_companion", (np.arange(1.0, 8.0),)),
        ("leslie", (A4, A4[:3])),
        ("convolution_matrix", (A4[:3], 6, "same")),
        ("hadamard", (16,)),
        ("dft", (6, "sqrtn")),
    ],
)
def test_special_matrices_match_scipy(name, args):
    got = np.asarray(getattr(LSL, name)(*args))
    want = getattr(sla, name)(*args)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_matrices_of_arrays_are_differentiable():
    def loss(L):
        return lambda x: (
            L.scipy.linalg.companion(x).sum()
            + L.scipy.linalg.fiedler_companion(x).sum()
            + L.scipy.linalg.leslie(x, x[1:]).sum()
            + L.scipy.linalg.convolution_matrix(x, 3).sum()
        )

    assert_same(jaxlite.grad(loss(jaxlite))(A4), jax.grad(loss(jax))(A4), rtol=1e-5)
