"""NumPy kernels of ``max_p`` / ``min_p`` and the signed-zero repairs that make NumPy's
``maximum`` / ``minimum`` family give XLA's answers (no project imports).

Real operands: NaN propagates (as in XLA) and, unlike NumPy, ``-0.0 < +0.0``: XLA's max of
``+0.0`` and ``-0.0`` is ``+0.0`` and its min ``-0.0`` in either order, where NumPy returns
its second operand on a tie. The repairs run only where a result is a zero, so their cost
is a comparison pass on inputs without zeros. The same rule fixes the reductions, the
cumulative ``cummax``/``cummin`` and the scatter ``max``/``min`` built on NumPy's kernels.

Complex operands follow XLA's complex max/min: lexicographic on (real, imag), and the
second operand unless the first compares strictly greater (less), so a comparison with a
NaN part picks the second operand instead of propagating the NaN.
"""

from __future__ import annotations

import numpy as np


def _complex_pick(x, y, greater):
    xr, yr = np.real(x), np.real(y)
    cmp = np.greater if greater else np.less
    with np.errstate(invalid="ignore"):
        take_x = cmp(xr, yr) | ((xr == yr) & cmp(np.imag(x), np.imag(y)))
    return np.where(take_x, x, y)


def _is_float(a) -> bool:
    dt = np.asarray(a).dtype
    return dt.kind == "f" or (dt.kind == "V" and dt.itemsize <= 2)  # ml_dtypes floats


def _zero_tie(x, y, r, greater):
    """``r`` (NumPy's max/min of ``x``, ``y``) with XLA's sign on a tie of two zeros:
    ``x + y`` is ``+0`` unless both are ``-0`` (max); ``-(-x - y)`` is ``-0`` unless both
    are ``+0`` (min)."""
    if not _is_float(r):
        return r
    z = r == 0
    if not np.any(z):
        return r
    both = (x == 0) & (y == 0)
    tie = (x + y) if greater else -((-x) - y)
    return np.where(both, tie, r).astype(np.asarray(r).dtype, copy=False)


def max_impl(x, y):
    """``lax.max`` on NumPy values."""
    if np.iscomplexobj(x):
        return _complex_pick(x, y, True)
    return _zero_tie(x, y, np.maximum(x, y), True)


def min_impl(x, y):
    """``lax.min`` on NumPy values."""
    if np.iscomplexobj(x):
        return _complex_pick(x, y, False)
    return _zero_tie(x, y, np.minimum(x, y), False)


def _zero_kind(x, greater):
    """Where ``x`` holds the zero that wins a tie: ``+0`` for max, ``-0`` for min."""
    s = np.signbit(x)
    return (x == 0) & (s if not greater else ~s)


def fix_reduce(r, x, axis, greater):
    """``r`` = NumPy's max (``greater``) / min of ``x`` over ``axis`` (no keepdims), with
    XLA's sign where it is a zero: ``+0`` for max if any reduced element is ``+0``, ``-0``
    for min if any is ``-0``."""
    if not _is_float(x):
        return r
    z = np.asarray(r) == 0
    if not np.any(z):
        return r
    hit = np.any(_zero_kind(x, greater), axis=axis)
    win = np.zeros((), x.dtype) if greater else -np.zeros((), x.dtype)
    return np.where(z & hit, win, r).astype(x.dtype, copy=False)


def fix_accumulate(r, x, axis, greater):
    """``r`` = NumPy's ``maximum``/``minimum.accumulate`` of ``x`` along ``axis``, with
    XLA's signed zeros (a running ``fix_reduce``)."""
    if not _is_float(x):
        return r
    z = r == 0
    if not np.any(z):
        return r
    hit = np.logical_or.accumulate(_zero_kind(x, greater), axis=axis)
    win = np.zeros((), x.dtype) if greater else -np.zeros((), x.dtype)
    return np.where(z & hit, win, r).astype(x.dtype, copy=False)


def fix_scatter(out, x, index, upd, greater):
    """``out`` = ``x`` after NumPy's ``maximum.at``/``minimum.at(out, index, upd)``, with
    XLA's signed zeros: a zero result is ``+0`` (max) if ``x`` or an update landing there
    was ``+0`` (``-0`` for min). ``out`` is modified in place and returned."""
    if not _is_float(out):
        return out
    z = out == 0
    if not np.any(z):
        return out
    hit = _zero_kind(x, greater)
    np.logical_or.at(hit, index, _zero_kind(upd, greater))
    out[z & hit] = 0 if greater else -np.zeros((), out.dtype)
    return out


# Native-tier (Numba) expressions of the same max/min, for real operands of one shape: a
# tie of two zeros takes the sum as in ``_zero_tie``. Scalars use a conditional expression.
MAX_SCALAR = "(({0}) + ({1}) if ({0}) == 0 and ({1}) == 0 else np.maximum({0}, {1}))"
MIN_SCALAR = "(-((-({0})) - ({1})) if ({0}) == 0 and ({1}) == 0 else np.minimum({0}, {1}))"
MAX_ARRAY = "np.where((({0}) == 0) & (({1}) == 0), ({0}) + ({1}), np.maximum({0}, {1}))"
MIN_ARRAY = "np.where((({0}) == 0) & (({1}) == 0), -((-({0})) - ({1})), np.minimum({0}, {1}))"
