"""Small ``jax.lax`` conveniences over existing primitives: dynamic_index_in_dim,
dynamic_slice_in_dim, dynamic_update_index_in_dim, dynamic_update_slice_in_dim, collapse
(``lax.reduce`` is ``lax_reduce.py``)."""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import shape as _sh
from jaxlite._src.ops.slicing import dynamic_slice, dynamic_update_slice


def _traced_index(index, allow_negative_indices):
    """JAX jits the ``*_index_in_dim`` functions, so their index is never a Python int
    there: a negative one with ``allow_negative_indices=False`` is clamped to 0, not an
    error as in ``dynamic_slice_in_dim``."""
    if allow_negative_indices or isinstance(index, bool):
        return index
    if isinstance(index, (int, np.integer)):
        return to_array(index)
    return index


def _in_dim_axis(axis, nd, exc=IndexError):
    # an axis in [-nd, nd) (IndexError otherwise, as JAX's list indexing; ValueError for
    # dynamic_update_index_in_dim, whose expand_dims checks first), never wrapped
    axis = int(axis)
    if not -nd <= axis < nd:
        raise exc(f"axis {axis} is out of bounds for array of dimension {nd}")
    return axis % nd


def dynamic_slice_in_dim(
    operand, start_index, slice_size: int, axis: int = 0, *, allow_negative_indices=True
):
    """``jax.lax.dynamic_slice_in_dim``: ``dynamic_slice`` along one axis."""
    shape = aval_of(operand).shape
    axis = _in_dim_axis(axis, len(shape))
    starts = [np.int32(0)] * len(shape)
    starts[axis] = start_index
    sizes = list(shape)
    sizes[axis] = operator.index(slice_size)  # a float size is a TypeError, as JAX
    # per axis, as JAX: the value given (read for its truth: None is False) at ``axis``
    allow = [False] * len(shape)
    allow[axis] = allow_negative_indices
    return dynamic_slice(operand, starts, sizes, allow_negative_indices=allow)


def dynamic_index_in_dim(
    operand, index, axis: int = 0, keepdims: bool = True, *, allow_negative_indices=True
):
    """``jax.lax.dynamic_index_in_dim``: one (clamped) index along ``axis``."""
    index = _traced_index(index, allow_negative_indices)
    out = dynamic_slice_in_dim(
        operand, index, 1, axis, allow_negative_indices=allow_negative_indices
    )
    if keepdims:
        return out
    return _sh.squeeze(out, (int(axis) % len(aval_of(operand).shape),))


def dynamic_update_slice_in_dim(
    operand, update, start_index, axis: int, *, allow_negative_indices=True
):
    """``jax.lax.dynamic_update_slice_in_dim``."""
    nd = len(aval_of(operand).shape)
    axis = _in_dim_axis(axis, nd)
    starts = [np.int32(0)] * nd
    starts[axis] = start_index
    return dynamic_update_slice(
        operand, update, starts, allow_negative_indices=allow_negative_indices
    )


def dynamic_update_index_in_dim(operand, update, index, axis: int, *, allow_negative_indices=True):
    """``jax.lax.dynamic_update_index_in_dim``."""
    index = _traced_index(index, allow_negative_indices)
    nd = len(aval_of(operand).shape)
    axis = _in_dim_axis(axis, nd, ValueError)
    if len(aval_of(update).shape) == nd - 1:
        update = _sh.expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(
        operand, update, index, axis, allow_negative_indices=allow_negative_indices
    )


def collapse(operand, start_dimension: int, stop_dimension: int | None = None):
    """``jax.lax.collapse``: merge dimensions ``[start, stop)`` into one."""
    shape = aval_of(operand).shape
    stop = len(shape) if stop_dimension is None else stop_dimension
    size = int(np.prod(shape[start_dimension:stop], dtype=np.int64))
    return _sh.reshape(operand, shape[:start_dimension] + (size,) + shape[stop:])
