"""``jax.lax`` functions built from other lax operations: ``ragged_dot`` and
``ragged_dot_general`` (grouped matrix products), ``mulhi``, ``approx_max_k``/``approx_min_k``
(exact on CPU, as in JAX), ``batch_matmul``, ``broadcast_to_rank``, ``broadcast_like``,
``tile``, ``index_take``, ``scatter_apply``, ``empty``, ``dtype``, ``platform_dependent``, the
convolution patch extractors (``conv_general_dilated_patches``,
``conv_general_dilated_local``) and the shape helpers (``conv_shape_tuple`` and friends).

Each is a composition, so jit, vmap and the derivatives come from the primitives used.
Where JAX refuses a transformation (``scatter_apply`` has no JVP) jaxlite refuses it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.control_flow.while_loop import while_loop
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of, canonicalize_shape
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy.util import asarray_any, with_weak_type
from jaxlite._src.ops import (
    bitcast,
    conversion,
    convolution,
    elementwise as ew,
    gather_scatter as gs,
    lax_api as L,
    lax_strict,
    lax_types,
    linalg,
    reductions,
    shape as _sh,
    sorting,
    windowed,
)
from jaxlite._src.ops._factories import broadcast_shapes_lax
from jaxlite._src.ops.precision import check_precision


class RaggedDotDimensionNumbers(NamedTuple):
    """``jax.lax.RaggedDotDimensionNumbers``: the dot dimension numbers
    ``((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))``, the lhs dimension that is
    split into groups, and the rhs dimension that indexes the groups (empty when the ragged
    dimension is contracting or a batch dimension)."""

    dot_dimension_numbers: tuple
    lhs_ragged_dimensions: Sequence[int]
    rhs_group_dimensions: Sequence[int]


def _group_ids(group_sizes, n: int):
    # For each of n positions along the ragged dimension, the index of its group (G for
    # positions past the sum of the group sizes, which no group covers).
    ends = lax_strict.cumsum(group_sizes, 0)
    pos = conversion.iota(aval_of(ends).dtype, n)
    shape = (n, aval_of(ends).shape[0])
    ge = L.ge(_sh.broadcast_in_dim(pos, shape, (0,)), _sh.broadcast_in_dim(ends, shape, (1,)))
    return reductions.reduce_sum(conversion.convert_element_type(ge, np.int32), (1,))


def _mask_along(x, axis: int, keep):
    # Zero x outside positions where keep (a bool vector along axis) holds.
    keep = _sh.broadcast_in_dim(keep, aval_of(x).shape, (axis,))
    return ew.select_n(keep, _sh.full(aval_of(x).shape, 0, aval_of(x).dtype), x)


def ragged_dot_general(
    lhs,
    rhs,
    group_sizes,
    ragged_dot_dimension_numbers: RaggedDotDimensionNumbers,
    precision=None,
    preferred_element_type=None,
    group_offset=None,
    out_sharding=None,
):
    """``jax.lax.ragged_dot_general``: a ``dot_general`` whose lhs ragged dimension is split
    into consecutive groups of ``group_sizes[g]`` positions.

    Three modes, by where the ragged dimension sits:
      * non-contracting (rhs has a group dimension): each group of lhs positions is
        multiplied by its own slice of rhs; positions past ``sum(group_sizes)`` give zeros.
      * contracting: one product per group over that group's positions only, stacked on a
        new leading dimension of size ``G``.
      * batch: the ordinary ``dot_general`` (as in JAX).

    Args:
      lhs, rhs: arrays (the product is computed in their promoted dtype).
      group_sizes: integer array ``[G]``.
      ragged_dot_dimension_numbers: a ``RaggedDotDimensionNumbers``.
      preferred_element_type: the result dtype, as for ``dot_general``.
      group_offset: not supported (JAX 0.10.2 cannot take it either).

    Raises:
      TypeError: non-integer ``group_sizes``, or a group dimension of the wrong size.
      NotImplementedError: ``group_offset`` given, or several ragged dimensions.
    """
    check_precision(precision)
    del precision, out_sharding
    if group_offset is not None:
        raise NotImplementedError("ragged_dot_general: group_offset is not supported")
    lhs, rhs, group_sizes = to_array(lhs), to_array(rhs), to_array(group_sizes)
    if not dtypes.issubdtype(aval_of(group_sizes).dtype, np.integer):
        raise TypeError(
            "ragged_dot_general requires that group_sizes.dtype is subtype of np.integer."
        )
    dn = ragged_dot_dimension_numbers
    (lc, rc), (lb, rb) = dn.dot_dimension_numbers
    lc, rc, lb, rb = (tuple(int(i) for i in d) for d in (lc, rc, lb, rb))
    ragged = [int(d) for d in dn.lhs_ragged_dimensions]
    groups = [int(d) for d in dn.rhs_group_dimensions]
    if len(ragged) != 1 or len(groups) > 1 or aval_of(group_sizes).ndim != 1:
        raise NotImplementedError(
            "ragged_dot_general: exactly one lhs ragged dimension, at most one rhs group "
            "dimension and a 1-D group_sizes are supported"
        )
    r = ragged[0] % aval_of(lhs).ndim
    ng = aval_of(group_sizes).shape[0]
    gid = _group_ids(group_sizes, aval_of(lhs).shape[r])

    def dot(a, b, dims):
        return linalg.dot_general(a, b, dims, preferred_element_type=preferred_element_type)

    if r in lb:
        return dot(lhs, rhs, ((lc, rc), (lb, rb)))
    if r in lc:
        if groups:
            raise TypeError(
                "ragged_dot_general: a contracting ragged dimension takes no group dimension"
            )
        outs = [
            dot(_mask_along(lhs, r, L.eq(gid, np.int32(g))), rhs, ((lc, rc), (lb, rb)))
            for g in range(ng)
        ]
        return _sh.concatenate([_sh.expand_dims(o, (0,)) for o in outs], 0)
    if not groups:
        raise TypeError(
            "ragged_dot_general: a non-contracting ragged dimension needs an rhs group dimension"
        )
    gd = groups[0] % aval_of(rhs).ndim
    if aval_of(rhs).shape[gd] != ng:
        raise TypeError(
            f"expected rhs group dimension size to be {ng}, got {aval_of(rhs).shape[gd]}."
        )
    # The rhs dimension numbers once the group dimension is sliced away.
    shift = lambda ds: tuple(d - (d > gd) for d in ds)  # noqa: E731
    dims = ((lc, shift(rc)), (lb, shift(rb)))
    n_batch, n_lfree = len(lb), aval_of(lhs).ndim - len(lb) - len(lc)
    # Where the ragged dimension lands in the output: after the batch dims, at its rank
    # among lhs's free dimensions.
    out_r = n_batch + sorted(d for d in range(aval_of(lhs).ndim) if d not in lb + lc).index(r)
    del n_lfree
    total = None
    for g in range(ng):
        rhs_g = _sh.squeeze(_sh.slice_in_dim(rhs, g, g + 1, 1, gd), (gd,))
        part = _mask_along(dot(lhs, rhs_g, dims), out_r, L.eq(gid, np.int32(g)))
        total = part if total is None else L.add(total, part)
    if total is None:  # no groups: every position is past the (empty) groups
        shape = aval_of(dot(lhs, _sh.squeeze(_sh.slice_in_dim(rhs, 0, 0, 1, gd), (gd,)), dims))
        return _sh.full(shape.shape, 0, shape.dtype)
    return total


def ragged_dot(
    lhs,
    rhs,
    group_sizes,
    precision=None,
    preferred_element_type=None,
    group_offset=None,
    out_sharding=None,
):
    """``jax.lax.ragged_dot``: ``out[i] = lhs[i] @ rhs[g(i)]`` for ``lhs [m, k]``,
    ``rhs [G, k, n]`` and ``group_sizes [G]``, where rows ``0..group_sizes[0]-1`` form group 0,
    the next ``group_sizes[1]`` rows group 1, and so on. Rows past ``sum(group_sizes)`` are
    zero. Returns ``[m, n]``.

    Raises:
      TypeError: non-integer group sizes, or ``rhs.shape[0] != len(group_sizes)``.
    """
    check_precision(precision)
    dn = RaggedDotDimensionNumbers(((([1], [1])), ([], [])), [0], [0])
    return ragged_dot_general(
        lhs, rhs, group_sizes, dn, precision, preferred_element_type, group_offset, out_sharding
    )


def mulhi(x, y, /):
    """``jax.lax.mulhi``: the high half of the double-width product of two integers of the
    same dtype (``(x * y) >> bits``, arithmetic for signed types).

    Raises:
      TypeError: non-integer operands, or operands of different dtypes.
    """
    x, y = to_array(x), to_array(y)
    L.check_accepted("mulhi", (("integer",), ("integer",)), x, y)
    L.check_same_dtypes("mulhi", None, x, y)
    # weak when both operands are, as JAX's elementwise primitives
    weak = aval_of(x).weak_type and aval_of(y).weak_type
    dt = np.dtype(aval_of(x).dtype)
    shape = broadcast_shapes_lax("mulhi", (aval_of(x).shape, aval_of(y).shape))
    x, y = (_sh.broadcast_to_rank(a, shape) for a in (x, y))
    # The product's high word from half-width limbs in the unsigned type of the same width
    # (no wider type is needed, so 32- and 64-bit operands work with or without x64), then
    # for signed operands hi_s = hi_u - (x < 0 ? y : 0) - (y < 0 ? x : 0)  (mod 2**bits).
    u = np.dtype(f"u{dt.itemsize}")
    xu, yu = (bitcast.bitcast_convert_type(a, u) if dt.kind == "i" else a for a in (x, y))
    h, mask = u.type(4 * dt.itemsize), u.type((1 << (4 * dt.itemsize)) - 1)
    x0, x1 = L.bitwise_and(xu, mask), L.shift_right_logical(xu, h)
    y0, y1 = L.bitwise_and(yu, mask), L.shift_right_logical(yu, h)
    t = L.add(L.mul(x1, y0), L.shift_right_logical(L.mul(x0, y0), h))
    w1 = L.add(L.bitwise_and(t, mask), L.mul(x0, y1))
    hi = L.add(L.add(L.mul(x1, y1), L.shift_right_logical(t, h)), L.shift_right_logical(w1, h))
    if dt.kind == "u":
        return with_weak_type(hi, weak)
    zero = _sh.full(shape, 0, u)
    hi = L.sub(hi, ew.select_n(L.lt(x, dt.type(0)), zero, yu))
    hi = L.sub(hi, ew.select_n(L.lt(y, dt.type(0)), zero, xu))
    return with_weak_type(bitcast.bitcast_convert_type(hi, dt), weak)


def _check_k(operand, k: int, dim: int):
    n = aval_of(operand).shape[dim]
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    if k > n:
        raise ValueError(f"k must be smaller than the size of reduction_dim {n}, got {k}")


def _approx_k(operand, k, reduction_dimension, aggregate_to_topk, largest: bool, name: str):
    # Exact, as JAX's CPU backend: a stable sort in which 0.0 and -0.0 tie (unlike top_k's
    # total order), the values and their indices riding along as passengers.
    x = to_array(operand)
    dt = aval_of(x).dtype
    if not dtypes.is_float(dt):
        raise ValueError("operand must be a floating type")
    if not aggregate_to_topk:
        raise NotImplementedError(f"{name} with aggregate_to_topk=False is not implemented")
    nd = aval_of(x).ndim
    if not -nd <= int(reduction_dimension) < nd:
        raise IndexError(
            f"reduction_dimension {reduction_dimension} is out of bounds for rank {nd}"
        )
    dim = int(reduction_dimension) % nd
    k = canonicalize_shape((k,))[0]  # a float k is JAX's TypeError, never truncated
    _check_k(x, k, dim)
    iota = conversion.broadcasted_iota(np.int32, aval_of(x).shape, dim)
    key = ew.add(x, _sh.full((), 0, dt))  # -0.0 + 0.0 is 0.0: the zeros tie
    # Ties go to the lowest index, except for k = 1, where JAX's CPU reduction keeps the
    # last of the equal best values (approx_max_k([2, 5, 5, 1], 1) is index 2).
    tie = (ew.neg(iota),) if k == 1 else ()
    if largest:  # descending, NaN first (as top_k)
        not_nan = conversion.convert_element_type(ew.eq(x, x), np.int32)
        keys = (not_nan, ew.neg(key)) + tie
        outs = sorting.sort(keys + (x, iota), dimension=dim, num_keys=len(keys))
    else:  # ascending, NaN last
        keys = (key,) + tie
        outs = sorting.sort(keys + (x, iota), dimension=dim, num_keys=len(keys))
    vals, idx = (_sh.slice_in_dim(v, 0, k, 1, dim) for v in outs[-2:])
    # JAX's indices take the operand's weak type (its abstract rule updates the dtype only)
    return [vals, conversion.convert_element_type(idx, np.int32, aval_of(x).weak_type)]


def _check_tuning(recall_target, reduction_input_size_override):
    # Unused on CPU, but JAX writes them into its custom call as attributes
    number = (int, float, np.integer, np.floating)
    sorting.check_attribute("recall_target", recall_target, number, "a number")
    sorting.check_attribute(
        "reduction_input_size_override", reduction_input_size_override, number, "a number"
    )


def approx_max_k(
    operand,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
):
    """``jax.lax.approx_max_k``: the ``k`` largest values along ``reduction_dimension`` and
    their indices. On CPU JAX computes them exactly, and so does jaxlite (``recall_target``
    and ``reduction_input_size_override`` only tune accelerator searches).

    Returns:
      ``[values, indices]`` with ``reduction_dimension`` of size ``k``; indices int32.

    Raises:
      ValueError: a non-float operand, or ``k`` outside ``[0, n]``.
      NotImplementedError: ``aggregate_to_topk=False``.
    """
    _check_tuning(recall_target, reduction_input_size_override)
    return _approx_k(operand, k, reduction_dimension, aggregate_to_topk, True, "approx_max_k")


def approx_min_k(
    operand,
    k: int,
    reduction_dimension: int = -1,
    recall_target: float = 0.95,
    reduction_input_size_override: int = -1,
    aggregate_to_topk: bool = True,
):
    """``jax.lax.approx_min_k``: the ``k`` smallest values (NaN last) and their indices,
    exact as on JAX's CPU backend. See ``approx_max_k``."""
    _check_tuning(recall_target, reduction_input_size_override)
    return _approx_k(operand, k, reduction_dimension, aggregate_to_topk, False, "approx_min_k")


