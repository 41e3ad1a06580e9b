"""The JAX API surface third-party libraries import (issue 14): each name does its job.

Values are compared with SciPy / NumPy references (and thus with JAX in oracle mode).
"""

import typing

import numpy as np
import pytest
import scipy.special as sps
import scipy.stats as sst

import jaxlite as jax
import jaxlite.numpy as jnp
import jaxlite.scipy.special as jsp_special
import jaxlite.scipy.stats as jstats
from jaxlite import lax
from jaxlite.experimental import checkify
from jaxlite.flatten_util import ravel_pytree

X = np.linspace(-3.0, 3.0, 7).astype(np.float32)


@pytest.mark.parametrize(
    "ours, ref, args",
    [
        (jstats.norm.logpdf, sst.norm.logpdf, (X, 0.5, 2.0)),
        (jstats.norm.cdf, sst.norm.cdf, (X, 0.5, 2.0)),
        (jstats.norm.logcdf, sst.norm.logcdf, (X * 5,)),
        (jstats.norm.ppf, sst.norm.ppf, (np.float32([0.1, 0.5, 0.9]),)),
        (jstats.uniform.logpdf, sst.uniform.logpdf, (X, -1.0, 2.0)),
        (jstats.laplace.logpdf, sst.laplace.logpdf, (X, 0.3, 1.5)),
        (jstats.logistic.cdf, sst.logistic.cdf, (X,)),
        (jstats.cauchy.logpdf, sst.cauchy.logpdf, (X,)),
        (jstats.t.logpdf, sst.t.logpdf, (X, 3.0)),
        (jstats.gamma.logpdf, sst.gamma.logpdf, (np.abs(X) + 0.1, 2.5)),
        (jstats.beta.logpdf, sst.beta.logpdf, (np.float32([0.1, 0.4, 0.8]), 2.0, 3.0)),
        (jstats.poisson.logpmf, sst.poisson.logpmf, (np.float32([0, 1, 4]), 2.0)),
        (jsp_special.betainc, sps.betainc, (2.0, 3.0, np.float32([0.1, 0.5, 0.9]))),
        (jsp_special.gammainc, sps.gammainc, (2.5, np.abs(X))),
        (jsp_special.i0, sps.i0, (X,)),
        (jsp_special.i0e, sps.i0e, (X,)),
        (jsp_special.i1e, sps.i1e, (X,)),
        (jsp_special.log_ndtr, sps.log_ndtr, (X * 10,)),
        (lax.igamma, sps.gammainc, (np.float32(2.0), np.float32(1.5))),
    ],
)
def test_stats_and_special_match_scipy(ours, ref, args):
    got = ours(*args)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ref(*[np.float64(a) for a in args]), rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(jax.jit(ours)(*args), got, rtol=1e-6)


def test_multivariate_normal_logpdf():
    cov = np.array([[2.0, 0.3], [0.3, 1.0]], np.float32)
    x = np.array([[0.1, -0.2], [1.0, 2.0]], np.float32)
    mean = np.array([0.5, -0.5], np.float32)
    ref = sst.multivariate_normal.logpdf(x, mean, cov)
    np.testing.assert_allclose(jstats.multivariate_normal.logpdf(x, mean, cov), ref, rtol=1e-5)


def test_special_function_derivatives():
    x = jnp.float32(0.7)
    h = 1e-3
    for f in [jsp_special.log_ndtr, jsp_special.i0e, jsp_special.i1e, jsp_special.i0]:
        fd = (f(np.float64(0.7 + h)) - f(np.float64(0.7 - h))) / (2 * h)
        np.testing.assert_allclose(jax.grad(f)(x), fd, rtol=1e-3)
    g = jax.grad(lambda v: jsp_special.betainc(2.0, 3.0, v))(jnp.float32(0.4))
    np.testing.assert_allclose(g, sst.beta.pdf(0.4, 2.0, 3.0), rtol=1e-5)
    g = jax.grad(lambda v: lax.igamma(jnp.float32(2.5), v))(jnp.float32(1.5))
    np.testing.assert_allclose(g, sst.gamma.pdf(1.5, 2.5), rtol=1e-5)
    np.testing.assert_allclose(jax.grad(jsp_special.i1e)(jnp.float32(0.0)), 0.5)


