"""Spec section H (remat / ``jax.checkpoint``): callbacks inside ``checkpoint`` with and
without autodiff.

Behaviour numbers (H1..H4) refer to ``spec/callbacks.md``. H1 is where jaxlite deliberately
goes beyond JAX: JAX raises ``NotImplementedError("Effects not supported in ...")`` for any
``io_callback`` inside ``checkpoint`` under reverse-mode AD, whereas jaxlite allows it: the
callback runs once, in the forward pass, its outputs are saved as residuals and it is never
re-run during rematerialisation. The H1 tests assert JAX's error in oracle mode and jaxlite's
behaviour otherwise.
"""

import os
import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

try:
    from conftest import ORACLE
except ImportError:  # another conftest shadows the tests/ one
    ORACLE = os.environ.get("JAXLITE_ORACLE", "") == "jax"

F32 = jax.ShapeDtypeStruct((), jnp.float32)
EFFECTS_MSG = "Effects not supported in"


def _io_unordered(cb, result_shape, *args):
    return io_callback(cb, result_shape, *args, ordered=False)


def _io_ordered(cb, result_shape, *args):
    return io_callback(cb, result_shape, *args, ordered=True)


def _pure(cb, result_shape, *args):
    return jax.pure_callback(cb, result_shape, *args, vmap_method="sequential")


FLAVOURS = [
    pytest.param(_io_unordered, id="io_unordered"),
    pytest.param(_io_ordered, id="io_ordered"),
    pytest.param(_pure, id="pure_callback"),
]
IO_FLAVOURS = FLAVOURS[:2]


def _policy(name):
    if name == "default":
        return None
    if name == "nothing_saveable":
        return jax.checkpoint_policies.nothing_saveable
    if name == "everything_saveable":
        return jax.checkpoint_policies.everything_saveable
    raise ValueError(name)


def _recorder(calls):
    def cb(y):
        calls.append(float(y))
        return y

    return cb


# ---------------------------------------------------------------------------------------------
# H1: io_callback inside checkpoint under AD


@pytest.mark.parametrize("policy", ["default", "nothing_saveable", "everything_saveable"])
@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_io_in_checkpoint_under_grad(callback, wrap, policy):
    calls = []

    def f(x, y):
        return x * callback(_recorder(calls), F32, y)

    g = jax.grad(jax.checkpoint(f, policy=_policy(policy)))
    if wrap is not None:
        g = wrap(g)
    if ORACLE:
        # JAX rejects the IO effect even though only y (not differentiated) reaches it.
        with pytest.raises(NotImplementedError, match=EFFECTS_MSG):
            g(2.0, 3.0)
            jax.effects_barrier()
        assert calls == []
    else:
        # jaxlite: one forward-pass call, its output saved for the backward pass.
        assert float(g(2.0, 3.0)) == 3.0
        jax.effects_barrier()
        assert calls == [3.0]


@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_io_output_used_nonlinearly_is_saved_not_rerun(callback):
    calls = []

    def f(x, y):
        return jnp.sin(x * callback(_recorder(calls), F32, y))

    g = jax.grad(jax.checkpoint(f, policy=jax.checkpoint_policies.nothing_saveable))
    if ORACLE:
        with pytest.raises(NotImplementedError, match=EFFECTS_MSG):
            g(2.0, 3.0)
            jax.effects_barrier()
    else:
        out = g(2.0, 3.0)
        jax.effects_barrier()
        np.testing.assert_allclose(float(out), 3.0 * np.cos(6.0), rtol=1e-5)
        assert calls == [3.0]


@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_io_in_checkpoint_under_vjp_not_rerun_by_pullback(callback):
    calls = []

    def f(x):
        return x * callback(_recorder(calls), F32, jnp.float32(3.0))

    if ORACLE:
        with pytest.raises(NotImplementedError, match=EFFECTS_MSG):
            jax.vjp(jax.checkpoint(f), 2.0)
            jax.effects_barrier()
    else:
        primal, pullback = jax.vjp(jax.checkpoint(f), 2.0)
        jax.effects_barrier()
        assert float(primal) == 6.0
        assert calls == [3.0]
        assert float(pullback(1.0)[0]) == 3.0
        assert float(pullback(2.0)[0]) == 6.0
        jax.effects_barrier()
        assert calls == [3.0]


