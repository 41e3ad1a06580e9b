"""Op-spec rows: jax.lax functions (and rows for the primitives no other row reaches)."""

from __future__ import annotations

import numpy as np

from ._base import S34, S234, SP, A, B, F, I, L, OpSpec, P, add

# ------------------------------------------------------------------------------- lax
add(
    OpSpec("lax_add", L("add"), (A(S34), A(S34)), np.add, grad=2),
    OpSpec("lax_add_weak", L("add"), (A(S34), P(2.0)), np.add),
    OpSpec("lax_mul", L("mul"), (A(S34), A(S34)), np.multiply, grad=2),
    OpSpec(
        "lax_div_int",
        L("div"),
        (A(S34, I, -9, 9), A(S34, I, 1, 4)),
        lambda x, y: (np.trunc(x / y)).astype(np.int32),
        grad=0,
    ),
    OpSpec("lax_rem", L("rem"), (A(S34), A(S34, F, 0.5, 2)), np.fmod, grad=0),
    OpSpec("lax_rsqrt", L("rsqrt"), (A(S34, F, 0.5, 2),), lambda x: 1 / np.sqrt(x), grad=2),
    OpSpec("lax_logistic", L("logistic"), (A(S34),), lambda x: 1 / (1 + np.exp(-x)), grad=2),
    OpSpec("lax_erf", L("erf"), (A(S34),), None, grad=2),
    OpSpec("lax_erfc", L("erfc"), (A(S34),), None, grad=1),
    OpSpec("lax_erf_inv", L("erf_inv"), (A(S34, F, -0.8, 0.8),), None, grad=1, rtol=1e-4),
    OpSpec("lax_lgamma", L("lgamma"), (A(S34, F, 0.5, 3),), None, grad=1, rtol=1e-4),
    OpSpec("lax_digamma", L("digamma"), (A(S34, F, 0.5, 3),), None, grad=1, rtol=1e-4),
    OpSpec("lax_integer_pow", L("integer_pow", y=3), (A(S34),), lambda x: x**3, grad=2),
    OpSpec(
        "lax_integer_pow_neg",
        L("integer_pow", y=-2),
        (A(S34, F, 0.5, 2),),
        lambda x: x**-2.0,
        grad=2,
    ),
    OpSpec(
        "lax_clamp",
        lambda m: lambda x: m.lax.clamp(-0.5, x, 0.5),
        (A(S34),),
        lambda x: np.clip(x, -0.5, 0.5),
    ),
    OpSpec("lax_population_count", L("population_count"), (A(S34, I, 0, 100),), None, grad=0),
    OpSpec("lax_clz", L("clz"), (A(S34, I, 0, 100),), None, grad=0),
    OpSpec(
        "lax_select", L("select"), (A(S34, B), A(S34), A(S34)), lambda p, a, b: np.where(p, a, b)
    ),
    OpSpec("lax_max", L("max"), (A(S34), A(S34)), np.maximum),
    OpSpec("lax_atan2", L("atan2"), (A(S34), A(S34, F, 0.5, 2)), np.arctan2),
    OpSpec("lax_nextafter", L("nextafter"), (A(S34), A(S34)), np.nextafter, grad=0),
    OpSpec(
        "lax_convert",
        L("convert_element_type", new_dtype="int32"),
        (A(S34, F, -5, 5),),
        lambda x: x.astype("int32"),
        grad=0,
    ),
    OpSpec(
        "lax_bitcast",
        L("bitcast_convert_type", new_dtype="int32"),
        (A(S34),),
        lambda x: x.view("int32"),
        grad=0,
    ),
    OpSpec(
        "lax_reduce_precision",
        L("reduce_precision", exponent_bits=5, mantissa_bits=10),
        (A(S34),),
        lambda x: x.astype("float16").astype("float32"),
        grad=0,
    ),
    OpSpec(
        "lax_broadcast_in_dim",
        L("broadcast_in_dim", shape=(2, 3, 4), broadcast_dimensions=(1,)),
        (A((3,)),),
        lambda x: np.broadcast_to(x[None, :, None], (2, 3, 4)),
    ),
    OpSpec(
        "lax_dynamic_slice",
        lambda m: lambda x, i: m.lax.dynamic_slice(x, (i, m.jnp.int32(1)), (2, 2)),
        (A(S34), A((), I, 0, 3)),
        None,
    ),
    OpSpec(
        "lax_dynamic_slice_clamp",
        lambda m: lambda x: m.lax.dynamic_slice(x, (2, 3), (2, 2)),
        (A(S34),),
        lambda x: x[1:3, 2:4],
    ),
    OpSpec(
        "lax_dynamic_update_slice",
        lambda m: lambda x, u, i: m.lax.dynamic_update_slice(x, u, (i, m.jnp.int32(0))),
        (A(S34), A((2, 4)), A((), I, 0, 3)),
        None,
    ),
    OpSpec(
        "lax_dynamic_index_in_dim",
        lambda m: lambda x, i: m.lax.dynamic_index_in_dim(x, i, axis=1, keepdims=False),
        (A(S34), A((), I, 0, 4)),
        None,
    ),
    OpSpec(
        "lax_pad", lambda m: lambda x: m.lax.pad(x, 0.0, ((1, 2, 1), (0, -1, 0))), (A(S34),), None
    ),
    OpSpec("lax_rev", L("rev", dimensions=(0,)), (A(S34),), lambda x: x[::-1]),
    OpSpec(
        "lax_slice",
        L("slice", start_indices=(0, 1), limit_indices=(3, 4), strides=(2, 2)),
        (A(S34),),
        lambda x: x[0:3:2, 1:4:2],
    ),
    OpSpec(
        "lax_dot_general",
        L("dot_general", dimension_numbers=(((2,), (1,)), ((0,), (0,)))),
        (A(S234), A((2, 4, 5))),
        lambda a, b: np.einsum("bij,bjk->bik", a, b),
        grad=2,
    ),
    OpSpec("lax_reduce_sum", L("reduce_sum", axes=(0,)), (A(S34),), lambda x: x.sum(0)),
    OpSpec(
        "lax_cumsum_rev",
        L("cumsum", axis=1, reverse=True),
        (A(S34),),
        lambda x: np.flip(np.cumsum(np.flip(x, 1), 1), 1),
    ),
    OpSpec("lax_cummax", L("cummax", axis=1), (A(S34),), lambda x: np.maximum.accumulate(x, 1)),
    OpSpec("lax_cumprod", L("cumprod", axis=0), (A(S34, F, 0.5, 1.5),), lambda x: np.cumprod(x, 0)),
    OpSpec(
        "lax_argmax",
        L("argmax", axis=1, index_dtype="int32"),
        (A(S34),),
        lambda x: np.argmax(x, 1).astype("int32"),
        grad=0,
    ),
    OpSpec("lax_sort", L("sort", dimension=0), (A(S34),), lambda x: np.sort(x, 0)),
    OpSpec(
        "lax_sort_multi",
        lambda m: lambda k, v: m.lax.sort((k, v), num_keys=1),
        (A((6,), I, 0, 3), A((6,))),
        lambda k, v: (np.sort(k, kind="stable"), v[np.argsort(k, kind="stable")]),
    ),
    OpSpec(
        "lax_sort_key_val",
        L("sort_key_val"),
        (A(S34), A(S34)),
        lambda k, v: (np.sort(k), np.take_along_axis(v, np.argsort(k), -1)),
    ),
    OpSpec(
        "lax_top_k",
        L("top_k", k=2),
        (A(S34),),
        lambda x: (-np.sort(-x)[:, :2], np.argsort(-x, kind="stable")[:, :2]),
    ),
    OpSpec(
        "lax_reduce_window_max",
        lambda m: lambda x: m.lax.reduce_window(x, -np.inf, m.lax.max, (2, 2), (1, 2), "VALID"),
        (A((4, 6)),),
        None,
    ),
    OpSpec(
        "lax_reduce_window_sum_same",
        lambda m: lambda x: m.lax.reduce_window(x, 0.0, m.lax.add, (3, 3), (1, 1), "SAME"),
        (A((4, 5)),),
        None,
    ),
    OpSpec(
        "lax_conv_nchw",
        lambda m: lambda x, w: m.lax.conv_general_dilated(x, w, (1, 1), "SAME"),
        (A((2, 3, 5, 5)), A((4, 3, 3, 3))),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_conv_strided",
        lambda m: lambda x, w: m.lax.conv_general_dilated(x, w, (2, 1), ((1, 0), (0, 1))),
        (A((1, 2, 6, 5)), A((3, 2, 2, 3))),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_conv_nhwc",
        lambda m: (
            lambda x, w: m.lax.conv_general_dilated(
                x,
                w,
                (1, 1),
                "VALID",
                rhs_dilation=(2, 1),
                dimension_numbers=("NHWC", "HWIO", "NHWC"),
            )
        ),
        (A((2, 6, 5, 3)), A((2, 2, 3, 4))),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_conv_1d_lhs_dil",
        lambda m: lambda x, w: m.lax.conv_general_dilated(x, w, (1,), ((1, 1),), lhs_dilation=(2,)),
        (A((2, 3, 5)), A((4, 3, 3))),
        None,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_conv",
        lambda m: lambda x, w: m.lax.conv(x, w, (1, 1), "VALID"),
        (A((1, 2, 4, 4)), A((3, 2, 2, 2))),
        None,
        rtol=1e-4,
    ),
)

