"""Collectives over named axes: psum, pmean, pmax, pmin, all_gather, axis_index, ppermute.

A named axis is introduced by ``vmap(..., axis_name=...)`` (later also by ``shard_map``).
Every collective primitive carries its axis names as the ``axis_name`` param (always a
tuple), which is how ``BatchTrace`` recognises a collective over *its* axis and sends it to
the batching rule even when the operand is unbatched.

Batching rules (``axis_data`` is the axis of the trace running the rule):

* the names include this axis: compute the collective along the batch dimension with
  ordinary primitives (``reduce_sum``, ``transpose``, ``gather``...) and, if other names
  remain, re-bind the collective for them on the parent trace;
* the names do not include this axis (an outer axis): re-bind on the parent, keeping this
  trace's batch dimension as an ordinary array axis.

A collective whose name is bound by no enclosing transformation raises
``NameError("unbound axis name: ...")`` as JAX does: at bind time (the current trace chain
is searched), and from the impl rule if one ever reaches eager evaluation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.core import rules
from jaxlite._src.core.array import Array, ArrayImpl, to_array
from jaxlite._src.core.avals import ShapedArray, aval_of, ordered_axes
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.core.trace import trace_ctx
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    indexing as _idx,
    reductions as _red,
    shape as _shape,
    slicing,
    spmd,
)


# ----------------------------------------------------------------------------- helpers
def _names(axis_name) -> tuple:
    if isinstance(axis_name, (tuple, list)):
        return tuple(axis_name)
    return (axis_name,)


def _bound_axes() -> dict:
    """Axis name -> size for every named axis bound by the current trace chain, and the
    manual axes of the shard_map bodies being traced (or executed, on a device thread)."""
    env: dict = dict(spmd.tracing_axes())
    ctx = spmd.current()
    if ctx is not None:
        env.update(ctx.exchange.axis_sizes)
    t = trace_ctx.trace
    while t is not None:
        ad = getattr(t, "axis_data", None)
        if ad is not None and ad.name is not None:
            for n in _names(ad.name):
                env.setdefault(n, ad.size)
        t = t.parent_trace
    return env


def axis_env_key() -> tuple | None:
    """The named axes a trace would see here (``_bound_axes``, and the shard_map body's vma
    and partial-manual modes), hashable, for jit's cache key; None when none are bound.

    A jitted function's trace reads them (``axis_size``, ``pmean``, unbound-axis errors), so
    one traced under ``vmap(axis_name='i')`` of size 2 must not be reused at size 4."""
    env = _bound_axes()
    vma = spmd.vma_axes()
    partial = spmd.tracing_partial()
    if not env and not vma and not partial:
        return None
    return tuple(env.items()), vma, partial


def _check_bound(names: tuple, what: str = "a collective") -> dict:
    env = _bound_axes()
    for n in names:
        if n not in env:
            if trace_ctx.trace.parent_trace is None:
                raise NameError(f"unbound axis name: {n}")
            raise NameError(
                f"Found an unbound axis name: {n}. To fix this, please call {what} under "
                "`jax.shard_map`."
            )
    return env


def _axis_size(names: tuple, what: str) -> int:
    env = _check_bound(names, what)
    size = 1
    for n in names:
        size *= env[n]
    return size


def _unbound_impl(*args, axis_name, **params):
    raise NameError(f"unbound axis name: {_names(axis_name)[0]}")


def _device_ctx(axis_name, nested_ok: bool = False) -> spmd.DeviceContext:
    """The shard_map device context binding ``axis_name`` (else the unbound error).

    In a shard_map nested in another one's body, axes of the enclosing shard_map are bound
    by its device context (``nested_ok``: ``axis_index``); collectives over them from the
    inner body are not supported (a clear error, never another device group's values)."""
    names = _names(axis_name)
    ctx = spmd.current()
    if ctx is not None and all(n in ctx.exchange.axis_sizes for n in names):
        return ctx
    outer = ctx.parent if ctx is not None else None
    while outer is not None:
        if all(n in outer.exchange.axis_sizes for n in names):
            if nested_ok:
                return outer
            raise NotImplementedError(
                f"a collective over the axes {names} of an enclosing shard_map inside a nested "
                "shard_map is not supported"
            )
        outer = outer.parent
    if (
        ctx is not None
        and ctx.parent is not None
        and any(n in ctx.exchange.axis_sizes for n in names)
    ):
        raise NotImplementedError(
            f"a collective over the axes {names} of both a nested shard_map and an enclosing one "
            "is not supported"
        )
    _unbound_impl(axis_name=axis_name)


def _members(ctx, names, x) -> list:
    """The values of ``x`` on the devices of this device's group over ``names``, in order."""
    vals = ctx.gather(x)
    return [vals[j] for j in ctx.group(names)]


def _fold(fn, values: list):
    # A fixed order (position along the axes) makes results independent of thread timing.
    acc = np.asarray(values[0])
    for v in values[1:]:
        acc = fn(acc, v)
    return np.array(acc, copy=True) if len(values) == 1 else acc


def _reduce_impl(fn):
    def impl(x, *, axis_name):
        ctx = _device_ctx(axis_name)
        return _fold(fn, _members(ctx, axis_name, x))

    return impl


def _asarray(x):
    return to_array(x)


def _tree_map(f, tree):
    return tree_util.tree_map(f, tree)


def _split_names(axis_data, names):
    """(this axis is named, the remaining names)."""
    mine = axis_data.name is not None and axis_data.name in names
    rest = tuple(n for n in names if n != axis_data.name)
    return mine, rest


def _scalar_like(x, v):
    a = aval_of(x)
    return _shape.full((), v, a.dtype, a.weak_type)


# ------------------------------------------------------------------------------ pvary
# ``pvary`` marks a value as varying along more manual axes (inside a shard_map body with
# check_vma). It computes nothing (the identity on each device); its transpose is a psum
# over the axes it added: the cotangents of an invariant value used by every device sum.
pvary_p = Primitive("pvary")


def _pvary_impl(x, *, axes):
    if spmd.current() is None:
        raise ValueError("pvary should be called under jax.shard_map.")
    return x


def _pvary_transpose(ct, x, *, axes):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    added = tuple(a for a in axes if a not in x.aval.vma)
    return [_psum_varying(ct, added) if added else ct]


_keep_vma = rules.keep_vma


rules.impl_rules[pvary_p] = _pvary_impl
# In generated code (a shard_map body on a device thread) pvary is a rename.
rules.lower_rules[pvary_p] = lambda ctx, eqn, ins, outs: [f"{outs[0]} = {ins[0]}"]
rules.abstract_eval_rules[pvary_p] = lambda x, *, axes: x.update(vma=x.vma | frozenset(axes))
rules.vma_rules[pvary_p] = _keep_vma
rules.batch_rules[pvary_p] = lambda axis_data, args, dims, *, axes: (
    pvary_p.bind(args[0], axes=axes),
    dims[0],
)
rules.transpose_rules[pvary_p] = _pvary_transpose
rules.jvp_rules[pvary_p] = lambda primals, tangents, *, axes: (
    pvary_p.bind(primals[0], axes=axes),
    Zero(tangents[0].aval.update(vma=tangents[0].aval.vma | frozenset(axes)))
    if type(tangents[0]) is Zero
    else pvary_p.bind(tangents[0], axes=axes),
)


def pvary(x, axes) -> Any:
    """Cast ``x`` (one array) to vary along ``axes`` too (the axes it already varies along
    are skipped; nothing is bound if none remain)."""
    axes = tuple(axes)
    have = aval_of(x).vma
    new = tuple(a for a in ordered_axes(axes) if a not in have)
    return pvary_p.bind(x, axes=new) if new else x


rules.vma_pvary[0] = pvary


def insert_collective_pvary(names: tuple, x):
    """Before a collective over ``names``: make ``x`` vary along the manual (vma-checked)
    axes among them, so that e.g. ``psum`` of an invariant value counts it once per device
    and its transpose is right (JAX's ``insert_collective_pvary``)."""
    manual = spmd.vma_axes()
    if not manual:
        return x
    want = tuple(n for n in names if n in manual)
    return pvary(x, want) if want else x


def _psum_varying(ct, names: tuple):
    """``psum`` of a cotangent over ``names``, cast to varying first (typed as JAX does)."""
    return psum_p.bind(insert_collective_pvary(names, ct), axis_name=names)


# --------------------------------------------------------------------- psum/pmax/pmin
def _reducing_collective(name: str, reduce_fn, unbatched_fn, np_fn):
    p = Primitive(name)

    def abstract_eval(x, *, axis_name):
        # The result no longer varies along the reduced axes.
        return ShapedArray(x.shape, x.dtype, x.weak_type, x.vma - frozenset(axis_name))

    def batch(axis_data, args, dims, *, axis_name):
        (x,), (d,) = args, dims
        mine, rest = _split_names(axis_data, axis_name)
        if not mine:
            return p.bind(x, axis_name=axis_name), d
        out = unbatched_fn(x, axis_data.size) if d is not_mapped else reduce_fn(x, (d,))
        if rest:
            out = p.bind(out, axis_name=rest)
        return out, not_mapped

    rules.impl_rules[p] = _reduce_impl(np_fn)
    rules.device_context.add(p)
    rules.abstract_eval_rules[p] = abstract_eval
    rules.vma_rules[p] = _keep_vma
    rules.batch_rules[p] = batch
    return p


def _psum_unbatched(x, size):
    if aval_of(x).dtype == dtypes.bool_:
        x = conversion.convert_element_type(x, dtypes.int32)
    return ew.mul(x, _shape.broadcast_to_rank(_scalar_like(x, size), aval_of(x).shape))


def _psum_reduce(x, axes):
    if aval_of(x).dtype == dtypes.bool_:
        x = conversion.convert_element_type(x, dtypes.int32)
    return _red.reduce_sum(x, axes)


psum_p = _reducing_collective("psum", _psum_reduce, _psum_unbatched, np.add)
pmax_p = _reducing_collective("pmax", _red.reduce_max, lambda x, size: x, np.maximum)
pmin_p = _reducing_collective("pmin", _red.reduce_min, lambda x, size: x, np.minimum)


def _psum_transpose(ct, x, *, axis_name):
    # Over a manual axis the operand varies along (vma), psum goes from varying to
    # invariant: its transpose is a pvary, a copy (S10.4). Over other axes (vmap's named
    # axes, shard_map with check_vma=False) each input feeds every output once: psum again.
    if type(ct) is Zero:
        return [Zero(x.aval)]
    vary = tuple(n for n in axis_name if n in x.aval.vma)
    rest = tuple(n for n in axis_name if n not in x.aval.vma)
    if rest:
        ct = psum_p.bind(ct, axis_name=rest)
    return [pvary(ct, vary) if vary else ct]


# psum is linear.
rules.jvp_rules[psum_p] = lambda primals, tangents, *, axis_name: (
    psum_p.bind(primals[0], axis_name=axis_name),
    tangents[0] if type(tangents[0]) is Zero else psum_p.bind(tangents[0], axis_name=axis_name),
)
rules.transpose_rules[psum_p] = _psum_transpose


def _pextremum_jvp(p):
    # Beyond JAX (which has no rule): the tangent flows from the elements attaining the
    # extremum, averaged over ties, like reduce_max's JVP.
    def jvp(primals, tangents, *, axis_name):
        (x,), (t,) = primals, tangents
        ans = p.bind(x, axis_name=axis_name)
        if type(t) is Zero:
            return ans, Zero(aval_of(ans).to_tangent_aval())
        loc = ew.convert_element_type_like(ew.eq(x, ans), t)
        num = psum_p.bind(ew.mul(t, loc), axis_name=axis_name)
        return ans, ew.div(num, psum_p.bind(loc, axis_name=axis_name))

    rules.jvp_rules[p] = jvp


_pextremum_jvp(pmax_p)
_pextremum_jvp(pmin_p)


def check_uniform_state(what: str, names: tuple, v) -> None:
    """Under check_vma, a reduction over several manual axes needs the operand to vary
    along all of them or along none (JAX's error otherwise)."""
    manual = spmd.vma_axes()
    if not manual:
        return
    a = aval_of(v)
    ours = [n for n in names if n in manual]
    if any(n in a.vma for n in ours) and any(n not in a.vma for n in ours):
        raise ValueError(
            f"jax.lax.{what} can only accept axis_name which corresponds to one of varying, "
            "unreduced, reduced or invarying state of the input. Got input type: "
            f"{a.str_short()}, axes: {names} and input state: {{'invarying', 'varying'}}"
        )


def _static_leaf(v) -> bool:
    # Python numbers and NumPy arrays (not bools): psum of them is computed statically.
    if isinstance(v, (bool, np.bool_)):
        return False
    if isinstance(v, (int, float, complex)):
        return True
    return isinstance(v, (np.ndarray, np.generic)) and v.dtype != np.bool_


def _static_times(v, n):
    if isinstance(v, (int, float, complex)):
        return v * type(v)(n)
    return v * np.asarray(n, v.dtype)


def psum(x: Any, axis_name: Any, *, axis_index_groups=None):
    """``jax.lax.psum``: sum of ``x`` (a pytree) over the named axis (or tuple of axes).

    As in JAX, when every leaf is a Python number or a NumPy array the sum is computed
    statically (the value times the axis size, of the same type): ``psum(1, 'i')`` is the
    Python int axis size."""
    if axis_index_groups is not None:
        raise NotImplementedError("psum: axis_index_groups is not supported")
    names = _names(axis_name)
    _check_bound(names, "psum")
    leaves = tree_util.tree_leaves(x)
    if leaves and all(_static_leaf(v) for v in leaves):
        n = _axis_size(names, "psum")
        return _tree_map(lambda v: _static_times(v, n), x)

    def one(v):
        v = _asarray(v)
        if aval_of(v).dtype == dtypes.bool_:
            v = conversion.convert_element_type(v, dtypes.int32)
        check_uniform_state("psum", names, v)
        return psum_p.bind(insert_collective_pvary(names, v), axis_name=names)

    return _tree_map(one, x)


def pmean(x: Any, axis_name: Any, *, axis_index_groups=None):
    """``jax.lax.pmean``: ``psum(x) / axis size``."""
    if axis_index_groups is not None:
        raise NotImplementedError("pmean: axis_index_groups is not supported")
    names = _names(axis_name)
    n = _axis_size(names, "pmean")
    leaves = tree_util.tree_leaves(x)
    if leaves and all(_static_leaf(v) for v in leaves):
        return _tree_map(lambda v: _static_times(v, n) / n, x)

    def one(v):
        s = psum(v, names)
        a = aval_of(s)
        dt = a.dtype if dtypes.is_inexact(a.dtype) else dtypes.default_float_dtype()
        s = conversion.convert_element_type(s, dt, a.weak_type)
        return ew.div(s, _shape.broadcast_to_rank(_shape.full((), n, dt, a.weak_type), a.shape))

    return _tree_map(one, x)


def _pextremum(p, what):
    def fn(x: Any, axis_name: Any, *, axis_index_groups=None):
        if axis_index_groups is not None:
            raise NotImplementedError(f"{what}: axis_index_groups is not supported")
        names = _names(axis_name)
        _check_bound(names, what)
        return _tree_map(
            lambda v: p.bind(insert_collective_pvary(names, _asarray(v)), axis_name=names), x
        )

    fn.__name__ = what
    fn.__doc__ = f"``jax.lax.{what}`` over the named axis (pytrees allowed)."
    return fn


pmax = _pextremum(pmax_p, "pmax")
pmin = _pextremum(pmin_p, "pmin")


# ------------------------------------------------------------------------- axis_index
axis_index_p = Primitive("axis_index")


def _axis_index_batch(axis_data, args, dims, *, axis_name):
    mine, _ = _split_names(axis_data, axis_name)
    if not mine:  # pragma: no cover (no operands: BatchTrace only routes its own axis)
        return axis_index_p.bind(axis_name=axis_name), not_mapped
    return conversion.iota(dtypes.int32, axis_data.size), 0


def _axis_index_impl(*, axis_name):
    return np.int32(_device_ctx(axis_name, nested_ok=True).position(axis_name))


rules.impl_rules[axis_index_p] = _axis_index_impl
rules.device_context.add(axis_index_p)
# Varying along its axes when they are manual axes of a vma-checked shard_map body.
rules.abstract_eval_rules[axis_index_p] = lambda *, axis_name: ShapedArray(
    (), dtypes.int32, False, frozenset(axis_name) & spmd.vma_axes()
)
rules.vma_rules[axis_index_p] = _keep_vma
rules.batch_rules[axis_index_p] = _axis_index_batch
rules.non_differentiable.add(axis_index_p)
rules.jvp_rules[axis_index_p] = lambda primals, tangents, *, axis_name: (
    axis_index_p.bind(axis_name=axis_name),
    Zero(ShapedArray((), dtypes.float0)),
)


def axis_index(axis_name: Any):
    """``jax.lax.axis_index``: this element's int32 position along the named axis (for a
    tuple of axes, the row-major position over them, in the order given)."""
    names = _names(axis_name)
    env = _check_bound(names, "axis_index")
    if len(names) == 1:
        return axis_index_p.bind(axis_name=names)
    out = None
    for n in names:
        i = axis_index_p.bind(axis_name=(n,))
        out = i if out is None else ew.add(ew.mul(out, _shape.full((), env[n], dtypes.int32)), i)
    return out


# ------------------------------------------------------------------------- all_gather
all_gather_p = Primitive("all_gather")


def _all_gather_abstract_eval(x, *, axis_name, axis, axis_size, tiled, to="varying"):
    shape = list(x.shape)
    if tiled:
        shape[axis] *= axis_size
    else:
        shape.insert(axis, axis_size)
    vma = x.vma - frozenset(axis_name) if to == "invarying" else x.vma
    return ShapedArray(tuple(shape), x.dtype, x.weak_type, vma)


def _all_gather_batch(axis_data, args, dims, *, axis_name, axis, axis_size, tiled, to="varying"):
    (x,), (d,) = args, dims
    mine, _ = _split_names(axis_data, axis_name)
    if not mine:
        if d is not_mapped:
            return all_gather_p.bind(
                x, axis_name=axis_name, axis=axis, axis_size=axis_size, tiled=tiled, to=to
            ), not_mapped
        x = _shape.moveaxis(x, d, 0)
        return all_gather_p.bind(
            x, axis_name=axis_name, axis=axis + 1, axis_size=axis_size, tiled=tiled, to=to
        ), 0
    if len(axis_name) != 1:
        raise NotImplementedError("all_gather over several axes is not supported")
    n = axis_data.size
    if d is not_mapped:
        shape = list(aval_of(x).shape)
        shape.insert(axis, n)
        dims_kept = tuple(i for i in range(len(shape)) if i != axis)
        out = _shape.broadcast_in_dim(x, tuple(shape), dims_kept)
    else:
        out = _shape.moveaxis(x, d, axis)
    if tiled:
        s = list(aval_of(out).shape)
        s[axis : axis + 2] = [s[axis] * s[axis + 1]]
        out = _shape.reshape(out, tuple(s))
    return out, not_mapped


def _all_gather_transpose(ct, x, *, axis_name, axis, axis_size, tiled, to="varying"):
    # Each element receives the sum over all elements of its own slice of the cotangent.
    # With to='invarying' over manual axes (vma) the result is one replicated value: each
    # device's slice of its cotangent is the operand's (no sum, as JAX's dynamic_slice).
    if type(ct) is Zero:
        return [Zero(x.aval)]
    if to == "invarying" and all(n in x.aval.vma for n in axis_name):
        summed = ct
    else:
        summed = _psum_varying(ct, axis_name)
    idx = axis_index_p.bind(axis_name=axis_name)
    shape = aval_of(summed).shape
    if tiled:
        k = shape[axis] // axis_size
        start = ew.mul(idx, _shape.full((), k, dtypes.int32))
        starts = [start if i == axis else 0 for i in range(len(shape))]
        sizes = tuple(k if i == axis else s for i, s in enumerate(shape))
        return [slicing.clamped_dynamic_slice(summed, starts, sizes)]
    starts = [idx if i == axis else 0 for i in range(len(shape))]
    sizes = tuple(1 if i == axis else s for i, s in enumerate(shape))
    return [_shape.squeeze(slicing.clamped_dynamic_slice(summed, starts, sizes), (axis,))]


def _all_gather_impl(x, *, axis_name, axis, axis_size, tiled, to="varying"):
    vals = _members(_device_ctx(axis_name), axis_name, x)
    return np.concatenate(vals, axis) if tiled else np.stack(vals, axis)


rules.impl_rules[all_gather_p] = _all_gather_impl
rules.device_context.add(all_gather_p)
rules.abstract_eval_rules[all_gather_p] = _all_gather_abstract_eval
rules.vma_rules[all_gather_p] = _keep_vma
rules.batch_rules[all_gather_p] = _all_gather_batch
rules.transpose_rules[all_gather_p] = _all_gather_transpose


def _all_gather_jvp(primals, tangents, **params):
    out = all_gather_p.bind(primals[0], **params)
    t = tangents[0]
    if type(t) is Zero:
        return out, Zero(aval_of(out).to_tangent_aval())
    return out, all_gather_p.bind(t, **params)


rules.jvp_rules[all_gather_p] = _all_gather_jvp


_ALL_GATHER_TO = ("reduced", "varying", "invarying")


def all_gather(
    x: Any,
    axis_name: Any,
    *,
    axis_index_groups=None,
    axis: int = 0,
    tiled: bool = False,
    to: str = "varying",
):
    """``jax.lax.all_gather``: every element sees the values of all elements, stacked on
    ``axis`` (concatenated if ``tiled``).

    ``to`` (inside ``shard_map``): ``'varying'`` (the default) types the result as varying
    over the axis, ``'invarying'`` as replicated (so ``out_specs=P()`` accepts it).

    Raises:
        ValueError: for a ``to`` value not in ``{'reduced', 'varying', 'invarying'}``.
    """
    if to not in _ALL_GATHER_TO:
        raise ValueError(
            "Got unexpected `to` value for `jax.lax.all_gather`. Allowed `to` values are: "
            f"{set(_ALL_GATHER_TO)}"
        )
    if axis_index_groups is not None:
        raise NotImplementedError("all_gather: axis_index_groups is not supported")
    names = _names(axis_name)
    size = _axis_size(names, "all_gather")

    def one(v):
        v = _asarray(v)
        nd = aval_of(v).ndim
        ax = int(axis)
        limit = nd if tiled else nd + 1
        if not -limit <= ax < limit:
            raise ValueError(
                f"all_gather: axis {axis} is out of bounds for an operand of rank {nd}"
            )
        ax %= limit
        if tiled and nd == 0:
            raise ValueError("all_gather with tiled=True needs an operand of rank >= 1")
        return all_gather_p.bind(
            insert_collective_pvary(names, v),
            axis_name=names,
            axis=ax,
            axis_size=size,
            tiled=bool(tiled),
            to=to,
        )

    return _tree_map(one, x)


# --------------------------------------------------------------------------- ppermute
ppermute_p = Primitive("ppermute")


def _ppermute_batch(axis_data, args, dims, *, axis_name, perm):
    (x,), (d,) = args, dims
    mine, _ = _split_names(axis_data, axis_name)
    if not mine:
        return ppermute_p.bind(x, axis_name=axis_name, perm=perm), d
    if len(axis_name) != 1:
        raise NotImplementedError("ppermute over several axes is not supported")
    n = axis_data.size
    src_of = np.zeros(n, np.int32)
    has_src = np.zeros(n, bool)
    for s, t in perm:
        src_of[t] = s
        has_src[t] = True
    if d is not_mapped:
        if has_src.all():
            return x, not_mapped
        x = _shape.broadcast_batch(x, n)
    else:
        x = _shape.moveaxis(x, d, 0)
    out = _idx.gather(x, ArrayImpl(src_of))
    if not has_src.all():
        shape = aval_of(out).shape
        mask = _shape.broadcast_in_dim(ArrayImpl(has_src), shape, (0,))
        out = ew.select_n(mask, ew.zeros_like(out), out)
    return out, 0


def _ppermute_transpose(ct, x, *, axis_name, perm):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    inverse = tuple((t, s) for s, t in perm)
    return [ppermute_p.bind(ct, axis_name=axis_name, perm=inverse)]


def _ppermute_impl(x, *, axis_name, perm):
    ctx = _device_ctx(axis_name)
    vals = _members(ctx, axis_name, x)
    me = ctx.position(axis_name)
    for s, t in perm:
        if t == me:
            return np.array(vals[s], copy=True)
    return np.zeros_like(x)


rules.impl_rules[ppermute_p] = _ppermute_impl
rules.device_context.add(ppermute_p)
rules.abstract_eval_rules[ppermute_p] = lambda x, *, axis_name, perm: x.update()
rules.vma_rules[ppermute_p] = _keep_vma
rules.batch_rules[ppermute_p] = _ppermute_batch
rules.transpose_rules[ppermute_p] = _ppermute_transpose
rules.jvp_rules[ppermute_p] = lambda primals, tangents, *, axis_name, perm: (
    ppermute_p.bind(primals[0], axis_name=axis_name, perm=perm),
    tangents[0]
    if type(tangents[0]) is Zero
    else ppermute_p.bind(tangents[0], axis_name=axis_name, perm=perm),
)


def _mesh_order(names: tuple) -> tuple:
    """``names`` in mesh order when they are all manual axes of enclosing shard_maps.

    JAX numbers the devices of a ppermute over several mesh axes in the mesh's axis order,
    whatever the order of the names (unlike ``axis_index``, ``all_gather``, ``psum_scatter``
    and ``all_to_all``, which take the names' order, first name major)."""
    if len(names) < 2:
        return names
    env = spmd.tracing_axes()
    ctx = spmd.current()
    order = list(ctx.exchange.axis_names) if ctx is not None else []
    order += [n for n in env if n not in order]
    if not all(n in order for n in names):
        return names
    return tuple(sorted(names, key=order.index))


def ppermute(x: Any, axis_name: Any, perm):
    """``jax.lax.ppermute``: element ``dst`` receives ``x`` of element ``src`` for each
    ``(src, dst)`` pair of ``perm``; elements that receive nothing get zeros."""
    names = _mesh_order(_names(axis_name))
    size = _axis_size(names, "ppermute")
    perm = tuple((int(s), int(t)) for s, t in perm)
    srcs, dsts = [s for s, _ in perm], [t for _, t in perm]
    if len(set(srcs)) != len(srcs) or len(set(dsts)) != len(dsts):
        raise ValueError(f"ppermute sources and destinations must be unique, got {perm}.")
    for i in srcs + dsts:
        if not 0 <= i < size:
            raise ValueError(
                f"ppermute permutation index {i} is out of range for an axis of size {size}."
            )
    return _tree_map(
        lambda v: ppermute_p.bind(
            insert_collective_pvary(names, _asarray(v)), axis_name=names, perm=perm
        ),
        x,
    )


__all__ = [
    "check_uniform_state",
    "insert_collective_pvary",
    "pvary",
    "pvary_p",
    "all_gather",
    "all_gather_p",
    "axis_index",
    "axis_index_p",
    "pmax",
    "pmax_p",
    "pmean",
    "pmin",
    "pmin_p",
    "ppermute",
    "ppermute_p",
    "pshuffle",
    "psum",
    "psum_p",
]


def pshuffle(x: Any, axis_name: Any, perm):
    """``jax.lax.pshuffle``: a ``ppermute`` where element ``i`` receives ``x`` of element
    ``perm[i]``. ``perm`` must hold each of ``0 .. len(perm) - 1`` once; elements beyond
    ``len(perm)`` receive zeros."""
    perm = list(perm)
    if set(perm) != set(range(len(perm))):
        raise ValueError(f"`perm` does not represent a permutation: {perm}")
    return ppermute(x, axis_name, [(src, dst) for dst, src in enumerate(perm)])
