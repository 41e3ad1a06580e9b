"""Cumulative reductions: cumsum, cumprod, cummax, cummin (``jax.lax.cum*``). The JVP of
cummax/cummin gathers the tangent at the running extremum, so this family sits after
indexing."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.ops import conversion, elementwise as ew, indexing, minmax, shape as _shape
from jaxlite._src.ops._factories import deflinear


# ----------------------------------------------------------------- cumulative reductions
def _cumulative(name, np_fn):
    p = Primitive(name)

    def abstract_eval(x, *, axis, reverse):
        if not 0 <= axis < max(x.ndim, 1):
            raise ValueError(f"axis {axis} is out of bounds for array of shape {x.shape}")
        return x

    def impl(x, *, axis, reverse):
        if x.ndim == 0:
            return x
        if reverse:
            return np.flip(np_fn(np.flip(x, axis), axis=axis), axis).astype(x.dtype, copy=False)
        return np.asarray(np_fn(x, axis=axis), dtype=x.dtype)

    def batch(axis_data, args, dims, *, axis, reverse):
        (x,), (d,) = args, dims
        return p.bind(x, axis=axis + (axis >= d), reverse=reverse), d

    rules.abstract_eval_rules[p] = abstract_eval
    rules.impl_rules[p] = impl
    rules.batch_rules[p] = batch
    return p


# XLA:CPU runs a cumulative sum or product as a reduce-window: each output folds its window
# into the init (0 or 1) in index order; past _BASE elements a rewriter scans blocks of
# _BASE, scans the block totals the same way, and combines each block with the fold of
# the totals before it. Integers do not care; for floats the order decides overflow,
# underflow and NaN (a reverse product [1e30, 1e30, 1e-30] is inf first; (1 + 0j) *
# (inf + 1j) is inf + nanj), so inexact scans follow that order here.
_BASE = 16


def _fold_windows(x, op, init, reverse):
    """Scan along the last axis, each output its window folded into ``init`` in index
    order (XLA's windows of at most ``_BASE`` elements)."""
    n = x.shape[-1]
    if not reverse:
        first = op(np.full((), init, x.dtype), x[..., :1])
        return op.accumulate(np.concatenate([first, x[..., 1:]], -1), axis=-1, dtype=x.dtype)
    acc = np.full(x.shape, init, x.dtype)
    for k in range(n):  # window i holds x[i:], so x[k] joins the windows i <= k
        op(acc[..., : k + 1], x[..., k : k + 1], out=acc[..., : k + 1])
    return acc


def _xla_scan(x, op, init, reverse):
    n = x.shape[-1]
    if n <= _BASE:
        return _fold_windows(x, op, init, reverse)
    nb = -(-n // _BASE)
    pad = np.full(x.shape[:-1] + (nb * _BASE - n,), init, x.dtype)
    inner = _fold_windows(
        np.concatenate([x, pad], -1).reshape(x.shape[:-1] + (nb, _BASE)), op, init, reverse
    )
    totals = _xla_scan(inner[..., 0] if reverse else inner[..., -1], op, init, reverse)
    before = np.full(totals.shape, init, x.dtype)  # the fold of the totals before each block
    if reverse:
        before[..., :-1] = totals[..., 1:]
    else:
        before[..., 1:] = totals[..., :-1]
    out = op(before[..., None], inner).reshape(x.shape[:-1] + (nb * _BASE,))
    return out[..., :n]


def _inexact_scan(op, init, plain, fold_one):
    def scan(x, axis, reverse=False):
        if not dtypes.is_inexact(x.dtype) or (x.shape[axis] < 2 and not fold_one(x.dtype)):
            # one element: XLA takes the element itself (-0.0 stays -0.0), except for a
            # complex product and a bfloat16 sum, which it folds into the init
            return plain(x, axis, reverse)
        with np.errstate(all="ignore"):
            out = _xla_scan(np.moveaxis(x, axis, -1), op, init, reverse)
        return np.moveaxis(out, -1, axis)

    return scan


def _plain(np_fn):
    def run(x, axis, reverse):
        if reverse:
            return np.flip(np_fn(np.flip(x, axis), axis=axis, dtype=x.dtype), axis)
        return np_fn(x, axis=axis, dtype=x.dtype)

    return run


def _scan_primitive(name, scan):
    p = _cumulative(name, None)

    def impl(x, *, axis, reverse):
        if x.ndim == 0:
            return x
        return np.asarray(scan(x, axis, reverse), dtype=x.dtype)

    rules.impl_rules[p] = impl
    return p


cumsum_p = _scan_primitive(
    "cumsum", _inexact_scan(np.add, 0, _plain(np.cumsum), lambda d: d == dtypes.bfloat16)
)
cumprod_p = _scan_primitive(
    "cumprod", _inexact_scan(np.multiply, 1, _plain(np.cumprod), dtypes.is_complex)
)
cummax_p = _cumulative(
    "cummax", lambda x, axis: minmax.fix_accumulate(np.maximum.accumulate(x, axis), x, axis, True)
)
cummin_p = _cumulative(
    "cummin", lambda x, axis: minmax.fix_accumulate(np.minimum.accumulate(x, axis), x, axis, False)
)
deflinear(
    cumsum_p,
    lambda ct, x, *, axis, reverse: [
        Zero(x.aval) if type(ct) is Zero else cumsum_p.bind(ct, axis=axis, reverse=not reverse)
    ],
)


def _interleave(a, b, axis):
    """``a[0], b[0], a[1], b[1], ...`` along ``axis`` (``a`` has as many or one more), as
    JAX's associative scan builds it: each padded with a strong zero between its elements,
    then added (so the result is strongly typed and ``-0.0`` comes out ``+0.0``)."""
    na, nb = aval_of(a).shape[axis], aval_of(b).shape[axis]
    cfg_a = [(0, 0, 0)] * aval_of(a).ndim
    cfg_b = [(0, 0, 0)] * aval_of(b).ndim
    cfg_a[axis] = (0, 1 if na == nb else 0, 1)
    cfg_b[axis] = (1, 0 if na == nb else 1, 1)
    zero = _shape.full((), 0, aval_of(a).dtype)
    return ew.add(_shape.pad(a, zero, cfg_a), _shape.pad(b, zero, cfg_b))


def _prod_pairs(x, y):
    """``(a, da) * (b, db) = (a b, da b + a db)``: the product rule."""
    return ew.mul(x[0], y[0]), ew.add(ew.mul(x[1], y[0]), ew.mul(x[0], y[1]))


def _extremum_pairs(op):
    """``combine`` for cummax/cummin: ``op`` of the values, the tangent by ``op``'s JVP
    (the winner's tangent, split evenly between ties, 0 where the result is NaN)."""

    def combine(x, y):
        m = op(x[0], y[0])
        tx = ew.mul(x[1], ew._balanced_eq(x[0], m, y[0]))
        return m, ew.add(tx, ew.mul(y[1], ew._balanced_eq(y[0], m, x[0])))

    return combine


def _scan_prod_pairs(pair, axis, combine=_prod_pairs):
    """Inclusive scan of ``(value, tangent)`` pairs along ``axis`` under ``combine`` (the
    product rule by default) with JAX's associative-scan association (combine adjacent
    pairs, scan the half, fill in the evens), so zeros, infinities and ties give JAX's
    values; built from slices, pads and elementwise ops, whose own JVPs give the higher
    derivatives."""
    n = aval_of(pair[0]).shape[axis]
    if n < 2:
        return pair

    def sl(xs, start, stop, stride):
        return [_shape.slice_in_dim(x, start, stop, stride, axis) for x in xs]

    odd = _scan_prod_pairs(combine(sl(pair, 0, n - 1, 2), sl(pair, 1, n, 2)), axis, combine)
    m = aval_of(odd[0]).shape[axis]
    prev = sl(odd, 0, m - 1, 1) if n % 2 == 0 else odd
    even = combine(prev, sl(pair, 2, n, 2))
    even = [_shape.concatenate([f, e], axis) for f, e in zip(sl(pair, 0, 1, 1), even)]
    return [_interleave(e, o, axis) for e, o in zip(even, odd)]


def _scan_jvp(p, combine):
    """JAX's JVP of cumprod/cummax/cummin: the JVP of an associative scan of ``combine``
    over the axis, primal output included, so both are strongly typed past one element
    and carry the scan's association (zeros, infinities, signed zeros, ties)."""

    def rule(primals, tangents, *, axis, reverse):
        (x,), (t,) = primals, tangents
        if aval_of(x).ndim == 0 or aval_of(x).shape[axis] < 2:
            return p.bind(x, axis=axis, reverse=reverse), t
        if reverse:
            x, t = _shape.rev(x, (axis,)), _shape.rev(t, (axis,))
        out = _scan_prod_pairs([x, t], axis, combine)
        if reverse:
            out = [_shape.rev(o, (axis,)) for o in out]
        return out[0], out[1]

    rules.jvp_rules[p] = rule


_scan_jvp(cumprod_p, _prod_pairs)
# ties split their tangents, as JAX's max/min JVP
_scan_jvp(cummax_p, _extremum_pairs(ew.max))
_scan_jvp(cummin_p, _extremum_pairs(ew.min))


def cumsum(x, axis: int = 0, reverse: bool = False):
    return cumsum_p.bind(x, axis=int(axis), reverse=bool(reverse))


def cumprod(x, axis: int = 0, reverse: bool = False):
    return cumprod_p.bind(x, axis=int(axis), reverse=bool(reverse))


def cummax(x, axis: int = 0, reverse: bool = False):
    return cummax_p.bind(x, axis=int(axis), reverse=bool(reverse))


def cummin(x, axis: int = 0, reverse: bool = False):
    return cummin_p.bind(x, axis=int(axis), reverse=bool(reverse))