@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_io_in_checkpoint_under_linearize(callback):
    calls = []

    def f(x):
        return x * callback(_recorder(calls), F32, jnp.float32(3.0))

    if ORACLE:
        with pytest.raises(NotImplementedError, match=EFFECTS_MSG):
            jax.linearize(jax.checkpoint(f), 2.0)
            jax.effects_barrier()
    else:
        primal, f_lin = jax.linearize(jax.checkpoint(f), 2.0)
        assert float(primal) == 6.0
        assert float(f_lin(1.0)) == 3.0
        jax.effects_barrier()
        assert calls == [3.0]


@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_output_free_io_in_checkpoint_under_grad(callback, capsys):
    def f(x, y):
        callback(lambda v: print(f"y is {float(v)}"), None, y)
        return x * y

    g = jax.grad(jax.checkpoint(f))
    if ORACLE:
        with pytest.raises(NotImplementedError, match=EFFECTS_MSG):
            g(2.0, 3.0)
            jax.effects_barrier()
        assert capsys.readouterr().out == ""
    else:
        assert float(g(2.0, 3.0)) == 3.0
        jax.effects_barrier()
        assert capsys.readouterr().out == "y is 3.0\n"


@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_io_in_checkpoint_with_nonzero_tangent_still_raises_jvp_error(callback):
    """Both engines: the checkpoint does not lift G3 (a differentiated operand)."""

    def f(x):
        return callback(lambda v: v, F32, x) * 2.0

    with pytest.raises(ValueError, match=re.escape("IO callbacks do not support JVP.")):
        jax.grad(jax.checkpoint(f))(1.0)
        jax.effects_barrier()


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_H1_companion_io_in_checkpoint_under_jvp_runs_once(callback, wrap):
    """Forward mode has no partial evaluation, so JAX allows it too: one call."""
    calls = []

    def f(x):
        return x * callback(_recorder(calls), F32, jnp.float32(3.0))

    g = lambda x, t: jax.jvp(jax.checkpoint(f), (x,), (t,))
    if wrap is not None:
        g = wrap(g)
    primal, tangent = g(2.0, 1.0)
    jax.effects_barrier()
    assert (float(primal), float(tangent)) == (6.0, 3.0)
    assert calls == [3.0]


# ---------------------------------------------------------------------------------------------
# H2: debug callbacks inside checkpoint under AD


def _print_yz(ordered):
    def f(x):
        y = x + 1.0
        z = y * 2.0
        jax.debug.print("y: {}, z: {}", y, z, ordered=ordered)
        return jnp.exp(z)

    return f


