"""More of ``jax.numpy``: elementwise extras, creation helpers and shape manipulation.

Compositions of ``lax_numpy`` functions and ``ops`` primitives (no new primitives).
"""

from __future__ import annotations

import builtins

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import lax_numpy as jnp
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    promote_args,
    promote_args_inexact,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import conversion, elementwise as ew, shape as _sh


def _inexact(x):
    (x,) = promote_dtypes_inexact(asarray_any(x))
    return x


# --------------------------------------------------------------------------- elementwise
def rint(x, /):
    """``jnp.rint``: round to the nearest integer, ties to even (ints become floats)."""
    check_arraylike("rint", x)
    x = _inexact(x)
    if dtypes.is_complex(x.dtype):
        return ew.complex_(rint(ew.real(x)), rint(ew.imag(x)))
    return ew.round(x, 1)


def trunc(x, /):
    """``jnp.trunc``: round toward zero (integers are returned unchanged)."""
    check_arraylike("trunc", x)
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return x
    return jnp.where(jnp.less(x, 0), ew.ceil(x), ew.floor(x))


fix = trunc


def deg2rad(x, /):
    """``jnp.deg2rad``: degrees to radians."""
    x = _inexact(x)
    return ew.mul(x, ew._const(x, np.pi / 180))


def rad2deg(x, /):
    """``jnp.rad2deg``: radians to degrees."""
    x = _inexact(x)
    return ew.mul(x, ew._const(x, 180 / np.pi))


radians = deg2rad
degrees = rad2deg


def sinc(x, /):
    """``jnp.sinc``: ``sin(pi x) / (pi x)``, 1 at 0."""
    x = _inexact(x)
    zero = jnp.equal(x, 0)
    safe = jnp.where(zero, jnp.ones_like(x), x)
    pix = ew.mul(safe, ew._const(safe, np.pi))
    return jnp.where(zero, jnp.ones_like(x), ew.div(ew.sin(pix), pix))


def real(val, /):
    """``jnp.real``: the real part (real inputs are returned as is)."""
    val = asarray_any(val)
    return ew.real(val) if dtypes.is_complex(val.dtype) else val


def imag(val, /):
    """``jnp.imag``: the imaginary part (zeros for real inputs)."""
    val = asarray_any(val)
    return ew.imag(val) if dtypes.is_complex(val.dtype) else jnp.zeros_like(val)


def angle(z, deg: bool = False):
    """``jnp.angle``: the argument of a complex number (0 or pi for reals)."""
    z = asarray_any(z)
    if dtypes.is_complex(z.dtype):
        re, im = ew.real(z), ew.imag(z)
    else:
        re = _inexact(z)
        im = jnp.zeros_like(re)
    out = ew.atan2(im, re)
    return rad2deg(out) if deg else out


