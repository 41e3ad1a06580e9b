"""Helpers shared by the control-flow primitives (cond, while_loop, scan).

* tracing user functions to closed jaxprs whose captured constants become explicit leading
  operands (``trace_closure_converted``), so every transformation sees closed-over tracers;
* JAX-style type checks and their error messages (branch outputs, loop carries);
* jaxpr surgery used by the rules (permuting inputs/outputs, pruning);
* ``emit_inline``: codegen of a sub-jaxpr as straight-line code inside the caller's
  generated function (loops and branches are emitted inline, so one loop iteration costs
  only the NumPy calls of its body).
"""

from __future__ import annotations

import contextlib
import inspect
import operator
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes, tree_util
from jaxlite._src.compile import codegen
from jaxlite._src.compile.codegen import _const_value
from jaxlite._src.compile.jit import compiled_for
from jaxlite._src.core import rules
from jaxlite._src.core.array import ArrayImpl, to_array
from jaxlite._src.core.avals import ShapedArray, aval_of, ordered_axes
from jaxlite._src.core.effects import batched_cond_allowed_effects, control_flow_allowed_effects
from jaxlite._src.core.ir import (
    ClosedJaxpr,
    Jaxpr,
    JaxprEqn,
    Literal,
    Var,
    closure_convert_consts,
    jaxpr_forwarding,
    subjaxprs,
)
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.core.trace import Tracer, eval_trace, set_current_trace
from jaxlite._src.interpreters import dce as _dce, simplify as _simplify
from jaxlite._src.interpreters.dce import dce_closed_jaxpr
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.ops.conversion import convert_element_type


# ------------------------------------------------------------------------------ values
def jit_disabled() -> bool:
    return bool(_cfg.disable_jit_enabled())


def is_concrete_value(x: Any) -> bool:
    if isinstance(x, Tracer):
        return x.to_concrete_value() is not None
    return True


def typematch(a: ShapedArray, b: ShapedArray) -> bool:
    """Equal shapes, dtypes and varying manual axes (weak types ignored), as JAX compares
    loop carries and branch outputs."""
    return a.shape == b.shape and a.dtype == b.dtype and a.vma == b.vma


def is_float0(x: Any) -> bool:
    return aval_of(x).dtype == dtypes.float0


def nonzero_tangent(t: Any) -> bool:
    return type(t) is not Zero and not is_float0(t)


def differentiable(aval: ShapedArray) -> bool:
    return dtypes.is_inexact(aval.dtype)


# ----------------------------------------------------------------------------- tracing
def trace_closure_converted(
    flat_fun: Callable, in_avals: Sequence[ShapedArray]
) -> tuple[ClosedJaxpr, list]:
    """Trace ``flat_fun`` (flat in, flat out); captured values become leading invars.

    Returns ``(closed, consts)``: ``closed`` has no consts and takes ``(*consts, *args)``.
    """

    closed, _ = trace_to_jaxpr(flat_fun, list(in_avals))
    return closure_convert_consts(closed)


def check_effects(api_name: str, effects) -> None:
    bad = control_flow_allowed_effects.filter_not_in(effects)
    if bad:
        raise NotImplementedError(f"Effects not supported in `{api_name}`: {bad}")


def needs_per_element_batching(effects) -> bool:
    """A batched predicate over bodies with these effects runs element by element."""
    return bool(batched_cond_allowed_effects.filter_not_in(effects))


def _capitalize(s: str) -> str:
    return s[:1].upper() + s[1:]


def _join_diffs(diffs: list[str]) -> str:
    if len(diffs) == 1:
        return f"{_capitalize(diffs[0])}.\n"
    return "\n".join(f"  * {d};" for d in diffs[:-1]) + f"\n  * {diffs[-1]}.\n"


def type_str(a: ShapedArray) -> str:
    """JAX's short type string in error messages: ``float32[3]``, ``float32[3]{V:i}``."""
    return f"{np.dtype(a.dtype).name}[{','.join(str(d) for d in a.shape)}]{a.vma_str()}"


def _mismatch_extra(a: ShapedArray, b: ShapedArray) -> str:
    parts = []
    if a.shape != b.shape and a.dtype != b.dtype:
        parts.append("the shapes and dtypes do not match")
    elif a.shape != b.shape:
        parts.append("the shapes do not match")
    elif a.dtype != b.dtype:
        parts.append("the dtypes do not match")
    if a.vma != b.vma:
        parts.append("the manual axis types do not match")
    if len(parts) == 1:
        return ", so " + parts[0]
    return ", so " + ", ".join(parts[:-1]) + ", and " + parts[-1]


