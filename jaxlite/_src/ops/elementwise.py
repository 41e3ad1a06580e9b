"""Elementwise primitives. Each primitive: its factory call, then its JVP/transpose rules,
then its ``lax``-level wrapper."""

from __future__ import annotations

import numpy as np

import jaxlite._src.ops.complex_elementary as _cx
import jaxlite._src.ops.const_chains as _chains
import jaxlite._src.ops.xla_math_flag as _xm
from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, check_not_linear, is_undefined_primal, not_mapped
from jaxlite._src.ops import _kernels, _native, conversion, division, shape as _shape, structural
from jaxlite._src.ops._factories import (
    ANY,
    FLOAT,
    INEXACT,
    INT,
    INTBOOL,
    NUM,
    broadcast_batcher,
    defadditive,
    defjvp,
    defjvp2,
    deflinear,
    defnative,
    naryop,
    non_differentiable,
    unop,
)
from jaxlite._src.ops.minmax_native import max_p, min_p
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


# --------------------------------------------------------------------- argument handling
def _lax_args(*args):
    """JAX's lax-level leniency: weakly typed operands take the strong operands' dtype and
    rank-0 operands broadcast to the common shape."""
    avals = [aval_of(a) for a in args]
    strong = [a.dtype for a in avals if not a.weak_type]
    if strong:
        target = strong[0]
    else:
        target = dtypes.promote_dtypes_weak([(a.dtype, True) for a in avals])[0]
        if len({a.dtype for a in avals}) == 1:
            target = avals[0].dtype
    out = []
    for a, av in zip(args, avals):
        if av.weak_type and av.dtype != target:
            a = conversion.convert_element_type(a, target, weak_type=not strong)
        out.append(a)
    return out


def _un(p):
    def f(x):
        return p.bind(x)

    f.__name__ = p.name
    return f


def _bin(p):
    def f(x, y):
        return p.bind(*_lax_args(x, y))

    f.__name__ = p.name
    return f


_bool = lambda *ds: dtypes.bool_  # noqa: E731


def _float_only(fn):
    return fn


# ------------------------------------------------------------------------------ unary
neg_p = unop("neg", np.negative, NUM, native="-{0}")
deflinear(neg_p, lambda ct, x: [Zero(x.aval) if type(ct) is Zero else neg(ct)])

sign_p = unop("sign", _cx.split(_kernels.sign, _cx.sign), NUM, native="np.sign({0})")
non_differentiable(sign_p)
floor_p = unop("floor", np.floor, FLOAT, native="np.floor({0})")
non_differentiable(floor_p)
ceil_p = unop("ceil", np.ceil, FLOAT, native="np.ceil({0})")
non_differentiable(ceil_p)


def _round_impl(x, *, rounding_method):
    if rounding_method == 0:  # AWAY_FROM_ZERO
        return np.copysign(np.floor(np.abs(x) + np.asarray(0.5, x.dtype)), x).astype(x.dtype)
    return np.round(x)


round_p = unop("round", _round_impl, FLOAT)


def _round_native(ctx, eqn, ins, outs, *, rounding_method):
    # Same operations as _round_impl (np.round to 0 decimals is np.rint: half to even).
    x = eqn.invars[0].aval
    if np.dtype(x.dtype).kind != "f":
        return None
    if rounding_method != 0:
        return [f"{outs[0]} = {ctx.typed(f'np.rint({ins[0]})', eqn.outvars[0].aval)}"]
    half = ctx.const(np.asarray(0.5, x.dtype))
    expr = f"np.copysign(np.floor(np.abs({ins[0]}) + {half}), {ins[0]})"
    return [f"{outs[0]} = {ctx.typed(expr, eqn.outvars[0].aval)}"]


rules.native_rules[round_p] = lambda ctx, eqn, ins, outs: _round_native(
    ctx, eqn, ins, outs, **eqn.params
)
rules.native_elementwise.add(round_p)
non_differentiable(round_p)
is_finite_p = unop("is_finite", np.isfinite, FLOAT, out_dtype=_bool, native="np.isfinite({0})")
non_differentiable(is_finite_p)

