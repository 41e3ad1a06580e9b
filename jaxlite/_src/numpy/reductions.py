"""More ``jax.numpy`` reductions: ptp, quantile/percentile/median (and nan- forms),
average, the nan-ignoring reductions and cumulative sums."""

from __future__ import annotations

import builtins

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import lax_numpy as jnp
from jaxlite._src.numpy.functions_shape import real as _real
from jaxlite._src.numpy.lax_numpy import (
    _broadcast_all,
    _keepdims,
    _reduction_axes,
    _shape,
    ravel,
    sqrt,
    subtract,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    promote_dtypes,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    indexing as _ix,
    reductions as _red,
    shape as _sh,
    sorting as _sort,
)


def ptp(a, axis=None, out=None, keepdims: bool = False):
    """``jnp.ptp``: ``max - min`` along ``axis``."""
    a = asarray_any(a)
    return jnp.subtract(jnp.max(a, axis, keepdims=keepdims), jnp.min(a, axis, keepdims=keepdims))


def _move_to_last(a, axis):
    """Move the reduced axes to one trailing axis; returns (array, kept shape, axes)."""
    axes = jnp._reduction_axes(a, axis)
    rest = [i for i in range(a.ndim) if i not in axes]
    t = jnp.transpose(a, rest + list(axes))
    kept = tuple(a.shape[i] for i in rest)
    n = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
    return jnp.reshape(t, kept + (n,)), kept, axes


_METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(a, q, axis, method, keepdims, ignore_nan, name):
    if method not in _METHODS:
        raise ValueError(f"{name}: method must be one of {_METHODS}, got {method!r}")
    a = asarray_any(a)
    if dtypes.is_complex(a.dtype):
        raise ValueError(f"{name} does not support complex input")
    (a,) = promote_dtypes_inexact(a)
    q = asarray_any(q)
    (q,) = promote_dtypes_inexact(q)
    q = q.astype(a.dtype)
    shape_in = a.shape
    flat, kept, axes = _move_to_last(a, axis)
    n = flat.shape[-1]
    s = _sort.sort(flat, flat.ndim - 1)  # NaNs sort last
    isnan = jnp.isnan(flat)
    if ignore_nan:
        count = jnp.sum(jnp.logical_not(isnan), axis=-1, keepdims=True).astype(a.dtype)
    else:
        count = jnp.full(kept + (1,), n, a.dtype)
    qe = jnp.reshape(q, q.shape + (1,) * (len(kept) + 1))  # q dims lead
    pos = jnp.multiply(qe, jnp.subtract(count, 1))
    lo = jnp.floor(pos)
    hi = jnp.ceil(pos)
    if method == "lower":
        idx_lo = idx_hi = lo
    elif method == "higher":
        idx_lo = idx_hi = hi
    elif method == "nearest":
        idx_lo = idx_hi = jnp.round(pos)
    else:
        idx_lo, idx_hi = lo, hi
    maxi = jnp.maximum(jnp.subtract(count, 1), 0)
    idx_lo = jnp.clip(idx_lo, 0, maxi).astype(np.int32)
    idx_hi = jnp.clip(idx_hi, 0, maxi).astype(np.int32)
    sb = jnp.broadcast_to(s, q.shape + s.shape)
    bshape = q.shape + kept + (1,)
    v_lo = _ix.take_along_axis(sb, jnp.broadcast_to(idx_lo, bshape), sb.ndim - 1)
    v_hi = _ix.take_along_axis(sb, jnp.broadcast_to(idx_hi, bshape), sb.ndim - 1)
    if method == "linear":
        frac = jnp.subtract(pos, lo)
        out = jnp.add(v_lo, jnp.multiply(jnp.subtract(v_hi, v_lo), frac))
    elif method == "midpoint":
        out = jnp.multiply(jnp.add(v_lo, v_hi), 0.5)
    else:
        out = v_lo
    out = jnp.squeeze(out, -1)
    if ignore_nan:
        bad = jnp.equal(jnp.squeeze(count, -1), 0)
    else:
        bad = jnp.any(isnan, axis=-1)
    out = jnp.where(bad, jnp.full_like(out, np.nan), out)
    if keepdims:
        ks = [1 if i in axes else d for i, d in enumerate(shape_in)]
        out = jnp.reshape(out, q.shape + tuple(ks))
    return out


def quantile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims: bool = False,
    *,
    interpolation=None,
):
    """``jnp.quantile``: the ``q``-th quantiles (``q`` in [0, 1]) along ``axis``.

    The result has shape ``q.shape + reduced shape``; NaN where the slice contains NaN.
    """
    return _quantile(a, q, axis, interpolation or method, keepdims, False, "quantile")


