"""``jax.numpy`` set operations: ``unique`` (and ``unique_values/counts/inverse/all``),
``union1d intersect1d setdiff1d setxor1d isin`` -- with ``size=`` for use under ``jit``."""

from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.compile.jit import hash_static
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.errors import ConcretizationTypeError, NonConcreteBooleanIndexError
from jaxlite._src.core.trace import Tracer, concrete_index
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import arange, asarray, full, full_like, ones, zeros
from jaxlite._src.numpy.indexing_routines import take
from jaxlite._src.numpy.reductions import _int_dtype, cumsum
from jaxlite._src.numpy.shape import (
    broadcast_to,
    concatenate,
    expand_dims,
    moveaxis,
    ravel,
    reshape,
)
from jaxlite._src.numpy.sorting import argsort
from jaxlite._src.numpy.ufuncs import (
    equal,
    isnan,
    less,
    logical_and,
    logical_not,
    logical_or,
    minimum,
    not_equal,
    subtract,
    where,
)
from jaxlite._src.numpy.util import asarray_any, lax_asarray, promote_dtypes, with_weak_type
from jaxlite._src.ops import indexing as _ix, sorting as _sorting


def isin(
    element, test_elements, assume_unique: bool = False, invert: bool = False, *, method="auto"
):
    """``jnp.isin``: whether each element appears in ``test_elements``."""
    _statics(assume_unique=assume_unique, invert=invert)
    if method not in ("compare_all", "binary_search", "sort", "auto"):
        raise ValueError(
            f"{method=!r} is not implemented; options are 'compare_all', 'binary_search', "
            "'sort', and 'auto'"
        )
    element = asarray_any(element)
    test = ravel(asarray_any(test_elements))
    # Both operands of one rank: the comparison is internal, so it must not trip
    # ``jax_numpy_rank_promotion="raise"`` (JAX's does not).
    test = expand_dims(test, tuple(range(element.ndim)))
    eq = equal(expand_dims(element, -1), test)
    out = reductions.any(eq, axis=-1)
    return logical_not(out) if invert else out


_SIZE = "The size argument of a set operation must be statically specified."


def _statics(**params):
    """JAX jits the set operations with these parameters static: a list or an array there
    is its unhashable-static ``ValueError`` (jaxlite had read a list flag's truth value)."""
    for name, value in params.items():
        if isinstance(value, list) or np.ndim(value) > 0 or isinstance(value, np.ndarray):
            hash_static(value, f"static argument {name!r}")


def _set_result(vals, size, fill_value):
    return unique(vals, size=size, fill_value=fill_value)


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """``jnp.union1d``: sorted unique values in either array (``size=`` under jit).

    Without ``size``, both operands must be concrete; as JAX, each is checked in its own
    shape, first ``ar1``, before they are joined (so the error names the traced operand)."""
    if size is None:
        ar1, ar2 = _concrete_operand(ar1), _concrete_operand(ar2)
    return unique(concatenate([ravel(ar1), ravel(ar2)]), size=size, fill_value=fill_value)


def intersect1d(
    ar1,
    ar2,
    assume_unique: bool = False,
    return_indices: bool = False,
    *,
    size=None,
    fill_value=None,
):
    """``jnp.intersect1d``: sorted unique values in both (flattened) arrays.

    As JAX: the operands take their common dtype; NaNs never match; ``size=`` (needed under
    jit) pads the values with ``fill_value`` (joined in by ``where``, so its type promotes)
    or else the smallest common value. ``return_indices`` adds the first positions of each
    value in ``ar1`` and ``ar2`` (padding: ``ar1.size`` and ``ar2.size``).
    ``assume_unique=True`` skips the de-duplication (inputs with repeats then give JAX's
    repeated values and indices).
    """
    _statics(return_indices=return_indices)
    if size is not None:  # (JAX passes fill_value to its jitted part only with a size)
        _statics(fill_value=fill_value)
    a, b = promote_dtypes(ravel(asarray_any(ar1)), ravel(asarray_any(ar2)))
    if size is None and not assume_unique:  # JAX's unique(size=None) of each: constants
        a, b = _concrete_operand(a), _concrete_operand(b)
    if assume_unique or return_indices:
        return _intersect_sorted(a, b, assume_unique, return_indices, size, fill_value)
    out, num = _unique_where(a, isin(a, b), size, None, pad_with_first=True, count=True)
    return _fill_after(_weak_like(out, a), num, size, fill_value)


