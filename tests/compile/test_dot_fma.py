"""XLA's contraction of ``p - c * dot(x, y)`` under ``jit`` (compile/contract.py, ops/dot_fma.py).

JAX's jitted ``p - 0.01 * (x.T @ d)`` rounds each element once (XLA:CPU fuses the multiply
and subtract into an FMA); eager JAX rounds twice. jaxlite does the same: the jitted update
is ``fma32(-c, g, p)`` with ``g`` jaxlite's own product, computed as one GEMM with
``beta = 1`` where OpenBLAS gives those bits, else as the product then ``fma32``.
"""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax
from jaxlite._src.compile import contract
from jaxlite._src.ops import blas_split, dot_fma, xla_fma

pytestmark = pytest.mark.jaxlite_only  # inspects jaxlite's generated code and internals

F32 = np.float32


def _data(m, k, n, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((k, m), F32)
    d = rng.standard_normal((k, n), F32)
    p = rng.standard_normal((m, n), F32)
    return x, d, p


def _prims(f, *args):
    """Primitive names of the code ``jit`` generates for ``f`` (after contraction)."""
    closed = jax.make_jaxpr(f)(*args)
    from jaxlite._src.interpreters import simplify

    return [str(e.primitive) for e in contract.contract_dots(simplify.simplify(closed)).jaxpr.eqns]


SHAPES = [
    (784, 128, 512),
    (512, 128, 512),
    (512, 128, 10),
    (10, 128, 512),
    (33, 7, 5),
    (300, 600, 300),
]


@pytest.mark.parametrize("m,k,n", SHAPES)
def test_update_is_rounded_once_under_jit(m, k, n):
    x, d, p = _data(m, k, n)
    got = np.asarray(jax.jit(lambda p, x, d: p - 0.01 * (x.T @ d))(p, x, d))
    g = np.asarray(x.T @ d)  # jaxlite's own product (eager)
    want = xla_fma.fma32(F32(-0.01), g, p)
    two = p - F32(0.01) * g
    contracted = "dot_fma" in _prims(lambda p, x, d: p - 0.01 * (x.T @ d), p, x, d)
    if contracted:
        np.testing.assert_array_equal(got, want)
    else:  # a large result whose GEMM cannot give the single rounding: left as it was
        assert m * n > dot_fma.SMALL
        np.testing.assert_array_equal(got, two)
    # Small results always; short contractions wherever NumPy's OpenBLAS is found.
    if m * n <= dot_fma.SMALL or (k <= 128 and dot_fma._sgemm() is not None):
        assert contracted, "small results and short contractions are contracted"
        assert not np.array_equal(want, two), "the data must tell the roundings apart"


def test_eager_update_rounds_twice_as_eager_jax():
    x, d, p = _data(64, 32, 48)
    got = np.asarray(p - 0.01 * (jax.numpy.asarray(x).T @ d))
    g = np.asarray(x.T @ d)
    np.testing.assert_array_equal(got, p - F32(0.01) * g)


FORMS = {
    "p - c*g": lambda p, x, d: p - 0.01 * (x.T @ d),
    "p - g*c": lambda p, x, d: p - (x.T @ d) * 0.01,
    "p + c*g": lambda p, x, d: p + 0.3 * (x.T @ d),
    "c*g + p": lambda p, x, d: 0.3 * (x.T @ d) + p,
    "p + (-c)*g": lambda p, x, d: p + (-0.01) * (x.T @ d),
}
ALPHA = {"p - c*g": -0.01, "p - g*c": -0.01, "p + c*g": 0.3, "c*g + p": 0.3, "p + (-c)*g": -0.01}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_is_contracted(form):
    x, d, p = _data(96, 16, 80, seed=1)
    f = FORMS[form]
    assert "dot_fma" in _prims(f, p, x, d)
    got = np.asarray(jax.jit(f)(p, x, d))
    np.testing.assert_array_equal(got, xla_fma.fma32(F32(ALPHA[form]), np.asarray(x.T @ d), p))


def test_not_contracted_where_xla_has_no_such_fma():
    x, d, p = _data(40, 8, 24, seed=2)
    # The product (or the scaled product) feeds something else: computing it twice would cost.
    f_twice = lambda p, x, d: (p - 0.01 * (x.T @ d), x.T @ d)  # noqa: E731 (CSE: one dot, two uses)
    assert "dot_fma" not in _prims(f_twice, p, x, d)
    a, b = jax.jit(f_twice)(p, x, d)
    np.testing.assert_array_equal(np.asarray(b), np.asarray(x.T @ d))
    # c - p (a negated accumulator), float64, a batched product, a non-scalar scale.
    assert "dot_fma" not in _prims(lambda p, x, d: 0.01 * (x.T @ d) - p, p, x, d)
    jax.config.update("jax_enable_x64", True)
    try:
        p64, x64, d64 = (a.astype(np.float64) for a in (p, x, d))
        assert "dot_fma" not in _prims(FORMS["p - c*g"], p64, x64, d64)
    finally:
        jax.config.update("jax_enable_x64", False)
    xb, db = np.stack([x, x]), np.stack([d, d])
    pb = np.stack([p, p])
    batched = lambda p, x, d: p - 0.01 * jax.numpy.matmul(x.transpose(0, 2, 1), d)  # noqa: E731
    assert "dot_fma" not in _prims(batched, pb, xb, db)
    row = np.linspace(0.1, 1.0, 24, dtype=F32)
    assert "dot_fma" not in _prims(lambda p, x, d: p - row * (x.T @ d), p, x, d)


PRODUCTS = {
    "a @ b": lambda a, b: a @ b,
    "a.T.T @ b.T.T": lambda a, b: a.T.T @ b.T.T,
    "a[:, ::2] @ b[::2]": lambda a, b: a[:, ::2] @ b[::2],
    "(b.T @ a.T).T": lambda a, b: (b.T @ a.T).T,
}


@pytest.mark.parametrize("product", sorted(PRODUCTS))
def test_operand_layouts(product):
    rng = np.random.default_rng(3)
    p = rng.standard_normal((48, 40), F32)
    a = rng.standard_normal((48, 64), F32)
    b = rng.standard_normal((64, 40), F32)
    prod = PRODUCTS[product]
    got = np.asarray(jax.jit(lambda p, a, b: p - 0.02 * prod(a, b))(p, a, b))
    g = np.asarray(prod(jax.numpy.asarray(a), jax.numpy.asarray(b)))  # eager: jaxlite's product
    if product == "(b.T @ a.T).T":  # a transpose between the product and the scaling: not
        np.testing.assert_array_equal(got, p - F32(0.02) * g)  # matched, two roundings
    else:
        np.testing.assert_array_equal(got, xla_fma.fma32(F32(-0.02), g, p))


def test_gemm_and_fallback_give_the_same_bits(monkeypatch):
    x, d, p = _data(700, 128, 200, seed=4)
    dims = (((0,), (0,)), ((), ()))
    fast = dot_fma._dot_fma_impl(x, d, p, dimension_numbers=dims, alpha=-0.01)  # GEMM if found
    np.testing.assert_array_equal(fast, xla_fma.fma32(F32(-0.01), np.asarray(x.T @ d), p))
    # Every probe failing: the impl takes the product and fma32.
    monkeypatch.setattr(dot_fma, "_probe", lambda *a: False)
    slow = dot_fma._dot_fma_impl(x, d, p, dimension_numbers=dims, alpha=-0.01)
    np.testing.assert_array_equal(fast, slow)
    # No OpenBLAS found at all.
    monkeypatch.setitem(dot_fma._state, "lib", None)
    none = dot_fma._dot_fma_impl(x, d, p, dimension_numbers=dims, alpha=-0.01)
    np.testing.assert_array_equal(fast, none)


def test_stall_safe_products_give_the_same_bits(monkeypatch):
    x, d, p = _data(512, 128, 512, seed=5)
    f = jax.jit(lambda p, x, d: p - 0.01 * (x.T @ d))
    normal = np.asarray(f(p, x, d))
    monkeypatch.setattr(blas_split, "stalled", lambda: True)
    np.testing.assert_array_equal(np.asarray(f(p, x, d)), normal)


def test_special_values_follow_fma():
    x, d, p = _data(16, 8, 12, seed=6)
    p[0, 0], p[1, 1], p[2, 2] = np.inf, np.nan, -0.0
    x[:, 3] = 0.0  # row 3 of the product is +-0: p + (-c * 0) keeps p's signed zero
    p[3, :] = -0.0
    got = np.asarray(jax.jit(lambda p, x, d: p - 0.01 * (x.T @ d))(p, x, d))
    want = xla_fma.fma32(F32(-0.01), np.asarray(x.T @ d), p)
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[3]).tolist() == np.signbit(want[3]).tolist()


