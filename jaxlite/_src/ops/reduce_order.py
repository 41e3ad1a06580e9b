"""Float sums and products in XLA:CPU's order (the Python tier's ``reduce_sum`` /
``reduce_prod``).

XLA:CPU rewrites a reduction with a reduced dimension longer than 32 (its
TreeReductionRewriter, window 32) into a reduce-window followed by the reduction of the
window results: along every reduced dimension ``d`` the window is ``min(d, 32)`` long and
the dimension is padded with the identity to a multiple of it (``pad // 2`` before, the rest
after); this repeats until every reduced dimension is at most 32. Each window, and the last
reduction, folds its elements into the identity one at a time in row-major order. So a
float32 row of 1,000 is summed as 32 sequential sums of 32 (12 zeros of padding first),
then those 32 in order: NumPy's pairwise order differs in the last bits of most sums.

Where this order holds (``tree_order``): float and complex sums and products, except float32
and float64 *sums* of 4,096 or more input elements, which XLA hands to a YNNPACK fusion (a
blocked tree over vector lanes that depends on the machine's vector width: not reproduced,
NumPy's pairwise order is kept, docs/compat.md "Order of a float reduction"). Integer
reductions are exact in any order.

NumPy adds elementwise along a leading axis of a C-contiguous array, one row after the
other (from ``initial``), so the windows' elements are moved to leading axes and reduced
there; a reduction with a single output is folded with ``ufunc.accumulate`` (its ``reduce``
would add a contiguous run pairwise), then joined to the identity (so a sum of negative
zeros is ``+0``, as XLA's, which starts from ``+0``).
"""

from __future__ import annotations

import math

import numpy as np

from jaxlite._src import dtypes

WINDOW = 32  # XLA:CPU's tree-reduction window
YNN_MIN_SIZE = 4096  # float32/float64 sums of this many elements go to YNNPACK
_NARROW = 16  # fewer outputs than this: fold contiguous runs (``_fold_leading``)

_YNN_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def tree_order(ufunc, dtype, size: int) -> bool:
    """Whether XLA reduces ``size`` elements of ``dtype`` with ``ufunc`` (``np.add`` /
    ``np.multiply``) in the window-tree order: float (16 bits or more) and complex dtypes,
    and not a float32/float64 sum of YNNPACK's size."""
    if not isinstance(dtype, np.dtype) or not dtypes.is_inexact(dtype) or dtype.itemsize < 2:
        return False
    return not (ufunc is np.add and dtype in _YNN_DTYPES and size >= YNN_MIN_SIZE)


def _fold_leading(ufunc, identity, a, k):
    """``a`` reduced over its first ``k`` axes in row-major order, one element at a time,
    from ``identity``."""
    lead = math.prod(a.shape[:k])
    rest = a.shape[k:]
    flat = np.ascontiguousarray(a).reshape(lead, -1)
    if flat.shape[1] == 1:
        r = ufunc.accumulate(flat[:, 0])[-1:]
        return ufunc(r, identity, out=r).reshape(rest)  # from the identity: the zero's sign
    if flat.shape[1] < _NARROW and flat.dtype.kind != "c":
        # A few outputs: NumPy's row-by-row reduce pays per row; fold each output's
        # elements as one contiguous run instead (``_fold_last``'s argument for the sign)
        last = ufunc.accumulate(np.ascontiguousarray(flat.T), axis=-1)[:, -1]
        return ufunc(last, identity).reshape(rest)
    return ufunc.reduce(flat, axis=0, initial=identity).reshape(rest)


