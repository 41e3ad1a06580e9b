"""Complex elementwise functions at special values against JAX 0.10.2, live (session 10).

A sweep over a grid of special parts (signed zeros, +-1, +-2, +-inf, NaN; and, separately,
+-1e30 / 1e300 and 1e-30 / 1e-300) found NumPy's complex kernels parting from XLA's
expansions: ``(-inf - inf j) / (-2 + 0j)`` is ``inf + inf j`` in JAX, jaxlite gave
``nan + nan j``; ``1 / (inf + inf j)`` is ``0 - 0j`` in JAX, jaxlite ``nan + nan j``. Each op
runs once per dtype over the whole grid (one array call, eager and under jit), compared
part by part: NaN with NaN, infinities and zeros with their signs, finite values within a
few ulps of the result's modulus. On the extreme grid, whose products underflow or overflow,
the signs of zeros are not compared (XLA:CPU's fused multiply-adds decide them:
docs/compat.md)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.lax as llax
import jaxlite.numpy as lnp

jax = pytest.importorskip("jax")
jnp = jax.numpy
jlax = jax.lax

PLAIN = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 3.0, np.inf, -np.inf, np.nan]


def _extreme(dtype):
    big, tiny = (1e300, 1e-300) if dtype == np.complex128 else (1e30, 1e-30)
    return [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, tiny, -tiny, big, -big, np.inf, -np.inf, np.nan]


def _grid(parts, dtype):
    return np.array([complex(a, b) for a in parts for b in parts], dtype)


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


def _mismatches(want, got, args, signed_zeros, ulps=4):
    want, got = np.asarray(want), np.asarray(got)
    assert want.dtype == got.dtype and want.shape == got.shape
    if want.dtype.kind == "c":
        w, g = np.stack([want.real, want.imag]), np.stack([got.real, got.imag])
        scale = np.maximum(np.abs(want), np.abs(got))
    else:
        w, g, scale = want[None], got[None], np.maximum(np.abs(want), np.abs(got))
    finfo = np.finfo(w.dtype)
    with np.errstate(all="ignore"):
        tol = ulps * finfo.eps * np.where(np.isfinite(scale), scale, 0) + finfo.tiny
        ok = (np.isnan(w) & np.isnan(g)) | ((w == g) & (np.signbit(w) == np.signbit(g)))
        close = np.isfinite(w) & np.isfinite(g) & (np.abs(w - g) <= tol)
        if signed_zeros:
            close &= ~((w == 0) & (g == 0))
        ok |= close
    bad = np.flatnonzero(~ok.all(axis=0))
    return [(tuple(complex(a[i]) for a in args), want[i], got[i]) for i in bad[:5]], bad.size


def _check(jfn, lfn, args, signed_zeros):
    want = jax.jit(jfn)(*args)
    for got in (lfn(*args), jaxlite.jit(lfn)(*args)):
        shown, n = _mismatches(want, got, args, signed_zeros)
        assert n == 0, f"{n} of {np.size(want)} differ from JAX, e.g. (args, JAX, jaxlite): {shown}"


BINARY = {
    "divide": (jnp.divide, lnp.divide),
    "true_divide": (jnp.true_divide, lnp.true_divide),
    "lax.div": (jlax.div, llax.div),
}
UNARY = {
    "reciprocal": (jnp.reciprocal, lnp.reciprocal),
    "integer_pow-1": (lambda x: jlax.integer_pow(x, -1), lambda x: llax.integer_pow(x, -1)),
    "integer_pow-2": (lambda x: jlax.integer_pow(x, -2), lambda x: llax.integer_pow(x, -2)),
    "integer_pow-3": (lambda x: jlax.integer_pow(x, -3), lambda x: llax.integer_pow(x, -3)),
}


@pytest.mark.parametrize("grid", ["plain", "extreme"])
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_edges_match_jax(name, grid, dtype):
    z = _grid(PLAIN if grid == "plain" else _extreme(dtype), dtype)
    a, b = np.repeat(z, z.size), np.tile(z, z.size)
    _check(*BINARY[name], (a, b), signed_zeros=grid == "plain")


@pytest.mark.parametrize("grid", ["plain", "extreme"])
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_edges_match_jax(name, grid, dtype):
    z = _grid(PLAIN if grid == "plain" else _extreme(dtype), dtype)
    _check(*UNARY[name], (z,), signed_zeros=grid == "plain")


def test_division_examples():
    inf = np.inf
    z = np.array([complex(-inf, -inf), complex(inf, 1), 1 + 0j], np.complex64)
    d = np.array([-2 + 0j, 1 + 1j, complex(inf, inf)], np.complex64)
    got = np.asarray(lnp.divide(z, d))
    np.testing.assert_array_equal(got[:2], [complex(inf, inf), complex(inf, -inf)])
    assert got[2] == 0 and np.signbit(got[2].imag)  # 1 / (inf + inf j) is 0 - 0j in JAX
    r = np.asarray(lnp.reciprocal(np.complex64(complex(-0.0, 0.0))))
    assert r.real == -np.inf and np.isnan(r.imag)  # JAX: -inf + nan j


def test_division_gradients_at_ordinary_points_match_jax():
    a = np.array([1 + 2j, -3 + 0.5j, 0.25 - 4j], np.complex64)
    b = np.array([2 - 1j, 0.5 + 0.5j, -1 - 3j], np.complex64)

    def f(m):
        return lambda x, y: m.real(x / y * m.reciprocal(x + y)).sum()

    for argnums in (0, 1):
        want = jax.grad(f(jnp), argnums)(a, b)
        g = jaxlite.grad(f(lnp), argnums)
        for got in (g(a, b), jaxlite.jit(g)(a, b)):
            np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-6)
