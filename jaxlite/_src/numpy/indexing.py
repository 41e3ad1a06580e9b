"""NumPy-style indexing (``x[idx]``) and ``.at[idx]`` updates, over slice/gather/scatter.

Static ints and slices become ``slice``/``squeeze``/``rev``; traced scalar indices become
``dynamic_slice`` (clamped, as in JAX); integer arrays become ``gather``/``scatter``;
boolean masks must be concrete (``NonConcreteBooleanIndexError`` otherwise).
"""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.errors import NonConcreteBooleanIndexError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy.creation import ones_like
from jaxlite._src.numpy.ufuncs import true_divide
from jaxlite._src.numpy.util import asarray_any
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    indexing as _ix,
    shape as _shape,
    slicing,
)
from jaxlite._src.sharding import explicit as _explicit


def _is_int_scalar(i):
    if isinstance(i, (int, np.integer)) and not isinstance(i, bool):
        return True
    return (
        isinstance(i, (Array, np.ndarray))
        and aval_of(i).shape == ()
        and dtypes.is_int(aval_of(i).dtype)
    )


def _expand_index(idx, ndim):
    """Normalise to a tuple with Ellipsis expanded; returns (items, n_consumed)."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    idx = tuple(np.asarray(i) if isinstance(i, list) else i for i in idx)
    n_ell = sum(1 for i in idx if i is Ellipsis)
    if n_ell > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = 0
    for i in idx:
        if i is None or i is Ellipsis:
            continue
        if isinstance(i, (Array, np.ndarray)) and aval_of(i).dtype == dtypes.bool_:
            consumed += max(aval_of(i).ndim, 1) if aval_of(i).ndim else 0
        else:
            consumed += 1
    if consumed > ndim:
        raise IndexError(
            f"Too many indices: array is {ndim}-dimensional, but {consumed} were indexed"
        )
    out = []
    for i in idx:
        if i is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
        else:
            out.append(i)
    if n_ell == 0:
        out.extend([slice(None)] * (ndim - consumed))
    return out


def _bool_to_int(items):
    out = []
    for i in items:
        if isinstance(i, (Array, np.ndarray)) and aval_of(i).dtype == dtypes.bool_:
            if isinstance(i, Tracer) and i.to_concrete_value() is None:
                raise NonConcreteBooleanIndexError(i)
            v = np.asarray(i)
            if v.ndim == 0:
                out.append(None if v else _EmptyIndex())
                continue
            out.extend(ArrayImpl(np.asarray(n, np.int32)) for n in np.nonzero(v))
        else:
            out.append(i)
    return out


class _EmptyIndex:
    pass


def getitem(x, idx):
    if isinstance(idx, list):
        raise TypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
            f"`arr[array(seq)]` instead of `arr[seq]`. Got index {idx!r}."
        )
    x = asarray_any(x)
    items = _bool_to_int(_expand_index(idx, x.ndim))
    if type(x) is not ArrayImpl:
        _explicit.check_index(x, items)
    return _index(x, items)


def _index(x, items):
    # Pass 1: basic indexing (slices, static ints, None); collect advanced indices.
    out = x
    axis = 0
    squeeze_axes = []
    new_axes = []
    advanced = []  # (axis in `out` after basic pass, index array)
    dyn_starts = None
    for i in items:
        if i is None:
            # Position in the output: kept input axes so far plus earlier new axes.
            new_axes.append(axis - len(squeeze_axes) + len(new_axes))
            continue
        if isinstance(i, _EmptyIndex):
            raise IndexError("boolean scalar False index is not supported")
        n = out.shape[axis]
        if isinstance(i, slice):
            start, stop, step = i.start, i.stop, i.step
            for s in (start, stop, step):
                if isinstance(s, Tracer):
                    raise IndexError(
                        "Array slice indices must have static start/stop/step to be used "
                        "with NumPy indexing syntax. Use lax.dynamic_slice instead."
                    )
            start, stop, step = slice(
                None if start is None else int(start),
                None if stop is None else int(stop),
                None if step is None else int(step),
            ).indices(n)
            if step > 0:
                if (start, stop, step) != (0, n, 1):
                    out = _shape.slice_in_dim(out, start, max(start, stop), step, axis)
            else:
                length = len(range(start, stop, step))
                if length == 0:
                    out = _shape.slice_in_dim(out, 0, 0, 1, axis)
                else:
                    lo = start + (length - 1) * step
                    if (lo, start + 1, -step) != (0, n, 1):  # a whole-axis reversal: no slice
                        out = _shape.slice_in_dim(out, lo, start + 1, -step, axis)
                    out = _shape.rev(out, (axis,))
            axis += 1
        elif isinstance(i, (int, np.integer)) and not isinstance(i, bool):
            i = int(i)
            if n == 0:
                raise IndexError(f"index {i} is out of bounds for axis {axis} with size 0")
            # Out-of-bounds static indices are clamped, as JAX's gathers are.
            i = min(max(i + n if i < 0 else i, 0), n - 1)
            if n != 1:  # a trivial slice is skipped, as in JAX (it shows in weak types)
                out = _shape.slice_in_dim(out, i, i + 1, 1, axis)
            squeeze_axes.append(axis)
            axis += 1
        elif (
            _is_int_scalar(i)
            and isinstance(i, Tracer)
            or (isinstance(i, Array) and aval_of(i).shape == () and dtypes.is_int(aval_of(i).dtype))
        ):
            # Traced scalar index: dynamic_slice with JAX's clamping (negative wraps once).
            i = conversion.convert_element_type(i, dtypes.int32)
            i = ew.select_n(ew.lt(i, ew._const(i, 0)), i, ew.add(i, ew._const(i, n)))
            starts = [ArrayImpl(np.asarray(0, np.int32))] * out.ndim
            starts[axis] = i
            sizes = list(out.shape)
            sizes[axis] = 1
            out = slicing.clamped_dynamic_slice(out, starts, sizes)
            squeeze_axes.append(axis)
            axis += 1
        else:
            arr = asarray_any(i)
            if not dtypes.is_int(aval_of(arr).dtype):
                raise TypeError(
                    "Indexer must have integer or boolean type, got indexer with type "
                    f"{aval_of(arr).dtype}"
                )
            advanced.append((axis, arr))
            axis += 1
    del dyn_starts
    if advanced:
        out = _advanced(out, advanced)
        # Advanced indexing removes/changes axes; basic squeezes refer to earlier axes only
        # when they precede the advanced block. Handle the common layouts.
        adv_axes = [a for a, _ in advanced]
        nb = len(np.broadcast_shapes(*[aval_of(a).shape for _, a in advanced]))
        contiguous = adv_axes == list(range(adv_axes[0], adv_axes[0] + len(adv_axes)))
        first = adv_axes[0] if contiguous else 0
        remap = []
        for s in squeeze_axes:
            if contiguous:
                remap.append(s if s < first else s - len(adv_axes) + nb)
            else:
                before = sum(1 for a in adv_axes if a < s)
                remap.append(s - before + nb)
        squeeze_axes = remap
    if squeeze_axes:
        out = _shape.squeeze(out, squeeze_axes)
    for a in new_axes:
        out = _shape.expand_dims(out, (a,))
    if advanced and 0 in aval_of(out).shape:
        # An empty gather result is a constant, as in JAX (which skips the gather): no
        # derivative flows through it.
        xa = aval_of(x)
        return _shape.full(aval_of(out).shape, 0, xa.dtype, xa.weak_type)
    return out


def _advanced(x, advanced):
    axes = [a for a, _ in advanced]
    idxs = []
    for a, arr in advanced:
        n = x.shape[a]
        arr = conversion.convert_element_type(arr, dtypes.int32)
        arr = ew.select_n(ew.lt(arr, ew._const(arr, 0)), arr, ew.add(arr, ew._const(arr, n)))
        idxs.append(arr)
    contiguous = axes == list(range(axes[0], axes[0] + len(axes)))
    rest = [i for i in range(x.ndim) if i not in axes]
    xt = _shape.transpose(x, axes + rest)
    out = _ix.gather(xt, *idxs)
    if contiguous and axes[0] > 0:
        nb = out.ndim - len(rest)
        # Put the broadcast index dims where the indexed block was.
        perm = list(range(nb, nb + axes[0])) + list(range(nb)) + list(range(nb + axes[0], out.ndim))
        out = _shape.transpose(out, perm)
    return out


# --------------------------------------------------------------------------- .at[...]
class _IndexUpdateHelper:
    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __getitem__(self, idx):
        return _IndexUpdateRef(self.array, idx)


class _IndexUpdateRef:
    """``x.at[idx]``: functional updates returning a new array."""

    __slots__ = ("array", "index")

    def __init__(self, array, index):
        self.array = array
        self.index = index

    def get(self, *, mode=None, fill_value=None, out_sharding=None, **kwargs):
        """``x.at[idx].get()``: out-of-bounds indices clamp (default, ``"clip"``) or give
        ``fill_value`` (``"fill"``/``"drop"``; NaN, the minimum int or True by default).
        ``out_sharding``: the result's sharding (needed to index a dimension sharded over
        Explicit mesh axes, S8.3)."""
        if mode in ("fill", "drop"):
            return _explicit.apply_out_sharding(
                _get_filled, out_sharding, self.array, self.index, fill_value
            )
        return _explicit.apply_out_sharding(getitem, out_sharding, self.array, self.index)

    def set(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "set", kwargs.get("mode"))

    def add(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "add", kwargs.get("mode"))

    def subtract(self, values, **kwargs):
        return _scatter(
            self.array,
            self.index,
            ew.neg(asarray_any(values)) if not isinstance(values, (int, float)) else -values,
            "add",
            kwargs.get("mode"),
        )

    def multiply(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "mul", kwargs.get("mode"))

    mul = multiply

    def divide(self, values, **kwargs):
        return _scatter(
            self.array,
            self.index,
            true_divide(ones_like(self.array).at[self.index].get() if False else 1.0, values),
            "mul",
        )

    def min(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "min", kwargs.get("mode"))

    def max(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "max", kwargs.get("mode"))

    def apply(self, func, **kwargs):
        return self.set(func(self.get()))


def _get_filled(x, idx, fill_value):
    x = asarray_any(x)
    n = x.size
    sel = _scatter_positions(x.shape, idx)
    flat = _shape.reshape(x, (n,))
    safe = ew.min(sel, ew._const(sel, max(n - 1, 0)))
    out = _ix.gather(flat, safe)
    if fill_value is None:
        if dtypes.is_inexact(x.dtype):
            fill_value = np.nan
        elif x.dtype == dtypes.bool_:
            fill_value = True
        elif dtypes.is_unsigned(x.dtype):
            fill_value = np.iinfo(x.dtype).max
        else:
            fill_value = np.iinfo(x.dtype).min
    fill = _shape.full(aval_of(out).shape, fill_value, x.dtype)
    return ew.select_n(ew.eq(sel, ew._const(sel, n)), out, fill)


def _scatter(x, idx, values, mode, idx_mode=None):
    # The result keeps ``x``'s sharding; the flat positions in between have none to speak of.
    x = asarray_any(x)
    return _explicit.keep_sharding(x, _scatter_flat, x, idx, values, mode, idx_mode)


def _scatter_flat(x, idx, values, mode, idx_mode):
    values = asarray_any(values)
    dtype, weak = x.dtype, x.weak_type
    to, to_weak = dtypes.result_type(x, values, return_weak_type_flag=True)
    if to != dtype:
        # As JAX: update in the promoted dtype (int += -1.5 twice is -3), then cast back.
        out = _scatter(conversion.convert_element_type(x, to, to_weak), idx, values, mode, idx_mode)
        return conversion.convert_element_type(out, dtype, weak)
    values = conversion.convert_element_type(values, x.dtype, x.weak_type and values.weak_type)
    # Index the positions with an iota map: gather the flat position of each selected
    # element, then scatter into the flat array (works for every indexing form above).
    # Out-of-bounds updates are dropped, or clamped with ``mode="clip"``.
    _check_static_ints_on_empty_axes(x.shape, idx)
    n = x.size
    if n == 0:
        return x  # nothing to update (any index is out of bounds of an empty array)
    if idx_mode == "clip":
        pos = (
            _shape.reshape(conversion.iota(dtypes.int32, n), x.shape)
            if x.ndim
            else _shape.reshape(conversion.iota(dtypes.int32, 1), ())
        )
        sel = getitem(pos, idx)
    else:
        sel = _scatter_positions(x.shape, idx)
    sel_shape = aval_of(sel).shape
    values = (
        _shape.broadcast_to_rank(values, sel_shape)
        if aval_of(values).shape != sel_shape
        else values
    )
    flat = _shape.reshape(x, (n,))
    m = int(np.prod(sel_shape, dtype=np.int64))
    if m == 0:
        return x  # an empty selection leaves x as it is (JAX skips the scatter)
    values, sel = _shape.reshape(values, (m,)), _shape.reshape(sel, (m,))
    if mode == "mul" and x.dtype != dtypes.bool_ and _unique_by_construction(idx, x.ndim):
        # Basic indices (ints, slices, scalar index arrays) name each position once, which
        # JAX's scatter knows (unique_indices): multiply by a set-scatter of the factors
        # into ones, differentiable in the updates too (a scatter-mul is only where the
        # indices are known to be distinct).
        factors = _ix.scatter(ew.add(ew.zeros_like(flat), ew._const(flat, 1)), values, [sel], "set")
        return _shape.reshape(ew.mul(flat, factors), x.shape)
    out = _ix.scatter(flat, values, [sel], mode)
    return _shape.reshape(out, x.shape)


def _check_static_ints_on_empty_axes(shape, idx):
    """JAX's updates reject a static integer index into a size-0 axis (in every mode)."""
    axis = 0
    for i in _expand_index(idx, len(shape)):
        if i is None:
            continue
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool) and shape[axis] == 0:
            raise IndexError(f"index is out of bounds for axis {axis} with size 0")
        if isinstance(i, (Array, np.ndarray)) and aval_of(i).dtype == dtypes.bool_:
            axis += max(aval_of(i).ndim, 1) if aval_of(i).ndim else 0
        else:
            axis += 1


