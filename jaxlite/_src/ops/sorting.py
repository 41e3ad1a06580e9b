"""Sorting primitives: ``sort`` (multi-operand, lexicographic on the first ``num_keys``
operands, always stable) and ``top_k``.

JVPs carry tangents through the permutation (a sort with an extra iota operand recovers it);
batching moves every batch axis to the front and shifts ``dimension``.
"""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import ShapedArray, aval_of, canonicalize_shape
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.ops import conversion, indexing, shape as _shape

sort_p = Primitive("sort", multiple_results=True)


def _sort_perm(keys, dimension):
    # NumPy's sorts of the extension floats (bfloat16, float8) do not order NaNs: sort
    # their exact float32 values instead.
    # A complex key is its real then its imaginary part, each with NaN last (JAX's order:
    # 0 + nanj sorts before 1 + 0j; NumPy's complex sort puts any NaN last).
    keys = [part for k in keys for part in ((k.real, k.imag) if np.iscomplexobj(k) else (k,))]
    keys = [
        np.moveaxis(k.astype(np.float32) if _is_extension_float(k.dtype) else k, dimension, -1)
        for k in keys
    ]
    if len(keys) == 1:
        perm = np.argsort(keys[0], axis=-1, kind="stable")
    else:
        perm = np.lexsort(tuple(keys[::-1]), axis=-1)
    return perm


def _is_extension_float(dtype):
    return dtypes.is_float(dtype) and np.dtype(dtype).type not in (
        np.float16,
        np.float32,
        np.float64,
    )


def _sort_impl(*operands, dimension, is_stable, num_keys):
    # NumPy's stable sorts put NaNs last, as JAX does.
    perm = _sort_perm(list(operands[:num_keys]), dimension)
    outs = []
    for o in operands:
        om = np.moveaxis(o, dimension, -1)
        outs.append(np.moveaxis(np.take_along_axis(om, perm, -1), -1, dimension))
    return outs


def _sort_abstract_eval(*operands, dimension, is_stable, num_keys):
    shape = operands[0].shape
    if any(o.shape != shape for o in operands):
        raise TypeError(
            "sort operands must all have the same shape, got "
            + ", ".join(str(o.shape) for o in operands)
        )
    if not 0 <= dimension < max(len(shape), 1):
        raise ValueError(f"sort dimension {dimension} out of range for shape {shape}")
    if not 1 <= num_keys <= len(operands):
        raise ValueError(f"num_keys={num_keys} must be between 1 and {len(operands)}")
    return [ShapedArray(o.shape, o.dtype, o.weak_type) for o in operands]


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    shape = aval_of(primals[0]).shape
    iota = conversion.broadcasted_iota(dtypes.int32, shape, dimension)
    outs = sort_p.bind(*primals, iota, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    perm = outs[-1]

    t_out = []
    for p, t in zip(outs[:-1], tangents):
        if type(t) is Zero:
            t_out.append(Zero(aval_of(p).to_tangent_aval()))
        else:
            t_out.append(indexing.take_along_axis(t, perm, dimension))
    return outs[:-1], t_out


def _sort_batch(axis_data, args, dims, *, dimension, is_stable, num_keys):
    new = [
        _shape.broadcast_batch(x, axis_data.size) if d is not_mapped else _shape.moveaxis(x, d, 0)
        for x, d in zip(args, dims)
    ]
    outs = sort_p.bind(*new, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return outs, [0] * len(outs)


rules.impl_rules[sort_p] = _sort_impl
rules.abstract_eval_rules[sort_p] = _sort_abstract_eval
rules.jvp_rules[sort_p] = _sort_jvp
rules.batch_rules[sort_p] = _sort_batch


def check_attribute(name: str, value, types, what: str) -> None:
    """JAX writes ``value`` into its HLO as an MLIR attribute, whose builder takes ``types``
    only: anything else is the builder's ``TypeError`` (first line as JAX's). Used for
    ``sort``'s ``is_stable`` (and ``jnp.sort``'s ``stable``) and ``approx_max_k``'s tuning
    numbers."""
    if not isinstance(value, types):
        raise TypeError(
            "get(): incompatible function arguments. The following argument types are "
            f"supported:\n    {name}: {what}, got {type(value).__name__}"
        )


def sort(operand, dimension: int = -1, is_stable: bool = True, num_keys: int = 1):
    """``jax.lax.sort``: sort one array, or a sequence of arrays by the first ``num_keys``.

    Args:
        operand: an array or a tuple/list of same-shaped arrays.
        dimension: the axis to sort along.
        is_stable: accepted for compatibility; jaxlite's sort is always stable.
        num_keys: how many leading operands form the lexicographic key.

    Returns:
        The sorted array, or a tuple of arrays permuted together.
    """
    single = not isinstance(operand, (tuple, list))
    ops = [to_array(operand)] if single else [to_array(o) for o in operand]
    nd = ops[0].ndim
    dimension = operator.index(dimension)  # a float axis is JAX's TypeError, not truncated
    if not -nd <= dimension < nd:
        raise ValueError(f"axis {dimension} is out of bounds for array of dimension {nd}")
    dim = dimension % nd
    check_attribute("is_stable", is_stable, bool, "bool")  # None, 1, np.True_: TypeError
    outs = sort_p.bind(*ops, dimension=dim, is_stable=is_stable, num_keys=int(num_keys))
    return outs[0] if single else tuple(outs)


def sort_key_val(keys, values, dimension: int = -1, is_stable: bool = True):
    """``jax.lax.sort_key_val``: sort ``keys`` and permute ``values`` alongside."""
    k, v = sort((keys, values), dimension, is_stable, 1)
    return k, v


# ----------------------------------------------------------------------------- top_k
top_k_p = Primitive("top_k", multiple_results=True)


def _float_total_order_key(x):
    """Signed integers ordered as JAX's top_k orders floats (IEEE totalOrder): -NaN < -inf <
    ... < -0.0 < +0.0 < ... < +inf < +NaN. Complex numbers by (real, imag)."""
    if np.iscomplexobj(x):
        raise ValueError("top_k is not compatible with complex inputs.")
    width = x.dtype.itemsize * 8
    bits = x.view(np.dtype(f"int{width}"))
    # Negative floats (sign bit set) count down as their magnitude grows: flip the other
    # bits of those, keeping the sign, so that the signed integers are in float order.
    return bits ^ ((bits >> (width - 1)) & np.array(2 ** (width - 1) - 1, bits.dtype))


def _top_k_impl(x, *, k):
    if x.dtype == np.bool_:
        key = -x.astype(np.int8)
    elif x.dtype.kind in "iu":
        key = -x.astype(np.int64) if x.dtype.itemsize < 8 or x.dtype.kind == "i" else x
        if x.dtype.kind == "u" and x.dtype.itemsize == 8:
            key = np.iinfo(np.uint64).max - x
    else:
        # ``~`` of the total-order key ranks descending without overflow.
        key = ~_float_total_order_key(x)
    idx = np.argsort(key, axis=-1, kind="stable")[..., :k]
    return [np.take_along_axis(x, idx, -1), idx.astype(np.int32)]


def _top_k_abstract_eval(x, *, k):
    if x.ndim < 1:
        raise ValueError("top_k operand must have >= 1 dimension")
    if dtypes.is_complex(x.dtype):  # at binding, as JAX's (an empty operand too)
        raise ValueError("top_k is not compatible with complex inputs.")
    if not 0 <= k <= x.shape[-1]:
        raise ValueError(
            f"k argument to top_k must be nonnegative and at most the last "
            f"dimension ({x.shape[-1]}), got {k}"
        )
    shape = x.shape[:-1] + (k,)
    # JAX gives both outputs the operand's weak type (the int32 indices of a weak operand
    # are weak too).
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, dtypes.int32, x.weak_type)]


