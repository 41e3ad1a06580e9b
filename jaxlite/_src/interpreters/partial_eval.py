"""Partial evaluation: split a computation into a part computable now and a staged part.

A ``PartialEvalTrace`` sits on top of a *parent* trace. Its values are either

* *known*: ordinary values of the parent trace (they are never wrapped), or
* *unknown*: ``PETracer``s, each standing for a variable of a jaxpr under construction
  (recorded by an inner ``StagingTrace``, ``trace.staging``).

Default rule for a primitive: if no operand is unknown it is bound on the parent trace
(so effectful equations whose operands are all known run in the forward pass, once);
otherwise the equation is staged, and its known operands become constants of the staged
jaxpr. Those constants are the *residuals*: values of the parent trace that the staged
computation needs. ``rules.partial_eval_rules[p](trace, tracers, **params)`` overrides the
default (``jit``, ``checkpoint``, control flow...) to split a higher-order primitive into a
known and an unknown part.

This is how reverse mode works: ``linearize`` runs a ``JVPTrace`` over a
``PartialEvalTrace`` with known primals and unknown tangents; the staged jaxpr is the
linear map (the tangent computation) and the residuals are the primal values it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Var, closure_convert_consts
from jaxlite._src.core.trace import Trace, Tracer, check_valid_tracer, set_current_trace, trace_ctx
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.staging import StagingTrace, StagingTracer, trace_to_jaxpr
from jaxlite._src.util import memoize_jaxpr_transform


class PETracer(Tracer):
    """An unknown value: wraps a tracer of the trace's inner ``StagingTrace``."""

    __slots__ = ("st",)

    def __init__(self, trace: PartialEvalTrace, st: StagingTracer):
        self._trace = trace
        self.st = st

    @property
    def aval(self):
        return self.st.aval

    def _jax_class_name(self) -> str:
        return "JaxprTracer"


class PartialEvalTrace(Trace):
    __slots__ = ("staging",)
    kind = "partial_eval"

    @property
    def tag(self):
        """Each partial evaluation has its own trace, so the trace is its tag (``Trace.main``)."""
        return self

    def __init__(self, parent_trace: Trace | None = None):
        super().__init__(parent_trace if parent_trace is not None else trace_ctx.trace)
        self.staging = StagingTrace(self.parent_trace)

    # -- values
    def new_unknown(self, aval: ShapedArray) -> PETracer:
        """A fresh unknown input (an invar of the staged jaxpr)."""
        return PETracer(self, self.staging.new_arg(aval))

    def is_unknown(self, x) -> bool:
        if isinstance(x, PETracer) and x._trace is self:
            return True
        if isinstance(x, Tracer):
            check_valid_tracer(x)
        return False

    def to_staged(self, x):
        """The value to hand to ``self.staging``: an unknown's staging tracer, or ``x``."""
        if isinstance(x, PETracer) and x._trace is self:
            return x.st
        return x

    def wrap_staged(self, out):
        if isinstance(out, list):
            return [PETracer(self, o) for o in out]
        return PETracer(self, out)

    def stage(self, primitive, args, params):
        """Record ``primitive`` in the staged jaxpr (known operands become residuals)."""
        out = primitive.bind_with_trace(self.staging, [self.to_staged(a) for a in args], params)
        return self.wrap_staged(out)

    # -- primitives
    def process_primitive(self, primitive, args, params):
        if not any(self.is_unknown(a) for a in args):
            known = rules.partial_eval_known_rules.get(primitive)
            if known is not None:
                return known(self.parent_trace, list(args), **params)
            return primitive.bind_with_trace(self.parent_trace, args, params)
        rule = rules.partial_eval_rules.get(primitive)
        if rule is not None:
            return rule(self, list(args), **params)
        return self.stage(primitive, args, params)

    # -- result
    def finish(self, outs: Sequence[Any], instantiate: bool | Sequence[bool] = False):
        """Split outputs into known values and a staged jaxpr.

        Returns ``(known_outs, out_unknowns, unknown_closed, residuals)``: ``known_outs`` has
        the parent-trace value for each known output (``None`` where unknown);
        ``unknown_closed`` maps ``(*residuals, *unknown_inputs)`` to the unknown outputs (no
        consts); ``residuals`` are values of the parent trace.
        """
        if callable(instantiate):
            instantiate = instantiate(len(outs))
        if isinstance(instantiate, bool):
            instantiate = [instantiate] * len(outs)
        unknowns = [self.is_unknown(o) or bool(i) for o, i in zip(outs, instantiate)]
        known_outs = [None if u else o for o, u in zip(outs, unknowns)]
        staged_outs = [self.to_staged(o) for o, u in zip(outs, unknowns) if u]
        closed = self.staging.to_closed_jaxpr(staged_outs)
        j = closed.jaxpr
        jaxpr = Jaxpr([], list(j.constvars) + list(j.invars), j.outvars, j.eqns, j.effects)
        return known_outs, unknowns, ClosedJaxpr(jaxpr, []), list(closed.consts)

    def invalidate(self) -> None:
        super().invalidate()
        self.staging.invalidate()


