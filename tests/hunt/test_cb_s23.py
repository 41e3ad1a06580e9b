"""Session 23: host-callback differences from JAX 0.10.2 found by the callback fuzzers
(tests/hunt/fuzz_s20.py, tests/fuzz/cb.py), reduced to plain programs. Each case runs
jaxlite and, where JAX is importable, JAX (tests/hunt/oracle.py), and also asserts JAX's
answer as a known value (counts and values observed on JAX 0.10.2), so the file means
something without JAX. Numbers such as F17 are those of shared/spec/callbacks.md."""

from __future__ import annotations

import collections

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE

# ------------------------- F17 + H2/H3: what a callback in an untaken branch sees backward
# vmap of a cond / switch with a batched index runs every branch on every element (F17).
# Differentiated (linearize, grad, vjp), the cond is split into a forward cond returning
# each branch's residuals and a linear cond reading them; a checkpoint in a branch
# recomputes its callbacks there (H2, H3). For an element whose branch is another, that
# recomputation reads the residual slot the element's own branch filled: JAX shares slots
# between branches by type, so it sees the other branch's residual of its type (the element
# operand itself where that branch saved it, cos(x) where it saved sin's derivative), and
# zeros where no branch has one. jaxlite gave each branch its own slots, so it passed zeros
# where JAX passes values (fuzz_s20 seed 22024: a debug callback received zeros, JAX the
# other branch's cos(x)).


def _branch_bodies(m, log):
    jx, jnp, lax = m.jx, m.jnp, m.lax

    def dbg(tag, v):
        jx.debug.callback(lambda a: log.append((tag, np.asarray(a).tolist())), v)

    def idx(v):
        return (jnp.sum(v) > 0.5).astype(jnp.int32)

    def square_logged(v):
        dbg("a", v)
        return v * v

    def seed_22024(v):  # branch 0's residual is cos(v), of the type of branch 1's v
        return lax.switch(idx(v), [jnp.sin, jx.checkpoint(square_logged)], v)

    def cond_reversed(v):  # lax.cond: the checkpointed branch is branch 1 (true)
        return lax.cond(jnp.sum(v) > 0.5, jx.checkpoint(square_logged), jnp.sin, v)

    def operand_saved(v):  # branch 0 saves v itself: the recomputation sees the operand
        return lax.switch(
            idx(v), [lambda v: v * jnp.sin(jnp.sum(v)), jx.checkpoint(square_logged)], v
        )

    def no_residual(v):  # branch 0 is linear (saves nothing): zeros in both engines
        return lax.switch(idx(v), [lambda v: v * 2.0, jx.checkpoint(square_logged)], v)

    def two_of_a_type(v):  # two residuals of one type per branch: slots in order
        def b1(v):
            w = jnp.exp(v)
            dbg("a", w)
            dbg("b", v)
            return w * v

        return lax.switch(idx(v), [lambda v: jnp.sin(v) * jnp.cos(v), jx.checkpoint(b1)], v)

    def pure_recomputed(v):  # a pure_callback the checkpoint recomputes (H3)
        def b1(v):
            def host(a):
                log.append(("p", np.asarray(a).tolist()))
                return np.asarray(a) * 2

            spec = jx.ShapeDtypeStruct(v.shape, v.dtype)
            r = jx.pure_callback(host, spec, lax.stop_gradient(v), vmap_method="sequential")
            return v * v * r

        return lax.switch(idx(v), [jnp.sin, jx.checkpoint(b1)], v)

    def three_branches(v):  # neither element takes the checkpointed branch 2
        i = idx(v) + (jnp.sum(v) > 3.0).astype(jnp.int32)
        return lax.switch(i, [jnp.sin, jnp.tanh, jx.checkpoint(square_logged)], v)

    def cond_in_checkpoint(v):  # the seed's own shape: a checkpointed cond in a branch
        def b1(v):
            def t(v):
                dbg("a", v)
                return v

            return lax.cond(jnp.sum(v) > 0.5, t, lambda v: v, v)

        policy = jx.checkpoint_policies.everything_saveable
        b0 = lambda v: jnp.sin(v) + v * 0.25  # noqa: E731
        return lax.switch(idx(v), [b0, jx.checkpoint(b1, policy=policy)], v)

    return {
        k: f
        for k, f in locals().items()
        if k not in ("m", "log", "jx", "jnp", "lax", "dbg", "idx", "square_logged")
    }


_X = np.array([0.25, 0.5, 0.75, 1.0], np.float32)
_XS = np.stack([_X, _X * 0.5 - 1.0])  # element 0 takes the checkpointed branch, 1 not