exp_p = unop("exp", _cx.split(_xm.exp, _cx.exp), INEXACT, native=_native.exp)
defjvp2(exp_p, lambda t, ans, x: mul(t, ans))
exp2_p = unop("exp2", _cx.split(np.exp2, _cx.exp2), INEXACT, native="np.exp2({0})")
defjvp2(exp2_p, lambda t, ans, x: mul(log(_formula_const(x, 2)), mul(t, ans)))
log_p = unop("log", _cx.split(_xm.log, _cx.log), INEXACT, native=_native.log)
defjvp(log_p, lambda t, x: div(t, x))
log1p_p = unop("log1p", _cx.split(np.log1p, _cx.log1p), INEXACT, native="np.log1p({0})")
defjvp(log1p_p, lambda t, x: div(t, add(x, _const(x, 1))))
expm1_p = unop("expm1", _cx.split(np.expm1, _cx.expm1), INEXACT, native="np.expm1({0})")
defjvp2(expm1_p, lambda t, ans, x: mul(t, add(ans, _const(x, 1))))
tanh_p = unop("tanh", _cx.split(_xm.tanh, _cx.tanh), INEXACT, native=_native.tanh)
defjvp2(tanh_p, lambda t, ans, x: mul(add(t, mul(t, ans)), sub(_const(x, 1), ans)))


def _special_impl(name):
    # scipy.special.<name> in the operand's dtype, looked up at the call (SciPy then loads
    # scipy.special at the first one, not when jaxlite is imported).
    return lambda x: getattr(scipy.special, name)(x).astype(x.dtype, copy=False)


logistic_p = unop(
    "logistic", _cx.split(_special_impl("expit"), _cx.logistic), INEXACT, native=_native.logistic
)
defjvp2(logistic_p, lambda t, ans, x: mul(t, mul(ans, sub(_const(x, 1), ans))))
sin_p = unop("sin", _cx.split(_xm.sin, _cx.sin), INEXACT, native="np.sin({0})")
defjvp(sin_p, lambda t, x: mul(t, cos(x)))
cos_p = unop("cos", _cx.split(_xm.cos, _cx.cos), INEXACT, native="np.cos({0})")
defjvp(cos_p, lambda t, x: neg(mul(t, sin(x))))
tan_p = unop("tan", _cx.split(_xm.tan, _cx.tan), INEXACT, native="np.tan({0})")
defjvp2(tan_p, lambda t, ans, x: mul(t, add(_formula_const(x, 1), square(ans))))
asin_p = unop("asin", _cx.split(np.arcsin, _cx.asin), INEXACT, native="np.arcsin({0})")
defjvp(asin_p, lambda t, x: mul(t, rsqrt(sub(_formula_const(x, 1), square(x)))))
acos_p = unop("acos", _cx.split(np.arccos, _cx.acos), INEXACT, native="np.arccos({0})")
defjvp(acos_p, lambda t, x: mul(t, neg(rsqrt(sub(_formula_const(x, 1), square(x))))))
atan_p = unop("atan", _cx.split(_xm.arctan, _cx.atan), INEXACT, native="np.arctan({0})")
defjvp(atan_p, lambda t, x: div(t, add(_formula_const(x, 1), square(x))))
sinh_p = unop("sinh", _cx.split(np.sinh, _cx.sinh), INEXACT, native="np.sinh({0})")
defjvp(sinh_p, lambda t, x: mul(t, cosh(x)))
cosh_p = unop("cosh", _cx.split(np.cosh, _cx.cosh), INEXACT, native="np.cosh({0})")
defjvp(cosh_p, lambda t, x: mul(t, sinh(x)))
asinh_p = unop("asinh", _cx.split(np.arcsinh, _cx.asinh), INEXACT, native="np.arcsinh({0})")
defjvp(asinh_p, lambda t, x: mul(t, rsqrt(add(square(x), _const(x, 1)))))
acosh_p = unop("acosh", _cx.split(np.arccosh, _cx.acosh), INEXACT, native="np.arccosh({0})")
defjvp(acosh_p, lambda t, x: mul(t, rsqrt(sub(square(x), _const(x, 1)))))
atanh_p = unop("atanh", _cx.split(np.arctanh, _cx.atanh), INEXACT, native="np.arctanh({0})")
defjvp(
    atanh_p,
    lambda t, x: mul(integer_pow(add(_const(x, 1), x), -1), div(t, sub(_const(x, 1), x))),
)
sqrt_p = unop("sqrt", _cx.split(np.sqrt, _cx.sqrt), INEXACT, native="np.sqrt({0})")
defjvp2(sqrt_p, lambda t, ans, x: mul(t, div(_formula_const(x, 0.5), ans)))


def _rsqrt_impl(x):
    return (np.asarray(1, x.dtype) / np.sqrt(x)).astype(x.dtype, copy=False)


rsqrt_p = unop("rsqrt", _cx.split(_rsqrt_impl, _cx.rsqrt), INEXACT)


def _rsqrt_native(ctx, eqn, ins, outs):
    x = eqn.invars[0].aval
    if np.dtype(x.dtype).kind != "f":
        return None
    one = ctx.const(np.ones((), x.dtype))
    return [f"{outs[0]} = {ctx.typed(f'{one} / np.sqrt({ins[0]})', eqn.outvars[0].aval)}"]