def _weak_like(out, a):
    """``out`` with ``a``'s weak type: JAX's set operations keep their operands' (common)
    weak type, which the sorts and scatters here lose."""
    return with_weak_type(out, aval_of(a).weak_type)


def _intersect_sorted(a, b, assume_unique, return_indices, size, fill_value):
    """intersect1d by one stable sort of both operands: each common value's entry from
    ``a`` lands right before its entry from ``b``. Without ``assume_unique`` only the first
    occurrence of each value in each operand takes part."""
    na, nb = a.shape[0], b.shape[0]
    idt = _int_dtype()
    if dtypes.is_inexact(a.dtype):
        a = where(isnan(a), full_like(a, np.nan), a)
        b = where(isnan(b), full_like(b, np.nan), b)
    if assume_unique:
        vals = concatenate([a, b])
        idx = concatenate([arange(na, dtype=idt), arange(nb, dtype=idt)])
        keep = ones((na + nb,), dtypes.bool_)
    else:
        _, sa, ka = _sorted_starts(a, ones((na,), dtypes.bool_))
        _, sb, kb = _sorted_starts(b, ones((nb,), dtypes.bool_))
        pa = _sorting.sort((a, arange(na, dtype=idt)), num_keys=1)[1]
        pb = _sorting.sort((b, arange(nb, dtype=idt)), num_keys=1)[1]
        vals, keep, idx = concatenate([sa, sb]), concatenate([ka, kb]), concatenate([pa, pb])
    src = concatenate([zeros((na,), np.int32), ones((nb,), np.int32)])
    n = na + nb
    dropped = logical_not(keep).astype(np.int32)
    # (src is a key only so that equal values keep a's entries first; the sort is stable)
    _, v, src_s, k, i = _sorting.sort((dropped, vals, src, keep, idx), num_keys=3)
    if n > 1:
        sel = logical_and(logical_and(k[:-1], k[1:]), equal(v[1:], v[:-1]))
        sel = logical_and(sel, less(src_s[:-1], src_s[1:]))
        v0, i1, i2 = v[:-1], i[:-1], i[1:]
    else:
        sel = zeros((0,), dtypes.bool_)
        v0, i1, i2 = v[:0], i[:0], i[:0]
    if assume_unique:
        # JAX's pairing of neighbours in the sort of the concatenation, repeats included
        v_all, p_all = _sorting.sort((vals, arange(n, dtype=idt)), num_keys=1)
        if n > 1:
            sel = equal(v_all[1:], v_all[:-1])
            v0, i1 = v_all[:-1], p_all[:-1]
            i2 = subtract(p_all[1:], na)
    if n > 1:  # the smallest common value (the selected values are sorted), else 0
        pad = where(reductions.any(sel), v0[reductions.argmax(sel)], zeros((), a.dtype))
    else:
        pad = zeros((), a.dtype)
    out, num = _compact(v0, sel, size, pad)
    out = _fill_after(_weak_like(out, a), num, size, fill_value)
    if not return_indices:
        return out
    ind1, _ = _compact(i1, sel, size, full((), na, idt))
    ind2, _ = _compact(i2, sel, size, full((), nb, idt))
    return out, ind1, ind2


