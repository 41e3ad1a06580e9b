"""A corpus of composed programs under vmap, compared with JAX (issue 5 "Show").

Each program is run through jaxlite and, when ``jax`` is importable, through JAX on the same
inputs; outputs must agree in shape, dtype and value. Without JAX the test is skipped (in
oracle mode both sides are JAX, which checks the corpus itself runs there).
"""

import numpy as np
import pytest

import jaxlite
import jaxlite.nn


def _rand(seed, *shape):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _mlp(jnp, params, x):
    for w, b in params[:-1]:
        x = jnp.tanh(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def _params():
    return [(_rand(1, 3, 4), _rand(2, 4)), (_rand(3, 4, 2), _rand(4, 2))]


# Each entry: name -> function(jax_module) returning the outputs to compare.
def _corpus():
    xs, ys = _rand(10, 5, 3), _rand(11, 5, 3)

    def vmap_of_jit(jax):
        f = jax.jit(lambda a, b: jax.numpy.sin(a) * b.sum())
        return jax.vmap(f, in_axes=(1, None))(xs, ys)

    def jit_of_vmap_of_grad(jax):
        jnp = jax.numpy

        def loss(params, x, y):
            return jnp.sum((_mlp(jnp, params, x) - y[:2]) ** 2)

        per_ex = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))
        return per_ex(_params(), xs, ys)

    def grad_of_vmap(jax):
        jnp = jax.numpy
        return jax.grad(lambda p: jnp.sum(jax.vmap(lambda x: _mlp(jnp, p, x))(xs) ** 2))(_params())

    def nested_vmaps_out_axes(jax):
        f = jax.vmap(
            jax.vmap(lambda a, b: a * b - a, in_axes=(None, 0)), in_axes=(0, None), out_axes=1
        )
        return f(xs[:, 0], ys[0])

    def pytree_in_out_axes(jax):
        def f(d, s):
            return {"u": d["a"] * s, "v": (d["b"].sum(), d["a"] - d["b"])}

        return jax.vmap(f, in_axes=({"a": 0, "b": 1}, None), out_axes={"u": 1, "v": (0, -1)})(
            {"a": xs, "b": ys.T}, 2.0
        )

    def vmap_of_jvp_and_hessian(jax):
        jnp = jax.numpy
        f = lambda x: jnp.sum(jnp.sin(x) * x)
        t = jax.vmap(lambda x, v: jax.jvp(f, (x,), (v,)))(xs, ys)
        h = jax.vmap(jax.hessian(f))(xs)
        return t, h

    def jacrev_of_vmap(jax):
        jnp = jax.numpy
        return jax.jacrev(lambda x: jax.vmap(jnp.tanh)(x) * 2.0)(xs[:2])

    def vmap_of_cond_and_while(jax):
        lax = jax.lax

        def f(x):
            y = lax.cond(x.sum() > 0, lambda v: v * 2.0, lambda v: -v, x)
            n = lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, c[1] * 1.5), (0, y))
            return n[1]

        return jax.vmap(f)(xs)

    def vmap_of_scan(jax):
        lax = jax.lax

        def f(x):
            def step(c, v):
                c = c * 0.5 + v
                return c, c * c

            return lax.scan(step, 0.0, x)

        return jax.vmap(f, in_axes=1)(xs)

    def vmap_of_indexed_updates(jax):
        idx = np.array([0, 2, 1, 1, 0], np.int32)
        f = lambda x, i, v: x.at[i].add(v * 10.0)
        return jax.vmap(f)(xs, idx, ys[:, 0])

    def collectives_in_jit(jax):
        lax = jax.lax
        jnp = jax.numpy

        def f(x):
            z = x - lax.pmean(x, "b")
            return z / jnp.sqrt(lax.psum(z * z, "b")), lax.all_gather(x.sum(), "b")

        return jax.jit(jax.vmap(f, axis_name="b"))(xs)

    def vmap_of_custom_jvp(jax):
        jnp = jax.numpy

        @jax.custom_jvp
        def softplus(x):
            return jnp.log1p(jnp.exp(x))

        @softplus.defjvp
        def _(primals, tangents):
            (x,), (t,) = primals, tangents
            return softplus(x), t * jax.nn.sigmoid(x)

        return jax.vmap(jax.grad(lambda x: softplus(x).sum()))(xs)

    def vectorize_in_vmap(jax):
        jnp = jax.numpy
        dot = jnp.vectorize(lambda a, b: jnp.sum(a * b), signature="(n),(n)->()")
        return jax.vmap(dot, in_axes=(0, None))(xs, ys[0])

    def axis_size_only(jax):
        return jax.vmap(lambda: jax.numpy.ones(2) * 3.0, axis_size=4)()

    return {
        f.__name__: f
        for f in [
            vmap_of_jit,
            jit_of_vmap_of_grad,
            grad_of_vmap,
            nested_vmaps_out_axes,
            pytree_in_out_axes,
            vmap_of_jvp_and_hessian,
            jacrev_of_vmap,
            vmap_of_cond_and_while,
            vmap_of_scan,
            vmap_of_indexed_updates,
            collectives_in_jit,
            vmap_of_custom_jvp,
            vectorize_in_vmap,
            axis_size_only,
        ]
    }


CORPUS = _corpus()


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_corpus_matches_jax(name):
    real_jax = pytest.importorskip("jax")
    import jax.nn
    import jax.numpy  # noqa: F401

    expected = CORPUS[name](real_jax)
    got = CORPUS[name](jaxlite)
    e_leaves, e_tree = real_jax.tree_util.tree_flatten(expected)
    g_leaves, g_tree = jaxlite.tree_util.tree_flatten(got)
    # Same structure: rebuild both with placeholder leaves and compare the containers.
    assert e_tree.unflatten([0] * len(e_leaves)) == g_tree.unflatten([0] * len(g_leaves))
    for g, e in zip(g_leaves, e_leaves):
        g, e = np.asarray(g), np.asarray(e)
        assert g.shape == e.shape and g.dtype == e.dtype, (g.shape, e.shape, g.dtype, e.dtype)
        np.testing.assert_allclose(g, e, rtol=2e-5, atol=2e-6)
