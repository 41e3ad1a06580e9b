"""Dead-code elimination of jaxprs, effect-aware.

An equation is kept if one of its outputs is used or if it has any effect (io and debug
callbacks are never removed; ``pure_callback`` has no effect, so it is removed when unused).
Higher-order primitives provide ``dce_rules`` to prune their bodies.
"""

from __future__ import annotations

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


def dce_closed_jaxpr(
    closed: ClosedJaxpr, used_outputs: Sequence[bool] | None = None
) -> tuple[ClosedJaxpr, list[bool]]:
    jaxpr = closed.jaxpr
    new, used_inputs = dce_jaxpr(jaxpr, used_outputs)
    keep = {id(v) for v in new.constvars}
    consts = [c for v, c in zip(jaxpr.constvars, closed.consts) if id(v) in keep]
    return ClosedJaxpr(new, consts), used_inputs


def prune_invars(closed: ClosedJaxpr, used_inputs: Sequence[bool]) -> ClosedJaxpr:
    j = closed.jaxpr
    new = Jaxpr(
        j.constvars, [v for v, u in zip(j.invars, used_inputs) if u], j.outvars, j.eqns, j.effects
    )
    return ClosedJaxpr(new, closed.consts)


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
