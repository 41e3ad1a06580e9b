"""``jax.numpy`` sorting, searching, counting and take: sort argsort lexsort searchsorted
digitize unique bincount histogram take take_along_axis argwhere flatnonzero."""

from __future__ import annotations

import builtins

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import lax_numpy as jnp
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis, promote_dtypes
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    indexing as _ix,
    shape as _sh,
    sorting as _sort,
)


def _int_dtype():
    return dtypes.default_int_dtype()


def _flat_axis(a, axis):
    a = asarray_any(a)
    if axis is None:
        return jnp.ravel(a), 0
    return a, canonicalize_axis(axis, a.ndim)


def sort(
    a,
    axis: int | None = -1,
    *,
    kind=None,
    order=None,
    stable: bool = True,
    descending: bool = False,
):
    """``jnp.sort``: sorted copy along ``axis`` (flattened if None); NaNs last."""
    a, axis = _flat_axis(a, axis)
    if a.ndim == 0:
        return a
    out = _sort.sort(a, axis)
    return _sh.rev(out, (axis,)) if descending else out


def argsort(
    a,
    axis: int | None = -1,
    *,
    kind=None,
    order=None,
    stable: bool = True,
    descending: bool = False,
):
    """``jnp.argsort``: indices that sort ``a`` along ``axis`` (stable)."""
    a, axis = _flat_axis(a, axis)
    if a.ndim == 0:
        return jnp.zeros((), _int_dtype())
    n = a.shape[axis]
    iota = conversion.broadcasted_iota(_int_dtype(), a.shape, axis)
    if descending:
        # Stable descending order: sort the reversed array, map indices back, reverse.
        _, idx = _sort.sort((_sh.rev(a, (axis,)), iota), axis, num_keys=1)
        idx = ew.sub(_sh.full((), n - 1, _int_dtype()), idx)
        return _sh.rev(idx, (axis,))
    _, idx = _sort.sort((a, iota), axis, num_keys=1)
    return idx


def msort(a):
    """``jnp.msort``: sort along the first axis."""
    return sort(a, axis=0)


