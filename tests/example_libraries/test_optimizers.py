"""jax.example_libraries.optimizers against JAX 0.10.2: every optimizer's trajectory (all
state arrays, over several steps, on a pytree with a scalar leaf) with constant and
scheduled step sizes; the schedules; l2_norm and clip_grads; the OptimizerState pytree
(through jit and fori_loop); pack/unpack_optimizer_state; JAX's errors."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite.example_libraries import optimizers

ref = pytest.importorskip("jax")
ref.config.update("jax_platforms", "cpu")
ref_opt = importlib.import_module("jax.example_libraries.optimizers")

RNG = np.random.default_rng(0)
PARAMS = {
    "w": RNG.normal(size=(3, 4)).astype(np.float32),
    "b": (RNG.normal(size=(4,)).astype(np.float32), np.float32(0.5)),
}
TARGET = jaxlite.tree_util.tree_map(lambda p: np.float32(0.3) - p * 0, PARAMS)


def grads_at(params, step):
    # the gradient of a quadratic, perturbed per step (so adaptive methods see variation)
    return jaxlite.tree_util.tree_map(
        lambda p, t: (np.asarray(p) - t) * np.float32(1 + 0.5 * np.sin(step)), params, TARGET
    )


OPTIMIZERS = {
    "sgd": lambda o: o.sgd(0.1),
    "sgd-exp-decay": lambda o: o.sgd(o.exponential_decay(0.2, 2, 0.5)),
    "momentum": lambda o: o.momentum(0.05, mass=0.9),
    "nesterov": lambda o: o.nesterov(o.inverse_time_decay(0.1, 3, 0.5, staircase=True), 0.8),
    "adagrad": lambda o: o.adagrad(0.3),
    "rmsprop": lambda o: o.rmsprop(0.01, gamma=0.8),
    "rmsprop_momentum": lambda o: o.rmsprop_momentum(o.polynomial_decay(0.05, 4, 0.01, 2.0)),
    "adam": lambda o: o.adam(0.1),
    "adam-piecewise": lambda o: o.adam(o.piecewise_constant([1, 3], [0.1, 0.05, 0.01]), b1=0.5),
    "adamax": lambda o: o.adamax(0.05),
    "sm3": lambda o: o.sm3(0.2, momentum=0.5),
}


def trajectory(lib, opt_lib, make, steps=5):
    init, update, get_params = make(opt_lib)
    update = lib.jit(update)
    state = init(PARAMS)
    out = []
    for i in range(steps):
        state = update(i, grads_at(get_params(state), i), state)
        out.append([np.asarray(a) for a in lib.tree_util.tree_leaves(state)])
    out.append([np.asarray(a) for a in lib.tree_util.tree_leaves(get_params(state))])
    return out


@pytest.mark.parametrize("name", list(OPTIMIZERS))
def test_optimizer_matches_jax(name):
    got = trajectory(jaxlite, optimizers, OPTIMIZERS[name])
    want = trajectory(ref, ref_opt, OPTIMIZERS[name])
    for g_step, w_step in zip(got, want):
        assert len(g_step) == len(w_step)
        for g, w in zip(g_step, w_step):
            assert g.dtype == w.dtype and g.shape == w.shape
            np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-7)
    # the parameters moved, and get_params kept the pytree (and the scalar leaf 0-d)
    assert got[-1][1].shape == () and not np.allclose(got[-1][0], PARAMS["b"][0])


SCHEDULES = {
    "constant": lambda o: o.constant(0.3),
    "exponential_decay": lambda o: o.exponential_decay(0.5, 3, 0.7),
    "inverse_time_decay": lambda o: o.inverse_time_decay(0.5, 3, 0.7),
    "inverse_time_decay-staircase": lambda o: o.inverse_time_decay(0.5, 3, 0.7, staircase=True),
    "polynomial_decay": lambda o: o.polynomial_decay(1.0, 7, 0.1, power=0.5),
    "piecewise_constant": lambda o: o.piecewise_constant([2, 5, 9], [1.0, 0.5, 0.2, 0.1]),
    "make_schedule-number": lambda o: o.make_schedule(0.25),
}


def test_schedules_match_jax():
    steps = np.arange(12, dtype=np.int32)
    for name, make in SCHEDULES.items():
        got = [np.asarray(make(optimizers)(i)) for i in range(12)]
        want = np.asarray(ref.vmap(make(ref_opt))(steps))
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6, err_msg=name)
    schedule = lambda i: 0.1 / (i + 1)  # noqa: E731
    assert optimizers.make_schedule(schedule) is schedule


@pytest.mark.jaxlite_only
def test_schedules_under_jit_match_eager():
    # docs/compat.md ("a * b + c under jit"): under jit, XLA contracts polynomial_decay's
    # ``1 - i / n`` into an FMA with the rounded reciprocal of n, giving -4.5e-8 at i >= n
    # and so nan for a fractional power; jaxlite computes 0 there, as eager JAX does.
    steps = np.arange(12, dtype=np.int32)
    for name, make in SCHEDULES.items():
        want = np.asarray(ref.vmap(make(ref_opt))(steps))
        traced = np.asarray(jaxlite.jit(jaxlite.vmap(make(optimizers)))(steps))
        np.testing.assert_allclose(traced, want, rtol=1e-6, err_msg=name)


def test_l2_norm_and_clip_grads():
    tree = {"a": np.array([3.0, 4.0], np.float32), "b": [np.float32(12.0)]}
    assert float(optimizers.l2_norm(tree)) == 13.0
    for max_norm in (1.0, 13.0, 20.0):
        got = jaxlite.tree_util.tree_leaves(optimizers.clip_grads(tree, max_norm))
        want = ref.tree_util.tree_leaves(ref_opt.clip_grads(tree, max_norm))
        for g, w in zip(got, want):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-6)
    np.testing.assert_allclose(float(optimizers.l2_norm(optimizers.clip_grads(tree, 1.0))), 1.0)


def test_state_is_a_pytree_through_jit_and_fori_loop():
    init, update, get_params = optimizers.adam(0.1)
    state = init(PARAMS)
    assert isinstance(state, optimizers.OptimizerState)
    assert len(jaxlite.tree_util.tree_leaves(state)) == 9  # 3 leaves x (x, m, v)

    def body(i, s):
        g = jaxlite.tree_util.tree_map(lambda p: 2 * p, get_params(s))
        return update(i, g, s)

    looped = jaxlite.lax.fori_loop(0, 4, body, state)
    stepped = state
    for i in range(4):
        stepped = jaxlite.jit(body)(i, stepped)
    for a, b in zip(jaxlite.tree_util.tree_leaves(looped), jaxlite.tree_util.tree_leaves(stepped)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)
    assert optimizers.Optimizer._fields == ("init_fn", "update_fn", "params_fn")
    assert isinstance(optimizers.sgd(0.1), optimizers.Optimizer)


def test_pack_unpack_round_trip():
    init, update, get_params = optimizers.momentum(0.1, 0.9)
    state = update(0, PARAMS, init(PARAMS))
    marked = optimizers.unpack_optimizer_state(state)
    assert isinstance(marked["w"], optimizers.JoinPoint)
    x, v = marked["w"].subtree
    np.testing.assert_array_equal(np.asarray(x), np.asarray(get_params(state)["w"]))
    assert list(marked["w"]) == [marked["w"].subtree]
    packed = optimizers.pack_optimizer_state(marked)
    assert packed.tree_def == state.tree_def and packed.subtree_defs == state.subtree_defs
    for a, b in zip(jaxlite.tree_util.tree_leaves(packed), jaxlite.tree_util.tree_leaves(state)):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    # JAX's unpacked state has the same shape: the params tree with JoinPoints at leaves
    rinit, rupdate, _ = ref_opt.momentum(0.1, 0.9)
    rmarked = ref_opt.unpack_optimizer_state(rupdate(0, PARAMS, rinit(PARAMS)))
    np.testing.assert_allclose(np.asarray(rmarked["w"].subtree[1]), np.asarray(v), rtol=1e-6)
    with pytest.raises(AssertionError):
        optimizers.pack_optimizer_state({"w": 1.0})


def _err(f):
    with pytest.raises(Exception) as info:
        f()
    return type(info.value), str(info.value)


def test_errors_match_jax():
    for lib in (optimizers, ref_opt):
        assert _err(lambda: lib.make_schedule(np.ones(2))) == (TypeError, "<class 'numpy.ndarray'>")
        assert _err(lambda: lib.piecewise_constant([[1]], [[1, 2]]))[1] == (
            "boundaries and values must be sequences"
        )
        assert _err(lambda: lib.piecewise_constant([1, 2], [1, 2]))[1] == (
            "boundaries length must be one shorter than values length"
        )
    init, update, _ = optimizers.sgd(0.1)
    kind, msg = _err(lambda: update(0, {"w": 1.0}, init({"v": 1.0})))
    rinit, rupdate, _ = ref_opt.sgd(0.1)
    rkind, rmsg = _err(lambda: rupdate(0, {"w": 1.0}, rinit({"v": 1.0})))
    assert kind is rkind is TypeError
    prefix = "optimizer update function was passed a gradient tree that did not match"
    assert msg.startswith(prefix) and rmsg.startswith(prefix)

    @optimizers.optimizer
    def bad(step_size):
        return (lambda x: (x, x), lambda i, g, s: s[0], lambda s: s[0])

    binit, bupdate, _ = bad(0.1)
    kind, msg = _err(lambda: bupdate(0, jnp.ones(2), binit(jnp.ones(2))))
    assert kind is TypeError and msg.startswith(
        "optimizer update function produced an output structure that did not match"
    )
