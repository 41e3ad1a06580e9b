"""Shape primitives: broadcast_in_dim, reshape, transpose, squeeze, rev, concatenate, pad,
slice. All are linear. (The dynamic slices, whose batching rules gather and scatter, are in
``slicing``.)"""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import (
    ShapedArray,
    aval_of,
    canonicalize_shape,
    check_allocation,
    check_nonnegative_shape,
    fits_in_memory,
)
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import Tracer, eval_trace, new_array, staged_constant, trace_ctx
from jaxlite._src.ops import _native, conversion
from jaxlite._src.ops._factories import deflinear


def _shape_of(x):
    return aval_of(x).shape


# --- broadcast_in_dim ----------------------------------------------------------------------
broadcast_in_dim_p = Primitive("broadcast_in_dim")


def _bid_impl(x, *, shape, broadcast_dimensions):
    s = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        s[d] = x.shape[i]
    return broadcast_view(x, s, shape)


def broadcast_view(x, s, shape):
    """``broadcast_in_dim``'s result: ``x`` reshaped to ``s`` (its axes in place, size 1
    where it broadcasts) as a read-only view of ``shape``."""
    r = x.reshape(s) if type(x) is np.ndarray else np.reshape(x, s)
    if r.size == 0 or r.dtype.hasobject or not r.flags.c_contiguous:
        return np.broadcast_to(r, shape)
    # np.broadcast_to's read-only zero-stride view, built directly (it costs ~10x less).
    strides = tuple(0 if a != b else st for a, b, st in zip(s, shape, r.strides))
    out = np.ndarray(shape, r.dtype, r, 0, strides)
    out.flags.writeable = False
    return out


def _bid_abstract_eval(x, *, shape, broadcast_dimensions):
    check_nonnegative_shape(shape, "broadcast_in_dim")
    if len(broadcast_dimensions) != x.ndim:
        raise TypeError(
            f"broadcast_in_dim broadcast_dimensions must have length equal to operand ndim; "
            f"got broadcast_dimensions {broadcast_dimensions} for operand ndim {x.ndim}."
        )
    for i, d in enumerate(broadcast_dimensions):
        if not (0 <= d < len(shape)) or x.shape[i] not in (1, shape[d]):
            raise TypeError(
                f"broadcast_in_dim operand dimension sizes must either be 1, or be equal to "
                f"their corresponding dimensions in the target broadcast shape; got operand "
                f"of shape {x.shape}, target broadcast shape {shape}, broadcast_dimensions "
                f"{broadcast_dimensions}"
            )
    return ShapedArray(shape, x.dtype, x.weak_type)


def _bid_transpose(ct, x, *, shape, broadcast_dimensions):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    from jaxlite._src.ops import reductions

    unit_dims = tuple(
        i for i, d in enumerate(broadcast_dimensions) if x.aval.shape[i] == 1 and shape[d] != 1
    )
    bdims = tuple(d for i, d in enumerate(broadcast_dimensions) if i not in unit_dims)
    sum_dims = tuple(d for d in range(len(shape)) if d not in bdims)
    out = reductions.reduce_sum(ct, sum_dims) if sum_dims else ct
    if out.shape != x.aval.shape:
        out = reshape(out, x.aval.shape)
    return [out]


def _bid_batch(axis_data, args, dims, *, shape, broadcast_dimensions):
    (x,), (d,) = args, dims
    x = moveaxis(x, d, 0)
    new_shape = (_shape_of(x)[0],) + tuple(shape)
    new_bd = (0,) + tuple(b + 1 for b in broadcast_dimensions)
    return broadcast_in_dim_p.bind(x, shape=new_shape, broadcast_dimensions=new_bd), 0


rules.impl_rules[broadcast_in_dim_p] = _bid_impl
rules.native_rules[broadcast_in_dim_p] = _native.broadcast_in_dim
rules.native_scalar_rules[broadcast_in_dim_p] = _native.scalar_broadcast_in_dim
rules.abstract_eval_rules[broadcast_in_dim_p] = _bid_abstract_eval
rules.batch_rules[broadcast_in_dim_p] = _bid_batch
deflinear(broadcast_in_dim_p, _bid_transpose)


