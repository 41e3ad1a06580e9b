"""Running the rule of a *staged* ``custom_jvp`` / ``custom_vjp`` call (the jvp rules of
``custom_jvp_call_p`` / ``custom_vjp_call_p``) the way JAX does when a rule closes over a
tracer of a transformation that has already finished.

JAX traces such a rule lazily to a jaxpr, in which every outer value, a dead tracer too,
is a constant; dead-code elimination then drops the constant if nothing live uses it, and
only a surviving one fails (a ``TypeError``). So ``vjp(jit(g))`` works where ``g``'s
``custom_vjp`` ``fwd`` computes something unused (an unused ``pure_callback``) from a value
of ``jit``'s trace (callback fuzzer, seed 40570). jaxlite runs the rule directly; only when
that meets a dead tracer, and nothing can have run yet (the rule is being staged, not
evaluated), does it trace the rule to a jaxpr tolerating dead tracers, remove dead code,
raise the escaped-tracer error if one is still used, and else evaluate the jaxpr.

``DeadCodeFreeRule`` is the rule of a staged ``custom_jvp`` call that dead-code
elimination has pruned: like JAX's, it is traced and pruned too before it runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.errors import UnexpectedTracerError
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.core.trace import Tracer, escaped_tracer_error, staging_active, trace_ctx
from jaxlite._src.interpreters.dce import dce_jaxpr
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.staging import dead_tracers_as_consts, trace_to_jaxpr


def run_staged_rule(rule: Callable, args: Sequence) -> list:
    """``rule(*args)`` (flat; ``Zero`` allowed in and out), tolerating dead tracers that
    only unused code of the rule touches (module docstring)."""
    if not staging_active():  # only recording: running executes nothing (no callback ran)
        return rule(*args)
    try:
        return rule(*args)
    except UnexpectedTracerError:
        pass
    return _eval_pruned(lambda full: rule(*full), args, tolerate_dead=True)


def _eval_pruned(fn: Callable, args: Sequence, *, transform=None, tolerate_dead=False) -> list:
    """``fn(args)`` (a flat list in and out, ``Zero`` allowed in both) the way JAX runs a
    staged rule: traced to a jaxpr of the non-``Zero`` arguments, dead code removed (then
    ``transform`` applied to the jaxpr), evaluated. With ``tolerate_dead``, dead tracers
    read while tracing become constants, and only one that survives the pruning raises."""
    live = [i for i, a in enumerate(args) if type(a) is not Zero]
    info = {}

    def f(*xs):
        full = list(args)
        for i, x in zip(live, xs):
            full[i] = x
        outs = fn(full)
        info["outs"] = [o if type(o) is Zero else None for o in outs]
        return [o for o in outs if type(o) is not Zero]

    with dead_tracers_as_consts() if tolerate_dead else contextlib.nullcontext():
        closed, _ = trace_to_jaxpr(f, [aval_of(args[i]) for i in live])
    jaxpr, _ = dce_jaxpr(closed.jaxpr)  # drops the constvars nothing live uses
    if transform is not None:
        jaxpr = transform(jaxpr)
    const_of = {id(v): c for v, c in zip(closed.jaxpr.constvars, closed.consts)}
    consts = [const_of[id(v)] for v in jaxpr.constvars]
    for c in consts:
        if isinstance(c, Tracer) and not c._trace.is_valid():
            raise escaped_tracer_error(c)
    vals = iter(eval_jaxpr(jaxpr, consts, *[args[i] for i in live]))
    return [next(vals) if z is None else z for z in info["outs"]]


def applying_trace_kind() -> str:
    """The kind of the trace that will process what a staged rule produces: the first
    trace below the current one that does not stage (``"partial_eval"`` when the rule is
    being linearized for reverse mode, ``"jvp"`` / ``"batch"`` / ``"eval"`` when its tangent
    map will be differentiated, batched or evaluated forward)."""
    t = trace_ctx.trace
    while t is not None and t.kind == "staging":
        t = t.parent_trace
    return "eval" if t is None else t.kind


class DeadCodeFreeRule:
    """The jvp rule of a staged ``custom_jvp`` call after dead-code elimination of the call
    (``custom_jvp_call_p``'s dce rule): the user's rule traced to a jaxpr, only the
    outputs ``used`` (primals and their tangents) kept, dead code removed, then evaluated.

    JAX's dce rule of the call wraps its rule the same way, so a ``pure_callback`` whose
    result the rule does not use never runs when the call is differentiated again: the
    forward pass of a ``checkpoint`` is dead-code eliminated before it is evaluated under
    an outer derivative (``hessian``, ``jvp`` of ``grad``), and there the rule of a
    ``custom_jvp`` call in it runs (D1, D7; hunt seed 476)."""

    __slots__ = ("rule", "used", "transform")

    def __init__(self, rule: Callable, used: Sequence[bool], transform=None):
        # ``transform``: applied to the traced rule's jaxpr (a checkpoint's replay removes
        # the debug callbacks of a call JAX runs once, and those of its rule)
        if isinstance(rule, DeadCodeFreeRule):  # already pruned: compose the masks
            it = iter(used)
            used = [bool(next(it)) if u else False for u in rule.used]
            transform = transform or rule.transform
            rule = rule.rule
        self.rule, self.used = rule, tuple(bool(u) for u in used)
        self.transform = transform

    def __call__(self, primals: Sequence, tangents: Sequence) -> tuple[list, list]:
        n = len(primals)

        def used_outputs(full):
            p_out, t_out = self.rule(full[:n], full[n:])
            p_out = [p for p, u in zip(p_out, self.used) if u]
            return p_out + [t for t, u in zip(t_out, self.used) if u]

        outs = _eval_pruned(used_outputs, [*primals, *tangents], transform=self.transform)
        m = sum(self.used)
        return outs[:m], outs[m:]
