"""Gather and scatter in a NumPy-shaped form.

``gather_p(x, *idxs)``: ``x[idx_0, ..., idx_{k-1}]`` where the ``k`` index arrays (integer,
broadcast together to shape ``S``) index the *leading* ``k`` axes of ``x``; the result has
shape ``S + x.shape[k:]``. Out-of-bounds indices are clamped, as JAX does for gathers.
(Indexing other axes is a transpose away; that is the ``jax.numpy`` layer's job.)

``scatter_p(x, updates, *idxs, mode)``: the matching update, with ``mode`` one of
``"set" "set_unique" "add" "mul" "min" "max"``; out-of-bounds updates are dropped, as in
JAX. ``"set_unique"`` is ``"set"`` with JAX's ``unique_indices=True`` (also what basic
indices and batched dynamic updates give): its JVP scatters the tangents and its
transpose gathers the cotangent for every update; a plain ``"set"`` differentiates as
JAX's scatter without that promise (``_set_jvp``).
``"gather_t"`` is ``"add"`` made by transposing a gather (JAX's promise-in-bounds
scatter): transposed again it is that clamping gather, without masking out-of-bounds
positions (so reverse-over-reverse agrees with forward-over-reverse, as in JAX).

The form is closed under batching: a batched gather adds an ``iota`` index over the batch
axis in front.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, check_not_linear, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import Tracer
from jaxlite._src.ops import (
    _native,
    conversion,
    elementwise as ew,
    minmax,
    reductions,
    shape as _shape,
    structural,
)


def _bshape(idx_avals):
    try:
        return tuple(np.broadcast_shapes(*[a.shape for a in idx_avals]))
    except ValueError:
        raise TypeError(
            "gather/scatter index arrays must broadcast together, got shapes "
            + ", ".join(str(a.shape) for a in idx_avals)
        ) from None


# ------------------------------------------------------------------------------ gather
gather_p = Primitive("gather")


def _gather_impl(x, *idxs):
    k = len(idxs)
    clamped = tuple(np.clip(i, 0, n - 1) if n > 0 else i for i, n in zip(idxs, x.shape[:k]))
    return x[clamped]


def _gather_abstract_eval(x, *idxs):
    if len(idxs) > x.ndim:
        raise TypeError(f"too many indices for array of dimension {x.ndim}")
    for i in idxs:
        if not dtypes.is_int(i.dtype):
            raise TypeError(f"gather indices must be integers, got {dtypes.short_name(i.dtype)}")
    bshape = _bshape(idxs)
    if int(np.prod(bshape, dtype=np.int64)) > 0:
        for d, n in enumerate(x.shape[: len(idxs)]):
            if n == 0:
                # No element to take (JAX's gather rejects its size-1 slice the same way).
                raise TypeError(
                    f"Slice size at index {d} in gather op is out of range, must be within "
                    f"[0, 0 + 1), got 1."
                )
    return ShapedArray(bshape + x.shape[len(idxs) :], x.dtype, x.weak_type)


def _gather_jvp(primals, tangents):
    x, *idxs = primals
    out = gather_p.bind(x, *idxs)
    t = tangents[0]
    if type(t) is Zero:
        return out, Zero(aval_of(out).to_tangent_aval())
    return out, gather_p.bind(t, *idxs)


def _gather_transpose(ct, x, *idxs):
    check_not_linear("gather", "indices", *idxs)
    if type(ct) is Zero:
        return [Zero(x.aval)] + [None] * len(idxs)
    zeros = _shape.full(x.aval.shape, 0, x.aval.dtype)
    return [scatter_p.bind(zeros, ct, *idxs, mode="gather_t")] + [None] * len(idxs)


def _batch_indices(axis_data, idxs, dims):
    """Index arrays for the batched form: a leading iota index plus each index with a
    leading batch axis (size 1 if unbatched)."""
    size = axis_data.size
    out = []
    nd = max([aval_of(i).ndim - (d is not not_mapped) for i, d in zip(idxs, dims)] + [0])
    for i, d in zip(idxs, dims):
        if d is not_mapped:
            i = _shape.reshape(i, (1,) * (nd - aval_of(i).ndim + 1) + aval_of(i).shape)
        else:
            i = _shape.moveaxis(i, d, 0)
            s = aval_of(i).shape
            i = _shape.reshape(i, (s[0],) + (1,) * (nd - len(s) + 1) + s[1:])
        out.append(i)
    it = conversion.broadcasted_iota(dtypes.int32, (size,) + (1,) * nd, 0)
    return [it] + [conversion.convert_element_type(i, dtypes.int32) for i in out]


def _gather_batch(axis_data, args, dims):
    x, *idxs = args
    dx, *didx = dims
    if all(d is not_mapped for d in didx):
        # Only the operand is batched: put its batch axis right after the indexed axes.
        k = len(idxs)
        x = _shape.moveaxis(x, dx, k)
        out = gather_p.bind(x, *idxs)
        return out, len(_bshape([aval_of(i) for i in idxs]))
    x = _shape.broadcast_batch(x, axis_data.size) if dx is not_mapped else _shape.moveaxis(x, dx, 0)
    return gather_p.bind(x, *_batch_indices(axis_data, idxs, didx)), 0


rules.impl_rules[gather_p] = _gather_impl
rules.abstract_eval_rules[gather_p] = _gather_abstract_eval
rules.jvp_rules[gather_p] = _gather_jvp
rules.transpose_rules[gather_p] = _gather_transpose
rules.batch_rules[gather_p] = _gather_batch


def gather(x, *idxs):
    """Gather on the leading ``len(idxs)`` axes (clamped indices)."""
    idxs = [
        conversion.convert_element_type(i, dtypes.int32)
        if not dtypes.is_int(aval_of(i).dtype)
        else i
        for i in idxs
    ]
    return gather_p.bind(x, *idxs)


def take_along_axis(x, idx, axis: int):
    """``x[..., idx, ...]`` along ``axis`` where ``idx`` has ``x``'s shape on other axes."""
    shape = aval_of(x).shape
    nd = len(shape)
    axis = axis % nd
    ishape = aval_of(idx).shape
    idxs = []
    for a in range(nd):
        if a == axis:
            idxs.append(idx)
        else:
            b = [1] * nd
            b[a] = ishape[a]
            idxs.append(conversion.broadcasted_iota(dtypes.int32, tuple(b), a) if True else None)
    return gather_p.bind(x, *[conversion.convert_element_type(i, dtypes.int32) for i in idxs])


