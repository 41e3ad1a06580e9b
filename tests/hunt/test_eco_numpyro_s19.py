"""Session 19: NumPyro 0.22.0 (its README quick start and its own test suite) run with
jaxlite installed as ``jax``; each jaxlite-only failure reduced here to plain jax/jnp.
Expected values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``from jax.experimental.sparse import BCOO`` (numpyro's ``distributions.continuous``
  imports it at module level, for the ``CAR`` distribution's sparse adjacency matrix):
  jaxlite had no ``jax.experimental.sparse``, so ``import numpyro`` failed. jaxlite now has
  ``BCOO`` without batch or dense dimensions: ``fromdense``, ``from_scipy_sparse``,
  ``todense``, products with dense arrays on either side of ``@``, scalar and dense
  elementwise products, ``.T``, ``sum`` (docs/compat.md says what is missing).
* ``jax.extend.core.primitives.call_p`` / ``closed_call_p`` (numpyro's provenance tracking
  keys jaxpr-walking rules on them; its tests bind them with a ``WrappedFun``): missing
  (ImportError on ``import numpyro``). jaxlite emits neither (nested calls are ``jit``
  equations, as in JAX's jaxprs); binding one calls the function (same values as JAX,
  under every transformation).
* ``jax._src.core.trace_state_clean`` (numpyro asks it before caching a closure in
  ``MCMC.run``): missing. True exactly outside every transformation.
* ``lax.cond(pred, true_operand, true_fun, false_operand, false_fun)``, JAX's older
  per-branch form that numpyro's NUTS tree building still uses: jaxlite raised
  ``TypeError: lax.cond: true_fun and false_fun arguments should be callable``; JAX
  accepts it (each branch gets its own operand).
* Registering a subclass of a namedtuple as a pytree (numpyro's ``_MinimizeState``):
  jaxlite let optree's ``UserWarning`` ("... is already registered in the global
  namespace") through; JAX registers it silently, and numpyro's suite turns warnings into
  errors, so every test failed at import.
* ``jax.scipy.linalg.solve_triangular(a, b)`` with batch dimensions that differ between
  ``a`` and ``b`` (numpyro's ``LowerCholeskyAffine.inv`` solves one ``(n, n)`` factor
  against ``y[..., None]`` of shape ``(batch, n, 1)``): jaxlite required equal ranks
  (``TypeError``); JAX broadcasts the batch dimensions (``jnp.vectorize`` with signature
  ``(n,n),(n,k)->(n,k)``), as do ``cho_solve`` and ``lu_solve``. The same rule fixed two
  wrong answers: jaxlite took any ``b`` with one dimension fewer than ``a`` for a batch of
  vectors (JAX only when the last axes match, else a matrix right-hand side: a ``(3, 2,
  2)`` factor with ``b`` of shape ``(1, 2)`` hit an internal error), and ``lu_solve``
  with a ``(2, 2)`` factor and ``b`` of shape ``(5, 2)`` returned a ``(2, 2)`` result
  (it permuted ``b``'s first two rows; JAX raises ``ValueError``, ``n`` is 5 vs 2).
  ``lu_solve`` of batched factors, refused before, now broadcasts too. The primitive
  ``lax.linalg.triangular_solve`` refuses different batch shapes (``ValueError``, as JAX)
  instead of letting its kernel broadcast them.
* ``triangular_solve`` of a lower-triangular matrix whose below-diagonal entry outweighs
  the pivot above it (numpyro's ``InverseWishartCholesky.sample`` inverts a Bartlett
  factor so): jaxlite's kernel called ``np.linalg.solve``, whose row pivoting left
  rounding noise (2.7e-17) above the diagonal of the inverse, so the sample failed
  numpyro's ``lower_cholesky`` support check. JAX substitutes (trsm): exact zeros. The
  kernel now substitutes, or calls LAPACK's triangular solve for large systems.
"""

import collections
import importlib
import warnings

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

from .oracle import same

lax = jax.lax