def _branch_run(m, body, stack):
    jx, jnp = m.jx, m.jnp
    log: list = []
    f = _branch_bodies(m, log)[body]
    if stack == "vmap_linearize":

        def F(x):
            y, lin = jx.linearize(f, x)
            return jnp.sum(y) + lin(jnp.ones_like(x))

        out = jx.vmap(F)(_XS)
    else:  # vmap_grad (a vjp pullback: the same split)
        out = jx.vmap(jx.grad(lambda x: jnp.sum(f(x))))(_XS)
    return log, np.asarray(out)


# What JAX 0.10.2 passes to the callbacks of the recomputation for element 1 (whose branch
# is not the checkpointed one), per body: the residual of element 1's own branch that
# shares the slot.
_E1 = _XS[1]
_RECOMPUTED_E1 = {
    "seed_22024": {"a": np.cos(_E1)},
    "cond_reversed": {"a": np.cos(_E1)},
    "operand_saved": {"a": _E1},
    "no_residual": {"a": np.zeros(4)},
    "pure_recomputed": {"p": np.cos(_E1)},
}
_STACKS = ("vmap_linearize", "vmap_grad")


@pytest.mark.parametrize("stack", _STACKS)
@pytest.mark.parametrize("body", sorted(_branch_bodies(LITE, [])))
def test_F17_untaken_branch_recomputation_sees_the_shared_residual_slot_like_jax(body, stack):
    log, out = _branch_run(LITE, body, stack)
    # each callback: forward on both elements, recomputed on both (4 calls; 8 for two)
    assert len(log) == (8 if body == "two_of_a_type" else 4)
    expected = _RECOMPUTED_E1.get(body)
    if expected is not None:
        ((tag, want),) = expected.items()
        fwd = [a for t, a in log if t == tag]
        np.testing.assert_allclose(fwd[0], _XS[0], rtol=1e-6)
        np.testing.assert_allclose(fwd[1], _XS[1], rtol=1e-6)
        np.testing.assert_allclose(fwd[2], _XS[0], rtol=1e-6)
        np.testing.assert_allclose(fwd[3], want, rtol=1e-5, atol=1e-6)
    if JAX is not None:
        jlog, jout = _branch_run(JAX, body, stack)
        assert [t for t, _ in log] == [t for t, _ in jlog]
        for (_, a), (_, b) in zip(log, jlog):
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out, jout, rtol=1e-5, atol=1e-6)


# -------------------------------------- D1/D7: a custom_jvp rule's unused pure_callback
# JAX's dead-code elimination of a custom_jvp call also prunes its rule: when the call
# sits in a jaxpr that was dead-code eliminated (the forward half of a checkpoint under
# reverse mode) and that jaxpr is then differentiated again (hessian, jvp of grad, ...),
# the rule runs traced, its dead code removed, so a pure_callback whose result it does not
# use never runs. jaxlite ran the rule as written: one more call (fuzz_s20 seed 476).


def _rule_counts(m, container, stack):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    calls: collections.Counter = collections.Counter()

    def host(tag, dtype):
        def h(x):
            calls[tag] += 1
            x = np.asarray(x)
            return x > 0 if dtype == "bool" else (x * 0 + 2).astype(np.float32)

        return h

    @jx.custom_jvp
    def c(v):
        return jnp.sin(v)

    @c.defjvp
    def rule(primals, tangents):
        (v,), (t,) = primals, tangents
        v0 = lax.stop_gradient(v)
        spec = jx.ShapeDtypeStruct(v.shape, jnp.bool_)
        _ = jx.pure_callback(host("unused", "bool"), spec, v0, vmap_method="sequential")
        spec = jx.ShapeDtypeStruct(v.shape, jnp.float32)
        sc = jx.pure_callback(host("used", "f"), spec, v0, vmap_method="expand_dims")
        return c(v), t * sc

    pol = jx.checkpoint_policies
    body = {
        "plain": c,
        "ckpt_everything": jx.checkpoint(c, policy=pol.everything_saveable),
        "ckpt_nothing": jx.checkpoint(c, policy=pol.nothing_saveable),
        "ckpt_nested": jx.checkpoint(
            jx.checkpoint(c, policy=pol.everything_saveable), policy=pol.nothing_saveable
        ),
        "cond": lambda v: lax.cond(jnp.sum(v) > 0, c, jnp.cos, v),
        "jit": jx.jit(c),
    }[container]

    def f(t):
        return jnp.sum(jnp.tanh(body(t)))

    x = np.array([-0.25, 0.25, 0.75], np.float32)
    if stack == "hessian":
        out = jx.hessian(f)(x)
    elif stack == "jvp_grad":
        out = jx.jvp(jx.grad(f), (x,), (x,))[1]
    elif stack == "jacfwd_jacrev":
        out = jx.jacfwd(jx.jacrev(f))(x)
    else:  # grad_grad
        out = jx.grad(lambda t: jnp.sum(jx.grad(f)(t)))(x)
    return dict(sorted(calls.items())), np.asarray(out)


