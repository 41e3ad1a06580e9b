"""Transposition: ``jax.linear_transpose`` (public) and ``backward_pass``/``transpose_jaxpr``
(jaxlite internals, ``jaxlite_only``).

Expected values come from dense matrices: a linear function ``f`` is applied to every basis
vector with NumPy-checked results, which gives its matrix ``J``; its transpose must map a
cotangent ``ct`` to ``J.T @ ct``.
"""

import functools

import helpers
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

close = functools.partial(helpers.close, atol=1e-5)


RNG = np.random.RandomState(0)


def dense_matrix(f, in_shape):
    """Matrix of the linear map ``f`` (flattened output x flattened input)."""
    n = int(np.prod(in_shape))
    cols = []
    for i in range(n):
        e = np.zeros(n, np.float32)
        e[i] = 1.0
        cols.append(np.asarray(f(jnp.asarray(e.reshape(in_shape)))).reshape(-1))
    return np.stack(cols, axis=1)


M = RNG.randn(3, 4).astype(np.float32)
LINEAR_FNS = [
    ("scale", (4,), lambda x: 3.0 * x),
    ("neg_sub", (4,), lambda x: -x - 2.0 * x[::-1]),
    ("matvec", (4,), lambda x: jnp.asarray(M) @ x),
    ("sum_axis", (2, 3), lambda x: jnp.sum(x, axis=0)),
    ("mean", (2, 3), lambda x: jnp.mean(x, axis=1)),
    ("reshape_transpose", (2, 3), lambda x: jnp.transpose(jnp.reshape(x, (3, 2)))),
    ("broadcast", (3,), lambda x: jnp.broadcast_to(x, (2, 3)) * jnp.arange(1.0, 3.0)[:, None]),
    ("slice_concat", (5,), lambda x: jnp.concatenate([x[1:4], x[:2] * 2.0])),
    ("pad", (3,), lambda x: jnp.pad(x, (2, 1))),
    ("index_gather", (5,), lambda x: x[jnp.asarray([4, 0, 0, 2])]),
    ("at_add", (4,), lambda x: jnp.zeros(6).at[jnp.asarray([1, 1, 3, 5])].add(x)),
    ("cumsum", (4,), lambda x: jnp.cumsum(x)),
    ("dot_matrix", (4, 2), lambda x: jnp.asarray(M) @ x),
    (
        "where_const_mask",
        (4,),
        lambda x: jnp.where(jnp.asarray([True, False, True, False]), x, 0.0),
    ),
    ("jit_inside", (4,), jax.jit(lambda x: jnp.sin(1.0) * x + x[0])),
]


@pytest.mark.parametrize("name,shape,f", LINEAR_FNS, ids=[t[0] for t in LINEAR_FNS])
def test_linear_transpose_matches_dense_transpose(name, shape, f):
    J = dense_matrix(f, shape)
    out_shape = np.shape(f(jnp.zeros(shape, jnp.float32)))
    ct = RNG.randn(*out_shape).astype(np.float32)
    (got,) = jax.linear_transpose(f, jnp.zeros(shape, jnp.float32))(jnp.asarray(ct))
    assert got.shape == shape
    close(got, (J.T @ ct.reshape(-1)).reshape(shape))


@pytest.mark.parametrize("name,shape,f", LINEAR_FNS, ids=[t[0] for t in LINEAR_FNS])
def test_vjp_of_linear_function_is_its_transpose(name, shape, f):
    J = dense_matrix(f, shape)
    x = RNG.randn(*shape).astype(np.float32)
    y, pullback = jax.vjp(f, jnp.asarray(x))
    close(y, (J @ x.reshape(-1)).reshape(np.shape(y)), rtol=1e-4, atol=1e-4)
    ct = RNG.randn(*np.shape(y)).astype(np.float32)
    (g,) = pullback(jnp.asarray(ct))
    close(g, (J.T @ ct.reshape(-1)).reshape(shape))


def test_linear_transpose_unused_input_gets_zero_cotangent():
    f_t = jax.linear_transpose(lambda x, y: 2.0 * x, jnp.zeros(3), jnp.zeros(2))
    gx, gy = f_t(jnp.ones(3))
    close(gx, 2.0 * np.ones(3))
    close(gy, np.zeros(2))
    assert gy.shape == (2,)


def test_linear_transpose_accumulates_fan_out():
    # x used three times: cotangents add.
    f_t = jax.linear_transpose(lambda x: (x + 3.0 * x, x), 1.0)
    (g,) = f_t((2.0, 5.0))
    close(g, 4.0 * 2.0 + 5.0)


def test_linear_transpose_pytree_in_and_out():
    def f(p):
        return {"s": p["a"] + jnp.sum(p["b"]), "t": p["b"] * 2.0}

    p = {"a": jnp.zeros(()), "b": jnp.zeros(3)}
    (g,) = jax.linear_transpose(f, p)({"s": 1.5, "t": jnp.asarray([1.0, 2.0, 3.0])})
    close(g["a"], 1.5)
    close(g["b"], 1.5 + 2.0 * np.array([1.0, 2.0, 3.0]))


