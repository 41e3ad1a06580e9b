"""``jax.scipy.signal``'s convolutions and ``detrend``: values against SciPy (float64),
dtypes, weak types and shapes against JAX's ``eval_shape``, JAX's values for
``correlate2d``'s windows, error types and texts against JAX, and ``jit``,
``vmap`` and ``grad`` against loops and JAX's gradients.

Values come from SciPy and the avals from ``jax.eval_shape`` because compiling JAX per case
would make this file take minutes."""

from __future__ import annotations

import itertools

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


def _arr(shape, dtype):
    x = RNG.standard_normal(shape) * 3
    if np.issubdtype(dtype, np.complexfloating):
        x = x + 1j * RNG.standard_normal(shape)
    if np.issubdtype(dtype, np.integer):
        x = np.round(x)
    if dtype == np.bool_:
        return x > 0
    return x.astype(dtype)


def _aval_like_jax(got, jax_fn, *args):
    ref = jax.eval_shape(jax_fn, *args)
    assert got.dtype == ref.dtype, f"dtype {got.dtype} != JAX {ref.dtype}"
    assert tuple(got.shape) == tuple(ref.shape), f"shape {got.shape} != JAX {ref.shape}"
    assert bool(getattr(got, "weak_type", False)) == bool(ref.weak_type), "weak type"


def _close(got, want, tol=1e-4, what=""):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, what
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale, err_msg=what)


def _raises_like(lite_fn, jax_fn):
    with pytest.raises(Exception) as ref:
        jax_fn()
    with pytest.raises(type(ref.value)) as got:
        lite_fn()
    assert str(got.value) == str(ref.value)


SHAPE_PAIRS = [
    ((7,), (3,)),
    ((3,), (7,)),
    ((6,), (4,)),
    ((4,), (4,)),
    ((1,), (5,)),
    ((5, 6), (2, 3)),
    ((2, 3), (5, 6)),
    ((4, 5), (4, 2)),
    ((3, 4, 5), (2, 2, 3)),
]


@pytest.mark.parametrize("s1,s2", SHAPE_PAIRS)
def test_nd_matches_scipy(s1, s2):
    x, y = _arr(s1, np.complex64), _arr(s2, np.complex64)
    xr, yr = x.real.copy(), y.real.copy()
    for name, mode, method in itertools.product(
        ["convolve", "correlate"], ["full", "same", "valid"], ["direct", "fft"]
    ):
        want = getattr(scipy.signal, name)(x.astype(complex), y, mode=mode, method=method)
        got = getattr(lsig, name)(x, y, mode=mode, method=method)
        assert got.dtype == np.complex64
        _close(got, want, what=f"{name} {mode} {method} {s1} {s2}")
        got = getattr(lsig, name)(xr, yr, mode=mode, method=method)
        assert got.dtype == np.float32
        _close(got, getattr(scipy.signal, name)(xr * 1.0, yr, mode=mode))
        _close(lsig.fftconvolve(x, y, mode=mode), scipy.signal.fftconvolve(x * 1.0, y, mode=mode))


def test_jit_matches_eager():
    x, y = _arr((3, 8), np.float32), _arr((2, 3), np.float32)
    for name, mode in itertools.product(["convolve", "correlate"], ["full", "same", "valid"]):
        for method in ("direct", "fft"):
            f = getattr(lsig, name)
            eager = f(x, y, mode=mode, method=method)
            jitted = jaxlite.jit(lambda a, b, f=f, m=mode, k=method: f(a, b, mode=m, method=k))
            _close(jitted(x, y), eager, tol=1e-6)
    for name in ("convolve2d", "correlate2d"):
        f = getattr(lsig, name)
        _close(jaxlite.jit(f, static_argnums=2)(x, y, "same"), f(x, y, "same"), tol=1e-6)


DTYPES = [np.float32, np.int32, np.int8, np.complex64, np.float16, np.bool_]