# JAX 0.10.2's calls per host function (an eager rule runs as written: "plain")
_RULE_CASES = {
    ("plain", "hessian"): {"unused": 2, "used": 2},
    ("plain", "jvp_grad"): {"unused": 2, "used": 2},
    ("ckpt_everything", "hessian"): {"used": 2},
    ("ckpt_everything", "jvp_grad"): {"used": 2},
    ("ckpt_everything", "grad_grad"): {"used": 2},
    ("ckpt_nothing", "hessian"): {"used": 2},
    ("ckpt_nothing", "jacfwd_jacrev"): {"used": 2},
    ("ckpt_nothing", "grad_grad"): {"used": 3},
    ("ckpt_nested", "hessian"): {"used": 2},
    ("ckpt_nested", "grad_grad"): {"used": 3},
    ("cond", "hessian"): {"used": 2},
    ("jit", "jvp_grad"): {"used": 2},
}


@pytest.mark.parametrize("case", sorted(_RULE_CASES), ids="-".join)
def test_D1_unused_pure_callback_in_a_custom_jvp_rule_differentiated_again_like_jax(case):
    counts, out = _rule_counts(LITE, *case)
    assert counts == _RULE_CASES[case]
    if JAX is not None:
        jcounts, jout = _rule_counts(JAX, *case)
        assert jcounts == counts
        np.testing.assert_allclose(out, jout, rtol=1e-5, atol=1e-6)


# ------------------------------ H2 + F14: a vmapped debug callback in a checkpoint under AD
# JAX unrolls a vmapped debug callback into one callback per element, each on a slice of
# the batched operands (F14); the slices are values of their own, which a policy that saves
# everything saves, so under grad the callbacks run once (the forward pass), where an
# unbatched callback on the checkpoint's input is replayed (H2). jaxlite keeps one callback
# over the whole batch, on the checkpoint's input itself, and replayed it (fuzz_s20 seed
# 231016: 92 calls, JAX 84).


def _vmapped_counts(m, form, policy, stack):
    jx, jnp = m.jx, m.jnp
    calls: collections.Counter = collections.Counter()

    def cb(tag):
        return lambda *a: calls.update(tag)

    pol = getattr(jx.checkpoint_policies, policy)

    def ck(f):
        return jx.checkpoint(f, policy=pol)

    def inner(v):
        jx.debug.callback(cb("a"), v)
        return jnp.tanh(v)

    def with_scale(v, k):
        jx.debug.callback(cb("b"), v, k)
        return jnp.tanh(v) * k

    f = {
        "checkpoint_in_vmap": lambda x: jx.vmap(ck(inner))(x),
        "vmap_in_checkpoint": ck(lambda x: jx.vmap(inner)(x)),
        "unbatched_operand": lambda x: jx.vmap(ck(with_scale), in_axes=(0, None))(
            x, jnp.float32(2.0)
        ),
        "nested_vmap": lambda x: jx.vmap(jx.vmap(ck(inner)))(x.reshape(2, 2)),
        "no_vmap": ck(inner),
    }[form]
    x = np.array([0.25, -0.5, 0.75, 1.0], np.float32)
    if stack == "grad":
        out = jx.grad(lambda x: jnp.sum(f(x)))(x)
    else:  # a vjp pullback applied twice
        y, pb = jx.vjp(f, x)
        out = pb(jnp.ones_like(y))[0] + pb(y)[0]
    return dict(calls), np.asarray(out)


# JAX 0.10.2's calls (4 elements: 4 forward calls, 4 more per replay)
_VMAPPED_CASES = {
    ("checkpoint_in_vmap", "everything_saveable", "grad"): {"a": 4},
    ("checkpoint_in_vmap", "everything_saveable", "vjp2"): {"a": 4},
    ("checkpoint_in_vmap", "nothing_saveable", "vjp2"): {"a": 12},
    ("vmap_in_checkpoint", "everything_saveable", "grad"): {"a": 4},
    ("vmap_in_checkpoint", "dots_saveable", "grad"): {"a": 8},
    ("unbatched_operand", "everything_saveable", "vjp2"): {"b": 4},
    ("unbatched_operand", "nothing_saveable", "grad"): {"b": 8},
    ("nested_vmap", "everything_saveable", "grad"): {"a": 4},
    ("no_vmap", "everything_saveable", "grad"): {"a": 2},
    ("no_vmap", "everything_saveable", "vjp2"): {"a": 3},
}


