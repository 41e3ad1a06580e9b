"""``jax.numpy`` sorting and searching: ``sort argsort lexsort partition
argpartition searchsorted sort_complex``. Set operations are in ``setops``, counting and
histograms in ``statistics``."""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.trace import concrete_index
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import ones_like, zeros
from jaxlite._src.numpy.indexing_routines import _flat_axis, take
from jaxlite._src.numpy.reductions import _int_dtype
from jaxlite._src.numpy.shape import expand_dims, swapaxes
from jaxlite._src.numpy.ufuncs import (
    equal,
    imag,
    isnan,
    less,
    less_equal,
    logical_and,
    logical_not,
    logical_or,
    real,
    where,
)
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis, promote_dtypes
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    lax_api,
    shape as _sh,
    sorting,
    sorting as _sort,
)


def sort_complex(a):
    """``jnp.sort_complex``: sort and return a complex array."""
    a = asarray_any(a)
    dt = dtypes.to_complex_dtype(a.dtype)
    if dtypes.is_complex(a.dtype):
        re, im = real(a), imag(a)
        _, _, a = _sh_sort3(re, im, a)
    else:
        a = sort(a)
    # a cast to the complex dtype, strongly typed as JAX's (seed order 60)
    return conversion.convert_element_type(a, dt, weak_type=False)


def _sh_sort3(re, im, a):
    return sorting.sort((re, im, a), -1, num_keys=2)


def _check_kind_order(name, kind, order):
    if kind is not None:
        raise TypeError(
            f"'kind' argument to {name} is not supported. Use stable=True or stable=False to "
            "specify sort stability."
        )
    if order is not None:
        raise TypeError(f"'order' argument to {name} is not supported.")


def sort(
    a,
    axis: int | None = -1,
    *,
    kind=None,
    order=None,
    stable: bool = True,
    descending: bool = False,
):
    """``jnp.sort``: sorted copy along ``axis`` (flattened if None); NaNs last.

    Raises:
      TypeError: for a ``kind`` or ``order`` other than None, as JAX 0.10.2.
    """
    _check_kind_order("sort", kind, order)
    _sort.check_attribute("stable", stable, bool, "bool")  # lax.sort's is_stable
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
    dtype=None,
):
    """``jnp.argsort``: indices that sort ``a`` along ``axis`` (stable), in ``dtype``
    (default: the default integer type). The indices are an iota of that dtype, so, as in
    JAX, they wrap in a dtype too narrow for the axis. ``kind`` and ``order`` must be None
    (TypeError, as JAX 0.10.2)."""
    _check_kind_order("argsort", kind, order)
    _sort.check_attribute("stable", stable, bool, "bool")  # lax.sort's is_stable
    a, axis = _flat_axis(a, axis)
    if dtype is None:
        idx_dtype = _int_dtype()
    else:
        idx_dtype = dtypes.check_user_dtype_supported(dtype, "argsort")
    iota = conversion.broadcasted_iota(idx_dtype, a.shape, axis)
    if descending and stable:
        # Stable descending order: sort the reversed array with reversed indices, reverse.
        _, idx = _sort.sort((_sh.rev(a, (axis,)), _sh.rev(iota, (axis,))), axis, num_keys=1)
        return _sh.rev(idx, (axis,))
    _, idx = _sort.sort((a, iota), axis, num_keys=1)
    # descending and not stable: JAX reverses the ascending order, so ties come out last
    # index first ([1, 1, 0] -> [1, 0, 2])
    return _sh.rev(idx, (axis,)) if descending else idx