@pytest.mark.parametrize("name", ["convolve", "correlate", "fftconvolve"])
def test_dtypes_like_jax(name):
    for d1, d2 in itertools.product(DTYPES, DTYPES):
        x, y = _arr((6,), d1), _arr((3,), d2)
        try:
            jax.eval_shape(getattr(jsig, name), x, y)
        except ValueError:  # JAX's real FFT refuses half precision
            _raises_like(lambda: getattr(lsig, name)(x, y), lambda: getattr(jsig, name)(x, y))
            continue
        got = getattr(lsig, name)(x, y)
        _aval_like_jax(got, getattr(jsig, name), x, y)
        sp = scipy.signal.correlate if name == "correlate" else scipy.signal.convolve
        want = sp(x.astype(complex), y.astype(complex))
        tol = 3e-3 if np.float16 in (d1, d2) else 1e-4
        _close(got, want if np.iscomplexobj(got) else want.real, tol=tol, what=f"{d1} {d2}")
    _aval_like_jax(lsig.fftconvolve(1.0, 2), jsig.fftconvolve, 1.0, 2)
    a, b = np.array(1.5, np.float32), np.array(2.0, np.float32)
    _aval_like_jax(getattr(lsig, name)(a, b), getattr(jsig, name), a, b)
    _close(getattr(lsig, name)(a, b), 3.0)


@pytest.mark.parametrize(
    "s1,s2,axes",
    [
        ((3, 7), (3, 4), 1),
        ((3, 7), (3, 4), (-1,)),
        ((5, 2, 3), (2, 2, 4), [0, 2]),
        ((4, 5), (4, 5), ()),
        ((3, 1, 5), (3, 4, 1), (1, 2)),
    ],
)
def test_fftconvolve_axes(s1, s2, axes):
    x, y = _arr(s1, np.float32), _arr(s2, np.float32)
    for mode in ("full", "same", "valid"):
        s1a, s2a = [s1[a] for a in np.atleast_1d(axes)], [s2[a] for a in np.atleast_1d(axes)]
        if mode == "valid" and not (
            all(a >= b for a, b in zip(s1a, s2a)) or all(a <= b for a, b in zip(s1a, s2a))
        ):
            continue
        got = lsig.fftconvolve(x, y, mode=mode, axes=axes)
        _aval_like_jax(got, lambda a, b, m=mode: jsig.fftconvolve(a, b, mode=m, axes=axes), x, y)
        if axes == ():  # SciPy refuses no axes; JAX multiplies elementwise
            want = x * y
        else:
            want = scipy.signal.fftconvolve(x * 1.0, y, mode=mode, axes=axes)
        _close(got, want, what=f"{mode} axes={axes}")


def test_fftconvolve_size_one_and_empty():
    x, y = _arr((3, 1), np.float32), _arr((1, 4), np.float32)
    _close(lsig.fftconvolve(x, y), x * y, tol=0)  # exact: a plain product, as JAX
    e, k = np.ones(0, np.float32), np.ones(3, np.float32)
    got = lsig.fftconvolve(e, k)
    _aval_like_jax(got, jsig.fftconvolve, e, k)
    _close(got, np.zeros(2))


# (in1 shape, in2 shape, mode) where correlate2d's window is not correlate's (even kernels
# under 'same', in1 smaller under 'valid'), and JAX's branches for the swapped operands.
CORR2D_CASES = [
    ((5, 6), (2, 3), "same"),
    ((3, 5), (3, 2), "same"),
    ((2, 3), (5, 6), "same"),
    ((2, 3), (5, 6), "valid"),
    ((4, 4), (4, 4), "valid"),
    ((2, 3), (5, 6), "full"),
    ((3, 5), (3, 2), "full"),
]


def test_correlate2d_windows_like_jax():
    for s1, s2, mode in CORR2D_CASES:
        x, y = _arr(s1, np.complex64), _arr(s2, np.complex64)
        want = jax.jit(jsig.correlate2d, static_argnums=2)(x, y, mode)
        got = lsig.correlate2d(x, y, mode=mode)
        assert got.dtype == want.dtype
        _close(got, want, what=f"correlate2d {mode} {s1} {s2}")
        _close(lsig.convolve2d(x, y, mode=mode), scipy.signal.convolve2d(x * 1.0, y, mode=mode))
    xi, yi = _arr((4, 4), np.int32), _arr((2, 3), np.int32)
    _aval_like_jax(lsig.correlate2d(xi, yi), jsig.correlate2d, xi, yi)
    _aval_like_jax(lsig.convolve2d(xi, yi), jsig.convolve2d, xi, yi)


