"""The native tier's whole-array float sum in NumPy's order (a Numba function).

Imported only by native-tier kernel modules (the ``reduce_sum`` rule in ``ops/_native`` asks
for it with ``ctx.helper``), so importing jaxlite never imports Numba.

NumPy (the Python tier) adds a contiguous float array pairwise: fewer than 8 elements one
after the other from ``-0.0``; up to 128 in eight interleaved partial sums combined as
``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the remainder; more split in two
halves (the first a multiple of 8 long) summed the same way. Numba's ``np.sum`` adds in
order, so a sum of a thousand float32 terms (a log density) differed in the last bits.
``pairwise_sum`` repeats NumPy's order, so the native and Python tiers give the same bits
for a whole-array sum of a C-contiguous operand (checked against ``np.sum`` on 1 to 20,000
elements of both float dtypes). Compiled without fast-math: LLVM keeps the order.
"""

from __future__ import annotations

import numba

_jit = numba.njit(error_model="numpy")


@_jit
def _pairwise(a, lo, n, zero):
    if n < 8:
        s = zero
        for i in range(n):
            s = s + a[lo + i]
        return s
    if n <= 128:
        r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
        r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
        i = 8
        while i < n - n % 8:
            r0 += a[lo + i]
            r1 += a[lo + i + 1]
            r2 += a[lo + i + 2]
            r3 += a[lo + i + 3]
            r4 += a[lo + i + 4]
            r5 += a[lo + i + 5]
            r6 += a[lo + i + 6]
            r7 += a[lo + i + 7]
            i += 8
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < n:
            s += a[lo + i]
            i += 1
        return s
    half = n // 2
    half -= half % 8
    return _pairwise(a, lo, half, zero) + _pairwise(a, lo + half, n - half, zero)


@_jit
def pairwise_sum(flat, zero):
    """The sum of the 1-D array ``flat`` in NumPy's pairwise order; ``zero`` is ``-0.0`` of
    its dtype (NumPy's start, which keeps a sum of negative zeros negative)."""
    return _pairwise(flat, 0, flat.size, zero)
