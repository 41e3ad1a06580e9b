"""jnp polynomial arithmetic (poly, polyadd, polysub, polymul, polydiv, polyder, polyint,
polyfit), histogram2d/histogramdd, dsplit, the printing helpers, frombuffer/fromstring/
fromiter, the type names (bool, object_, ...), and lax cumlogsumexp/optimization_barrier/
stack/unstack/split, against real JAX: values, dtypes, shapes, weak types, jit, grad, vmap,
and JAX's errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.lax as JL  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.lax as LL  # noqa: E402
import jaxlite.numpy as L  # noqa: E402

from ._oracle import check  # noqa: E402

jax.config.update("jax_platforms", "cpu")

A = np.array([1.0, 2, 3], np.float32)
B = np.array([4.0, 5], np.float32)
AI = np.array([1, 2, 3])
P4 = np.array([1.0, 2, 3, 4], np.float32)
XS = np.linspace(0, 1, 10).astype(np.float32)
YS = (3 * XS**2 - XS + 0.5).astype(np.float32)


def both(name, *args, rtol=1e-5, atol=1e-5, mod=(L, J), **kw):
    lite, ref = mod
    check(
        lambda: getattr(lite, name)(*args, **kw),
        lambda: getattr(ref, name)(*args, **kw),
        rtol=rtol,
        atol=atol,
    )


POLY_CASES = [
    ("poly", (A,), {}),
    ("poly", (AI,), {}),
    ("poly", (np.array([]),), {}),
    ("poly", (2.0,), {}),
    ("poly", (np.ones((2, 3)),), {}),
    ("poly", ([1, 2],), {}),
    ("polyadd", (A, B), {}),
    ("polyadd", (B, A), {}),
    ("polyadd", (AI, B), {}),
    ("polyadd", (AI, np.array([1])), {}),
    ("polyadd", ([1], [2]), {}),
    ("polysub", (A, B), {}),
    ("polysub", (B, A), {}),
    ("polysub", (AI, AI), {}),
    ("polymul", (A, B), {}),
    ("polymul", (AI, AI), {}),
    ("polymul", (np.array([0.0, 0, 1]), B), {"trim_leading_zeros": True}),
    ("polymul", (np.array([]), B), {}),
    ("polydiv", (A, B), {}),
    ("polydiv", (np.array([1.0, -3, 2, 5]), np.array([1.0, -1])), {}),
    ("polydiv", (np.array([1.0, -3, 2]), np.array([1.0, -1])), {"trim_leading_zeros": True}),
    ("polydiv", (AI, np.array([2, 1])), {}),
    ("polyder", (AI, 1), {}),
    ("polyder", (P4, -1), {}),
    ("polyint", (AI, 2), {"k": np.array([1.0, 2])}),
    ("polyint", (AI, 2), {"k": np.array([1.0, 2, 3])}),
    ("polyint", (AI, -1), {}),
    ("polyfit", (XS, YS, 2), {"rtol": 1e-3}),
    ("polyfit", (XS, np.stack([YS, 2 * YS], 1), 2), {"rtol": 1e-3}),
    ("polyfit", (XS, YS, 2), {"w": np.linspace(1, 2, 10), "rtol": 1e-3}),
    ("polyfit", (XS, YS, 2), {"full": True, "rtol": 1e-2, "atol": 1e-4}),
    ("polyfit", (XS, YS, 2), {"cov": True, "rtol": 1e-2, "atol": 1e-4}),
    ("polyfit", (XS, YS, 2), {"cov": "unscaled", "rtol": 1e-3}),
    ("polyfit", (XS, YS, -1), {}),
    ("polyfit", (XS[None], YS, 1), {}),
    ("polyfit", (XS, YS[:5], 1), {}),
]


@pytest.mark.parametrize("name,args,kw", POLY_CASES, ids=[c[0] for c in POLY_CASES])
def test_polynomials(name, args, kw):
    both(name, *args, **kw)


@pytest.mark.parametrize("m", [0, 1, 2, 3, 4])
def test_polyder_polyint_orders(m):
    both("polyder", P4, m)
    both("polyint", P4, m)
    both("polyint", P4, m, k=2.0)


def test_polynomials_under_transformations():
    check(lambda: jaxlite.jit(L.polymul)(A, B), lambda: jax.jit(J.polymul)(A, B))
    check(lambda: jaxlite.jit(L.polydiv)(A, B), lambda: jax.jit(J.polydiv)(A, B))
    check(
        lambda: jaxlite.grad(lambda a: L.polymul(a, B).sum())(A),
        lambda: jax.grad(lambda a: J.polymul(a, B).sum())(A),
    )
    check(
        lambda: jaxlite.grad(lambda a: L.poly(a).sum())(A),
        lambda: jax.grad(lambda a: J.poly(a).sum())(A),
    )
    ones = np.ones((2, 4), np.float32)
    check(lambda: jaxlite.vmap(L.polyder)(ones), lambda: jax.vmap(J.polyder)(ones))
    check(
        lambda: jaxlite.jit(L.polyfit, static_argnums=2)(XS, YS, 2),
        lambda: jax.jit(J.polyfit, static_argnums=2)(XS, YS, 2),
        rtol=1e-3,
    )


RNG = np.random.default_rng(0)
SAMPLE = RNG.normal(size=(50, 3)).astype(np.float32)
W = RNG.uniform(size=50).astype(np.float32)
X2, Y2 = SAMPLE[:, 0], SAMPLE[:, 1]

HIST_CASES = [
    ("histogramdd", (SAMPLE,), {}),
    ("histogramdd", (SAMPLE,), {"bins": 4}),
    ("histogramdd", (SAMPLE,), {"bins": [5, 4, np.linspace(-3, 3, 5)]}),
    ("histogramdd", (SAMPLE,), {"weights": W, "density": True}),
    ("histogramdd", (SAMPLE,), {"range": [(-1, 1), None, (0, 2)]}),
    ("histogramdd", (SAMPLE,), {"weights": W[:3]}),
    ("histogramdd", (SAMPLE,), {"bins": [2, 3]}),
    ("histogramdd", (SAMPLE,), {"range": [(-1, 1)]}),
    ("histogram2d", (X2, Y2), {}),
    ("histogram2d", (X2, Y2), {"bins": 5}),
    ("histogram2d", (X2, Y2), {"bins": (3, 4)}),
    ("histogram2d", (X2, Y2), {"bins": np.linspace(-2, 2, 6)}),
    ("histogram2d", (X2, Y2), {"weights": W, "density": True}),
    ("histogram2d", ([1], [2]), {}),
]


@pytest.mark.parametrize("name,args,kw", HIST_CASES, ids=[c[0] for c in HIST_CASES])
def test_histograms(name, args, kw):
    both(name, *args, **kw)


def test_histogramdd_under_jit():
    # Explicit edges: computed edges (bins=int) can differ from XLA's by an ulp, which moves
    # a sample lying on an edge (jnp.histogram_bin_edges, outside this module).
    edges = [np.linspace(-3, 3, 7).astype(np.float32)] * 3
    check(
        lambda: jaxlite.jit(lambda s: L.histogramdd(s, bins=edges))(SAMPLE),
        lambda: jax.jit(lambda s: J.histogramdd(s, bins=edges))(SAMPLE),
    )


def test_dsplit_printing_and_host_constructors():
    both("dsplit", np.ones((2, 2, 4)), 2)
    both("dsplit", np.arange(24).reshape(2, 3, 4), [1, 3])
    x = np.arange(3.0, dtype=np.float32)
    assert L.array_str(L.asarray(x)) == J.array_str(J.asarray(x))
    assert L.array_str(L.asarray(x), precision=1) == J.array_str(J.asarray(x), precision=1)
    assert L.array_repr(np.arange(3)) == J.array_repr(np.arange(3))
    with L.printoptions(precision=2):
        assert L.get_printoptions()["precision"] == 2
        assert "1.23]" in repr(L.array([1.23456]))
    assert L.get_printoptions() == J.get_printoptions()
    both("fromiter", iter([1, 2]), float)
    both("frombuffer", b"\x01\x02\x03\x04", dtype=np.uint8)
    raw = np.arange(3, dtype=np.float32).tobytes()
    both("frombuffer", raw, dtype=np.float32, count=2, offset=4)
    both("fromstring", "1 2 3", sep=" ")
    both("fromstring", "1,2", dtype=int, sep=",")


def test_type_names():
    assert L.bool is L.bool_
    assert repr(L.bool).endswith(".numpy.bool'>")  # named bool, as JAX's
    assert np.dtype(L.bool) == np.dtype(J.bool)
    check(lambda: L.bool(1), lambda: J.bool(1))
    assert L.array([True, False]).dtype == L.bool
    for name in ["object_", "character", "flexible"]:
        assert getattr(L, name) is getattr(J, name)
    for name in ["float6_e2m3fn", "float6_e3m2fn", "int1", "uint1"]:
        # (XLA:CPU cannot hold these types, so only the dtypes are compared.)
        assert np.dtype(getattr(L, name)) == np.dtype(getattr(J, name))


X = np.array([[1.0, 2, 3], [4, 5, -np.inf]], np.float32)
WIDE = np.array([-1000.0, 0.0, 3.0, -2000.0], np.float32)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumlogsumexp(axis, reverse):
    both("cumlogsumexp", X, axis=axis, reverse=reverse, mod=(LL, JL))


def test_cumlogsumexp_scales_and_transformations():
    both("cumlogsumexp", WIDE, mod=(LL, JL))  # prefixes far below the maximum stay exact
    check(
        lambda: jaxlite.grad(lambda x: LL.cumlogsumexp(x, 1).sum())(X),
        lambda: jax.grad(lambda x: JL.cumlogsumexp(x, 1).sum())(X),
    )
    check(lambda: jaxlite.vmap(LL.cumlogsumexp)(X), lambda: jax.vmap(JL.cumlogsumexp)(X))
    check(
        lambda: jaxlite.jit(lambda r: LL.cumlogsumexp(r, reverse=True))(WIDE),
        lambda: jax.jit(lambda r: JL.cumlogsumexp(r, reverse=True))(WIDE),
    )


def test_optimization_barrier():
    tree = (1.0, np.arange(3))
    check(lambda: LL.optimization_barrier(tree), lambda: JL.optimization_barrier(tree))
    check(
        lambda: jaxlite.grad(lambda x: LL.optimization_barrier(x) * 2)(1.0),
        lambda: jax.grad(lambda x: JL.optimization_barrier(x) * 2)(1.0),
    )
    check(
        lambda: jaxlite.jit(LL.optimization_barrier)([np.ones(2), 3]),
        lambda: jax.jit(JL.optimization_barrier)([np.ones(2), 3]),
    )
    check(
        lambda: jaxlite.vmap(LL.optimization_barrier)(np.arange(3.0)),
        lambda: jax.vmap(JL.optimization_barrier)(np.arange(3.0)),
    )


@pytest.mark.parametrize(
    "operands,axis",
    [
        ([np.ones(2), np.zeros(2)], 1),
        ([np.ones((2, 3)), np.zeros((2, 3))], -1),
        ([1.0, 2], 0),
        ([np.float32(1), 2], 0),
        ([np.ones(2), np.ones(3)], 0),
        ([np.ones(2, np.float32), np.ones(2, np.int32)], 0),
    ],
)
def test_lax_stack(operands, axis):
    both("stack", operands, axis, mod=(LL, JL))


def test_lax_unstack_split():
    m = np.arange(6).reshape(2, 3)
    both("unstack", m, 1, mod=(LL, JL))
    both("unstack", m, mod=(LL, JL))
    both("split", np.arange(6), (2, 4), mod=(LL, JL))
    both("split", np.arange(12).reshape(3, 4), (1, 0, 3), axis=1, mod=(LL, JL))
    both("split", np.arange(6), (2, 3), mod=(LL, JL))
    both("split", np.arange(6), (7, -1), mod=(LL, JL))
    check(
        lambda: jaxlite.grad(lambda x: (LL.split(x, (1, 2))[1] ** 2).sum())(np.arange(3.0)),
        lambda: jax.grad(lambda x: (JL.split(x, (1, 2))[1] ** 2).sum())(np.arange(3.0)),
    )
    a, b = np.ones((3, 2)), np.zeros((3, 2))
    check(
        lambda: jaxlite.vmap(lambda u, v: LL.stack([u, v], 0))(a, b),
        lambda: jax.vmap(lambda u, v: JL.stack([u, v], 0))(a, b),
    )