def nan_to_num(x, copy: bool = True, nan=0.0, posinf=None, neginf=None):
    """``jnp.nan_to_num``: replace NaN and infinities by finite numbers."""
    x = asarray_any(x)
    if not dtypes.is_inexact(x.dtype):
        return x
    if dtypes.is_complex(x.dtype):
        return ew.complex_(
            nan_to_num(ew.real(x), nan=nan, posinf=posinf, neginf=neginf),
            nan_to_num(ew.imag(x), nan=nan, posinf=posinf, neginf=neginf),
        )
    info = dtypes.finfo(x.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = jnp.where(jnp.isnan(x), jnp.full_like(x, nan), x)
    out = jnp.where(
        jnp.logical_and(jnp.isinf(out), jnp.greater(out, 0)), jnp.full_like(x, posinf), out
    )
    out = jnp.where(
        jnp.logical_and(jnp.isinf(out), jnp.less(out, 0)), jnp.full_like(x, neginf), out
    )
    return out


def signbit(x, /):
    """``jnp.signbit``: True where the sign bit is set (including ``-0.0``)."""
    x = asarray_any(x)
    if x.dtype == dtypes.bool_ or dtypes.is_unsigned(x.dtype):
        return jnp.full(x.shape, False, dtypes.bool_)
    if dtypes.is_int(x.dtype):
        return jnp.less(x, 0)
    from jaxlite._src.ops.bitcast import bitcast_convert_type

    itype = {2: np.int16, 4: np.int32, 8: np.int64}[x.dtype.itemsize]
    return jnp.less(bitcast_convert_type(x, itype), 0)


def float_power(x1, x2, /):
    """``jnp.float_power``: ``x1 ** x2`` in the widest available float type."""
    x1, x2 = promote_args_inexact("float_power", x1, x2)
    return ew.pow(x1, x2)


def fmax(x1, x2, /):
    """``jnp.fmax``: elementwise maximum that ignores NaNs."""
    x1, x2 = promote_args("fmax", x1, x2)
    return jnp.where(jnp.logical_or(jnp.greater(x1, x2), jnp.isnan(x2)), x1, x2)


def fmin(x1, x2, /):
    """``jnp.fmin``: elementwise minimum that ignores NaNs."""
    x1, x2 = promote_args("fmin", x1, x2)
    return jnp.where(jnp.logical_or(jnp.less(x1, x2), jnp.isnan(x2)), x1, x2)


def hypot(x1, x2, /):
    """``jnp.hypot``: ``sqrt(x1**2 + x2**2)`` without undue overflow."""
    x1, x2 = promote_args_inexact("hypot", x1, x2)
    a, b = jnp.abs(x1), jnp.abs(x2)
    big, small = jnp.maximum(a, b), jnp.minimum(a, b)
    safe_big = jnp.where(jnp.equal(big, 0), jnp.ones_like(big), big)
    r = jnp.divide(small, safe_big)
    out = jnp.multiply(big, jnp.sqrt(jnp.add(1, jnp.multiply(r, r))))
    return jnp.where(jnp.equal(big, 0), jnp.zeros_like(big), out)


def logaddexp(x1, x2, /):
    """``jnp.logaddexp``: ``log(exp(x1) + exp(x2))`` computed stably."""
    x1, x2 = promote_args_inexact("logaddexp", x1, x2)
    amax = jnp.maximum(x1, x2)
    delta = jnp.subtract(x1, x2)
    out = jnp.add(amax, jnp.log1p(jnp.exp(jnp.negative(jnp.abs(delta)))))
    return jnp.where(jnp.isnan(delta), jnp.add(x1, x2), out)


def logaddexp2(x1, x2, /):
    """``jnp.logaddexp2``: ``log2(2**x1 + 2**x2)`` computed stably."""
    x1, x2 = promote_args_inexact("logaddexp2", x1, x2)
    amax = jnp.maximum(x1, x2)
    delta = jnp.subtract(x1, x2)
    out = jnp.add(amax, jnp.divide(jnp.log1p(jnp.exp2(jnp.negative(jnp.abs(delta)))), np.log(2)))
    return jnp.where(jnp.isnan(delta), jnp.add(x1, x2), out)


def copysign(x1, x2, /):
    """``jnp.copysign``: magnitude of ``x1`` with the sign of ``x2``."""
    x1, x2 = promote_args_inexact("copysign", x1, x2)
    return jnp.where(signbit(x2), jnp.negative(jnp.abs(x1)), jnp.abs(x1))


def heaviside(x1, x2, /):
    """``jnp.heaviside``: 0 for negative, ``x2`` at zero, 1 for positive ``x1``."""
    x1, x2 = promote_args_inexact("heaviside", x1, x2)
    return jnp.where(
        jnp.less(x1, 0), jnp.zeros_like(x1), jnp.where(jnp.greater(x1, 0), jnp.ones_like(x1), x2)
    )


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan: bool = False):
    """``jnp.isclose``: ``|a - b| <= atol + rtol * |b|`` elementwise (infinities equal)."""
    a, b = promote_args("isclose", a, b)
    if not dtypes.is_inexact(a.dtype):
        return jnp.equal(a, b)
    a, b = jnp.broadcast_arrays(a, b)
    diff = jnp.abs(jnp.subtract(a, b))
    tol = jnp.add(atol, jnp.multiply(rtol, jnp.abs(b)))
    out = jnp.less_equal(diff, tol.astype(diff.dtype))
    both_inf = jnp.logical_and(jnp.isinf(a), jnp.isinf(b))
    out = jnp.where(
        jnp.logical_or(jnp.isinf(a), jnp.isinf(b)), jnp.logical_and(both_inf, jnp.equal(a, b)), out
    )
    if equal_nan:
        out = jnp.logical_or(out, jnp.logical_and(jnp.isnan(a), jnp.isnan(b)))
    return out


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan: bool = False):
    """``jnp.allclose``: ``all(isclose(a, b))``."""
    return jnp.all(isclose(a, b, rtol, atol, equal_nan))