# ----------------------------------------------------------------------------- scatter
scatter_p = Primitive("scatter")


def _in_bounds(idxs, shape):
    ok = True
    for i, n in zip(idxs, shape):
        ok = ok & (i >= 0) & (i < n)
    return ok


def _scatter_impl(x, updates, *idxs, mode):
    out = np.array(x, copy=True)
    k = len(idxs)
    S = np.broadcast_shapes(*[i.shape for i in idxs]) if idxs else ()
    bidx = [np.broadcast_to(i, S) for i in idxs]
    upd = np.broadcast_to(updates, S + x.shape[k:])
    mask = _in_bounds(bidx, x.shape)
    if not np.all(mask):
        bidx = [i[mask] for i in bidx]
        upd = upd[mask]
    if mode in ("set", "set_unique"):
        # NumPy assigns repeated positions in the memory order of its operands: made
        # C-contiguous, the last update in index order wins (as XLA's)
        t = tuple(np.ascontiguousarray(i) for i in bidx)
        out[t] = np.ascontiguousarray(upd)
        return out
    t = tuple(bidx)
    if mode in ("add", "gather_t"):
        np.add.at(out, t, upd)
    elif mode == "mul":
        np.multiply.at(out, t, upd)
    elif mode == "min":
        np.minimum.at(out, t, upd)
        minmax.fix_scatter(out, x, t, upd, False)
    elif mode == "max":
        np.maximum.at(out, t, upd)
        minmax.fix_scatter(out, x, t, upd, True)
    else:  # pragma: no cover
        raise ValueError(mode)
    return out