def _unique_by_construction(idx, ndim):
    """Whether ``idx`` uses basic indexing only (static ints, slices, ``None``,
    ``Ellipsis`` and scalar integer arrays), so that it names each position at most once."""
    for i in _expand_index(idx, ndim):
        if i is None or isinstance(i, slice):
            continue
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool):
            continue
        if isinstance(i, (Array, np.ndarray, Tracer)) and (
            aval_of(i).ndim == 0 and dtypes.is_int(aval_of(i).dtype)
        ):
            continue
        return False
    return True


def _scatter_positions(shape, idx):
    """Flat positions selected by ``idx`` for a scatter: ``getitem`` on an iota map, except
    that out-of-bounds integer indices select a sentinel (``size``) which the scatter drops,
    as JAX drops out-of-bounds updates."""
    total = int(np.prod(shape, dtype=np.int64))
    pos = (
        _shape.reshape(conversion.iota(dtypes.int32, total), shape)
        if shape
        else _shape.reshape(conversion.iota(dtypes.int32, 1), ())
    )
    items = _bool_to_int(_expand_index(idx, len(shape)))
    new_items, pad_axes, axis = [], set(), 0
    for i in items:
        if i is None or isinstance(i, _EmptyIndex):
            new_items.append(i)
            continue
        if isinstance(i, slice):
            new_items.append(i)
            axis += 1
            continue
        n = shape[axis]
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool):
            i = int(i)
            i = i + n if i < 0 else i
            new_items.append(i if 0 <= i < n else n)
            pad_axes.add(axis)
        else:
            arr = asarray_any(i)
            if dtypes.is_int(aval_of(arr).dtype):
                arr = conversion.convert_element_type(arr, dtypes.int32)
                arr = ew.select_n(
                    ew.lt(arr, ew._const(arr, 0)), arr, ew.add(arr, ew._const(arr, n))
                )
                bad = ew.or_(ew.lt(arr, ew._const(arr, 0)), ew.ge(arr, ew._const(arr, n)))
                arr = ew.select_n(bad, arr, ew._const(arr, n))
                pad_axes.add(axis)
            new_items.append(arr)
        axis += 1
    if pad_axes:
        sentinel = ArrayImpl(np.asarray(total, np.int32))
        pos = _shape.pad(
            pos, sentinel, [(0, 1 if a in pad_axes else 0, 0) for a in range(len(shape))]
        )
    return _index(pos, new_items)
