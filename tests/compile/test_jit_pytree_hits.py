"""jit's hit path for pytree arguments (a model's parameters as lists, tuples, dicts and
registered nodes): a cached call keyed on the arguments' treespec and avals must give what
the trace cache gives -- the same results, the same retraces, the same errors."""

from __future__ import annotations

import collections

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import tree_util


def _counting(fun):
    calls = []

    def traced(*args):
        calls.append(1)
        return fun(*args)

    return jax.jit(traced), calls


def _params():
    return [
        (jnp.arange(6.0).reshape(2, 3), jnp.ones(3)),
        (jnp.full((3, 2), 0.5), jnp.zeros(2)),
    ]


def _mlp(params, x):
    for w, b in params:
        x = jnp.tanh(x @ w + b)
    return x, [(w * 0.5, b - 1) for w, b in params]


def _leaves(tree):
    return [np.asarray(v) for v in jax.tree_util.tree_leaves(tree)]


def test_hits_equal_the_first_call_and_trace_once():
    f, calls = _counting(_mlp)
    params, x = _params(), jnp.ones((4, 2))
    first = f(params, x)
    for _ in range(3):
        again = f(params, x)
        assert tree_util.tree_structure(again) == tree_util.tree_structure(first)
        for a, b in zip(_leaves(again), _leaves(first)):
            assert a.dtype == b.dtype and a.shape == b.shape
            np.testing.assert_array_equal(a, b)
    assert len(calls) == 1
    # the same numbers as running the function without jit
    with jax.disable_jit():
        plain = _mlp(params, x)
    for a, b in zip(_leaves(first), _leaves(plain)):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_outputs_of_a_hit_are_read_only_arrays():
    f = jax.jit(lambda p: jax.tree_util.tree_map(lambda v: v + 1, p))
    p = {"w": jnp.ones(3), "b": jnp.zeros(2)}
    f(p)
    out = f(p)
    for v in jax.tree_util.tree_leaves(out):
        assert isinstance(v, jax.Array)
        assert not np.asarray(v).flags.writeable
        with pytest.raises(ValueError):
            np.asarray(v)[0] = 7.0


@pytest.mark.parametrize(
    "change",
    [
        lambda p: [(w.astype(jnp.float16), b) for w, b in p],  # dtype
        lambda p: [(jnp.ones((2, 4)), jnp.ones(4)), (jnp.ones((4, 2)), jnp.ones(2))],  # shapes
        lambda p: [tuple(p[0]), list(p[1])],  # a tuple made a list
        lambda p: p[:1],  # one layer fewer
        lambda p: [(w, b) for w, b in p] + [None],  # a None node
    ],
)
def test_a_changed_signature_retraces(change):
    def total(p):
        return [jnp.sum(w) + jnp.sum(b) for w, b in (pair for pair in p if pair is not None)]

    f, calls = _counting(total)
    p = _params()
    f(p)
    f(p)
    assert len(calls) == 1
    q = change(p)
    out = f(q)
    assert len(calls) == 2
    want = [float(w.astype(jnp.float32).sum() + b.sum()) for w, b in (x for x in q if x)]
    assert [float(v) for v in out] == pytest.approx(want, rel=1e-3)


def test_weak_type_is_part_of_the_key():
    f, calls = _counting(lambda p: p["a"] * 2)
    strong = {"a": jnp.asarray(3.0, jnp.float32)}
    weak = {"a": jnp.asarray(3.0)}  # a Python float: weakly typed
    assert not strong["a"].weak_type and weak["a"].weak_type
    assert not f(strong).weak_type
    assert f(weak).weak_type
    assert f(weak).weak_type
    assert len(calls) == 2


