"""Issue 16, the differential fuzzer's long run: one regression test per root cause it found
(minimized programs, tests/fuzz/README.md). Expected values are JAX 0.10.2's; the file runs
unchanged against JAX (``JAXLITE_ORACLE=jax python -m pytest tests/test_fidelity_16_fuzz.py``).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

inf, nan = np.inf, np.nan


def same(a, b):
    """Equal values with NaN and infinities in the same places (rtol 1e-5)."""
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


def scal(o):
    w = jnp.linspace(0.5, 1.5, o.size).reshape(o.shape)
    return jnp.sum(o * w)


# ------------------------------------------ products through zeros and infinities
def test_grad_prod_with_infinities_follows_jax_pairwise_tree():
    # JAX multiplies in a tree of halves; which products meet 0 * inf decides nan vs inf.
    x = jnp.array([0.0, 0.5, -1.5, 2.0, -inf, 3.0, 0.5])
    same(jax.grad(jnp.prod)(x), [inf, nan, nan, nan, 0.0, nan, nan])
    z = jnp.array([[2.35, 0.02, -3.09], [-inf, 0.68, 2.06], [-3.49, 0.17, -0.31]])
    _, t = jax.jvp(lambda z: jnp.prod(z, axis=0), (z,), (z,))
    same(t, [nan, 0.006936, 5.9198217])
    _, tv = jax.vmap(lambda z: jax.jvp(lambda z: jnp.prod(z, axis=0), (z,), (z,)))(z[None])
    same(tv[0], t)


def test_cumprod_derivatives_with_infinities_follow_jax_associative_scan():
    y = jnp.array([inf, 0.5, -1.5, -0.0])
    g = jax.grad(lambda y: jnp.sum(jnp.cumprod(y) * jnp.array([1.0, 2.0, 3.0, 4.0])))(y)
    same(g, [-0.25, -inf, nan, -inf])
    same(jax.jvp(jnp.cumprod, (y,), (jnp.ones(4),))[1], [1.0, inf, nan, nan])
    # reverse=True scans the reversed axis the same way
    same(
        jax.jvp(lambda y: lax.cumprod(y, reverse=True), (y[::-1],), (jnp.ones(4),))[1],
        [nan, nan, inf, 1.0],
    )


# ----------------------------------------------------------------------- weak types
def test_dynamic_update_slice_is_weak_only_if_all_operands_are():
    w = lax.full((3,), 1.0)
    assert w.weak_type
    # the front end makes the start indices strongly typed int32, so the result is strong
    assert not lax.dynamic_update_slice(w, w[:1], (1,)).weak_type
    assert not lax.dynamic_update_index_in_dim(w, 2.0, 1, 0).weak_type
    assert not jax.jit(lambda w, i: lax.dynamic_update_slice(w, w[:1], (i,)))(w, 1).weak_type
    # dynamic_slice keeps the operand's weak type
    assert lax.dynamic_slice(w, (1,), (1,)).weak_type


def test_static_index_of_a_size_one_axis_is_not_a_slice():
    # JAX skips the trivial slice, so the cotangent keeps the seed's weak type.
    _, pb = jax.vjp(lambda x: x[0], jnp.asarray([1.0]))
    assert pb(lax.full((), 1.0))[0].weak_type
    assert not pb(jnp.float32(1.0))[0].weak_type
    _, pb = jax.vjp(lambda x: jnp.reshape(x, (-1,))[0], 1.0)
    assert pb(lax.full((), 1.0))[0].weak_type
    # a real slice (size 3) pads the cotangent with a strong zero: not weak
    _, pb = jax.vjp(lambda x: x[1], lax.full((3,), 1.0))
    assert not pb(lax.full((), 1.0))[0].weak_type


def test_logsumexp_gradient_of_a_python_float_is_strong():
    # lax-level sub/exp (no cast of the weak operand), as JAX's logsumexp
    g = jax.grad(lambda x: jax.nn.logsumexp(jnp.reshape(x, (-1,)), axis=0))(1.0)
    assert not g.weak_type and g.dtype == jnp.float32
    same(g, 1.0)
    g = jax.grad(lambda x: jax.scipy.special.logsumexp(jnp.reshape(x, (-1,)), b=2.0))(1.0)
    assert not g.weak_type
    # an unused Python float input still gets a weak zero
    gs = jax.grad(lambda x, y: jnp.sum(jax.nn.logsumexp(y)), argnums=(0, 1))(1.0, jnp.ones(2))
    assert gs[0].weak_type


# --------------------------------------------------------------- .at[...].mul(...)
@pytest.mark.parametrize("wrap", [lambda f: f, jax.jit], ids=["eager", "jit"])
def test_mul_update_with_basic_indices_is_differentiable(wrap):
    # Basic indices (slices, ints, scalar index arrays) are unique by construction, so JAX
    # differentiates the scatter-mul w.r.t. the updates; under jit too.
    x, u = jnp.array([2.0, 0.0, 3.0, -1.0]), jnp.float32(1.5)
    gx, gu = wrap(jax.grad(lambda x, u: scal(x.at[1:].mul(u)), argnums=(0, 1)))(x, u)
    same(gx, [0.5, 1.25, 1.75, 2.25])
    same(gu, 2.0)
    gx, gu = wrap(jax.grad(lambda x, u: scal(x.at[2].mul(u)), argnums=(0, 1)))(x, u)
    same(gx, [0.5, 0.8333333, 1.75, 1.5])
    same(gu, 3.5)
    gx, gu = wrap(jax.grad(lambda x, u: scal(x.at[7].mul(u)), argnums=(0, 1)))(x, u)
    same(gu, 0.0)  # out of bounds: dropped
    gu = wrap(jax.grad(lambda u, i: scal(x.at[i].mul(u))))(u, 2)
    same(gu, 3.5)
    # empty selection
    gx, gu = wrap(jax.grad(lambda x, u: scal(x[:1].at[1:].mul(u)), argnums=(0, 1)))(x, u)
    same(gu, 0.0)
    # values, dtypes and weak types of the forward result are the scatter's
    same(x.at[1:3].mul(u), [2.0, 0.0, 4.5, -1.0])
    assert lax.full((3,), 2.0).at[1:3].mul(3.0).weak_type
    r = jnp.arange(4).at[1:3].mul(3)
    assert r.dtype == jnp.int32
    same(r, [0, 3, 6, 3])


def test_mul_update_with_an_index_array_still_needs_unique_indices():
    x = jnp.array([2.0, 0.0, 3.0, -1.0])
    f = jax.jit(jax.grad(lambda u: scal(x.at[jnp.array([0, 2])].mul(u))))
    with pytest.raises(NotImplementedError, match="unique_indices=True"):
        f(jnp.float32(1.5))


def test_pow_tangents_are_strongly_typed():
    # JAX's pow JVP casts x and y (and the y-side tangent) to their dtype: never weak.
    for f in (lambda x: x**0.5, lambda x: x**2.0, lambda x: 2.0**x, lambda x: x**x):
        y, t = jax.jvp(f, (0.68,), (0.5,))
        assert y.weak_type and not t.weak_type
    same(jax.jvp(lambda x: x**0.5, (0.68,), (0.5,))[1], 0.5 * 0.5 * 0.68**-0.5)
    _, t = jax.jvp(lambda x: jnp.sqrt(x), (0.68,), (0.5,))
    assert t.weak_type  # sqrt's JVP keeps the weak type


# ------------------------------------------------------------------------- heaviside
def test_heaviside_constants_nan_and_weak_types():
    same(jnp.heaviside(jnp.array([nan, 0.0, -1.0, 2.0]), 0.5), [nan, 0.5, 0.0, 1.0])
    # constants are weak only for a weak scalar x1 (JAX's _lax_const)
    assert jnp.heaviside(2.0, 2.0).weak_type and jnp.heaviside(2, 2).weak_type
    assert not jnp.heaviside(lax.full((2,), 1.0), 0.5).weak_type
    wi = jnp.concatenate([jnp.expand_dims(2, -1)] * 2)
    assert wi.weak_type and not jnp.heaviside(wi, wi).weak_type

    # x1 reaches the output (at NaN), so its derivative path is not symbolically zero:
    # reverse mode through a while_loop carry then raises, as in JAX
    def f(x):
        c = lax.while_loop(lambda ic: ic[0] < 3, lambda ic: (ic[0] + 1, ic[1] * 0.5), (0, x))[1]
        return jnp.sum(jnp.heaviside(c, 0.5))

    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.grad(f)(jnp.ones(3))


# ------------------------------------------------------- .at[...] updates: edge cases
def test_update_with_an_empty_selection_returns_the_operand():
    # JAX skips the scatter: no NaN from 0 * x in the derivative of an unused update
    g = jax.grad(lambda x: jnp.sum(x.at[1:].mul(jnp.sum(x) ** 2)))(jnp.array([nan]))
    same(g, [1.0])
    same(jnp.ones(1).at[1:].mul(2.0), [1.0])


@pytest.mark.parametrize("mode", [None, "drop", "clip"])
def test_static_int_update_of_a_size_zero_axis_raises(mode):
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
        jnp.zeros(0).at[5].mul(3.0, mode=mode)
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 0"):
        jnp.zeros((0, 3)).at[-1].set(1.0, mode=mode)
    assert jnp.zeros((2, 0)).at[0].set(1.0, mode=mode).shape == (2, 0)
    assert jnp.zeros((0, 3)).at[:, 1].set(1.0, mode=mode).shape == (0, 3)


def test_min_max_update_tangents_average_the_tied_winners():
    x = jnp.array([[-1.3, 4.59, -1.58], [nan, 2.0, -0.04]])
    # max(nan, 3) is nan: neither value is the result, the tangent is 0
    _, t = jax.jvp(lambda x: x.at[1:].max(3.0), (x,), (jnp.full((2, 3), 0.5),))
    same(t, [[0.5, 0.5, 0.5], [0.0, 0.0, 0.0]])
    y = jnp.array([[0.5, 3.0, 2.0], [1.0, 0.5, -1.0]])
    u = jnp.array([[0.5, 3.0, 0.5], [3.0, 3.0, 0.5]])
    _, t = jax.jvp(
        lambda x, u: x.at[jnp.array([0, 0])].max(u),
        (y, u),
        (jnp.full((2, 3), 0.5), jnp.full((2, 3), 0.25)),
    )
    # one winning update; operand and two updates tied (mean of 0.5, 0.25, 0.25); operand
    same(t, [[0.25, 1.0 / 3.0, 0.5], [0.5, 0.5, 0.5]])


# --------------------------------------------------- contractions and weak operands
@pytest.mark.parametrize(
    "f",
    [
        jnp.dot,
        jnp.matmul,
        jnp.vdot,
        lambda a, b: jnp.tensordot(a, b, 1),
        lambda a, b: jnp.einsum("ij,jk->ik", a, b),
        lambda a, b: a @ b,
    ],
    ids=["dot", "matmul", "vdot", "tensordot", "einsum", "matmul_op"],
)
def test_contractions_do_not_cast_a_weak_operand(f):
    # JAX casts only the dtype; the gradient w.r.t. a Python float is then strong
    def g(x2, x1):
        return jnp.sum(f(jnp.reshape(x2, (1, 1)), x1))

    gx2, gx1 = jax.grad(g, argnums=(0, 1))(1.24, jnp.ones((1, 1)))
    assert not gx2.weak_type and not gx1.weak_type
    same(gx2, 1.0)
    # both weak: a weak result; weak and strong: strong
    w = lax.full((1, 1), 1.5)
    assert f(w, w).weak_type
    assert not f(w, jnp.ones((1, 1))).weak_type
    # another dtype is still cast
    assert f(jnp.ones((1, 1), jnp.int32), jnp.ones((1, 1))).dtype == jnp.float32


def test_inner_and_dot_of_scalars():
    w = lax.full((), 1.5)
    # inner of a scalar is a jnp multiply (it casts the weak operand): a weak cotangent
    _, pb = jax.vjp(lambda a: jnp.inner(a, jnp.ones(2)), w)
    assert pb(jnp.ones(2))[0].weak_type
    same(jnp.dot(2.0, jnp.array([1.0, 2.0])), [2.0, 4.0])


def test_cond_transpose_is_traced_with_the_actual_cotangent_types():
    def f(x0):
        return lax.cond(jnp.sum(x0) > 0, jnp.sin, lambda a: a * 2.0, x0)

    o, pb = jax.vjp(f, 1.42)
    assert o.weak_type
    assert not pb(jnp.float32(0.75))[0].weak_type
    assert pb(lax.full((), 0.75))[0].weak_type
    same(pb(jnp.float32(0.75))[0], 0.75 * np.cos(1.42))


def test_whole_axis_reversal_is_not_a_slice():
    for shape in [(1,), (2,)]:
        o, pb = jax.vjp(lambda x: x[::-1], lax.full(shape, 1.0))
        assert pb(lax.full(o.shape, 1.0))[0].weak_type
    same(jnp.arange(3.0)[::-1], [2.0, 1.0, 0.0])
    same(jnp.arange(5.0)[3::-2], [3.0, 1.0])


# --------------------------------------------- symbolic zeros: unused and empty values
def test_scan_transpose_keeps_zero_cotangents_of_unused_ys_symbolic():
    # the ys (c * x) are discarded; with x = inf their zero cotangent times inf must not
    # leak NaN into the carry's gradient
    x0 = jnp.array([[[0.81, inf, -0.14]], [[-0.75, -0.19, -1.13]]])

    def f(x0):
        c = lax.scan(lambda c, x: (c + x, c * x), x0[0], x0)[0]
        return jnp.sum(c * jnp.array([1.0, 2.0, 3.0]))

    expected = [[[2.0, 4.0, 6.0]], [[1.0, 2.0, 3.0]]]
    same(jax.grad(f)(x0), expected)
    same(jax.jit(jax.grad(f))(x0), expected)
    # used ys still get their cotangent
    g = jax.grad(lambda x0: jnp.sum(lax.scan(lambda c, x: (c + x, c * x), x0[0], x0)[1]))(x0)
    same(g, [[[0.12, inf, -2.54]], [[1.62, inf, -0.28]]])


def test_empty_gather_is_a_constant():
    # JAX skips a gather whose result is empty: no tangent flows, so 0 * nan does not appear
    x0, x1 = jnp.array([-1.79, 0.09]), jnp.array([-1.15, -0.49])

    def f(x0, x1):
        return x1 ** jnp.sum(x0[jnp.array([], jnp.int32)], axis=-1, keepdims=True)

    _, t = jax.jvp(f, (x0, x1), (jnp.full(2, 0.5), jnp.full(2, 0.5)))
    same(t, [-0.0, -0.0])
    assert lax.full((3,), 1.0)[jnp.array([], jnp.int32)].weak_type
    assert jnp.ones((2, 3))[:, jnp.array([], jnp.int32)].shape == (2, 0)
    same(jax.grad(lambda x: jnp.sum(x[jnp.array([], jnp.int32)]))(x0), [0.0, 0.0])


def test_integer_array_powers_with_negative_exponents():
    b = jnp.array([-3, -2, -1, 0, 1, 2, 3, 5], jnp.int32)
    for e in (-1, -3):
        r = b ** jnp.full(8, e, jnp.int32)
        # 1 and -1 have exact negative powers; 0 stays 0
        assert r[2] == -1 and r[4] == 1 and r[3] == 0
    assert (b ** jnp.full(8, -2, jnp.int32))[2] == 1
    same(b ** jnp.full(8, 3, jnp.int32), [-27, -8, -1, 0, 1, 8, 27, 125])
    same(jax.jit(lambda a, e: a**e)(jnp.array([-1, 1, 2]), jnp.array([-3, -2, 3])), [-1, 1, 8])


# ---------------------------------------------- cummax/cummin ties, xlogy's custom JVP
def test_cummax_cummin_tangents_split_ties_as_jax_associative_scan():
    x0 = jnp.array([[0.0, 0.53, 0.5], [0.18, 2.15, -0.56], [0.0, -0.0, 1.0]])
    w = jnp.linspace(0.5, 1.5, 9).reshape(3, 3)
    g = jax.grad(lambda x: jnp.sum(lax.cummax(x, axis=1) * w))(x0)
    same(g, [[0.5, 1.375, 0.0], [0.875, 2.125, 0.0], [1.9375, 0.6875, 1.5]])
    g = jax.grad(lambda x: jnp.sum(lax.cummin(x, axis=0, reverse=True) * w))(x0)
    same(g, [[0.25, 0.0, 0.0], [0.0, 0.0, 1.875], [2.375, 3.0, 1.5]])


def test_xlogy_jvp_instantiates_the_zero_tangent_as_jax_custom_jvp():
    v = jnp.array([0.0, -0.0, 0.5, -1.0, -2.0])
    _, t = jax.jvp(lambda v: jax.scipy.special.xlogy(0.0, v), (v,), (jnp.full(5, 0.5),))
    same(t, [nan, nan, 0.0, nan, nan])
    _, t = jax.jvp(lambda v: jax.scipy.special.xlog1py(0.0, v), (v,), (jnp.full(5, 0.5),))
    same(t, [0.0, 0.0, 0.0, nan, nan])
    _, t = jax.jvp(
        lambda x: jax.scipy.special.xlogy(x, 2.0), (jnp.array([0.0, 1.0]),), (jnp.ones(2),)
    )
    same(t, [np.log(2.0), np.log(2.0)])


def test_digamma_derivatives_at_poles_follow_jax_polygamma():
    # polygamma at a non-positive integer: inf for odd orders, NaN for even ones
    d = jax.scipy.special.digamma
    assert np.isinf(jax.grad(d)(0.0))
    assert np.isnan(jax.hessian(d)(0.0))
    assert np.isnan(jax.grad(jax.grad(d))(-1.0))
    assert np.isinf(jax.grad(jax.grad(jax.grad(d)))(-1.0))
    same(jax.hessian(d)(0.5), -16.828798)


def test_jacobians_take_the_weak_type_of_their_example():
    # jacfwd casts to the output's dtype and weak type, jacrev to the input's (as JAX)
    w = lax.full((2,), 1.5)
    assert jax.jacrev(lambda x: x * jnp.ones(2, jnp.float32))(w).weak_type
    assert not jax.jacfwd(lambda x: x * jnp.ones(2, jnp.float32))(w).weak_type
    assert jax.jacrev(lambda x: x**3.0)(1.3).weak_type
    assert jax.jacfwd(lambda x: x**3.0)(1.3).weak_type
    assert not jax.grad(lambda x: x**3.0)(1.3).weak_type
    assert jax.hessian(lambda x: jnp.sum(jnp.sort(jnp.broadcast_to(x, (2,)))))(1.3).weak_type
    assert jax.jacfwd(lambda x: x.astype(jnp.float16))(jnp.ones(2)).dtype == jnp.float16
    assert jax.jacrev(lambda x: x.astype(jnp.float16))(jnp.ones(2)).dtype == jnp.float32
    same(jax.jacrev(lambda x: x**3.0)(1.3), 3 * 1.3**2)


def test_where_with_an_empty_result_is_its_first_branch():
    # JAX's where skips the select for an empty result, so y's derivative path is pruned
    x = jnp.ones((3, 1)) * 2.0
    g = jax.grad(lambda x: jnp.sum(jnp.fmax(x, jnp.arccos(x)[:, 1:])))(x)
    same(g, [[0.0], [0.0], [0.0]])
    r = jnp.where(jnp.ones((0, 2), bool), 1, 2.5)
    assert r.shape == (0, 2) and r.dtype == jnp.float32

    # hypot ends in such a where: an empty hypot does not depend on its operands, so
    # reverse mode through a while_loop before it does not raise (as in JAX)
    def f(x):
        c = lax.while_loop(lambda ic: ic[0] < 3, lambda ic: (ic[0] + 1, ic[1] * 0.5), (0, x))[1]
        return jnp.sum(jnp.hypot(c, c))

    assert jax.grad(f)(jnp.ones((2, 0))).shape == (2, 0)
    with pytest.raises(ValueError, match="Reverse-mode differentiation does not work"):
        jax.grad(f)(jnp.ones(2))
    gw = jax.grad(lambda a, b: jnp.sum(jnp.hypot(b.astype(jnp.uint8), a)), argnums=(0, 1))
    assert gw(0.73, jnp.zeros((0, 3)))[0].weak_type


def test_updates_compute_in_the_promoted_dtype_then_cast_back():
    # int32 += -1.5 twice: -3 (not -1 - 1); 2 * 0.5 is 1 (not 2 * 0)
    r = jnp.array([0], jnp.int32).at[jnp.array([0, 0])].add(-1.5)
    assert r.dtype == jnp.int32
    same(r, [-3])
    same(jnp.array([2], jnp.int32).at[0].mul(0.5), [1])
    same(jnp.arange(3).at[1].set(2.7), [0, 2, 2])
    e = lax.full((2,), 1).at[0].add(1.5)
    assert e.dtype == jnp.int32 and e.weak_type


def test_constant_pad_keeps_the_operands_weak_type():
    # The pad value is cast to the operand's dtype *and* weak type (seed 1008720).
    weak = jnp.reshape(0.0, (1, -1))
    assert jnp.pad(weak, ((0, 1), (1, 1))).weak_type
    assert jnp.pad(jnp.asarray(2.0)[None], 1, constant_values=((1, 2),)).weak_type
    assert not jnp.pad(jnp.ones(2), 1).weak_type
    assert jax.jit(lambda x: jnp.pad(x, 1))(1.0).weak_type


# ------------------------------------- float16 rounding: JAX's formulas, JAX's order
def test_div_jvp_rounds_as_jax_in_float16():
    # d(x / y)/dy is (-t * x) * y**-2 in JAX; x / y / y rounds differently, and a float16
    # hessian of x / x (zero up to rounding) showed it (seed 1006842).
    x = jnp.array([[1.0, -0.6499, -0.06], [0.62, 2.0, 1.01]], jnp.float16)
    w = jnp.linspace(0.5, 1.5, 6, dtype=jnp.float32).reshape(2, 3)
    h = jax.hessian(lambda x: jnp.sum((x / x).astype(jnp.float32) * w))(x)
    assert h.dtype == jnp.float16
    np.testing.assert_array_equal(np.asarray(h[0, 1, 0, 1]), np.float16(0.003906))
    np.testing.assert_array_equal(np.asarray(h[0, 2, 0, 2]), np.float16(0.25))
    assert np.count_nonzero(np.asarray(h)) == 2


def test_integer_pow_multiplies_by_squaring_as_jax():
    # JAX computes x ** n as repeated squaring (x**4 = (x*x) * (x*x)); multiplying n times
    # rounds differently in 40% of float16 inputs.
    x = np.linspace(-3, 3, 101).astype(np.float16)
    sq = x * x
    np.testing.assert_array_equal(np.asarray(lax.integer_pow(jnp.asarray(x), 4)), sq * sq)
    np.testing.assert_array_equal(np.asarray(jnp.asarray(x) ** 5), sq * sq * x)
    with np.errstate(all="ignore"):
        want = np.float16(1) / (x * ((sq * sq) * (sq * sq)))
    np.testing.assert_array_equal(np.asarray(lax.integer_pow(jnp.asarray(x), -9)), want)
    jitted = jax.jit(lambda v: lax.integer_pow(v, 6))(jnp.asarray(x))
    np.testing.assert_array_equal(np.asarray(jitted), sq * (sq * sq))


# ------------------------------------------------- empty results of advanced indexing
def test_index_array_with_an_empty_result_skips_the_gather():
    # JAX returns zeros of the result's shape without gathering when the result is empty,
    # so its slice-size check on an empty indexed axis does not apply (seed 1003485).
    i = jnp.array([2, 0], jnp.int32)
    v = lax.dynamic_slice(jnp.zeros((3, 3), jnp.int32), (5, 5), (0, 0))
    assert v[i].shape == (2, 0) and v[i].dtype == jnp.int32
    assert jnp.zeros((0, 0, 2))[:, i].shape == (0, 2, 2)
    assert jnp.zeros((3, 0, 2))[i, :, i].shape == (2, 0)
    assert jax.vmap(lambda x: x[i])(jnp.zeros((2, 0, 0))).shape == (2, 2, 0)
    assert jax.grad(lambda x: jnp.sum(x[i]))(jnp.zeros((0, 0))).shape == (0, 0)
    # a non-empty result still gathers from the empty axis, and raises as JAX does
    for x, idx in ((jnp.zeros((0, 3)), i), (jnp.zeros((0, 0)), (i, i))):
        with pytest.raises(TypeError, match="Slice size at index"):
            x[idx]


def test_dynamic_update_slice_under_vmap_has_the_operands_weak_type():
    # JAX batches dynamic_update_slice as a scatter, whose result has the operand's weak
    # type; unbatched, the standard rule makes it strong (seed 1004788).
    w = lax.full((2, 3), 1.0)
    dus = lambda a: lax.dynamic_update_slice(a, a[:1], (0, 0))  # noqa: E731
    assert not dus(w).weak_type
    assert jax.vmap(dus)(jnp.stack([w] * 3)).weak_type
    assert jax.vmap(lambda x1: dus(x1 % -1.09))(jnp.zeros((3, 0, 3), jnp.int32)).weak_type
    strong = jnp.ones((3, 2, 3))
    assert not jax.vmap(lambda a: lax.dynamic_update_slice(a, w[:1], (0, 0)))(strong).weak_type
    assert not jax.vmap(dus, in_axes=None, axis_size=3)(w).weak_type


# ------------------------------------------- NumPy's layout of advanced-index results
def _random_index(rng, shape):
    """A random index over ``shape``: ints, slices, None, index arrays, Ellipsis."""
    items, axis = [], 0
    while axis < len(shape):
        r = rng.integers(7)
        if r == 0:
            items.append(None)
            continue
        n = shape[axis]
        if r == 1:
            items.append(int(rng.integers(-n, n)))
        elif r in (2, 3):
            items.append(rng.integers(-n, n, size=rng.integers(1, 3)).astype(np.int32))
        elif r == 4 and not any(i is Ellipsis for i in items):
            items.append(Ellipsis)
            axis = len(shape) - int(rng.integers(0, len(shape) - axis + 1))
            continue
        else:
            items.append(slice(*[None, 1, -1, 2][: rng.integers(1, 4)]))
        axis += 1
    return tuple(items)


def test_getitem_places_advanced_dimensions_as_numpy():
    # ints count as advanced indices next to index arrays, and a None or slice between two
    # advanced indices sends the broadcast dimensions first (x[1, :, a] is (2, 4), not
    # (4, 2); x[None, a, :, a, None] is (2, 1, 4, 1)).
    rng = np.random.default_rng(16)
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = jnp.asarray(base)
    for _ in range(300):
        idx = _random_index(rng, base.shape)
        jidx = tuple(jnp.asarray(i) if isinstance(i, np.ndarray) else i for i in idx)
        want = base[idx]
        got = x[jidx]
        assert got.shape == want.shape, idx
        np.testing.assert_array_equal(np.asarray(got), want, err_msg=str(idx))
        # the same layout under jit (a traced scalar index is advanced next to arrays too)
        ints = [k for k, i in enumerate(idx) if type(i) is int]
        if ints:
            k = ints[0]
            f = jax.jit(lambda x, s, k=k, jidx=jidx: x[jidx[:k] + (s,) + jidx[k + 1 :]])
            np.testing.assert_array_equal(np.asarray(f(x, idx[k])), want, err_msg=str(idx))
        # .at[] updates select the same positions
        upd = x.at[jidx].set(-1.0)
        ref = base.copy()
        ref[idx] = -1.0
        np.testing.assert_array_equal(np.asarray(upd), ref, err_msg=str(idx))


def test_index_strategy_decides_the_weak_type_of_gradients():
    # JAX indexes with static slices when every int is in bounds, with a dynamic_slice when
    # one is out of bounds (clamped; its transpose is a strongly typed
    # dynamic_update_slice), and with a gather when that also needs a strided slice
    # (clamped forward; its transpose drops the out-of-bounds cotangent) (seed 1009403).
    g = lambda f: jax.grad(f)(2.0)  # noqa: E731
    assert g(lambda v: jnp.reshape(v, (1, 1))[0, 0]).weak_type
    assert not g(lambda v: jnp.reshape(v, (1, 1))[1][0]).weak_type
    assert not g(lambda v: jnp.reshape(jnp.reshape(v, (1,)), (1, -1))[1][0]).weak_type
    assert not g(lambda v: jnp.reshape(v, (1, 1))[-2, 0]).weak_type
    strided = g(lambda v: jnp.sum(jnp.reshape(v, (1, 1))[1, ::2]))
    assert not strided.weak_type and float(strided) == 0.0
    same(jax.grad(lambda v: jnp.sum(jnp.broadcast_to(v, (2, 3))[5, ::-1] * 2.0))(1.0), 6.0)
    assert jnp.broadcast_to(lax.full((), 1.0), (2, 3))[5].weak_type


# ------------------------------------- constants of derivative formulas (JAX's _const)
UNARY_WITH_FORMULA_CONSTANTS = {
    "cbrt": jnp.cbrt,
    "sqrt": jnp.sqrt,
    "rsqrt": lax.rsqrt,
    "tan": jnp.tan,
    "arcsin": jnp.arcsin,
    "arccos": jnp.arccos,
    "arctan": jnp.arctan,
    "square": jnp.square,
    "cube": lambda x: x**3,
    "erf": jax.scipy.special.erf,
    "erfc": jax.scipy.special.erfc,
    "digamma": jax.scipy.special.digamma,
    "reciprocal": jnp.reciprocal,
    "sinc": jnp.sinc,
    "deg2rad": jnp.deg2rad,
}


@pytest.mark.parametrize("name", sorted(UNARY_WITH_FORMULA_CONSTANTS))
def test_tangents_of_weak_arrays_through_formula_constants_are_strong(name):
    # JAX's derivative formulas multiply by a constant that is a Python scalar (weak) for a
    # weak scalar and a NumPy constant (strong) otherwise: the tangent of a weak array is
    # strong, of a weak scalar weak (seed 1009893: jvp of cbrt(stack([x, x]))).
    f = UNARY_WITH_FORMULA_CONSTANTS[name]
    w = lax.full((2,), 0.375)
    assert w.weak_type
    assert not jax.jvp(f, (w,), (w,))[1].weak_type
    assert jax.jvp(f, (w[0],), (w[0],))[1].weak_type
    assert not jax.jvp(lambda x: f(jnp.stack([x, x], axis=-1)), (3.09,), (0.5,))[1].weak_type


def test_weak_types_of_jnp_functions_with_numpy_constants():
    w = lax.full((2,), 0.5)
    # log2/log10 use NumPy constants (never weak); deg2rad, sinc the formula constants
    for f in (jnp.log2, jnp.log10):
        assert not f(w).weak_type and not f(w[0]).weak_type
    for f in (jnp.deg2rad, jnp.rad2deg, jnp.sinc):
        assert not f(w).weak_type and f(w[0]).weak_type
    assert jnp.reciprocal(w).weak_type
    same(jnp.log10(jnp.array([10.0, 1000.0, 0.01])), [1.0, 3.0, -2.0])
    # the tangent of xlogy is cast to the result's dtype: strong
    assert not jax.jvp(lambda x: jax.scipy.special.xlogy(x, x), (w,), (w,))[1].weak_type


def test_sinc_derivatives_at_zero_are_its_maclaurin_coefficients():
    # JAX's sinc has a custom derivative at 0 (each order exact, not the zero of a where)
    f, got = jnp.sinc, []
    for _ in range(4):
        f = jax.grad(f)
        got.append(float(f(0.0)))
    same(got, [0.0, -(np.pi**2) / 3, 0.0, np.pi**4 / 5])
    same(jax.grad(jnp.sinc)(0.5), -4 / np.pi)


def test_unary_jvps_round_as_jax_in_float16():
    # JAX's formulas in its order of operations: sqrt's is t * (0.5 / ans), cbrt's
    # t * (1/3 * ans**-2), tanh's (t + t * ans) * (1 - ans), atanh's
    # 1 / (1 + x) * (t / (1 - x)), acosh's t * rsqrt(x * x - 1)
    x = jnp.asarray(np.linspace(0.1, 0.9, 41).astype(np.float16))
    t = jnp.full(x.shape, 0.7, jnp.float16)
    h = np.float16
    xs, ts = np.asarray(x), np.asarray(t)

    def check(f, want):
        np.testing.assert_array_equal(np.asarray(jax.jvp(f, (x,), (t,))[1]), want)

    check(jnp.sqrt, ts * (h(0.5) / np.sqrt(xs)))
    a = np.asarray(jnp.tanh(x))
    check(jnp.tanh, (ts + ts * a) * (h(1) - a))
    check(jnp.arctanh, (h(1) / (h(1) + xs)) * (ts / (h(1) - xs)))
    c = np.asarray(jnp.cbrt(x))
    check(jnp.cbrt, ts * (h(1 / 3) * (h(1) / (c * c))))


@pytest.mark.jaxlite_only
def test_max_reduction_tangent_is_the_extremums_under_jvp_and_jacfwd_alike():
    # compat.md "Differential fuzzer": JAX's answer depends on whether XLA rewrites the
    # indicator product as a select (jvp: yes; jacfwd: no, NaN); jaxlite always selects
    # (seed 1008030).
    x = jnp.array([[-1.0, 2.0, 0.72], [-3.0, -3.0, 1.0]])
    t = jnp.array([[nan, 0.0, 0.0], [0.0, 0.0, 0.0]])
    f = lambda x: jnp.max(x, axis=1)  # noqa: E731
    same(jax.jvp(f, (x,), (t,))[1], [0.0, 0.0])
    same(jax.vmap(lambda t: jax.jvp(f, (x,), (t,))[1])(t[None])[0], [0.0, 0.0])
    p = lax.pad(x, 0.0, ((0, 0, 0), (1, 1, 0)))
    jac = jax.jacfwd(lambda p: jnp.max(jnp.arctan2(p, p), axis=1))(p)
    assert not np.isnan(np.asarray(jac)).any()  # JAX: NaN throughout


CONTRACTIONS = {
    "dot": jnp.dot,
    "matmul": jnp.matmul,
    "einsum": lambda a, b: jnp.einsum("ij,jk->ik", a, b),
    "tensordot": lambda a, b: jnp.tensordot(a, b, 1),
    "vdot": jnp.vdot,
    "inner": jnp.inner,
}


@pytest.mark.parametrize("name", sorted(CONTRACTIONS))
def test_contraction_with_an_operand_of_another_dtype_has_a_strong_gradient(name):
    # JAX hands the int operand to dot_general in its own dtype with a strong
    # preferred_element_type: the result is cast weak, the cotangent of the weak float
    # operand stays strong (seed 2001557: grad of jnp.dot(reshape(x), argsort(...))).
    f = CONTRACTIONS[name]
    i = jnp.zeros((1, 1), jnp.int32)
    w = jnp.reshape(1.95, (1, 1))
    assert f(w, i).weak_type and f(w, w).weak_type and not f(w, jnp.ones((1, 1))).weak_type
    g = jax.grad(lambda x: jnp.sum(f(jnp.reshape(x, (1, 1)), i)))(1.95)
    assert not g.weak_type
    assert jax.grad(lambda x: jnp.sum(f(jnp.reshape(x, (1, 1)), jnp.reshape(x, (1, 1)))))(
        1.0
    ).weak_type


def test_softmax_with_an_infinite_input_is_nan_throughout():
    # JAX shifts by the maximum as it is: +inf - inf is NaN, so every entry is NaN (its
    # docstring says so); the shift is not replaced by 0 as in logsumexp (seed 2001804).
    x = jnp.array([[0.1444], [7.02], [inf]])
    for f in (jax.nn.softmax, jax.nn.log_softmax):
        assert np.isnan(np.asarray(f(x, axis=-2))).all()
    same(jax.nn.softmax(jnp.array([1.0, -inf])), [1.0, 0.0])
    assert np.isnan(np.asarray(jax.nn.softmax(jnp.array([-inf, -inf])))).all()
    m = jnp.array([True, False, True])
    same(jax.nn.softmax(jnp.array([1.0, 2.0, 3.0]), where=m), [0.11920292, 0.0, 0.880797])
    same(jax.nn.log_softmax(jnp.array([1.0, 2.0, 3.0]), where=m), [-2.126928, -inf, -0.126928])
