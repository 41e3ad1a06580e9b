"""Float division by a broadcast, bit for bit as JAX (XLA:CPU rewrites ``a / broadcast(b)``
as ``a * broadcast(1 / b)``; ops/division.py), eager and compiled, in loop bodies, under
vmap and grad, and in the native tier; exact division elsewhere; jaxprs keep ``div``."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.numpy  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")

RNG = np.random.default_rng(7)
A = RNG.standard_normal((40, 30)).astype(np.float32)
B = (RNG.standard_normal(30) + 3).astype(np.float32)
S = np.float32(7.3)


def _bits_equal(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(
        np.ascontiguousarray(got).view(np.uint8), np.ascontiguousarray(want).view(np.uint8)
    )


PROGRAMS = {
    "x / python scalar": lambda m, a, b: a / 15.0,
    "x / 0-d array": lambda m, a, b: a / m.numpy.asarray(S),
    "x / row": lambda m, a, b: a / b,
    "x / column (keepdims max)": lambda m, a, b: a / m.numpy.abs(a).max(1, keepdims=True),
    "same shape (exact)": lambda m, a, b: a / (a + 2.5),
    "scalar / x (exact)": lambda m, a, b: 3.3 / (a + 2.5),
    "scalar / scalar": lambda m, a, b: b[0] / b[1],
    "a product, then / scalar": lambda m, a, b: (a * b) / 7.0,
    "normalised by a maximum": lambda m, a, b: a / m.numpy.max(a, -1, keepdims=True),
    "true_divide of integers": lambda m, a, b: m.numpy.arange(12) / 7,
}


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_division_matches_jax_bit_for_bit(name, compiled):
    prog = PROGRAMS[name]

    def run(m):
        f = lambda a, b: prog(m, a, b)  # noqa: E731
        return (m.jit(f) if compiled else f)(A, B)

    _bits_equal(run(jaxlite), run(jax))


def test_the_rewrite_is_visible_in_the_bits():
    """The workload distinguishes the two roundings: NumPy's exact ``x / 15`` differs."""
    exact = A / np.float32(15.0)
    assert (np.asarray(jaxlite.jit(lambda a: a / 15.0)(A)) != exact).mean() > 0.2


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_narrow_floats_match_jax(dtype):
    x = A.astype(dtype)
    want = jax.jit(lambda a: a / 7.3)(x)
    _bits_equal(jaxlite.jit(lambda a: a / 7.3)(x), want)
    _bits_equal(jaxlite.numpy.asarray(x) / 7.3, jax.numpy.asarray(x) / 7.3)


def test_float64_matches_jax():
    with jax.enable_x64(True):
        x = A.astype(np.float64)
        want = jax.jit(lambda a: a / 7.3)(x)
    with jaxlite.enable_x64(True):
        got = jaxlite.jit(lambda a: a / 7.3)(x)
    _bits_equal(got, want)


def test_loop_bodies_vmap_and_grad_match_jax():
    def scan(m):
        step = lambda c, x: (m.numpy.maximum(c, x / 3.3), x / c)  # noqa: E731
        return m.jit(lambda a: m.lax.scan(step, 2.0 + A[0], a))(A)

    for g, w in zip(scan(jaxlite), scan(jax)):
        _bits_equal(g, w)

    def loop(m):
        return m.jit(
            lambda a: m.lax.fori_loop(0, 3, lambda i, v: v / (1.0 + m.numpy.abs(v).max()), a)
        )(A)

    _bits_equal(loop(jaxlite), loop(jax))
    _bits_equal(jaxlite.vmap(lambda r: r / S)(A), jax.vmap(lambda r: r / S)(A))

    def pullback(m):  # the transpose divides the cotangent by the broadcast row too
        return m.jit(lambda a, ct: m.vjp(lambda x: (x / B) ** 3, a)[1](ct)[0])(A, A)

    _bits_equal(pullback(jaxlite), pullback(jax))


def test_jaxprs_keep_div():
    jaxpr = jaxlite.make_jaxpr(lambda a: a / 15.0)(A)
    assert [str(e.primitive) for e in jaxpr.jaxpr.eqns] == ["div"]


@pytest.mark.jaxlite_only  # the native tier is jaxlite's own
@pytest.mark.parametrize("shape", [(4,), (64,)], ids=["scalarized", "array"])
def test_native_tier_gives_the_python_tiers_bits(shape):
    """A Numba kernel of a loop dividing by a scalar: the Python tier's bits, and JAX's."""
    pytest.importorskip("numba")
    from jaxlite._src.compile import codegen, native
    from jaxlite._src.interpreters import simplify

    def f(m):
        def body(c, _):
            return m.numpy.maximum(c / 3.3, c / c[0]) + 0.5, None

        return lambda c: m.lax.scan(body, c, None, length=20)[0]

    x = np.linspace(1, 2, shape[0], dtype=np.float32)
    closed = simplify.simplify(jaxlite.make_jaxpr(f(jaxlite))(x))
    assert "div_recip" in str(simplify.simplify(closed.jaxpr.eqns[0].params["jaxpr"]))
    with jaxlite.config._override("jaxlite_native", "off"):
        (want,) = codegen.compile_jaxpr(closed)[0](x)
    (got,) = native.compile_kernel(closed)(x)
    _bits_equal(got, want)
    _bits_equal(want, jax.jit(f(jax))(x))
