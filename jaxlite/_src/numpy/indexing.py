"""NumPy-style indexing (``x[idx]``) and ``.at[idx]`` updates, over slice/gather/scatter.

Static ints and slices become ``slice``/``squeeze``/``rev``; traced scalar indices become
``dynamic_slice`` (clamped, as in JAX); integer arrays become ``gather``/``scatter``;
boolean masks must be concrete (``NonConcreteBooleanIndexError`` otherwise).
"""

from __future__ import annotations

import warnings

import numpy as np
from jaxlite._src import config as _cfg, dtypes
from jaxlite._src.control_flow.while_loop import while_loop
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.errors import NonConcreteBooleanIndexError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import ones_like
from jaxlite._src.numpy.shape import broadcast_to
from jaxlite._src.numpy.ufuncs import power, true_divide
from jaxlite._src.numpy.util import asarray_any
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    indexing as _ix,
    shape as _shape,
    slicing,
)
from jaxlite._src.sharding import explicit as _explicit


class _EmptyEllipsis:
    """An Ellipsis that stands for no axes: it still separates advanced indices (NumPy)."""


def _expand_index(idx, ndim, keep_empty_ellipsis=False, shape=None):
    """Normalise to a list with Ellipsis expanded (to ``_EmptyEllipsis`` if it stands for
    no axes and ``keep_empty_ellipsis``). Python and NumPy bool scalars become 0-d boolean
    arrays (NumPy's rule, which JAX follows). With ``shape``, boolean masks are checked
    against the axes they index."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    for i in idx:
        if isinstance(i, str):
            raise TypeError(f"JAX does not support string indexing; got idx={i!r}")
    idx = tuple(np.asarray(i) if isinstance(i, (list, bool, np.bool_)) else i for i in idx)
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
    for k, i in enumerate(idx):
        if i is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
            if keep_empty_ellipsis and ndim == consumed:
                out.append(_EmptyEllipsis())
        else:
            if shape is not None and isinstance(i, (Array, np.ndarray)):
                _check_mask_shape(i, k, shape, sum(_axes_taken(j) for j in out))
            out.append(i)
    if n_ell == 0:
        out.extend([slice(None)] * (ndim - consumed))
    return out


def _axes_taken(i):
    """How many axes of the operand an (expanded) index item consumes."""
    if i is None or isinstance(i, _EmptyEllipsis):
        return 0
    if isinstance(i, (Array, np.ndarray)) and aval_of(i).dtype == dtypes.bool_:
        return aval_of(i).ndim
    return 1


def _check_mask_shape(i, k, shape, axis):
    """A boolean mask must have the shape of the axes it indexes (JAX's IndexError)."""
    a = aval_of(i)
    if a.dtype != dtypes.bool_ or a.ndim == 0:
        return
    expected = list(shape[axis : axis + a.ndim])
    if list(a.shape) != expected:
        raise IndexError(
            f"boolean index did not match shape of indexed array in index {k}: "
            f"got {tuple(a.shape)}, expected {expected}"
        )


class _BoolScalar:
    """A 0-d boolean index: NumPy's advanced index over a new axis of size 1 (index
    ``[0]`` if True, ``[]`` if False), so it broadcasts with the other advanced indices."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = bool(value)


def _bool_to_int(items):
    out = []
    for i in items:
        if isinstance(i, (Array, np.ndarray)) and aval_of(i).dtype == dtypes.bool_:
            if isinstance(i, Tracer) and i.to_concrete_value() is None:
                raise NonConcreteBooleanIndexError(i)
            v = np.asarray(i)
            if v.ndim == 0:
                out.append(_BoolScalar(v))
                continue
            out.extend(ArrayImpl(np.asarray(n, np.int32)) for n in np.nonzero(v))
        else:
            out.append(i)
    return out


def _lift_bool_scalars(x, items):
    """Give each 0-d boolean index its new axis of size 1 in ``x`` and make it an integer
    array index into that axis (see ``_BoolScalar``)."""
    if not any(isinstance(i, _BoolScalar) for i in items):
        return x, items
    new_items, axis = [], 0
    for i in items:
        if isinstance(i, _BoolScalar):
            x = _shape.expand_dims(x, (axis,))
            i = ArrayImpl(np.zeros(1 if i.value else 0, np.int32))
        new_items.append(i)
        axis += 0 if i is None or isinstance(i, _EmptyEllipsis) else 1
    return x, new_items


def getitem(x, idx, clip=False):
    """``x[idx]``; ``clip``: the index arrays are clamped into bounds before the gather
    (``x.at[idx].get(mode="clip")``), so its derivative adds clamped positions' cotangents
    where they were taken, where ``x[idx]``'s drops out-of-bounds ones (JAX's
    promise-in-bounds gather forwards clamped values and transposes to a dropping
    scatter)."""
    if isinstance(idx, list):
        raise TypeError(
            "Using a non-tuple sequence for multidimensional indexing is not allowed; use "
            f"`arr[array(seq)]` instead of `arr[seq]`. Got index {idx!r}."
        )
    x = asarray_any(x)
    items = _bool_to_int(_expand_index(idx, x.ndim, keep_empty_ellipsis=True, shape=x.shape))
    x, items = _lift_bool_scalars(x, items)
    if type(x) is not ArrayImpl:
        _explicit.check_index(x, [i for i in items if not isinstance(i, _EmptyEllipsis)])
    return _index(x, items, clip)


def _is_static_int(i):
    return isinstance(i, (int, np.integer)) and not isinstance(i, bool)


def _is_scalar_index(i):
    """A static int, or a 0-d integer array (traced or not)."""
    return _is_static_int(i) or (
        isinstance(i, (Array, np.ndarray, Tracer))
        and aval_of(i).shape == ()
        and dtypes.is_int(aval_of(i).dtype)
    )


def _scalar_into_empty_axis(shape, items):
    # JAX's gather rejects a scalar index into a size-0 axis with IndexError (not a gather
    # slice-size TypeError), unless an index array of one or more dimensions is present
    arrays = [i for i in items if isinstance(i, (Array, np.ndarray, Tracer))]
    if any(aval_of(i).ndim > 0 for i in arrays):
        return
    axis = 0
    for i in items:
        if i is None or isinstance(i, _EmptyEllipsis):
            continue
        if _is_scalar_index(i) and shape[axis] == 0:
            raise IndexError(f"index is out of bounds for axis {axis} with size 0")
        axis += 1


def _use_gather(x, items):
    """Whether JAX indexes with one gather (its third strategy): for any integer array
    index, and for a dynamic scalar index (traced, or a static int out of bounds) next to
    a slice whose step is not 1 or -1 (neither a static slice nor a dynamic_slice can).
    In a gather every scalar index is an advanced index (NumPy's rule: it broadcasts with
    the arrays, which decides where the indexed dimensions go)."""
    dynamic = strided = False
    axis = 0
    for i in items:
        if i is None or isinstance(i, _EmptyEllipsis):
            continue
        if isinstance(i, slice):
            strided |= i.step not in (None, 1, -1)
        elif _is_static_int(i):
            n = x.shape[axis]
            dynamic |= not -n <= int(i) < n
        elif _is_scalar_index(i) and isinstance(i, (Array, Tracer)):
            dynamic = True
        else:
            return True
        axis += 1
    return dynamic and strided


def _index(x, items, clip=False):
    # JAX's strategies: static slices when every index is a static int in bounds, a slice,
    # None or Ellipsis; dynamic_slice (clamped) when scalar indices are traced or out of
    # bounds and every slice has step 1 or -1; a gather otherwise. They show in weak types (a
    # dynamic_slice transposes to a strongly typed dynamic_update_slice).
    gather_mode = _use_gather(x, items)
    if gather_mode:
        _scalar_into_empty_axis(x.shape, items)
    # Pass 1: slices, None, and scalar indices outside a gather; collect advanced indices.
    out = x
    axis = 0
    squeeze_axes = []
    new_axes = []
    slots = []  # per item in the output: "new" (None), "dim" (a kept axis) or "adv"
    advanced = []  # (axis in `out` after basic pass, index array)
    for i in items:
        if i is None:
            # Position in the output: kept input axes so far plus earlier new axes.
            new_axes.append(axis - len(squeeze_axes) + len(new_axes))
            slots.append("new")
            continue
        if isinstance(i, _EmptyEllipsis):
            slots.append("sep")
            continue
        n = out.shape[axis]
        if isinstance(i, slice):
            slots.append("dim")
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
        elif gather_mode and _is_scalar_index(i):
            # In a gather a scalar index is a 0-d advanced index.
            arr = ArrayImpl(np.asarray(int(i), np.int32)) if _is_static_int(i) else i
            advanced.append((axis, asarray_any(arr)))
            slots.append("adv")
            axis += 1
        elif _is_static_int(i) and -n <= int(i) < n:
            i = int(i)
            i = i + n if i < 0 else i
            if n != 1:  # a trivial slice is skipped, as in JAX (it shows in weak types)
                out = _shape.slice_in_dim(out, i, i + 1, 1, axis)
            squeeze_axes.append(axis)
            axis += 1
        elif _is_scalar_index(i) and not isinstance(i, np.ndarray):
            # A traced (or out-of-bounds static) scalar index: dynamic_slice with JAX's
            # clamping (negative wraps once).
            if _is_static_int(i):
                if n == 0:
                    raise IndexError(f"index {int(i)} is out of bounds for axis {axis} with size 0")
                i = ArrayImpl(np.asarray(int(i), np.int32))
            i = slicing.start_index(i, n)
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
            slots.append("adv")
            axis += 1
    if advanced:
        # NumPy's rule: the broadcast index dimensions replace the indexed block where the
        # advanced indices are adjacent in the index (a None between them separates them),
        # else they go first. Every scalar index is advanced here, so nothing is squeezed.
        at = [k for k, sl in enumerate(slots) if sl == "adv"]
        contiguous = at == list(range(at[0], at[-1] + 1))
        out = _advanced(out, advanced, contiguous, clip)
        nb = len(np.broadcast_shapes(*[aval_of(arr).shape for _, arr in advanced]))
        rest = [sl for sl in slots if sl != "adv"]
        layout = (
            slots[: at[0]] + ["adv"] * nb + slots[at[-1] + 1 :]
            if contiguous
            else ["adv"] * nb + rest
        )
        layout = [sl for sl in layout if sl != "sep"]
        new_axes = [k for k, sl in enumerate(layout) if sl == "new"]
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


_WIDE = (np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64))


def int32_index(arr, n):
    """An integer index array as the gather and scatter take it, as JAX: a negative index
    of a signed type counts from the end of its axis (size ``n``), then the index becomes
    int32, wrapping values beyond its range (an int64 ``2**32 + 1`` is 1; a uint32
    ``2**32 - 1`` is -1, out of bounds: clamped by a gather, dropped by a scatter)."""
    if aval_of(arr).dtype in _WIDE:  # normalized in its own type first
        if dtypes.is_signed(aval_of(arr).dtype):
            arr = ew.select_n(ew.lt(arr, ew._const(arr, 0)), arr, ew.add(arr, ew._const(arr, n)))
        return conversion.convert_element_type(arr, dtypes.int32)
    arr = conversion.convert_element_type(arr, dtypes.int32)
    return ew.select_n(ew.lt(arr, ew._const(arr, 0)), arr, ew.add(arr, ew._const(arr, n)))


def _advanced(x, advanced, contiguous, clip=False):
    """``x`` gathered at the advanced indices ``[(axis, index array)]``; the broadcast index
    dimensions go where the indexed axes were if ``contiguous``, else first. ``clip``: the
    (normalized) indices are clamped into bounds first."""
    axes = [a for a, _ in advanced]
    rest = [i for i in range(x.ndim) if i not in axes]
    index_shape = np.broadcast_shapes(*[aval_of(a).shape for _, a in advanced])
    if 0 in index_shape or any(x.shape[i] == 0 for i in rest):
        # An empty result: no gather (JAX skips it, so its slice-size check on an empty
        # indexed axis does not apply); the caller makes it a constant.
        at = axes[0] if contiguous else 0
        shape = [x.shape[i] for i in rest]
        return _shape.full(tuple(shape[:at]) + index_shape + tuple(shape[at:]), 0, x.dtype)
    idxs = []
    for a, arr in advanced:
        n = x.shape[a]
        arr = int32_index(arr, n)
        if clip:
            arr = ew.max(ew.min(arr, ew._const(arr, n - 1)), ew._const(arr, 0))
        idxs.append(arr)
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
        mode = _check_mode(mode)
        if mode in ("fill", "drop"):
            return _explicit.apply_out_sharding(
                _get_filled, out_sharding, self.array, self.index, fill_value
            )
        return _explicit.apply_out_sharding(
            getitem, out_sharding, self.array, self.index, mode == "clip"
        )

    def set(self, values, **kwargs):
        kind = "set_unique" if kwargs.get("unique_indices") else "set"
        return _scatter(self.array, self.index, values, kind, kwargs.get("mode"))

    def add(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "add", kwargs.get("mode"))

    def subtract(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "sub", kwargs.get("mode"))

    def multiply(self, values, **kwargs):
        return _scatter(self.array, self.index, values, _mul(kwargs), kwargs.get("mode"))

    mul = multiply

    def divide(self, values, **kwargs):
        # As JAX: ``x`` divided by the product of the updates scattered into ones of x's
        # dtype (an exact division where each position is named once; integer ``x`` gives
        # a float result, its divisors cast to x's dtype first).
        x = asarray_any(self.array)
        return true_divide(
            x, _scatter(ones_like(x), self.index, values, _mul(kwargs), kwargs.get("mode"))
        )

    def power(self, values, **kwargs):
        # As JAX: ``x`` to the power of the product of the updates scattered into ones.
        x = asarray_any(self.array)
        return power(
            x, _scatter(ones_like(x), self.index, values, _mul(kwargs), kwargs.get("mode"))
        )

    def min(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "min", kwargs.get("mode"))

    def max(self, values, **kwargs):
        return _scatter(self.array, self.index, values, "max", kwargs.get("mode"))

    def apply(self, func, **kwargs):
        """``x.at[idx].apply(func)``: ``func`` (elementwise) applied to the selected
        elements, once per occurrence of a position in the index. As JAX's
        ``scatter_apply``: not differentiable (``NotImplementedError`` under
        ``jvp``/``grad``), and an empty selection returns ``x`` without calling ``func``."""
        mode = kwargs.get("mode")
        x = asarray_any(self.array)
        if 0 in aval_of(_scatter_positions(x.shape, self.index)).shape:
            return x
        index = self.index

        @custom_jvp
        def scatter_apply(x):
            if _unique_by_construction(index, x.ndim):
                return _IndexUpdateRef(x, index).set(func(getitem(x, index)), mode=mode)
            # A position named k times becomes func^k(x).
            counts = _scatter(_shape.full(x.shape, 0, dtypes.int32), index, 1, "add", mode)
            most = reductions.max(counts) if counts.size else 0

            def body(carry):
                j, z = carry
                new = conversion.convert_element_type(asarray_any(func(z)), x.dtype, x.weak_type)
                return j + 1, ew.select_n(ew.gt(counts, ew._const(counts, j)), z, new)

            return while_loop(lambda carry: carry[0] < most, body, (0, x))[1]

        @scatter_apply.defjvp
        def _refuse(primals, tangents):
            raise NotImplementedError("scatter_apply JVP not implemented")

        return scatter_apply(x)


def _mul(kwargs):
    """The scatter mode of a product update: ``"mul_unique"`` where the caller promises
    ``unique_indices=True`` (JAX then differentiates it by the updates too; repeated
    indices break the promise and give an unspecified result)."""
    return "mul_unique" if kwargs.get("unique_indices") else "mul"


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


_MODES = (None, "clip", "drop", "fill", "promise_in_bounds")


_ENUM_MODES = {"CLIP": "clip", "FILL_OR_DROP": "fill", "PROMISE_IN_BOUNDS": "promise_in_bounds"}


def _check_mode(mode):
    """JAX's gather/scatter modes, as strings (a ``GatherScatterMode`` is accepted);
    GatherScatterMode.from_any's ValueError otherwise."""
    mode = _ENUM_MODES.get(getattr(mode, "name", None), mode)
    if mode not in _MODES:
        raise ValueError(f'Unknown gather mode "{mode}"')
    return mode


