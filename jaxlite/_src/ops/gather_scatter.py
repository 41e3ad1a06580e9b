"""``jax.lax.gather`` / ``jax.lax.scatter*`` with XLA-style dimension numbers, expressed with
the NumPy-shaped ``gather_p``/``scatter_p`` primitives (``ops/indexing.py``): every operand
dimension gets a full index array (start index from ``start_indices`` plus a window iota), so
all rules (JVP, transpose, batching) come from those primitives.

Out-of-bounds: ``gather`` clamps windows into range (default and ``"clip"``) or fills them
(``"fill"``); ``scatter`` drops windows that do not fit (default / ``"drop"``) or clamps them
(``"clip"``), as JAX does.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import (
    clamp as _clamp,
    conversion,
    elementwise as ew,
    indexing as _ix,
    shape as _sh,
    structural,
)


class GatherDimensionNumbers(NamedTuple):
    """``jax.lax.GatherDimensionNumbers``."""

    offset_dims: tuple
    collapsed_slice_dims: tuple
    start_index_map: tuple
    operand_batching_dims: tuple = ()
    start_indices_batching_dims: tuple = ()


class ScatterDimensionNumbers(NamedTuple):
    """``jax.lax.ScatterDimensionNumbers``."""

    update_window_dims: tuple
    inserted_window_dims: tuple
    scatter_dims_to_operand_dims: tuple
    operand_batching_dims: tuple = ()
    scatter_indices_batching_dims: tuple = ()


def _mode_name(mode):
    # None is PROMISE_IN_BOUNDS for lax.gather/scatter (JAX): XLA's own semantics, which
    # clamp a gather's windows and drop a scatter's out-of-bounds ones.
    if mode is None:
        return "promise"
    if isinstance(mode, enum.Enum):
        name = mode.name
    else:
        name = mode
    names = {
        "CLIP": "clip",
        "FILL_OR_DROP": "fill",
        "PROMISE_IN_BOUNDS": "promise",
        "ONE_HOT": "one_hot",
    }
    if isinstance(mode, enum.Enum) and name in names:
        return names[name]
    # JAX's GatherScatterMode.from_any takes exactly these strings; any other (a typo such
    # as "fill_or_drop", an enum's name, an int) is its ValueError, not a silent clamp.
    strings = {
        "clip": "clip",
        "fill": "fill",
        "drop": "fill",
        "promise_in_bounds": "promise",
        "one_hot": "one_hot",
    }
    if isinstance(name, str) and name in strings:
        return strings[name]
    raise ValueError(f'Unknown gather mode "{mode}"')


def _i32(x):
    return conversion.convert_element_type(x, dtypes.int32)


def _index_arrays(
    op_shape,
    starts,
    window_sizes,
    window_dims,
    window_positions,
    batch_shape,
    batch_positions,
    out_rank,
    clip,
):
    """One broadcastable int32 index array per operand dimension, plus a validity mask of
    the windows (over the batch positions) for the non-clipping modes."""
    idxs = []
    valid = None
    for d, n in enumerate(op_shape):
        shape = [1] * out_rank
        start = starts.get(d)
        term = None
        if start is not None:
            lim = n - window_sizes[d]
            ok = ew.and_(ew.ge(start, ew._const(start, 0)), ew.le(start, ew._const(start, lim)))
            valid = ok if valid is None else ew.and_(valid, ok)
            start = _clamp.clamp(ew._const(start, 0), start, ew._const(start, max(lim, 0)))
            bshape = [1] * out_rank
            for p, s in zip(batch_positions, batch_shape):
                bshape[p] = s
            term = _sh.reshape(start, bshape)
        if d in window_dims:
            pos = window_positions[window_dims.index(d)]
            shape[pos] = window_sizes[d]
            it = conversion.broadcasted_iota(dtypes.int32, tuple(shape), pos)
            term = (
                it
                if term is None
                else ew.add(
                    _sh.broadcast_to_rank(term, _bshape(aval_of(term).shape, tuple(shape))),
                    _sh.broadcast_to_rank(it, _bshape(aval_of(term).shape, tuple(shape))),
                )
            )
        if term is None:
            term = _sh.full(tuple([1] * out_rank), 0, dtypes.int32)
        idxs.append(term)
    return idxs, valid


def _bshape(a, b):
    """The broadcast of two shapes of equal rank (a size of 1 takes the other's, so a
    zero-sized dimension stays zero; ``max`` made it 1)."""
    return tuple(y if x == 1 else x for x, y in zip(a, b))


def _check_slice_sizes(op_shape, slice_sizes, collapsed):
    """JAX's ``TypeError``s for gather slice sizes that do not fit the operand (jaxlite
    sliced them anyway: a window past the end clipped, a collapsed size other than 1 lost)."""
    if len(slice_sizes) != len(op_shape):
        raise TypeError(
            "Gather op must have one slice size for every input dimension; got: "
            f"len(slice_sizes)={len(slice_sizes)}, input_shape.rank={len(op_shape)}"
        )
    for i, (size, bound) in enumerate(zip(slice_sizes, op_shape)):
        if not 0 <= size <= bound:
            raise TypeError(
                f"Slice size at index {i} in gather op is out of range, must be within "
                f"[0, {bound} + 1), got {size}."
            )
    for pos, d in enumerate(collapsed):
        if slice_sizes[d] != 1:
            raise TypeError(
                "Gather op can only collapse slice dims with bound 1, but bound is "
                f"{slice_sizes[d]} for index {d} at position {pos}."
            )


def gather(
    operand,
    start_indices,
    dimension_numbers,
    slice_sizes,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
    fill_value=None,
):
    """``jax.lax.gather``: XLA gather. ``start_indices`` has the index vector in its last
    dimension; the output has the batch dimensions of ``start_indices`` plus the
    non-collapsed window dimensions at ``offset_dims``."""
    x = to_array(operand)
    idx = _i32(to_array(start_indices))
    dn = dimension_numbers
    if dn.operand_batching_dims or dn.start_indices_batching_dims:
        raise NotImplementedError("jaxlite lax.gather does not support batching dims")
    op_shape = aval_of(x).shape
    slice_sizes = tuple(int(s) for s in slice_sizes)
    _check_slice_sizes(op_shape, slice_sizes, dn.collapsed_slice_dims)
    ishape = aval_of(idx).shape
    batch_shape = ishape[:-1]
    window_dims = [d for d in range(len(op_shape)) if d not in dn.collapsed_slice_dims]
    out_rank = len(batch_shape) + len(window_dims)
    offset_dims = tuple(dn.offset_dims)
    batch_positions = [p for p in range(out_rank) if p not in offset_dims]
    starts = {
        d: _sh.index_in_dim(idx, k, len(ishape) - 1, keepdims=False)
        for k, d in enumerate(dn.start_index_map)
    }
    m = _mode_name(mode)
    idxs, valid = _index_arrays(
        op_shape,
        starts,
        slice_sizes,
        window_dims,
        list(offset_dims),
        batch_shape,
        batch_positions,
        out_rank,
        m != "fill",
    )
    out = _ix.gather(x, *idxs)
    out_shape = aval_of(out).shape
    full_shape = [0] * out_rank
    for p, s in zip(batch_positions, batch_shape):
        full_shape[p] = s
    for p, d in zip(offset_dims, window_dims):
        full_shape[p] = slice_sizes[d]
    if tuple(out_shape) != tuple(full_shape):
        out = _sh.broadcast_to_rank(out, tuple(full_shape))
    if m == "promise" and valid is not None:
        # XLA clamps a gather's windows, but its transpose (a scatter) drops the windows
        # out of bounds: no derivative flows through a clamped window (as in JAX).
        bshape = [1] * out_rank
        for p, s in zip(batch_positions, batch_shape):
            bshape[p] = s
        v = _sh.broadcast_to_rank(_sh.reshape(valid, bshape), tuple(full_shape))
        out = ew.select_n(v, structural.stop_gradient_p.bind(out), out)
    if m == "fill" and valid is not None:
        bshape = [1] * out_rank
        for p, s in zip(batch_positions, batch_shape):
            bshape[p] = s
        v = _sh.broadcast_to_rank(_sh.reshape(valid, bshape), tuple(full_shape))
        if fill_value is None:
            fill_value = (
                np.nan
                if dtypes.is_inexact(aval_of(x).dtype)
                else (np.iinfo(aval_of(x).dtype).min if dtypes.is_signed(aval_of(x).dtype) else 0)
            )
        out = ew.select_n(v, _sh.full(tuple(full_shape), fill_value, aval_of(x).dtype), out)
    return out


def _scatter(kind, operand, scatter_indices, updates, dimension_numbers, mode):
    x = to_array(operand)
    u = to_array(updates)
    if aval_of(u).dtype != aval_of(x).dtype:
        u = conversion.convert_element_type(u, aval_of(x).dtype)
    idx = _i32(to_array(scatter_indices))
    dn = dimension_numbers
    if dn.operand_batching_dims or dn.scatter_indices_batching_dims:
        raise NotImplementedError("jaxlite lax.scatter does not support batching dims")
    op_shape = aval_of(x).shape
    ushape = aval_of(u).shape
    ishape = aval_of(idx).shape
    window_dims = [d for d in range(len(op_shape)) if d not in dn.inserted_window_dims]
    uw = tuple(dn.update_window_dims)
    batch_positions = [p for p in range(len(ushape)) if p not in uw]
    batch_shape = tuple(ushape[p] for p in batch_positions)
    window_sizes = [1] * len(op_shape)
    for p, d in zip(uw, window_dims):
        window_sizes[d] = ushape[p]
    starts = {
        d: _sh.index_in_dim(idx, k, len(ishape) - 1, keepdims=False)
        for k, d in enumerate(dn.scatter_dims_to_operand_dims)
    }
    m = _mode_name(mode)
    idxs, valid = _index_arrays(
        op_shape,
        starts,
        window_sizes,
        window_dims,
        list(uw),
        batch_shape,
        batch_positions,
        len(ushape),
        m == "clip",
    )
    if m != "clip" and valid is not None:
        # Windows that do not fit are dropped: point them past the end of dimension 0.
        bshape = [1] * len(ushape)
        for p, s in zip(batch_positions, batch_shape):
            bshape[p] = s
        v = _sh.reshape(valid, bshape)
        target = tuple(_bshape(aval_of(idxs[0]).shape, tuple(bshape)))
        i0 = _sh.broadcast_to_rank(idxs[0], target)
        vb = _sh.broadcast_to_rank(v, target)
        idxs[0] = ew.select_n(vb, _sh.full(target, op_shape[0], dtypes.int32), i0)
    idxs = [_sh.broadcast_to_rank(i, ushape) for i in idxs]
    return _ix.scatter(x, u, idxs, kind)


def scatter(
    operand,
    scatter_indices,
    updates,
    dimension_numbers,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
):
    """``jax.lax.scatter``: overwrite windows of ``operand`` with ``updates`` (differentiated
    as JAX's scatter with or without ``unique_indices``; ``indices_are_sorted`` changes
    nothing)."""
    kind = "set_unique" if unique_indices else "set"
    return _scatter(kind, operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_add(
    operand,
    scatter_indices,
    updates,
    dimension_numbers,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
):
    """``jax.lax.scatter_add``: add ``updates`` into windows of ``operand``."""
    return _scatter("add", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_sub(
    operand,
    scatter_indices,
    updates,
    dimension_numbers,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
):
    """``jax.lax.scatter_sub``."""
    return _scatter("add", operand, scatter_indices, ew.neg(updates), dimension_numbers, mode)


def scatter_mul(
    operand,
    scatter_indices,
    updates,
    dimension_numbers,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
):
    """``jax.lax.scatter_mul``."""
    return _scatter("mul", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_min(
    operand,
    scatter_indices,
    updates,
    dimension_numbers,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
):
    """``jax.lax.scatter_min``."""
    return _scatter("min", operand, scatter_indices, updates, dimension_numbers, mode)


def scatter_max(
    operand,
    scatter_indices,
    updates,
    dimension_numbers,
    *,
    indices_are_sorted=False,
    unique_indices=False,
    mode=None,
):
    """``jax.lax.scatter_max``."""
    return _scatter("max", operand, scatter_indices, updates, dimension_numbers, mode)