def batch_matmul(lhs, rhs, precision=None):
    """``jax.lax.batch_matmul``: ``lhs [..., m, k] @ rhs [..., k, n]`` with equal leading
    batch dimensions (no broadcasting).

    Raises:
      ValueError: an operand of rank below 2, or operands of different ranks.
      TypeError: batch dimensions of different sizes (from ``dot_general``).
    """
    check_precision(precision)
    del precision
    lhs, rhs = to_array(lhs), to_array(rhs)
    ln, rn = aval_of(lhs).ndim, aval_of(rhs).ndim
    if min(ln, rn) < 2:
        raise ValueError(f"Arguments to batch_matmul must be at least 2D, got {ln}, {rn}")
    if ln != rn:
        raise ValueError(f"Arguments to batch_matmul must have same ndim, got {ln}, {rn}")
    batch = tuple(range(ln - 2))
    return linalg.dot_general(lhs, rhs, (((ln - 1,), (rn - 2,)), (batch, batch)))


def broadcast_to_rank(x, rank: int):
    """``jax.lax.broadcast_to_rank``: prepend size-1 dimensions until ``x`` has ``rank``
    dimensions (unchanged if it has at least that many)."""
    x = to_array(x)
    nd = aval_of(x).ndim
    if nd >= rank:
        return x
    return _sh.broadcast_to_rank(x, (1,) * (rank - nd) + aval_of(x).shape)