def test_ravel_pytree_round_trip_and_errors():
    tree = {"a": jnp.ones((2, 2)), "b": [jnp.arange(3), jnp.float32(2.0)]}
    flat, unravel = ravel_pytree(tree)
    assert flat.shape == (8,) and flat.dtype == np.float32
    back = unravel(flat)
    assert back["b"][0].dtype == np.int32
    np.testing.assert_array_equal(back["b"][0], [0, 1, 2])
    with pytest.raises(TypeError, match="unravel function given array of dtype"):
        unravel(flat.astype(jnp.int32))
    g = jax.grad(lambda f: jnp.sum(unravel(f)["a"] ** 2))(flat)
    np.testing.assert_allclose(g, [2, 2, 2, 2, 0, 0, 0, 0])
    empty, unravel_empty = ravel_pytree(())
    assert empty.shape == (0,) and empty.dtype == np.float32 and unravel_empty(empty) == ()


def _positive_log(x):
    checkify.check(x > 0, "x must be positive, got {}", x)
    return jnp.log(x)


def test_checkify_eager_jit_grad():
    err, out = checkify.checkify(_positive_log)(jnp.float32(-1.0))
    assert err.get() == "x must be positive, got -1.0 (`check` failed)"
    with pytest.raises(checkify.JaxRuntimeError, match="must be positive"):
        err.throw()
    err, out = jax.jit(checkify.checkify(_positive_log))(jnp.float32(2.0))
    assert err.get() is None
    np.testing.assert_allclose(out, np.log(2.0), rtol=1e-6)
    err, _ = jax.jit(checkify.checkify(_positive_log))(jnp.float32(-3.0))
    assert "got -3.0" in err.get()
    err, g = checkify.checkify(jax.grad(_positive_log))(jnp.float32(-2.0))
    assert "got -2.0" in err.get()
    with pytest.raises(checkify.JaxRuntimeError):
        _positive_log(jnp.float32(-1.0))
    with pytest.raises(ValueError, match="not functionalized"):
        jax.jit(_positive_log)(jnp.float32(1.0))
    with pytest.raises(TypeError, match="PyTrees of arrays"):
        checkify.check(True, "{}", 1.0)


def test_checkify_inside_scan():
    def body(c, x):
        checkify.check(x < 3, "too big: {}", x)
        return c + x, x

    f = checkify.checkify(lambda xs: lax.scan(body, jnp.float32(0), xs)[0])
    err, total = jax.jit(f)(jnp.arange(5.0))
    assert "too big: 3.0" in err.get()
    np.testing.assert_allclose(total, 10.0)
    assert checkify.checkify(f.__wrapped__ if hasattr(f, "__wrapped__") else f)


def test_tree_util_additions():
    @jax.tree_util.register_static
    class Static:
        def __init__(self, v):
            self.v = v

        def __hash__(self):
            return hash(self.v)

        def __eq__(self, other):
            return isinstance(other, Static) and other.v == self.v

    assert jax.tree_util.tree_leaves([1, Static(3)]) == [1]

    @jax.tree_util.register_pytree_with_keys_class
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def tree_flatten_with_keys(self):
            return (
                (jax.tree_util.GetAttrKey("a"), self.a),
                (jax.tree_util.GetAttrKey("b"), self.b),
            ), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_leaves_with_path(Pair(1, 2))]
    assert paths == [".a", ".b"]
    td = jax.tree_util.treedef_tuple([jax.tree_util.tree_structure([1, 2])] * 2)
    assert td == jax.tree_util.tree_structure(([1, 2], [3, 4]))
    assert typing.get_origin(jax.tree_util.KeyPath) is tuple


def test_strict_dtype_promotion():
    x32, i32 = jnp.ones(2, jnp.float32), jnp.ones(2, jnp.int32)
    with jax.numpy_dtype_promotion("strict"):
        assert (x32 + 1.0).dtype == np.float32  # Python scalars still adapt
        with pytest.raises(Exception, match="jax_numpy_dtype_promotion=strict"):
            x32 + i32
    assert (x32 + i32).dtype == np.float32


