"""Broadcasts left to NumPy, in jitted code.

``broadcast_in_dim``'s impl reshapes its operand to the result's rank (size-1 axes where
it broadcasts) and returns a zero-stride view of the result's shape. When that view is
read by an exactly rounded ufunc (``fold.exact_ufunc``: ``add``, ``mul``, comparisons...)
whose other operand already has the result's shape, NumPy's own broadcasting of the
reshaped operand gives the same elements: ``implicit_broadcasts`` passes the operand
itself (when it already has that shape) or a ``reshape`` of it (a view, written inline by
``specialize``) instead, and drops the broadcasts nothing reads any more. The jaxpr stays
well typed: each rewritten equation's abstract evaluation must give its result's aval
(elementwise primitives broadcast size-1 axes of operands of equal rank, as lax does).
"""

from __future__ import annotations

from jaxlite._src.compile import fold
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.ops import shape as _shape

_BID = _shape.broadcast_in_dim_p


def _operand_shape(bid) -> tuple:
    """The shape ``broadcast_in_dim``'s impl reshapes its operand to (``_bid_impl``)."""
    shape, dims = bid.params["shape"], bid.params["broadcast_dimensions"]
    s = [1] * len(shape)
    for i, d in enumerate(dims):
        s[d] = bid.invars[0].aval.shape[i]
    return tuple(s)


def _typed(eqn, invars) -> bool:
    """Does ``eqn``'s abstract evaluation on ``invars`` give its result's shape and dtype?"""
    try:
        out = rules.abstract_eval_rules[eqn.primitive](*[v.aval for v in invars], **eqn.params)
    except Exception:  # noqa: BLE001 (not well typed: left as it is)
        return False
    want = eqn.outvars[0].aval
    return (tuple(out.shape), out.dtype) == (tuple(want.shape), want.dtype)


def implicit_broadcasts(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with broadcasts read by exact ufuncs left to NumPy (module docstring)."""
    jaxpr = closed.jaxpr
    if not any(e.primitive is _BID for e in jaxpr.eqns):
        return closed
    bids: dict[int, JaxprEqn] = {}
    reshaped: dict[tuple, Var] = {}  # (id of operand, shape) -> its reshape
    eqns: list[JaxprEqn] = []
    changed = False
    for eqn in jaxpr.eqns:
        if eqn.primitive is _BID and not eqn.effects:
            bids[id(eqn.outvars[0])] = eqn
        new = _rewrite(eqn, bids, reshaped, eqns) if bids and fold.exact_ufunc(eqn) else None
        if new is not None:
            eqn, changed = new, True
        eqns.append(eqn)
    if not changed:
        return closed
    # Drop the broadcasts (and reshapes) no equation or output reads any more.
    read = {id(v) for v in jaxpr.outvars if type(v) is not Literal}
    kept = []
    for eqn in reversed(eqns):
        if eqn.primitive in (_BID, _shape.reshape_p) and id(eqn.outvars[0]) not in read:
            continue
        read.update(id(v) for v in eqn.invars if type(v) is not Literal)
        kept.append(eqn)
    kept.reverse()
    return ClosedJaxpr(
        Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, kept, jaxpr.effects), closed.consts
    )


def _rewrite(eqn, bids, reshaped, eqns) -> JaxprEqn | None:
    """``eqn`` reading its broadcast operands' sources, or None; appends the reshapes it
    needs to ``eqns``."""
    shape = tuple(eqn.outvars[0].aval.shape)
    if not shape:
        return None
    invars, pending = list(eqn.invars), []
    for k, v in enumerate(eqn.invars):
        bid = None if type(v) is Literal else bids.get(id(v))
        if bid is None:
            continue
        x, s = bid.invars[0], _operand_shape(bid)
        if type(x) is Literal or tuple(x.aval.shape) in (s, ()):
            invars[k] = x
            continue
        r = reshaped.get((id(x), s))
        if r is None:
            r = Var(ShapedArray(s, x.aval.dtype, x.aval.weak_type))
            pending.append(((id(x), s), r, x))
        invars[k] = r
    if invars == eqn.invars:
        return None
    full = any(type(v) is not Literal and tuple(v.aval.shape) == shape for v in invars)
    if not full or not _typed(eqn, invars):
        return None
    for key, r, x in pending:
        params = dict(new_sizes=key[1], dimensions=None)
        eqns.append(JaxprEqn(_shape.reshape_p, [x], [r], params, ()))
        reshaped[key] = r
    return eqn.replace(invars=invars)
