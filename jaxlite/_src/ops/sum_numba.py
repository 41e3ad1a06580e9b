"""The native tier's float sums and products in the Python tier's orders (Numba functions).

Imported only by native-tier kernel modules (the ``reduce_sum`` / ``reduce_prod`` rules in
``ops/_native`` ask for them with ``ctx.helper``), so importing jaxlite never imports Numba.

``tree_reduce``: XLA:CPU's window-tree order (``ops/reduce_order``), which the Python tier
follows for float sums and products except float32/float64 sums of 4,096 or more elements.

``pairwise_sum``: NumPy's order, for those large whole-array sums. NumPy (the Python tier)
adds a contiguous float array pairwise: fewer than 8 elements one after the other from
``-0.0``; up to 128 in eight interleaved partial sums combined as
``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the remainder; more split in two
halves (the first a multiple of 8 long) summed the same way. Numba's ``np.sum`` adds in
order, so a sum of a thousand float32 terms (a log density) differed in the last bits.
``pairwise_sum`` repeats NumPy's order, so the native and Python tiers give the same bits
for a whole-array sum of a C-contiguous operand (checked against ``np.sum`` on 1 to 20,000
elements of both float dtypes). Compiled without fast-math: LLVM keeps the order.
"""

from __future__ import annotations

import numba
import numpy as np

# Inlined at Numba IR level, as the other helpers: a kernel loaded from Numba's disk cache
# that *called* a separately compiled (recursive) helper crashed the second process.
_jit = numba.njit(error_model="numpy", inline="always")


@_jit
def _block(a, lo, n, zero):
    """NumPy's sum of ``a[lo:lo + n]`` for ``n <= 128``."""
    if n < 8:
        s = zero
        for i in range(n):
            s = s + a[lo + i]
        return s
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


@_jit
def pairwise_sum(flat, zero):
    """The sum of the 1-D array ``flat`` in NumPy's pairwise order; ``zero`` is ``-0.0`` of
    its dtype (NumPy's start, which keeps a sum of negative zeros negative). NumPy's
    recursion (halves, the first a multiple of 8 long, down to blocks of at most 128) is
    walked with an explicit stack, in the same order: left half, right half, their sum."""
    n = flat.size
    if n == 0:
        return -zero  # NumPy's empty sum: +0.0
    if n <= 128:
        return _block(flat, 0, n, zero)
    # At most 64 levels (n halves each time); each frame: start, length, state.
    los = np.empty(64, np.int64)
    lens = np.empty(64, np.int64)
    state = np.zeros(64, np.int64)
    vals = np.empty(65, flat.dtype)
    los[0], lens[0], state[0] = 0, n, 0
    sp, vp = 1, 0
    while sp > 0:
        lo, m = los[sp - 1], lens[sp - 1]
        if m <= 128:
            vals[vp] = _block(flat, lo, m, zero)
            vp += 1
            sp -= 1
            continue
        half = m // 2
        half -= half % 8
        st = state[sp - 1]
        if st == 2:  # both halves done: their sum replaces them
            vals[vp - 2] = vals[vp - 2] + vals[vp - 1]
            vp -= 1
            sp -= 1
            continue
        state[sp - 1] = st + 1
        if st == 0:
            los[sp], lens[sp] = lo, half
        else:
            los[sp], lens[sp] = lo + half, m - half
        state[sp] = 0
        sp += 1
    return vals[0]


@_jit
def tree_reduce(a, dims, prod):
    """``a`` (``(R, M)``, its first axis the row-major flattening of the reduced dimensions
    ``dims``, the second the outputs) summed (``prod``: multiplied) over its first axis in
    XLA:CPU's window-tree order (``ops/reduce_order``, the Python tier's: the same bits):
    while a reduced dimension is longer than 32, windows of ``min(d, 32)`` (``pad // 2``
    positions of padding before) each folded into the identity in row-major order; then
    the same fold of what is left. Visiting the elements in row-major order visits each
    window's in its own row-major order, so every window keeps one accumulator."""
    k = dims.size
    m = a.shape[1]
    one = a.dtype.type(1) if prod else a.dtype.type(0)
    cur = np.ascontiguousarray(a)
    cd = dims.copy()
    w = np.empty(k, np.int64)
    nw = np.empty(k, np.int64)
    lo = np.empty(k, np.int64)
    idx = np.zeros(k, np.int64)
    while True:
        last = True
        for i in range(k):
            if cd[i] > 32:
                last = False
        nout = 1
        for i in range(k):
            w[i] = cd[i] if last else min(cd[i], 32)
            nw[i] = (cd[i] + w[i] - 1) // w[i]
            lo[i] = (nw[i] * w[i] - cd[i]) // 2
            nout *= nw[i]
        out = np.full((nout, m), one, a.dtype)
        idx[:] = 0
        for r in range(cur.shape[0]):
            win = 0
            for i in range(k):
                win = win * nw[i] + (idx[i] + lo[i]) // w[i]
            if prod:
                for j in range(m):
                    out[win, j] = out[win, j] * cur[r, j]
            else:
                for j in range(m):
                    out[win, j] = out[win, j] + cur[r, j]
            i = k - 1
            while i >= 0:
                idx[i] += 1
                if idx[i] < cd[i]:
                    break
                idx[i] = 0
                i -= 1
        cur = out
        for i in range(k):
            cd[i] = nw[i]
        if last:
            return cur[0]
