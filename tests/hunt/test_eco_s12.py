"""Session 12's ecosystem hunt: optax, flax.linen, equinox and optimistix programs run on
jaxlite-as-jax and on JAX, compared; each difference reduced here to plain jax/jnp. Expected
values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax.typeof(x).sharding`` of an unplaced or traced value (flax's RNN carries, optax's
  ``add_noise``/``noisy_sgd`` pass it to ``jax.random.normal(out_sharding=)``): jaxlite's
  ``ShapedArray`` had no ``sharding`` (AttributeError).
* ``jnp.zeros_like``/``ones_like``/``full_like``/``empty_like`` of a ``ShapeDtypeStruct``
  or any object with ``shape`` and ``dtype`` (optax's ``sm3``, ``MultiSteps``, factored
  ``adafactor``): jaxlite raised TypeError ("not a valid JAX type").
* ``jnp.einsum(..., _dot_general=)`` (flax's attention ``einsum_dot_general``): TypeError.
* Key paths of nodes registered with keys (``register_pytree_with_keys``, every equinox
  Module): jaxlite wrapped the user's keys in ``SequenceKey``, so ``keystr`` gave
  ``[GetAttrKey(name='weight')]`` instead of ``.weight``.
* ``jax.linear_transpose(f, ShapeDtypeStruct(...))`` (lineax transposes function operators
  at their ``in_structure()``, so optimistix GaussNewton/Dogleg): TypeError.
* A ``custom_jvp`` function whose jvp rule calls it on the tangents (optimistix's
  ``asarray``, so every BFGS/NonlinearCG minimise): reverse mode raised "Transpose rule
  ... for 'custom_jvp_call' not implemented"; JAX inlines the function when it is
  partially evaluated with unknown inputs.
"""

import functools

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


# ----------------------------------------------------------------- typeof(x).sharding
def _replicated(s, ndim):
    assert isinstance(s, jax.sharding.NamedSharding)
    assert s.mesh == jax.sharding.AbstractMesh((), ())
    assert s.spec == jax.sharding.PartitionSpec(*[None] * ndim)


@pytest.mark.parametrize("shape", [(), (3,), (2, 4)])
def test_typeof_sharding_of_traced_and_concrete(shape):
    seen = []

    @jax.jit
    def f(x):
        s = jax.typeof(x).sharding
        seen.append(s)
        return x + jax.random.normal(jax.random.PRNGKey(0), x.shape, out_sharding=s)

    x = jnp.ones(shape)
    out = f(x)
    _replicated(seen[0], len(shape))
    _replicated(jax.typeof(x).sharding, len(shape))
    ref = 1 + jax.random.normal(jax.random.PRNGKey(0), shape)
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-6)


def test_typeof_sharding_under_grad_and_vmap():
    seen = []

    def f(x):
        seen.append(jax.typeof(x).sharding)
        return jnp.sum(x * 2)

    jax.grad(f)(jnp.ones(3))
    jax.vmap(f)(jnp.ones((2, 5)))
    _replicated(seen[0], 1)
    _replicated(seen[1], 1)


# -------------------------------------------------------- *_like of shape/dtype objects
class _Duck:
    shape = (3,)
    dtype = np.dtype("float64")  # canonicalized to float32 with x64 off


@pytest.mark.parametrize(
    "like, dtype, shape",
    [
        (jax.ShapeDtypeStruct((2, 3), jnp.int16), "int16", (2, 3)),
        (jax.ShapeDtypeStruct((2,), jnp.float32, weak_type=True), "float32", (2,)),
        (_Duck(), "float32", (3,)),
    ],
)
@pytest.mark.parametrize(
    "fn, fill",
    [(jnp.zeros_like, 0), (jnp.ones_like, 1), (lambda a: jnp.full_like(a, 2), 2)],
)
@pytest.mark.parametrize("jitted", [False, True])
def test_like_functions_take_shape_dtype_structs(like, dtype, shape, fn, fill, jitted):
    out = jax.jit(lambda: fn(like))() if jitted else fn(like)
    assert out.dtype == np.dtype(dtype) and out.shape == shape
    assert not out.weak_type  # JAX ignores a struct's weak_type here
    np.testing.assert_array_equal(np.asarray(out), np.full(shape, fill, dtype))


