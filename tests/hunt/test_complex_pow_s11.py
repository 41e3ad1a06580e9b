"""Complex ``jnp.power`` / ``lax.pow`` against JAX 0.10.2, live (session 11).

A sweep of complex bases (a grid of special parts, and random values of magnitudes 1e-35..1e35
or 1e-300..1e300) raised to complex and real float exponents, complex64 and complex128, eagerly
and under ``jit``, found NumPy's ``exp(w log z)`` parting from XLA's expansion
(``ops/complex_elementary.power``): ``power(inf j, 0.5)`` was ``inf + nan j`` (JAX NaN + NaN j),
``power(0, 0.5 + 1j)`` was 0 (JAX NaN + NaN j), ``power(1 + 0j, inf)`` was NaN (JAX 1),
``power(1e38 + 1j, 2)`` was ``inf + inf j`` (JAX ``inf + nan j``: XLA flushes the subnormal
angle), and complex64 ``power(1e38 + 0j, 0.5)`` was ``9.999982e18`` (JAX ``1e19``): NumPy
rounds ``w log z`` to float32, ~1e-6 relative off at large ``|w log z|``. Before the fix 7777 of
the 20250 complex64 grid points and 3976 of 20000 random ones differed from JAX by more than 8
ulps of the modulus; after it, only elements whose result turns on the last bit of XLA's float32
``atan2`` (its own approximation, not correctly rounded; e.g. the sign of an overflowed part at
an angle of pi/2) and subnormal results that XLA flushes (docs/compat.md).

JAX is compared with array exponents (JAX's eager and jitted results agree then). Under JAX's
``jit`` a literal exponent 1, 2, 3 or -1 is rewritten by XLA's simplifier into ``z``, ``z*z``,
``z*z*z``, ``1/z``, which differ from JAX's eager result at the edges; jaxlite computes every
exponent as JAX eagerly does (docs/compat.md)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.lax as llax
import jaxlite.numpy as lnp
from tests.conftest import ORACLE

jax = pytest.importorskip("jax")
jnp = jax.numpy
jlax = jax.lax


@pytest.fixture(params=[np.complex64, np.complex128], ids=["c64", "c128"])
def dtype(request):
    x64 = request.param == np.complex128
    jax.config.update("jax_enable_x64", x64)
    jaxlite.config.update("jax_enable_x64", x64)
    try:
        yield request.param
    finally:
        jax.config.update("jax_enable_x64", False)
        jaxlite.config.update("jax_enable_x64", False)


def _bases(dtype):
    if dtype == np.complex128:
        tiny, big, top = 1e-300, 1e300, 1e308
    else:
        tiny, big, top = 1e-30, 1e30, 1e38
    parts = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, tiny, -tiny, big, -big, top, np.inf, -np.inf]
    parts.append(np.nan)
    return np.array([complex(a, b) for a in parts for b in parts], dtype)


_EXP_RE = [0.0, -0.0, 0.5, -0.5, 1.0, 2.0, -1.0, 3.0, 2.5, 1 / 3, -2.5, 100.0, np.inf, -np.inf]
_EXP_RE.append(np.nan)
_EXP_IM = [0.0, -0.0, 1.0, -0.5, np.inf, np.nan]


def _grid(dtype):
    w = np.array([complex(c, d) for c in _EXP_RE for d in _EXP_IM], dtype)
    z, w = np.meshgrid(_bases(dtype), w, indexing="ij")
    return z.ravel(), w.ravel()


def _random(dtype, n=4000, seed=0):
    rng = np.random.default_rng(seed)
    lo, hi = (-35, 35) if dtype == np.complex64 else (-300, 300)
    z = 10.0 ** rng.uniform(lo, hi, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n))
    w = rng.normal(size=n) * 3 + 1j * rng.normal(size=n) * rng.choice([0, 1], n)
    return z.astype(dtype), w.astype(dtype)


def _ok(want, got, amp=1, ulps=8):
    """Part by part: NaN with NaN, equal values with equal signs (zeros, infinities), finite
    values within ``ulps * amp`` ulps of the modulus (or of the part next to an infinite
    one)."""
    want, got = np.asarray(want), np.asarray(got)
    w, g = np.stack([want.real, want.imag]), np.stack([got.real, got.imag])
    finfo = np.finfo(w.dtype)
    with np.errstate(all="ignore"):
        scale = np.maximum(np.abs(want), np.abs(got))
        scale = np.where(np.isfinite(scale), scale, np.maximum(np.abs(w), np.abs(g)))
        ok = (np.isnan(w) & np.isnan(g)) | ((w == g) & (np.signbit(w) == np.signbit(g)))
        err = np.abs(w - g) / amp
        close = np.isfinite(w) & np.isfinite(g) & (err <= ulps * finfo.eps * scale)
        ok |= close & ~((w == 0) & (g == 0))
        # XLA:CPU flushes subnormal results to zero (docs/compat.md, the subnormal row).
        ok |= (w == 0) & (np.abs(g) < finfo.tiny)
    return ok.all(axis=0)


def _explained_by_atan2_last_bit(z, w, want):
    """Where jaxlite's result differs: whether moving ``atan2(b, a)`` by one float32 ulp
    reproduces JAX's, i.e. the difference is XLA's own float32 ``atan2`` (its last bit)."""
    from jaxlite._src.ops.complex_elementary import _pack, _power_parts, _rounded

    t = _rounded(np.arctan2, z.imag, z.real)
    hits = np.zeros(z.shape, bool)
    for step in (np.inf, -np.inf):
        with np.errstate(all="ignore"):
            re, im = _power_parts(z.real, z.imag, w.real, w.imag, np.nextafter(t, step))
        alt = _pack(re, im, z.dtype)
        hits |= _ok(want, alt)
    return hits


def _check(z, w, want, got, ulps=8):
    """Finite parts within ``ulps`` of the modulus, times the amplification of a one-ulp error
    in the phase ``c t + d log r`` (large for large exponents and magnitudes)."""
    assert got.dtype == want.dtype and got.shape == want.shape
    want, got = np.asarray(want), np.asarray(got)
    with np.errstate(all="ignore"):
        amp = 1 + np.abs(w) * (np.abs(np.log(np.abs(z))) + np.pi)
    bad = ~_ok(want, got, np.where(np.isfinite(amp), amp, 1), ulps)
    if bad.any() and not ORACLE and z.dtype == np.complex64:
        bad[bad] = ~_explained_by_atan2_last_bit(z[bad], w[bad], want[bad])
    idx = np.flatnonzero(bad)
    shown = [(complex(z[i]), complex(w[i]), complex(want[i]), complex(got[i])) for i in idx[:5]]
    assert idx.size == 0, f"{idx.size} of {z.size} differ, e.g. (z, w, JAX, jaxlite): {shown}"


POWERS = {
    "jnp.power": (jnp.power, lnp.power),
    "jit(jnp.power)": (jnp.power, jaxlite.jit(lnp.power)),
    "lax.pow": (jlax.pow, llax.pow),
}


@pytest.mark.parametrize("name", list(POWERS))
def test_grid_matches_jax(name, dtype):
    z, w = _grid(dtype)
    jfn, lfn = POWERS[name]
    want = jax.jit(jfn)(z, w)
    _check(z, w, want, lfn(z, w))


@pytest.mark.parametrize("name", list(POWERS))
def test_random_wide_magnitudes_match_jax(name, dtype):
    z, w = _random(dtype)
    jfn, lfn = POWERS[name]
    want, got = jax.jit(jfn)(z, w), lfn(z, w)
    _check(z, w, want, got)
    # Without the phase's amplification: NumPy's complex64 power (``w log z`` rounded to
    # float32) was within 8 ulps of JAX's in 80% of these elements, XLA's expansion in 99%.
    assert _ok(want, got).mean() > 0.97


def test_real_float_exponents_match_jax(dtype):
    """A real exponent array is promoted to the complex dtype (imaginary part 0)."""
    z, _ = _grid(dtype)
    real = np.float64 if dtype == np.complex128 else np.float32
    w = np.resize(np.array(_EXP_RE, real), z.shape)
    _check(z, w.astype(dtype), jnp.power(z, w), lnp.power(z, w))
    _check(z, w.astype(dtype), jax.jit(jnp.power)(z, w), jaxlite.jit(lnp.power)(z, w))
    k = np.resize(np.arange(-3, 4, dtype=np.int32), z.shape)
    _check(z, k.astype(dtype), jlax.pow(z, k), llax.pow(z, k))


def test_reported_examples():
    inf = np.inf
    c = np.complex64

    def parts(x):
        x = complex(np.asarray(x))
        return x.real, x.imag

    re, im = parts(lnp.power(c(complex(0, inf)), c(0.5)))
    assert np.isnan(re) and np.isnan(im)
    assert parts(lnp.power(c(1e38), c(0.5))) == (np.float32(1e19), 0.0)
    re, im = parts(lnp.power(c(0), c(0.5 + 1j)))
    assert np.isnan(re) and np.isnan(im)
    assert parts(lnp.power(c(1), c(inf))) == (1.0, 0.0)
    assert parts(lnp.power(c(inf), c(-2.5))) == (0.0, 0.0)
    re, im = parts(lnp.power(c(1e38 + 1j), c(2)))
    assert re == inf and np.isnan(im)
    assert parts(lnp.power(c(0), c(0))) == (1.0, 0.0)
    # complex64 near float32's top: within 2 ulps of the exact value.
    z = c(1e38 + 1e38j)
    exact = np.complex128(z) ** 0.5
    got = complex(np.asarray(lnp.power(z, c(0.5))))
    assert abs(got - exact) <= 2 * np.finfo(np.float32).eps * abs(exact)


@pytest.mark.parametrize("argnum", [0, 1])
def test_gradients_match_jax(argnum):
    z = np.array([1 + 2j, -0.5 + 0.3j, 0.25 - 1.5j, -2 - 0.1j, 0j, 1e20 + 1e20j, -3], np.complex64)
    w = np.array([0.5 + 0.2j, 2.5, -1.5 + 1j, 3j, 2.5, 0.5, 0.5], np.complex64)

    def f(m):
        return lambda x, y: m.real(m.power(x, y) * (1 + 0.5j)).sum()

    want = jax.grad(f(jnp), argnum)(z, w)
    g = jaxlite.grad(f(lnp), argnum)
    for got in (g(z, w), jaxlite.jit(g)(z, w)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-6, atol=0)


@pytest.mark.jaxlite_only  # JAX's jit rewrites a literal exponent 1, 2, 3, -1 (docs/compat.md)
@pytest.mark.parametrize("k", [1.0, 2.0, 3.0, -1.0, 2 + 0j])
def test_literal_exponent_under_jit_is_computed_as_eagerly(k):
    z = _bases(np.complex64)
    eager = np.asarray(lnp.power(z, k))
    got = np.asarray(jaxlite.jit(lambda x: lnp.power(x, k))(z))
    np.testing.assert_array_equal(got.view(np.float32), eager.view(np.float32))
    # ...which is JAX's eager result.
    _check(z, np.full(z.shape, k, np.complex64), jnp.power(z, k), eager)
