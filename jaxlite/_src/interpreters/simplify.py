"""Jaxpr simplification run by ``jit`` before codegen.

* inlining: equations of primitives in ``rules.inline_rules`` (nested ``jit``) are replaced
  by their body;
* constant folding: effect-free equations whose inputs are all scalar literals and whose
  outputs are scalars are evaluated now;
* CSE: effect-free equations with identical primitive, params and inputs are merged;
* the rewrites of ``rules.simplify_rules`` (compiled code only).
Effectful equations are never folded, merged or reordered.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.interpreters.dce import dce_closed_jaxpr

inline_primitives: set = set()


def inline_calls(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Inline every nested call primitive (jit) whose body is a closed jaxpr."""
    if not any(e.primitive in inline_primitives for e in closed.jaxpr.eqns):
        return closed
    jaxpr = closed.jaxpr
    constvars = list(jaxpr.constvars)
    consts = list(closed.consts)
    eqns: list[JaxprEqn] = []
    subst: dict[int, Any] = {}

    def read(v):
        if type(v) is Literal:
            return v
        return subst.get(id(v), v)

    for eqn in jaxpr.eqns:
        invars = [read(v) for v in eqn.invars]
        if eqn.primitive in inline_primitives:
            inner = inline_calls(eqn.params["jaxpr"])
            env: dict[int, Any] = {}
            for v, c in zip(inner.jaxpr.constvars, inner.consts):
                nv = Var(v.aval)
                constvars.append(nv)
                consts.append(c)
                env[id(v)] = nv
            for v, x in zip(inner.jaxpr.invars, invars):
                env[id(v)] = x
            for ie in inner.jaxpr.eqns:
                new_in = [v if type(v) is Literal else env[id(v)] for v in ie.invars]
                new_out = [Var(v.aval) for v in ie.outvars]
                for v, nv in zip(ie.outvars, new_out):
                    env[id(v)] = nv
                eqns.append(ie.replace(invars=new_in, outvars=new_out))
            for v, iv in zip(eqn.outvars, inner.jaxpr.outvars):
                subst[id(v)] = iv if type(iv) is Literal else env[id(iv)]
        else:
            eqns.append(eqn.replace(invars=invars))
    outvars = [read(v) for v in jaxpr.outvars]
    return ClosedJaxpr(Jaxpr(constvars, jaxpr.invars, outvars, eqns), consts)


def _hashable(params: dict):
    try:
        key = tuple(sorted(params.items()))
        hash(key)
        return key
    except TypeError:
        return None


def cse_and_fold(closed: ClosedJaxpr) -> ClosedJaxpr:
    jaxpr = closed.jaxpr
    subst: dict[int, Any] = {}
    seen: dict[Any, list] = {}
    eqns = []

    def read(v):
        if type(v) is Literal:
            return v
        return subst.get(id(v), v)

    for eqn in jaxpr.eqns:
        invars = [read(v) for v in eqn.invars]
        if not eqn.effects and not eqn.primitive.multiple_results:
            if (
                invars
                and all(type(v) is Literal for v in invars)
                and all(v.aval.shape == () for v in eqn.outvars)
                and eqn.primitive in rules.impl_rules
                and not any(isinstance(p, ClosedJaxpr) for p in eqn.params.values())
            ):
                # Evaluated as fold.py does: warning-free for the kernels that generated
                # code runs quietly, and left to run time where another kernel would set a
                # floating-point flag (JAX folds silently; a RuntimeWarning here would
                # surface at trace time even where the program never warns).
                quiet = eqn.primitive in rules.quiet_fp
                impl = rules.impl_rules[eqn.primitive]
                try:
                    with np.errstate(all="ignore" if quiet else "raise"):
                        val = impl(*[v.val for v in invars], **eqn.params)
                    out = eqn.outvars[0]
                    subst[id(out)] = Literal(np.asarray(val, out.aval.dtype), out.aval)
                    continue
                except Exception:  # noqa: BLE001 (leave it to run time)
                    pass
            pkey = _hashable(eqn.params)
            if pkey is not None:
                key = (
                    eqn.primitive,
                    tuple(
                        ("L", _literal_key(v.val), v.aval) if type(v) is Literal else ("V", id(v))
                        for v in invars
                    ),
                    pkey,
                )
                prev = seen.get(key)
                if prev is not None:
                    for v, pv in zip(eqn.outvars, prev):
                        subst[id(v)] = pv
                    continue
                seen[key] = eqn.outvars
        eqns.append(eqn.replace(invars=invars))
    outvars = [read(v) for v in jaxpr.outvars]
    return ClosedJaxpr(Jaxpr(jaxpr.constvars, jaxpr.invars, outvars, eqns), closed.consts)


def _literal_key(val):
    """A hashable key for a literal's value: its bytes (exact: ``-0.0`` is not ``0.0``, and
    records such as PRNG keys, whose ``.item()`` is unhashable, work too)."""
    a = np.asarray(val)
    return (a.dtype.str, a.tobytes())


def apply_simplify_rules(closed: ClosedJaxpr) -> ClosedJaxpr:
    """Each equation replaced as its primitive's ``rules.simplify_rules`` entry says: a new
    equation, a new equation with the new constants it reads (an object with ``eqn`` and
    ``consts``, ``(Var, value)`` pairs), or an operand the result is equal to."""
    jaxpr = closed.jaxpr
    if not any(e.primitive in rules.simplify_rules for e in jaxpr.eqns):
        return closed
    made: dict[int, JaxprEqn] = {}
    consts = {id(v): c for v, c in zip(jaxpr.constvars, closed.consts)}
    constvars, const_vals = list(jaxpr.constvars), list(closed.consts)
    subst: dict[int, Any] = {}

    def producer(v):
        return None if type(v) is Literal else made.get(id(v))

    def const(v):
        return None if type(v) is Literal else consts.get(id(v))

    def read(v):
        return v if type(v) is Literal else subst.get(id(v), v)

    eqns = []
    for eqn in jaxpr.eqns:
        if subst:
            eqn = eqn.replace(invars=[read(v) for v in eqn.invars])
        rule = rules.simplify_rules.get(eqn.primitive)
        new = rule(eqn, producer, const) if rule is not None else None
        if isinstance(new, (Var, Literal)):
            subst[id(eqn.outvars[0])] = new
            continue
        if new is not None and not isinstance(new, JaxprEqn):
            for v, c in new.consts:
                constvars.append(v)
                const_vals.append(c)
                consts[id(v)] = c
            new = new.eqn
        eqn = eqn if new is None else new
        for v in eqn.outvars:
            made[id(v)] = eqn
        eqns.append(eqn)
    outvars = [read(v) for v in jaxpr.outvars]
    return ClosedJaxpr(Jaxpr(constvars, jaxpr.invars, outvars, eqns), const_vals)


def simplify(closed: ClosedJaxpr) -> ClosedJaxpr:
    closed = inline_calls(closed)
    closed = cse_and_fold(closed)
    closed = apply_simplify_rules(closed)
    closed, _ = dce_closed_jaxpr(closed)
    return closed