@pytest.mark.parametrize("policy", ["default", "nothing_saveable", "names_but_z"])
@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("ordered", [False, True])
def test_H2_debug_print_in_checkpoint_under_grad_prints_twice(capsys, ordered, wrap, policy):
    if policy == "names_but_z":
        pol = jax.checkpoint_policies.save_any_names_but_these("z")
    else:
        pol = _policy(policy)
    g = jax.grad(jax.checkpoint(_print_yz(ordered), policy=pol))
    if wrap is not None:
        g = wrap(g)
    out = g(2.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), 2.0 * np.exp(6.0), rtol=1e-5)
    assert capsys.readouterr().out == "y: 3.0, z: 6.0\n" * 2


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("ordered", [False, True])
def test_H2_checkpoint_whose_outputs_ignore_the_input_prints_once(capsys, ordered, wrap):
    """H2 (callback fuzzer, seed 2340): when no output of the checkpointed function depends
    on the differentiated input (its output tangents are symbolically zero) there is no
    backward pass to rematerialise for: the print runs once. A linear function (no residual
    needed) still rematerialises and prints twice."""

    def const(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        return jnp.ones_like(x) * 3.0

    def linear(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        return x * 2.0

    for fun, times in [(const, 1), (linear, 2)]:
        g = jax.grad(lambda x: jnp.sum(jax.checkpoint(fun)(x)))
        out = (g if wrap is None else wrap(g))(jnp.float32(2.0))
        jax.effects_barrier()
        assert float(out) == (0.0 if fun is const else 2.0)
        assert capsys.readouterr().out == "x: 2.0\n" * times


@pytest.mark.parametrize("inner", ["custom_jvp", "custom_vjp", "jit"])
def test_H2_print_inside_a_call_in_checkpoint(capsys, inner):
    """H2 (callback fuzzer, seed 20081): a debug print inside a custom_jvp function inside
    checkpoint runs once under grad (JAX saves the call's outputs instead of replaying it);
    inside a custom_vjp function or a jit it is rematerialised, so it prints twice."""

    def show(v):
        jax.debug.print("v: {}", v)
        return v

    if inner == "custom_jvp":
        g = jax.custom_jvp(show)
        g.defjvp(lambda p, t: (g(*p), t[0] * 2.0))
    elif inner == "custom_vjp":
        g = jax.custom_vjp(show)
        g.defvjp(lambda v: (show(v), None), lambda _, ct: (ct * 2.0,))
    else:
        g = jax.jit(show)
    out = jax.grad(lambda v: jnp.sin(jax.checkpoint(lambda v: g(v) * 2.0)(v)))(jnp.float32(1.0))
    jax.effects_barrier()
    slope = 1.0 if inner == "jit" else 2.0  # the custom rules double the derivative
    np.testing.assert_allclose(float(out), 2.0 * slope * np.cos(2.0), rtol=1e-6)
    assert capsys.readouterr().out == "v: 1.0\n" * (1 if inner == "custom_jvp" else 2)


@pytest.mark.parametrize("ordered", [False, True])
def test_H2_rematerialised_print_happens_in_the_pullback(capsys, ordered):
    primal, pullback = jax.vjp(jax.checkpoint(_print_yz(ordered)), 2.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(primal), np.exp(6.0), rtol=1e-5)
    assert capsys.readouterr().out == "y: 3.0, z: 6.0\n"
    pullback(1.0)
    jax.effects_barrier()
    assert capsys.readouterr().out == "y: 3.0, z: 6.0\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_H2_saveable_policy_with_residual_inputs_prints_once(capsys, ordered):
    """The print's inputs (y, z) would be residuals, which the policy saves: no recompute."""
    g = jax.grad(
        jax.checkpoint(_print_yz(ordered), policy=jax.checkpoint_policies.everything_saveable)
    )
    out = g(2.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), 2.0 * np.exp(6.0), rtol=1e-5)
    assert capsys.readouterr().out == "y: 3.0, z: 6.0\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_H2_saveable_policy_with_available_inputs_prints_twice(capsys, ordered):
    """The print only reads the checkpoint's own input, already available to the backward
    pass, so it is duplicated into the recomputation even under everything_saveable."""

    def f(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        return jnp.sin(x)

    g = jax.grad(jax.checkpoint(f, policy=jax.checkpoint_policies.everything_saveable))
    out = g(2.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), np.cos(2.0), rtol=1e-6)
    assert capsys.readouterr().out == "x: 2.0\n" * 2


# ---------------------------------------------------------------------------------------------
# H3: pure_callback inside checkpoint under AD


@pytest.mark.parametrize("policy", ["default", "nothing_saveable", "everything_saveable"])
@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_H3_pure_callback_in_checkpoint_under_grad_allowed(wrap, policy):
    calls = []

    def f(x, y):
        return jnp.sin(x * _pure(_recorder(calls), F32, y))

    g = jax.grad(jax.checkpoint(f, policy=_policy(policy)))
    if wrap is not None:
        g = wrap(g)
    out = g(2.0, 3.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), 3.0 * np.cos(6.0), rtol=1e-5)
    # Run in the forward pass and possibly recomputed once in the backward pass.
    assert calls in ([3.0], [3.0, 3.0])


# ---------------------------------------------------------------------------------------------
# H4: checkpoint without AD is transparent


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("callback", FLAVOURS)
def test_H4_checkpoint_without_ad_runs_callback_once(callback, wrap):
    calls = []

    def f(x, y):
        return x * callback(_recorder(calls), F32, y)

    g = jax.checkpoint(f)
    if wrap is not None:
        g = wrap(g)
    assert float(g(2.0, 3.0)) == 6.0
    jax.effects_barrier()
    assert calls == [3.0]


@pytest.mark.parametrize("ordered", [False, True])
def test_H4_checkpoint_without_ad_prints_once(capsys, ordered):
    out = jax.checkpoint(_print_yz(ordered))(2.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), np.exp(6.0), rtol=1e-5)
    assert capsys.readouterr().out == "y: 3.0, z: 6.0\n"


def test_H4_checkpoint_under_vmap_without_ad():
    calls = []

    def f(x):
        return io_callback(_recorder(calls), F32, x) + 1.0

    out = jax.vmap(jax.checkpoint(f))(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [1.0, 2.0, 3.0])
    assert calls == [0.0, 1.0, 2.0]
