"""Numba versions of XLA:CPU's ``log``, ``log1p`` and ``erf_inv`` for one element.

Imported only by native-tier kernel modules (``compile/native_emit``: a rule asks for a
helper with ``ctx.helper``), so importing jaxlite never imports Numba. Each function is the
element-wise form of the NumPy kernels in ``_xla_blocked`` (spec R7.3-R7.6), operation for
operation, so both tiers give the same bits:

* every float32 operation is re-cast to ``np.float32`` (a float32 ``+ - * / sqrt`` done in
  float64 and rounded once is the float32 result);
* ``fma32`` and ``fma64`` are ``ops/xla_fma``'s scalar forms, compiled here:
  ``float32(float64(a) * float64(b) + float64(c))`` (the product of two float32 values is
  exact in float64, so LLVM fusing the multiply-add would not change it), and the
  error-free-transform sequence of ``fma64_into`` (Numba compiles without fast-math, so
  LLVM does not contract its multiplies and adds);
* float64 ``log`` is ``math.log``, the C library's, which is what XLA:CPU calls.

Measured on 10^6 draws (tests/random/test_random_native.py checks a smaller one against
JAX): the fused float32 ``normal`` kernel takes ~25-30 ms of CPU, the NumPy tier ~75; float64
is latency-bound (its long fma chains do not vectorise) and only a little faster than NumPy.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from jaxlite._src.ops import xla_fma
from jaxlite._src.random import _xla_blocked as kb

# Inlined into each kernel at Numba IR level: LLVM then sees one loop body (a call of a
# separately compiled function ran 3x slower, measured) and the kernel's disk-cache entry holds
# everything; the kernel source names the source hashes of this module, of _xla_blocked
# (the constants) and of ops/xla_fma (the fma), so an edit to any makes a new entry.
_jit = numba.njit(error_model="numpy", inline="always")

_F = np.float32
_ONE, _ZERO, _HALF = _F(1.0), _F(0.0), _F(0.5)
_INF, _NAN = _F(np.inf), _F(np.nan)
_CLAMP, _SQRTHF, _Q1 = kb._LOG_CLAMP, kb._SQRTHF, kb._LOG_Q1
_A, _B, _C = (tuple(_F(v) for v in k) for k in (kb._LOG_A, kb._LOG_B, kb._LOG_C))
_Q2 = _F(kb._LOG_Q2)
_L1P_C0 = kb._L1P_C0
_L1P_P = tuple(_F(v) for v in kb._L1P_P)
_L1P_Q = tuple(_F(v) for v in kb._L1P_Q)
_L1P64_C0, _L1P64_P, _L1P64_Q = kb._L1P64_C0, kb._L1P64_P, kb._L1P64_Q


EI32_A = tuple(_F(c) for c in kb.EI32_A)
EI32_B = tuple(_F(c) for c in kb.EI32_B)
EI64_A = tuple(np.float64(c) for c in kb.EI64_A)
EI64_B = tuple(np.float64(c) for c in kb.EI64_B)
EI64_C = tuple(np.float64(c) for c in kb.EI64_C)


# ------------------------------------------------------------------------------ float32


fma32 = _jit(xla_fma.fma32_scalar)


@_jit
def horner32(w, coeffs):
    p = coeffs[0]
    for k in coeffs[1:]:
        p = fma32(p, w, k)
    return p


@_jit
def log_f32(y):
    yc = y if y > _CLAMP else _CLAMP
    bits = np.float32(yc).view(np.uint32)
    e = np.float32(np.float32(bits >> np.uint32(23)) - np.float32(126.0))
    mb = np.uint32((bits & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000))
    m = np.uint32(mb).view(np.float32)
    if m < _SQRTHF:
        x = np.float32(np.float32(m - _ONE) + m)
        e = np.float32(e - _ONE)
    else:
        x = np.float32(m - _ONE)
    x2 = np.float32(x * x)
    x3 = np.float32(x2 * x)
    a = fma32(fma32(_A[0], x, _A[1]), x, _A[2])
    b = fma32(fma32(_B[0], x, _B[1]), x, _B[2])
    c = fma32(fma32(_C[0], x, _C[1]), x, _C[2])
    r = fma32(a, x3, b)
    r = fma32(r, x3, c)
    r = fma32(r, x3, np.float32(e * _Q1))
    out = fma32(e, _Q2, np.float32(np.float32(x - np.float32(x2 * _HALF)) + r))
    if y == _ZERO:
        return -_INF
    if y == _INF:
        return _INF
    if y < _ZERO or y != y:
        return _NAN
    return out


@_jit
def log1p_f32(x):
    if abs(x) < _L1P_C0:
        p = horner32(x, _L1P_P)
        q = horner32(x, _L1P_Q)
        x2 = np.float32(x * x)
        z = np.float32(np.float32(x * x2) * np.float32(p / q))
        return np.float32(x + fma32(x2, np.float32(-0.5), z))
    return log_f32(np.float32(x + _ONE))


@_jit
def erf_inv_f32(x):
    w = np.float32(-log1p_f32(np.float32(x * np.float32(-x))))
    if w < np.float32(5.0):
        p = horner32(np.float32(w - np.float32(2.5)), EI32_A)
    else:
        p = horner32(np.float32(np.sqrt(w) - np.float32(3.0)), EI32_B)
    if abs(x) == _ONE:
        return np.float32(x * _INF)
    return np.float32(p * x)


# ------------------------------------------------------------------------------ float64


fma64 = _jit(xla_fma.fma64_scalar)


@_jit
def horner64(w, coeffs):
    p = coeffs[0]
    for k in coeffs[1:]:
        p = fma64(p, w, k)
    return p


@_jit
def log_f64(y):
    if y > 0.0 and y < np.inf:
        return math.log(y)
    if y == 0.0:
        return -np.inf
    if y == np.inf:
        return np.inf
    return np.nan


@_jit
def log1p_f64(x):
    if abs(x) < _L1P64_C0:
        p = horner64(x, _L1P64_P)
        q = horner64(x, _L1P64_Q)
        x2 = x * x
        return x + fma64(x2, -0.5, (x * x2) * (p / q))
    return log_f64(x + 1.0)


@_jit
def erf_inv_f64(x):
    w = -log1p_f64(x * -x)
    if w < 6.25:
        p = horner64(w - 3.125, EI64_A)
    elif w < 16.0:
        p = horner64(math.sqrt(w) - 3.25, EI64_B)
    else:
        p = horner64(math.sqrt(w) - 5.0, EI64_C)
    if abs(x) == 1.0:
        return x * np.inf
    return p * x
