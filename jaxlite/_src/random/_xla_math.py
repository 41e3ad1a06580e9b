"""XLA:CPU's arithmetic, reproduced in NumPy for the bit-exact samplers (spec R7).

JAX's ``normal``, ``gumbel``, ``exponential`` and general-range ``uniform`` give bits that
depend on how XLA:CPU evaluates ``log``, ``log1p``, ``erf_inv`` and ``a*b + c`` (fused
multiply-adds on FMA hosts). NumPy's own ``log`` differs in about 15% of float32 inputs,
so these samplers use the kernels below instead. Each is a private elementwise primitive
(impl + JVP + elementwise batching) so that samplers stay differentiable in their
parameters and jit/vmap carry them like any other op. ``jax.lax.log`` etc. are unchanged.

float16/bfloat16 inputs are computed in float32 and rounded, as XLA:CPU does.
"""

from __future__ import annotations

import math

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.ops import _factories, elementwise as ew
from jaxlite._src.ops._factories import FLOAT, defjvp, defjvp2, naryop, unop
from jaxlite._src.ops.xla_fma import fma, fma32, fma64  # noqa: F401 (re-exported)

_f32, _f64, _u32 = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.uint32)


def _f32c(bits: int) -> np.float32:
    return np.array(bits, _u32).view(_f32)[()]


def _f64c(bits: int) -> np.float64:
    return np.array(bits, np.uint64).view(_f64)[()]


# FMA: ``ops/xla_fma`` (numpy/ uses it too).


# ------------------------------------------------------------------------------- log

_LOG_CLAMP = np.float32(2.0**-126)
_SQRTHF = _f32c(0x3F3504F3)
_LOG_A = tuple(_f32c(b) for b in (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A))
_LOG_B = tuple(_f32c(b) for b in (0xBDFE5D4F, 0x3E11E9BF, 0xBE2AAE50))
_LOG_C = tuple(_f32c(b) for b in (0x3E4CCEAC, 0xBE7FFFFC, 0x3EAAAAAA))
_LOG_Q1 = _f32c(0xB95E8083)
_LOG_Q2 = _f32c(0x3F318000)


def log_f32(y):
    """XLA:CPU's float32 ``log`` (a Cephes-style polynomial, spec R7.3)."""
    y = np.asarray(y, _f32)
    yc = np.where(y > _LOG_CLAMP, y, _LOG_CLAMP)
    bits = yc.view(_u32)
    e = ((bits >> np.uint32(23)).astype(np.int32) - np.int32(127)).astype(_f32) + np.float32(1)
    m = ((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000)).view(_f32)
    small = m < _SQRTHF
    one = np.float32(1)
    x = np.where(small, (m - one) + m, m - one)
    e = np.where(small, e - one, e)
    x2 = x * x
    x3 = x2 * x
    a = fma32(fma32(_LOG_A[0], x, _LOG_A[1]), x, _LOG_A[2])
    b = fma32(fma32(_LOG_B[0], x, _LOG_B[1]), x, _LOG_B[2])
    c = fma32(fma32(_LOG_C[0], x, _LOG_C[1]), x, _LOG_C[2])
    r = fma32(a, x3, b)
    r = fma32(r, x3, c)
    r = fma32(r, x3, e * _LOG_Q1)
    out = fma32(e, _LOG_Q2, (x - x2 * np.float32(0.5)) + r)
    out = np.where(y == 0, np.float32(-np.inf), out)
    out = np.where(y == np.inf, np.float32(np.inf), out)
    out = np.where((y < 0) | np.isnan(y), np.float32(np.nan), out)
    return out.astype(_f32)


_libm_log = np.frompyfunc(math.log, 1, 1)


def log_f64(y):
    """float64 ``log``: XLA:CPU calls the C library's, i.e. Python's ``math.log``."""
    y = np.asarray(y, _f64)
    out = np.empty(y.shape, _f64)
    ok = y > 0
    ok &= np.isfinite(y)
    out[ok] = _libm_log(y[ok]).astype(_f64)
    bad = ~ok
    if bad.any():
        with np.errstate(all="ignore"):
            out[bad] = np.log(y[bad])
    return out