def _fill_after(out, num, size, fill_value):
    """``out`` with the entries from ``num`` on replaced by ``fill_value`` through ``where``
    (so the fill's dtype promotes with the values', as in JAX's intersect1d/setxor1d)."""
    if size is None or fill_value is None:
        return out
    return where(less(arange(concrete_index(size, _SIZE)), num), out, fill_value)


def setdiff1d(ar1, ar2, assume_unique: bool = False, *, size=None, fill_value=None):
    """``jnp.setdiff1d``: sorted unique values of ``ar1`` not in ``ar2`` (padded with 0
    unless ``fill_value``, as JAX).

    Without ``size``: ``ar1`` must be concrete (checked in its own shape, as JAX's
    ``unique`` of it), and a traced ``ar2`` raises JAX's ``NonConcreteBooleanIndexError``
    for the mask of kept values (one per unique value of ``ar1``, or per entry with
    ``assume_unique``)."""
    _statics(assume_unique=assume_unique)
    if size is None:  # checked; a constant only where JAX takes its unique (no derivative)
        concrete = _concrete_operand(ar1)
        ar1 = ar1 if assume_unique else concrete
    a = ravel(asarray_any(ar1))
    # JAX's full_like(ar1, fill_value, shape=()): an array fill is refused, even unused
    fill = full_like(a, 0 if fill_value is None else fill_value, shape=())
    if size is None and isinstance(ar2, Tracer):
        keep = logical_not(isin(a if assume_unique else unique(a), ar2))
        if isinstance(keep, Tracer) and keep.to_concrete_value() is None:
            raise NonConcreteBooleanIndexError(keep)
    if assume_unique:
        return _setdiff_in_order(a, ar2, size, fill)
    out = _unique_where(a, logical_not(isin(a, ar2)), size, fill, pad_with_first=False)
    return _weak_like(out, a)


def _setdiff_in_order(a, ar2, size, fill):
    """setdiff1d with ``assume_unique``, as JAX's and NumPy's: ``a``'s entries not in
    ``ar2`` in ``a``'s own order (neither sorted nor de-duplicated), ``size`` of them padded
    with ``fill`` (a scalar in ``a``'s dtype)."""
    keep = logical_not(isin(a, ar2))
    out, num = _compact(a, keep, size, fill)
    if size is not None:
        out = where(less(arange(concrete_index(size, _SIZE)), num), out, fill)
    return _weak_like(out, a)


def _sorted_starts(a, mask):
    """Sort ``a``'s entries where ``mask`` to the front (a two-key sort, so no sentinel
    value can collide with a real one: inf, NaN, the maximum integer) and mark the first
    of each run of equal kept values (NaNs, canonicalised, as one value). Returns
    ``(a, sorted_values, starts)``."""
    n = a.shape[0]
    if dtypes.is_inexact(a.dtype):
        a = where(isnan(a), full_like(a, np.nan), a)
    dropped = logical_not(mask).astype(np.int32)
    _, s, kept = _sorting.sort((dropped, a, mask), num_keys=2)
    if n:
        new_group = not_equal(s[1:], s[:-1])
        if dtypes.is_inexact(a.dtype):
            new_group = logical_and(
                new_group, logical_not(logical_and(isnan(s[1:]), isnan(s[:-1])))
            )
        start = logical_and(kept, concatenate([ones((1,), dtypes.bool_), new_group]))
    else:
        start = zeros((0,), dtypes.bool_)
    return a, s, start


