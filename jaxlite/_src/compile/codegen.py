"""Jaxpr -> Python source over NumPy, compiled once with ``exec``.

Each equation becomes one line calling the primitive's NumPy callable (its ``impl`` rule,
with params pre-bound), the inline NumPy code ``specialize`` writes for its avals, or the
lines produced by its ``lower_rules`` entry (control flow, callbacks). Before that, the
jaxpr goes through ``contract`` (XLA's FMA of an SGD update), ``fold`` (what XLA evaluates
at compile time) and ``broadcasts`` (broadcasts left to NumPy where that is exact).
Constants, callables and literals are bound in the generated function's globals under
generated names; **no user-supplied text ever reaches the source** (names are
``a0, a1, ...``, ``_f3``, ``_c2``), so nothing a user writes can be injected.

``compile_jaxpr(closed)`` returns ``(fn, source)``; ``fn`` takes NumPy arrays (one per
invar) and returns a list of NumPy arrays (one per outvar).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src.compile import broadcasts, contract, fold, native, specialize
from jaxlite._src.core import rules
from jaxlite._src.core.avals import check_allocation
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal, _sub_jaxprs, subjaxprs
from jaxlite._src.core.trace import eval_trace, set_current_trace, trace_ctx
from jaxlite._src.interpreters import simplify as _simplify

_fn_counter = itertools.count()

# Python refuses more than 20 statically nested blocks (loops, ``with``) in one function and
# 100 indentation levels; control-flow bodies nested deeper than this are emitted as calls
# of separately compiled functions.
MAX_INLINE_DEPTH = 8


class CodegenContext:
    """Accumulates globals for one generated module (a function and its sub-functions)."""

    def __init__(self):
        self.globals: dict[str, Any] = {"np": np}
        self._counter = itertools.count()
        self._global_ids: dict[int, str] = {}
        # How many control-flow bodies the code being emitted is nested in (see
        # ``control_flow.common.emit_inline``: past ``MAX_INLINE_DEPTH`` bodies become
        # separate functions, so generated code never nests without bound).
        self.depth = 0
        # Lines run once at the top of the generated function, before its equations: the
        # initial values of per-call-site locals of inlined callbacks (``HostFn.inline``).
        self.prologue: list[str] = []
        # Set while emitting code that must be silent on IEEE exceptions but also calls
        # user code (``jaxpr_to_source``): the equations are emitted in runs, and only the
        # runs that call no user code go inside ``np.errstate(all="ignore")``.
        self.quiet_runs = False

    def fresh(self, prefix: str) -> str:
        return f"{prefix}{next(self._counter)}"

    def add_global(self, value: Any, prefix: str = "_g") -> str:
        """Bind ``value`` in the globals under a generated name (deduplicated by identity)."""
        key = id(value)
        name = self._global_ids.get(key)
        if name is not None and self.globals.get(name) is value:
            return name
        name = self.fresh(prefix)
        self.globals[name] = value
        self._global_ids[key] = name
        return name

    def inline(
        self, closed: ClosedJaxpr, in_names: Sequence[str], manage_buffers: bool = False
    ) -> tuple[list[str], list[str]]:
        """``closed``'s equations as lines of the current function (fresh names)."""
        return emit_equations(self, closed, in_names, lambda: self.fresh("t"), manage_buffers)

    def compile_sub(self, closed: ClosedJaxpr) -> str:
        """Compile a sub-jaxpr (a loop body, a branch) into this module; returns its name."""
        # A body holding user code, called from code that is silent but for its user code,
        # is silent but for its own (a body called from a silent run inherits the state).
        fn, _ = compile_jaxpr(closed, quiet=self.quiet_runs)
        return self.add_global(fn, "_sub")


_const_value = fold.const_value  # (control_flow.common's name for it)


