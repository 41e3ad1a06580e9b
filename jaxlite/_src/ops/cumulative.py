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
from jaxlite._src.ops._factories import defjvp2, deflinear


# ----------------------------------------------------------------- cumulative reductions
def _cumulative(name, np_fn):
    p = Primitive(name)

    def abstract_eval(x, *, axis, reverse):
        if not 0 <= axis < max(x.ndim, 1):
            raise ValueError(f"{name}: axis {axis} is out of bounds for shape {x.shape}")
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


cumsum_p = _cumulative("cumsum", lambda x, axis: np.cumsum(x, axis=axis, dtype=x.dtype))
cumprod_p = _cumulative("cumprod", lambda x, axis: np.cumprod(x, axis=axis, dtype=x.dtype))
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
    """``a[0], b[0], a[1], b[1], ...`` along ``axis`` (``a`` has as many or one more)."""
    na, nb = aval_of(a).shape[axis], aval_of(b).shape[axis]
    if nb < na:
        config = [(0, 0, 0)] * aval_of(b).ndim
        config[axis] = (0, na - nb, 0)
        b = _shape.pad(b, _shape.full((), 0, aval_of(b).dtype), config)
    both = _shape.concatenate(
        [_shape.expand_dims(a, (axis + 1,)), _shape.expand_dims(b, (axis + 1,))], axis + 1
    )
    shape = list(aval_of(a).shape)
    shape[axis] = 2 * na
    return _shape.slice_in_dim(_shape.reshape(both, tuple(shape)), 0, na + nb, 1, axis)


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


def _cumprod_jvp(t, ans, x, *, axis, reverse):
    if aval_of(x).ndim == 0:
        return t
    if reverse:
        x, t = _shape.rev(x, (axis,)), _shape.rev(t, (axis,))
    dv = _scan_prod_pairs([x, t], axis)[1]
    return _shape.rev(dv, (axis,)) if reverse else dv


defjvp2(cumprod_p, _cumprod_jvp)


def _cumext_jvp(op):
    # JAX's: the JVP of an associative scan of max/min (ties split their tangents).
    def jvp(t, ans, x, *, axis, reverse):
        if aval_of(x).ndim == 0:
            return t
        if reverse:
            x, t = _shape.rev(x, (axis,)), _shape.rev(t, (axis,))
        dv = _scan_prod_pairs([x, t], axis, _extremum_pairs(op))[1]
        return _shape.rev(dv, (axis,)) if reverse else dv

    return jvp


defjvp2(cummax_p, _cumext_jvp(ew.max))
defjvp2(cummin_p, _cumext_jvp(ew.min))


def cumsum(x, axis: int = 0, reverse: bool = False):
    return cumsum_p.bind(x, axis=int(axis), reverse=bool(reverse))


def cumprod(x, axis: int = 0, reverse: bool = False):
    return cumprod_p.bind(x, axis=int(axis), reverse=bool(reverse))


def cummax(x, axis: int = 0, reverse: bool = False):
    return cummax_p.bind(x, axis=int(axis), reverse=bool(reverse))


def cummin(x, axis: int = 0, reverse: bool = False):
    return cummin_p.bind(x, axis=int(axis), reverse=bool(reverse))