@pytest.mark.parametrize("case", sorted(_VMAPPED_CASES), ids="-".join)
def test_H2_vmapped_debug_callback_in_checkpoint_replays_like_jax(case):
    counts, out = _vmapped_counts(LITE, *case)
    assert counts == _VMAPPED_CASES[case]
    if JAX is not None:
        jcounts, jout = _vmapped_counts(JAX, *case)
        assert jcounts == counts
        np.testing.assert_allclose(out, jout, rtol=1e-5, atol=1e-6)


# ------------------ H2 + G10/G11: a custom_jvp / custom_vjp call in a replayed checkpoint body
# JAX's partial evaluation has no rule for an effectful custom_jvp / custom_vjp call: inside
# a checkpoint it runs once and its outputs are saved, also where it sits in a jit, cond or
# scan body that the backward pass replays. jaxlite replays such bodies whole and ran the
# call's debug callbacks again, and its rule's where the replay is differentiated again
# (fuzz_s20 seed 231125: a custom_jvp in a jit in a checkpoint under hessian); now the
# replayed body recomputes the call without them, its rule too (its pure_callbacks may
# still run again, D7).


def _custom_call_counts(m, kind, container, stack):
    jx, jnp, lax = m.jx, m.jnp, m.lax
    calls: collections.Counter = collections.Counter()

    def cb(tag):
        return lambda *a: calls.update(tag)

    if kind == "custom_jvp":

        @jx.custom_jvp
        def c(v):
            jx.debug.callback(cb("p"), v)
            return jnp.sin(v)

        @c.defjvp
        def _(primals, tangents):
            (v,), (t,) = primals, tangents
            jx.debug.callback(cb("r"), v)
            return c(v), t * jnp.cos(v)

    else:

        @jx.custom_vjp
        def c(v):
            jx.debug.callback(cb("p"), v)
            return jnp.sin(v)

        def fwd(v):
            jx.debug.callback(cb("f"), v)
            return jnp.sin(v), jnp.cos(v)

        def bwd(r, g):
            jx.debug.callback(cb("b"), r)
            return (g * r,)

        c.defvjp(fwd, bwd)

    body = {
        "jit": jx.jit(c),
        "jit_jit": jx.jit(jx.jit(c)),
        "jit_more": jx.jit(lambda v: jnp.cos(c(v)) - v),  # the reduced seed 231125
        "cond": lambda v: lax.cond(jnp.sum(v) > 0, c, jnp.cos, v),
        "scan": lambda v: lax.scan(lambda a, _: (c(a) * 1.5, None), v, None, length=2)[0],
    }[container]
    f = jx.checkpoint(body)

    def g(t):
        return jnp.sum(jnp.tanh(f(t)))

    x = np.array([0.25, -0.5, 0.75], np.float32)
    if stack == "grad":
        out = jx.grad(g)(x)
    elif stack == "hessian":
        out = jx.hessian(g)(x)
    else:  # a vjp pullback applied twice
        y, pb = jx.vjp(f, x)
        out = pb(jnp.ones_like(y))[0] + pb(y)[0]
    return dict(sorted(calls.items())), np.asarray(out)


# JAX 0.10.2's calls ("p": the custom function's body, "r": the jvp rule, "f"/"b": fwd/bwd)
_CUSTOM_CALL_CASES = {
    ("custom_jvp", "jit", "grad"): {"p": 1, "r": 2},
    ("custom_jvp", "jit", "hessian"): {"p": 1, "r": 3},
    ("custom_jvp", "jit_jit", "vjp2"): {"p": 1, "r": 3},
    ("custom_jvp", "jit_more", "hessian"): {"p": 1, "r": 3},
    ("custom_jvp", "jit_more", "vjp2"): {"p": 1, "r": 3},
    ("custom_jvp", "cond", "grad"): {"p": 1, "r": 2},
    ("custom_jvp", "cond", "hessian"): {"p": 1, "r": 3},
    ("custom_jvp", "scan", "vjp2"): {"p": 2, "r": 6},
    ("custom_vjp", "jit", "grad"): {"b": 1, "f": 2},
    ("custom_vjp", "cond", "vjp2"): {"b": 2, "f": 3},
    ("custom_vjp", "scan", "grad"): {"b": 2, "f": 4},
}


@pytest.mark.parametrize("case", sorted(_CUSTOM_CALL_CASES), ids="-".join)
def test_H2_custom_call_in_a_replayed_checkpoint_body_runs_once_like_jax(case):
    counts, out = _custom_call_counts(LITE, *case)
    assert counts == _CUSTOM_CALL_CASES[case]
    if JAX is not None:
        jcounts, jout = _custom_call_counts(JAX, *case)
        assert jcounts == counts
        np.testing.assert_allclose(out, jout, rtol=1e-5, atol=1e-6)
