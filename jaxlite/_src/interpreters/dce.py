"""Dead-code elimination of jaxprs, effect-aware.

An equation is kept if one of its outputs is used or if it has any effect (io and debug
callbacks are never removed; ``pure_callback`` has no effect, so it is removed when unused).
Higher-order primitives provide ``dce_rules`` to prune their bodies.

Linearity: loop rules iterate to a fixed point over their carries, calling the DCE of their
body once per iteration plus once to build the result, and each body holds nested loops.
Without care that is 2**depth visits of the innermost body. ``dce_closed_jaxpr`` therefore
memoises its answer per (closed jaxpr, used outputs): a rule asking again with the same
mask gets the stored answer, and every result is recorded as its own fixed point (a DCE'd
jaxpr with all its outputs used is left as it is), as are the io-pruned bodies the loop rules
build from results (``derive_fixpoint``). Each body is visited once per distinct mask.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

from jaxlite._src.core import rules
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal


def dce_jaxpr(
    jaxpr: Jaxpr,
    used_outputs: Sequence[bool] | None = None,
    instantiate: bool | Sequence[bool] = False,
) -> tuple[Jaxpr, list[bool]]:
    """Remove unused equations (and, with ``used_outputs``, unused outputs).

    Returns the new jaxpr and which invars it still uses. The new jaxpr keeps all invars
    (callers prune them with the returned mask if they wish).
    """
    if used_outputs is None:
        used_outputs = [True] * len(jaxpr.outvars)
    outvars = [v for v, u in zip(jaxpr.outvars, used_outputs) if u]
    live: set[int] = {id(v) for v in outvars if type(v) is not Literal}
    new_eqns = []
    for eqn in reversed(jaxpr.eqns):
        used = [id(v) in live for v in eqn.outvars]
        if not any(used) and not eqn.effects:
            continue
        rule = rules.dce_rules.get(eqn.primitive)
        if rule is not None:
            used_in, new_eqn = rule(used, eqn)
            if new_eqn is None:
                continue
        else:
            used_in, new_eqn = [True] * len(eqn.invars), eqn
        # ``used_in`` is per input of the original equation (the new one may have fewer).
        for v, u in zip(eqn.invars, used_in):
            if u and type(v) is not Literal:
                live.add(id(v))
        new_eqns.append(new_eqn)
    new_eqns.reverse()
    used_inputs = [id(v) in live for v in jaxpr.invars]
    used_consts = [id(v) in live for v in jaxpr.constvars]
    new = Jaxpr(
        [v for v, u in zip(jaxpr.constvars, used_consts) if u], jaxpr.invars, outvars, new_eqns
    )
    return new, used_inputs


# closed jaxpr -> {used-outputs mask: (result, or None for the jaxpr itself; used inputs)}.
# Values never reference their own key strongly (None stands for "itself").
_memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _remember(closed: ClosedJaxpr, mask: tuple, result, used_inputs) -> None:
    per = _memo.get(closed)
    if per is None:
        per = _memo[closed] = {}
    per[mask] = (None if result is closed else result, tuple(used_inputs))


def mark_fixpoint(closed: ClosedJaxpr, used_inputs: Sequence[bool]) -> None:
    """Record that ``closed`` with all its outputs used is already dead-code free and
    uses exactly ``used_inputs``."""
    _remember(closed, (True,) * len(closed.jaxpr.outvars), closed, used_inputs)


def derive_fixpoint(src: ClosedJaxpr, new: ClosedJaxpr, keep_in: Sequence[bool]) -> None:
    """``new`` is ``src`` with only the inputs ``keep_in`` (and all its outputs): if ``src`` is
    a known fixed point, so is ``new``."""
    per = _memo.get(src)
    hit = per.get((True,) * len(src.jaxpr.outvars)) if per is not None else None
    if hit is not None and hit[0] is None and len(new.jaxpr.outvars) == len(src.jaxpr.outvars):
        mark_fixpoint(new, [u for u, k in zip(hit[1], keep_in) if k])


def dce_closed_jaxpr(
    closed: ClosedJaxpr, used_outputs: Sequence[bool] | None = None
) -> tuple[ClosedJaxpr, list[bool]]:
    jaxpr = closed.jaxpr
    mask = (
        (True,) * len(jaxpr.outvars)
        if used_outputs is None
        else tuple(bool(u) for u in used_outputs)
    )
    per = _memo.get(closed)
    hit = per.get(mask) if per is not None else None
    if hit is not None:
        result, used_inputs = hit
        return (closed if result is None else result), list(used_inputs)
    new, used_inputs = dce_jaxpr(jaxpr, list(mask))
    keep = {id(v) for v in new.constvars}
    consts = [c for v, c in zip(jaxpr.constvars, closed.consts) if id(v) in keep]
    result = ClosedJaxpr(new, consts)
    _remember(closed, mask, result, used_inputs)
    mark_fixpoint(result, used_inputs)
    return result, used_inputs


def prune_invars(closed: ClosedJaxpr, used_inputs: Sequence[bool]) -> ClosedJaxpr:
    j = closed.jaxpr
    new = Jaxpr(
        j.constvars, [v for v, u in zip(j.invars, used_inputs) if u], j.outvars, j.eqns, j.effects
    )
    out = ClosedJaxpr(new, closed.consts)
    derive_fixpoint(closed, out, used_inputs)
    return out


def dce_call_rule(used_outputs: Sequence[bool], eqn):
    """DCE rule of call-like primitives (``jit_p``, ``checkpoint_p``) whose body is the
    ``jaxpr`` param: prune the body, its unused inputs and outputs; drop the call when no
    output is used and the body has no effect."""
    closed = eqn.params["jaxpr"]
    new, used_inputs = dce_closed_jaxpr(closed, used_outputs)
    if not any(used_outputs) and not new.effects:
        return [False] * len(eqn.invars), None
    new = prune_invars(new, used_inputs)
    invars = [v for v, u in zip(eqn.invars, used_inputs) if u]
    outvars = [v for v, u in zip(eqn.outvars, used_outputs) if u]
    params = dict(eqn.params, jaxpr=new)
    return used_inputs, eqn.replace(invars=invars, outvars=outvars, params=params)
