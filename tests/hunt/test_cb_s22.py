"""Session 22: host-callback differences from JAX 0.10.2 found by the callback fuzzers
(tests/hunt/fuzz_s20.py, tests/fuzz/cb.py), reduced to plain programs. Each case compares
jaxlite with JAX through tests/hunt/oracle.py where JAX is importable and asserts JAX's
answer (counted on JAX 0.10.2) as a known value, so the file means something without JAX.
Numbers such as H2 are those of shared/spec/callbacks.md."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE

# --------------------------------- H2: which debug callbacks a checkpoint's backward replays
# JAX decides per callback, at the callback's own level (its partial-eval rules): a debug
# callback the policy saves is replayed only when all its operands are available to the
# backward pass anyway (an input of the checkpoint or of the enclosing cond branch / scan
# body, a recomputed value, the output of a cond / scan / while), and runs once when one is
# a saved value; a while loop is replayed whole. jaxlite replayed a whole cond / scan / jit
# when any callback in it replayed (fuzz_s20 seed 3104: 3 calls where JAX makes 1), and
# replayed callbacks on saved residuals and custom_vjp calls whose outputs it recomputed.


def _bodies(m, cb):
    jx, jnp, lax = m.jx, m.jnp, m.lax

    def saved_value(v):  # a callback on a value the policy saves (a residual)
        y = jnp.sin(v)
        jx.debug.callback(cb("a"), y)
        return y * v

    def cond_output(v):  # a cond's outputs are available after it
        y = lax.cond(jnp.sum(v) > 0, jnp.sin, jnp.cos, v)
        jx.debug.callback(cb("a"), y)
        return y * v

    def cond_branch(v):  # per callback inside the branch
        def b0(v):
            jx.debug.callback(cb("a"), v)
            jx.debug.callback(cb("b"), jnp.sum(v))
            return v

        return lax.cond(jnp.sum(v) > 0, b0, lambda v: v * 2.0, v) * v

    def switch_seed_3104(v):  # the reduced fuzz_s20 seed 3104: branch 1 taken
        def b0(v):
            jx.debug.callback(cb("a"), v)
            return v

        def b1(v):
            jx.debug.callback(cb("b"), {"a": jnp.sum(v), "b": [2.0]})
            return v

        i = (jnp.sum(v) > 0.5).astype(jnp.int32) + (jnp.sum(v) > 3.0).astype(jnp.int32)
        return lax.switch(i, [b0, b1, lambda v: v], v) * v

    def scan_body(v):
        def body(c, _):
            jx.debug.callback(cb("a"), c)
            jx.debug.callback(cb("b"), jnp.sum(c))
            return c * 1.5, None

        return lax.scan(body, v, None, length=2)[0] * v

    def jit_call(v):  # availability flows through a jit
        def inner(u):
            w = jnp.sin(u)
            jx.debug.callback(cb("a"), w)
            jx.debug.callback(cb("b"), u)
            return w

        y = jx.jit(inner)(v)
        jx.debug.callback(cb("c"), y)
        return y * v

    def scan_of_cond(v):
        def body(c, _):
            def b0(c):
                jx.debug.callback(cb("a"), c)
                jx.debug.callback(cb("b"), jnp.sum(c))
                return c * 2.0

            return lax.cond(jnp.sum(c) > 0, b0, lambda c: c * 3.0, c), None

        return lax.scan(body, v, None, length=2)[0] * v

    def while_whole(v):  # a while loop is replayed whole
        def body(c):
            jx.debug.callback(cb("a"), jnp.sum(c[0]))
            return c[0] * 1.5, c[1] + 1

        return lax.while_loop(lambda c: c[1] < 3, body, (lax.stop_gradient(v), 0))[0] * v

    def custom_vjp_undiff(v):  # an effectful call JAX has no rule for: saved, runs once
        @jx.custom_vjp
        def h(u):
            jx.debug.callback(cb("a"), u)
            return jnp.sin(u)

        h.defvjp(lambda u: (jnp.sin(u), jnp.cos(u)), lambda r, g: (g * r,))
        return h(lax.stop_gradient(v)) * v

    return {k: v for k, v in locals().items() if callable(v) and k not in ("cb",)}


def _counts(m, body, policy):
    calls = collections.Counter()

    def cb(tag):
        return lambda *a: calls.update(tag)

    fn = _bodies(m, cb)[body]
    ckpt = m.jx.checkpoint(fn, policy=getattr(m.jx.checkpoint_policies, policy))

    def f(x):
        return m.jnp.sum(m.jnp.sin(ckpt(x)))

    x = np.array([0.5, 0.25, 0.75], np.float32)
    g = m.jx.grad(f)(x)
    return dict(sorted(calls.items())), np.asarray(g)


# JAX 0.10.2's calls per callback under grad (everything_saveable; nothing_saveable).
_H2_CASES = {
    ("saved_value", "everything_saveable"): {"a": 1},
    ("saved_value", "nothing_saveable"): {"a": 2},
    ("cond_output", "everything_saveable"): {"a": 2},
    ("cond_branch", "everything_saveable"): {"a": 2, "b": 1},
    ("cond_branch", "nothing_saveable"): {"a": 2, "b": 2},
    ("switch_seed_3104", "everything_saveable"): {"b": 1},
    ("scan_body", "everything_saveable"): {"a": 4, "b": 2},
    ("scan_body", "dots_saveable"): {"a": 4, "b": 4},
    ("jit_call", "everything_saveable"): {"a": 1, "b": 2, "c": 1},
    ("jit_call", "nothing_saveable"): {"a": 2, "b": 2, "c": 2},
    ("scan_of_cond", "everything_saveable"): {"a": 4, "b": 2},
    ("while_whole", "everything_saveable"): {"a": 6},
    ("custom_vjp_undiff", "nothing_saveable"): {"a": 1},
}


@pytest.mark.parametrize("case", sorted(_H2_CASES), ids="-".join)
def test_H2_checkpoint_replays_debug_callbacks_per_callback_like_jax(case):
    counts, grad = _counts(LITE, *case)
    assert counts == _H2_CASES[case]
    if JAX is not None:
        jcounts, jgrad = _counts(JAX, *case)
        assert jcounts == counts
        np.testing.assert_allclose(grad, jgrad, rtol=1e-5, atol=1e-6)