def _compact(s, sel, size, pad):
    """The entries of ``s`` where ``sel``, in order, in ``size`` slots (all of them when
    ``size`` is None, which needs concrete data: JAX's boolean index ``s[sel]``, whose
    ``NonConcreteBooleanIndexError`` a traced ``sel`` raises) padded with ``pad``; and
    their count."""
    if size is None:
        if isinstance(sel, Tracer) and sel.to_concrete_value() is None:
            raise NonConcreteBooleanIndexError(sel)
        size_ = int(np.asarray(reductions.sum(sel)))
    else:
        size_ = concrete_index(size, _SIZE)
    if size_ == 0:
        # No slots: the result is a constant (as JAX's), not a scatter into an empty array,
        # whose transpose would gather from the empty cotangent (``unique(x, size=0)`` under
        # grad raised JAX's gather slice-size error).
        return broadcast_to(pad, (0,)), reductions.sum(sel.astype(np.int32))
    gid = subtract(cumsum(sel.astype(np.int32)), 1)
    slots = where(sel, gid, size_)
    out = _ix.scatter(broadcast_to(pad, (size_,)), s, [slots], "set")
    return out, reductions.sum(sel.astype(np.int32))


def _unique_where(a, mask, size, fill_value, pad_with_first, count=False):
    """The sorted unique values of ``a`` where ``mask`` (NaNs as one value, as JAX's set
    operations), ``size`` of them (padded) if given; with ``count``, also how many."""
    n = a.shape[0]
    a, s, start = _sorted_starts(a, mask)
    if fill_value is not None:
        pad = asarray(fill_value).astype(a.dtype)
    elif pad_with_first and n:
        pad = where(start[0], s[0], zeros((), a.dtype))  # the smallest result, else 0
    else:
        pad = zeros((), a.dtype)
    out, num = _compact(s, start, size, pad)
    return (out, num) if count else out


def setxor1d(ar1, ar2, assume_unique: bool = False, *, size=None, fill_value=None):
    """``jnp.setxor1d``: sorted values in exactly one of the arrays.

    As JAX: the operands take their common dtype; NaNs are one value within each array
    but never equal across them (a NaN in both arrays appears twice); with ``size``, the
    padding is ``fill_value`` joined in by ``where`` (its type promotes) or else the
    smallest result (NaN if any result is NaN, 0 if there is none)."""
    a, b = promote_dtypes(ravel(asarray_any(ar1)), ravel(asarray_any(ar2)))
    if size is None and not assume_unique:  # JAX's unique(size=None) of each: constants
        a, b = _concrete_operand(a), _concrete_operand(b)
    _, sa, ka = _sorted_starts(a, ones(a.shape, dtypes.bool_))
    _, sb, kb = _sorted_starts(b, ones(b.shape, dtypes.bool_))
    if assume_unique:  # no de-duplication: a value repeated in one operand is not in the xor
        ka, kb = ones(a.shape, dtypes.bool_), ones(b.shape, dtypes.bool_)
    vals, keep = concatenate([sa, sb]), concatenate([ka, kb])
    n = vals.shape[0]
    _, s, k = _sorting.sort((logical_not(keep).astype(np.int32), vals, keep), num_keys=2)
    if n:
        # The distinct values sit first, sorted; a value is in the xor when it differs
        # from both neighbours (``!=``, so two NaNs differ).
        differs = not_equal(s[1:], s[:-1])
        before = concatenate([ones((1,), dtypes.bool_), differs])
        after = concatenate([logical_or(differs, logical_not(k[1:])), ones((1,), dtypes.bool_)])
        sel = logical_and(k, logical_and(before, after))
    else:
        sel = zeros((0,), dtypes.bool_)
    out, num = _compact(s, sel, size, zeros((), s.dtype))
    out = _weak_like(out, a)
    if size is None or concrete_index(size, _SIZE) == 0:
        return out
    if fill_value is not None:
        return _fill_after(out, num, size, fill_value)
    valid = less(arange(concrete_index(size, _SIZE)), num)
    out = where(valid, out, reductions.max(out))
    return where(valid, out, reductions.min(out))


class _UniqueAllResult(NamedTuple):
    """``jnp.unique_all``'s result (a pytree, as JAX's)."""

    values: object
    indices: object
    inverse_indices: object
    counts: object


class _UniqueCountsResult(NamedTuple):
    """``jnp.unique_counts``'s result."""

    values: object
    counts: object


class _UniqueInverseResult(NamedTuple):
    """``jnp.unique_inverse``'s result."""

    values: object
    inverse_indices: object


