"""Issue 16: numerical fidelity. One regression test per numbered item (wrong values,
shapes, dtypes, weak types, and errors where JAX returns a result), each checked at the rule
or factory that produced it, with siblings of the same family alongside.

The expected values are JAX 0.10.2's; the file runs unchanged against JAX
(``JAXLITE_ORACLE=jax python -m pytest tests/test_fidelity_16.py``).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax


def close(a, b, **kw):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6, **kw)


def aval(f, *args):
    return jax.eval_shape(f, *args)


# ------------------------------------------------------------ 1. prod/cumprod at zeros
@pytest.mark.parametrize(
    "x, expected",
    [([2.0, 0.0, 3.0], [0.0, 6.0, 0.0]), ([2.0, 0.0, 0.0], [0.0, 0.0, 0.0]), ([2.0, 3.0], [3, 2])],
)
def test_01_grad_prod_with_zeros_does_not_divide(x, expected):
    close(jax.grad(jnp.prod)(jnp.array(x)), expected)


def test_01_prod_over_axes_and_second_order():
    x = jnp.array([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0]])
    close(jax.grad(lambda x: jnp.prod(x, axis=1).sum())(x), [[0, 6, 0], [0, 0, 0]])
    close(jax.grad(lambda x: jnp.prod(x, axis=0).sum())(x), [[0, 0, 1], [2, 0, 3]])
    # d2/dxi dxj prod(x) = prod of the others (i != j), here at a zero.
    close(jax.hessian(jnp.prod)(jnp.array([2.0, 0.0, 3.0])), [[0, 3, 0], [3, 0, 2], [0, 2, 0]])


def test_01_cumprod_with_zeros():
    x = jnp.array([2.0, 0.0, 3.0])
    close(jax.grad(lambda x: jnp.cumprod(x).sum())(x), [1.0, 8.0, 0.0])
    close(jax.jacfwd(lambda x: lax.cumprod(x, reverse=True))(x), [[0, 6, 0], [0, 3, 0], [0, 0, 1]])
    h = jax.hessian(lambda x: jnp.cumprod(x).sum())(x)
    close(h, [[0, 4, 0], [4, 0, 2], [0, 2, 0]])


# ------------------------------------------- 2. broadcast operands' cotangents are summed
@pytest.mark.parametrize(
    "f",
    [
        lambda s, x: jnp.fmod(s, x * s),
        lambda s, x: (x + s) % 4.0 + s % x,
        lambda s, x: jnp.arctan2(s, x * s),
        lambda s, x: jnp.maximum(s, x * s),
        lambda s, x: (s - x) / (x * s),
        lambda s, x: jnp.power(s, x * s),
    ],
)
def test_02_grad_wrt_a_broadcast_scalar_is_a_scalar(f):
    x = jnp.array([2.0, 5.0, 3.0])
    g = jax.grad(lambda s: f(s, x).sum())(1.5)
    assert g.shape == ()
    gr = jax.jacrev(lambda s: f(s, x).sum())(1.5)
    close(g, gr)
    eps = 1e-3
    fd = (f(1.5 + eps, x).sum() - f(1.5 - eps, x).sum()) / (2 * eps)
    np.testing.assert_allclose(float(g), float(fd), rtol=2e-2, atol=2e-2)


# -------------------------------------------------------------- 3. float floor division
def test_03_floor_divide_agrees_with_remainder():
    x = jnp.float32(-3 * -0.84)
    assert float(x // jnp.float32(-0.84)) == -4.0
    a = jnp.array([2.52, -2.52, 7.0, -7.0, 0.5], jnp.float32)
    b = jnp.array([-0.84, 0.84, 2.0, 2.0, -0.25], jnp.float32)
    q, r = np.asarray(a // b), np.asarray(a % b)
    np.testing.assert_array_equal(q, np.floor_divide(np.asarray(a), np.asarray(b)))
    np.testing.assert_allclose(q * np.asarray(b) + r, np.asarray(a), rtol=1e-6, atol=1e-6)


# ---------------------------------------------------------- 4. higher derivatives of digamma
def test_04_digamma_higher_derivatives():
    d = jax.scipy.special.digamma
    np.testing.assert_allclose(float(jax.grad(jax.grad(d))(2.0)), -0.40411393, rtol=1e-5)
    np.testing.assert_allclose(float(jax.grad(jax.grad(jax.grad(d)))(2.0)), 0.4939394, rtol=1e-5)
    gl = jax.scipy.special.gammaln
    np.testing.assert_allclose(float(jax.grad(jax.grad(jax.grad(gl)))(2.0)), -0.40411393, rtol=1e-5)


# ---------------------------------------------------------------------- 5. abs at zero
def test_05_grad_abs_at_zero_is_one():
    assert float(jax.grad(jnp.abs)(0.0)) == 1.0
    assert float(jax.grad(jnp.abs)(-0.0)) == 1.0
    assert float(jax.grad(jnp.abs)(-2.0)) == -1.0
    assert np.isinf(float(jax.grad(lambda x: jnp.sqrt(jnp.abs(x)))(0.0)))


# ------------------------------------------------------------------------ 6. relu of NaN
def test_06_relu_propagates_nan_and_has_zero_derivative_at_zero():
    assert np.isnan(float(jax.nn.relu(jnp.nan)))
    assert float(jax.grad(jax.nn.relu)(0.0)) == 0.0
    assert float(jax.grad(jax.nn.relu)(2.0)) == 1.0


# --------------------------------------------------------- 7. max/min gradients with NaN
def test_07_maximum_minimum_gradients_with_nan():
    x = jnp.array([1.0, np.nan, 3.0])
    gx, gy = jax.grad(lambda x, y: jnp.maximum(x, y).sum(), argnums=(0, 1))(x, 2.0)
    close(gx, [0.0, 0.0, 1.0])
    close(gy, 1.0)
    gx, gy = jax.grad(lambda x, y: jnp.minimum(x, y).sum(), argnums=(0, 1))(
        jnp.array([1.0, 2.0, 3.0]), np.nan
    )
    close(gx, [0.0, 0.0, 0.0])
    close(gy, 0.0)
    # Ties still split evenly.
    close(jax.grad(lambda x: jnp.maximum(x, 1.0))(1.0), 0.5)


# --------------------------------------------------------- 8. buffers agree with .shape
def test_08_zero_d_results_have_zero_d_buffers():
    for r in [
        jnp.copysign(jnp.float32(1.0), -2.0),
        jnp.signbit(jnp.float32(-1.0)),
        lax.bitcast_convert_type(jnp.float32(1.0), jnp.int32),
        lax.reduce_precision(jnp.float32(1.3), exponent_bits=5, mantissa_bits=3),
    ]:
        assert r.shape == () and np.asarray(r).shape == ()
    r = lax.pad(jnp.zeros((0,)), 0.0, [(0, 0, 0)])
    assert r.shape == np.asarray(r).shape == (0,)


# --------------------------------------------------------- 9. argmax keepdims, no axis
@pytest.mark.parametrize("fn", [jnp.argmax, jnp.argmin])
def test_09_arg_reductions_keepdims_keep_the_rank(fn):
    assert fn(jnp.ones((2, 3)), keepdims=True).shape == (1, 1)
    assert fn(jnp.ones((2, 3, 4)), keepdims=True).shape == (1, 1, 1)
    assert fn(jnp.ones((2, 3)), axis=1, keepdims=True).shape == (2, 1)


# --------------------------------------------------------------- 10. var with ddof >= n
@pytest.mark.parametrize("ddof", [2, 3])
def test_10_var_without_degrees_of_freedom_is_nan(ddof):
    x = jnp.array([1.0, 2.0])
    assert np.isnan(float(jnp.var(x, ddof=ddof)))
    assert np.isnan(float(jnp.std(x, ddof=ddof)))
    _, t = jax.jvp(lambda x: jnp.var(x, ddof=ddof), (x,), (jnp.ones(2),))
    assert float(t) == 0.0
    close(jnp.var(x, ddof=1), 0.5)


# -------------------------------------------- 11. derivative conventions of xlogy / hypot
def test_11_xlogy_xlog1py_derivatives_at_zero():
    gx, gy = jax.grad(jax.scipy.special.xlogy, argnums=(0, 1))(0.0, 0.0)
    assert float(gx) == -np.inf and np.isnan(float(gy))
    gx, gy = jax.grad(jax.scipy.special.xlogy, argnums=(0, 1))(0.0, 2.0)
    close(gx, np.log(2.0))
    close(gy, 0.0)
    gx, gy = jax.grad(jax.scipy.special.xlog1py, argnums=(0, 1))(0.0, -1.0)
    assert float(gx) == -np.inf and np.isnan(float(gy))
    assert float(jax.scipy.special.xlogy(0.0, 0.0)) == 0.0


def test_11_hypot_derivative_at_origin():
    gx, gy = jax.grad(jnp.hypot, argnums=(0, 1))(0.0, 0.0)
    close(gx, 0.5)
    close(gy, 0.5)
    gx, gy = jax.grad(jnp.hypot, argnums=(0, 1))(3.0, 4.0)
    close(gx, 0.6)
    close(gy, 0.8)


# ---------------------------------------------------------------------- 12. result dtypes
def test_12_dtypes():
    for fn in (jnp.floor, jnp.ceil):
        assert fn(jnp.array([1, 2])).dtype == jnp.int32
        assert fn(jnp.array([True])).dtype == jnp.bool_
    for dt in (jnp.bfloat16, jnp.float16):
        assert jax.nn.gelu(jnp.ones(2, dt)).dtype == dt
        assert jax.nn.gelu(jnp.ones(2, dt), approximate=False).dtype == dt
    r = jax.nn.relu(jnp.array([True, False]))
    assert r.dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(r), [1, 0])


# ------------------------------------------------------------------------ 13. weak types
@pytest.mark.parametrize(
    "f, expected",
    [
        (lambda x: jnp.sum(x), False),
        (lambda x: jnp.prod(x), False),
        (lambda x: jnp.mean(x), False),
        (lambda x: jnp.max(x), False),
        (lambda x: jnp.var(x), False),
        (lambda x: jnp.cumsum(x), False),
        (lambda x: jnp.any(x), False),
        (lambda x: jax.nn.logsumexp(x), False),
        (lambda x: jax.nn.gelu(x), False),
        (lambda x: x < 1.0, True),
        (lambda x: lax.lt(x, 1.0), True),
        (lambda x: jnp.isnan(x), True),
        (lambda x: x == x, True),
        (lambda x: jnp.full_like(x, 3.0), True),
        (lambda x: jnp.full_like(x, 3), True),
        (lambda x: jnp.full_like(jnp.ones(2), x), False),
        (lambda x: jnp.take(jnp.broadcast_to(x, (3,)), jnp.array([0])), True),
        (lambda x: jnp.take_along_axis(jnp.broadcast_to(x, (3,)), jnp.array([0]), 0), True),
        (jax.grad(lambda x: x * 2.0), True),
        (jax.grad(lambda x: jnp.sum(x)), True),
        (jax.grad(jnp.sin), True),
        (lambda x: lax.scan(lambda c, y: (c * 2, c), x, None, length=3)[0], True),
        (lambda x: lax.scan(lambda c, y: (c + y, c), x, jnp.arange(3.0))[0], False),
    ],
)
def test_13_weak_types(f, expected):
    assert aval(f, 2.0).weak_type == expected
    assert jax.jit(f)(2.0).weak_type == expected


def test_13_int_weak_types():
    assert aval(jnp.sum, 2).weak_type is False
    assert aval(lambda x: x > 1, 2).weak_type is True
    assert aval(jnp.floor, 2).weak_type is True


# ------------------------------------------------------------------------ 14. einsum
def test_14_einsum_zero_size_and_bool():
    r = jnp.einsum("ij,jk->ik", jnp.ones((2, 0)), jnp.ones((0, 3)))
    assert r.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(r), np.zeros((2, 3)))
    assert jnp.einsum("ij->i", jnp.ones((0, 3))).shape == (0,)
    r = jnp.einsum("ij->i", jnp.array([[True, False], [False, False]]))
    assert r.dtype == jnp.bool_
    np.testing.assert_array_equal(np.asarray(r), [True, False])


# --------------------------------------------------------------------- 15. empty axes
def test_15_empty_axis_reductions_and_diff():
    x = jnp.ones((2, 0))
    for lse in (jax.nn.logsumexp, jax.scipy.special.logsumexp):
        r = lse(x, axis=1)
        assert r.shape == (2,) and np.all(np.asarray(r) == -np.inf)
    assert jax.nn.softmax(x, axis=1).shape == (2, 0)
    assert jax.nn.log_softmax(x, axis=1).shape == (2, 0)
    assert jnp.take_along_axis(x, jnp.zeros((2, 0), jnp.int32), axis=1).shape == (2, 0)
    assert jnp.diff(x, axis=1).shape == (2, 0)
    assert jnp.diff(jnp.ones((0,))).shape == (0,)
    assert jnp.diff(jnp.ones((3, 1)), axis=1).shape == (3, 0)


# ------------------------------------------------------- 16. power with a scalar base
def test_16_power_gradients_with_broadcasting():
    close(
        jax.grad(lambda y: jnp.power(2.0, y).sum())(jnp.array([1.0, 2.0])), [1.3862944, 2.7725887]
    )
    close(jax.grad(lambda x: jnp.power(x, jnp.array([1.0, 2.0])).sum())(2.0), 5.0)
    close(jax.grad(lambda x: jnp.power(x, jnp.array([0.0, 2.0])).sum())(2.0), 4.0)
    # JAX's d/dx x**y = y * x**(y - 1) has no special case: NaN at (0, 0).
    assert np.isnan(float(jax.grad(lambda x: lax.pow(x, 0.0))(0.0)))
    assert float(jax.grad(lambda y: lax.pow(0.0, y))(2.0)) == 0.0


# ------------------------------------------------------- 17. lax broadcasts size-1 dims
def test_17_lax_binary_ops_broadcast_size_one_dims():
    r = lax.add(jnp.ones((1, 3)), jnp.ones((2, 3)))
    assert r.shape == (2, 3)
    assert lax.mul(jnp.ones((2, 1)), jnp.ones((1, 3))).shape == (2, 3)
    assert lax.lt(jnp.ones((2, 1)), jnp.ones((1, 3))).dtype == jnp.bool_
    with pytest.raises(TypeError):
        lax.add(jnp.ones((3,)), jnp.ones((2, 3)))
    with pytest.raises(TypeError):
        lax.add(jnp.ones((2,)), jnp.ones((3,)))
    g = jax.grad(lambda x: lax.mul(x, jnp.arange(6.0).reshape(2, 3)).sum())(jnp.ones((1, 3)))
    close(g, [[3.0, 5.0, 7.0]])
    g = jax.grad(lambda y: lax.sub(jnp.ones((2, 3)), y).sum())(jnp.ones((2, 1)))
    close(g, [[-3.0], [-3.0]])
    g = jax.vmap(lambda x: lax.add(x, jnp.ones((2, 3))))(jnp.ones((4, 1, 3)))
    assert g.shape == (4, 2, 3)


# ------------------------------------------------------- 18. grad of vmap of a scatter
def test_18_grad_of_vmapped_scatter():
    x = jnp.ones((2, 3))
    g = jax.grad(lambda x: jax.vmap(lambda r: r.at[0].add(2.0).sum())(x).sum())(x)
    close(g, np.ones((2, 3)))
    g = jax.grad(lambda x: jax.vmap(lambda r: r.at[5].set(2.0).sum())(x).sum())(x)
    close(g, np.ones((2, 3)))
    g = jax.grad(lambda s: jax.vmap(lambda r: r.at[0].add(s).sum())(x).sum())(2.0)
    close(g, 2.0)


# -------------------------------------------------------------- 19. exception types
def test_19_forward_mode_of_custom_vjp_is_a_type_error():
    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    f.defvjp(lambda x: (jnp.sin(x), x), lambda r, g: (g * jnp.cos(r),))
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        jax.jacfwd(f)(jnp.ones(2))
    with pytest.raises(TypeError, match="can't apply forward-mode autodiff"):
        jax.vmap(lambda x: jax.jvp(f, (x,), (x,)))(jnp.ones(2))
    close(jax.vmap(jax.grad(f))(jnp.ones(2)), np.cos(np.ones(2)))


def test_19_power_incompatible_shapes_is_a_type_error():
    with pytest.raises(TypeError):
        jnp.power(jnp.ones(2), jnp.ones(3))


# ------------------------------------------------- found by the fuzzer (tests/fuzz)
def test_jacfwd_of_an_integer_valued_function_is_zeros_of_its_dtype():
    j = jax.jacfwd(lambda x: (x // x).astype(jnp.int32))(jnp.ones(2))
    assert j.dtype == jnp.int32 and j.shape == (2, 2)
    np.testing.assert_array_equal(np.asarray(j), np.zeros((2, 2)))
    j, aux = jax.jacfwd(lambda x: (jnp.sin(x), x > 0), has_aux=True)(jnp.ones(2))
    close(j, np.diag(np.cos(np.ones(2))))
    assert aux.dtype == jnp.bool_


def test_fuzzer_findings_weak_types_of_gradients_and_pad():
    # The gradient w.r.t. a Python float is weak where JAX's is, not always.
    g = jax.grad(lambda x0, x1: lax.div(x1, x0), argnums=(0, 1))(jnp.float32(0.5), 0.57)
    assert g[1].weak_type is False
    assert jax.grad(lambda x: x * 2.0)(3.0).weak_type is True
    v = jnp.minimum(jnp.array([-3, 4]), 2.0)  # weak float32
    assert lax.pad(v, jnp.zeros((), v.dtype), ((0, 0, 0),)).weak_type is False
    j = jax.jacfwd(lambda x, i: jnp.where(jnp.isnan(x), i, -1), argnums=0)(jnp.ones(2), 0)
    assert j.dtype == jnp.int32 and j.weak_type is True


def test_fuzzer_findings_values():
    # logaddexp's derivative at a tie is 1/2 (JAX's custom JVP), also through stacking.
    close(jax.grad(lambda x: jnp.logaddexp(0.0, x))(0.0), 0.5)
    close(jax.grad(lambda x: jnp.logaddexp2(x, 1.0))(1.0), 0.5)
    _, t = jax.jvp(
        jnp.logaddexp,
        (jnp.array([np.inf, -np.inf]), jnp.array([1.0, -np.inf])),
        (jnp.ones(2), jnp.ones(2)),
    )
    assert np.isnan(np.asarray(t)[1]) and np.isfinite(np.asarray(t)[0])
    assert jnp.logaddexp2(jnp.float16(1), 2.0).dtype == jnp.float16
    # Float floor division by zero is x1 / x2.
    r = np.asarray(jnp.array([3.7, -3.7]) // 0.0)
    assert r[0] == np.inf and r[1] == -np.inf
    # std / var without degrees of freedom: JVP 0 (var) and NaN (std); gradient NaN.
    _, t = jax.jvp(lambda x: jnp.var(x, ddof=3), (jnp.ones(2),), (jnp.ones(2),))
    assert float(t) == 0.0
    _, t = jax.jvp(lambda x: jnp.std(x, ddof=3), (jnp.ones(2),), (jnp.ones(2),))
    assert np.isnan(float(t))
    assert np.isnan(float(jax.grad(lambda x: jnp.var(x, ddof=1))(1.9)))


def test_fuzzer_findings_errors_and_dtypes():
    b = jnp.array([True, False])
    r = jnp.left_shift(b, b)
    assert r.dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(r), [2, 0])
    with pytest.raises(IndexError, match="non-empty jnp.take"):
        jnp.take(jnp.ones((0, 3)), jnp.array([0]), axis=0)
    with pytest.raises(TypeError):
        jnp.ones((0, 3))[jnp.array([2, 0])]
    assert jnp.ones((0, 3))[jnp.array([], jnp.int32)].shape == (0, 3)


def test_fuzzer_findings_conversions_poles_and_jacobian_weak_types():
    x = jnp.array([np.inf, -np.inf, np.nan, 3e9, -3e9, 2.5])
    np.testing.assert_array_equal(
        np.asarray(x.astype(jnp.int32)), [2147483647, -2147483648, 0, 2147483647, -2147483648, 2]
    )
    np.testing.assert_array_equal(np.asarray(jnp.array([300.0, -5.0]).astype(jnp.uint8)), [255, 0])
    d = np.asarray(jax.scipy.special.digamma(jnp.array([0.0, -0.0, -2.0, 1.0])))
    assert np.isnan(d[:3]).all() and np.isfinite(d[3])
    r = jnp.array([True, False]) ** 3
    assert r.dtype == jnp.int32 and r.weak_type is False
    for jac in (jax.jacfwd, jax.jacrev, jax.hessian):
        assert jac(jnp.tanh)(0.53).weak_type is True


def test_fuzzer_findings_scatter_set_duplicates_hypot_power():
    w = jnp.linspace(0.5, 1.5, 9).reshape(3, 3)
    x = jnp.arange(9.0).reshape(3, 3)
    # Duplicate indices: only the update that is left in place gets the cotangent.
    g = jax.grad(lambda u: jnp.sum(x.at[jnp.array([0, 0, 1])].set(u) * w))(0.5)
    close(g, float(np.sum(np.asarray(w)[:2])))
    r = np.asarray(jnp.hypot(jnp.array([np.inf, np.nan, 3.0]), jnp.array([np.nan, np.inf, 4.0])))
    np.testing.assert_array_equal(r, [np.inf, np.inf, 5.0])
    assert jnp.hypot(jnp.array([1, 2]), 0.5).weak_type is False
    assert jnp.hypot(2.0, 0.5).weak_type is True
    assert jnp.power(2.0, jnp.array([1, 2])).weak_type is False
    assert jnp.power(jnp.array([1, 2]), 0.5).weak_type is True


def test_fuzzer_findings_square_of_bool_and_shift_out_of_range():
    r = jnp.square(jnp.array([True, False]))
    assert r.dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(r), [1, 0])
    assert int(jax.jit(lambda x: x >> x)(-2)) == -1
    np.testing.assert_array_equal(
        np.asarray(jnp.right_shift(jnp.array([-8, 8, -8]), jnp.array([40, 40, -1]))), [-1, 0, -1]
    )
    np.testing.assert_array_equal(np.asarray(jnp.right_shift(jnp.array([-8, 8]), 1)), [-4, 4])


def test_fuzzer_findings_sign_of_bool_and_integer_powers_broadcast():
    with pytest.raises(TypeError):
        jnp.sign(jnp.array(True))
    assert (3 ** jnp.zeros((2, 0), jnp.uint8)).shape == (2, 0)
    np.testing.assert_array_equal(np.asarray(3 ** jnp.array([1, 2], jnp.uint8)), [3, 9])


def test_fuzzer_findings_max_reduction_jvp_with_infinite_tangents():
    x = jnp.array([[-1.0, -np.inf, 0.72], [-np.inf, -np.inf, 1.0]])
    _, t = jax.jvp(lambda x: jnp.max(x, axis=1), (x,), (x,))
    close(t, [0.72, 1.0])
    close(jax.grad(lambda x: jnp.max(x))(jnp.array([1.0, 3.0, 3.0])), [0.0, 0.5, 0.5])


def test_fuzzer_findings_scatter_weak_type_mul_gradient_and_floor_divide_jvp():
    v = jnp.float_power(jnp.array([True]), 2)  # weak float32
    assert v.weak_type is True
    assert v.at[-1].mul(jnp.float32(2.0), mode="clip").weak_type is True
    with pytest.raises(NotImplementedError, match="unique_indices"):
        jax.jvp(lambda u: jnp.ones(3).at[jnp.array([0, 0])].mul(u), (2.0,), (1.0,))
    _, t = jax.jvp(lambda x: x.at[jnp.array([0, 0])].mul(2.0), (jnp.ones(3),), (jnp.ones(3),))
    close(t, [4.0, 1.0, 1.0])
    _, t = jax.jvp(lambda x: x // 0.0, (jnp.array([4.1, -0.7]),), (jnp.ones(2),))
    close(t, [0.0, 0.0])