_SCAN_VMA_DOC = (
    "See https://docs.jax.dev/en/latest/notebooks/shard_map.html#scan-vma for more information.\n\n"
)


def _pcast_hint(apps: list[str], loop: bool) -> str:
    """JAX's "This might be fixed by applying `jax.lax.pcast(...)`" paragraph."""
    if not apps:
        return ""
    if len(apps) == 1:
        return f"This might be fixed by {apps[0]}.\n" + _SCAN_VMA_DOC
    if loop:
        items = "\n".join(f"  * {d};\n" for d in apps[:-1]) + f"  * {apps[-1]}.\n"
    else:
        items = "\n".join(f"  * {d};" for d in apps[:-1]) + f"\n  * {apps[-1]}.\n"
    return "This might be fixed by:\n" + items + _SCAN_VMA_DOC


def _leaf_paths(tree_def) -> list[str]:
    try:
        leaves_with_path, _ = tree_util.tree_flatten_with_path(
            tree_util.tree_unflatten(tree_def, [0] * tree_def.num_leaves)
        )
        return [tree_util.keystr(p) for p, _ in leaves_with_path]
    except Exception:  # noqa: BLE001 (custom nodes that cannot be rebuilt)
        return [""] * tree_def.num_leaves


def check_branch_outputs(
    api_name: str, name1: str, name2: str, tree1, avals1, tree2, avals2
) -> None:
    """JAX's errors for branches whose outputs differ in structure or type."""
    if not tree_util.treedefs_equal(tree1, tree2):
        raise TypeError(
            f"{api_name} branch outputs must have the same pytree structure, but they "
            f"differ:\n\n{name1} output is {tree1}\n{name2} output is {tree2}\n\n"
            f"Revise {name1} and/or {name2} so that they have the same pytree structure."
        )
    paths = _leaf_paths(tree1)
    diffs = [
        f"the output of {name1}{' at path ' + p if p else ''} has type {type_str(a1)} but "
        f"the corresponding output of {name2} has type {type_str(a2)}"
        f"{_mismatch_extra(a1, a2)}"
        for p, a1, a2 in zip(paths, avals1, avals2)
        if not typematch(a1, a2)
    ]
    # JAX's text, verbatim (0.10.2 names the axes ``b - a`` for the output of ``n``).
    apps = [
        f"applying `jax.lax.pcast(..., {ordered_axes(a.vma - b.vma)}, to='varying')` to the "
        f"output of {n}{' at path ' + p if p else ''}"
        for p, a1, a2 in zip(paths, avals1, avals2)
        for n, a, b in ((name1, a2, a1), (name2, a1, a2))
        if not typematch(a1, a2) and a.vma != b.vma and b.vma - a.vma
    ]
    if diffs:
        raise TypeError(
            f"{api_name} branches must have equal output types but they differ.\n\n"
            f"{_join_diffs(diffs)}\n{_pcast_hint(apps, False)}"
            f"Revise {name1} and/or {name2} so that all output types match."
        )


def _carry_name(body_fun) -> str | None:
    try:
        sig = inspect.signature(body_fun)
        return list(sig.parameters)[0]
    except (ValueError, TypeError, IndexError):
        return None


def check_carry_type(name: str, body_fun, in_tree, in_avals, out_tree, out_avals) -> None:
    """JAX's errors for a loop body whose carry output differs from its carry input."""
    cname = _carry_name(body_fun)

    def component(p):
        if cname:
            return f"the input carry component {cname}{p}" if p else f"the input carry {cname}"
        return f"the input carry at path {p}" if p else "the input carry"

    if not tree_util.treedefs_equal(in_tree, out_tree):
        raise TypeError(
            f"{name} function carry input and carry output must have the same pytree "
            f"structure, but they differ:\n\nthe input tree structure is:\n{in_tree}\n"
            f"the output tree structure is:\n{out_tree}\n\n"
            "Revise the function so that the carry output has the same pytree structure as "
            "the carry input."
        )
    paths = _leaf_paths(in_tree)
    diffs = [
        f"{component(p)} has type {type_str(a)} but the corresponding output carry "
        f"component has type {type_str(b)}{_mismatch_extra(a, b)}"
        for p, a, b in zip(paths, in_avals, out_avals)
        if not typematch(a, b)
    ]
    apps = [
        f"applying `jax.lax.pcast(..., {ordered_axes(b.vma - a.vma)}, to='varying')`, to the "
        f"initial carry value corresponding to {component(p)}"
        for p, a, b in zip(paths, in_avals, out_avals)
        if not typematch(a, b) and a.vma != b.vma and b.vma - a.vma
    ]
    if diffs:
        raise TypeError(
            f"{name} function carry input and carry output must have equal types, but they "
            f"differ:\n\n{_join_diffs(diffs)}\n{_pcast_hint(apps, True)}"
            "Revise the function so that all output types match the corresponding input "
            "types."
        )


