# ruff: noqa: E501 (JAX's messages kept whole)
"""Session 26 pytree sweep (tests/hunt/sweep_tree_s26.py: ``jax.tree_util`` / ``jax.tree``
and the transformations' pytree handling, 2,345 cases against JAX 0.10.2). The families fixed,
each pinned here with hand-written expectations, run under JAX too where it is importable:

* Wrong answers: a prefix tree (``vmap`` ``in_axes`` / ``out_axes``, ``tree_map``'s other
  trees, ``tree_broadcast``) whose ``dict`` was an ``OrderedDict`` / ``defaultdict`` on the
  other side was accepted by optree, and ``vmap`` then paired the axes in one order with
  the leaves in the other (the wrong argument mapped); JAX's node types must be equal.
  ``grad`` / ``jacfwd`` / ``jacrev`` / ``hessian`` / ``value_and_grad`` with a repeated
  ``argnums`` answered 0 for the repeated slot (JAX raises ``TypeError``). ``deque`` and
  struct sequences (``time.struct_time``) were optree containers; JAX's leaves.
  ``tree_transpose`` with a leafless inner structure raised (JAX: its answer).
* Errors as JAX's: custom-node metadata mismatches ("different pytree metadata" with the
  diff), ``vmap``'s "Mismatch details" text, duplicate registrations, ``tree_transpose``'s
  "Mismatch", an invalid ``jit`` / ``eval_shape`` output named by its path, ``linearize``'s
  tangent structure, ``custom_vjp``'s bwd structure and fwd-not-a-pair texts, ``vmap``
  without arguments; ``flatten_one_level`` containers; ``Lowered.in_tree`` / ``out_tree``.

Left (docs/compat.md, "Session 26 pytree sweep"): the treedef's own methods and repr
(optree's ``PyTreeSpec``), ``PyTreeDef.node_data``, ``default_registry``,
``register_pytree_with_keys``' ``flatten_func`` order, JAX's count-only ``tree_transpose``
check, ``flatten_one_level_with_keys`` of a namedtuple (JAX repeats the first key).
"""

from __future__ import annotations

import collections
import dataclasses
import time
import types

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE

ENGINES = [LITE] + ([JAX] if JAX is not None else [])
IDS = ["jaxlite"] + (["jax"] if JAX is not None else [])


@pytest.fixture(params=ENGINES, ids=IDS)
def m(request):
    jx = request.param.jx
    return types.SimpleNamespace(jx=jx, tu=jx.tree_util, tree=jx.tree)


def _x():
    return np.array([1.0, 2.0, 3.0], np.float32)


def test_vmap_in_axes_dict_kinds_must_match(m):
    od = collections.OrderedDict
    f = lambda d: d["a"] - 10 * d["b"]  # noqa: E731
    axes = (od([("b", None), ("a", 0)]),)
    # the same kinds: the axes go by key (b unmapped), whatever the insertion order
    b = np.float32(1)
    for arg in (od([("a", _x()), ("b", b)]), od([("b", b), ("a", _x())])):
        if list(arg) != list(axes[0]):
            with pytest.raises(ValueError, match="different pytree metadata"):
                m.jx.vmap(f, in_axes=axes)(arg)
            continue
        np.testing.assert_array_equal(m.jx.vmap(f, in_axes=axes)(arg), [-9.0, -8.0, -7.0])
    # an OrderedDict prefix of a dict, and a dict prefix of an OrderedDict: JAX raises
    # (jaxlite mapped "b" and not "a" for the second, with equal shapes)
    with pytest.raises(ValueError) as e:
        m.jx.vmap(f, in_axes=axes)({"a": _x(), "b": _x()})
    assert str(e.value) == (
        "vmap in_axes specification must be a tree prefix of the corresponding value; \n"
        "  Mismatch details (1 found):\n"
        "  pytree structure error: different types at key path\n    vmap in_axes[0]\n"
        "At that key path, the prefix pytree vmap in_axes has a subtree of type\n"
        "    <class 'collections.OrderedDict'>\nbut at the same key path the full pytree "
        "has a subtree of different type\n    <class 'dict'>."
    )
    with pytest.raises(ValueError, match="different types at key path"):
        m.jx.vmap(f, in_axes=({"b": None, "a": 0},))(od([("b", _x()), ("a", _x())]))


