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
    batching=None,
):
    """One broadcastable int32 index array per operand dimension, plus a validity mask of
    the windows (over the batch positions) for the non-clipping modes. ``batching`` maps
    an operand batching dimension to the output position of its index batch dimension:
    that dimension's index is an iota there (always in bounds)."""
    idxs = []
    valid = None
    batching = batching or {}
    for d, n in enumerate(op_shape):
        shape = [1] * out_rank
        start = starts.get(d)
        term = None
        if d in batching:
            shape[batching[d]] = n
            idxs.append(conversion.broadcasted_iota(dtypes.int32, tuple(shape), batching[d]))
            continue
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


def _check_batching(op, op_shape, ishape, obd, ibd, inserted, index_map, slice_sizes=None):
    """JAX's ``TypeError``s for operand / index batching dimensions that do not pair up
    (``op``: "Gather" or "Scatter"; the index vector is the last dimension of
    ``ishape``)."""
    low = op.lower()
    ins_name, map_name = (
        ("collapsed_slice_dims", "start_index_map")
        if op == "Gather"
        else ("inserted_window_dims", "scatter_dims_to_operand_dims")
    )
    idx_name = "start_indices" if op == "Gather" else "scatter_indices"
    if len(obd) != len(ibd):
        raise TypeError(
            f"{op} op requires equal numbers of operand_batching_dims and "
            f"{idx_name}_batching_dims, got {obd} and{ibd}."
        )
    if len(ishape) - 1 in ibd:
        raise TypeError(
            f"{op} op cannot have the index vector dimension as a batching dimension; got {ibd}."
        )
    for d in obd:
        if not 0 <= d < len(op_shape):
            raise TypeError(
                f"Invalid operand_batching_dims set in {low} op; valid range is "
                f"[0, {len(op_shape)}); got: {obd}."
            )
    for d in ibd:
        if not 0 <= d < len(ishape):
            raise TypeError(
                f"Invalid {idx_name}_batching_dims set in {low} op; valid range is "
                f"[0, {len(ishape)}); got: {ibd}."
            )
    if set(inserted) & set(obd):
        raise TypeError(
            f"{ins_name} and operand_batching_dims in {low} op must be disjoint; "
            f"got: {tuple(inserted)} and {obd}."
        )
    if set(index_map) & set(obd):
        raise TypeError(
            f"{map_name} and operand_batching_dims in {low} op must be disjoint; "
            f"got: {tuple(index_map)} and {obd}."
        )
    if slice_sizes is not None:
        for pos, d in enumerate(obd):
            if slice_sizes[d] > 1:
                raise TypeError(
                    "Gather op can only have operand batching dims with bound 0/1, but "
                    f"bound is {slice_sizes[d]} for index {d} at position {pos}."
                )
    a = tuple(op_shape[d] for d in obd)
    b = tuple(ishape[d] for d in ibd)
    if a != b:
        raise TypeError(
            f"{op} op requires operand batching dimensions and indices batching "
            f"dimensions to have the same shape, got {a} and {b}."
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
    op_shape = aval_of(x).shape
    slice_sizes = tuple(int(s) for s in slice_sizes)
    _check_slice_sizes(op_shape, slice_sizes, dn.collapsed_slice_dims)
    ishape = aval_of(idx).shape
    obd = tuple(int(d) for d in dn.operand_batching_dims)
    ibd = tuple(int(d) for d in dn.start_indices_batching_dims)
    _check_batching(
        "Gather", op_shape, ishape, obd, ibd, dn.collapsed_slice_dims, dn.start_index_map,
        slice_sizes,
    )  # fmt: skip
    batch_shape = ishape[:-1]
    window_dims = [
        d for d in range(len(op_shape)) if d not in dn.collapsed_slice_dims and d not in obd
    ]
    out_rank = len(batch_shape) + len(window_dims)
    offset_dims = tuple(dn.offset_dims)
    batch_positions = [p for p in range(out_rank) if p not in offset_dims]
    batching = {d: batch_positions[j] for d, j in zip(obd, ibd)}
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
        batching,
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
        if fill_value is None:  # JAX's: NaN, the lowest signed, the highest unsigned, True
            xdt = aval_of(x).dtype
            if dtypes.is_inexact(xdt):
                fill_value = np.nan
            elif xdt == np.bool_:
                fill_value = True
            elif dtypes.is_signed(xdt):
                fill_value = np.iinfo(xdt).min
            else:
                fill_value = np.iinfo(xdt).max
        out = ew.select_n(v, _sh.full(tuple(full_shape), fill_value, aval_of(x).dtype), out)
    return out


def _scatter(kind, operand, scatter_indices, updates, dimension_numbers, mode, op=None):
    x = to_array(operand)
    u = to_array(updates)
    if op is not None and aval_of(x).dtype == np.bool_:
        # JAX traces the combiner (add / sub / mul) on the operand's dtype first
        raise TypeError(
            f"{op} does not accept dtype bool at position 0. Accepted dtypes at position 0 "
            "are subtypes of integer, floating, complexfloating."
        )
    if aval_of(u).dtype != aval_of(x).dtype:
        # JAX promotes nothing here, weak types included (a Python scalar update of an
        # int32 operand is fine, a float one is not)
        raise TypeError(
            "lax.scatter requires arguments to have the same dtypes, got "
            f"{aval_of(x).dtype}, {aval_of(u).dtype}."
        )
    idx = _i32(to_array(scatter_indices))
    dn = dimension_numbers
    op_shape = aval_of(x).shape
    ushape = aval_of(u).shape
    ishape = aval_of(idx).shape
    obd = tuple(int(d) for d in dn.operand_batching_dims)
    ibd = tuple(int(d) for d in dn.scatter_indices_batching_dims)
    _check_batching(
        "Scatter", op_shape, ishape, obd, ibd, dn.inserted_window_dims,
        dn.scatter_dims_to_operand_dims,
    )  # fmt: skip
    window_dims = [
        d for d in range(len(op_shape)) if d not in dn.inserted_window_dims and d not in obd
    ]
    uw = tuple(dn.update_window_dims)
    batch_positions = [p for p in range(len(ushape)) if p not in uw]
    batching = {d: batch_positions[j] for d, j in zip(obd, ibd) if j < len(batch_positions)}
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
        batching,
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
    perm = tuple(batch_positions) + uw
    if perm != tuple(range(len(ushape))):
        # XLA applies the updates scatter index by scatter index, each window in order,
        # so where windows overlap the later index wins: the window dimensions go last
        u = _sh.transpose(u, perm)
        idxs = [_sh.transpose(i, perm) for i in idxs]
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
    return _scatter("add", operand, scatter_indices, updates, dimension_numbers, mode, "add")


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
    if aval_of(to_array(operand)).dtype == np.bool_:
        return _scatter("add", operand, scatter_indices, updates, dimension_numbers, mode, "sub")
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
    return _scatter("mul", operand, scatter_indices, updates, dimension_numbers, mode, "mul")


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
