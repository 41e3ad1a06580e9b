"""More collectives over named axes: psum_scatter, all_to_all, pcast, axis_size.

Same conventions as ``ops/parallel.py`` (axis names as a tuple param; the impl rules run on
``shard_map`` device threads through ``ops/spmd.py``; batching rules make them work under
``vmap(..., axis_name=...)`` too).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.ops import reductions as _red, shape as _shape, spmd
from jaxlite._src.ops.parallel import (
    _asarray,
    _axis_size,
    _device_ctx,
    _keep_vma,
    _members,
    _names,
    _split_names,
    _tree_map,
    all_gather_p,
    check_uniform_state,
    insert_collective_pvary,
    pvary,
)


def _norm_axis(axis: int, ndim: int, what: str) -> int:
    if not -ndim <= axis < ndim:
        raise ValueError(f"{what} {axis} is out of bounds for an operand of rank {ndim}")
    return axis % ndim


# ----------------------------------------------------------------------- psum_scatter
psum_scatter_p = Primitive("psum_scatter")


def _psum_scatter_abstract_eval(x, *, axis_name, scatter_dimension, axis_size, tiled):
    shape = list(x.shape)
    if tiled:
        shape[scatter_dimension] //= axis_size
    else:
        del shape[scatter_dimension]
    return ShapedArray(tuple(shape), x.dtype, x.weak_type, x.vma)


def _psum_scatter_impl(x, *, axis_name, scatter_dimension, axis_size, tiled):
    ctx = _device_ctx(axis_name)
    vals = _members(ctx, axis_name, x)
    total = np.asarray(vals[0])
    for v in vals[1:]:
        total = total + v
    me = ctx.position(axis_name)
    if tiled:
        k = total.shape[scatter_dimension] // axis_size
        idx = [slice(None)] * total.ndim
        idx[scatter_dimension] = slice(me * k, (me + 1) * k)
        return np.array(total[tuple(idx)], copy=True)
    return np.array(np.take(total, me, axis=scatter_dimension), copy=True)


def _psum_scatter_batch(axis_data, args, dims, *, axis_name, scatter_dimension, axis_size, tiled):
    (x,), (d,) = args, dims
    mine, rest = _split_names(axis_data, axis_name)
    params = dict(scatter_dimension=scatter_dimension, axis_size=axis_size, tiled=tiled)
    if not mine:
        if d is not_mapped:
            return psum_scatter_p.bind(x, axis_name=axis_name, **params), not_mapped
        x = _shape.moveaxis(x, d, 0)
        params["scatter_dimension"] = scatter_dimension + 1
        return psum_scatter_p.bind(x, axis_name=axis_name, **params), 0
    if rest or d is not_mapped:
        raise NotImplementedError("psum_scatter under vmap: only over the vmapped axis alone")
    n = axis_data.size
    total = _red.reduce_sum(_shape.moveaxis(x, d, 0), (0,))
    # Element i receives block i of the sum along scatter_dimension.
    shape = list(aval_of(total).shape)
    sd = scatter_dimension
    if tiled:
        shape[sd : sd + 1] = [n, shape[sd] // n]
        out = _shape.reshape(total, tuple(shape))
    else:
        out = total
    return _shape.moveaxis(out, sd, 0), 0


def _psum_scatter_transpose(ct, x, *, axis_name, scatter_dimension, axis_size, tiled):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    return [
        all_gather_p.bind(
            insert_collective_pvary(axis_name, ct),
            axis_name=axis_name,
            axis=scatter_dimension,
            axis_size=axis_size,
            tiled=tiled,
        )
    ]


rules.impl_rules[psum_scatter_p] = _psum_scatter_impl
rules.device_context.add(psum_scatter_p)
rules.abstract_eval_rules[psum_scatter_p] = _psum_scatter_abstract_eval
rules.vma_rules[psum_scatter_p] = _keep_vma
rules.batch_rules[psum_scatter_p] = _psum_scatter_batch
rules.transpose_rules[psum_scatter_p] = _psum_scatter_transpose
rules.jvp_rules[psum_scatter_p] = lambda primals, tangents, **params: (
    psum_scatter_p.bind(primals[0], **params),
    tangents[0] if type(tangents[0]) is Zero else psum_scatter_p.bind(tangents[0], **params),
)


def psum_scatter(
    x: Any, axis_name: Any, *, scatter_dimension: int = 0, axis_index_groups=None, tiled=False
):
    """``jax.lax.psum_scatter``: the sum over the axis, each element keeping its block.

    Args:
        x: a pytree of arrays.
        axis_name: a bound axis name (or tuple of names).
        scatter_dimension: the dimension split among the elements.
        tiled: if False the dimension must equal the axis size and is removed; if True it
            must be divisible by it and each element keeps a block of ``size // n``.

    Raises:
        ValueError: if the scatter dimension does not fit the axis size.
    """
    if axis_index_groups is not None:
        raise NotImplementedError()
    names = _names(axis_name)
    n = _axis_size(names, "psum_scatter")

    def one(v):
        v = _asarray(v)
        a = aval_of(v)
        check_uniform_state("psum_scatter", names, v)
        sd = _norm_axis(int(scatter_dimension), a.ndim, "psum_scatter: scatter_dimension")
        size = a.shape[sd]
        if tiled and size % n:
            raise ValueError(
                f"tiled reduce_scatter operand scatter dimension size {size} must be divisible "
                f"by shard_count {n}"
            )
        if not tiled and size != n:
            raise ValueError(
                f"reduce_scatter operand scatter dimension size {size} must match shard count {n}"
            )
        return psum_scatter_p.bind(
            insert_collective_pvary(names, v),
            axis_name=names,
            scatter_dimension=sd,
            axis_size=n,
            tiled=bool(tiled),
        )

    return _tree_map(one, x)


# ------------------------------------------------------------------------- all_to_all
all_to_all_p = Primitive("all_to_all")


def _a2a_out_shape(shape, split_axis, concat_axis, axis_size, tiled):
    shape = list(shape)
    if tiled:
        shape[split_axis] //= axis_size
        shape[concat_axis] *= axis_size
    else:
        del shape[split_axis]
        shape.insert(concat_axis, axis_size)
    return tuple(shape)


def _all_to_all_impl(x, *, axis_name, split_axis, concat_axis, axis_size, tiled):
    ctx = _device_ctx(axis_name)
    vals = _members(ctx, axis_name, x)
    me = ctx.position(axis_name)
    if tiled:
        k = x.shape[split_axis] // axis_size
        idx = [slice(None)] * x.ndim
        idx[split_axis] = slice(me * k, (me + 1) * k)
        return np.concatenate([np.asarray(v)[tuple(idx)] for v in vals], concat_axis)
    return np.stack([np.take(v, me, axis=split_axis) for v in vals], concat_axis)


def _all_to_all_transpose(ct, x, *, axis_name, split_axis, concat_axis, axis_size, tiled):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    return [
        all_to_all_p.bind(
            ct,
            axis_name=axis_name,
            split_axis=concat_axis,
            concat_axis=split_axis,
            axis_size=axis_size,
            tiled=tiled,
        )
    ]


def _all_to_all_vmapped(axis_data, x, d, axis_name, split_axis, concat_axis, *, axis_size, tiled):
    """all_to_all over the vmapped axis itself: the batch of members is one array, so the
    exchange is a transpose of the member axis with (a split of) the split axis."""
    if len(axis_name) != 1:
        raise NotImplementedError("all_to_all over several axes is not supported")
    n = axis_data.size
    x = _shape.broadcast_batch(x, n) if d is not_mapped else _shape.moveaxis(x, d, 0)
    s, c = split_axis + 1, concat_axis + 1  # per-member axes after the member axis
    if tiled:  # the split axis as (destination member, chunk)
        shape = list(aval_of(x).shape)
        shape[s : s + 1] = [n, shape[s] // n]
        x = _shape.reshape(x, tuple(shape))
    # swap source and destination members: axis 0 is now the destination, axis s the source
    perm = list(range(aval_of(x).ndim))
    perm[0], perm[s] = s, 0
    x = _shape.transpose(x, tuple(perm))
    x = _shape.moveaxis(x, s, c)  # the source index goes where it is stacked/concatenated
    if tiled:  # merge it with the concatenation axis
        shape = list(aval_of(x).shape)
        shape[c : c + 2] = [shape[c] * shape[c + 1]]
        x = _shape.reshape(x, tuple(shape))
    return x, 0


def _all_to_all_batch(axis_data, args, dims, *, axis_name, split_axis, concat_axis, **params):
    (x,), (d,) = args, dims
    mine, _ = _split_names(axis_data, axis_name)
    if mine:
        return _all_to_all_vmapped(axis_data, x, d, axis_name, split_axis, concat_axis, **params)
    if d is not_mapped:
        return all_to_all_p.bind(
            x, axis_name=axis_name, split_axis=split_axis, concat_axis=concat_axis, **params
        ), not_mapped
    x = _shape.moveaxis(x, d, 0)
    return all_to_all_p.bind(
        x, axis_name=axis_name, split_axis=split_axis + 1, concat_axis=concat_axis + 1, **params
    ), 0


rules.impl_rules[all_to_all_p] = _all_to_all_impl
rules.device_context.add(all_to_all_p)
rules.abstract_eval_rules[all_to_all_p] = (
    lambda x, *, axis_name, split_axis, concat_axis, axis_size, tiled: ShapedArray(
        _a2a_out_shape(x.shape, split_axis, concat_axis, axis_size, tiled),
        x.dtype,
        x.weak_type,
        x.vma,
    )
)
rules.vma_rules[all_to_all_p] = _keep_vma
rules.transpose_rules[all_to_all_p] = _all_to_all_transpose
rules.batch_rules[all_to_all_p] = _all_to_all_batch
rules.jvp_rules[all_to_all_p] = lambda primals, tangents, **params: (
    all_to_all_p.bind(primals[0], **params),
    tangents[0] if type(tangents[0]) is Zero else all_to_all_p.bind(tangents[0], **params),
)


def all_to_all(
    x: Any,
    axis_name: Any,
    split_axis: int,
    concat_axis: int,
    *,
    axis_index_groups=None,
    tiled=False,
):
    """``jax.lax.all_to_all``: element ``j`` receives chunk ``j`` (along ``split_axis``) of
    every element, concatenated (``tiled``) or stacked along ``concat_axis`` in element order.

    Raises:
        ValueError: if ``split_axis`` does not fit the axis size.
    """
    if axis_index_groups is not None:
        raise NotImplementedError()
    names = _names(axis_name)
    n = _axis_size(names, "all_to_all")

    def one(v):
        v = _asarray(v)
        a = aval_of(v)
        sa = _norm_axis(int(split_axis), a.ndim, "all_to_all: split_axis")
        ca = _norm_axis(int(concat_axis), a.ndim, "all_to_all: concat_axis")
        size = a.shape[sa]
        if tiled and size % n:
            raise ValueError(
                f"The size of all_to_all split_axis ({size}) has to be divisible by the size of "
                f"the named axis {names[0] if len(names) == 1 else names} ({n})"
            )
        if not tiled and size != n:
            raise ValueError(
                "all_to_all requires the size of the mapped axis axis_name to equal "
                f"x.shape[split_axis], but they are {n} and {size} respectively."
            )
        return all_to_all_p.bind(
            insert_collective_pvary(names, v),
            axis_name=names,
            split_axis=sa,
            concat_axis=ca,
            axis_size=n,
            tiled=bool(tiled),
        )

    return _tree_map(one, x)


# ------------------------------------------------------------------------------ pcast
_PCAST_TO = ("unreduced", "reduced", "varying")


def pcast(x: Any, axis_name: Any, *, to: str):
    """``jax.lax.pcast``: change the varying-manual-axes type of ``x`` (values unchanged).

    Only ``to='varying'`` (from invariant: ``pvary``, whose transpose is a psum) is
    supported, as in JAX 0.10.2 for arrays that are neither reduced nor unreduced.

    Args:
        x: a pytree of arrays inside a ``shard_map`` body.
        axis_name: an axis name or a tuple of them (not a set).
        to: ``'varying'``.

    Raises:
        TypeError: for a set of axis names.
        ValueError: for another ``to`` value, axes the value already varies along
            (``Unsupported pcast from=varying, to='varying'``), or outside ``shard_map``.
    """
    if isinstance(axis_name, (set, frozenset)):
        raise TypeError(f"axis_name={axis_name} must be a tuple or a str. Got {axis_name}")
    if not axis_name:
        return x
    names = _names(axis_name)
    if to not in _PCAST_TO:
        raise ValueError(f"Got unexpected `to` value. Allowed `to` values are: {set(_PCAST_TO)}")
    if not spmd.tracing_axes() and spmd.current() is None:
        raise ValueError("pvary should be called under jax.shard_map.")
    _axis_size(names, "pcast")
    manual = spmd.vma_axes()

    def one(v):
        v = _asarray(v)
        if not any(n in manual for n in names):  # check_vma=False or vmap axes: no types
            return v
        have = aval_of(v).vma
        state = {"varying" if n in have else "invarying" for n in names}
        if len(state) > 1:
            raise ValueError(
                "jax.lax.pcast can only accept axis_name which corresponds to one of varying, "
                "unreduced, reduced or invarying state of the input. Got input type: "
                f"{aval_of(v).str_short()}, axes: {names} and input state: {state}"
            )
        (frm,) = state
        if (frm, to) != ("invarying", "varying"):
            raise ValueError(f"Unsupported pcast from={frm}, to={to!r}")
        return pvary(v, names)

    return _tree_map(one, x)


def pbroadcast(x: Any, axis_name: Any, source: int):
    """``jax.lax.pbroadcast`` (every device gets ``source``'s value): as in JAX 0.10.2 on
    CPU, there is no implementation for this platform.

    Raises:
        NotImplementedError: always (JAX's CPU backend has no lowering for it), after the
            usual unbound-axis ``NameError``.
    """
    _axis_size(_names(axis_name), "pbroadcast")
    raise NotImplementedError(
        "MLIR translation rule for primitive 'pbroadcast' not found for platform cpu"
    )


def axis_size(axis_name: Any) -> int:
    """``jax.lax.axis_size``: the size of the bound axis (a Python int)."""
    return _axis_size(_names(axis_name), "axis_size")


__all__ = [
    "all_to_all",
    "all_to_all_p",
    "axis_size",
    "pbroadcast",
    "pcast",
    "psum_scatter",
    "psum_scatter_p",
]


def pswapaxes(x: Any, axis_name: Any, axis: int, *, axis_index_groups=None):
    """``jax.lax.pswapaxes``: swap the mapped axis ``axis_name`` with positional ``axis``
    (an ``all_to_all`` splitting and concatenating along ``axis``)."""
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)
