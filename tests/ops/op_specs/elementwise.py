"""Op-spec rows: unary and binary elementwise functions."""

from __future__ import annotations

import numpy as np

from ._base import S34, A, B, F, I, J, OpSpec, P, add

# ------------------------------------------------------------------- unary elementwise
_UNARY = [
    # name, lo, hi, grad order, numpy reference
    ("sin", -2, 2, 2, np.sin),
    ("cos", -2, 2, 2, np.cos),
    ("tan", -1.2, 1.2, 2, np.tan),
    ("arcsin", -0.9, 0.9, 2, np.arcsin),
    ("arccos", -0.9, 0.9, 2, np.arccos),
    ("arctan", -2, 2, 2, np.arctan),
    ("sinh", -2, 2, 2, np.sinh),
    ("cosh", -2, 2, 2, np.cosh),
    ("tanh", -2, 2, 2, np.tanh),
    ("arcsinh", -2, 2, 2, np.arcsinh),
    ("arccosh", 1.1, 3, 2, np.arccosh),
    ("arctanh", -0.9, 0.9, 2, np.arctanh),
    ("exp", -2, 2, 2, np.exp),
    ("exp2", -2, 2, 2, np.exp2),
    ("expm1", -2, 2, 2, np.expm1),
    ("log", 0.1, 3, 2, np.log),
    ("log2", 0.1, 3, 2, np.log2),
    ("log10", 0.1, 3, 2, np.log10),
    ("log1p", -0.5, 3, 2, np.log1p),
    ("sqrt", 0.1, 3, 2, np.sqrt),
    ("cbrt", 0.1, 3, 2, np.cbrt),
    ("square", -2, 2, 2, np.square),
    ("reciprocal", 0.5, 2, 2, np.reciprocal),
    ("negative", -2, 2, 1, np.negative),
    ("positive", -2, 2, 1, np.positive),
    ("abs", -2, 2, 1, np.abs),
    ("absolute", -2, 2, 1, np.abs),
    ("sign", -2, 2, 1, np.sign),
    ("floor", -2, 2, 1, np.floor),
    ("ceil", -2, 2, 1, np.ceil),
    ("rint", -2, 2, 1, np.rint),
    ("trunc", -2, 2, 1, np.trunc),
    ("deg2rad", -2, 2, 1, np.deg2rad),
    ("rad2deg", -2, 2, 1, np.rad2deg),
    ("degrees", -2, 2, 1, np.degrees),
    ("radians", -2, 2, 1, np.radians),
    ("sinc", -2, 2, 2, np.sinc),
    ("conj", -2, 2, 1, np.conj),
    ("conjugate", -2, 2, 1, np.conjugate),
    ("real", -2, 2, 1, np.real),
    ("imag", -2, 2, 0, np.imag),
    ("angle", 0.5, 2, 0, np.angle),
    ("nan_to_num", -2, 2, 1, np.nan_to_num),
    ("round", -2, 2, 1, np.round),
]
for _n, _lo, _hi, _g, _ref in _UNARY:
    add(OpSpec(_n, J(_n), (A(S34, F, _lo, _hi),), _ref, grad=_g))
    add(OpSpec(_n + "_scalar", J(_n), (A((), F, _lo, _hi),), _ref, grad=_g))

for _n, _ref in [
    ("isnan", np.isnan),
    ("isinf", np.isinf),
    ("isfinite", np.isfinite),
    ("signbit", np.signbit),
    ("logical_not", np.logical_not),
]:
    add(OpSpec(_n, J(_n), (A(S34),), _ref, grad=0))
add(
    OpSpec("sin_int", J("sin"), (A(S34, I, -3, 3),), np.sin, grad=0),
    OpSpec("exp_weak", J("exp"), (P(0.5),), np.exp, grad=0, vmap=False),
    OpSpec("negative_int", J("negative"), (A(S34, I, -5, 5),), np.negative, grad=0),
    OpSpec("abs_int", J("abs"), (A(S34, I, -5, 5),), np.abs, grad=0),
    OpSpec("square_int", J("square"), (A(S34, I, -5, 5),), np.square, grad=0),
    OpSpec("sign_int", J("sign"), (A(S34, I, -5, 5),), np.sign, grad=0),
    OpSpec("bitwise_not", J("bitwise_not"), (A(S34, I, -5, 5),), np.invert, grad=0),
    OpSpec("invert_bool", J("invert"), (A(S34, B),), np.invert, grad=0),
    OpSpec("round_2", J("round", decimals=2), (A(S34),), lambda x: np.round(x, 2), grad=0),
)

