"""Behaviour tests for vmap: axis specs, nesting, composition with jit/grad, collectives.

The reference for a vmapped function is a Python loop over the mapped axis, stacked with
NumPy. The file runs unchanged against real JAX in oracle mode (``JAXLITE_ORACLE=jax``).
"""

import numpy as np
import pytest
from helpers import close, rand

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax


def loop_reference(f, args, in_axes):
    """Apply f slice by slice along in_axes (None = broadcast); stack results on axis 0."""
    sizes = {a.shape[ax] for a, ax in zip(args, in_axes) if ax is not None}
    assert len(sizes) == 1
    (n,) = sizes
    outs = []
    for i in range(n):
        sl = [a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes)]
        outs.append(np.asarray(f(*[jnp.asarray(s) for s in sl])))
    return np.stack(outs)


# (name, fn, arg shapes, in_axes, out_axes)
CASES = [
    ("sin_axis0", jnp.sin, [(4, 3)], (0,), 0),
    ("sin_axis1", jnp.sin, [(3, 4)], (1,), 0),
    ("sin_out1", jnp.sin, [(4, 3)], (0,), 1),
    ("neg_in_axis", jnp.exp, [(3, 2, 5)], (-1,), 0),
    ("neg_out_axis", jnp.exp, [(5, 3, 2)], (0,), -1),
    ("add_none", lambda x, y: x + y, [(4, 3), (3,)], (0, None), 0),
    ("add_mixed_axes", lambda x, y: x * y, [(4, 3), (3, 4)], (0, 1), 0),
    ("dot_vec", jnp.dot, [(5, 3), (3,)], (0, None), 0),
    ("matvec", lambda m, v: m @ v, [(2, 3), (4, 3)], (None, 0), 1),
    ("sum_axis", lambda x: jnp.sum(x, axis=0), [(3, 4, 2)], (1,), 0),
    ("reshape", lambda x: jnp.reshape(x, (6,)), [(4, 2, 3)], (0,), 0),
    ("transpose", lambda x: jnp.transpose(x), [(2, 3, 4)], (2,), 0),
    ("index", lambda x: x[1] * 2.0 + x[0:2].sum(), [(5, 4)], (0,), 0),
    ("where", lambda x, y: jnp.where(x > 0, x, y), [(4, 3), (4, 3)], (0, 0), 0),
    ("max_mean", lambda x: jnp.max(x) - jnp.mean(x), [(6, 5)], (1,), 0),
    ("broadcast_const", lambda x: x + jnp.arange(3.0), [(4, 3)], (0,), 0),
]


@pytest.mark.parametrize("name,f,shapes,in_axes,out_axes", CASES, ids=[c[0] for c in CASES])
def test_vmap_matches_loop(name, f, shapes, in_axes, out_axes):
    args = [rand(*s, seed=i) for i, s in enumerate(shapes)]
    got = jax.vmap(f, in_axes=in_axes, out_axes=out_axes)(*map(jnp.asarray, args))
    pos_axes = [None if a is None else a % len(s) for a, s in zip(in_axes, shapes)]
    expected = np.moveaxis(loop_reference(f, args, pos_axes), 0, out_axes)
    assert got.shape == expected.shape
    close(got, expected)


@pytest.mark.parametrize(
    "name,f,shapes,in_axes,out_axes", CASES[::2], ids=[c[0] for c in CASES[::2]]
)
def test_jit_of_vmap_and_vmap_of_jit(name, f, shapes, in_axes, out_axes):
    args = [jnp.asarray(rand(*s, seed=i)) for i, s in enumerate(shapes)]
    eager = jax.vmap(f, in_axes=in_axes, out_axes=out_axes)(*args)
    close(jax.jit(jax.vmap(f, in_axes=in_axes, out_axes=out_axes))(*args), eager)
    close(jax.vmap(jax.jit(f), in_axes=in_axes, out_axes=out_axes)(*args), eager)


def test_in_axes_int_applies_to_all_args():
    x, y = rand(4, 3), rand(4, 3, seed=1)
    close(jax.vmap(lambda a, b: a * b, in_axes=1)(x.T, y.T), x * y)


def test_in_axes_pytree_prefix():
    def f(p, s):
        return p["w"] @ p["b"] + s

    w, b, s = rand(5, 2, 3), rand(3), rand(5, seed=2)
    got = jax.vmap(f, in_axes=({"w": 0, "b": None}, 0))({"w": w, "b": b}, s)
    close(got, np.einsum("nij,j->ni", w, b) + s[:, None])


def test_in_axes_prefix_covers_whole_subtree():
    def f(pair, y):
        a, b = pair
        return a * b + y

    a, b, y = rand(3, 4), rand(3, 4, seed=1), rand(4, seed=2)
    got = jax.vmap(f, in_axes=(0, None))((a, b), y)
    close(got, a * b + y)


