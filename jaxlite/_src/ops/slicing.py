"""Dynamic slicing primitives (their batching rules gather and scatter, so they sit after
the indexing family): dynamic_slice and dynamic_update_slice, with JAX's ``lax`` front
ends (negative start indices count from the end, then starts are clamped so the slice
fits) and the clamp-only forms for callers whose starts are already non-negative."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, check_not_linear, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import Tracer, eval_trace
from jaxlite._src.ops import (
    _native,
    conversion,
    elementwise,
    elementwise as ew,
    indexing,
    reductions,
    structural,
)
from jaxlite._src.ops._factories import deflinear
from jaxlite._src.ops.shape import (
    _is_concrete,
    _shape_of,
    broadcast_batch,
    broadcast_in_dim,
    broadcast_to_rank,
    concatenate,
    full,
    moveaxis,
    reshape,
    squeeze,
    transpose,
)

# --- dynamic_slice -----------------------------------------------------------------------
dynamic_slice_p = Primitive("dynamic_slice")


def _clamp_starts(x_shape, starts, sizes):
    return [int(min(max(int(s), 0), n - k)) for s, n, k in zip(starts, x_shape, sizes)]


def _ds_impl(x, *starts, slice_sizes):
    st = _clamp_starts(x.shape, starts, slice_sizes)
    import builtins

    return x[tuple(builtins.slice(s, s + k) for s, k in zip(st, slice_sizes))]


def _ds_abstract_eval(x, *starts, slice_sizes):
    if len(starts) != x.ndim or len(slice_sizes) != x.ndim:
        raise TypeError(f"dynamic_slice needs {x.ndim} start indices and slice sizes")
    for k, n in zip(slice_sizes, x.shape):
        if not 0 <= k <= n:
            raise TypeError(
                "slice slice_sizes must be less than or equal to operand shape, got "
                f"slice_sizes {tuple(slice_sizes)} for operand shape {x.shape}."
            )
    for s in starts:
        if s.shape != () or not dtypes.is_int(s.dtype):
            raise TypeError("dynamic_slice start indices must be integer scalars")
    return ShapedArray(slice_sizes, x.dtype, x.weak_type)


def _ds_jvp(primals, tangents, *, slice_sizes):
    x, *starts = primals
    out = dynamic_slice_p.bind(x, *starts, slice_sizes=slice_sizes)
    t = tangents[0]
    if type(t) is Zero:
        return out, Zero(aval_of(out).to_tangent_aval())
    return out, dynamic_slice_p.bind(t, *starts, slice_sizes=slice_sizes)


def _ds_transpose(ct, x, *starts, slice_sizes):
    check_not_linear("dynamic_slice", "start indices", *starts)
    if type(ct) is Zero:
        return [Zero(x.aval)] + [None] * len(starts)
    zeros = full(x.aval.shape, 0, x.aval.dtype)
    return [dynamic_update_slice_p.bind(zeros, ct, *starts)] + [None] * len(starts)


def _ds_batch(axis_data, args, dims, *, slice_sizes):
    x, *starts = args
    dx, *dstarts = dims
    if all(d is not_mapped for d in dstarts):
        x = moveaxis(x, dx, 0)
        zero = full((), 0, aval_of(starts[0]).dtype if starts else dtypes.int32)
        return dynamic_slice_p.bind(
            x, zero, *starts, slice_sizes=(_shape_of(x)[0],) + slice_sizes
        ), 0
    # Batched start indices: one gather with per-element window indices.
    logical = _shape_of(x) if dx is not_mapped else _drop(_shape_of(x), dx)
    idxs = _window_indices(axis_data.size, logical, starts, dstarts, slice_sizes)
    if dx is not_mapped:
        return indexing.gather_p.bind(x, *idxs[1:]), 0
    return indexing.gather_p.bind(moveaxis(x, dx, 0), *idxs), 0


def _drop(shape, d):
    return shape[:d] + shape[d + 1 :]


def _window_indices(n, x_shape, starts, dstarts, sizes):
    """Gather/scatter index arrays of shape ``(n, *sizes)`` selecting, for each batch element
    ``b``, the window of ``sizes`` at ``starts[b]`` (clamped to fit, as dynamic_slice does):
    a batch iota first, then one array per operand axis."""
    full_shape = (n,) + tuple(sizes)
    idxs = [conversion.broadcasted_iota(dtypes.int32, full_shape, 0)]
    for j, (st, d, dim, size) in enumerate(zip(starts, dstarts, x_shape, sizes)):
        st = conversion.convert_element_type(st, dtypes.int32)
        st = ew.max(ew.min(st, full((), dim - size, dtypes.int32)), full((), 0, dtypes.int32))
        if d is not_mapped:
            st = broadcast_in_dim(st, full_shape, ())
        else:
            st = broadcast_in_dim(st, full_shape, (0,))
        idxs.append(ew.add(st, conversion.broadcasted_iota(dtypes.int32, full_shape, j + 1)))
    return idxs


rules.impl_rules[dynamic_slice_p] = _ds_impl
rules.native_rules[dynamic_slice_p] = _native.dynamic_slice
rules.native_scalar_rules[dynamic_slice_p] = _native.scalar_dynamic_slice
rules.abstract_eval_rules[dynamic_slice_p] = _ds_abstract_eval
rules.jvp_rules[dynamic_slice_p] = _ds_jvp
rules.transpose_rules[dynamic_slice_p] = _ds_transpose
rules.batch_rules[dynamic_slice_p] = _ds_batch


def clamped_dynamic_slice(x, start_indices, slice_sizes):
    """``dynamic_slice`` for start indices that are already non-negative (internal callers):
    they are clamped so the slice fits. ``jax.lax.dynamic_slice`` is ``dynamic_slice``."""
    starts = [conversion.convert_element_type(_as_index(s), dtypes.int32) for s in start_indices]
    return dynamic_slice_p.bind(x, *starts, slice_sizes=tuple(int(k) for k in slice_sizes))


_WIDE = (np.dtype(np.int64), np.dtype(np.uint32), np.dtype(np.uint64))


def start_index(s, n, normalize=True):
    """A traced start index over an axis of size ``n`` as the int32 operand of
    ``dynamic_slice``/``dynamic_update_slice``, as JAX: a negative start of a signed type
    counts from the end (once, where ``normalize``); a start of a type wider than int32
    (int64, uint32, uint64) is clamped into ``[0, n]`` in its own type first, so a large
    start clamps to the end instead of wrapping around int32."""
    dt = aval_of(s).dtype
    if dt in _WIDE:
        if normalize and dtypes.is_signed(dt):
            s = ew.select_n(ew.lt(s, ew._const(s, 0)), s, ew.add(s, ew._const(s, n)))
        s = ew.min(s, ew._const(s, n))
        if dtypes.is_signed(dt):
            s = ew.max(s, ew._const(s, 0))
        return conversion.convert_element_type(s, dtypes.int32)
    s = conversion.convert_element_type(s, dtypes.int32)
    if normalize:
        s = ew.select_n(ew.lt(s, ew._const(s, 0)), s, ew.add(s, ew._const(s, n)))
    return s


def _as_index(s):
    if isinstance(s, (int, np.integer)):
        return np.int32(s)
    return s


# --- dynamic_update_slice ----------------------------------------------------------------
dynamic_update_slice_p = Primitive("dynamic_update_slice")


def _dus_impl(x, update, *starts):
    import builtins

    st = _clamp_starts(x.shape, starts, update.shape)
    out = np.array(x, copy=True)
    out[tuple(builtins.slice(s, s + k) for s, k in zip(st, update.shape))] = update
    return out


def _dus_abstract_eval(x, update, *starts):
    if x.dtype != update.dtype:
        raise TypeError(
            "lax.dynamic_update_slice requires arguments to have the same dtypes, got "
            f"{np.dtype(x.dtype).name}, {np.dtype(update.dtype).name}."
        )
    if update.ndim != x.ndim:
        raise TypeError(
            "dynamic_update_slice update must have the same rank as operand, got update "
            f"shape {update.shape} for operand shape {x.shape}."
        )
    if any(u > n for u, n in zip(update.shape, x.shape)):
        raise TypeError(
            "dynamic_update_slice update shape must be smaller than operand shape, got "
            f"update shape {update.shape} for operand shape {x.shape}."
        )
    # JAX's standard weak-type rule: weak only if every operand is, the start indices
    # included (its front end makes them strongly typed int32, so the result is not weak).
    weak = x.weak_type and update.weak_type and all(s.weak_type for s in starts)
    return x if weak else x.strip_weak_type()


def _dus_jvp(primals, tangents, **params):
    x, u, *starts = primals
    tx, tu = tangents[0], tangents[1]
    out = dynamic_update_slice_p.bind(x, u, *starts)
    if type(tx) is Zero and type(tu) is Zero:
        return out, Zero(aval_of(out).to_tangent_aval())
    tx, tu = structural.instantiate(tx), structural.instantiate(tu)
    return out, dynamic_update_slice_p.bind(tx, tu, *starts)


def _dus_transpose(ct, x, u, *starts):
    check_not_linear("dynamic_update_slice", "start indices", *starts)
    uaval = u.aval if is_undefined_primal(u) else aval_of(u)
    if type(ct) is Zero:
        return [
            Zero(x.aval) if is_undefined_primal(x) else None,
            Zero(uaval) if is_undefined_primal(u) else None,
        ] + [None] * len(starts)
    ct_x = ct_u = None
    if is_undefined_primal(x):
        ct_x = dynamic_update_slice_p.bind(ct, full(uaval.shape, 0, uaval.dtype), *starts)
    if is_undefined_primal(u):
        ct_u = dynamic_slice_p.bind(ct, *starts, slice_sizes=uaval.shape)
    return [ct_x, ct_u] + [None] * len(starts)


def _dus_batch(axis_data, args, dims):
    x, u, *starts = args
    dx, du, *dstarts = dims
    if all(d is not_mapped for d in dstarts):
        x = broadcast_batch(x, axis_data.size) if dx is not_mapped else moveaxis(x, dx, 0)
        u = broadcast_batch(u, axis_data.size) if du is not_mapped else moveaxis(u, du, 0)
        zero = full((), 0, aval_of(starts[0]).dtype if starts else dtypes.int32)
        out = dynamic_update_slice_p.bind(x, u, zero, *starts)
        # JAX batches it as a scatter, whose result has the operand's weak type.
        xa = aval_of(x)
        return conversion.convert_element_type(out, xa.dtype, xa.weak_type), 0
    # Batched start indices: one scatter of each element's update into its own window.
    n = axis_data.size
    x = broadcast_batch(x, n) if dx is not_mapped else moveaxis(x, dx, 0)
    u = broadcast_batch(u, n) if du is not_mapped else moveaxis(u, du, 0)
    idxs = _window_indices(n, _shape_of(x)[1:], starts, dstarts, _shape_of(u)[1:])
    # (JAX's scatter here promises unique indices: each element updates its own window)
    return indexing.scatter_p.bind(x, u, *idxs, mode="set_unique"), 0


rules.impl_rules[dynamic_update_slice_p] = _dus_impl
rules.native_rules[dynamic_update_slice_p] = _native.dynamic_update_slice
rules.native_scalar_rules[dynamic_update_slice_p] = _native.scalar_dynamic_update_slice
rules.abstract_eval_rules[dynamic_update_slice_p] = _dus_abstract_eval
rules.jvp_rules[dynamic_update_slice_p] = _dus_jvp
rules.transpose_rules[dynamic_update_slice_p] = _dus_transpose
rules.batch_rules[dynamic_update_slice_p] = _dus_batch


def clamped_dynamic_update_slice(x, update, start_indices):
    """``dynamic_update_slice`` for start indices that are already non-negative (internal
    callers); they are clamped. ``jax.lax.dynamic_update_slice`` is ``dynamic_update_slice``."""
    starts = [conversion.convert_element_type(_as_index(s), dtypes.int32) for s in start_indices]
    return dynamic_update_slice_p.bind(x, update, *starts)


# --- the jax.lax front ends -----------------------------------------------------------
def _normalize_starts(shape, start_indices, allow_negative_indices=True, name="dynamic_slice"):
    """JAX's ``lax.dynamic_slice``/``dynamic_update_slice`` front ends: a negative start
    index counts from the end of its axis (once) where ``allow_negative_indices`` (a bool,
    or one per axis) allows it; the primitive then clamps it.

    Raises:
        ValueError: a Python/NumPy integer start below 0 on an axis that does not allow
            negative indices (JAX's message), or a wrong number of start indices.
        TypeError: a start index that is not an integer (a float is never truncated;
            JAX's message).
    """
    starts = list(start_indices)
    kinds = [dtypes.dtype_and_weak_type(s)[0] for s in starts]
    if not all(dtypes.is_int(d) for d in kinds):
        sep = ": " if name == "dynamic_slice" else " "
        raise TypeError(
            f"index arguments to {name} must be integers of the same type, got"
            f"{sep}{', '.join(np.dtype(d).name for d in kinds)}"
        )
    if len(starts) != len(shape):
        raise ValueError(
            "Length of slice indices must match number of operand dimensions "
            f"({len(starts)} vs {tuple(shape)})"
        )
    if isinstance(allow_negative_indices, (bool, np.bool_)):
        allow = [bool(allow_negative_indices)] * len(starts)
    else:
        allow = [bool(a) for a in allow_negative_indices]
        if len(allow) != len(starts):
            raise ValueError(
                f"allow_negative_indices has {len(allow)} entries, but there are "
                f"{len(starts)} start indices (one per operand dimension)"
            )
    out = []
    for s, n, neg in zip(starts, shape, allow):
        if isinstance(s, (int, np.integer)) and not isinstance(s, bool):
            if s < 0 and not neg:
                raise ValueError(
                    f"Index {s} is out of bounds for dimension {n} if allow_negative_indices=False"
                )
            out.append(np.int32(s + n if s < 0 else s))
            continue
        out.append(start_index(s, n, neg))
    return out


def dynamic_slice(operand, start_indices, slice_sizes, *, allow_negative_indices=True):
    """``jax.lax.dynamic_slice``: negative starts count from the end (unless
    ``allow_negative_indices`` is False for that axis), then starts are clamped so the
    slice fits."""
    shape = aval_of(operand).shape
    starts = _normalize_starts(shape, start_indices, allow_negative_indices)
    return clamped_dynamic_slice(operand, starts, slice_sizes)


def dynamic_update_slice(operand, update, start_indices, *, allow_negative_indices=True):
    """``jax.lax.dynamic_update_slice``: negative starts count from the end (unless
    ``allow_negative_indices`` is False for that axis), then clamp."""
    shape = aval_of(operand).shape
    starts = _normalize_starts(shape, start_indices, allow_negative_indices, "dynamic_update_slice")
    return clamped_dynamic_update_slice(operand, update, starts)