def test_vmap_prefix_mismatch_message(m):
    with pytest.raises(ValueError) as e:
        m.jx.vmap(lambda t: t, in_axes=((0, 0),))((_x(), _x(), _x()))
    assert str(e.value) == (
        "vmap in_axes specification must be a tree prefix of the corresponding value; \n"
        "  Mismatch details (1 found):\n"
        "  pytree structure error: different lengths of tuple at key path\n    vmap in_axes[0]\n"
        "At that key path, the prefix pytree vmap in_axes has a subtree of type tuple of "
        "length 2, but the full pytree has a subtree of the same type but of length 3."
    )
    with pytest.raises(ValueError, match="^vmap out_axes specification must be a tree prefix"):
        m.jx.vmap(lambda a: (a, a), out_axes=(0, 0, 0))(_x())
    with pytest.raises(ValueError) as e:
        m.jx.vmap(lambda t: t)(())
    assert str(e.value) == (
        "vmap wrapped function must be passed at least one argument containing an array or "
        "axis_size must be specified, got empty *args=((),) and **kwargs={}"
    )


def test_tree_map_dict_kinds_and_metadata(m):
    od, dd = collections.OrderedDict, collections.defaultdict
    f = lambda a, b: (a, b)  # noqa: E731
    with pytest.raises(ValueError, match="different types at key path\n    tree_map tree\n"):
        m.tree.map(f, {"a": 1}, od(a=1))
    with pytest.raises(
        ValueError, match=r"different types at key path\n    tree_map tree\[0\]\['a'\]"
    ):
        m.tree.map(f, [{"a": {"b": 1}}], [{"a": od(b=2)}])
    with pytest.raises(ValueError, match="different pytree metadata"):
        m.tree.map(f, od([("a", 1), ("b", 2)]), od([("b", 3), ("a", 4)]))
    with pytest.raises(ValueError, match="different pytree metadata"):
        m.tree.map(f, dd(int, a=1), dd(list, a=1))
    # the same kinds are paired by key
    assert m.tree.map(f, {"b": 1, "a": 2}, {"a": 3, "b": 4}) == {"a": (2, 3), "b": (1, 4)}
    got = m.tree.map(f, od([("b", 1), ("a", 2)]), od([("b", 3), ("a", 4)]))
    assert type(got) is od and list(got.items()) == [("b", (1, 3)), ("a", (2, 4))]
    with pytest.raises(ValueError) as e:
        m.tree.map(f, {"a": 1}, {"a": 1, "b": 2})
    assert str(e.value).endswith(
        "with 2 child keys\n    a b\nso the symmetric difference on key sets is\n    b"
    )


def test_custom_node_metadata_mismatch_message(m):
    @dataclasses.dataclass
    class Cfg:
        w: object
        tag: str

    m.tu.register_dataclass(Cfg, data_fields=["w"], meta_fields=["tag"])
    with pytest.raises(ValueError) as e:
        m.tree.map(lambda a, b: a, Cfg(1, "x"), Cfg(1, "y"))
    name = f"{Cfg.__module__}.{Cfg.__qualname__}"
    assert str(e.value) == (
        "pytree structure error: different pytree metadata at key path\n    tree_map tree\n"
        f"At that key path, the prefix pytree tree_map tree has a subtree of type\n    <class '{name}'>\n"
        "with metadata\n    ('x',)\nbut at the same key path the full pytree has a subtree of "
        "the same type but with metadata\n    ('y',)\nso the diff in the metadata at these "
        "pytree nodes is\n    - ('x',)\n    ?   ^\n\n    + ('y',)\n    ?   ^\n"
    )
    with pytest.raises(
        ValueError,
        match="^pytree structure error: different lengths of list at key path\n    broadcast_prefix prefix_tree\n",
    ):
        m.tree.broadcast([1, 2], [1, 2, 3])


@pytest.mark.parametrize("argnums", [(0, 0), (1, -1)])
def test_repeated_argnums_raise(m, argnums):
    f = lambda a, b: a * b * b  # noqa: E731
    for name in ("grad", "value_and_grad", "jacfwd", "jacrev", "hessian"):
        with pytest.raises(TypeError):
            getattr(m.jx, name)(f, argnums=argnums)(2.0, 3.0)
    g = m.jx.grad(f, argnums=(1, 0))(2.0, 3.0)  # distinct argnums in any order
    assert [float(v) for v in g] == [12.0, 9.0]


