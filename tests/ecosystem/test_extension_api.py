"""A primitive defined the JAX way (``jax.extend.core`` + ``jax.interpreters``) works under
jit, grad and vmap, as equinox's, lineax's and distrax's own primitives need (issue 14).

Written against the public names only, so it also runs in oracle mode against JAX.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.extend.core
import jaxlite.interpreters.ad as ad
import jaxlite.interpreters.batching as batching
import jaxlite.interpreters.mlir as mlir
import jaxlite.numpy as jnp
from jaxlite import lax

extend_core = jaxlite.extend.core


def _make_scaled_sin(register_batcher):
    """``scaled_sin(x, scale=s) = s * sin(x)``: impl, abstract eval, JVP, transpose-free."""
    p = extend_core.Primitive("scaled_sin")

    def impl(x, *, scale):
        return scale * jnp.sin(x)

    p.def_impl(impl)
    p.def_abstract_eval(lambda x, *, scale: jax.core.ShapedArray(x.shape, x.dtype))

    def jvp(primals, tangents, *, scale):
        (x,), (t,) = primals, tangents
        out = p.bind(x, scale=scale)
        if type(t) is ad.Zero:
            return out, ad.Zero.from_primal_value(out)
        return out, scale * jnp.cos(x) * t

    ad.primitive_jvps[p] = jvp
    register_batcher(p)
    mlir.register_lowering(p, mlir.lower_fun(impl, multiple_results=False))
    return p


def _plain_batcher(p):
    def batch(args, dims, *, scale):
        return p.bind(args[0], scale=scale), dims[0]

    batching.primitive_batchers[p] = batch


def _axis_batcher(p):
    def batch(axis_size, axis_name, trace_type, args, dims, *, scale):
        assert axis_size == 3
        return p.bind(args[0], scale=scale), dims[0]

    batching.axis_primitive_batchers[p] = batch


@pytest.mark.parametrize("register_batcher", [_plain_batcher, _axis_batcher])
def test_jax_style_primitive_under_transformations(register_batcher):
    p = _make_scaled_sin(register_batcher)
    x = jnp.array([0.1, 0.5, 1.0], dtype=jnp.float32)
    expect = 2.0 * np.sin(np.asarray(x))
    np.testing.assert_allclose(p.bind(x, scale=2.0), expect, rtol=1e-6)
    np.testing.assert_allclose(jax.jit(lambda v: p.bind(v, scale=2.0))(x), expect, rtol=1e-6)
    np.testing.assert_allclose(jax.vmap(lambda v: p.bind(v, scale=2.0))(x), expect, rtol=1e-6)
    g = jax.grad(lambda v: jnp.sum(p.bind(v, scale=2.0)))(x)
    np.testing.assert_allclose(g, 2.0 * np.cos(np.asarray(x)), rtol=1e-6)
    gj = jax.jit(jax.vmap(jax.grad(lambda v: p.bind(v, scale=3.0))))(x)
    np.testing.assert_allclose(gj, 3.0 * np.cos(np.asarray(x)), rtol=1e-6)
    jaxpr = jax.make_jaxpr(lambda v: p.bind(v, scale=2.0))(x)
    assert any(e.primitive is p for e in jaxpr.jaxpr.eqns)
    assert isinstance(jaxpr, extend_core.ClosedJaxpr)
    np.testing.assert_allclose(extend_core.jaxpr_as_fun(jaxpr)(x)[0], expect, rtol=1e-6)


def test_multiple_results_primitive_with_transpose():
    """A linear two-output primitive: its transpose rule makes reverse mode work."""
    p = extend_core.Primitive("split_scale")
    p.multiple_results = True
    impl = lambda x: [2.0 * x, -x]
    p.def_impl(impl)
    mlir.register_lowering(p, mlir.lower_fun(impl, multiple_results=True))
    p.def_abstract_eval(lambda x: [jax.core.ShapedArray(x.shape, x.dtype)] * 2)

    def jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return p.bind(x), p.bind(ad.instantiate_zeros(t))

    def transpose(cts, x):
        assert ad.is_undefined_primal(x)
        a, b = (ad.instantiate_zeros(c) for c in cts)
        return [2.0 * a - b]

    ad.primitive_jvps[p] = jvp
    ad.primitive_transposes[p] = transpose
    batching.primitive_batchers[p] = lambda args, dims: (p.bind(*args), [dims[0]] * 2)
    x = jnp.arange(3.0)
    a, b = jax.jit(p.bind)(x)
    np.testing.assert_allclose(a, 2 * np.arange(3.0))
    np.testing.assert_allclose(b, -np.arange(3.0))
    g = jax.grad(lambda v: jnp.sum(p.bind(v)[0] * 3.0 + p.bind(v)[1]))(x)
    np.testing.assert_allclose(g, np.full(3, 5.0))
    out = jax.vmap(lambda v: p.bind(v)[1])(jnp.ones((4, 3)))
    assert out.shape == (4, 3)


def test_lax_primitive_objects_appear_in_jaxprs():
    jaxpr = jax.make_jaxpr(lambda x: lax.sin(x) * 2.0)(1.0)
    prims = [e.primitive for e in jaxpr.jaxpr.eqns]
    assert lax.sin_p in prims and lax.mul_p in prims
    assert isinstance(lax.sin_p, extend_core.Primitive)