def test_dict_key_order_does_not_matter_and_outputs_are_sorted():
    f, calls = _counting(lambda d: {k: v + 1 for k, v in d.items()})
    one, two = jnp.ones(2), jnp.full(3, 2.0)
    a = f({"x": one, "y": two})
    b = f({"y": two, "x": one})
    for out in (a, b):
        assert list(out) == ["x", "y"]  # JAX rebuilds dicts in sorted key order
        np.testing.assert_array_equal(out["x"], [2.0, 2.0])
        np.testing.assert_array_equal(out["y"], [3.0, 3.0, 3.0])
    assert len(calls) == 1


def test_namedtuple_and_tuple_of_the_same_leaves_trace_apart():
    Pair = collections.namedtuple("Pair", "w b")
    f, calls = _counting(lambda p: p)
    w, b = jnp.ones(2), jnp.zeros(2)
    assert type(f(Pair(w, b))) is Pair
    assert type(f((w, b))) is tuple
    assert type(f(Pair(w, b))) is Pair
    assert len(calls) == 2


@tree_util.register_pytree_node_class
class Scaled:
    """A registered node whose metadata (``scale``) is static: part of the treedef."""

    def __init__(self, v, scale):
        self.v, self.scale = v, scale

    def tree_flatten(self):
        return (self.v,), self.scale

    @classmethod
    def tree_unflatten(cls, scale, children):
        return cls(children[0], scale)


def test_node_metadata_is_part_of_the_key():
    f, calls = _counting(lambda s: s.v * s.scale)
    v = jnp.arange(3.0)
    np.testing.assert_array_equal(f(Scaled(v, 2.0)), [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(f(Scaled(v, 2.0)), [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(f(Scaled(v, 3.0)), [0.0, 3.0, 6.0])
    np.testing.assert_array_equal(f(Scaled(v, 2.0)), [0.0, 2.0, 4.0])
    assert len(calls) == 2


def test_unhashable_node_metadata_is_compared_not_hashed():
    # JAX accepts a list as a node's metadata; a change of it must not hit the old trace.
    f = jax.jit(lambda s: s.v * s.scale[0])
    v = jnp.arange(3.0)
    for scale, want in (([2.0], [0, 2, 4]), ([2.0], [0, 2, 4]), ([3.0], [0, 3, 6])):
        np.testing.assert_array_equal(f(Scaled(v, scale)), want)


def test_numpy_and_scalar_leaves_take_the_full_path_with_the_same_results():
    f, calls = _counting(lambda p: p["w"] * p["s"])
    w = jnp.arange(3.0, dtype=jnp.float32)
    expect = [0.0, 2.0, 4.0]
    for p in ({"w": w, "s": jnp.float32(2)}, {"w": np.arange(3.0, dtype=np.float32), "s": 2.0}):
        for _ in range(2):
            out = f(p)
            assert out.dtype == jnp.float32
            np.testing.assert_array_equal(out, expect)
    # a NumPy float32 scalar and an Array float32[] trace alike; the Python float is weak
    assert len(calls) == 2


def test_disable_jit_and_config_changes_reach_a_cached_pytree_function():
    f, calls = _counting(lambda p: p[0] + p[1])
    p = (jnp.ones(2), jnp.ones(2))
    f(p)
    f(p)
    assert len(calls) == 1
    with jax.disable_jit():
        f(p)
        f(p)
    assert len(calls) == 3  # run as Python, twice
    f(p)
    assert len(calls) == 3  # the trace is still cached
    with jax.numpy_rank_promotion("raise"):
        f(p)
        f(p)
    assert len(calls) == 4  # a config change is a new signature, traced once


def test_tracers_in_a_pytree_go_through_the_transformation():
    f, calls = _counting(lambda p: p["a"] * p["b"])
    p = {"a": jnp.asarray(2.0), "b": jnp.asarray(3.0)}
    f(p)
    f(p)
    g = jax.grad(lambda a: f({"a": a, "b": p["b"]}))(jnp.asarray(2.0))
    assert float(g) == 3.0
    batched = jax.vmap(lambda a: f({"a": a, "b": p["b"]}))(jnp.arange(3.0))
    np.testing.assert_array_equal(batched, [0.0, 3.0, 6.0])