def broadcast_like(arr, like_arr):
    """``jax.lax.broadcast_like``: ``arr`` broadcast (NumPy-style) to ``like_arr``'s shape
    (``like_arr`` may be any value with a type: an array, a scalar, a
    ``ShapeDtypeStruct``).

    Raises:
      ValueError: ``arr`` has more dimensions than ``like_arr``, or a dimension that is
        neither 1 nor ``like_arr``'s (JAX's messages).
    """
    arr = to_array(arr)
    a = aval_of(arr)
    if isinstance(like_arr, ShapeDtypeStruct):  # typed like its aval, as in JAX
        shape = tuple(like_arr.shape)
    else:
        shape = tuple(aval_of(to_array(like_arr)).shape)
    if a.shape == shape:
        return arr
    if len(shape) < len(a.shape):
        raise ValueError(
            f"Cannot broadcast to shape with fewer dimensions: arr_shape={a.shape} shape={shape}"
        )
    lead = len(shape) - len(a.shape)
    if any(d not in (1, t) for d, t in zip(a.shape, shape[lead:])):
        name = np.dtype(a.dtype).name

        def show(weak, dims):
            return f"{'~' if weak else ''}{name}[{','.join(map(str, dims))}]"

        raise ValueError(
            f"Incompatible types for broadcasting: input type={show(a.weak_type, a.shape)} "
            f"and requested type={show(False, shape)}"
        )
    return _sh.broadcast_to_rank(arr, shape)