def jaxpr_to_source(
    closed: ClosedJaxpr, ctx: CodegenContext, fn_name: str, quiet: bool = False
) -> str:
    """The source of a function ``fn_name(v0, v1, ...)`` returning the outputs as a list;
    ``quiet``: run it silent on IEEE exceptions even if no equation asks for it (one that
    did was folded away: the code around it keeps its warnings as they were)."""
    counter = itertools.count()
    params = [f"v{next(counter)}" for _ in closed.jaxpr.invars]
    user = _uses(closed.jaxpr, rules.runs_user_code)
    quiet = quiet or _uses(closed.jaxpr, rules.quiet_fp)
    # A callback runs with the caller's NumPy error state, as JAX's do (its warnings and
    # ``np.seterr(all="raise")`` errors are the user's): code that calls user code keeps
    # the callbacks (and the loops / branches holding them) out of the silent region.
    ctx.quiet_runs, outer = quiet and user, ctx.quiet_runs
    try:
        body, outs = emit_equations(
            ctx, closed, params, lambda: f"v{next(counter)}", manage_buffers=True
        )
    finally:
        ctx.quiet_runs = outer
    lines = [f"def {fn_name}({', '.join(params)}):"]
    if user:
        # Callbacks run user code: with the eval trace current, whoever calls this function.
        tc, ev = ctx.add_global(trace_ctx, "_tc"), ctx.add_global(eval_trace, "_ev")
        call_again = ctx.add_global(_call_with_eval_trace, "_with_eval")
        lines.append(f"    if {tc}.trace is not {ev}:")
        lines.append(f"        return {call_again}({', '.join([fn_name, *params])})")
    lines.extend("    " + line for line in ctx.prologue)
    if quiet and not user:
        # JAX is silent on IEEE exceptions (log(0), 1/0...); NumPy would warn.
        errstate = ctx.add_global(np.errstate, "_errstate")
        lines.append(f'    with {errstate}(all="ignore"):')
        lines.extend("        " + line for line in body)
        lines.append(f"        return [{', '.join(outs)}]")
    else:
        lines.extend("    " + line for line in body)
        lines.append(f"    return [{', '.join(outs)}]")
    return "\n".join(lines) + "\n"


def _uses(jaxpr: Jaxpr, prims: set) -> bool:
    """Does ``jaxpr`` (or a body inlined into it) use a primitive in ``prims``?"""
    return any(e.primitive in prims for e in jaxpr.eqns) or any(
        _uses(sub, prims) for sub in subjaxprs(jaxpr)
    )


def _calls_user_code(eqn) -> bool:
    return eqn.primitive in rules.runs_user_code or any(
        _uses(sub, rules.runs_user_code) for sub in _sub_jaxprs(eqn.params)
    )


def _quiet_runs(ctx: CodegenContext, chunks: list[tuple[bool, list[str]]]) -> list[str]:
    """Join the equations' lines (``chunks``: (calls user code, lines)), each maximal run of
    equations that call no user code inside ``np.errstate(all="ignore")``."""
    errstate = ctx.add_global(np.errstate, "_errstate")
    lines: list[str] = []
    run: list[str] = []

    def flush():
        if run:
            lines.append(f'with {errstate}(all="ignore"):')
            lines.extend("    " + x for line in run for x in line.split("\n"))
            run.clear()

    for user, chunk in chunks:
        if user:
            flush()
            lines.extend(chunk)
        else:
            run.extend(chunk)
    flush()
    return lines


def _call_with_eval_trace(fn: Callable, *args: Any) -> Any:
    with set_current_trace(eval_trace):
        return fn(*args)


