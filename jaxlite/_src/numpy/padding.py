"""``jnp.pad``: every NumPy mode JAX supports (static pad widths).

Modes are applied axis by axis, each on the array already padded along the earlier axes, as
NumPy does: ``constant``, ``edge``, ``wrap``, ``reflect`` and ``symmetric`` (``reflect_type``
``"even"`` or ``"odd"``, widths beyond the axis reflected again and again), ``linear_ramp``,
``maximum``, ``minimum``, ``mean`` and ``median`` (over ``stat_length`` edge elements;
integer results rounded, as NumPy), and ``empty`` (zeros here).
"""

from __future__ import annotations

import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import linspace
from jaxlite._src.numpy.shape import _take_static, broadcast_to, concatenate, moveaxis, squeeze
from jaxlite._src.numpy.statistics import median
from jaxlite._src.numpy.ufuncs import multiply, round as _round, subtract
from jaxlite._src.numpy.util import asarray_any
from jaxlite._src.ops import conversion, shape as _sh

_STAT = {"maximum": reductions.max, "minimum": reductions.min, "mean": reductions.mean}
_KWARGS = {
    "constant": {"constant_values"},
    "edge": set(),
    "wrap": set(),
    "reflect": {"reflect_type"},
    "symmetric": {"reflect_type"},
    "linear_ramp": {"end_values"},
    "maximum": {"stat_length"},
    "minimum": {"stat_length"},
    "mean": {"stat_length"},
    "median": {"stat_length"},
    "empty": set(),
}


def _pad_widths(pad_width, nd):
    pw = np.asarray(pad_width)
    if pw.dtype.kind not in "iu":
        raise TypeError(f"`pad_width` must be of integral type, got {pad_width}")
    pw = np.broadcast_to(pw, (nd, 2)) if pw.ndim <= 1 else pw
    if pw.shape != (nd, 2):
        pw = np.broadcast_to(pw, (nd, 2))
    if np.any(pw < 0):
        raise ValueError("index can't contain negative values")
    return [(int(lo), int(hi)) for lo, hi in pw]


def _pairs(value, nd, name):
    """A scalar, a pair or per-axis pairs, as ``(nd, 2)`` Python values."""
    v = np.asarray(value, dtype=object if value is None else None)
    try:
        return np.broadcast_to(v, (nd, 2))
    except ValueError:
        raise ValueError(f"jnp.pad: {name} {value!r} does not fit an array of {nd} dims") from None


def _sl(a, start, stop, ax):
    return _sh.slice_in_dim(a, start, stop, 1, ax)


def _cast(v, like):
    """``v`` in ``like``'s dtype; integer results are rounded first (as NumPy's pad and
    JAX's); boolean ones are not (as JAX: a mean of 0.5 is True)."""
    if dtypes.is_int(like.dtype):
        v = _round(v)
    return v.astype(like.dtype)


def _reflect_axis(a, ax, lo, hi, symmetric, odd):
    """Reflect about the edges, chunk by chunk (a chunk is at most the original length, less
    one without the edge), each chunk mirrored about the current edge."""
    period = a.shape[ax] - (0 if symmetric else 1)
    if period < 1:  # one element: reflect degenerates to edge
        return _take_static(a, np.zeros(a.shape[ax] + lo + hi, np.int32), ax)
    while lo or hi:
        n = a.shape[ax]
        parts = [a]
        if lo:
            k = min(lo, period)
            start = 0 if symmetric else 1
            chunk = _sh.rev(_sl(a, start, start + k, ax), (ax,))
            if odd:
                chunk = subtract(multiply(_sl(a, 0, 1, ax), 2), chunk)
            parts.insert(0, chunk)
            lo -= k
        if hi:
            k = min(hi, period)
            stop = n if symmetric else n - 1
            chunk = _sh.rev(_sl(a, stop - k, stop, ax), (ax,))
            if odd:
                chunk = subtract(multiply(_sl(a, n - 1, n, ax), 2), chunk)
            parts.append(chunk)
            hi -= k
        a = concatenate(parts, ax)
    return a


def _ramp(edge, end, width, ax, like, left):
    """``width`` values from ``end`` towards ``edge`` (which is excluded), in ``like``'s dtype
    (integer ramps floor, as NumPy's linspace); on the right side reversed."""
    r = linspace(end, squeeze(edge, ax), width, endpoint=False, dtype=like.dtype, axis=ax)
    r = conversion.convert_element_type(r, like.dtype, aval_of(like).weak_type)
    return r if left else _sh.rev(r, (ax,))


