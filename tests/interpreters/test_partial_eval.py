"""Partial evaluation: what runs in the forward pass and what is staged for later.

Public-API tests (validated against JAX in oracle mode) count how often host callbacks run
under ``linearize``/``vjp``/``checkpoint``; the internals tests (``jaxlite_only``) check the
``partial_eval_jaxpr_nounits`` contract the control-flow rules build on.
"""

import numpy as np
import pytest
from helpers import close

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.ad_checkpoint import checkpoint_name

RNG = np.random.RandomState(1)


def _counted_sin(counts):
    """A sin whose forward runs a counted pure_callback and whose JVP needs only x."""

    def host(x):
        counts["run"] += 1
        return np.sin(x).astype(x.dtype)

    @jax.custom_jvp
    def csin(x):
        return jax.pure_callback(host, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    @csin.defjvp
    def _(primals, tangents):
        (x,), (t,) = primals, tangents
        return csin(x), jnp.cos(x) * t

    return csin


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_linearize_runs_forward_once_and_f_jvp_never_reruns_it(wrap):
    counts = {"run": 0}
    csin = _counted_sin(counts)

    def f(x):
        return jnp.exp(csin(x)) * x

    g = f if wrap is None else wrap(f)
    x = np.array([0.2, -0.5, 1.1], np.float32)
    y, f_jvp = jax.linearize(g, jnp.asarray(x))
    assert counts["run"] == 1
    x64 = x.astype(np.float64)
    close(y, np.exp(np.sin(x64)) * x64)
    for t in [np.ones(3, np.float32), RNG.randn(3).astype(np.float32)]:
        expected = (np.exp(np.sin(x64)) * np.cos(x64) * x64 + np.exp(np.sin(x64))) * t
        close(f_jvp(jnp.asarray(t)), expected, rtol=1e-4)
    assert counts["run"] == 1


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_vjp_pullback_does_not_rerun_forward(wrap):
    counts = {"run": 0}
    csin = _counted_sin(counts)

    def f(x):
        return jnp.sum(csin(x) ** 2)

    g = f if wrap is None else wrap(f)
    x = np.array([0.3, 0.9], np.float32)
    _, pullback = jax.vjp(g, jnp.asarray(x))
    assert counts["run"] == 1
    for ct in [1.0, -2.0]:
        (gx,) = pullback(jnp.float32(ct))
        close(gx, ct * 2 * np.sin(x) * np.cos(x), rtol=1e-5)
    assert counts["run"] == 1


def test_known_values_are_not_recomputed_by_grad_of_jit_with_two_uses():
    counts = {"run": 0}
    csin = _counted_sin(counts)

    @jax.jit
    def f(x, w):
        s = csin(x)
        return jnp.sum(s * w) + jnp.sum(s * s)

    x = np.array([0.1, 0.4], np.float32)
    w = np.array([2.0, -1.0], np.float32)
    gw = jax.grad(f, argnums=1)(jnp.asarray(x), jnp.asarray(w))
    close(gw, np.sin(x))
    assert counts["run"] == 1


def _names_setup():
    counts = {"run": 0}
    csin = _counted_sin(counts)

    def f(x):
        a = checkpoint_name(csin(x), "a")
        b = checkpoint_name(jnp.sin(a) * 2.0, "b")
        return jnp.sum(jnp.sin(b))

    def expected(x):
        x = x.astype(np.float64)
        a = np.sin(x)
        b = np.sin(a) * 2.0
        return np.cos(b) * 2.0 * np.cos(a) * np.cos(x)

    return counts, f, expected


@pytest.mark.parametrize(
    "names,runs",
    [((), 2), (("a",), 1), (("b",), 2), (("a", "b"), 1)],
)
def test_save_only_these_names_controls_recomputation(names, runs):
    counts, f, expected = _names_setup()
    policy = jax.checkpoint_policies.save_only_these_names(*names)
    x = np.array([0.2, 0.6, -0.3], np.float32)
    g = jax.grad(jax.checkpoint(f, policy=policy))(jnp.asarray(x))
    close(g, expected(x), rtol=1e-4)
    assert counts["run"] == runs


@pytest.mark.parametrize("names,runs", [(("a",), 2), (("b",), 1), ((), 1)])
def test_save_any_names_but_these(names, runs):
    counts, f, expected = _names_setup()
    policy = jax.checkpoint_policies.save_any_names_but_these(*names)
    x = np.array([0.2, 0.6, -0.3], np.float32)
    g = jax.grad(jax.checkpoint(f, policy=policy))(jnp.asarray(x))
    close(g, expected(x), rtol=1e-4)
    assert counts["run"] == runs


def test_checkpoint_name_is_identity_and_differentiable():
    x = jnp.asarray(np.array([0.5, 1.5], np.float32))
    close(checkpoint_name(x, "n"), x)
    close(jax.grad(lambda v: jnp.sum(checkpoint_name(v * v, "n")))(x), 2 * np.asarray(x))
    close(jax.vmap(lambda v: checkpoint_name(v, "n") + 1.0)(x), np.asarray(x) + 1.0)


def test_checkpoint_under_vmap_of_grad_and_jit():
    f = jax.checkpoint(lambda v: jnp.sin(v) * jnp.cos(v))
    x = np.array([0.1, 0.7, 1.3], np.float32)
    close(jax.vmap(jax.grad(f))(jnp.asarray(x)), np.cos(2 * x.astype(np.float64)), rtol=1e-5)
    close(
        jax.jit(jax.vmap(jax.grad(f)))(jnp.asarray(x)), np.cos(2 * x.astype(np.float64)), rtol=1e-5
    )


def test_checkpoint_with_static_argnums_and_pytree():
    def f(p, n):
        return jnp.sum(p["w"] ** n) + p["b"]

    cf = jax.checkpoint(f, static_argnums=(1,))
    p = {"w": jnp.asarray(np.array([1.0, 2.0], np.float32)), "b": jnp.float32(0.5)}
    g = jax.grad(cf)(p, 3)
    close(g["w"], 3 * np.array([1.0, 4.0]))
    close(g["b"], 1.0)


# ---------------------------------------------------------------- internals (jaxlite only)


def _eval(closed, *args):
    from jaxlite._src.interpreters.eval import eval_jaxpr

    return eval_jaxpr(closed.jaxpr, closed.consts, *args)


def _prims(closed):
    return [e.primitive.name for e in closed.jaxpr.eqns]


@pytest.mark.jaxlite_only
def test_partial_eval_jaxpr_nounits_splits_and_recombines():
    from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits

    closed = jax.make_jaxpr(lambda x, y: (jnp.sin(x) * y + jnp.cos(x), jnp.exp(x)))(1.0, 1.0)
    known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(closed, [False, True], False)
    assert out_unk == [True, False]
    assert len(known.in_avals) == 1
    assert len(known.out_avals) == 1 + num_res
    assert len(unknown.in_avals) == num_res + 1 and len(unknown.out_avals) == 1
    # The known side never sees y; the unknown side recomputes nothing of x alone.
    assert not {"sin", "cos", "exp"} & set(_prims(unknown))
    x, y = 0.7, -1.3
    k = _eval(known, x)
    close(k[0], np.exp(x))
    (u,) = _eval(unknown, *k[1:], y)
    close(u, np.sin(x) * y + np.cos(x))


@pytest.mark.jaxlite_only
def test_partial_eval_jaxpr_nounits_instantiate_forces_known_outputs_unknown():
    from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits

    closed = jax.make_jaxpr(lambda x, y: (jnp.sin(x), 2.0 * y))(1.0, 1.0)
    known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(
        closed, [False, True], [True, False]
    )
    assert out_unk == [True, True]
    assert len(known.out_avals) == num_res
    res = _eval(known, 0.4)
    a, b = _eval(unknown, *res, 3.0)
    close(a, np.sin(0.4))
    close(b, 6.0)


@pytest.mark.jaxlite_only
def test_partial_eval_jaxpr_nounits_all_known_and_all_unknown():
    from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits

    closed = jax.make_jaxpr(lambda x, y: x * y + 1.0)(1.0, 1.0)
    known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(closed, [False, False], False)
    assert out_unk == [False] and num_res == 0 and not unknown.jaxpr.eqns
    close(_eval(known, 2.0, 3.0)[0], 7.0)
    known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(closed, [True, True], False)
    assert out_unk == [True] and not known.jaxpr.eqns
    close(_eval(unknown, *_eval(known), 2.0, 3.0)[0], 7.0)


@pytest.mark.jaxlite_only
def test_partial_eval_keeps_effects_with_known_inputs_in_known_jaxpr():
    from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits

    def f(x, y):
        jax.debug.callback(lambda v: None, x)
        return x * y

    closed = jax.make_jaxpr(f)(1.0, 1.0)
    known, unknown, out_unk, _ = partial_eval_jaxpr_nounits(closed, [False, True], False)
    assert known.effects and not unknown.effects
    assert out_unk == [True]


@pytest.mark.jaxlite_only
def test_partial_eval_of_nested_jit_splits_the_call():
    from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits

    inner = jax.jit(lambda x, y: (jnp.sin(x) * y, jnp.cos(x)))
    closed = jax.make_jaxpr(lambda x, y: inner(x, y))(1.0, 1.0)
    known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(closed, [False, True], False)
    assert out_unk == [True, False]
    res = _eval(known, 0.3)
    close(res[0], np.cos(0.3))
    (u,) = _eval(unknown, *res[1:], 2.0)
    close(u, np.sin(0.3) * 2.0)


@pytest.mark.jaxlite_only
def test_remat_split_respects_policy():
    from jaxlite._src.ad_checkpoint import checkpoint_policies, remat_split

    closed = jax.make_jaxpr(lambda x: (jnp.sin(jnp.dot(x, x)), jnp.cos(jnp.dot(x, x) + 1.0)))(
        jnp.ones(3)
    )
    j = closed.jaxpr
    # Treat both outputs as residuals.
    saved, recompute = remat_split(j, 0, checkpoint_policies.nothing_saveable)
    assert all(v in j.invars for v in saved)
    assert "dot_general" in [e.primitive.name for e in recompute]
    saved, recompute = remat_split(j, 0, checkpoint_policies.everything_saveable)
    assert not recompute and len(saved) == 2
    saved, recompute = remat_split(j, 0, checkpoint_policies.dots_saveable)
    assert "dot_general" not in [e.primitive.name for e in recompute]
    assert {e.primitive.name for e in recompute} >= {"sin", "cos"}


# ---------------------------------------------------------------- compositions


def _scaled_rules():
    """custom_vjp / custom_jvp versions of exp whose rules are deliberately 3x the true
    derivative, so the tests can see the rule (not the body) was differentiated."""

    @jax.custom_vjp
    def cv(x):
        return jnp.exp(x)

    cv.defvjp(lambda x: (jnp.exp(x), jnp.exp(x)), lambda e, g: (3.0 * e * g,))

    @jax.custom_jvp
    def cj(x):
        return jnp.exp(x)

    cj.defjvp(lambda p, t: (cj(p[0]), 3.0 * jnp.exp(p[0]) * t[0]))
    return cv, cj


@pytest.mark.parametrize("which", ["custom_vjp", "custom_jvp"])
@pytest.mark.parametrize(
    "compose",
    ["grad_vmap", "vmap_grad", "grad_jit_vmap", "jit_vmap_grad", "jacrev", "grad_scan"],
)
def test_custom_rules_survive_composition(which, compose):
    cv, cj = _scaled_rules()
    f = cv if which == "custom_vjp" else cj
    x = np.array([0.1, -0.4, 0.8], np.float32)
    expected = 3.0 * np.exp(x.astype(np.float64))
    xa = jnp.asarray(x)
    if compose == "grad_vmap":
        got = jax.grad(lambda v: jnp.sum(jax.vmap(f)(v)))(xa)
    elif compose == "vmap_grad":
        got = jax.vmap(jax.grad(f))(xa)
    elif compose == "grad_jit_vmap":
        got = jax.grad(jax.jit(lambda v: jnp.sum(jax.vmap(f)(v))))(xa)
    elif compose == "jit_vmap_grad":
        got = jax.jit(jax.vmap(jax.grad(f)))(xa)
    elif compose == "jacrev":
        got = jnp.diagonal(jax.jacrev(f)(xa))
    else:
        # One scan step applying f: d/dx sum(f(x)) through the scan.
        got = jax.grad(
            lambda v: jnp.sum(jax.lax.scan(lambda c, _: (f(c), None), v, None, length=1)[0])
        )(xa)
    close(got, expected, rtol=1e-5)


def test_jacrev_allow_int_gives_zero_block_in_input_dtype():
    jx, jn = jax.jacrev(lambda x, n: x * n, argnums=(0, 1), allow_int=True)(jnp.ones(2), 3)
    close(jx, 3.0 * np.eye(2))
    assert jn.shape == (2,) and jn.dtype == np.int32
    close(jn, np.zeros(2))


def test_grad_of_scan_with_checkpointed_body_matches_finite_differences():
    def f(x):
        body = jax.checkpoint(lambda c, _: (jnp.sin(c) * 1.1 + c, jnp.sum(c)))
        c, ys = jax.lax.scan(body, x, None, length=4)
        return jnp.sum(c) + jnp.sum(ys)

    def f_np(x):
        c, tot = x.copy(), 0.0
        for _ in range(4):
            tot += c.sum()
            c = np.sin(c) * 1.1 + c
        return c.sum() + tot

    x = np.array([0.3, -0.7, 1.2], np.float32)
    eps = 1e-4
    fd = np.array(
        [
            (f_np(x.astype(np.float64) + eps * e) - f_np(x.astype(np.float64) - eps * e))
            / (2 * eps)
            for e in np.eye(3)
        ]
    )
    close(jax.grad(f)(jnp.asarray(x)), fd, rtol=1e-3)
    close(jax.jit(jax.grad(f))(jnp.asarray(x)), fd, rtol=1e-3)


def test_pullback_and_linearized_function_are_pytrees_usable_with_jit():
    x = np.array([0.3, 0.9], np.float32)
    expected = np.cos(x)
    _, pullback = jax.jit(lambda v: jax.vjp(jnp.sin, v))(jnp.asarray(x))
    close(pullback(jnp.ones(2))[0], expected)
    close(jax.jit(lambda pb, c: pb(c))(pullback, jnp.ones(2))[0], expected)
    assert len(jax.tree_util.tree_leaves(pullback)) >= 1
    _, f_jvp = jax.jit(lambda v: jax.linearize(jnp.sin, v))(jnp.asarray(x))
    close(f_jvp(jnp.ones(2)), expected)
    close(jax.jit(lambda f, t: f(t))(f_jvp, jnp.ones(2)), expected)