def emit_equations(
    ctx: CodegenContext,
    closed: ClosedJaxpr,
    in_names: Sequence[str],
    new_name: Callable[[], str],
    manage_buffers: bool = False,
) -> tuple[list[str], list[str]]:
    """Lines (unindented) computing ``closed``'s equations, and the names of its outputs.

    ``in_names`` hold the inputs; ``new_name()`` gives a fresh name per equation output.
    With ``manage_buffers`` (top-level functions), intermediates are deleted after their last
    use and ufunc results are written into dead buffers this code allocated.
    """
    jaxpr: Jaxpr = closed.jaxpr
    names: dict[int, str] = {}

    def read(v) -> str:
        if type(v) is Literal:
            return ctx.add_global(v.val, "_c")
        return names[id(v)]

    values: dict[int, Any] = {}
    for v, c in zip(jaxpr.constvars, closed.consts):
        values[id(v)] = value = fold.const_value(c)
        names[id(v)] = ctx.add_global(value, "_k")
    scalars: dict[int, Any] = {}  # a constant's one value (fold.uniform_scalar), or None

    def uniform(v):
        if id(v) not in values:
            return None
        if id(v) not in scalars:
            scalars[id(v)] = fold.uniform_scalar(values[id(v)])
        return scalars[id(v)]

    for v, n in zip(jaxpr.invars, in_names):
        names[id(v)] = n
    lines: list[str] = []
    last_use = _last_uses(jaxpr) if manage_buffers else {}
    # Vars holding a buffer this function allocated (a ufunc result) and read only by ufuncs
    # (no reshape/slice/transpose view of it, no callback holding it): safe to overwrite
    # at their last use.
    fresh: set[int] = set()
    only_ufunc_readers = _only_ufunc_readers(jaxpr) if manage_buffers else set()
    runs = ctx.quiet_runs
    chunks: list[tuple[bool, list[str]]] = []
    user = False
    for i, eqn in enumerate(jaxpr.eqns):
        if runs:  # each equation's code goes in the silent region whole, or not at all
            chunks.append((user, lines))
            lines, user = [], _calls_user_code(eqn)
            ctx.quiet_runs = user  # bodies it inlines: silent runs of their own, or none
        check_allocation([v.aval for v in eqn.outvars], eqn.primitive.name)
        ins = [read(v) for v in eqn.invars]
        if values:
            for k in fold.scalar_operands(eqn, uniform):
                ins[k] = ctx.add_global(uniform(eqn.invars[k]), "_c")
        outs = []
        for v in eqn.outvars:
            names[id(v)] = n = new_name()
            outs.append(n)
        lower = rules.lower_rules.get(eqn.primitive)
        if lower is not None:
            sub = lower(ctx, eqn, ins, outs)
            if eqn.primitive in rules.native_loops and native.active():
                sub = native.tier_lines(ctx, eqn, ins, outs, sub)
            lines.extend(sub)
        else:
            reuse = _reusable_input(eqn, i, last_use, fresh) if manage_buffers else None
            lines.extend(
                default_lowering(
                    ctx, eqn, ins, outs, out_buffer=(None if reuse is None else ins[reuse])
                )
            )
            if _allocates_output(eqn) and id(eqn.outvars[0]) in only_ufunc_readers:
                fresh.add(id(eqn.outvars[0]))
            elif eqn.primitive.multiple_results and eqn.primitive in rules.fresh_output:
                # Every result of a multiple-result primitive in ``fresh_output`` (e.g.
                # threefry2x32) is a new buffer: its ufunc consumers may write into it.
                for v in eqn.outvars:
                    if v.aval.shape != () and id(v) in only_ufunc_readers:
                        fresh.add(id(v))
        if not manage_buffers:
            continue
        # Drop intermediates after their last use so NumPy can recycle their memory (large
        # arrays otherwise all stay alive until the function returns). Outputs that are never
        # read are dropped only when this code assigned them (default lowering).
        candidates = list(eqn.invars) + (list(eqn.outvars) if lower is None else [])
        dead = [
            names[id(v)] for v in candidates if type(v) is not Literal and last_use.get(id(v)) == i
        ]
        if dead:
            lines.append(f"del {', '.join(dict.fromkeys(dead))}")
    if runs:
        ctx.quiet_runs = runs
        chunks.append((user, lines))
        lines = _quiet_runs(ctx, chunks)
    return lines, [read(v) for v in jaxpr.outvars]


def lower_as_call(
    ctx: CodegenContext, eqn, ins: list[str], outs: list[str], param: str = "jaxpr"
) -> list[str]:
    """Lowering of call-like primitives (``jit_p``, ``checkpoint_p``, the custom derivative
    calls with ``param="call_jaxpr"``): call the jaxpr param as a sub-function, compiled as
    ``jit`` compiles (simplified: XLA sees such a body inline and simplifies it with the
    rest, so an unused ``pure_callback`` in it is removed, D1, and so is one that only picks
    between equal values, ``select_n(w, x, x)``)."""
    fn = ctx.compile_sub(_simplify.simplify(eqn.params[param]))
    call = f"{fn}({', '.join(ins)})"
    if not outs:
        return [call]
    return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"]


def _eqn_vars(eqn):
    return [v for v in list(eqn.invars) + list(eqn.outvars) if type(v) is not Literal]


def _last_uses(jaxpr: Jaxpr) -> dict[int, int]:
    """Index of the last equation reading (or, if never read, defining) each var. The
    jaxpr's inputs, constants and outputs are left out: they are never deleted."""
    last: dict[int, int] = {}
    for i, eqn in enumerate(jaxpr.eqns):
        for v in _eqn_vars(eqn):
            last[id(v)] = i
    for v in list(jaxpr.outvars) + list(jaxpr.invars) + list(jaxpr.constvars):
        last.pop(id(v), None)
    return last


