"""Issue 15 items 4, 5, 6, 14: inputs and conversions that used to give silently wrong
answers (masked arrays, float->int overflow, lstsq of a zero matrix) or to be accepted and
fail far from the cause (non-numeric dtypes)."""

import ml_dtypes
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

# ---------------------------------------------------------------- item 4: masked arrays

MASKED_USES = {
    "jnp.sum": lambda m: jnp.sum(m),
    "jnp.asarray": lambda m: jnp.asarray(m),
    "lax.add": lambda m: lax.add(m, 1.0),
    "jit": lambda m: jax.jit(lambda x: x * 2)(m),
    "vmap": lambda m: jax.vmap(lambda x: x * 2)(m),
    "grad": lambda m: jax.grad(lambda x: x.sum())(m),
    "operator": lambda m: jnp.ones(3) + m,
}


@pytest.mark.parametrize("name", sorted(MASKED_USES))
def test_masked_array_input_raises(name):
    m = np.ma.array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    with pytest.raises(ValueError, match=r"masked arrays are not supported.*filled\(\)"):
        MASKED_USES[name](m)


@pytest.mark.jaxlite_only
def test_masked_array_rejected_by_jnp_array_too():
    # JAX's jnp.array drops the mask silently; jaxlite refuses (docs/compat.md).
    with pytest.raises(ValueError, match="filled"):
        jnp.array(np.ma.array([1, 2, 3], mask=[0, 1, 0]))


# ------------------------------------------------------- item 5: saturating float -> int

_SPECIAL = [np.inf, -np.inf, np.nan, 3e9, -3e9, 2147483520.0, -1.5, 300.7, -300.7, 0.5]


def _saturate(values, dtype):
    info = np.iinfo(dtype)
    out = []
    for v in values:
        if np.isnan(v):
            out.append(0)
        elif v >= info.max:
            out.append(info.max)
        elif v <= info.min:
            out.append(info.min)
        else:
            out.append(int(v))  # truncation toward zero
    return np.array(out, dtype)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32])
@pytest.mark.parametrize("src", [np.float32, np.float16, jnp.bfloat16])
@pytest.mark.parametrize("how", ["astype", "jit_astype", "convert_element_type", "jit_convert"])
def test_float_to_int_saturates(dtype, src, how):
    with np.errstate(over="ignore"):
        x = jnp.array(np.array(_SPECIAL, dtype=src))
    f = {
        "astype": lambda x: x.astype(dtype),
        "jit_astype": jax.jit(lambda x: x.astype(dtype)),
        "convert_element_type": lambda x: lax.convert_element_type(x, dtype),
        "jit_convert": jax.jit(lambda x: lax.convert_element_type(x, dtype)),
    }[how]
    want = _saturate(np.asarray(x).astype(np.float64), dtype)
    got = np.asarray(f(x))
    assert got.dtype == dtype
    np.testing.assert_array_equal(got, want)


def test_float_to_int64_saturates_with_x64():
    with jax.enable_x64(True):
        x = jnp.array([np.inf, -np.inf, np.nan, 3e19, -3e19, 2.0**63, 1.5], dtype=jnp.float64)
        got = np.asarray(x.astype(jnp.int64))
        i = np.iinfo(np.int64)
        np.testing.assert_array_equal(got, [i.max, i.min, 0, i.max, i.min, i.max, 1])
        got = np.asarray(jax.jit(lambda x: x.astype(jnp.uint64))(x))
        np.testing.assert_array_equal(got, [np.iinfo(np.uint64).max, 0, 0, 2**64 - 1, 0, 2**63, 1])


# ------------------------------------------------------------- item 6: lstsq of zeros


