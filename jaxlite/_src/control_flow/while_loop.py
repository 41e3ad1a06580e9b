"""``while_p``: ``while cond(carry): carry = body(carry)``, and the ``while_loop`` /
``fori_loop`` front ends.

Operands are ``(*cond_consts, *body_consts, *init)``; params ``cond_jaxpr`` (takes
``cond_consts + carry``, returns a bool scalar), ``body_jaxpr`` (takes ``body_consts +
carry``), ``cond_nconsts``, ``body_nconsts``.

Rules (all here): impl (the generated code of the single equation), abstract eval, effects
(cond and body), jvp (fixed point over which carries have nonzero tangents), batch (fixed
point over batched carries; a batched predicate runs until every element is done and masks
finished elements with a select; with effects not allowed under a batched predicate the
loop runs per element instead), dce (fixed point over used carries; effects keep the loop),
transpose (raises JAX's reverse-mode error), lower (a Python ``while`` over inline code).

``fori_loop`` with concrete bounds becomes a ``scan`` (reverse-differentiable, as in JAX);
with traced bounds it is a ``while_loop`` over ``(i, upper, carry)``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.control_flow import common, ref_threading as rt
from jaxlite._src.control_flow.scan import scan
from jaxlite._src.core import refs, rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.effects import join_effects
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.core.trace import Tracer, staging_active
from jaxlite._src.interpreters.batching import batch_jaxpr, move_dim
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits
from jaxlite._src.ops import reductions, shape as _shape
from jaxlite._src.ops.conversion import convert_element_type
from jaxlite._src.ops.elementwise import select_n_p
from jaxlite._src.ops.structural import instantiate
from jaxlite._src.util import split_list

while_p = Primitive("while", multiple_results=True)

_REVERSE_MODE_MSG = (
    "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with "
    "dynamic start/stop values. Try using lax.scan, or using fori_loop with static "
    "start/stop."
)


# ------------------------------------------------------------------------------- rules
def _while_abstract_eval(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    return list(body_jaxpr.out_avals)


def _while_effects(*avals, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    return join_effects(cond_jaxpr.effects, body_jaxpr.effects)


def _while_impl(*args, **params):
    avals = list(params["cond_jaxpr"].in_avals[: params["cond_nconsts"]]) + list(
        params["body_jaxpr"].in_avals
    )
    fn = common.impl_via_codegen(while_p, params["body_jaxpr"], avals, params)
    return fn(*args)


def _while_lower(ctx, eqn, ins, outs):
    p = eqn.params
    cc, bc, init = split_list(ins, [p["cond_nconsts"], p["body_nconsts"]])
    lines = common.assign(outs, init)
    cond_lines, (pred,) = common.emit_inline(ctx, p["cond_jaxpr"], list(cc) + list(outs))
    body_lines, new = common.emit_inline(ctx, p["body_jaxpr"], list(bc) + list(outs))
    loop = cond_lines + [f"if not {pred}:", "    break"] + body_lines + common.assign(outs, new)
    return lines + ["while True:"] + common.indent(loop)


def _while_native(ctx, eqn, ins, outs):
    p = eqn.params
    cc, bc, init = split_list(ins, [p["cond_nconsts"], p["body_nconsts"]])
    avals = p["body_jaxpr"].out_avals
    # Small carries live in scalar locals across iterations (no allocation per step).
    carry, lines = common.native_carries(ctx, outs, init, avals)
    cond_lines, (pred,) = ctx.emit(common.simplified(p["cond_jaxpr"]), list(cc) + carry)
    body_lines, new = ctx.emit(common.simplified(p["body_jaxpr"]), list(bc) + carry, True)
    loop = cond_lines + [f"if not {pred}:", "    break"] + body_lines
    loop += common.assign_native(ctx, carry, new, avals)
    return (
        lines
        + ["while True:"]
        + common.indent(loop)
        + common.native_results(ctx, outs, carry, avals)
    )


def _while_jvp(primals, tangents, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    cc, bc, init = split_list(primals, [cond_nconsts, body_nconsts])
    _, bc_t, init_t = split_list(tangents, [cond_nconsts, body_nconsts])
    bc_nz = [common.nonzero_tangent(t) for t in bc_t]
    carry_avals = body_jaxpr.out_avals
    carry_nz = [
        common.nonzero_tangent(t) and common.differentiable(a) for t, a in zip(init_t, carry_avals)
    ]
    while True:
        body_jvp, out_nz = jvp_jaxpr(body_jaxpr, bc_nz + carry_nz, carry_nz)
        out_nz = [nz and common.differentiable(a) for nz, a in zip(out_nz, carry_avals)]
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            break
        carry_nz = new
    nb, nc = len(bc), len(init)
    nbt, nct = sum(bc_nz), sum(carry_nz)
    # body_jvp takes (bc, carry, bc_t, carry_t); the loop wants (bc, bc_t, carry, carry_t).
    order = (
        list(range(nb))
        + list(range(nb + nc, nb + nc + nbt))
        + list(range(nb, nb + nc))
        + list(range(nb + nc + nbt, nb + nc + nbt + nct))
    )
    body_new = common.permute_jaxpr(body_jvp, order)
    ct_avals = [a.to_tangent_aval() for a, nz in zip(carry_avals, carry_nz) if nz]
    cond_new = common.add_dummy_invars(cond_jaxpr, ct_avals, len(cond_jaxpr.in_avals))
    bc_tangents = [t for t, nz in zip(bc_t, bc_nz) if nz]
    init_tangents = [instantiate(t) for t, nz in zip(init_t, carry_nz) if nz]
    outs = while_p.bind(
        *cc,
        *bc,
        *bc_tangents,
        *init,
        *init_tangents,
        cond_jaxpr=cond_new,
        body_jaxpr=body_new,
        cond_nconsts=cond_nconsts,
        body_nconsts=nb + nbt,
    )
    primals_out, t_out = outs[:nc], iter(outs[nc:])
    tangents_out = [
        next(t_out) if nz else Zero(a.to_tangent_aval()) for nz, a in zip(carry_nz, carry_avals)
    ]
    return primals_out, tangents_out


def _while_partial_eval(trace, tracers, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    """The known carries are computed by a loop over the known part now; the whole loop is
    also staged to produce the unknown carries (it recomputes the known ones). This makes
    ``linearize`` work; transposing the staged loop raises JAX's reverse-mode error."""
    params = dict(
        cond_jaxpr=cond_jaxpr,
        body_jaxpr=body_jaxpr,
        cond_nconsts=cond_nconsts,
        body_nconsts=body_nconsts,
    )
    unknowns = [trace.is_unknown(t) for t in tracers]
    cc_uk, bc_uk, carry_uk = split_list(unknowns, [cond_nconsts, body_nconsts])
    cc, bc, init = split_list(tracers, [cond_nconsts, body_nconsts])
    while True:
        _, _, out_uk, _ = partial_eval_jaxpr_nounits(body_jaxpr, bc_uk + carry_uk, carry_uk)
        new = [a or b for a, b in zip(carry_uk, out_uk)]
        if new == carry_uk:
            break
        carry_uk = new
    _, _, (pred_uk,), _ = partial_eval_jaxpr_nounits(cond_jaxpr, cc_uk + carry_uk, False)
    if pred_uk or all(carry_uk):
        return trace.stage(while_p, tracers, params)
    # Known loop over the known carries only (unknown consts must be dead there).
    known_mask = [not u for u in carry_uk]
    body_known, body_used = common.dce_body(body_jaxpr, known_mask)
    cond_known, cond_used = common.dce_body(cond_jaxpr, [True])
    if any(
        u and k
        for u, k in zip(list(body_used) + list(cond_used), bc_uk + carry_uk + cc_uk + carry_uk)
    ):
        return trace.stage(while_p, tracers, params)
    body_known = common.prune_jaxpr_io(
        body_known, [not u for u in bc_uk + carry_uk], [True] * sum(known_mask)
    )
    cond_known = common.prune_jaxpr_io(cond_known, [not u for u in cc_uk + carry_uk], [True])
    k_cc = [t for t, u in zip(cc, cc_uk) if not u]
    k_bc = [t for t, u in zip(bc, bc_uk) if not u]
    k_init = [t for t, k in zip(init, known_mask) if k]
    k_outs = while_p.bind_with_trace(
        trace.parent_trace,
        [*k_cc, *k_bc, *k_init],
        dict(
            cond_jaxpr=cond_known,
            body_jaxpr=body_known,
            cond_nconsts=len(k_cc),
            body_nconsts=len(k_bc),
        ),
    )
    if not any(carry_uk):
        return k_outs
    u_outs = trace.stage(while_p, tracers, params)
    k_it = iter(k_outs)
    return [u if uk else next(k_it) for u, uk in zip(u_outs, carry_uk)]