def test_lax_broadcast_shapes_and_named_scope():
    assert lax.broadcast_shapes((2, 1), (3,)) == (2, 3)

    @jax.named_call
    def f(x):
        return x * 2

    with jax.named_scope("outer"):
        np.testing.assert_allclose(jax.jit(f)(jnp.ones(2)), [2, 2])
    with pytest.raises(TypeError, match="must be a string"):
        with jax.named_scope(3):
            pass


def test_numpy_additions():
    assert jnp.polyval(jnp.array([1, 2, 3]), 2).dtype == np.int32
    np.testing.assert_allclose(jnp.polyval(jnp.array([1.0, 2.0, 3.0]), jnp.arange(3.0)), [3, 6, 11])
    np.testing.assert_allclose(
        jax.grad(lambda x: jnp.polyval(jnp.array([1.0, 2.0, 3.0]), x))(2.0), 6.0
    )
    b = jnp.block([[jnp.ones((2, 2)), jnp.zeros((2, 1))], [jnp.full((1, 3), 2.0)]])
    np.testing.assert_array_equal(
        b, np.block([[np.ones((2, 2)), np.zeros((2, 1))], [np.full((1, 3), 2.0)]])
    )
    for bad in ([[1, 2], 3], [], (1, 2)):
        with pytest.raises(ValueError):
            jnp.block(bad)
    assert jnp.double is jnp.float64 and jnp.single is jnp.float32
    x = jnp.array([1.5, -2.0], dtype=jnp.float8_e4m3fn)
    assert x.dtype == jnp.float8_e4m3fn
    np.testing.assert_array_equal(x.astype(jnp.float32), [1.5, -2.0])


def test_custom_gradient():
    @jax.custom_gradient
    def f(x):
        return jnp.sin(x), lambda g: g * 10.0 * jnp.cos(x)

    np.testing.assert_allclose(f(1.0), np.sin(1.0), rtol=1e-6)
    np.testing.assert_allclose(jax.grad(f)(1.0), 10 * np.cos(1.0), rtol=1e-6)
    np.testing.assert_allclose(jax.jit(jax.grad(f))(1.0), 10 * np.cos(1.0), rtol=1e-6)