@pytest.mark.parametrize(
    "s1,s2", [((6, 7), (3, 3)), ((5, 6), (2, 3)), ((2, 2), (4, 6)), ((4, 4), (4, 4))]
)
def test_2d_matches_scipy(s1, s2):
    # correlate2d's 'same' and in1-smaller 'valid' windows are SciPy's correlate2d's, which
    # differ from scipy.signal.correlate's (checked against JAX above).
    x, y = _arr(s1, np.complex128), _arr(s2, np.complex128)
    for mode in ("full", "same", "valid"):
        _close(lsig.convolve2d(x, y, mode=mode), scipy.signal.convolve2d(x, y, mode=mode))
        _close(lsig.correlate2d(x, y, mode=mode), scipy.signal.correlate2d(x, y, mode=mode))


ERROR_CASES = [
    ("convolve", (np.ones(5), np.ones(3)), {"mode": "bad"}),
    ("convolve", (np.ones(5), np.ones(3)), {"method": "bad"}),
    ("convolve", (np.ones((2, 2)), np.ones(2)), {"method": "bad", "mode": "bad"}),
    ("convolve", (np.ones((2, 2)), np.ones(2)), {"mode": "bad"}),
    ("convolve", (np.ones((2, 2)), np.ones(2)), {}),
    ("convolve", (np.ones(0), np.ones(3)), {}),
    ("convolve", (np.ones((3, 2)), np.ones((2, 3))), {"mode": "valid"}),
    ("convolve", (np.ones((3, 2)), np.ones((2, 3))), {"mode": "full"}),
    ("convolve", ([1.0, 2.0], [1.0]), {}),
    ("correlate", (np.ones((2, 2)), np.ones(2)), {"method": "fft", "mode": "bad"}),
    ("correlate", (np.ones(3), np.ones(2)), {"mode": "x"}),
    ("fftconvolve", ([1.0, 2.0], [1.0]), {}),
    ("fftconvolve", (np.ones(3), np.ones((1, 2))), {}),
    ("fftconvolve", (np.ones(3), np.ones(2)), {"mode": "bad"}),
    ("fftconvolve", (np.ones((3, 2)), np.ones((2, 3))), {"mode": "valid"}),
    ("fftconvolve", (np.ones((3, 5)), np.ones((2, 2))), {"axes": [1]}),
    ("fftconvolve", (np.ones((3, 5)), np.ones((3, 2))), {"axes": (2,)}),
    ("fftconvolve", (np.ones(4, np.float16), np.ones(2, np.float16)), {}),
    ("convolve2d", (np.ones(3), np.ones(2)), {}),
    ("convolve2d", (np.ones((2, 2)), np.ones((2, 2))), {"boundary": "wrap"}),
    ("convolve2d", (np.ones((2, 2)), np.ones((2, 2))), {"fillvalue": 1}),
    ("convolve2d", (np.ones((2, 2)), np.ones((2, 2))), {"mode": "bad"}),
    ("correlate2d", (np.ones((2, 2)), np.ones((2, 2))), {"mode": "bad"}),
    ("correlate2d", (np.ones((2, 2)), np.ones((3, 3))), {"mode": "bad"}),
    ("correlate2d", (np.ones((2, 2)), np.ones((2,))), {}),
    ("correlate2d", (np.ones((2, 2)), np.ones((2, 2))), {"boundary": "symm"}),
]


@pytest.mark.parametrize("name,args,kw", ERROR_CASES)
def test_errors_match_jax(name, args, kw):
    _raises_like(lambda: getattr(lsig, name)(*args, **kw), lambda: getattr(jsig, name)(*args, **kw))