def _top_k_jvp(primals, tangents, *, k):
    (x,), (t,) = primals, tangents
    vals, idx = top_k_p.bind(x, k=k)
    if type(t) is Zero:
        return [vals, idx], [
            Zero(aval_of(vals).to_tangent_aval()),
            Zero(aval_of(idx).to_tangent_aval()),
        ]

    nd = aval_of(x).ndim
    return [vals, idx], [
        indexing.take_along_axis(t, idx, nd - 1),
        Zero(aval_of(idx).to_tangent_aval()),
    ]


def _top_k_batch(axis_data, args, dims, *, k):
    x = _shape.moveaxis(args[0], dims[0], 0)
    if aval_of(x).ndim == 1:
        raise ValueError("top_k batched operand lost its data axis")
    outs = top_k_p.bind(x, k=k)
    return outs, [0, 0]


rules.impl_rules[top_k_p] = _top_k_impl
rules.abstract_eval_rules[top_k_p] = _top_k_abstract_eval
rules.jvp_rules[top_k_p] = _top_k_jvp
rules.batch_rules[top_k_p] = _top_k_batch


def top_k(operand, k: int, *, axis: int = -1):
    """``jax.lax.top_k``: the ``k`` largest entries along ``axis`` (default the last) and
    their int32 indices (ties: lower index first; NaN counts as the largest)."""
    x = to_array(operand)
    nd = x.ndim
    k = canonicalize_shape((k,))[0]  # a float k is JAX's TypeError, never truncated
    axis = operator.index(axis)  # a float axis is JAX's TypeError, never truncated
    if not -nd <= axis < nd:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {nd}")
    ax = axis % nd
    if int(k) > x.shape[ax]:
        raise ValueError(
            "k argument to top_k must be no larger than size along axis; got "
            f"k={int(k)} with shape={list(x.shape)} and axis={ax}"
        )
    if ax == nd - 1:
        return list(top_k_p.bind(x, k=int(k)))
    perm = tuple(d for d in range(nd) if d != ax) + (ax,)
    back = tuple(range(ax)) + (nd - 1,) + tuple(range(ax, nd - 1))
    vals, idx = top_k_p.bind(_shape.transpose(x, perm), k=int(k))
    return [_shape.transpose(vals, back), _shape.transpose(idx, back)]
