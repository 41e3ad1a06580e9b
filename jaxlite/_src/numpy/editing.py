"""``jax.numpy`` array editing: ``insert``, ``delete``, ``piecewise``, ``packbits``,
``unpackbits``.

Written with ``jax.numpy`` functions (gathers, selects, shifts), so they trace under
``jit``, batch under ``vmap`` and differentiate (``insert``/``delete``/``piecewise``) with no
primitive of their own. Output shapes depend only on static information: the number of
indices, never their values (which may be traced).
"""

from __future__ import annotations

import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.api import vmap
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import reductions, sorting, ufuncs
from jaxlite._src.numpy.creation import arange, asarray, ones, zeros
from jaxlite._src.numpy.indexing_routines import take
from jaxlite._src.numpy.padding import pad
from jaxlite._src.numpy.shape import (
    broadcast_shapes,
    broadcast_to,
    concatenate,
    expand_dims,
    moveaxis,
    ravel,
    reshape,
    swapaxes,
)
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis, check_arraylike


def _with_ndmin(x, ndmin: int):
    """``x`` with leading unit axes up to ``ndmin`` dimensions (NumPy's ``ndmin``)."""
    return reshape(x, (1,) * (ndmin - x.ndim) + tuple(x.shape)) if x.ndim < ndmin else x