def promote_weak_inputs(vals: list, in_avals: list, out_avals: list) -> tuple[list, bool]:
    """Weakly typed initial carries whose dtype differs from the body's output take the
    promoted dtype, strongly typed (as JAX's ``convert_element_type`` there makes them):
    ``while_loop(c < 3, c + 1.0, 0)`` is a strong float32."""
    changed = False
    new = []
    for v, a, b in zip(vals, in_avals, out_avals):
        if a.weak_type and not typematch(a, b) and a.shape == b.shape:
            dt, _ = dtypes.promote_dtypes_weak([(a.dtype, True), (b.dtype, b.weak_type)])
            v = convert_element_type(v, dt, False)
            changed = changed or aval_of(v).dtype != a.dtype or aval_of(v).weak_type != a.weak_type
        new.append(v)
    return new, changed


# ----------------------------------------------------------------------- jaxpr surgery
def invariant_carries(body: ClosedJaxpr, nconsts: int, ncarry: int) -> list[int]:
    """Carry positions the loop body returns unchanged (its output ``k`` is its carry input
    ``k``): loop-invariant values, which JAX passes to the loop as constants and returns
    as given (so they stay unbatched under ``vmap`` with a batched predicate)."""
    fwd = jaxpr_forwarding(body.jaxpr)[:ncarry]
    return [k for k, i in enumerate(fwd) if i == nconsts + k]


def permute_jaxpr(
    closed: ClosedJaxpr,
    in_order: Sequence[int] | None = None,
    out_order: Sequence[int] | None = None,
) -> ClosedJaxpr:
    """A jaxpr whose i-th invar is the old ``in_order[i]``-th (outvars likewise)."""
    j = closed.jaxpr
    invars = j.invars if in_order is None else [j.invars[i] for i in in_order]
    outvars = j.outvars if out_order is None else [j.outvars[i] for i in out_order]
    return ClosedJaxpr(Jaxpr(j.constvars, invars, outvars, j.eqns, j.effects), closed.consts)


def prune_jaxpr_io(
    closed: ClosedJaxpr, keep_in: Sequence[bool], keep_out: Sequence[bool]
) -> ClosedJaxpr:
    j = closed.jaxpr
    new = Jaxpr(
        j.constvars,
        [v for v, k in zip(j.invars, keep_in) if k],
        [v for v, k in zip(j.outvars, keep_out) if k],
        j.eqns,
        j.effects,
    )
    out = ClosedJaxpr(new, closed.consts)
    _dce.derive_fixpoint(closed, out, keep_in)
    return out


def dce_body(closed: ClosedJaxpr, used_outputs: Sequence[bool]) -> tuple[ClosedJaxpr, list]:
    """DCE keeping every invar; returns (jaxpr with only the used outputs, used invars)."""
    return _dce.dce_closed_jaxpr(closed, list(used_outputs))


def add_dummy_invars(closed: ClosedJaxpr, avals: Sequence[ShapedArray], at: int) -> ClosedJaxpr:
    """Insert unused invars with ``avals`` at position ``at``."""
    j = closed.jaxpr
    new_vars = [Var(a) for a in avals]
    invars = list(j.invars[:at]) + new_vars + list(j.invars[at:])
    return ClosedJaxpr(Jaxpr(j.constvars, invars, j.outvars, j.eqns, j.effects), closed.consts)


def jaxpr_from_fun(fun: Callable, in_avals: Sequence[ShapedArray]) -> ClosedJaxpr:
    """Trace a flat function to a closed jaxpr (consts stay consts)."""
    closed, _ = trace_to_jaxpr(fun, list(in_avals))
    return closed