def unique_counts(x, /, *, size=None, fill_value=None):
    """``jnp.unique_counts``: ``(values, counts)``; NaNs are distinct (array API)."""
    v, c = unique(x, return_counts=True, size=size, fill_value=fill_value, equal_nan=False)
    return _UniqueCountsResult(v, c)


def unique_inverse(x, /, *, size=None, fill_value=None):
    """``jnp.unique_inverse``: ``(values, inverse_indices)`` (inverse has ``x``'s shape)."""
    v, inv = unique(x, return_inverse=True, size=size, fill_value=fill_value, equal_nan=False)
    return _UniqueInverseResult(v, reshape(inv, asarray_any(x).shape))


def unique_all(x, /, *, size=None, fill_value=None):
    """``jnp.unique_all``: ``(values, indices, inverse_indices, counts)``."""
    v, i, inv, c = unique(
        x,
        return_index=True,
        return_inverse=True,
        return_counts=True,
        size=size,
        fill_value=fill_value,
        equal_nan=False,
    )
    return _UniqueAllResult(v, i, reshape(inv, asarray_any(x).shape), c)


def _unique_axis_rows(ar, axis):
    """``ar`` with ``axis`` moved to the front and the rest flattened: ``(rows, row_shape)``
    (JAX's axis checks: an integer axis within the rank)."""
    a = asarray_any(ar)
    axis = operator.index(axis)
    nd = a.ndim
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    moved = moveaxis(a, axis % nd, 0)
    row_shape = tuple(moved.shape[1:])
    return reshape(moved, (moved.shape[0], int(np.prod(row_shape, dtype=np.int64)))), row_shape


