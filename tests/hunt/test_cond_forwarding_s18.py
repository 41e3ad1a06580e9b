"""Session 18: ``lax.cond``/``switch`` outputs that every branch returns as the same operand
are that operand itself, as in JAX (which prunes them from the ``cond``). Seen in flax.nnx's
own tests: ``vmap`` with a batched predicate and ``out_axes=None`` for a value the branches
only pass through raised "got axis spec None but output was batched" in jaxlite (the
``cond`` batching rule selects every output on the predicate). Each case asserts the known
answer and, where JAX is importable, compares with it (tests/hunt/oracle.py)."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite import lax
from tests.hunt.oracle import same

_P = np.array([True, False])


def test_vmap_batched_predicate_keeps_a_passthrough_unbatched():
    def build(m):
        y = m.jnp.arange(3.0)

        def f(p, x):
            return m.lax.cond(p, lambda a, b: (a, b + 1), lambda a, b: (a, b - 1), x, y)

        return m.jx.vmap(f, in_axes=(0, None), out_axes=(None, 0))(_P, np.float32(2))

    a, b = same(build)
    assert a.shape == () and float(a) == 2.0
    np.testing.assert_array_equal(np.asarray(b), [[1, 2, 3], [-1, 0, 1]])


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_switch_passthrough_under_vmap_out_axes_none(jit):
    def build(m):
        def f(i, x):
            return m.lax.switch(i, [lambda a: a, lambda a: a, lambda a: a], x)

        g = m.jx.vmap(f, in_axes=(0, None), out_axes=None)
        g = m.jx.jit(g) if jit else g
        return g(np.array([0, 2], np.int32), np.ones(2, np.float32))

    out = same(build)
    np.testing.assert_array_equal(np.asarray(out), [1.0, 1.0])


def test_a_value_every_branch_captures_is_forwarded_too():
    # (A captured 0-d Array is a literal in jaxlite, a constvar in JAX: docs/compat.md; a
    # vector is a constvar in both.)
    def build(m):
        z = m.jnp.full(2, 3.0)
        return m.jx.vmap(
            lambda p, x: m.lax.cond(p, lambda a: (z, a), lambda a: (z, a + 1), x),
            in_axes=(0, None), out_axes=(None, 0),
        )(_P, np.float32(1))

    z, a = same(build)
    assert np.asarray(z).tolist() == [3.0, 3.0] and np.asarray(a).tolist() == [1.0, 2.0]


def test_outputs_that_differ_between_branches_still_select():
    # Same operand position is required in every branch: (a, b) in one and (b, a) in the
    # other are real selections, batched with the predicate.
    def build(m):
        return m.jx.vmap(
            lambda p, x, y: m.lax.cond(p, lambda a, b: (a, b), lambda a, b: (b, a), x, y),
            in_axes=(0, None, None),
        )(_P, np.float32(1), np.float32(2))

    a, b = same(build)
    assert np.asarray(a).tolist() == [1.0, 2.0] and np.asarray(b).tolist() == [2.0, 1.0]


def test_forwarded_output_is_the_operand_and_keeps_its_type():
    x = jnp.ones(3)
    r = lax.cond(True, lambda a: (a, a * 2), lambda a: (a, a), x)
    assert r[0] is x  # JAX returns the operand object itself
    # A weakly typed operand passed through stays weak (the cond would join the types).
    w = same(lambda m: m.jx.jit(lambda p: m.lax.cond(p, lambda a: a, lambda a: a, 1.0))(True))
    assert w.aval.weak_type and float(w) == 1.0
    jaxpr = jaxlite.make_jaxpr(
        lambda p, u, v: lax.cond(p, lambda a, b: (a, b + 1), lambda a, b: (a, b - 1), u, v)
    )(True, 1.0, 2.0)
    (eqn,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == "cond"]
    assert len(eqn.outvars) == 1 and jaxpr.jaxpr.outvars[0] is jaxpr.jaxpr.invars[1]


def test_gradient_and_effects_through_a_forwarding_cond():
    g = same(lambda m: m.jx.grad(
        lambda x: m.lax.cond(x > 0, lambda a: a, lambda a: a, x) * 3.0)(np.float32(2)))
    assert float(g) == 3.0
    # With every output forwarded the cond still runs: its effects happen.
    seen = []

    def f(x):
        def branch(a):
            jaxlite.debug.callback(lambda: seen.append(1))
            return a

        return lax.cond(x > 0, branch, branch, x)

    jaxlite.jit(f)(1.0)
    jaxlite.effects_barrier()
    assert seen == [1]