def _scatter(x, idx, values, mode, idx_mode=None):
    # The result keeps ``x``'s sharding; the flat positions in between have none to speak of.
    idx_mode = _check_mode(idx_mode)
    x = asarray_any(x)
    return _explicit.keep_sharding(x, _scatter_flat, x, idx, values, mode, idx_mode)


def _scatter_flat(x, idx, values, mode, idx_mode):
    # JAX's order: index errors; an empty selection returns ``x`` before the updates are
    # looked at (their shape and dtype); the updates are promoted with ``x`` and broadcast
    # to the selection (ValueError); then the scatter's own dtype check.
    values = asarray_any(values)
    _warn_unsafe_cast(values, x.dtype)
    _check_static_ints_on_empty_axes(x.shape, idx)
    if x.size and idx_mode == "clip":
        idx = _clip_wide_scalars(x.shape, idx)
        pos = (
            _shape.reshape(conversion.iota(dtypes.int32, x.size), x.shape)
            if x.ndim
            else _shape.reshape(conversion.iota(dtypes.int32, 1), ())
        )
        sel = getitem(pos, idx)
    else:
        sel = _scatter_positions(x.shape, idx)
    if 0 in aval_of(sel).shape:
        return x  # an empty selection leaves x as it is (JAX skips the scatter)
    dtype, weak = x.dtype, x.weak_type
    to, to_weak = dtypes.result_type(x, values, return_weak_type_flag=True)
    if to != dtype:
        # As JAX: update in the promoted dtype (int += -1.5 twice is -3), then cast back.
        out = _scatter_sel(conversion.convert_element_type(x, to, to_weak), idx, sel, values, mode)
        return conversion.convert_element_type(out, dtype, weak)
    return _scatter_sel(x, idx, sel, values, mode)


