"""Complex unary functions at special values against JAX 0.10.2, live (session 11).

A sweep of every complex-accepting unary function over a grid of special parts (signed
zeros, +-1, +-2, 0.5, tiny and huge values, the largest finite decade, +-inf, NaN; complex64
and complex128, eager and under jit) found NumPy's C99 kernels parting from XLA's expansions
(ops/complex_elementary.py): ``tanh(inf - 0j)`` was ``1 - 0j`` (JAX ``1 + 0j``),
``sign(-inf + 2j)`` was ``-1 + 0j`` (JAX ``nan + 0j``), ``abs(inf + nan j)`` was inf (JAX
NaN), ``arctan(-2 + nan j)`` was NaN + NaN j (JAX ``-1.5707964 + nan j``),
``square(1e30 + 1e30j)`` was ``-inf + inf j`` (JAX ``0 + inf j``), ``sqrt(-1 - 0j)`` was
``-1j`` (JAX ``+1j``), ``log1p(1e-30)`` was 0 (JAX ``1e-30``), ``lax.logistic`` of a complex
number raised. Each function runs once per dtype over the whole grid, compared part by part:
NaN with NaN, infinities and zeros with their signs, finite values within a few ulps of the
result's modulus."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.lax as llax
import jaxlite.numpy as lnp

jax = pytest.importorskip("jax")
jnp = jax.numpy
jlax = jax.lax


def _grid(dtype):
    if dtype == np.complex128:
        tiny, big, top = 1e-300, 1e300, 1e308
    else:
        tiny, big, top = 1e-30, 1e30, 1e38
    parts = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, tiny, -tiny, big, -big, top, np.inf, -np.inf]
    parts.append(np.nan)
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


def _mismatches(want, got, z, ulps=8):
    want, got = np.asarray(want), np.asarray(got)
    assert want.dtype == got.dtype and want.shape == got.shape
    if want.dtype.kind == "b":
        bad = np.flatnonzero(want != got)
        return [(complex(z[i]), want[i], got[i]) for i in bad[:5]], bad.size
    if want.dtype.kind == "c":
        w, g = np.stack([want.real, want.imag]), np.stack([got.real, got.imag])
        scale = np.maximum(np.abs(want), np.abs(got))
    else:
        w, g, scale = want[None], got[None], np.maximum(np.abs(want), np.abs(got))
    finfo = np.finfo(w.dtype)
    with np.errstate(all="ignore"):
        # The modulus, or the part itself next to an infinite part.
        scale = np.where(np.isfinite(scale), scale, np.maximum(np.abs(w), np.abs(g)))
        tol = ulps * finfo.eps * scale + finfo.tiny
        ok = (np.isnan(w) & np.isnan(g)) | ((w == g) & (np.signbit(w) == np.signbit(g)))
        close = np.isfinite(w) & np.isfinite(g) & (np.abs(w - g) <= tol)
        ok |= close & ~((w == 0) & (g == 0))
    bad = np.flatnonzero(~ok.all(axis=0))
    return [(complex(z[i]), want[i], got[i]) for i in bad[:5]], bad.size


NAMES = (
    "sqrt exp expm1 exp2 log log1p log2 log10 sin cos tan sinh cosh tanh arcsin arccos arctan "
    "arcsinh arccosh arctanh sign abs absolute square conj conjugate real imag negative "
    "positive isfinite isnan isinf"
).split()
FUNCS = {n: (getattr(jnp, n), getattr(lnp, n)) for n in NAMES}
for _n in ("sqrt", "rsqrt", "exp", "tan", "acos", "atan", "sign", "abs", "square", "logistic"):
    FUNCS["lax." + _n] = (getattr(jlax, _n), getattr(llax, _n))
for _k in (2, 3, -2):
    FUNCS[f"integer_pow{_k}"] = (
        lambda x, k=_k: jlax.integer_pow(x, k),
        lambda x, k=_k: llax.integer_pow(x, k),
    )


@pytest.mark.parametrize("name", list(FUNCS))
def test_unary_edges_match_jax(name, dtype):
    z = _grid(dtype)
    jfn, lfn = FUNCS[name]
    want = jax.jit(jfn)(z)
    for got in (lfn(z), jaxlite.jit(lfn)(z)):
        assert got.dtype == want.dtype and got.weak_type == want.weak_type
        shown, n = _mismatches(want, got, z)
        assert n == 0, f"{n} of {z.size} differ from JAX, e.g. (z, JAX, jaxlite): {shown}"


def test_reported_examples():
    inf, nan = np.inf, np.nan
    c = np.complex64
    assert np.signbit(np.asarray(lnp.tanh(c(complex(inf, -0.0)))).imag) == 0
    s = np.asarray(lnp.sign(c(complex(-inf, 2))))
    assert np.isnan(s.real) and s.imag == 0
    assert np.isnan(np.asarray(lnp.abs(c(complex(inf, nan)))))
    a = np.asarray(lnp.arctan(c(complex(-2, nan))))
    assert a.real == np.float32(-np.pi / 2) and np.isnan(a.imag)
    q = np.asarray(lnp.square(c(1e30 + 1e30j)))
    assert q.real == 0 and q.imag == inf
    assert np.asarray(lnp.sqrt(c(complex(-1, -0.0)))) == 1j
    assert np.asarray(lnp.log1p(c(1e-30))).real == np.float32(1e-30)


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("isfinite", "isnan", "isinf")])
def test_gradients_at_ordinary_points_match_jax(name):
    z = np.array([1 + 2j, -0.5 + 0.3j, 0.25 - 1.5j, -2 - 0.1j], np.complex64)

    def f(m):
        return lambda x: m.real(getattr(m, name)(x) * (1 + 0.5j)).sum()

    want = jax.grad(f(jnp))(z)
    g = jaxlite.grad(f(lnp))
    for got in (g(z), jaxlite.jit(g)(z)):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=1e-6)


@pytest.mark.jaxlite_only  # jaxlite's generated code (not a deviation from JAX)
def test_real_operands_keep_plain_ufunc_code():
    """The complex kernels leave real operands on NumPy's ufuncs (``out=`` buffer reuse in
    generated code)."""
    f = jaxlite.jit(lambda x: lnp.sin(lnp.exp(x) * 2.0))
    src = f.lower(np.ones(3, np.float32)).as_text()
    assert "out=" in src
