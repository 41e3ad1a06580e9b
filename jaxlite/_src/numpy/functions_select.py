"""Further ``jax.numpy`` functions: array-API aliases, set operations (with ``size=``),
selection (select, choose, compress, extract, put, isin), interpolation, cross products,
1-D convolution, statistics (cov, corrcoef), index helpers (unravel_index,
ravel_multi_index, ix_, *_indices_from) and small utilities."""

from __future__ import annotations

import builtins

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import functions_shape as _ex, lax_numpy as jnp, sorting as _so
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    promote_args,
    promote_args_inexact,
    promote_dtypes,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import elementwise as ew, shape as _sh

# --------------------------------------------------------------------- array-API aliases
acos, asin, atan, acosh, asinh, atanh = (
    jnp.arccos,
    jnp.arcsin,
    jnp.arctan,
    jnp.arccosh,
    jnp.arcsinh,
    jnp.arctanh,
)
atan2 = jnp.arctan2
bitwise_invert = jnp.bitwise_not
bitwise_left_shift = jnp.left_shift
bitwise_right_shift = jnp.right_shift
concat = jnp.concatenate


def fabs(x, /):
    """``jnp.fabs``: absolute value as a float."""
    (x,) = promote_dtypes_inexact(asarray_any(x))
    return jnp.abs(x)


def divmod(x1, x2, /):  # noqa: A001
    """``jnp.divmod``: ``(floor_divide, remainder)``."""
    return jnp.floor_divide(x1, x2), jnp.remainder(x1, x2)


def nextafter(x1, x2, /):
    """``jnp.nextafter``: the next representable float after ``x1`` toward ``x2``."""
    x1, x2 = promote_args_inexact("nextafter", x1, x2)
    return ew.nextafter(x1, x2)


def isposinf(x, /):
    """``jnp.isposinf``."""
    x = asarray_any(x)
    return jnp.logical_and(jnp.isinf(x), jnp.greater(x, 0))


def isneginf(x, /):
    """``jnp.isneginf``."""
    x = asarray_any(x)
    return jnp.logical_and(jnp.isinf(x), jnp.less(x, 0))


def isreal(x):
    """``jnp.isreal``: imaginary part is zero."""
    x = asarray_any(x)
    return (
        jnp.equal(_ex.imag(x), 0)
        if dtypes.is_complex(x.dtype)
        else jnp.full(x.shape, True, dtypes.bool_)
    )


def iscomplex(x):
    """``jnp.iscomplex``: imaginary part is nonzero."""
    return jnp.logical_not(isreal(x))


def isrealobj(x):
    """``jnp.isrealobj``."""
    return not dtypes.is_complex(asarray_any(x).dtype)


def iscomplexobj(x):
    """``jnp.iscomplexobj``."""
    return dtypes.is_complex(asarray_any(x).dtype)


def isscalar(element):
    """``jnp.isscalar``: Python/NumPy scalars and 0-d arrays."""
    if isinstance(element, (bool, int, float, complex, np.generic)):
        return True
    return hasattr(element, "shape") and element.shape == () and hasattr(element, "dtype")


def copy(a, order=None):
    """``jnp.copy``."""
    return asarray_any(a)