def _clip_wide_scalars(shape, idx):
    """``idx`` with its scalar indices of types wider than int32 made the in-bounds int32
    a clipping scatter uses, as JAX: normalized in their own type, wrapped to int32, then
    clamped (an int64 ``2**63 - 1`` is -1 there: position 0). Other indices are left to
    the positions' gather (a dynamic slice would clamp a wide scalar in its own type)."""
    items = _expand_index(idx, len(shape))
    wide = [
        isinstance(i, (Array, Tracer)) and aval_of(i).ndim == 0 and aval_of(i).dtype in _WIDE
        for i in items
    ]
    if not any(wide) or any(
        isinstance(i, (Array, Tracer, np.ndarray)) and aval_of(i).dtype == dtypes.bool_
        for i in items
    ):
        return idx
    out, axis = [], 0
    for i, w in zip(items, wide):
        if i is None:
            out.append(i)
            continue
        if w:
            n = shape[axis]
            i = int32_index(i, n)
            i = ew.max(ew.min(i, ew._const(i, max(n - 1, 0))), ew._const(i, 0))
        out.append(i)
        axis += 1
    return tuple(out)


def _warn_unsafe_cast(values, dtype):
    """JAX's ``FutureWarning`` for updates that promote with ``x``'s dtype (taken as strong)
    to another dtype (a float into integers, an int into bools); under strict promotion
    the promotion itself raises, as in JAX."""
    if values.dtype != dtype and dtypes.result_type(values, dtype) != dtype:
        promotion = _cfg.config.read("jax_numpy_dtype_promotion")
        warnings.warn(
            "scatter inputs have incompatible types: cannot safely cast value from "
            f"dtype={values.dtype.name} to dtype={dtype.name} with "
            f"jax_numpy_dtype_promotion={promotion}. In future JAX releases this will "
            "result in an error.",
            FutureWarning,
            stacklevel=6,
        )


