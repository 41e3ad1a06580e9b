"""Session 18: the own test suites of lineax 0.1.1, optimistix 0.1.0 and diffrax 0.7.2 run
with jaxlite installed as ``jax`` (continued from session 17); each jaxlite-only failure
reduced here to plain jax/jnp. Expected values are JAX 0.10.2's (the file passes in oracle
mode, ``JAXLITE_ORACLE=jax``).

* Eager input forwarding (lineax's and optimistix's ``test_inexact_asarray_no_copy``:
  ``vmap(inexact_asarray)(y) is y``, ``inexact_asarray`` being a ``custom_jvp`` identity):
  an eager call, control-flow primitive or custom function whose body returns an operand
  unchanged gives back that operand object in JAX (a ``custom_jvp``/``custom_vjp`` function
  under ``vmap``, ``checkpoint``, ``cond``/``switch`` when every branch returns it, a
  ``while_loop``/``fori_loop``/``scan`` carry the body returns unchanged). jaxlite wrapped
  every eager output in a new ``Array`` (same values); ``cond`` was fixed the same day by
  pruning passed-through outputs (tests/hunt/test_cond_forwarding_s18.py), the others by
  the eval trace's ``forwarding_rules``. Outputs that are computed, or whose
  type differs (a weak type changed), are new arrays in both; ``jit`` returns new arrays in
  both.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

lax = jax.lax


def _cj_identity():
    @jax.custom_jvp
    def f(x):
        return x

    f.defjvp(lambda p, t: (p[0], t[0]))
    return f


def _cv_identity():
    @jax.custom_vjp
    def f(x):
        return x

    f.defvjp(lambda x: (x, None), lambda r, c: (c,))
    return f


def _asarray_nondiff():
    # lineax's ``_asarray``: a custom_jvp with the dtype as a non-differentiable argument.
    def f(dtype, x):
        return jnp.asarray(x, dtype=dtype)

    f = jax.custom_jvp(f, nondiff_argnums=(0,))
    f.defjvp(lambda dtype, p, t: (f(dtype, p[0]), f(dtype, t[0])))
    return lambda x: f(jnp.float32, x)


_IDENTITIES = {
    "custom_jvp": _cj_identity,
    "custom_vjp": _cv_identity,
    "custom_jvp_nondiff": _asarray_nondiff,
    "checkpoint": lambda: jax.checkpoint(lambda a: a),
    "cond_concrete": lambda: lambda a: lax.cond(True, lambda u: u, lambda u: u, a),
    "switch": lambda: lambda a: lax.switch(1, [lambda u: u, lambda u: u], a),
    "while_never": lambda: lambda a: lax.while_loop(lambda c: False, lambda c: c, a),
    "fori_zero_trips": lambda: lambda a: lax.fori_loop(0, 0, lambda i, c: c, a),
    "fori_three_trips": lambda: lambda a: lax.fori_loop(0, 3, lambda i, c: c, a),
    "scan_empty": lambda: lambda a: lax.scan(lambda c, _: (c, None), a, None, length=0)[0],
    "scan_with_ys": lambda: lambda a: lax.scan(lambda c, _: (c, c), a, None, length=3)[0],
}


@pytest.mark.parametrize("name", sorted(_IDENTITIES))
@pytest.mark.parametrize("mode", ["eager", "vmap"])
def test_eager_identity_returns_its_operand(name, mode):
    f = _IDENTITIES[name]()
    y = jnp.array([1.0, 2.0], dtype=jnp.float32)
    g = jax.vmap(f) if mode == "vmap" else f
    assert g(y) is y


def test_forwarding_is_per_output():
    y = jnp.array([1.0, 2.0])
    z = jnp.array([3.0, 4.0])
    t = z[0] > 0  # a traced-at-bind predicate: the cond primitive itself runs
    a, b = lax.cond(t, lambda u, v: (u, v), lambda u, v: (u, v), y, z)
    assert a is y and b is z
    # One branch computes the output: a new array with the computed values.
    c = lax.cond(t, lambda u: u, lambda u: u + 1, y)
    assert c is not y
    np.testing.assert_array_equal(np.asarray(c), [1.0, 2.0])
    # Operands swapped: each output is the operand it is.
    p, q = jax.checkpoint(lambda u, v: (v, u * 2))(y, z)
    assert p is z and q is not y
    np.testing.assert_array_equal(np.asarray(q), [2.0, 4.0])
    # A carry passed through while another changes.
    w, n = lax.while_loop(lambda c: c[1] < 3, lambda c: (c[0], c[1] + 1), (y, 0))
    assert w is y and int(n) == 3
    s, _ = lax.scan(lambda c, x: ((c[0], c[1] + x), None), (y, z), jnp.ones(2))
    assert s[0] is y
    np.testing.assert_array_equal(np.asarray(s[1]), [5.0, 6.0])
    # A body that changes the carry is a new array even when it never runs.
    r = lax.while_loop(lambda c: False, lambda c: c + 1, y)
    assert r is not y
    np.testing.assert_array_equal(np.asarray(r), [1.0, 2.0])


def test_forwarding_keeps_values_under_jit_and_grad():
    y = jnp.array([1.0, 2.0])
    assert jax.jit(_cj_identity())(y) is not y
    assert jax.jit(jax.checkpoint(lambda a: a))(y) is not y
    np.testing.assert_array_equal(np.asarray(jax.jit(_cj_identity())(y)), [1.0, 2.0])
    f = _cj_identity()
    g = jax.grad(lambda a: (f(a) * a).sum())(y)
    np.testing.assert_array_equal(np.asarray(g), [2.0, 4.0])
    # A Python scalar operand is converted: the output is an Array, not the float.
    out = jax.checkpoint(lambda a: a)(1.5)
    assert float(out) == 1.5 and hasattr(out, "dtype")


# ------------------------------------------------------- diffrax test_sde1 (session 18)
# diffrax's test helpers reduce with ``jnp.sum(x, axis=range(2, ndim))``; its SDE solvers'
# Brownian-increment checks call ``jnp.isin`` on a column against a vector, both under the
# suite's ``jax_numpy_rank_promotion="raise"``. jaxlite raised ``TypeError`` for the range
# and the rank-promotion ``ValueError`` for isin's internal broadcast; JAX does neither.
_X = np.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("axis", ["r23", "r02", "r00"])
@pytest.mark.parametrize("fn", ["sum", "mean", "max", "min", "prod", "any", "var", "std"])
def test_reduction_axis_given_as_a_range(fn, axis):
    ax = {"r23": range(2, 3), "r02": range(0, 2), "r00": range(0)}[axis]
    tup = tuple(ax)
    got = getattr(jnp, fn)(jnp.asarray(_X), axis=ax)
    want = getattr(np, fn)(_X, axis=tup)
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_more_functions_take_a_range_axis():
    x = jnp.asarray(_X)
    np.testing.assert_array_equal(np.asarray(jnp.flip(x, axis=range(0, 2))), _X[::-1, ::-1])
    assert jnp.count_nonzero(x, axis=range(2, 3)).tolist() == [[3, 4, 4], [4, 4, 4]]
    np.testing.assert_allclose(np.asarray(jnp.nansum(x, axis=range(0, 2))), _X.sum((0, 1)))
    np.testing.assert_allclose(np.asarray(jnp.ptp(x, axis=range(2, 3))), np.full((2, 3), 3.0))
    np.testing.assert_allclose(np.asarray(jnp.average(x, axis=range(0, 2))), _X.mean((0, 1)))
    s = jax.nn.softmax(x, axis=range(2, 3))
    np.testing.assert_allclose(np.asarray(s).sum(-1), np.ones((2, 3)), rtol=1e-6)


def test_sum_over_a_range_under_rank_promotion_raise_and_jit():
    jax.config.update("jax_numpy_rank_promotion", "raise")
    try:
        f = jax.jit(lambda a: jnp.sum((a - 1.0) ** 2, axis=range(1, a.ndim)))
        np.testing.assert_allclose(np.asarray(f(jnp.asarray(_X))), ((_X - 1) ** 2).sum((1, 2)))
    finally:
        jax.config.update("jax_numpy_rank_promotion", "allow")


def test_isin_under_rank_promotion_raise():
    jax.config.update("jax_numpy_rank_promotion", "raise")
    try:
        col = jnp.linspace(0.0, 1.0, 9).reshape(9, 1)
        got = jnp.isin(col, jnp.linspace(0.0, 1.0, 3))
        assert got.shape == (9, 1) and int(got.sum()) == 3
        assert jnp.isin(jnp.arange(6).reshape(2, 3), jnp.arange(3)).tolist() == [
            [True, True, True],
            [False, False, False],
        ]
        assert jnp.isin(jnp.arange(6).reshape(2, 3), 2).tolist() == [
            [False, False, True],
            [False, False, False],
        ]
        assert bool(jnp.isin(3, jnp.arange(6).reshape(2, 3)))
        inv = jnp.isin(jnp.arange(6), jnp.arange(6).reshape(2, 3), invert=True)
        assert inv.tolist() == [False] * 6
    finally:
        jax.config.update("jax_numpy_rank_promotion", "allow")
