"""Session 20 differential hunt (generator in tests/hunt/fuzz_s20.py: host callbacks inside
control flow under random stacks of jit / vmap / grad / jacfwd / jacrev / hessian / jvp /
vjp / linearize / checkpoint / custom_jvp / custom_vjp), checked against JAX 0.10.2.

Each case asserts JAX's answer as a known value (so it means something without JAX, and the
file passes in oracle mode, ``JAXLITE_ORACLE=jax``) and, where JAX is importable, compares
the whole result with it through tests/hunt/oracle.py. Callback numbers (E2, F17, G9...)
are those of shared/spec/callbacks.md."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt.oracle import LITE, same

# ------------------------------------------ reverse mode through a batched-index cond
# vmap of a cond / switch whose index is batched runs every branch on every element and
# selects the outputs (F17). JAX also gates each branch's *operands*: an element whose
# index does not select the branch sees its operand through stop_gradient, so reverse mode
# gives each element the gradient of its taken branch only. jaxlite selected the outputs
# only, so an untaken branch's VJP of a zero cotangent leaked into the gradient: NaN for
# ``0 * inf`` (sqrt at 0 and below), and a wrong value for a custom_vjp ``bwd`` that is not
# zero at zero (seed 3035, a pure_callback in ``bwd``).

_XS = np.array([-1.0, 0.0, 4.0], np.float32)


def _f(m):
    return lambda v: m.lax.cond(v > 0, m.jnp.sqrt, lambda v: v, v)


def _s(m):
    branches = [lambda v: v, lambda v: m.jnp.sqrt(v), lambda v: m.jnp.log(v)]
    return lambda v: m.lax.switch(m.jnp.clip(v, 0, 2).astype(m.jnp.int32), branches, v)


def _total(m, fn):
    return lambda xs: m.jnp.sum(m.jx.vmap(fn)(xs))


_BATCHED_COND = {
    "grad_vmap_cond": lambda m: m.jx.grad(_total(m, _f(m)))(_XS),
    "jit_grad_vmap_cond": lambda m: m.jx.jit(m.jx.grad(_total(m, _f(m))))(_XS),
    "grad_jit_vmap_cond": lambda m: m.jx.grad(_total(m, m.jx.jit(_f(m))))(_XS),
    "grad_vmap_switch": lambda m: m.jx.grad(_total(m, _s(m)))(_XS),
    "jacrev_vmap_cond": lambda m: m.jx.jacrev(m.jx.vmap(_f(m)))(_XS),
    "vjp_vmap_cond": lambda m: m.jx.vjp(m.jx.vmap(_f(m)), _XS)[1](np.ones(3, np.float32)),
    "linearize_vmap_cond": lambda m: m.jx.linear_transpose(
        m.jx.linearize(m.jx.vmap(_f(m)), _XS)[1], _XS
    )(np.ones(3, np.float32)),
    "grad_vmap_checkpoint_cond": lambda m: m.jx.grad(_total(m, m.jx.checkpoint(_f(m))))(_XS),
    "hessian_vmap_cond": lambda m: m.jx.hessian(_total(m, _f(m)))(_XS),
    "grad_vmap_cond_closure": lambda m: m.jx.grad(
        lambda c: m.jnp.sum(
            m.jx.vmap(lambda v: m.lax.cond(v > 0, lambda: m.jnp.sqrt(v * c), lambda: v))(_XS)
        )
    )(np.float32(1.0)),
}


@pytest.mark.parametrize("name", sorted(_BATCHED_COND))
def test_reverse_mode_through_batched_cond_like_jax(name):
    same(_BATCHED_COND[name])


def test_reverse_mode_through_batched_cond_known_values():
    np.testing.assert_array_equal(_BATCHED_COND["grad_vmap_cond"](LITE), [1.0, 1.0, 0.25])
    np.testing.assert_array_equal(_BATCHED_COND["grad_vmap_switch"](LITE), [1.0, 1.0, 0.25])
    np.testing.assert_array_equal(
        _BATCHED_COND["jacrev_vmap_cond"](LITE), np.diag([1.0, 1.0, 0.25])
    )
    # the closed-over factor: d/dc sqrt(4c) = 4 / (2 sqrt(4)) = 1 at c = 1; the elements
    # -1 and 0 take the other branch and add nothing (sqrt(-c)' and sqrt(0)' are NaN, inf)
    np.testing.assert_allclose(_BATCHED_COND["grad_vmap_cond_closure"](LITE), 1.0)


def _custom_vjp_in_batched_cond(m, log):
    """Seed 3035 reduced: a custom_vjp in the untaken branch of a batched cond, whose
    ``bwd`` adds ``0.25 * pure_callback(ct)`` (not zero at a zero cotangent)."""

    def host(ct):
        log.append(np.asarray(ct).tolist())
        return np.asarray(ct, np.float32) * 0.5 + 1.0

    c = m.jx.custom_vjp(lambda v: v)

    def bwd(res, ct):
        r = m.jx.pure_callback(
            host, m.jx.ShapeDtypeStruct(ct.shape, ct.dtype), ct, vmap_method="expand_dims"
        )
        return ((ct + r * 0.25) * m.jnp.cos(res),)

    c.defvjp(lambda v: (v, v), bwd)

    def f(v):
        return m.lax.cond(m.jnp.sum(v) > 0.5, c, lambda v: v, v)

    def total(x):
        return m.jnp.sum(m.jx.vmap(f)(m.jnp.stack([x, x * 0.5 - 1.0])))

    return m.jx.value_and_grad(total)(np.float32(-0.25))


def test_custom_vjp_bwd_of_untaken_batched_branch_like_jax():
    log = []
    same(lambda m: _custom_vjp_in_batched_cond(m, log))
    # both elements take the identity branch: d/dx (x + (x/2 - 1)) = 1.5. The bwd of the
    # untaken branch still runs on the whole batch with zero cotangents (F17, D7), in JAX
    # as in jaxlite, but its result no longer reaches the gradient.
    log.clear()
    val, g = _custom_vjp_in_batched_cond(LITE, log)
    np.testing.assert_allclose([val, g], [-1.375, 1.5])
    assert log == [[0.0, 0.0]]


# ------------------------- debug callbacks nested in a saveable checkpoint (H2, seed 3104)
# Under a policy that saves the cond / scan / jit equation (everything_saveable), JAX decides
# per debug callback, at its own level, whether remat replays it in the backward pass: one
# whose operands are all inputs of its branch / body / call is replayed (the backward pass
# has them), one on a value computed inside runs once, in the forward pass. jaxlite
# replayed the whole equation, so a print of ``jnp.sum(v)`` in a cond branch ran again at
# every application of the pullback.


def _nested_print(m, where, direct):
    def show(v):
        m.jx.debug.callback(_nested_print.host, v if direct else m.jnp.sum(v))
        return v * v

    if where == "cond":
        return lambda v: m.lax.cond(m.jnp.sum(v) > 0.5, show, lambda v: v * 2.0, v)
    if where == "scan":
        return lambda v: m.lax.scan(lambda c, _: (show(c), None), v, None, length=2)[0]
    if where == "fori":
        return lambda v: m.lax.fori_loop(0, 2, lambda i, c: show(c), v)
    return m.jx.jit(show)


_NESTED = [(w, d) for w in ("cond", "scan", "fori", "jit") for d in (False, True)]


def _remat_calls(m, where, direct, policy="everything_saveable"):
    log = []
    _nested_print.host = lambda *a: log.append(np.asarray(a[0]).tolist())
    g = m.jx.checkpoint(
        _nested_print(m, where, direct), policy=getattr(m.jx.checkpoint_policies, policy)
    )
    x = np.array([0.25, 0.75], np.float32)
    pr, pb = m.jx.vjp(g, x)
    fwd = len(log)
    ct = pb(pr)
    ct = pb(pr)
    return np.array([fwd, len(log)]), ct, np.asarray(log, np.float32)


@pytest.mark.parametrize("where, direct", _NESTED, ids=[f"{w}-{d}" for w, d in _NESTED])
def test_remat_replays_nested_debug_callbacks_like_jax(where, direct):
    same(lambda m: _remat_calls(m, where, direct))


def test_remat_nested_debug_callbacks_known_counts():
    # forward calls, total after two pullback applications
    def counts(*a):
        return _remat_calls(LITE, *a)[0].tolist()

    assert counts("cond", False) == [1, 1]
    assert counts("cond", True) == [1, 3]
    assert counts("scan", False) == [2, 2]
    assert counts("fori", True) == [2, 6]
    assert counts("jit", False) == [1, 1]
    # a policy that does not save the cond replays it whatever its callbacks see (H2)
    assert counts("cond", False, "nothing_saveable") == [1, 3]
    assert counts("cond", False, "dots_saveable") == [1, 3]


# ------------------------------------------------------------ the session's generator
# tests/hunt/fuzz_s20.py: a bounded slice of its seeds runs here (every seed of the slice
# agreed with JAX 0.10.2 after the fixes above), compared on outputs (values, dtypes, weak
# types), callback calls and arguments, ordered chains and exceptions.


def test_seeded_callback_programs_agree_with_jax():
    pytest.importorskip("jax")
    from tests.hunt import fuzz_s20

    found = fuzz_s20.hunt(range(5))
    assert not found, "\n\n".join(f"seed {s}: {d}\n{src}" for s, d, src in found)


def test_generator_is_deterministic():
    from tests.hunt import fuzz_s20

    a = [fuzz_s20.generate(s)[0] for s in range(8)]
    assert a == [fuzz_s20.generate(s)[0] for s in range(8)]
    assert len(set(a)) == 8
