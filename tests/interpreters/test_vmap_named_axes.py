"""vmap beyond the basics (issue 5): JAX's error messages, named-axis collectives under
composition, jnp.vectorize details, "unbatched stays unbatched", no per-element loops, and the
opt-in loop-and-stack fallback.

Expected values come from NumPy loops or were checked against JAX (the file runs unchanged
in oracle mode, ``JAXLITE_ORACLE=jax``, except ``jaxlite_only`` tests).
"""

import re

import numpy as np
import pytest
from helpers import close

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

# ------------------------------------------------------------------------ error messages


def test_inconsistent_sizes_names_each_argument():
    def f(x, y):
        return x + y["a"]

    with pytest.raises(ValueError) as info:
        jax.vmap(f)(jnp.ones(3), {"a": jnp.ones(4)})
    assert str(info.value) == (
        "vmap got inconsistent sizes for array axes to be mapped:\n"
        "  * one axis had size 3: axis 0 of argument x of type float32[3];\n"
        "  * one axis had size 4: axis 0 of argument y['a'] of type float32[4]"
    )


def test_inconsistent_sizes_with_kwargs_and_axis_size():
    with pytest.raises(ValueError, match=re.escape("axis 0 of kwargs['y'] of type float32[4]")):
        jax.vmap(lambda x, y: x + y)(jnp.ones(3), y=jnp.ones(4))
    with pytest.raises(ValueError) as info:
        jax.vmap(jnp.sin, axis_size=4)(jnp.ones(3))
    assert "  * the `axis_size` argument was 4;\n" in str(info.value)


def test_axis_out_of_range_message():
    with pytest.raises(
        ValueError,
        match=re.escape(
            "vmap was requested to map its argument along axis -3, which implies that its "
            "rank should be at least 3, but is only 2 (its shape is (3, 4))"
        ),
    ):
        jax.vmap(jnp.sin, in_axes=-3)(jnp.ones((3, 4)))


def test_out_axes_none_for_batched_output_message():
    with pytest.raises(
        ValueError, match="at vmap out_axes, got axis spec None but output was batched on axis 0"
    ):
        jax.vmap(jnp.sin, out_axes=None)(jnp.ones(3))


def test_no_mapped_axis_message():
    with pytest.raises(ValueError, match="vmap must have at least one non-None value in in_axes"):
        jax.vmap(jnp.sin, in_axes=None)(jnp.ones(3))


def test_in_axes_not_a_prefix():
    with pytest.raises(
        ValueError,
        match="vmap in_axes specification must be a tree prefix of the corresponding value",
    ):
        jax.vmap(lambda p: p[0] + p[1], in_axes=((0, 0, 0),))((jnp.ones(3), jnp.ones(3)))
    with pytest.raises(ValueError, match="vmap out_axes specification must be a tree prefix"):
        jax.vmap(lambda x: (x, x), out_axes=(0, 0, 0))(jnp.ones(3))


def test_in_axes_types():
    with pytest.raises(TypeError, match="vmap in_axes must be an int, None, or a tuple"):
        jax.vmap(jnp.sin, in_axes=1.5)
    with pytest.raises(TypeError, match="vmap in_axes must be an int, None, or a tuple"):
        jax.vmap(lambda d: d["a"], in_axes={"a": 0})({"a": jnp.ones(3)})
    with pytest.raises(TypeError, match=r"\(nested\) container with those types as leaves"):
        jax.vmap(jnp.sin, in_axes=("a",))(jnp.ones(3))


def test_non_array_argument_and_output():
    with pytest.raises(TypeError, match="is not a valid JAX type"):
        jax.vmap(lambda x: x)("abc")
    with pytest.raises(TypeError, match="is not a valid JAX type"):
        jax.vmap(lambda x: "abc")(jnp.ones(3))


