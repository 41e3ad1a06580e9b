"""``jax.scipy.signal``'s ``stft``, ``istft``, ``csd`` and ``welch``: values against SciPy
(float64) with explicit frame lengths, dtypes/weak types/shapes against JAX's
``eval_shape``, JAX's values where JAX departs from SciPy (``nperseg=None`` is the whole
signal, a callable ``detrend`` sees the signal axis last), errors against JAX, and
``jit``/``vmap``/``grad``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.signal  # noqa: E402,F401
import scipy.signal  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as jnp  # noqa: E402
import jaxlite.scipy.signal as lsig  # noqa: E402

jax.config.update("jax_platforms", "cpu")
jsig = jax.scipy.signal
RNG = np.random.default_rng(0)
X1 = RNG.standard_normal(50).astype(np.float32)
Y1 = RNG.standard_normal(40).astype(np.float32)
X2 = RNG.standard_normal((3, 50)).astype(np.float32)


def _close(got, want, tol=2e-4, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, f"{what}: {got.shape} != {want.shape}"
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


def _avals_like_jax(got, jax_fn, *args):
    refs = jax.eval_shape(jax_fn, *args)
    for g, r in zip(got, refs, strict=True):
        assert g.dtype == r.dtype, f"dtype {g.dtype} != JAX {r.dtype}"
        assert tuple(g.shape) == tuple(r.shape), f"shape {g.shape} != JAX {r.shape}"
        assert bool(getattr(g, "weak_type", False)) == bool(r.weak_type), "weak type"


def _raises_like(lite_fn, jax_fn):
    with pytest.raises(Exception) as ref:
        jax_fn()
    with pytest.raises(type(ref.value)) as got:
        lite_fn()
    assert str(got.value) == str(ref.value)


STFT_CASES = [
    (X1, {"nperseg": 16}),
    (X1, {"nperseg": 16, "noverlap": 4, "nfft": 20, "boundary": "even", "padded": False}),
    (X1, {"nperseg": 15, "boundary": "odd"}),
    (X1, {"nperseg": 16, "boundary": "constant", "detrend": "linear"}),
    (X1, {"nperseg": 16, "boundary": None, "return_onesided": False}),
    (X1, {"nperseg": 16, "window": "hamming", "fs": 100.0}),
    (X1, {"nperseg": 16, "window": np.bartlett(16)}),
    (X1 + 0.5j * X1[::-1], {"nperseg": 16}),
    (X2, {"nperseg": 8, "axis": -1, "detrend": "constant"}),
    (X2.T.copy(), {"nperseg": 8, "axis": 0}),
    (np.arange(50), {"nperseg": 16}),
    (X1, {"nperseg": 1, "noverlap": 0}),
]


@pytest.mark.parametrize("x,kw", STFT_CASES)
def test_stft(x, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex input: one-sided switched off
        got = lsig.stft(x, **kw)
        want = scipy.signal.stft(x.astype(np.result_type(x, np.float64)), **kw)
        _avals_like_jax(got, lambda v: jsig.stft(v, **kw), x)
    for g, w, what in zip(got, want, "ftZ"):
        _close(g, w, what=f"{what} {kw}")


WELCH_CASES = [
    (X1, {"nperseg": 16}),
    (X1, {"nperseg": 16, "average": "median"}),
    (X1, {"nperseg": 15, "scaling": "spectrum", "noverlap": 3}),
    (X1, {"nperseg": 16, "nfft": 21, "window": "blackman"}),
    (X2, {"nperseg": 16, "detrend": "linear"}),
    (X2.T.copy(), {"nperseg": 16, "axis": 0, "detrend": False}),
    (X1 + 1j * X1[::-1], {"nperseg": 16}),
    (np.arange(30) % 7, {"nperseg": 8, "fs": 4.0}),
]


@pytest.mark.parametrize("x,kw", WELCH_CASES)
def test_welch(x, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = lsig.welch(x, **kw)
        want = scipy.signal.welch(x.astype(np.result_type(x, np.float64)), **kw)
        _avals_like_jax(got, lambda v: jsig.welch(v, **kw), x)
    for g, w in zip(got, want):
        _close(g, w, what=f"{kw}")


CSD_CASES = [
    (X1, Y1, {"nperseg": 16}),
    (X1, Y1, {"nperseg": 16, "average": "median"}),
    (X2, X1[None], {"nperseg": 16, "scaling": "spectrum"}),
    (X2[:1], X2, {"nperseg": 16}),
    (X1, Y1 + 1j * Y1[::-1], {"nperseg": 16, "return_onesided": False}),
    (X2.T.copy(), X2.T[:, :1].copy(), {"nperseg": 10, "axis": 0, "detrend": "linear"}),
]


@pytest.mark.parametrize("x,y,kw", CSD_CASES)
def test_csd(x, y, kw):
    got = lsig.csd(x, y, **kw)
    want = scipy.signal.csd(x.astype(np.float64), y.astype(np.result_type(y, np.float64)), **kw)
    _avals_like_jax(got, lambda a, b: jsig.csd(a, b, **kw), x, y)
    for g, w in zip(got, want):
        _close(g, w, what=f"{kw}")


def _scipy_z(x, nperseg):
    return scipy.signal.stft(x.astype(np.float64), nperseg=nperseg)[2].astype(np.complex64)


ISTFT_CASES = [
    (_scipy_z(X1, 16), {}),
    (_scipy_z(X1, 16), {"nperseg": 16, "noverlap": 4}),
    (_scipy_z(X1, 16), {"boundary": False}),
    (_scipy_z(X1, 16), {"nfft": 30}),
    (_scipy_z(X1, 16), {"window": "hamming"}),
    (_scipy_z(X1, 16), {"window": np.hanning(16)}),
    (_scipy_z(X1, 16), {"input_onesided": False}),
    (_scipy_z(X2, 8), {}),
    (np.swapaxes(_scipy_z(X2, 8), -1, -2), {"time_axis": -2, "freq_axis": -1}),
    (np.moveaxis(_scipy_z(X2, 8), 0, -1), {"time_axis": 1, "freq_axis": 0}),
]


@pytest.mark.parametrize("z,kw", ISTFT_CASES)
def test_istft(z, kw):
    got = lsig.istft(z, **kw)
    _avals_like_jax(got, lambda v: jsig.istft(v, **kw), z)
    want = scipy.signal.istft(z.astype(np.complex128), **kw)
    if kw.get("time_axis") == 1:  # JAX's time vector counts the first axis of the result
        want = (np.arange(got[1].shape[0]), want[1])
    for g, w in zip(got, want):
        _close(g, w, tol=1e-4, what=f"{kw}")


def test_jax_departures_from_scipy():
    # nperseg=None: the whole signal; a callable detrend on 2-D input sees the frames with
    # the (canonical) signal axis moved last; istft's nfft=None inverse FFT quirk raises.
    for fn in ("welch", "stft"):
        got = getattr(lsig, fn)(X1)
        want = jax.jit(getattr(jsig, fn))(X1)
        for g, w in zip(got, want):
            _close(g, w)

    def mean_removed(d):
        return d - d.mean(-1, keepdims=True)

    for x in (X1, X2):
        got = lsig.stft(x, nperseg=16, detrend=mean_removed)
        want = jax.jit(lambda v: jsig.stft(v, nperseg=16, detrend=mean_removed))(x)
        for g, w in zip(got, want):
            _close(g, w)
    odd = scipy.signal.stft(X1 * 1.0, nperseg=15)[2].astype(np.complex64)
    with pytest.raises(TypeError, match="incompatible shapes"):
        lsig.istft(odd, nperseg=15)


ERRORS = [
    ("stft", (X1,), {"nperseg": 16, "boundary": "bad"}),
    ("stft", (X1,), {"nperseg": 0}),
    ("stft", (X1,), {"nperseg": 16, "noverlap": 16}),
    ("stft", (X1,), {"nperseg": 16, "nfft": 8}),
    ("stft", (X1,), {"nperseg": 16, "detrend": True}),
    ("stft", (X1,), {"window": np.ones((2, 8))}),
    ("stft", (X1,), {"window": np.ones(8), "nperseg": 9}),
    ("stft", (X1[:5],), {"window": np.ones(8)}),
    ("stft", (X1,), {"nperseg": 16, "boundary": "odd", "axis": 1}),
    ("welch", (X1,), {"nperseg": 16, "scaling": "x"}),
    ("welch", (X1,), {"nperseg": 16, "average": "x"}),
    ("welch", ([1.0, 2.0],), {}),
    ("csd", (X2, np.ones((2, 50))), {"nperseg": 16}),
    ("csd", (X2, np.ones((2, 2, 50))), {"nperseg": 16}),
    ("csd", ([1.0, 2.0], X1), {}),
    ("istft", (np.ones(4, np.complex64),), {}),
    ("istft", (np.ones((3, 4), np.complex64),), {"time_axis": 0, "freq_axis": 0}),
    ("istft", (np.ones((9, 4), np.complex64),), {"nperseg": -1}),
    ("istft", (np.ones((9, 4), np.complex64),), {"nfft": 8}),
    ("istft", (np.ones((9, 4), np.complex64),), {"noverlap": 20}),
    ("istft", (np.ones((9, 4), np.complex64),), {"window": np.ones((2, 2))}),
    ("istft", (np.ones((9, 4), np.complex64),), {"window": np.ones(5)}),
    ("istft", ([[1.0]],), {}),
]


@pytest.mark.parametrize("name,args,kw", ERRORS)
def test_errors_match_jax(name, args, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _raises_like(
            lambda: getattr(lsig, name)(*args, **kw), lambda: getattr(jsig, name)(*args, **kw)
        )


def test_warnings_and_empty():
    with pytest.warns(UserWarning, match="switching to return_onesided=False"):
        lsig.welch(X1 + 1j, nperseg=16)
    with pytest.warns(UserWarning, match="nperseg=100 is greater than input_length=50"):
        lsig.stft(X1, nperseg=100)
    e = np.zeros(0, np.float32)
    _avals_like_jax(lsig.stft(e), jsig.stft, e)
    _avals_like_jax(lsig.csd(X1, e, nperseg=16), lambda a, b: jsig.csd(a, b, nperseg=16), X1, e)


def test_jit_vmap_grad_round_trip():
    f, t, z = lsig.stft(X1, nperseg=16)
    _close(lsig.istft(z, nperseg=16)[1][:50], X1, tol=1e-5)  # perfect reconstruction
    jitted = jaxlite.jit(lambda v: lsig.welch(v, nperseg=16, average="median"))(X1)
    for g, w in zip(jitted, lsig.welch(X1, nperseg=16, average="median")):
        _close(g, w, tol=1e-6)
    batched = jaxlite.vmap(lambda v: lsig.welch(v, nperseg=16)[1])(X2)
    _close(batched, lsig.welch(X2, nperseg=16)[1], tol=1e-6)
    zb = jaxlite.vmap(lambda v: lsig.istft(lsig.stft(v, nperseg=8)[2], nperseg=8)[1])(X2)
    _close(zb[:, :50], X2, tol=1e-5)

    def lite_loss(v, w):
        return jnp.sum(jnp.abs(lsig.csd(v, w, nperseg=16)[1]) ** 2) + jnp.sum(
            lsig.istft(lsig.stft(v, nperseg=16)[2] ** 2)[1]
        )

    def ref_loss(v, w):
        jn = jax.numpy
        return jn.sum(jn.abs(jsig.csd(v, w, nperseg=16)[1]) ** 2) + jn.sum(
            jsig.istft(jsig.stft(v, nperseg=16)[2] ** 2)[1]
        )

    got = jaxlite.grad(lite_loss, argnums=(0, 1))(X1, Y1)
    want = jax.jit(jax.grad(ref_loss, argnums=(0, 1)))(X1, Y1)
    for g, w in zip(got, want):
        _close(g, w, tol=1e-4)


def test_traced_sampling_frequency():
    # fs may be a traced value under jit (it only scales), as in JAX.
    f, p = jaxlite.jit(lambda v, fs: lsig.welch(v, fs=fs, nperseg=16))(X1, 2.0)
    want = scipy.signal.welch(X1 * 1.0, fs=2.0, nperseg=16)
    _close(f, want[0])
    _close(p, want[1])
    t, x = jaxlite.jit(lambda z, fs: lsig.istft(z, fs=fs, nperseg=16))(_scipy_z(X1, 16), 4.0)
    _close(t, np.arange(t.shape[0]) / 4.0)
    _close(x[:50], X1, tol=1e-5)
