"""Pytree utilities (issue 2): JAX's ``tree_util`` API over optree.

Runs unchanged against real JAX in oracle mode (``JAXLITE_ORACLE=jax``).
"""

import collections
import dataclasses
import functools

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import tree_util as tu


def test_flatten_unflatten_roundtrip_and_order():
    tree = {"b": (1, [2, 3]), "a": 4, "c": None}
    leaves, treedef = tu.tree_flatten(tree)
    assert leaves == [4, 1, 2, 3]  # dict keys sorted; None is an empty node
    assert tu.tree_unflatten(treedef, leaves) == tree
    assert treedef.num_leaves == 4
    assert tu.tree_unflatten(treedef, [10, 20, 30, 40]) == {"b": (20, [30, 40]), "a": 10, "c": None}


def test_none_is_an_empty_node_and_leaves():
    assert tu.tree_leaves([None, 1, (None, 2)]) == [1, 2]
    assert tu.tree_leaves(None) == []
    assert tu.tree_map(lambda x: x * 2, (None, 3)) == (None, 6)
    assert tu.tree_structure(None).num_leaves == 0


def test_structure_equality():
    assert tu.tree_structure((1, {"a": 2})) == tu.tree_structure((5.0, {"a": "leaf"}))
    assert tu.tree_structure((1, {"a": 2})) != tu.tree_structure((5.0, {"a": None}))
    assert tu.tree_structure((1, 2)) != tu.tree_structure([1, 2])
    assert tu.tree_structure({"a": 1}) != tu.tree_structure({"b": 1})


def test_tree_map_multiple_trees_and_is_leaf():
    a = {"x": 1, "y": (2, 3)}
    b = {"x": 10, "y": (20, 30)}
    assert tu.tree_map(lambda u, v: u + v, a, b) == {"x": 11, "y": (22, 33)}
    out = tu.tree_map(
        lambda t: len(t), {"p": (1, 2), "q": (3,)}, is_leaf=lambda n: isinstance(n, tuple)
    )
    assert out == {"p": 2, "q": 1}


def test_tree_map_mismatched_structures_raise():
    with pytest.raises((ValueError, TypeError)):
        tu.tree_map(lambda u, v: u + v, (1, 2), (1, 2, 3))
    with pytest.raises((ValueError, TypeError)):
        tu.tree_map(lambda u, v: u + v, {"a": 1}, {"b": 1})


def test_namedtuple_and_ordered_dict_are_nodes():
    Point = collections.namedtuple("Point", ["x", "y"])
    p = tu.tree_map(lambda v: v + 1, Point(1, 2))
    assert isinstance(p, Point) and p == Point(2, 3)
    od = collections.OrderedDict([("z", 1), ("a", 2)])
    assert tu.tree_leaves(od) == [1, 2]  # insertion order kept


def test_arrays_are_leaves():
    tree = (jnp.ones(3), np.zeros(2), 1.0)
    leaves = tu.tree_leaves(tree)
    assert len(leaves) == 3 and leaves[0].shape == (3,)


def test_register_pytree_node():
    class Box:
        def __init__(self, value, label):
            self.value, self.label = value, label

    tu.register_pytree_node(
        Box, lambda b: ((b.value,), b.label), lambda label, kids: Box(kids[0], label)
    )
    b = tu.tree_map(lambda v: v * 3, Box(2, "lbl"))
    assert isinstance(b, Box) and b.value == 6 and b.label == "lbl"
    out = jax.jit(lambda bx: Box(bx.value + 1.0, bx.label))(Box(jnp.ones(2), "k"))
    assert out.label == "k"
    np.testing.assert_allclose(np.asarray(out.value), 2.0)


def test_register_pytree_node_class_under_vmap():
    @tu.register_pytree_node_class
    class Pair:
        def __init__(self, a, b):
            self.a, self.b = a, b

        def tree_flatten(self):
            return (self.a, self.b), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)

    out = jax.vmap(lambda p: Pair(p.a * 2.0, p.a + p.b))(Pair(jnp.arange(3.0), jnp.ones(3)))
    np.testing.assert_allclose(np.asarray(out.a), np.arange(3.0) * 2)
    np.testing.assert_allclose(np.asarray(out.b), np.arange(3.0) + 1)