def lexsort(keys, axis: int = -1):
    """``jnp.lexsort``: indirect stable sort by several keys, the last one primary."""
    keys = [asarray_any(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        return jnp.zeros((), _int_dtype())
    axis = canonicalize_axis(axis, len(shape))
    iota = conversion.broadcasted_iota(_int_dtype(), shape, axis)
    outs = _sort.sort(tuple(keys[::-1]) + (iota,), axis, num_keys=len(keys))
    return outs[-1]


def searchsorted(a, v, side: str = "left", sorter=None, *, method=None):
    """``jnp.searchsorted``: insertion indices of ``v`` into the sorted 1-D ``a``."""
    if side not in ("left", "right"):
        raise ValueError(
            f"{side!r} is an invalid value for keyword 'side'. Expected one of ['left', 'right']."
        )
    a, v = asarray_any(a), asarray_any(v)
    if a.ndim != 1:
        raise ValueError("a should be 1-dimensional")
    if sorter is not None:
        a = take(a, sorter)
    a, v = promote_dtypes(a, v)
    vv = jnp.expand_dims(v, -1)
    cmp = jnp.less(a, vv) if side == "left" else jnp.less_equal(a, vv)
    if dtypes.is_inexact(a.dtype):
        # NaN sorts last: everything but NaN is below a NaN query (and NaN <= NaN).
        v_nan = jnp.isnan(vv)
        below = jnp.logical_not(jnp.isnan(a)) if side == "left" else jnp.ones_like(cmp)
        cmp = jnp.where(v_nan, below, cmp)
    return jnp.sum(cmp, axis=-1, dtype=_int_dtype())


def digitize(x, bins, right: bool = False):
    """``jnp.digitize``: index of the bin each ``x`` falls in (monotonic ``bins``)."""
    x, bins = asarray_any(x), asarray_any(bins)
    if bins.ndim != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got bins={bins}")
    if bins.shape[0] == 0:
        return jnp.zeros(x.shape, _int_dtype())
    side = "left" if right else "right"
    inc = searchsorted(bins, x, side=side)
    dec = jnp.subtract(
        bins.shape[0], searchsorted(_sh.rev(bins, (0,)), x, side="right" if right else "left")
    )
    return jnp.where(jnp.greater_equal(bins[-1], bins[0]), inc, dec)


def _fill_value_for(dtype):
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
    """
    a, axis = _flat_axis(a, axis)
    idx = asarray_any(indices)
    if not dtypes.is_int(idx.dtype):
        raise TypeError(f"take: indices must be integers, got {idx.dtype}")
    idx = idx.astype(np.int32)
    n = a.shape[axis]
    mode = "fill" if mode is None else mode
    if mode == "wrap":
        idx = jnp.remainder(idx, n)
    elif mode in ("clip", "promise_in_bounds"):
        idx = jnp.clip(idx, 0, builtins.max(n - 1, 0))
    elif mode == "fill":
        idx = jnp.where(jnp.less(idx, 0), jnp.add(idx, n), idx)
    else:
        raise ValueError(f"Invalid mode value for take: {mode!r}")
    rest = [i for i in range(a.ndim) if i != axis]
    at = _sh.transpose(a, [axis] + rest)
    g = _ix.gather(at, idx)  # shape idx.shape + rest
    k = idx.ndim
    perm = list(range(k, k + axis)) + list(range(k)) + list(range(k + axis, g.ndim))
    g = _sh.transpose(g, perm)
    if mode == "fill":
        valid = jnp.logical_and(jnp.greater_equal(idx, 0), jnp.less(idx, n))
        shape = [1] * axis + list(idx.shape) + [1] * (a.ndim - axis - 1)
        valid = jnp.broadcast_to(jnp.reshape(valid, shape), g.shape)
        fv = _fill_value_for(a.dtype) if fill_value is None else fill_value
        g = jnp.where(valid, g, jnp.full_like(g, fv))
    return g


def take_along_axis(arr, indices, axis: int | None, mode=None, fill_value=None):
    """``jnp.take_along_axis``: ``arr`` indexed by ``indices`` along ``axis``, matching the
    other axes (broadcast as in NumPy). Out-of-bounds: ``fill`` by default."""
    arr, idx = asarray_any(arr), asarray_any(indices)
    if axis is None:
        arr = jnp.ravel(arr)
        idx = jnp.ravel(idx)
        axis = 0
    axis = canonicalize_axis(axis, arr.ndim)
    if idx.ndim != arr.ndim:
        raise ValueError(
            f"indices and arr must have the same number of dimensions; {idx.ndim} vs. {arr.ndim}"
        )
    n = arr.shape[axis]
    shape = [
        builtins.max(s, t) if i != axis else t for i, (s, t) in enumerate(zip(arr.shape, idx.shape))
    ]
    ashape = list(shape)
    ashape[axis] = n
    arr = jnp.broadcast_to(arr, ashape)
    idx = jnp.broadcast_to(idx, shape).astype(np.int32)
    mode = "fill" if mode is None else mode
    if mode == "clip":
        idx = jnp.clip(idx, 0, n - 1)
    elif mode == "wrap":
        idx = jnp.remainder(idx, n)
    else:
        idx = jnp.where(jnp.less(idx, 0), jnp.add(idx, n), idx)
    out = _ix.take_along_axis(arr, idx, axis)
    if mode == "fill":
        valid = jnp.logical_and(jnp.greater_equal(idx, 0), jnp.less(idx, n))
        fv = _fill_value_for(arr.dtype) if fill_value is None else fill_value
        out = jnp.where(valid, out, jnp.full_like(out, fv))
    return out


def argwhere(a, *, size=None, fill_value=None):
    """``jnp.argwhere``: indices of nonzero elements as rows (``size=`` under jit)."""
    from jaxlite._src.numpy.indexing import nonzero

    a = asarray_any(a)
    if a.ndim == 0:
        a = jnp.reshape(a, (1,))
        res = nonzero(a, size=size, fill_value=fill_value)
        return jnp.zeros((res[0].shape[0], 0), _int_dtype())
    res = nonzero(a, size=size, fill_value=fill_value)
    return jnp.stack(res, -1)


def flatnonzero(a, *, size=None, fill_value=None):
    """``jnp.flatnonzero``: indices of nonzero elements of the flattened array."""
    from jaxlite._src.numpy.indexing import nonzero

    return nonzero(jnp.ravel(a), size=size, fill_value=fill_value)[0]


def count_nonzero(a, axis=None, keepdims: bool = False):
    """``jnp.count_nonzero``: number of nonzero elements along ``axis``."""
    a = asarray_any(a)
    return jnp.sum(jnp.not_equal(a, 0), axis=axis, keepdims=keepdims, dtype=_int_dtype())


def bincount(x, weights=None, minlength: int = 0, *, length: int | None = None):
    """``jnp.bincount``: counts (or summed weights) of each non-negative integer.

    Under transformations ``length=`` must be given (the output shape depends on data);
    values outside ``[0, length)`` are dropped.
    """
    x = asarray_any(x)
    if not dtypes.is_int(x.dtype):
        raise TypeError(f"x argument to bincount must have an integer type; got {x.dtype}")
    if x.ndim != 1:
        raise ValueError("only 1-dimensional input supported.")
    if length is None:
        if isinstance(x, Tracer) and x.to_concrete_value() is None:
            from jaxlite._src.core.errors import ConcretizationTypeError

            raise ConcretizationTypeError(
                x,
                "The error occurred because of argument 'length' of jnp.bincount: it must "
                "be static under transformations.",
            )
        v = np.asarray(x if not isinstance(x, Tracer) else x.to_concrete_value())
        length = builtins.max(int(minlength), int(v.max()) + 1 if v.size else 0)
    length = int(length)
    if weights is None:
        w = jnp.ones(x.shape, _int_dtype())
    else:
        w = asarray_any(weights)
        if w.shape != x.shape:
            w = jnp.broadcast_to(w, x.shape)
    base = jnp.zeros((length,), w.dtype)
    return _ix.scatter(base, w, [x.astype(np.int32)], "add")


def histogram(a, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """``jnp.histogram``: ``(counts, bin_edges)``; the last bin includes its right edge."""
    a = jnp.ravel(asarray_any(a))
    (a,) = [x for x in _inexact_pair(a)]
    if isinstance(bins, (int, np.integer)):
        if range is None:
            lo, hi = jnp.min(a), jnp.max(a)
        else:
            lo, hi = range
        edges = jnp.linspace(lo, hi, int(bins) + 1).astype(a.dtype)
    else:
        edges = asarray_any(bins).astype(a.dtype)
    nb = edges.shape[0] - 1
    idx = jnp.subtract(searchsorted(edges, a, side="right"), 1)
    idx = jnp.where(jnp.equal(a, edges[-1]), nb - 1, idx)
    inside = jnp.logical_and(jnp.greater_equal(a, edges[0]), jnp.less_equal(a, edges[-1]))
    idx = jnp.where(inside, idx, nb)  # out of range: dropped by bincount
    w = jnp.ones_like(a) if weights is None else jnp.ravel(asarray_any(weights))
    counts = bincount(idx, w, length=nb)
    if density:
        widths = jnp.subtract(edges[1:], edges[:-1])
        counts = jnp.divide(jnp.divide(counts, widths), jnp.sum(counts))
    return counts, edges


def _inexact_pair(a):
    from jaxlite._src.numpy.util import promote_dtypes_inexact

    return promote_dtypes_inexact(a)


def unique(
    ar,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis=None,
    *,
    equal_nan: bool = True,
    size=None,
    fill_value=None,
    sorted: bool = True,
):  # noqa: A002
    """``jnp.unique`` of the flattened array; ``size=`` gives a static-shaped result padded
    with ``fill_value`` (default: the smallest unique value), required under jit."""
    if axis is not None:
        raise NotImplementedError("jnp.unique with axis is not implemented in jaxlite")
    a = jnp.ravel(asarray_any(ar))
    n = a.shape[0]
    if size is None:
        if isinstance(a, Tracer) and a.to_concrete_value() is None:
            from jaxlite._src.core.errors import ConcretizationTypeError

            raise ConcretizationTypeError(
                a,
                "The error arose in jnp.unique(). When jnp.unique is used inside "
                "transformations, the size argument must be specified statically.",
            )
    perm = argsort(a)
    s = take(a, perm)
    if n:
        mask = jnp.concatenate([jnp.ones((1,), dtypes.bool_), jnp.not_equal(s[1:], s[:-1])])
    else:
        mask = jnp.zeros((0,), dtypes.bool_)
    if size is None:
        count = int(np.asarray(jnp.sum(mask)))
        size_ = count
    else:
        size_ = int(size)
    gid = jnp.subtract(jnp.cumsum(mask.astype(np.int32)), 1)  # group of each sorted elem
    slots = jnp.where(mask, gid, size_)  # first of each group -> its slot; others dropped
    first_fill = s[0] if n else jnp.zeros((), a.dtype)
    fv = first_fill if fill_value is None else fill_value
    vals = _ix.scatter(
        jnp.full((size_,), fv, a.dtype)
        if fill_value is not None
        else jnp.broadcast_to(jnp.asarray(fv).astype(a.dtype), (size_,)),
        s,
        [slots],
        "set",
    )
    outs = [vals]
    if return_index:
        first_idx = _ix.scatter(
            jnp.zeros((size_,), _int_dtype()), perm.astype(_int_dtype()), [slots], "set"
        )
        outs.append(first_idx)
    if return_inverse:
        inv = _ix.scatter(
            jnp.zeros((n,), _int_dtype()), gid.astype(_int_dtype()), [perm.astype(np.int32)], "set"
        )
        outs.append(jnp.reshape(inv, asarray_any(ar).shape) if asarray_any(ar).ndim == 1 else inv)
    if return_counts:
        cnt = _ix.scatter(
            jnp.zeros((size_,), _int_dtype()),
            jnp.ones((n,), _int_dtype()),
            [jnp.minimum(gid, size_).astype(np.int32)],
            "add",
        )
        outs.append(cnt)
    return outs[0] if len(outs) == 1 else tuple(outs)


def unique_values(x, *, size=None, fill_value=None):
    """``jnp.unique_values``."""
    return unique(x, size=size, fill_value=fill_value)


def partition(a, kth: int, axis: int = -1):
    """``jnp.partition`` (implemented as a full sort, which is a valid partition)."""
    return sort(a, axis)


def argpartition(a, kth: int, axis: int = -1):
    """``jnp.argpartition`` (implemented as a full stable argsort)."""
    return argsort(a, axis)