def broadcast_in_dim(operand, shape, broadcast_dimensions, *, out_sharding=None):
    """``jax.lax.broadcast_in_dim``; ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            broadcast_in_dim, out_sharding, operand, shape, broadcast_dimensions
        )
    shape = tuple(int(s) for s in shape)
    broadcast_dimensions = tuple(int(d) for d in broadcast_dimensions)
    if not isinstance(operand, Tracer):
        if not shape and isinstance(operand, ArrayImpl):
            return operand  # a 0-d array as it is, as JAX returns it
        # Constants are broadcast now, not staged (keeps jaxprs small, like JAX's literals);
        # while a jaxpr is staged the result is a tracer, as JAX's.
        return staged_constant(
            broadcast_in_dim_p.bind_with_trace(
                eval_trace, (operand,), dict(shape=shape, broadcast_dimensions=broadcast_dimensions)
            )
        )
    if (
        _shape_of(operand) == shape
        and broadcast_dimensions == tuple(range(len(shape)))
        and hasattr(operand, "aval")
    ):
        return operand
    return broadcast_in_dim_p.bind(operand, shape=shape, broadcast_dimensions=broadcast_dimensions)


def broadcast(operand, sizes, *, out_sharding=None):
    """``jax.lax.broadcast``: prepend dimensions of the given sizes."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(broadcast, out_sharding, operand, sizes)
    len(sizes)  # an int is JAX's TypeError ("object of type 'int' has no len()")
    sizes = canonicalize_shape(sizes)  # float sizes: JAX's TypeError, never truncated
    if not sizes and isinstance(operand, ArrayImpl):
        return operand  # nothing to prepend: JAX returns the array itself
    nd = len(_shape_of(operand))
    return broadcast_in_dim(
        operand, sizes + _shape_of(operand), tuple(range(len(sizes), len(sizes) + nd))
    )


def broadcast_to_rank(x, shape):
    """NumPy-style broadcast of ``x`` to ``shape`` (trailing alignment)."""
    xs = _shape_of(x)
    nd = len(shape)
    return broadcast_in_dim(x, shape, tuple(range(nd - len(xs), nd)))


def broadcast_batch(x, size: int):
    """Give an unbatched value a leading batch axis of ``size``."""
    return broadcast(x, (size,))


def zero_strong(x):
    """Strongly typed zeros in ``x``'s shape and dtype (JAX's NumPy-constant zeros)."""
    a = aval_of(x)
    return full(a.shape, 0, a.dtype)


def full(shape, fill_value, dtype, weak_type: bool = False):
    """An array of ``shape`` filled with a scalar."""
    dtype = dtype if dtypes.is_extended(dtype) else np.dtype(dtype)
    if hasattr(fill_value, "aval") and not _is_concrete(fill_value):
        v = conversion.convert_element_type(fill_value, dtype, weak_type)
        return broadcast(v, tuple(shape))
    v = np.asarray(fill_value)
    if dtypes.is_extended(dtype):  # a record of key data: every field takes the value
        v = np.asarray(v, dtype=dtype)
    elif v.dtype != dtype:
        if isinstance(fill_value, complex) and dtypes.is_int(dtype):
            int(fill_value)  # JAX's TypeError: "int() argument must be ... not 'complex'"
        elif isinstance(fill_value, complex) and dtypes.is_float(dtype):
            float(fill_value)  # "float() argument must be a string or a real number, ..."
        # XLA's conversion, as JAX's lax.full (float -> int saturates, NaN -> 0).
        v = np.asarray(conversion.convert_value(v, dtype))
    shape = canonicalize_shape(shape)
    check_nonnegative_shape(shape, "broadcast_in_dim")  # as JAX's full (a broadcast)
    aval = ShapedArray(shape, dtype, weak_type)
    if not fits_in_memory(aval):
        # A broadcast view costs nothing now, but everything computed from it would be as
        # big. Eagerly that is an error now; under a trace (eval_shape, jit) the value is
        # staged, so shapes can still be computed and compiling it raises.
        if trace_ctx.trace is eval_trace:
            check_allocation([aval], "full")
        scalar = ArrayImpl(v, ShapedArray((), dtype, weak_type))
        return broadcast_in_dim_p.bind(scalar, shape=tuple(shape), broadcast_dimensions=())
    return ArrayImpl(np.broadcast_to(v, tuple(shape)), aval)