@pytest.mark.parametrize("jit", [False, True])
def test_lstsq_of_zero_matrix_is_the_minimum_norm_zero(jit):
    f = jax.jit(jnp.linalg.lstsq) if jit else jnp.linalg.lstsq
    x, resid, rank, s = f(jnp.zeros((3, 2)), jnp.ones(3))
    np.testing.assert_array_equal(np.asarray(x), [0.0, 0.0])
    assert int(rank) == 0
    assert resid.shape == (1,)
    np.testing.assert_allclose(np.asarray(resid), [3.0])
    np.testing.assert_array_equal(np.asarray(s), [0.0, 0.0])
    x, _, rank, _ = f(jnp.zeros((2, 3)), jnp.ones((2, 4)))
    np.testing.assert_array_equal(np.asarray(x), np.zeros((3, 4)))
    np.testing.assert_array_equal(np.asarray(jnp.linalg.pinv(jnp.zeros((2, 2)))), np.zeros((2, 2)))


def test_lstsq_residual_shapes_follow_numpy():
    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 2)).astype(np.float32)
    b = rng.normal(size=4).astype(np.float32)
    x, resid, rank, _ = jnp.linalg.lstsq(a, b)
    x_np, resid_np, rank_np, _ = np.linalg.lstsq(a, b, rcond=None)
    np.testing.assert_allclose(np.asarray(x), x_np, rtol=1e-4, atol=1e-5)
    assert resid.shape == resid_np.shape == (1,)
    np.testing.assert_allclose(np.asarray(resid), resid_np, rtol=1e-3)
    assert int(rank) == rank_np == 2


# ------------------------------------------------------- item 14: non-numeric dtypes

BAD_ARRAYS = {
    "str": np.array(["a"]),
    "bytes": np.array([b"a"]),
    "object": np.array([1], object),
    "datetime64": np.array(["2020-01-01"], "datetime64[D]"),
    "timedelta64": np.array([1], "timedelta64[s]"),
    "void": np.zeros(2, "V4"),
    "structured": np.zeros(2, [("a", "f4")]),
}

BAD_DTYPES = {
    "str": str,
    "U3": "U3",
    "bytes": bytes,
    "object": object,
    "datetime64": "datetime64[D]",
    "timedelta64": "timedelta64[s]",
    "void": "V4",
}


@pytest.mark.parametrize("name", sorted(BAD_ARRAYS))
@pytest.mark.parametrize(
    "use",
    [
        lambda v: jax.jit(lambda x: x)(v),
        lambda v: jax.vmap(lambda x: x)(v),
        lambda v: jnp.asarray(v),
        lambda v: lax.neg(v),
        lambda v: jax.pure_callback(lambda x: x, jax.ShapeDtypeStruct(v.shape, np.float32), v),
    ],
    ids=["jit", "vmap", "asarray", "lax", "callback_operand"],
)
def test_non_numeric_arrays_raise_type_error_at_the_call(name, use):
    with pytest.raises(TypeError):
        use(BAD_ARRAYS[name])


@pytest.mark.parametrize("name", sorted(BAD_DTYPES))
@pytest.mark.parametrize(
    "use",
    [
        lambda d: jnp.zeros(2, d),
        lambda d: jnp.ones(2).astype(d),
        lambda d: lax.convert_element_type(jnp.ones(2), d),
        lambda d: jax.jit(lambda x: x.astype(d))(jnp.ones(2)),
    ],
    ids=["zeros", "astype", "convert_element_type", "jit_astype"],
)
def test_non_numeric_dtypes_raise_type_error(name, use):
    with pytest.raises(TypeError, match="JAX only supports number"):
        use(BAD_DTYPES[name])


@pytest.mark.parametrize("name", sorted(BAD_DTYPES))
def test_non_numeric_callback_result_dtype_raises(name):
    with pytest.raises(TypeError):
        jax.pure_callback(lambda x: x, jax.ShapeDtypeStruct((2,), BAD_DTYPES[name]), jnp.ones(2))


def test_ml_dtypes_stay_valid():
    for d in [ml_dtypes.bfloat16, ml_dtypes.float8_e4m3fn, ml_dtypes.int4, np.float16]:
        assert jnp.zeros(2, d).dtype == d
        assert jax.jit(lambda x: x)(np.ones(2, d)).dtype == d
    for d in [ml_dtypes.bfloat16, np.float16]:
        assert jax.jit(lambda x: x + 1)(np.ones(2, d)).dtype == d
