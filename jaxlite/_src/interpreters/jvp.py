"""Forward-mode differentiation: ``JVPTrace`` and ``jvp_jaxpr``.

A ``JVPTracer`` carries a primal and a tangent, both values of the parent trace. Tangents
may be symbolic ``Zero``s; a primitive whose inputs all have zero tangents is simply bound
on the parent trace, so its rule is never consulted (this is how a callback on
non-differentiated values runs normally inside ``grad``). Integer values get ``float0``
tangents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.core.trace import (
    EvalTrace,
    Trace,
    Tracer,
    check_valid_tracer,
    set_current_trace,
    trace_ctx,
)
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.ops.structural import instantiate as inst
from jaxlite._src.util import memoize_jaxpr_transform, safe_zip


class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, trace: JVPTrace, primal: Any, tangent: Any):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self):
        return aval_of(self.primal)

    def _linearizing(self) -> bool:
        # Under reverse mode the tangent is an unknown of the linearization.
        t = getattr(self.tangent, "_trace", None)
        return t is not None and t.kind == "partial_eval"

    def _jax_class_name(self) -> str:
        return "LinearizeTracer" if self._linearizing() else "JVPTracer"

    def __repr__(self):
        # JAX's names: ``GradTracer`` under reverse mode (the tangent shown by its type),
        # ``JVPTracer`` under forward mode.
        if self._linearizing():
            t = aval_of(self.tangent).str_short(short_dtypes=True)
            return f"GradTracer(primal={self.primal}, typeof(tangent)={t})"
        return f"JVPTracer(primal={self.primal}, tangent={self.tangent})"

    def to_concrete_value(self):
        p = self.primal
        if isinstance(p, Tracer):
            return p.to_concrete_value()
        if type(p) is ArrayImpl:
            return p._value
        return p


class JVPTrace(Trace):
    __slots__ = ()
    kind = "jvp"

    @property
    def tag(self):
        """Each ``jvp`` (and each linearization) has its own trace, so the trace is its tag."""
        return self

    def to_primal_tangent(self, x):
        if isinstance(x, JVPTracer) and x._trace is self:
            return x.primal, x.tangent
        if isinstance(x, Tracer):
            check_valid_tracer(x)
        return x, Zero(aval_of(x).to_tangent_aval())

    def wrap(self, primal, tangent):
        if type(tangent) is Zero:
            return primal
        return JVPTracer(self, primal, tangent)

    def process_primitive(self, primitive, args, params):
        primals, tangents = [], []
        for a in args:
            p, t = self.to_primal_tangent(a)
            primals.append(p)
            tangents.append(t)
        if all(type(t) is Zero for t in tangents):
            return primitive.bind_with_trace(self.parent_trace, primals, params)
        rule = rules.jvp_rules.get(primitive)
        if rule is None:
            raise rules.missing_rule("jvp", primitive)
        with set_current_trace(self.parent_trace):
            # Tuples, as JAX hands them (equinox vmaps a rule over them with ``in_axes``
            # built from tuples, where a list would not match).
            if type(self.parent_trace) is EvalTrace and _quiet_rule(primitive, params):
                # Evaluated now: the rule's arithmetic (0 * inf where a max's tangent is
                # masked) stays silent, as XLA's; a rule calling user code keeps its state.
                with np.errstate(all="ignore"):
                    primals_out, tangents_out = rule(tuple(primals), tuple(tangents), **params)
            else:
                primals_out, tangents_out = rule(tuple(primals), tuple(tangents), **params)
        if primitive.multiple_results:
            return [self.wrap(p, t) for p, t in safe_zip(primals_out, tangents_out)]
        return self.wrap(primals_out, tangents_out)


def _quiet_rule(primitive, params) -> bool:
    """Whether ``primitive``'s JVP rule runs only jaxlite's code: not a callback, and no
    parameter holding user code (a custom rule, a callable) or a sub-jaxpr (a loop or branch
    body may call back)."""
    return primitive not in rules.runs_user_code and not any(map(_holds_code, params.values()))


def _holds_code(v) -> bool:
    if isinstance(v, (tuple, list)):
        return any(map(_holds_code, v))
    return callable(v) or isinstance(v, (ClosedJaxpr, Jaxpr))


def jvp_flat(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any]):
    """Run ``fun`` (flat in, flat out) under a fresh JVP trace.

    ``tangents`` may contain ``Zero``s. Returns (primals_out, tangents_out) with ``Zero`` for
    outputs that do not depend on any tangent.
    """
    trace = JVPTrace(trace_ctx.trace)
    try:
        ins = [trace.wrap(p, t) for p, t in safe_zip(primals, tangents)]
        with set_current_trace(trace):
            outs = fun(*ins)
        pairs = [trace.to_primal_tangent(o) for o in outs]
    finally:
        trace.invalidate()
    return [p for p, _ in pairs], [t for _, t in pairs]


@memoize_jaxpr_transform(normalize=lambda args, res: (args[0], res[1]))
def jvp_jaxpr(
    closed: ClosedJaxpr, nonzeros: Sequence[bool], instantiate: bool | Sequence[bool]
) -> tuple[ClosedJaxpr, list[bool]]:
    """The JVP of a closed jaxpr, as a jaxpr.

    The result takes ``(*primals, *nonzero_tangents)`` and returns
    ``(*primals_out, *nonzero_tangents_out)``. Returns it with the mask of which output
    tangents are nonzero (forced to True where ``instantiate`` says so).
    """

    n = len(closed.in_avals)
    if isinstance(instantiate, bool):
        instantiate = [instantiate] * len(closed.out_avals)
    tangent_avals = [a.to_tangent_aval() for a, nz in zip(closed.in_avals, nonzeros) if nz]
    out_nz: list[bool] = []

    def fun(*args):
        primals, tangents_nz = args[:n], list(args[n:])
        it = iter(tangents_nz)
        tangents = [
            next(it) if nz else Zero(a.to_tangent_aval())
            for nz, a in zip(nonzeros, closed.in_avals)
        ]
        p_out, t_out = jvp_flat(
            lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), primals, tangents
        )
        out_nz[:] = [type(t) is not Zero or i for t, i in zip(t_out, instantiate)]
        t_out = [inst(t) for t, nz in zip(t_out, out_nz) if nz]
        return list(p_out) + t_out

    jaxpr, _ = trace_to_jaxpr(fun, list(closed.in_avals) + tangent_avals)
    return jaxpr, out_nz
