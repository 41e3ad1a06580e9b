"""Spec section F (general rule) through ``custom_jvp`` / ``custom_vjp`` functions under
``vmap``: an output of a custom function that does not depend on a batched input stays
unbatched, so a callback on it runs once (callback fuzzer, seed 41016), and which outputs are
batched when the vmapped call is differentiated right away is decided by the rule, as JAX
decides it. Also G (autodiff) for a staged custom function whose rule closes over a value of
a finished ``jit`` trace (callback fuzzer, seed 40570).

Every test asserts JAX 0.10.2's answer (run with ``JAXLITE_ORACLE=jax`` to check).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

F32 = jax.ShapeDtypeStruct((), jnp.float32)


def _recorder(calls, tag):
    def cb(*args):
        calls.append((tag,) + tuple(np.shape(a) for a in args))

    return cb


# ---------------------------------------------------------------------------------------------
# seed 41016: the custom function's output does not depend on the batched input


def _const_output_custom_jvp():
    """``c(v)``: the gradient of ``sum`` (ones, whatever ``v`` is) as a custom_jvp function
    whose rule doubles the tangent (the fuzzer's minimized program)."""

    def g(v):
        return jax.grad(lambda t: jnp.sum(t))(v)

    c = jax.custom_jvp(g)
    c.defjvp(lambda p, t: (c(*p), t[0] * 2.0))
    return c


@pytest.mark.parametrize("wrap", [pytest.param(None, id="eager"), pytest.param(jax.jit, id="jit")])
@pytest.mark.parametrize("site", ["debug", "io"])
def test_F_custom_jvp_output_independent_of_batched_input_stays_unbatched(wrap, site):
    """F general rule (seed 41016): ``vmap`` of ``debug.callback``/``io_callback`` on such an
    output runs the host function once with the unbatched value, not once per element."""
    calls = []
    c = _const_output_custom_jvp()

    def f(v):
        w = c(v)
        if site == "debug":
            jax.debug.callback(_recorder(calls, "cb"), w)
        else:
            io_callback(lambda a: calls.append(("cb", np.shape(a))) or np.float32(0), F32, w)
        return w

    g = jax.vmap(f)
    out = (g if wrap is None else wrap(g))(jnp.array([-1.0, -0.5]))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [1.0, 1.0])
    assert calls == [("cb", ())]


def _run_stack(c, calls, stack):
    """``g(x) = a + b`` with ``(a, b) = c(x, 2)`` and a debug callback recording ``a`` in
    ``calls``, vmapped over x = 0, 1, 2 under ``stack``; the result, effects done."""
    k = jnp.float32(2.0)

    def g(x):
        a, b = c(x, k)
        jax.debug.callback(_recorder(calls, "a"), a)
        return a + b

    xs = jnp.arange(3.0)
    run = {
        "vmap": lambda: jax.vmap(g)(xs),
        "jit_vmap": lambda: jax.jit(jax.vmap(g))(xs),
        "jvp_vmap": lambda: jax.jvp(jax.vmap(g), (xs,), (jnp.ones(3),))[1],
        "grad_vmap": lambda: jax.grad(lambda x: jnp.sum(jax.vmap(g)(x)))(xs),
        "grad_jit_vmap": lambda: jax.grad(lambda x: jnp.sum(jax.jit(jax.vmap(g))(x)))(xs),
        "vmap_grad": lambda: jax.vmap(jax.grad(g))(xs),
        "jacrev_vmap": lambda: jnp.diagonal(jax.jacrev(jax.vmap(g))(xs)),
    }[stack]
    out = run()
    jax.effects_barrier()
    return out


def _two_output_custom_jvp(kind):
    """``c(x, k) = (3 k, x k)``: the first output does not depend on ``x``. Rules: ``plain``
    (tangents follow the outputs), ``tangent_batched`` (the first output's tangent depends on
    ``x``), ``primal_batched`` (the rule's first primal output depends on ``x``)."""

    @jax.custom_jvp
    def c(x, k):
        return k * 3.0, x * k

    if kind == "plain":
        c.defjvp(lambda p, t: (c(*p), (t[1] * 3.0, t[0] * p[1])))
    elif kind == "tangent_batched":
        c.defjvp(lambda p, t: (c(*p), (t[0] * p[0] + t[1], t[0] * p[1])))
    else:
        c.defjvp(lambda p, t: ((p[1] * 3.0 + 0.0 * p[0], p[0] * p[1]), (t[1] * 3.0, t[0] * p[1])))
    return c


