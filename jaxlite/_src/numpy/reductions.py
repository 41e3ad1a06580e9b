"""``jax.numpy`` reductions: ``sum prod max min mean var std all any argmax argmin``, the
cumulative ones (``cumsum``, ``cumulative_sum``, ...), ``ptp``, ``count_nonzero``, the
nan-ignoring ones (``nansum``, ...) and the whole-array comparisons (``allclose``,
``array_equal``, ``array_equiv``). Quantiles and averages are in ``statistics``.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array
from jaxlite._src.numpy import key_compare, ufuncs
from jaxlite._src.numpy.creation import full_like, ones, zeros, zeros_like
from jaxlite._src.numpy.shape import (
    _broadcast_all,
    _reduction_axes,
    _shape,
    broadcast_arrays,
    concatenate,
    ravel,
)
from jaxlite._src.numpy.ufuncs import (
    conj,
    divide,
    equal,
    isclose,
    isnan,
    logical_and,
    logical_not,
    logical_or,
    maximum,
    multiply,
    not_equal,
    real as _real,
    sqrt,
    subtract,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    check_out,
    div_by_constant,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import (
    conversion,
    cumulative as _cum,
    elementwise as ew,
    reductions as _red,
    shape as _sh,
)


def _keepdims(out, x, axes, keepdims):
    if not keepdims:
        return out
    shape = [1 if i in axes else s for i, s in enumerate(_shape(x))]
    return _sh.reshape(out, shape)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan: bool = False):
    """``jnp.allclose``: ``all(isclose(a, b))`` (typed PRNG keys: all equal)."""
    return all(key_compare.isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan: bool = False):
    """``jnp.array_equal``: same shape and equal elements (a boolean scalar array); typed
    PRNG keys compare by their data, as ``k1 == k2`` does."""
    a1, a2 = asarray_any(a1), asarray_any(a2)
    if a1.shape != a2.shape:
        return asarray_any(False)
    eq = key_compare.equal(a1, a2)
    if equal_nan and not dtypes.is_extended(a1.dtype):  # keys are never NaN
        eq = logical_or(eq, logical_and(isnan(a1), isnan(a2)))
    return all(eq)


def array_equiv(a1, a2):
    """``jnp.array_equiv``: equal after broadcasting. Shapes that do not broadcast are
    ``False`` when the ranks differ (JAX's rank promotion fails first, with the
    ``ValueError`` it catches) and JAX's ``TypeError`` when they agree (``lax.eq``'s)."""
    a1, a2 = asarray_any(a1), asarray_any(a2)
    try:
        a1, a2 = broadcast_arrays(a1, a2)
    except ValueError:
        if a1.ndim != a2.ndim:
            return asarray_any(np.array(False))
        msg = f"eq got incompatible shapes for broadcasting: {a1.shape}, {a2.shape}."
        raise TypeError(msg) from None
    return all(key_compare.equal(a1, a2))


def _cumulative(fn, fill, x, axis, dtype, include_initial):
    x = asarray_any(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("The input array has rank > 1; axis must be specified")
        axis = 0
    out = fn(x, axis, dtype)
    if include_initial:
        shape = list(out.shape)
        shape[canonicalize_axis(axis, out.ndim)] = 1
        out = concatenate([fill(shape, out.dtype), out], axis)
    return out


def _sum_dtype(dt, promote_integers: bool = True):
    """What ``jnp.sum`` accumulates ``dt`` in: booleans and integers narrower than the
    default int in the default (unsigned) int."""
    if dt == dtypes.bool_:
        return dtypes.default_int_dtype()
    if promote_integers and dtypes.is_int(dt) and dt.itemsize < dtypes.default_int_dtype().itemsize:
        return dtypes.default_uint_dtype() if dtypes.is_unsigned(dt) else dtypes.default_int_dtype()
    return dt


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial: bool = False):
    """``jnp.cumulative_sum`` (array API): small integers accumulate as in ``jnp.sum``
    (``uint8 -> uint32``), unlike ``jnp.cumsum``, as in JAX."""
    check_arraylike("cumulative_sum", x)
    x = asarray_any(x)
    if dtype is None:
        dtype = _sum_dtype(x.dtype)
    return _cumulative(cumsum, zeros, x, axis, dtype, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial: bool = False):
    """``jnp.cumulative_prod`` (array API)."""
    check_arraylike("cumulative_prod", x)
    return _cumulative(cumprod, ones, x, axis, dtype, include_initial)


def ptp(a, axis=None, out=None, keepdims: bool = False):
    """``jnp.ptp``: ``max - min`` along ``axis``."""
    check_out(out, "jnp.ptp is not supported.")
    a = asarray_any(a)
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


# ----------------------------------------------------------------------- nan reductions
def _nan_to(a, value):
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return a
    return ufuncs._where(isnan(a), full_like(a, value), a)


def nansum(a, axis=None, dtype=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nansum``: ``sum`` treating NaN as zero."""
    check_out(out, "jnp.sum is not supported.")
    return sum(_nan_to(a, 0), axis, dtype, keepdims=keepdims, initial=initial, where=where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nanprod``: ``prod`` treating NaN as one."""
    check_out(out, "jnp.prod is not supported.")
    return prod(_nan_to(a, 1), axis, dtype, keepdims=keepdims, initial=initial, where=where)


def _all_nan(a, axis, keepdims):
    return all(isnan(a), axis, keepdims=keepdims)


def nanmax(a, axis=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nanmax``: ``max`` ignoring NaNs (NaN for all-NaN slices, unless ``initial``
    is given)."""
    check_out(out, "jnp.max is not supported.")
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return max(a, axis, keepdims=keepdims, initial=initial, where=where)
    out = max(_nan_to(a, -np.inf), axis, keepdims=keepdims, initial=initial, where=where)
    if initial is not None:
        return out  # as JAX: an all-NaN slice gives ``initial``, not NaN
    return ufuncs._where(_all_nan(a, axis, keepdims), full_like(out, np.nan), out)


def nanmin(a, axis=None, out=None, keepdims: bool = False, initial=None, where=None):
    """``jnp.nanmin``: ``min`` ignoring NaNs (NaN for all-NaN slices, unless ``initial``
    is given)."""
    check_out(out, "jnp.min is not supported.")
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return min(a, axis, keepdims=keepdims, initial=initial, where=where)
    out = min(_nan_to(a, np.inf), axis, keepdims=keepdims, initial=initial, where=where)
    if initial is not None:
        return out  # as JAX: an all-NaN slice gives ``initial``, not NaN
    return ufuncs._where(_all_nan(a, axis, keepdims), full_like(out, np.nan), out)


def _nan_count(a, axis, keepdims, dtype):
    return sum(logical_not(isnan(a)), axis, keepdims=keepdims, dtype=dtype)


def nanmean(a, axis=None, dtype=None, out=None, keepdims: bool = False, where=None):
    """``jnp.nanmean``: mean of the non-NaN elements."""
    check_out(out, "jnp.nanmean is not supported.")
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return mean(a, axis, dtype, keepdims=keepdims, where=where)
    # In the input's dtype when none is given (no float32 accumulation of half precision:
    # JAX's nanmean passes its dtype on to nansum).
    total = nansum(a, axis, a.dtype if dtype is None else dtype, keepdims=keepdims, where=where)
    cnt = sum(logical_not(isnan(a)), axis, keepdims=keepdims, where=where, dtype=total.dtype)
    if dtype is not None:  # in the given dtype (an integer one divides truncating, as JAX)
        return ew.div(total, cnt)
    return divide(total, cnt)


def nanvar(
    a, axis=None, dtype=None, out=None, ddof=0, keepdims: bool = False, where=None, mean=None
):
    """``jnp.nanvar``: the variance of the non-NaN elements (a NaN produced by the data,
    such as ``inf - inf``, is not skipped). The result has ``dtype`` when given (an
    integer one included, as JAX), else the input's inexact real type.

    Raises:
      ValueError: a real ``dtype`` for complex input.
    """
    check_out(out, "jnp.nanvar is not supported.")
    if ddof is None or isinstance(ddof, str):  # JAX's ddof is an operand: a TypeError
        raise TypeError(f"nanvar: ddof must be a number or an array, got {ddof!r}")
    a = asarray_any(a)
    comp, out_dt = _var_dtypes(a.dtype, dtype)
    axes = _reduction_axes(a, axis)
    res = _variance(a, axes, comp, ddof, keepdims, where, skip_nan=True, a_mean=mean)
    return conversion.convert_element_type(res, out_dt)


def nanstd(
    a, axis=None, dtype=None, out=None, ddof=0, keepdims: bool = False, where=None, mean=None
):
    """``jnp.nanstd``: ``sqrt(nanvar)``.

    Raises:
      TypeError: an integer ``dtype`` (its square root is refused, as in JAX).
    """
    check_out(out, "jnp.nanstd is not supported.")
    v = nanvar(a, axis, dtype, out, ddof, keepdims, where, mean)
    if not dtypes.is_inexact(v.dtype):
        raise TypeError(
            f"sqrt does not accept dtype {v.dtype.name}. Accepted dtypes are subtypes of "
            "floating, complexfloating."
        )
    return sqrt(v)


def nanargmax(a, axis=None, out=None, keepdims: bool | None = None):
    """``jnp.nanargmax``: ``argmax`` ignoring NaNs (-1 for all-NaN slices)."""
    check_out(out, "jnp.nanargmax is not supported.")
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return argmax(a, axis, keepdims=keepdims)
    res = argmax(_nan_to(a, -np.inf), axis, keepdims=keepdims)
    return ufuncs._where(_all_nan(a, axis, keepdims), full_like(res, -1), res)


def nanargmin(a, axis=None, out=None, keepdims: bool | None = None):
    """``jnp.nanargmin``: ``argmin`` ignoring NaNs (-1 for all-NaN slices)."""
    check_out(out, "jnp.nanargmin is not supported.")
    a = asarray_any(a)
    if not dtypes.is_inexact(a.dtype):
        return argmin(a, axis, keepdims=keepdims)
    res = argmin(_nan_to(a, np.inf), axis, keepdims=keepdims)
    return ufuncs._where(_all_nan(a, axis, keepdims), full_like(res, -1), res)


def nancumsum(a, axis=None, dtype=None, out=None):
    """``jnp.nancumsum``: ``cumsum`` treating NaN as zero."""
    check_out(out, "jnp.nancumsum is not supported")
    check_arraylike("nancumsum", a)
    return cumsum(_nan_to(a, 0), axis, dtype)


def nancumprod(a, axis=None, dtype=None, out=None):
    """``jnp.nancumprod``: ``cumprod`` treating NaN as one."""
    check_out(out, "jnp.nancumprod is not supported")
    check_arraylike("nancumprod", a)
    return cumprod(_nan_to(a, 1), axis, dtype)


# ------------------------------------------------------------- the core reductions
def _strong(x):
    """``x`` with its weak type dropped: jnp reductions of weak values are not weak."""
    return conversion.convert_element_type(x, x.dtype, False) if x.weak_type else x


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
    """``jnp.sum``. Booleans and small integers accumulate in the default int type;
    float16/bfloat16 in float32 unless ``dtype`` is given (``_computation_dtype``)."""
    check_out(out, "jnp.sum is not supported.")
    check_arraylike("sum", a)
    a = asarray_any(a)
    if dtype is None:
        dt = _sum_dtype(a.dtype, promote_integers)
    else:
        dt = dtypes.check_user_dtype_supported(dtype, "sum")
    comp = _computation_dtype(dt, dtype)
    # jnp reductions give a strongly typed result, even of a weak (Python scalar) input.
    a = conversion.convert_element_type(a, comp, False)
    a = _apply_where(a, where, 0)
    axes = _reduction_axes(a, axis)
    # a boolean ``dtype`` reduces with logical or, as JAX
    red, op = (_red.reduce_or, ew.or_) if dt == dtypes.bool_ else (_red.reduce_sum, ew.add)
    out = red(a, axes)
    if initial is not None:
        out = op(_initial_value(initial, out), out)
    return conversion.convert_element_type(_keepdims(out, a, axes, keepdims), dt)


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
    check_out(out, "jnp.prod is not supported.")
    a = asarray_any(a)
    dt = a.dtype if dtype is None else dtypes.canonicalize_dtype(dtype)
    if dtype is None and (dt == dtypes.bool_ or (promote_integers and dtypes.is_int(dt))):
        dt = (
            dtypes.default_int_dtype()
            if not dtypes.is_unsigned(dt)
            else dtypes.default_uint_dtype()
        )
    comp = _computation_dtype(dt, dtype)
    a = conversion.convert_element_type(a, comp, False)
    a = _apply_where(a, where, 1)
    axes = _reduction_axes(a, axis)
    # a boolean ``dtype`` reduces with logical and, as JAX
    red, op = (_red.reduce_and, ew.and_) if dt == dtypes.bool_ else (_red.reduce_prod, ew.mul)
    out = red(a, axes)
    if initial is not None:
        out = op(_initial_value(initial, out), out)
    return conversion.convert_element_type(_keepdims(out, a, axes, keepdims), dt)


def _computation_dtype(dt, dtype):
    """What ``jnp.sum`` / ``jnp.prod`` of result dtype ``dt`` reduce in: float16 and
    bfloat16 in float32 (where, ``initial`` and the reduction; one rounding at the end)
    unless the caller gave ``dtype``, as JAX's jnp reductions (XLA:CPU's own 16-bit
    reductions round after every addition, in its tree order)."""
    return _upcast_half(dt) if dtype is None else dt


def _initial_value(initial, out):
    """``initial=`` of a reduction as JAX joins it to the result: a scalar converted to
    the result's dtype (strongly typed; an Array of another dtype too), broadcast to the
    result's shape.

    Raises:
      ValueError: an ``initial`` of one or more dimensions.
    """
    init = conversion.convert_element_type(asarray_any(initial), out.dtype, False)
    if init.ndim:
        raise ValueError(f"initial value must be a scalar. Got array of shape {init.shape}")
    return _sh.broadcast_in_dim(init, _shape(out), ())


def _extremum(name, reduce, combine, a, axis, keepdims, initial, where):
    """``jnp.max`` / ``jnp.min``: no identity, so ``where=`` needs ``initial=``."""
    a = _strong(asarray_any(a))
    axes = _reduction_axes(a, axis)
    if where is not None:
        if initial is None:
            raise ValueError(
                f"reduction operation {name} does not have an identity, so to use a "
                "where mask one has to specify 'initial'"
            )
        # Masked elements take the reduction's identity, not ``initial`` (which joins after
        # the reduction): a masked element equal to the result would otherwise share in its
        # derivative, as a tie.
        a = _apply_where(a, where, _extremum_identity(name, a.dtype))
    if a.size == 0 and initial is None and builtins.any(_shape(a)[i] == 0 for i in axes):
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    out = reduce(a, axes)
    if initial is not None:
        out = combine(_initial_value(initial, out), out)
    return _keepdims(out, a, axes, keepdims)


def _extremum_identity(name, dtype):
    """The identity of ``max`` / ``min`` for ``dtype`` (-inf / +inf, the integer limits)."""
    if dtype == np.bool_:
        return name == "min"
    if dtypes.is_int(dtype):
        info = np.iinfo(dtype)
        return info.min if name == "max" else info.max
    return -np.inf if name == "max" else np.inf


def max(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """``jnp.max``."""
    check_out(out, "jnp.max is not supported.")
    return _extremum("max", _red.reduce_max, ew.max, a, axis, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=None):  # noqa: A001
    """``jnp.min``."""
    check_out(out, "jnp.min is not supported.")
    return _extremum("min", _red.reduce_min, ew.min, a, axis, keepdims, initial, where)


amax, amin = max, min


def all(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    check_out(out, "jnp.all is not supported.")
    a = _strong(asarray_any(a))
    if a.dtype != dtypes.bool_:
        a = ew.ne(a, ew._const(a, 0))
    a = _apply_where(a, where, True)
    axes = _reduction_axes(a, axis)
    return _keepdims(_red.reduce_and(a, axes), a, axes, keepdims)


def any(a, axis=None, out=None, keepdims=False, *, where=None):  # noqa: A001
    check_out(out, "jnp.any is not supported.")
    a = _strong(asarray_any(a))
    if a.dtype != dtypes.bool_:
        a = ew.ne(a, ew._const(a, 0))
    a = _apply_where(a, where, False)
    axes = _reduction_axes(a, axis)
    return _keepdims(_red.reduce_or(a, axes), a, axes, keepdims)


def _upcast_half(dt):
    # float16/bfloat16 reductions accumulate in float32 (as JAX's), the result cast back.
    return dtypes.float32 if dt in (dtypes.float16, dtypes.bfloat16) else dt


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=None):
    """``jnp.mean``. The result has ``dtype`` when given (an integer ``dtype`` divides in
    that type, truncating, as JAX); otherwise the input's inexact type. Half precision
    accumulates in float32."""
    check_out(out, "jnp.mean is not supported.")
    a = asarray_any(a)
    axes = _reduction_axes(a, axis, index_error=True)
    if dtype is None:
        dt = dtypes.to_inexact_dtype(a.dtype)
    else:
        dt = dtypes.canonicalize_dtype(dtype)
    comp = _upcast_half(dt)
    x = conversion.convert_element_type(a, comp, a.weak_type)
    if where is None:
        n = int(np.prod([_shape(a)[i] for i in axes], dtype=np.int64))
        total = sum(x, axis=axes, dtype=comp, keepdims=keepdims)
        res = div_by_constant(total, n)
    else:
        w = asarray_any(where)
        total = sum(x, axis=axes, dtype=comp, keepdims=keepdims, where=w)
        cnt = sum(_broadcast_all(w, a)[0], axis=axes, keepdims=keepdims, dtype=comp)
        res = ew.div(total, cnt)
    return conversion.convert_element_type(res, dt)  # strong, as every jnp reduction


def _var_dtypes(a_dtype, dtype):
    """JAX's dtypes of a variance: (computation dtype, result dtype)."""
    if dtype is None:
        comp = dtypes.to_inexact_dtype(a_dtype)
        return comp, dtypes.to_real_dtype(comp) if dtypes.is_complex(comp) else comp
    dt = dtypes.canonicalize_dtype(dtype)
    if dtypes.is_complex(a_dtype) and not dtypes.is_complex(dt):
        raise ValueError(
            "jax.numpy.var does not yet support real dtype parameters when computing the "
            "variance of an array of complex values."
        )
    return dt, dt


def _given_mean(a_mean, x, name: str):
    """``mean=`` of var/std/nanvar/nanstd in ``x``'s dtype: 0-d or of ``x``'s rank (JAX
    subtracts it with ``lax.sub``, which broadcasts size-1 axes but not ranks)."""
    check_arraylike(name, a_mean)
    m = conversion.convert_element_type(asarray_any(a_mean), x.dtype)
    if m.ndim not in (0, x.ndim):
        ranks = {x.ndim, m.ndim}
        raise TypeError(f"sub: arrays must have the same number of dimensions, got {ranks}")
    if m.ndim and builtins.any(d not in (1, n) for d, n in zip(m.shape, x.shape)):
        raise TypeError(f"sub got incompatible shapes for broadcasting: {x.shape}, {m.shape}.")
    return m


def _variance(a, axes, comp, ddof, keepdims, where, skip_nan: bool, a_mean=None):
    # The centred sum of squares over ``axes`` in ``comp`` (half precision in float32),
    # divided by the degrees of freedom; with ``skip_nan`` the input's NaNs are left out
    # (a NaN made by the arithmetic, inf - inf, is kept). ``a_mean``: the mean to centre
    # on (computed when None).
    work = _upcast_half(comp)
    x = conversion.convert_element_type(a, work)
    nan = isnan(x) if skip_nan and dtypes.is_inexact(work) else None
    keep = where
    if nan is not None:
        keep = (
            logical_not(nan) if where is None else logical_and(asarray_any(where), logical_not(nan))
        )
    if a_mean is not None:
        m = _given_mean(a_mean, x, "nanvar" if skip_nan else "var")
    else:
        m = mean(
            _nan_to(x, 0) if nan is not None else x,
            axis=axes,
            dtype=work,
            keepdims=True,
            where=keep,
        )
    c = subtract(x, m)
    if nan is not None:
        # Zeroed before squaring, as JAX: the square's derivative at a skipped NaN is then
        # 0, not 0 * NaN (grad of nanvar([2, nan]) is [0, 0], was [nan, nan]).
        c = ufuncs._where(nan, zeros_like(c), c)
    sq = ew.real(ew.mul(c, ew.conj(c))) if dtypes.is_complex(work) else ew.mul(c, c)
    total = sum(sq, axis=axes, keepdims=keepdims, where=where)
    n = int(np.prod([_shape(a)[i] for i in axes], dtype=np.int64))
    if np.ndim(ddof) or not isinstance(ddof, (int, float, np.number, np.ndarray)):
        # An array or traced ``ddof`` (JAX's is an operand of its jitted var)
        if keep is not None:
            n = sum(_broadcast_all(asarray_any(keep), a)[0], axis=axes, keepdims=keepdims)
        return _variance_by(total, n, ddof, skip_nan)
    if keep is None:
        if not dtypes.is_inexact(total.dtype):
            return _int_variance(total, ew._const(total, n), ddof)
        # exact: JAX's ddof is a traced argument of its jitted var, not a constant
        res = ew.div(total, ew._const(total, n - ddof))
        if n - ddof <= 0:
            # No degrees of freedom left: NaN, selected over total / (n - ddof) as in JAX
            # (so the JVP is 0 and the gradient, through the division by 0, is NaN).
            nanv = _sh.full(_shape(total), np.nan, total.dtype)
            return ew.select_n(_sh.full(_shape(total), True, dtypes.bool_), res, nanv)
        return res
    cnt = sum(
        _broadcast_all(asarray_any(keep), a)[0], axis=axes, keepdims=keepdims, dtype=total.dtype
    )
    if not dtypes.is_inexact(total.dtype):
        return _int_variance(total, cnt, ddof)
    dof = ew.sub(cnt, ew._const(cnt, ddof))
    ok = ew.gt(dof, ew._const(dof, 0))
    if skip_nan:
        # nanvar divides by 1 where no degree of freedom is left, as JAX's: its derivative
        # is 0 there, not 0 * (1 / 0) (var's is NaN, as JAX's)
        dof = ew.select_n(ok, ew._const(dof, 1), dof)
    return ew.select_n(ok, ew._const(total, np.nan), ew.div(total, dof))


def _variance_by(total, cnt, ddof, skip_nan: bool):
    """``total / (cnt - ddof)``, NaN where no degree of freedom is left, for an array or
    traced ``ddof``, as JAX: nanvar subtracts it from its integer count with broadcasting
    (a ``(2, 1)`` ``ddof`` with two results gives ``(2, 2)``), var converts it to the
    computation dtype, and dividing by a broadcast count is lax's rank ``TypeError``."""
    if not dtypes.is_inexact(total.dtype):
        return _int_variance(total, cnt if isinstance(cnt, Array) else ew._const(total, cnt), ddof)
    if skip_nan:
        cnt = cnt if isinstance(cnt, Array) else _sh.full((), cnt, dtypes.int32)
        dof = subtract(cnt, ddof)
        none_left = ew.le(dof, ew._const(dof, 0))
        res = ufuncs._where(none_left, np.nan, total)
        div = conversion.convert_element_type(ufuncs._where(none_left, 1, dof), res.dtype)
        return divide(res, div)
    cnt = conversion.convert_element_type(
        cnt if isinstance(cnt, Array) else _sh.full(_shape(total), cnt, total.dtype), total.dtype
    )
    dof = subtract(cnt, conversion.convert_element_type(ddof, total.dtype))
    return ufuncs._where(ew.gt(dof, ew._const(dof, 0)), ew.div(total, dof), np.nan)


def _int_variance(total, cnt, ddof):
    """An integer ``dtype=``'s variance, as JAX's: the degrees of freedom ``cnt - ddof``
    in that integer type (an unsigned one wraps around), the sum of squares divided by
    them with integer division, and NaN (a weakly typed float) where they are not
    positive."""
    dof = ew.sub(cnt, conversion.convert_element_type(np.asarray(ddof), total.dtype))
    ok = ew.gt(dof, ew._const(dof, 0))
    res = ew.div(total, ew.select_n(ok, ew._const(dof, 1), dof))
    res = conversion.convert_element_type(res, dtypes.to_inexact_dtype(total.dtype), True)
    return ew.select_n(ok, ew._const(res, np.nan), res)


def var(
    a,
    axis=None,
    dtype=None,
    out=None,
    ddof=0,
    keepdims=False,
    *,
    where=None,
    mean=None,
    correction=None,
):
    """``jnp.var``: the variance (mean squared deviation, divided by ``n - ddof``).

    Dtypes as JAX: the result has ``dtype`` when given (computed in it; an integer
    ``dtype`` computes in that integer type and returns its inexact counterpart), else the
    input's inexact real type. Half precision accumulates in float32.

    Raises:
      ValueError: a real ``dtype`` for complex input.
    """
    check_out(out, "jnp.var is not supported.")
    if correction is not None:
        if not isinstance(ddof, int) or ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    if ddof is None:  # JAX converts the correction to the dtype: its ValueError
        raise ValueError("Invalid argument to dtype: None.")
    a = asarray_any(a)
    comp, out_dt = _var_dtypes(a.dtype, dtype)
    # An integer ``dtype`` returns its inexact counterpart as a weak type, as JAX.
    weak = dtype is not None and not dtypes.is_inexact(out_dt)
    if weak:
        out_dt = dtypes.to_inexact_dtype(out_dt)
    axes = _reduction_axes(a, axis, index_error=True)
    res = _variance(a, axes, comp, ddof, keepdims, where, skip_nan=False, a_mean=mean)
    return conversion.convert_element_type(res, out_dt, weak_type=weak)


def _check_std_dtype(dtype, name):
    if dtype is not None and not dtypes.is_inexact(dtypes.canonicalize_dtype(dtype)):
        raise ValueError(
            f"dtype argument to jnp.{name} must be inexact; got {np.dtype(dtype).name}"
        )


def std(
    a,
    axis=None,
    dtype=None,
    out=None,
    ddof=0,
    keepdims=False,
    *,
    where=None,
    mean=None,
    correction=None,
):
    """``jnp.std``: ``sqrt(var(...))``.

    Raises:
      ValueError: a non-inexact ``dtype``, or a real one for complex input.
    """
    check_out(out, "jnp.std is not supported.")
    _check_std_dtype(dtype, "std")
    # JAX's reading: ``ddof`` becomes the correction passed on to ``var``, whose own ddof
    # stays 0, so ``ddof=None`` is ``ddof=0`` here (``var(ddof=None)`` is refused)
    if correction is None:
        correction = ddof
    elif not isinstance(ddof, int) or ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    v = var(a, axis, dtype, out, keepdims=keepdims, where=where, mean=mean, correction=correction)
    return sqrt(v)


def argmax(a, axis=None, out=None, keepdims=None):
    check_out(out, "jnp.argmax is not supported.")
    a = asarray_any(a)
    if axis is None:
        out = _red.argmax(ravel(a), 0, dtypes.default_int_dtype())
        # keepdims keeps the rank: all axes become size 1, as in JAX.
        return _keepdims(out, a, tuple(range(a.ndim)), keepdims)
    # operator.index first: a traced axis is TracerIntegerConversionError, as JAX's
    axis = canonicalize_axis(operator.index(axis), a.ndim, index_error=True)
    out = _red.argmax(a, axis, dtypes.default_int_dtype())
    return _keepdims(out, a, (axis,), keepdims)


def argmin(a, axis=None, out=None, keepdims=None):
    check_out(out, "jnp.argmin is not supported.")
    a = asarray_any(a)
    if axis is None:
        out = _red.argmin(ravel(a), 0, dtypes.default_int_dtype())
        # keepdims keeps the rank: all axes become size 1, as in JAX.
        return _keepdims(out, a, tuple(range(a.ndim)), keepdims)
    axis = canonicalize_axis(operator.index(axis), a.ndim, index_error=True)
    out = _red.argmin(a, axis, dtypes.default_int_dtype())
    return _keepdims(out, a, (axis,), keepdims)


def cumsum(a, axis=None, dtype=None, out=None):
    check_out(out, "jnp.cumsum is not supported")
    check_arraylike("cumsum", a)
    a = asarray_any(a)
    if axis is None:
        a, axis = ravel(a), 0
    if dtype is not None:
        a = conversion.convert_element_type(a, dtypes.canonicalize_dtype(dtype))
    elif a.dtype == dtypes.bool_:  # small integer types keep their width, as in JAX
        a = conversion.convert_element_type(a, dtypes.default_int_dtype())
    return _cum.cumsum(_strong(a), canonicalize_axis(axis, a.ndim))


def cumprod(a, axis=None, dtype=None, out=None):
    check_out(out, "jnp.cumprod is not supported")
    check_arraylike("cumprod", a)
    a = asarray_any(a)
    if axis is None:
        a, axis = ravel(a), 0
    if dtype is not None:
        a = conversion.convert_element_type(a, dtypes.canonicalize_dtype(dtype))
    elif a.dtype == dtypes.bool_:  # small integer types keep their width, as in JAX
        a = conversion.convert_element_type(a, dtypes.default_int_dtype())
    return _cum.cumprod(_strong(a), canonicalize_axis(axis, a.ndim))


def _int_dtype():
    return dtypes.default_int_dtype()


def count_nonzero(a, axis=None, keepdims: bool = False):
    """``jnp.count_nonzero``: number of nonzero elements along ``axis``."""
    a = asarray_any(a)
    # zero of ``a``'s own dtype, so a bool ``a`` passes strict promotion (as JAX's)
    zero = np.zeros((), a.dtype)
    return sum(not_equal(a, zero), axis=axis, keepdims=keepdims, dtype=_int_dtype())