def _by_dtype(f32_fn, f64_fn):
    def impl(x):
        x = np.asarray(x)
        if x.dtype == _f64:
            return f64_fn(x)
        if x.dtype == _f32:
            return f32_fn(x)
        return f32_fn(x.astype(_f32)).astype(x.dtype)

    return impl


log_p = unop("xla_log", _by_dtype(log_f32, log_f64), FLOAT)
defjvp(log_p, lambda t, x: ew.div(t, x))
rules.quiet_fp.add(log_p)


def log(x):
    return log_p.bind(x)


# ----------------------------------------------------------------------------- log1p

_L1P_F32 = (
    _f32c(0x3ED413CD),
    _f32c(0x383DE04B),
    tuple(
        _f32c(b) for b in (0x3EFF40C5, 0x40D284FA, 0x41EF4B9C, 0x4273CC76, 0x426473AD, 0x41A05101)
    ),
    tuple(
        _f32c(b) for b in (0x417101AD, 0x42A6185B, 0x435DC32D, 0x439A8CA3, 0x43586D8A, 0x42707982)
    ),
)
_L1P_F64 = (
    _f64c(0x3FDA827999FCEF32),
    _f64c(0x3F07BC0962B395CA),
    tuple(
        _f64c(b)
        for b in (
            0x3FDFE818A0FE1A83, 0x401A509F46F4FA53, 0x403DE9738B8CB9C9,
            0x404E798EB86C3351, 0x404C8E7597479A10, 0x40340A202D99830A,
        )
    ),
    tuple(
        _f64c(b)
        for b in (
            0x402E20359E903E37, 0x4054C30B52213498, 0x406BB86590FCFB56,
            0x407351945DC908A5, 0x406B0DB13E48E066, 0x404E0F304466448E,
        )
    ),
)  # fmt: skip


def _split_eval(x, cond, f_true, f_false, dtype):
    """``where(cond, f_true(x), f_false(x))``, evaluating each branch only where taken."""
    out = np.empty(x.shape, dtype)
    if x.ndim == 0:
        out[()] = f_true(x) if cond else f_false(x)
        return out
    if cond.all():
        out[...] = f_true(x)
    elif not cond.any():
        out[...] = f_false(x)
    else:
        out[cond] = f_true(x[cond])
        rest = ~cond
        out[rest] = f_false(x[rest])
    return out


def _log1p_rational(x, consts, fma, dtype):
    _, p0, pc, qc = consts
    p = np.full(x.shape, p0, dtype)
    for c in pc:
        p = fma(p, x, c)
    q = np.ones(x.shape, dtype)
    for c in qc:
        q = fma(q, x, c)
    x2 = x * x
    return (x + fma(x2, dtype.type(-0.5), (x * x2) * (p / q))).astype(dtype)


def log1p_f32(x):
    """XLA:CPU's float32 ``log1p`` (spec R7.4)."""
    x = np.asarray(x, _f32)
    return _split_eval(
        x,
        np.abs(x) < _L1P_F32[0],
        lambda v: _log1p_rational(v, _L1P_F32, fma32, _f32),
        lambda v: log_f32(v + np.float32(1)),
        _f32,
    )


def log1p_f64(x):
    """XLA:CPU's float64 ``log1p`` (spec R7.5)."""
    x = np.asarray(x, _f64)
    return _split_eval(
        x,
        np.abs(x) < _L1P_F64[0],
        lambda v: _log1p_rational(v, _L1P_F64, fma64, _f64),
        lambda v: log_f64(v + 1.0),
        _f64,
    )


log1p_p = unop("xla_log1p", _by_dtype(log1p_f32, log1p_f64), FLOAT)
defjvp(log1p_p, lambda t, x: ew.div(t, ew.add(x, np.ones((), x.dtype))))
rules.quiet_fp.add(log1p_p)


def log1p(x):
    return log1p_p.bind(x)


# --------------------------------------------------------------------------- erf_inv