def array_equal(a1, a2, equal_nan: bool = False):
    """``jnp.array_equal``: same shape and equal elements (a boolean scalar array)."""
    a1, a2 = asarray_any(a1), asarray_any(a2)
    if a1.shape != a2.shape:
        return asarray_any(False)
    eq = jnp.equal(a1, a2)
    if equal_nan:
        eq = jnp.logical_or(eq, jnp.logical_and(jnp.isnan(a1), jnp.isnan(a2)))
    return jnp.all(eq)


def array_equiv(a1, a2):
    """``jnp.array_equiv``: equal after broadcasting."""
    a1, a2 = asarray_any(a1), asarray_any(a2)
    try:
        a1, a2 = jnp.broadcast_arrays(a1, a2)
    except ValueError:
        return asarray_any(False)
    return jnp.all(jnp.equal(a1, a2))


# ------------------------------------------------------------------------------ creation
def logspace(
    start, stop, num: int = 50, endpoint: bool = True, base=10.0, dtype=None, axis: int = 0
):
    """``jnp.logspace``: ``base ** linspace(start, stop, num)``."""
    lin = jnp.linspace(start, stop, num, endpoint=endpoint, axis=axis)
    out = jnp.power(base, lin)
    return out if dtype is None else out.astype(dtype)


def geomspace(start, stop, num: int = 50, endpoint: bool = True, dtype=None, axis: int = 0):
    """``jnp.geomspace``: a geometric progression from ``start`` to ``stop``."""
    start, stop = _inexact(start), _inexact(stop)
    out = jnp.multiply(
        start, jnp.power(jnp.divide(stop, start), jnp.linspace(0.0, 1.0, num, endpoint=endpoint))
    )
    return out if dtype is None else out.astype(dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype=None):
    """``jnp.tri``: ones at and below the ``k``-th diagonal."""
    M = N if M is None else M
    rows = conversion.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (N, M), 1)
    mask = ew.ge(ew.add(rows, _sh.full((), k, dtypes.int32)), cols)
    return conversion.convert_element_type(
        mask, dtypes.canonicalize_dtype(dtype or dtypes.default_float_dtype())
    )


def _tri_mask(shape, k):
    n, m = shape[-2:]
    rows = conversion.broadcasted_iota(dtypes.int32, (n, m), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (n, m), 1)
    return ew.ge(ew.add(rows, _sh.full((), int(k), dtypes.int32)), cols)


def tril(m, k: int = 0):
    """``jnp.tril``: zero the elements above the ``k``-th diagonal."""
    m = asarray_any(m)
    if m.ndim < 2:
        raise ValueError("Argument to jax.numpy.tril must be at least 2D")
    mask = _sh.broadcast_to_rank(_tri_mask(m.shape, k), m.shape)
    return ew.select_n(mask, jnp.zeros_like(m), m)


def triu(m, k: int = 0):
    """``jnp.triu``: zero the elements below the ``k``-th diagonal."""
    m = asarray_any(m)
    if m.ndim < 2:
        raise ValueError("Argument to jax.numpy.triu must be at least 2D")
    mask = _sh.broadcast_to_rank(_tri_mask(m.shape, int(k) - 1), m.shape)
    return ew.select_n(mask, m, jnp.zeros_like(m))


def diagonal(a, offset: int = 0, axis1: int = 0, axis2: int = 1):
    """``jnp.diagonal``: the ``offset`` diagonal of the (axis1, axis2) planes, as last axis."""
    a = asarray_any(a)
    a1, a2 = canonicalize_axis(axis1, a.ndim), canonicalize_axis(axis2, a.ndim)
    a = jnp.moveaxis(a, (a1, a2), (-2, -1))
    n, m = a.shape[-2:]
    offset = int(offset)
    rows = np.arange(builtins.max(0, -offset), n)
    cols = rows + offset
    keep = (cols >= 0) & (cols < m)
    rows, cols = rows[keep].astype(np.int32), cols[keep].astype(np.int32)
    return a[..., rows, cols]


def diag(v, k: int = 0):
    """``jnp.diag``: the ``k``-th diagonal of a matrix, or a matrix with ``v`` on it."""
    v = asarray_any(v)
    if v.ndim == 1:
        n = v.shape[0] + builtins.abs(int(k))
        rows = np.arange(v.shape[0]) + builtins.max(0, -int(k))
        cols = rows + int(k)
        out = jnp.zeros((n, n), v.dtype)
        return out.at[rows.astype(np.int32), cols.astype(np.int32)].set(v)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("diag input must be 1d or 2d")