def test_register_dataclass():
    @functools.partial(tu.register_dataclass, data_fields=["w", "b"], meta_fields=["name"])
    @dataclasses.dataclass
    class Layer:
        w: object
        b: object
        name: str

    layer = Layer(jnp.ones((2, 2)), jnp.zeros(2), "dense")
    leaves = tu.tree_leaves(layer)
    assert len(leaves) == 2
    doubled = tu.tree_map(lambda x: x * 2, layer)
    assert doubled.name == "dense"
    np.testing.assert_allclose(np.asarray(doubled.w), 2.0)
    assert jax.jit(lambda l: l.w @ l.b)(layer).shape == (2,)


def test_register_pytree_with_keys_and_paths():
    class Vec:
        def __init__(self, x, y):
            self.x, self.y = x, y

    tu.register_pytree_with_keys(
        Vec,
        lambda v: (((tu.GetAttrKey("x"), v.x), (tu.GetAttrKey("y"), v.y)), None),
        lambda aux, kids: Vec(*kids),
    )
    paths = [tu.keystr(p) for p, _ in tu.tree_flatten_with_path({"v": Vec(1, 2)})[0]]
    assert paths == ["['v'].x", "['v'].y"]
    assert tu.tree_leaves(Vec(3, 4)) == [3, 4]


def test_flatten_with_path_and_keystr():
    tree = {"a": [10, (20, 30)], "b": 40}
    flat, treedef = tu.tree_flatten_with_path(tree)
    assert [tu.keystr(p) for p, _ in flat] == ["['a'][0]", "['a'][1][0]", "['a'][1][1]", "['b']"]
    assert [v for _, v in flat] == [10, 20, 30, 40]
    assert treedef == tu.tree_structure(tree)
    key = flat[1][0]
    assert isinstance(key[0], tu.DictKey) and key[0].key == "a"
    assert isinstance(key[1], tu.SequenceKey) and key[1].idx == 1


def test_tree_map_with_path():
    out = tu.tree_map_with_path(lambda p, v: f"{tu.keystr(p)}={v}", {"x": (1, 2)})
    assert out == {"x": ("['x'][0]=1", "['x'][1]=2")}


def test_tree_reduce_and_all():
    assert tu.tree_reduce(lambda a, b: a + b, {"a": 1, "b": (2, 3)}) == 6
    assert tu.tree_reduce(lambda a, b: a + b, [], 7) == 7
    assert tu.tree_all([True, (True, True)]) and not tu.tree_all([True, (False,)])


def test_partial_is_a_pytree_and_jit_argument():
    def scale(w, x):
        return w * x

    p = tu.Partial(scale, jnp.asarray(3.0))
    np.testing.assert_allclose(np.asarray(p(2.0)), 6.0)
    leaves = tu.tree_leaves(p)
    assert len(leaves) == 1
    out = jax.jit(lambda f, x: f(x))(p, jnp.arange(3.0))
    np.testing.assert_allclose(np.asarray(out), np.arange(3.0) * 3)


def test_tree_transpose():
    outer = tu.tree_structure([0, 0])
    inner = tu.tree_structure((0, 0, 0))
    out = tu.tree_transpose(outer, inner, [(1, 2, 3), (4, 5, 6)])
    assert out == ([1, 4], [2, 5], [3, 6])


def test_all_leaves_and_treedef_is_leaf():
    assert tu.all_leaves([1, 2.0, jnp.ones(2)])
    assert not tu.all_leaves([(1, 2)])
    assert tu.treedef_is_leaf(tu.tree_structure(1))
    assert not tu.treedef_is_leaf(tu.tree_structure((1,)))


def test_jax_tree_module_aliases():
    assert jax.tree.map(lambda x: x + 1, {"a": 1}) == {"a": 2}
    assert jax.tree.leaves((1, (2, None))) == [1, 2]
    leaves, treedef = jax.tree.flatten([1, 2])
    assert jax.tree.unflatten(treedef, leaves) == [1, 2]
    assert jax.tree.structure((1, 2)) == tu.tree_structure((3, 4))