def tile(operand, reps: Sequence[int]):
    """``jax.lax.tile``: repeat ``operand`` ``reps[i]`` times along each dimension.

    Raises:
      TypeError: ``len(reps) != operand.ndim``.
    """
    x = to_array(operand)
    shape = aval_of(x).shape
    reps = tuple(int(r) for r in reps)
    if len(reps) != len(shape):
        raise TypeError(
            "reps length must be equal to the ndim of x, got "
            f"len(reps)={len(reps)} and x.ndim={len(shape)}."
        )
    # [r0, s0, r1, s1, ...] by broadcasting, then merged pairwise.
    inter = tuple(v for r, s in zip(reps, shape) for v in (r, s))
    b = _sh.broadcast_in_dim(x, inter, tuple(range(1, 2 * len(shape), 2)))
    return _sh.reshape(b, tuple(r * s for r, s in zip(reps, shape)))


def index_take(src, idxs, axes: Sequence[int]):
    """``jax.lax.index_take``: ``src[idxs[0], idxs[1], ...]`` along ``axes`` (one index
    array per axis, all of the same shape), the remaining axes kept after the index shape.
    Negative indices count from the end; indices still out of bounds are clamped (as JAX)."""
    src = to_array(src)
    idxs = [to_array(i) for i in idxs]
    axes = tuple(int(a) for a in axes)
    if list(axes) != sorted(axes):
        raise TypeError(f"collapsed_slice_dims in gather op must be sorted; got {axes}")
    if len(idxs) != len(axes):
        raise ValueError(f"index_take: {len(idxs)} index arrays for {len(axes)} axes")
    n_b = aval_of(idxs[0]).ndim
    # Negative indices count from the end (as in JAX); the rest is clamped.
    idxs = [
        ew.select_n(ew.lt(i, ew._const(i, 0)), i, ew.add(i, ew._const(i, aval_of(src).shape[a])))
        for i, a in zip(idxs, axes)
    ]
    indices = _sh.concatenate([_sh.expand_dims(i, (n_b,)) for i in idxs], n_b)
    offset_dims = tuple(range(n_b, n_b + aval_of(src).ndim - len(axes)))
    dnums = gs.GatherDimensionNumbers(
        offset_dims=offset_dims, collapsed_slice_dims=axes, start_index_map=axes
    )
    slice_sizes = tuple(1 if d in axes else n for d, n in enumerate(aval_of(src).shape))
    return gs.gather(src, indices, dnums, slice_sizes, mode="clip")