def percentile(
    a,
    q,
    axis=None,
    out=None,
    overwrite_input=False,
    method="linear",
    keepdims: bool = False,
    *,
    interpolation=None,
):
    """``jnp.percentile``: ``quantile(a, q / 100)``."""
    (q,) = promote_dtypes_inexact(asarray_any(q))
    return _quantile(
        a, jnp.divide(q, 100), axis, interpolation or method, keepdims, False, "percentile"
    )


def median(a, axis=None, out=None, overwrite_input=False, keepdims: bool = False):
    """``jnp.median``: the 0.5 quantile along ``axis``."""
    return _quantile(a, 0.5, axis, "linear", keepdims, False, "median")


def nanquantile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims: bool = False
):
    """``jnp.nanquantile``: ``quantile`` ignoring NaNs."""
    return _quantile(a, q, axis, method, keepdims, True, "nanquantile")


def nanpercentile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims: bool = False
):
    """``jnp.nanpercentile``."""
    (q,) = promote_dtypes_inexact(asarray_any(q))
    return _quantile(a, jnp.divide(q, 100), axis, method, keepdims, True, "nanpercentile")


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims: bool = False):
    """``jnp.nanmedian``."""
    return _quantile(a, 0.5, axis, "linear", keepdims, True, "nanmedian")