def _pad_to_windows(a, axis, identity):
    """``a`` padded with the identity along ``axis`` to whole windows (``pad // 2`` before,
    the rest after, as XLA pads), and the number of windows."""
    n = a.shape[axis]
    m = -(-n // WINDOW)
    pad = m * WINDOW - n
    if pad:
        shape = list(a.shape)
        shape[axis] = m * WINDOW
        padded = np.full(shape, identity, a.dtype)
        index = [slice(None)] * a.ndim
        index[axis] = slice(pad // 2, pad // 2 + n)
        padded[tuple(index)] = a
        a = padded
    return a, m


def _fold_last(ufunc, identity, a):
    """``a`` reduced over its last axis in the window-tree order, without moving that axis:
    ``ufunc.accumulate`` folds each window one element at a time (its last partial result
    is the window's fold; NumPy's ``reduce`` would add a contiguous run pairwise). Each
    fold starts from the first element instead of the identity, which changes at most the
    sign of a zero partial result (``-0 + x`` is ``+0 + x`` for any nonzero ``x``, and a
    product's ``1 * x`` is ``x``): the last combination with the identity gives XLA's.
    Real dtypes only (a complex ``1 * z`` can change the signs of zero parts)."""
    while a.shape[-1] > WINDOW:
        a, m = _pad_to_windows(a, -1, identity)
        a = ufunc.accumulate(a.reshape(a.shape[:-1] + (m, WINDOW)), axis=-1)[..., -1]
    return np.asarray(ufunc(ufunc.accumulate(a, axis=-1)[..., -1], identity))


def _fold_trailing(ufunc, identity, x, k):
    """C-contiguous real ``x`` reduced over its last ``k`` axes, all but the first at most
    a window long: each window (32 slices along the first reduced axis, whole along the
    others) is a contiguous run, folded with ``ufunc.accumulate`` (``_fold_last``'s
    argument for the zero's sign); the window results are then one reduced dimension."""
    kept = x.shape[: x.ndim - k]
    n, run = x.shape[x.ndim - k], math.prod(x.shape[x.ndim - k + 1 :])
    a = x.reshape(kept + (n, run))
    if n <= WINDOW:  # no windows: one fold over every element in row-major order
        last = ufunc.accumulate(a.reshape(kept + (n * run,)), axis=-1)[..., -1]
        return np.asarray(ufunc(last, identity))
    a, m = _pad_to_windows(a, -2, identity)
    windows = ufunc.accumulate(a.reshape(kept + (m, WINDOW * run)), axis=-1)[..., -1]
    return _fold_last(ufunc, identity, windows)


def _fold_middle(ufunc, identity, x, axis):
    """C-contiguous ``x`` reduced over ``axis``, which kept elements follow: NumPy already
    folds such an axis row by row (the kept axes after it are its inner loop), so each
    level of windows is one ``reduce`` over the window-position axis, without moving it."""
    a = x.reshape((math.prod(x.shape[:axis]), x.shape[axis], math.prod(x.shape[axis + 1 :])))
    while a.shape[1] > WINDOW:
        a, m = _pad_to_windows(a, 1, identity)
        a = ufunc.reduce(a.reshape((a.shape[0], m, WINDOW, a.shape[2])), axis=2, initial=identity)
    out = ufunc.reduce(a, axis=1, initial=identity)
    return out.reshape(x.shape[:axis] + x.shape[axis + 1 :])


def tree_reduce(ufunc, identity, x, axes):
    """``x`` reduced with ``ufunc`` over ``axes`` (non-empty, every reduced dimension
    non-zero, at least one output element) in XLA:CPU's window-tree order."""
    axes = tuple(sorted(axes))
    k = len(axes)
    if k == 1 and axes[0] == x.ndim - 1 and x.dtype.kind != "c":
        return _fold_last(ufunc, identity, x)
    if k == 1 and x.flags.c_contiguous and math.prod(x.shape[axes[0] + 1 :]) > 1:
        return _fold_middle(ufunc, identity, x, axes[0])
    if (
        k > 1
        and axes == tuple(range(x.ndim - k, x.ndim))
        and x.flags.c_contiguous
        and x.dtype.kind != "c"
        and max(x.shape[axes[0] + 1 :]) <= WINDOW
    ):
        return _fold_trailing(ufunc, identity, x, k)
    kept = tuple(i for i in range(x.ndim) if i not in axes)
    out_shape = tuple(x.shape[i] for i in kept)
    a = np.transpose(x, axes + kept).reshape(tuple(x.shape[i] for i in axes) + (-1,))
    while max(a.shape[:k]) > WINDOW:
        dims = a.shape[:k]
        wins = [min(d, WINDOW) for d in dims]
        counts = [-(-d // w) for d, w in zip(dims, wins)]
        if any(n * w != d for n, w, d in zip(counts, wins, dims)):
            padded = np.full(
                [n * w for n, w in zip(counts, wins)] + [a.shape[-1]], identity, a.dtype
            )
            lo = [(n * w - d) // 2 for n, w, d in zip(counts, wins, dims)]
            padded[tuple(slice(p, p + d) for p, d in zip(lo, dims))] = a
            a = padded
        split = [s for n, w in zip(counts, wins) for s in (n, w)]
        a = a.reshape(split + [a.shape[-1]])
        # window positions first, then the window indices, then the kept elements
        order = [2 * i + 1 for i in range(k)] + [2 * i for i in range(k)] + [2 * k]
        a = _fold_leading(ufunc, identity, a.transpose(order), k)
    return _fold_leading(ufunc, identity, a, k).reshape(out_shape)
