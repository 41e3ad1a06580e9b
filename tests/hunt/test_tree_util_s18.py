# ruff: noqa: E501 (JAX's messages kept whole)
"""Session 18 differential sweep of jax.tree_util against JAX 0.10.2: ``treedef_is_leaf`` of
``None``'s structure (JAX: True, a single node), ``tree_transpose`` inferring the inner
structure from ``None``, and ``register_dataclass`` (jaxlite accepted field lists that miss
a dataclass field, so unflattening silently lost it; it inferred a missing
``meta_fields``; and it rebuilt instances without calling ``__init__``, so
``__post_init__`` and ``default_factory`` fields differed). Expected values are JAX's
(checked against it where importable)."""

from __future__ import annotations

import dataclasses

import pytest

import jaxlite
from tests.hunt.oracle import JAX, LITE

ENGINES = [LITE] + ([JAX] if JAX is not None else [])
IDS = ["jaxlite"] + (["jax"] if JAX is not None else [])
MSG = "data_fields and meta_fields must include all dataclass fields with ``init=True`` and only them."


@pytest.fixture(params=ENGINES, ids=IDS)
def tu(request):
    return request.param.jx.tree_util


def test_treedef_is_leaf_and_all_leaves(tu):
    assert tu.treedef_is_leaf(tu.tree_structure(None))
    assert tu.treedef_is_leaf(tu.tree_structure(1))
    assert not tu.treedef_is_leaf(tu.tree_structure([1]))
    assert not tu.all_leaves([None]) and tu.all_leaves([1, 2.0])


def test_tree_transpose_infers_the_inner_structure(tu):
    outer = tu.tree_structure([0, 0])
    assert tu.tree_transpose(outer, None, [(1, 2, 3), (4, 5, 6)]) == ([1, 4], [2, 5], [3, 6])
    inner = tu.tree_structure({"a": 0, "b": 0})
    got = tu.tree_transpose(outer, inner, [{"a": 1, "b": 2}, {"a": 3, "b": 4}])
    assert got == {"a": [1, 3], "b": [2, 4]}


def test_register_dataclass_checks_its_fields(tu):
    @dataclasses.dataclass
    class DC:
        x: int
        y: int

    with pytest.raises(ValueError) as e:
        tu.register_dataclass(DC, data_fields=["x"], meta_fields=[])
    assert str(e.value) == f"{MSG} Missing fields: {{'y'}}. Add them to drop_fields to suppress this error."
    with pytest.raises(ValueError) as e:
        tu.register_dataclass(DC, data_fields=["x", "q"], meta_fields=["y"])
    assert str(e.value) == f"{MSG} Unexpected fields: {{'q'}}."
    with pytest.raises(TypeError, match="must both be specified when either is specified"):
        tu.register_dataclass(DC, data_fields=["x"])

    class NotDC:
        pass

    with pytest.raises(TypeError, match="required when nodetype is not a dataclass"):
        tu.register_dataclass(NotDC)

    @dataclasses.dataclass
    class InitFalse:
        x: int
        z: int = dataclasses.field(default=0, init=False)

    with pytest.raises(ValueError, match="Unexpected fields: {'z'}"):
        tu.register_dataclass(InitFalse)  # inferred fields include z, as in JAX


def test_register_dataclass_unflattens_through_init(tu):
    calls = []

    @dataclasses.dataclass
    class DC:
        x: object
        y: int
        z: list = dataclasses.field(default_factory=list)

        def __post_init__(self):
            calls.append(self.x)

    tu.register_dataclass(DC, data_fields=["x"], meta_fields=["y"], drop_fields=["z"])
    d = DC(1, 2, [7])
    calls.clear()
    r = tu.tree_map(lambda v: v * 10, d)
    assert (r.x, r.y, r.z) == (10, 2, []) and calls == [10]
    assert tu.tree_leaves(d) == [1]


def test_jaxlite_jit_of_none_and_a_dataclass_argument():
    assert jaxlite.jit(lambda: None)() is None

    @jaxlite.tree_util.register_dataclass
    @dataclasses.dataclass
    class P:
        w: object
        n: int = dataclasses.field(metadata=dict(static=True), default=2)

    out = jaxlite.jit(lambda p: p.w * p.n)(P(jaxlite.numpy.ones(2)))
    assert out.tolist() == [2.0, 2.0]
