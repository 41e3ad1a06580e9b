"""A one-file tour of the public API: each block is what a new user tries first.

Runs unchanged against real JAX in oracle mode (``JAXLITE_ORACLE=jax``).
"""

import numpy as np
import pytest
from helpers import close

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax


def test_arrays_and_numpy_api():
    x = jnp.arange(6.0).reshape(2, 3)
    assert isinstance(x, jax.Array) and x.dtype == jnp.float32 and x.shape == (2, 3)
    ref = np.arange(6.0).reshape(2, 3)
    close(jnp.sin(x) + x**2, np.sin(ref) + ref**2)
    close(x.sum(axis=1), [3.0, 12.0])
    close(jnp.dot(x, x.T), np.arange(6.0).reshape(2, 3) @ np.arange(6.0).reshape(2, 3).T)
    close(jnp.where(x > 2, x, 0.0), [[0, 0, 0], [3, 4, 5]])
    close(x[1, ::2], [3.0, 5.0])
    close(x.at[0, 0].set(9.0)[0], [9.0, 1.0, 2.0])
    assert repr(jnp.array([1.0, 2.0])) == "Array([1., 2.], dtype=float32)"
    assert np.asarray(x).dtype == np.float32


def test_jit():
    @jax.jit
    def predict(w, b, x):
        return jnp.tanh(x @ w + b)

    w, b, x = jnp.ones((3, 2)), jnp.zeros(2), jnp.ones((4, 3))
    close(predict(w, b, x), np.tanh(np.full((4, 2), 3.0)))
    close(jax.jit(lambda x, n: x * n, static_argnums=1)(x, 2), np.full((4, 3), 2.0))


def test_make_jaxpr_and_lower():
    closed = jax.make_jaxpr(lambda x: jnp.exp(x) * 2.0)(1.0)
    assert [e.primitive.name for e in closed.jaxpr.eqns] == ["exp", "mul"]
    compiled = jax.jit(lambda x: x + 1.0).lower(jnp.ones(3)).compile()
    close(compiled(jnp.ones(3)), np.full(3, 2.0))


def test_vmap_and_collectives():
    xs = jnp.arange(12.0).reshape(4, 3)
    close(jax.vmap(jnp.sum)(xs), np.arange(12.0).reshape(4, 3).sum(1))
    close(
        jax.vmap(lambda a, b: a * b, in_axes=(0, None))(xs, jnp.arange(3.0)),
        np.arange(12.0).reshape(4, 3) * np.arange(3.0),
    )
    centred = jax.vmap(lambda v: v - lax.pmean(v, "batch"), axis_name="batch")(xs)
    close(centred.sum(0), np.zeros(3), atol=1e-5)
    close(
        jnp.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")(xs, jnp.ones(3)),
        np.arange(12.0).reshape(4, 3).sum(1),
    )


def test_jvp_and_grad():
    y, t = jax.jvp(jnp.sin, (0.5,), (1.0,))
    close(y, np.sin(0.5))
    close(t, np.cos(0.5))
    close(jax.grad(lambda x: jnp.sum(x**3))(jnp.arange(3.0)), 3 * np.arange(3.0) ** 2)
    value, g = jax.value_and_grad(lambda w: jnp.sum(jnp.tanh(w)))(jnp.zeros(2))
    close(value, 0.0)
    close(g, np.ones(2))
    per_example = jax.vmap(jax.grad(lambda w, x: jnp.sum(w * x)), in_axes=(None, 0))(
        jnp.ones(3), jnp.arange(6.0).reshape(2, 3)
    )
    close(per_example, np.arange(6.0).reshape(2, 3))


def test_pytrees():
    params = {"w": jnp.ones((2, 2)), "b": (jnp.zeros(2), None)}
    doubled = jax.tree_util.tree_map(lambda p: p * 2, params)
    close(doubled["w"], np.full((2, 2), 2.0))
    assert doubled["b"][1] is None
    assert len(jax.tree_util.tree_leaves(params)) == 2
    out = jax.jit(lambda p: p["w"] @ p["b"][0])(params)
    close(out, np.zeros(2))


def test_dtypes_and_config():
    assert jnp.asarray(1).dtype == jnp.int32  # x64 is off by default
    assert (jnp.ones(2, jnp.int8) + 1).dtype == jnp.int8
    assert jnp.promote_types(jnp.float16, jnp.bfloat16) == jnp.float32
    assert jax.dtypes.canonicalize_dtype(np.float64) == np.float32
    jax.config.update("jax_enable_x64", True)
    try:
        assert jnp.asarray(1).dtype == jnp.int64
    finally:
        jax.config.update("jax_enable_x64", False)


def test_shapes_and_devices():
    s = jax.eval_shape(lambda x: x.T @ x, jax.ShapeDtypeStruct((5, 3), jnp.float32))
    assert s.shape == (3, 3) and s.dtype == jnp.float32
    assert jax.typeof(jnp.ones((2, 3))).shape == (2, 3)
    assert len(jax.devices()) >= 1 and jax.device_count() >= 1
    host = jax.device_get(jnp.ones(2))
    assert isinstance(host, np.ndarray)
    assert jax.block_until_ready(jnp.ones(2)).shape == (2,)


def test_errors_are_the_documented_classes():
    with pytest.raises(jax.errors.ConcretizationTypeError):
        jax.jit(lambda x: 1 if x > 0 else 0)(1.0)
    with pytest.raises(ValueError, match="inconsistent sizes"):
        jax.vmap(lambda a, b: a + b)(jnp.ones(2), jnp.ones(3))
    with pytest.raises(NameError, match="unbound axis name"):
        jax.vmap(lambda v: lax.psum(v, "nope"), axis_name="i")(jnp.ones(2))


def test_disable_jit():
    with jax.disable_jit():
        out = jax.jit(lambda x: x * 2 if x > 0 else x)(3.0)
    close(out, 6.0)