def diagflat(v, k: int = 0):
    """``jnp.diagflat``: ``diag(ravel(v), k)``."""
    return diag(jnp.ravel(v), k)


def trace(a, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None, out=None):
    """``jnp.trace``: sum along a diagonal."""
    return jnp.sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: str = "xy"):
    """``jnp.meshgrid``: coordinate matrices from coordinate vectors."""
    args = [asarray_any(x) for x in xi]
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Valid values for indexing are 'xy' and 'ij', got {indexing}")
    if any(a.ndim != 1 for a in args):
        raise ValueError("Arguments to jax.numpy.meshgrid must be 1D")
    shape = [a.shape[0] for a in args]
    if indexing == "xy" and len(args) >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    nd = len(args)
    for i, a in enumerate(args):
        d = i
        if indexing == "xy" and nd >= 2 and i < 2:
            d = 1 - i
        s = [1] * nd
        s[d] = a.shape[0]
        r = jnp.reshape(a, s)
        out.append(r if sparse else jnp.broadcast_to(r, shape))
    return out


def indices(dimensions, dtype=None, sparse: bool = False):
    """``jnp.indices``: an array of index grids."""
    dt = dtypes.canonicalize_dtype(dtype or dtypes.default_int_dtype())
    dimensions = tuple(int(d) for d in dimensions)
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
    return jnp.stack(outs) if outs else jnp.zeros((0,), dt)


def tril_indices(n: int, k: int = 0, m: int | None = None):
    """``jnp.tril_indices`` (static sizes)."""
    return tuple(
        asarray_any(np.asarray(i, dtypes.default_int_dtype())) for i in np.tril_indices(n, k, m)
    )


def triu_indices(n: int, k: int = 0, m: int | None = None):
    """``jnp.triu_indices`` (static sizes)."""
    return tuple(
        asarray_any(np.asarray(i, dtypes.default_int_dtype())) for i in np.triu_indices(n, k, m)
    )


def diag_indices(n: int, ndim: int = 2):
    """``jnp.diag_indices``."""
    i = asarray_any(np.arange(n, dtype=dtypes.default_int_dtype()))
    return (i,) * ndim


