"""The native tier's float32 ``tanh`` for one element (a Numba function, inlined into kernels).

Imported only by native-tier kernel modules (the ``tanh`` rule in ``ops/_native`` asks for it
with ``ctx.helper``), so importing jaxlite never imports Numba.

Why not ``np.tanh`` in the kernel: Numba compiles a float32 ``tanh`` to a call of the C
library's ``tanhf`` per element, which glibc computes through ``expm1f``: ~13-23 ns an
element, measured on the development machine, where NumPy (the Python tier) uses its SIMD
kernels. In an Elman RNN step (``benchmarks/workloads_native.py``: two 64-wide products and
one ``tanh`` of 64 elements) those calls were ~60% of the kernel's time. This function has no
call in it and LLVM vectorises a loop over it (2.6-3.4 ns an element, same machine).

The computation is in float64, rounded once to float32 at the end:

* ``tanh(x) = sign(x) * (1 - e) / (1 + e)`` with ``e = exp(-2|x|)``, for ``|x| >= 2**-13``;
  ``|x|`` is clamped at 10 (``tanh`` of anything larger rounds to 1 in float32), so ``e``
  lies in ``[2e-9, 1)`` and never under- or overflows;
* ``e = exp(r)**64`` with ``r = -2|x| / 64`` in ``[-0.3125, 0]``: the degree-12 Taylor
  polynomial of ``exp`` (remainder below ``2**-54`` there), then six squarings, which scale
  the relative error by 64 (to about ``2**-46``). The cancellation in ``1 - e`` (at least
  ``2**-12``) leaves a relative error below ``2**-33`` in the float64 quotient, far under the
  float32 rounding unit;
* ``|x| < 2**-13`` (zeros and subnormals included) returns ``x``: ``tanh(x) = x(1 - x**2/3 +
  ...)`` and ``x**2/3 < 2**-26`` is under half of the float32 spacing next to ``x``, so ``x``
  is the rounded value (signed zeros keep their sign); NaN propagates, ``+-inf`` give ``+-1``.

Checked exhaustively over every float32 with ``2**-14 <= |x| < 16`` (302 million values):
988 differ from ``float32(tanh(float64(x)))`` (the C library's double ``tanh``, rounded) by
1 ulp, none by more; ``tanhf`` differs from it in 4% of random float32 values (up to 2 ulps),
NumPy's SIMD kernel in 5% (1 ulp). So native and Python tiers still differ in the last bit of
some elements, as for the other transcendental functions (docs/compat.md).

Numba compiles without fast-math: LLVM neither contracts nor reorders these operations, so the
result does not depend on the vector width. A caller must compile with
``error_model="numpy"`` (the native tier does): Python's error model adds a zero-division
check to the quotient, and that branch stops LLVM from vectorising the loop.
"""

from __future__ import annotations

import math

import numba
import numpy as np

# Inlined at Numba IR level: the kernel's loop body is then one straight-line block LLVM can
# vectorise (a call of a separately compiled function cannot be).
_jit = numba.njit(error_model="numpy", inline="always")

_TINY = 2.0**-13
_CLAMP = 10.0
_SCALE = -2.0 / 64.0  # r = -2|x| / 64; e = exp(r) ** 64
# 1/k! for k = 0..12, the Taylor coefficients of exp (rounded to float64).
_C = tuple(1.0 / math.factorial(k) for k in range(13))


@_jit
def tanh_f32(x):
    d = np.float64(x)
    r = min(abs(d), _CLAMP) * _SCALE
    p = _C[12]
    p = p * r + _C[11]
    p = p * r + _C[10]
    p = p * r + _C[9]
    p = p * r + _C[8]
    p = p * r + _C[7]
    p = p * r + _C[6]
    p = p * r + _C[5]
    p = p * r + _C[4]
    p = p * r + _C[3]
    p = p * r + _C[2]
    p = p * r + _C[1]
    e = p * r + _C[0]
    e = e * e  # exp(r) ** 2
    e = e * e
    e = e * e
    e = e * e
    e = e * e
    e = e * e  # exp(r) ** 64 = exp(-2|x|)
    t = np.float32(math.copysign((1.0 - e) / (1.0 + e), d))
    # A select, not a branch, so the loop stays vectorisable.
    return x if abs(d) < _TINY else t
