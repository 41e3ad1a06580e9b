"""Small ``jax.lax`` conveniences over existing primitives: dynamic_index_in_dim,
dynamic_slice_in_dim, dynamic_update_index_in_dim, dynamic_update_slice_in_dim, reduce,
collapse."""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import sharding_hooks
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import elementwise as ew, reductions as red, shape as _sh
from jaxlite._src.ops.slicing import dynamic_slice, dynamic_update_slice
from jaxlite._src.ops.windowed import _monoid


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
    sizes[axis] = int(slice_size)
    return dynamic_slice(operand, starts, sizes, allow_negative_indices=allow_negative_indices)


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


def dynamic_update_index_in_dim(
    operand, update, index, axis: int, *, allow_negative_indices=True
):
    """``jax.lax.dynamic_update_index_in_dim``."""
    index = _traced_index(index, allow_negative_indices)
    nd = len(aval_of(operand).shape)
    axis = _in_dim_axis(axis, nd, ValueError)
    if len(aval_of(update).shape) == nd - 1:
        update = _sh.expand_dims(update, (axis,))
    return dynamic_update_slice_in_dim(
        operand, update, index, axis, allow_negative_indices=allow_negative_indices
    )


def reduce(operands, init_values, computation, dimensions, out_sharding=None):
    """``jax.lax.reduce`` for a single operand with a monoid computation (add, mul, max, min,
    and, or) or any binary function (folded pairwise over the reduced axes);
    ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            reduce, out_sharding, operands, init_values, computation, dimensions
        )

    if isinstance(operands, (tuple, list)):
        if len(operands) != 1:
            raise NotImplementedError("jaxlite lax.reduce supports a single operand")
        (x,), (init,) = operands, init_values
        single = False
    else:
        x, init, single = operands, init_values, True
    x = to_array(x)
    dims = tuple(int(d) for d in dimensions)
    if all(0 <= d < x.ndim and x.shape[d] == 1 for d in dims):
        # one element per output: XLA reduces it to a reshape (the init value is not used)
        out = _sh.reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in dims))
        return out if single else (out,)
    kind = _monoid(computation)
    if computation in (ew.and_,):
        kind = "and"
    if computation in (ew.or_,):
        kind = "or"
    if kind is not None:
        fn = {
            "add": red.reduce_sum,
            "mul": red.reduce_prod,
            "max": red.reduce_max,
            "min": red.reduce_min,
            "and": red.reduce_and,
            "or": red.reduce_or,
        }[kind]
        out = fn(x, dims)
        comb = {
            "add": ew.add,
            "mul": ew.mul,
            "max": ew.max,
            "min": ew.min,
            "and": ew.and_,
            "or": ew.or_,
        }[kind]
        out = comb(out, _sh.broadcast_to_rank(to_array(init).astype(x.dtype), aval_of(out).shape))
    else:
        keep = [i for i in range(x.ndim) if i not in dims]
        xt = _sh.transpose(x, tuple(dims) + tuple(keep))
        n = int(np.prod([x.shape[d] for d in dims], dtype=np.int64))
        xt = _sh.reshape(xt, (n,) + tuple(x.shape[i] for i in keep))
        out = _sh.broadcast_to_rank(to_array(init).astype(x.dtype), aval_of(xt).shape[1:])
        for i in range(n):
            out = computation(out, _sh.index_in_dim(xt, i, 0, keepdims=False))
    return out if single else (out,)


def collapse(operand, start_dimension: int, stop_dimension: int | None = None):
    """``jax.lax.collapse``: merge dimensions ``[start, stop)`` into one."""
    shape = aval_of(operand).shape
    stop = len(shape) if stop_dimension is None else stop_dimension
    size = int(np.prod(shape[start_dimension:stop], dtype=np.int64))
    return _sh.reshape(operand, shape[:start_dimension] + (size,) + shape[stop:])