def _sparse():
    return importlib.import_module(jax.__name__ + ".experimental.sparse")


def _core_compat():
    name = "jax._src.core" if jax.__name__ == "jax" else "jaxlite._jax_compat.core"
    return importlib.import_module(name)


# ------------------------------------------------------------------ old-style cond
@pytest.mark.parametrize("pred", [True, False], ids=["true", "false"])
def test_cond_per_branch_operands(pred):
    def build(m):
        return m.lax.cond(pred, m.jnp.float32(2.0), lambda x: x + 1,
                          m.jnp.arange(3.0), lambda x: m.jnp.sum(x) * 3)

    out = same(build)
    assert float(out) == (3.0 if pred else 9.0)


def test_cond_per_branch_operands_traced_and_differentiated():
    def f(p, a, b):
        return lax.cond(p > 0, a, lambda x: x * x, b, lambda y: jnp.sin(y))

    assert float(jax.jit(f)(1.0, 3.0, 0.5)) == 9.0
    np.testing.assert_allclose(float(jax.jit(f)(-1.0, 3.0, 0.5)), np.sin(0.5), rtol=1e-6)
    ga, gb = jax.grad(f, argnums=(1, 2))(1.0, 3.0, 0.5)
    assert (float(ga), float(gb)) == (6.0, 0.0)
    ga, gb = jax.grad(f, argnums=(1, 2))(-1.0, 3.0, 0.5)
    assert float(ga) == 0.0
    np.testing.assert_allclose(float(gb), np.cos(0.5), rtol=1e-6)
    out = jax.vmap(f)(jnp.array([1.0, -1.0]), jnp.array([2.0, 2.0]), jnp.array([0.0, 0.0]))
    np.testing.assert_array_equal(np.asarray(out), [4.0, 0.0])


def test_cond_per_branch_operands_pytrees():
    out = lax.cond(False, {"a": 1.0}, lambda d: d["a"] * 2,
                   (jnp.ones(2), 3.0), lambda t: jnp.sum(t[0]) + t[1])
    assert float(out) == 5.0


@pytest.mark.parametrize(
    "args",
    [
        (1.0, lambda x: x, 2.0),  # too few operands for the old form
        (1.0, lambda x: x, 2.0, 3.0),  # last operand not callable
        (1.0, 2.0, 3.0, lambda x: x),  # false_fun not callable
    ],
    ids=["three", "four_noncallable", "second_noncallable"],
)
def test_cond_noncallable_branches_still_refused(args):
    with pytest.raises(TypeError, match="true_fun and false_fun arguments should be callable"):
        lax.cond(True, *args)


# ------------------------------------------------------------------ trace_state_clean
def test_trace_state_clean_outside_and_inside_transformations():
    clean = _core_compat().trace_state_clean
    assert clean() is True
    seen = []

    def fresh():  # a new function each time: JAX reuses a traced function's jaxpr
        def f(x):
            seen.append(clean())
            return x * 2

        return f

    jax.jit(fresh())(1.0)
    jax.vmap(fresh())(jnp.ones(2))
    jax.grad(fresh())(1.0)
    jax.make_jaxpr(fresh())(1.0)
    assert seen == [False, False, False, False]
    assert clean() is True


# ------------------------------------------------------------------ call primitives
def test_call_primitives_exist_and_are_not_emitted():
    prims = importlib.import_module(jax.__name__ + ".extend.core").primitives
    assert prims.call_p.name == "call"
    assert prims.closed_call_p.name == "closed_call"
    assert prims.call_p.call_primitive and prims.closed_call_p.call_primitive
    assert not prims.jit_p.call_primitive

    def f(x, y):
        return jax.jit(lambda a: a * y)(x) + 1.0

    jaxpr = jax.make_jaxpr(f)(1.0, 2.0).jaxpr
    used = [e.primitive for e in jaxpr.eqns]
    assert prims.jit_p in used
    assert prims.call_p not in used and prims.closed_call_p not in used
    inner = next(e for e in jaxpr.eqns if e.primitive is prims.jit_p)
    assert "jaxpr" in inner.params and hasattr(inner.params["jaxpr"], "jaxpr")