def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial: bool = False):
    """``jnp.cumulative_sum`` (array API)."""
    x = asarray_any(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("The input array has rank > 1; axis must be specified")
        axis = 0
    out = jnp.cumsum(x, axis, dtype)
    if include_initial:
        shape = list(out.shape)
        shape[canonicalize_axis(axis, out.ndim)] = 1
        out = jnp.concatenate([jnp.zeros(shape, out.dtype), out], axis)
    return out


def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial: bool = False):
    """``jnp.cumulative_prod`` (array API)."""
    x = asarray_any(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("The input array has rank > 1; axis must be specified")
        axis = 0
    out = jnp.cumprod(x, axis, dtype)
    if include_initial:
        shape = list(out.shape)
        shape[canonicalize_axis(axis, out.ndim)] = 1
        out = jnp.concatenate([jnp.ones(shape, out.dtype), out], axis)
    return out


def unstack(x, /, *, axis: int = 0):
    """``jnp.unstack``: split into arrays along ``axis`` (removing it)."""
    x = asarray_any(x)
    axis = canonicalize_axis(axis, x.ndim)
    return tuple(_sh.index_in_dim(x, i, axis, keepdims=False) for i in range(x.shape[axis]))


def rollaxis(a, axis: int, start: int = 0):
    """``jnp.rollaxis``."""
    a = asarray_any(a)
    axis = canonicalize_axis(axis, a.ndim)
    start = canonicalize_axis(start, a.ndim + 1)
    if start > axis:
        start -= 1
    return jnp.moveaxis(a, axis, start)


def vecdot(x1, x2, /, *, axis: int = -1, precision=None, preferred_element_type=None):
    """``jnp.vecdot``: ``sum(conj(x1) * x2, axis)`` with broadcasting."""
    x1, x2 = promote_args("vecdot", x1, x2)
    x1, x2 = jnp.broadcast_arrays(x1, x2)
    if dtypes.is_complex(x1.dtype):
        x1 = jnp.conj(x1)
    return jnp.sum(jnp.multiply(x1, x2), axis=axis)


def matvec(x1, x2, /):
    """``jnp.matvec``: batched matrix-vector product."""
    return jnp.squeeze(jnp.matmul(x1, jnp.expand_dims(x2, -1)), -1)


def vecmat(x1, x2, /):
    """``jnp.vecmat``: batched (conjugated) vector-matrix product."""
    x1 = asarray_any(x1)
    if dtypes.is_complex(x1.dtype):
        x1 = jnp.conj(x1)
    return jnp.squeeze(jnp.matmul(jnp.expand_dims(x1, -2), x2), -2)


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
            raise TypeError(f"condlist must be a list of boolean arrays, got {cond.dtype}")
        out = jnp.where(cond, choice, out)
    return asarray_any(out)


def choose(a, choices, out=None, mode: str = "raise"):
    """``jnp.choose``: ``choices[a]`` elementwise. ``mode="raise"`` (default) needs a concrete
    ``a`` (ConcretizationTypeError under jit, as in JAX); ``"wrap"``/``"clip"`` work on
    traced indices."""
    a = asarray_any(a)
    choices = promote_dtypes(*choices)
    n = len(choices)
    if mode == "raise":
        if isinstance(a, Tracer) and a.to_concrete_value() is None:
            from jaxlite._src.core.errors import ConcretizationTypeError

            raise ConcretizationTypeError(
                a,
                "The error occurred because jnp.choose was jit-compiled with mode='raise'. "
                "Use mode='wrap' or mode='clip' instead.",
            )
        v = np.asarray(a.to_concrete_value() if isinstance(a, Tracer) else a)
        if np.any((v < 0) | (v >= n)):
            raise ValueError("invalid entry in choice array")
    if mode == "wrap":
        a = jnp.remainder(a, n)
    else:
        a = jnp.clip(a, 0, n - 1)
    arrs = jnp.broadcast_arrays(a, *choices)
    return ew.select_n(arrs[0].astype(np.int32), *arrs[1:])


def compress(condition, a, axis: int | None = None, *, size=None, fill_value=0):
    """``jnp.compress``: slices of ``a`` where ``condition`` is True (static condition, or
    ``size=`` under jit)."""
    cond = asarray_any(condition)
    a = asarray_any(a)
    if axis is None:
        a, axis = jnp.ravel(a), 0
    idx = _so.flatnonzero(cond, size=size, fill_value=0)
    out = _so.take(a, idx, axis=axis, mode="clip")
    if size is not None:
        valid = jnp.less(jnp.arange(size), jnp.sum(jnp.not_equal(cond, 0)))
        shape = [1] * a.ndim
        shape[canonicalize_axis(axis, a.ndim)] = size
        out = jnp.where(jnp.reshape(valid, shape), out, jnp.full_like(out, fill_value))
    return out


def extract(condition, arr, *, size=None, fill_value=0):
    """``jnp.extract``: ``ravel(arr)[ravel(condition)]``."""
    return compress(jnp.ravel(condition), jnp.ravel(arr), size=size, fill_value=fill_value)


def put(a, ind, v, mode=None, *, inplace: bool = True):
    """``jnp.put`` with ``inplace=False``: ``a`` with ``ravel(a)[ind] = v`` (JAX arrays are
    immutable, so ``inplace=True`` raises, as in JAX)."""
    if inplace:
        raise ValueError(
            "jax.numpy.put cannot modify arrays in-place, because JAX arrays are "
            "immutable. Pass inplace=False to instead return an updated array."
        )
    a = asarray_any(a)
    flat = jnp.ravel(a)
    ind = jnp.ravel(asarray_any(ind))
    v = jnp.ravel(asarray_any(v))
    n = flat.shape[0]
    if mode == "wrap":
        ind = jnp.remainder(ind, n)
    elif mode == "clip":
        ind = jnp.clip(ind, 0, n - 1)
    v = jnp.broadcast_to(v, ind.shape) if v.shape != ind.shape else v
    return jnp.reshape(flat.at[ind].set(v.astype(a.dtype)), a.shape)


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
        flat = put_along_axis(jnp.ravel(arr), jnp.ravel(idx), jnp.ravel(values), 0, False)
        return jnp.reshape(flat, arr.shape)
    axis = canonicalize_axis(axis, arr.ndim)
    idx = jnp.broadcast_to(
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
            items.append(jnp.reshape(jnp.arange(idx.shape[d]), shape))
    vals = jnp.broadcast_to(asarray_any(values), idx.shape).astype(arr.dtype)
    return arr.at[tuple(items)].set(vals)


def isin(
    element, test_elements, assume_unique: bool = False, invert: bool = False, *, method="auto"
):
    """``jnp.isin``: whether each element appears in ``test_elements``."""
    element = asarray_any(element)
    test = jnp.ravel(asarray_any(test_elements))
    eq = jnp.equal(jnp.expand_dims(element, -1), test)
    out = jnp.any(eq, axis=-1)
    return jnp.logical_not(out) if invert else out


def _set_result(vals, size, fill_value):
    return _so.unique(vals, size=size, fill_value=fill_value)


def union1d(ar1, ar2, *, size=None, fill_value=None):
    """``jnp.union1d``: sorted unique values in either array (``size=`` under jit)."""
    return _so.unique(
        jnp.concatenate([jnp.ravel(ar1), jnp.ravel(ar2)]), size=size, fill_value=fill_value
    )


def intersect1d(
    ar1,
    ar2,
    assume_unique: bool = False,
    return_indices: bool = False,
    *,
    size=None,
    fill_value=None,
):
    """``jnp.intersect1d``: sorted unique values in both arrays (static inputs, or
    ``size=`` under jit)."""
    if return_indices:
        raise NotImplementedError("jaxlite intersect1d does not support return_indices")
    a = jnp.ravel(asarray_any(ar1))
    b = jnp.ravel(asarray_any(ar2))
    mask = isin(a, b)
    big = _fill_for_sets(a)
    vals = jnp.where(mask, a, big)
    u = _so.unique(
        vals,
        size=size if size is not None else _concrete_count(mask, vals, big),
        fill_value=fill_value if fill_value is not None else None,
    )
    return _drop_sentinel(u, big, size, fill_value, mask)


def setdiff1d(ar1, ar2, assume_unique: bool = False, *, size=None, fill_value=None):
    """``jnp.setdiff1d``: sorted unique values of ``ar1`` not in ``ar2``."""
    a = jnp.ravel(asarray_any(ar1))
    mask = jnp.logical_not(isin(a, ar2))
    big = _fill_for_sets(a)
    vals = jnp.where(mask, a, big)
    u = _so.unique(
        vals,
        size=size if size is not None else _concrete_count(mask, vals, big),
        fill_value=fill_value,
    )
    return _drop_sentinel(u, big, size, fill_value, mask)


def setxor1d(ar1, ar2, assume_unique: bool = False, *, size=None, fill_value=None):
    """``jnp.setxor1d``: sorted values in exactly one of the arrays."""
    a = _so.unique(jnp.ravel(asarray_any(ar1))) if size is None else jnp.ravel(ar1)
    b = _so.unique(jnp.ravel(asarray_any(ar2))) if size is None else jnp.ravel(ar2)
    both = jnp.concatenate([setdiff1d(a, b), setdiff1d(b, a)])
    return _so.unique(both, size=size, fill_value=fill_value)


def _fill_for_sets(a):
    if dtypes.is_inexact(a.dtype):
        return np.inf
    return np.iinfo(a.dtype).max


def _concrete_count(mask, vals, big):
    if isinstance(vals, Tracer) and vals.to_concrete_value() is None:
        from jaxlite._src.core.errors import ConcretizationTypeError

        raise ConcretizationTypeError(vals, "set operations need size= under transformations")
    v = np.asarray(vals)[np.asarray(mask)]
    return int(np.unique(v).size)


def _drop_sentinel(u, big, size, fill_value, mask):
    if size is None:
        return u
    fv = u[0] if fill_value is None else fill_value
    return jnp.where(jnp.equal(u, big), jnp.full_like(u, fv), u)


def unique_counts(x, /, *, size=None, fill_value=None):
    """``jnp.unique_counts``: ``(values, counts)``."""
    v, c = _so.unique(x, return_counts=True, size=size, fill_value=fill_value)
    return v, c


def unique_inverse(x, /, *, size=None, fill_value=None):
    """``jnp.unique_inverse``: ``(values, inverse_indices)`` (inverse has ``x``'s shape)."""
    v, inv = _so.unique(x, return_inverse=True, size=size, fill_value=fill_value)
    return v, jnp.reshape(inv, asarray_any(x).shape)


def unique_all(x, /, *, size=None, fill_value=None):
    """``jnp.unique_all``: ``(values, indices, inverse_indices, counts)``."""
    v, i, inv, c = _so.unique(
        x,
        return_index=True,
        return_inverse=True,
        return_counts=True,
        size=size,
        fill_value=fill_value,
    )
    return v, i, jnp.reshape(inv, asarray_any(x).shape), c


# ------------------------------------------------------------------------ numerics
def interp(x, xp, fp, left=None, right=None, period=None):
    """``jnp.interp``: 1-D piecewise-linear interpolation (``xp`` increasing)."""
    x, xp, fp = promote_dtypes_inexact(asarray_any(x), asarray_any(xp), asarray_any(fp))
    if xp.ndim != 1 or fp.ndim != 1 or xp.shape != fp.shape:
        raise ValueError("xp and fp must be one-dimensional arrays of equal size")
    if period is not None:
        x = jnp.remainder(x, period)
        order = _so.argsort(jnp.remainder(xp, period))
        xp = _so.take(jnp.remainder(xp, period), order)
        fp = _so.take(fp, order)
        xp = jnp.concatenate([xp[-1:] - period, xp, xp[:1] + period])
        fp = jnp.concatenate([fp[-1:], fp, fp[:1]])
    n = xp.shape[0]
    i = jnp.clip(_so.searchsorted(xp, x, side="right"), 1, n - 1)
    x0, x1 = _so.take(xp, i - 1), _so.take(xp, i)
    y0, y1 = _so.take(fp, i - 1), _so.take(fp, i)
    dx = jnp.subtract(x1, x0)
    safe = jnp.where(jnp.equal(dx, 0), jnp.ones_like(dx), dx)
    t = jnp.divide(jnp.subtract(x, x0), safe)
    out = jnp.add(y0, jnp.multiply(t, jnp.subtract(y1, y0)))
    out = jnp.where(jnp.equal(dx, 0), y0, out)
    if period is None:
        lv = fp[0] if left is None else left
        rv = fp[-1] if right is None else right
        out = jnp.where(jnp.less(x, xp[0]), lv, out)
        out = jnp.where(jnp.greater(x, xp[-1]), rv, out)
    return out.astype(x.dtype)


def cross(a, b, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis=None):
    """``jnp.cross``: the cross product of 3-vectors (or the z-component for 2-vectors)."""
    a, b = promote_dtypes(asarray_any(a), asarray_any(b))
    if axis is not None:
        axisa = axisb = axisc = axis
    a = jnp.moveaxis(a, axisa, -1)
    b = jnp.moveaxis(b, axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("Dimension must be either 2 or 3 for cross product")
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return jnp.subtract(jnp.multiply(a[..., 0], b[..., 1]), jnp.multiply(a[..., 1], b[..., 0]))
    a0, a1 = a[..., 0], a[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else jnp.zeros_like(a0)
    b0, b1 = b[..., 0], b[..., 1]
    b2 = b[..., 2] if b.shape[-1] == 3 else jnp.zeros_like(b0)
    c = jnp.stack(
        [
            jnp.subtract(jnp.multiply(a1, b2), jnp.multiply(a2, b1)),
            jnp.subtract(jnp.multiply(a2, b0), jnp.multiply(a0, b2)),
            jnp.subtract(jnp.multiply(a0, b1), jnp.multiply(a1, b0)),
        ],
        -1,
    )
    return jnp.moveaxis(c, -1, axisc)


def _conv1d(x, y, mode, flip):
    x, y = promote_dtypes(asarray_any(x), asarray_any(y))
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(
            f"{'convolve' if flip else 'correlate'}() only support 1-dimensional inputs."
        )
    if x.shape[0] == 0 or y.shape[0] == 0:
        raise ValueError("inputs cannot be empty")
    if dtypes.is_complex(x.dtype) and not flip:
        y = jnp.conj(y)
    if x.shape[0] < y.shape[0]:
        x, y = y, x
        if not flip:
            # correlate(a, v) with swapped operands is the reversed correlation.
            return _ex.flip(_conv1d(x, y, mode, False), 0)
    n, m = x.shape[0], y.shape[0]
    if flip:
        y = _ex.flip(y, 0)
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
    from jaxlite._src.ops.windowed import conv_general_dilated

    out = conv_general_dilated(jnp.reshape(x, (1, 1, n)), jnp.reshape(y, (1, 1, m)), (1,), (pads,))
    return jnp.reshape(out, (-1,))


def convolve(a, v, mode: str = "full", *, precision=None, preferred_element_type=None):
    """``jnp.convolve``: 1-D discrete convolution (modes full/same/valid)."""
    return _conv1d(a, v, mode, True)


def correlate(a, v, mode: str = "valid", *, precision=None, preferred_element_type=None):
    """``jnp.correlate``: 1-D cross-correlation (modes full/same/valid)."""
    return _conv1d(a, v, mode, False)


def cov(
    m, y=None, rowvar: bool = True, bias: bool = False, ddof=None, fweights=None, aweights=None
):
    """``jnp.cov``: covariance matrix of the variables (rows by default)."""
    if fweights is not None or aweights is not None:
        raise NotImplementedError("jaxlite cov does not support fweights/aweights")
    (m,) = promote_dtypes_inexact(asarray_any(m))
    m = jnp.atleast_2d(m)
    if not rowvar and m.shape[0] != 1:
        m = m.T
    if y is not None:
        (y,) = promote_dtypes_inexact(asarray_any(y))
        y = jnp.atleast_2d(y)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        m = jnp.concatenate([m, y], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    n = m.shape[1]
    c = jnp.subtract(m, jnp.mean(m, axis=1, keepdims=True))
    out = jnp.divide(jnp.matmul(c, jnp.conj(c).T), n - ddof)
    return jnp.squeeze(out)


def corrcoef(x, y=None, rowvar: bool = True):
    """``jnp.corrcoef``: Pearson correlation coefficients."""
    c = cov(x, y, rowvar)
    if c.ndim == 0:
        return jnp.divide(c, c)
    d = _ex.diagonal(c)
    sd = jnp.sqrt(d)
    out = jnp.divide(jnp.divide(c, sd[:, None]), sd[None, :])
    return jnp.clip(out, -1, 1)


def gradient(f, *varargs, axis=None, edge_order=None):
    """``jnp.gradient``: central differences inside, one-sided at the ends (unit or scalar
    spacing)."""
    f = asarray_any(f)
    (f,) = promote_dtypes_inexact(f)
    axes = (
        list(range(f.ndim)) if axis is None else ([axis] if isinstance(axis, int) else list(axis))
    )
    axes = [canonicalize_axis(a, f.ndim) for a in axes]
    spacing = list(varargs) if varargs else [1.0] * len(axes)
    if len(spacing) == 1 and len(axes) > 1:
        spacing = spacing * len(axes)
    outs = []
    for ax, h in zip(axes, spacing):
        n = f.shape[ax]
        if n < 2:
            raise ValueError("Shape of array too small to calculate a numerical gradient")
        sl = lambda a, b: _sh.slice_in_dim(f, a, b, 1, ax)  # noqa: E731
        mid = jnp.divide(jnp.subtract(sl(2, n), sl(0, n - 2)), 2.0)
        first = jnp.subtract(sl(1, 2), sl(0, 1))
        last = jnp.subtract(sl(n - 1, n), sl(n - 2, n - 1))
        g = jnp.concatenate([first, mid, last], ax) if n > 2 else jnp.concatenate([first, last], ax)
        outs.append(jnp.divide(g, h))
    return outs[0] if len(outs) == 1 else outs


def trapezoid(y, x=None, dx=1.0, axis: int = -1):
    """``jnp.trapezoid``: integrate ``y`` along ``axis`` with the trapezoidal rule."""
    (y,) = promote_dtypes_inexact(asarray_any(y))
    axis = canonicalize_axis(axis, y.ndim)
    n = y.shape[axis]
    avg = jnp.divide(
        jnp.add(_sh.slice_in_dim(y, 1, n, 1, axis), _sh.slice_in_dim(y, 0, n - 1, 1, axis)), 2.0
    )
    if x is None:
        return jnp.multiply(jnp.sum(avg, axis), dx)
    x = asarray_any(x)
    d = _ex.diff(x) if x.ndim == 1 else _ex.diff(x, axis=axis)
    if x.ndim == 1:
        shape = [1] * y.ndim
        shape[axis] = n - 1
        d = jnp.reshape(d, shape)
    return jnp.sum(jnp.multiply(avg, d), axis)


def gcd(x1, x2, /):
    """``jnp.gcd``: greatest common divisor (Euclid, a fixed number of unrolled steps)."""
    x1, x2 = promote_args("gcd", x1, x2)
    if not dtypes.is_int(x1.dtype):
        raise ValueError("Arguments to jax.numpy.gcd must be integers.")
    a, b = jnp.abs(x1), jnp.abs(x2)
    for _ in range(np.iinfo(a.dtype).bits * 2):
        nz = jnp.not_equal(b, 0)
        safe_b = jnp.where(nz, b, jnp.ones_like(b))
        a, b = jnp.where(nz, b, a), jnp.where(nz, jnp.remainder(a, safe_b), b)
    return a


def lcm(x1, x2, /):
    """``jnp.lcm``: least common multiple."""
    x1, x2 = promote_args("lcm", x1, x2)
    g = gcd(x1, x2)
    safe = jnp.where(jnp.equal(g, 0), jnp.ones_like(g), g)
    return jnp.where(
        jnp.equal(g, 0), jnp.zeros_like(g), jnp.abs(jnp.multiply(x1, jnp.floor_divide(x2, safe)))
    )


def ldexp(x1, x2, /):
    """``jnp.ldexp``: ``x1 * 2**x2``."""
    x1 = asarray_any(x1)
    (x1,) = promote_dtypes_inexact(x1)
    return jnp.multiply(x1, jnp.exp2(asarray_any(x2).astype(x1.dtype)))


def modf(x, /, out=None):
    """``jnp.modf``: ``(fractional part, integral part)``."""
    (x,) = promote_dtypes_inexact(asarray_any(x))
    whole = _ex.trunc(x)
    return jnp.subtract(x, whole), whole


def i0(x):
    """``jnp.i0``: modified Bessel function of the first kind, order 0 (series)."""
    (x,) = promote_dtypes_inexact(asarray_any(x))
    ax = jnp.abs(x)
    term = jnp.ones_like(ax)
    total = jnp.ones_like(ax)
    q = jnp.multiply(jnp.multiply(ax, ax), 0.25)
    for k in range(1, 40):
        term = jnp.divide(jnp.multiply(term, q), float(k * k))
        total = jnp.add(total, term)
    return total


def sort_complex(a):
    """``jnp.sort_complex``: sort and return a complex array."""
    a = asarray_any(a)
    dt = (
        dtypes.to_complex_dtype(a.dtype)
        if hasattr(dtypes, "to_complex_dtype")
        else (np.complex128 if a.dtype == np.float64 else np.complex64)
    )
    if dtypes.is_complex(a.dtype):
        re, im = _ex.real(a), _ex.imag(a)
        _, _, out = _sh_sort3(re, im, a)
        return out
    return _so.sort(a).astype(dt)


def _sh_sort3(re, im, a):
    from jaxlite._src.ops import sorting

    return sorting.sort((re, im, a), -1, num_keys=2)


def vander(x, N=None, increasing: bool = False):
    """``jnp.vander``: the Vandermonde matrix of a 1-D array."""
    x = asarray_any(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    N = x.shape[0] if N is None else int(N)
    powers = jnp.arange(N)
    if not increasing:
        powers = _ex.flip(powers, 0)
    return jnp.power(
        x[:, None],
        powers[None, :].astype(x.dtype) if dtypes.is_inexact(x.dtype) else powers[None, :],
    )


def unwrap(p, discont=None, axis: int = -1, period=2 * np.pi):
    """``jnp.unwrap``: remove jumps larger than ``discont`` by adding multiples of
    ``period``."""
    (p,) = promote_dtypes_inexact(asarray_any(p))
    axis = canonicalize_axis(axis, p.ndim)
    if discont is None:
        discont = period / 2
    d = _ex.diff(p, axis=axis)
    half = period / 2
    ddmod = jnp.subtract(jnp.remainder(jnp.add(d, half), period), half)
    ddmod = jnp.where(
        jnp.logical_and(jnp.equal(ddmod, -half), jnp.greater(d, 0)),
        jnp.full_like(ddmod, half),
        ddmod,
    )
    corr = jnp.where(jnp.less(jnp.abs(d), discont), jnp.zeros_like(d), jnp.subtract(ddmod, d))
    n = p.shape[axis]
    head = _sh.slice_in_dim(p, 0, 1, 1, axis)
    tail = jnp.add(_sh.slice_in_dim(p, 1, n, 1, axis), jnp.cumsum(corr, axis))
    return jnp.concatenate([head, tail], axis)


# ---------------------------------------------------------------------- index helpers
def unravel_index(indices, shape):
    """``jnp.unravel_index``: flat indices to a tuple of coordinate arrays (out-of-range
    indices are clamped, as in JAX)."""
    idx = asarray_any(indices)
    shape = tuple(int(s) for s in shape)
    total = int(np.prod(shape, dtype=np.int64))
    idx = jnp.where(jnp.less(idx, 0), jnp.add(idx, total), idx)
    idx = jnp.clip(idx, 0, total - 1)
    out = []
    for s in reversed(shape):
        out.append(jnp.remainder(idx, s))
        idx = jnp.floor_divide(idx, s)
    return tuple(reversed(out))


def ravel_multi_index(multi_index, dims, mode: str = "raise", order: str = "C"):
    """``jnp.ravel_multi_index``: coordinate arrays to flat indices (mode clip/wrap; raise
    clips under jit)."""
    dims = tuple(int(d) for d in dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    idx = [asarray_any(i) for i in multi_index]
    if order == "F":
        idx, dims = idx[::-1], dims[::-1]
    out = jnp.zeros((), dtypes.default_int_dtype())
    for i, d in zip(idx, dims):
        i = jnp.remainder(i, d) if mode == "wrap" else jnp.clip(i, 0, d - 1)
        out = jnp.add(jnp.multiply(out, d), i)
    return out


def ix_(*args):
    """``jnp.ix_``: open mesh from 1-D sequences, for cross-product indexing."""
    n = len(args)
    out = []
    for k, a in enumerate(args):
        a = asarray_any(a)
        if a.ndim != 1:
            raise ValueError(f"Cross index must be 1 dimensional, got shape {a.shape}")
        shape = [1] * n
        shape[k] = a.shape[0]
        out.append(jnp.reshape(a, shape))
    return tuple(out)


def diag_indices_from(arr):
    """``jnp.diag_indices_from``."""
    arr = asarray_any(arr)
    return _ex.diag_indices(arr.shape[0], arr.ndim)


def tril_indices_from(arr, k: int = 0):
    """``jnp.tril_indices_from``."""
    s = asarray_any(arr).shape
    return _ex.tril_indices(s[-2], k, s[-1])


def triu_indices_from(arr, k: int = 0):
    """``jnp.triu_indices_from``."""
    s = asarray_any(arr).shape
    return _ex.triu_indices(s[-2], k, s[-1])


def fill_diagonal(a, val, wrap: bool = False, *, inplace: bool = True):
    """``jnp.fill_diagonal`` with ``inplace=False``."""
    if inplace:
        raise ValueError("JAX arrays are immutable; pass inplace=False to fill_diagonal")
    a = asarray_any(a)
    n = min(a.shape)
    idx = (jnp.arange(n),) * a.ndim
    v = jnp.ravel(asarray_any(val))
    v = _ex.tile(v, -(-n // max(v.shape[0], 1)))[:n]
    return a.at[idx].set(v.astype(a.dtype))


def resize(a, new_shape):
    """``jnp.resize``: repeat the flattened array to fill ``new_shape``."""
    a = jnp.ravel(asarray_any(a))
    shape = (
        (int(new_shape),)
        if isinstance(new_shape, (int, np.integer))
        else tuple(int(s) for s in new_shape)
    )
    total = int(np.prod(shape, dtype=np.int64))
    if a.shape[0] == 0:
        return jnp.zeros(shape, a.dtype)
    reps = -(-total // a.shape[0])
    return jnp.reshape(_ex.tile(a, reps)[:total], shape)


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """``jnp.fromfunction``: ``function(*indices(shape))``."""
    grids = _ex.indices(
        shape,
        dtype=dtypes.canonicalize_dtype(dtypes.default_float_dtype() if dtype is float else dtype),
    )
    return function(*[grids[i] for i in range(len(shape))], **kwargs)


def apply_along_axis(func1d, axis: int, arr, *args, **kwargs):
    """``jnp.apply_along_axis``: ``func1d`` on every 1-D slice along ``axis`` (via vmap)."""
    arr = asarray_any(arr)
    return _apply_along(func1d, canonicalize_axis(axis, arr.ndim), arr, args, kwargs)


def _apply_along(func1d, axis, arr, args, kwargs):
    from jaxlite._src.api import vmap

    moved = jnp.moveaxis(arr, axis, -1)
    batch = moved.shape[:-1]
    flat = (
        jnp.reshape(moved, (-1, moved.shape[-1]))
        if batch
        else jnp.reshape(moved, (1, moved.shape[-1]))
    )
    out = vmap(lambda v: func1d(v, *args, **kwargs))(flat)
    out = jnp.reshape(out, batch + out.shape[1:])
    if out.ndim > len(batch):
        nd_extra = out.ndim - len(batch)
        src = list(range(len(batch), out.ndim))
        dst = list(range(axis, axis + nd_extra))
        out = jnp.moveaxis(out, src, dst)
    return out


def apply_over_axes(func, a, axes):
    """``jnp.apply_over_axes``: apply ``func(a, axis)`` repeatedly, keeping dims."""
    a = asarray_any(a)
    for ax in axes:
        b = func(a, ax)
        if b.ndim == a.ndim - 1:
            b = jnp.expand_dims(b, ax)
        a = b
    return a


def trim_zeros(filt, trim: str = "fb"):
    """``jnp.trim_zeros`` (needs a concrete input)."""
    v = np.asarray(asarray_any(filt) if not isinstance(filt, Tracer) else filt)
    nz = np.flatnonzero(v)
    if nz.size == 0:
        return asarray_any(v[:0])
    lo = nz[0] if "f" in trim.lower() else 0
    hi = nz[-1] + 1 if "b" in trim.lower() else v.shape[0]
    return asarray_any(filt)[int(lo) : int(hi)]


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002
    """``jnp.histogram_bin_edges``."""
    return _so.histogram(a, bins, range, weights)[1]


def can_cast(from_, to, casting: str = "safe"):
    """``jnp.can_cast`` (NumPy's rules on dtypes)."""
    f = from_.dtype if hasattr(from_, "dtype") else from_
    return bool(np.can_cast(np.dtype(f), np.dtype(to), casting))


def iterable(y):
    """``jnp.iterable``."""
    try:
        iter(y)
    except TypeError:
        return False
    return True