def test_deque_and_struct_sequences_are_leaves(m):
    dq, st = collections.deque([1, 2]), time.gmtime(0)
    tree = [dq, {"t": st, "x": 1}]
    assert m.tree.leaves(tree) == [dq, st, 1]
    assert m.tree.structure(tree).num_nodes == 5
    assert [m.tu.keystr(p) for p, _ in m.tu.tree_leaves_with_path(tree)] == [
        "[0]",
        "[1]['t']",
        "[1]['x']",
    ]
    assert m.tree.map(lambda v: v, tree)[0] is dq
    assert not m.tu.is_tree_node(collections.deque)
    assert m.tree.broadcast(tree, tree)[0] is dq
    with pytest.raises(ValueError, match="can't tree-flatten type: <class 'collections.deque'>"):
        m.tu.flatten_one_level(dq)
    with pytest.raises(TypeError):  # not an array
        m.jx.jit(lambda d: d)(collections.deque([1.0]))


def test_tree_transpose(m):
    tu = m.tu
    outer, inner = tu.tree_structure([0, 0]), tu.tree_structure((0, 0))
    assert tu.tree_transpose(outer, inner, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])
    assert tu.tree_transpose(outer, tu.tree_structure(None), [None, None]) is None
    with pytest.raises(TypeError) as e:
        tu.tree_transpose(outer, inner, [(1, 2), (3, 4, 5)])
    assert (
        str(e.value)
        == "Mismatch\nPyTreeDef([(*, *), (*, *, *)])\n != \nPyTreeDef([(*, *), (*, *)])"
    )


def test_duplicate_registration_message(m):
    class Node:
        pass

    m.tu.register_pytree_node(Node, lambda n: ((), None), lambda _, c: Node())
    with pytest.raises(ValueError) as e:
        m.tu.register_pytree_node(Node, lambda n: ((), None), lambda _, c: Node())
    assert str(e.value) == f"Duplicate custom PyTreeDef type registration for {Node}."
    with pytest.raises(
        ValueError, match="^Duplicate custom PyTreeDef type registration for <class 'tuple'>.$"
    ):
        m.tu.register_pytree_node(tuple, lambda t: (t, None), lambda _, c: tuple(c))


def test_flatten_one_level_containers(m):
    tu, od = m.tu, collections.OrderedDict
    assert tu.flatten_one_level([1, 2]) == ([1, 2], None)
    assert tu.flatten_one_level((1, 2)) == ((1, 2), None)
    assert tu.flatten_one_level({"b": 1, "a": 2}) == ((2, 1), ("a", "b"))
    assert tu.flatten_one_level(od(b=1, a=2)) == ([1, 2], ("b", "a"))
    assert tu.flatten_one_level_with_keys(None) == ((), None)
    keyed, meta = tu.flatten_one_level_with_keys(od(b=1))
    assert keyed == [(tu.DictKey("b"), 1)] and meta == ("b",)


def _returns_str(x):
    return {"a": [x, "q"]}


def test_invalid_output_named_by_its_path(m):
    code = _returns_str.__code__
    msg = (
        f"function _returns_str at {code.co_filename}:{code.co_firstlineno} traced for jit "
        "returned a value of type <class 'str'> at output component ['a'][1], which is not "
        "a valid JAX type"
    )
    for call in (lambda: m.jx.jit(_returns_str)(1.0), lambda: m.jx.eval_shape(_returns_str, 1.0)):
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value) == msg


def test_linearize_and_custom_vjp_structure_messages(m):
    lin = m.jx.linearize(lambda d: d["a"], {"a": 1.0})[1]
    with pytest.raises(TypeError) as e:
        lin({"b": 1.0})
    assert str(e.value) == "expected PyTreeDef(({'a': *},)), got PyTreeDef(({'b': *},))"

    @m.jx.custom_vjp
    def f(d):
        return d["a"] * d["b"]

    f.defvjp(lambda d: (f(d), d), lambda r, g: ({"a": g, "c": g},))
    with pytest.raises(TypeError) as e:
        m.jx.grad(f)({"a": 1.0, "b": 2.0})
    assert str(e.value).endswith(
        "but got bwd output structure PyTreeDef(({'a': *, 'c': *},)) for primal input "
        "structure PyTreeDef(({'a': *, 'b': *},))."
    )

    @m.jx.custom_vjp
    def g(x):
        return x * 2

    g.defvjp(lambda x: (x, 1, 2), lambda r, ct: (ct,))
    with pytest.raises(TypeError, match=r"but instead of a pair the fwd rule <lambda> produced \("):
        m.jx.grad(g)(1.0)


def test_lowered_in_and_out_tree(m):
    lowered = m.jx.jit(lambda t: t).lower({"b": np.float32(1), "a": (_x(), None)})
    assert lowered.in_tree == m.tu.tree_structure((({"a": (0, None), "b": 0},), {}))
    assert lowered.out_tree == m.tu.tree_structure({"a": (0, None), "b": 0})
    assert lowered.compile().out_tree == lowered.out_tree