@pytest.mark.parametrize("where", ["vmap", "top", "jit"])
def test_unbound_axis_name(where):
    run = {
        "vmap": lambda: jax.vmap(lambda v: lax.psum(v, "j"), axis_name="i")(jnp.ones(3)),
        "top": lambda: lax.psum(jnp.ones(3), "j"),
        "jit": lambda: jax.jit(lambda v: lax.psum(v, "j"))(jnp.ones(3)),
    }[where]
    with pytest.raises(NameError, match="unbound axis name: j"):
        run()


# ----------------------------------------------------------------- axis specs, odd cases


def test_list_in_axes_and_negative_out_axes_with_none():
    out = jax.vmap(lambda x, y: x + y, in_axes=[0, None])(jnp.ones(3), jnp.asarray(2.0))
    close(out, np.full(3, 3.0))
    a, b = jax.vmap(lambda x: (x * 2.0, jnp.ones(2)), out_axes=(-1, None))(jnp.ones((3, 2)))
    assert a.shape == (2, 3) and b.shape == (2,)


def test_axis_size_with_mapped_inputs_and_none_kwarg():
    close(jax.vmap(lambda x: x + 1.0, axis_size=3)(jnp.zeros(3)), np.ones(3))
    out = jax.vmap(lambda x, s=None: x if s is None else x * s)(jnp.ones(3), s=None)
    close(out, np.ones(3))


def test_spmd_axis_name_is_accepted():
    close(jax.vmap(jnp.sin, spmd_axis_name="x")(jnp.zeros(2)), np.zeros(2))


# -------------------------------------------------------------------------- collectives


def test_all_gather_axis_and_tiled():
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    out = jax.vmap(lambda v: lax.all_gather(v, "i", axis=1), axis_name="i")(x)
    assert out.shape == (3, 2, 3)
    close(out, np.broadcast_to(x.T, (3, 2, 3)))
    out = jax.vmap(lambda v: lax.all_gather(v, "i", tiled=True), axis_name="i")(x)
    close(out, np.broadcast_to(x.reshape(6), (3, 6)))
    out = jax.vmap(lambda v: lax.all_gather(jnp.ones(2), "i"), axis_name="i")(x)
    close(out, np.ones((3, 3, 2)))


def test_ppermute_cyclic_shift():
    x = jnp.arange(1.0, 4.0)
    out = jax.vmap(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2), (2, 0)]), axis_name="i")(x)
    close(out, [3.0, 1.0, 2.0])


@pytest.mark.jaxlite_only
def test_ppermute_partial_permutation_fills_zeros():
    # JAX's vmap rule asserts a full permutation; jaxlite allows a partial one (shard_map's
    # semantics: elements nobody sends to receive zeros).
    x = jnp.arange(1.0, 4.0)
    out = jax.vmap(lambda v: lax.ppermute(v, "i", [(0, 1), (1, 2)]), axis_name="i")(x)
    close(out, [0.0, 1.0, 2.0])


def test_nested_axis_index_and_psum_over_two_axes():
    out = jax.vmap(
        jax.vmap(lambda v: lax.axis_index("o") * 10 + lax.axis_index("in"), axis_name="in"),
        axis_name="o",
    )(jnp.ones((2, 3)))
    np.testing.assert_array_equal(np.asarray(out), [[0, 1, 2], [10, 11, 12]])
    x = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    out = jax.vmap(jax.vmap(lambda v: lax.psum(v, ("o", "in")), axis_name="in"), axis_name="o")(x)
    close(out, np.full((2, 3), 15.0))


def test_psum_dtypes():
    out = jax.vmap(lambda v: lax.psum(1, "i"), axis_name="i")(jnp.ones(3))
    assert out.dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(out), [3, 3, 3])
    out = jax.vmap(lambda v: lax.psum(v > 0, "i"), axis_name="i")(jnp.arange(3))
    assert out.dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(out), [2, 2, 2])
    out = jax.vmap(lambda v: lax.pmean(v, "i"), axis_name="i")(jnp.arange(3))
    assert out.dtype == jnp.float32
    close(out, [1.0, 1.0, 1.0])


