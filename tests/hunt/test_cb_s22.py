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


# ------------------------------------------ the caller's NumPy error state inside callbacks
# A callback runs on the host with the caller's NumPy settings (JAX calls it in the calling
# thread): its own ``np.log(0)`` warns, or raises under ``np.errstate(all="raise")`` /
# ``np.seterr(all="raise")`` (C1/C3: a PC/IO exception reaches the caller as a
# RuntimeError). jaxlite's generated code ran the whole body of a jitted function holding a
# kernel that is silent on IEEE exceptions (``rules.quiet_fp``: log, div, ...) inside
# ``np.errstate(all="ignore")``, callbacks included: they saw "ignore". The jitted code
# itself stays silent (JAX's log(0) does not warn).


def _fp_observed(m, api, form, mode):
    import warnings

    jx, jnp, lax = m.jx, m.jnp, m.lax
    seen = []

    def host(x):
        try:
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter("always")
                np.log(np.zeros(1, np.float32))
            seen.append("warn" if w else "silent")
        except FloatingPointError:
            seen.append("raise")
        return np.asarray(x)

    def cb(x):
        if api == "debug":
            jx.debug.callback(host, x)
            return x
        spec = jx.ShapeDtypeStruct(x.shape, x.dtype)
        if api == "io":
            return m.io_callback(host, spec, x)
        return jx.pure_callback(host, spec, x)

    def quiet(v):  # log(0) = -inf in generated code: silent in both engines
        return v + jnp.exp(jnp.log(v * 0.0))

    def f(x):
        x = quiet(x)
        if form == "top":
            x = cb(x)
        elif form == "scan":
            x = lax.scan(lambda c, _: (quiet(cb(quiet(c))), None), x, None, length=2)[0]
        elif form == "cond":
            x = lax.cond(x[0] > 0, lambda c: quiet(cb(quiet(c))), lambda c: c, x)
        elif form == "while":
            x = lax.while_loop(
                lambda c: c[1] < 2, lambda c: (quiet(cb(quiet(c[0]))), c[1] + 1), (x, 0)
            )[0]
        return quiet(x)

    with warnings.catch_warnings(record=True) as outer:
        warnings.simplefilter("always")
        with np.errstate(all=mode):
            jx.jit(f)(np.ones(2, np.float32))
            jx.effects_barrier()
    return seen, [str(w.message) for w in outer if issubclass(w.category, RuntimeWarning)]


_FP_CASES = {
    ("pure", "top", "warn"): ["warn"],
    ("pure", "top", "raise"): ["raise"],
    ("io", "scan", "raise"): ["raise", "raise"],
    ("debug", "scan", "warn"): ["warn", "warn"],
    ("debug", "cond", "raise"): ["raise"],
    ("pure", "while", "raise"): ["raise", "raise"],
    ("io", "top", "ignore"): ["silent"],
}


@pytest.mark.parametrize("case", sorted(_FP_CASES), ids="-".join)
def test_C1_callbacks_run_with_the_callers_numpy_error_state_under_jit(case):
    import jaxlite.experimental

    LITE.io_callback = jaxlite.experimental.io_callback
    seen, outer = _fp_observed(LITE, *case)
    assert seen == _FP_CASES[case]
    assert outer == []  # the generated code's own log(0) stays silent
    if JAX is not None:
        import jax.experimental

        JAX.io_callback = jax.experimental.io_callback
        assert _fp_observed(JAX, *case) == (seen, outer)


def test_C1_a_callbacks_floating_point_error_reaches_the_caller_under_jit():
    """With ``np.errstate(all="raise")`` the callback's FloatingPointError is its own
    exception: a RuntimeError naming it at the caller (C1), as in JAX."""
    import jaxlite

    def host(x):
        return np.log(np.asarray(x) * 0)

    def f(x):
        y = jaxlite.numpy.log(x)
        return jaxlite.pure_callback(host, jaxlite.ShapeDtypeStruct(x.shape, x.dtype), y)

    with np.errstate(all="raise"), pytest.raises(RuntimeError, match="FloatingPointError"):
        jaxlite.block_until_ready(jaxlite.jit(f)(np.ones(2, np.float32)))


# ------------------------------------------------------ H2: checkpoints nested in checkpoints
# JAX splits a checkpoint nested in another (directly or in a loop / branch) with the outer
# policy, the callbacks it replays staying in the inner staged half; transposing that half
# replays them once more. fuzz_s20 seed 3230 (reduced): a linearized function applied
# twice replayed them twice per application (JAX once), since both checkpoints replayed.


def _nested_counts(m, form, how):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    P = jx.checkpoint_policies
    calls = []

    def g4(v):
        jx.debug.callback(lambda *a: calls.append(1), v)
        return v * 1.5

    def g2(v):
        inner = jx.checkpoint(g4, policy=P.nothing_saveable)
        if form == "fori":
            return lax.fori_loop(0, 3, lambda i, v: inner(v), v)
        if form == "cond":
            return lax.cond(jnp.sum(v) > 0, inner, lambda v: v, v) * v
        return inner(v) * v

    def f(x):
        return jnp.sum(jnp.sin(jx.checkpoint(g2, policy=P.everything_saveable)(x)))

    x = np.array([0.5, 0.25], np.float32)
    if how == "grad":
        out = jx.grad(f)(x)
    else:
        _, fl = jx.linearize(f, x)
        out = fl(x) + fl(x * 0.5)
    return len(calls), np.asarray(out)


_NESTED = {  # JAX 0.10.2's counts
    ("plain", "grad"): 3,
    ("plain", "linearize2"): 3,
    ("fori", "grad"): 9,
    ("fori", "linearize2"): 9,
    ("cond", "linearize2"): 3,
}


@pytest.mark.parametrize("case", sorted(_NESTED), ids="-".join)
def test_H2_nested_checkpoints_replay_a_debug_callback_like_jax(case):
    n, out = _nested_counts(LITE, *case)
    assert n == _NESTED[case]
    if JAX is not None:
        jn, jout = _nested_counts(JAX, *case)
        assert jn == n
        np.testing.assert_allclose(out, jout, rtol=1e-5, atol=1e-6)
