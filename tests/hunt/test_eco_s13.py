"""Session 13's ecosystem hunt: optax, flax.linen, equinox, diffrax, lineax, optimistix,
distrax, chex and jax-tqdm programs run on jaxlite-as-jax and on JAX, compared; each
difference reduced here to plain jax/jnp. Expected values are JAX 0.10.2's (the file passes
in oracle mode, ``JAXLITE_ORACLE=jax``); bit-level comparisons import JAX itself.

* ``jnp.shape``/``ndim``/``size`` of a ``ShapeDtypeStruct`` or any object with ``shape``
  (flax's ``Module.tabulate`` renders parameter shapes with them): jaxlite raised
  TypeError, so the table printed ``ShapeDtypeStruct(...)`` reprs. ``size(axis=)`` takes a
  tuple.
* ``jax.random.orthogonal(key, n, m=m)`` with ``n < m`` (so ``nn.initializers.orthogonal``
  of a wide kernel, flax/equinox): jaxlite returned an (n, n) matrix, then reshape failed.
* float16/bfloat16 ``a*b + c`` where JAX's bits depend on XLA's arithmetic
  (``jax.random.uniform`` with bounds, ``truncated_normal`` and so every 16-bit
  ``variance_scaling`` initializer, ``jnp.quantile``): XLA rounds the product and the sum
  separately in 16 bits; jaxlite fused them (one rounding).
* ``custom_jvp`` rules whose primal output has None holes (equinox's checkpointed while
  loop records symbolic zeros so): jaxlite counted a None tangent as a leaf.
* ``custom_vjp`` residuals that are Python bools/numbers or NumPy arrays reach ``bwd``
  unconverted (equinox ``filter_custom_vjp`` passes its ``perturbed`` flags so and tests
  ``is False``), and ``bwd`` outputs are prefixes of the input structure (None for a whole
  subtree, None holes of the input matched).
* The jaxpr surface libraries walk (distrax's Lambda bijector inverts ``make_jaxpr(f)``):
  ``Primitive.call_primitive``, ``ClosedJaxpr.literals``/``invars``/``replace``,
  ``Jaxpr.replace`` and ``jax.extend.core.primitives`` were missing (AttributeError).
"""

import importlib
import warnings

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from tests.conftest import ORACLE


# ------------------------------------------------------------------ shape/ndim/size
class _Duck:
    shape = (2, 5)
    ndim = 2
    dtype = np.dtype("int16")


@pytest.mark.parametrize(
    "obj", [jax.ShapeDtypeStruct((3, 4), jnp.float32), _Duck()], ids=["struct", "duck"]
)
def test_shape_ndim_of_objects_with_shape(obj):
    assert jnp.shape(obj) == obj.shape
    assert jnp.ndim(obj) == len(obj.shape)
    assert jnp.result_type(obj) == obj.dtype


def test_size_of_shape_dtype_struct_warns_and_answers():
    s = jax.ShapeDtypeStruct((3, 4), jnp.float32)
    with pytest.warns(DeprecationWarning, match="size requires ndarray or scalar arguments"):
        assert jnp.size(s) == 12


@pytest.mark.parametrize("fn", ["shape", "ndim", "size"])
@pytest.mark.parametrize("value", [[1, 2], (1,), None], ids=["list", "tuple", "none"])
def test_shape_ndim_size_of_non_arrays_warn_with_numpy_answer(fn, value):
    with pytest.warns(DeprecationWarning, match=f"{fn} requires ndarray or scalar arguments"):
        got = getattr(jnp, fn)(value)
    assert got == getattr(np, fn)(value)


def test_shape_of_scalars_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert jnp.shape(3.5) == () and jnp.ndim(2) == 0 and jnp.size(1j) == 1
        assert jnp.shape(np.float32(1)) == () and jnp.shape(jnp.ones((2, 3))) == (2, 3)


def test_size_axis_tuple_and_errors():
    x = jnp.ones((2, 3, 4))
    assert jnp.size(x, axis=(0, 2)) == 8
    assert jnp.size(x, axis=-1) == 4
    assert jnp.size(x, axis=(1,)) == 3
    with pytest.raises(ValueError, match="repeated axis"):
        jnp.size(x, axis=(0, 0))
    with pytest.raises(ValueError):
        jnp.size(x, axis=3)


def test_size_under_jit_of_tracer():
    seen = []

    @jax.jit
    def f(x):
        seen.append((jnp.shape(x), jnp.ndim(x), jnp.size(x), jnp.size(x, axis=(0,))))
        return x

    f(jnp.ones((2, 3)))
    assert seen == [((2, 3), 2, 6, 2)]


