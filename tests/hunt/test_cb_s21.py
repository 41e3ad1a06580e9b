"""Session 21: the differences from JAX 0.10.2 that the callback fuzzer of session 20
(tests/hunt/fuzz_s20.py) left, reduced to plain programs. Each case compares jaxlite with
JAX through tests/hunt/oracle.py where JAX is importable, and asserts JAX's answer (counted
or read on JAX 0.10.2) as a known value, so the file means something without JAX and passes
in oracle mode (``JAXLITE_ORACLE=jax``). Numbers such as H2 or F17 are those of
shared/spec/callbacks.md."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE, builtin_base, run, same

# ----------------------------------------- remat under derivatives of higher order (H2, G7)
# A debug callback inside ``jax.checkpoint`` runs in the forward pass and again where the
# backward pass recomputes (H2). Differentiated once more, JAX recomputes what the
# backward pass recomputed (its transpose of a checkpoint is a checkpoint), but not what
# the forward pass computed (the known half of a checkpoint is evaluated inline). jaxlite
# had it the other way round: a pullback applied twice inside ``grad`` printed 4 times (JAX
# 5), and with the first fix alone ``grad(grad(f))`` printed 4 times (JAX 3).


def _remat_stack(m, policy, form, operand):
    log = []

    def show(v):
        m.jx.debug.callback(lambda *a: log.append(1), m.jnp.sum(v) if operand == "sum" else v)
        return v

    def g(v):
        if form == "cond":
            return m.lax.cond(m.jnp.sum(v) > 0.0, show, lambda v: v * 2.0, v) * v
        if form == "jit":
            return m.jx.jit(show)(v) * v
        if form == "scan":
            return m.lax.scan(lambda c, _: (show(c) * 1.5, None), v, None, length=1)[0] * v
        return show(v) * v

    kw = {} if policy is None else dict(policy=getattr(m.jx.checkpoint_policies, policy))
    x = np.array([0.5, 0.25, 0.75], np.float32)

    def f(t):
        return m.jnp.sum(m.jnp.sin(m.jx.checkpoint(g, **kw)(t * x)))

    def pulled_twice(t):
        pr, pb = m.jx.vjp(f, t)
        return pb(pr)[0] + pb(pr * 0.5)[0]

    stacks = {
        "grad": m.jx.grad(f),
        "grad2": m.jx.grad(m.jx.grad(f)),
        "grad3": m.jx.grad(m.jx.grad(m.jx.grad(f))),
        "hessian": m.jx.hessian(f),
        "grad_hessian": m.jx.grad(m.jx.hessian(f)),
        "grad_vjp_twice": m.jx.grad(pulled_twice),
        "jacrev3": m.jx.jacrev(m.jx.jacrev(m.jx.jacrev(f))),
    }
    counts, values = [], []
    for name in sorted(stacks):
        log.clear()
        values.append(stacks[name](np.float32(0.6)))
        counts.append(len(log))
    return np.array(counts), values


# JAX 0.10.2's counts, in the sorted order of the stacks above: grad, grad2, grad3,
# grad_hessian, grad_vjp_twice, hessian, jacrev3.
_REMAT_CASES = {
    (None, "plain", "v"): [2, 3, 4, 3, 5, 2, 4],
    (None, "cond", "sum"): [2, 3, 4, 3, 5, 2, 4],
    (None, "scan", "v"): [2, 3, 4, 3, 5, 2, 4],
    ("everything_saveable", "jit", "v"): [2, 3, 4, 3, 5, 2, 4],
    # saved (everything_saveable) and computed inside the checkpoint: runs once (H2)
    ("everything_saveable", "plain", "sum"): [1, 1, 1, 1, 1, 1, 1],
    ("dots_saveable", "cond", "v"): [2, 3, 4, 3, 5, 2, 4],
}


@pytest.mark.parametrize("case", sorted(_REMAT_CASES, key=str), ids=lambda c: "-".join(map(str, c)))
def test_remat_counts_under_higher_order_ad_like_jax(case):
    same(lambda m: _remat_stack(m, *case))
    counts, _ = _remat_stack(LITE, *case)
    assert counts.tolist() == _REMAT_CASES[case]


# ----------------------- custom_vjp whose fwd uses a finished trace's value, forward mode
# ``fwd`` reads a value of the trace that staged the call (a scan carry, a jit argument),
# and the enclosing loop / call is differentiated in forward mode. JAX refuses forward mode
# of a custom_vjp function before the leak shows: under ``jacfwd`` / ``vmap`` of ``jvp``,
# "can't apply forward-mode autodiff (jvp) to a custom_vjp function." (a TypeError), under
# ``grad`` of ``jvp`` the missing derivative of ``custom_lin`` (NotImplementedError).
# jaxlite raised the leak's UnexpectedTracerError. Reverse mode still reports the leak (JAX
# too, for scan and fori_loop). Plain ``jvp`` is JAX's documented "No constant handler"
# TypeError (docs/compat.md); jaxlite gives the forward-mode message there too.

_FWD_MSG = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."


def _leaky_custom_vjp(m, where):
    def step(c):
        v, i = c
        i = i + 1
        h = m.jx.custom_vjp(lambda v: v * 2.0)

        def fwd(v):
            return v * 2.0 + i * 0.0, (v * 1.0,)  # i: a value of the enclosing trace

        h.defvjp(fwd, lambda res, ct: (ct * m.jnp.cos(res[0]),))
        return h(v), i

    def f(x):
        c = (x, m.jnp.int32(0))
        if where == "scan":
            return m.lax.scan(lambda c, _: (step(c), None), c, None, length=2)[0][0]
        if where == "fori":
            return m.lax.fori_loop(0, 2, lambda k, c: step(c), c)[0]
        if where == "while":
            return m.lax.while_loop(lambda c: c[1] < 2, step, c)[0]
        if where == "cond":
            return m.lax.cond(x > 0, step, lambda c: c, c)[0]
        return m.jx.jit(step)(c)[0]

    return f


_WHERE = ("scan", "fori", "while", "cond", "jit")
_FORWARD = {
    "jacfwd": (lambda m, f: m.jx.jacfwd(f), TypeError, _FWD_MSG),
    "vmap_jvp": (
        lambda m, f: lambda x: m.jx.vmap(lambda y: m.jx.jvp(f, (y,), (y,)))(m.jnp.stack([x, x])),
        TypeError,
        _FWD_MSG,
    ),
    "jacfwd_jit": (lambda m, f: m.jx.jacfwd(m.jx.jit(f)), TypeError, _FWD_MSG),
    "grad_jvp": (
        lambda m, f: m.jx.grad(lambda y: m.jx.jvp(f, (y,), (y,))[1]),
        NotImplementedError,
        "Differentiation rule for 'custom_lin' not implemented",
    ),
    "jvp": (lambda m, f: lambda x: m.jx.jvp(f, (x,), (x,)), TypeError, None),
}
_LEAK_CASES = [(w, k) for w in _WHERE for k in _FORWARD]


@pytest.mark.parametrize("where, stack", _LEAK_CASES, ids=[f"{w}-{k}" for w, k in _LEAK_CASES])
def test_custom_vjp_leak_under_forward_mode_like_jax(where, stack):
    make, etype, msg = _FORWARD[stack]

    def build(m):
        return make(m, _leaky_custom_vjp(m, where))(np.float32(0.5))

    kind, e = run(build, LITE)
    assert kind == "err" and builtin_base(e) is etype, e
    if msg is not None:
        assert str(e).splitlines()[0] == msg
    if JAX is not None:
        kj, ej = run(build, JAX)
        assert kj == "err" and builtin_base(ej) is etype, ej
        if msg is not None:
            assert str(ej).splitlines()[0] == msg


@pytest.mark.parametrize("where", ["scan", "fori"])
def test_custom_vjp_leak_under_reverse_mode_still_reports_the_leak(where):
    # JAX and jaxlite: the escaped tracer (jacrev, hessian: the linearization runs fwd)
    for make in (lambda m, f: m.jx.jacrev(f), lambda m, f: m.jx.hessian(f)):
        for m in (LITE, JAX) if JAX is not None else (LITE,):
            kind, e = run(lambda m=m: make(m, _leaky_custom_vjp(m, where))(np.float32(0.5)), m)
            assert kind == "err" and type(e).__name__ == "UnexpectedTracerError", e


# ------------------------------------ untaken branches of a batched cond are silent (F17)
# vmap of a cond / switch with a batched index runs every branch on every element (F17)
# and selects. The untaken branches (and their derivatives: 0 * inf where the branch's
# derivative is infinite) compute what XLA computes silently; jaxlite let NumPy's
# RuntimeWarnings ("invalid value encountered in multiply", ...) through, an error where
# warnings are errors. Values are JAX's.

_XS = np.array([-1.0, 0.0, 4.0, 2.0], np.float32)
_BRANCHY = {
    "sqrt": lambda m: lambda v: m.lax.cond(v > 0, m.jnp.sqrt, lambda v: v, v),
    "xlogx": lambda m: lambda v: m.lax.cond(v > 0, lambda v: v * m.jnp.log(v), lambda v: v, v),
    "recip": lambda m: lambda v: m.lax.cond(v != 0, lambda v: 1.0 / v, lambda v: v, v),
    "arccos": lambda m: lambda v: m.lax.cond(v > 0, m.jnp.arccos, lambda v: v, v),
    "exp_diff": lambda m: (
        lambda v: m.lax.cond(
            v > 0, lambda v: v, lambda v: m.jnp.exp(-v * 1000.0) - m.jnp.exp(-v * 1000.0), v
        )
    ),
    "switch": lambda m: (
        lambda v: m.lax.switch(
            m.jnp.clip(v, 0, 2).astype(m.jnp.int32),
            [m.jnp.log, lambda v: 1.0 / v, m.jnp.sqrt],
            v,
        )
    ),
}


def _total(m, fn):
    return lambda xs: m.jnp.sum(m.jx.vmap(fn)(xs))


_STACKS = {
    "vmap": lambda m, fn: m.jx.vmap(fn)(_XS),
    "jit_vmap": lambda m, fn: m.jx.jit(m.jx.vmap(fn))(_XS),
    "vmap_grad": lambda m, fn: m.jx.vmap(m.jx.grad(fn))(_XS),
    "grad_vmap": lambda m, fn: m.jx.grad(_total(m, fn))(_XS),
    "vmap_hessian": lambda m, fn: m.jx.vmap(m.jx.hessian(fn))(_XS),
    "hessian_vmap": lambda m, fn: m.jx.hessian(_total(m, fn))(_XS),
    "jacfwd_vmap": lambda m, fn: m.jx.jacfwd(m.jx.vmap(fn))(_XS),
    "linear_transpose": lambda m, fn: m.jx.linear_transpose(
        m.jx.linearize(m.jx.vmap(fn), _XS)[1], _XS
    )(np.ones(4, np.float32)),
    "linearize_apply": lambda m, fn: m.jx.linearize(m.jx.vmap(fn), _XS)[1](_XS),
}
_QUIET_CASES = [(b, s) for b in _BRANCHY for s in _STACKS]


@pytest.mark.parametrize("branch, stack", _QUIET_CASES, ids=[f"{b}-{s}" for b, s in _QUIET_CASES])
def test_batched_cond_untaken_branches_are_silent(branch, stack):
    def build(m):
        return _STACKS[stack](m, _BRANCHY[branch](m))

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        same(build, signs=False)


def test_batched_cond_known_values_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = _STACKS["grad_vmap"](LITE, _BRANCHY["sqrt"](LITE))
        d = _STACKS["jacfwd_vmap"](LITE, _BRANCHY["xlogx"](LITE))
    np.testing.assert_allclose(g, [1.0, 1.0, 0.25, 0.35355338], rtol=1e-6)
    # d/dv v log v = log v + 1 where taken; 1 for the identity branch
    np.testing.assert_allclose(np.diag(d), [1.0, 1.0, np.log(4.0) + 1, np.log(2.0) + 1], rtol=1e-6)


def test_callback_warnings_in_an_untaken_branch_stay_the_users():
    # The silence is jaxlite's own code's: a pure_callback's NumPy warning (here an error)
    # in a branch that runs for every element still fails the call, as in JAX (C1, C4).
    def build(m):
        def branch(v):
            spec = m.jx.ShapeDtypeStruct((), np.float32)
            return m.jx.pure_callback(
                lambda a: np.log(np.asarray(a)), spec, v, vmap_method="sequential"
            )

        f = lambda v: m.lax.cond(v > 0, branch, lambda v: v, v)  # noqa: E731
        return m.jx.vmap(f)(_XS)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kind, e = run(build, LITE)
        assert kind == "err" and isinstance(e, RuntimeError), e
        assert "invalid value encountered in log" in str(e)
        if JAX is not None:
            kj, ej = run(build, JAX)
            assert kj == "err" and isinstance(ej, RuntimeError), ej


# ---------------------------- an unused pure_callback in a batched cond's known half (D2)
# A pure_callback whose result nothing uses, in a branch of a cond whose index a vmap
# batches (so every branch runs on every element, F17). Under a derivative (vmap of grad /
# hessian), the forward pass evaluates the cond's known half, from which JAX removes dead
# code (D2): the callback does not run. jaxlite kept it there, so it ran on the whole batch
# (values the Python reading never passes it; allowed by 1.1 and D7, but cheap to match).
# A plain vmap runs it in both engines (nothing removes it eagerly).


def _unused_pc_calls(m, stack):
    log = []

    def host(a):
        log.append(np.asarray(a).tolist())
        return np.zeros(np.shape(a), np.int32)

    def unused(v):
        spec = m.jx.ShapeDtypeStruct((), np.int32)
        m.jx.pure_callback(
            host, spec, m.lax.stop_gradient(m.jnp.sum(v)), vmap_method="broadcast_all"
        )
        return v * 2.0

    def f(v):
        inner = lambda v: m.lax.cond(m.jnp.sum(v) > 0.3, lambda v: m.jnp.sin(v) * v, unused, v)  # noqa: E731
        return m.jnp.sum(m.jnp.tanh(m.lax.cond(m.jnp.sum(v) > -0.5, inner, unused, v)))

    x = np.array([0.25, -0.5], np.float32)
    ss = np.array([1.0, -0.5, 3.0], np.float32)
    each = {
        "vmap": lambda s: f(x * s),
        "vmap_grad": lambda s: m.jx.grad(f)(x * s),
        "vmap_jacfwd": lambda s: m.jx.jacfwd(f)(x * s),
        "vmap_hessian": lambda s: m.jx.hessian(f)(x * s),
    }[stack]
    out = m.jx.vmap(each)(ss)
    return out, np.array(log, np.float32).reshape(-1, 3)


_UNUSED_CALLS = {"vmap": 2, "vmap_grad": 0, "vmap_jacfwd": 2, "vmap_hessian": 0}


@pytest.mark.parametrize("stack", sorted(_UNUSED_CALLS))
def test_unused_pure_callback_in_batched_cond_like_jax(stack):
    same(lambda m: _unused_pc_calls(m, stack))
    _, calls = _unused_pc_calls(LITE, stack)
    assert len(calls) == _UNUSED_CALLS[stack]
