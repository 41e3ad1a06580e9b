"""Session 13 differential hunt: silent wrong answers and JAX deviations found by comparing
random programs and edge inputs with JAX 0.10.2. Each case asserts the known-correct value
(so it means something without JAX) and, where JAX is importable, compares with it: raised
exception class, or structure, shapes, dtypes, weak types, values and signs of zeros."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import scipy.special

import jaxlite
import jaxlite.numpy as jnp
import jaxlite.scipy.special as lsp
from tests.hunt.oracle import same as _same


def _neg_zero(v):
    v = np.asarray(v)
    return v.size > 0 and bool(np.all(v == 0) and np.all(np.signbit(v)))


# ------------------------------------------------- hyp1f1 / hyp2f1 parameter derivatives
# jaxlite raised NotImplementedError; JAX differentiates in a, b (and c) by series. For
# x < 0 jaxlite sums the series after Kummer's / Pfaff's transformation (JAX's float32
# plain series cancels there, and diverges below -1 for hyp2f1; docs/compat.md).


def _fd(f, args, i, h=1e-6):
    up, dn = list(args), list(args)
    up[i], dn[i] = up[i] + h, dn[i] - h
    return (f(*up) - f(*dn)) / (2 * h)


_H1 = [
    (1.5, 2.5, 0.3),
    (-2.9, 3.69, 2.11),
    (0.75, 4.2, 8.07),
    (3.04, 2.51, -19.47),
    (1.8, 2.9, -8.6),
]
_H2 = [
    (1.5, 2.5, 3.5, 0.3),
    (0.97, 1.89, 0.86, 0.894),
    (3.62, 5.13, 1.97, -0.77),
    (1.5, 2.5, 3.5, -1.5),
]


@pytest.mark.parametrize("args", _H1)
@pytest.mark.parametrize("i", [0, 1, 2])
def test_hyp1f1_derivatives_are_right(args, i):
    got = float(jaxlite.grad(lsp.hyp1f1, i)(*args))
    np.testing.assert_allclose(got, _fd(scipy.special.hyp1f1, args, i), rtol=2e-4, atol=1e-6)


@pytest.mark.parametrize("args", _H2)
@pytest.mark.parametrize("i", [0, 1, 2, 3])
def test_hyp2f1_derivatives_are_right(args, i):
    got = float(jaxlite.grad(lsp.hyp2f1, i)(*args))
    np.testing.assert_allclose(got, _fd(scipy.special.hyp2f1, args, i), rtol=2e-4, atol=1e-6)


def test_hyp1f1_derivative_where_the_plain_series_cancels():
    # d/da 1F1(3.04; 2.51; -19.47) = 1.74647e-4 (mpmath); JAX's float32 series: -15.06
    g = jaxlite.grad(lsp.hyp1f1)(3.04, 2.51, -19.47)
    np.testing.assert_allclose(float(g), 1.7464700e-4, rtol=1e-3)


_HYP_PROGRAMS = {
    "grad_a": lambda m: m.jx.grad(m.sp.hyp1f1)(1.5, 2.5, 0.3),
    "grad_b_vmap": lambda m: m.jx.vmap(m.jx.grad(m.sp.hyp1f1, 1))(
        m.jnp.array([0.5, 1.5, -2.0]), m.jnp.array([2.0, 3.5, 1.5]), m.jnp.array([0.0, 1.5, 4.0])
    ),
    "jvp_2f1_a": lambda m: m.jx.jvp(lambda a: m.sp.hyp2f1(a, 2.5, 3.5, 0.3), (1.5,), (1.0,)),
    "jit_grad_2f1": lambda m: m.jx.jit(m.jx.grad(m.sp.hyp2f1, (0, 1, 2)))(1.5, 2.5, 3.5, 0.3),
    "hessian_1f1": lambda m: m.jx.hessian(lambda v: m.sp.hyp1f1(v[0], v[1], v[2]))(
        m.jnp.array([1.5, 2.5, 0.7])
    ),
    "hessian_2f1": lambda m: m.jx.hessian(lambda v: m.sp.hyp2f1(v[0], v[1], v[2], v[3]))(
        m.jnp.array([1.5, 2.5, 3.5, 0.3])
    ),
    "jacrev_broadcast": lambda m: m.jx.jacrev(m.sp.hyp1f1)(1.5, 2.5, m.jnp.array([0.1, 0.5, 1.0])),
    "x_zero": lambda m: m.jx.grad(m.sp.hyp1f1, (0, 1))(1.5, 2.5, 0.0),
    "x_nan": lambda m: m.jx.grad(m.sp.hyp1f1)(1.5, 2.5, float("nan")),
    "grad_grad": lambda m: m.jx.grad(m.jx.grad(m.sp.hyp1f1))(1.5, 2.5, 0.7),  # both raise
    "float16": lambda m: m.jx.grad(m.sp.hyp1f1)(
        m.jnp.float16(1.5), m.jnp.float16(2.5), m.jnp.float16(0.5)
    ),
}


@pytest.mark.parametrize("name", list(_HYP_PROGRAMS))
def test_hypergeometric_derivative_programs_match_jax(name):
    out = _same(_HYP_PROGRAMS[name], rtol=2e-3, signs=False)
    if name == "grad_a":
        np.testing.assert_allclose(float(out), 0.14275354, rtol=1e-5)
    if name == "grad_grad":  # reverse mode through the series' while_loop, as in JAX
        assert isinstance(out, ValueError)


# ---------------------------------------------------- add/sub with one zero tangent
# jvp(lambda x: 1 - x) at tangent 0.0 is -0.0 in JAX (the tangent is neg(t)); jaxlite
# computed 0 - t = +0.0. Seen as sign differences in hessians through custom_vjp.

_ADDSUB = {
    "rsub": (lambda m: m.jx.jvp(lambda x: 1 - x, (2.0,), (0.0,)), True),
    "rsub_lax": (lambda m: m.jx.jvp(lambda x: m.lax.sub(1.0, x), (2.0,), (0.0,)), True),
    "radd": (lambda m: m.jx.jvp(lambda x: 1 + x, (2.0,), (-0.0,)), True),
    "add_broadcast": (lambda m: m.jx.jvp(lambda x: x + m.jnp.ones(3), (2.0,), (-0.0,)), True),
    "sub_f16": (
        lambda m: m.jx.jvp(
            lambda x: m.jnp.ones(3, "float16") - x, (m.jnp.float16(2.0),), (m.jnp.float16(0.0),)
        ),
        True,
    ),
    "one_minus_square": (lambda m: m.jx.jvp(lambda x: 1 - x * x, (0.0,), (1.0,)), True),
}


def _tanh_cv(m):
    f = m.jx.custom_vjp(lambda x: m.jnp.tanh(x))
    f.defvjp(lambda x: (m.jnp.tanh(x), m.jnp.tanh(x)), lambda r, g: (g * (1 - r * r),))
    return f


_ADDSUB["hessian_custom_vjp"] = (
    lambda m: m.jx.hessian(lambda x: _tanh_cv(m)(x).sum())(m.jnp.array([0.0])),
    True,
)
_ADDSUB["jvp_grad_custom_vjp"] = (
    lambda m: m.jx.jvp(m.jx.grad(_tanh_cv(m)), (0.0,), (1.0,)),
    True,
)


@pytest.mark.parametrize("name", list(_ADDSUB))
def test_add_sub_with_a_zero_tangent_keep_the_sign(name):
    build, neg = _ADDSUB[name]
    out = _same(build)
    tangent = jaxlite.tree_util.tree_leaves(out)[-1]
    assert _neg_zero(tangent) == neg, out


# ------------------------------------------------------- quantiles of nothing, finfo, reshape


@pytest.mark.parametrize("fn", ["nanquantile", "nanpercentile", "nanmedian"])
@pytest.mark.parametrize("method", ["linear", "nearest", "lower", "inverted_cdf"])
@pytest.mark.parametrize("dtype", ["int32", "float32", "bool"])
def test_nan_quantile_of_no_elements_raises_index_error(fn, method, dtype):
    def build(m):
        x = m.jnp.zeros((0,), dtype)
        if fn == "nanmedian":
            return m.jnp.nanmedian(x)
        return getattr(m.jnp, fn)(x, 50 if fn == "nanpercentile" else 0.5, method=method)

    assert isinstance(_same(build), IndexError)


def test_nan_quantile_of_no_elements_other_shapes_match_jax():
    _same(lambda m: m.jnp.nanquantile(m.jnp.zeros((0,)), 0.5, keepdims=True))
    _same(lambda m: m.jnp.nanquantile(m.jnp.zeros((0,)), m.jnp.array([0.5, 0.2])))
    _same(lambda m: m.jnp.nanquantile(m.jnp.zeros((0, 3)), 0.5, axis=0))


def test_finfo_iinfo_take_the_argument_as_given():
    assert isinstance(_same(lambda m: m.jnp.finfo(np.str_("float16"))), ValueError)
    assert isinstance(_same(lambda m: m.jnp.iinfo(np.str_("int16"))), ValueError)
    assert jnp.finfo("float16").dtype == np.float16
    assert jnp.finfo(jnp.ones(2, "bfloat16")).dtype == ml_dtypes.bfloat16
    assert jnp.iinfo(1).dtype == np.int64  # a Python int means int64 (NumPy's rule, JAX's)


def test_array_method_keyword_errors_name_jax_functions():
    x = jnp.ones(6)
    with pytest.raises(TypeError, match=r"^_reshape\(\) got an unexpected keyword argument"):
        x.reshape(newshape=(2, 3))
    for name in ("astype", "compress", "transpose", "flatten"):
        with pytest.raises(TypeError, match=rf"^_{name}\(\) got an unexpected keyword"):
            getattr(x, name)(bogus=1)


# -------------------------------------------------------------------- logspace / geomspace
# geomspace ignored axis, failed on array endpoints, computed half types in float32, and gave
# finite ends for endpoints of opposite signs (JAX: NaN throughout); linspace failed for
# bfloat16.

_SPACES = [
    ((1.0, 8.0, 4), {}),
    ((-1.0, -8.0, 4), {"endpoint": False}),
    ((np.array([1.0, 2.0]), np.array([8.0, 32.0]), 3), {}),
    ((np.array([1.0, 2.0]), np.array([8.0, 32.0]), 3), {"axis": 1}),
    ((np.array([1.0, 2.0]), 16.0, 3), {"axis": -1}),
    ((1.0, -8.0, 3), {}),
    ((0.0, 8.0, 3), {}),
    ((2, 8, 3), {"dtype": "float16"}),
    ((1.0, 8.0, 4), {"dtype": "bfloat16"}),
    ((1, 8, 4), {"dtype": "int32"}),
    ((1 + 1j, 8 + 8j, 3), {}),
]


@pytest.mark.parametrize("fn", ["geomspace", "logspace", "linspace"])
@pytest.mark.parametrize("k", range(len(_SPACES)))
def test_spaces(fn, k):
    args, kw = _SPACES[k]
    _same(lambda m: getattr(m.jnp, fn)(*args, **kw))


def test_geomspace_known_values():
    out = jnp.geomspace(np.array([1.0, 2.0]), np.array([8.0, 32.0]), 3, axis=1)
    np.testing.assert_allclose(np.asarray(out), [[1, 2.828427, 8], [2, 8, 32]], rtol=1e-5)
    assert np.isnan(np.asarray(jnp.geomspace(1.0, -8.0, 3))).all()
    assert jnp.geomspace(jnp.bfloat16(1), jnp.bfloat16(8), 4).dtype == ml_dtypes.bfloat16
    assert jnp.linspace(0.0, 1.0, 3, dtype="bfloat16").dtype == ml_dtypes.bfloat16


# --------------------------------------------------------------- one-element reductions
# XLA rewrites a reduction of one element per output into a reshape, and a contraction over
# one element into a product, so JAX's sum([-0.0]) is -0.0 and prod([inf + 1j]) is inf + 1j
# (jaxlite: 0 + -0.0 = +0.0, 1 * (inf + 1j) = inf + nanj); lax.reduce of one element ignores
# its init value.

_Z = np.array([-0.0], np.float32)
_ONE = {
    "sum": (lambda m: m.jnp.sum(m.jnp.asarray(_Z)), -0.0),
    "sum_0d": (lambda m: m.jnp.sum(m.jnp.asarray(_Z[0])), -0.0),
    "sum_axis_of_one": (lambda m: m.jnp.sum(m.jnp.full((1, 3), -0.0), axis=0), -0.0),
    "sum_jit": (lambda m: m.jx.jit(m.jnp.sum)(m.jnp.asarray(_Z)), -0.0),
    "sum_vmap": (lambda m: m.jx.vmap(m.jnp.sum)(m.jnp.asarray(_Z)), -0.0),
    "mean": (lambda m: m.jnp.mean(m.jnp.asarray(_Z)), -0.0),
    "nansum": (lambda m: m.jnp.nansum(m.jnp.asarray(_Z)), -0.0),
    "trace": (lambda m: m.jnp.trace(m.jnp.asarray(_Z).reshape(1, 1)), -0.0),
    "sum_initial": (lambda m: m.jnp.sum(m.jnp.asarray(_Z), initial=-0.0), -0.0),
    "cumsum": (lambda m: m.jnp.cumsum(m.jnp.full((3, 1), -0.0), axis=1), -0.0),
    "cumsum_two": (lambda m: m.jnp.cumsum(m.jnp.full((2,), -0.0)), 0.0),
    "reduce_window": (
        lambda m: m.lax.reduce_window(m.jnp.asarray(_Z), 0.0, m.lax.add, (1,), (1,), "VALID"),
        -0.0,
    ),
    "lax_reduce": (lambda m: m.lax.reduce(m.jnp.asarray(_Z), 0.0, m.lax.add, (0,)), -0.0),
    "lax_reduce_init": (lambda m: m.lax.reduce(m.jnp.array([1.0]), 5.0, m.lax.add, (0,)), 1.0),
    "lax_reduce_init2": (
        lambda m: m.lax.reduce(m.jnp.array([1.0, 2.0]), 5.0, m.lax.add, (0,)),
        8.0,
    ),
    "matmul_k1": (lambda m: m.jnp.full((1, 1), -0.0) @ m.jnp.ones((1, 2)), -0.0),
    "batched_k1": (
        lambda m: m.lax.dot_general(
            m.jnp.full((2, 3, 1), -0.0), m.jnp.ones((2, 1, 4)), (((2,), (1,)), ((0,), (0,)))
        ),
        -0.0,
    ),
    "einsum_k1": (
        lambda m: m.jnp.einsum("bij,bjk->bik", m.jnp.full((2, 2, 1), -0.0), m.jnp.ones((2, 1, 3))),
        -0.0,
    ),
    "vmap_dot_k1": (
        lambda m: m.jx.vmap(lambda a: m.jnp.dot(a, m.jnp.ones((1,))))(m.jnp.full((3, 1), -0.0)),
        -0.0,
    ),
    "matmul_k2": (lambda m: m.jnp.full((1, 2), -0.0) @ m.jnp.ones((2, 1)), 0.0),
}


@pytest.mark.parametrize("name", list(_ONE))
def test_one_element_reductions(name):
    build, want = _ONE[name]
    out = np.asarray(_same(build))
    np.testing.assert_array_equal(out, np.full(out.shape, want, out.dtype))
    assert np.all(np.signbit(out) == np.signbit(want))


_INF1J = np.array([complex(np.inf, 1.0)], np.complex64)


def test_one_element_complex_products():
    out = _same(lambda m: m.jnp.prod(m.jnp.asarray(_INF1J)))
    assert complex(out) == complex(np.inf, 1.0)
    out = _same(lambda m: m.jnp.prod(m.jnp.asarray(_INF1J).reshape(1, 1), axis=1))
    assert complex(out[0]) == complex(np.inf, 1.0)
    # the running product multiplies the first element by its init 1 + 0j: inf + nanj
    out = np.asarray(
        _same(lambda m: m.jnp.cumprod(m.jnp.array([1 + 1j, complex(np.inf, 1)], "complex64")))
    )
    assert out[0] == 1 + 1j and np.isinf(out[1].real) and np.isinf(out[1].imag)
    out = np.asarray(_same(lambda m: m.jnp.cumprod(m.jnp.asarray(_INF1J))))
    assert np.isinf(out[0].real) and np.isnan(out[0].imag)


# ------------------------------------------------------------- partition and argsort orders
# JAX's partition is two top_k's: the kth + 1 smallest ascending, then the rest descending;
# argpartition's rest is in index order. jaxlite sorted fully. argsort(descending=True,
# stable=False) reverses the ascending order in JAX (ties last index first).


@pytest.mark.parametrize("dtype", ["float32", "int8", "uint8", "float16"])
@pytest.mark.parametrize("kth", [0, 2, -1])
@pytest.mark.parametrize("axis", [0, -1])
def test_partition_order(dtype, kth, axis):
    x = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 0, 3], [5, 8, 9, 7, 9]]).astype(dtype)
    if axis == 0 and kth == 2:
        kth = 1
    _same(lambda m: m.jnp.partition(m.jnp.asarray(x), kth, axis=axis))
    _same(lambda m: m.jnp.argpartition(m.jnp.asarray(x), kth, axis=axis))


def test_partition_known_values():
    x = jnp.array([3.0, 1.0, 4.0, 1.5, 9.0, 2.0, 6.0])
    np.testing.assert_array_equal(np.asarray(jnp.partition(x, 2)), [1, 1.5, 2, 9, 6, 4, 3])
    np.testing.assert_array_equal(np.asarray(jnp.argpartition(x, 2)), [1, 3, 5, 0, 2, 4, 6])
    # JAX negates integers, so its partition of [5, -128, 3, 127] misplaces -128 (compat.md)
    i8 = jnp.array([5, -128, 3, 127], "int8")
    np.testing.assert_array_equal(np.asarray(jnp.partition(i8, 0)), [-128, 127, 5, 3])
    np.testing.assert_array_equal(np.asarray(jnp.argpartition(i8, 1)), [1, 2, 0, 3])
    b = jnp.array([True, False, True])  # JAX negates the operand: neg's TypeError
    for f in (jnp.partition, jnp.argpartition):
        with pytest.raises(TypeError, match="neg does not accept dtype bool"):
            f(b, 0)
    u = jnp.array([3, 0, 255, 1], "uint8")
    np.testing.assert_array_equal(np.asarray(jnp.partition(u, 0)), [0, 255, 3, 1])
    with pytest.raises(NotImplementedError):
        jnp.argpartition(jnp.ones(3, "complex64"), 0)


def test_argsort_descending_unstable_reverses_ties():
    x = np.array([[-1, 3, -2], [1, 1, 0]])
    out = _same(lambda m: m.jnp.argsort(m.jnp.asarray(x), axis=-1, descending=True, stable=False))
    np.testing.assert_array_equal(np.asarray(out), [[1, 0, 2], [1, 0, 2]])
    out = _same(lambda m: m.jnp.argsort(m.jnp.asarray(x), axis=-1, descending=True, stable=True))
    np.testing.assert_array_equal(np.asarray(out), [[1, 0, 2], [0, 1, 2]])


# ----------------------------------------------------------------------- logaddexp2 types
# JAX multiplies by 1/ln 2 as a constant of the operand dtype: strongly typed except for 0-d
# operands (logaddexp2(int32 array, 2.0) is strong float32; (1.0, 2.0) stays weak).

_LAE2 = {
    "python": (lambda m: (1.0, 2.0), True),
    "int_array_python": (lambda m: (m.jnp.zeros((2,), "int32"), 2.0), False),
    "int_0d_python": (lambda m: (m.jnp.zeros((), "int32"), 2.0), True),
    "empty": (lambda m: (m.jnp.zeros((2, 0), "int32"), 2.0), False),
    "float32": (lambda m: (m.jnp.float32(1), 2.0), False),
}


@pytest.mark.parametrize("name", list(_LAE2))
def test_logaddexp2_weak_type(name):
    args, weak = _LAE2[name]
    assert _same(lambda m: m.jnp.logaddexp2(*args(m))).weak_type == weak


# ------------------------------------------------------------------ norms of empty matrices


@pytest.mark.parametrize("shape", [(2, 0), (0, 2), (0, 0), (0,)])
@pytest.mark.parametrize("ord", [1, 2, np.inf])
def test_norm_of_nothing_is_zero(shape, ord):
    axis = None if len(shape) == 2 or ord != 2 else 0
    out = _same(lambda m: m.jnp.linalg.norm(m.jnp.zeros(shape), ord=ord, axis=axis))
    assert float(out) == 0.0


# ---------------------------------------------------------- out-of-range axes are errors
# These took the axis modulo the rank and answered for another axis.

_AXES = {
    "lax.squeeze": (lambda m, x: m.lax.squeeze(x[:1], (2,)), ValueError),
    "lax.squeeze_neg": (lambda m, x: m.lax.squeeze(x[:1], (-3,)), ValueError),
    "lax.expand_dims": (lambda m, x: m.lax.expand_dims(x, (3,)), ValueError),
    "lax.expand_dims_neg": (lambda m, x: m.lax.expand_dims(x, (-4,)), ValueError),
    "dynamic_slice_in_dim": (lambda m, x: m.lax.dynamic_slice_in_dim(x, 0, 1, axis=2), IndexError),
    "dynamic_slice_in_dim_neg": (
        lambda m, x: m.lax.dynamic_slice_in_dim(x, 0, 1, axis=-3),
        IndexError,
    ),
    "dynamic_index_in_dim": (lambda m, x: m.lax.dynamic_index_in_dim(x, 0, axis=2), IndexError),
    "dynamic_update_slice_in_dim": (
        lambda m, x: m.lax.dynamic_update_slice_in_dim(x, x[:1], 0, axis=2),
        IndexError,
    ),
    "dynamic_update_index_in_dim": (
        lambda m, x: m.lax.dynamic_update_index_in_dim(x, x[0], 0, axis=2),
        ValueError,
    ),
    "lax.sort": (lambda m, x: m.lax.sort(x, dimension=2), ValueError),
    "lax.concatenate_neg": (lambda m, x: m.lax.concatenate([x, x], -1), TypeError),
    "approx_max_k": (lambda m, x: m.lax.approx_max_k(x, 1, reduction_dimension=2), IndexError),
    "tensordot": (lambda m, x: m.jnp.tensordot(x, x.T, axes=([-3], [0])), ValueError),
    "tensorsolve": (
        lambda m, x: m.jnp.linalg.tensorsolve(
            m.jnp.eye(4).reshape(2, 2, 4), m.jnp.ones((2, 2)), axes=(5,)
        ),
        ValueError,
    ),
    "norm": (lambda m, x: m.jnp.linalg.norm(x, axis=2), ValueError),
    "norm_pair": (lambda m, x: m.jnp.linalg.norm(x, axis=(0, -3)), ValueError),
    "vector_norm": (lambda m, x: m.jnp.linalg.vector_norm(x, axis=2), ValueError),
    "categorical": (
        lambda m, x: m.jx.random.categorical(m.jx.random.key(0), x, axis=2),
        IndexError,
    ),
    "one_hot": (lambda m, x: m.jx.nn.one_hot(m.jnp.array([0, 1]), 3, axis=2), ValueError),
}


@pytest.mark.parametrize("name", list(_AXES))
def test_out_of_range_axes_raise(name):
    build, exc = _AXES[name]
    out = _same(lambda m: build(m, m.jnp.arange(6.0).reshape(2, 3)))
    assert isinstance(out, exc), out


def test_in_range_negative_axes_still_work():
    x = jnp.arange(6.0).reshape(2, 3)
    assert jaxlite.lax.squeeze(x[:1], (-2,)).shape == (3,)
    assert jaxlite.lax.expand_dims(x, (-4, 3)).shape == (1, 2, 3, 1)
    assert jaxlite.lax.dynamic_slice_in_dim(x, 0, 1, axis=-1).shape == (2, 1)
    assert jaxlite.lax.concatenate([x], 5).shape == (2, 3)  # one operand: returned as is
    assert jaxlite.random.categorical(jaxlite.random.key(0), x, axis=-2).shape == (3,)


# ------------------------------------------- scalar index into an empty axis, gather path
# x[0, ::2] of a (0, 3) array: JAX raises IndexError (as for x[0]); jaxlite's gather raised
# a slice-size TypeError.

_EMPTY_IDX = {
    "static": lambda m: m.jnp.zeros((0, 3))[5, ::2],
    "array_scalar": lambda m: m.jnp.zeros((0, 3))[m.jnp.array(0), ::2],
    "second_axis": lambda m: m.jnp.zeros((3, 0))[::2, 5],
    "new_axis": lambda m: m.jnp.zeros((0, 3))[0, None, ::2],
    "jit_traced": lambda m: m.jx.jit(lambda x, i: x[i, ::2])(m.jnp.zeros((0, 3)), 0),
}


@pytest.mark.parametrize("name", list(_EMPTY_IDX))
def test_scalar_index_into_an_empty_axis_raises_index_error(name):
    assert isinstance(_same(_EMPTY_IDX[name]), IndexError)


def test_scalar_index_into_an_empty_axis_with_an_index_array_is_a_gather():
    out = _same(lambda m: m.jnp.zeros((2, 0, 3))[1, :, ::2])
    assert out.shape == (0, 2)
