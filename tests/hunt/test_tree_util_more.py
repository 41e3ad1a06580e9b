"""jax.tree_util / jax.tree additions of session 8 against JAX 0.10.2: tree_broadcast,
flatten_one_level(_with_keys), is_tree_node, tree_reduce_associative (its pairing order),
jax.tree.static."""

from __future__ import annotations

import collections
import dataclasses
import operator

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.tree_util  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.tree  # noqa: E402,F401
import jaxlite.tree_util  # noqa: E402,F401

tu, jtu = jaxlite.tree_util, jax.tree_util
P = collections.namedtuple("P", "x y")
TREES = [
    {"b": 1, "a": [2, None]},
    [1, (2, 3)],
    (1,),
    None,
    collections.OrderedDict(b=1, a=2),
    P(1, [2]),
    collections.defaultdict(list, {"b": 1, "a": 2}),
]


@pytest.mark.parametrize("tree", TREES, ids=lambda t: type(t).__name__)
def test_flatten_one_level(tree):
    ours, theirs = tu.flatten_one_level(tree), jtu.flatten_one_level(tree)
    assert list(ours[0]) == list(theirs[0]) and ours[1] == theirs[1]
    keys_ours = [k for k, _ in tu.flatten_one_level_with_keys(tree)[0]]
    keys_jax = [k for k, _ in jtu.flatten_one_level_with_keys(tree)[0]]
    if isinstance(tree, P):  # JAX 0.10.2 names both namedtuple fields 'x'; the true keys
        assert [k.name for k in keys_ours] == ["x", "y"]
    else:
        assert [str(k) for k in keys_ours] == [str(k) for k in keys_jax]


def test_flatten_one_level_of_a_leaf():
    for leaf in (3, np.ones(2)):
        with pytest.raises(ValueError, match="can't tree-flatten type"):
            tu.flatten_one_level(leaf)
        with pytest.raises(ValueError, match="can't tree-flatten type"):
            jtu.flatten_one_level(leaf)


def test_is_tree_node():
    for typ in (list, tuple, dict, type(None), int, float, np.ndarray, P, collections.OrderedDict):
        assert tu.is_tree_node(typ) == jtu.is_tree_node(typ), typ
    assert tu.is_tree_node(tu.Partial) and not tu.is_tree_node(type(jaxlite.numpy.ones(1)))


def test_tree_broadcast():
    cases = [
        ([1, {"a": 2}], [[3, 4], {"a": (5, 6)}]),
        (1, {"x": [1, 2]}),
        ({"a": 0, "b": None}, {"a": [1, 2], "b": None}),
    ]
    for prefix, full in cases:
        assert tu.tree_broadcast(prefix, full) == jtu.tree_broadcast(prefix, full)
        assert jaxlite.tree.broadcast(prefix, full) == jax.tree.broadcast(prefix, full)
    with pytest.raises(ValueError):
        jtu.tree_broadcast([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        tu.tree_broadcast([1, 2], [1, 2, 3])


@pytest.mark.parametrize("n", [1, 2, 5, 8, 13])
def test_tree_reduce_associative_pairing(n):
    def recorder(log):
        def op(a, b):
            log.append((a, b))
            return a + b

        return op

    ours, theirs = [], []
    tree = {"k": list(range(n))}
    r1 = tu.tree_reduce_associative(recorder(ours), tree)
    r2 = jtu.tree_reduce_associative(recorder(theirs), tree)
    assert r1 == r2 and ours == theirs
    assert jaxlite.tree.reduce_associative(operator.mul, [2, 3, 4]) == 24


def test_tree_reduce_associative_empty():
    with pytest.raises(TypeError, match="Must specify identity"):
        tu.tree_reduce_associative(operator.add, [])
    assert tu.tree_reduce_associative(operator.add, [], identity=0) == 0


def test_tree_static_field():
    @tu.register_dataclass
    @dataclasses.dataclass
    class Op:
        x: object
        n: int = jaxlite.tree.static(default=3)

    leaves, treedef = tu.tree_flatten(Op(np.ones(2)))
    assert len(leaves) == 1 and tu.tree_unflatten(treedef, leaves).n == 3
    out = jaxlite.jit(lambda op: op.x * op.n)(Op(np.ones(2), 5))
    np.testing.assert_array_equal(np.asarray(out), [5.0, 5.0])
