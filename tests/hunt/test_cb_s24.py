"""Session 24: host-callback differences from JAX 0.10.2 found by the callback fuzzers
(tests/hunt/fuzz_s20.py, tests/fuzz/cb.py) and by checking replays against JAX, reduced to
plain programs. Each case runs jaxlite and, where JAX is importable, JAX
(tests/hunt/oracle.py), and asserts JAX's counts as known values (observed on JAX 0.10.2),
so the file means something without JAX. Numbers such as D1 are those of
shared/spec/callbacks.md; the deliberate differences are rows of docs/compat.md."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE

# ------------------------- D1 + F17: a pure_callback that only picks between equal branches
# vmap of a cond / switch with a batched index runs every branch on every element and
# selects (F17); each branch reads ``select_n(index == i, x, stop_gradient(x))``. XLA lowers
# stop_gradient to its operand and simplifies ``select(p, x, x)`` to ``x``: when every output
# of the branches is an operand passed through, nothing needs the index any more, and a
# pure_callback computing it is dead code under jit (D1). jaxlite's compiled code kept the
# selects, and did not simplify checkpoint bodies at all (fuzz_s20 seed 240019: a
# pure_callback JAX never runs).


def _select_counts(m, wrap):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    calls: collections.Counter = collections.Counter()

    def host(a):
        calls["pc"] += 1
        return (np.asarray(a) > 0).astype(np.int32)

    def branch(tag):
        def b(v):
            jx.debug.callback(lambda *a: calls.update([tag]), v)
            return v

        return b

    def f(v):
        spec = jx.ShapeDtypeStruct((), jnp.int32)
        r = jx.pure_callback(host, spec, lax.stop_gradient(jnp.sum(v)), vmap_method="expand_dims")
        return lax.switch(r, [branch("b0"), branch("b1")], v) * 2.0

    g = {
        "eager": f,
        "jit": f,
        "checkpoint": jx.checkpoint(f),
        "scan": lambda v: lax.scan(lambda c, _: (f(c), None), v, None, length=1)[0],
        "checkpoint_in_scan": lambda v: lax.scan(
            lambda c, _: (jx.checkpoint(f)(c), None), v, None, length=1
        )[0],
        "jvp_checkpoint": lambda v: jx.jvp(jx.checkpoint(f), (v,), (v,))[1],
    }[wrap]
    h = jx.vmap(g)
    if wrap != "eager":
        h = jx.jit(h)
    out = h(np.array([[-0.25, 0.25], [0.5, 0.75]], np.float32))
    return dict(sorted(calls.items())), np.asarray(out)


@pytest.mark.parametrize(
    "wrap", ["eager", "jit", "checkpoint", "scan", "checkpoint_in_scan", "jvp_checkpoint"]
)
def test_D1_F17_pure_callback_picking_only_equal_branches_is_dead_under_jit_like_jax(wrap):
    counts, out = _select_counts(LITE, wrap)
    # every branch runs on both elements (F17); the index's pure_callback only eagerly
    want = {"b0": 2, "b1": 2} | ({"pc": 1} if wrap == "eager" else {})
    assert counts == want
    if JAX is not None:
        jcounts, jout = _select_counts(JAX, wrap)
        assert jcounts == counts
        np.testing.assert_allclose(out, jout, rtol=1e-6)


def test_constant_chain_in_a_jitted_checkpoint_rounds_like_jax():
    # The checkpoint's body is compiled as jit compiles: XLA merges the chain's constants
    # there too (ops/const_chains.py), which rounds differently in about a third of these.
    x = np.linspace(-3, 3, 1001).astype(np.float32)
    f = LITE.jx.jit(LITE.jx.checkpoint(lambda x: (x + 0.1) + 2.7))
    g = LITE.jx.jit(lambda x: (x + 0.1) + 2.7)
    np.testing.assert_array_equal(np.asarray(f(x)), np.asarray(g(x)))
    assert np.sum(np.asarray(f(x)) != (x + np.float32(0.1)) + np.float32(2.7)) > 100
    if JAX is not None:
        jf = JAX.jx.jit(JAX.jx.checkpoint(lambda x: (x + 0.1) + 2.7))
        np.testing.assert_array_equal(np.asarray(f(x)), np.asarray(jf(x)))


# -------------------------------------- H2 + D6: JAX's loop re-trace drops a replay (compat)
# Under reverse mode over a backward pass, JAX's partial evaluation of an enclosing scan /
# fori_loop re-traces its known body to hoist loop-invariant values and discards a call
# equation nothing in that body needs (the known half of a scan inside a checkpoint), with
# the debug callbacks in it: the first backward pass's replay (H2) does not run in the
# second derivative's forward pass. jaxlite does not copy that (docs/compat.md): its counts
# are those of the same program without the loop, which JAX gives too (fuzz_s20 seed
# 231097: 66 calls, JAX 54).


def _retrace_counts(m, case, loop):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    inner, policy, stack = case
    calls = collections.Counter()
    pol = getattr(jx.checkpoint_policies, policy)

    def body(c):
        if inner == "carry":

            def step(a, _):
                jx.debug.callback(lambda *a: calls.update("s"), a)
                return jnp.tanh(a) * 2.0, None

            return lax.scan(step, c, None, length=2)[0]

        def step(a, r):
            jx.debug.callback(lambda *a: calls.update("s"), r)
            return a, r * r

        return lax.scan(step, 0.0, c)[1]

    ck = jx.checkpoint(body, policy=pol)

    def one(c):
        if inner == "unused":  # the checkpoint's result is dropped
            ck(c)
            return jnp.sin(c) * 1.5
        return ck(c)

    def f(x):
        return lax.fori_loop(0, 1, lambda i, c: one(c), x) if loop else one(x)

    def g(t):
        return jnp.sum(jnp.tanh(f(t)))

    x = np.array([-0.25, 0.25], np.float32)
    if stack == "grad":
        out = jx.grad(g)(x)
    elif stack == "grad_grad":
        out = jx.grad(lambda t: jnp.sum(jx.grad(g)(t)))(x)
    elif stack == "jacrev_grad":
        out = jx.jacrev(jx.grad(g))(x)
    else:  # a vjp of grad
        y, pb = jx.vjp(jx.grad(g), x)
        out = pb(y)[0]
    return calls["s"], np.asarray(out)


# case: (jaxlite's calls = JAX's without the loop, JAX's in the loop); two rows
_RETRACE_CASES = {
    ("rows", "nothing_saveable", "grad_grad"): (6, 4),
    ("rows", "dots_saveable", "jacrev_grad"): (6, 4),
    ("rows", "nothing_saveable", "vjp_grad"): (6, 4),
    ("carry", "everything_saveable", "grad_grad"): (6, 4),
    ("unused", "nothing_saveable", "grad"): (4, 2),
    ("unused", "nothing_saveable", "grad_grad"): (4, 0),
}


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("case", sorted(_RETRACE_CASES), ids="-".join)
def test_H2_D6_replay_dropped_by_jax_loop_retrace_runs_as_without_the_loop(case):
    want, jax_in_loop = _RETRACE_CASES[case]
    n, out = _retrace_counts(LITE, case, loop=True)
    n_plain, out_plain = _retrace_counts(LITE, case, loop=False)
    assert n == n_plain == want
    np.testing.assert_allclose(out, out_plain, rtol=1e-5, atol=1e-6)
    if JAX is not None:
        jn, jout = _retrace_counts(JAX, case, loop=True)
        jn_plain, _ = _retrace_counts(JAX, case, loop=False)
        assert (jn_plain, jn) == (want, jax_in_loop)  # the compat row's counts
        np.testing.assert_allclose(out, jout, rtol=1e-4, atol=1e-5)


# --------------------------------- H3 + D7: pure_callbacks of custom calls in checkpoint replays
# A checkpoint's backward pass recomputes custom_jvp / custom_vjp calls (their bodies, rules,
# fwd) where JAX does; session 23 kept their debug callbacks from running again. Their
# pure_callbacks (D7 allows reruns) run exactly as often as JAX's, in the primal body ("p"),
# the jvp rule ("r"), fwd ("f") and bwd ("b"), for the containers and stacks below.


def _custom_pc_counts(m, case):
    kind, container, policy, stack = case
    jx, jnp, lax = m.jx, m.jnp, m.lax
    calls: collections.Counter = collections.Counter()

    def pc(tag, v):
        def host(a):
            calls[tag] += 1
            return np.ones_like(np.asarray(a))

        spec = jx.ShapeDtypeStruct(v.shape, v.dtype)
        return jx.pure_callback(host, spec, lax.stop_gradient(v), vmap_method="sequential")

    if kind == "custom_jvp":

        @jx.custom_jvp
        def c(v):
            return jnp.sin(v) * pc("p", v)

        @c.defjvp
        def _(primals, tangents):
            (v,), (t,) = primals, tangents
            return c(v), t * jnp.cos(v) * pc("r", v)

    else:

        @jx.custom_vjp
        def c(v):
            return jnp.sin(v) * pc("p", v)

        def fwd(v):
            return jnp.sin(v) * pc("f", v), jnp.cos(v)

        def bwd(r, g):
            return (g * r * pc("b", r),)

        c.defvjp(fwd, bwd)

    body = {
        "jit": jx.jit(c),
        "jit_more": jx.jit(lambda v: jnp.cos(c(v)) - v),
        "cond": lambda v: lax.cond(jnp.sum(v) > 0, c, jnp.cos, v),
        "scan": lambda v: lax.scan(lambda a, _: (c(a) * 1.5, None), v, None, length=2)[0],
        "vmap": jx.vmap(c),
    }[container]
    f = jx.checkpoint(body, policy=getattr(jx.checkpoint_policies, policy))

    def g(t):
        return jnp.sum(jnp.tanh(f(t)))

    x = np.array([0.25, -0.5, 0.75], np.float32)
    if stack == "grad_grad":
        out = jx.grad(lambda t: jnp.sum(jx.grad(g)(t)))(x)
    elif stack == "hessian":
        out = jx.hessian(g)(x)
    else:  # a vjp pullback applied twice
        y, pb = jx.vjp(f, x)
        out = pb(jnp.ones_like(y))[0] + pb(y)[0]
    return dict(sorted(calls.items())), np.asarray(out)


# JAX 0.10.2's calls per host function
_CUSTOM_PC_CASES = {
    ("custom_jvp", "jit", "nothing_saveable", "grad_grad"): {"p": 1, "r": 3},
    ("custom_jvp", "jit_more", "nothing_saveable", "hessian"): {"p": 2, "r": 3},
    ("custom_jvp", "jit_more", "nothing_saveable", "vjp2"): {"p": 3, "r": 2},
    ("custom_jvp", "cond", "nothing_saveable", "grad_grad"): {"p": 1, "r": 3},
    ("custom_jvp", "scan", "nothing_saveable", "vjp2"): {"p": 6, "r": 4},
    ("custom_jvp", "vmap", "everything_saveable", "grad_grad"): {"p": 3, "r": 6},
    ("custom_vjp", "jit_more", "nothing_saveable", "grad_grad"): {"b": 2, "f": 3},
    ("custom_vjp", "scan", "nothing_saveable", "grad_grad"): {"b": 4, "f": 6},
    ("custom_vjp", "cond", "nothing_saveable", "vjp2"): {"b": 2, "f": 1},
    ("custom_vjp", "vmap", "everything_saveable", "vjp2"): {"b": 6, "f": 3},
}


@pytest.mark.parametrize("case", sorted(_CUSTOM_PC_CASES), ids="-".join)
def test_D7_pure_callbacks_of_custom_calls_in_checkpoint_replays_run_like_jax(case):
    counts, out = _custom_pc_counts(LITE, case)
    assert counts == _CUSTOM_PC_CASES[case]
    if JAX is not None:
        jcounts, jout = _custom_pc_counts(JAX, case)
        assert jcounts == counts
        np.testing.assert_allclose(out, jout, rtol=1e-5, atol=1e-6)


# ------------------------------ H2: a debug callback on a named checkpoint output (compat)
# JAX 0.10.2 fails inside its partial evaluation (a KeyError naming a jaxpr variable) when a
# debug callback reads a checkpoint_name'd value that is also the checkpoint's output and the
# policy saves that name (fuzz_s20 seed 240124). jaxlite computes it: the policy does not
# save the callback, so it runs forward and again in the backward pass (H2), as with the
# default policy (which JAX computes too).


def _named_output(m, policy, container):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    calls = []

    def body(v):
        v = jx.ad_checkpoint.checkpoint_name(v * 1.0, "n")
        jx.debug.callback(lambda *a: calls.append(np.asarray(a[0]).tolist()), v)
        return v

    pol = jx.checkpoint_policies.save_only_these_names("n") if policy == "names" else None
    ck = jx.checkpoint(body, policy=pol)
    f = {
        "plain": lambda v: ck(v) * 2.0,
        "switch": lambda v: lax.switch((jnp.sum(v) > 0.5).astype(jnp.int32), [jnp.sin, ck], v),
    }[container]
    x = np.array([-0.25, 0.25, 0.75], np.float32)
    out = jx.grad(lambda v: jnp.sum(f(v)))(x)
    return calls, np.asarray(out)


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("container", ["plain", "switch"])
def test_H2_debug_callback_on_a_named_checkpoint_output_replays(container):
    import jaxlite.ad_checkpoint  # noqa: F401

    calls, out = _named_output(LITE, "names", container)
    x = [-0.25, 0.25, 0.75]
    assert calls == [x, x]
    np.testing.assert_allclose(out, 2.0 if container == "plain" else 1.0)
    ref_calls, ref_out = _named_output(LITE, "default", container)
    assert ref_calls == calls
    np.testing.assert_allclose(ref_out, out)
    if JAX is not None:
        import jax.ad_checkpoint  # noqa: F401

        with pytest.raises(KeyError):
            _named_output(JAX, "names", container)
        jcalls, jout = _named_output(JAX, "default", container)
        assert jcalls == calls
        np.testing.assert_allclose(jout, out)


# ---------------------------- G7: a debug callback in a while body on a differentiated value
# JAX keeps the loop body's tangent inputs alive for the callback, so its reverse mode treats
# the loop as differentiated: grad / vjp raise its while_loop ValueError and linearize runs
# the loop twice. jaxlite computes the derivative, the callback once per iteration in the
# forward pass (docs/compat.md); on the loop index both agree.


def _while_debug(m, operand, stack):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    calls = []

    def f(c):
        def body(i):
            jx.debug.callback(lambda *a: calls.append(1), c if operand == "closed" else i)
            return i + 1

        return jnp.sum(jnp.sin(c)) * lax.while_loop(lambda i: i < 2, body, 0)

    x = np.array([0.5, 1.0], np.float32)
    out = jx.grad(f)(x) if stack == "grad" else jx.linearize(f, x)[1](x)
    return len(calls), np.asarray(out)


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("stack", ["grad", "linearize"])
def test_G7_debug_callback_in_while_body_on_a_differentiated_value(stack):
    n, out = _while_debug(LITE, "closed", stack)
    assert n == 2
    x = np.array([0.5, 1.0], np.float32)
    want = 2 * np.cos(x) if stack == "grad" else 2 * np.sum(np.cos(x) * x)
    np.testing.assert_allclose(out, want, rtol=1e-6)
    n_index, out_index = _while_debug(LITE, "index", stack)
    assert n_index == 2
    np.testing.assert_allclose(out_index, out)
    if JAX is not None:
        assert _while_debug(JAX, "index", stack)[0] == 2
        if stack == "grad":
            with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
                _while_debug(JAX, "closed", stack)
        else:
            jn, jout = _while_debug(JAX, "closed", stack)
            assert jn == 4
            np.testing.assert_allclose(jout, out, rtol=1e-6)