def _concrete_operand(ar):
    """``ar``'s concrete value as a constant Array of its dtype and weak type, as JAX's
    ``concrete_or_error`` for ``unique`` without ``size``: the result does not depend on a
    traced operand, so its derivative is zero under grad / jvp (for every set operation
    built on it: union1d, intersect1d, setdiff1d, setxor1d). Without a concrete value (jit,
    vmap), ConcretizationTypeError."""
    a = asarray_any(ar)
    if not isinstance(a, Tracer):
        return a
    v = a.to_concrete_value()
    if v is None:
        raise ConcretizationTypeError(
            a,
            "The error arose in jnp.unique(). When jnp.unique is used inside "
            "transformations, the size argument must be specified statically.",
        )
    av = aval_of(a)
    return with_weak_type(asarray(np.asarray(v), av.dtype), av.weak_type)


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
    """``jnp.unique``: the sorted unique values of the flattened array, or with ``axis`` the
    unique slices along it (ordered lexicographically).

    ``size=`` gives a static-shaped result (required under jit) padded with ``fill_value``
    (default: the smallest unique value or slice; with ``axis``, a fill is broadcast to a
    slice). ``return_index``: each unique entry's first position (padding: the smallest's);
    ``return_inverse``: the input's shape (1-D along ``axis`` with ``axis``);
    ``return_counts``: padding counts are 0. ``equal_nan``: NaNs compare equal.
    """
    _statics(equal_nan=equal_nan)
    if size is None:
        ar = _concrete_operand(ar)
    if axis is None:
        a = ravel(asarray_any(ar))
        row_shape = ()
        rows = reshape(a, (a.shape[0], 1))
    else:
        rows, row_shape = _unique_axis_rows(ar, axis)
        a = rows
    n, m = rows.shape
    inexact = dtypes.is_inexact(a.dtype)
    orig_rows = rows
    if inexact:
        # As JAX, every NaN (any sign, complex ones too) sorts as the one NaN of the dtype
        # (nan+0j for complex), so NaNs sort together, stably by position. Real values come
        # from the input itself, so its NaN entries keep their derivative (as JAX's).
        rows = where(isnan(rows), full_like(rows, np.nan), rows)
    # A stable lexicographic sort of the rows (column 0 the most significant key).
    iota = arange(n, dtype=np.int32)
    if m:
        perm = _sorting.sort([rows[:, j] for j in range(m)] + [iota], num_keys=m)[-1]
    else:
        perm = iota
    s = take(rows, perm, axis=0)
    # (complex NaNs come out as nan+0j, as JAX's; real ones as the input's entries)
    s_vals = take(orig_rows, perm, axis=0) if dtypes.is_float(a.dtype) else s
    if n:
        differ = not_equal(s[1:], s[:-1])
        if equal_nan and inexact:
            differ = logical_and(differ, logical_not(logical_and(isnan(s[1:]), isnan(s[:-1]))))
        new_group = reductions.any(differ, axis=1)
        mask = concatenate([ones((1,), dtypes.bool_), new_group])
    else:
        mask = zeros((0,), dtypes.bool_)
    if size is None:
        count = int(np.asarray(reductions.sum(mask)))
        size_ = count
    else:
        size_ = concrete_index(size, _SIZE)
        if n == 0 and size_ and fill_value is None:
            raise ValueError(
                "jnp.unique: for zero-sized input with nonzero size argument, fill_value "
                "must be specified"
            )
    gid = subtract(cumsum(mask.astype(np.int32)), 1)  # group of each sorted row
    slots = where(mask, gid, size_)  # first of each group -> its slot; others dropped
    fill = None
    if fill_value is not None and size is not None:  # (JAX's lax.asarray: no lists)
        fill = lax_asarray(fill_value).astype(a.dtype)
    pad = s_vals[0] if n else zeros((m,), a.dtype)
    if size_ == 0:
        vals = broadcast_to(pad, (0, m))  # a constant, as JAX's (see ``_compact``)
    else:
        vals = _ix.scatter(broadcast_to(pad, (size_, m)), s_vals, [slots], "set")
    vals = reshape(vals, (size_,) + row_shape)
    if fill is not None and not n:  # JAX's full_like(result, fill, shape=result.shape)
        vals = broadcast_to(fill, vals.shape)
    elif fill is not None:  # JAX's where(valid, result, fill): fill broadcasts (any shape)
        valid = less(arange(size_), reductions.sum(mask.astype(np.int32)))
        vals = where(reshape(valid, (size_,) + (1,) * len(row_shape)), vals, fill)
    if axis is not None:
        vals = moveaxis(vals, 0, operator.index(axis) % asarray_any(ar).ndim)
    outs = [with_weak_type(vals, aval_of(a).weak_type)]  # unique(2.5) stays weakly typed, as JAX
    # An empty input gives empty indices and counts whatever ``size`` (as JAX).
    size_ = size_ if n else 0
    if return_index:
        # Padding entries get the index of the smallest element (perm[0]), as JAX's.
        pad_idx = perm[0].astype(_int_dtype()) if n else 0
        first_idx = _ix.scatter(
            full((size_,), pad_idx, _int_dtype()), perm.astype(_int_dtype()), [slots], "set"
        )
        outs.append(first_idx)
    if return_inverse:
        inv = _ix.scatter(zeros((n,), _int_dtype()), gid.astype(_int_dtype()), [perm], "set")
        # the input's shape without axis (as JAX), one entry per slice with it
        outs.append(reshape(inv, asarray_any(ar).shape) if axis is None else inv)
    if return_counts:
        cnt = _ix.scatter(
            zeros((size_,), _int_dtype()),
            ones((n,), _int_dtype()),
            [minimum(gid, size_).astype(np.int32)],
            "add",
        )
        outs.append(cnt)
    return outs[0] if len(outs) == 1 else tuple(outs)


def unique_values(x, /, *, size=None, fill_value=None):
    """``jnp.unique_values`` (as the array API: every NaN is its own value)."""
    return unique(x, size=size, fill_value=fill_value, equal_nan=False)
