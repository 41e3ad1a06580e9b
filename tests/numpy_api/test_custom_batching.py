"""jax.custom_batching.custom_vmap / sequential_vmap against JAX: the rule's arguments
(axis_size, in_batched), results under vmap / nested vmap / jit / scan / cond, forward-mode
differentiation (the JVP of the rule under vmap, jacfwd), the ValueError of reverse mode, and
the errors of bad rules."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.custom_batching  # noqa: E402,F401
import jax.numpy  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.custom_batching  # noqa: E402,F401
import jaxlite.numpy  # noqa: E402

from ._oracle import assert_same, outcome  # noqa: E402

jax.config.update("jax_platforms", "cpu")
LIBS = {"jax": jax, "lite": jaxlite}


def _make(lib, log):
    """f(x, y) = sin(x) * y whose rule is cos(x) * y plus markers of in_batched, so the
    result shows which rule ran and what it was told."""
    jnp = lib.numpy

    @lib.custom_batching.custom_vmap
    def f(x, y):
        return jnp.sin(x) * y

    @f.def_vmap
    def rule(axis_size, in_batched, x, y):
        log.append((axis_size, list(in_batched), jnp.shape(x), jnp.shape(y)))
        xb, yb = in_batched
        return jnp.cos(x) * y + (10.0 if xb else 0.0) + (100.0 if yb else 0.0), xb or yb

    return f


A = np.arange(3.0, dtype=np.float32)
M = np.arange(6.0, dtype=np.float32).reshape(2, 3)

SCENARIOS = {
    "eager": lambda j, f: f(1.0, 2.0),
    "vmap_both": lambda j, f: j.vmap(f)(A, A + 1),
    "vmap_x": lambda j, f: j.vmap(f, in_axes=(0, None))(A, 2.0),
    "vmap_y": lambda j, f: j.vmap(f, in_axes=(None, 0))(2.0, A),
    "vmap_axis1_out1": lambda j, f: j.vmap(f, in_axes=(1, None), out_axes=0)(M, 2.0),
    "vmap_none": lambda j, f: j.vmap(f, in_axes=(None, None), axis_size=2)(1.0, 2.0),
    "nested": lambda j, f: j.vmap(j.vmap(f))(M, M),
    "nested_inner_only": lambda j, f: j.vmap(j.vmap(f, in_axes=(0, None)), in_axes=(0, 0))(
        M, A[:2]
    ),
    "jit": lambda j, f: j.jit(f)(1.0, 2.0),
    "jit_vmap": lambda j, f: j.jit(j.vmap(f))(A, A),
    "vmap_jit": lambda j, f: j.vmap(j.jit(f))(A, A),
    "vmap_scan": lambda j, f: j.vmap(
        lambda x: j.lax.scan(lambda c, a: (c + f(a, c), None), x, A)[0]
    )(A[:2]),
    "vmap_cond": lambda j, f: j.vmap(lambda x: j.lax.cond(x > 0, lambda: f(x, 1.0), lambda: x))(
        A - 1
    ),
    "jvp": lambda j, f: j.jvp(f, (1.0, 2.0), (1.0, 1.0)),
    "jit_jvp": lambda j, f: j.jit(lambda x, y: j.jvp(f, (x, y), (1.0, 1.0)))(1.0, 2.0),
    "jvp_jit": lambda j, f: j.jvp(j.jit(f), (1.0, 2.0), (1.0, 1.0)),
    "vmap_jvp_primal_only": lambda j, f: j.vmap(lambda x: j.jvp(f, (x, 2.0), (1.0, 0.0)))(A),
    "vmap_jvp_tangent_only": lambda j, f: j.vmap(lambda t: j.jvp(f, (1.0, 2.0), (t, 0.0)))(A),
    "vmap_jvp_mutual": lambda j, f: j.vmap(lambda x, t: j.jvp(f, (x, 2.0), (t, 0.0)))(A, A),
    "vmap_jvp_all": lambda j, f: j.vmap(lambda x, y, t: j.jvp(f, (x, y), (t, t)))(A, A, A),
    "vmap_jvp_y_only": lambda j, f: j.vmap(lambda y, t: j.jvp(f, (1.0, y), (t, 0.0)))(A, A),
    "jacfwd": lambda j, f: j.jacfwd(f)(1.0, 2.0),
    "jacfwd_vec": lambda j, f: j.jacfwd(f)(A, 2.0),
    "vmap_jacfwd": lambda j, f: j.vmap(j.jacfwd(f))(A, A),
    "grad_of_vmap": lambda j, f: j.grad(lambda x: j.vmap(f)(x, A).sum())(A),
    "jvp_of_vmap": lambda j, f: j.jvp(lambda x: j.vmap(f)(x, A), (A,), (A + 1,)),
    # reverse mode through the call itself: ValueError in both
    "grad": lambda j, f: j.grad(f)(1.0, 2.0),
    "vmap_grad": lambda j, f: j.vmap(j.grad(f))(A, A),
    "grad_jit": lambda j, f: j.grad(j.jit(f))(1.0, 2.0),
    "vjp": lambda j, f: j.vjp(f, 1.0, 2.0),
    "linearize": lambda j, f: j.linearize(f, 1.0, 2.0),
    "kwargs": lambda j, f: j.vmap(lambda x: f(x, y=2.0))(A),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_custom_vmap_matches_jax(name):
    logs = {}
    res = {}
    for key, lib in LIBS.items():
        logs[key] = []
        f = _make(lib, logs[key])
        res[key] = outcome(lambda: SCENARIOS[name](lib, f))
    assert_same(res["lite"], res["jax"], rtol=1e-5, atol=1e-5, check_weak=False)
    assert logs["lite"] == logs["jax"]


def test_jvp_mixed_batching_broadcasts_instead_of_jax_outer_product():
    # x batched with its tangent, y batched with a zero tangent: JAX returns a (3, 3)
    # outer product (docs/compat.md); jaxlite broadcasts y's tangent, so one batch axis
    # and the values of the rule's JVP at each (x_i, y_i).
    log = []
    f = _make(jaxlite, log)
    p, t = jaxlite.vmap(lambda x, y, t: jaxlite.jvp(f, (x, y), (t, 0.0)))(A, A + 1, A)
    np.testing.assert_allclose(np.asarray(p), np.cos(A) * (A + 1) + 110, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(t), -np.sin(A) * (A + 1) * A, rtol=1e-5, atol=1e-6)
    assert log == [(3, [True, True], (3,), (3,))]


def _rule_result(lib, fun, rule, x):
    c = lib.custom_batching.custom_vmap(fun)
    c.def_vmap(rule)
    return outcome(lambda: lib.vmap(c)(x))


@pytest.mark.parametrize(
    "name",
    ["pair_prefix", "list_vs_tuple", "none_spec", "truthy_spec", "not_a_pair_ok_shape"],
)
def test_rule_output_checks_match_jax(name):
    cases = {
        "pair_prefix": (lambda x: (x, x), lambda n, ib, x: ((x, x), True)),
        "list_vs_tuple": (lambda x: (x, x), lambda n, ib, x: ([x, x], [True, True])),
        "none_spec": (lambda x: x, lambda n, ib, x: (x, None)),
        "truthy_spec": (lambda x: x, lambda n, ib, x: (x * 2, 1)),
        "not_a_pair_ok_shape": (lambda x: (x, x), lambda n, ib, x: ((x, x + 1), (True, True))),
    }
    fun, rule = cases[name]
    got = _rule_result(jaxlite, fun, rule, np.ones(3, np.float32))
    want = _rule_result(jax, fun, rule, np.ones(3, np.float32))
    assert_same(got, want)


@pytest.mark.parametrize(
    "rule, msg",
    [
        (lambda n, ib, x: x * 2, "must return a pair"),
        (lambda n, ib, x: (x[0], True), "marked batched so it must have shape (3,)"),
        (lambda n, ib, x: (x, False), "marked unbatched so it must have shape ()"),
        (lambda n, ib, x: (x.astype("int32"), True), "dtype float32"),
    ],
)
def test_bad_rule_outputs_raise_clear_errors(rule, msg):
    # JAX: an unpacking ValueError, an IndexError, or a silently broadcast / retyped result.
    c = jaxlite.custom_batching.custom_vmap(lambda x: x * 2)
    c.def_vmap(rule)
    with pytest.raises(ValueError, match=None) as e:
        jaxlite.vmap(c)(np.ones(3, np.float32))
    assert msg in str(e.value)


def test_missing_rule_and_closure_errors():
    for lib in LIBS.values():
        g = lib.custom_batching.custom_vmap(lambda x: x)
        with pytest.raises(AttributeError, match="No batching rule defined for custom_vmap"):
            g(1.0)

    # closing over a batched value: JAX fails with an internal AssertionError.
    def outer(zz, x):
        c = jaxlite.custom_batching.custom_vmap(lambda x: x + zz)
        c.def_vmap(lambda n, ib, x: (x - zz, True))
        return c(x)

    with pytest.raises(ValueError, match="closes over a value that is batched"):
        jaxlite.vmap(outer)(np.ones(2, np.float32), np.ones(2, np.float32))
    # closing over an unbatched value works, in both.
    want = jax.vmap(outer_jax := _outer(jax), in_axes=(None, 0))(1.0, np.ones(2, np.float32))
    got = jaxlite.vmap(_outer(jaxlite), in_axes=(None, 0))(1.0, np.ones(2, np.float32))
    assert outer_jax is not None
    assert_same(got, want)


def _outer(lib):
    def outer(zz, x):
        c = lib.custom_batching.custom_vmap(lambda x: x + zz)
        c.def_vmap(lambda n, ib, x: (x - zz, True))
        return c(x)

    return outer


def test_jaxpr_has_the_call_and_vmap_inlines_the_rule():
    f = _make(jaxlite, [])
    text = str(jaxlite.make_jaxpr(f)(1.0, 2.0))
    assert "custom_vmap_call" in text and "sin" in text
    text = str(jaxlite.make_jaxpr(jaxlite.vmap(f))(A, A))
    assert "custom_vmap_call" not in text and "cos" in text and "sin" not in text


SEQ = {
    "eager": lambda j, s: s(M[:, :2], A[:2]),
    "vmap": lambda j, s: j.vmap(s)(np.stack([M[:, :2]] * 3), np.stack([A[:2]] * 3) + A[:, None]),
    "vmap_unbatched_arg": lambda j, s: j.vmap(s, in_axes=(0, None))(
        np.arange(12.0, dtype=np.float32).reshape(3, 2, 2), A[:2]
    ),
    "nested": lambda j, s: j.vmap(j.vmap(s))(
        np.ones((4, 3, 2, 2), np.float32), np.ones((4, 3, 2), np.float32)
    ),
    "jit_vmap": lambda j, s: j.jit(j.vmap(s))(np.ones((3, 2, 2), np.float32), M.T[:, :2]),
    "grad": lambda j, s: j.grad(lambda a: s(a, A[:2]).sum())(M[:, :2]),
    "jvp_vmap": lambda j, s: j.jvp(
        lambda a: j.vmap(s, in_axes=(0, None))(a, A[:2]),
        (np.ones((3, 2, 2), np.float32),),
        (np.ones((3, 2, 2), np.float32),),
    ),
}


def _bind(f):
    return lambda x, y: f(x, y)


@pytest.mark.parametrize("name", sorted(SEQ))
def test_sequential_vmap_matches_jax(name):
    res, calls = {}, {}
    for key, lib in LIBS.items():
        calls[key] = []

        def f(x, y, _log=calls[key], _jnp=lib.numpy):  # defaults: not passed to s
            _log.append((_jnp.shape(x), _jnp.shape(y)))
            return x @ y

        f = _bind(f)

        s = lib.custom_batching.sequential_vmap(f)
        res[key] = outcome(lambda: SEQ[name](lib, s))
    assert_same(res["lite"], res["jax"], rtol=1e-5, atol=1e-5, check_weak=False)
    # f never sees a batch axis (JAX may trace it more often than jaxlite).
    assert set(calls["lite"]) == set(calls["jax"])


def test_defaults_are_arguments_of_the_rule():
    for lib in LIBS.values():
        seen = []
        c = lib.custom_batching.custom_vmap(lambda x, y=2.0: x * y)

        @c.def_vmap
        def rule(n, ib, x, y):
            seen.append(list(ib))
            return x * y, ib[0]

        np.testing.assert_allclose(np.asarray(lib.vmap(c)(A)), A * 2)
        assert seen == [[True, False]]


def test_sequential_vmap_pytrees_and_names():
    for lib in LIBS.values():
        s2 = lib.custom_batching.sequential_vmap(lambda x, n: (x * n, {"b": x * 2}))
        out = lib.vmap(s2, in_axes=(0, None))(A, 2)
        np.testing.assert_allclose(np.asarray(out[0]), A * 2)
        np.testing.assert_allclose(np.asarray(out[1]["b"]), A * 2)

    def named(x):
        return x

    assert jaxlite.custom_batching.sequential_vmap(named).__name__ == "named"
    assert jaxlite.custom_batching.custom_vmap(named).__wrapped__ is named
    rule = lambda n, ib, x: (x, ib[0])  # noqa: E731
    assert jaxlite.custom_batching.custom_vmap(named).def_vmap(rule) is rule