def test_result_is_a_new_buffer_and_inputs_are_untouched():
    x, d, p = _data(128, 64, 96, seed=7)
    p0, x0, d0 = p.copy(), x.copy(), d.copy()
    out = jax.jit(lambda p, x, d: p - 0.01 * (x.T @ d))(p, x, d)
    np.testing.assert_array_equal(p, p0)
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(d, d0)
    assert not np.shares_memory(np.asarray(out), p)


def test_sgd_step_matches_jax_where_products_are_exact():
    """Differential: with integer-valued operands the products are exact in any order, so
    JAX's jitted update and jaxlite's must agree bit for bit (both one rounding)."""
    jax_ref = pytest.importorskip("jax")
    rng = np.random.default_rng(8)
    x = rng.integers(-4, 5, (64, 96)).astype(F32)
    d = rng.integers(-4, 5, (64, 80)).astype(F32)
    p = rng.standard_normal((96, 80), F32)

    def f(p, x, d):
        return p - 0.01 * (x.T @ d)

    want = np.asarray(jax_ref.jit(f)(p, x, d))
    got = np.asarray(jax.jit(f)(p, x, d))
    np.testing.assert_array_equal(got, want)
    assert not np.array_equal(want, p - F32(0.01) * (x.T @ d)), (
        "the data must tell the roundings apart"
    )


