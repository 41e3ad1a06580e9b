"""``scan_p``: a loop over the leading axis of ``xs`` threading a carry, stacking ``ys``;
and the ``scan``, ``map`` and ``associative_scan`` front ends.

Operands are ``(*consts, *init, *xs)``; params ``jaxpr`` (takes ``consts + carry + x``
and returns ``carry + y``), ``num_consts``, ``num_carry``, ``length``, ``reverse``,
``unroll`` (kept for JAX compatibility; the generated Python loop does not unroll).

Rules (all here): impl (the generated code of the single equation), abstract eval, effects
(the body's), jvp (fixed point over which carries have nonzero tangents), batch (fixed
point over batched carries; xs and ys are batched along axis 1), dce (fixed point over
used carries; effectful equations stay), partial eval (known scan producing stacked
residuals, unknown scan consuming them), transpose (a scan in the opposite direction over
the transposed body), lower (a Python ``for`` over inline code, ys written in place).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import tree_util
from jaxlite._src.api import vmap
from jaxlite._src.control_flow import common, ref_threading as rt
from jaxlite._src.core import refs, rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.ir import Literal, jaxpr_forwarding
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import UndefinedPrimal, Zero, is_undefined_primal, not_mapped
from jaxlite._src.interpreters.batching import batch_jaxpr, move_dim
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits
from jaxlite._src.interpreters.transpose import backward_pass
from jaxlite._src.ops import shape as _shape
from jaxlite._src.ops.structural import add_any, instantiate, zeros
from jaxlite._src.util import canonicalize_axis, split_list

scan_p = Primitive("scan", multiple_results=True)


def _stacked(a: ShapedArray, length: int) -> ShapedArray:
    return a.update(shape=(length,) + a.shape)


def _unstacked(a: ShapedArray) -> ShapedArray:
    return a.update(shape=a.shape[1:])


# ------------------------------------------------------------------------------- rules
def _scan_abstract_eval(*avals, jaxpr, num_consts, num_carry, length, reverse, unroll):
    outs = jaxpr.out_avals
    return list(outs[:num_carry]) + [_stacked(a, length) for a in outs[num_carry:]]


def _scan_effects(*avals, jaxpr, **params):
    return jaxpr.effects


def _scan_in_avals(jaxpr, num_consts, num_carry, length):
    ins = jaxpr.in_avals
    return list(ins[: num_consts + num_carry]) + [
        _stacked(a, length) for a in ins[num_consts + num_carry :]
    ]


def _scan_impl(*args, **params):
    avals = _scan_in_avals(
        params["jaxpr"], params["num_consts"], params["num_carry"], params["length"]
    )
    fn = common.impl_via_codegen(scan_p, params["jaxpr"], avals, params)
    return fn(*args)


def _scan_lower(ctx, eqn, ins, outs):
    p = eqn.params
    nc, ncar, length = p["num_consts"], p["num_carry"], p["length"]
    consts, init, xs = split_list(ins, [nc, ncar])
    carry_out, ys_out = outs[:ncar], outs[ncar:]
    lines = common.assign(carry_out, init)
    y_avals = eqn.params["jaxpr"].out_avals[ncar:]
    for name, a in zip(ys_out, y_avals):
        shape = ctx.add_global((length,) + tuple(a.shape), "_s")
        dt = ctx.add_global(np.dtype(a.dtype), "_d")
        lines.append(f"{name} = np.empty({shape}, {dt})")
    if length == 0:
        return lines
    i = ctx.fresh("i")
    rng = ctx.add_global(range(length - 1, -1, -1) if p["reverse"] else range(length), "_r")
    x_names = [ctx.fresh("x") for _ in xs]
    body, res = common.emit_inline(ctx, p["jaxpr"], list(consts) + list(carry_out) + x_names)
    loop = [f"{xn} = {x}[{i}]" for xn, x in zip(x_names, xs)]
    loop += body
    # ys first: a y may be the incoming carry, which the carry update overwrites.
    loop += [f"{name}[{i}] = {r}" for name, r in zip(ys_out, res[ncar:])]
    loop += common.assign(carry_out, res[:ncar])
    return lines + [f"for {i} in {rng}:"] + common.indent(loop or ["pass"])


def _scan_jvp(primals, tangents, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    consts, init, xs = split_list(primals, [num_consts, num_carry])
    c_t, init_t, xs_t = split_list(tangents, [num_consts, num_carry])
    c_nz = [common.nonzero_tangent(t) for t in c_t]
    xs_nz = [common.nonzero_tangent(t) for t in xs_t]
    carry_avals = jaxpr.out_avals[:num_carry]
    y_avals = jaxpr.out_avals[num_carry:]
    carry_nz = [
        common.nonzero_tangent(t) and common.differentiable(a) for t, a in zip(init_t, carry_avals)
    ]
    while True:
        inst = carry_nz + [False] * len(y_avals)
        body_jvp, out_nz = jvp_jaxpr(jaxpr, c_nz + carry_nz + xs_nz, inst)
        new = [
            a or (b and common.differentiable(av))
            for a, b, av in zip(carry_nz, out_nz[:num_carry], carry_avals)
        ]
        if new == carry_nz:
            break
        carry_nz = new
    ys_nz = list(out_nz[num_carry:])
    nk, nca, nx = num_consts, num_carry, len(xs)
    nkt, ncat, nxt = sum(c_nz), sum(carry_nz), sum(xs_nz)
    # body_jvp ins: (k, c, x, kt, ct, xt) -> (k, kt, c, ct, x, xt)
    base_kt = nk + nca + nx
    in_order = (
        list(range(nk))
        + list(range(base_kt, base_kt + nkt))
        + list(range(nk, nk + nca))
        + list(range(base_kt + nkt, base_kt + nkt + ncat))
        + list(range(nk + nca, nk + nca + nx))
        + list(range(base_kt + nkt + ncat, base_kt + nkt + ncat + nxt))
    )
    # outs: (c, y, ct, yt) -> (c, ct, y, yt)
    ny, nyt = len(y_avals), sum(ys_nz)
    out_order = (
        list(range(nca))
        + list(range(nca + ny, nca + ny + ncat))
        + list(range(nca, nca + ny))
        + list(range(nca + ny + ncat, nca + ny + ncat + nyt))
    )
    body = common.permute_jaxpr(body_jvp, in_order, out_order)
    k_tangents = [t for t, nz in zip(c_t, c_nz) if nz]
    c_tangents = [instantiate(t) for t, nz in zip(init_t, carry_nz) if nz]
    x_tangents = [t for t, nz in zip(xs_t, xs_nz) if nz]
    outs = scan_p.bind(
        *consts,
        *k_tangents,
        *init,
        *c_tangents,
        *xs,
        *x_tangents,
        jaxpr=body,
        num_consts=nk + nkt,
        num_carry=nca + ncat,
        length=length,
        reverse=reverse,
        unroll=unroll,
    )
    carry_out, carry_t, ys, ys_t = split_list(outs, [nca, ncat, ny])
    it_c, it_y = iter(carry_t), iter(ys_t)
    tangents_out = [
        next(it_c) if nz else Zero(a.to_tangent_aval()) for nz, a in zip(carry_nz, carry_avals)
    ] + [
        next(it_y) if nz else Zero(_stacked(a, length).to_tangent_aval())
        for nz, a in zip(ys_nz, y_avals)
    ]
    return list(carry_out) + list(ys), tangents_out


def _scan_batch(axis_data, args, dims, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    size = axis_data.size
    consts, init, xs = split_list(args, [num_consts, num_carry])
    k_d, init_d, xs_d = split_list(dims, [num_consts, num_carry])
    xs = [x if d is not_mapped else move_dim(x, d, 1, size) for x, d in zip(xs, xs_d)]
    x_dims = [None if d is not_mapped else 0 for d in xs_d]
    carry_b = [d is not not_mapped for d in init_d]
    ny = len(jaxpr.out_avals) - num_carry
    while True:
        body_b, out_d = batch_jaxpr(
            jaxpr,
            axis_data,
            list(k_d) + [0 if b else None for b in carry_b] + x_dims,
            carry_b + [False] * ny,
        )
        new = [a or (d is not not_mapped) for a, d in zip(carry_b, out_d[:num_carry])]
        if new == carry_b:
            break
        carry_b = new
    init = [move_dim(x, d, 0, size) if b else x for x, d, b in zip(init, init_d, carry_b)]
    outs = scan_p.bind(
        *consts,
        *init,
        *xs,
        jaxpr=body_b,
        num_consts=num_consts,
        num_carry=num_carry,
        length=length,
        reverse=reverse,
        unroll=unroll,
    )
    out_dims = [0 if b else None for b in carry_b] + [
        None if d is not_mapped else 1 for d in out_d[num_carry:]
    ]
    return outs, out_dims


def _scan_dce(used_outputs, eqn):
    p = eqn.params
    jaxpr, nk, nc = p["jaxpr"], p["num_consts"], p["num_carry"]
    if not any(used_outputs) and not eqn.effects:
        return [False] * len(eqn.invars), None
    used_carry = list(used_outputs[:nc])
    used_ys = list(used_outputs[nc:])
    while True:
        _, used_in = common.dce_body(jaxpr, used_carry + used_ys)
        new = [a or b for a, b in zip(used_carry, used_in[nk : nk + nc])]
        if new == used_carry:
            break
        used_carry = new
    body, used_in = common.dce_body(jaxpr, used_carry + used_ys)
    keep_in = list(used_in[:nk]) + used_carry + list(used_in[nk + nc :])
    body = common.prune_jaxpr_io(body, keep_in, [True] * (sum(used_carry) + sum(used_ys)))
    invars = [v for v, k in zip(eqn.invars, keep_in) if k]
    keep_out = used_carry + used_ys
    outvars = [v for v, k in zip(eqn.outvars, keep_out) if k]
    params = dict(p, jaxpr=body, num_consts=sum(used_in[:nk]), num_carry=sum(used_carry))
    return keep_in, eqn.replace(invars=invars, outvars=outvars, params=params)


def _scan_partial_eval(trace, tracers, *, jaxpr, num_consts, num_carry, length, reverse, unroll):
    """Known scan (run now; per-iteration residuals become extra stacked ys) + staged
    unknown scan consuming the stacked residuals as extra xs."""
    params = dict(length=length, reverse=reverse, unroll=unroll)
    unknowns = [trace.is_unknown(t) for t in tracers]
    k_uk, carry_uk, xs_uk = split_list(unknowns, [num_consts, num_carry])
    ny = len(jaxpr.out_avals) - num_carry
    while True:
        known, unknown, out_uk, num_res = partial_eval_jaxpr_nounits(
            jaxpr, k_uk + carry_uk + xs_uk, carry_uk + [False] * ny
        )
        new = [a or b for a, b in zip(carry_uk, out_uk[:num_carry])]
        if new == carry_uk:
            break
        carry_uk = new
    consts, init, xs = split_list(tracers, [num_consts, num_carry])
    ys_uk = out_uk[num_carry:]
    # Known scan: (known consts, known carry, known xs) -> (known carry, known ys, residuals).
    known, kconsts = common.convert_consts_to_invars(known)
    kk = [t for t, u in zip(consts, k_uk) if not u]
    kc = [t for t, u in zip(init, carry_uk) if not u]
    kx = [t for t, u in zip(xs, xs_uk) if not u]
    n_kc = len(kc)
    n_ky = ny - sum(ys_uk)
    # Loop-invariant residuals (a known const forwarded as is) are passed to the unknown
    # scan as consts instead of being stacked once per iteration.
    k_const_vals = [*kconsts, *kk]
    const_pos = {id(v): i for i, v in enumerate(known.jaxpr.invars[: len(k_const_vals)])}
    invariant = []
    for r in known.jaxpr.outvars[n_kc + n_ky :]:
        if type(r) is Literal:
            invariant.append((True, r.val))
        elif id(r) in const_pos:
            invariant.append((True, k_const_vals[const_pos[id(r)]]))
        else:
            invariant.append((False, None))
    known = common.prune_jaxpr_io(
        known,
        [True] * len(known.in_avals),
        [True] * (n_kc + n_ky) + [not inv for inv, _ in invariant],
    )
    k_outs = scan_p.bind_with_trace(
        trace.parent_trace,
        [*k_const_vals, *kc, *kx],
        dict(jaxpr=known, num_consts=len(k_const_vals), num_carry=n_kc, **params),
    )
    known_carry, known_ys, stacked = split_list(k_outs, [n_kc, n_ky])
    inv_vals = [v for inv, v in invariant if inv]
    # Unknown scan: its jaxpr takes (uconsts, res, uk consts, uk carry, uk xs); the scan
    # wants (uconsts, invariant res, uk consts | uk carry | stacked res, uk xs).
    unknown, uconsts = common.convert_consts_to_invars(unknown)
    nuc, nr = len(uconsts), num_res
    n_ukk, n_ukc, n_ukx = sum(k_uk), sum(carry_uk), sum(xs_uk)
    base = nuc + nr
    order = (
        list(range(nuc))
        + [nuc + i for i, (inv, _) in enumerate(invariant) if inv]
        + list(range(base, base + n_ukk + n_ukc))
        + [nuc + i for i, (inv, _) in enumerate(invariant) if not inv]
        + list(range(base + n_ukk + n_ukc, base + n_ukk + n_ukc + n_ukx))
    )
    unknown = common.permute_jaxpr(unknown, order)
    uk_k = [t for t, u in zip(consts, k_uk) if u]
    uk_c = [t for t, u in zip(init, carry_uk) if u]
    uk_x = [t for t, u in zip(xs, xs_uk) if u]
    if not any(out_uk) and not unknown.effects:
        u_outs = []
    else:
        u_outs = trace.stage(
            scan_p,
            [*uconsts, *inv_vals, *uk_k, *uk_c, *stacked, *uk_x],
            dict(jaxpr=unknown, num_consts=nuc + len(inv_vals) + n_ukk, num_carry=n_ukc, **params),
        )
    k_it = iter(list(known_carry) + list(known_ys))
    u_it = iter(u_outs)
    return [next(u_it) if u else next(k_it) for u in out_uk]


def _scan_transpose(cts, *args, jaxpr, num_consts, num_carry, length, reverse, unroll):
    """Transpose: a scan in the other direction. Linear consts accumulate their cotangent
    in the carry; cotangents of ys are scanned over; non-linear xs (residuals) too."""

    consts, init, xs = split_list(args, [num_consts, num_carry])
    k_lin = [is_undefined_primal(a) for a in consts]
    x_lin = [is_undefined_primal(a) for a in xs]
    ct_carry, ct_ys = split_list(cts, [num_carry])
    carry_avals = jaxpr.in_avals[num_consts : num_consts + num_carry]
    k_avals = jaxpr.in_avals[:num_consts]
    x_avals = jaxpr.in_avals[num_consts + num_carry :]
    y_avals = jaxpr.out_avals[num_carry:]
    nl_k = [a for a, lin in zip(consts, k_lin) if not lin]
    nl_x = [a for a, lin in zip(xs, x_lin) if not lin]
    lin_k_avals = [a.to_tangent_aval() for a, lin in zip(k_avals, k_lin) if lin]
    # The body is traced at the actual cotangents' weak types (as JAX does): a strong
    # cotangent of a carry whose initial value was a Python scalar stays strong.
    ct_c_avals = [_ct_aval(a.to_tangent_aval(), c) for a, c in zip(carry_avals, ct_carry)]
    # The carry's undefined primals are typed as its cotangents too (JAX's accumulators
    # take the cotangent's type): a convert_element_type that made a weak initial carry
    # strong then transposes to a strong cotangent (grad w.r.t. the Python float 2.0 of
    # scan(lambda c, x: (c * x, None), 2.0, xs) is strong in JAX).
    carry_undef_avals = [
        a.update(weak_type=c.weak_type) if a.weak_type != c.weak_type else a
        for a, c in zip(carry_avals, ct_c_avals)
    ]
    nl_x_avals = [a for a, lin in zip(x_avals, x_lin) if not lin]
    ct_y_avals = [_ct_aval(a.to_tangent_aval(), c) for a, c in zip(y_avals, ct_ys)]
    # Symbolically zero cotangents of ys stay symbolic in the body (as JAX's transpose
    # does), so an unused ys computation adds no 0 * inf = nan to the other cotangents.
    y_zero = [type(c) is Zero for c in ct_ys]
    n_nlk, n_lk, n_c, n_nlx = len(nl_k), len(lin_k_avals), num_carry, len(nl_x)

    def body_t(*a):
        nlk, acc, ct_c, nlx, ct_y_nz = split_list(a, [n_nlk, n_lk, n_c, n_nlx])
        it_y = iter(ct_y_nz)
        ct_y = [Zero(av) if z else next(it_y) for av, z in zip(ct_y_avals, y_zero)]
        it_k, it_x = iter(nlk), iter(nlx)
        primals = (
            [next(it_k) if not lin else _undef(av) for av, lin in zip(k_avals, k_lin)]
            + [_undef(av) for av in carry_undef_avals]
            + [next(it_x) if not lin else _undef(av) for av, lin in zip(x_avals, x_lin)]
        )
        cts_in = backward_pass(jaxpr.jaxpr, jaxpr.consts, primals, list(ct_c) + list(ct_y))
        ct_k, ct_c_in, ct_x = split_list(cts_in, [num_consts, num_carry])
        ct_k_lin = [c for c, lin in zip(ct_k, k_lin) if lin]
        new_acc = [instantiate(add_any(s, c)) for s, c in zip(acc, ct_k_lin)]
        return (
            new_acc
            + [instantiate(c) for c in ct_c_in]
            + [instantiate(c) for c, lin in zip(ct_x, x_lin) if lin]
        )

    nz_ct_y_avals = [a for a, z in zip(ct_y_avals, y_zero) if not z]
    body = common.jaxpr_from_fun(
        body_t, _nonlinear(k_avals, k_lin) + lin_k_avals + ct_c_avals + nl_x_avals + nz_ct_y_avals
    )
    body, bconsts = common.convert_consts_to_invars(body)
    init_acc = [zeros(a) for a in lin_k_avals]
    init_ct = [instantiate(c) for c in ct_carry]
    ys_ct = [instantiate(c) for c, z in zip(ct_ys, y_zero) if not z]
    outs = scan_p.bind(
        *bconsts,
        *nl_k,
        *init_acc,
        *init_ct,
        *nl_x,
        *ys_ct,
        jaxpr=body,
        num_consts=len(bconsts) + n_nlk,
        num_carry=n_lk + n_c,
        length=length,
        reverse=not reverse,
        unroll=unroll,
    )
    ct_k_lin, ct_init, ct_x_lin = split_list(outs, [n_lk, n_c])
    it_k, it_x = iter(ct_k_lin), iter(ct_x_lin)
    return (
        [next(it_k) if lin else None for lin in k_lin]
        + [ct if is_undefined_primal(a) else None for a, ct in zip(init, ct_init)]
        + [next(it_x) if lin else None for lin in x_lin]
    )


def _ct_aval(aval, ct):
    if ct is None:
        return aval
    weak = ct.aval.weak_type if type(ct) is Zero else aval_of(ct).weak_type
    return aval if weak == aval.weak_type else aval.update(weak_type=weak)


def _nonlinear(avals, linear):
    return [a for a, lin in zip(avals, linear) if not lin]


def _undef(aval):
    return UndefinedPrimal(aval)


def _scan_forwarding(params):
    # A carry the body returns unchanged is the initial carry operand (ys are stacked).
    nc, closed = params["num_consts"], params["jaxpr"]
    inv = common.invariant_carries(closed, nc, params["num_carry"])
    return [nc + j if j in inv else None for j in range(len(closed.jaxpr.outvars))]


rules.forwarding_rules[scan_p] = _scan_forwarding
rules.partial_eval_rules[scan_p] = _scan_partial_eval
rules.transpose_rules[scan_p] = _scan_transpose
rules.impl_rules[scan_p] = _scan_impl
rules.abstract_eval_rules[scan_p] = _scan_abstract_eval
rules.vma_rules[scan_p] = rules.keep_vma
rules.effects_rules[scan_p] = _scan_effects
rules.jvp_rules[scan_p] = _scan_jvp
rules.batch_rules[scan_p] = _scan_batch
rules.dce_rules[scan_p] = _scan_dce
rules.remat_replay_rules[scan_p] = "branches"
rules.lower_rules[scan_p] = _scan_lower


def _scan_native(ctx, eqn, ins, outs):
    p = eqn.params
    nc, ncar, length = p["num_consts"], p["num_carry"], p["length"]
    consts, init, xs = split_list(ins, [nc, ncar])
    carry_out, ys_out = outs[:ncar], outs[ncar:]
    avals = p["jaxpr"].out_avals
    # Small carries live in scalar locals across iterations (no allocation per step).
    carry, lines = common.native_carries(ctx, carry_out, init, avals[:ncar])
    for name, a in zip(ys_out, avals[ncar:]):
        shape = "".join(f"{int(d)}, " for d in (length,) + tuple(a.shape))
        lines.append(f"{name} = np.empty(({shape}), {ctx.dtype(a.dtype)})")
    if length == 0:
        return lines + common.native_results(ctx, carry_out, carry, avals[:ncar])
    i = ctx.fresh("i")
    rng = f"range({length - 1}, -1, -1)" if p["reverse"] else f"range({length})"
    x_names, loop = [], []
    for k, (x, a) in enumerate(zip(xs, p["jaxpr"].in_avals[nc + ncar :])):
        if isinstance(x, list):  # a small stacked operand: as an array to slice from
            name = ctx.fresh("m")
            lines += ctx.materialize(name, x, eqn.invars[nc + ncar + k].aval)
            x = name
        if ctx.small(a):  # this step's slice, read element by element
            els = [ctx.fresh("e") for _ in range(a.size)]
            loop += common.assign(els, [f"{x}{s}" for s in ctx.subscripts(a, i)])
        else:
            els = ctx.fresh("x")
            loop.append(f"{els} = {x}[{i}]")
        x_names.append(els)
    body, res = ctx.emit(common.simplified(p["jaxpr"]), list(consts) + carry + x_names, True)
    loop += body
    for name, r, a in zip(ys_out, res[ncar:], avals[ncar:]):
        if isinstance(r, list):
            loop += [f"{name}{s} = {e}" for s, e in zip(ctx.subscripts(a, i), r)]
        else:
            loop.append(f"{name}[{i}] = {r}")
    loop += common.assign_native(ctx, carry, res[:ncar], avals[:ncar])
    lines += [f"for {i} in {rng}:"] + common.indent(loop or ["pass"])
    return lines + common.native_results(ctx, carry_out, carry, avals[:ncar])


rules.native_rules[scan_p] = _scan_native
rules.native_loops.add(scan_p)


# --------------------------------------------------------------------------- front ends
def _infer_length(xs_flat, length):
    for x in xs_flat:
        if aval_of(x).ndim == 0:
            raise ValueError(f"scan got value with no leading axis to scan over: {x}.")
    lengths = [aval_of(x).shape[0] for x in xs_flat]
    if length is not None:
        try:
            length = int(length)
        except Exception:  # noqa: BLE001
            raise ConcretizationTypeError(
                length,
                "The `length` argument to `scan` expects a concrete `int` value. For "
                "scan-like iteration with a dynamic length, use `while_loop` or "
                "`fori_loop`.",
            ) from None
        if not all(length == n for n in lengths):
            raise ValueError(
                f"scan got `length` argument of {length} which disagrees with "
                f"leading axis sizes {lengths}."
            )
        return length
    if len(set(lengths)) > 1:
        raise ValueError(
            "scan got values with different leading axis sizes: "
            + ", ".join(str(n) for n in lengths)
            + "."
        )
    if not lengths:
        raise ValueError("scan got no values to scan over and `length` not provided.")
    return lengths[0]


def _scan_python(f, init, xs_flat, xs_tree, length, reverse):
    """``disable_jit()``: a plain Python loop calling ``f`` once per iteration."""
    if length == 0:
        raise ValueError(
            "zero-length scan is not supported in disable_jit() mode because "
            "the output type is unknown."
        )
    carry = init
    ys = [None] * length
    order = range(length - 1, -1, -1) if reverse else range(length)
    for i in order:
        x = tree_util.tree_unflatten(
            xs_tree, [_shape.index_in_dim(x, i, 0, keepdims=False) for x in xs_flat]
        )
        carry, y = f(carry, x)
        ys[i] = y
    stacked = tree_util.tree_map(lambda *e: _shape.stack0([common.to_array(v) for v in e]), *ys)
    return carry, stacked


def _type_str(v) -> str:
    if v is None:
        return "None"
    try:
        a = aval_of(v)
    except TypeError:
        return repr(v)
    return ("~" if a.weak_type else "") + a.str_short()


def scan(
    f: Callable,
    init,
    xs=None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
    _split_transpose: bool = False,
):
    """``jax.lax.scan``: loop ``f(carry, x) -> (carry, y)`` over the leading axis of ``xs``.

    Args:
        f: the body; ``carry`` keeps its pytree structure and types across iterations.
        init: initial carry (a pytree).
        xs: pytree of arrays scanned along axis 0, or None (then ``length`` is required).
        length: number of iterations (must agree with ``xs``).
        reverse: iterate from the end (ys are still stored at their own index).
        unroll: accepted for compatibility (a positive int or bool).

    Returns:
        ``(final_carry, stacked_ys)``.

    Raises:
        TypeError: the carry output differs from the carry input in structure or types.
        ValueError: inconsistent ``xs`` lengths, no ``xs`` and no ``length``.
    """
    if not callable(f):
        raise TypeError("lax.scan: f argument should be callable.")
    rt.refuse_carried(init, f, "scan", "result[0]")
    f = rt.checked(f, "scan")
    return rt.threaded_scan(_scan, f, init, xs, length, reverse, unroll)


def _scan(f, init, xs, length, reverse, unroll):
    raw_xs, xs_tree = tree_util.tree_flatten(xs)
    xs_flat = [common.to_array(x) for x in raw_xs]
    length = _infer_length(xs_flat, length)
    unroll = common.check_unroll(unroll, length)
    if common.jit_disabled():
        return _scan_python(f, init, xs_flat, xs_tree, length, reverse)
    raw_init, init_tree = tree_util.tree_flatten(init)
    init_flat = [common.to_array(x) for x in raw_init]
    x_avals = [_unstacked(aval_of(x)) for x in xs_flat]

    def make(carry_flat):
        carry_avals = [aval_of(c) for c in carry_flat]
        store: dict[str, Any] = {}

        def body(*args):
            c, x = split_list(args, [len(carry_avals)])
            carry = tree_util.tree_unflatten(init_tree, c)
            xv = tree_util.tree_unflatten(xs_tree, x)
            out = f(carry, xv)
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                # as JAX: a list pair is accepted; the message shows the output's types
                if isinstance(out, (tuple, list, dict)):
                    shown = tree_util.tree_map(aval_of, out)
                else:
                    shown = _type_str(out)
                raise TypeError(f"scan body output must be a pair, got {shown}.")
            new_c, y = out
            c_leaves, c_tree = tree_util.tree_flatten(new_c)
            y_leaves, y_tree = tree_util.tree_flatten(y)
            store["carry_tree"], store["y_tree"] = c_tree, y_tree
            store["n_carry"] = len(c_leaves)
            return [common.to_array(o) for o in c_leaves + y_leaves]

        closed, consts = common.trace_closure_converted(body, carry_avals + x_avals)
        n = store["n_carry"]
        out_c = closed.out_avals[:n]
        if not tree_util.treedefs_equal(store["carry_tree"], init_tree) or n != len(carry_avals):
            common.check_carry_type(
                "scan body", f, init_tree, carry_avals, store["carry_tree"], out_c
            )
        return closed, consts, carry_avals, store

    closed, consts, carry_avals, store = make(init_flat)
    promoted, changed = common.promote_weak_inputs(
        init_flat, carry_avals, closed.out_avals[: len(carry_avals)]
    )
    if changed:
        raw_init = [r if p is v else p for r, p, v in zip(raw_init, promoted, init_flat)]
        init_flat = promoted
        closed, consts, carry_avals, store = make(init_flat)
    common.check_carry_type(
        "scan body", f, init_tree, carry_avals, init_tree, closed.out_avals[: len(carry_avals)]
    )
    common.check_effects("scan", closed.effects)
    refs.before_bind()
    carry, ys = _bind_forwarding(
        closed, consts, init_flat, raw_init, xs_flat, raw_xs, length, reverse, unroll
    )
    return (
        tree_util.tree_unflatten(init_tree, carry),
        tree_util.tree_unflatten(store["y_tree"], ys),
    )


def _bind_forwarding(closed, consts, init, raw_init, xs, raw_xs, length, reverse, unroll):
    """``scan_p.bind`` of ``closed`` (``(*consts, *carry, *xs) -> (*carry, *ys)``), except
    that, as in JAX, a carry the body returns unchanged is a constant of the loop and comes
    back as given, and a ``ys`` output that is an ``xs`` element is that ``xs`` (so neither
    becomes batched under ``vmap`` where the other inputs are). Returns ``(carry, ys)``."""
    nk, nc = len(consts), len(init)
    j = closed.jaxpr
    inv = common.invariant_carries(closed, nk, nc)
    var = [k for k in range(nc) if k not in inv]
    first_x = nk + nc
    y_fwd = [None if i is None or i < first_x else i - first_x for i in jaxpr_forwarding(j)[nc:]]
    if not inv and all(i is None for i in y_fwd):
        var, y_keep = range(nc), range(len(y_fwd))
    else:
        y_keep = [i for i, x in enumerate(y_fwd) if x is None]
        in_order = [*range(nk), *(nk + k for k in inv + var), *range(nk + nc, len(j.invars))]
        closed = common.permute_jaxpr(closed, in_order, [*var, *(nc + i for i in y_keep)])
        consts = [*consts, *(init[k] for k in inv)]
    outs = scan_p.bind(
        *consts,
        *(init[k] for k in var),
        *xs,
        jaxpr=closed,
        num_consts=len(consts),
        num_carry=len(var),
        length=length,
        reverse=bool(reverse),
        unroll=int(unroll),
    )
    it = iter(outs)
    carry = [raw_init[k] if k in inv else next(it) for k in range(nc)]
    ys = [next(it) if x is None else raw_xs[x] for x in y_fwd]
    return carry, ys


def map(f: Callable, xs, *, batch_size: int | None = None):
    """``jax.lax.map``: apply ``f`` to each slice of ``xs`` along axis 0 (a scan).

    With ``batch_size``, slices are processed ``batch_size`` at a time with ``vmap`` (the
    remainder, if any, in one last vmapped call).
    """

    if batch_size is None:
        _, ys = scan(lambda _, x: ((), f(x)), (), xs)
        return ys
    batch_size = int(batch_size)
    if batch_size <= 0:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size}")
    leaves, tree = tree_util.tree_flatten(xs)
    leaves = [common.to_array(x) for x in leaves]
    n = _infer_length(leaves, None)
    nb, rem = divmod(n, batch_size)

    def rows(x, start, stop):  # x[start:stop], no slice at all when that is all of x (as
        # JAX's indexing: a slice's transpose, a pad, would drop a weak type under grad)
        return x if (start, stop) == (0, n) else _shape.slice_in_dim(x, start, stop, 1, 0)

    outs = []
    if nb:
        main = [
            _shape.reshape(rows(x, 0, nb * batch_size), (nb, batch_size) + aval_of(x).shape[1:])
            for x in leaves
        ]
        _, ys = scan(lambda _, x: ((), vmap(f)(x)), (), tree_util.tree_unflatten(tree, main))
        ys = tree_util.tree_map(
            lambda y: _shape.reshape(y, (nb * batch_size,) + aval_of(y).shape[2:]), ys
        )
        outs.append(ys)
    if rem or not nb:  # the remainder (or, for no slices at all, the empty xs: JAX's answer)
        tail = [rows(x, nb * batch_size, n) for x in leaves]
        outs.append(vmap(f)(tree_util.tree_unflatten(tree, tail)))
    if len(outs) == 1:
        return outs[0]
    return tree_util.tree_map(lambda a, b: _shape.concatenate([a, b], 0), *outs)


def associative_scan(fn: Callable, elems, reverse: bool = False, axis: int = 0):
    """``jax.lax.associative_scan``: all prefix combinations of ``elems`` along ``axis``
    under the associative ``fn`` (a pytree function of two pytrees), in O(log n) rounds
    of vectorised ``fn`` calls."""

    leaves, tree = tree_util.tree_flatten(elems)
    leaves = [common.to_array(x) for x in leaves]
    if not leaves:
        return elems
    axis = canonicalize_axis(axis, aval_of(leaves[0]).ndim)
    lengths = {aval_of(x).shape[axis] for x in leaves}
    if len(lengths) != 1:
        raise ValueError(
            "Array inputs to associative_scan must have the same first "
            f"dimension. (saw: {[aval_of(x).shape for x in leaves]})"
        )
    if reverse:
        leaves = [_shape.rev(x, (axis,)) for x in leaves]

    def combine(a, b):
        out = fn(tree_util.tree_unflatten(tree, a), tree_util.tree_unflatten(tree, b))
        out_leaves, out_tree = tree_util.tree_flatten(out)
        if not tree_util.treedefs_equal(out_tree, tree):
            raise ValueError(
                "associative_scan: fn must return a pytree with the same "
                f"structure as its inputs, got {out_tree} for {tree}"
            )
        return [common.to_array(o) for o in out_leaves]

    def sl(x, start, stop, step=1):
        return _shape.slice_in_dim(x, start, stop, step, axis)

    def interleave(even, odd, n):
        # even holds positions 0, 2, 4...; odd holds 1, 3, 5... of a length-n axis.
        out = []
        for e, o in zip(even, odd):
            zero = np.zeros((), aval_of(e).dtype)
            nd = aval_of(e).ndim
            cfg_e = [(0, 0, 0)] * nd
            cfg_o = [(0, 0, 0)] * nd
            cfg_e[axis] = (0, 0 if n % 2 else 1, 1)
            cfg_o[axis] = (1, 1 if n % 2 else 0, 1)
            out.append(_shape.pad(e, zero, cfg_e) + _shape.pad(o, zero, cfg_o))
        return out

    def rec(xs):
        n = aval_of(xs[0]).shape[axis]
        if n < 2:
            return xs
        pairs = combine([sl(x, 0, n - 1, 2) for x in xs], [sl(x, 1, n, 2) for x in xs])
        odd = rec(pairs)
        if n % 2 == 0:
            rest = combine(
                [sl(o, 0, aval_of(o).shape[axis] - 1) for o in odd], [sl(x, 2, n, 2) for x in xs]
            )
        else:
            rest = combine(odd, [sl(x, 2, n, 2) for x in xs])
        even = [_shape.concatenate([sl(x, 0, 1), r], axis) for x, r in zip(xs, rest)]
        return interleave(even, odd, n)

    out = rec(leaves)
    if reverse:
        out = [_shape.rev(x, (axis,)) for x in out]
    return tree_util.tree_unflatten(tree, out)


__all__ = ["associative_scan", "map", "scan", "scan_p"]