def trace_partial(
    fun: Callable,
    args: Sequence[Any],
    unknowns: Sequence[bool],
    instantiate: bool | Sequence[bool] = False,
):
    """Partially evaluate ``fun`` (flat in, flat out) on the current trace.

    ``args[i]`` is a value when known, an aval when ``unknowns[i]``. Returns what
    ``PartialEvalTrace.finish`` returns.
    """
    trace = PartialEvalTrace(trace_ctx.trace)
    try:
        ins = [trace.new_unknown(a) if u else a for a, u in zip(args, unknowns)]
        with set_current_trace(trace):
            outs = fun(*ins)
        result = trace.finish(list(outs), instantiate)
    finally:
        trace.invalidate()
    return result


@memoize_jaxpr_transform(normalize=lambda args, res: (args[0], res[2]))
def partial_eval_jaxpr_nounits(
    closed: ClosedJaxpr, unknowns: Sequence[bool], instantiate: bool | Sequence[bool]
) -> tuple[ClosedJaxpr, ClosedJaxpr, list[bool], int]:
    """Split a closed jaxpr by which inputs are unknown.

    Args:
        closed: the jaxpr to split.
        unknowns: one bool per input of ``closed``; True = unknown.
        instantiate: bool or one bool per output: force those outputs to be unknown
            (a known value forced this way is passed through as a residual).

    Returns:
        ``(known_closed, unknown_closed, out_unknowns, num_res)`` where

        * ``known_closed`` maps the known inputs (in order) to
          ``(*known_outputs, *residuals)`` (``num_res`` residuals at the end);
        * ``unknown_closed`` maps ``(*residuals, *unknown_inputs)`` to the unknown outputs;
        * ``out_unknowns[i]`` says whether output ``i`` is unknown.

        Equations whose inputs are all known (including effectful ones) are in
        ``known_closed`` only; equations with an unknown input are in ``unknown_closed``.
        Either result may carry consts.
    """

    unknowns = list(unknowns)
    n_out = len(closed.out_avals)
    if isinstance(instantiate, bool):
        instantiate = [instantiate] * n_out
    known_avals = [a for a, u in zip(closed.in_avals, unknowns) if not u]
    store: dict = {}

    def known_fun(*known_ins):
        it = iter(known_ins)
        args = [a if u else next(it) for a, u in zip(closed.in_avals, unknowns)]
        known_outs, out_unk, unk_closed, res = trace_partial(
            lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), args, unknowns, instantiate
        )
        store["out_unk"] = out_unk
        store["unknown"] = unk_closed
        store["num_res"] = len(res)
        return [o for o, u in zip(known_outs, out_unk) if not u] + list(res)

    known_closed, _ = trace_to_jaxpr(known_fun, known_avals)
    unk_closed = store["unknown"]
    num_res = store["num_res"]
    return known_closed, unk_closed, store["out_unk"], num_res


