"""Jaxpr -> Python source over NumPy, compiled once with ``exec``.

Each equation becomes one line calling the primitive's NumPy callable (its ``impl`` rule,
with params pre-bound) or the lines produced by its ``lower_rules`` entry (control flow,
callbacks). Constants, callables and literals are bound in the generated function's
globals under generated names; **no user-supplied text ever reaches the source** (names are
``a0, a1, ...``, ``_f3``, ``_c2``), so nothing a user writes can be injected.

``compile_jaxpr(closed)`` returns ``(fn, source)``; ``fn`` takes NumPy arrays (one per
invar) and returns a list of NumPy arrays (one per outvar).
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Callable

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal

_fn_counter = itertools.count()


class CodegenContext:
    """Accumulates globals for one generated module (a function and its sub-functions)."""

    def __init__(self):
        self.globals: dict[str, Any] = {"np": np}
        self._counter = itertools.count()
        self._global_ids: dict[int, str] = {}

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

    def compile_sub(self, closed: ClosedJaxpr) -> str:
        """Compile a sub-jaxpr (a loop body, a branch) into this module; returns its name."""
        fn, _ = compile_jaxpr(closed)
        return self.add_global(fn, "_sub")


def _const_value(c: Any) -> Any:
    if type(c) is ArrayImpl:
        return c._value
    return np.asarray(c)


def jaxpr_to_source(closed: ClosedJaxpr, ctx: CodegenContext, fn_name: str) -> str:
    jaxpr: Jaxpr = closed.jaxpr
    names: dict[int, str] = {}
    counter = itertools.count()

    def new_var(v) -> str:
        n = f"v{next(counter)}"
        names[id(v)] = n
        return n

    def read(v) -> str:
        if type(v) is Literal:
            return ctx.add_global(v.val, "_c")
        return names[id(v)]

    for v, c in zip(jaxpr.constvars, closed.consts):
        names[id(v)] = ctx.add_global(_const_value(c), "_k")
    params = [new_var(v) for v in jaxpr.invars]
    lines = [f"def {fn_name}({', '.join(params)}):"]
    for eqn in jaxpr.eqns:
        ins = [read(v) for v in eqn.invars]
        outs = [new_var(v) for v in eqn.outvars]
        lower = rules.lower_rules.get(eqn.primitive)
        if lower is not None:
            body = lower(ctx, eqn, ins, outs)
        else:
            body = default_lowering(ctx, eqn, ins, outs)
        lines.extend("    " + line for line in body)
    outs = [read(v) for v in jaxpr.outvars]
    lines.append(f"    return [{', '.join(outs)}]")
    return "\n".join(lines) + "\n"


def default_lowering(ctx: CodegenContext, eqn, ins: list[str], outs: list[str]) -> list[str]:
    impl = rules.impl_rules.get(eqn.primitive)
    if impl is None:
        raise rules.missing_rule("lower", eqn.primitive)
    fn = functools.partial(impl, **eqn.params) if eqn.params else impl
    fname = ctx.add_global(fn, "_f")
    call = f"{fname}({', '.join(ins)})"
    if eqn.primitive.multiple_results:
        if not outs:
            return [call]
        return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"]
    return [f"{outs[0]} = {call}"]


def compile_jaxpr(closed: ClosedJaxpr) -> tuple[Callable, str]:
    """Generate and ``exec`` the Python source for ``closed``; returns (function, source)."""
    ctx = CodegenContext()
    fn_name = f"jitted_{next(_fn_counter)}"
    source = jaxpr_to_source(closed, ctx, fn_name)
    code = compile(source, f"<jaxlite-generated {fn_name}>", "exec")
    exec(code, ctx.globals)  # noqa: S102 (source is generated from identifiers only)
    fn = ctx.globals[fn_name]
    fn.__jaxlite_source__ = source
    return fn, source