def _while_transpose(cts, *args, **params):
    raise ValueError(_REVERSE_MODE_MSG)


def _while_batch(axis_data, args, dims, *, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    size = axis_data.size
    cc, bc, init = split_list(args, [cond_nconsts, body_nconsts])
    cc_d, bc_d, init_d = split_list(dims, [cond_nconsts, body_nconsts])
    carry_b = [d is not not_mapped for d in init_d]
    pred_b = False
    while True:
        _, out_d = batch_jaxpr(
            body_jaxpr, axis_data, bc_d + [0 if b else None for b in carry_b], carry_b
        )
        new = [a or (d is not not_mapped) for a, d in zip(carry_b, out_d)]
        _, (pd,) = batch_jaxpr(cond_jaxpr, axis_data, cc_d + [0 if b else None for b in new], False)
        pred_b = pd is not not_mapped
        if pred_b:
            new = [True] * len(new)
        if new == carry_b:
            break
        carry_b = new
    init = [move_dim(x, d, 0, size) if b else x for x, d, b in zip(init, init_d, carry_b)]
    carry_dims = [0 if b else None for b in carry_b]
    params = dict(cond_nconsts=cond_nconsts, body_nconsts=body_nconsts)
    effects = join_effects(cond_jaxpr.effects, body_jaxpr.effects)
    if pred_b and common.needs_per_element_batching(effects):
        return _per_element(cc, bc, init, cc_d, bc_d, size, cond_jaxpr, body_jaxpr, params)
    body_b, _ = batch_jaxpr(body_jaxpr, axis_data, bc_d + carry_dims, carry_b)
    cond_b, _ = batch_jaxpr(cond_jaxpr, axis_data, cc_d + carry_dims, False)
    if not pred_b:
        outs = while_p.bind(*cc, *bc, *init, cond_jaxpr=cond_b, body_jaxpr=body_b, **params)
        return outs, carry_dims
    # Batched predicate: carry the per-element predicate; the loop runs while any element
    # is still going, and finished elements keep their value (select).

    ncc, nbc = len(cc), len(bc)
    carry_avals = body_b.out_avals
    pred_aval = ShapedArray((size,), np.bool_)

    def new_cond(pred, *carry):
        return [reductions.reduce_or(pred, (0,))]

    def new_body(*args):
        b_consts, c_consts, (pred, *carry) = split_list(args, [nbc, ncc])
        stepped = common.eval_closed(body_b, *b_consts, *carry)
        out = []
        for old, nxt, a in zip(carry, stepped, carry_avals):
            which = pred if a.shape == (size,) else _shape.broadcast_in_dim(pred, a.shape, (0,))
            sel = select_n_p.bind(which, old, nxt)
            if aval_of(sel).weak_type != a.weak_type:
                # JAX keeps a batched-predicate while as a while (the select is a lowering
                # detail): the carry has the body output's type, weak type included.
                sel = convert_element_type(sel, a.dtype, weak_type=a.weak_type)
            out.append(sel)
        (new_pred,) = common.eval_closed(cond_b, *c_consts, *out)
        return [new_pred] + out

    cond_j = common.jaxpr_from_fun(new_cond, [pred_aval] + list(carry_avals))
    body_j = common.jaxpr_from_fun(
        new_body,
        list(body_b.in_avals[:nbc]) + list(cond_b.in_avals[:ncc]) + [pred_aval] + list(carry_avals),
    )
    cond_j, cond_consts = common.convert_consts_to_invars(cond_j)
    body_j, body_consts = common.convert_consts_to_invars(body_j)
    (pred0,) = common.eval_closed(cond_b, *cc, *init)
    refs.before_bind()
    outs = while_p.bind(
        *cond_consts,
        *body_consts,
        *bc,
        *cc,
        pred0,
        *init,
        cond_jaxpr=cond_j,
        body_jaxpr=body_j,
        cond_nconsts=len(cond_consts),
        body_nconsts=len(body_consts) + nbc + ncc,
    )
    return outs[1:], [0] * len(init)


def _per_element(cc, bc, init, cc_d, bc_d, size, cond_jaxpr, body_jaxpr, params):
    def take(x, d, i):
        return x if d is not_mapped else _shape.index_in_dim(x, i, d, keepdims=False)

    per = []
    for i in range(size):
        outs = while_p.bind(
            *[take(x, d, i) for x, d in zip(cc, cc_d)],
            *[take(x, d, i) for x, d in zip(bc, bc_d)],
            *[_shape.index_in_dim(x, i, 0, keepdims=False) for x in init],
            cond_jaxpr=cond_jaxpr,
            body_jaxpr=body_jaxpr,
            **params,
        )
        per.append(outs)
    return [_shape.stack0(list(col)) for col in zip(*per)], [0] * len(init)


def _while_dce(used_outputs, eqn):
    p = eqn.params
    cn, bn = p["cond_nconsts"], p["body_nconsts"]
    cond_j, body_j = p["cond_jaxpr"], p["body_jaxpr"]
    if not any(used_outputs) and not eqn.effects:
        return [False] * len(eqn.invars), None
    _, cond_used = common.dce_body(cond_j, [True])
    used = [u or c for u, c in zip(used_outputs, cond_used[cn:])]
    while True:
        _, body_used = common.dce_body(body_j, used)
        new = [u or b for u, b in zip(used, body_used[bn:])]
        if new == used:
            break
        used = new
    new_body, body_used = common.dce_body(body_j, used)
    body_keep = list(body_used[:bn]) + used
    new_body = common.prune_jaxpr_io(new_body, body_keep, [True] * sum(used))
    new_cond, _ = common.dce_body(cond_j, [True])
    cond_keep = list(cond_used[:cn]) + used
    new_cond = common.prune_jaxpr_io(new_cond, cond_keep, [True])
    used_in = list(cond_used[:cn]) + list(body_used[:bn]) + used
    invars = [v for v, u in zip(eqn.invars, used_in) if u]
    outvars = [v for v, u in zip(eqn.outvars, used) if u]
    params = dict(
        p,
        cond_jaxpr=new_cond,
        body_jaxpr=new_body,
        cond_nconsts=sum(cond_used[:cn]),
        body_nconsts=sum(body_used[:bn]),
    )
    return used_in, eqn.replace(invars=invars, outvars=outvars, params=params)


def _while_forwarding(params):
    # A carry the body returns unchanged is the initial carry operand.
    cn, bn, body = params["cond_nconsts"], params["body_nconsts"], params["body_jaxpr"]
    n = len(body.jaxpr.outvars)
    inv = common.invariant_carries(body, bn, n)
    return [cn + bn + j if j in inv else None for j in range(n)]


rules.forwarding_rules[while_p] = _while_forwarding
rules.impl_rules[while_p] = _while_impl
rules.abstract_eval_rules[while_p] = _while_abstract_eval
rules.vma_rules[while_p] = rules.keep_vma
rules.effects_rules[while_p] = _while_effects
rules.jvp_rules[while_p] = _while_jvp
rules.transpose_rules[while_p] = _while_transpose
rules.partial_eval_rules[while_p] = _while_partial_eval
rules.batch_rules[while_p] = _while_batch
rules.dce_rules[while_p] = _while_dce
rules.remat_replay_rules[while_p] = "whole"
rules.lower_rules[while_p] = _while_lower
rules.native_rules[while_p] = _while_native
rules.native_loops.add(while_p)


# --------------------------------------------------------------------------- front ends
def while_loop(cond_fun: Callable, body_fun: Callable, init_val):
    """``jax.lax.while_loop``: ``while cond_fun(val): val = body_fun(val)``.

    Raises:
        TypeError: ``cond_fun`` not returning a boolean scalar; ``body_fun`` changing the
            carry's structure or types.
    """
    if not (callable(cond_fun) and callable(body_fun)):
        raise TypeError("lax.while_loop: body_fun and cond_fun arguments should be callable.")
    rt.refuse_carried(init_val, body_fun, "while_body", "result")
    body_fun = rt.checked(body_fun, "while_body")

    touched = {}  # the refs each function touched in the first pass, in first-use order

    def logged(fun, name):
        def wrapped(*args):
            log = refs.enclosing_constructs()[-1].touched
            start = len(log)
            try:
                return fun(*args)
            finally:
                touched[name] = list({id(r): r for r in log[start:]}.values())

        return functools.wraps(fun)(wrapped)  # errors name the carry as fun's parameters

    def run(rs):
        if not rs:
            return _while_loop(logged(cond_fun, "cond"), logged(body_fun, "body"), init_val)
        _refuse_eager_shared(touched)

        def unpack(args):
            ((val, values),) = args
            return (val,), values

        # cond_fun's writes: JAX keeps those of each evaluation that returned true (the
        # body runs cond_fun's writes again, the loop's own evaluation discards them) when
        # body_fun touches no refs; with the same ref in both it raises under jit.
        body_refs = touched.get("body", [])
        cond_wrote = []

        def pack_cond(out, finals):
            written = [r for r, a, b in zip(rs, finals, values_in[0]) if a is not b]
            if written and body_refs:
                if any(r is q for r in written for q in body_refs):
                    raise NotImplementedError(
                        "Cannot write to the same ref in both cond and body of while loop."
                    )
                raise NotImplementedError(
                    "jaxlite: a while_loop cond_fun may write refs only when body_fun "
                    "touches none (JAX then loses cond_fun's writes)"
                )
            cond_wrote[:] = [bool(written)]
            return out

        values_in = [None]
        # JAX's cond_fun sees a ref that body_fun touches as it was before the loop (under
        # jit; outside jit such a loop raises above), one only it touches as carried.
        stale = [any(r is q for q in body_refs) for r in rs]

        def cond2(carry):
            val, carried = carry
            seen = [v0 if s else v for v0, v, s in zip(values, carried, stale)]
            values_in[0] = seen
            return rt.threaded_body(cond_fun, rs, unpack, pack_cond)((val, seen))

        def body_after_cond(val):
            if cond_wrote and cond_wrote[0]:
                cond_fun(val)
            return body_fun(val)

        body2 = rt.threaded_body(body_after_cond, rs, unpack, lambda out, finals: (out, finals))
        values = rt.read_all(rs)
        val, finals = _while_loop(cond2, body2, (init_val, values))
        rt.write_all(rs, finals, values)
        return val

    return refs.threading_construct(run, "while")


def _refuse_eager_shared(touched: dict) -> None:
    """JAX's ``ValueError`` for a ref that both ``cond_fun`` and ``body_fun`` touch, in a
    ``while_loop`` run outside ``jit`` (and loop or branch bodies): JAX runs it as a ``jit``
    of the loop taking each function's refs as arguments, the ref then twice."""
    if staging_active():
        return
    args = touched.get("cond", []) + touched.get("body", [])
    first: dict[int, int] = {}
    for j, r in enumerate(args):
        i = first.setdefault(id(r), j)
        if i != j:
            raise ValueError(
                "only one reference to a mutable array may be passed as an argument to a "
                "function, but when tracing while for jit the mutable array reference of "
                f"type {r._aval.str_short()} appeared at both args[{i}] and args[{j}]."
            )


def _while_loop(cond_fun, body_fun, init_val):
    if common.jit_disabled():
        try:
            val = tree_util.tree_map(common.to_array, init_val)
            while cond_fun(val):
                val = tree_util.tree_map(common.to_array, body_fun(val))
            return val
        except ConcretizationTypeError:
            pass  # under a transformation: fall back to the primitive
    raw, in_tree = tree_util.tree_flatten(init_val)
    flat = [common.to_array(x) for x in raw]

    def make(flat_init):
        avals = [aval_of(x) for x in flat_init]

        def cond_flat(*xs):
            out = cond_fun(tree_util.tree_unflatten(in_tree, xs))
            leaves, tree = tree_util.tree_flatten(out)
            if len(leaves) != 1 or not tree_util.treedef_is_one_leaf(tree):
                raise TypeError(f"cond_fun must return a boolean scalar, but got pytree {tree}.")
            (o,) = leaves
            o = common.to_array(o)
            a = aval_of(o)
            if a.shape != () or a.dtype != np.bool_:
                raise TypeError(
                    f"cond_fun must return a boolean scalar, but got output type(s) [{a!r}]."
                )
            return [o]

        store = {}

        def body_flat(*xs):
            out = body_fun(tree_util.tree_unflatten(in_tree, xs))
            leaves, tree = tree_util.tree_flatten(out)
            store["tree"] = tree
            return [common.to_array(o) for o in leaves]

        cond_j, cond_consts = common.trace_closure_converted(cond_flat, avals)
        body_j, body_consts = common.trace_closure_converted(body_flat, avals)
        out_avals = body_j.out_avals
        if not tree_util.treedefs_equal(store["tree"], in_tree) or len(out_avals) != len(avals):
            common.check_carry_type(
                "while_loop body", body_fun, in_tree, avals, store["tree"], out_avals
            )
        return cond_j, cond_consts, body_j, body_consts, avals

    cond_j, cond_consts, body_j, body_consts, avals = make(flat)
    promoted, changed = common.promote_weak_inputs(flat, avals, body_j.out_avals)
    if changed:
        raw = [r if p is f else p for r, p, f in zip(raw, promoted, flat)]
        flat = promoted
        cond_j, cond_consts, body_j, body_consts, avals = make(flat)
    common.check_carry_type("while_loop body", body_fun, in_tree, avals, in_tree, body_j.out_avals)
    common.check_effects("while_loop", join_effects(cond_j.effects, body_j.effects))
    # Loop-invariant carries are constants of both jaxprs and come back as given (JAX).
    inv = common.invariant_carries(body_j, len(body_consts), len(flat))
    var = [k for k in range(len(flat)) if k not in inv]
    if inv:
        nc, nb = len(cond_consts), len(body_consts)
        cond_j = common.permute_jaxpr(cond_j, [*range(nc), *(nc + k for k in inv + var)])
        body_j = common.permute_jaxpr(body_j, [*range(nb), *(nb + k for k in inv + var)], var)
        cond_consts = [*cond_consts, *(flat[k] for k in inv)]
        body_consts = [*body_consts, *(flat[k] for k in inv)]
    refs.before_bind()
    outs = while_p.bind(
        *cond_consts,
        *body_consts,
        *(flat[k] for k in var),
        cond_jaxpr=cond_j,
        body_jaxpr=body_j,
        cond_nconsts=len(cond_consts),
        body_nconsts=len(body_consts),
    )
    if inv:
        it = iter(outs)
        outs = [raw[k] if k in inv else next(it) for k in range(len(flat))]
    return tree_util.tree_unflatten(in_tree, outs)


def _static_int(x):
    """``int(x)`` if ``x`` is a concrete integer value, else None."""
    if isinstance(x, Tracer):
        v = x.to_concrete_value()
        if v is None:
            return None
        x = v
    try:
        a = np.asarray(x)
    except Exception:  # noqa: BLE001
        return None
    if a.shape != () or not (np.issubdtype(a.dtype, np.integer)):
        return None
    return int(a)


def fori_loop(lower, upper, body_fun: Callable, init_val, *, unroll=None):
    """``jax.lax.fori_loop``: ``for i in range(lower, upper): val = body_fun(i, val)``.

    Concrete bounds give a ``scan`` (reverse-mode differentiable); traced bounds give a
    ``while_loop``.
    """

    if not callable(body_fun):
        raise TypeError("lax.fori_loop: body_fun argument should be callable.")
    rt.refuse_carried(init_val, body_fun, "fori_loop", "result[0][1]")  # JAX's scan carry
    lo_s, hi_s = _static_int(lower), _static_int(upper)
    lower_a, upper_a = common.to_array(lower), common.to_array(upper)
    if lower_a.dtype != upper_a.dtype and not (
        dtypes.is_int(lower_a.dtype) and dtypes.is_int(upper_a.dtype)
    ):
        raise TypeError(
            "lower and upper arguments to fori_loop must have equal types, "
            f"got {lower_a.dtype} and {upper_a.dtype}"
        )
    for b in (lower_a, upper_a):
        if not dtypes.is_int(b.dtype):
            # JAX runs a loop with a float index here; jaxlite refuses (compat.md)
            raise TypeError(
                "lower and upper arguments to fori_loop must have equal types, "
                f"and be integers; got {lower_a.dtype} and {upper_a.dtype}"
            )
    if lower_a.dtype == upper_a.dtype:
        # JAX leaves equal-typed bounds as given: the index starts as ``lower`` itself, so
        # it is weak whenever ``lower`` is (fori_loop(0, n, lambda i, c: i, 0) with a
        # traced int32 ``n`` is a weak int32).
        dt, weak = lower_a.dtype, lower_a.weak_type
    else:
        # As in JAX, only a weakly typed (Python int) bound is promoted, to the other,
        # strongly typed bound's type, and only when both are signed integers.
        signed = all(np.issubdtype(b.dtype, np.signedinteger) for b in (lower_a, upper_a))
        if not signed or lower_a.weak_type == upper_a.weak_type:
            raise TypeError(
                "lower and upper arguments to fori_loop must have equal types, "
                f"got {lower_a.dtype} and {upper_a.dtype}"
            )
        strong = upper_a if lower_a.weak_type else lower_a
        dt, weak = strong.dtype, False
    if lo_s is not None and hi_s is not None:
        # Static bounds: JAX counts with the Python int ``int(lower)``, so the index the
        # body sees is a weak int32 whatever the bounds' dtypes (np.int16 bounds included).
        lower_c = lo_s

        def scan_body(carry, _):
            i, x = carry
            return (i + 1, body_fun(i, x)), None

        length = max(hi_s - lo_s, 0)
        if length == 0 and common.jit_disabled():
            return init_val  # as JAX: the Python scan of disable_jit() refuses length 0
        kw = {} if unroll is None else {"unroll": unroll}
        (_, result), _ = scan(scan_body, (lower_c, init_val), None, length=length, **kw)
        return result
    if unroll is not None and unroll is not False and unroll != 1:
        raise ValueError(
            "Can only use `unroll` in `fori_loop` if the loop bounds are statically known."
        )
    lower_c = convert_element_type(lower_a, dt, weak)
    upper_c = convert_element_type(upper_a, dt, upper_a.weak_type and weak)

    def w_cond(carry):
        i, hi, _ = carry
        return i < hi

    def w_body(carry):
        i, hi, x = carry
        return i + 1, hi, body_fun(i, x)

    _, _, result = while_loop(w_cond, w_body, (lower_c, upper_c, init_val))
    return result


__all__ = ["fori_loop", "while_loop", "while_p"]
