"""Transposition of linear jaxprs (the backward half of reverse mode).

``backward_pass`` evaluates a jaxpr that is linear in the inputs marked ``UndefinedPrimal``:
equations none of whose inputs depend on a linear input are evaluated forward first (on the
current trace: they compute non-linear coefficients, or rematerialise values for
``checkpoint``); then the linear equations are visited in reverse order and each one's
``transpose_rules`` entry maps output cotangents to input cotangents. Cotangents are
accumulated with ``add_any``; symbolic ``Zero``s are never materialised unless asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxlite._src.core import rules
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal
from jaxlite._src.core.rule_types import UndefinedPrimal, Zero, is_undefined_primal
from jaxlite._src.core.sharding_types import relaxed
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.ops.structural import add_any, instantiate, zeros
from jaxlite._src.util import safe_map


def _add_ct(ct_env: dict, v, ct) -> None:
    if type(v) is Literal or ct is None:
        return
    if type(ct) is Zero:
        ct_env.setdefault(id(v), ct)
        return
    prev = ct_env.get(id(v))
    if prev is None or type(prev) is Zero:
        ct_env[id(v)] = ct
    else:
        ct_env[id(v)] = add_any(prev, ct)


def backward_pass(
    jaxpr: Jaxpr, consts: Sequence[Any], primals_in: Sequence[Any], cts_out: Sequence[Any]
) -> list:
    """Transpose ``jaxpr`` with respect to its ``UndefinedPrimal`` inputs.

    Sharding rules run relaxed here: JAX's transpose rules pass the primal operands'
    shardings as ``out_sharding``, which jaxlite's avals do not carry, so a cotangent
    computation never raises ``ShardingTypeError`` (the forward pass raised already).

    Args:
        jaxpr: a jaxpr linear in the inputs given as ``UndefinedPrimal``.
        consts: values of ``jaxpr.constvars`` (never linear).
        primals_in: one per invar: a value (non-linear input) or an ``UndefinedPrimal``.
        cts_out: one cotangent per output (a value or ``Zero``).

    Returns:
        One cotangent per invar: for an ``UndefinedPrimal`` input its cotangent (possibly a
        symbolic ``Zero``), ``None`` for non-linear inputs.
    """
    with relaxed():
        return _backward_pass(jaxpr, consts, primals_in, cts_out)


def _backward_pass(jaxpr, consts, primals_in, cts_out) -> list:
    env: dict[int, Any] = {}
    linear: set[int] = set()

    def read(v):
        if type(v) is Literal:
            # As an Array with the literal's aval, so a weak literal stays weak in the
            # cotangent computation (the gradient w.r.t. a Python float is weak, as in JAX).
            return ArrayImpl(v.val, v.aval)
        return env[id(v)]

    safe_map(lambda v, c: env.__setitem__(id(v), c), jaxpr.constvars, consts)
    # A linear invar's rules see the UndefinedPrimal passed in (its aval can differ from the
    # invar's in weak type: scan's transpose types a carry as its cotangent, as JAX's
    # accumulators do); a linear intermediate gets one of its own aval.
    undef_in: dict[int, Any] = {}
    for v, p in zip(jaxpr.invars, primals_in):
        if is_undefined_primal(p):
            linear.add(id(v))
            undef_in[id(v)] = p
        else:
            env[id(v)] = p
    # Forward: evaluate the non-linear equations.
    lin_eqns = []
    for eqn in jaxpr.eqns:
        if any(type(v) is not Literal and id(v) in linear for v in eqn.invars):
            lin_eqns.append(eqn)
            for v in eqn.outvars:
                linear.add(id(v))
            continue
        out = eqn.primitive.bind(*[read(v) for v in eqn.invars], **eqn.params)
        if not eqn.primitive.multiple_results:
            out = [out]
        for v, o in zip(eqn.outvars, out):
            env[id(v)] = o
    # Backward.
    ct_env: dict[int, Any] = {}
    for v, ct in zip(jaxpr.outvars, cts_out):
        if type(v) is not Literal and id(v) in linear:
            _add_ct(ct_env, v, ct)
    live = _live_at_zero(jaxpr, lin_eqns, linear)
    for eqn in reversed(lin_eqns):
        cts = [ct_env.pop(id(v), None) for v in eqn.outvars]
        cts = [Zero(v.aval.to_tangent_aval()) if c is None else c for c, v in zip(cts, eqn.outvars)]
        if all(type(c) is Zero for c in cts) and not eqn.effects and id(eqn) not in live:
            continue
        args = [
            undef_in.get(id(v), None)
            if id(v) in undef_in
            else UndefinedPrimal(v.aval)
            if type(v) is not Literal and id(v) in linear
            else read(v)
            for v in eqn.invars
        ]
        rule = rules.transpose_rules.get(eqn.primitive)
        if rule is None:
            if eqn.primitive in rules.non_differentiable:
                continue
            raise rules.missing_rule("transpose", eqn.primitive)
        if eqn.primitive.multiple_results:
            cts_in = rule(cts, *args, **eqn.params)
        else:
            cts_in = rule(cts[0], *args, **eqn.params)
        for v, a, ct in zip(eqn.invars, args, cts_in):
            if is_undefined_primal(a):
                _add_ct(ct_env, v, ct)
    out = []
    for v, p in zip(jaxpr.invars, primals_in):
        if is_undefined_primal(p):
            ct = ct_env.get(id(v))
            out.append(Zero(p.aval.to_tangent_aval()) if ct is None else ct)
        else:
            out.append(None)
    return out


def _live_at_zero(jaxpr, lin_eqns, linear) -> set:
    """The ids of the ``rules.transpose_at_zero`` equations among ``lin_eqns`` whose
    outputs reach the jaxpr's outputs through linear equations (JAX's dead-code
    elimination of the linear jaxpr keeps exactly these)."""
    if not any(e.primitive in rules.transpose_at_zero for e in lin_eqns):
        return set()
    needed = {id(v) for v in jaxpr.outvars if type(v) is not Literal and id(v) in linear}
    live = set()
    for eqn in reversed(lin_eqns):
        if eqn.effects or any(id(v) in needed for v in eqn.outvars):
            needed.update(id(v) for v in eqn.invars if type(v) is not Literal)
            if eqn.primitive in rules.transpose_at_zero:
                live.add(id(eqn))
    return live


def transpose_jaxpr(
    closed: ClosedJaxpr, linear_mask: Sequence[bool], ct_avals: Sequence | None = None
) -> ClosedJaxpr:
    """The transpose of a jaxpr linear in the inputs where ``linear_mask`` is True.

    The result takes ``(*non_linear_inputs, *cts_out)`` (one cotangent per output of
    ``closed``, in order) and returns one cotangent per linear input, in order, with zeros
    materialised. It may carry consts. ``ct_avals``: the avals of the cotangents it will be
    called with (default: the outputs' tangent avals); JAX traces the transpose with the
    actual cotangents' types, which shows in weak types.
    """

    linear_mask = list(linear_mask)
    nonlin_avals = [a for a, lin in zip(closed.in_avals, linear_mask) if not lin]
    if ct_avals is None:
        ct_avals = [a.to_tangent_aval() for a in closed.out_avals]
    ct_avals = list(ct_avals)
    n_nl = len(nonlin_avals)

    def fun(*args):
        nl, cts = args[:n_nl], args[n_nl:]
        it = iter(nl)
        primals = [
            UndefinedPrimal(a) if lin else next(it) for a, lin in zip(closed.in_avals, linear_mask)
        ]
        cts_in = backward_pass(closed.jaxpr, closed.consts, primals, list(cts))
        return [instantiate(c) for c, lin in zip(cts_in, linear_mask) if lin]

    new, _ = trace_to_jaxpr(fun, nonlin_avals + ct_avals)
    return new


def zeros_like_ct(x):
    """A zero cotangent (materialised) for a primal value ``x``."""
    return zeros(aval_of(x).to_tangent_aval())


__all__ = ["backward_pass", "transpose_jaxpr", "zeros_like_ct"]