def test_out_axes_pytree():
    def f(x):
        return {"a": x * 2.0, "b": (jnp.sum(x), x + 1.0)}

    x = rand(4, 3)
    out = jax.vmap(f, out_axes={"a": 1, "b": (0, -1)})(x)
    close(out["a"], (x * 2.0).T)
    close(out["b"][0], x.sum(axis=1))
    close(out["b"][1], (x + 1.0).T)


def test_out_axes_none_for_unbatched_output():
    x = rand(4, 3)
    y = jnp.asarray(rand(2))
    a, b = jax.vmap(lambda v: (v * 2.0, y + 1.0), out_axes=(0, None))(x)
    close(a, x * 2.0)
    close(b, np.asarray(y) + 1.0)
    assert b.shape == (2,)


def test_unbatched_output_is_broadcast():
    out = jax.vmap(lambda v: jnp.ones(2))(rand(5, 3))
    close(out, np.ones((5, 2)))


def test_kwargs_are_batched_along_axis_0():
    def f(x, scale):
        return x * scale

    x, s = rand(4, 3), rand(4, 3, seed=1)
    close(jax.vmap(f)(x, scale=s), x * s)
    # in_axes only describes positional arguments; keyword arguments still map on axis 0.
    close(jax.vmap(f, in_axes=(1,))(x.T, scale=s), x * s)


def test_axis_size_with_all_none():
    out = jax.vmap(lambda v: v * 2.0, in_axes=None, axis_size=3)(jnp.asarray(rand(2)))
    close(out, np.broadcast_to(rand(2) * 2.0, (3, 2)))


def test_nested_vmap_outer_product():
    x, y = rand(3), rand(4, seed=1)
    got = jax.vmap(jax.vmap(lambda a, b: a * b, in_axes=(None, 0)), in_axes=(0, None))(x, y)
    close(got, np.outer(x, y))


def test_nested_vmap_matmul():
    a, b = rand(3, 5), rand(5, 4, seed=1)
    mm = jax.vmap(jax.vmap(jnp.dot, in_axes=(None, 1)), in_axes=(0, None))
    close(mm(a, b), a @ b, rtol=1e-5)


def test_nested_vmap_different_axes():
    x = rand(2, 3, 4)
    f = jax.vmap(jax.vmap(jnp.sum, in_axes=1), in_axes=2, out_axes=1)
    # outer maps axis 2 (size 4), inner maps axis 1 of the (2,3) slice (size 3) -> (3, 4)
    close(f(x), x.sum(axis=0))


def test_vmap_of_grad_per_example_gradients():
    w = rand(3)
    xs = rand(5, 3, seed=1)

    def loss(w, x):
        return jnp.sum(jnp.sin(w * x))

    got = jax.vmap(jax.grad(loss), in_axes=(None, 0))(jnp.asarray(w), jnp.asarray(xs))
    close(got, np.cos(w * xs) * xs)


def test_grad_of_vmap():
    xs = rand(5, 3)

    def total(xs):
        return jnp.sum(jax.vmap(lambda x: jnp.sum(jnp.exp(x) * x))(xs))

    close(jax.grad(total)(xs), np.exp(xs) * (1 + xs), rtol=1e-5)


def test_vmap_of_jacfwd_and_jit_grad():
    xs = rand(4, 3)
    J = jax.vmap(jax.jacfwd(jnp.sin))(xs)
    close(J, np.stack([np.diag(np.cos(x)) for x in xs]))
    close(jax.vmap(jax.jit(jax.grad(lambda v: jnp.sum(v * v))))(xs), 2 * xs)


def test_vmap_of_jvp():
    xs, ts = rand(4, 3), rand(4, 3, seed=1)
    y, t = jax.vmap(lambda x, t: jax.jvp(jnp.tanh, (x,), (t,)))(xs, ts)
    close(y, np.tanh(xs))
    close(t, (1 - np.tanh(xs) ** 2) * ts)


# ---------------------------------------------------------------- collectives


def test_psum_and_pmean():
    x = rand(4, 3)
    close(jax.vmap(lambda v: lax.psum(v, "i"), axis_name="i")(x), np.tile(x.sum(0), (4, 1)))
    close(jax.vmap(lambda v: v - lax.pmean(v, "i"), axis_name="i")(x), x - x.mean(0))


def test_pmax_and_pmin():
    x = rand(5, 2)
    close(jax.vmap(lambda v: lax.pmax(v, "i"), axis_name="i")(x), np.tile(x.max(0), (5, 1)))
    close(jax.vmap(lambda v: lax.pmin(v, "i"), axis_name="i")(x), np.tile(x.min(0), (5, 1)))