# For each rule: how many times a debug callback on the first output runs under each stack
# (3 elements), as in JAX: the function decides under vmap and jit(vmap); under jvp/grad of
# vmap the rule runs right away and decides (batched if its primal or tangent output is).
_CUSTOM_JVP_COUNTS = {
    "plain": dict(vmap=1, jit_vmap=1, jvp_vmap=1, grad_vmap=1, vmap_grad=1, jacrev_vmap=1),
    "tangent_batched": dict(
        vmap=1, jit_vmap=1, jvp_vmap=3, grad_vmap=3, vmap_grad=1, jacrev_vmap=3
    ),
    "primal_batched": dict(vmap=1, jit_vmap=1, jvp_vmap=3, grad_vmap=3, vmap_grad=3, jacrev_vmap=3),
}


@pytest.mark.parametrize("kind", list(_CUSTOM_JVP_COUNTS))
@pytest.mark.parametrize("stack", list(_CUSTOM_JVP_COUNTS["plain"]))
def test_F_custom_jvp_batched_outputs_as_jax_decides(kind, stack):
    calls = []
    out = _run_stack(_two_output_custom_jvp(kind), calls, stack)
    expected = {
        "vmap": [6.0, 8.0, 10.0],
        "jit_vmap": [6.0, 8.0, 10.0],
    }.get(stack, [2.0, 3.0, 4.0] if kind == "tangent_batched" else [2.0, 2.0, 2.0])
    np.testing.assert_allclose(np.asarray(out), expected)
    n = _CUSTOM_JVP_COUNTS[kind][stack]
    assert calls == [("a", ())] * n