def _scatter_abstract_eval(x, updates, *idxs, mode):
    if updates.dtype != x.dtype:
        raise TypeError(
            "scatter updates must have the operand's dtype, got "
            f"{dtypes.short_name(updates.dtype)} and {dtypes.short_name(x.dtype)}"
        )
    expected = _bshape(idxs) + x.shape[len(idxs) :]
    try:
        np.broadcast_shapes(updates.shape, expected)
    except ValueError:
        raise ValueError(
            f"scatter updates of shape {updates.shape} cannot be broadcast to "
            f"the indexed shape {expected}"
        ) from None
    # The operand's weak type, as JAX's scatters (the updates' does not matter).
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _known_unique(idxs):
    """Whether the (concrete) index arrays name each position at most once."""
    if any(isinstance(i, Tracer) for i in idxs):
        return False
    vals = [np.asarray(i) for i in idxs]
    S = np.broadcast_shapes(*[v.shape for v in vals]) if vals else ()
    rows = np.stack([np.broadcast_to(v, S).ravel() for v in vals], axis=-1) if vals else None
    return rows is None or len(np.unique(rows, axis=0)) == len(rows)


def _scatter_jvp(primals, tangents, *, mode):
    x, u, *idxs = primals
    tx, tu = tangents[0], tangents[1]
    out = scatter_p.bind(x, u, *idxs, mode=mode)
    if type(tx) is Zero and type(tu) is Zero:
        return out, Zero(aval_of(out).to_tangent_aval())

    tx, tu = structural.instantiate(tx), structural.instantiate(tu)
    if mode == "set":
        return _set_jvp(x, u, idxs, tx, tu)
    if mode in ("set_unique", "add", "gather_t"):
        return out, scatter_p.bind(tx, tu, *idxs, mode=mode)
    if mode == "mul":
        if type(tangents[1]) is not Zero and not _known_unique(idxs):
            # With repeated indices the product rule needs every other update's factor; like
            # JAX (which requires unique_indices=True), refuse rather than give a wrong
            # answer. The tangent w.r.t. the operand alone is exact either way.
            raise NotImplementedError(
                "scatter_mul gradients are only implemented if `unique_indices=True`"
            )
        # d(x * prod u) = tx * prod(u) + x * d(prod u); with one update per slot this is
        # tx * u + x * tu at the scattered positions.
        ones = ew.zeros_like(x)
        scale = scatter_p.bind(
            ew.add(ones, _shape.full((), 1, aval_of(x).dtype)), u, *idxs, mode="mul"
        )
        t_from_x = ew.mul(tx, scale)
        t_from_u = scatter_p.bind(
            ew.zeros_like(x), ew.mul(gather_p.bind(x, *idxs), tu), *idxs, mode="add"
        )
        return out, ew.add(t_from_x, t_from_u)
    return out, _scatter_extremal_tangent(x, u, idxs, tx, tu, out, mode)


