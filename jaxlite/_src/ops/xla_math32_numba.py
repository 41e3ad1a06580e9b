"""The native tier's float32 ``exp``, ``log`` and ``tanh``: XLA:CPU's expansions
(``ops/xla_math32``, JAX's bits) as Numba element functions, and loops over them for blocked
NumPy regions; and loops over the C library's float32 ``sin``/``cos``/``tan``/``atan``,
which XLA:CPU calls (the ``jaxlite_xla_math`` flag's, at the end).

Imported only by native-tier kernel modules (the ``exp``/``log``/``tanh`` rules in
``ops/_native`` ask for these with ``ctx.helper``) and through ``xla_math32.numba_loop``
(by ``compile/native_blocks``, and by the ``jaxlite_xla_math`` flag's impls) once Numba is
known to be installed, so importing jaxlite never imports Numba.

Same bits as the NumPy kernels of ``ops/xla_math32`` (which equal JAX's for all 2**32
float32 values), by two routes:

* ``log_f32`` repeats the NumPy kernel's operations: every float32 operation is re-cast to
  ``np.float32`` and each fused multiply-add is ``float32(float64(a) * float64(b) +
  float64(c))`` (the float64 product of two float32 values is exact, so whether LLVM fuses
  that multiply-add or not gives the same float64 sum). It is inlined at Numba IR level into
  the kernels that call it.
* ``exp_f32`` and ``tanh_f32`` are written in float32 as XLA writes them and compiled with
  floating-point contraction on (``fastmath={"contract"}``, nothing else): LLVM fuses every
  multiply that feeds only an add into one hardware FMA, as it does for XLA:CPU. That is 3-7x
  faster than the float64 route (float32 vectors are twice as wide, and there are no
  conversions): on the lent AVX2 machine, 4M elements on one thread, ``tanh`` 2.2-2.6 ms
  and ``exp`` 2.5-2.9 ms against NumPy's own 10.7 and 7.1 ms. They are *not* inlined at IR
  level: the contraction flags live on their own instructions, and a kernel compiled without
  them that inlined their IR would round each multiply (LLVM still inlines them later,
  flags kept, and vectorises the caller's loop). On a processor without FMA instructions
  LLVM cannot fuse, and neither can XLA there.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from jaxlite._src.ops import xla_math32 as k

# Inlined at Numba IR level: the kernel's loop body stays one block LLVM can vectorise.
_jit = numba.njit(error_model="numpy", inline="always")
# Contraction on, not inlined at IR level (see above).
_contract = numba.njit(error_model="numpy", fastmath={"contract"})


def _cached_loop(**options):
    """``njit`` of a block loop whose machine code is kept on disk (``__pycache__`` or
    Numba's user-wide cache) for later processes; compiled per process where neither is
    writable."""

    def decorate(fn):
        try:
            return numba.njit(error_model="numpy", nogil=True, cache=True, **options)(fn)
        except RuntimeError:  # "cannot cache function ...: no locator available"
            return numba.njit(error_model="numpy", nogil=True, **options)(fn)

    return decorate


_loop = _cached_loop(fastmath={"contract"})
# ``log_f32``'s loop without contraction: LLVM could otherwise fold a float32 product that
# is widened before an add (``e * LN2_LO``) into a float64 FMA, dropping its rounding.
_plain_loop = _cached_loop()

_F, _D, _U = np.float32, np.float64, np.uint32
_P = tuple(_D(c) for c in k._LOG_P)
_LN2_HI, _LN2_LO = _F(k._LN2_HI), _F(k._LN2_LO)
_SQRT_HALF_MANT = _U(k._SQRT_HALF_MANT)


@_jit
def _quad(z, c0, c1, c2):
    # fma(fma(c0, z, c1), z, c2), each rounded to float32
    p = _F(z * c0 + c1)
    return _F(_D(p) * z + c2)


@_jit
def log_f32(x):
    bits = _F(x).view(_U)
    mb = _U(bits & _U(0x7FFFFF))
    e = _F(_F(bits >> _U(23)) - _F(126.0))
    m = _U(mb | _U(0x3F000000)).view(_F)
    f = _F(m - _F(1.0))
    if mb < _SQRT_HALF_MANT:
        e = _F(e - _F(1.0))
        f = _F(f + m)
    z = _D(f)
    y = _quad(z, _P[0], _P[1], _P[2])
    y1 = _quad(z, _P[3], _P[4], _P[5])
    y2 = _quad(z, _P[6], _P[7], _P[8])
    f2 = _F(f * f)
    z3 = _D(_F(f2 * f))
    y = _F(_D(y) * z3 + _D(y1))
    y = _F(_D(y) * z3 + _D(y2))
    y = _F(_D(y) * z3 + _D(_F(e * _LN2_LO)))
    r = _F(f - _F(f2 * _F(0.5)))
    r = _F(r + y)
    r = _F(r + _F(e * _LN2_HI))
    # zero, subnormal, negative, inf, NaN (one unsigned comparison, as the NumPy kernel)
    if _U(bits - _U(0x00800000)) >= _U(0x7F000000):
        if bits == _U(0x7F800000):
            return _F(np.inf)
        if (bits & _U(0x7FFFFFFF)) < _U(0x00800000):
            return _F(-np.inf)
        return _U(0xFFFFFFFF).view(_F)
    return r


_F1 = _F(1.0)
_TANH_P = tuple(_F(c) for c in k._TANH_P)
_TANH_Q = tuple(_F(c) for c in k._TANH_Q)
_TANH_CLAMP, _TANH_TINY, _TANH_BIG = _F(k._TANH_CLAMP), _F(k._TANH_TINY), _F(k._TANH_BIG)
_EXP_P = tuple(_F(c) for c in k._EXP_P)
_EXP_LO, _EXP_HI, _LOG2E = _F(k._EXP_LO), _F(k._EXP_HI), _F(k._LOG2E)
_MIN_NORMAL = _F(k._MIN_NORMAL)
_N_LO, _N_HI = _F(-127.0), _F(127.0)


@_contract
def tanh_f32(x):
    # the comparisons keep a NaN (np.maximum/np.minimum in the NumPy kernel)
    xc = x
    if xc < -_TANH_CLAMP:
        xc = -_TANH_CLAMP
    if xc > _TANH_CLAMP:
        xc = _TANH_CLAMP
    z = xc * xc
    q = z * _TANH_Q[0] + _TANH_Q[1]
    q = q * z + _TANH_Q[2]
    q = q * z + _TANH_Q[3]
    p = z * _TANH_P[0] + _TANH_P[1]
    p = p * z + _TANH_P[2]
    p = p * z + _TANH_P[3]
    p = p * z + _TANH_P[4]
    p = p * z + _TANH_P[5]
    p = p * z + _TANH_P[6]
    r = (xc * p) / q
    a = abs(x)
    if a < _TANH_TINY:
        r = x
    if a >= _TANH_BIG:
        r = np.copysign(_F1, x)
    return r


@_contract
def exp_f32(x):
    xc = x
    if xc < _EXP_LO:
        xc = _EXP_LO
    if xc > _EXP_HI:
        xc = _EXP_HI
    n = np.floor(xc * _LOG2E + _F(0.5))
    if n < _N_LO:
        n = _N_LO
    if n > _N_HI:
        n = _N_HI
    r = xc - n * _LN2_HI  # the product is exact
    r = r - n * _LN2_LO
    t = r * _EXP_P[0] + _EXP_P[1]
    t = t * r + _EXP_P[2]
    t = t * r + _EXP_P[3]
    t = t * r + _EXP_P[4]
    t = t * r + _EXP_P[5]
    rr = r * r
    y = t * rr + r
    y = y + _F1
    # 2**n from its exponent bits (a NaN's n is replaced: the result is NaN anyway)
    e = np.int32((np.int32(n if n == n else _F(0.0)) + np.int32(127)) << np.int32(23))
    out = y * e.view(_F)
    if out < _MIN_NORMAL:  # flush to zero (results are >= 0 or NaN)
        out = _F(0.0)
    return out


# Each loop has an in-place form: LLVM vectorises ``out[i] = f(x[i])`` only behind a runtime
# check that ``out`` and ``x`` do not overlap, so a call with ``out`` being ``x`` (blocked
# regions mostly write in place) would run the scalar loop, 4-8x slower.
@_loop
def exp_block(x, out):
    """``out[i] = exp_f32(x[i])`` (1-D float32 arrays that do not overlap)."""
    for i in range(x.size):
        out[i] = exp_f32(x[i])


@_loop
def exp_inplace(x):
    """``x[i] = exp_f32(x[i])``."""
    for i in range(x.size):
        x[i] = exp_f32(x[i])


@_loop
def tanh_block(x, out):
    """``out[i] = tanh_f32(x[i])`` (1-D float32 arrays that do not overlap)."""
    for i in range(x.size):
        out[i] = tanh_f32(x[i])


@_loop
def tanh_inplace(x):
    """``x[i] = tanh_f32(x[i])``."""
    for i in range(x.size):
        x[i] = tanh_f32(x[i])


@_plain_loop
def log_block(x, out):
    """``out[i] = log_f32(x[i])`` (1-D float32 arrays that do not overlap)."""
    for i in range(x.size):
        out[i] = log_f32(x[i])


@_plain_loop
def log_inplace(x):
    """``x[i] = log_f32(x[i])``."""
    for i in range(x.size):
        x[i] = log_f32(x[i])


# The C library's float32 sin, cos, tan, atan, atan2 and pow: XLA:CPU calls them (``sinf``...)
# for these functions, so they are JAX's bits on the same machine (0 differences in 10,000
# operands each, and the unary ones widened from every bfloat16 and float16 value; NumPy's
# own kernels differ in 9-50% of float32 operands). Numba calls them for float32 operands.
# One scalar call per element: several times NumPy's time. Used by the ``jaxlite_xla_math``
# flag only (``ops/xla_math_flag``).
@_plain_loop
def sin_block(x, out):
    """``out[i] = sinf(x[i])``."""
    for i in range(x.size):
        out[i] = math.sin(x[i])


@_plain_loop
def cos_block(x, out):
    """``out[i] = cosf(x[i])``."""
    for i in range(x.size):
        out[i] = math.cos(x[i])


@_plain_loop
def tan_block(x, out):
    """``out[i] = tanf(x[i])``."""
    for i in range(x.size):
        out[i] = math.tan(x[i])


@_plain_loop
def atan_block(x, out):
    """``out[i] = atanf(x[i])``."""
    for i in range(x.size):
        out[i] = math.atan(x[i])


@_plain_loop
def atan2_block(x, y, out):
    """``out[i] = atan2f(x[i], y[i])``."""
    for i in range(x.size):
        out[i] = math.atan2(x[i], y[i])


@_plain_loop
def pow_block(x, y, out):
    """``out[i] = powf(x[i], y[i])``."""
    for i in range(x.size):
        out[i] = math.pow(x[i], y[i])