def test_scipy_linalg_factor_solve():
    import scipy.linalg as sla

    import jaxlite.scipy.linalg as jla

    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 4)).astype(np.float32)
    spd = (a @ a.T + 4 * np.eye(4)).astype(np.float32)
    b = rng.normal(size=(4, 2)).astype(np.float32)
    for lower in (False, True):
        got = jla.cho_solve(jla.cho_factor(spd, lower=lower), b)
        np.testing.assert_allclose(
            got, sla.cho_solve(sla.cho_factor(spd, lower=lower), b), rtol=1e-4
        )
    lu_piv = jla.lu_factor(a)
    ref = sla.lu_factor(a)
    np.testing.assert_allclose(lu_piv[0], ref[0], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(lu_piv[1], ref[1])
    for trans in (0, 1, 2):
        np.testing.assert_allclose(
            jla.lu_solve(lu_piv, b, trans), sla.lu_solve(ref, b, trans), rtol=1e-4
        )
    tri = np.triu(a) + 4 * np.eye(4, dtype=np.float32)
    for trans in (0, "T"):
        np.testing.assert_allclose(
            jla.solve_triangular(tri, b[:, 0], trans=trans),
            sla.solve_triangular(tri, b[:, 0], trans=trans),
            rtol=1e-5,
        )
    p, l_, u = jla.lu(a)
    np.testing.assert_allclose(
        np.asarray(p) @ np.asarray(l_) @ np.asarray(u), a, rtol=1e-5, atol=1e-6
    )
    x = jax.jit(lambda m, v: jla.lu_solve(jla.lu_factor(m), v))(a, b)
    np.testing.assert_allclose(a @ np.asarray(x), b, rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="trans"):
        jla.solve_triangular(tri, b, trans=3)


@pytest.mark.jaxlite_only  # compares with real JAX directly
def test_scipy_cholesky_derivative_matches_jax():
    """jax.scipy.linalg.cholesky does not symmetrize its input (jnp.linalg.cholesky does):
    the derivatives of both match JAX's, for non-symmetric perturbations too."""
    real = pytest.importorskip("jax")
    import jax.scipy.linalg as real_sla

    import jaxlite.scipy.linalg as jla

    rng = np.random.default_rng(1)
    a = rng.normal(size=(3, 3)).astype(np.float32)
    spd = (a @ a.T + 3 * np.eye(3)).astype(np.float32)
    w = rng.normal(size=(3, 3)).astype(np.float32)
    for lower in (True, False):
        ours = jax.grad(lambda m: jnp.sum(jla.cholesky(m, lower=lower) * w))(spd)
        ref = real.grad(lambda m: real.numpy.sum(real_sla.cholesky(m, lower=lower) * w))(spd)
        np.testing.assert_allclose(ours, np.asarray(ref), rtol=1e-5, atol=1e-6)
    ours = jax.grad(lambda m: jnp.sum(jnp.linalg.cholesky(m) * w))(spd)
    ref = real.grad(lambda m: real.numpy.sum(real.numpy.linalg.cholesky(m) * w))(spd)
    np.testing.assert_allclose(ours, np.asarray(ref), rtol=1e-5, atol=1e-6)


def test_vmap_none_subtree_and_tree_reduce_initializer():
    out = jax.vmap(lambda t: t[1] * 2, in_axes=((None, 0),))((None, jnp.ones(3)))
    np.testing.assert_array_equal(out, [2, 2, 2])
    assert jax.tree_util.tree_reduce(lambda a, b: a + b, [1, 2], initializer=10) == 13
    assert jax.tree_util.tree_reduce(lambda a, b: a + b, [], initializer=0) == 0


def test_shape_dtype_structs_in_eval_shape_and_make_jaxpr():
    s = jax.ShapeDtypeStruct((2,), jnp.float32)
    out = jax.eval_shape(lambda x: {"a": x * 2, "b": s}, jnp.ones(3))
    assert out["a"].shape == (3,) and out["b"] == s
    jaxpr = jax.make_jaxpr(lambda x: x * 2)(s)
    assert jaxpr.in_avals[0].shape == (2,)
    assert not jnp.iscomplexobj(s) and jnp.isrealobj(s) and not jnp.iscomplexobj(None)


def test_ensure_compile_time_eval():
    seen = {}

    @jax.jit
    def f(x):
        with jax.ensure_compile_time_eval():
            table = jnp.sin(jnp.arange(3.0))
            seen["concrete"] = not isinstance(table, jax.core.Tracer)
            y = x + 1.0  # a traced operand is staged as usual
            seen["staged"] = isinstance(y, jax.core.Tracer)
        return y + table

    np.testing.assert_allclose(f(jnp.ones(3)), 2 + np.sin(np.arange(3.0)), rtol=1e-6)
    assert seen == {"concrete": True, "staged": True}


def test_more_array_methods():
    x = jnp.array([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
    np.testing.assert_array_equal(x.take(0, axis=1), [3, 0])
    np.testing.assert_array_equal(x.sort(), np.sort(np.asarray(x)))
    np.testing.assert_array_equal(x.argsort(axis=0), np.argsort(np.asarray(x), axis=0))
    np.testing.assert_array_equal(x.diagonal(), [3, 5])
    assert float(x.trace()) == 8.0 and float(x.ptp()) == 5.0
    np.testing.assert_array_equal(x.repeat(2, axis=0), np.repeat(np.asarray(x), 2, axis=0))
    np.testing.assert_array_equal(x.compress(jnp.array([True, False]), axis=0), [[3, 1, 2]])
    assert x.nbytes == 24
    np.testing.assert_array_equal(jax.grad(lambda v: v.take(1).sum())(x), [[0, 1, 0], [0, 0, 0]])