def _is_concrete(x):
    return type(x) is ArrayImpl


# --- reshape -----------------------------------------------------------------------------
reshape_p = Primitive("reshape")


def _reshape_abstract_eval(x, *, new_sizes, dimensions):
    if int(np.prod(new_sizes, dtype=np.int64)) != x.size:
        raise TypeError(
            f"reshape total size must be unchanged, got new_sizes {new_sizes} for shape {x.shape}."
        )
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


def _reshape_transpose(ct, x, *, new_sizes, dimensions):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    return [reshape(ct, x.aval.shape)]


def _reshape_batch(axis_data, args, dims, *, new_sizes, dimensions):
    (x,), (d,) = args, dims
    x = moveaxis(x, d, 0)
    return reshape_p.bind(x, new_sizes=(_shape_of(x)[0],) + new_sizes, dimensions=None), 0


rules.impl_rules[reshape_p] = lambda x, *, new_sizes, dimensions: np.reshape(x, new_sizes)
rules.native_rules[reshape_p] = _native.reshape
rules.native_scalar_rules[reshape_p] = _native.scalar_same_order
rules.abstract_eval_rules[reshape_p] = _reshape_abstract_eval
rules.batch_rules[reshape_p] = _reshape_batch
deflinear(reshape_p, _reshape_transpose)