rules.native_rules[rsqrt_p] = _rsqrt_native
rules.native_elementwise.add(rsqrt_p)
defjvp2(rsqrt_p, lambda t, ans, x: mul(t, mul(_formula_const(x, -0.5), div(ans, x))))
cbrt_p = unop("cbrt", np.cbrt, FLOAT)
defjvp2(cbrt_p, lambda t, ans, x: mul(t, mul(_formula_const(x, 1 / 3), integer_pow(ans, -2))))


def _abs_out(d):
    return {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}.get(d, d)


abs_p = unop("abs", _cx.split(np.abs, _cx.abs_), NUM, out_dtype=None, native="np.abs({0})")
rules.abstract_eval_rules[abs_p] = lambda x: ShapedArray(x.shape, _abs_out(x.dtype), x.weak_type)


def _abs_jvp(t, ans, x):
    if dtypes.is_complex(aval_of(x).dtype):
        # conj(x) / |x|, with |x| read as 1 where it is 0: the derivative at 0 is 0 (JAX's
        # convention, as for real abs, rather than 0 / 0)
        r = convert_element_type_like(ans, x)
        r = select_n(eq(r, _const(r, 0)), r, _const(r, 1))
        return real(mul(t, div(conj(x), r)))
    # JAX's convention: the derivative is +1 at 0 (and -1 at NaN).
    return select_n(ge(x, _const(x, 0)), neg(t), t)


defjvp2(abs_p, _abs_jvp)

not_p = unop("not", np.invert, INTBOOL)
rules.native_rules[not_p] = lambda ctx, eqn, ins, outs: [
    f"{outs[0]} = "
    + ctx.typed(
        f"np.logical_not({ins[0]})" if eqn.invars[0].aval.dtype == np.bool_ else f"~{ins[0]}",
        eqn.outvars[0].aval,
    )
]
rules.native_elementwise.add(not_p)
non_differentiable(not_p)


erf_p = unop("erf", _special_impl("erf"), FLOAT)
defjvp(erf_p, lambda t, x: mul(_formula_const(x, 2 / np.sqrt(np.pi)), mul(t, exp(neg(square(x))))))
erfc_p = unop("erfc", _special_impl("erfc"), FLOAT)
defjvp(
    erfc_p, lambda t, x: mul(_formula_const(x, -2 / np.sqrt(np.pi)), mul(t, exp(neg(square(x)))))
)
erf_inv_p = unop("erf_inv", _special_impl("erfinv"), FLOAT)
defjvp2(
    erf_inv_p,
    lambda t, ans, x: mul(_formula_const(x, np.sqrt(np.pi) / 2), mul(t, exp(square(ans)))),
)


lgamma_p = unop("lgamma", _kernels.lgamma, FLOAT)
defjvp(lgamma_p, lambda t, x: mul(t, digamma(x)))
digamma_p = unop("digamma", _kernels.digamma, FLOAT)


# polygamma of a static order m: digamma's derivatives, each differentiable (hessians).
polygamma_p = unop("polygamma", _kernels.polygamma, FLOAT)


def _polygamma_jvp(t, x, *, m=0):
    # JAX's polygamma takes the order as an operand, a formula constant (strong for arrays).
    a, d = aval_of(x), polygamma_p.bind(x, m=m + 1)
    return mul(t, conversion.convert_element_type(d, a.dtype, _formula_weak(a)))


defjvp(polygamma_p, _polygamma_jvp)
defjvp(digamma_p, _polygamma_jvp)


population_count_p = unop(
    "population_count", _kernels.popcount, INT, native=_native.population_count
)
non_differentiable(population_count_p, refuse=True)

real_p = unop("real", np.real, "c", out_dtype=_abs_out)
deflinear(  # JAX's zeros here are NumPy constants: the cotangent is strong
    real_p, lambda c, x: [Zero(x.aval) if type(c) is Zero else complex_(c, _shape.zero_strong(c))]
)
imag_p = unop("imag", np.imag, "c", out_dtype=_abs_out)
deflinear(
    imag_p, lambda c, x: [Zero(x.aval) if type(c) is Zero else complex_(_shape.zero_strong(c), -c)]
)
conj_p = unop("conj", np.conj, INEXACT)
deflinear(conj_p, lambda ct, x: [Zero(x.aval) if type(ct) is Zero else conj(ct)])


def _pow_by_squaring(x, n, mul2):
    """``x ** n`` (``n >= 1``) by squaring, in the order of JAX's ``integer_pow`` lowering."""
    acc = None
    while n > 0:
        if n & 1:
            acc = x if acc is None else mul2(acc, x)
        n >>= 1
        if n > 0:
            x = mul2(x, x)
    return acc


