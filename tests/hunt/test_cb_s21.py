"""Session 21: the differences from JAX 0.10.2 that the callback fuzzer of session 20
(tests/hunt/fuzz_s20.py) left, reduced to plain programs. Each case compares jaxlite with
JAX through tests/hunt/oracle.py where JAX is importable, and asserts JAX's answer (counted
or read on JAX 0.10.2) as a known value, so the file means something without JAX and passes
in oracle mode (``JAXLITE_ORACLE=jax``). Numbers such as H2 or F17 are those of
shared/spec/callbacks.md."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt.oracle import LITE, same

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