_EI32_A = (
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
)
_EI32_B = (
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
)
_EI64_A = (
    -3.64441206401782e-21,
    -1.6850591381820166e-19,
    1.28584807152564e-18,
    1.1157877678025181e-17,
    -1.333171662854621e-16,
    2.0972767875968562e-17,
    6.637638134358324e-15,
    -4.054566272975207e-14,
    -8.151934197605472e-14,
    2.6335093153082323e-12,
    -1.2975133253453532e-11,
    -5.415412054294628e-11,
    1.0512122733215323e-09,
    -4.112633980346984e-09,
    -2.9070369957882005e-08,
    4.2347877827932404e-07,
    -1.3654692000834679e-06,
    -1.3882523362786469e-05,
    0.00018673420803405714,
    -0.000740702534166267,
    -0.006033670871430149,
    0.24015818242558962,
    1.6536545626831027,
)
_EI64_B = (
    2.2137376921775787e-09,
    9.075656193888539e-08,
    -2.7517406297064545e-07,
    1.8239629214389228e-08,
    1.5027403968909828e-06,
    -4.013867526981546e-06,
    2.9234449089955446e-06,
    1.2475304481671779e-05,
    -4.7318229009055734e-05,
    6.828485145957318e-05,
    2.4031110387097894e-05,
    -0.0003550375203628475,
    0.0009532893797373805,
    -0.0016882755560235047,
    0.002491442096107851,
    -0.003751208507569241,
    0.005370914553590064,
    1.0052589676941592,
    3.0838856104922208,
)
_EI64_C = (
    -2.7109920616438573e-11, -2.555641816996525e-10, 1.5076572693500548e-09,
    -3.789465440126737e-09, 7.61570120807834e-09, -1.496002662714924e-08,
    2.914795345090108e-08, -6.771199775845234e-08, 2.2900482228026655e-07,
    -9.9298272942317e-07, 4.526062597223154e-06, -1.968177810553167e-05,
    7.599527703001776e-05, -0.00021503011930044477, -0.00013871931833623122,
    1.0103004648645344, 4.849906401408584,
)  # fmt: skip


def _horner(ww, coeffs, fma, dtype):
    p = np.full(ww.shape, coeffs[0], dtype)
    for c in coeffs[1:]:
        p = fma(p, ww, dtype.type(c))
    return p


def erf_inv_f32(x):
    """Giles' single-precision ``erf_inv`` as XLA:CPU evaluates it (spec R7.6)."""
    x = np.asarray(x, _f32)
    w = -log1p_f32(x * -x)
    f = np.float32
    p = _split_eval(
        w,
        w < f(5),
        lambda v: _horner(v - f(2.5), _EI32_A, fma32, _f32),
        lambda v: _horner(np.sqrt(v) - f(3), _EI32_B, fma32, _f32),
        _f32,
    )
    out = p * x
    return np.where(np.abs(x) == f(1), x * f(np.inf), out).astype(_f32)


def erf_inv_f64(x):
    """Giles' double-precision ``erf_inv`` as XLA:CPU evaluates it (spec R7.6)."""
    x = np.asarray(x, _f64)
    w = -log1p_f64(x * -x)

    def tail(v):
        return _split_eval(
            v,
            v < 16.0,
            lambda u: _horner(np.sqrt(u) - 3.25, _EI64_B, fma64, _f64),
            lambda u: _horner(np.sqrt(u) - 5.0, _EI64_C, fma64, _f64),
            _f64,
        )

    p = _split_eval(w, w < 6.25, lambda v: _horner(v - 3.125, _EI64_A, fma64, _f64), tail, _f64)
    out = p * x
    return np.where(np.abs(x) == 1.0, x * np.inf, out)


erf_inv_p = unop("xla_erf_inv", _by_dtype(erf_inv_f32, erf_inv_f64), FLOAT)
# d/dx erf_inv(x) = sqrt(pi)/2 * exp(erf_inv(x)**2)
defjvp2(
    erf_inv_p,
    lambda t, ans, x: ew.mul(
        t, ew.mul(np.asarray(math.sqrt(math.pi) / 2, ans.dtype), ew.exp(ew.square(ans)))
    ),
)
rules.quiet_fp.add(erf_inv_p)


def erf_inv(x):
    return erf_inv_p.bind(x)


__all__ = ["fma", "log", "log1p", "erf_inv", "dtypes", "_factories"]