# ----------------------------------------------------------------------- orthogonal
@pytest.mark.parametrize("n,m,batch", [(4, 6, ()), (6, 4, ()), (2, 5, (3,)), (1, 3, ())])
def test_random_orthogonal_rectangular(n, m, batch):
    q = jax.random.orthogonal(jax.random.PRNGKey(3), n, batch, jnp.float32, m)
    assert q.shape == (*batch, n, m)
    q = np.asarray(q, np.float64)
    k = min(n, m)
    gram = q @ np.swapaxes(q, -1, -2) if n <= m else np.swapaxes(q, -1, -2) @ q
    np.testing.assert_allclose(gram, np.broadcast_to(np.eye(k), gram.shape), atol=1e-5)


def test_orthogonal_initializer_wide_and_column_axis():
    k = jax.random.PRNGKey(3)
    w = jax.nn.initializers.orthogonal()(k, (4, 6))
    assert w.shape == (4, 6)
    np.testing.assert_allclose(np.asarray(w @ w.T), np.eye(4), atol=1e-5)
    # JAX 0.10.2's first values (the wide case transposes the tall factorisation).
    np.testing.assert_allclose(
        np.asarray(w).ravel()[:4], [-0.77097, -0.31327, -0.4282, -0.27815], atol=1e-4
    )
    w = jax.nn.initializers.orthogonal(column_axis=0)(k, (3, 2, 4))
    assert w.shape == (3, 2, 4)


def test_orthogonal_bits_match_jax():
    real = pytest.importorskip("jax")
    if ORACLE:
        pytest.skip("compares jaxlite with JAX")
    for n, m, batch, dt in [
        (4, 6, (), "float32"),
        (6, 4, (2,), "float32"),
        (2, 5, (), "complex64"),
    ]:
        ours = jax.random.orthogonal(jax.random.PRNGKey(5), n, batch, dt, m)
        want = real.random.orthogonal(real.random.PRNGKey(5), n, batch, dt, m)
        np.testing.assert_allclose(np.asarray(ours), np.asarray(want), rtol=2e-6, atol=2e-6)


# ------------------------------------------------------- 16-bit multiply-add rounding
def _bits_equal(ours, want):
    a, b = np.asarray(ours), np.asarray(want)
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint16), b.view(np.uint16))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_16bit_bounded_samplers_and_quantile_bits_match_jax(dtype):
    real = pytest.importorskip("jax")
    if ORACLE:
        pytest.skip("compares jaxlite with JAX")
    for lib_ours, lib_want in [(jax, real)]:  # noqa: B007
        k1, k2 = lib_ours.random.PRNGKey(1), lib_want.random.PRNGKey(1)
        _bits_equal(
            lib_ours.random.uniform(k1, (1000,), dtype, -0.3, 2.7),
            lib_want.random.uniform(k2, (1000,), dtype, -0.3, 2.7),
        )
        _bits_equal(
            lib_ours.random.truncated_normal(k1, -2.0, 2.0, (500,), dtype),
            lib_want.random.truncated_normal(k2, -2.0, 2.0, (500,), dtype),
        )
        _bits_equal(
            lib_ours.nn.initializers.glorot_normal(dtype=dtype)(k1, (16, 8)),
            lib_want.nn.initializers.glorot_normal(dtype=dtype)(k2, (16, 8)),
        )
        x = np.random.RandomState(0).randn(50, 37)
        q = [0.1, 0.33, 0.5, 0.77]
        _bits_equal(
            lib_ours.numpy.quantile(
                lib_ours.numpy.asarray(x, dtype), lib_ours.numpy.asarray(q, dtype), axis=0
            ),
            lib_want.numpy.quantile(
                lib_want.numpy.asarray(x, dtype), lib_want.numpy.asarray(q, dtype), axis=0
            ),
        )


def test_16bit_uniform_rounds_product_then_sum():
    # JAX 0.10.2: max(lo, round16(round16(u * span) + lo)); the fused form differs in
    # about half of the float16 elements. On hosts with AVX512-FP16, XLA:CPU keeps a
    # float16 product in float32 up to the add (one rounding; measured there), and so
    # does jaxlite (ops/xla_fma._HOST_FP16); bfloat16 rounds twice on every host.
    from jaxlite._src.ops import xla_fma

    lo, hi = -0.3, 2.7
    for dtype in [jnp.float16, jnp.bfloat16]:
        once = dtype == jnp.float16 and xla_fma._HOST_FP16
        k = jax.random.PRNGKey(7)
        u = np.asarray(jax.random.uniform(k, (2000,), dtype)).astype(np.float32)
        got = np.asarray(jax.random.uniform(k, (2000,), dtype, lo, hi))
        lo16, span = (
            np.asarray(lo, got.dtype),
            np.asarray(hi, got.dtype) - np.asarray(lo, got.dtype),
        )
        prod = u * np.float32(span)
        if not once:
            prod = prod.astype(got.dtype).astype(np.float32)
        want = np.maximum((prod + np.float32(lo16)).astype(got.dtype), lo16)
        np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))


