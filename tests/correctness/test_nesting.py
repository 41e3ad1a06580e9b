"""Issue 15 items 9 and 10: passes are linear in the nesting depth of control flow (the
loop DCE visits each body once), and generated code never nests without bound (deep
bodies become separate functions). Compile-time targets live in benchmarks/run.py
(``nested_scans_30_compile``), not here."""

from collections import Counter

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax


def _nested(depth, kind):
    """``depth`` nested loops carrying (a, b); only ``a`` is returned, and ``b`` (computed
    with ``cos``) is dead at every level."""

    def run(a, b, d):
        if d == 0:
            return a * 1.01 + 1.0, jnp.cos(b)
        if kind == "scan":
            (a, b), _ = lax.scan(lambda c, _: (run(*c, d - 1), None), (a, b), None, length=1)
            return a, b
        if kind == "while":
            _, a, b = lax.while_loop(
                lambda s: s[0] < 1, lambda s: (s[0] + 1, *run(s[1], s[2], d - 1)), (0, a, b)
            )
            return a, b
        return lax.fori_loop(0, 1, lambda i, c: run(*c, d - 1), (a, b))

    return lambda x: run(x, x, depth)[0]


def _all_primitives(jaxpr, out):
    from jaxlite._src.core.ir import subjaxprs

    for eqn in jaxpr.eqns:
        out.add(eqn.primitive.name)
    for sub in subjaxprs(jaxpr):
        _all_primitives(sub, out)
    return out


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("kind", ["scan", "while", "fori"])
def test_loop_dce_visits_each_body_once(kind, monkeypatch):
    from jaxlite._src.interpreters import dce

    depth = 12
    closed = jax.make_jaxpr(_nested(depth, kind))(1.0)
    assert "cos" in _all_primitives(closed.jaxpr, set())
    visits = Counter()
    real = dce.dce_jaxpr

    def counting(jaxpr, *args, **kwargs):
        visits[id(jaxpr)] += 1
        return real(jaxpr, *args, **kwargs)

    monkeypatch.setattr(dce, "dce_jaxpr", counting)
    pruned, _ = dce.dce_closed_jaxpr(closed)
    # Every body once (the while loops' cond jaxprs are bodies too), never 2**depth.
    assert max(visits.values()) == 1
    assert sum(visits.values()) <= (2 if kind == "while" else 1) * depth + 1
    # ... and the DCE did its job all the way down: the dead ``cos`` is gone.
    assert "cos" not in _all_primitives(pruned.jaxpr, set())


@pytest.mark.parametrize("kind", ["scan", "while", "fori"])
def test_thirty_nested_loops_compile_and_run(kind):
    out = jax.jit(_nested(30, kind))(1.0)
    np.testing.assert_allclose(float(out), 2.01, rtol=1e-6)


def _nested_cond(depth):
    def f(x, d):
        if d == 0:
            return x + 1.0
        return lax.cond(x > -1e9, lambda y: f(y, d - 1), lambda y: y - 1.0, x)

    return lambda x: f(x, depth)


def test_99_nested_conds_under_jit():
    assert float(jax.jit(_nested_cond(99))(0.0)) == 1.0


def test_grad_and_vmap_of_deeply_nested_cond():
    f = _nested_cond(30)
    assert float(jax.grad(jax.jit(f))(2.0)) == 1.0
    np.testing.assert_array_equal(np.asarray(jax.jit(jax.vmap(f))(jnp.arange(3.0))), [1, 2, 3])


def test_deep_mixed_nesting_under_jit():
    def f(x, d):
        if d == 0:
            return jnp.sin(x)
        if d % 3 == 0:
            return lax.cond(x < 100.0, lambda y: f(y, d - 1), lambda y: -y, x)
        if d % 3 == 1:
            return lax.fori_loop(0, 1, lambda i, c: f(c, d - 1), x)
        return lax.scan(lambda c, _: (f(c, d - 1), None), x, None, length=1)[0]

    out = jax.jit(lambda x: f(x, 40))(0.5)
    np.testing.assert_allclose(float(out), np.sin(np.float32(0.5)), rtol=1e-6)