def scatter_apply(
    operand,
    scatter_indices,
    func: Callable,
    dimension_numbers,
    *,
    update_shape=(),
    indices_are_sorted: bool = False,
    unique_indices: bool = False,
    mode=None,
):
    """``jax.lax.scatter_apply``: ``func`` applied to the elements of ``operand`` that the
    scatter windows name, once per occurrence (an element named k times becomes
    ``func^k(x)``). ``update_shape`` is the shape the updates of a ``scatter`` with these
    indices would have. JAX has no JVP for it; neither has jaxlite.

    Raises:
      NotImplementedError: under ``jvp``/``grad``.
    """
    operand, scatter_indices = to_array(operand), to_array(scatter_indices)

    @custom_jvp
    def apply(x):
        ones = lax_types.full(tuple(update_shape), 1, np.int32)
        zeros = lax_types.full(aval_of(x).shape, 0, np.int32)
        counts = gs.scatter_add(zeros, scatter_indices, ones, dimension_numbers, mode=mode)
        most = reductions.reduce_max(counts, tuple(range(aval_of(counts).ndim)))

        def body(carry):
            j, z = carry
            new = conversion.convert_element_type(asarray_any(func(z)), aval_of(x).dtype)
            return j + 1, ew.select_n(ew.gt(counts, j), z, new)

        return while_loop(lambda c: c[0] < most, body, (np.int32(0), x))[1]

    @apply.defjvp
    def _apply_jvp(primals, tangents):
        raise NotImplementedError("scatter_apply JVP not implemented")

    return apply(operand)


