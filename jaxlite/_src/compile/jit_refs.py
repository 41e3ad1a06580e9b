"""Calling a jitted (or checkpointed) function that takes refs or touches refs made outside.

``staging.trace_flat_refs`` traced it with a ``RefPlan``: its jaxpr takes the refs' values
as extra inputs and returns their final values as extra outputs. A call reads the refs
(``refs.read``), runs the compiled function (outside any transformation) or binds ``jit_p``
(inside one), and writes the final values back (``refs.write``), so the caller sees the
mutation, as in JAX. Such entries never enter ``PjitFunction``'s fast caches, whose hit
paths stay as they were.
"""

from __future__ import annotations

import inspect

from jaxlite._src import tree_util
from jaxlite._src.core import array as _array, refs
from jaxlite._src.core.array import ArrayImpl, foreign_to_numpy
from jaxlite._src.core.ir import closure_convert_consts
from jaxlite._src.core.trace import Tracer, escaped_tracer_error, eval_trace, trace_ctx
from jaxlite._src.util import function_where


def _arg_names(fun, args, kwargs) -> list[str]:
    """The name of each flat leaf of ``(args, kwargs)`` as JAX writes it (``a``, ``x['w']``)."""
    try:
        sig = inspect.signature(fun)
        bound = sig.bind(*args, **kwargs)
        named = []
        for name, value in bound.arguments.items():
            kind = sig.parameters[name].kind
            if kind is inspect.Parameter.VAR_POSITIONAL:
                named += [(f"{name}[{i}]", v) for i, v in enumerate(value)]
            elif kind is inspect.Parameter.VAR_KEYWORD:
                named += [(f"{name}['{k}']", v) for k, v in value.items()]
            else:
                named.append((name, value))
    except (TypeError, ValueError):
        named = [(f"args[{i}]", a) for i, a in enumerate(args)] + list(kwargs.items())
    out = []
    for name, value in named:
        for path, _ in tree_util.tree_flatten_with_path(value)[0]:
            out.append(name + tree_util.keystr(path))
    return out


def _unwrap(fun):
    """The user's function under ``functools.wraps`` layers (a ``vmap``ped function is
    named, as in JAX's errors, by the function it maps)."""
    try:
        return inspect.unwrap(fun)
    except ValueError:  # a cycle of __wrapped__
        return fun


def check_distinct_refs(fun, arg_refs, args, kwargs, what: str) -> None:
    """JAX's ``ValueError`` when one ref is passed as two arguments of the function traced
    for ``what`` (``"jit"``, ``"vmap"``)."""
    seen: dict[int, int] = {}
    for k, r in enumerate(arg_refs):
        j = seen.setdefault(id(r), k)
        if j != k:
            break
    else:
        return
    names = [
        n
        for n, leaf in zip(_arg_names(fun, args, kwargs), _leaves(args, kwargs))
        if isinstance(leaf, refs.Ref) and leaf is r
    ]
    shown = " and ".join(names[:2]) if len(names) >= 2 else "two arguments"
    raise ValueError(
        "only one reference to a mutable array may be passed as an argument to a function, "
        f"but when tracing {function_where(_unwrap(fun))} for {what} the "
        f"mutable array reference of type {r._aval.str_short()} appeared at both {shown}."
    )


def _check_closed_over(pjit, flat, plan, args, kwargs) -> None:
    """JAX's error for a ref both passed to the function and closed over by it (two
    references to one mutable array in one trace)."""
    closure = {id(r) for r in plan.closure}
    for k, i in enumerate(plan.arg_pos):
        if id(flat[i]) in closure:
            raise closed_over_error(pjit._fun, "jit", flat[i], (args, kwargs), k)


def closed_over_error(fun, what: str, ref, args_kwargs, k) -> ValueError:
    """JAX's ``ValueError`` for ``ref``, passed to ``fun`` (traced for ``what``) among
    ``args_kwargs`` (``(args, kwargs)``) and also closed over by it (``k``: its position
    among the ref leaves, named when the signature cannot name it)."""
    args, kwargs = args_kwargs
    names = [n for n, x in zip(_arg_names(fun, args, kwargs), _leaves(args, kwargs)) if x is ref]
    if not names:
        names = [f"args[{k}]"]
    return ValueError(
        f"when tracing {function_where(_unwrap(fun))} for {what}, a mutable "
        f"array reference of type {ref._aval.str_short()} was both closed over and "
        f"passed as the argument {names[0]}"
    )


def _leaves(args, kwargs):
    return tree_util.tree_leaves((args, kwargs))


def leaf_value(x, aval):
    """The NumPy value a jitted call hands its compiled function for the leaf ``x``."""
    if type(x) is ArrayImpl:
        return x._value
    if isinstance(x, Tracer):
        raise escaped_tracer_error(x)
    if hasattr(x, "__jax_array__"):
        return leaf_value(x.__jax_array__(), aval)
    # Never alias (and so never freeze) the caller's own buffer.
    return foreign_to_numpy(x, aval.dtype)


def call(pjit, entry, flat, args, kwargs, compiled_for, jit_p):
    """Call ``entry`` (traced with a ``RefPlan``) on the flat arguments ``flat``."""
    plan = entry.ref_plan
    if plan.cond_effects:  # as if its cond were bound here (a cached trace, JAX's errors)
        refs.refuse_cond_effects()
    if len(plan.arg_pos) > 1:
        check_distinct_refs(pjit._fun, [flat[i] for i in plan.arg_pos], args, kwargs, "jit")
    if plan.arg_pos and plan.closure:
        _check_closed_over(pjit, flat, plan, args, kwargs)

    def run(ins):
        if trace_ctx.trace is eval_trace:
            compiled = entry.compiled
            if compiled is None:
                compiled = entry.compiled = compiled_for(entry.closed)
            in_avals = entry.closed.in_avals
            outs = compiled.fn(*[leaf_value(x, a) for x, a in zip(ins, in_avals)])
            return [_array.make_output(o, a) for o, a in zip(outs, compiled.out_avals)]
        closed, consts = closure_convert_consts(entry.closed)
        return jit_p.bind(*consts, *ins, jaxpr=closed, name=pjit._name)

    if plan.recomputed_writes:  # a checkpoint inside writes refs (refs.bind_recomputing)
        if trace_ctx.trace is not eval_trace:
            refs.mark_recomputed_writes()
            bound = run
            run = lambda ins: refs.bind_recomputing(bound, plan, ins)  # noqa: E731
    return tree_util.tree_unflatten(entry.out_tree, run_with_plan(plan, flat, run))


def run_with_plan(plan, flat, run) -> list:
    """Read the refs of ``plan`` (arguments among ``flat``, closed-over ones), call
    ``run(inputs)``, write the final values of the refs it writes back; returns the
    function's own outputs."""
    arg_refs = [flat[i] for i in plan.arg_pos]
    if any(r is c for r in arg_refs for c in plan.closure):
        raise ValueError("a mutable array reference was both closed over and passed as an argument")
    ins = list(flat)
    for i in plan.arg_pos:
        ins[i] = refs.read(flat[i])
    ins += [refs.read(r) for r in plan.closure]
    outs = run(ins)
    n = plan.n_out
    for r, v, w in zip(arg_refs + list(plan.closure), outs[n:], plan.written):
        if w:
            refs.write(r, v)
    return outs[:n]