def _scatter_sel(x, idx, sel, values, mode):
    """Scatter ``values`` into ``x`` (of their promoted dtype) at the flat positions
    ``sel`` (a non-empty selection; out-of-bounds positions are ``x.size``)."""
    sel_shape = aval_of(sel).shape
    if aval_of(values).shape != sel_shape:
        values = broadcast_to(values, sel_shape)
    unique = mode == "mul_unique"
    mode = "mul" if unique else mode
    if mode == "set" and _unique_by_construction(idx, x.ndim):
        mode = "set_unique"  # JAX's indexer knows basic indices name each position once
    if x.dtype == dtypes.bool_ and mode in ("add", "mul", "sub"):
        # JAX's scatter_add/scatter_mul/scatter_sub take no booleans (a bool ``x`` with bool
        # updates stays bool after promotion).
        raise TypeError(
            f"{mode} does not accept dtype bool at position 0. Accepted dtypes at position 0 "
            "are subtypes of integer, floating, complexfloating."
        )
    values = conversion.convert_element_type(values, x.dtype, x.weak_type and values.weak_type)
    if mode == "sub":
        # negated in x's dtype: a bool update of an integer x is an integer by now
        values, mode = ew.neg(values), "add"
    # The positions come from an iota map: the flat position of each selected element is
    # gathered, then the updates are scattered into the flat array (works for every
    # indexing form). Out-of-bounds updates are dropped, or clamped with ``mode="clip"``.
    n = x.size
    if n == 0:
        return x  # nothing to update (any index is out of bounds of an empty array)
    flat = _shape.reshape(x, (n,))
    m = int(np.prod(sel_shape, dtype=np.int64))
    values, sel = _shape.reshape(values, (m,)), _shape.reshape(sel, (m,))
    if (
        mode == "mul"
        and x.dtype != dtypes.bool_
        and (unique or _unique_by_construction(idx, x.ndim))
    ):
        # Basic indices (ints, slices, scalar index arrays) name each position once, which
        # JAX's scatter knows (unique_indices), as do indices the caller promises unique
        # (``unique_indices=True``): multiply by a set-scatter of the factors
        # into ones, differentiable in the updates too (a scatter-mul is only where the
        # indices are known to be distinct).
        ones = ew.add(ew.zeros_like(flat), ew._const(flat, 1))
        factors = _ix.scatter(ones, values, [sel], "set_unique")
        return _shape.reshape(ew.mul(flat, factors), x.shape)
    out = _ix.scatter(flat, values, [sel], mode)
    return _shape.reshape(out, x.shape)


