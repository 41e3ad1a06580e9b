"""Session 22 differential hunt (generators in tests/hunt/fuzz_s22.py: ``jnp.linalg`` and
``jax.scipy.linalg`` under batch dimensions and transformations, ``jax.nn`` functions with
their options, ``jnp.fft`` under transformations) checked against JAX 0.10.2. Each case
asserts a property or value that holds without JAX (so the file means something in oracle
mode, ``JAXLITE_ORACLE=jax``) and, where JAX is importable, compares the whole result with
JAX's through tests/hunt/oracle.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt import fuzz_s22
from tests.hunt.oracle import LITE, same

_RNG = np.random.RandomState(22)
_C = (_RNG.uniform(-1, 1, (3, 3)) + 1j * _RNG.uniform(-1, 1, (3, 3)) + 3 * np.eye(3)).astype(
    np.complex64
)
_CT = (_RNG.uniform(-1, 1, (3, 3)) + 1j * _RNG.uniform(-1, 1, (3, 3))).astype(np.complex64)
_TALL = _RNG.uniform(-1, 1, (4, 2)).astype(np.float32)
_WIDE = _RNG.uniform(-1, 1, (2, 4)).astype(np.float32)


# ------------------------------------------------------------- QR derivatives (seeds 5)
# The QR rule lacked, for complex input, the imaginary diagonal of Q^H dQ (R's diagonal is
# real, so dR's must be): dq and dr were wrong for every complex matrix. It also refused
# wide inputs and complete tall factorisations (jax.scipy.linalg.qr(mode='r' / 'full') of
# a tall matrix under grad: seed "linalg" 5), which JAX 0.10 differentiates.
def _qr_jvp(m, a, t, mode="reduced"):
    return m.jx.jvp(lambda x: tuple(m.jnp.linalg.qr(x, mode=mode)), (a,), (t,))


@pytest.mark.parametrize(
    "a, mode",
    [(_C, "reduced"), (_C, "complete"), (_TALL, "complete"), (_WIDE, "reduced"),
     (_WIDE.astype(np.complex64) * (1 + 0.5j), "reduced"), (_TALL * (1 - 1j), "complete")],
    ids=["complex", "complex_complete", "tall_complete", "wide", "wide_complex",
         "tall_complete_complex"],
)  # fmt: skip
def test_qr_derivatives(a, mode):
    t = (
        np.cos(np.arange(a.size)).reshape(a.shape) * (1 + 0.25j if a.dtype.kind == "c" else 1)
    ).astype(a.dtype)
    (q, r), (dq, dr) = _qr_jvp(LITE, a, t, mode)
    q, r, dq, dr = (np.asarray(v, np.complex128) for v in (q, r, dq, dr))
    # the product rule reproduces the tangent, Q^H dQ is skew-Hermitian, dR stays upper
    # triangular with a real diagonal
    np.testing.assert_allclose(dq @ r + q @ dr, t, atol=2e-5)
    k = q.conj().T @ dq
    np.testing.assert_allclose(k, -k.conj().T, atol=2e-5)
    np.testing.assert_allclose(np.tril(dr, -1), 0, atol=2e-5)
    np.testing.assert_allclose(np.diagonal(dr).imag, 0, atol=2e-5)
    same(lambda m: _qr_jvp(m, a, t, mode), rtol=1e-4, atol=1e-5)


def test_scipy_qr_r_grad_of_tall():
    f = lambda m: m.jx.grad(lambda x: m.jnp.sum(m.jx.scipy.linalg.qr(x, mode="r")[0] ** 2))(_TALL)  # noqa: E731
    # sum(R^2) = sum(A^2) (Q orthogonal): the gradient is 2A
    np.testing.assert_allclose(f(LITE), 2 * _TALL, rtol=1e-5, atol=1e-6)
    same(f, rtol=1e-4, atol=1e-5)


# ------------------------------------------------------------- svd(hermitian=True) (14)
# jnp.linalg.svd ignored hermitian (a plain SVD: another answer for a non-Hermitian input,
# and derivatives in non-Hermitian directions) and subset_by_index (a full-size answer
# where JAX raises on CPU); pinv(hermitian=True)'s derivative now reads the tangent's
# Hermitian part too (seed "linalg" 180), as JAX's.
_NS = np.array([[2.0, 1.0, -0.5], [0.0, -3.0, 0.25], [1.5, 0.5, 1.0]], np.float32)


def test_svd_hermitian_reads_the_hermitian_part():
    s = LITE.jnp.linalg.svd(_NS, hermitian=True, compute_uv=False)
    sym = (_NS + _NS.T) / 2
    np.testing.assert_allclose(s, np.sort(np.abs(np.linalg.eigvalsh(sym)))[::-1], rtol=1e-5)
    same(lambda m: m.jnp.linalg.svd(_NS, hermitian=True, compute_uv=False), rtol=1e-5)
    u, s, vh = LITE.jnp.linalg.svd(_NS, hermitian=True)
    np.testing.assert_allclose((np.asarray(u) * np.asarray(s)) @ np.asarray(vh), sym, atol=1e-5)


@pytest.mark.parametrize("fn", ["svd", "pinv", "matrix_rank"])
def test_hermitian_derivatives_like_jax(fn):
    a = (_NS + _NS.T + 6 * np.eye(3, dtype=np.float32)).astype(np.float32)
    t = np.triu(np.ones((3, 3), np.float32))  # a non-symmetric tangent
    calls = {
        "svd": lambda m, x: m.jnp.linalg.svd(x, hermitian=True, compute_uv=False),
        "pinv": lambda m, x: m.jnp.linalg.pinv(x, hermitian=True),
        "matrix_rank": lambda m, x: m.jnp.linalg.matrix_rank(x, hermitian=True) + 0.0 * x[0, 0],
    }
    f = lambda m: m.jx.jvp(lambda x: calls[fn](m, x), (a,), (t,))  # noqa: E731
    _, d = f(LITE)
    _, d_sym = LITE.jx.jvp(lambda x: calls[fn](LITE, x), (a,), ((t + t.T) / 2,))
    np.testing.assert_allclose(d, d_sym, rtol=1e-5, atol=1e-6)
    same(f, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(
    "kw, exc",
    [({"full_matrices": False, "subset_by_index": (0, 2)}, NotImplementedError),
     ({"compute_uv": False, "subset_by_index": (0, 2)}, ValueError),
     ({"hermitian": True, "subset_by_index": (1, 3)}, NotImplementedError)],
)  # fmt: skip
def test_svd_subset_by_index_raises_as_jax_on_cpu(kw, exc):
    with pytest.raises(exc):
        LITE.jnp.linalg.svd(_NS, **kw)
    same(lambda m: m.jnp.linalg.svd(_NS, **kw))
    # the whole range is accepted
    s = LITE.jnp.linalg.svd(_NS, compute_uv=False, full_matrices=False, subset_by_index=(0, 3))
    assert s.shape == (3,)


# ------------------------------------------------------ jax.scipy.linalg signatures (0)
def test_scipy_eigh_signature():
    sym = (_NS + _NS.T) / 2
    with pytest.raises(TypeError):  # SciPy's newer keyword is not JAX's (was swallowed)
        LITE.jx.scipy.linalg.eigh(sym, subset_by_index=(0, 1))
    with pytest.raises(NotImplementedError):
        LITE.jx.scipy.linalg.eigh(sym, type=2)
    with pytest.raises(NotImplementedError):
        LITE.jx.scipy.linalg.eigh(sym, eigvals=(0, 1))
    same(lambda m: m.jx.scipy.linalg.eigh(sym, subset_by_value=(0.0, 1.0)))
    same(lambda m: m.jx.scipy.linalg.eigh(sym, eigvals_only=True, turbo=False), rtol=1e-5)


def test_scipy_lu_permutation_is_real_and_2d():
    p, lo, up = LITE.jx.scipy.linalg.lu(_C)
    assert str(p.dtype) == "float32" and str(lo.dtype) == "complex64"
    np.testing.assert_allclose(np.asarray(p) @ np.asarray(lo) @ np.asarray(up), _C, atol=1e-5)
    same(lambda m: m.jx.jit(m.jx.scipy.linalg.lu)(_C), rtol=1e-5)
    same(lambda m: m.jx.scipy.linalg.lu(_C, permute_l=True), rtol=1e-5)
    with pytest.raises(ValueError):  # JAX refuses a stack (vmap it)
        LITE.jx.scipy.linalg.lu(np.stack([_C, _C]))
    same(lambda m: m.jx.scipy.linalg.lu(np.stack([_C, _C])))
    same(lambda m: m.jx.vmap(m.jx.scipy.linalg.lu)(np.stack([_C, 2 * _C])), rtol=1e-5)


# --------------------------------------------------------------- multi_dot ranks (24, 29)
@pytest.mark.parametrize(
    "shapes",
    [[(2, 3), (2, 3, 4), (2, 4, 3)], [(3,), (3, 4, 2)], [(3, 4)], [(3, 4), (5, 2)]],
)
def test_multi_dot_refuses_what_jax_refuses(shapes):
    arrays = [np.ones(s, np.float32) for s in shapes]
    with pytest.raises(ValueError):
        LITE.jnp.linalg.multi_dot(arrays)
    same(lambda m: m.jnp.linalg.multi_dot(arrays))


def test_multi_dot_vectors_at_the_ends():
    arrays = [np.arange(3.0), np.ones((3, 4)), np.arange(4.0)]
    np.testing.assert_allclose(LITE.jnp.linalg.multi_dot(arrays), 18.0)
    same(lambda m: m.jnp.linalg.multi_dot(arrays))


# ----------------------------------------------------------- slogdet(method='qr') (103)
def test_slogdet_qr_differentiates():
    a = np.array([[3.0, 1.0, 0.5], [0.0, -2.0, 1.0], [1.0, 0.5, 4.0]], np.float32)
    t = np.cos(np.arange(9.0)).reshape(3, 3).astype(np.float32)
    f = lambda m: m.jx.jvp(lambda x: tuple(m.jnp.linalg.slogdet(x, method="qr")), (a,), (t,))  # noqa: E731
    (_, _), (dsign, dlog) = f(LITE)
    np.testing.assert_allclose(dlog, np.trace(np.linalg.solve(a, t)), rtol=1e-5)
    assert float(dsign) == 0.0
    same(f, rtol=1e-5)


# --------------------------------------------- expm_frechet of a stack (seeds 266, 282)
def test_expm_frechet_of_a_stack():
    a = np.array([[[1.75, 0.25], [-0.25, 1.25]], [[2.0, 0.0], [0.5, 1.0]]], np.float32)
    e = np.ones_like(a)
    expm_a, frechet = LITE.jx.scipy.linalg.expm_frechet(a, e)
    for i in range(2):
        one = LITE.jx.scipy.linalg.expm_frechet(a[i], e[i])
        np.testing.assert_allclose(expm_a[i], one[0], rtol=1e-6)
        np.testing.assert_allclose(frechet[i], one[1], rtol=1e-6)
    same(lambda m: m.jx.scipy.linalg.expm_frechet(a, e), rtol=1e-5)
    same(lambda m: m.jx.scipy.linalg.expm_frechet(a, e[0]))  # shapes differ: ValueError


# ------------------------------------------------------------- empty FFTs (seed fft 28)
@pytest.mark.parametrize(
    "call",
    ["irfft(x)", "hfft(x)", "irfft2(x)", "irfftn(x, norm='ortho')", "irfft(x[:, :0])",
     "fftn(x[:, :0], norm='forward')", "fft(x[:, :0], norm='ortho')"],
)  # fmt: skip
def test_transforms_of_no_points_are_empty(call):
    def g(m, x):
        return eval("m.jnp.fft." + call, {"m": m, "x": x})  # noqa: S307 - the test's own table

    x = np.ones((5, 1), np.float32)
    assert g(LITE, x).shape == (5, 0)
    same(lambda m: g(m, x))
    same(lambda m: m.jx.jit(lambda v: g(m, v))(x))


def test_transpose_of_an_empty_irfft_fails_as_jax():
    # JAX's transpose divides by the number of points (seeds fft 101, 279, 280)
    x = np.ones((5, 1), np.float32)

    def f(m):
        return m.jx.grad(lambda v: m.jnp.sum(m.jnp.fft.irfft2(v)))(x)

    with pytest.raises(ZeroDivisionError):
        f(LITE)
    same(f)


# ------------------------------------------------------------------ a spread of seeds
_SPREAD = {"linalg": (5, 103, 180), "nn": (130, 141), "fft": (28, 101, 197),
           "order": (1, 60)}  # fmt: skip


@pytest.mark.parametrize("name, seed", [(n, s) for n, seeds in _SPREAD.items() for s in seeds])
def test_hunt_seed_agrees_with_jax(name, seed):
    pytest.importorskip("jax")
    d, src = fuzz_s22.check(name, seed)
    assert d is None, f"{d}\n{src}"


# ------------------------------------------- arguments JAX refuses (signature scan, fft)
def test_softmax_takes_no_initial():
    # JAX 0.10 has no ``initial`` (jaxlite accepted and ignored it)
    for fn in ("softmax", "log_softmax"):
        with pytest.raises(TypeError):
            getattr(LITE.jx.nn, fn)(np.ones(3, np.float32), initial=0.0)
        same(lambda m, fn=fn: getattr(m.jx.nn, fn)(np.ones(3, np.float32), initial=0.0))


def test_jit_refuses_unknown_keywords():
    # a misspelled static_argnum was silently ignored (the argument then traced)
    with pytest.raises(TypeError, match="static_argnum"):
        LITE.jx.jit(lambda x, n: x * n, static_argnum=1)
    same(lambda m: m.jx.jit(lambda x, n: x * n, static_argnum=1))
    f = lambda m: m.jx.jit(lambda x: x + 1, backend="cpu", device=None)(np.float32(1))  # noqa: E731
    assert float(f(LITE)) == 2.0
    same(f)


@pytest.mark.parametrize("fn, axes", [("fftn", (1, -1)), ("ifft2", (-2, 0)), ("rfftn", (0, 0))])
def test_fft_repeated_axes_error_classes(fn, axes):
    # as given: ValueError; repeated only once normalized: JAX's TypeError (seed fft 197)
    exc = ValueError if len(set(axes)) < len(axes) else TypeError
    with pytest.raises(exc):  # (JAX's TypeError names its transpose, jaxlite's the axes)
        getattr(LITE.jnp.fft, fn)(np.ones((2, 2), np.float32), axes=axes)
    same(lambda m: getattr(m.jnp.fft, fn)(np.ones((2, 2), np.float32), axes=axes))


# ------------------------------------------------ sort_complex's weak type (seed order 60)
def test_sort_complex_result_is_strongly_typed():
    def f(m):
        x = m.jnp.asarray(np.array([3, 0, 1], np.uint8))
        return m.jnp.sort_complex(x + 0.5j * m.jnp.round(x)), m.jx.jit(m.jnp.sort_complex)(x * 1j)

    for r in f(LITE):
        assert str(r.dtype) == "complex64" and not r.weak_type
    same(f)


# --------------------------------- vector_norm of integers and booleans (seed linalg 517)
@pytest.mark.parametrize("ord_", [np.inf, -np.inf, 1, 0, 2, None])
@pytest.mark.parametrize("dt", ["int32", "uint8", "int16", "bool"])
def test_vector_norm_of_integers(ord_, dt):
    # JAX does not promote for ord=+-inf and 1 (the integer dtype, or the sum's), refuses
    # ord=0, and takes the square root of the integer sum of squares for ord=2
    x = np.array([[1, 0], [3, 1]]).astype(dt)

    def f(m):
        return m.jnp.linalg.vector_norm(x, ord=ord_, axis=0, keepdims=True)

    if ord_ == 0:
        with pytest.raises(ValueError):
            f(LITE)
    elif ord_ in (np.inf, -np.inf):
        assert str(f(LITE).dtype) == dt
    same(f)