def test_linear_transpose_is_jittable_and_transposes_twice():
    f = lambda x: jnp.asarray(M) @ x  # noqa: E731
    f_t = jax.linear_transpose(f, jnp.zeros(4))
    ct = RNG.randn(3).astype(np.float32)
    close(jax.jit(lambda c: f_t(c)[0])(jnp.asarray(ct)), M.T @ ct)
    f_tt = jax.linear_transpose(lambda c: f_t(c)[0], jnp.zeros(3))
    x = RNG.randn(4).astype(np.float32)
    close(f_tt(jnp.asarray(x))[0], M @ x)


def test_grad_through_jit_with_closed_over_constant_matrix():
    g = jax.grad(jax.jit(lambda x: jnp.sum(jnp.tanh(jnp.asarray(M) @ x))))(jnp.ones(4))
    x = np.ones(4)
    close(g, M.T.astype(np.float64) @ (1 - np.tanh(M @ x) ** 2), rtol=1e-4)


# ---------------------------------------------------------------- internals (jaxlite only)


@pytest.mark.jaxlite_only
def test_backward_pass_on_staged_linear_jaxpr():
    from jaxlite._src.core.rule_types import UndefinedPrimal, Zero
    from jaxlite._src.interpreters.transpose import backward_pass

    closed = jax.make_jaxpr(lambda a, x, y: (a * x + jnp.asarray(M) @ y, 2.0 * x))(
        jnp.ones(3), jnp.ones(3), jnp.ones(4)
    )
    a = RNG.randn(3).astype(np.float32)
    ct1, ct2 = RNG.randn(3).astype(np.float32), RNG.randn(3).astype(np.float32)
    avals = closed.in_avals
    cts = backward_pass(
        closed.jaxpr,
        closed.consts,
        [jnp.asarray(a), UndefinedPrimal(avals[1]), UndefinedPrimal(avals[2])],
        [jnp.asarray(ct1), jnp.asarray(ct2)],
    )
    assert cts[0] is None
    close(cts[1], a * ct1 + 2.0 * ct2)
    close(cts[2], M.T @ ct1)
    # A symbolic-zero output cotangent contributes nothing.
    cts = backward_pass(
        closed.jaxpr,
        closed.consts,
        [jnp.asarray(a), UndefinedPrimal(avals[1]), UndefinedPrimal(avals[2])],
        [Zero(avals[1]), jnp.asarray(ct2)],
    )
    close(cts[1], 2.0 * ct2)
    assert type(cts[2]) is Zero


@pytest.mark.jaxlite_only
def test_transpose_jaxpr_signature_and_values():
    from jaxlite._src.interpreters.eval import eval_jaxpr
    from jaxlite._src.interpreters.transpose import transpose_jaxpr

    closed = jax.make_jaxpr(lambda a, x, b, y: (jnp.sin(a) * x, x + b * y))(1.0, 1.0, 1.0, 1.0)
    t = transpose_jaxpr(closed, [False, True, False, True])
    # Inputs: non-linear (a, b) then one cotangent per output; outputs: cts of x and y.
    assert len(t.in_avals) == 4 and len(t.out_avals) == 2
    a, b, c1, c2 = 0.3, -2.0, 1.5, 0.25
    gx, gy = eval_jaxpr(t.jaxpr, t.consts, a, b, c1, c2)
    close(gx, np.sin(a) * c1 + c2)
    close(gy, b * c2)


@pytest.mark.jaxlite_only
def test_transpose_jaxpr_materialises_zero_cotangents():
    from jaxlite._src.interpreters.eval import eval_jaxpr
    from jaxlite._src.interpreters.transpose import transpose_jaxpr

    closed = jax.make_jaxpr(lambda x, y: 2.0 * x)(jnp.ones(2), jnp.ones(3))
    t = transpose_jaxpr(closed, [True, True])
    gx, gy = eval_jaxpr(t.jaxpr, t.consts, jnp.ones(2))
    close(gx, 2.0 * np.ones(2))
    close(gy, np.zeros(3))


@pytest.mark.jaxlite_only
def test_backward_pass_evaluates_nonlinear_equations_forward():
    """Equations that do not touch a linear input are computed, not transposed."""
    from jaxlite._src.core.rule_types import UndefinedPrimal
    from jaxlite._src.interpreters.transpose import backward_pass

    closed = jax.make_jaxpr(lambda a, x: jnp.cos(a) * jnp.exp(a) * x)(0.5, 1.0)
    (_, g) = backward_pass(
        closed.jaxpr, closed.consts, [0.5, UndefinedPrimal(closed.in_avals[1])], [2.0]
    )
    close(g, np.cos(0.5) * np.exp(0.5) * 2.0)


@pytest.mark.jaxlite_only
def test_missing_transpose_rule_names_the_primitive():
    from jaxlite._src.core.rule_types import UndefinedPrimal
    from jaxlite._src.interpreters.transpose import backward_pass

    closed = jax.make_jaxpr(lambda x: jnp.sin(x))(1.0)
    with pytest.raises(NotImplementedError, match="sin"):
        backward_pass(closed.jaxpr, closed.consts, [UndefinedPrimal(closed.in_avals[0])], [1.0])
