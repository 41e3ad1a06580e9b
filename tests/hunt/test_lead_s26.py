"""Session 26 (lead): gaps and differences found against JAX, reduced. Expectations are
written by hand (or computed with NumPy) and compared with JAX where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

try:
    import jax as real_jax
    import jax.numpy as real_jnp
except ImportError:  # the hand-written expectations still hold
    real_jax = real_jnp = None

# --- jnp.einsum's interleaved form ---------------------------------------------------------
# einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]): each operand followed by its
# labels. As in JAX (opt_einsum's parser), labels are any hashable, mutually comparable
# objects; sorted, the k-th stands for the k-th letter, so [0, -1] means "ba" (a transpose).

_A = np.arange(6.0, dtype=np.float32).reshape(2, 3)
_B = np.arange(12.0, dtype=np.float32).reshape(3, 4)

_INTERLEAVED = [
    ((_A, [0, 1], _B, [1, 2], [0, 2]), _A @ _B),
    ((_A, [0, 1], _B, [1, 2]), _A @ _B),  # implicit output: labels used once, sorted
    ((_A, [Ellipsis, 1], _B, [1, 2], [Ellipsis, 2]), _A @ _B),
    ((_A, (0, 1)), _A),
    ((_A, [0, -1]), _A.T),  # -1 sorts first: "ba"
    ((_A, [0, 1.5], [1.5]), _A.sum(0)),
    ((_A, ["i", "j"], _B, ["j", "k"], ["k", "i"]), (_A @ _B).T),
]


@pytest.mark.parametrize("args, expected", _INTERLEAVED)
def test_einsum_interleaved_form(args, expected):
    np.testing.assert_array_equal(np.asarray(jnp.einsum(*args)), expected)
    if real_jnp is not None:
        np.testing.assert_array_equal(np.asarray(real_jnp.einsum(*args)), expected)


def test_einsum_interleaved_under_transformations():
    f = jax.jit(lambda a, b: jnp.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    np.testing.assert_array_equal(np.asarray(f(_A, _B)), _A @ _B)
    g = jax.grad(lambda a: jnp.einsum(a, [0, 1], _B, [1, 2], [0, 2]).sum())(_A)
    np.testing.assert_array_equal(np.asarray(g), np.broadcast_to(_B.sum(1), (2, 3)))
    assert jnp.einsum_path(_A, [0, 1], _B, [1, 2], [0, 2])[0] == [(0, 1)]


@pytest.mark.parametrize(
    "args",
    [(_A, [0, "x"]), (_A, [0, 1], _B)],  # labels that do not compare; an array as output list
    ids=["mixed-labels", "array-as-output"],
)
def test_einsum_interleaved_bad_labels(args):
    with pytest.raises(TypeError):
        jnp.einsum(*args)
    if real_jnp is not None:
        with pytest.raises(TypeError):
            real_jnp.einsum(*args)


# --- lax.reduce's generic fold is one scan, not n staged copies ------------------------------
# XLA folds a generic computation over the reduced elements in row-major order from the init.
# jaxlite staged one copy of the computation per reduced element (a 1000-row reduction: 1000
# copies, ~1 s to compile); the fold is now a scan over the rows, with the same operations
# in the same order.


def _fold_reference(x, init, dims):
    keep = [d for d in range(x.ndim) if d not in dims]
    rows = np.transpose(x, list(dims) + keep).reshape((-1,) + tuple(x.shape[d] for d in keep))
    acc = np.full(rows.shape[1:], init, x.dtype)
    for r in rows:
        acc = (acc * np.float32(0.5) - r).astype(x.dtype)
    return acc


@pytest.mark.parametrize("dims", [(0,), (1,), (0, 2), (0, 1, 2)])
def test_generic_reduce_folds_in_row_major_order(dims):
    x = np.random.RandomState(0).randn(5, 6, 7).astype(np.float32)

    def f(x):
        return jax.lax.reduce(x, np.float32(1.5), lambda a, b: a * 0.5 - b, dims)

    expected = _fold_reference(x, np.float32(1.5), dims)
    np.testing.assert_array_equal(np.asarray(f(x)), expected)
    np.testing.assert_array_equal(np.asarray(jax.jit(f)(x)), expected)
    np.testing.assert_array_equal(np.asarray(jax.vmap(f)(np.stack([x, -x])))[1],
                                  _fold_reference(-x, np.float32(1.5), dims))  # fmt: skip
    if real_jax is not None:
        g = lambda x: real_jax.lax.reduce(x, np.float32(1.5), lambda a, b: a * 0.5 - b, dims)  # noqa: E731
        np.testing.assert_array_equal(np.asarray(real_jax.jit(g)(x)), expected)


def test_generic_reduce_stages_the_computation_once():
    x = np.ones((1000, 3), np.float32)
    jaxpr = jax.make_jaxpr(
        lambda x: jax.lax.reduce(x, np.float32(0), lambda a, b: a * 0.5 - b, (0,))
    )(x)
    text = str(jaxpr)
    assert text.count("mul") <= 2, text  # one copy of the computation, not 1000
    assert "scan" in text


# --- eager jvp evaluates jaxlite's JVP rules silently ---------------------------------------
# XLA raises no IEEE warnings. A max's JVP masks the tangents of the elements that are not the
# maximum by multiplying them: an infinite tangent there made eager jvp warn 'invalid value
# encountered in multiply' (an error under -W error). A rule that runs user code (a
# custom_jvp rule, a callback) keeps the user's NumPy error state.


def test_eager_jvp_rules_raise_no_floating_point_warnings():
    x = np.array([1.0, 3.0, 3.0], np.float32)
    t = np.array([np.inf, 1.0, 2.0], np.float32)
    with np.errstate(all="raise"):
        out, tan = jax.jvp(jnp.max, (x,), (t,))
        jac = jax.jacfwd(jnp.max)(x)
    assert float(out) == 3.0 and float(tan) == 1.5  # the tied maxima share the tangent
    np.testing.assert_array_equal(np.asarray(jac), [0.0, 0.5, 0.5])
    if real_jax is not None:
        with np.errstate(all="raise"):
            assert float(real_jax.jvp(real_jnp.max, (x,), (t,))[1]) == 1.5
            np.testing.assert_array_equal(np.asarray(real_jax.jacfwd(real_jnp.max)(x)), jac)


def test_eager_jvp_keeps_the_users_error_state_in_user_code():
    spec = jax.ShapeDtypeStruct((3,), np.float32)

    def host(x):
        return np.asarray(x) * np.float32(np.inf) * np.float32(0)  # the user's own warning

    @jax.custom_jvp
    def g(x):
        return jax.pure_callback(host, spec, x)

    @g.defjvp
    def g_jvp(primals, tangents):
        return g(primals[0]), tangents[0]

    ones = np.ones(3, np.float32)
    with np.errstate(all="raise"), pytest.raises(Exception, match="invalid value"):
        jax.jvp(g, (ones,), (ones,))
