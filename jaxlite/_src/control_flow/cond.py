"""``cond_p``: run one of several branch jaxprs, chosen by an int32 index.

Operands are ``(index, *ops)``; ``branches`` is a tuple of closed jaxprs taking ``ops``
(captured values of every branch are explicit leading operands, shared by all branches).
The index is already clamped into range by the front ends (``cond``, ``switch``).

Rules (all in this file): impl (the generated code of the single equation), abstract
eval, effects (union of branch effects), jvp (JVP of each branch, union of nonzero
tangents), batch (unbatched index: batch each branch; batched index: run every branch,
index 0 first, and select — or, when a branch has effects not allowed under a batched
predicate, run the cond once per element in element order), dce (prune branches),
partial eval and transpose (reverse mode), lower (``if``/``elif`` over inline branches).
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.compile.fold import const_value
from jaxlite._src.compile.jit import compiled_for
from jaxlite._src.control_flow import common, ref_threading as rt
from jaxlite._src.core import refs, rules
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.effects import join_effects
from jaxlite._src.core.ir import (
    ClosedJaxpr,
    Jaxpr,
    Var,
    closure_convert_consts,
    jaxpr_forwarding,
)
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, check_not_linear, is_undefined_primal, not_mapped
from jaxlite._src.custom_derivatives import check_no_forward_custom_vjp
from jaxlite._src.interpreters.batching import batch_jaxpr, move_dim
from jaxlite._src.interpreters.dce import dce_closed_jaxpr
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.interpreters.transpose import transpose_jaxpr
from jaxlite._src.ops import shape as _shape
from jaxlite._src.ops.clamp import clamp
from jaxlite._src.ops.conversion import convert_element_type
from jaxlite._src.ops.elementwise import ne, select_n_p
from jaxlite._src.ops.structural import instantiate, stop_gradient_p, zeros

cond_p = Primitive("cond", multiple_results=True)


# ------------------------------------------------------------------------------- rules
def _cond_abstract_eval(index, *ops, branches):
    if index.shape != () or not dtypes.is_int(index.dtype):
        raise TypeError(
            f"cond index must be an integer scalar, got {index.str_short(short_dtypes=True)}"
        )
    # JAX's outputs are branch 0's avals, weak types included: cond(p, lambda v: v * 2.0,
    # lambda v: 3.0, x) is weak (its false branch is), with the branches swapped strong.
    return list(branches[0].out_avals)


def _cond_effects(index, *ops, branches):
    return join_effects(*(b.effects for b in branches))


def _cond_impl(index, *ops, branches):
    # Only the taken branch runs, once, as compiled code: an eager cond runs exactly what
    # jit generates for it, as JAX compiles an eager cond (a pure_callback whose results
    # are unused is removed, D2; a debug callback's exception is a CallbackError and its
    # operands are not weakly typed, C3).
    i = min(max(int(index), 0), len(branches) - 1)
    # JAX compiles every branch: a custom_vjp evaluated forward in an untaken branch
    # raises there too (jvp of cond(False, custom_vjp_f, sin, x)).
    check_no_forward_custom_vjp(branches[:i] + branches[i + 1 :])
    body, consts = _operand_consts(branches[i])
    return list(compiled_for(body).fn(*consts, *ops))


# A branch's consts (values it closed over) as leading operands: an eager JAX cond passes
# them to its compiled branches as operands, so XLA does not treat them as compile-time
# constants there (no merged constant chains, ops/const_chains.py, and exact division by
# them, ops/division.py); literals stay constants. Under jit a branch keeps its consts
# (XLA sinks constant operands into the branches).
_operand_cache: weakref.WeakKeyDictionary[ClosedJaxpr, tuple] = weakref.WeakKeyDictionary()


def _operand_consts(branch: ClosedJaxpr) -> tuple[ClosedJaxpr, list]:
    got = _operand_cache.get(branch)
    if got is None:
        body, consts = closure_convert_consts(branch)
        got = _operand_cache[branch] = (body, [const_value(c) for c in consts])
    return got


def _cond_lower(ctx, eqn, ins, outs):
    return _cond_blocks(lambda br, ops: common.emit_inline(ctx, br, ops), eqn, ins, outs)


def _cond_native(ctx, eqn, ins, outs):
    # The same if/elif chain, its branches emitted by the native tier's context.
    return _cond_blocks(lambda br, ops: ctx.emit(common.simplified(br), ops), eqn, ins, outs)


def _cond_blocks(emit, eqn, ins, outs):
    branches = eqn.params["branches"]
    index, ops = ins[0], ins[1:]
    blocks = []
    for br in branches:
        body, res = emit(br, ops)
        blocks.append(body + common.assign(outs, res) or ["pass"])
    n = len(blocks)
    if n == 1:
        return blocks[0]
    if n == 2:
        return [f"if {index}:"] + common.indent(blocks[1]) + ["else:"] + common.indent(blocks[0])
    lines: list[str] = []
    for i, block in enumerate(blocks):
        if i == 0:
            head = f"if {index} <= 0:"
        elif i == n - 1:
            head = "else:"
        else:
            head = f"elif {index} == {int(i)}:"
        lines += [head] + common.indent(block)
    return lines


def _cond_jvp(primals, tangents, *, branches):
    index, ops = primals[0], primals[1:]
    op_tangents = tangents[1:]
    nonzeros = [common.nonzero_tangent(t) for t in op_tangents]
    out_nz = [False] * len(branches[0].out_avals)
    for br in branches:
        _, nz = _jvp_jaxpr(br, nonzeros, False)
        out_nz = [a or b for a, b in zip(out_nz, nz)]
    out_nz = [nz and common.differentiable(a) for nz, a in zip(out_nz, branches[0].out_avals)]
    new_branches = tuple(_jvp_jaxpr(br, nonzeros, out_nz)[0] for br in branches)
    nz_tangents = [t for t, nz in zip(op_tangents, nonzeros) if nz]
    outs = cond_p.bind(index, *ops, *nz_tangents, branches=new_branches)
    n = len(branches[0].out_avals)
    primals_out, it = outs[:n], iter(outs[n:])
    tangents_out = [
        next(it) if nz else Zero(a.to_tangent_aval())
        for nz, a in zip(out_nz, branches[0].out_avals)
    ]
    return primals_out, tangents_out


def _jvp_jaxpr(closed, nonzeros, instantiate):
    if isinstance(instantiate, bool):
        instantiate = [instantiate] * len(closed.out_avals)
    new, out_nz = jvp_jaxpr(closed, nonzeros, list(instantiate))
    return new, [bool(nz) for nz in out_nz]


def _cond_batch(axis_data, args, dims, *, branches):
    index, ops = args[0], list(args[1:])
    d_index, op_dims = dims[0], list(dims[1:])
    size = axis_data.size
    if d_index is not_mapped:
        out_b = [False] * len(branches[0].out_avals)
        for br in branches:
            _, od = batch_jaxpr(br, axis_data, op_dims, False)
            out_b = [a or (d is not not_mapped) for a, d in zip(out_b, od)]
        new = tuple(batch_jaxpr(br, axis_data, op_dims, out_b)[0] for br in branches)
        outs = cond_p.bind(index, *ops, branches=new)
        return outs, [0 if b else not_mapped for b in out_b]
    index = move_dim(index, d_index, 0, size)
    effects = join_effects(*(b.effects for b in branches))
    if common.needs_per_element_batching(effects):
        # Batch each branch abstractly first: an effect that cannot be batched at all
        # (ordered io_callback on a batched operand) raises here, as it would without cond.
        for br in branches:
            batch_jaxpr(br, axis_data, op_dims, False)
        return _per_element(index, ops, op_dims, size, branches)
    # Every branch runs on the whole batch (index 0 first), then a select picks per element.
    # As in JAX, every operand is batched first (an unbatched one broadcast): a callback on
    # it runs per element, an expand_dims pure_callback sees it with the full batch axis.
    ops = [move_dim(x, d, 0, size) for x, d in zip(ops, op_dims)]
    op_dims = [0] * len(ops)
    results = []
    # An element's untaken branch computes what XLA computes silently (log(0), 0 * inf,
    # in the branch or in its derivatives): evaluated now (eagerly), it runs as the
    # ``rules.quiet_fp`` kernels do, unless a branch calls user code (a callback's
    # warnings are the user's); staged, nothing runs here and the state is moot.
    with common.quiet_unless_user_code([b.jaxpr for b in branches]):
        for i, br in enumerate(branches):
            bb, _ = batch_jaxpr(br, axis_data, op_dims, True)
            results.append(common.eval_closed(bb, *_gate_operands(index, i, ops)))
    outs = []
    for k, a in enumerate(branches[0].out_avals):
        cases = [r[k] for r in results]
        shape = (size,) + a.shape
        which = index if a.shape == () else _shape.broadcast_in_dim(index, shape, (0,))

        if len(cases) == 2:
            which = ne(which, np.zeros((), aval_of(which).dtype))
        outs.append(select_n_p.bind(which, *cases))
    return outs, [0] * len(outs)


def _gate_operands(index, i, ops):
    """Branch ``i``'s operands for a batched-index cond: the same values, but an element
    whose index is not ``i`` gets its operand through ``stop_gradient``. Every branch runs
    on every element and the output select only zeroes the cotangent *into* the branch
    outputs, so without this gate reverse mode adds what an untaken branch's VJP gives for
    a zero cotangent to the operand's: ``0 * inf`` (NaN, ``grad`` of ``vmap`` of
    ``cond(x > 0, jnp.sqrt, ...)`` at 0), or a ``custom_vjp`` ``bwd`` that is not zero at
    zero. JAX gates the operands the same way (as its batching rule does), so the gradient
    of each element is that of its taken branch."""
    other = None  # True where the element's index is not ``i``
    out = []
    for x in ops:
        a = aval_of(x)
        if not dtypes.is_inexact(a.dtype):  # no tangent to gate
            out.append(x)
            continue
        if other is None:
            other = ne(index, np.asarray(i, aval_of(index).dtype))
        which = other
        if a.shape != other.shape:
            which = _shape.broadcast_in_dim(other, a.shape, (0,))
        out.append(select_n_p.bind(which, x, stop_gradient_p.bind(x)))
    return out


def _per_element(index, ops, op_dims, size, branches):
    """Run the cond once per batch element, in order (bodies with effects that must not run
    for elements whose branch is not taken)."""
    per_out: list[list] = []
    for i in range(size):
        idx_i = _shape.index_in_dim(index, i, 0, keepdims=False)
        ops_i = [
            x if d is not_mapped else _shape.index_in_dim(x, i, d, keepdims=False)
            for x, d in zip(ops, op_dims)
        ]
        per_out.append(cond_p.bind(idx_i, *ops_i, branches=branches))
    outs = [_shape.stack0(list(col)) for col in zip(*per_out)] if per_out else []
    if not per_out:
        outs = [_shape.full((0,) + a.shape, 0, a.dtype) for a in branches[0].out_avals]
    return outs, [0] * len(outs)


def _cond_dce(used_outputs, eqn):
    branches = eqn.params["branches"]
    if not any(used_outputs) and not eqn.effects:
        return [False] * len(eqn.invars), None
    pruned = []
    used_in = [False] * (len(eqn.invars) - 1)
    for br in branches:
        new, u = common.dce_body(br, used_outputs)
        pruned.append(new)
        used_in = [a or b for a, b in zip(used_in, u)]
    new_branches = tuple(
        common.prune_jaxpr_io(b, used_in, [True] * len(b.out_avals)) for b in pruned
    )
    invars = [eqn.invars[0]] + [v for v, u in zip(eqn.invars[1:], used_in) if u]
    outvars = [v for v, u in zip(eqn.outvars, used_outputs) if u]
    new_eqn = eqn.replace(
        invars=invars, outvars=outvars, params=dict(eqn.params, branches=new_branches)
    )
    return [True] + used_in, new_eqn


def _cond_partial_eval(trace, tracers, *, branches):
    """Known cond (run now, also returning every branch's residuals) + staged unknown cond.

    All branches must agree on which outputs are unknown. Their residuals share slots by
    type, as in JAX (``_merge_residual_slots``): a branch fills the slots it does not use
    with zeros and the unknown branches ignore them."""

    index, ops = tracers[0], tracers[1:]
    if trace.is_unknown(index):
        return trace.stage(cond_p, tracers, dict(branches=branches))
    unknowns = [trace.is_unknown(t) for t in ops]
    out_uk = [False] * len(branches[0].out_avals)
    for br in branches:
        _, _, uk, _ = partial_eval_jaxpr_nounits(br, unknowns, False)
        out_uk = [a or b for a, b in zip(out_uk, uk)]
    splits = [partial_eval_jaxpr_nounits(br, unknowns, out_uk) for br in branches]
    res_avals = [list(k.out_avals[len(k.out_avals) - nr :]) for k, _, _, nr in splits]
    all_res, slots = _merge_residual_slots(res_avals)
    n_known_out = len(out_uk) - sum(out_uk)
    known_ops = [t for t, u in zip(ops, unknowns) if not u]
    known_in_avals = [a for a, u in zip(branches[0].in_avals, unknowns) if not u]

    def padded_known(i):
        # Dead code removed, as JAX's known branches are: a pure_callback whose result
        # nothing uses does not run in the forward pass of a derivative (D2), also where
        # the known cond is then batched (vmap of grad: every branch runs, F17).
        known, _ = dce_closed_jaxpr(splits[i][0])

        def fun(*xs):
            outs = common.eval_closed(known, *xs)
            res = [None] * len(all_res)
            for k, r in zip(slots[i], outs[n_known_out:]):
                res[k] = r
            return list(outs[:n_known_out]) + [
                zeros(a) if r is None else r for a, r in zip(all_res, res)
            ]

        return common.jaxpr_from_fun(fun, known_in_avals)

    known_branches, kconsts = common.join_consts([padded_known(i) for i in range(len(splits))])
    k_outs = cond_p.bind_with_trace(
        trace.parent_trace, [index, *kconsts, *known_ops], dict(branches=tuple(known_branches))
    )
    known_outs, res = k_outs[:n_known_out], k_outs[n_known_out:]
    unk_ins = [t for t, u in zip(ops, unknowns) if u]
    unknown_branches = [
        _with_residual_slots(unk, all_res, mine, nr) for (_, unk, _, nr), mine in zip(splits, slots)
    ]
    unknown_branches, uconsts = common.join_consts(unknown_branches)
    effects = join_effects(*(u.effects for u in unknown_branches))
    if not any(out_uk) and not effects:
        return list(known_outs)
    u_outs = trace.stage(
        cond_p, [index, *uconsts, *res, *unk_ins], dict(branches=tuple(unknown_branches))
    )
    k_it, u_it = iter(known_outs), iter(u_outs)
    return [next(u_it) if u else next(k_it) for u in out_uk]


def _merge_residual_slots(res_avals):
    """One residual list for all branches, slots shared by type, as JAX's cond partial eval
    shares them: the ``j``-th residual of type ``a`` of every branch goes into the same slot,
    slots ordered by first appearance over the branches in order. Returns the slots' avals
    and, per branch, the slot of each of its residuals.

    What a slot holds for an element whose branch does not own it is observable where every
    branch runs on every element (``vmap`` of the linear part with a batched index, F17): a
    callback there sees another branch's residual of its type, or zeros, as in JAX."""
    slot_of: dict = {}
    all_res: list = []
    slots = []
    for avals in res_avals:
        seen: dict = {}
        mine = []
        for a in avals:
            key = (a, seen.get(a, 0))
            seen[a] = key[1] + 1
            if key not in slot_of:
                slot_of[key] = len(all_res)
                all_res.append(a)
            mine.append(slot_of[key])
        slots.append(mine)
    return all_res, slots


def _with_residual_slots(closed: ClosedJaxpr, all_res, mine, nr) -> ClosedJaxpr:
    """The unknown branch taking every residual slot first: its own ``nr`` residual invars
    at their slots ``mine``, unused invars elsewhere."""
    j = closed.jaxpr
    res_vars = [Var(a) for a in all_res]
    for k, v in zip(mine, j.invars[:nr]):
        res_vars[k] = v
    invars = res_vars + list(j.invars[nr:])
    return ClosedJaxpr(Jaxpr(j.constvars, invars, j.outvars, j.eqns, j.effects), closed.consts)


def _cond_transpose(cts, index, *ops, branches):
    check_not_linear("cond", "predicate (or switch index)", index)
    mask = [is_undefined_primal(a) for a in ops]
    effects = join_effects(*(b.effects for b in branches))
    if all(type(c) is Zero for c in cts) and not effects:
        return [None] + [Zero(a.aval.to_tangent_aval()) if m else None for a, m in zip(ops, mask)]
    cts = [instantiate(c) for c in cts]
    # Traced with the actual cotangents' avals, as JAX does (their weak types matter).
    ct_avals = [aval_of(c) for c in cts]
    transposed, tconsts = common.join_consts([transpose_jaxpr(b, mask, ct_avals) for b in branches])
    nonlin = [a for a, m in zip(ops, mask) if not m]
    outs = cond_p.bind(index, *tconsts, *nonlin, *cts, branches=tuple(transposed))
    it = iter(outs)
    return [None] + [next(it) if m else None for m in mask]


rules.partial_eval_rules[cond_p] = _cond_partial_eval
rules.transpose_rules[cond_p] = _cond_transpose
rules.impl_rules[cond_p] = _cond_impl
rules.abstract_eval_rules[cond_p] = _cond_abstract_eval
rules.vma_rules[cond_p] = rules.keep_vma
rules.effects_rules[cond_p] = _cond_effects
rules.jvp_rules[cond_p] = _cond_jvp
rules.batch_rules[cond_p] = _cond_batch
rules.dce_rules[cond_p] = _cond_dce
rules.remat_replay_rules[cond_p] = "branches"
rules.lower_rules[cond_p] = _cond_lower
rules.native_rules[cond_p] = _cond_native


# --------------------------------------------------------------------------- front ends
class _NoOperand:
    pass


_no_operand = _NoOperand()


def _trace_branches(
    api_name: str, funs: Sequence[Callable], names: Sequence[str], operands: tuple, same=None
) -> tuple[list, list, Any]:
    """Trace each branch on the operands' avals; returns (branch jaxprs, consts, out_tree).

    ``same[i]`` is the first branch given the same function object as branch ``i``: that
    branch's trace is reused, so a function given for several branches is traced once,
    as in JAX (haiku counts the traces)."""
    flat, in_tree = tree_util.tree_flatten(operands)
    flat = [common.to_array(x) for x in flat]
    avals = [aval_of(x) for x in flat]

    def trace(fun):
        store = {}

        def flat_fun(*xs):
            args = tree_util.tree_unflatten(in_tree, xs)
            out = fun(*args)
            out_flat, out_tree = tree_util.tree_flatten(out)
            out_flat = [common.to_array(o) for o in out_flat]
            store["tree"] = out_tree
            return out_flat

        # common.trace_closure_converted, inlined (one frame less per nesting level)
        closed, consts = closure_convert_consts(trace_to_jaxpr(flat_fun, avals)[0])
        return closed, consts, store["tree"]

    traced = []
    for i, f in enumerate(funs):  # a loop, not a comprehension: one frame less per level
        traced.append(trace(f) if same is None or same[i] == i else traced[same[i]])
    # JAX reports cond mismatches as (true_fun, false_fun), switch ones as (branch 0, i).
    ref = 1 if api_name == "cond" else 0
    tree0, avals0 = traced[ref][2], traced[ref][0].out_avals
    for i, (closed, _, tree) in enumerate(traced):
        if i != ref:
            common.check_branch_outputs(
                api_name, names[ref], names[i], tree0, avals0, tree, closed.out_avals
            )
    effects = join_effects(*(c.effects for c, _, _ in traced))
    common.check_effects(api_name, effects)
    # Every branch takes the captured values of all branches, then the operands.
    branches, all_consts = common.join_consts([_reclose(c, consts) for c, consts, _ in traced])
    return branches, all_consts + flat, tree0


def _bind_forwarding(index, args: list, branches: list) -> list:
    """``cond_p.bind(index, *args, branches=...)``, except that an output every branch
    returns as the same operand (a passthrough, or a value all branches capture) is that
    operand itself, as in JAX: it keeps its type and identity, and under ``vmap`` with a
    batched predicate an unbatched operand stays unbatched (``out_axes=None`` accepts it).
    The ``cond`` keeps the other outputs, and runs (effects) even if none are left."""
    per_branch = [jaxpr_forwarding(b.jaxpr) for b in branches]
    fwd = [ks.pop() if len(ks) == 1 else None for ks in map(set, zip(*per_branch))]
    if all(k is None for k in fwd):
        return cond_p.bind(index, *args, branches=tuple(branches))
    keep = [j for j, k in enumerate(fwd) if k is None]
    pruned = tuple(
        ClosedJaxpr(b.jaxpr.replace(outvars=[b.jaxpr.outvars[j] for j in keep]), b.consts)
        for b in branches
    )
    outs = iter(cond_p.bind(index, *args, branches=pruned))
    return [next(outs) if k is None else args[k] for k in fwd]


def _reclose(closed: ClosedJaxpr, consts: list) -> ClosedJaxpr:
    """Undo closure conversion: the leading ``len(consts)`` invars become constvars."""
    j = closed.jaxpr
    n = len(consts)
    return ClosedJaxpr(Jaxpr(j.invars[:n], j.invars[n:], j.outvars, j.eqns, j.effects), consts)


def _check_operand_kw(operands, operand):
    if operand is not _no_operand:
        if operands:
            raise TypeError(
                "if 'operand' keyword is passed then no positional operands can "
                f"be passed, got operand={operand!r} and positional operands "
                f"{operands}"
            )
        return (operand,)
    return operands


def cond(pred, true_fun: Callable, false_fun: Callable, *operands, operand=_no_operand):
    """``jax.lax.cond``: ``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``.

    Both branches are traced; only the taken one runs. ``pred`` is a scalar boolean or
    number (nonzero is true). JAX's older per-branch form
    ``cond(pred, true_operand, true_fun, false_operand, false_fun)`` (still used by
    numpyro) is accepted as JAX accepts it: both operands go in, each branch sees its own.

    Raises:
        TypeError: non-scalar or non-numeric predicate; branch outputs of different pytree
            structure or types.
    """
    if not (callable(true_fun) and callable(false_fun)):
        if callable(false_fun) and len(operands) == 2 and callable(operands[1]):
            x_true, f_true, x_false, f_false = true_fun, false_fun, *operands
            return cond(pred, lambda x, _: f_true(x), lambda _, x: f_false(x), x_true, x_false)
        raise TypeError("lax.cond: true_fun and false_fun arguments should be callable.")
    operands = _check_operand_kw(operands, operand)
    if pred is None:
        raise TypeError("cond predicate is None")
    if isinstance(pred, (list, tuple)):
        raise TypeError(f"Pred must be a scalar, got {pred} of type {type(pred)}")
    try:
        pred = common.to_array(pred)
    except TypeError:
        raise TypeError(f"Pred type must be either boolean or number, got {pred}.") from None
    if pred.shape != ():
        raise TypeError(f"Pred must be a scalar, got {pred} of shape {pred.shape}.")
    dt = pred.dtype
    if dt != np.bool_:
        if not (dtypes.is_int(dt) or dtypes.is_float(dt)):
            raise TypeError(f"Pred type must be either boolean or number, got {dt}.")

        pred = ne(pred, np.zeros((), dt))
    if common.jit_disabled() and common.is_concrete_value(pred):
        return true_fun(*operands) if bool(pred) else false_fun(*operands)

    index = convert_element_type(pred, dtypes.int32)
    return _call("cond", index, [false_fun, true_fun], ["false_fun", "true_fun"], operands)


def _call(api_name, index, funs, names, operands):
    """Trace the branches and bind ``cond_p``, threading the refs they touch (refs.py):
    their values become an extra operand and extra outputs of every branch."""
    ids = [id(f) for f in funs]
    same = [ids.index(k) for k in ids]
    ops, rebuild = rt.split_operands(operands)
    if ops is not operands:
        funs = [_rebuilding(f, rebuild) for f in funs]
    funs = [rt.checked(f, api_name, None) for f in funs]

    # The loop of refs.threading_construct written out (refs.Discovery): nested conds
    # recurse through here, and each frame fewer is more nesting before RecursionError.
    d = refs.Discovery()
    while d.retry:
        with d as rs:
            if rs:
                n = len(ops)
                bfuns = [
                    rt.threaded_body(f, rs, lambda a: (a[:n], a[n]), lambda o, fin: (o, fin))
                    for f in funs
                ]
                values = rt.read_all(rs)
                bops = (*ops, values)
            else:
                bfuns, bops = funs, ops
            branches, args, out_tree = _trace_branches(api_name, bfuns, names, bops, same)
            refs.before_bind()
            if rs:
                refs.refuse_cond_effects()
            out = tree_util.tree_unflatten(out_tree, _bind_forwarding(index, args, branches))
            if rs:
                out, finals = out
                rt.write_all(rs, finals, values)
    return out


def _rebuilding(fun, rebuild):
    def wrapped(*ops):
        return fun(*rebuild(ops))

    return functools.wraps(fun)(wrapped)


def switch(index, branches: Sequence[Callable], *operands, operand=_no_operand):
    """``jax.lax.switch``: ``branches[clamp(index)](*operands)``; the index is clamped into
    ``[0, len(branches) - 1]`` as in JAX.

    Raises:
        TypeError: non-scalar or non-integer index; branch outputs that differ.
        ValueError: an empty branch sequence.
    """
    if not isinstance(branches, (list, tuple)) or not all(callable(b) for b in branches):
        raise TypeError("lax.switch: branches argument should be a sequence of callables.")
    operands = _check_operand_kw(operands, operand)
    shape = index.shape if hasattr(index, "shape") else np.shape(index)
    if isinstance(index, (list, tuple)) or shape != ():
        raise TypeError(f"Branch index must be scalar, got {index} of shape {shape}.")
    index = common.to_array(index)
    if not dtypes.is_int(index.dtype):
        raise TypeError(f"Index type must be an integer, got {index} as {index.dtype}")
    branches = tuple(branches)
    if not branches:
        raise ValueError("Empty branch sequence")
    if len(branches) == 1:
        return branches[0](*operands)

    index = convert_element_type(index, dtypes.int32)
    index = clamp(np.int32(0), index, np.int32(len(branches) - 1))
    if common.jit_disabled() and common.is_concrete_value(index):
        return branches[int(index)](*operands)
    names = [f"branch {i}" for i in range(len(branches))]
    return _call("switch", index, list(branches), names, operands)


__all__ = ["cond", "cond_p", "switch"]