def test_axis_index():
    out = jax.vmap(lambda v: v * 0 + lax.axis_index("i"), axis_name="i")(jnp.zeros(4, jnp.int32))
    np.testing.assert_array_equal(np.asarray(out), np.arange(4))


def test_all_gather():
    x = rand(3, 2)
    out = jax.vmap(lambda v: lax.all_gather(v, "i"), axis_name="i")(x)
    assert out.shape == (3, 3, 2)
    close(out, np.broadcast_to(x, (3, 3, 2)))


def test_psum_of_pytree_and_normalisation():
    x = rand(4, 3)
    softmax_over_batch = jax.vmap(lambda v: jnp.exp(v) / lax.psum(jnp.exp(v), "b"), axis_name="b")
    close(softmax_over_batch(x), np.exp(x) / np.exp(x).sum(0))
    a, b = jax.vmap(lambda u, w: lax.psum((u, w), "b"), axis_name="b")(x, x * 2.0)
    close(a, np.tile(x.sum(0), (4, 1)))
    close(b, np.tile(2.0 * x.sum(0), (4, 1)))


def test_nested_axis_names():
    x = rand(2, 3)

    def f(v):
        return lax.psum(v, "outer") + 10.0 * lax.psum(v, "inner")

    got = jax.vmap(jax.vmap(f, axis_name="inner"), axis_name="outer")(x)
    expected = x.sum(0, keepdims=True) + 10.0 * x.sum(1, keepdims=True)
    close(got, expected, rtol=1e-5)


def test_psum_under_jit_and_grad():
    x = rand(4, 3)
    f = jax.vmap(lambda v: lax.psum(v * v, "i"), axis_name="i")
    close(jax.jit(f)(x), np.tile((x * x).sum(0), (4, 1)))
    # sum over the 4 identical rows of psum: d/dx = 4 * 2x
    close(jax.grad(lambda x: jnp.sum(f(x)))(x), 8.0 * x)


# ---------------------------------------------------------------- vectorize


def test_vectorize_elementwise():
    f = jnp.vectorize(lambda a, b: a * jnp.sin(b))
    a, b = rand(3, 1), rand(4, seed=1)
    close(f(a, b), a * np.sin(b))


def test_vectorize_signature_dot():
    f = jnp.vectorize(lambda u, v: jnp.sum(u * v), signature="(n),(n)->()")
    u, v = rand(2, 3, 4), rand(3, 4, seed=1)
    close(f(u, v), np.einsum("abn,bn->ab", u, v))


def test_vectorize_signature_matvec_and_excluded():
    f = jnp.vectorize(lambda m, v: m @ v, signature="(i,j),(j)->(i)")
    m, v = rand(5, 2, 3), rand(3, seed=1)
    close(f(m, v), np.einsum("bij,j->bi", m, v))

    g = jnp.vectorize(lambda x, k: x * k, excluded={1})
    close(g(rand(3), 2.0), rand(3) * 2.0)


# ---------------------------------------------------------------- errors


def test_inconsistent_sizes():
    with pytest.raises(ValueError, match="vmap got inconsistent sizes for array axes to be mapped"):
        jax.vmap(lambda x, y: x + y)(jnp.ones(3), jnp.ones(4))


def test_inconsistent_sizes_via_in_axes():
    with pytest.raises(ValueError, match="vmap got inconsistent sizes for array axes to be mapped"):
        jax.vmap(lambda x, y: x + y, in_axes=(0, 1))(jnp.ones((3, 4)), jnp.ones((3, 4)))


@pytest.mark.parametrize("axis", [2, -3])
def test_in_axis_out_of_range(axis):
    with pytest.raises(ValueError):
        jax.vmap(jnp.sin, in_axes=axis)(jnp.ones((3, 4)))


def test_mapping_a_scalar_is_an_error():
    with pytest.raises(ValueError):
        jax.vmap(jnp.sin)(1.0)


def test_out_axis_out_of_range():
    with pytest.raises(ValueError):
        jax.vmap(jnp.sin, out_axes=2)(jnp.ones(3))


def test_out_axes_none_for_batched_output():
    with pytest.raises(ValueError):
        jax.vmap(jnp.sin, out_axes=None)(jnp.ones(3))


def test_all_in_axes_none_without_axis_size():
    with pytest.raises(ValueError):
        jax.vmap(jnp.sin, in_axes=None)(jnp.ones(3))


def test_in_axes_length_mismatch():
    with pytest.raises(ValueError):
        jax.vmap(lambda x, y: x + y, in_axes=(0,))(jnp.ones(3), jnp.ones(3))