def _set_jvp(x, u, idxs, tx, tu):
    """JAX's JVP of a scatter whose indices may repeat: each update gets an id, the ids
    are scattered to find the update left at each position, and the primal and tangent are
    scatter-adds of the masked operand (zero where an update lands) and the masked updates
    (zero where another update won). So a winning ``-0.0`` comes out ``+0.0`` (``0 + -0``),
    in the primal and the tangent, and the tangent is linear in ``tx``, ``tu`` through
    selects that depend on the indices only."""
    k = len(idxs)
    xshape = aval_of(x).shape
    S = _bshape([aval_of(i) for i in idxs])
    shape = S + xshape[k:]
    ids = _shape.reshape(conversion.iota(dtypes.int32, int(np.prod(S, dtype=np.int64))), S)
    ids = ew.add(ids, _shape.full((), 1, dtypes.int32))
    slots = scatter_p.bind(_shape.full(xshape[:k], 0, dtypes.int32), ids, *idxs, mode="set")
    untouched = ew.eq(slots, _shape.full((), 0, dtypes.int32))
    untouched = _shape.broadcast_in_dim(untouched, xshape, tuple(range(k)))
    won = ew.eq(gather_p.bind(slots, *idxs), ids)
    won = _shape.broadcast_in_dim(won, shape, tuple(range(len(S))))

    def masked_add(base, upd):
        if aval_of(upd).shape != shape:
            upd = _shape.broadcast_to_rank(upd, shape)
        base = ew.select_n(untouched, ew.zeros_like(base), base)
        upd = ew.select_n(won, ew.zeros_like(upd), upd)
        return scatter_p.bind(base, upd, *idxs, mode="add")

    return masked_add(x, u), masked_add(tx, tu)


def _scatter_extremal_tangent(x, u, idxs, tx, tu, out, mode):
    """The tangent of a min/max scatter, as JAX defines it: at each updated position the
    tangents of the values that equal the result (the operand's and the updates') are
    averaged; a position whose result equals none of them (NaN) gets a zero tangent."""
    shape = _bshape([aval_of(i) for i in idxs]) + aval_of(x).shape[len(idxs) :]
    if aval_of(u).shape != shape:
        u = _shape.broadcast_to_rank(u, shape)
    if aval_of(tu).shape != shape:
        tu = _shape.broadcast_to_rank(tu, shape)
    dt = aval_of(tx).dtype

    def count(pred):
        ones = ew.select_n(pred, _shape.full(shape, 0, dt), _shape.full(shape, 1, dt))
        return gather_p.bind(scatter_p.bind(ew.zeros_like(tx), ones, *idxs, mode="add"), *idxs)

    target = gather_p.bind(out, *idxs)
    won = ew.eq(u, target)  # this update is (one of) the result
    kept = ew.eq(gather_p.bind(x, *idxs), target)  # the operand's value is the result
    n_won = count(won)
    n_refs = count(_shape.full(shape, True, dtypes.bool_))
    one = _shape.full((), 1, dt)
    share = ew.select_n(kept, ew.div(one, n_won), ew.div(one, ew.add(n_won, one)))
    u_coef = ew.select_n(won, ew.zeros_like(share), share)
    x_share = ew.select_n(kept, ew.zeros_like(share), ew.div(one, ew.add(n_won, one)))
    x_coef = ew.div(ew.sub(x_share, one), n_refs)  # per reference: remove tx, add its share
    t_updates = ew.add(ew.mul(gather_p.bind(tx, *idxs), x_coef), ew.mul(tu, u_coef))
    return scatter_p.bind(tx, t_updates, *idxs, mode="add")


def _scatter_transpose(ct, x, u, *idxs, mode):
    if mode not in ("add", "set", "set_unique", "gather_t"):
        raise NotImplementedError(f"Transpose rule for scatter mode {mode!r} not implemented")
    check_not_linear("scatter", "indices", *idxs)
    uaval = u.aval if is_undefined_primal(u) else aval_of(u)
    if type(ct) is Zero:
        return [
            Zero(x.aval) if is_undefined_primal(x) else None,
            Zero(uaval) if is_undefined_primal(u) else None,
        ] + [None] * len(idxs)
    ct_x = ct_u = None
    if is_undefined_primal(x):
        if mode in ("add", "gather_t"):
            ct_x = ct
        else:
            ct_x = scatter_p.bind(
                ct, ew.zeros_like(gather_p.bind(ct, *idxs)), *idxs, mode="set_unique"
            )
    if is_undefined_primal(u):
        g = gather_p.bind(ct, *idxs)
        if mode != "gather_t":  # gather_t: the clamping gather it came from, unmasked
            # Out-of-bounds updates were dropped: their cotangent is zero.
            mask = _gather_mask(idxs, aval_of(ct).shape, aval_of(g).shape)
            if mode == "set":
                # Of updates to the same position only the one written last wins, so only
                # it gets the cotangent (JAX's "scatter the update ids" rule).
                mask = ew.and_(mask, _winners(idxs, aval_of(ct).shape, aval_of(g).shape))
            g = ew.select_n(mask, ew.zeros_like(g), g)
        if aval_of(g).shape != uaval.shape:
            extra = aval_of(g).ndim - uaval.ndim
            g = reductions.reduce_sum(g, tuple(range(extra))) if extra else g
            axes = tuple(i for i, (a, b) in enumerate(zip(aval_of(g).shape, uaval.shape)) if a != b)
            if axes:
                g = _shape.reshape(reductions.reduce_sum(g, axes), uaval.shape)
        ct_u = g
    return [ct_x, ct_u] + [None] * len(idxs)


