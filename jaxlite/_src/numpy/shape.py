"""``jax.numpy`` array manipulation: shapes, transposes, broadcasting, joining and splitting.

``shape ndim size reshape ravel transpose swapaxes moveaxis squeeze expand_dims
broadcast_to broadcast_arrays atleast_*d concatenate stack hstack vstack dstack split tile
flip rot90 pad append unstack trim_zeros`` -- compositions of ``ops.shape``.
"""

from __future__ import annotations

import builtins
import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of, canonicalize_shape, check_nonnegative_shape
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer, concrete_index, new_array
from jaxlite._src.numpy import util as _util
from jaxlite._src.numpy.util import (
    asarray_any,
    asarray_staged,
    canonicalize_axis,
    check_out,
    promote_dtypes,
)
from jaxlite._src.ops import conversion, shape as _sh, split as _split_op
from jaxlite._src.sharding import explicit as _explicit


def _shape(x):
    return aval_of(x).shape


_canon_shape = canonicalize_shape


def _broadcast_all(*args):
    return _util.broadcast_arrays(*args)


# ------------------------------------------------------------------------- axis helpers
def _reduction_axes(x, axis, index_error=False):
    nd = _ndim(x)
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, (tuple, list, range)):  # JAX takes any sequence of ints (a range)
        axes = tuple(canonicalize_axis(a, nd, index_error) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axis': {axis}")
        return axes
    return (canonicalize_axis(axis, nd, index_error),)


def _ndim(x):
    return len(_shape(x))


# ------------------------------------------------------------------------------ shapes
def _not_arraylike_warning(name, a):
    """JAX 0.10 still answers ``shape``/``ndim``/``size`` of a list, tuple or other
    non-array (NumPy's answer), with a DeprecationWarning; every other ``jnp`` function
    raises."""
    import warnings

    if _util.is_arraylike(a) or np.isscalar(a):
        return
    warnings.warn(
        f"{name} requires ndarray or scalar arguments, got {type(a)} at position 0. "
        "In a future JAX release this will be an error.",
        DeprecationWarning,
        stacklevel=4,
    )


def _numpy_answer(name, a):
    _not_arraylike_warning(name, a)
    m = getattr(a, "__jax_array__", None)
    return np.shape(m() if m is not None else a)


def shape(a):
    """The shape of ``a``: its ``shape`` attribute when it has one (an array, a tracer, a
    ``ShapeDtypeStruct``, any duck-typed array), else NumPy's answer."""
    if hasattr(a, "shape"):
        return a.shape
    return _numpy_answer("shape", a)


def ndim(a):
    """The number of dimensions of ``a``: its ``ndim`` attribute when it has one, else
    NumPy's answer."""
    if hasattr(a, "ndim"):
        return a.ndim
    return len(_numpy_answer("ndim", a))


def size(a, axis=None):
    """The number of elements of ``a`` (along ``axis``, an int or a tuple of ints): its
    ``size`` attribute when it has one and ``axis`` is None, else from its shape."""
    _not_arraylike_warning("size", a)
    if axis is None and hasattr(a, "size"):
        return a.size
    s = a.shape if hasattr(a, "shape") else _numpy_answer("shape", a)
    axes = axis if isinstance(axis, (tuple, list)) else range(len(s)) if axis is None else (axis,)
    axes = [canonicalize_axis(ax, len(s)) for ax in axes]
    if len(set(axes)) != len(axes):
        raise ValueError(f"repeated axis: {axis}")
    return int(np.prod([s[ax] for ax in axes], dtype=np.int64))


def reshape(a, shape, order="C", *, copy=None, out_sharding=None):
    """``jnp.reshape`` (one ``-1`` entry allowed); ``out_sharding``: the result's sharding.

    JAX 0.10.2 removed the deprecated ``newshape=`` keyword: passing it is a ``TypeError``.
    """
    if out_sharding is not None:
        return _explicit.apply_out_sharding(reshape, out_sharding, a, shape, order, copy=copy)
    a = asarray_any(a)
    shape = _canon_shape(shape)
    if order == "A":
        raise NotImplementedError("np.reshape order=A is not implemented.")
    if order not in ("C", "F"):
        raise ValueError(f"Unexpected value for 'order' argument: {order}.")
    if order == "F":
        return transpose(reshape(transpose(a), shape[::-1]))
    size_ = a.size
    if -1 in shape:
        if shape.count(-1) > 1:
            raise TypeError(
                f"can only specify one unknown axis size with a `-1` value, got {shape}"
            )
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if known == 0 or size_ % known:
            raise TypeError(
                f"cannot reshape array of shape {a.shape} (size {size_}) into shape {shape} "
                f"because the product of specified axis sizes ({known}) does not evenly "
                f"divide {size_}"
            )
        shape = tuple(size_ // known if s == -1 else s for s in shape)
    want = int(np.prod(shape, dtype=np.int64))
    if want != size_:
        raise TypeError(
            f"cannot reshape array of shape {a.shape} (size {size_}) into shape {shape} "
            f"(size {want})"
        )
    return _sh.reshape(a, shape)


def ravel(a, order="C", *, out_sharding=None):
    """``jnp.ravel``; ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return _explicit.apply_out_sharding(ravel, out_sharding, a, order)
    a = asarray_any(a)
    out = reshape(a, (a.size,), order)
    return new_array(out) if out is a else out


def transpose(a, axes=None):
    a = asarray_staged(a)
    if axes is None:
        axes = tuple(range(a.ndim))[::-1]
    axes = tuple(canonicalize_axis(i, a.ndim) for i in axes)
    return _sh.transpose(a, axes)


def permute_dims(a, /, axes):
    """``jnp.permute_dims``: ``lax.transpose`` with ``axes`` as given (a negative or
    out-of-range axis is not a permutation: TypeError, as JAX)."""
    return _sh.transpose(asarray_staged(a), tuple(operator.index(i) for i in axes))


def matrix_transpose(x, /):
    x = asarray_any(x)
    if x.ndim < 2:
        raise ValueError(
            f"x must be at least two-dimensional for matrix_transpose; got ndim={x.ndim}"
        )
    return swapaxes(x, -1, -2)


def _permuted(a, perm):
    """``lax.transpose(a, perm)`` as a jitted ``jax.numpy`` function returns it: a new array
    even for the identity permutation (which ``lax.transpose`` answers with ``a`` itself)."""
    out = _sh.transpose(a, perm)
    return new_array(out) if out is a else out


def swapaxes(a, axis1, axis2):
    a = asarray_any(a)
    perm = list(range(a.ndim))
    # JAX indexes a NumPy permutation with its (static, so hashable) axes: a one-element
    # tuple is its axis
    axis1, axis2 = (
        ax[0] if isinstance(ax, tuple) and len(ax) == 1 else ax for ax in (axis1, axis2)
    )
    for ax in (axis1, axis2):
        if isinstance(ax, (bool, np.bool_)):  # JAX's error (its axes are an index array)
            raise ValueError("setting an array element with a sequence.")
        if not -a.ndim <= int(ax) < a.ndim:  # JAX indexes its permutation: IndexError
            raise IndexError(f"index {ax} is out of bounds for axis 0 with size {a.ndim}")
    i, j = canonicalize_axis(axis1, a.ndim), canonicalize_axis(axis2, a.ndim)
    perm[i], perm[j] = perm[j], perm[i]
    return _permuted(a, perm)


def _one_axis(axis) -> bool:
    """A single axis, not a sequence of them: NumPy integer scalars (TFP passes them), 0-d
    integer arrays and scalar tracers count as ints, as in JAX."""
    if isinstance(axis, (int, np.integer)) or _traced_scalar(axis):
        return True
    return isinstance(axis, np.ndarray) and axis.ndim == 0 and axis.dtype.kind in "iu"


def moveaxis(a, source, destination):
    a = asarray_any(a)
    src = [source] if _one_axis(source) else source
    dst = [destination] if _one_axis(destination) else destination
    src, dst = list(src), list(dst)
    if len(src) != len(dst):
        raise ValueError(f"Inconsistent number of elements: {len(src)} vs {len(dst)}")
    src = [canonicalize_axis(s, a.ndim) for s in src]
    dst = [canonicalize_axis(d, a.ndim) for d in dst]
    perm = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return _permuted(a, perm)


def squeeze(a, axis=None):
    a = asarray_any(a)
    if axis is None:
        axes = tuple(i for i, s in enumerate(a.shape) if s == 1)
    else:
        axes = _reduction_axes(a, axis)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError(
                    "cannot select an axis to squeeze out which has size not equal to one, "
                    f"got shape={a.shape} and dimensions={axes}"
                )
    return _sh.squeeze(a, axes) if axes else new_array(a)


_STATIC_AXIS = "The axis argument must be known statically."


def _traced_scalar(x) -> bool:
    """A 0-d tracer where an axis is expected: JAX's ConcretizationTypeError follows."""
    return isinstance(x, Tracer) and x.aval.ndim == 0


def expand_dims(a, axis):
    a = asarray_any(a)
    axes = (axis,) if _one_axis(axis) else tuple(axis)
    return _sh.expand_dims(a, tuple(concrete_index(x, _STATIC_AXIS) for x in axes))


def broadcast_to(array, shape, *, out_sharding=None):
    """``jnp.broadcast_to``; ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return _explicit.apply_out_sharding(broadcast_to, out_sharding, array, shape)
    a = asarray_staged(array)
    shape = _canon_shape(shape)
    check_nonnegative_shape(shape, "broadcast_in_dim")
    if a.shape == shape:
        return a
    try:
        res = np.broadcast_shapes(a.shape, shape)
    except ValueError:
        res = None
    if res != shape:
        if a.ndim > len(shape):
            raise ValueError(
                "Cannot broadcast to shape with fewer dimensions: "
                f"arr_shape={a.shape} shape={shape}"
            )
        name = np.dtype(a.dtype).name

        def typ(s):
            return f"{name}[{','.join(map(str, s))}]"

        raise ValueError(
            f"Incompatible types for broadcasting: input type={typ(a.shape)} and requested "
            f"type={typ(shape)}"
        )
    return _sh.broadcast_to_rank(a, shape)


def broadcast_arrays(*args):
    args = [asarray_any(a) for a in args]
    # JAX's results are new arrays, those of unchanged shape included.
    return [new_array(o) if o is a else o for o, a in zip(_broadcast_all(*args), args)]


def _broadcast_shape_tuples(shapes, shown):
    try:
        return tuple(int(d) for d in np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={list(shown)}") from None


def broadcast_shapes(*shapes):
    """The shape that arrays of ``shapes`` broadcast to, as NumPy's rules give it.

    An integer stands for a rank-1 shape. Incompatible shapes raise ``ValueError``
    (``Incompatible shapes for broadcasting: shapes=[...]``, as JAX words it).
    """
    shapes = [(s,) if isinstance(s, (int, np.integer)) else tuple(s) for s in shapes]
    return _broadcast_shape_tuples(shapes, shapes)


def broadcast_shapes_lax(*shapes):
    """``jax.lax.broadcast_shapes``: like ``jnp.broadcast_shapes`` but every argument must
    be a sequence of dimensions (an integer raises ``TypeError``, as on JAX); the error
    message shows the shapes as given."""
    for s in shapes:
        len(s)
    return _broadcast_shape_tuples([tuple(s) for s in shapes], shapes)


def atleast_1d(*arys):
    out = [reshape(a, (1,)) if _ndim(a) == 0 else new_array(asarray_any(a)) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys):
    out = []
    for a in arys:
        a = asarray_any(a)
        out.append(_sh.reshape(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else new_array(a))
    return out[0] if len(out) == 1 else out


def _refuse_nested(name: str, arrays) -> None:
    """JAX's ``check_arraylike`` of the operands of a joining function given as a list or
    tuple: a list or tuple among them (``jnp.stack([[1.0, 2.0], x])``, or a tuple leaf of a
    pytree given to ``jnp.stack``) is refused, not read as an array the caller did not mean.
    (An array of operands is not iterated: its rows are arrays.)"""
    if isinstance(arrays, (list, tuple)):
        _util.check_arraylike(name, *arrays)


def concatenate(arrays, axis: int | None = 0, dtype=None):
    _refuse_nested("concatenate", arrays)
    return _concatenate(arrays, axis, dtype)


def _concatenate(arrays, axis, dtype):
    arrays = list(arrays)
    if not arrays:
        raise ValueError("Need at least one array to concatenate.")
    if axis is None:
        arrays = [ravel(a) for a in arrays]
        axis = 0
    if len(arrays) == 1:  # the array itself; host data a tracer while staging, as JAX's
        arrays = [asarray_staged(arrays[0])]
    arrays = promote_dtypes(*arrays)
    if dtype is not None:
        arrays = [
            conversion.convert_element_type(a, dtypes.canonicalize_dtype(dtype)) for a in arrays
        ]
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("Zero-dimensional arrays cannot be concatenated.")
    # operator.index first: a traced axis is TracerIntegerConversionError, as JAX's
    return _sh.concatenate(arrays, canonicalize_axis(operator.index(axis), nd))


def stack(arrays, axis: int = 0, out=None, dtype=None):
    check_out(out, "jnp.stack is not supported.")
    _refuse_nested("stack", arrays)
    arrays = [asarray_any(a) for a in arrays]
    if not arrays:
        raise ValueError("Need at least one array to stack.")
    shapes = {a.shape for a in arrays}
    if len(shapes) != 1:
        raise ValueError(
            "All input arrays must have the same shape. Got "
            + ", ".join(str(a.shape) for a in arrays)
            + "."
        )
    axis = canonicalize_axis(operator.index(axis), arrays[0].ndim + 1)  # (as concatenate)
    return concatenate([expand_dims(a, axis) for a in arrays], axis, dtype)


def hstack(tup, dtype=None):
    _refuse_nested("hstack", tup)
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, 0 if arrs[0].ndim == 1 else 1, dtype)


def vstack(tup, dtype=None):
    _refuse_nested("vstack", tup)
    return concatenate([atleast_2d(a) for a in tup], 0, dtype)


# -------------------------------------------------------------------------------- shapes
def atleast_3d(*arys):
    """``jnp.atleast_3d``: views with at least three dimensions."""
    out = []
    for a in arys:
        a = asarray_any(a)
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = reshape(a, a.shape + (1,))
        else:
            a = new_array(a)
        out.append(a)
    return out[0] if len(out) == 1 else out


def dstack(tup, dtype=None):
    """``jnp.dstack``: stack along the third axis."""
    _refuse_nested("dstack", tup)
    return concatenate([atleast_3d(a) for a in tup], 2, dtype)


def column_stack(tup):
    """``jnp.column_stack``: 1-D arrays become columns, then ``hstack``."""
    _refuse_nested("column_stack", tup)
    arrs = []
    for a in tup:
        a = asarray_staged(a)
        # 0-d and 1-d inputs become columns (a scalar a 1x1 block), as in NumPy and JAX.
        arrs.append(reshape(a, (a.size, 1)) if a.ndim < 2 else a)
    return concatenate(arrs, 1)


def _split_points(n, indices_or_sections, even: bool):
    if not isinstance(indices_or_sections, (tuple, list)) and (
        getattr(indices_or_sections, "ndim", None) == 0 or np.ndim(indices_or_sections) == 0
    ):
        # a number of sections (as JAX: any scalar, 3.0 included, is int()-ed)
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        if even and n % k:
            raise ValueError(f"array split does not result in an equal division: rest is {n % k}")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        return list(np.cumsum([0] + sizes))
    if isinstance(indices_or_sections, (tuple, list)):
        # as JAX: float indices are an error, not truncated
        idx = [operator.index(i) for i in indices_or_sections]
    else:
        # as JAX: each index must be an integer (an empty float array has none: lineax
        # splits by np.cumsum of an empty size list); a jax.Array of floats refuses as a
        # whole, NumPy values element by element
        arr = np.asarray(indices_or_sections)
        if (
            arr.size
            and arr.dtype.kind not in "iu"
            and not isinstance(indices_or_sections, (np.ndarray, np.generic))
        ):
            raise TypeError("Only integer scalar arrays can be converted to a scalar index.")
        idx = [operator.index(i) for i in arr.ravel()]
    pts = [0, *idx, n]
    sizes = [hi - lo for lo, hi in zip(pts[:-1], pts[1:])]
    if builtins.any(s < 0 for s in sizes):
        # As JAX: indices are not wrapped or clipped as NumPy does (split(x, [-2, 5]) or
        # an index past the end raise instead of returning NumPy's pieces).
        raise ValueError(f"Sizes passed to split must be nonnegative, got {sizes}")
    return pts


def split(ary, indices_or_sections, axis: int = 0):
    """``jnp.split``: split into equal sections or at the given indices."""
    return _split(ary, indices_or_sections, axis, True)


def array_split(ary, indices_or_sections, axis: int = 0):
    """``jnp.array_split``: like ``split`` but sections may differ by one element."""
    return _split(ary, indices_or_sections, axis, False)


def _split(ary, ios, axis, even):
    ary = asarray_any(ary)
    axis = canonicalize_axis(axis, ary.ndim, index_error=True)
    n = ary.shape[axis]
    pts = _split_points(n, ios, even)
    return _split_op.split(ary, [hi - lo for lo, hi in zip(pts[:-1], pts[1:])], axis)


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
    try:  # as JAX: what does not iterate (a float, a 0-d array) is one count
        reps = tuple(reps)
    except TypeError:
        reps = (reps,)
    try:
        reps = tuple(operator.index(r) for r in reps)
    except TypeError:  # int() would truncate a float silently
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {reps}."
        ) from None
    nd = builtins.max(len(reps), A.ndim)
    reps = (1,) * (nd - len(reps)) + reps
    A = reshape(A, (1,) * (nd - A.ndim) + A.shape)
    big = []
    for r, s in zip(reps, A.shape):
        big += [r, s]
    b = _sh.broadcast_in_dim(A, tuple(big), tuple(range(1, 2 * nd, 2)))
    return reshape(b, tuple(r * s for r, s in zip(reps, A.shape)))


def _take_static(a, idx, axis):
    items = [slice(None)] * a.ndim
    items[axis] = idx
    return a[tuple(items)]


def flip(m, axis=None):
    """``jnp.flip``: reverse the order of elements along ``axis`` (all axes if None)."""
    m = asarray_any(m)
    if axis is None:
        axes = tuple(range(m.ndim))
    elif isinstance(axis, (tuple, list, range)):
        axes = tuple(canonicalize_axis(a, m.ndim) for a in axis)
    else:
        axes = (canonicalize_axis(axis, m.ndim),)
    return _sh.rev(m, axes) if axes else new_array(m)


def fliplr(m):
    """``jnp.fliplr``: flip along axis 1."""
    return flip(m, 1)


def flipud(m):
    """``jnp.flipud``: flip along axis 0."""
    return flip(m, 0)


def rot90(m, k: int = 1, axes=(0, 1)):
    """``jnp.rot90``: rotate by 90 degrees ``k`` times in the plane of ``axes``."""
    m = asarray_any(m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    ax0, ax1 = canonicalize_axis(axes[0], m.ndim), canonicalize_axis(axes[1], m.ndim)
    if ax0 == ax1:
        raise ValueError("Axes must be different.")
    k = operator.index(k) % 4  # a float or str k is a TypeError (docs/compat.md)
    if k == 0:
        return new_array(m)
    if k == 2:
        return flip(flip(m, ax0), ax1)
    perm = list(range(m.ndim))
    perm[ax0], perm[ax1] = perm[ax1], perm[ax0]
    if k == 1:
        return transpose(flip(m, ax1), perm)
    return flip(transpose(m, perm), ax1)


def append(arr, values, axis=None):
    """``jnp.append``."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def concat(arrays, /, *, axis: int | None = 0):
    """``jnp.concat`` (the array API's name): ``concatenate`` with keyword-only ``axis``."""
    _refuse_nested("concat", arrays)
    return _concatenate(arrays, axis, None)


def unstack(x, /, *, axis: int = 0):
    """``jnp.unstack``: split into arrays along ``axis`` (removing it)."""
    x = asarray_any(x)
    axis = canonicalize_axis(axis, x.ndim)
    return tuple(_sh.index_in_dim(x, i, axis, keepdims=False) for i in range(x.shape[axis]))


def rollaxis(a, axis: int, start: int = 0):
    """``jnp.rollaxis``."""
    a = asarray_any(a)
    axis = canonicalize_axis(axis, a.ndim)
    start = operator.index(start)
    if not -a.ndim <= start <= a.ndim:
        raise ValueError(f"{start=} must satisfy {-a.ndim}<=start<={a.ndim}")
    if start < 0:  # counted from the end of a.ndim (NumPy's rule), not a.ndim + 1
        start += a.ndim
    if start > axis:
        start -= 1
    return moveaxis(a, axis, start)


def trim_zeros(filt, trim: str = "fb", axis=None):
    """``jnp.trim_zeros``: drop the leading ('f') and/or trailing ('b') slices that are all
    zero along each axis in ``axis`` (default: every axis). Needs a concrete input."""
    filt = asarray_any(filt)
    if isinstance(filt, Tracer):
        value = filt.to_concrete_value()
        if value is None:
            raise ConcretizationTypeError(
                filt, "Error arose in the `filt` argument of trim_zeros()"
            )
    else:
        value = filt
    v = np.asarray(value)
    if axis is None:
        axes = tuple(range(v.ndim))
    elif isinstance(axis, (tuple, list)):
        axes = tuple(canonicalize_axis(i, v.ndim) for i in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis: {axes}")
    else:
        axes = (canonicalize_axis(axis, v.ndim),)
    front, back = "f" in trim.lower(), "b" in trim.lower()
    if not axes or not (front or back):
        return filt
    index = [slice(None)] * v.ndim
    for ax in axes:
        nz = np.flatnonzero(v.any(axis=tuple(i for i in range(v.ndim) if i != ax)))
        if nz.size == 0:
            index[ax] = slice(0, 0)
            continue
        index[ax] = slice(int(nz[0]) if front else None, int(nz[-1]) + 1 if back else None)
    return filt[tuple(index)]


def block(arrays):
    """Assemble an array from nested lists of blocks (``jax.numpy.block``).

    The innermost lists are concatenated along the last axis, the next level along the
    second-to-last, and so on; blocks are first promoted to the result's rank.

    Raises:
      ValueError: for tuples, empty lists or lists nested to different depths.
    """

    def depth(a) -> int:
        if isinstance(a, tuple):
            raise ValueError(f"jax.numpy.block does not allow tuples, got {a}")
        if isinstance(a, list):
            if not a:
                raise ValueError("jax.numpy.block does not allow empty list arguments")
            depths = {depth(x) for x in a}
            if len(depths) != 1:
                raise ValueError("Mismatched list depths in jax.numpy.block")
            return 1 + depths.pop()
        return 0

    def max_rank(a) -> int:
        if isinstance(a, list):
            return builtins.max(max_rank(x) for x in a)
        return aval_of(asarray_any(a)).ndim

    list_depth = depth(arrays)
    rank = builtins.max(max_rank(arrays), list_depth)

    def assemble(a, level: int):
        if not isinstance(a, list):
            x = asarray_any(a)
            return reshape(x, (1,) * (rank - x.ndim) + x.shape)
        parts = [assemble(x, level + 1) for x in a]
        return concatenate(parts, axis=-(list_depth - level))

    return new_array(assemble(arrays, 0))  # never one of the blocks itself
