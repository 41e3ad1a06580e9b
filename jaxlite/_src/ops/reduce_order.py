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

The folds run NumPy ufunc calls that add one element at a time (``accumulate`` along a
run, ``reduce`` over a non-minor axis of a C-contiguous array, which adds row by row), never
NumPy's pairwise ``reduce`` along a contiguous run. ``plan`` works out, once per shape,
dtype and axes, which calls fold each level of the tree (the comment on planned folds below);
``general_reduce`` is the plain fold the plans are checked against.
"""

from __future__ import annotations

import functools
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


def general_reduce(ufunc, identity, x, axes):
    """``x`` reduced over ``axes`` in XLA:CPU's window-tree order, written plainly (the
    reference the planned folds are checked against, tests/hunt/test_red_sweep_s27.py):
    each level pads, moves every window's elements to the leading axis in row-major order
    and folds them with ``ufunc.accumulate`` from a leading row of the identity."""
    axes = tuple(sorted(axes))
    k = len(axes)
    kept = tuple(i for i in range(x.ndim) if i not in axes)
    out_shape = tuple(x.shape[i] for i in kept)
    a = np.transpose(x, axes + kept).reshape(tuple(x.shape[i] for i in axes) + (-1,))
    while True:
        dims = a.shape[:k]
        wins, counts, last = _level_shape(dims)
        padded = np.full([n * w for n, w in zip(counts, wins)] + [a.shape[-1]], identity, a.dtype)
        lo = [(n * w - d) // 2 for n, w, d in zip(counts, wins, dims)]
        padded[tuple(slice(p, p + d) for p, d in zip(lo, dims))] = a
        split = [s for n, w in zip(counts, wins) for s in (n, w)]
        order = [2 * i + 1 for i in range(k)] + [2 * i for i in range(k)] + [2 * k]
        rows = padded.reshape(split + [a.shape[-1]]).transpose(order)
        rows = rows.reshape((math.prod(wins), -1))
        rows = np.concatenate((np.full((1, rows.shape[1]), identity, a.dtype), rows))
        a = ufunc.accumulate(rows, axis=0)[-1].reshape(tuple(counts) + (-1,))
        if last:
            return a.reshape(out_shape)


# ----------------------------------------------------------------------------- planned folds
# ``tree_reduce`` runs a plan made once per (ufunc, shape, dtype, axes): the levels of the
# tree with every shape, padding block and gather index worked out, so a call is a few NumPy
# calls. A level is folded in one of three ways:
#
# * ``_view_level``: the reduced axes are the trailing ones and, but for the first, whole
#   windows (a vector, a row sum, a (128, 10) loss): padded along the first (one
#   ``concatenate`` with constant identity blocks), each window is a contiguous run of the
#   reshaped array, folded by ``ufunc.accumulate`` along the last axis.
# * ``_middle_level``: one reduced axis that kept elements follow: NumPy's ``reduce`` over a
#   non-minor axis already adds row by row, from ``initial`` (the kept axes are its vector).
# * ``_gather_level``: anything else: one ``np.take`` with a precomputed index moves every
#   window's elements together (an index past the operand's end reads an appended identity:
#   the padding), as rows for ``reduce`` over the leading axis when the level has many
#   outputs, or as contiguous runs for ``accumulate`` when it has few (a row-by-row reduce
#   pays per row).
#
# ``accumulate`` folds a run from its first element where XLA folds from the identity. For
# real dtypes and complex sums that changes at most the sign of a zero partial sum (``-0 + x``
# is ``+0 + x`` for any non-zero ``x``; a real ``1 * x`` is ``x``), which no later fold from
# the identity sees and one last combination with the identity removes (XLA's sums, from
# ``+0``, are never ``-0``). A complex product's ``1 * z`` can change a part (an infinite part
# makes ``0 * inf``), and NumPy's complex multiply rounds differently from loop to loop, so
# complex products keep ``general_reduce``. A ``reduce`` over the leading axis of a
# C-contiguous array with more than one output adds row by row (NumPy adds pairwise only
# along the inner loop, which is then the kept elements); a plan makes its operand
# C-contiguous first.

_ROWS_MIN = 16  # a gathered level with at least this many outputs folds as rows (``reduce``)
# A middle axis folds with ``reduce`` in place when it has at least this many kept elements
# after it, or at most ``_MIDDLE_ROWS`` rows to add (NumPy's reduce pays per row)
_MIDDLE_MIN, _MIDDLE_ROWS = 16, 256
_PLAN_CACHE_SIZE = 4096
_PLAN_CACHE_MAX_SIZE = 1 << 16  # operands of at most this many elements keep their plan
_plans: dict = {}


def _identity_block(shape, identity, dtype):
    block = np.full(shape, identity, dtype)
    block.flags.writeable = False
    return block


def _level_shape(dims):
    """One level of XLA's tree over reduced dimensions ``dims``: the windows, their counts
    and the padding before; the last level (no dimension over a window) is one window."""
    last = max(dims) <= WINDOW
    wins = tuple(dims) if last else tuple(min(d, WINDOW) for d in dims)
    counts = tuple(-(-d // w) for d, w in zip(dims, wins))
    return wins, counts, last


def _pad_concat(shape, axis, n, w, identity, dtype):
    """The identity blocks that pad ``axis`` (length ``n``) of ``shape`` to ``w``-windows
    (XLA's ``pad // 2`` before), as ``(before, after)`` or None when no padding is needed."""
    pad = -(-n // w) * w - n
    if not pad:
        return None
    lo = list(shape)
    hi = list(shape)
    lo[axis], hi[axis] = pad // 2, pad - pad // 2
    return _identity_block(tuple(lo), identity, dtype), _identity_block(tuple(hi), identity, dtype)


def _view_level(ufunc, identity, dtype, shape, axes, wins, counts):
    """The level as contiguous runs (trailing reduced axes, all but the first whole)."""
    a0 = axes[0]
    kept = shape[:a0]
    n, w, run = shape[a0], wins[0], math.prod(shape[a0 + 1 :])
    three = (math.prod(kept), n, run)
    blocks = _pad_concat(three, 1, n, w, identity, dtype)
    runs = (math.prod(kept) * counts[0], w * run)
    new_shape = kept + tuple(counts)
    accumulate = ufunc.accumulate
    if blocks is None:

        def level(a):
            return accumulate(a.reshape(runs), -1)[:, -1].reshape(new_shape)

    else:
        lo, hi = blocks
        concatenate = np.concatenate

        def level(a):
            padded = concatenate((lo, a.reshape(three), hi), 1)
            return accumulate(padded.reshape(runs), -1)[:, -1].reshape(new_shape)

    return level, new_shape, False


def _middle_level(ufunc, identity, dtype, shape, axis, win, count):
    """The level as ``reduce`` over the window index, kept elements after it."""
    three = (math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :]))
    blocks = _pad_concat(three, 1, shape[axis], win, identity, dtype)
    four = (three[0], count, win, three[2])
    new_shape = shape[:axis] + (count,) + shape[axis + 1 :]
    reduce = ufunc.reduce
    initial = np.asarray(identity, dtype)[()]
    if blocks is None:

        def level(a):
            return reduce(a.reshape(four), 2, None, None, False, initial).reshape(new_shape)

    else:
        lo, hi = blocks
        concatenate = np.concatenate

        def level(a):
            padded = concatenate((lo, a.reshape(three), hi), 1).reshape(four)
            return reduce(padded, 2, None, None, False, initial).reshape(new_shape)

    return level, new_shape, True