def _integer_pow_impl(x, *, y):
    if y == 0:
        return np.ones_like(x)
    if y < 0 and dtypes.is_int(x.dtype):
        return np.asarray(1 // x**-y, x.dtype)
    out = _pow_by_squaring(x, -y if y < 0 else y, lambda a, b: np.asarray(a * b, x.dtype))
    if y < 0:
        out = division.divide_exact(np.ones((), x.dtype), np.asarray(out))
    return np.asarray(out, dtype=x.dtype)


integer_pow_p = unop("integer_pow", _integer_pow_impl, NUM)


def _integer_pow_native(ctx, eqn, ins, outs):
    # The multiplications of _integer_pow_impl (_pow_by_squaring), in the same order
    # (bit-identical).
    y, aval = eqn.params["y"], eqn.outvars[0].aval
    kind = np.dtype(aval.dtype).kind
    if (y < 0 and kind != "f") or kind not in "fiu":
        return None
    if y == 0:
        one = ctx.const(np.ones(aval.shape, aval.dtype))
        return [f"{outs[0]} = {one}" if aval.shape == () else f"{outs[0]} = {one}.copy()"]
    lines, acc, base, n = [], None, ins[0], -y if y < 0 else y
    while n > 0:
        if n & 1:
            rhs = base if acc is None else ctx.typed(f"{acc} * {base}", aval)
            lines.append(f"{outs[0]} = {rhs}")
            acc = outs[0]
        n >>= 1
        if n > 0:
            lines.append(f"{outs[0]}_sq = {ctx.typed(f'{base} * {base}', aval)}")
            base = f"{outs[0]}_sq"
    if y < 0:
        one = ctx.const(np.ones((), aval.dtype))
        lines.append(f"{outs[0]} = {ctx.typed(f'{one} / {outs[0]}', aval)}")
    return lines


rules.native_rules[integer_pow_p] = _integer_pow_native
rules.native_elementwise.add(integer_pow_p)


def _integer_pow_jvp(t, x, *, y):
    if y in (0, 1):
        return zeros_like(t) if y == 0 else t
    # JAX's formulas (x ** 1 is not formed for y == 2), so float16 rounding matches.
    return mul(t, mul(_formula_const(x, y), x if y == 2 else integer_pow(x, y - 1)))


defjvp(integer_pow_p, _integer_pow_jvp)

square_p = unop("square", _cx.split(np.square, _cx.square), NUM, native="{0} * {0}")
defjvp(square_p, lambda t, x: mul(t, mul(_formula_const(x, 2), x)))

# ----------------------------------------------------------------------------- binary
add_p = naryop("add", np.add, [NUM, NUM], native="{0} + {1}")
defadditive(add_p, lambda ct, x, y: _unbroadcast_pair(ct, x, y, neg_y=False))
sub_p = naryop("sub", np.subtract, [NUM, NUM], native="{0} - {1}")
defadditive(sub_p, lambda ct, x, y: _unbroadcast_pair(ct, x, y, neg_y=True), neg_p.bind)


def _unbroadcast_pair(ct, x, y, neg_y):
    if type(ct) is Zero:
        return [
            Zero(x.aval) if is_undefined_primal(x) else None,
            Zero(y.aval) if is_undefined_primal(y) else None,
        ]
    return [
        unbroadcast(ct, x.aval) if is_undefined_primal(x) else None,
        unbroadcast(neg(ct) if neg_y else ct, y.aval) if is_undefined_primal(y) else None,
    ]


def unbroadcast(ct, aval):
    """Sum a full-shape cotangent down to the shape of an operand that broadcast: a rank-0
    operand, or one whose size-1 dimensions were stretched (lax-level broadcasting)."""
    ct_shape = aval_of(ct).shape
    if ct_shape == aval.shape:
        return ct
    from jaxlite._src.ops import reductions

    if aval.shape == ():
        return reductions.reduce_sum(ct, tuple(range(len(ct_shape))))
    dims = tuple(i for i, (a, c) in enumerate(zip(aval.shape, ct_shape)) if a == 1 and c != 1)
    return _shape.reshape(reductions.reduce_sum(ct, dims), aval.shape)


mul_p = naryop("mul", np.multiply, [NUM, NUM], native="{0} * {1}")
defjvp(mul_p, lambda t, x, y: mul(t, y), lambda t, x, y: mul(x, t))


def _mul_transpose(ct, x, y):
    if is_undefined_primal(x) and is_undefined_primal(y):
        raise ValueError("mul is not linear in both arguments at once (nonlinear transpose)")
    if is_undefined_primal(x):
        return [Zero(x.aval) if type(ct) is Zero else unbroadcast(mul(ct, y), x.aval), None]
    return [None, Zero(y.aval) if type(ct) is Zero else unbroadcast(mul(x, ct), y.aval)]


rules.transpose_rules[mul_p] = _mul_transpose


div_p = naryop("div", division.divide_eager, [NUM, NUM])
defnative(div_p, _native.div_rem("{0} / {1}", rem=False))
# Compiled code divides exactly; a division by a broadcast becomes ``div_recip`` first.
rules.lower_rules[div_p] = lambda ctx, eqn, ins, outs: [
    f"{outs[0]} = {ctx.add_global(division.divide_exact, '_div')}({ins[0]}, {ins[1]})"
]
_chains.register(add_p, sub_p, mul_p, div_p)
# JAX's formulas, in its order of operations (the rounding of float16 hessians matches).
defjvp(
    div_p,
    lambda t, x, y: div(t, y),
    lambda t, x, y: mul(mul(neg(t), x), integer_pow(y, -2)),
)


def _div_transpose(ct, x, y):
    assert is_undefined_primal(x) and not is_undefined_primal(y)
    return [Zero(x.aval) if type(ct) is Zero else unbroadcast(div(ct, y), x.aval), None]


rules.transpose_rules[div_p] = _div_transpose
# div_recip (compiled code only) is the same function: the same derivatives.
rules.jvp_rules[division.div_recip_p] = rules.jvp_rules[div_p]
rules.transpose_rules[division.div_recip_p] = _div_transpose


def _rem_impl(x, y):
    if dtypes.is_int(x.dtype):
        # XLA: the remainder of x / 0 is x (and INT_MIN rem -1 is 0).
        with np.errstate(all="ignore"):
            r = np.fmod(x, np.where(y == 0, 1, y).astype(x.dtype))
        return np.where(y == 0, x, r).astype(x.dtype)
    return np.fmod(x, y)


rem_p = naryop("rem", _rem_impl, ["fiu", "fiu"])
defnative(rem_p, _native.div_rem("np.fmod({0}, {1})", rem=True))
defjvp(
    rem_p,
    lambda t, x, y: t,
    lambda t, x, y: mul(neg(t), mul(sign(div(x, y)), floor(abs(div(x, y))))),
)


pow_p = naryop(
    "pow", _cx.split(_xm.power, _cx.power), [INEXACT, INEXACT], native="np.power({0}, {1})"
)


_strong = lambda x: conversion.convert_element_type(x, aval_of(x).dtype, weak_type=False)


# Pow's JVP as JAX 0.10's, from strong x and y: d/dx = y x**(y-1), d/dy = log(x) x**y
# (the primal output itself, not a second pow: under jvp of grad every pow the rules bind
# is differentiated again, so a recomputed x**y doubles the pows of higher derivatives).
def _pow_jvp_x(t, ans, x, y):
    return mul(t, mul(_strong(y), pow(_strong(x), sub(_strong(y), _const(_strong(y), 1)))))


def _pow_jvp_y(t, ans, x, y):
    # log of x with its zeros replaced by 1 (0 there): selecting after log(0) = -inf would
    # leak NaN into a second reverse derivative (the masked branch's 0 cotangent times
    # log's derivative 1 / 0), where JAX's log(select(x == 0, 1, x)) gives 0
    safe_log = log(select_n(eq(x, _const(x, 0)), x, _const(x, 1)))
    return _strong(mul(t, mul(safe_log, ans)))


def _bcast_like(x, like):
    shape = aval_of(like).shape
    return x if aval_of(x).shape == shape else _shape.broadcast_to_rank(x, shape)


defjvp2(pow_p, _pow_jvp_x, _pow_jvp_y)


def _balanced_eq(x, z, y):
    # Gradient of max/min: 1 where x is the result, split evenly between tied operands, and
    # 0 where neither operand equals the result (a NaN), as in JAX.
    one = _const(z, 1)
    share = select_n(eq(y, z), one, _const(z, 0.5))
    share = _bcast_like(share, z)
    return select_n(_bcast_like(eq(x, z), z), zeros_like(share), share)


defjvp2(
    max_p,
    lambda t, ans, x, y: mul(t, _balanced_eq(x, ans, y)),
    lambda t, ans, x, y: mul(t, _balanced_eq(y, ans, x)),
)
defjvp2(
    min_p,
    lambda t, ans, x, y: mul(t, _balanced_eq(x, ans, y)),
    lambda t, ans, x, y: mul(t, _balanced_eq(y, ans, x)),
)

atan2_p = naryop("atan2", _xm.arctan2, [INEXACT, INEXACT], native="np.arctan2({0}, {1})")
defjvp(
    atan2_p,
    lambda t, x, y: mul(t, div(y, add(mul(x, x), mul(y, y)))),
    lambda t, x, y: mul(t, div(neg(x), add(mul(x, x), mul(y, y)))),
)
nextafter_p = naryop("nextafter", _kernels.nextafter, [FLOAT, FLOAT])
rules.no_derivative(nextafter_p)  # JAX has none (nor jnp.spacing): raise, not zero


def _complex_out(a, b):
    return {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}[a]


def _make_complex(x, y):
    """``x + i y`` built from its parts (not by arithmetic: ``1j * inf`` is ``nan + inf j``
    and ``-0.0 + 0j`` loses the zero's sign)."""
    x, y = np.broadcast_arrays(np.asarray(x), np.asarray(y))
    out = np.empty(x.shape, _complex_out(x.dtype, 0))
    out.real = x
    out.imag = y
    return out


complex_p = naryop("complex", _make_complex, [FLOAT, FLOAT], out_dtype=_complex_out)
deflinear(
    complex_p,
    lambda ct, x, y: [
        unbroadcast(real(ct), x.aval) if is_undefined_primal(x) else None,
        unbroadcast(neg(imag(ct)), y.aval) if is_undefined_primal(y) else None,
    ],
)

and_p = naryop("and", np.bitwise_and, [INTBOOL, INTBOOL], native="{0} & {1}")
or_p = naryop("or", np.bitwise_or, [INTBOOL, INTBOOL], native="{0} | {1}")
xor_p = naryop("xor", np.bitwise_xor, [INTBOOL, INTBOOL], native="{0} ^ {1}")
for _p in (and_p, or_p, xor_p):
    non_differentiable(_p)


def _shift_left(x, y):
    nbits = x.dtype.itemsize * 8
    return np.where((y < 0) | (y >= nbits), 0, np.left_shift(x, np.where(y < 0, 0, y) % nbits))


def _shift_right_arith(x, y):
    x = np.asarray(x)
    nbits = x.dtype.itemsize * 8
    # An out-of-range amount (negative or >= the width) fills with the sign bit, as XLA.
    yc = np.where((y < 0) | (y >= nbits), nbits - 1, y)
    # The top bit is the sign whatever the dtype: unsigned values shift as their signed
    # view does (NumPy's >> of an unsigned array is a logical shift).
    sdt = np.dtype(f"int{nbits}")
    return np.right_shift(x.view(sdt), yc.astype(sdt)).view(x.dtype)


def _shift_right_logical(x, y):
    udt = np.dtype(f"uint{x.dtype.itemsize * 8}")
    nbits = x.dtype.itemsize * 8
    out = np.right_shift(x.view(udt), np.clip(y, 0, nbits - 1).astype(udt)).view(x.dtype)
    return np.where((y < 0) | (y >= nbits), 0, out).astype(x.dtype)


shift_left_p = naryop("shift_left", _shift_left, [INT, INT])
shift_right_arithmetic_p = naryop("shift_right_arithmetic", _shift_right_arith, [INT, INT])
shift_right_logical_p = naryop("shift_right_logical", _shift_right_logical, [INT, INT])
for _p in (shift_left_p, shift_right_arithmetic_p, shift_right_logical_p):
    non_differentiable(_p)


for _p, _op, _clip in (
    (shift_left_p, "<<", False),
    (shift_right_arithmetic_p, ">>", True),
    (shift_right_logical_p, ">>>", False),
):
    rules.native_rules[_p] = _native.shift_rule(_op, _clip)
    rules.native_elementwise.add(_p)

eq_p = naryop("eq", np.equal, [ANY, ANY], out_dtype=_bool, native="{0} == {1}")
ne_p = naryop("ne", np.not_equal, [ANY, ANY], out_dtype=_bool, native="{0} != {1}")
lt_p = naryop("lt", np.less, [NUM + "b", NUM + "b"], out_dtype=_bool, native="{0} < {1}")
le_p = naryop("le", np.less_equal, [NUM + "b", NUM + "b"], out_dtype=_bool, native="{0} <= {1}")
gt_p = naryop("gt", np.greater, [NUM + "b", NUM + "b"], out_dtype=_bool, native="{0} > {1}")
ge_p = naryop("ge", np.greater_equal, [NUM + "b", NUM + "b"], out_dtype=_bool, native="{0} >= {1}")
for _p in (eq_p, ne_p, lt_p, le_p, gt_p, ge_p):
    non_differentiable(_p)

# ------------------------------------------------------------------------------ select_n
select_n_p = Primitive("select_n")


def _select_n_impl(which, *cases):
    if len(cases) == 1:
        return cases[0]
    if which.dtype == np.bool_:
        return np.where(which, cases[1], cases[0])
    return np.choose(which, cases, mode="clip")  # out of range: the nearest case, as XLA


def _select_n_abstract_eval(which, *cases):
    if not cases:
        raise TypeError("select_n must have at least one case")
    if any(c.shape != cases[0].shape for c in cases):  # JAX's order: shapes, then dtypes
        raise TypeError(f"select cases must have the same shapes, got {[c.shape for c in cases]}.")
    if which.shape not in ((), cases[0].shape):
        raise TypeError(
            "select `which` must be scalar or have the same shape as cases, got "
            f"`which` shape {which.shape} but case shape {cases[0].shape}."
        )
    if any(c.dtype != cases[0].dtype for c in cases):
        got, tip = ", ".join(c.dtype.name for c in cases), "jnp.where is a similar function"
        raise TypeError(
            f"lax.select requires arguments to have the same dtypes, got {got}. (Tip: {tip} "
            "that does automatic type promotion on inputs)."
        )
    if which.dtype != dtypes.bool_ and not dtypes.is_int(which.dtype):
        raise TypeError(f"select `which` must be boolean or integer type, got {which.dtype.name}.")
    if which.dtype == dtypes.bool_ and len(cases) > 2:
        raise TypeError("select_n with a boolean predicate takes at most two cases")
    return ShapedArray(cases[0].shape, cases[0].dtype, all(c.weak_type for c in cases))


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = select_n_p.bind(which, *cases)
    ts = tangents[1:]
    if all(type(t) is Zero for t in ts):
        return out, Zero(aval_of(out).to_tangent_aval())
    ts = [structural.instantiate(t) for t in ts]
    return out, select_n_p.bind(which, *ts)


def _select_n_transpose(ct, which, *cases):
    check_not_linear("select_n", "predicate", which)
    outs = [None]
    for i, c in enumerate(cases):
        if not is_undefined_primal(c):
            outs.append(None)
        elif type(ct) is Zero:
            outs.append(Zero(c.aval))
        else:
            z = zeros_like(ct)
            branches = [z] * len(cases)
            branches[i] = ct
            outs.append(select_n_p.bind(which, *branches))
    return outs


def _select_n_batch(axis_data, args, dims):
    which, *cases = args
    dw, *dcs = dims
    size = axis_data.size

    case_shape = None
    for c, d in zip(cases, dcs):
        if d is not not_mapped:
            s = list(aval_of(c).shape)
            s.pop(d)
            case_shape = tuple(s)
            break
    if case_shape is None:
        case_shape = aval_of(cases[0]).shape
    new_cases = [
        _shape.broadcast_batch(c, size) if d is not_mapped else _shape.moveaxis(c, d, 0)
        for c, d in zip(cases, dcs)
    ]
    w = which
    if dw is not_mapped:
        if aval_of(w).shape != ():
            w = _shape.broadcast_batch(w, size)
    else:
        w = _shape.moveaxis(w, dw, 0)
        if aval_of(w).ndim == 1 and case_shape != ():
            w = _shape.broadcast_in_dim(w, (size,) + case_shape, (0,))
    return select_n_p.bind(w, *new_cases), 0


rules.impl_rules[select_n_p] = _select_n_impl


def _select_n_native(ctx, eqn, ins, outs):
    which, cases = ins[0], ins[1:]
    aval = eqn.outvars[0].aval
    if eqn.invars[0].aval.dtype == np.bool_:
        conds = [which]
    else:  # an integer index: the last case k with which >= k (clamped, as XLA)
        conds = [
            f"{which} >= {ctx.const(np.asarray(k, eqn.invars[0].aval.dtype))}"
            for k in range(1, len(cases))
        ]
    expr = cases[0]
    scalar = aval.shape == ()
    for k, cond in enumerate(conds):
        if scalar:
            expr = f"({cases[k + 1]} if {cond} else {expr})"
        else:
            expr = f"np.where({cond}, {cases[k + 1]}, {expr})"
    return [f"{outs[0]} = {ctx.typed(expr, aval)}"]


rules.native_rules[select_n_p] = _select_n_native
rules.native_elementwise.add(select_n_p)
rules.abstract_eval_rules[select_n_p] = _select_n_abstract_eval
rules.jvp_rules[select_n_p] = _select_n_jvp
rules.transpose_rules[select_n_p] = _select_n_transpose
rules.batch_rules[select_n_p] = _select_n_batch
rules.simplify_rules[select_n_p] = _chains.select_same_cases


def select_n(which, *cases):
    """``jax.lax.select_n``: ``cases[which]`` elementwise (bool ``which``: False -> 0)."""
    cases = _lax_args(*cases) if len(cases) > 1 else list(cases)
    return select_n_p.bind(which, *cases)


def select(pred, on_true, on_false):
    """``jax.lax.select``."""
    return select_n(pred, on_false, on_true)


# Kernels that can hit IEEE exceptions (log(0), 1/0, overflow...) where JAX stays silent.
rules.quiet_fp.update([
    exp_p, exp2_p, expm1_p, log_p, log1p_p, tan_p, asin_p, acos_p, sinh_p, cosh_p, acosh_p,
    atanh_p, sqrt_p, rsqrt_p, erf_inv_p, lgamma_p, digamma_p, polygamma_p, integer_pow_p,
    square_p, div_p, rem_p, pow_p, logistic_p,
])  # fmt: skip

# --------------------------------------------------------------------------- wrappers
neg, sign, floor, ceil, is_finite = map(_un, (neg_p, sign_p, floor_p, ceil_p, is_finite_p))
exp, exp2, log, log1p, expm1, tanh, logistic = map(
    _un, (exp_p, exp2_p, log_p, log1p_p, expm1_p, tanh_p, logistic_p)
)
sin, cos, tan, asin, acos, atan = map(_un, (sin_p, cos_p, tan_p, asin_p, acos_p, atan_p))
sinh, cosh, asinh, acosh, atanh = map(_un, (sinh_p, cosh_p, asinh_p, acosh_p, atanh_p))
sqrt, rsqrt, cbrt, abs, bitwise_not = map(_un, (sqrt_p, rsqrt_p, cbrt_p, abs_p, not_p))
erf, erfc, erf_inv, lgamma, digamma = map(_un, (erf_p, erfc_p, erf_inv_p, lgamma_p, digamma_p))
population_count, real, imag, conj, square = map(
    _un, (population_count_p, real_p, imag_p, conj_p, square_p)
)
add, sub, mul, div, rem, pow, max, min = map(
    _bin, (add_p, sub_p, mul_p, div_p, rem_p, pow_p, max_p, min_p)
)
atan2, nextafter, and_, or_, xor = map(_bin, (atan2_p, nextafter_p, and_p, or_p, xor_p))
shift_left, shift_right_arithmetic, shift_right_logical = map(
    _bin, (shift_left_p, shift_right_arithmetic_p, shift_right_logical_p)
)
eq, ne, lt, le, gt, ge = map(_bin, (eq_p, ne_p, lt_p, le_p, gt_p, ge_p))
complex_ = _bin(complex_p)


def round(x, rounding_method=0):  # noqa: A001
    """``jax.lax.round``: 0 = away from zero, 1 = to nearest even."""
    return round_p.bind(x, rounding_method=int(rounding_method))


def integer_pow(x, y: int):
    """``jax.lax.integer_pow``: ``x ** y`` for a static integer ``y``.

    Raises:
        TypeError: for integer ``x`` and negative ``y`` (as JAX).
    """
    aval = aval_of(x)
    if isinstance(y, (float, np.floating)) and not float(y).is_integer():
        raise TypeError(f"integer_pow requires an integer exponent, got {y}")
    if int(y) < 0 and dtypes.is_int(aval.dtype):
        raise TypeError(
            f"Integers cannot be raised to negative powers, got "
            f"integer_pow({aval.str_short()}, {int(y)})"
        )
    return integer_pow_p.bind(x, y=int(y))


def zeros_like(x):
    a = aval_of(x)
    return structural.with_vma(_shape.full(a.shape, 0, a.dtype, a.weak_type), a.vma)


def _const(x, v):
    """A scalar constant with ``x``'s dtype (weak if ``x`` is), broadcast to ``x``'s shape."""
    a = aval_of(x)
    return _shape.full(a.shape, v, a.dtype, a.weak_type)


def _formula_weak(a):
    """Whether JAX's derivative-formula constants for aval ``a`` are weak (Python scalars)."""
    kinds = {"f": dtypes.default_float_dtype, "i": dtypes.default_int_dtype}
    d = dtypes.default_complex_dtype if a.dtype.kind == "c" else kinds.get(a.dtype.kind)
    return a.weak_type and a.shape == () and d is not None and a.dtype == d()


def _formula_const(x, v):
    """A derivative formula's constant as JAX makes it (weak if ``_formula_weak``), in
    ``x``'s shape: a weak array's tangent through such a formula is strong."""
    a = aval_of(x)
    return _shape.full(a.shape, v, a.dtype, _formula_weak(a))


def convert_element_type_like(x, like):
    a = aval_of(like)
    return conversion.convert_element_type(x, a.dtype, a.weak_type)


__all__ = [n for n in dir() if not n.startswith("_")]
