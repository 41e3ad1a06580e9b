"""Session 15 differential hunt (b): compositions of transformations (vmap / grad / jvp /
hessian of scan, while_loop, cond, custom rules, jit) checked against JAX 0.10.2 with a
random control-flow program generator. Each case asserts the known-correct answer (so it
means something without JAX) and, where JAX is importable, compares with it through
tests/hunt/oracle.py: raised exception class, or structure, shapes, dtypes, weak types,
values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import LITE, same

_A = np.float32(0.625)
_XS2 = np.array([0.5, -1.5], np.float32)


def _weak(x):
    return bool(x.aval.weak_type)


# ------------------------------------------------------------ eager add_any of weak + strong
# Where two cotangents meet outside compiled code, JAX adds them with lax.add: the sum is
# weakly typed only when both are. jaxlite gave the sum the first one's type (JAX's rule for
# a staged add_any), so grad w.r.t. a float32 input came back weak when the first cotangent
# was the weak carry cotangent of a scan whose initial value was a Python float.


def _swap_scan(m):
    def f(a, b):
        xs = m.jnp.stack([a * 0.3, a * 0.6])
        return m.lax.scan(lambda c, x: ((c[1], x), None), (a, b), xs)[0][0]

    return f


def test_eager_grad_sums_weak_and_strong_cotangents_as_strong():
    g = same(lambda m: m.jx.grad(_swap_scan(m))(_A, -0.625))
    assert g.dtype == jnp.float32 and not _weak(g)
    np.testing.assert_allclose(float(g), 0.3, rtol=1e-6)
    # Staged, add_any keeps its first operand's type (weak), in JAX too.
    gj = same(lambda m: m.jx.jit(m.jx.grad(_swap_scan(m)))(_A, -0.625))
    assert _weak(gj)
    ct = same(lambda m: m.jx.vjp(_swap_scan(m), _A, -0.625)[1](1.0))
    assert not _weak(ct[0]) and _weak(ct[1])


@pytest.mark.jaxlite_only  # binds jaxlite's internal add_any primitive
def test_eager_add_any_of_two_weak_values_stays_weak():
    from jaxlite._src.ops.structural import add_any_p

    w = jnp.asarray(1.0)
    s = jnp.asarray(np.float32(2.0))
    assert _weak(add_any_p.bind(w, w))
    assert not _weak(add_any_p.bind(w, s)) and not _weak(add_any_p.bind(s, w))
    assert float(add_any_p.bind(w, s)) == 3.0


# -------------------------------------------- while_loop batched predicate: the carry types
# JAX keeps a while_loop with a batched predicate as a while whose carry has the body
# output's type (the per-element select is a lowering detail). jaxlite selected between the
# old and the new carry, and the select of a strong old value and a weak new one is strong:
# vmap of a loop whose body swaps a weak carry into a strong one lost the weak type.


def _swap_while(m, batched_pred):
    def f(a, b):
        def cond(c):
            p = c[0] < 3
            if batched_pred:
                p = p & (m.jnp.sum(c[2] / (m.jnp.abs(c[1]) + 1.0)) < 50.0)
            return p

        return m.lax.while_loop(cond, lambda c: (c[0] + 1, m.jnp.sin(c[2]), c[1]), (0, a, b))[1:]

    return f


def test_vmap_of_while_keeps_the_body_output_weak_type():
    batched_pred = True
    xs = np.array([0.375, 0.0625], np.float32)
    out = same(lambda m: m.jx.vmap(lambda a: _swap_while(m, batched_pred)(a, 1.875))(xs))
    assert _weak(out[0]) and not _weak(out[1])
    np.testing.assert_allclose(np.asarray(out[0]), [np.sin(np.sin(1.875))] * 2, rtol=1e-6)
    tan = same(
        lambda m: m.jx.vmap(
            lambda a: m.jx.jvp(lambda a: _swap_while(m, batched_pred)(a, 1.875), (a,), (a,))
        )(xs)
    )
    assert _weak(tan[0][0]) and _weak(tan[1][0]) and not _weak(tan[1][1])


def test_vmap_of_while_with_a_batched_predicate_selects_per_element():
    # The loop stops per element (the second one after one step); the first carry takes
    # the weak `c[1] * 0.5` in place of the strong input.
    def build(m):
        def f(x):
            body = lambda c: (c[1] * 0.5, c[0] + c[1])  # noqa: E731
            return m.lax.while_loop(lambda c: c[1] < 2.0, body, (x, 1.0))

        return m.jx.vmap(f)(np.array([0.25, 1.5], np.float32))

    a, b = same(build)
    np.testing.assert_array_equal(np.asarray(a), [0.875, 0.5])
    np.testing.assert_array_equal(np.asarray(b), [2.375, 2.5])
    assert _weak(a) and not _weak(b)


# ------------------------------------------ cond / switch: a value captured by two branches
# JAX passes a value that several branches close over to the cond once. jaxlite passed it
# once per branch, so its cotangent was the sum of the branches' cotangents: the untaken
# branch's zero plus the taken one's -0.0 is +0.0 (JAX: -0.0).


def test_cotangent_of_a_value_captured_by_both_branches_keeps_signed_zeros():
    a = np.array([-1.625, 0.875], np.float32)
    c = np.array([0.625, -1.125], np.float32)
    ct = np.array([1.0, 0.0], np.float32)

    def build(m):
        f = lambda a, c: m.lax.cond(True, lambda: a - c, lambda: c)  # noqa: E731
        return m.jx.vjp(f, a, c)[1](ct)

    ga, gc = same(build)
    np.testing.assert_array_equal(np.asarray(ga), [1.0, 0.0])
    np.testing.assert_array_equal(np.asarray(gc), [-1.0, -0.0])
    assert np.signbit(np.asarray(gc)).tolist() == [True, True]


def test_switch_branches_share_a_captured_value():
    a = np.array([-1.625, 0.875], np.float32)

    def build(m):
        def f(x, i):
            branches = [lambda: x * 2.0, lambda: -x, lambda: x * 0.0 + a]
            return m.lax.switch(i, branches)

        jac = m.jx.jacrev(f)(a, 1)
        return jac, m.jx.grad(lambda x: f(x, 2).sum())(a)

    jac, g = same(build)
    np.testing.assert_array_equal(np.asarray(jac), -np.eye(2, dtype=np.float32))
    assert np.signbit(np.asarray(jac)).tolist() == [[True, True], [True, True]]
    np.testing.assert_array_equal(np.asarray(g), [0.0, 0.0])
    # the shared operand list: the closed-over x appears once
    jaxpr = jaxlite.make_jaxpr(lambda x: jaxlite.lax.switch(1, [lambda: x * 2.0, lambda: -x]))(a)
    (eqn,) = [e for e in jaxpr.jaxpr.eqns if e.primitive.name == "cond"]
    assert len(eqn.invars) == 2


# ------------------------------------------------------- jit: static_argnums with argnames
# JAX infers static_argnames from static_argnums (and the reverse) only when one of them is
# not given: with both given, each is taken as it is, so an argument the other list names
# is traced (a string there is a TypeError). jaxlite always filled in both, and a negative
# static index that does not reach the call's positional arguments (JAX: ValueError) was
# silently ignored.

_X3 = np.array([0.5, -1.5, 2.0], np.float32)


def _g(x, n, s="a"):
    return x * n if s == "a" else x - n


_JIT_STATICS = {
    "argnums_and_empty_argnames": (dict(static_argnums=2, static_argnames=()), (2,), {"s": "b"}),
    "empty_argnums_and_argnames": (dict(static_argnums=(), static_argnames="s"), (2, "b"), {}),
    "argnums_and_other_argname": (dict(static_argnums=1, static_argnames="s"), (2, "b"), {}),
    "negative_past_the_positionals": (dict(static_argnums=-2), (), {"n": 2}),
    "negative_past_the_positionals_3": (dict(static_argnums=-3), (2,), {}),
}


@pytest.mark.parametrize("name", list(_JIT_STATICS))
def test_jit_static_arguments_are_resolved_as_in_jax(name):
    opts, args, kwargs = _JIT_STATICS[name]
    err = same(lambda m: m.jx.jit(_g, **opts)(_X3, *args, **kwargs))
    if name.startswith("negative"):
        assert isinstance(err, ValueError)
        assert "must have value greater than or equal to -len(args)" in str(err)
    else:
        assert isinstance(err, TypeError)
        assert "Error interpreting argument to" in str(err)


def test_jit_static_arguments_still_inferred_from_one_list():
    for opts in (dict(static_argnames="s"), dict(static_argnums=2)):
        f = jaxlite.jit(_g, **opts)
        np.testing.assert_array_equal(np.asarray(f(_X3, 2, "b")), _X3 - 2)
        np.testing.assert_array_equal(np.asarray(f(_X3, 2, s="b")), _X3 - 2)
    f = jaxlite.jit(_g, static_argnums=1, static_argnames=("n", "s"))
    np.testing.assert_array_equal(np.asarray(f(_X3, 3, s="b")), _X3 - 3)
    # a negative index within the call's positional arguments counts from their end
    f = jaxlite.jit(_g, static_argnums=-1)
    np.testing.assert_array_equal(np.asarray(f(_X3, 2, "b")), _X3 - 2)


def test_donate_argnames_with_both_lists_given_is_not_inferred():
    # donate_argnames="x" with static_argnums=0, static_argnames=(): no name is static, so
    # the lists do not intersect (jaxlite inferred "x" static and raised ValueError).
    err = same(
        lambda m: m.jx.jit(_g, donate_argnames="x", static_argnums=0, static_argnames=())(
            3.0, 2, "b"
        )
    )
    assert isinstance(err, TypeError)
    out = jaxlite.jit(_g, donate_argnums=0, donate_argnames=(), static_argnums=2)(_X3, 2, "b")
    np.testing.assert_array_equal(np.asarray(out), _X3 - 2)


# --------------------------------------------------- nondiff_argnums holding tracers
# custom_jvp: JAX passes a traced nondiff argument through stop_gradient, so a function
# differentiated with respect to it sees its primal (derivative 0 through that argument).
# jaxlite closed over the JVP tracer itself and raised UnexpectedTracerError.
# custom_vjp: JAX refuses a tracer there (under jit, vmap and differentiation alike) with
# UnexpectedTracerError; jaxlite computed on.


def _cj_scale(m):
    from functools import partial

    @partial(m.jx.custom_jvp, nondiff_argnums=(0,))
    def f(s, x):
        return s * m.jnp.sin(x)

    f.defjvp(lambda s, p, t: (f(s, p[0]), s * m.jnp.cos(p[0]) * t[0] * 2))
    return f


def test_custom_jvp_nondiff_tracer_is_stop_gradiented():
    x = np.array([0.5, -1.5, 2.0], np.float32)

    def build(m):
        f = _cj_scale(m)
        both = m.jx.grad(lambda s, x: f(s, x).sum(), argnums=(0, 1))(x, x)
        hess = m.jx.hessian(lambda x: f(x, x).sum())(x)
        vm = m.jx.vmap(m.jx.grad(lambda s, x: f(s, x), argnums=(0, 1)))(x, x)
        return both, hess, vm

    (gs, gx), hess, (vs, vx) = same(build)
    np.testing.assert_array_equal(np.asarray(gs), np.zeros(3, np.float32))
    np.testing.assert_allclose(np.asarray(gx), 2 * x * np.cos(x), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(vs), np.zeros(3, np.float32))
    np.testing.assert_allclose(np.asarray(vx), 2 * x * np.cos(x), rtol=1e-6)
    # d/dx of the rule's tangent 2 s cos(x) with s the (stopped) x itself: -2 x sin(x)
    np.testing.assert_allclose(np.asarray(hess), np.diag(-2 * x * np.sin(x)), rtol=1e-5)


def _cv_scale(m):
    from functools import partial

    @partial(m.jx.custom_vjp, nondiff_argnums=(0,))
    def f(s, x):
        return s * x

    f.defvjp(lambda s, x: (s * x, None), lambda s, r, g: (g * s * 2,))
    return f


@pytest.mark.parametrize(
    "how",
    [
        lambda m, f: m.jx.jit(lambda s: f(s, 2.0))(1.5),
        lambda m, f: m.jx.vmap(lambda s: f(s, 2.0))(np.ones(2, np.float32)),
        lambda m, f: m.jx.grad(lambda s: f(s, 2.0))(1.5),
        lambda m, f: m.jx.jit(m.jx.grad(lambda x, s: f(s, x)))(1.5, 2.0),
        lambda m, f: m.jx.vmap(m.jx.grad(f, argnums=1))(np.ones(2, np.float32), np.ones(2)),
    ],
)
def test_custom_vjp_refuses_a_traced_nondiff_argument(how):
    err = same(lambda m: how(m, _cv_scale(m)))
    assert isinstance(err, jaxlite.errors.UnexpectedTracerError)
    assert str(err).startswith("Found a JAX Tracer object passed as an argument to a custom_vjp")
    # a concrete nondiff value is fine
    assert float(jaxlite.grad(lambda x: _cv_scale(LITE)(1.5, x))(2.0)) == 3.0


# ------------------------------------------- JVP of add_any: a zero beside a tangent
# JAX's JVP of add_any (a linear primitive) materialises a symbolic-zero tangent and adds
# it to the other one, so a -0.0 tangent becomes +0.0. jaxlite passed the nonzero tangent
# through: the Hessian of a scan whose carry cotangent is structurally zero had -0.0 where
# JAX has +0.0.


def test_second_derivative_through_add_any_of_a_zero_tangent_is_positive_zero():
    a = np.array([-0.875, 1.875], np.float32)

    def build(m):
        def g(x):
            body = lambda d, y: (-(x * 0.5), d)  # noqa: E731
            return m.lax.scan(body, m.jnp.sin(x), None, length=1)[0].sum()

        return m.jx.grad(g)(a), m.jx.jvp(m.jx.grad(g), (a,), (a,))[1], m.jx.hessian(g)(a)

    grad, tan, hess = (np.asarray(o) for o in same(build))
    np.testing.assert_array_equal(grad, [-0.5, -0.5])
    for z in (tan, hess):
        assert np.all(z == 0) and not np.any(np.signbit(z))


# ------------------------------------------------ linearize: the tangents' types checked
# JAX's linearized function refuses a tangent whose type is not the primal's tangent type
# (float0 for an integer primal, the same float dtype otherwise; weak types aside) with a
# ValueError naming the three avals. jaxlite checked shapes only: an int32 tangent for an
# int32 primal was accepted, a float16 one failed later as a TypeError inside the product.

_LIN_BAD = {
    "int_tangent_for_int": (
        lambda m: (np.ones(3, np.float32), np.ones(3, np.int32)),
        "Got tangent aval int32[3] for primal aval int32[3] but expected float0[3].",
    ),
    "float16_for_float32": (
        lambda m: (np.ones(3, np.float16), np.zeros(3, m.jx.dtypes.float0)),
        "Got tangent aval float16[3] for primal aval float32[3] but expected float32[3].",
    ),
    "weak_scalar_for_vector": (
        lambda m: (1.0, np.zeros(3, m.jx.dtypes.float0)),
        "Got tangent aval ~float32[] for primal aval float32[3] but expected float32[3].",
    ),
    "float0_scalar_for_vector": (
        lambda m: (np.ones(3, np.float32), np.zeros((), m.jx.dtypes.float0)),
        "Got tangent aval float0[] for primal aval int32[3] but expected float0[3].",
    ),
}


@pytest.mark.parametrize("name", list(_LIN_BAD))
def test_linearized_function_checks_tangent_types(name):
    tangents, msg = _LIN_BAD[name]

    def build(m):
        _, f_jvp = m.jx.linearize(lambda x, k: x * k, _X3, np.array([1, 2, 3], np.int32))
        return f_jvp(*tangents(m))

    err = same(build)
    assert isinstance(err, ValueError)
    assert str(err).splitlines() == [
        "linearized function called on tangent values inconsistent with the original "
        "primal values:",
        msg,
    ]


def test_linearized_function_accepts_canonical_tangents():
    def build(m):
        _, f_jvp = m.jx.linearize(lambda x, k: x * k, _X3, np.array([1, 2, 3], np.int32))
        f0 = np.zeros(3, m.jx.dtypes.float0)
        return f_jvp(np.ones(3), f0), f_jvp(_X3, f0)  # float64 NumPy is canonicalised

    a, b = same(build)
    np.testing.assert_array_equal(np.asarray(a), [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(np.asarray(b), _X3 * [1, 2, 3])
    err = same(lambda m: m.jx.linearize(lambda x: x * 2, 1.5)[1](1))
    assert isinstance(err, ValueError) and "Got tangent aval ~int32[]" in str(err)