def _check_static_ints_on_empty_axes(shape, idx):
    """JAX's updates reject a scalar integer index (a static int or a 0-d integer array,
    traced or not) into a size-0 axis, in every mode, unless the index also has an array
    of one or more dimensions: then the ints are advanced indices, and out-of-bounds
    positions are simply dropped."""
    items = _expand_index(idx, len(shape))
    arrays = [i for i in items if isinstance(i, (Array, np.ndarray, Tracer))]
    if any(aval_of(i).ndim > 0 for i in arrays):
        return
    axis = 0
    for i in items:
        if i is None:
            continue
        if isinstance(i, (Array, np.ndarray, Tracer)) and aval_of(i).dtype == dtypes.bool_:
            continue  # a 0-d mask adds an axis and consumes none
        scalar = isinstance(i, (int, np.integer)) and not isinstance(i, bool)
        scalar = scalar or isinstance(i, (Array, np.ndarray, Tracer))
        if scalar and shape[axis] == 0:
            raise IndexError(f"index is out of bounds for axis {axis} with size 0")
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
    items = _bool_to_int(_expand_index(idx, len(shape), keep_empty_ellipsis=True, shape=shape))
    pos, items = _lift_bool_scalars(pos, items)
    shape = aval_of(pos).shape
    new_items, pad_axes, axis = [], set(), 0
    for i in items:
        if i is None or isinstance(i, _EmptyEllipsis):
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
                arr = int32_index(arr, n)
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