def _bind_call(m, prim_name, form):
    prims = importlib.import_module(m.jx.__name__ + ".extend.core").primitives
    lu = importlib.import_module(m.jx.__name__ + ".extend.linear_util")
    api_util = importlib.import_module(m.jx.__name__ + ".api_util")
    prim = getattr(prims, prim_name)

    def body(a, b):
        return m.jnp.sin(a) * b, a + 1.0

    def f(x, y):
        args, in_tree = m.jx.tree_util.tree_flatten((x, y))
        info = api_util.debug_info("body", body, (x, y), {})
        fn, out_tree = api_util.flatten_fun_nokwargs(lu.wrap_init(body, debug_info=info),
                                                     in_tree)
        out = prim.bind(*args, subfuns=(fn,)) if form == "subfuns" else prim.bind(fn, *args)
        return m.jx.tree_util.tree_unflatten(out_tree(), out)

    return f


@pytest.mark.parametrize("prim_name", ["call_p", "closed_call_p"])
@pytest.mark.parametrize("form", ["subfuns", "positional"])
@pytest.mark.parametrize("mode", ["eager", "jit", "grad", "vmap"])
def test_call_primitive_bind_calls_the_function(prim_name, form, mode):
    def build(m):
        f = _bind_call(m, prim_name, form)
        x, y = m.jnp.float32(0.5), m.jnp.float32(3.0)
        if mode == "eager":
            return f(x, y)
        if mode == "jit":
            return m.jx.jit(f)(x, y)
        if mode == "grad":
            return m.jx.grad(lambda a, b: f(a, b)[0], argnums=(0, 1))(x, y)
        return m.jx.vmap(f)(m.jnp.arange(3.0), m.jnp.ones(3))

    out = same(build)
    if form == "positional":  # JAX 0.10.2 takes the function only through subfuns=
        assert isinstance(out, TypeError), out
    elif mode == "eager":
        np.testing.assert_allclose(float(out[0]), 3 * np.sin(0.5), rtol=1e-6)


# ------------------------------------------------------------------ namedtuple subclass
def test_register_namedtuple_subclass_is_silent():
    class State(collections.namedtuple("State", ["a", "b"])):
        pass

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jax.tree_util.register_pytree_node(
            State, lambda s: ((s.a,), s.b), lambda b, c: State(c[0], b))
    leaves, tree = jax.tree_util.tree_flatten(State(1.0, "aux"))
    assert leaves == [1.0]
    assert jax.tree_util.tree_unflatten(tree, [5.0]) == State(5.0, "aux")


# ------------------------------------------------------------------ BCOO
_A = np.array([[0.0, 1.0, 0.0], [1.0, 0.0, 2.5], [0.0, 1.0, 0.0]], np.float32)


def _scipy_bcoo(m):
    sps = pytest.importorskip("scipy.sparse")
    return importlib.import_module(m.jx.__name__ + ".experimental.sparse").BCOO \
        .from_scipy_sparse(sps.csr_matrix(_A))


def _fromdense(m, **kw):
    return importlib.import_module(m.jx.__name__ + ".experimental.sparse").BCOO \
        .fromdense(_A, **kw)


def test_bcoo_from_scipy_sparse_layout():
    b = same(lambda m: (lambda s: (s.data, s.indices))(_scipy_bcoo(m)))
    data, indices = b
    assert indices.dtype == np.int32 and data.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(indices), [[0, 1], [1, 0], [1, 2], [2, 1]])
    s = _scipy_bcoo(type("M", (), {"jx": jax})())
    assert s.nse == 4 and s.shape == (3, 3) and s.ndim == 2
    assert repr(s) == "BCOO(float32[3, 3], nse=4)"


