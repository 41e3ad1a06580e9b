"""The native tier's float32 ``log`` for one element (a Numba function, inlined into kernels):
XLA:CPU's ``log``, the element-wise form of ``ops/xla_math32``'s NumPy kernel.

Imported only by native-tier kernel modules (the ``log`` rule in ``ops/_native`` asks for it
with ``ctx.helper``), so importing jaxlite never imports Numba.

Same bits as the Python tier: the same operations on the same values in the same order.
Every float32 operation is re-cast to ``np.float32``; each fused multiply-add is
``float32(float64(a) * float64(b) + float64(c))``, as in the NumPy kernel (the float64
product of two float32 values is exact, so whether LLVM fuses that multiply-add or not
gives the same float64 sum). Numba compiles without fast-math: nothing is reordered.
"""

from __future__ import annotations

import numba
import numpy as np

from jaxlite._src.ops import xla_math32 as k

# Inlined at Numba IR level: the kernel's loop body stays one block LLVM can vectorise.
_jit = numba.njit(error_model="numpy", inline="always")

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