def insert(arr, obj, values, axis: int | None = None):
    """Insert ``values`` into ``arr`` before the positions ``obj`` along ``axis``.

    Mirrors ``jax.numpy.insert`` (NumPy's ``insert``). Indices may be traced: the output
    length is ``arr.shape[axis]`` plus the number of inserted entries, known statically.
    Negative indices count from the end; indices past either end are clipped (as in JAX).

    Args:
      arr: the array to insert into.
      obj: an integer, a slice, or a 1-D integer array of positions (in ``arr``'s original
        numbering; equal positions insert in their given order).
      values: the entries to insert, cast to ``arr``'s dtype and broadcast to the shape of
        ``arr`` with ``axis`` of the number of inserted entries. For a scalar ``obj``, the
        first axis of ``values`` becomes ``axis``.
      axis: the axis to insert along; ``None`` flattens ``arr`` first.

    Returns:
      An array of ``arr``'s dtype.

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for an ``obj`` of more than one dimension or not of integer dtype.
    """
    check_arraylike("insert", arr, 0 if isinstance(obj, slice) else obj, values)
    a = asarray_any(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = canonicalize_axis(operator.index(axis), a.ndim)
    n_input = a.shape[axis]
    idx = arange(*obj.indices(n_input)) if isinstance(obj, slice) else asarray_any(obj)
    if idx.ndim > 1:
        raise ValueError(
            f"jnp.insert(): obj must be a slice, a one-dimensional array, or a scalar; got {obj}"
        )
    if not dtypes.issubdtype(idx.dtype, np.integer):
        if idx.size == 0 and not isinstance(obj, (Tracer,)) and not hasattr(obj, "aval"):
            idx = idx.astype(dtypes.default_int_dtype())
        else:
            raise ValueError(f"jnp.insert(): index array must be integer typed; got {obj}")
    vals = _with_ndmin(asarray(values, dtype=a.dtype), a.ndim)
    if idx.size == 1:
        if idx.ndim == 0:
            vals = moveaxis(vals, 0, axis)
        idx = broadcast_to(ravel(idx)[0], (vals.shape[axis],))
    n_insert = broadcast_shapes(idx.shape, (vals.shape[axis],))[0]
    idx = broadcast_to(idx, (n_insert,))
    new_shape = list(a.shape)
    new_shape[axis] = n_insert
    vals = broadcast_to(vals, tuple(new_shape))
    idx = ufuncs.clip(ufuncs.where(idx < 0, idx + n_input, idx), 0, n_input)
    # Where each inserted entry lands: its position plus its rank among the inserted ones
    # (a stable sort keeps equal positions in their given order).
    order = sorting.argsort(idx, stable=True)
    rank = zeros(n_insert, idx.dtype).at[order].set(arange(n_insert, dtype=idx.dtype))
    landing = idx + rank
    total = n_input + n_insert
    is_old = ones(total, bool).at[landing].set(False)
    old_src = reductions.cumsum(is_old.astype(idx.dtype)) - 1
    new_src = zeros(total, idx.dtype).at[landing].set(arange(n_insert, dtype=idx.dtype) + n_input)
    perm = ufuncs.where(is_old, old_src, new_src)
    return take(concatenate([a, vals], axis=axis), perm, axis=axis)


def delete(arr, obj, axis: int | None = None, *, assume_unique_indices: bool = False):
    """Delete the entries at positions ``obj`` along ``axis``.

    Mirrors ``jax.numpy.delete`` (NumPy's ``delete``). An integer or slice ``obj`` is static;
    an index array must be concrete unless ``assume_unique_indices=True`` (then the output
    length is ``arr.shape[axis] - len(obj)`` and the indices may be traced).

    Args:
      arr: the array to delete from.
      obj: an integer, a slice, an integer array of positions (repeats allowed when concrete)
        or a boolean mask of length ``arr.shape[axis]``.
      axis: the axis to delete along; ``None`` flattens ``arr`` first.
      assume_unique_indices: promise that the integer indices are unique (and in bounds),
        which allows traced indices.

    Returns:
      An array of ``arr``'s dtype.

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for an out-of-bounds integer ``obj`` (axis-style message), a boolean mask
        of the wrong shape, or an ``obj`` that is neither integer nor boolean.
      ConcretizationTypeError: for traced indices without ``assume_unique_indices``.
    """
    check_arraylike("delete", arr)
    a = asarray_any(arr)
    if axis is None:
        a, axis = ravel(a), 0
    axis = canonicalize_axis(operator.index(axis), a.ndim)
    n = a.shape[axis]
    lead = (slice(None),) * axis
    try:
        i = operator.index(obj)
    except TypeError:
        pass
    else:
        i = canonicalize_axis(i, n)
        return concatenate([a[lead + (slice(0, i),)], a[lead + (slice(i + 1, None),)]], axis=axis)
    if isinstance(obj, slice):
        obj, assume_unique_indices = np.arange(n)[obj], True
    check_arraylike("delete", a, obj)
    if hasattr(obj, "__jax_array__"):
        obj = obj.__jax_array__()
    obj_dtype = np.dtype(getattr(obj, "dtype", None) or np.asarray(obj).dtype)
    if dtypes.issubdtype(obj_dtype, np.integer) and assume_unique_indices:
        ix = ravel(asarray_any(obj))
        ix = sorting.sort(ufuncs.clip(ufuncs.where(ix < 0, ix + n, ix), 0, n))
        ix = ix - arange(ix.size, dtype=ix.dtype)
        keep = arange(n - ix.size, dtype=ix.dtype)
        keep = keep + reductions.sum(keep[None, :] >= ix[:, None], axis=0, dtype=keep.dtype)
        return a[lead + (keep,)]
    if isinstance(obj, Tracer):
        concrete = obj.to_concrete_value()
        if concrete is None:
            raise ConcretizationTypeError(obj, "'obj' array argument of jnp.delete()")
        obj = concrete
    obj_np = np.asarray(obj)
    if dtypes.issubdtype(obj_np.dtype, np.integer):
        mask = np.ones(n, dtype=bool)
        mask[obj_np] = False
    elif obj_np.dtype == bool:
        if obj_np.shape != (n,):
            raise ValueError(
                "np.delete(arr, obj): for boolean indices, obj must be one-dimensional "
                "with length matching specified axis."
            )
        mask = ~obj_np
    else:
        raise ValueError(
            f"np.delete(arr, obj): got obj.dtype={obj_np.dtype}; must be integer or bool."
        )
    return a[lead + (np.flatnonzero(mask),)]


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a piecewise-defined function of ``x``.

    Mirrors ``jax.numpy.piecewise``: where several conditions hold, the last one wins; where
    none holds, the default (the extra last entry of ``funclist``, else 0). Every function is
    evaluated on every element of ``x``, one element at a time (``vmap``), and the results
    are selected (as JAX's vectorized ``switch``), so the result traces and differentiates.

    Args:
      x: the input array.
      condlist: boolean array(s) of ``x``'s shape, one per piece.
      funclist: one entry per condition (plus an optional default): callables
        ``f(x, *args, **kw)`` or constants; results are cast to ``x``'s dtype.
      *args: extra positional arguments passed to each callable.
      **kw: extra keyword arguments passed to each callable.

    Returns:
      An array of ``x``'s shape and dtype.

    Raises:
      ValueError: when ``funclist`` has neither ``len(condlist)`` nor ``len(condlist) + 1``
        entries.
      TypeError: a piece that is not one value per element (a constant array, a function
        returning an array for one element), as JAX's ``switch``.
    """
    check_arraylike("piecewise", x)
    x = asarray_any(x)
    nc, nf = len(condlist), len(funclist)
    cond = asarray(condlist, dtype=bool)
    if nf == nc + 1:
        funcs = list(funclist[-1:]) + list(funclist[:-1])
    elif nf == nc:
        funcs = [0] + list(funclist)
    else:
        raise ValueError(
            f"with {nc} condition(s), either {nc} or {nc + 1} functions are expected; got {nf}"
        )
    # The winning piece of each element: the last true condition (0 is the default).
    stacked = concatenate([zeros((1,) + tuple(cond.shape[1:]), bool), cond], axis=0)
    which = reductions.argmax(reductions.cumsum(stacked.astype(np.int32), axis=0), axis=0)
    which = broadcast_to(which, x.shape)
    out = None
    for i, f in enumerate(funcs):
        val = _piece(f, x, args, kw)
        out = val if out is None else ufuncs.where(which == i, val, out)
    return out


def _piece(f, x, args, kw):
    """One piece of ``piecewise`` at every element of ``x``: as in JAX (a ``switch``
    vectorized over the elements) a callable sees one element at a time (0-d), and each
    piece is one value of ``x``'s dtype per element."""
    if callable(f):
        flat = reshape(x, (x.size,))
        val = vmap(lambda e: asarray(f(e, *args, **kw)).astype(x.dtype))(flat)
        if val.ndim == 1:
            return reshape(val, x.shape)
    else:
        val = asarray(f, dtype=x.dtype)
        if val.ndim == 0:
            return broadcast_to(val, x.shape)
    raise TypeError("switch branches must have equal output types but they differ.")


def _check_bitorder(bitorder):
    if bitorder not in ("little", "big"):
        raise ValueError("'order' must be either 'little' or 'big'")


def _bit_weights(bitorder):
    bits = np.arange(8, dtype=np.uint8)
    return bits[::-1].copy() if bitorder == "big" else bits


def _one_axis(axis):
    """JAX's ``packbits`` / ``unpackbits`` take a one-element tuple for ``axis`` too."""
    if isinstance(axis, tuple) and len(axis) == 1:
        return axis[0]
    return axis


def packbits(a, axis: int | None = None, bitorder: str = "big"):
    """Pack the truth values of an integer or boolean array into the bits of ``uint8``.

    Mirrors ``jax.numpy.packbits`` (NumPy's ``packbits``): each group of 8 elements along
    ``axis`` (zero-padded at the end) becomes one byte.

    Args:
      a: integer or boolean array (nonzero counts as 1).
      axis: the axis to pack along; ``None`` flattens first.
      bitorder: ``"big"`` (first element is the most significant bit) or ``"little"``.

    Returns:
      A ``uint8`` array whose ``axis`` has length ``ceil(n / 8)``.

    Raises:
      TypeError: for a non-integer, non-boolean array.
      ValueError: for another ``bitorder``.
    """
    check_arraylike("packbits", a)
    arr = asarray_any(a)
    if not (dtypes.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_):
        raise TypeError("Expected an input array of integer or boolean data type")
    _check_bitorder(bitorder)
    arr = (arr != 0).astype(np.uint8)
    axis = _one_axis(axis)
    if axis is None:
        arr, axis = ravel(arr), 0
    arr = swapaxes(arr, axis, -1)
    rem = arr.shape[-1] % 8
    if rem:
        arr = pad(arr, [(0, 0)] * (arr.ndim - 1) + [(0, 8 - rem)])
    arr = reshape(arr, tuple(arr.shape[:-1]) + (arr.shape[-1] // 8, 8))
    shifted = ufuncs.left_shift(arr, asarray(_bit_weights(bitorder)))
    packed = reductions.sum(shifted, axis=-1, dtype=np.uint8)
    return swapaxes(packed, axis, -1)


def unpackbits(a, axis: int | None = None, count: int | None = None, bitorder: str = "big"):
    """Unpack the bits of a ``uint8`` array into a ``uint8`` array of 0s and 1s.

    Mirrors ``jax.numpy.unpackbits`` (NumPy's ``unpackbits``).

    Args:
      a: ``uint8`` array.
      axis: the axis to unpack along (its length is multiplied by 8); ``None`` flattens first.
      count: keep this many bits along ``axis`` (zero-padding if larger); a negative count
        trims that many from the end.
      bitorder: ``"big"`` (most significant bit first) or ``"little"``.

    Returns:
      A ``uint8`` array.

    Raises:
      TypeError: for an array of another dtype than ``uint8``.
      ValueError: for another ``bitorder``.
    """
    check_arraylike("unpackbits", a)
    arr = asarray_any(a)
    if arr.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    _check_bitorder(bitorder)
    axis = _one_axis(axis)
    if axis is None:
        arr, axis = ravel(arr), 0
    moved = swapaxes(arr, axis, -1)
    bits = asarray(_bit_weights(bitorder))
    unpacked = ufuncs.bitwise_and(ufuncs.right_shift(expand_dims(moved, -1), bits), np.uint8(1))
    unpacked = reshape(unpacked, tuple(moved.shape[:-1]) + (-1,))
    if count is not None:
        if count > unpacked.shape[-1]:
            widths = [(0, 0)] * (unpacked.ndim - 1) + [(0, count - unpacked.shape[-1])]
            unpacked = pad(unpacked, widths)
        else:
            unpacked = unpacked[..., :count]
    return swapaxes(unpacked, axis, -1)
