"""``eval_jaxpr``: the reference semantics of a jaxpr.

Each equation is re-bound on the *current* trace, so evaluating a jaxpr under a
transformation transforms it. Under the ``EvalTrace`` this runs every primitive's ``impl``.
All other execution paths (generated code) are tested against this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal
from jaxlite._src.util import safe_map


def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[Any], *args: Any) -> list:
    env: dict[int, Any] = {}

    def read(v):
        if type(v) is Literal:
            # As an Array, so that re-staging keeps the literal's weak type.
            return ArrayImpl(v.val, v.aval)
        return env[id(v)]

    def write(v, val):
        env[id(v)] = val

    safe_map(write, jaxpr.constvars, consts)
    safe_map(write, jaxpr.invars, args)
    for eqn in jaxpr.eqns:
        invals = [read(v) for v in eqn.invars]
        out = eqn.primitive.bind(*invals, **eqn.params)
        if eqn.primitive.multiple_results:
            safe_map(write, eqn.outvars, out)
        else:
            write(eqn.outvars[0], out)
    return [read(v) for v in jaxpr.outvars]


def eval_closed_jaxpr(closed: ClosedJaxpr, *args: Any) -> list:
    return eval_jaxpr(closed.jaxpr, closed.consts, *args)


def jaxpr_as_fun(closed: ClosedJaxpr):
    """A Python callable evaluating ``closed`` (``jax.core.jaxpr_as_fun``)."""

    def fun(*args):
        return eval_closed_jaxpr(closed, *args)

    return fun