@pytest.mark.parametrize("nse", [None, 4, 6, 2], ids=["auto", "exact", "padded", "short"])
def test_bcoo_fromdense_todense(nse):
    out = same(lambda m: (lambda s: (s.data, s.indices, s.todense()))(_fromdense(m, nse=nse)))
    if nse in (None, 4, 6):
        np.testing.assert_array_equal(np.asarray(out[2]), _A)


def test_bcoo_fromdense_needs_nse_under_jit():
    sparse = _sparse()
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda a: sparse.BCOO.fromdense(a).todense())(_A)
    out = jax.jit(lambda a: sparse.BCOO.fromdense(a, nse=5).todense())(_A)
    np.testing.assert_array_equal(np.asarray(out), _A)


_DENSE = {
    "vec": lambda m: m.jnp.arange(3.0),
    "mat": lambda m: m.jnp.arange(6.0).reshape(3, 2),
    "batched": lambda m: m.jnp.arange(6.0).reshape(2, 3, 1),
}


@pytest.mark.parametrize("make", ["scipy", "fromdense_padded"])
@pytest.mark.parametrize("dense", sorted(_DENSE))
@pytest.mark.parametrize("side", ["left", "right"])
def test_bcoo_matmul_dense(make, dense, side):
    def build(m):
        s = _scipy_bcoo(m) if make == "scipy" else _fromdense(m, nse=6)
        d = _DENSE[dense](m)
        if side == "left":
            return s @ d
        return (jnp_swap(m, d) @ s) if d.ndim > 1 else d @ s

    def jnp_swap(m, d):
        return m.jnp.swapaxes(d, -1, -2)

    out = same(build)
    d = _DENSE[dense](type("M", (), {"jnp": np})())
    want = _A @ d if side == "left" else (np.swapaxes(d, -1, -2) @ _A if d.ndim > 1 else d @ _A)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6)


def test_bcoo_vector_products():
    def build(m):
        sparse = importlib.import_module(m.jx.__name__ + ".experimental.sparse")
        v = sparse.BCOO.fromdense(m.jnp.array([0.0, 2.0, 0.0, 3.0]))
        return (v @ m.jnp.arange(4.0), m.jnp.arange(8.0).reshape(2, 4) @ v,
                v @ m.jnp.arange(8.0).reshape(4, 2))

    out = same(build)
    assert float(out[0]) == 11.0


def test_bcoo_elementwise_and_structure():
    def build(m):
        s = _scipy_bcoo(m)
        return ((s * 2).todense(), (-s).todense(), s.T.todense(), s.sum(), s.sum(0).todense(),
                s.sum(-1).indices, (s * m.jnp.arange(3.0)).todense(),
                (s * m.jnp.arange(9.0).reshape(3, 3)).data, (s / 2).data)

    same(build)


def test_bcoo_is_a_pytree_under_transformations():
    def build(m):
        s = _scipy_bcoo(m)
        sparse = importlib.import_module(m.jx.__name__ + ".experimental.sparse")
        leaves = m.jx.tree_util.tree_leaves(s)
        jitted = m.jx.jit(lambda b, x: b @ x)(s, m.jnp.ones(3))
        mapped = m.jx.vmap(lambda x: s @ x)(m.jnp.arange(6.0).reshape(2, 3))
        gx = m.jx.grad(lambda x: (s @ x).sum())(m.jnp.ones(3))
        gd = m.jx.grad(lambda d: (sparse.BCOO((d, s.indices), shape=s.shape)
                                  @ m.jnp.arange(3.0)).sum())(s.data)
        return leaves, jitted, mapped, gx, gd

    out = same(build)
    np.testing.assert_array_equal(np.asarray(out[3]), _A.sum(0))


def test_bcoo_matmul_shape_mismatch_is_an_error():
    def build(m):
        return _scipy_bcoo(m) @ m.jnp.ones(4)

    with pytest.raises(TypeError):
        build(type("M", (), {"jx": jax, "jnp": jnp})())
    same(build)


