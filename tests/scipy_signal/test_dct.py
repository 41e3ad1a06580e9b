"""``jax.scipy.fft``'s DCT-II family: values against ``scipy.fft`` (float64), dtypes, weak
types and shapes against JAX's ``eval_shape``, errors (types and texts) against JAX, round
trips, and ``jit``/``vmap``/``grad`` (the orthonormal DCT's transpose is its inverse)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.fft  # noqa: E402,F401
import ml_dtypes  # noqa: E402
import scipy.fft  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as jnp  # noqa: E402
import jaxlite.scipy.fft as lfft  # noqa: E402

jax.config.update("jax_platforms", "cpu")
jfft = jax.scipy.fft
RNG = np.random.default_rng(0)


def _arr(shape, dtype=np.float32):
    x = RNG.standard_normal(shape) * 2
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * RNG.standard_normal(shape)
    if np.issubdtype(dtype, np.integer):
        x = np.abs(np.round(x * 3))
    if dtype == np.bool_:
        return x > 0
    return x.astype(dtype)


def _close(got, want, tol=1e-4, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


def _aval_like_jax(got, jax_fn, *args):
    ref = jax.eval_shape(jax_fn, *args)
    assert got.dtype == ref.dtype, f"dtype {got.dtype} != JAX {ref.dtype}"
    assert tuple(got.shape) == tuple(ref.shape), f"shape {got.shape} != JAX {ref.shape}"
    assert bool(getattr(got, "weak_type", False)) == bool(ref.weak_type), "weak type"


def _raises_like(lite_fn, jax_fn):
    # JAX's answer to a bad static argument depends on its cache: after idct(x, n=5) has
    # run in this process, idct(x, n=5.0) hits that entry (5.0 == 5) and answers instead of
    # raising. Its caches are cleared so that the reference is the error a fresh call gives.
    jax.clear_caches()
    with pytest.raises(Exception) as ref:
        jax_fn()
    with pytest.raises(type(ref.value)) as got:
        lite_fn()
    assert str(got.value) == str(ref.value)


@pytest.mark.parametrize("name", ["dct", "idct"])
@pytest.mark.parametrize(
    "shape,axis", [((1,), -1), ((7,), 0), ((8,), -1), ((3, 5), 0), ((2, 3, 6), 1)]
)
def test_1d_matches_scipy(name, shape, axis):
    x = _arr(shape, np.complex64)
    lf, sf = getattr(lfft, name), getattr(scipy.fft, name)
    for norm, n in itertools.product([None, "backward", "ortho"], [None, 1, 3, 10]):
        want = sf(x.astype(complex), n=n, axis=axis, norm=norm)
        got = lf(x, n=n, axis=axis, norm=norm)
        assert got.dtype == np.complex64
        _close(got, want, what=f"{name} norm={norm} n={n}")
        got = lf(x.real, n=n, axis=axis, norm=norm)
        assert got.dtype == np.float32
        _close(got, want.real, what=f"{name} real norm={norm} n={n}")


@pytest.mark.parametrize("name", ["dctn", "idctn"])
@pytest.mark.parametrize(
    "shape,s,axes",
    [
        ((4, 6), None, None),
        ((3, 4, 5), None, None),
        ((3, 4, 5), (6, 2), None),
        ((3, 4, 5), 7, None),
        ((3, 4, 5), None, (0, 2)),
        ((3, 4, 5), (2, 6), (-1, 0)),
        ((3, 4, 5), None, 1),
        ((2, 3, 4, 5), None, (0, 1, 3)),
    ],
)
def test_nd_matches_scipy(name, shape, s, axes):
    x = _arr(shape, np.complex64)
    lf, sf = getattr(lfft, name), getattr(scipy.fft, name)
    for norm in (None, "ortho"):
        want = sf(x.astype(complex), s=s, axes=axes, norm=norm)
        _close(lf(x, s=s, axes=axes, norm=norm), want, what=f"{name} {s} {axes} {norm}")
        _close(lf(x.real, s=s, axes=axes, norm=norm), want.real)


def test_s_shorter_than_axes_like_jax():
    # JAX pairs s with the first axes and leaves the rest their length (SciPy refuses).
    x = _arr((3, 4, 5))
    for name in ("dctn", "idctn"):
        got = getattr(lfft, name)(x, s=(2,), axes=(0, 2))
        jf = getattr(jfft, name)
        want = jax.jit(lambda v, f=jf: f(v, s=(2,), axes=(0, 2)))(x)
        _close(got, want)


DTYPES = [np.float32, np.float64, np.int32, np.uint8, np.bool_, np.float16, ml_dtypes.bfloat16]


@pytest.mark.parametrize("name", ["dct", "idct", "dctn", "idctn"])
def test_dtypes_like_jax(name):
    lf, jf, sf = getattr(lfft, name), getattr(jfft, name), getattr(scipy.fft, name)
    for d in DTYPES + [np.complex64]:
        x = _arr((6,), d)
        got = lf(x)
        _aval_like_jax(got, jf, x)
        half = d in (np.float16, ml_dtypes.bfloat16)
        # idct of half precision: JAX scales in half precision first (docs/compat.md).
        _close(
            got,
            sf(x.astype(complex)).real if d != np.complex64 else sf(x),
            tol=3e-3 if half else 1e-4,
        )
    _aval_like_jax(lf(jnp.ones(3) * 2.0), jf, jax.numpy.ones(3) * 2.0)
    if name.endswith("n"):  # no axes: the input back, as JAX (weak and integer included)
        for v in (3.0, np.array(3), np.array(2.5, np.float32)):
            _aval_like_jax(lf(v), jf, v)
            _close(lf(v), np.asarray(v))


ERRORS = [
    ("dct", ([1.0, 2.0],), {}),
    ("dct", (3.0,), {}),
    ("dct", (np.ones(3),), {"type": 3}),
    ("dct", (np.ones(3),), {"type": 1, "norm": "bad"}),
    ("dct", (np.ones(3),), {"norm": "forward"}),
    ("dct", (np.ones(0),), {}),
    ("dct", (np.ones(3),), {"n": 0}),
    ("dct", (np.ones((2, 3)),), {"axis": 2}),
    ("dct", (np.ones(4),), {"axis": 0.0}),
    ("dct", (np.ones((2, 4)),), {"n": 2.0}),
    ("idct", (np.ones(4),), {"n": 5.0, "axis": 0}),
    ("idct", (np.ones(3),), {"norm": "bad"}),
    ("idct", (np.ones(0),), {}),
    ("idct", (np.ones((2, 3)),), {"axis": -3}),
    ("idct", (np.ones(3),), {"type": 4}),
    ("dctn", ([1.0],), {}),
    ("dctn", (np.ones((2, 3)),), {"s": (1, 2, 3)}),
    ("dctn", (np.ones((2, 3)),), {"axes": (0, 0)}),
    ("dctn", (np.ones((2, 3)),), {"axes": (0, -2)}),
    ("dctn", (np.ones((2, 3)),), {"axes": (2,)}),
    ("dctn", (np.ones((2, 3)),), {"norm": "forward"}),
    ("idctn", (np.ones((2, 3)),), {"s": (1, 2, 3)}),
    ("idctn", (np.ones((2, 3)),), {"axes": (1, 1)}),
    ("idctn", (np.ones((2, 3)),), {"type": 1}),
]


@pytest.mark.parametrize("name,args,kw", ERRORS)
def test_errors_match_jax(name, args, kw):
    _raises_like(lambda: getattr(lfft, name)(*args, **kw), lambda: getattr(jfft, name)(*args, **kw))


def test_round_trip_jit_vmap_grad():
    x = _arr((4, 6))
    for norm in (None, "ortho"):
        _close(lfft.idct(lfft.dct(x, norm=norm), norm=norm), x, tol=1e-5)
        _close(lfft.idctn(lfft.dctn(x, norm=norm), norm=norm), x, tol=1e-5)
        for f in (lfft.dct, lfft.idct):
            _close(jaxlite.jit(lambda v, f=f, m=norm: f(v, norm=m))(x), f(x, norm=norm), tol=1e-6)
            batched = jaxlite.vmap(lambda v, f=f, m=norm: f(v, norm=m))(x)
            _close(batched, np.stack([np.asarray(f(r, norm=norm)) for r in x]), tol=1e-6)
        _close(jaxlite.jit(lambda v, m=norm: lfft.dctn(v, norm=m))(x), lfft.dctn(x, norm=norm))
    w = _arr((4, 6))
    # The orthonormal DCT-II is orthogonal: the gradient of <dct(x), w> is idct(w).
    g = jaxlite.grad(lambda v: jnp.sum(lfft.dct(v, norm="ortho") * w))(x)
    _close(g, scipy.fft.idct(w * 1.0, norm="ortho"), tol=1e-5)
    g = jaxlite.grad(lambda v: jnp.sum(lfft.idctn(v, norm="ortho") * w))(x)
    _close(g, scipy.fft.dctn(w * 1.0, norm="ortho"), tol=1e-5)
    # Backward norm: the transpose of the unnormalised DCT-II is 2N x DCT-III / 2 = its
    # own matrix transposed; compare with the dense matrix.
    n = 6
    mat = scipy.fft.dct(np.eye(n), axis=0)
    g = jaxlite.grad(lambda v: jnp.sum(lfft.dct(v) * w[0]))(x[0])
    _close(g, mat.T @ w[0], tol=1e-5)
    g = jaxlite.grad(lambda v: jnp.sum(lfft.idct(v, n=8) * _arr((8,))))(x[0])
    assert g.shape == (6,)


def test_attribute_access_like_jax():
    assert jaxlite.scipy.fft.dct is lfft.dct
    assert "fft" in dir(jaxlite.scipy)


def test_forward_mode_and_hessian():
    x = _arr((5,))
    t = _arr((5,))
    _, tangent = jaxlite.jvp(lambda v: lfft.dctn(v[:, None] * v[None, :]), (x,), (t,))
    outer = np.outer(t, x) + np.outer(x, t)
    _close(tangent, scipy.fft.dctn(outer), tol=1e-4)
    mat = scipy.fft.dct(np.eye(5), axis=0)
    hess = jaxlite.hessian(lambda v: jnp.sum(lfft.dct(v) ** 2))(x)
    _close(hess, 2 * mat.T @ mat, tol=1e-4)


# Measured with JAX 0.10.2 under jax_enable_x64: integer and boolean inputs of jnp.fft (and
# so of the DCTs) promote by width, not to the default float64.
X64_FFT = {
    np.int8: np.complex64,
    np.int16: np.complex64,
    np.int32: np.complex64,
    np.int64: np.complex128,
    np.uint8: np.complex64,
    np.uint32: np.complex64,
    np.uint64: np.complex128,
    np.bool_: np.complex64,
}


def test_x64_integer_promotion_like_jax():
    jaxlite.config.update("jax_enable_x64", True)  # conftest resets it after the test
    for d, want in X64_FFT.items():
        x = np.ones(4, d)
        assert jnp.fft.fft(x).dtype == want, d
        assert jnp.fft.rfft(x).dtype == want, d
        assert jnp.fft.ifft(x).dtype == want, d
        real = np.float64 if want == np.complex128 else np.float32
        assert lfft.dct(x).dtype == real, d
        assert lfft.idct(x).dtype == real, d
    assert lfft.dct(np.ones(4)).dtype == np.float64