def average(a, axis=None, weights=None, returned: bool = False, keepdims: bool = False):
    """``jnp.average``: (weighted) mean along ``axis``; ``returned`` adds the weight sum."""
    a = asarray_any(a)
    if weights is None:
        avg = jnp.mean(a, axis, keepdims=keepdims)
        if not returned:
            return avg
        axes = jnp._reduction_axes(a, axis)
        cnt = int(np.prod([a.shape[i] for i in axes], dtype=np.int64))
        return avg, jnp.full_like(avg, cnt)
    w = asarray_any(weights)
    a, w = promote_dtypes_inexact(a, w)
    if w.shape != a.shape:
        if axis is None:
            raise ValueError("Axis must be specified when shapes of a and weights differ.")
        if w.ndim != 1:
            raise ValueError("1D weights expected when shapes of a and weights differ.")
        ax = canonicalize_axis(axis, a.ndim)
        if w.shape[0] != a.shape[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        shape = [1] * a.ndim
        shape[ax] = w.shape[0]
        w = jnp.broadcast_to(jnp.reshape(w, shape), a.shape)
    wsum = jnp.sum(w, axis, keepdims=keepdims)
    avg = jnp.divide(jnp.sum(jnp.multiply(a, w), axis, keepdims=keepdims), wsum)
    if returned:
        return avg, jnp.broadcast_to(wsum, avg.shape)
    return avg


# ----------------------------------------------------------------------- nan reductions
def _nan_to(a, value):
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return a
    return jnp.where(jnp.isnan(a), jnp.full_like(a, value), a)


def nansum(a, axis=None, dtype=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nansum``: ``sum`` treating NaN as zero."""
    return jnp.sum(_nan_to(a, 0), axis, dtype, keepdims=keepdims, initial=initial, where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nanprod``: ``prod`` treating NaN as one."""
    return jnp.prod(_nan_to(a, 1), axis, dtype, keepdims=keepdims, initial=initial, where=where)


def _all_nan(a, axis, keepdims):
    return jnp.all(jnp.isnan(a), axis, keepdims=keepdims)


def nanmax(a, axis=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nanmax``: ``max`` ignoring NaNs (NaN for all-NaN slices)."""
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return jnp.max(a, axis, keepdims=keepdims, initial=initial, where=where)
    out = jnp.max(_nan_to(a, -np.inf), axis, keepdims=keepdims, initial=initial, where=where)
    return jnp.where(_all_nan(a, axis, keepdims), jnp.full_like(out, np.nan), out)


def nanmin(a, axis=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nanmin``: ``min`` ignoring NaNs (NaN for all-NaN slices)."""
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return jnp.min(a, axis, keepdims=keepdims, initial=initial, where=where)
    out = jnp.min(_nan_to(a, np.inf), axis, keepdims=keepdims, initial=initial, where=where)
    return jnp.where(_all_nan(a, axis, keepdims), jnp.full_like(out, np.nan), out)


def _nan_count(a, axis, keepdims, dtype):
    return jnp.sum(jnp.logical_not(jnp.isnan(a)), axis, keepdims=keepdims, dtype=dtype)


def nanmean(a, axis=None, dtype=None, out=None, keepdims: bool = False, where=None):
    """``jnp.nanmean``: mean of the non-NaN elements."""
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return jnp.mean(a, axis, dtype, keepdims=keepdims, where=where)
    total = nansum(a, axis, dtype, keepdims=keepdims, where=where)
    cnt = jnp.sum(
        jnp.logical_not(jnp.isnan(a)), axis, keepdims=keepdims, where=where, dtype=total.dtype
    )
    return jnp.divide(total, cnt)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims: bool = False, where=None):
    """``jnp.nanvar``: variance of the non-NaN elements."""
    a = asarray_any(a)
    (a,) = promote_dtypes_inexact(a)
    m = nanmean(a, axis, keepdims=True, where=where)
    c = jnp.subtract(a, m)
    sq = _real(jnp.multiply(c, jnp.conj(c))) if dtypes.is_complex(a.dtype) else jnp.multiply(c, c)
    total = nansum(sq, axis, keepdims=keepdims, where=where)
    cnt = jnp.sum(
        jnp.logical_not(jnp.isnan(a)), axis, keepdims=keepdims, where=where, dtype=total.dtype
    )
    return jnp.divide(total, jnp.maximum(jnp.subtract(cnt, ddof), 0))


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims: bool = False, where=None):
    """``jnp.nanstd``: ``sqrt(nanvar)``."""
    return jnp.sqrt(nanvar(a, axis, dtype, out, ddof, keepdims, where))


def nanargmax(a, axis=None, out=None, keepdims: bool = False):
    """``jnp.nanargmax``: ``argmax`` ignoring NaNs (-1 for all-NaN slices)."""
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return jnp.argmax(a, axis, keepdims=keepdims)
    res = jnp.argmax(_nan_to(a, -np.inf), axis, keepdims=keepdims)
    return jnp.where(_all_nan(a, axis, keepdims), jnp.full_like(res, -1), res)


def nanargmin(a, axis=None, out=None, keepdims: bool = False):
    """``jnp.nanargmin``: ``argmin`` ignoring NaNs (-1 for all-NaN slices)."""
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return jnp.argmin(a, axis, keepdims=keepdims)
    res = jnp.argmin(_nan_to(a, np.inf), axis, keepdims=keepdims)
    return jnp.where(_all_nan(a, axis, keepdims), jnp.full_like(res, -1), res)


def nancumsum(a, axis=None, dtype=None, out=None):
    """``jnp.nancumsum``: ``cumsum`` treating NaN as zero."""
    return jnp.cumsum(_nan_to(a, 0), axis, dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    """``jnp.nancumprod``: ``cumprod`` treating NaN as one."""
    return jnp.cumprod(_nan_to(a, 1), axis, dtype)


# ------------------------------------------------------------- the core reductions
def _apply_where(x, where, identity):
    if where is None:
        return x
    where = asarray_any(where)
    x, where = _broadcast_all(x, where)
    return ew.select_n(where, _sh.full(_shape(x), identity, x.dtype), x)


def sum(
    a,
    axis=None,
    dtype=None,
    out=None,
    keepdims=False,
    initial=None,
    where=None,
    promote_integers=True,
):
    """``jnp.sum``. Booleans and small integers accumulate in the default int type."""
    check_arraylike("sum", a)
    a = asarray_any(a)
    if dtype is None:
        dt = a.dtype
        if dt == dtypes.bool_:
            dt = dtypes.default_int_dtype()
        elif (
            promote_integers
            and dtypes.is_int(dt)
            and dt.itemsize < dtypes.default_int_dtype().itemsize
        ):
            dt = (
                dtypes.default_uint_dtype()
                if dtypes.is_unsigned(dt)
                else dtypes.default_int_dtype()
            )
    else:
        dt = dtypes.check_user_dtype_supported(dtype, "sum")
    a = conversion.convert_element_type(a, dt, a.weak_type)
    a = _apply_where(a, where, 0)
    axes = _reduction_axes(a, axis)
    out = _red.reduce_sum(a, axes)
    if initial is not None:
        out = ew.add(out, ew._const(out, initial) if not isinstance(initial, Array) else initial)
    return _keepdims(out, a, axes, keepdims)


def prod(
    a,
    axis=None,
    dtype=None,
    out=None,
    keepdims=False,
    initial=None,
    where=None,
    promote_integers=True,
):
    a = asarray_any(a)
    dt = a.dtype if dtype is None else dtypes.canonicalize_dtype(dtype)
    if dtype is None and (dt == dtypes.bool_ or (promote_integers and dtypes.is_int(dt))):
        dt = (
            dtypes.default_int_dtype()
            if not dtypes.is_unsigned(dt)
            else dtypes.default_uint_dtype()
        )
    a = conversion.convert_element_type(a, dt, a.weak_type)
    a = _apply_where(a, where, 1)
    axes = _reduction_axes(a, axis)
    out = _red.reduce_prod(a, axes)
    if initial is not None:
        out = ew.mul(out, ew._const(out, initial))
    return _keepdims(out, a, axes, keepdims)


def _extremum(name, reduce, combine, a, axis, keepdims, initial, where):
    """``jnp.max`` / ``jnp.min``: no identity, so ``where=`` needs ``initial=``."""
    a = asarray_any(a)
    axes = _reduction_axes(a, axis)
    if where is not None:
        if initial is None:
            raise ValueError(
                f"reduction operation {name} does not have an identity, so to use a "
                "where mask one has to specify 'initial'"
            )
        a = _apply_where(a, where, initial)
    if a.size == 0 and initial is None and builtins.any(_shape(a)[i] == 0 for i in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    out = reduce(a, axes)
    if initial is not None:
        out = combine(out, ew._const(out, initial))
    return _keepdims(out, a, axes, keepdims)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """``jnp.max``."""
    return _extremum("max", _red.reduce_max, ew.max, a, axis, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """``jnp.min``."""
    return _extremum("min", _red.reduce_min, ew.min, a, axis, keepdims, initial, where)


amax, amin = max, min


def all(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    a = asarray_any(a)
    if a.dtype != dtypes.bool_:
        a = ew.ne(a, ew._const(a, 0))
    a = _apply_where(a, where, True)
    axes = _reduction_axes(a, axis)
    return _keepdims(_red.reduce_and(a, axes), a, axes, keepdims)


def any(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    a = asarray_any(a)
    if a.dtype != dtypes.bool_:
        a = ew.ne(a, ew._const(a, 0))
    a = _apply_where(a, where, False)
    axes = _reduction_axes(a, axis)
    return _keepdims(_red.reduce_or(a, axes), a, axes, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    a = asarray_any(a)
    axes = _reduction_axes(a, axis)
    if dtype is None:
        dt = dtypes.to_inexact_dtype(a.dtype)
    else:
        dt = dtypes.canonicalize_dtype(dtype)
    if where is None:
        n = int(np.prod([_shape(a)[i] for i in axes], dtype=np.int64))
        total = sum(
            conversion.convert_element_type(a, dt, a.weak_type), axis=axes, keepdims=keepdims
        )
        return ew.div(total, ew._const(total, n))
    w = asarray_any(where)
    total = sum(
        conversion.convert_element_type(a, dt, a.weak_type), axis=axes, keepdims=keepdims, where=w
    )
    cnt = sum(_broadcast_all(w, a)[0], axis=axes, keepdims=keepdims, dtype=dt)
    return ew.div(total, cnt)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None):
    if correction is not None:
        ddof = correction
    a = asarray_any(a)
    (a,) = promote_dtypes_inexact(a)
    axes = _reduction_axes(a, axis)
    m = mean(a, axis=axes, keepdims=True, where=where)
    c = subtract(a, m)
    sq = ew.real(ew.mul(c, ew.conj(c))) if dtypes.is_complex(a.dtype) else ew.mul(c, c)
    n = int(np.prod([_shape(a)[i] for i in axes], dtype=np.int64))
    total = sum(sq, axis=axes, keepdims=keepdims, where=where)
    if where is None:
        return ew.div(total, ew._const(total, n - ddof))
    cnt = sum(
        _broadcast_all(asarray_any(where), a)[0], axis=axes, keepdims=keepdims, dtype=total.dtype
    )
    return ew.div(total, ew.sub(cnt, ew._const(cnt, ddof)))


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, correction=None):
    return sqrt(var(a, axis, dtype, out, ddof, keepdims, where=where, correction=correction))


def argmax(a, axis=None, out=None, keepdims=False):
    a = asarray_any(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = canonicalize_axis(axis, a.ndim)
    out = _red.argmax(a, axis, dtypes.default_int_dtype())
    return _keepdims(out, a, (axis,), keepdims)


def argmin(a, axis=None, out=None, keepdims=False):
    a = asarray_any(a)
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = canonicalize_axis(axis, a.ndim)
    out = _red.argmin(a, axis, dtypes.default_int_dtype())
    return _keepdims(out, a, (axis,), keepdims)


def cumsum(a, axis=None, dtype=None):
    a = asarray_any(a)
    if axis is None:
        a, axis = ravel(a), 0
    if dtype is not None:
        a = conversion.convert_element_type(a, dtypes.canonicalize_dtype(dtype))
    elif a.dtype == dtypes.bool_:  # small integer types keep their width, as in JAX
        a = conversion.convert_element_type(a, dtypes.default_int_dtype())
    return _red.cumsum(a, canonicalize_axis(axis, a.ndim))


def cumprod(a, axis=None, dtype=None):
    a = asarray_any(a)
    if axis is None:
        a, axis = ravel(a), 0
    if dtype is not None:
        a = conversion.convert_element_type(a, dtypes.canonicalize_dtype(dtype))
    elif a.dtype == dtypes.bool_:  # small integer types keep their width, as in JAX
        a = conversion.convert_element_type(a, dtypes.default_int_dtype())
    return _red.cumprod(a, canonicalize_axis(axis, a.ndim))