@memoize_jaxpr_transform()
def forward_known_outputs(known: ClosedJaxpr, num_res: int) -> tuple[ClosedJaxpr, list, list]:
    """Prune the outputs of ``known`` (a ``partial_eval_jaxpr_nounits`` known jaxpr, whose
    last ``num_res`` outputs are residuals) that need not be computed: outputs that are
    just one of its consts or inputs, and residuals that are also a kept primal output.

    The caller passes those values on directly, so a residual that is a known input stays
    that input (not a new output of the known call), as JAX's jit partial evaluation does;
    this decides where cotangents accumulate when the result is transposed.

    Returns:
        ``(pruned, in_fwd, out_fwd)``, one entry of each list per output of ``known``:
        ``in_fwd[i]`` the index into ``(*known.consts, *inputs)`` output ``i`` is, else
        None; ``out_fwd[i]`` (residuals only) the index among ``known``'s outputs of the
        primal output residual ``i`` is, else None. ``pruned`` computes the others.
    """
    j = known.jaxpr
    n_primal = len(j.outvars) - num_res
    pos = {id(v): i for i, v in enumerate([*j.constvars, *j.invars])}
    in_fwd = [None if not isinstance(v, Var) else pos.get(id(v)) for v in j.outvars]
    first = {}
    for i, v in enumerate(j.outvars[:n_primal]):
        if in_fwd[i] is None and isinstance(v, Var):
            first.setdefault(id(v), i)
    out_fwd = [None] * n_primal + [
        first.get(id(v)) if f is None and isinstance(v, Var) else None
        for v, f in zip(j.outvars[n_primal:], in_fwd[n_primal:])
    ]
    kept = [v for v, f, g in zip(j.outvars, in_fwd, out_fwd) if f is None and g is None]
    if len(kept) == len(j.outvars):
        return known, in_fwd, out_fwd
    pruned = ClosedJaxpr(Jaxpr(j.constvars, j.invars, kept, j.eqns, j.effects), known.consts)
    return pruned, in_fwd, out_fwd


def partial_eval_call(trace: PartialEvalTrace, primitive, tracers: list, jaxpr, **params):
    """The partial evaluation of a call primitive ``primitive`` (``jit``) of ``jaxpr``:
    a known call, bound now on the parent trace, computes the known outputs and the
    residuals; an unknown call, staged, takes the residuals and the unknown inputs.

    Outputs of the known call that are one of its inputs or consts, and residuals that
    are also known outputs, are passed on directly rather than computed (JAX's input and
    output forwarding).
    """
    unknowns = [trace.is_unknown(t) for t in tracers]
    known, unknown, out_unk, num_res = partial_eval_jaxpr_nounits(jaxpr, unknowns, False)
    pruned, in_fwd, out_fwd = forward_known_outputs(known, num_res)
    known_ins = [*known.consts, *[t for t, u in zip(tracers, unknowns) if not u]]
    pruned, kconsts = closure_convert_consts(pruned)
    computed = iter(
        primitive.bind_with_trace(
            trace.parent_trace,
            [*kconsts, *known_ins[len(known.consts) :]],
            dict(params, jaxpr=pruned),
        )
    )
    k_outs = [
        None if f is not None or g is not None else next(computed) for f, g in zip(in_fwd, out_fwd)
    ]
    k_outs = [known_ins[f] if f is not None else o for o, f in zip(k_outs, in_fwd)]
    k_outs = [k_outs[g] if g is not None else o for o, g in zip(k_outs, out_fwd)]
    n_known = len(k_outs) - num_res
    known_outs, res = k_outs[:n_known], k_outs[n_known:]
    unknown, uconsts = closure_convert_consts(unknown)
    unk_ins = [t for t, u in zip(tracers, unknowns) if u]
    u_outs = trace.stage(primitive, [*uconsts, *res, *unk_ins], dict(params, jaxpr=unknown))
    k_it, u_it = iter(known_outs), iter(u_outs)
    return [next(u_it) if u else next(k_it) for u in out_unk]


def residual_avals(known_closed: ClosedJaxpr, num_res: int) -> list[ShapedArray]:
    outs = known_closed.out_avals
    return list(outs[len(outs) - num_res :])


def is_known_value(x) -> bool:
    return not isinstance(x, PETracer)


__all__ = [
    "PartialEvalTrace",
    "PETracer",
    "trace_partial",
    "partial_eval_jaxpr_nounits",
    "residual_avals",
    "forward_known_outputs",
    "partial_eval_call",
    "is_known_value",
]