def join_consts(closeds: Sequence[ClosedJaxpr]) -> tuple[list[ClosedJaxpr], list]:
    """Give several jaxprs (branches) one shared list of leading const operands.

    Each result takes ``(*all_consts, *original_inputs)`` and has no consts; ``all_consts``
    holds every jaxpr's consts, a value captured by several branches once (the same object,
    as JAX merges them): its cotangent is then one value, not a sum of per-branch ones
    (``0 + -0`` would lose the sign of a zero).
    """
    converted = [convert_consts_to_invars(c) for c in closeds]
    all_consts: list = []
    first: dict[int, int] = {}
    slots = []
    for _, ks in converted:
        mine, seen = [], set()
        for k in ks:
            i = first.get(id(k))
            if i is None or id(k) in seen:
                i = len(all_consts)
                all_consts.append(k)
                first.setdefault(id(k), i)
            seen.add(id(k))
            mine.append(i)
        slots.append(mine)
    const_avals = [aval_of(k) for k in all_consts]
    out = []
    for (closed, ks), mine in zip(converted, slots):
        j = closed.jaxpr
        nc = len(ks)
        invars = [Var(a) for a in const_avals]
        for i, v in zip(mine, j.invars[:nc]):
            invars[i] = v
        invars += list(j.invars[nc:])
        out.append(ClosedJaxpr(Jaxpr([], invars, j.outvars, j.eqns, j.effects), []))
    return out, all_consts


def has_tracer_consts(closed: ClosedJaxpr) -> bool:
    return any(isinstance(c, Tracer) for c in closed.consts)


def convert_consts_to_invars(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list]:
    return closure_convert_consts(closed)


def quiet_unless_user_code(jaxprs: Sequence[Jaxpr]):
    """The NumPy error state for evaluating ``jaxprs`` eagerly where their floating-point
    exceptions are not the user's (an untaken branch of a batched ``cond``, derivative code
    jaxlite built): silent, as XLA is and as the ``rules.quiet_fp`` kernels run, unless
    they call user code (a callback, a ``custom_vjp`` ``bwd``: its warnings are the
    user's)."""
    todo = list(jaxprs)
    while todo:
        j = todo.pop()
        if any(e.primitive in rules.runs_user_code or e.primitive.name == "custom_lin"
               for e in j.eqns):  # fmt: skip
            return contextlib.nullcontext()
        todo.extend(subjaxprs(j))
    return np.errstate(all="ignore")


def eval_closed(closed: ClosedJaxpr, *args) -> list:
    """Evaluate ``closed`` on the current trace (inlining it into what is being traced)."""
    return eval_jaxpr(closed.jaxpr, closed.consts, *args)


def eval_numpy(closed: ClosedJaxpr, args: Sequence[Any]) -> list:
    """Evaluate ``closed`` eagerly on NumPy inputs; NumPy outputs (an impl helper)."""

    # Raw buffers of extended dtypes (PRNG keys: structured storage) carry their meaning
    # only in the aval: wrap them with it, as NumPy values they are not valid operands.
    args = [
        ArrayImpl(a, av) if type(a) is np.ndarray and dtypes.is_extended(av.dtype) else a
        for a, av in zip(args, closed.in_avals)
    ]
    with set_current_trace(eval_trace):
        outs = eval_jaxpr(closed.jaxpr, closed.consts, *args)

    return [_const_value(o) for o in outs]


# ----------------------------------------------------------------------------- codegen
_simplified_cache: weakref.WeakKeyDictionary[ClosedJaxpr, ClosedJaxpr] = weakref.WeakKeyDictionary()


def clear_caches() -> None:
    """Forget the simplified and compiled bodies (``jax.clear_caches``)."""
    _simplified_cache.clear()
    _single_cache.clear()