# -------------------------------------------------------------------------------- shapes
def atleast_3d(*arys):
    """``jnp.atleast_3d``: views with at least three dimensions."""
    out = []
    for a in arys:
        a = asarray_any(a)
        if a.ndim == 0:
            a = jnp.reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = jnp.reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = jnp.reshape(a, a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


def dstack(tup, dtype=None):
    """``jnp.dstack``: stack along the third axis."""
    return jnp.concatenate([atleast_3d(a) for a in tup], 2, dtype)


def column_stack(tup):
    """``jnp.column_stack``: 1-D arrays become columns, then ``hstack``."""
    arrs = []
    for a in tup:
        a = asarray_any(a)
        arrs.append(jnp.reshape(a, (a.shape[0], 1)) if a.ndim < 2 else a)
    return jnp.concatenate(arrs, 1)


def _split_points(n, indices_or_sections, even: bool):
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if even and n % k:
            raise ValueError(
                f"array split does not result in an equal division: {n} elements into {k} sections"
            )
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        return list(np.cumsum([0] + sizes))
    pts = [int(i) for i in np.asarray(indices_or_sections).ravel()]
    return [0] + pts + [n]


def split(ary, indices_or_sections, axis: int = 0):
    """``jnp.split``: split into equal sections or at the given indices."""
    return _split(ary, indices_or_sections, axis, True)


def array_split(ary, indices_or_sections, axis: int = 0):
    """``jnp.array_split``: like ``split`` but sections may differ by one element."""
    return _split(ary, indices_or_sections, axis, False)


def _split(ary, ios, axis, even):
    ary = asarray_any(ary)
    axis = canonicalize_axis(axis, ary.ndim)
    n = ary.shape[axis]
    pts = _split_points(n, ios, even)
    out = []
    for lo, hi in zip(pts[:-1], pts[1:]):
        lo_c = builtins.min(builtins.max(lo if lo >= 0 else lo + n, 0), n)
        hi_c = builtins.min(builtins.max(hi if hi >= 0 else hi + n, 0), n)
        out.append(_sh.slice_in_dim(ary, lo_c, builtins.max(lo_c, hi_c), 1, axis))
    return out


def hsplit(ary, indices_or_sections):
    """``jnp.hsplit``."""
    ary = asarray_any(ary)
    return split(ary, indices_or_sections, 0 if ary.ndim == 1 else 1)


def vsplit(ary, indices_or_sections):
    """``jnp.vsplit``."""
    return split(ary, indices_or_sections, 0)


def tile(A, reps):
    """``jnp.tile``: repeat the whole array ``reps`` times along each axis."""
    A = asarray_any(A)
    reps = (int(reps),) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    nd = builtins.max(len(reps), A.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    A = jnp.reshape(A, (1,) * (nd - A.ndim) + A.shape)
    big = []
    for r, s in zip(reps, A.shape):
        big += [r, s]
    b = _sh.broadcast_in_dim(A, tuple(big), tuple(range(1, 2 * nd, 2)))
    return jnp.reshape(b, tuple(r * s for r, s in zip(reps, A.shape)))


def repeat(a, repeats, axis: int | None = None, *, total_repeat_length: int | None = None):
    """``jnp.repeat``: repeat each element ``repeats`` times (static repeats)."""
    a = asarray_any(a)
    if axis is None:
        a = jnp.ravel(a)
        axis = 0
    axis = canonicalize_axis(axis, a.ndim)
    if isinstance(repeats, Tracer) and repeats.to_concrete_value() is None:
        from jaxlite._src.core.errors import ConcretizationTypeError

        raise ConcretizationTypeError(
            repeats, "jnp.repeat with traced repeats needs a static total_repeat_length."
        )
    rep = np.asarray(repeats)
    if rep.ndim == 0:
        r = int(rep)
        shape = list(a.shape)
        b = _sh.broadcast_in_dim(
            a,
            tuple(shape[: axis + 1] + [r] + shape[axis + 1 :]),
            tuple(i if i <= axis else i + 1 for i in range(a.ndim)),
        )
        shape[axis] *= r
        out = jnp.reshape(b, shape)
    else:
        idx = np.repeat(np.arange(a.shape[axis]), rep).astype(np.int32)
        out = _take_static(a, idx, axis)
    if total_repeat_length is not None and out.shape[axis] != total_repeat_length:
        n = out.shape[axis]
        if n > total_repeat_length:
            out = _sh.slice_in_dim(out, 0, total_repeat_length, 1, axis)
        else:
            last = _sh.slice_in_dim(out, n - 1, n, 1, axis)
            pad = [out] + [last] * (total_repeat_length - n)
            out = jnp.concatenate(pad, axis)
    return out


def _take_static(a, idx, axis):
    items = [slice(None)] * a.ndim
    items[axis] = idx
    return a[tuple(items)]


def flip(m, axis=None):
    """``jnp.flip``: reverse the order of elements along ``axis`` (all axes if None)."""
    m = asarray_any(m)
    if axis is None:
        axes = tuple(range(m.ndim))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(canonicalize_axis(a, m.ndim) for a in axis)
    else:
        axes = (canonicalize_axis(axis, m.ndim),)
    return _sh.rev(m, axes) if axes else m


def fliplr(m):
    """``jnp.fliplr``: flip along axis 1."""
    return flip(m, 1)


def flipud(m):
    """``jnp.flipud``: flip along axis 0."""
    return flip(m, 0)


def roll(a, shift, axis=None):
    """``jnp.roll``: shift elements cyclically along ``axis`` (flattened if None)."""
    a = asarray_any(a)
    if axis is None:
        return jnp.reshape(roll(jnp.ravel(a), shift, 0), a.shape)
    shifts = shift if isinstance(shift, (tuple, list)) else (shift,)
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("Inconsistent shape between shift and axis")
    for s, ax in zip(shifts, axes):
        a = _roll1(a, s, canonicalize_axis(ax, a.ndim))
    return a


def _roll1(a, s, axis):
    n = a.shape[axis]
    if n == 0:
        return a
    if isinstance(s, (int, np.integer)) or (not isinstance(s, Tracer)):
        s = int(np.asarray(s)) % n
        if s == 0:
            return a
        return jnp.concatenate(
            [_sh.slice_in_dim(a, n - s, n, 1, axis), _sh.slice_in_dim(a, 0, n - s, 1, axis)], axis
        )
    s = jnp.remainder(asarray_any(s).astype(np.int32), n)
    doubled = jnp.concatenate([a, a], axis)
    starts = [0] * a.ndim
    starts[axis] = jnp.subtract(n, s)
    sizes = list(a.shape)
    return _sh.dynamic_slice(doubled, starts, sizes)


def rot90(m, k: int = 1, axes=(0, 1)):
    """``jnp.rot90``: rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    m = asarray_any(m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    ax0, ax1 = canonicalize_axis(axes[0], m.ndim), canonicalize_axis(axes[1], m.ndim)
    if ax0 == ax1:
        raise ValueError("Axes must be different.")
    k = int(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, ax0), ax1)
    perm = list(range(m.ndim))
    perm[ax0], perm[ax1] = perm[ax1], perm[ax0]
    if k == 1:
        return jnp.transpose(flip(m, ax1), perm)
    return flip(jnp.transpose(m, perm), ax1)


def _pad_widths(pad_width, nd):
    pw = np.asarray(pad_width)
    if pw.dtype.kind not in "iu":
        raise TypeError(f"`pad_width` must be of integral type, got {pad_width}")
    pw = np.broadcast_to(pw, (nd, 2)) if pw.ndim <= 1 else pw
    if pw.shape != (nd, 2):
        pw = np.broadcast_to(pw, (nd, 2))
    if np.any(pw < 0):
        raise ValueError("index can't contain negative values")
    return [(int(lo), int(hi)) for lo, hi in pw]


def pad(array, pad_width, mode="constant", **kwargs):
    """``jnp.pad``: modes constant, edge, reflect, symmetric and wrap (static widths)."""
    a = asarray_any(array)
    widths = _pad_widths(pad_width, a.ndim)
    if mode == "constant":
        cv = kwargs.get("constant_values", 0)
        cvs = np.asarray(cv) if not isinstance(cv, (Tracer,)) else None
        if cvs is not None and cvs.ndim > 0:
            cvs = np.broadcast_to(cvs, (a.ndim, 2))
            for ax, (lo, hi) in enumerate(widths):
                for side, w in ((0, lo), (1, hi)):
                    if w:
                        cfg = [(0, 0, 0)] * a.ndim
                        cfg[ax] = (w, 0, 0) if side == 0 else (0, w, 0)
                        val = conversion.convert_element_type(
                            asarray_any(cvs[ax, side].item()), a.dtype
                        )
                        a = _sh.pad(a, val, cfg)
            return a
        val = conversion.convert_element_type(asarray_any(cv), a.dtype)
        return _sh.pad(a, val, [(lo, hi, 0) for lo, hi in widths])
    if mode in ("edge", "reflect", "symmetric", "wrap"):
        for ax, (lo, hi) in enumerate(widths):
            if lo == 0 and hi == 0:
                continue
            n = a.shape[ax]
            if n == 0:
                raise ValueError(
                    f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'"
                )
            idx = np.pad(np.arange(n), (lo, hi), mode=mode).astype(np.int32)
            a = _take_static(a, idx, ax)
        return a
    raise NotImplementedError(f"jnp.pad mode {mode!r} is not implemented in jaxlite")


def append(arr, values, axis=None):
    """``jnp.append``."""
    if axis is None:
        return jnp.concatenate([jnp.ravel(arr), jnp.ravel(values)], 0)
    return jnp.concatenate([arr, values], axis)


def ediff1d(ary, to_end=None, to_begin=None):
    """``jnp.ediff1d``: differences of the flattened array."""
    a = jnp.ravel(ary)
    out = jnp.subtract(a[1:], a[:-1])
    parts = []
    if to_begin is not None:
        parts.append(jnp.ravel(to_begin))
    parts.append(out)
    if to_end is not None:
        parts.append(jnp.ravel(to_end))
    return jnp.concatenate(parts) if len(parts) > 1 else out


def diff(a, n: int = 1, axis: int = -1, prepend=None, append=None):
    """``jnp.diff``: ``n``-th discrete difference along ``axis``."""
    a = asarray_any(a)
    axis = canonicalize_axis(axis, a.ndim)
    parts = []
    if prepend is not None:
        p = asarray_any(prepend)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            p = jnp.broadcast_to(p, shape)
        parts.append(p)
    parts.append(a)
    if append is not None:
        p = asarray_any(append)
        if p.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            p = jnp.broadcast_to(p, shape)
        parts.append(p)
    if len(parts) > 1:
        a = jnp.concatenate(parts, axis)
    for _ in range(int(n)):
        m = a.shape[axis]
        hi = _sh.slice_in_dim(a, 1, m, 1, axis)
        lo = _sh.slice_in_dim(a, 0, m - 1, 1, axis)
        a = jnp.not_equal(hi, lo) if a.dtype == dtypes.bool_ else jnp.subtract(hi, lo)
    return a