def reshape(operand, new_sizes, dimensions=None, *, out_sharding=None):
    """``jax.lax.reshape`` (row-major); ``out_sharding``: the result's sharding (for
    reshapes of sharded dimensions the Explicit-mode rule cannot type, S8.3)."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            reshape, out_sharding, operand, new_sizes, dimensions
        )
    new_sizes = canonicalize_shape(new_sizes)  # a float size is JAX's TypeError
    if dimensions is not None:
        operand = transpose(operand, tuple(operator.index(d) for d in dimensions))
    if _shape_of(operand) == new_sizes and hasattr(operand, "aval"):
        # JAX returns the array itself, except a 0-d one (a new array; tracers stay as
        # they are, so no equation is staged).
        return operand if new_sizes else new_array(operand)
    return reshape_p.bind(operand, new_sizes=new_sizes, dimensions=None)


# --- transpose ---------------------------------------------------------------------------
transpose_p = Primitive("transpose")


def _transpose_abstract_eval(x, *, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise TypeError(
            f"transpose permutation isn't a permutation of operand dimensions, "
            f"got permutation {permutation} for operand shape {x.shape}."
        )
    return ShapedArray(tuple(x.shape[i] for i in permutation), x.dtype, x.weak_type)


def _transpose_transpose(ct, x, *, permutation):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    return [transpose(ct, tuple(np.argsort(permutation)))]


def _transpose_batch(axis_data, args, dims, *, permutation):
    (x,), (d,) = args, dims
    perm = (d,) + tuple(p if p < d else p + 1 for p in permutation)
    return transpose_p.bind(x, permutation=perm), 0


rules.impl_rules[transpose_p] = lambda x, *, permutation: np.transpose(x, permutation)
rules.native_rules[transpose_p] = _native.transpose
rules.native_scalar_rules[transpose_p] = _native.scalar_transpose
rules.abstract_eval_rules[transpose_p] = _transpose_abstract_eval
rules.batch_rules[transpose_p] = _transpose_batch
deflinear(transpose_p, _transpose_transpose)


def transpose(operand, permutation):
    """``jax.lax.transpose``."""
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and hasattr(operand, "aval"):
        # the shortcut must not skip the check (a short permutation is an error, as in JAX)
        _transpose_abstract_eval(operand.aval, permutation=permutation)
        return operand
    return transpose_p.bind(operand, permutation=permutation)


def moveaxis(x, src: int, dst: int):
    nd = len(_shape_of(x))
    src, dst = src % nd, dst % nd
    if src == dst:
        return x
    perm = [i for i in range(nd) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


# --- squeeze -----------------------------------------------------------------------------
squeeze_p = Primitive("squeeze")


def _squeeze_abstract_eval(x, *, dimensions):
    for d in dimensions:
        if x.shape[d] != 1:
            raise ValueError(
                f"cannot select an axis to squeeze out which has size not equal "
                f"to one, got shape={x.shape} and dimensions={dimensions}"
            )
    return ShapedArray(
        tuple(s for i, s in enumerate(x.shape) if i not in dimensions), x.dtype, x.weak_type
    )


def _squeeze_batch(axis_data, args, dims, *, dimensions):
    (x,), (d,) = args, dims
    x = moveaxis(x, d, 0)
    return squeeze_p.bind(x, dimensions=tuple(a + 1 for a in dimensions)), 0


rules.impl_rules[squeeze_p] = lambda x, *, dimensions: np.squeeze(x, dimensions)
rules.native_rules[squeeze_p] = _native.squeeze
rules.native_scalar_rules[squeeze_p] = _native.scalar_same_order
rules.abstract_eval_rules[squeeze_p] = _squeeze_abstract_eval
rules.batch_rules[squeeze_p] = _squeeze_batch
deflinear(
    squeeze_p,
    lambda ct, x, *, dimensions: [Zero(x.aval) if type(ct) is Zero else reshape(ct, x.aval.shape)],
)


def _check_dims(dimensions, nd):
    # an out-of-range axis is an error (as JAX), never taken modulo the rank
    for d in dimensions:
        if not -nd <= operator.index(d) < nd:  # a float axis is a TypeError, as JAX
            raise ValueError(f"axis {int(d)} is out of bounds for array of dimension {nd}")


def squeeze(array, dimensions):
    nd = len(_shape_of(array))
    _check_dims(dimensions, nd)
    dimensions = tuple(sorted(int(d) % nd for d in dimensions))
    if not dimensions and isinstance(array, Array):
        return array  # JAX returns an array itself (host data is converted)
    return squeeze_p.bind(array, dimensions=dimensions)


def expand_dims(array, dimensions):
    # repeats are refused as given, then after canonicalization (as JAX's messages show)
    if len(set(dimensions)) != len(dimensions):
        raise ValueError(f"repeated axis in lax.expand_dims: {dimensions}")
    shape = list(_shape_of(array))
    nd = len(shape) + len(dimensions)
    _check_dims(dimensions, nd)
    dims = [int(d) % nd for d in dimensions]
    if len(set(dims)) != len(dims):
        raise ValueError(f"repeated axis in lax.expand_dims: {dims}")
    if not dims and hasattr(array, "aval"):  # JAX: a 0-d array itself, else a new array
        return array if not shape else new_array(array)
    for d in sorted(dims):
        shape.insert(d, 1)
    return reshape(array, shape)


# --- rev ---------------------------------------------------------------------------------
rev_p = Primitive("rev")
rules.impl_rules[rev_p] = lambda x, *, dimensions: np.flip(x, dimensions) if dimensions else x
rules.native_rules[rev_p] = _native.rev
rules.native_scalar_rules[rev_p] = _native.scalar_rev


def _rev_abstract_eval(x, *, dimensions):
    if any(d < 0 for d in dimensions):
        raise TypeError(f"rev dimensions must have every element be nonnegative, got {dimensions}.")
    if any(d >= x.ndim for d in dimensions):
        raise TypeError(
            "rev dimensions must all be less than operand ndim, got dimensions "
            f"{dimensions} for operand ndim {x.ndim}."
        )
    if len(set(dimensions)) != len(dimensions):
        raise TypeError(f"rev dimensions must be unique, got {dimensions}.")
    return x


rules.abstract_eval_rules[rev_p] = _rev_abstract_eval
rules.batch_rules[rev_p] = lambda ad, args, dims, *, dimensions: (
    rev_p.bind(args[0], dimensions=tuple(a + (a >= dims[0]) for a in dimensions)),
    dims[0],
)
deflinear(
    rev_p,
    lambda ct, x, *, dimensions: [
        Zero(x.aval) if type(ct) is Zero else rev_p.bind(ct, dimensions=dimensions)
    ],
)


def rev(operand, dimensions):
    return rev_p.bind(operand, dimensions=tuple(int(d) for d in dimensions))


# --- concatenate -------------------------------------------------------------------------
concatenate_p = Primitive("concatenate")


def _concat_abstract_eval(*xs, dimension):
    if len({x.dtype for x in xs}) != 1:
        raise TypeError(
            "concatenate requires arguments to have the same dtypes, got "
            + ", ".join(dtypes.short_name(x.dtype) for x in xs)
            + "."
        )
    s0 = xs[0].shape
    if len({len(x.shape) for x in xs}) != 1:
        raise TypeError(
            "Cannot concatenate arrays with different numbers of dimensions: got "
            f"{', '.join(str(x.shape) for x in xs)}."
        )
    for x in xs:
        if len(x.shape) != len(s0) or any(
            a != b for i, (a, b) in enumerate(zip(x.shape, s0)) if i != dimension
        ):
            raise TypeError(
                "Cannot concatenate arrays with shapes that differ in dimensions other than "
                f"the one being concatenated: concatenating along dimension {dimension} for "
                f"shapes {', '.join(str(x.shape) for x in xs)}."
            )
    shape = list(s0)
    shape[dimension] = sum(x.shape[dimension] for x in xs)
    return ShapedArray(shape, xs[0].dtype, all(x.weak_type for x in xs))


def _concat_transpose(ct, *xs, dimension):
    # a ``split`` (whose transpose is ``concatenate``), as JAX's: a weak cotangent stays weak
    from jaxlite._src.ops import split  # the ops kernel cycle: see OPS_KERNEL

    if type(ct) is Zero:
        return [Zero(x.aval) if is_undefined_primal(x) else None for x in xs]
    sizes = [(x.aval if is_undefined_primal(x) else aval_of(x)).shape[dimension] for x in xs]
    pieces = split.split(ct, sizes, dimension)
    return [p if is_undefined_primal(x) else None for p, x in zip(pieces, xs)]


def _concat_batch(axis_data, args, dims, *, dimension):
    new = [
        broadcast_batch(x, axis_data.size) if d is not_mapped else moveaxis(x, d, 0)
        for x, d in zip(args, dims)
    ]
    return concatenate_p.bind(*new, dimension=dimension + 1), 0


rules.impl_rules[concatenate_p] = lambda *xs, dimension: np.concatenate(xs, dimension)
rules.native_rules[concatenate_p] = _native.concatenate
rules.native_scalar_rules[concatenate_p] = _native.scalar_concatenate
rules.abstract_eval_rules[concatenate_p] = _concat_abstract_eval
rules.batch_rules[concatenate_p] = _concat_batch
deflinear(concatenate_p, _concat_transpose)


def concatenate(operands, dimension: int):
    """``jax.lax.concatenate``."""
    operands = list(operands)
    if len(operands) == 1 and isinstance(operands[0], Array):
        return operands[0]  # an array as it is, whatever the dimension (as JAX)
    shapes = [_shape_of(x) for x in operands]
    if shapes and not 0 <= int(dimension) < len(shapes[0]):  # JAX: no negative dimensions
        raise TypeError(
            f"concatenate dimension out of bounds: dimension {int(dimension)} for shapes "
            f"{', '.join(str(tuple(s)) for s in shapes)}."
        )
    return concatenate_p.bind(*operands, dimension=int(dimension))


# --- pad ---------------------------------------------------------------------------------
pad_p = Primitive("pad")


def _pad_impl(x, padding_value, *, padding_config):
    out = x
    for axis, (lo, hi, interior) in enumerate(padding_config):
        out = _pad_axis(out, padding_value, axis, lo, hi, interior)
    return out


def _pad_axis(x, pv, axis, lo, hi, interior):
    import builtins

    slice = builtins.slice  # noqa: A001 (this module's ``slice`` is lax.slice)
    n = x.shape[axis]
    if interior > 0 and n > 1:
        new_n = n + (n - 1) * interior
        shape = list(x.shape)
        shape[axis] = new_n
        y = np.full(shape, pv, dtype=x.dtype)
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(0, new_n, interior + 1)
        y[tuple(idx)] = x
        x = y
    # Positive padding first, then the negative amounts crop the padded axis (as XLA: a
    # negative high pad may remove low padding when it exceeds the operand, e.g. an empty
    # axis padded (2, -1) keeps one padding element; cropping first kept two).
    if lo > 0 or hi > 0:
        widths = [(0, 0)] * x.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        x = np.pad(x, widths, constant_values=pv)
    if lo < 0 or hi < 0:
        idx = [slice(None)] * x.ndim
        idx[axis] = slice(max(-lo, 0), x.shape[axis] - max(-hi, 0))
        x = x[tuple(idx)]
    return x


def _pad_abstract_eval(x, pv, *, padding_config):
    if x.dtype != pv.dtype:
        raise TypeError(
            "pad operand and padding_value must be same dtype: got "
            f"{x.dtype.name} and {pv.dtype.name}."
        )
    shape = []
    for n, (lo, hi, interior) in zip(x.shape, padding_config):
        shape.append(lo + hi + n + max(n - 1, 0) * interior)
    return ShapedArray(shape, x.dtype, x.weak_type and pv.weak_type)


def _pad_transpose(ct, x, pv, *, padding_config):
    from jaxlite._src.ops import reductions  # the ops kernel cycle: see OPS_KERNEL

    if type(ct) is Zero:
        return [
            Zero(x.aval) if is_undefined_primal(x) else None,
            Zero(pv.aval) if is_undefined_primal(pv) else None,
        ]
    ct_x = None
    if is_undefined_primal(x):
        # Undo the padding: negative low/high padding then stride over interior padding.
        unpad = tuple((-lo, -hi, 0) for lo, hi, _ in padding_config)
        zero = _scalar_zero(ct)
        t = pad_p.bind(ct, zero, padding_config=unpad)
        ct_x = slice_p.bind(
            t,
            start_indices=(0,) * t.ndim,
            limit_indices=t.shape,
            strides=tuple(i + 1 for _, _, i in padding_config),
        )
    ct_pv = None
    if is_undefined_primal(pv):
        total = reductions.reduce_sum(ct, tuple(range(ct.ndim)))
        if ct_x is not None:
            inner = reductions.reduce_sum(ct_x, tuple(range(ct_x.ndim)))
        else:
            unpad = tuple((-lo, -hi, 0) for lo, hi, _ in padding_config)
            t = pad_p.bind(ct, _scalar_zero(ct), padding_config=unpad)
            t = slice_p.bind(
                t,
                start_indices=(0,) * t.ndim,
                limit_indices=t.shape,
                strides=tuple(i + 1 for _, _, i in padding_config),
            )
            inner = reductions.reduce_sum(t, tuple(range(t.ndim)))
        from jaxlite._src.ops import elementwise

        ct_pv = elementwise.sub(total, inner)
    return [ct_x, ct_pv]


def _scalar_zero(x):
    return full((), 0, aval_of(x).dtype)


def _pad_batch(axis_data, args, dims, *, padding_config):
    (x, pv), (dx, dpv) = args, dims
    if dpv is not_mapped:
        x = moveaxis(x, dx, 0)
        return pad_p.bind(x, pv, padding_config=((0, 0, 0),) + padding_config), 0
    from jaxlite._src.ops import elementwise

    # Batched padding value: pad with zeros, then select the padded positions.
    xb = broadcast_batch(x, axis_data.size) if dx is not_mapped else moveaxis(x, dx, 0)
    mask = pad_p.bind(
        full(_shape_of(x)[1:] if dx is not not_mapped else _shape_of(x), True, dtypes.bool_),
        full((), False, dtypes.bool_),
        padding_config=padding_config,
    )
    padded = pad_p.bind(xb, _scalar_zero(xb), padding_config=((0, 0, 0),) + padding_config)
    pvb = moveaxis(pv, dpv, 0)
    pvb = broadcast_in_dim(pvb, _shape_of(padded), (0,))
    maskb = broadcast_in_dim(mask, _shape_of(padded), tuple(range(1, len(_shape_of(padded)))))
    return elementwise.select_n(maskb, pvb, padded), 0


rules.impl_rules[pad_p] = _pad_impl
rules.native_rules[pad_p] = _native.pad
rules.native_scalar_rules[pad_p] = _native.scalar_pad
rules.abstract_eval_rules[pad_p] = _pad_abstract_eval
rules.batch_rules[pad_p] = _pad_batch
deflinear(pad_p, _pad_transpose)


def pad(operand, padding_value, padding_config):
    """``jax.lax.pad`` with (low, high, interior) per dimension.

    Raises:
        ValueError: if ``padding_config`` does not have one ``(low, high, interior)`` triple
            per axis of ``operand``, or an interior padding is negative (JAX's messages).
    """
    config = tuple(tuple(operator.index(v) for v in c) for c in padding_config)
    ndim = len(aval_of(operand).shape)
    for c in config:
        if len(c) != 3:
            raise ValueError(f"not enough values to unpack (expected 3, got {len(c)})")
    if len(config) != ndim:
        raise ValueError(
            "length of padding_config must equal the number of axes of operand, got "
            f"padding_config {config} for operand shape {aval_of(operand).shape}"
        )
    if any(i < 0 for _, _, i in config):
        raise ValueError(
            f"interior padding in padding_config must be nonnegative, got padding_config {config}"
        )
    return pad_p.bind(operand, padding_value, padding_config=config)


# --- slice -------------------------------------------------------------------------------
slice_p = Primitive("slice")


def _slice_impl(x, *, start_indices, limit_indices, strides):
    import builtins

    strides = strides or (1,) * len(start_indices)
    return x[
        tuple(builtins.slice(s, l, st) for s, l, st in zip(start_indices, limit_indices, strides))
    ]


def _slice_abstract_eval(x, *, start_indices, limit_indices, strides):
    strides = strides or (1,) * x.ndim
    start, limit = start_indices, limit_indices
    for name, idx in (("start_indices", start), ("limit_indices", limit)):
        if any(i < 0 for i in idx):  # JAX's checks (its jit path), in its order and words
            raise TypeError(f"slice {name} must have every element be nonnegative, got {idx}.")
    if len(start) != x.ndim:
        msg = "must have length equal to the number of dimensions of the operand, got indices"
        raise TypeError(f"slice start_indices {msg} {start} for operand shape {x.shape}.")
    if len(start) != len(limit):
        raise TypeError(
            "slice limit_indices must have the same length as start_indices, got "
            f"start_indices {start} and limit_indices {limit}."
        )
    if any(lim > n for lim, n in zip(limit, x.shape)):
        raise TypeError(
            "slice limit_indices must be less than or equal to operand shape, got "
            f"limit_indices {limit} for operand shape {x.shape}."
        )
    if any(lim < st for st, lim in zip(start, limit)):
        raise TypeError(
            "slice limit_indices must be greater than or equal to start_indices, got "
            f"start_indices {start} and limit_indices {limit}."
        )
    shape = tuple(
        max(0, -(-(l - s) // st)) for s, l, st in zip(start_indices, limit_indices, strides)
    )
    return ShapedArray(shape, x.dtype, x.weak_type)


def _slice_transpose(ct, x, *, start_indices, limit_indices, strides):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    strides = strides or (1,) * len(start_indices)
    shape = x.aval.shape
    cfg = []
    for s, _l, st, n, m in zip(start_indices, limit_indices, strides, shape, aval_of(ct).shape):
        real_hi = s + (m - 1) * st + 1 if m else s
        cfg.append((s, n - real_hi, st - 1))
    return [pad(ct, _scalar_zero(ct), cfg)]


def _slice_batch(axis_data, args, dims, *, start_indices, limit_indices, strides):
    (x,), (d,) = args, dims
    x = moveaxis(x, d, 0)
    st = (1,) + (strides or (1,) * len(start_indices))
    return slice_p.bind(
        x,
        start_indices=(0,) + start_indices,
        limit_indices=(_shape_of(x)[0],) + limit_indices,
        strides=st,
    ), 0


rules.impl_rules[slice_p] = _slice_impl
rules.native_rules[slice_p] = _native.slice_
rules.native_scalar_rules[slice_p] = _native.scalar_slice
rules.abstract_eval_rules[slice_p] = _slice_abstract_eval
rules.batch_rules[slice_p] = _slice_batch
deflinear(slice_p, _slice_transpose)


def slice(operand, start_indices, limit_indices, strides=None):  # noqa: A001 (JAX's name)
    """``jax.lax.slice``."""
    return slice_p.bind(
        operand,
        start_indices=tuple(int(i) for i in start_indices),
        limit_indices=tuple(int(i) for i in limit_indices),
        strides=None if strides is None else tuple(int(s) for s in strides),
    )


def slice_in_dim(operand, start_index, limit_index, stride=1, axis=0):
    """``jax.lax.slice_in_dim``: ``None`` start/limit mean the axis' ends; negative ones
    count from the end."""
    shape = _shape_of(operand)
    axis = operator.index(axis)  # a float axis is a TypeError (JAX indexes the shape with it)
    n = shape[axis]
    start = 0 if start_index is None else operator.index(start_index)
    limit = n if limit_index is None else operator.index(limit_index)
    starts, limits, strides = [0] * len(shape), list(shape), [1] * len(shape)
    starts[axis] = start + n if start < 0 else start
    limits[axis] = limit + n if limit < 0 else limit
    strides[axis] = operator.index(stride)
    return slice(operand, starts, limits, None if stride == 1 else strides)


def index_in_dim(operand, index, axis=0, keepdims=True):
    """``jax.lax.index_in_dim``: one index (negative counts from the end) along ``axis``.

    Raises:
        IndexError: an index outside ``[-n, n)`` (JAX's message).
    """
    index, axis = operator.index(index), int(axis)
    n = _shape_of(operand)[axis]
    wrapped = index + n if index < 0 else index
    if not 0 <= wrapped < n:
        raise IndexError(f"index {index} is out of bounds for axis {axis} with size {n}")
    out = slice_in_dim(operand, wrapped, wrapped + 1, 1, axis)
    return out if keepdims else squeeze(out, (axis,))


# --- loop-and-stack fallback -------------------------------------------------------------
def _loop_batch(prim, axis_data, args, dims, params):
    """Explicit per-element fallback: slice each batched operand, bind, stack.

    Used only by primitives that opt in (documented in their batching rule); it stages
    ``axis_data.size`` copies of the primitive.
    """
    if axis_data.size == 0:
        # nothing to slice: zeros of the per-element results' types, stacked on a 0 axis
        avals = [
            aval_of(x)
            if d is not_mapped
            else ShapedArray(tuple(np.delete(aval_of(x).shape, d)), aval_of(x).dtype)
            for x, d in zip(args, dims)
        ]
        out_avals = rules.abstract_eval_rules[prim](*avals, **params)
        zeros = [
            full((0, *a.shape), 0, a.dtype)
            for a in (out_avals if prim.multiple_results else [out_avals])
        ]
        if prim.multiple_results:
            return zeros, [0] * len(zeros)
        return zeros[0], 0
    outs = []
    for i in range(axis_data.size):
        a_i = [
            x if d is not_mapped else index_in_dim(x, i, d, keepdims=False)
            for x, d in zip(args, dims)
        ]
        outs.append(prim.bind(*a_i, **params))
    if prim.multiple_results:
        return [stack0(list(o)) for o in zip(*outs)], [0] * len(outs[0])
    return stack0(outs), 0


def stack0(xs):
    return concatenate([expand_dims(x, (0,)) for x in xs], 0)