def test_dot_fma_rules_jvp_and_vmap():
    """The primitive only exists in compiled code, but its JVP and batching rules work."""
    from jaxlite._src.ops.dot_fma import dot_fma_p

    x, d, p = _data(6, 4, 5, seed=9)
    dims = (((0,), (0,)), ((), ()))

    def f(x, d, p):
        return dot_fma_p.bind(x, d, p, dimension_numbers=dims, alpha=-0.5)

    np.testing.assert_array_equal(np.asarray(f(x, d, p)), xla_fma.fma32(F32(-0.5), x.T @ d, p))
    tx, td, tp = _data(6, 4, 5, seed=10)
    _, tan = jax.jvp(f, (x, d, p), (tx, td, tp))
    want = tp - 0.5 * (tx.T @ d) - 0.5 * (x.T @ td)
    np.testing.assert_allclose(np.asarray(tan), want, rtol=1e-5, atol=1e-5)
    xs, ds, ps = (np.stack([a, 2 * a]) for a in (x, d, p))
    got = np.asarray(jax.vmap(f)(xs, ds, ps))
    for i in range(2):
        np.testing.assert_array_equal(got[i], np.asarray(f(xs[i], ds[i], ps[i])))


def test_gemm_calls_are_counted_by_the_stall_watch(monkeypatch):
    """A stall of OpenBLAS's threads in the update's GEMM moves products to the stall-safe
    way as one in a product would (ops/blas_split.py's watch)."""
    seen = []
    monkeypatch.setattr(blas_split, "note_call", lambda key, dt: seen.append((key, dt)))
    # A stall noticed earlier in this process (a busy CI machine) runs the GEMM off
    # OpenBLAS's threads, where nothing is watched: start from "no stall".
    monkeypatch.setattr(blas_split, "stalled", lambda: False)
    x, d, p = _data(512, 128, 512, seed=11)
    jax.jit(lambda p, x, d: p - 0.01 * (x.T @ d))(p, x, d)
    lib = dot_fma._sgemm()
    # x.T is a transposed (column-major) operand, d a row-major one.
    if lib is None or not dot_fma._probe(lib, 512, 512, 128, dot_fma._TRANS, dot_fma._NO_TRANS):
        assert not seen  # no GEMM gives the single rounding here: nothing to watch
    else:
        assert seen and seen[-1][0][:4] == ("dot_fma", 512, 512, 128) and seen[-1][1] > 0