# --------------------------------------------------------- custom_jvp with None holes
def test_custom_jvp_primal_output_with_none_holes():
    @jax.custom_jvp
    def rec(x):
        return (x * 2, None, {"z": x})

    @rec.defjvp
    def rec_jvp(p, t):
        return rec(p[0]), (t[0] * 2, None, {"z": t[0]})

    p, t = jax.jvp(rec, (1.0,), (3.0,))
    assert p[1] is None and t[1] is None
    np.testing.assert_allclose([p[0], p[2]["z"], t[0], t[2]["z"]], [2.0, 1.0, 6.0, 3.0])
    assert float(jax.grad(lambda x: rec(x)[0] + rec(x)[2]["z"])(1.0)) == 3.0


def test_custom_jvp_symbolic_zeros_tangent_tree_skips_none_holes():
    seen = []

    @jax.custom_jvp
    def rec(d):
        return d

    def rec_jvp(p, t):
        seen.append(
            jax.tree_util.tree_map(lambda x: type(x) is jax.custom_derivatives.SymbolicZero, t[0])
        )
        return p[0], t[0]

    rec.defjvp(rec_jvp, symbolic_zeros=True)

    def f(args):
        a, b, i = args
        return rec((a * 2, None, b, i + 1))

    jax.linearize(f, (jnp.ones(2), jnp.ones(3), 1))
    assert seen == [(False, None, False, True)]


def test_custom_jvp_none_tangent_for_a_leaf_is_a_structure_error():
    @jax.custom_jvp
    def f(x):
        return x * 2, x

    @f.defjvp
    def f_jvp(p, t):
        return f(p[0]), (t[0] * 2, None)

    with pytest.raises(TypeError, match="equal container"):
        jax.jvp(f, (1.0,), (1.0,))


# ------------------------------------------------------------ custom_vjp residuals, bwd
def test_custom_vjp_host_residuals_reach_bwd_unconverted():
    seen = []

    @jax.custom_vjp
    def f(x):
        return x * 2

    def fwd(x):
        return x * 2, (True, False, 3, 2.5, np.ones(2, np.float32), x)

    def bwd(res, g):
        t, fl, i, s, arr, x = res
        seen.append(
            (
                t is True,
                fl is False,
                isinstance(i, int),
                isinstance(s, float),
                isinstance(arr, np.ndarray),
            )
        )
        return (g * i * s * arr.sum(),)

    f.defvjp(fwd, bwd)
    for fn, x in [
        (jax.grad(f), 1.0),
        (jax.jit(jax.grad(f)), 1.0),
        (jax.vmap(jax.grad(f)), jnp.ones(3)),
    ]:
        np.testing.assert_allclose(np.asarray(fn(x)), 15.0)
    assert seen == [(True, True, True, True, True)] * 3


def test_custom_vjp_bwd_output_is_a_prefix_of_the_inputs():
    @jax.custom_vjp
    def f(d, y):
        return d["a"] * y + d["b"][0]

    def fwd(d, y):
        return f(d, y), y

    f.defvjp(fwd, lambda res, g: ({"a": g * res, "b": None}, None))
    d = {"a": jnp.array(2.0), "b": [jnp.array(1.0), jnp.array(3.0)]}
    g = jax.grad(f)(d, jnp.array(5.0))
    assert [float(v) for v in jax.tree_util.tree_leaves(g)] == [5.0, 0.0, 0.0]

    f.defvjp(fwd, lambda res, g: ({"a": g, "b": g}, g))  # a leaf for a whole subtree
    g = jax.grad(f, argnums=(0, 1))(d, jnp.array(5.0))
    assert [float(v) for v in jax.tree_util.tree_leaves(g)] == [1.0, 1.0, 1.0, 1.0]

    f.defvjp(fwd, lambda res, g: ({"a": g}, g))
    with pytest.raises(TypeError, match="same container"):
        jax.grad(f)(d, jnp.array(5.0))

    @jax.custom_vjp
    def h(t):
        return t[0] * 2

    h.defvjp(lambda t: (h(t), None), lambda res, g: ((g * 2, None),))
    g = jax.grad(h)((jnp.array(1.0), None))
    assert float(g[0]) == 2.0 and g[1] is None


# ---------------------------------------------- the jaxpr surface libraries walk (distrax)
def _extend_core():
    return importlib.import_module(("jax" if ORACLE else "jaxlite") + ".extend.core")


def test_primitive_class_flags():
    p = jax.lax.mul_p
    assert p.call_primitive is False and p.multiple_results is False
    for name in ["exp_p", "add_p", "tanh_p", "integer_pow_p", "reduce_sum_p"]:
        assert getattr(jax.lax, name).call_primitive is False