# ------------------------------------------------------------------ batched solves
def _tri(m):
    return m.jnp.array([[0.6, 0.0], [1.5, 0.4]])


def _spd(m):
    a = _tri(m)
    return a @ a.T + m.jnp.eye(2)


def _stack3(m, x):
    return m.jnp.stack([x, 2 * x, 3 * x])


def _chol(m, x):
    return m.jnp.linalg.cholesky(x)


_SOLVES = {
    "st_a_b521": lambda m: m.jx.scipy.linalg.solve_triangular(
        _tri(m), m.jnp.arange(10.0).reshape(5, 2, 1), lower=True),
    "st_trans_a_b521": lambda m: m.jx.scipy.linalg.solve_triangular(
        _tri(m), m.jnp.arange(10.0).reshape(5, 2, 1), lower=True, trans=1),
    "st_upper_conj_a_b521": lambda m: m.jx.scipy.linalg.solve_triangular(
        _tri(m).T, m.jnp.arange(10.0).reshape(5, 2, 1), lower=False, trans="C"),
    "st_a322_b2": lambda m: m.jx.scipy.linalg.solve_triangular(
        _stack3(m, _tri(m)), m.jnp.arange(1.0, 3.0), lower=True),
    "st_a322_b5121": lambda m: m.jx.scipy.linalg.solve_triangular(
        _stack3(m, _tri(m)), m.jnp.arange(10.0).reshape(5, 1, 2, 1), lower=True),
    "st_a322_b12_vectors": lambda m: m.jx.scipy.linalg.solve_triangular(
        _stack3(m, _tri(m)), m.jnp.arange(2.0).reshape(1, 2), lower=True),
    "st_a322_b21_matrix": lambda m: m.jx.scipy.linalg.solve_triangular(
        _stack3(m, _tri(m)), m.jnp.arange(2.0).reshape(2, 1), lower=True),
    "st_a_b32_mismatch": lambda m: m.jx.scipy.linalg.solve_triangular(
        _tri(m), m.jnp.ones((3, 2)), lower=True),
    "st_a322_b221_mismatch": lambda m: m.jx.scipy.linalg.solve_triangular(
        _stack3(m, _tri(m)), m.jnp.ones((2, 2, 1)), lower=True),
    "cho_a_b521": lambda m: m.jx.scipy.linalg.cho_solve(
        (_chol(m, _spd(m)), True), m.jnp.arange(10.0).reshape(5, 2, 1)),
    "cho_upper_a_b521": lambda m: m.jx.scipy.linalg.cho_solve(
        (_chol(m, _spd(m)).T, False), m.jnp.arange(10.0).reshape(5, 2, 1)),
    "cho_a322_b2": lambda m: m.jx.scipy.linalg.cho_solve(
        (_chol(m, _stack3(m, _spd(m))), True), m.jnp.arange(1.0, 3.0)),
    "cho_a322_b121": lambda m: m.jx.scipy.linalg.cho_solve(
        (_chol(m, _stack3(m, _spd(m))), True), m.jnp.ones((1, 2, 1))),
    "lu_a_b521": lambda m: m.jx.scipy.linalg.lu_solve(
        m.jx.scipy.linalg.lu_factor(_spd(m)), m.jnp.arange(10.0).reshape(5, 2, 1)),
    "lu_trans_a_b521": lambda m: m.jx.scipy.linalg.lu_solve(
        m.jx.scipy.linalg.lu_factor(_spd(m) + m.jnp.array([[0.0, 1.0], [0.0, 0.0]])),
        m.jnp.arange(10.0).reshape(5, 2, 1), trans=1),
    "lu_a_b52_mismatch": lambda m: m.jx.scipy.linalg.lu_solve(
        m.jx.scipy.linalg.lu_factor(_spd(m)), m.jnp.arange(10.0).reshape(5, 2)),
    "lu_a322_b2": lambda m: m.jx.scipy.linalg.lu_solve(
        m.jx.scipy.linalg.lu_factor(_stack3(m, _spd(m))), m.jnp.arange(1.0, 3.0)),
    "lu_a322_b121": lambda m: m.jx.scipy.linalg.lu_solve(
        m.jx.scipy.linalg.lu_factor(_stack3(m, _spd(m))), m.jnp.ones((1, 2, 1))),
    "lax_ts_batch_mismatch": lambda m: m.lax.linalg.triangular_solve(
        _stack3(m, _tri(m)), m.jnp.ones((1, 2, 1)), left_side=True, lower=True),
    "grad_st_a_b521": lambda m: m.jx.grad(lambda a: m.jx.scipy.linalg.solve_triangular(
        a, m.jnp.arange(10.0).reshape(5, 2, 1), lower=True).sum())(_tri(m)),
    "vmap_st_a322": lambda m: m.jx.vmap(lambda b: m.jx.scipy.linalg.solve_triangular(
        _stack3(m, _tri(m)), b, lower=True))(m.jnp.ones((4, 2, 1))),
    "jit_st_a_b521": lambda m: m.jx.jit(lambda b: m.jx.scipy.linalg.solve_triangular(
        _tri(m), b, lower=True))(m.jnp.arange(10.0).reshape(5, 2, 1)),
}


