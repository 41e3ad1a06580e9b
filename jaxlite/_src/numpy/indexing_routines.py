"""``jax.numpy`` indexing routines (NumPy's section of that name): ``take``,
``take_along_axis``, ``put``, ``put_along_axis``, ``choose``, ``compress``, ``extract``,
``select``, ``argwhere``, ``flatnonzero``, ``diagonal``, ``fill_diagonal``, the index
builders (``indices``, ``ix_``, ``unravel_index``, ``ravel_multi_index``, ``*_indices*``)
and the shifts by computed index (``roll``, ``resize``).

``x[idx]`` and ``x.at[idx]`` themselves are in ``numpy/indexing.py``.
"""

from __future__ import annotations

import builtins
import math
import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer, concrete_index, concrete_or_error, new_array
from jaxlite._src.numpy import reductions, ufuncs
from jaxlite._src.numpy.creation import arange, full_like, zeros
from jaxlite._src.numpy.indexing import int32_index
from jaxlite._src.numpy.reductions import _int_dtype
from jaxlite._src.numpy.shape import (
    broadcast_arrays,
    broadcast_to,
    concatenate,
    moveaxis,
    ravel,
    reshape,
    stack,
    tile,
)
from jaxlite._src.numpy.ufuncs import (
    _where,
    add,
    clip,
    floor_divide,
    greater_equal,
    less,
    logical_and,
    multiply,
    not_equal,
    remainder,
    subtract,
    where,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    asarray_staged,
    canonicalize_axis,
    check_arraylike,
    check_out,
    promote_dtypes,
    with_weak_type,
)
from jaxlite._src.ops import conversion, elementwise as ew, indexing as _ix, shape as _sh, slicing


def diagonal(a, offset: int = 0, axis1: int = 0, axis2: int = 1):
    """``jnp.diagonal``: the ``offset`` diagonal of the (axis1, axis2) planes, as last axis."""
    a = asarray_any(a)
    a1, a2 = canonicalize_axis(axis1, a.ndim), canonicalize_axis(axis2, a.ndim)
    a = moveaxis(a, (a1, a2), (-2, -1))
    n, m = a.shape[-2:]
    offset = operator.index(offset)  # as JAX: a float or str offset is a TypeError
    rows = np.arange(builtins.max(0, -offset), n)
    cols = rows + offset
    keep = (cols >= 0) & (cols < m)
    rows, cols = rows[keep].astype(np.int32), cols[keep].astype(np.int32)
    return a[..., rows, cols]


def indices(dimensions, dtype=None, sparse: bool = False):
    """``jnp.indices``: an array of index grids."""
    dt = dtypes.canonicalize_dtype(dtype or dtypes.default_int_dtype())
    dimensions = tuple(operator.index(d) for d in dimensions)  # floats: TypeError, as JAX
    outs = []
    for i, n in enumerate(dimensions):
        s = [1] * len(dimensions)
        s[i] = n
        it = conversion.broadcasted_iota(dt, tuple(s), i)
        outs.append(
            it if sparse else _sh.broadcast_in_dim(it, dimensions, tuple(range(len(dimensions))))
        )
    if sparse:
        return tuple(outs)
    return stack(outs) if outs else zeros((0,), dt)


def _index_args(*args):
    """Integer sizes/offsets as JAX takes them (``operator.index``: a float is a TypeError,
    never truncated); None passes."""
    return tuple(a if a is None else concrete_index(a) for a in args)


def _tri_index_args(n, k, m):
    """``_index_args`` of ``(n, k, m)``; a negative size is JAX's TypeError (its mask of
    shape ``(n, m)``), not an empty result."""
    n, k, m = _index_args(n, k, m)
    shape = (n, n if m is None else m)
    if min(shape) < 0:
        msg = "broadcast_in_dim shape must have every element be nonnegative, got"
        raise TypeError(f"{msg} {shape}.")
    return n, k, m


def tril_indices(n: int, k: int = 0, m: int | None = None):
    """``jnp.tril_indices`` (static sizes)."""
    n, k, m = _tri_index_args(n, k, m)
    return tuple(
        asarray_any(np.asarray(i, dtypes.default_int_dtype())) for i in np.tril_indices(n, k, m)
    )