def test_F_custom_jvp_staged_then_differentiated_keeps_values():
    """``grad`` of ``jit`` of ``vmap``: the staged call's first output is unbatched; the rule,
    run later, batches its tangent. The values are right and the callback runs once (JAX
    hands it the rule's batched value; compat.md)."""
    calls = []
    c = _two_output_custom_jvp("tangent_batched")

    def g(x):
        a, b = c(x, jnp.float32(2.0))
        jax.debug.callback(lambda v: calls.append("a"), a)
        return a + b

    out = jax.grad(lambda x: jnp.sum(jax.jit(jax.vmap(g))(x)))(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_allclose(np.asarray(out), [2.0, 3.0, 4.0])
    assert calls == ["a"]


def _two_output_custom_vjp(kind):
    """``c(x, k) = (3 k, x k)`` as a custom_vjp function whose ``bwd`` records the shapes it
    sees; ``primal_batched``: ``fwd``'s first output depends on ``x``."""
    calls = []

    @jax.custom_vjp
    def c(x, k):
        return k * 3.0, x * k

    def fwd(x, k):
        if kind == "primal_batched":
            return (k * 3.0 + 0.0 * x, x * k), (x, k)
        return c(x, k), (x, k)

    def bwd(res, ct):
        jax.debug.callback(_recorder(calls, "bwd"), ct[0], ct[1], *res)
        x, k = res
        return (ct[1] * k, ct[0] * 3.0 + ct[1] * x)

    c.defvjp(fwd, bwd)
    return c, calls


@pytest.mark.parametrize("kind", ["plain", "primal_batched"])
@pytest.mark.parametrize("stack", ["vmap", "jit_vmap", "grad_vmap", "grad_jit_vmap", "vmap_grad"])
def test_F_custom_vjp_batched_outputs_as_jax_decides(kind, stack):
    """custom_vjp: the function decides under vmap (and whenever the call is staged), ``fwd``
    decides when the vmapped call is differentiated right away; ``bwd`` runs per element,
    receiving the cotangent of an unbatched output unbatched."""
    c, calls = _two_output_custom_vjp(kind)
    out = _run_stack(c, calls, stack)
    a_calls = [e for e in calls if e[0] == "a"]
    bwd_calls = [e for e in calls if e[0] == "bwd"]
    if stack in ("vmap", "jit_vmap"):
        np.testing.assert_allclose(np.asarray(out), [6.0, 8.0, 10.0])
        assert a_calls == [("a", ())]
        assert bwd_calls == []
        return
    np.testing.assert_allclose(np.asarray(out), [2.0, 2.0, 2.0])
    batched = kind == "primal_batched" and stack != "grad_jit_vmap"
    assert len(a_calls) == (3 if batched else 1)
    assert bwd_calls == [("bwd", (), (), (), ())] * 3


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("staged", [False, True])
def test_F_custom_vjp_unbatched_output_cotangent_counts_once(staged):
    """The cotangent of an unbatched output is the whole batch's (summed) while ``bwd`` runs
    per element: it must count once, not once per element. d/dk of
    ``sum_i (3k + x_i k)`` over x = 0, 1, 2 is 12; JAX 0.10.2 gives 30 (compat.md)."""
    c, calls = _two_output_custom_vjp("plain")

    def total(k):
        f = jax.vmap(lambda x: sum(c(x, k)))
        return jnp.sum((jax.jit(f) if staged else f)(jnp.arange(3.0)))

    assert float(jax.grad(total)(jnp.float32(2.0))) == 12.0
    # The batched input's cotangent is unchanged: d/dx_i = k.
    xs_grad = jax.grad(lambda xs: jnp.sum(jax.vmap(lambda x: sum(c(x, 2.0)))(xs)))
    np.testing.assert_array_equal(np.asarray(xs_grad(jnp.arange(3.0))), [2.0, 2.0, 2.0])
    calls.clear()
    jax.grad(total)(jnp.float32(2.0))
    jax.effects_barrier()
    assert calls == [("bwd", (), (), (), ())] * 3  # bwd still runs per element, as in JAX
    jax.effects_barrier()
    assert calls == [("bwd", (), (), (), ())] * 3


# ---------------------------------------------------------------------------------------------
# a rule run later leaves unbatched an output that the staged call batched


def _rule_unbatches_custom_jvp():
    """``f(x) = 2x``, whose rule returns constants: under ``vmap`` the function's output is
    batched, the rule's primal and tangent outputs are not."""

    @jax.custom_jvp
    def f(x):
        return x * 2.0

    f.defjvp(lambda p, t: (jnp.float32(5.0), jnp.float32(1.0)))
    return f


def _fwd_unbatches_custom_vjp():
    @jax.custom_vjp
    def g(x):
        return x * 2.0

    g.defvjp(lambda x: (jnp.float32(5.0), None), lambda r, ct: (jnp.ones(()),))
    return g


def test_F_rule_unbatched_output_eager_is_broadcast():
    """Differentiated right away, the vmapped rule's unbatched outputs come out of ``vmap``
    broadcast to the batch (JAX 0.10.2 eagerly and under ``jit`` of the whole stack)."""
    f, g, xs = _rule_unbatches_custom_jvp(), _fwd_unbatches_custom_vjp(), jnp.arange(3.0)
    for run in (lambda h: h(), lambda h: jax.jit(h)()):
        p, t = run(lambda: jax.jvp(jax.vmap(f), (xs,), (xs,)))
        np.testing.assert_array_equal(np.asarray(p), [5.0, 5.0, 5.0])
        np.testing.assert_array_equal(np.asarray(t), [1.0, 1.0, 1.0])
        v, dx = run(lambda: jax.value_and_grad(lambda a: jax.vmap(g)(a).sum())(xs))
        assert float(v) == 15.0
        np.testing.assert_array_equal(np.asarray(dx), [1.0, 1.0, 1.0])


@pytest.mark.jaxlite_only
def test_F_rule_run_later_keeps_the_staged_batched_shape():
    """``jvp``/``vjp`` of ``jit(vmap(f))``: the staged call said batched, the rule run later
    returns unbatched outputs. jaxlite broadcasts them to the staged shape, the answer of
    the same stack without ``jit`` (above). JAX 0.10.2 returns them unbatched, against its
    own staged type: ``jvp(jit(vmap(f)))`` gives shape ``()``, ``vjp``'s function then
    rejects a ``(3,)`` cotangent, and ``value_and_grad`` of ``sum(jit(vmap(g)))`` is 5.0
    where eager JAX says 15.0 (compat.md, the F general-rule row)."""
    f, g, xs = _rule_unbatches_custom_jvp(), _fwd_unbatches_custom_vjp(), jnp.arange(3.0)
    p, t = jax.jvp(jax.jit(jax.vmap(f)), (xs,), (xs,))
    assert p.shape == t.shape == (3,)
    np.testing.assert_array_equal(np.asarray(p), [5.0, 5.0, 5.0])
    np.testing.assert_array_equal(np.asarray(t), [1.0, 1.0, 1.0])
    y, lin = jax.linearize(jax.jit(jax.vmap(f)), xs)
    assert y.shape == lin(xs).shape == (3,)
    y, pullback = jax.vjp(jax.jit(jax.vmap(g)), xs)
    np.testing.assert_array_equal(np.asarray(y), [5.0, 5.0, 5.0])
    np.testing.assert_array_equal(np.asarray(pullback(jnp.ones(3))[0]), [1.0, 1.0, 1.0])
    v, dx = jax.value_and_grad(lambda a: jax.jit(jax.vmap(g))(a).sum())(xs)
    assert float(v) == 15.0
    np.testing.assert_array_equal(np.asarray(dx), [1.0, 1.0, 1.0])


# ---------------------------------------------------------------------------------------------
# seed 40570: a staged custom function's rule closes over a value of a finished jit trace


def _closing_over_jit_value(kind, use):
    """``jit(g)`` where ``g``'s custom function has a rule (custom_jvp's jvp, custom_vjp's
    fwd) that computes ``use``: nothing from a value ``w`` of ``jit``'s trace (``unused``, an
    unused ``pure_callback`` of it: ``unused_pc``), or an output from it (``used``)."""
    calls = []

    def g(v):
        w = jnp.sum(v > 0).astype(jnp.float32) + 1.0

        def touch(p):
            if use == "unused":
                _ = p * w
            elif use == "unused_pc":
                jax.pure_callback(
                    lambda a, b: calls.append("pc") or np.asarray(a),
                    jax.ShapeDtypeStruct(p.shape, p.dtype),
                    p,
                    w,
                    vmap_method="sequential",
                )
            return p * 2.0 + (0.0 * w if use == "used" else 0.0)

        if kind == "custom_jvp":
            c = jax.custom_jvp(lambda v: v * 2.0)
            c.defjvp(lambda p, t: (touch(p[0]), t[0] * 2.0))
        else:
            c = jax.custom_vjp(lambda v: v * 2.0)
            c.defvjp(lambda v: (touch(v), None), lambda _, ct: (ct * 2.0,))
        return c(v)

    return jax.jit(g), calls


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp"])
@pytest.mark.parametrize("use", ["unused", "unused_pc"])
@pytest.mark.parametrize("how", ["vjp", "grad"])
def test_G_custom_rule_closing_over_dead_jit_value_unused(kind, use, how):
    """Seed 40570: JAX traces the rule of the staged call lazily; a value of the finished
    ``jit`` trace that only unused code touches is removed with it, so vjp/grad works (and
    the unused pure_callback never runs, D1)."""
    f, calls = _closing_over_jit_value(kind, use)
    x = jnp.array([-1.0, 0.5])
    if how == "vjp":
        out = jax.vjp(f, x)[1](jnp.ones(2))[0]
    else:
        out = jax.grad(lambda x: jnp.sum(f(x)))(x)
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])
    assert calls == []


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp"])
def test_G_custom_rule_using_dead_jit_value_raises_type_error(kind):
    """When the rule's output does use such a value, both raise a TypeError (JAX's: no
    constant handler for the tracer; jaxlite's: UnexpectedTracerError)."""
    f, _ = _closing_over_jit_value(kind, "used")
    with pytest.raises(TypeError):
        jax.vjp(f, jnp.array([-1.0, 0.5]))[1](jnp.ones(2))