def empty(shape, dtype, *, out_sharding=None):
    """``jax.lax.empty``: an array of ``shape`` and ``dtype`` whose contents are unspecified
    (zeros here, as JAX gives on CPU)."""
    del out_sharding
    return lax_types.full(tuple(shape), 0, dtype)


def dtype(x):
    """``jax.lax.dtype``: the canonical dtype of an array, scalar or dtype-like ``x``
    (``lax.dtype(1.0)`` and ``lax.dtype(float)`` are float32, float64 under x64).

    Raises:
      TypeError: ``x`` is not an array, scalar or dtype (lists and tuples included, as JAX).
      ValueError: ``x`` is None.
    """
    if x is None:
        raise ValueError("Invalid argument to dtype: None.")
    if type(x) in (bool, int, float, complex):
        return dtypes.canonicalize_dtype(type(x))
    base = dtypes.python_scalar_base(type(x))
    if base is not None:  # an IntEnum member, a float subclass: its built-in base's dtype
        return dtypes.canonicalize_dtype(base)
    if isinstance(x, (str, type, np.dtype)):
        return dtypes.canonicalize_dtype(np.dtype(x))
    dt = getattr(getattr(x, "aval", None), "dtype", None)
    if dt is None:
        dt = getattr(x, "dtype", None)
    if dt is None:
        raise TypeError(f"Cannot determine dtype of {x}")
    return dtypes.canonicalize_dtype(dt)


def platform_dependent(*args, default=None, **per_platform):
    """``jax.lax.platform_dependent``: call ``per_platform['cpu'](*args)`` (jaxlite's only
    platform) or, if absent, ``default(*args)``.

    Raises:
      NotImplementedError: neither a ``cpu`` branch nor a ``default`` is given.
    """
    fn = per_platform.get("cpu", default)
    if fn is None:
        raise NotImplementedError(
            "platform_dependent: no branch for platform cpu (the only platform of jaxlite) "
            f"and no default; given: {sorted(per_platform)}"
        )
    return fn(*args)


# ------------------------------------------------------------------ convolution helpers
def conv_general_permutations(dimension_numbers):
    """``jax.lax.conv_general_permutations``: for string dimension numbers
    ``(lhs_spec, rhs_spec, out_spec)``, the permutations that bring each operand to the
    canonical ``NC...``/``OI...``/``NC...`` layout (spatial dimensions in rhs_spec's order)."""
    lhs_s, rhs_s, out_s = dimension_numbers
    if not all(isinstance(s, str) for s in dimension_numbers):
        raise TypeError(
            f"conv_general_permutations: string specs expected, got {dimension_numbers}"
        )
    return convolution._specs_from_strings(lhs_s, rhs_s, out_s)