def triu_indices(n: int, k: int = 0, m: int | None = None):
    """``jnp.triu_indices`` (static sizes)."""
    n, k, m = _tri_index_args(n, k, m)
    return tuple(
        asarray_any(np.asarray(i, dtypes.default_int_dtype())) for i in np.triu_indices(n, k, m)
    )


def diag_indices(n: int, ndim: int = 2):
    """``jnp.diag_indices``."""
    n, ndim = _index_args(n, ndim)
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    if ndim < 0:
        raise ValueError(f"ndim argument to diag_indices must be nonnegative, got {ndim}")
    i = asarray_any(np.arange(n, dtype=dtypes.default_int_dtype()))
    return (i,) * ndim


def roll(a, shift, axis=None):
    """``jnp.roll``: shift elements cyclically along ``axis`` (flattened if None)."""
    a = asarray_any(a)
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    shifts, axes = _roll_seq(shift), _roll_seq(axis)
    n = np.broadcast_shapes((len(axes),), (len(shifts),))[0]  # NumPy's error, as JAX's
    shifts = shifts * n if len(shifts) == 1 else shifts
    axes = axes * n if len(axes) == 1 else axes
    for s, ax in zip(shifts, axes):
        a = _roll1(a, s, canonicalize_axis(ax, a.ndim))
    return a


def _roll_seq(v) -> tuple:
    """``roll``'s ``shift`` or ``axis`` as a sequence: a scalar, a sequence, or a 1-d array
    (concrete or traced, taken element by element)."""
    if isinstance(v, (tuple, list)):
        return tuple(v)
    ndim = getattr(v, "ndim", 0)
    if ndim == 0:
        return (v,)
    if ndim > 1:
        raise ValueError("'shift' and 'axis' arguments to roll must be scalars or 1D arrays")
    return tuple(v[i] for i in range(v.shape[0]))


def _roll1(a, s, axis):
    n = a.shape[axis]
    if n == 0:
        return a
    if isinstance(s, (int, np.integer)) or (not isinstance(s, Tracer)):
        # No shortcut for a zero shift: JAX concatenates a[0:n] and a[0:0] then too (so a
        # derivative is transposed through the slices, strongly typed).
        s = int(np.asarray(s)) % n
        return concatenate(
            [_sh.slice_in_dim(a, n - s, n, 1, axis), _sh.slice_in_dim(a, 0, n - s, 1, axis)], axis
        )
    s = remainder(asarray_any(s).astype(np.int32), n)
    doubled = concatenate([a, a], axis)
    starts = [0] * a.ndim
    starts[axis] = subtract(n, s)
    sizes = list(a.shape)
    return slicing.clamped_dynamic_slice(doubled, starts, sizes)


def nonzero(a, *, size=None, fill_value=None):
    """``jnp.nonzero``; under jit ``size=`` is required (the output shape depends on data).

    As JAX: 0-d operands are refused; an empty operand or ``size=0`` gives zeros of length
    ``size`` (``fill_value`` unused); past the nonzero entries the indices are 0, or
    ``fill_value`` (a scalar, or one per dimension) when given."""
    a = asarray_any(a)
    if a.ndim == 0:
        raise ValueError(
            "Calling nonzero on 0d arrays is not allowed. Use jnp.atleast_1d(scalar).nonzero() "
            "instead."
        )
    if size is None:
        value = a.to_concrete_value() if isinstance(a, Tracer) else np.asarray(a)
        if value is None:
            # As JAX, the value that had to be concrete is the count of nonzero entries (the
            # error names a traced int32[]), not the operand.
            raise ConcretizationTypeError(
                (a != 0).sum(),
                "The size argument of jnp.nonzero must be statically specified to use "
                "jnp.nonzero within JAX transformations.",
            )
        found = np.nonzero(np.asarray(value))
        if fill_value is not None and found[0].size:
            _fills(a, fill_value)  # JAX checks it at the counted size too (unused there)
        return tuple(ArrayImpl(r.astype(dtypes.default_int_dtype())) for r in found)
    size = _static_size(size)
    if a.size == 0 or size == 0:
        return tuple(zeros(size, int) for _ in a.shape)
    return _nonzero_sized(a, size, fill_value)