@pytest.mark.filterwarnings("ignore:jax.scipy.linalg.solve_triangular:FutureWarning")
@pytest.mark.parametrize("name", sorted(_SOLVES))
def test_solves_broadcast_batch_dimensions(name):
    importlib.import_module(jax.__name__ + ".scipy.linalg")
    out = same(_SOLVES[name], rtol=2e-5, signs=False)
    if name.endswith("mismatch"):
        assert isinstance(out, ValueError), out


def test_solve_triangular_matches_per_element_solves():
    importlib.import_module(jax.__name__ + ".scipy.linalg")
    a = np.array([[0.6, 0.0], [1.5, 0.4]], np.float32)
    b = np.arange(10.0, dtype=np.float32).reshape(5, 2, 1)
    out = np.asarray(jax.scipy.linalg.solve_triangular(a, b, lower=True))
    want = np.stack([np.linalg.solve(a, b[i]) for i in range(5)])
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn", ["solve_triangular", "cho_solve", "lu_solve"])
def test_batched_vector_rhs_warns_as_jax(fn):
    sl = importlib.import_module(jax.__name__ + ".scipy.linalg")
    a = jnp.stack([jnp.eye(2) * 2.0] * 3)
    b = jnp.ones((3, 2))
    args = {"solve_triangular": lambda: sl.solve_triangular(a, b, lower=True),
            "cho_solve": lambda: sl.cho_solve((a, True), b),
            "lu_solve": lambda: sl.lu_solve(sl.lu_factor(a), b)}
    with pytest.warns(FutureWarning, match=f"jax.scipy.linalg.{fn}: batched 1D solves"):
        out = args[fn]()
    assert out.shape == (3, 2)


# ------------------------------------------------------------------ triangular inverse
@pytest.mark.parametrize("n", [2, 5, 40], ids=["n2", "n5", "n40"])
@pytest.mark.parametrize("lower", [True, False], ids=["lower", "upper"])
def test_triangular_inverse_is_exactly_triangular(n, lower):
    rng = np.random.RandomState(n)
    a = rng.randn(n, n).astype(np.float32) * 3 + np.diag(rng.rand(n).astype(np.float32))
    a = np.tril(a) if lower else np.triu(a)  # off-diagonal entries outweigh the pivots

    def build(m):
        sl = importlib.import_module(m.jx.__name__ + ".scipy.linalg")
        eye = m.jnp.broadcast_to(m.jnp.eye(n), (3, n, n))
        return sl.solve_triangular(m.jnp.stack([a, a, a]), eye, lower=lower)

    out = np.asarray(same(build, rtol=1e-3, atol=1e-3, signs=False))
    off = np.triu(out, 1) if lower else np.tril(out, -1)
    np.testing.assert_array_equal(off, 0.0)