def lexsort(keys, axis: int = -1):
    """``jnp.lexsort``: indirect stable sort by several keys, the last one primary.

    0-d keys (one 1-D array given as the keys) give 0 without reading ``axis``, as JAX's
    static ``axis``: any hashable one (``None``, ``1.5``, a tuple) answers, an array does
    not (an integer one is taken as its integer, docs/compat.md; a float one, or a tracer,
    is refused)."""
    try:
        hash(axis)
    except TypeError:  # an array: read now (tests/hunt/test_lead_s25.py)
        axis = concrete_index(axis, "The axis argument of jnp.lexsort must be static.")
    keys = [asarray_any(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        return zeros((), _int_dtype())
    axis = concrete_index(axis, "The axis argument of jnp.lexsort must be static.")
    axis = canonicalize_axis(axis, len(shape))
    iota = conversion.broadcasted_iota(_int_dtype(), shape, axis)
    outs = _sort.sort(tuple(keys[::-1]) + (iota,), axis, num_keys=len(keys))
    return outs[-1]


_SEARCH_METHODS = ["compare_all", "scan", "scan_unrolled", "sort"]


def searchsorted(a, v, side: str = "left", sorter=None, *, method: str = "scan"):
    """``jnp.searchsorted``: insertion indices of ``v`` into the sorted 1-D ``a``. Every
    ``method`` (JAX's choice of algorithm) gives the same result; one is used for all."""
    if method not in _SEARCH_METHODS:
        raise ValueError(f"invalid argument method={method!r}, expected one of {_SEARCH_METHODS}")
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
    dt = search_index_dtype(a.shape[0])
    if method in ("scan", "scan_unrolled") and a.shape[0]:
        return _bisect(a, v, side, dt)
    # compare_all and sort: how many elements sort before (left) or not after (right) v
    cmp = _total_lt(a, expand_dims(v, -1), side == "right")
    return reductions.sum(cmp, axis=-1, dtype=dt)


def search_index_dtype(n: int):
    """The dtype of ``searchsorted``'s indices into ``n`` elements: int32 unless ``n``
    needs more, also with x64 on (as JAX's, unlike its other index results)."""
    return dtypes.canonicalize_dtype(np.dtype(np.int64 if n > 2**31 - 1 else np.int32))


def _total_lt(x, y, or_equal):
    # NumPy's sort order for floats (NaN last, all NaNs equal, -0.0 == 0.0), as XLA's
    # total-order comparison of JAX's canonicalised sort keys
    if not dtypes.is_inexact(x.dtype):
        return less_equal(x, y) if or_equal else less(x, y)
    if dtypes.is_complex(x.dtype):
        xr, yr = real(x), real(y)
        same = logical_or(equal(xr, yr), logical_and(isnan(xr), isnan(yr)))
        rest = _total_lt(imag(x), imag(y), or_equal)
        return logical_or(_total_lt(xr, yr, False), logical_and(same, rest))
    if or_equal:
        return logical_or(less_equal(x, y), isnan(y))
    return logical_or(less(x, y), logical_and(isnan(y), logical_not(isnan(x))))


def _bisect(a, v, side, dt):
    """JAX's ``scan`` search: ``ceil(log2(n + 1))`` halvings of ``(low, high]`` from
    ``(0, n]``, going left where ``v <= a[mid]`` (``<`` for ``side='right'``); on sorted
    ``a`` the insertion index, elsewhere (unsorted ``a``, as ``digitize`` searches for
    bins ending in NaN) the index this walk ends on, as in JAX."""
    n = a.shape[0]
    low = zeros(v.shape, dt)
    high = conversion.convert_element_type(low + n, dt, weak_type=False)
    for _ in range(int(np.ceil(np.log2(n + 1)))):
        mid = low + (high - low) // 2
        left = _total_lt(v, take(a, mid), side == "left")
        low, high = where(left, low, mid), where(left, mid, high)
    return high


def _check_kth(name, a, kth, axis):
    # the operand with ``axis`` moved last, the axis and ``kth`` in range (JAX's checks)
    a = asarray_any(a)
    if dtypes.is_complex(a.dtype):
        raise NotImplementedError(f"jnp.{name} for complex dtype is not implemented.")
    axis = canonicalize_axis(axis, a.ndim)
    kth = canonicalize_axis(kth, a.shape[axis])
    lax_api.check_accepted("neg", (lax_api.NUMBER,), a)  # JAX negates the operand first
    return swapaxes(a, axis, -1) if a.ndim else a, axis, kth


def _bottom(arr, k):
    # the k smallest along the last axis, ascending (ties: lower index first), as JAX's
    # top_k of an order-reversing map: the negation for floats; for integers the bitwise
    # complement, which has JAX's order but no overflow (JAX negates, so partition of
    # [INT_MIN, ...] misplaces INT_MIN; for unsigned its -(x + 1) is the complement)
    if dtypes.is_float(arr.dtype):
        vals, idx = _sort.top_k(ew.neg(arr), k)
        return ew.neg(vals), idx
    vals, idx = _sort.top_k(ew.bitwise_not(arr), k)
    return ew.bitwise_not(vals), idx


def partition(a, kth: int, axis: int = -1):
    """``jnp.partition``: ``kth`` in its sorted place, smaller values before it, larger
    after. As JAX (through ``lax.top_k``): the ``kth + 1`` smallest ascending, then the
    rest descending (``partition([3, 1, 4, 9, 2], 1)`` is ``[1, 2, 9, 4, 3]``).

    Raises:
      ValueError: ``kth`` outside ``[-n, n)`` for the axis length ``n`` (as JAX).
      NotImplementedError: complex input (as JAX).
      TypeError: bool input (as JAX, which negates it).
    """
    arr, axis, kth = _check_kth("partition", a, kth, axis)
    low = _bottom(arr, kth + 1)[0]
    high = _sort.top_k(arr, arr.shape[-1] - kth - 1)[0]
    return swapaxes(_sh.concatenate([low, high], arr.ndim - 1), -1, axis)


def argpartition(a, kth: int, axis: int = -1):
    """``jnp.argpartition``: the indices ``partition`` orders by, as JAX's: those of the
    ``kth + 1`` smallest values (ascending), then the others in index order.

    Raises:
      ValueError: ``kth`` outside ``[-n, n)`` for the axis length ``n`` (as JAX).
      NotImplementedError: complex input (as JAX).
      TypeError: bool input (as JAX, which negates it).
    """
    arr, axis, kth = _check_kth("argpartition", a, kth, axis)
    n = arr.shape[-1]
    low = _bottom(arr, kth + 1)[1]
    picked = reductions.any(
        equal(expand_dims(low, -1), conversion.broadcasted_iota(low.dtype, (n,), 0)), axis=-2
    )
    rest = _sort.top_k(where(picked, 0.0, 1.0), n - kth - 1)[1]
    return swapaxes(_sh.concatenate([low, rest], arr.ndim - 1), -1, axis)