def test_G_custom_jvp_rule_closing_over_dead_jit_value_under_jvp():
    f, calls = _closing_over_jit_value("custom_jvp", "unused_pc")
    x = jnp.array([-1.0, 0.5])
    p, t = jax.jvp(f, (x,), (x,))
    np.testing.assert_array_equal(np.asarray(p), [-2.0, 1.0])
    np.testing.assert_array_equal(np.asarray(t), [-2.0, 1.0])
    assert calls == []


@pytest.mark.jaxlite_only
def test_G_custom_vjp_bwd_closing_over_jit_value_in_cond_under_vjp():
    """compat.md (callback fuzzer, seed 50064): JAX raises ``TypeError: No constant handler``
    staging a ``custom_vjp`` ``bwd`` that closes over a ``jit`` argument when the call is in a
    ``cond`` under ``vjp`` inside the ``jit``; jaxlite gives the eager values, and the ``bwd``
    callback runs once per call (here one jitted and one eager)."""
    calls = []

    def f(x, y):
        c = jax.custom_vjp(lambda v: v)

        def bwd(_, g):
            jax.debug.callback(lambda g, y: calls.append(np.asarray(y).tolist()), g, y)
            return (g * 2.0,)

        c.defvjp(lambda v: (v, None), bwd)
        g5 = lambda v: jax.lax.cond(jnp.sum(y) > 2.0, lambda v: v, c, v)  # noqa: E731
        pr, pb = jax.vjp(g5, x)
        return pr + pb(jnp.ones_like(pr))[0]

    x, y = jnp.array([-1.0, -0.5]), jnp.array([1.5, -0.5])
    out = jax.jit(f)(x, y)
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.asarray(f(x, y)))
    np.testing.assert_array_equal(np.asarray(out), [1.0, 1.5])
    assert calls == [[1.5, -0.5], [1.5, -0.5]]