def _gather_level(ufunc, identity, dtype, shape, axes, wins, counts):
    """The level as one gather, then ``reduce`` over rows or ``accumulate`` over runs."""
    size = math.prod(shape)
    padded_shape = list(shape)
    where = [slice(None)] * len(shape)
    split, out_axes, win_axes = [], [], []
    for i, d in enumerate(shape):
        if i in axes:
            j = axes.index(i)
            n, w = counts[j], wins[j]
            padded_shape[i] = n * w
            where[i] = slice((n * w - d) // 2, (n * w - d) // 2 + d)
            out_axes.append(len(split))
            win_axes.append(len(split) + 1)
            split += [n, w]
        else:
            out_axes.append(len(split))
            split.append(d)
    index = np.full(padded_shape, size, np.intp)  # ``size``: the appended identity
    index[tuple(where)] = np.arange(size, dtype=np.intp).reshape(shape)
    outs, win = math.prod(split[i] for i in out_axes), math.prod(wins)
    new_shape = tuple(counts[axes.index(i)] if i in axes else d for i, d in enumerate(shape))
    rows = outs >= _ROWS_MIN
    index = index.reshape(split).transpose(win_axes + out_axes if rows else out_axes + win_axes)
    index = np.ascontiguousarray(index).reshape((win, outs) if rows else (outs, win))
    index.flags.writeable = False
    take, concatenate = np.take, np.concatenate
    tail = np.full(1, identity, dtype)
    tail.flags.writeable = False
    padded = bool((index == size).any())
    plain = not padded and np.array_equal(index.reshape(-1), np.arange(size))
    if plain:
        layout = index.shape

        def gather(a):
            return a.reshape(layout)

    elif padded:

        def gather(a):
            return take(concatenate((a.reshape(-1), tail)), index)

    else:

        def gather(a):
            return take(a.reshape(-1), index)

    if rows:
        reduce = ufunc.reduce
        initial = np.asarray(identity, dtype)[()]

        def level(a):
            return reduce(gather(a), 0, None, None, False, initial).reshape(new_shape)

    else:
        accumulate = ufunc.accumulate

        def level(a):
            return accumulate(gather(a), -1)[:, -1].reshape(new_shape)

    return level, new_shape, rows


def _make_plan(ufunc, identity, shape, dtype, axes):
    """The levels of XLA's tree for ``x`` of ``shape`` / ``dtype`` reduced over sorted
    ``axes``, as one function of ``x``."""
    if dtype.kind == "c" and ufunc is np.multiply:
        # NumPy multiplies complex numbers with or without fused multiply-adds depending on
        # the loop (an accumulated run, a vector), so one fold for every layout
        return functools.partial(general_reduce, ufunc, identity, axes=axes)
    levels = []
    exact = True
    while True:
        dims = [shape[a] for a in axes]
        wins, counts, last = _level_shape(dims)
        k = len(axes)
        size = math.prod(shape)
        outs = size // math.prod(dims) * math.prod(counts)
        inner = math.prod(shape[axes[-1] + 1 :])
        trailing = axes == tuple(range(len(shape) - k, len(shape)))
        if outs < _ROWS_MIN and trailing and all(w == d for w, d in zip(wins[1:], dims[1:])):
            level, shape, exact = _view_level(ufunc, identity, dtype, shape, axes, wins, counts)
        elif k == 1 and inner > 1 and (inner >= _MIDDLE_MIN or size // inner <= _MIDDLE_ROWS):
            level, shape, exact = _middle_level(
                ufunc, identity, dtype, shape, axes[0], wins[0], counts[0]
            )
        else:
            level, shape, exact = _gather_level(ufunc, identity, dtype, shape, axes, wins, counts)
        levels.append(level)
        if last:
            break
    out_shape = tuple(d for i, d in enumerate(shape) if i not in axes)
    # The last level's result is XLA's up to a zero's sign unless it folded from the
    # identity: one more combination with it (``+ 0`` for sums; ``1 * x`` is ``x``), in place
    # (every level's result is a new array).
    fix = None if exact or ufunc is np.multiply else np.asarray(identity, dtype)
    # NumPy's ``reduce`` adds row by row along a non-minor axis of a C-contiguous array only
    first, contiguous = levels[0], np.ascontiguousarray
    if len(levels) == 1 and fix is None:

        def plan(x):
            return first(contiguous(x)).reshape(out_shape)

    elif len(levels) == 1:

        def plan(x):
            r = first(contiguous(x)).reshape(out_shape)
            return ufunc(r, fix, out=r)

    elif len(levels) == 2:
        second = levels[1]

        def plan(x):
            r = second(first(contiguous(x))).reshape(out_shape)
            return r if fix is None else ufunc(r, fix, out=r)

    else:

        def plan(x):
            x = contiguous(x)
            for level in levels:
                x = level(x)
            x = x.reshape(out_shape)
            return x if fix is None else ufunc(x, fix, out=x)

    return plan


def plan(ufunc, shape, dtype, axes):
    """A function of ``x`` (``shape`` / ``dtype``) that reduces it over ``axes`` (non-empty,
    every reduced dimension non-zero, at least one output element) with ``ufunc``
    (``np.add`` / ``np.multiply``) in XLA:CPU's window-tree order; made once per key."""
    key = (ufunc, tuple(shape), dtype, tuple(sorted(axes)))
    fn = _plans.get(key)
    if fn is None:
        identity = 0 if ufunc is np.add else 1
        fn = _make_plan(ufunc, identity, key[1], np.dtype(dtype), key[3])
        if math.prod(key[1]) <= _PLAN_CACHE_MAX_SIZE:  # a large plan's indices stay uncached
            if len(_plans) >= _PLAN_CACHE_SIZE:
                _plans.clear()
            _plans[key] = fn
    return fn


def tree_reduce(ufunc, x, axes):
    """``x`` reduced with ``ufunc`` (``np.add`` / ``np.multiply``) over ``axes`` (non-empty,
    every reduced dimension non-zero, at least one output element) in XLA:CPU's window-tree
    order."""
    return plan(ufunc, x.shape, x.dtype, axes)(x)