def _out_spatial(in_sp, k_sp, strides, pads):
    return tuple(
        max(0, (n + lo + hi - k) // s + 1) if n + lo + hi >= k else 0
        for n, k, s, (lo, hi) in zip(in_sp, k_sp, strides, pads)
    )


def conv_shape_tuple(lhs_shape, rhs_shape, strides, pads, batch_group_count: int = 1):
    """``jax.lax.conv_shape_tuple``: the output shape of a convolution in the canonical
    layout (lhs ``NC...``, rhs ``OI...``), for ``strides`` and ``pads`` ((lo, hi) pairs or
    ``"SAME"``/``"VALID"``).

    Raises:
      TypeError: operands of different ranks, or ``pads``/``strides`` of the wrong length.
    """
    lhs_shape, rhs_shape = tuple(int(d) for d in lhs_shape), tuple(int(d) for d in rhs_shape)
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError(
            f"conv_shape_tuple: lhs and rhs must have the same rank, got {lhs_shape} and "
            f"{rhs_shape}"
        )
    nsp = len(lhs_shape) - 2
    strides = tuple(int(s) for s in strides)
    if isinstance(pads, str):
        pads = convolution.padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    pads = [tuple(int(p) for p in pair) for pair in pads]
    if len(pads) != nsp or len(strides) != nsp:
        raise TypeError(
            f"conv_shape_tuple: {nsp} spatial dimensions need {nsp} strides and padding "
            f"pairs, got {strides} and {pads}"
        )
    spatial = _out_spatial(lhs_shape[2:], rhs_shape[2:], strides, pads)
    return (lhs_shape[0] // int(batch_group_count), rhs_shape[0]) + spatial


def _permuted(shape, perm):
    return tuple(int(shape[i]) for i in perm)


def conv_general_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers):
    """``jax.lax.conv_general_shape_tuple``: the output shape of
    ``conv_general_dilated(lhs, rhs, window_strides, padding, dimension_numbers=...)``
    (no dilation) for operands of these shapes."""
    lspec, rspec, ospec = convolution.conv_dimension_numbers(
        lhs_shape, rhs_shape, dimension_numbers
    )
    out = conv_shape_tuple(
        _permuted(lhs_shape, lspec), _permuted(rhs_shape, rspec), window_strides, padding
    )
    return tuple(out[i] for i in np.argsort(ospec))


def conv_transpose_shape_tuple(lhs_shape, rhs_shape, window_strides, padding, dimension_numbers):
    """``jax.lax.conv_transpose_shape_tuple``: the output shape of ``conv_transpose`` with
    these operand shapes, strides, padding (``"SAME"``, ``"VALID"`` or (lo, hi) pairs of the
    transposed convolution) and dimension numbers."""
    lspec, rspec, ospec = convolution.conv_dimension_numbers(
        lhs_shape, rhs_shape, dimension_numbers
    )
    lt, rt = _permuted(lhs_shape, lspec), _permuted(rhs_shape, rspec)
    strides = tuple(int(s) for s in window_strides)
    if isinstance(padding, str):
        padding = [
            convolution._conv_transpose_padding(k, s, padding) for k, s in zip(rt[2:], strides)
        ]
    totals = [int(lo) + int(hi) for lo, hi in padding]
    spatial = tuple((n - 1) * s - k + 2 + p for n, k, s, p in zip(lt[2:], rt[2:], strides, totals))
    out = (lt[0], rt[0]) + spatial
    return tuple(out[i] for i in np.argsort(ospec))


def reduce_window_shape_tuple(
    operand_shape,
    window_dimensions,
    window_strides,
    padding,
    base_dilation=None,
    window_dilation=None,
):
    """``jax.lax.reduce_window_shape_tuple``: the output shape of ``reduce_window`` over an
    operand of ``operand_shape`` with explicit (lo, hi) ``padding`` pairs and optional base
    and window dilations."""
    shape = tuple(int(d) for d in operand_shape)
    if base_dilation is not None:
        shape = tuple(windowed._dilate_len(n, int(d)) for n, d in zip(shape, base_dilation))
    dims = tuple(int(d) for d in window_dimensions)
    if window_dilation is not None:
        dims = tuple(windowed._dilate_len(k, int(d)) for k, d in zip(dims, window_dilation))
    pads = [tuple(int(p) for p in pair) for pair in padding]
    return _out_spatial(shape, dims, tuple(int(s) for s in window_strides), pads)


def conv_general_dilated_patches(
    lhs,
    filter_shape: Sequence[int],
    window_strides: Sequence[int],
    padding,
    lhs_dilation=None,
    rhs_dilation=None,
    dimension_numbers=None,
    precision=None,
    preferred_element_type=None,
):
    """``jax.lax.conv_general_dilated_patches``: the receptive-field patches of a
    convolution, flattened into the output feature dimension in ``(C, *filter_shape)``
    order (size ``C * prod(filter_shape)``); spatial dimensions as the convolution's output.

    Built as a convolution with a one-hot kernel, so every transformation of
    ``conv_general_dilated`` applies.
    """
    check_precision(precision)
    del precision
    lhs = to_array(lhs)
    nd = aval_of(lhs).ndim
    lspec, rspec, ospec = convolution.conv_dimension_numbers(
        aval_of(lhs).shape, (0,) * nd, dimension_numbers
    )
    c = aval_of(lhs).shape[lspec[1]]
    fs = tuple(int(k) for k in filter_shape)
    size = int(np.prod(fs)) * c
    # Kernel OI<spatial>, O = C * prod(fs), I = C: output feature (ci, *pos) picks input
    # channel ci at window position pos.
    eye = np.eye(size, dtype=np.dtype(aval_of(lhs).dtype)).reshape((size, c) + fs)
    rhs = _sh.transpose(to_array(eye), tuple(int(i) for i in np.argsort(rspec)))
    return convolution.conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        dimension_numbers,
        preferred_element_type=preferred_element_type,
    )


