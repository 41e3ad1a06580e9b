"""Equations written as direct NumPy code for their static shapes and dtypes.

Generated code calls a primitive's impl rule with its params bound
(``functools.partial``); the rule then tests, on every call, what the jaxpr already says
(is this reduction over one element? which branch of a dtype conversion applies?). For the
small arrays of a training step's tail that Python overhead is most of the time. ``lines``
gives, for the equations below, the NumPy code the impl rule would run for these avals,
written out inline: the same NumPy calls on the same operands, so the same results.

* ``reshape`` (no ``dimensions``): ``x.reshape(new_sizes)``, what ``np.reshape`` calls.
* ``convert_element_type`` where the impl makes a plain ``astype`` (no bool target, no
  complex-to-real, no float-to-int saturation): ``x.astype(new_dtype)``.
* ``reduce_sum`` / ``reduce_max`` / ``reduce_min`` / ``reduce_prod``: a reduction of one
  element per output is the element itself (``reductions.one_element``: a reshape);
  otherwise a sum or product in XLA's window-tree order (``reduce_order.tree_order``) is
  the plan the impl would look up for these avals (``reduce_order.plan``), another sum
  ``np.add.reduce(x, axes, x.dtype)`` (what ``np.sum`` calls), a
  real max/min is ``np.maximum.reduce`` / ``np.minimum.reduce`` with the same ``initial``,
  then XLA's zero sign (``minmax.fix_reduce``) only when a result is a zero: ``r.all()``
  is false exactly when some element of ``r`` is ``+0`` or ``-0`` (a NaN is true).
* ``select_n`` with a boolean predicate and two cases: ``np.where(which, c1, c0)``.
* ``broadcast_in_dim``: ``shape.broadcast_view`` (``_bid_impl`` after its reshape target
  is worked out), with that target worked out once.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    minmax,
    reduce_order,
    reductions,
    shape as _shape,
)

# Bound once: each ``np.add.reduce`` is a new object, and globals are shared by identity.
_ADD_REDUCE = np.add.reduce
_MAXMIN = {
    reductions.reduce_max_p: (np.maximum.reduce, reductions._lowest, True),
    reductions.reduce_min_p: (np.minimum.reduce, reductions._highest, False),
}
_TREE = {reductions.reduce_sum_p: np.add, reductions.reduce_prod_p: np.multiply}
_INNER = (reductions.reduce_sum_p, reductions.reduce_prod_p, *_MAXMIN)


def _real_max(x, axes, initial):
    r = np.maximum.reduce(x, axes, None, None, False, initial)
    return r if r.all() else minmax.fix_reduce(r, x, axes, True)


def _real_min(x, axes, initial):
    r = np.minimum.reduce(x, axes, None, None, False, initial)
    return r if r.all() else minmax.fix_reduce(r, x, axes, False)


def _reshape(ctx, eqn, ins, outs):
    if eqn.params["dimensions"] is not None:
        return None
    shape = tuple(int(d) for d in eqn.params["new_sizes"])
    return [f"{outs[0]} = {ins[0]}.reshape({shape!r})"]


def _convert(ctx, eqn, ins, outs):
    x, new = eqn.invars[0].aval, eqn.params["new_dtype"]
    if x.shape == () or not isinstance(x.dtype, np.dtype) or not isinstance(new, np.dtype):
        return None
    if (
        (new == np.bool_ and x.dtype != np.bool_)
        or (dtypes.is_complex(x.dtype) and not dtypes.is_complex(new))
        or (dtypes.is_int(new) and dtypes.is_inexact(x.dtype))
    ):
        return None  # the impl's other branches
    return [f"{outs[0]} = {ins[0]}.astype({ctx.add_global(new, '_d')})"]


def _reduction(ctx, eqn, ins, outs):
    x, out = eqn.invars[0].aval, eqn.outvars[0].aval
    axes = tuple(int(a) for a in eqn.params["axes"])
    if reductions.one_element(x.shape, axes):
        return [f"{outs[0]} = {ins[0]}.reshape({tuple(int(d) for d in out.shape)!r})"]
    kind = np.dtype(x.dtype).kind if isinstance(x.dtype, np.dtype) else "V"
    asarray = ctx.add_global(np.asarray, "_asarray")
    size = int(np.prod(x.shape, dtype=np.int64))
    ufunc = _TREE.get(eqn.primitive)
    tree = ufunc is not None and axes and size and reduce_order.tree_order(ufunc, x.dtype, size)
    if tree:
        fn = ctx.add_global(reduce_order.plan(ufunc, x.shape, np.dtype(x.dtype), axes), "_tree")
        return [f"{outs[0]} = {fn}({ins[0]})"]
    if eqn.primitive is reductions.reduce_sum_p:
        call = f"{ctx.add_global(_ADD_REDUCE, '_sum')}({ins[0]}, {axes!r}, {ins[0]}.dtype)"
        return [f"{outs[0]} = {call if out.shape else f'{asarray}({call})'}"]
    if eqn.primitive in _MAXMIN and kind in "fiub":
        reduce, initial, greater = _MAXMIN[eqn.primitive]
        init = ctx.add_global(initial(x.dtype), "_c")
        if kind == "f":
            fn = ctx.add_global(_real_max if greater else _real_min, "_red")
            call = f"{fn}({ins[0]}, {axes!r}, {init})"
        else:
            fn = ctx.add_global(reduce, "_red")
            call = f"{fn}({ins[0]}, {axes!r}, None, None, False, {init})"
        return [f"{outs[0]} = {call if out.shape else f'{asarray}({call})'}"]
    # The impl without its one-element test (``reductions._identity_when_one``).
    inner = getattr(rules.impl_for(eqn), "inner", None)
    if inner is None:
        return None
    return [f"{outs[0]} = {ctx.add_global(inner, '_f')}({ins[0]}, axes={axes!r})"]


def _broadcast_in_dim(ctx, eqn, ins, outs):
    if rules.impl_for(eqn) is not _shape._bid_impl:
        return None
    x = eqn.invars[0].aval
    shape = tuple(int(d) for d in eqn.params["shape"])
    s = [1] * len(shape)
    for i, d in enumerate(eqn.params["broadcast_dimensions"]):
        s[d] = int(x.shape[i])
    call = f"{ctx.add_global(_shape.broadcast_view, '_bcast')}({ins[0]}, {tuple(s)!r}, {shape!r})"
    return [f"{outs[0]} = {call}"]


def _select_n(ctx, eqn, ins, outs):
    if len(ins) != 3 or eqn.invars[0].aval.dtype != np.bool_:
        return None
    return [f"{outs[0]} = {ctx.add_global(np.where, '_where')}({ins[0]}, {ins[2]}, {ins[1]})"]


_RULES = {
    _shape.broadcast_in_dim_p: _broadcast_in_dim,
    _shape.reshape_p: _reshape,
    conversion.convert_element_type_p: _convert,
    ew.select_n_p: _select_n,
    **{p: _reduction for p in _INNER},
}


def lines(ctx, eqn, ins: list[str], outs: list[str]) -> list[str] | None:
    """``eqn`` as inline NumPy code (module docstring), or None to call its impl rule."""
    rule = _RULES.get(eqn.primitive)
    return None if rule is None else rule(ctx, eqn, ins, outs)