ufuncs._one_argument_where = nonzero


def _static_size(size):
    if isinstance(size, Tracer):
        value = size.to_concrete_value()
        if value is None:
            raise ConcretizationTypeError(
                size,
                "The size argument of jnp.nonzero must be statically specified to use "
                "jnp.nonzero within JAX transformations.",
            )
        size = value
    return operator.index(size)  # a float size is a TypeError, as JAX


def _fills(a, fill_value):
    fills = fill_value if isinstance(fill_value, tuple) else (fill_value,) * a.ndim
    if len(fills) != a.ndim or any(np.shape(f) != () for f in fills):
        raise ValueError(
            f"fill_value must be a scalar or a tuple of length {a.ndim}; got {fill_value}"
        )
    return fills


def _nonzero_sized(a, size, fill_value):
    # Stable compaction: the flat position of the k-th nonzero entry goes to slot k; the
    # slots past the last one hold a.size, whose coordinates are all 0 (JAX's padding).
    flat = ravel(a)
    mask = ew.ne(flat, ew._const(flat, 0)) if flat.dtype != dtypes.bool_ else flat
    n = aval_of(flat).shape[0]
    idx = conversion.iota(dtypes.int32, n)
    csum = reductions.cumsum(mask.astype(np.int32)) - 1
    target = ew.select_n(mask, ew._const(csum, size), csum)
    base = _sh.full((size + 1,), n, dtypes.int32)
    res = _sh.slice_in_dim(_ix.scatter(base, idx, [target], "set"), 0, size)
    coords, rem = [], res
    for s in reversed(a.shape):
        coords.append(remainder(rem, s))
        rem = floor_divide(rem, s)
    int_ = dtypes.default_int_dtype()
    out = tuple(conversion.convert_element_type(c, int_) for c in coords[::-1])
    if fill_value is None:
        return out
    fills = _fills(a, fill_value)
    count = reductions.sum(mask.astype(np.int32), dtype=np.int32)
    pad = greater_equal(conversion.iota(dtypes.int32, size), count)
    return tuple(where(pad, f, c) for f, c in zip(fills, out))