def test_collectives_under_grad_inside_vmap():
    x = jnp.array([1.0, 3.0, 2.0])
    close(jax.vmap(jax.grad(lambda v: lax.psum(v * v, "i")), axis_name="i")(x), [6, 18, 12])
    close(jax.vmap(jax.grad(lambda v: lax.pmean(v * v, "i")), axis_name="i")(x), [2, 6, 4])
    g = jax.vmap(
        jax.grad(lambda v: (lax.all_gather(v, "i") * jnp.arange(3.0)).sum()), axis_name="i"
    )(x)
    close(g, [0, 3, 6])
    g = jax.vmap(
        jax.grad(
            lambda v: (
                lax.ppermute(v, "i", [(0, 1), (1, 2), (2, 0)])
                * jnp.arange(3.0)[lax.axis_index("i")]
            )
        ),
        axis_name="i",
    )(x)
    close(g, [1, 2, 0])


def test_pmax_and_pmin_batch():
    x = jnp.array([1.0, 3.0, 2.0])
    close(jax.vmap(lambda v: lax.pmax(v, "i") - lax.pmin(v, "i"), axis_name="i")(x), [2, 2, 2])


@pytest.mark.jaxlite_only
def test_pmax_jvp_inside_vmap_splits_ties():
    # JAX raises "Differentiation rule for 'pmax' not implemented"; jaxlite follows
    # reduce_max's rule: the tangent comes from the maximal elements, averaged over ties.
    x = jnp.array([1.0, 3.0, 3.0])
    g = jax.vmap(jax.grad(lambda v: lax.pmax(v, "i")), axis_name="i")(x)
    close(g, [0.0, 1.5, 1.5])
    # Outside vmap: each of the 3 outputs is the max, so d(sum)/dx = 3 * [0, 1/2, 1/2].
    g = jax.grad(lambda x: jax.vmap(lambda v: lax.pmax(v, "i"), axis_name="i")(x).sum())(x)
    close(g, [0.0, 1.5, 1.5])


# ------------------------------------------------------------ unbatched stays unbatched


def test_unbatched_operands_stay_unbatched():
    def f(x, y):
        return x + jnp.sin(y) * 2.0

    closed = jax.make_jaxpr(jax.vmap(f, in_axes=(0, None)))(jnp.ones((5, 3)), jnp.ones(3))
    shapes = {e.primitive.name: e.outvars[0].aval.shape for e in closed.jaxpr.eqns}
    assert shapes["sin"] == (3,) and shapes["mul"] == (3,)
    assert shapes["add"] == (5, 3)


def test_output_independent_of_batch_is_broadcast_at_the_end():
    closed = jax.make_jaxpr(jax.vmap(lambda x, y: (x * 2.0, jnp.cos(y)), in_axes=(0, None)))(
        jnp.ones((4, 2)), jnp.ones(3)
    )
    cos = [e for e in closed.jaxpr.eqns if e.primitive.name == "cos"]
    assert cos[0].outvars[0].aval.shape == (3,)
    assert [a.shape for a in closed.out_avals] == [(4, 2), (4, 3)]


@pytest.mark.parametrize("prim", ["dynamic_slice", "dynamic_update_slice"])
def test_batched_indices_do_not_loop_per_element(prim):
    def f(x, i):
        if prim == "dynamic_slice":
            return lax.dynamic_slice(x, (i, 0), (2, 2))
        return lax.dynamic_update_slice(x, jnp.ones((2, 2)), (i, 1))

    def n_eqns(n):
        xs, idx = jnp.ones((n, 5, 4)), jnp.zeros(n, jnp.int32)
        return len(jax.make_jaxpr(jax.vmap(f))(xs, idx).jaxpr.eqns)

    assert n_eqns(3) == n_eqns(40)
    x = np.random.RandomState(0).randn(4, 5, 4).astype(np.float32)
    i = np.array([0, 4, -1, 2], np.int32)
    got = jax.vmap(f)(x, i)
    expected = np.stack([np.asarray(f(jnp.asarray(a), b)) for a, b in zip(x, i)])
    close(got, expected)