def test_vmap_and_grad():
    x, y = _arr((4, 9), np.float32), _arr((4, 3), np.float32)
    for name, mode in itertools.product(["convolve", "correlate"], ["full", "same", "valid"]):
        f = getattr(lsig, name)
        got = jaxlite.vmap(lambda a, b, f=f, m=mode: f(a, b, mode=m))(x, y)
        loop = np.stack([np.asarray(f(a, b, mode=mode)) for a, b in zip(x, y)])
        _close(got, loop, tol=1e-6)
    jf, lf = jsig.correlate, lsig.correlate
    g = jaxlite.grad(lambda a, b: jnp.sum(jnp.sin(lf(a, b, mode="same"))), (0, 1))(x[0], y[0])
    r = jax.jit(jax.grad(lambda a, b: jax.numpy.sum(jax.numpy.sin(jf(a, b, mode="same"))), (0, 1)))(
        x[0], y[0]
    )
    for a, b in zip(g, r):
        _close(a, b)
    g = jaxlite.grad(lambda a: jnp.sum(lsig.fftconvolve(a, y[0], mode="valid") ** 2))(x[0])
    r = jax.jit(jax.grad(lambda a: jax.numpy.sum(jsig.fftconvolve(a, y[0], mode="valid") ** 2)))(
        x[0]
    )
    _close(g, r, tol=1e-3)
    g2 = jaxlite.grad(lambda a: jnp.sum(lsig.convolve2d(a, y, mode="same") ** 2))(x)
    r2 = jax.jit(jax.grad(lambda a: jax.numpy.sum(jsig.convolve2d(a, y, mode="same") ** 2)))(x)
    _close(g2, r2)


DETREND_CASES = [
    (np.arange(6) ** 2, {}),
    (np.arange(6) ** 2, {"type": "constant"}),
    (np.arange(8.0) ** 2, {"bp": [3, 5]}),
    (np.arange(8.0) ** 2, {"bp": [3, 4]}),
    (np.arange(8.0) ** 2, {"bp": np.array([2, 2, 8])}),
    (np.arange(8.0) * (1 + 2j) + np.arange(8) ** 2, {}),
    (np.arange(12.0).reshape(4, 3) ** 2, {"axis": 0}),
    (np.arange(24.0).reshape(2, 3, 4) ** 1.5, {"axis": 1, "bp": 1}),
    (np.array([3.0]), {}),
    (_arr((5, 7), np.float32), {}),
    (_arr((5, 7), np.float32), {"type": "constant", "axis": 0}),
    (np.arange(6, dtype=np.float16), {"type": "constant"}),
    ([1.0, 2.0, 4.0], {}),
]


def test_detrend():
    for data, kw in DETREND_CASES:
        got = lsig.detrend(data, **kw)
        _aval_like_jax(got, lambda d, kw=kw: jsig.detrend(d, **kw), np.asarray(data))
        tol = 2e-3 if got.dtype == np.float16 else 1e-5
        want = scipy.signal.detrend(np.asarray(data, complex), **kw)
        _close(got, want if np.iscomplexobj(got) else want.real, tol=tol, what=f"{kw}")
        jitted = jaxlite.jit(lambda d, kw=kw: lsig.detrend(d, **kw))(np.asarray(data))
        _close(jitted, got, tol=1e-6)
    # JAX's linear detrend of an empty signal raises ZeroDivisionError; ours is empty.
    assert lsig.detrend(np.zeros(0, np.float32)).shape == (0,)


def test_detrend_float16_and_grad():
    # JAX's lstsq refuses float16; ours fits in float16 (docs/compat.md).
    d = np.arange(6, dtype=np.float16) ** 2
    got = lsig.detrend(d)
    assert got.dtype == np.float16
    _close(got, scipy.signal.detrend(d * 1.0), tol=0.02)
    x = _arr((9,), np.float32)
    # detrend is an orthogonal projection P (symmetric), so grad sum(P(v)**3) = P(3 P(v)**2).
    g = jaxlite.grad(lambda v: jnp.sum(lsig.detrend(v, bp=4) ** 3))(x)
    want = scipy.signal.detrend(3 * scipy.signal.detrend(x * 1.0, bp=4) ** 2, bp=4)
    _close(g, want, tol=1e-4)
    v = jaxlite.vmap(lsig.detrend)(_arr((3, 6), np.float32))
    _close(v.sum(-1), np.zeros(3), tol=1e-5)


@pytest.mark.parametrize("kw", [{"type": "x"}, {"overwrite_data": True}, {"bp": [9]}, {"bp": [-1]}])
def test_detrend_errors(kw):
    d = np.arange(8.0)
    _raises_like(lambda: lsig.detrend(d, **kw), lambda: jsig.detrend(d, **kw))


def test_attribute_access_like_jax():
    assert jaxlite.scipy.signal.convolve is lsig.convolve
    assert "signal" in dir(jaxlite.scipy)