# ---------------------------------------------------------------------------- selection
def select(condlist, choicelist, default=0):
    """``jnp.select``: the first matching choice for each element, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"condlist must have length equal to choicelist ({len(condlist)} vs {len(choicelist)})"
        )
    if len(condlist) == 0:
        raise ValueError("condlist must be non-empty")
    out = default
    for cond, choice in reversed(list(zip(condlist, choicelist))):
        cond = asarray_any(cond)
        if cond.dtype != dtypes.bool_:
            cond = cond.astype(dtypes.bool_)  # as JAX: any nonzero condition selects
        out = where(cond, choice, out)
    return asarray_any(out)


def choose(a, choices, out=None, mode: str = "raise"):
    """``jnp.choose``: ``choices[a]`` elementwise. ``mode="raise"`` (default) needs a concrete
    ``a`` (ConcretizationTypeError under jit, as in JAX); ``"wrap"``/``"clip"`` work on
    traced indices."""
    check_out(out, "jnp.choose is not supported.")
    a, choices = asarray_any(a), [*choices]  # (a TypeError first for a non-iterable)
    if not dtypes.is_int(a.dtype):
        raise ValueError("`a` array must be integer typed")
    # JAX stacks the choices with jnp.array: their common dtype, strongly typed.
    choices = [with_weak_type(c, False) for c in promote_dtypes(*choices)]
    n = len(choices)
    if mode == "raise":
        if isinstance(a, Tracer) and a.to_concrete_value() is None:
            raise ConcretizationTypeError(
                a,
                "The error occurred because jnp.choose was jit-compiled with mode='raise'. "
                "Use mode='wrap' or mode='clip' instead.",
            )
        v = np.asarray(a.to_concrete_value() if isinstance(a, Tracer) else a)
        if np.any((v < 0) | (v >= n)):
            raise ValueError("invalid entry in choice array")
    if mode == "wrap":
        a = remainder(a, n)
    else:
        a = clip(a, 0, n - 1)
    arrs = broadcast_arrays(a, *choices)
    return ew.select_n(arrs[0].astype(np.int32), *arrs[1:])


def _fill_not_none(name, fill_value):
    # an operand of JAX's ensure_arraylike (None is no array), though its default is 0
    if fill_value is None:
        raise TypeError(
            f"{name} requires ndarray or scalar arguments, got {type(None)} at position 2."
        )


def compress(condition, a, axis: int | None = None, *, size=None, fill_value=0, out=None):
    """``jnp.compress``: slices of ``a`` where ``condition`` is True (static condition, or
    ``size=`` under jit)."""
    check_out(out, "jnp.compress is not supported.")
    _fill_not_none("compress", fill_value)
    cond = asarray_any(condition).astype(dtypes.bool_)
    a = asarray_any(a)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1D array")
    if size is not None:  # JAX slices with it: True is 1, a float a TypeError
        size = operator.index(size)
    if isinstance(axis, (tuple, list)):  # JAX moves ``axis`` to the front: one axis, as a
        # one-element sequence, works (a longer one is moveaxis's error)
        a = moveaxis(a, axis, 0)
        res = compress(cond, a, 0, size=size, fill_value=fill_value)
        return moveaxis(res, 0, axis)
    if axis is None:
        a, axis = ravel(a), 0
    n = a.shape[canonicalize_axis(axis, a.ndim)]
    # As JAX: condition entries past the axis must be False (an error, never clipped away)
    # without size=; with size=, they are ignored and size is checked against the axis.
    cond, extra = cond[:n], cond[n:]
    if size is None:
        if extra.shape[0] and builtins.bool(reductions.any(extra)):
            raise ValueError("condition contains entries that are out of bounds")
    elif not 0 <= size <= cond.shape[0]:
        raise ValueError(
            "size must be positive and not greater than the size of the array axis; "
            f"got size={size} for a.shape[axis]={cond.shape[0]}"
        )
    idx = flatnonzero(cond, size=size, fill_value=0)
    out = take(a, idx, axis=axis, mode="clip")
    if size is not None:
        valid = less(arange(size), reductions.sum(not_equal(cond, 0)))
        shape = [1] * a.ndim
        shape[canonicalize_axis(axis, a.ndim)] = size
        out = where(reshape(valid, shape), out, full_like(out, fill_value))
    return out


def extract(condition, arr, *, size=None, fill_value=0):
    """``jnp.extract``: ``ravel(arr)[ravel(condition)]``."""
    _fill_not_none("extreact", fill_value)  # JAX's name, misspelt
    return compress(ravel(condition), ravel(arr), size=size, fill_value=fill_value)


def _widen_narrow(idx):
    """An integer index narrower than int32 as int32 (exact), so an axis size or its last
    position is never converted into the index's own type."""
    if dtypes.is_int(idx.dtype) and np.dtype(idx.dtype).itemsize < 4:
        return idx.astype(np.int32)
    return idx