# ------------------------------------------------------------------ binary elementwise
_BINARY = [
    ("add", -2, 2, 2, np.add),
    ("subtract", -2, 2, 2, np.subtract),
    ("multiply", -2, 2, 2, np.multiply),
    ("divide", 0.5, 2, 2, np.divide),
    ("true_divide", 0.5, 2, 2, np.true_divide),
    ("power", 0.5, 2, 2, np.power),
    ("float_power", 0.5, 2, 1, np.float_power),
    ("maximum", -2, 2, 1, np.maximum),
    ("minimum", -2, 2, 1, np.minimum),
    ("fmax", -2, 2, 1, np.fmax),
    ("fmin", -2, 2, 1, np.fmin),
    ("arctan2", 0.5, 2, 2, np.arctan2),
    ("hypot", 0.5, 2, 2, np.hypot),
    ("logaddexp", -2, 2, 2, np.logaddexp),
    ("logaddexp2", -2, 2, 2, np.logaddexp2),
    ("copysign", -2, 2, 0, np.copysign),
    ("mod", 0.5, 2, 0, np.mod),
    ("remainder", 0.5, 2, 0, np.remainder),
    ("fmod", 0.5, 2, 0, np.fmod),
    ("floor_divide", 0.5, 2, 0, np.floor_divide),
    ("heaviside", -2, 2, 0, np.heaviside),
]
for _n, _lo, _hi, _g, _ref in _BINARY:
    add(OpSpec(_n, J(_n), (A(S34, F, _lo, _hi), A(S34, F, _lo, _hi)), _ref, grad=_g))
    add(OpSpec(_n + "_bcast", J(_n), (A((3, 1), F, _lo, _hi), A((4,), F, _lo, _hi)), _ref, grad=_g))
    add(OpSpec(_n + "_pyscalar", J(_n), (A(S34, F, _lo, _hi), P(1.5)), _ref, grad=_g))

for _n, _ref in [
    ("equal", np.equal),
    ("not_equal", np.not_equal),
    ("less", np.less),
    ("less_equal", np.less_equal),
    ("greater", np.greater),
    ("greater_equal", np.greater_equal),
]:
    add(OpSpec(_n, J(_n), (A(S34, I, -2, 2), A(S34, I, -2, 2)), _ref, grad=0))
    add(OpSpec(_n + "_f", J(_n), (A(S34), P(0.0)), _ref, grad=0))

for _n, _ref in [
    ("bitwise_and", np.bitwise_and),
    ("bitwise_or", np.bitwise_or),
    ("bitwise_xor", np.bitwise_xor),
    ("floor_divide", np.floor_divide),
    ("mod", np.mod),
    ("remainder", np.remainder),
    ("fmod", np.fmod),
    ("add", np.add),
    ("multiply", np.multiply),
    ("maximum", np.maximum),
]:
    add(OpSpec(_n + "_int", J(_n), (A(S34, I, -9, 9), A(S34, I, 1, 5)), _ref, grad=0))
add(
    OpSpec(
        "left_shift", J("left_shift"), (A(S34, I, -9, 9), A(S34, I, 0, 5)), np.left_shift, grad=0
    ),
    OpSpec(
        "right_shift", J("right_shift"), (A(S34, I, -9, 9), A(S34, I, 0, 5)), np.right_shift, grad=0
    ),
    OpSpec("power_int", J("power"), (A(S34, I, -3, 3), A(S34, I, 0, 4)), np.power, grad=0),
    OpSpec("power_pyint", J("power"), (A(S34), P(3)), lambda x, y: x**y, grad=2),
    OpSpec("int_plus_pyfloat", J("add"), (A(S34, I, -3, 3), P(1.5)), np.add, grad=0),
    OpSpec("int_times_pyint", J("multiply"), (A(S34, I, -3, 3), P(2)), np.multiply, grad=0),
    OpSpec("bool_plus_bool", J("add"), (A(S34, B), A(S34, B)), np.logical_or, grad=0),
    OpSpec("int8_plus_f32", J("add"), (A(S34, "int8", -3, 3), A(S34)), np.add, grad=0),
    OpSpec("u8_plus_i8", J("add"), (A(S34, "uint8", 0, 3), A(S34, "int8", -3, 3)), np.add, grad=0),
    OpSpec(
        "f16_times_f32",
        J("multiply"),
        (A(S34, "float16"), A(S34)),
        np.multiply,
        grad=0,
        rtol=1e-3,
        atol=1e-3,
    ),
)
for _n, _ref in [
    ("logical_and", np.logical_and),
    ("logical_or", np.logical_or),
    ("logical_xor", np.logical_xor),
]:
    add(OpSpec(_n, J(_n), (A(S34, B), A(S34, B)), _ref, grad=0))
    add(OpSpec(_n + "_f", J(_n), (A(S34, I, 0, 2), A(S34, I, 0, 2)), _ref, grad=0))

add(
    OpSpec("where", J("where"), (A(S34, B), A(S34), A(S34)), np.where),
    OpSpec("where_bcast", J("where"), (A((3, 1), B), A((4,)), P(0.0)), np.where),
    OpSpec("clip", J("clip", min=-0.5, max=0.7), (A(S34),), lambda x: np.clip(x, -0.5, 0.7)),
    OpSpec(
        "clip_arrays",
        lambda m: lambda x, lo, hi: m.jnp.clip(x, lo, hi),
        (A(S34), A((4,), F, -1, -0.5), A((3, 1), F, 0.5, 1)),
        np.clip,
    ),
    OpSpec("isclose", J("isclose"), (A(S34), A(S34)), np.isclose, grad=0),
    OpSpec(
        "isclose_same",
        lambda m: lambda x: m.jnp.isclose(x, x + 1e-9),
        (A(S34),),
        lambda x: np.isclose(x, x + 1e-9),
        grad=0,
    ),
    OpSpec(
        "allclose",
        lambda m: lambda x: m.jnp.allclose(x, x * 1.0000001),
        (A(S34),),
        lambda x: np.allclose(x, x),
        grad=0,
        vmap=False,
    ),
    OpSpec(
        "array_equal",
        lambda m: lambda x, y: m.jnp.array_equal(x, y),
        (A(S34, I, 0, 2), A(S34, I, 0, 2)),
        np.array_equal,
        grad=0,
    ),
)