def simplified(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The body as ``jit`` would compile it (nested jit inlined, CSE, DCE), cached."""
    s = _simplified_cache.get(closed)
    if s is None:
        s = _simplify.simplify(closed)
        _simplified_cache[closed] = s
    return s


def emit_inline(ctx, closed: ClosedJaxpr, in_names: Sequence[str]) -> tuple[list[str], list[str]]:
    """Generate ``closed``'s equations as lines of the caller's function.

    ``in_names`` are Python expressions (names) holding the inputs. Returns the lines
    (unindented) and the names holding the outputs. Generated names are fresh in ``ctx``.
    """

    body = simplified(closed)
    if ctx.depth >= codegen.MAX_INLINE_DEPTH:
        # Deep nesting (a cond in a cond in ... a scan): call the body as its own compiled
        # function, whose code starts again at depth 0. Python limits static nesting.
        fn = ctx.compile_sub(body)
        outs = [ctx.fresh("t") for _ in body.jaxpr.outvars]
        call = f"{fn}({', '.join(in_names)})"
        if not outs:
            return [call], []
        return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"], outs
    ctx.depth += 1
    try:
        return codegen.emit_equations(ctx, body, in_names, lambda: ctx.fresh("t"))
    finally:
        ctx.depth -= 1


def assign(targets: Sequence[str], values: Sequence[str]) -> list[str]:
    """``a, b = x, y`` (nothing for no targets); skips no-op self assignments."""
    pairs = [(t, v) for t, v in zip(targets, values) if t != v]
    if not pairs:
        return []
    ts, vs = zip(*pairs)
    if len(ts) == 1:
        return [f"{ts[0]} = {vs[0]}"]
    return [f"{', '.join(ts)} = {', '.join(vs)}"]


def indent(lines: Sequence[str], n: int = 1) -> list[str]:
    pad = "    " * n
    return [pad + line for line in lines]


# ------------------------------------------------------------- single-equation impls
_single_cache: weakref.WeakKeyDictionary[ClosedJaxpr, dict] = weakref.WeakKeyDictionary()


def impl_via_codegen(
    prim, key_jaxpr: ClosedJaxpr, in_avals: Sequence[ShapedArray], params: dict
) -> Callable:
    """The compiled function of a jaxpr holding one ``prim`` equation with ``params``.

    Used as the impl rule of loops and conds so that eager evaluation runs exactly the code
    ``jit`` generates. Cached per body jaxpr (weakly) and the remaining params.
    """
    per = _single_cache.get(key_jaxpr)
    if per is None:
        per = {}
        _single_cache[key_jaxpr] = per
    pkey = tuple(
        sorted((k, id(v) if isinstance(v, (ClosedJaxpr, tuple)) else v) for k, v in params.items())
    )
    others = tuple(
        v for v in params.values() if isinstance(v, (ClosedJaxpr, tuple)) and v is not key_jaxpr
    )
    entry = per.get(pkey)
    # Ids may be reused after garbage collection: check the identity of the jaxprs too.
    if entry is None or any(a is not b for a, b in zip(entry[1], others)):
        invars = [Var(a) for a in in_avals]
        avals_out = rules.abstract_eval_rules[prim](*in_avals, **params)
        eff_rule = rules.effects_rules.get(prim)
        effs = eff_rule(*in_avals, **params) if eff_rule else ()
        outvars = [Var(a) for a in avals_out]
        eqn = JaxprEqn(prim, invars, outvars, params, effs)
        closed = ClosedJaxpr(Jaxpr([], invars, outvars, [eqn]), [])
        # The value keeps the function and the *other* jaxpr params (never the key itself,
        # which would keep the weak key alive).
        entry = (compiled_for(closed).fn, others)
        per[pkey] = entry
    return entry[0]


# ----------------------------------------------------------------- native-tier loop carries
def native_carries(ctx, names, init, avals) -> tuple[list, list[str]]:
    """The carries of a native loop, initialized from ``init``: small arrays as lists of
    scalar locals (``ctx.small``), others under ``names``; and the lines doing it."""
    carry, targets, values = [], [], []
    for name, x, a in zip(names, init, avals):
        if ctx.small(a):
            els = [ctx.fresh("e") for _ in range(a.size)]
            targets += els
            values += ctx.elements(x, a)
            carry.append(els)
        else:
            targets.append(name)
            values.append(x)
            carry.append(name)
    return carry, assign(targets, values)


def assign_native(ctx, carry, new, avals) -> list[str]:
    """One simultaneous assignment of a loop step's results ``new`` to ``carry``."""
    targets, values = [], []
    for c, r, a in zip(carry, new, avals):
        if isinstance(c, list):
            targets += c
            values += ctx.elements(r, a)
        else:
            targets.append(c)
            values.append(r)
    return assign(targets, values)


def native_results(ctx, names, carry, avals) -> list[str]:
    """Hand scalarized final carries to the enclosing emitter under ``names``."""
    for name, c in zip(names, carry):
        if isinstance(c, list):
            ctx.scalar_outs[name] = list(c)
    return []


def check_unroll(unroll, length: int) -> int:
    """The number of scan steps per loop iteration that ``unroll`` asks for, read as JAX's
    ``scan``: a bool is all steps or one; anything else must compare with 0 (None or a
    string is the comparison's ``TypeError``), be non-negative (``ValueError``) and be an
    integer (a float is ``operator.index``'s ``TypeError``; an array is unhashable, as a
    ``jit`` parameter)."""
    if isinstance(unroll, bool):
        return max(length, 1) if unroll else 1
    if isinstance(unroll, np.ndarray):
        raise TypeError("unhashable type: 'numpy.ndarray'")
    try:
        negative = unroll < 0
    except TypeError:
        raise TypeError(
            f"'<' not supported between instances of '{type(unroll).__name__}' and 'int'"
        ) from None
    if negative:
        raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")
    return operator.index(unroll)