def _stat_axis(a, ax, lo, hi, mode, stat_length):
    n = a.shape[ax]
    parts = [a]
    for side, w in ((0, lo), (1, hi)):
        if not w:
            continue
        length = stat_length[side]
        length = n if length is None else min(operator.index(length), n)
        if length == 0:
            raise ValueError("stat_length of 0 yields no value for padding")
        region = _sl(a, 0, length, ax) if side == 0 else _sl(a, n - length, n, ax)
        if mode == "median":
            v = moveaxis(median(moveaxis(region, ax, -1), axis=-1, keepdims=True), -1, ax)
        else:
            v = _STAT[mode](region, axis=ax, keepdims=True)
        v = _cast(v, a)
        shape = list(a.shape)
        shape[ax] = w
        v = broadcast_to(v, tuple(shape))
        parts.insert(0, v) if side == 0 else parts.append(v)
    return concatenate(parts, ax) if len(parts) > 1 else a


def pad(array, pad_width, mode="constant", **kwargs):
    """``jnp.pad``: pad ``array`` with ``pad_width`` elements before/after each axis.

    Args:
        array: array to pad.
        pad_width: an int, a pair, or one ``(before, after)`` pair per axis (static ints).
        mode: ``"constant"`` (``constant_values``), ``"edge"``, ``"wrap"``, ``"reflect"``
            or ``"symmetric"`` (``reflect_type="even"|"odd"``), ``"linear_ramp"``
            (``end_values``), ``"maximum"``, ``"minimum"``, ``"mean"``, ``"median"``
            (``stat_length``), ``"empty"``.
        **kwargs: the mode's options, as NumPy's.

    Returns:
        The padded array, ``array``'s dtype.

    Raises:
        ValueError: for an unknown mode or option, an empty axis padded by a mode that
            reads it, a negative width.
        TypeError: for non-integer widths.
    """
    a = asarray_any(array)
    widths = _pad_widths(pad_width, a.ndim)
    if callable(mode):
        raise NotImplementedError("jaxlite's jnp.pad does not take a callable mode")
    if mode not in _KWARGS:
        raise NotImplementedError(f"Unimplemented padding mode '{mode}' for np.pad.")
    unknown = set(kwargs) - _KWARGS[mode]
    if unknown:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unknown}")
    if mode in ("constant", "empty"):
        return _constant(a, widths, 0 if mode == "empty" else kwargs.get("constant_values", 0))
    odd = kwargs.get("reflect_type", "even") == "odd"
    ends = _pairs(kwargs.get("end_values", 0), a.ndim, "end_values")
    stats = _pairs(kwargs.get("stat_length", None), a.ndim, "stat_length")
    for ax, (lo, hi) in enumerate(widths):
        if lo == 0 and hi == 0:
            continue
        n = a.shape[ax]
        if n == 0:
            raise ValueError(f"Cannot apply '{mode}' padding to empty axis")
        if mode in ("edge", "wrap") or (mode in ("reflect", "symmetric") and not odd):
            a = _take_static(a, np.pad(np.arange(n), (lo, hi), mode=mode).astype(np.int32), ax)
        elif mode in ("reflect", "symmetric"):
            a = _reflect_axis(a, ax, lo, hi, mode == "symmetric", odd)
        elif mode == "linear_ramp":
            parts = [a]
            if lo:
                parts.insert(0, _ramp(_sl(a, 0, 1, ax), ends[ax, 0], lo, ax, a, True))
            if hi:
                parts.append(_ramp(_sl(a, n - 1, n, ax), ends[ax, 1], hi, ax, a, False))
            a = concatenate(parts, ax)
        else:
            a = _stat_axis(a, ax, lo, hi, mode, stats[ax])
    return a


def _constant(a, widths, cv):
    # The pad value takes the operand's dtype and weak type (a weak array stays weak).
    weak = aval_of(a).weak_type
    cvs = np.asarray(cv) if not isinstance(cv, (Tracer,)) else None
    if cvs is not None and cvs.ndim > 0:
        cvs = np.broadcast_to(cvs, (a.ndim, 2))
        for ax, (lo, hi) in enumerate(widths):
            for side, w in ((0, lo), (1, hi)):
                if w:
                    cfg = [(0, 0, 0)] * a.ndim
                    cfg[ax] = (w, 0, 0) if side == 0 else (0, w, 0)
                    val = conversion.convert_element_type(
                        asarray_any(cvs[ax, side].item()), a.dtype, weak
                    )
                    a = _sh.pad(a, val, cfg)
        return a
    val = conversion.convert_element_type(asarray_any(cv), a.dtype, weak)
    return _sh.pad(a, val, [(lo, hi, 0) for lo, hi in widths])