# ----------------------------------------------------------------- loop-and-stack fallback


@pytest.mark.jaxlite_only
def test_loop_and_stack_fallback_is_opt_in():
    from jaxlite._src.core import rules
    from jaxlite._src.core.primitive import Primitive

    made = []

    def make(name):
        p = Primitive(name)
        rules.impl_rules[p] = lambda x: np.cumsum(x[::-1])
        rules.abstract_eval_rules[p] = lambda a: a
        made.append(p)
        return p

    try:
        opted = make("reverse_cumsum_test")
        rules.loop_batched.add(opted)
        xs = np.arange(12.0, dtype=np.float32).reshape(3, 4)
        got = jax.vmap(lambda v: opted.bind(v), in_axes=1)(xs)
        close(got, np.stack([np.cumsum(xs[::-1, k]) for k in range(4)]))
        closed = jax.make_jaxpr(jax.vmap(lambda v: opted.bind(v)))(jnp.ones((5, 2)))
        assert sum(e.primitive is opted for e in closed.jaxpr.eqns) == 5  # one per element

        plain = make("no_batch_rule_test")
        with pytest.raises(NotImplementedError, match="Batching rule for 'no_batch_rule_test'"):
            jax.vmap(lambda v: plain.bind(v))(jnp.ones((2, 3)))
    finally:  # leave the global rule tables as they were
        for p in made:
            rules.impl_rules.pop(p, None)
            rules.abstract_eval_rules.pop(p, None)
            rules.loop_batched.discard(p)


# -------------------------------------------------------------------------- vectorize


def test_vectorize_errors():
    dot = jnp.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")
    with pytest.raises(ValueError, match="inconsistent size for core dimension 'n': 4 vs 3"):
        dot(jnp.ones(3), jnp.ones(4))
    with pytest.raises(ValueError, match=r"output shape \(3,\) does not match core dimensions"):
        jnp.vectorize(lambda a: a, signature="(n)->()")(jnp.ones(3))
    with pytest.raises(ValueError, match="not a valid gufunc signature"):
        jnp.vectorize(lambda a: a, signature="(n->()")(jnp.ones(3))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        jnp.vectorize(lambda a: a.sum(), signature="(m,n)->()")(jnp.ones(3))


def test_vectorize_multiple_outputs_and_size_one_loop_dims():
    f = jnp.vectorize(lambda a: (a.sum(), a * 2), signature="(n)->(),(n)")
    s, d = f(jnp.ones((2, 3)))
    assert s.shape == (2,) and d.shape == (2, 3)
    g = jnp.vectorize(lambda a, b: a * b, signature="(n),(n)->(n)")
    out = g(jnp.ones((1, 2, 3)), jnp.arange(6.0).reshape(2, 1, 3))
    close(out, np.broadcast_to(np.arange(6.0).reshape(2, 1, 3), (2, 2, 3)))
    h = jnp.vectorize(lambda a, b: a + b)
    close(
        h(jnp.ones((2, 1, 3)), jnp.arange(4.0).reshape(4, 1)),
        np.ones((2, 1, 3)) + np.arange(4.0).reshape(4, 1),
    )


def test_vectorize_excluded_keyword_and_none_argument():
    f = jnp.vectorize(lambda a, k=1: a * k, excluded={"k"})
    out = f(jnp.ones((2, 3)), k=jnp.arange(3.0))
    assert out.shape == (2, 3, 3)
    g = jnp.vectorize(lambda a, b: a if b is None else a + b)
    close(g(jnp.ones((2, 3)), None), np.ones((2, 3)))


def test_vectorize_under_jit_and_grad():
    f = jnp.vectorize(lambda u, v: jnp.sum(u * v), signature="(n),(n)->()")
    u, v = np.random.RandomState(0).randn(2, 3, 4).astype(np.float32), np.ones(4, np.float32)
    close(jax.jit(f)(u, v), u.sum(-1), rtol=1e-5)
    close(jax.grad(lambda u: f(u, v).sum())(u), np.ones_like(u))