def put(a, ind, v, mode=None, *, inplace: bool = True):
    """``jnp.put`` with ``inplace=False``: ``a`` with ``ravel(a)[ind] = v`` (JAX arrays are
    immutable, so ``inplace=True`` raises, as in JAX)."""
    if inplace:
        raise ValueError(
            "jax.numpy.put cannot modify arrays in-place, because JAX arrays are "
            "immutable. Pass inplace=False to instead return an updated array."
        )
    check_arraylike("put", a, ind, v)
    a = asarray_any(a)
    flat = ravel(a)
    ind = ravel(asarray_any(ind))
    v = ravel(asarray_any(v))
    n = flat.shape[0]
    if not n or not ind.shape[0] or not v.shape[0]:
        return a
    # As JAX (and NumPy): the values repeat cyclically to the number of indices.
    v = tile(v, -(-ind.shape[0] // v.shape[0]))[: ind.shape[0]]
    ind = _widen_narrow(ind)  # n - 1 or n may not fit an int8 / int16 index (take's note)
    if mode is None:
        # JAX unravels the flat indices (negative ones from the end, the rest clamped)
        # and drops nothing else
        ind, scatter = unravel_index(ind, (n,))[0], "drop"
    elif mode == "wrap":
        ind, scatter = remainder(ind, n), "promise_in_bounds"
    elif mode == "clip":
        ind, scatter = clip(ind, 0, n - 1), "promise_in_bounds"
    elif mode == "raise":
        raise NotImplementedError("The 'raise' mode to jnp.put is not supported.")
    else:
        raise ValueError(f"mode should be one of 'wrap' or 'clip'; got {mode=}")
    # no cast of v first: the update warns or (strict promotion) raises as JAX's scatter
    return reshape(flat.at[ind].set(v, mode=scatter), a.shape)


def put_along_axis(arr, indices, values, axis: int | None, inplace: bool = True, *, mode=None):
    """``jnp.put_along_axis`` with ``inplace=False``."""
    if inplace:
        raise ValueError(
            "jax.numpy.put_along_axis cannot modify arrays in-place, because JAX "
            "arrays are immutable. Pass inplace=False to instead return an "
            "updated array."
        )
    arr, idx = asarray_any(arr), asarray_any(indices)
    if axis is None:
        flat = put_along_axis(ravel(arr), ravel(idx), ravel(values), 0, False, mode=mode)
        return reshape(flat, arr.shape)
    axis = canonicalize_axis(axis, arr.ndim)
    idx = broadcast_to(
        idx,
        tuple(
            builtins.max(s, t) if i != axis else t
            for i, (s, t) in enumerate(zip(arr.shape, idx.shape))
        ),
    )
    items = []
    for d in range(arr.ndim):
        if d == axis:
            items.append(idx)
        else:
            shape = [1] * arr.ndim
            shape[d] = idx.shape[d]
            items.append(reshape(arange(idx.shape[d]), shape))
    vals = broadcast_to(asarray_any(values), idx.shape).astype(arr.dtype)
    return arr.at[tuple(items)].set(vals, mode=mode)


# ---------------------------------------------------------------------- index helpers
def unravel_index(indices, shape):
    """``jnp.unravel_index``: flat indices to a tuple of coordinate arrays (out-of-range
    indices are clamped, as in JAX). The coordinates come from a chain of ``divmod`` in
    the indices' dtype, last axis first, as JAX's: no total size is formed, so an int8
    index into a (20, 20) shape is exact (clipping to ``size - 1 = 399`` wrapped in int8)."""
    check_arraylike("unravel_index", indices)
    idx = asarray_any(indices)
    try:
        shape = list(shape)
    except TypeError:  # a bare int, as JAX accepts
        shape = [shape]
    if any(np.ndim(s) != 0 for s in shape):
        raise ValueError("unravel_index: shape should be a scalar or 1D sequence.")
    out = [None] * len(shape)
    for i in reversed(range(len(shape))):
        idx, out[i] = floor_divide(idx, shape[i]), remainder(idx, shape[i])
    past_end = ew.gt(idx, ew._const(idx, 0))
    if dtypes.is_unsigned(aval_of(idx).dtype):
        before_start = None
    else:
        before_start = less(idx, -1)
    res = []
    for s, i in zip(shape, out):
        if before_start is not None:
            i = where(before_start, 0, i)
        res.append(where(past_end, s - 1, i))
    return tuple(res)


def ravel_multi_index(multi_index, dims, mode: str = "raise", order: str = "C", *, dtype=None):
    """``jnp.ravel_multi_index``: coordinate arrays to flat indices, in ``dtype`` (default:
    the indices' integer type). ``mode``: 'raise' (needs concrete indices), 'clip', 'wrap'
    or 'ignore' (no bounds handling).

    Raises:
      ValueError: a non-integer or too narrow ``dtype``, an out-of-bounds index in 'raise'
        mode, an unknown ``mode`` or ``order``.
      TypeError: non-integer indices.
      ConcretizationTypeError: traced indices in 'raise' mode.
    """
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    dims = tuple(
        operator.index(concrete_or_error(d, "in `dims` argument of ravel_multi_index().").item())
        for d in dims
    )
    idx = [asarray_staged(i) for i in multi_index]
    if dtype is None:
        dtype = dtypes.result_type(int, *idx)
    else:
        dtype = dtypes.check_user_dtype_supported(dtype, "ravel_multi_index")
    if not dtypes.is_int(dtype):
        raise ValueError(f"dtype={dtype!r} is not an integer type.")
    if math.prod(dims) - 1 > dtypes.iinfo(dtype).max:
        raise ValueError(
            f"jnp.ravel_multi_index: dtype={dtype!r} not large enough to hold flattened index "
            f"for dims={dims}. Use the dtype argument to pass a suitable dtype (e.g. "
            "dtype=np.min_scalar_type(prod(dims)))."
        )
    for i in idx:
        if mode == "raise":
            concrete_or_error(
                i,
                "The error occurred because ravel_multi_index was jit-compiled with "
                "mode='raise'. Use mode='wrap' or mode='clip' instead.",
            )
        if not dtypes.is_int(i.dtype):
            raise TypeError("only int indices permitted")
    if mode == "raise":
        if any(np.any((np.asarray(i) < 0) | (np.asarray(i) >= d)) for i, d in zip(idx, dims)):
            raise ValueError("invalid entry in coordinates array")
    elif mode == "clip":
        idx = [clip(i, 0, d - 1) for i, d in zip(idx, dims)]
    elif mode == "wrap":
        idx = [remainder(i, d) for i, d in zip(idx, dims)]
    elif mode != "ignore":
        raise ValueError(f"invalid mode={mode!r}. Expected 'raise', 'wrap', 'clip', or 'ignore'.")
    if order == "F":
        strides = np.cumprod((1,) + dims[:-1])
    elif order == "C":
        strides = np.cumprod((1,) + dims[1:][::-1])[::-1]
    else:
        raise ValueError(f"invalid order={order!r}. Expected 'C' or 'F'")
    out = zeros((), dtype)
    for i, st in zip(idx, strides):
        out = add(out, multiply(i.astype(dtype), int(st)))
    return out


def ix_(*args):
    """``jnp.ix_``: open mesh from 1-D sequences, for cross-product indexing."""
    n = len(args)
    out = []
    for k, a in enumerate(args):
        a = asarray_any(a)
        if a.ndim != 1:
            raise ValueError(f"Cross index must be 1 dimensional, got shape {a.shape}")
        if a.dtype == dtypes.bool_:
            raise NotImplementedError("Boolean arguments to jax.numpy.ix_ are not implemented")
        shape = [1] * n
        shape[k] = a.shape[0]
        if a.size == 0:  # an empty index is of the index type, as NumPy's and JAX's
            a = conversion.convert_element_type(a, dtypes.default_int_dtype(), False)
        out.append(new_array(reshape(a, shape)))  # jitted in JAX: new arrays
    return tuple(out)


def diag_indices_from(arr):
    """``jnp.diag_indices_from``."""
    arr = asarray_any(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def tril_indices_from(arr, k: int = 0):
    """``jnp.tril_indices_from``."""
    s = asarray_any(arr).shape
    if len(s) != 2:
        raise ValueError("Only 2-D inputs are accepted")
    return tril_indices(s[-2], k, s[-1])


def triu_indices_from(arr, k: int = 0):
    """``jnp.triu_indices_from``."""
    s = asarray_any(arr).shape
    if len(s) != 2:
        raise ValueError("Only 2-D inputs are accepted")
    return triu_indices(s[-2], k, s[-1])


def fill_diagonal(a, val, wrap: bool = False, *, inplace: bool = True):
    """``jnp.fill_diagonal`` with ``inplace=False``."""
    if inplace:
        raise ValueError("JAX arrays are immutable; pass inplace=False to fill_diagonal")
    a = asarray_any(a)
    n = min(a.shape)
    idx = (arange(n),) * a.ndim
    v = ravel(asarray_any(val))
    v = tile(v, -(-n // max(v.shape[0], 1)))[:n]
    return a.at[idx].set(v.astype(a.dtype))


def resize(a, new_shape):
    """``jnp.resize``: repeat the flattened array to fill ``new_shape``."""
    a = ravel(asarray_any(a))
    # operator.index, not int(): a float size is refused (TypeError), as in JAX
    shape = (
        (operator.index(new_shape),)
        if isinstance(new_shape, (int, np.integer))
        else tuple(operator.index(s) for s in new_shape)
    )
    total = int(np.prod(shape, dtype=np.int64))
    if a.shape[0] == 0:
        return zeros(shape, a.dtype)
    reps = -(-total // a.shape[0])
    return reshape(tile(a, reps)[:total], shape)


def _flat_axis(a, axis):
    a = asarray_any(a)
    if axis is None:
        return ravel(a), 0
    return a, canonicalize_axis(operator.index(axis), a.ndim)  # traced: as JAX's take


def _fill_value_for(dtype):
    if dtypes.is_extended(dtype):  # PRNG keys: key data of all ones, as JAX's uint32 fill
        return np.iinfo(np.uint32).max
    if dtypes.is_inexact(dtype):
        return np.nan
    if dtype == dtypes.bool_:
        return True
    if dtypes.is_unsigned(dtype):
        return np.iinfo(dtype).max
    return np.iinfo(dtype).min


def take(
    a,
    indices,
    axis: int | None = None,
    out=None,
    mode=None,
    unique_indices=False,
    indices_are_sorted=False,
    fill_value=None,
):
    """``jnp.take``: elements of ``a`` at ``indices`` along ``axis`` (flattened if None).

    ``mode``: ``"fill"`` (default: out-of-bounds give ``fill_value``, NaN for floats),
    ``"clip"`` or ``"wrap"``; negative indices count from the end.

    Bool indices are taken as JAX takes them (``"fill"``: as 0/1; ``"wrap"``: all 0).

    Raises:
      ValueError: another ``mode`` (``"promise_in_bounds"`` included, as in JAX); indices
        neither integer nor bool (bool ones with ``"clip"``), non-empty.
      NotImplementedError: ``mode="raise"``.
    """
    check_out(out, "jnp.take is not supported.")
    a, axis = _flat_axis(a, axis)
    idx = asarray_any(indices)
    n = a.shape[axis]
    mode = "fill" if mode is None else mode
    if mode == "raise":  # JAX's errors, its wording
        raise NotImplementedError("The 'raise' mode to jnp.take is not supported.")
    if mode not in ("wrap", "clip", "fill"):
        raise ValueError(f"Invalid mode {mode!r} for np.take")
    # JAX's shortcuts: an empty axis gives back the (empty) operand itself; an empty index
    # gives zeros, a constant that does not depend on the operand (so no derivative flows).
    if n == 0:
        if idx.size != 0:
            raise IndexError("Cannot do a non-empty jnp.take() from an empty axis.")
        return a
    if idx.size == 0:
        out_shape = a.shape[:axis] + idx.shape + a.shape[axis + 1 :]
        return _sh.full(out_shape, 0, a.dtype, weak_type=a.weak_type)
    if idx.dtype == dtypes.bool_ and mode in ("fill", "wrap"):
        # JAX's arithmetic on bool indices: "fill" adds n to the negative ones (none) in
        # int32, so True is 1; "wrap" reduces modulo n cast to bool (True): every index is 0.
        idx = idx.astype(np.int32) if mode == "fill" else _sh.full(idx.shape, 0, np.int32)
    elif not dtypes.is_int(idx.dtype):  # JAX's gather (bool indices to "clip" included)
        raise ValueError("indices must have an integer type")
    # As JAX, the index type decides before the int32 the gather takes: "wrap" reduces
    # modulo n in it, "clip" clamps in it, "fill" counts negative indices from the end in
    # it, then the conversion to int32 wraps wider values (a uint32 2**32 - 1 is -1: filled).
    # Narrower types are widened to int32 first (n - 1 or n may not fit them: JAX's clip
    # then clamps as int32 does, its wrap raises OverflowError; docs/compat.md).
    idx = _widen_narrow(idx)
    if mode == "wrap":
        idx = remainder(idx, n).astype(np.int32)
    elif mode == "clip":
        idx = clip(idx, 0, builtins.max(n - 1, 0)).astype(np.int32)
    elif mode == "fill":
        idx = int32_index(idx, n)
    else:
        raise ValueError(f"Invalid mode value for take: {mode!r}")
    rest = [i for i in range(a.ndim) if i != axis]
    at = _sh.transpose(a, [axis] + rest)
    g = _ix.gather(at, idx)  # shape idx.shape + rest
    k = idx.ndim
    perm = list(range(k, k + axis)) + list(range(k)) + list(range(k + axis, g.ndim))
    g = _sh.transpose(g, perm)
    if mode == "fill":
        valid = logical_and(greater_equal(idx, 0), less(idx, n))
        shape = [1] * axis + list(idx.shape) + [1] * (a.ndim - axis - 1)
        valid = broadcast_to(reshape(valid, shape), g.shape)
        fv = _fill_value_for(a.dtype) if fill_value is None else fill_value
        g = where(valid, g, full_like(g, fv))
    return g


def _gather_mode(mode):
    """JAX's gather modes: None is "fill"; "drop" reads as "fill" for a gather."""
    mode = "fill" if mode is None else getattr(mode, "name", mode)
    mode = {"FILL_OR_DROP": "fill", "CLIP": "clip", "PROMISE_IN_BOUNDS": "promise_in_bounds"}.get(
        mode, mode
    )
    if mode == "drop":
        return "fill"
    if mode not in ("fill", "clip", "promise_in_bounds"):
        raise ValueError(f'Unknown gather mode "{mode}"')
    return mode


def take_along_axis(
    arr, indices, axis: int | None = -1, mode=None, fill_value=None, *, wrap_negative_indices=None
):
    """``jnp.take_along_axis``: ``arr`` indexed by ``indices`` along ``axis``, matching the
    other axes (broadcast as in NumPy). Out-of-bounds: ``fill`` by default. Negative indices
    count from the end unless ``wrap_negative_indices`` is False (its default, None, wraps
    in every mode but ``promise_in_bounds``), as in JAX."""
    arr, idx = asarray_any(arr), asarray_any(indices)
    if not dtypes.is_int(idx.dtype):  # float or bool indices would be cast: JAX refuses them
        raise TypeError(f"take_along_axis indices must be of integer type, got {idx.dtype}")
    if axis is None:
        arr = ravel(arr)
        idx = ravel(idx)
        axis = 0
    axis = canonicalize_axis(axis, arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError(
            f"indices and arr must have the same number of dimensions; {idx.ndim} vs. {arr.ndim}"
        )
    n = arr.shape[axis]
    if n == 0:  # JAX's shortcut: zeros (a strong constant), whatever the indices
        shapes = [idx.shape, arr.shape[:axis] + (1,) + arr.shape[axis + 1 :]]
        try:
            out_shape = np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None
        return _sh.full(out_shape, 0, arr.dtype)
    shape = [
        builtins.max(s, t) if i != axis else t for i, (s, t) in enumerate(zip(arr.shape, idx.shape))
    ]
    ashape = list(shape)
    ashape[axis] = n
    arr = broadcast_to(arr, ashape)
    idx = broadcast_to(idx, shape).astype(np.int32)
    mode = _gather_mode(mode)
    wrap = mode != "promise_in_bounds" if wrap_negative_indices is None else wrap_negative_indices
    if wrap:
        idx = where(less(idx, 0), add(idx, n), idx)
    if mode != "fill":
        idx = clip(idx, 0, n - 1)  # "clip", and XLA's gather clamps "promise_in_bounds"
    out = _ix.take_along_axis(arr, idx, axis)
    if mode == "fill":
        valid = logical_and(greater_equal(idx, 0), less(idx, n))
        fv = _fill_value_for(arr.dtype) if fill_value is None else fill_value
        out = where(valid, out, full_like(out, fv))
    return out


def argwhere(a, *, size=None, fill_value=None):
    """``jnp.argwhere``: indices of nonzero elements as rows (``size=`` under jit)."""
    a = asarray_any(a)
    if a.ndim == 0:
        a = reshape(a, (1,))
        res = nonzero(a, size=size, fill_value=fill_value)
        return zeros((res[0].shape[0], 0), _int_dtype())
    res = nonzero(a, size=size, fill_value=fill_value)
    return stack(res, -1)


def flatnonzero(a, *, size=None, fill_value=None):
    """``jnp.flatnonzero``: indices of nonzero elements of the flattened array."""
    return nonzero(ravel(a), size=size, fill_value=fill_value)[0]