# ------------------------------------------------ primitives no other row reached
C64 = "complex64"
add(
    OpSpec("lax_real", L("real"), (A(S34, C64),), np.real, grad=0),
    OpSpec("lax_imag", L("imag"), (A(S34, C64),), np.imag, grad=0),
    OpSpec("lax_complex", L("complex"), (A(S34), A(S34)), lambda a, b: a + 1j * b, grad=0),
    OpSpec("lax_square", L("square"), (A(S34),), np.square),
    OpSpec("lax_cummin", L("cummin", axis=1), (A(S34),), lambda x: np.minimum.accumulate(x, 1)),
    OpSpec(
        "lax_reduce_xor",
        L("reduce_xor", axes=(1,)),
        (A(S34, B),),
        lambda x: np.logical_xor.reduce(x, 1),
        grad=0,
    ),
    OpSpec("sp_gammainc", SP("gammainc"), (A(S34, F, 0.5, 3), A(S34, F, 0.1, 3)), None, grad=0),
    OpSpec("sp_gammaincc", SP("gammaincc"), (A(S34, F, 0.5, 3), A(S34, F, 0.1, 3)), None, grad=0),
    OpSpec(
        "sp_betainc",
        SP("betainc"),
        (A(S34, F, 0.5, 3), A(S34, F, 0.5, 3), A(S34, F, 0.05, 0.95)),
        None,
        grad=0,
        rtol=1e-4,
    ),
    OpSpec("sp_i0e", SP("i0e"), (A(S34),), None, rtol=1e-5, grad=0),
    OpSpec("sp_i1e", SP("i1e"), (A(S34),), None, rtol=1e-5, grad=0),
    OpSpec("sp_log_ndtr", SP("log_ndtr"), (A(S34, F, -3, 3),), None, rtol=1e-5, grad=0),
)