def conv_general_dilated_local(
    lhs,
    rhs,
    window_strides: Sequence[int],
    padding,
    filter_shape: Sequence[int],
    lhs_dilation=None,
    rhs_dilation=None,
    dimension_numbers=None,
    precision=None,
):
    """``jax.lax.conv_general_dilated_local``: an unshared ("locally connected")
    convolution: each output spatial position has its own kernel.

    Args:
      lhs: input, rank ``n+2``.
      rhs: kernels, rank ``n+2``: its spatial dimensions index the *output* positions, its
        ``I`` dimension is the flattened ``(C, *filter_shape)`` receptive field (the order of
        ``conv_general_dilated_patches``), ``O`` the output features.
      filter_shape: the receptive window, ``n`` integers.

    Returns:
      The output in ``dimension_numbers``' output layout.
    """
    check_precision(precision)
    lhs, rhs = to_array(lhs), to_array(rhs)
    patches = conv_general_dilated_patches(
        lhs, filter_shape, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers
    )
    nd = aval_of(lhs).ndim
    lspec, rspec, ospec = convolution.conv_dimension_numbers(
        aval_of(lhs).shape, aval_of(rhs).shape, dimension_numbers
    )
    # Contract the patch features with rhs's I; pair output spatial dims with rhs's spatial
    # dims as batch dimensions.
    dims = (((ospec[1],), (rspec[1],)), (tuple(ospec[2:]), tuple(rspec[2:])))
    out = linalg.dot_general(patches, rhs, dims)  # [*spatial, N, O]
    nsp = nd - 2
    canon = _sh.transpose(out, (nsp, nsp + 1) + tuple(range(nsp)))  # N, O, *spatial
    return _sh.transpose(canon, tuple(int(i) for i in np.argsort(ospec)))
