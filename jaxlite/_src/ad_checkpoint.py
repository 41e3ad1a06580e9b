"""``checkpoint`` / ``remat``: trade computation for memory in reverse mode.

``checkpoint(f)`` traces ``f`` once and binds ``checkpoint_p`` with the jaxpr. Without
differentiation the primitive is transparent (it evaluates its body). Its JVP and batching
rules transform the body and re-bind ``checkpoint_p``. Its partial-evaluation rule is where
rematerialisation happens: the body is split into a known part (run in the forward pass)
and an unknown part; of the values the unknown part needs from the known side, only those
the *policy* says are saveable are kept as residuals, the rest are recomputed inside the
unknown part (in the backward pass) from the checkpoint's known inputs.

Effects: equations whose effects are not in ``effects.remat_allowed_effects`` (IO
callbacks), and effectful calls JAX has no partial-eval rule for (custom_jvp / custom_vjp
calls), are never recomputed: their outputs are saved whatever the policy. Debug callbacks
are replayed in the backward pass by JAX's rule, callback by callback (``_replay_eqn``):
one the policy does not save is replayed; one it saves only when all its operands are
available to the backward pass anyway. Inside a cond branch or scan body the decision is
made per callback there; a while loop is replayed whole.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import config, dtypes, tree_util, util as _util
from jaxlite._src.api_plumbing import canonicalize_argnums, merge_static_args, split_static_args
from jaxlite._src.callback_host import MappedHostFn
from jaxlite._src.compile import codegen, jit_refs
from jaxlite._src.core import effects as _effects, refs, rules
from jaxlite._src.core.array import ArrayImpl, to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.ir import (
    ClosedJaxpr,
    Jaxpr,
    JaxprEqn,
    Literal,
    Var,
    _sub_jaxprs,
    closure_convert_consts,
    jaxpr_forwarding,
)
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal
from jaxlite._src.core.trace import eval_trace, set_current_trace
from jaxlite._src.custom_staged import DeadCodeFreeRule
from jaxlite._src.interpreters import dce as _dce
from jaxlite._src.interpreters.batching import batch_jaxpr
from jaxlite._src.interpreters.dce import dce_jaxpr
from jaxlite._src.interpreters.eval import eval_closed_jaxpr
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits
from jaxlite._src.interpreters.staging import (
    abstractify,
    trace_flat,
    trace_flat_refs,
    trace_to_jaxpr,
)
from jaxlite._src.interpreters.transpose import transpose_jaxpr
from jaxlite._src.ops.shape import squeeze_p
from jaxlite._src.ops.structural import instantiate

checkpoint_p = Primitive("checkpoint", multiple_results=True)
name_p = Primitive("name")


# ------------------------------------------------------------------------ policies
def _nothing_saveable(prim, *avals, **params) -> bool:
    return False


def _everything_saveable(prim, *avals, **params) -> bool:
    return True


_DOT_NAMES = frozenset({"dot_general", "conv_general_dilated"})


def _dots_saveable(prim, *avals, **params) -> bool:
    return prim.name in _DOT_NAMES


def _dots_with_no_batch_dims_saveable(prim, *avals, **params) -> bool:
    if prim.name != "dot_general":
        return False
    dn = params.get("dimension_numbers")
    try:
        (_, _), (lhs_b, rhs_b) = dn
    except (TypeError, ValueError):
        return True
    return not lhs_b and not rhs_b


def _save_any_names_but_these(*names_not_to_save):
    names = set(names_not_to_save)

    def policy(prim, *avals, **params):
        return prim is name_p and params["name"] not in names

    return policy


def _save_anything_except_these_names(*names_not_to_save):
    # JAX's saves every value, whatever the names (its docstring notwithstanding).
    return _everything_saveable


def _save_only_these_names(*names_to_save):
    names = set(names_to_save)

    def policy(prim, *avals, **params):
        return prim is name_p and params["name"] in names

    return policy


def _save_from_both_policies(policy_1, policy_2):
    def policy(prim, *avals, **params):
        return bool(policy_1(prim, *avals, **params)) or bool(policy_2(prim, *avals, **params))

    return policy


checkpoint_policies = types.SimpleNamespace(
    nothing_saveable=_nothing_saveable,
    everything_saveable=_everything_saveable,
    dots_saveable=_dots_saveable,
    checkpoint_dots=_dots_saveable,
    dots_with_no_batch_dims_saveable=_dots_with_no_batch_dims_saveable,
    checkpoint_dots_with_no_batch_dims=_dots_with_no_batch_dims_saveable,
    save_any_names_but_these=_save_any_names_but_these,
    save_anything_except_these_names=_save_anything_except_these_names,
    save_only_these_names=_save_only_these_names,
    save_from_both_policies=_save_from_both_policies,
)


# ------------------------------------------------------------------------ checkpoint_name
def _name_batch(axis_data, args, dims, *, name):
    return name_p.bind(args[0], name=name), dims[0]


def _name_jvp(primals, tangents, *, name):
    return name_p.bind(primals[0], name=name), tangents[0]


rules.impl_rules[name_p] = lambda x, *, name: x
rules.abstract_eval_rules[name_p] = lambda x, *, name: x
rules.batch_rules[name_p] = _name_batch
rules.jvp_rules[name_p] = _name_jvp
rules.transpose_rules[name_p] = lambda ct, x, *, name: [ct]


def checkpoint_name(x: Any, name: str) -> Any:
    """Tag the values of ``x`` (a pytree) with ``name`` for ``save_*_names`` policies."""
    return tree_util.tree_map(lambda v: name_p.bind(to_array(v), name=name), x)


# ------------------------------------------------------------------------ front end
class _DeprecatedArg:
    """The default of ``concrete=`` (removed in JAX 0.10.0; JAX's marker prints so)."""

    def __repr__(self):
        return "Deprecated"


_DEPRECATED = _DeprecatedArg()


def checkpoint(
    fun: Callable | None = None,
    *,
    prevent_cse: bool = True,
    policy: Callable | None = None,
    static_argnums=(),
    static_argnames=(),
    concrete=_DEPRECATED,
) -> Callable:
    """``jax.checkpoint`` (alias ``remat``): recompute ``fun``'s internals in the backward
    pass instead of storing them, except values the ``policy`` says are saveable.

    Args:
        fun: the function to checkpoint.
        prevent_cse: accepted for compatibility (jaxlite never merges a rematerialised
            computation with the forward pass).
        policy: ``policy(prim, *avals, **params) -> bool``, e.g. from
            ``checkpoint_policies``; ``None`` saves nothing.
        static_argnums: positional arguments treated as static Python values.
        static_argnames: keyword arguments (passed by keyword) treated as static Python
            values. As in JAX 0.10.2 this applies only under ``jax_remat3`` (read when
            ``checkpoint`` is called); by default keyword arguments are traced like the
            others.

    Raises:
        NotImplementedError: ``concrete=`` given (removed in JAX 0.10.0; JAX's message).
    """
    if concrete is not _DEPRECATED:
        raise NotImplementedError(
            "The `concrete` option to `jax.checkpoint` was deprecated in JAX v0.8.2, and "
            "removed in JAX v0.10.0. In its place please use `static_argnums`; for details "
            "refer to https://docs.jax.dev/en/latest/jep/11830-new-remat-checkpoint.html."
        )
    if fun is None:
        return functools.partial(
            checkpoint,
            prevent_cse=prevent_cse,
            policy=policy,
            static_argnums=static_argnums,
            static_argnames=static_argnames,
        )
    static_argnums = canonicalize_argnums(static_argnums)
    if not config.config.read("jax_remat3"):
        static_argnames = ()
    elif isinstance(static_argnames, str):
        static_argnames = (static_argnames,)
    static_argnames = frozenset(static_argnames)

    @_util.wraps(fun)
    def wrapped(*args, **kwargs):
        statics, dyn = split_static_args(args, static_argnums)
        static_kw = {k: v for k, v in kwargs.items() if k in static_argnames}
        if static_kw:
            kwargs = {k: v for k, v in kwargs.items() if k not in static_argnames}

        def f(*dyn_args, **kw):
            return fun(*merge_static_args(statics, dyn_args, len(args)), **kw, **static_kw)

        flat, in_tree = tree_util.tree_flatten((dyn, kwargs))
        avals = [abstractify(x) for x in flat]
        closed, out_tree, plan = trace_flat_refs(
            f, in_tree, avals, source=(fun, "checkpoint / remat"), construct="checkpoint"
        )
        closed, consts = closure_convert_consts(closed)

        def bind(ins):
            return checkpoint_p.bind(
                *consts, *ins, jaxpr=closed, prevent_cse=prevent_cse, policy=policy
            )

        # Refs taken or touched are threaded as in jit (compile/jit_refs.py).
        if plan is None:
            outs = bind(flat)
        else:
            writes = any(plan.written) and _recomputes_writes(policy, plan)
            if writes:  # an enclosing jit records it (RefPlan.recomputed_writes)
                refs.mark_recomputed_writes()
            outs = jit_refs.run_with_plan(
                plan, flat, functools.partial(refs.bind_recomputing, bind, plan) if writes else bind
            )
        return tree_util.tree_unflatten(out_tree, outs)

    return wrapped


remat = checkpoint


# What a policy is asked about a ref write (JAX's ``swap`` primitive; never bound here).
_SWAP = Primitive("swap")


def _recomputes_writes(policy, plan) -> bool:
    """Whether JAX's partial evaluation with ``policy`` recomputes the function's ref
    writes (JAX asks the policy about each ``swap``; unsaved, it runs again)."""
    if policy is None:
        return True
    ref = (plan.closure or (None,))[0]
    avals = (ref._aval.inner_aval,) if ref is not None else ()
    return not policy(_SWAP, *avals)


def _refuse_recomputed_writes() -> NotImplementedError:
    """The error ``refs.bind_recomputing`` raises (registered as ``refs.impl``)."""
    return NotImplementedError(
        "jaxlite cannot differentiate in reverse mode a checkpoint (remat) of a function "
        "that writes a mutable array reference (jax.Ref): JAX applies the writes again when "
        "it recomputes the function in the backward pass (so the ref ends written twice, and "
        "reads recomputed after the first writes see them), jaxlite would apply them once. "
        "Write the ref outside the checkpointed function, or use "
        "policy=jax.checkpoint_policies.everything_saveable (nothing recomputed)."
    )


# ------------------------------------------------------------------------ rules
def _ckpt_impl(*args, jaxpr, prevent_cse, policy):
    # Eagerly one operation at a time, as JAX evaluates an eager checkpoint: a pure_callback
    # whose result is unused still runs (D3), a debug callback's exception keeps its type.
    # Raw buffers of extended dtypes (typed PRNG keys: structured storage) mean something
    # only with their aval: wrap them with it (flax's nn.remat passes its rng keys here).
    args = [
        ArrayImpl(a, av) if type(a) is np.ndarray and dtypes.is_extended(av.dtype) else a
        for a, av in zip(args, jaxpr.in_avals)
    ]
    with set_current_trace(eval_trace):
        outs = eval_closed_jaxpr(jaxpr, *args)
    return [codegen._const_value(o) for o in outs]  # NumPy buffers (keys' structured ones)


def _ckpt_abstract_eval(*avals, jaxpr, prevent_cse, policy):
    return jaxpr.out_avals


def _ckpt_effects(*avals, jaxpr, prevent_cse, policy):
    return jaxpr.effects


def _convert(closed):
    return closure_convert_consts(closed)


def _ckpt_jvp(primals, tangents, *, jaxpr, prevent_cse, policy):
    nonzeros = [type(t) is not Zero for t in tangents]
    new, out_nz = jvp_jaxpr(jaxpr, nonzeros, instantiate=False)
    new, consts = _convert(new)
    nz = [t for t in tangents if type(t) is not Zero]
    outs = checkpoint_p.bind(
        *consts, *primals, *nz, jaxpr=new, prevent_cse=prevent_cse, policy=policy
    )
    n = len(jaxpr.out_avals)
    it = iter(outs[n:])
    t_out = [next(it) if z else Zero(a.to_tangent_aval()) for z, a in zip(out_nz, jaxpr.out_avals)]
    return outs[:n], t_out


def _ckpt_batch(axis_data, args, dims, *, jaxpr, prevent_cse, policy):
    new, out_dims = batch_jaxpr(jaxpr, axis_data, dims, instantiate=False)
    new, consts = _convert(new)
    outs = checkpoint_p.bind(*consts, *args, jaxpr=new, prevent_cse=prevent_cse, policy=policy)
    return outs, out_dims


def _ckpt_transpose(cts, *args, jaxpr, prevent_cse, policy):
    # The backward pass (with the recomputation it holds) is itself a checkpoint, as in
    # JAX: differentiated again (a ``vjp`` pullback inside ``grad``), its recomputed values
    # are not saved but recomputed once more, so the debug callbacks in them replay (H2).
    mask = [is_undefined_primal(a) for a in args]
    cts = [instantiate(c) for c in cts]
    t, tconsts = _convert(_transposed_body(jaxpr, mask, [aval_of(c) for c in cts]))
    nonlin = [a for a, m in zip(args, mask) if not m]
    outs = checkpoint_p.bind(
        *tconsts, *nonlin, *cts, jaxpr=t, prevent_cse=prevent_cse, policy=policy
    )
    it = iter(outs)
    return [next(it) if m else None for m in mask]


def _transposed_body(jaxpr: ClosedJaxpr, mask, ct_avals) -> ClosedJaxpr:
    """The transpose of a checkpoint's body, made as JAX makes it: the body is split into
    its non-linear part (evaluated) and its linear part (transposed) by partial
    evaluation first, so a checkpoint nested in the body is split by its own rule there:
    the debug callbacks its staged half replays run again when that half is transposed
    (JAX's ``grad`` of nested checkpoints replays an inner callback twice, a ``linearize``d
    function applied once replays it once)."""
    if not any(_sub_jaxprs_deep(jaxpr.jaxpr, checkpoint_p)):
        return transpose_jaxpr(jaxpr, mask, ct_avals)
    outer = _splitting[:]  # nested checkpoints are split by their own rule here
    _splitting.clear()
    try:
        K, U, _, num_res = partial_eval_jaxpr_nounits(jaxpr, mask, True)
    finally:
        _splitting[:] = outer
    n_lin = sum(mask)
    t_u = transpose_jaxpr(U, [False] * num_res + [True] * n_lin, ct_avals)
    nonlin_avals = [a for a, m in zip(jaxpr.in_avals, mask) if not m]
    n_nl = len(nonlin_avals)

    def body(*args):
        res = eval_closed_jaxpr(K, *args[:n_nl])
        return eval_closed_jaxpr(t_u, *res, *args[n_nl:])

    new, _ = trace_to_jaxpr(body, nonlin_avals + list(ct_avals))
    return new


def _sub_jaxprs_deep(jaxpr: Jaxpr, prim):
    """The equations of ``prim`` in ``jaxpr`` or any jaxpr nested in it."""
    for e in jaxpr.eqns:
        if e.primitive is prim:
            yield e
        for sub in _sub_jaxprs(e.params):
            yield from _sub_jaxprs_deep(sub, prim)


def _saveable(policy, eqn) -> bool:
    if policy is None:
        return False
    return bool(policy(eqn.primitive, *[v.aval for v in eqn.invars], **eqn.params))


def _map_sub_jaxprs(params: dict, fn) -> dict:
    """``params`` with every nested jaxpr ``j`` (as :func:`_sub_jaxprs` finds them)
    replaced by ``fn(j)`` (a closed jaxpr keeps its consts)."""

    def one(v):
        if isinstance(v, ClosedJaxpr):
            return ClosedJaxpr(fn(v.jaxpr), v.consts)
        if isinstance(v, Jaxpr):
            return fn(v)
        return v

    return {
        k: tuple(one(x) for x in v) if isinstance(v, tuple) else one(v) for k, v in params.items()
    }


def _with_params(e: JaxprEqn, params: dict) -> JaxprEqn:
    rule = rules.effects_rules.get(e.primitive)
    if rule is not None:
        effs = rule(*[x.aval for x in e.invars], **params)
    else:
        effs = _effects.join_effects(*(j.effects for j in _sub_jaxprs(params)))
    return e.replace(params=params, effects=frozenset(effs))


def _is_debug_callback(e: JaxprEqn) -> bool:
    return (
        bool(e.effects)
        and e.primitive not in rules.remat_replay_rules
        and e.primitive not in rules.remat_runs_once
        and not any(_sub_jaxprs(e.params))
        and all(_effects.remat_allowed_effects.contains(f) for f in e.effects)
    )


def _debug_callback_ids(jaxpr: Jaxpr) -> set[int]:
    """Ids of the callbacks of the debug callbacks in ``jaxpr`` (nested ones too)."""
    out = set()
    for e in jaxpr.eqns:
        if _is_debug_callback(e) and "callback" in e.params:
            out.add(id(e.params["callback"]))
        for sub in _sub_jaxprs(e.params):
            out |= _debug_callback_ids(sub)
    return out


def _replay_body(policy, body: Jaxpr, inst_in, skip=frozenset()):
    """``body`` as the backward pass of a checkpoint replays it: the debug callbacks that
    JAX does not replay removed. ``inst_in``: which inputs the backward pass has anyway.
    Returns the new body, which outputs the backward pass has anyway, and whether any
    debug callback is replayed."""
    inst = {id(v): i for v, i in zip(body.invars, inst_in)}
    eqns, any_replay = [], False
    for e in body.eqns:
        ins = [type(x) is Literal or inst.get(id(x), True) for x in e.invars]
        new, outs, replays = _replay_eqn(policy, e, ins, skip)
        any_replay |= replays
        if new is not None:
            eqns.append(new)
        for v, i in zip(e.outvars, outs):
            inst[id(v)] = i
    outs = [type(v) is Literal or inst.get(id(v), True) for v in body.outvars]
    return body.replace(eqns=eqns), outs, any_replay


def _silent(body: Jaxpr) -> Jaxpr:  # ``body`` without its debug callbacks, nested too
    return body.replace(eqns=[_quiet(x) for x in body.eqns if not _is_debug_callback(x)])


def _quiet(e: JaxprEqn) -> JaxprEqn:  # a custom_jvp call's rule runs silently too
    params = _map_sub_jaxprs(e.params, _silent)
    if e.primitive in rules.remat_runs_once and "jvp" in params:
        params["jvp"] = DeadCodeFreeRule(params["jvp"], [True] * len(e.outvars), _silent)
    return _with_params(e, params)


def _replay_eqn(policy, e: JaxprEqn, inst_in, skip=frozenset()):
    """JAX's partial evaluation of a known equation inside ``checkpoint`` (its
    ``partial_eval_jaxpr_custom`` rules), as far as debug callbacks go. Returns the equation
    the backward pass would replay (``None`` for a debug callback it does not replay; with
    sub-jaxprs, the equation with the non-replayed callbacks inside removed), which outputs
    the backward pass has anyway ("instantiated" in JAX: recomputed, or an input), and
    whether a debug callback is replayed.

    A debug callback is replayed when the policy does not save it, or when it does and all
    its operands are available anyway. An effect-free equation's outputs are available
    unless the policy saves it. A cond / scan body is decided per callback, all its inputs
    available, its outputs available after it; a jit / checkpoint body passes availability
    through; a while loop is replayed whole. Other effectful equations run once (a replayed
    body recomputes a custom_jvp / custom_vjp call without its callbacks, rule too)."""
    kind = rules.remat_replay_rules.get(e.primitive)
    n = len(e.outvars)
    if kind is None:
        if not e.effects:
            return e, [not _saveable(policy, e)] * n, False
        if any(not _effects.remat_allowed_effects.contains(f) for f in e.effects):
            return e, [False] * n, False
        if e.primitive in rules.remat_runs_once or list(_sub_jaxprs(e.params)):
            return _quiet(e), [False] * n, False
        # a debug callback (``skip``: one a nested checkpoint replays in its staged half)
        if id(e.params.get("callback")) in skip:
            return None, [False] * n, False
        replays = not _saveable(policy, e) or all(_unrolled_inst(policy, e, inst_in))
        return (e if replays else None), [False] * n, replays
    if kind == "whole":
        return e, [True] * n, bool(e.effects)
    flags = []
    if kind == "call":
        (body,) = _sub_jaxprs(e.params)
        ins = list(inst_in) if len(inst_in) == len(body.invars) else [True] * len(body.invars)
        new_body, outs, replays = _replay_body(policy, body, ins, skip)
        return _with_params(e, _map_sub_jaxprs(e.params, lambda _: new_body)), outs, replays

    def one(body):
        new_body, _, replays = _replay_body(policy, body, [True] * len(body.invars), skip)
        flags.append(replays)
        return new_body

    new = _with_params(e, _map_sub_jaxprs(e.params, one))
    return new, [True] * n, any(flags)


def _unrolled_inst(policy, e: JaxprEqn, inst_in):
    """The operands a debug callback has anyway, as JAX, which unrolls a vmapped one on
    ``squeeze(slice(x))`` of a batched ``x`` (a value the policy may save), sees them."""
    cb = e.params.get("callback")
    if not isinstance(cb, MappedHostFn):
        return inst_in
    saves = [
        bool(axes) and policy(squeeze_p, x.aval, dimensions=(0,))
        for x, axes in zip(e.invars, cb.operand_axes)
    ]
    return [i and not s for i, s in zip(inst_in, saves)]


def remat_split(known: Jaxpr, n_known_outs: int, policy, skip=frozenset()):
    """Decide which residuals of ``known`` (its outputs after the first ``n_known_outs``)
    to save and which equations to recompute.

    Returns ``(saved, recompute)``: ``saved`` is the list of atoms of ``known`` (invars,
    constvars or equation outputs) the backward pass receives; ``recompute`` is the list of
    equations (in program order) to replay in the backward pass: equations of ``known``,
    where one holds debug callbacks, with those the backward pass does not replay removed
    (:func:`_replay_eqn`), and replay-only copies (no outputs) of saved equations whose
    debug callbacks replay.
    """
    producer: dict[int, JaxprEqn] = {}
    for e in known.eqns:
        for v in e.outvars:
            producer[id(v)] = e
    saved: dict[int, Var] = {}
    recompute: set[int] = set()

    def must_save(e) -> bool:
        # An effectful equation JAX has no partial-eval rule for (custom_jvp/vjp calls,
        # IO callbacks) runs in the forward pass only: its outputs are saved.
        if not e.effects:
            return False
        if e.primitive in rules.remat_runs_once or (
            e.primitive not in rules.remat_replay_rules and any(_sub_jaxprs(e.params))
        ):
            return True
        return any(not _effects.remat_allowed_effects.contains(f) for f in e.effects)

    def need(v):
        if type(v) is Literal or id(v) in saved:
            return
        e = producer.get(id(v))
        if e is None:  # an input of the checkpoint: always available
            saved[id(v)] = v
            return
        if id(e) in recompute:
            return
        if must_save(e) or _saveable(policy, e):
            saved[id(v)] = v
            return
        recompute.add(id(e))
        for x in e.invars:
            need(x)

    for v in known.outvars[n_known_outs:]:
        need(v)
    # What the backward pass replays of each effectful equation (JAX's rule, per callback).
    inst: dict[int, bool] = {}
    replayed: dict[int, JaxprEqn] = {}  # the equation with non-replayed callbacks removed
    replays: set[int] = set()
    for e in known.eqns:
        ins = [type(x) is Literal or inst.get(id(x), True) for x in e.invars]
        new, outs, r = _replay_eqn(policy, e, ins, skip)
        for v, i in zip(e.outvars, outs):
            inst[id(v)] = i
        if e.effects and not must_save(e):
            replayed[id(e)] = new
            if r:
                replays.add(id(e))
    copies: dict[int, JaxprEqn] = {}
    for e in known.eqns:
        if id(e) not in replays or id(e) in recompute:
            continue
        if not _saveable(policy, e):  # recomputed whole (outputs too), as need() would
            for x in e.invars:
                need(x)
            recompute.add(id(e))
            continue
        # Saved: its outputs come from the forward pass; a copy replays the callbacks.
        new = replayed[id(e)]
        new = new.replace(outvars=[Var(v.aval) for v in new.outvars])
        rule = rules.dce_rules.get(new.primitive)
        used_in = [True] * len(new.invars)
        if rule is not None and new.outvars:
            used_in, new = rule([False] * len(new.outvars), new)
        if new is None:
            continue
        for x, u in zip(e.invars, used_in):
            if u:
                need(x)
        copies[id(e)] = new
    order = []
    for e in known.eqns:
        if id(e) in recompute:
            order.append(replayed.get(id(e), e))
        elif id(e) in copies:
            order.append(copies[id(e)])
    # Keep saved in a deterministic order: invars first, then equation outputs.
    saved_list = [v for v in known.invars if id(v) in saved]
    saved_list += [v for v in known.constvars if id(v) in saved]
    for e in known.eqns:
        saved_list += [v for v in e.outvars if id(v) in saved]
    return saved_list, order


# The checkpoints splitting their bodies now (``_ckpt_partial_eval``), outermost first:
# (policy, ids of the debug callbacks the checkpoints nested in it have decided on).
_splitting: list = []


def _ckpt_partial_eval(trace, tracers, *, jaxpr, prevent_cse, policy):
    unknowns = [trace.is_unknown(t) for t in tracers]
    if any(unknowns):
        refs.note_partial_eval()  # refs.bind_recomputing raises once the call returns
    # A checkpoint nested in one being split (directly, or in its loops, branches, calls)
    # is split with the outermost one's policy, as JAX's partial evaluation of a checkpoint
    # treats the checkpoints inside it: the callbacks it replays go in its own staged half,
    # and the enclosing checkpoints do not replay them again.
    nested = bool(_splitting)
    use_policy = _splitting[0][0] if nested else policy
    decided: set[int] = set()
    _splitting.append((use_policy, decided))
    try:
        known_c, unk_c, out_unk, num_res = partial_eval_jaxpr_nounits(jaxpr, unknowns, False)
    finally:
        _splitting.pop()
    known_c, kconsts = _convert(known_c)
    unk_c, uconsts = _convert(unk_c)
    K, U = known_c.jaxpr, unk_c.jaxpr
    n_known_outs = len(K.outvars) - num_res
    # No output depends on an unknown input (e.g. its tangent is symbolically zero): there
    # is no backward pass to rematerialise for, so a debug callback runs once, as in JAX.
    if any(out_unk):
        saved, recompute = remat_split(K, n_known_outs, use_policy, decided)
    else:
        saved, recompute = [], []
    if nested:
        _splitting[-1][1].update(decided, _debug_callback_ids(K))
    # Residuals neither saved nor recomputed (with no unknown output, or a residual that is
    # a known input itself) are saved as they are.
    made = {id(v) for v in saved} | {id(v) for e in recompute for v in e.outvars}
    for r in K.outvars[n_known_outs:]:
        if type(r) is not Literal and id(r) not in made:
            saved = [*saved, r]
            made.add(id(r))

    # Known side: known outputs + saved values.
    k_jaxpr = Jaxpr([], K.invars, list(K.outvars[:n_known_outs]) + saved, K.eqns)
    k_jaxpr, _ = dce_jaxpr(k_jaxpr)
    k_closed = ClosedJaxpr(k_jaxpr, [])
    known_ins = [t for t, u in zip(tracers, unknowns) if not u]
    # Evaluated inline, as JAX does: the forward pass is not a checkpoint of its own, so a
    # derivative of higher order saves its values instead of recomputing them.
    with set_current_trace(trace.parent_trace):
        k_outs = eval_closed_jaxpr(k_closed, *kconsts, *known_ins)
    known_outs, saved_vals = k_outs[:n_known_outs], k_outs[n_known_outs:]

    # Unknown side: (uconsts, saved, unknown inputs) -> recompute, then U's body.
    env: dict[int, Any] = {}

    def read(v):
        return v if type(v) is Literal else env[id(v)]

    n_uc = len(uconsts)
    new_uc = [Var(v.aval) for v in U.invars[:n_uc]]
    new_saved = [Var(v.aval) for v in saved]
    for v, nv in zip(saved, new_saved):
        env[id(v)] = nv
    eqns = []
    for e in recompute:
        new_out = [Var(v.aval) for v in e.outvars]
        eqns.append(e.replace(invars=[read(x) for x in e.invars], outvars=new_out))
        for v, nv in zip(e.outvars, new_out):
            env[id(v)] = nv
    u_env: dict[int, Any] = {}
    for v, nv in zip(U.invars[:n_uc], new_uc):
        u_env[id(v)] = nv
    for v, r in zip(U.invars[n_uc : n_uc + num_res], K.outvars[n_known_outs:]):
        u_env[id(v)] = read(r)
    new_unk_in = [Var(v.aval) for v in U.invars[n_uc + num_res :]]
    for v, nv in zip(U.invars[n_uc + num_res :], new_unk_in):
        u_env[id(v)] = nv

    def uread(v):
        return v if type(v) is Literal else u_env[id(v)]

    for e in U.eqns:
        new_out = [Var(v.aval) for v in e.outvars]
        eqns.append(e.replace(invars=[uread(x) for x in e.invars], outvars=new_out))
        for v, nv in zip(e.outvars, new_out):
            u_env[id(v)] = nv
    outvars = [uread(v) for v in U.outvars]
    u_jaxpr = Jaxpr([], new_uc + new_saved + new_unk_in, outvars, eqns)
    u_closed = ClosedJaxpr(u_jaxpr, [])
    unk_ins = [t for t, u in zip(tracers, unknowns) if u]
    u_outs = trace.stage(
        checkpoint_p,
        list(uconsts) + list(saved_vals) + unk_ins,
        dict(jaxpr=u_closed, prevent_cse=prevent_cse, policy=policy),
    )
    k_it, u_it = iter(known_outs), iter(u_outs)
    return [next(u_it) if u else next(k_it) for u in out_unk]


rules.impl_rules[checkpoint_p] = _ckpt_impl
refs.impl["recomputed_writes_error"] = _refuse_recomputed_writes
rules.forwarding_rules[checkpoint_p] = lambda params: jaxpr_forwarding(params["jaxpr"].jaxpr)
rules.abstract_eval_rules[checkpoint_p] = _ckpt_abstract_eval
rules.vma_rules[checkpoint_p] = rules.keep_vma
rules.effects_rules[checkpoint_p] = _ckpt_effects
rules.jvp_rules[checkpoint_p] = _ckpt_jvp
rules.batch_rules[checkpoint_p] = _ckpt_batch
rules.transpose_rules[checkpoint_p] = _ckpt_transpose
rules.partial_eval_rules[checkpoint_p] = _ckpt_partial_eval
rules.dce_rules[checkpoint_p] = _dce.dce_call_rule
rules.remat_replay_rules[checkpoint_p] = "call"


rules.lower_rules[checkpoint_p] = codegen.lower_as_call
rules.native_inline[checkpoint_p] = "jaxpr"

__all__ = [
    "checkpoint",
    "remat",
    "checkpoint_name",
    "checkpoint_policies",
    "checkpoint_p",
    "name_p",
    "remat_split",
]