def _only_ufunc_readers(jaxpr: Jaxpr) -> set[int]:
    """Vars every reader of which is a ufunc equation (ufuncs never return views of their
    inputs), so no other value can alias their buffer."""
    ok: set[int] = set()
    bad: set[int] = set()
    for eqn in jaxpr.eqns:
        target = ok if _is_ufunc_eqn(eqn) else bad
        for v in eqn.invars:
            if type(v) is not Literal:
                target.add(id(v))
    return ok - bad


def _is_ufunc_eqn(eqn) -> bool:
    return (
        not eqn.params
        and not eqn.primitive.multiple_results
        and isinstance(rules.impl_for(eqn), np.ufunc)
        and rules.lower_rules.get(eqn.primitive) is None
        and len(eqn.outvars) == 1
        and eqn.outvars[0].aval.shape != ()
    )


def _allocates_output(eqn) -> bool:
    """Does the equation's NumPy code return a buffer it allocated (never a view of an
    input)? Ufuncs do, and so do primitives listed in ``rules.fresh_output``."""
    if _is_ufunc_eqn(eqn):
        return True
    return (
        eqn.primitive in rules.fresh_output
        and len(eqn.outvars) == 1
        and eqn.outvars[0].aval.shape != ()
        and rules.lower_rules.get(eqn.primitive) is None
    )


def _reusable_input(eqn, i: int, last_use: dict, fresh: set) -> int | None:
    """Position of an input whose buffer the ufunc may write its result into (``out=``):
    a buffer this function allocated, dead after this equation, of the result's exact shape
    and dtype."""
    if not _is_ufunc_eqn(eqn):
        return None
    out_aval = eqn.outvars[0].aval
    try:  # the ufunc's own result dtype must be the output's (no casting into ``out``)
        resolved = rules.impl_for(eqn).resolve_dtypes(
            tuple(v.aval.dtype for v in eqn.invars) + (None,)
        )
    except (TypeError, ValueError, AttributeError):
        return None
    if resolved[-1] != out_aval.dtype:
        return None
    for k, v in enumerate(eqn.invars):
        if (
            type(v) is not Literal
            and id(v) in fresh
            and last_use.get(id(v)) == i
            and v.aval.shape == out_aval.shape
            and v.aval.dtype == out_aval.dtype
        ):
            return k
    return None


def default_lowering(
    ctx: CodegenContext, eqn, ins: list[str], outs: list[str], out_buffer: str | None = None
) -> list[str]:
    impl = rules.impl_for(eqn)
    if impl is None:
        raise rules.missing_rule("lower", eqn.primitive)
    if out_buffer is None:
        lines = specialize.lines(ctx, eqn, ins, outs)  # inline NumPy code for these avals
        if lines is not None:
            return lines
    return lower_impl(impl, ctx, eqn, ins, outs, out_buffer)


def lower_impl(
    impl, ctx: CodegenContext, eqn, ins: list[str], outs: list[str], out_buffer: str | None = None
) -> list[str]:
    """Lower ``eqn`` as a direct call of the NumPy callable ``impl`` (passed via globals)."""
    fn = functools.partial(impl, **eqn.params) if eqn.params else impl
    fname = ctx.add_global(fn, "_f")
    if out_buffer is not None:
        return [f"{outs[0]} = {fname}({', '.join(ins)}, out={out_buffer})"]
    call = f"{fname}({', '.join(ins)})"
    if eqn.primitive.multiple_results:
        if not outs:
            return [call]
        return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"]
    return [f"{outs[0]} = {call}"]


def compile_jaxpr(closed: ClosedJaxpr, quiet: bool = False) -> tuple[Callable, str]:
    """Generate and ``exec`` the Python source for ``closed``; returns (function, source).
    ``quiet``: silent on IEEE exceptions even if no equation asks for it (a body called
    from code that is)."""
    ctx = CodegenContext()
    fn_name = f"jitted_{next(_fn_counter)}"
    quiet = quiet or _uses(closed.jaxpr, rules.quiet_fp)
    closed = contract.contract_dots(closed)  # XLA's FMA of p - c * dot(x, y)
    closed = fold.fold_constants(closed)  # what XLA evaluates when it compiles
    if native.active():
        closed = native.outline_regions(closed)  # long elementwise runs: a tier each
    closed = broadcasts.implicit_broadcasts(closed)  # NumPy's broadcasting, where exact
    source = jaxpr_to_source(closed, ctx, fn_name, quiet)
    code = compile(source, f"<jaxlite-generated {fn_name}>", "exec")
    exec(code, ctx.globals)  # noqa: S102 (source is generated from identifiers only)
    fn = ctx.globals[fn_name]
    fn.__jaxlite_source__ = source
    return fn, source
