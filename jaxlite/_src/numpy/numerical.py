"""``jax.numpy`` numerical routines: log/geometric ranges (``logspace``, ``geomspace``),
differences and integration (``diff``, ``ediff1d``, ``gradient``, ``trapezoid``),
``interp``, ``unwrap``, 1-D ``convolve`` and ``correlate``."""

from __future__ import annotations

import builtins
import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.trace import concrete_index, new_array
from jaxlite._src.numpy import reductions, shape as jnp_shape, ufuncs
from jaxlite._src.numpy.creation import full_like, linspace, ones_like, zeros_like
from jaxlite._src.numpy.indexing_routines import take
from jaxlite._src.numpy.reductions import cumsum
from jaxlite._src.numpy.shape import broadcast_to, concatenate, ravel, reshape
from jaxlite._src.numpy.sorting import argsort, searchsorted
from jaxlite._src.numpy.ufuncs import (
    _inexact,
    add,
    clip,
    conj,
    divide,
    equal,
    greater,
    less,
    log10,
    logical_and,
    multiply,
    not_equal,
    power,
    remainder,
    subtract,
    where,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    check_jit_arguments,
    promote_dtypes,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import conversion as _conv, shape as _sh
from jaxlite._src.ops.convolution import conv_general_dilated
from jaxlite._src.ops.precision import check_precision


# ----------------------------------------------------------------------- numerical ranges
def _space_dtypes(start, stop, dtype, name):
    # the result dtype (the operands' inexact type, or the requested one) and the dtype the
    # values are computed in (its inexact kind: integer outputs are rounded down from it)
    if dtype is None:
        dtype = dtypes.to_inexact_dtype(dtypes.result_type(start, stop))
    else:
        dtype = dtypes.check_user_dtype_supported(dtype, name)
    comp = dtypes.to_inexact_dtype(dtype)
    start, stop = asarray_any(start).astype(comp), asarray_any(stop).astype(comp)
    return start, stop, dtype, comp


def logspace(
    start, stop, num: int = 50, endpoint: bool = True, base=10.0, dtype=None, axis: int = 0
):
    """``jnp.logspace``: ``base ** linspace(start, stop, num)``, computed in the inexact type
    of ``dtype`` (the operands' by default) and cast to ``dtype``."""
    check_arraylike("logspace", start, stop)
    start, stop, dtype, _ = _space_dtypes(start, stop, dtype, "logspace")
    lin = linspace(start, stop, num, endpoint=endpoint, axis=axis)
    return _conv.convert_element_type(power(base, lin), dtype)


def geomspace(start, stop, num: int = 50, endpoint: bool = True, dtype=None, axis: int = 0):
    """``jnp.geomspace``: a geometric progression from ``start`` to ``stop``.

    As JAX: ``sign(start) * logspace(log10(start / sign), log10(stop / sign))`` in the inexact
    type of ``dtype``, so array endpoints broadcast (the steps along ``axis``), and endpoints
    of opposite signs or a zero give NaN throughout.
    """
    check_arraylike("geomspace", start, stop)
    start, stop, dtype, comp = _space_dtypes(start, stop, dtype, "geomspace")
    sgn = ufuncs.sign(start)
    lg = logspace(log10(divide(start, sgn)), log10(divide(stop, sgn)), num, endpoint, 10.0, comp, 0)
    res = multiply(sgn, lg)
    # JAX reads the axis as one integer: a 0-d integer array is it, a 1-d array is refused
    axis = concrete_index(axis, "The axis argument of jnp.geomspace must be static.")
    return _conv.convert_element_type(jnp_shape.moveaxis(res, 0, axis), dtype)


def ediff1d(ary, to_end=None, to_begin=None):
    """``jnp.ediff1d``: differences of the flattened array; ``to_begin``/``to_end`` are
    cast to its dtype (strongly typed), as JAX does, not promoted with it."""
    a = ravel(asarray_any(ary))
    out = subtract(a[1:], a[:-1])
    parts = []
    if to_begin is not None:
        parts.append(ravel(asarray_any(to_begin).astype(a.dtype)))
    parts.append(out)
    if to_end is not None:
        parts.append(ravel(asarray_any(to_end).astype(a.dtype)))
    return concatenate(parts) if len(parts) > 1 else out


def diff(a, n: int = 1, axis: int = -1, prepend=None, append=None):
    """``jnp.diff``: ``n``-th discrete difference along ``axis``.

    Raises:
      ValueError: a negative ``n`` (as JAX).
      TypeError: a float ``n`` (as JAX; never truncated).
    """
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    a = asarray_any(a)
    axis = canonicalize_axis(axis, a.ndim)
    parts = []
    if prepend is not None:
        p = asarray_any(prepend)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            p = broadcast_to(p, shape)
        parts.append(p)
    parts.append(a)
    if append is not None:
        p = asarray_any(append)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            p = broadcast_to(p, shape)
        parts.append(p)
    if len(parts) > 1:
        a = concatenate(parts, axis)
    for _ in range(operator.index(n)):
        m = a.shape[axis]
        # An empty axis stays empty (no slice may start past its end).
        hi = _sh.slice_in_dim(a, builtins.min(1, m), m, 1, axis)
        lo = _sh.slice_in_dim(a, 0, builtins.max(m - 1, 0), 1, axis)
        a = not_equal(hi, lo) if a.dtype == dtypes.bool_ else subtract(hi, lo)
    return new_array(a)  # jitted in JAX: n=0 gives a new array


# ------------------------------------------------------------------------ numerics
def _interp_end(value, name):
    """Whether ``left``/``right`` asks for extrapolation (the only string JAX takes)."""
    if isinstance(value, str):
        if value != "extrapolate":
            raise ValueError(
                f"the only valid string value of `{name}` is 'extrapolate', but got: {value!r}"
            )
        return True
    return False


def interp(x, xp, fp, left=None, right=None, period=None):
    """``jnp.interp``: 1-D piecewise-linear interpolation (``xp`` increasing).

    As JAX: ``x`` and ``xp`` are promoted together and ``fp`` on its own, so the result
    has the promotion of both types; a step of ``xp`` no wider than the smallest spacing
    of its dtype's epsilon takes the left value; ``left``/``right`` may be
    ``"extrapolate"`` (the end segments continued); ``period`` (its absolute value)
    wraps ``x`` and ``xp`` and ignores ``left``/``right``.

    Raises:
        ValueError: ``xp``/``fp`` not 1-D of one shape, complex ``x`` or ``xp``, another
            string for ``left``/``right``, a non-scalar ``period``.
    """
    check_arraylike("interp", x, xp, fp)
    if np.shape(xp) != np.shape(fp) or np.ndim(xp) != 1:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    x, xp = promote_dtypes_inexact(asarray_any(x), asarray_any(xp))
    (fp,) = promote_dtypes_inexact(asarray_any(fp))
    ext_left, ext_right = _interp_end(left, "left"), _interp_end(right, "right")
    if dtypes.is_complex(x.dtype):
        raise ValueError("jnp.interp: complex x values not supported.")
    if period is not None:
        if np.ndim(period) != 0:
            raise ValueError(f"period must be a scalar; got {period}")
        period = ufuncs.abs(period)
        x, xp = remainder(x, period), remainder(xp, period)
        order = argsort(xp, stable=True)
        xp, fp = take(xp, order), take(fp, order)
        xp = concatenate([subtract(xp[-1:], period), xp, add(xp[:1], period)])
        fp = concatenate([fp[-1:], fp, fp[:1]])
    i = clip(searchsorted(xp, x, side="right"), 1, xp.shape[0] - 1)
    f0, x0 = take(fp, i - 1), take(xp, i - 1)
    df, dx = subtract(take(fp, i), f0), subtract(take(xp, i), x0)
    # a step this narrow takes the left value (no 0/0, and no NaN derivative)
    flat = ufuncs.less_equal(ufuncs.abs(dx), np.spacing(np.finfo(xp.dtype).eps))
    f = where(flat, f0, add(f0, multiply(divide(subtract(x, x0), where(flat, 1, dx)), df)))
    if period is None:
        if not ext_left:
            f = where(less(x, xp[0]), fp[0] if left is None else left, f)
        if not ext_right:
            f = where(greater(x, xp[-1]), fp[-1] if right is None else right, f)
    return f


def _conv1d(x, y, mode, flip, preferred_element_type=None):
    op = "convolve" if flip else "correlate"
    if preferred_element_type is None:
        # Integer and boolean inputs convolve in the default float, as in JAX.
        x, y = promote_dtypes_inexact(asarray_any(x), asarray_any(y))
    else:  # JAX keeps the (common) input dtype and accumulates in preferred_element_type
        x, y = promote_dtypes(asarray_any(x), asarray_any(y))
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"{op}() only support 1-dimensional inputs.")
    if x.shape[0] == 0 or y.shape[0] == 0:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {x.shape} and {y.shape}.")
    if x.shape[0] < y.shape[0]:
        if not flip:
            # correlate(a, v) = conj(reverse(correlate(v, a))): sum_n a[n+k] conj(v[n])
            # read from v's side conjugates the other operand, so undo that once.
            out = jnp_shape.flip(_conv1d(y, x, mode, False, preferred_element_type), 0)
            return conj(out) if dtypes.is_complex(out.dtype) else out
        x, y = y, x
    if dtypes.is_complex(x.dtype) and not flip:
        y = conj(y)
    n, m = x.shape[0], y.shape[0]
    if flip:
        y = jnp_shape.flip(y, 0)
    if mode == "valid":
        pads = (0, 0)
    elif mode == "same":
        pads = (m // 2, m - 1 - m // 2) if flip else ((m - 1) - (m - 1) // 2, (m - 1) // 2)
        if not flip:
            pads = (m // 2, m - 1 - m // 2)
    elif mode == "full":
        pads = (m - 1, m - 1)
    else:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")

    out = conv_general_dilated(
        reshape(x, (1, 1, n)),
        reshape(y, (1, 1, m)),
        (1,),
        (pads,),
        preferred_element_type=preferred_element_type,
    )
    return reshape(out, (-1,))


def convolve(a, v, mode: str = "full", *, precision=None, preferred_element_type=None):
    """``jnp.convolve``: 1-D discrete convolution (modes full/same/valid)."""
    check_precision(precision)
    return _conv1d(a, v, mode, True, _pet(preferred_element_type))


def correlate(a, v, mode: str = "valid", *, precision=None, preferred_element_type=None):
    """``jnp.correlate``: 1-D cross-correlation (modes full/same/valid)."""
    check_precision(precision)
    return _conv1d(a, v, mode, False, _pet(preferred_element_type))


def _pet(preferred_element_type):
    if preferred_element_type is None:
        return None
    return dtypes.check_user_dtype_supported(preferred_element_type, "convolve")


def _gradient_along(f, h, ax):
    """One axis of ``jnp.gradient``: second-order central differences inside (the
    non-uniform three-point formula when ``h`` is a 1-D array of coordinates), first-order
    one-sided differences at both ends."""
    n = f.shape[ax]

    def sl(x, a, b):
        return _sh.slice_in_dim(x, a, b, 1, ax)

    first, last = subtract(sl(f, 1, 2), sl(f, 0, 1)), subtract(sl(f, n - 1, n), sl(f, n - 2, n - 1))
    if h.ndim == 0:
        mid = divide(subtract(sl(f, 2, n), sl(f, 0, n - 2)), multiply(h, 2.0))
        first, last = divide(first, h), divide(last, h)
    else:
        shape = [1] * f.ndim
        shape[ax] = n - 1
        dx = reshape(diff(h), shape)
        dx1, dx2 = sl(dx, 0, n - 2), sl(dx, 1, n - 1)
        before = divide(ufuncs.negative(dx2), multiply(dx1, add(dx1, dx2)))
        here = divide(subtract(dx2, dx1), multiply(dx1, dx2))
        after = divide(dx1, multiply(dx2, add(dx1, dx2)))
        mid = add(
            add(multiply(before, sl(f, 0, n - 2)), multiply(here, sl(f, 1, n - 1))),
            multiply(after, sl(f, 2, n)),
        )
        first, last = divide(first, sl(dx, 0, 1)), divide(last, sl(dx, n - 2, n - 1))
    return concatenate([first, mid, last] if n > 2 else [first, last], ax)


def gradient(f, *varargs, axis=None, edge_order=None):
    """``jnp.gradient``: the gradient of ``f`` by finite differences along each axis.

    Args:
        f: array of at least 2 elements along every axis differentiated.
        *varargs: spacing: none (unit), one scalar for every axis, or one per axis, each a
            scalar step or a 1-D array of coordinates of the axis' length (non-uniform
            spacing, NumPy's three-point formula).
        axis: int, tuple of ints or None (all axes).
        edge_order: must be None, as in JAX.

    Returns:
        One array (one axis) or a list of arrays, of ``f``'s inexact dtype.

    Raises:
        NotImplementedError: for ``edge_order``, as JAX.
        TypeError: for a number of spacing arguments that fits neither form.
        ValueError: for an axis shorter than 2, spacing arrays that are not 1-D or not of
            the axis' length.
    """
    if edge_order is not None:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not supported.")
    # f and every spacing share one inexact type, as JAX's (an int8 f with float16
    # spacing is float16; an int f with a Python float spacing is weakly typed)
    f, *varargs = promote_dtypes_inexact(asarray_any(f), *(asarray_any(h) for h in varargs))
    axes = (
        list(range(f.ndim))
        if axis is None
        else ([axis] if isinstance(axis, (int, np.integer)) else list(axis))
    )
    axes = [canonicalize_axis(a, f.ndim) for a in axes]
    # JAX's order: no axis (a 0-d f) is an empty list whatever the spacing, then the
    # length check, then the number of spacings
    if not axes:
        return []
    if min(f.shape[ax] for ax in axes) < 2:
        raise ValueError(
            "Shape of array too small to calculate a numerical gradient, at least 2 elements "
            "are required."
        )
    if not varargs:
        spacing = [1.0] * len(axes)
    elif len(varargs) == 1:
        spacing = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        spacing = list(varargs)
    else:
        raise TypeError(f"Invalid number of spacing arguments {len(varargs)} for axis={axis}")
    outs = []
    for ax, h in zip(axes, spacing):
        h = asarray_any(h)
        if h.ndim > 1:
            raise ValueError("Spacing arrays must be 1D arrays or scalars.")
        if h.ndim == 1 and h.shape[0] != f.shape[ax]:
            raise ValueError(
                "Spacing arrays must have the same length as the dimension along which the "
                "gradient is calculated."
            )
        outs.append(_gradient_along(f, h, ax))
    return outs[0] if len(outs) == 1 else outs


def trapezoid(y, x=None, dx=1.0, axis: int = -1):
    """``jnp.trapezoid``: integrate ``y`` along ``axis`` with the trapezoidal rule.

    As JAX's: the spacing is ``diff(x)`` (1-D, or along ``axis``) or ``dx`` (a scalar, or an
    array broadcast against ``y`` with its ``axis`` moved last); a spacing constant along
    the axis takes the ``sum - (first + last) / 2`` form."""
    check_jit_arguments(trapezoid, (y, x, dx), {})  # (dx too where x is given, as JAX)
    if x is None:
        check_arraylike("trapezoid", y)
        (y,) = promote_dtypes_inexact(asarray_any(y))
        d = asarray_any(dx)
        if d.ndim > 0:
            d = jnp_shape.moveaxis(reshape(d, (1,) * (y.ndim - d.ndim) + d.shape), axis, -1)
    else:
        check_arraylike("trapezoid", y, x)
        y, x = promote_dtypes_inexact(asarray_any(y), asarray_any(x))
        d = diff(x) if x.ndim == 1 else jnp_shape.moveaxis(diff(x, axis=axis), axis, -1)
    y = jnp_shape.moveaxis(y, axis, -1)
    if d.ndim == 0 or d.shape[-1] == 1:
        step = d if d.ndim == 0 else d[..., 0]
        ends = multiply(0.5, add(y[..., 0], y[..., -1]))
        return multiply(step, subtract(reductions.sum(y, -1), ends))
    return multiply(0.5, reductions.sum(multiply(d, add(y[..., 1:], y[..., :-1])), -1))


def unwrap(p, discont=None, axis: int = -1, period=2 * np.pi):
    """``jnp.unwrap``: remove jumps larger than ``discont`` by adding multiples of
    ``period``.

    As JAX: ``p`` and ``period`` are promoted together (integers stay integers, with
    half the period rounded down), and an empty axis returns ``p``.

    Raises:
        ValueError: complex input.
    """
    check_arraylike("unwrap", p)
    p, period = promote_dtypes(asarray_any(p), period)
    if dtypes.is_complex(p.dtype):
        raise ValueError("jnp.unwrap does not support complex inputs.")
    axis = canonicalize_axis(axis, p.ndim, index_error=True)
    n = p.shape[axis]
    if n == 0:
        return p
    if discont is None:
        discont = divide(period, 2)
    integer = dtypes.is_int(p.dtype)
    half = ufuncs.floor_divide(period, 2) if integer else divide(period, 2)
    d = diff(p, axis=axis)
    ddmod = subtract(remainder(add(d, half), period), half)
    ddmod = where(logical_and(equal(ddmod, ufuncs.negative(half)), greater(d, 0)), half, ddmod)
    corr = where(less(ufuncs.abs(d), discont), 0, subtract(ddmod, d))
    head = _sh.slice_in_dim(p, 0, 1, 1, axis)
    tail = add(_sh.slice_in_dim(p, 1, n, 1, axis), cumsum(corr, axis))
    return concatenate([head, tail], axis)