def _winners(idxs, shape, out_shape):
    """True for each update of a ``set`` scatter that is the one left at its position."""
    S = _bshape([aval_of(i) for i in idxs])
    n = int(np.prod(S, dtype=np.int64))
    ids = _shape.reshape(conversion.iota(dtypes.int32, n), S)
    k = len(idxs)
    slots = _shape.full(tuple(shape[:k]), -1, dtypes.int32)
    won = gather_p.bind(scatter_p.bind(slots, ids, *idxs, mode="set"), *idxs)
    ok = ew.eq(won, ids)
    return _shape.broadcast_in_dim(ok, out_shape, tuple(range(len(S))))


def _gather_mask(idxs, shape, out_shape):
    ok = None
    for i, n in zip(idxs, shape):
        c = ew.and_(
            ew.ge(i, _shape.full((), 0, aval_of(i).dtype)),
            ew.lt(i, _shape.full((), n, aval_of(i).dtype)),
        )
        ok = c if ok is None else ew.and_(ok, c)
    S = _bshape([aval_of(i) for i in idxs])
    ok = _shape.broadcast_to_rank(ok, S) if aval_of(ok).shape != S else ok
    return _shape.broadcast_in_dim(ok, out_shape, tuple(range(len(S))))


def _scatter_batch(axis_data, args, dims, *, mode):
    x, u, *idxs = args
    dx, du, *didx = dims
    size = axis_data.size
    x = _shape.broadcast_batch(x, size) if dx is not_mapped else _shape.moveaxis(x, dx, 0)
    bidx = _batch_indices(axis_data, idxs, didx)
    S = _bshape([aval_of(i) for i in bidx])
    rest = aval_of(x).shape[len(bidx) :]
    if du is not_mapped:
        u = _shape.broadcast_to_rank(u, S[1:] + rest)
        u = _shape.broadcast_batch(u, size)
    else:
        u = _shape.moveaxis(u, du, 0)
        us = aval_of(u).shape
        u = _shape.reshape(u, (us[0],) + (1,) * (len(S) + len(rest) - len(us)) + us[1:])
        u = _shape.broadcast_in_dim(u, S + rest, tuple(range(len(S) + len(rest))))
    return scatter_p.bind(x, u, *bidx, mode=mode), 0


# NaN updates of a max/min, overflowing sums: XLA stays silent, so do NumPy's ufunc.at kernels
rules.quiet_fp.add(scatter_p)
rules.impl_rules[scatter_p] = _scatter_impl
rules.native_rules[scatter_p] = _native.scatter
rules.abstract_eval_rules[scatter_p] = _scatter_abstract_eval
rules.jvp_rules[scatter_p] = _scatter_jvp
rules.transpose_rules[scatter_p] = _scatter_transpose
rules.batch_rules[scatter_p] = _scatter_batch


def scatter(x, updates, idxs, mode: str = "set"):
    """Scatter ``updates`` into ``x`` at the leading axes indexed by ``idxs``."""
    return scatter_p.bind(x, updates, *idxs, mode=mode)