def test_like_functions_struct_with_dtype_and_shape_overrides():
    s = jax.ShapeDtypeStruct((2, 3), jnp.int16)
    assert jnp.zeros_like(s, dtype=jnp.float32).dtype == np.float32
    assert jnp.empty_like(s, shape=(4,)).shape == (4,)
    assert jnp.ones_like(s, shape=(4,)).dtype == np.int16


# ---------------------------------------------------------------- einsum(_dot_general=)
def test_einsum_dot_general_hook_is_called_with_jax_form():
    calls = []

    def dot(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
        calls.append((dimension_numbers, precision, preferred_element_type))
        return 2 * jax.lax.dot_general(lhs, rhs, dimension_numbers, precision)

    a = jnp.arange(6.0).reshape(2, 3)
    b = jnp.arange(12.0).reshape(3, 4)
    out = jnp.einsum("ij,jk->ik", a, b, _dot_general=dot)
    np.testing.assert_allclose(np.asarray(out), 2 * np.asarray(a) @ np.asarray(b))
    # JAX passes the result dtype as preferred_element_type when none was asked for
    assert len(calls) == 1 and calls[0][2] == np.float32
    out = jax.jit(lambda a, b: jnp.einsum("ij,jk->ik", a, b, _dot_general=dot))(a, b)
    np.testing.assert_allclose(np.asarray(out), 2 * np.asarray(a) @ np.asarray(b))


def test_einsum_dot_general_default_is_lax():
    a = jnp.arange(6.0).reshape(2, 3)
    out = jnp.einsum("ij,kj->ik", a, a, _dot_general=jax.lax.dot_general)
    np.testing.assert_allclose(np.asarray(out), np.asarray(a) @ np.asarray(a).T)


# ------------------------------------------------------ key paths of keyed registrations
class _Node:
    def __init__(self, a, b):
        self.a, self.b = a, b


class _OddKey:
    def __str__(self):
        return "<odd>"


jax.tree_util.register_pytree_with_keys(
    _Node,
    lambda n: (
        ((jax.tree_util.GetAttrKey("a"), n.a), (jax.tree_util.DictKey("b"), n.b)),
        None,
    ),
    lambda aux, ch: _Node(*ch),
)


class _Odd:
    def __init__(self, x):
        self.x = x


jax.tree_util.register_pytree_with_keys(
    _Odd, lambda n: (((_OddKey(), n.x),), None), lambda aux, ch: _Odd(*ch)
)


def test_keyed_registration_paths_are_the_given_keys():
    leaves = jax.tree_util.tree_flatten_with_path(_Node(1, [2, {"c": 3}]))[0]
    paths = [p for p, _ in leaves]
    assert paths[0] == (jax.tree_util.GetAttrKey("a"),)
    assert paths[1] == (jax.tree_util.DictKey("b"), jax.tree_util.SequenceKey(0))
    assert [jax.tree_util.keystr(p) for p in paths] == [".a", "['b'][0]", "['b'][1]['c']"]
    ((p, _),) = jax.tree_util.tree_flatten_with_path(_Odd(5))[0]
    assert jax.tree_util.keystr(p) == "<odd>"
    out = jax.tree_util.tree_map_with_path(lambda p, v: jax.tree_util.keystr(p), _Node(1, 2))
    assert (out.a, out.b) == (".a", "['b']")


# ----------------------------------------- custom_jvp whose rule calls it on its tangents
@functools.partial(jax.custom_jvp, nondiff_argnums=(0,))
def _scaled(k, x):
    return jnp.asarray(x, jnp.float32) * k


@_scaled.defjvp
def _scaled_jvp(k, primals, tangents):
    (x,), (t,) = primals, tangents
    return _scaled(k, jnp.sin(x)), _scaled(k, t * jnp.cos(x))


def _f(y):
    return _scaled(2.0, y).sum()


Y = np.array([-1.0, 1.0], np.float32)
DF = 2 * np.cos(Y)


@pytest.mark.parametrize(
    "name, fn",
    [
        ("grad", jax.grad(_f)),
        ("grad_of_jit", jax.grad(jax.jit(_f))),
        ("jit_grad", jax.jit(jax.grad(_f))),
        ("vjp", lambda y: jax.vjp(_f, y)[1](jnp.float32(1.0))[0]),
        ("linear_transpose", lambda y: jax.linear_transpose(jax.linearize(_f, y)[1], y)(1.0)[0]),
        ("jacrev_of_jit", lambda y: jnp.sum(jax.jacrev(jax.jit(lambda y: _scaled(2.0, y)))(y), 0)),
    ],
)
def test_custom_jvp_rule_calling_itself_on_tangents(name, fn):
    np.testing.assert_allclose(np.asarray(fn(jnp.asarray(Y))), DF, rtol=1e-6)


def test_custom_jvp_rule_calling_itself_hessian_and_vmap():
    h = jax.hessian(_f)(jnp.asarray(Y))
    np.testing.assert_allclose(np.asarray(h), np.diag(-2 * np.sin(Y)), rtol=1e-6, atol=1e-7)
    g = jax.vmap(jax.grad(_f))(jnp.stack([Y, 2 * Y]))
    np.testing.assert_allclose(np.asarray(g), np.stack([DF, 2 * np.cos(2 * Y)]), rtol=1e-6)


# ------------------------------- abstract-mesh shardings passed on (flax scan, optax noise)
def test_shaped_array_takes_sharding_keyword():
    x = jnp.ones((4, 3))
    s = jax.typeof(x).sharding.update(spec=jax.sharding.PartitionSpec(None))
    _replicated(s, 1)
    a = jax.core.ShapedArray((3,), jnp.float32, sharding=s)
    assert a.shape == (3,) and a.dtype == np.float32
    assert a == jax.core.ShapedArray((3,), jnp.float32)


def test_out_sharding_over_empty_abstract_mesh_places_nothing():
    x = jnp.ones(3)
    s = jax.typeof(x).sharding
    y = jax.random.normal(jax.random.PRNGKey(0), (3,), out_sharding=s)
    ref = jax.random.normal(jax.random.PRNGKey(0), (3,))
    np.testing.assert_array_equal(np.asarray(y), np.asarray(ref))
    # the results feed later jitted calls (optax's noisy_sgd state): no mesh error
    np.testing.assert_array_equal(np.asarray(jax.jit(lambda a: a * 2)(y)), 2 * np.asarray(ref))

    @jax.jit
    def f(k, x):
        return x + jax.random.normal(k, x.shape, out_sharding=jax.typeof(x).sharding)

    z = f(jax.random.PRNGKey(1), x)
    z2 = f(jax.random.PRNGKey(1), z)
    np.testing.assert_allclose(np.asarray(z2 - z), np.asarray(z - x), rtol=1e-6)
    np.testing.assert_array_equal(
        np.asarray(jnp.zeros(2, out_sharding=jax.typeof(z[:2]).sharding)), 0
    )


# ------------------------------------------- linear_transpose at ShapeDtypeStruct primals
def test_linear_transpose_takes_shape_dtype_structs():
    # lineax's FunctionLinearOperator.transpose (optimistix Dogleg/GaussNewton) does this
    m = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    t = jax.linear_transpose(lambda x: m @ x, jax.ShapeDtypeStruct((2,), jnp.float32))
    (out,) = t(jnp.array([1.0, 0.0, 2.0]))
    np.testing.assert_allclose(np.asarray(out), [11.0, 14.0])
    assert out.dtype == np.float32
