"""Refs made outside a ``custom_jvp``/``custom_vjp`` function and touched inside it.

When a transformation stages such a function (``jit``, ``vmap``, a loop or branch body),
``custom_derivatives`` traces it to a jaxpr through ``trace_closed``: a first trace finds
the refs made outside that it touches (``core/refs.py``), then it is traced again with each
ref holding its value as seen from the calling trace, so reads are constants of the call
(captured, as any closed-over value). What JAX does with them:

* ``custom_vjp``: reads work everywhere; a write works eagerly and under ``grad``, and
  under ``vmap`` raises JAX's error for a write to an unbatched ref. jaxlite refuses a write
  inside a staged body with ``NotImplementedError`` (JAX threads it: docs/compat.md).
* ``custom_jvp``: JAX has no state discharge rule for ``custom_jvp_call``, so a body that
  touches outer refs raises under ``jit``, ``scan``, ``cond``... (any staging that is not an
  eager ``checkpoint``); under ``vmap`` alone reads work and a write raises as above.
"""

from __future__ import annotations

from collections.abc import Callable

from jaxlite._src.core import refs
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.ir import closure_convert_consts
from jaxlite._src.core.trace import set_current_trace
from jaxlite._src.interpreters.staging import trace_to_jaxpr

__all__ = ["trace_closed"]


def _staged_for_discharge(trace) -> bool:
    """Whether a staging trace other than an eager ``checkpoint``'s encloses ``trace``
    (where JAX would have to discharge the refs of a ``custom_jvp_call``)."""
    ckpt_bases = {id(c.base) for c in refs.enclosing_constructs() if c.kind == "checkpoint"}
    t = trace
    while t is not None:
        if t.kind == "staging" and id(t.parent_trace) not in ckpt_bases:
            return True
        t = t.parent_trace
    return False


def _refuse_write(trace, ref, value, what: str) -> None:
    """JAX's error for a write crossing ``vmap``; else jaxlite's refusal."""
    t = trace
    while t is not None and t is not ref._trace:
        if t.kind == "batch":
            refs.crossing_rules["batch"](t, ref, value, "swap")
        t = t.parent_trace
    raise NotImplementedError(
        f"jaxlite cannot write a mutable array reference (jax.Ref) of type "
        f"{ref._aval.str_short()} made outside a {what} function inside it when a "
        "transformation stages the function (jit, a loop or branch body): pass the value "
        "in and write the result outside"
    )


def trace_closed(trace, fun: Callable, tracers, what: str) -> tuple:
    """Trace ``fun`` at the avals of ``tracers`` with ``trace`` current (``what``:
    ``"custom_jvp"`` or ``"custom_vjp"``); returns the closed jaxpr with no consts and the
    consts (values of ``trace``) to pass as leading operands."""
    avals = [aval_of(t) for t in tracers]

    def run(rs):
        if not rs:
            closed, _ = trace_to_jaxpr(fun, avals)
            refs.before_bind()
            return closed
        if what == "custom_jvp" and _staged_for_discharge(trace):
            raise NotImplementedError(
                "No state discharge rule implemented for primitive: custom_jvp_call"
            )
        values = [refs.read(r) for r in rs]

        def body(*xs):
            saved = refs.install(rs, values)
            try:
                out = fun(*xs)
            finally:
                finals = refs.restore(rs, saved)
            for r, v, v0 in zip(rs, finals, values):
                if v is not v0:
                    _refuse_write(trace, r, v, what)
            return out

        closed, _ = trace_to_jaxpr(body, avals)
        refs.before_bind()
        return closed

    with set_current_trace(trace):
        closed = refs.threading_construct(run)
    return closure_convert_consts(closed)
