"""Segment reductions (``jax.ops.segment_sum`` and friends) as scatters.

Each one starts from an array of the reduction's identity, ``num_segments`` rows long,
and scatters the rows of ``data`` into it with ``lax.scatter_add``/``mul``/``max``/``min``
at the rows named by ``segment_ids``. Everything else (jit, vmap, jvp/grad, the share of
the gradient that tied maxima get) comes from the scatter primitives' own rules.

Indices are *not* wrapped: a negative id is out of bounds, dropped by default
(``mode="fill"``, JAX's default here) or clamped to 0 with ``mode="clip"``.

``bucket_size`` splits the ids into buckets of that many, reduces each bucket separately
and combines the buckets with the same reduction (as JAX does); it changes the order of
floating-point sums, not the meaning.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.api import vmap
from jaxlite._src.core.trace import concrete_or_error
from jaxlite._src.numpy import reductions
from jaxlite._src.numpy.creation import full
from jaxlite._src.numpy.padding import pad
from jaxlite._src.numpy.shape import broadcast_to, reshape
from jaxlite._src.numpy.util import asarray_any, check_arraylike
from jaxlite._src.ops import gather_scatter as gs
from jaxlite._src.ops.gather_scatter import ScatterDimensionNumbers

_SCATTERS = {
    "sum": gs.scatter_add,
    "prod": gs.scatter_mul,
    "max": gs.scatter_max,
    "min": gs.scatter_min,
}
_COMBINE = {
    "sum": reductions.sum,
    "prod": reductions.prod,
    "max": reductions.max,
    "min": reductions.min,
}


def _identity(kind: str, dtype) -> Any:
    """The value empty segments get: 0, 1, or the lowest/highest value of ``dtype``."""
    if kind == "sum":
        return 0
    if kind == "prod":
        return 1
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return kind == "min"
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return info.min if kind == "max" else info.max
    return -np.inf if kind == "max" else np.inf


def _num_segments(segment_ids, num_segments):
    if num_segments is None:
        ids = concrete_or_error(segment_ids, "segment_sum() `num_segments` argument.")
        if ids.size == 0:
            raise ValueError("zero-size array to reduction operation max which has no identity")
        return int(np.max(ids)) + 1
    n = concrete_or_error(num_segments, "segment_sum() `num_segments` argument.")
    n = operator.index(n.item() if isinstance(n, np.ndarray) and n.ndim == 0 else n)
    if n < 0:
        raise ValueError("num_segments must be non-negative.")
    return n


def _scatter_rows(kind, data, segment_ids, num_segments, sorted_, unique, mode):
    if segment_ids.ndim == 0 and data.ndim:
        raise ValueError(
            "Cannot broadcast to shape with fewer dimensions: a scalar segment id takes a "
            f"scalar datum, got data of shape {data.shape}"
        )
    out = full((num_segments, *data.shape[1:]), _identity(kind, data.dtype), data.dtype)
    if 0 in segment_ids.shape + data.shape[1:]:
        return out  # an empty selection: JAX skips the scatter (the result is a constant)
    if data.ndim and segment_ids.shape != data.shape[:1]:
        raise ValueError(
            "Incompatible types for broadcasting: segment_ids of shape "
            f"{segment_ids.shape} do not index the leading axes of data of shape {data.shape}"
        )
    dnums = ScatterDimensionNumbers(
        update_window_dims=tuple(range(segment_ids.ndim, data.ndim)),
        inserted_window_dims=(0,),
        scatter_dims_to_operand_dims=(0,),
    )
    return _SCATTERS[kind](
        out,
        reshape(segment_ids, (*segment_ids.shape, 1)),
        data,
        dnums,
        indices_are_sorted=sorted_,
        unique_indices=unique,
        mode=mode,
    )


def _segment(kind, name, data, segment_ids, num_segments, sorted_, unique, bucket_size, mode):
    check_arraylike(name, data, segment_ids)
    data, segment_ids = asarray_any(data), asarray_any(segment_ids)
    if not (dtypes.issubdtype(segment_ids.dtype, np.integer) or segment_ids.dtype == np.bool_):
        raise TypeError(
            f"Indexer must have integer or boolean type, got indexer with type {segment_ids.dtype}"
        )
    if segment_ids.ndim > 1:
        raise ValueError(
            f"{name}: segment_ids must be a scalar or one-dimensional, "
            f"got shape {segment_ids.shape}"
        )
    if kind in ("sum", "prod") and data.dtype == np.bool_:
        op = "add" if kind == "sum" else "mul"
        raise TypeError(
            f"{op} does not accept dtype bool at position 0. Accepted dtypes at position 0 "
            "are subtypes of integer, floating, complexfloating."
        )
    mode = "fill" if mode is None else gs._mode_name(mode)
    if mode not in ("fill", "clip", "promise"):
        raise ValueError(f'Unknown gather mode "{mode}"')
    num_segments = _num_segments(segment_ids, num_segments)
    n = segment_ids.size
    if segment_ids.ndim == 1 and (data.ndim == 0 or (data.shape[0] == 1 and n != 1)):
        # JAX scatters ``data`` into ``out.at[segment_ids]`` (shape ``(n, *out.shape[1:])``),
        # so a scalar or a single row is broadcast to every id.
        data = broadcast_to(data, (n, *data.shape[1:]))
    num_buckets = 1 if bucket_size is None else -(-n // operator.index(bucket_size))
    if num_buckets == 1 or segment_ids.ndim == 0:
        return _scatter_rows(kind, data, segment_ids, num_segments, sorted_, unique, mode)
    if bucket_size < 0:
        raise TypeError(f"bucket_size must be positive, got {bucket_size}")
    # Pad the ids with an out-of-range id (dropped) up to whole buckets; in "clip" mode a
    # padded row would land in the last segment, so it carries the identity instead.
    extra = num_buckets * bucket_size - n
    ids = pad(segment_ids, (0, extra), constant_values=num_segments)
    rows = pad(
        data,
        [(0, extra)] + [(0, 0)] * (data.ndim - 1),
        constant_values=_identity(kind, data.dtype),
    )
    ids = reshape(ids, (num_buckets, bucket_size))
    rows = reshape(rows, (num_buckets, bucket_size, *data.shape[1:]))
    per_bucket = vmap(lambda d, i: _scatter_rows(kind, d, i, num_segments, sorted_, unique, mode))(
        rows, ids
    )
    return _COMBINE[kind](per_bucket, axis=0)


def _doc(kind: str, what: str, empty: str) -> str:
    _bool_note = ", boolean data" if kind in ("sum", "prod") else ""
    return f"""The {what} of each segment of ``data`` (mirrors ``jax.ops.segment_{kind}``).

    Args:
      data: array; its rows (leading axis) are reduced by segment. A scalar or a single
        row is broadcast to every id, as JAX does.
      segment_ids: integer array of shape ``data.shape[:1]`` (or a scalar) naming each
        row's segment. Ids need not be sorted; ids outside ``[0, num_segments)``, negative
        ones included, are dropped (or clamped with ``mode="clip"``).
      num_segments: the number of segments, a concrete int; ``max(segment_ids) + 1`` when
        None (which needs concrete ids).
      indices_are_sorted, unique_indices: promises passed on to the scatter.
      bucket_size: reduce buckets of this many rows separately, then combine them.
      mode: ``"fill"``/``"drop"`` (default), ``"clip"`` or ``"promise_in_bounds"``, or a
        ``lax.GatherScatterMode``.
      out_sharding: accepted for JAX's signature; jaxlite computes on the logical value.

    Returns:
      An array of shape ``(num_segments, *data.shape[1:])`` and ``data``'s dtype; empty
      segments hold {empty}.

    Raises:
      TypeError: non-array arguments, non-integer ids{_bool_note}.
      ValueError: a negative ``num_segments``, ids that do not match ``data``'s rows.
      ConcretizationTypeError: ``num_segments`` (or, when it is None, the ids) traced.
    """


def _make(kind: str, what: str, empty: str):
    name = f"segment_{kind}"

    def segment(
        data,
        segment_ids,
        num_segments: int | None = None,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        bucket_size: int | None = None,
        mode=None,
        out_sharding=None,
    ):
        return _segment(
            kind,
            name,
            data,
            segment_ids,
            num_segments,
            indices_are_sorted,
            unique_indices,
            bucket_size,
            mode,
        )

    segment.__name__ = segment.__qualname__ = name
    segment.__doc__ = _doc(kind, what, empty)
    return segment


segment_sum = _make("sum", "sum", "0")
segment_prod = _make("prod", "product", "1")
segment_max = _make("max", "maximum", "``-inf`` (the dtype's lowest value for integers)")
segment_min = _make("min", "minimum", "``inf`` (the dtype's highest value for integers)")