def test_closed_jaxpr_literals_and_var_lists():
    c = jnp.ones(2)
    closed = jax.make_jaxpr(lambda x: x * 2.0 + c)(jnp.zeros(2))
    assert closed.literals is closed.consts or list(closed.literals) == list(closed.consts)
    assert len(closed.literals) == 1
    np.testing.assert_array_equal(np.asarray(closed.literals[0]), np.ones(2))
    assert closed.invars == closed.jaxpr.invars and closed.outvars == closed.jaxpr.outvars
    assert closed.constvars == closed.jaxpr.constvars
    again = closed.replace(consts=[jnp.full(2, 3.0)])
    out = _extend_core().jaxpr_as_fun(again)(jnp.ones(2))
    np.testing.assert_array_equal(np.asarray(out[0]), [5.0, 5.0])
    j2 = closed.jaxpr.replace(eqns=closed.jaxpr.eqns)
    assert j2.invars == closed.jaxpr.invars and len(j2.eqns) == len(closed.jaxpr.eqns)


def test_extend_core_primitives_are_the_jaxpr_primitives():
    prims = _extend_core().primitives
    closed = jax.make_jaxpr(lambda x: jnp.exp(x) * 3.0 + jax.jit(jnp.sin)(x))(1.0)
    used = {e.primitive for e in closed.eqns}
    assert prims.exp_p in used and prims.mul_p in used and prims.jit_p in used
    assert prims.add_p is jax.lax.add_p
    assert prims.custom_jvp_call_p is not None and prims.custom_vjp_call_p is not None


# -------------------------------------------- names the libraries reach for (optimistix, flax)
def _public(name):
    return importlib.import_module(("jax" if ORACLE else "jaxlite") + "." + name)


def test_zero_from_primal():
    cd = _public("custom_derivatives")
    tree = (1.0, {"a": jnp.ones(2, jnp.int32), "b": jnp.ones((2, 3))})
    sym = cd.zero_from_primal(tree, symbolic_zeros=True)
    assert all(type(z) is cd.SymbolicZero for z in jax.tree_util.tree_leaves(sym))
    assert [z.aval.shape for z in jax.tree_util.tree_leaves(sym)] == [(), (2,), (2, 3)]
    assert jax.tree_util.tree_leaves(sym)[1].aval.dtype == jax.dtypes.float0
    dense = cd.zero_from_primal(tree)
    leaves = jax.tree_util.tree_leaves(dense)
    assert leaves[0].dtype == jnp.float32 and float(leaves[0]) == 0.0
    assert leaves[1].dtype == jax.dtypes.float0 and leaves[1].shape == (2,)
    assert np.all(np.asarray(leaves[2]) == 0) and leaves[2].shape == (2, 3)

    @jax.custom_jvp
    def f(x, r):
        return x * 2, r

    @f.defjvp
    def f_jvp(p, t):
        return f(*p), (t[0] * 2, cd.zero_from_primal(p[1], symbolic_zeros=True))

    _, t = jax.jvp(lambda x: f(x, {"r": jnp.ones(2)}), (1.0,), (1.0,))
    assert float(t[0]) == 2.0 and np.all(np.asarray(t[1]["r"]) == 0)


def test_core_get_opaque_trace_state_and_custom_gradient_home():
    core = _public("core")
    a, b = core.get_opaque_trace_state(convention="flax"), core.get_opaque_trace_state()
    assert a == b
    inside = []
    jax.jit(lambda x: inside.append(core.get_opaque_trace_state()) or x)(1.0)
    assert inside[0] != a
    assert _public("custom_derivatives").custom_gradient is jax.custom_gradient


# ------------------------------------------------------------- jnp.split index arrays
@pytest.mark.parametrize(
    "indices", [np.array([]), np.cumsum([2, 2])[:-1], [], jnp.zeros((0,))], ids=str
)
def test_split_index_arrays_lineax_builds(indices):
    # lineax splits a vector at np.cumsum(sizes)[:-1]: a float64 array, empty for one block
    x = jnp.arange(6.0)
    parts = jnp.split(x, indices)
    assert sum(p.shape[0] for p in parts) == 6
    np.testing.assert_array_equal(np.concatenate([np.asarray(p) for p in parts]), np.arange(6.0))


@pytest.mark.parametrize(
    "indices,message",
    [
        (np.array([2.0, 3.0]), "'numpy.float64' object cannot be interpreted as an integer"),
        (np.array([True]), "'numpy.bool' object cannot be interpreted as an integer"),
        (jnp.array([2.0]), "Only integer scalar arrays can be converted to a scalar index."),
    ],
    ids=["numpy-float", "numpy-bool", "jax-float"],
)
def test_split_non_integer_index_arrays_raise(indices, message):
    with pytest.raises(TypeError) as e:
        jnp.split(jnp.arange(6.0), indices)
    assert str(e.value) == message
