"""``custom_jvp`` and ``custom_vjp``.

Calling a custom function asks the current trace to process the call
(``Trace.process_custom_call``), which looks up this primitive's rule for the trace's kind
in ``rules.custom_call_rules`` (registered below, so the interpreters hold no
custom-derivative code):

* the ``EvalTrace`` just runs the function;
* a ``JVPTrace`` runs the user's rule instead (``_cj_call_jvp``); for ``custom_vjp`` it
  runs ``fwd`` and emits a ``custom_lin`` primitive, linear in the tangents, whose transpose
  rule calls ``bwd`` (so reverse mode uses ``bwd``, forward mode raises);
* staging, batching and partial evaluation (with an unknown operand) trace the function to
  a jaxpr and bind ``custom_jvp_call_p`` / ``custom_vjp_call_p``, which keep the rules as
  params, so a later transformation of the jaxpr still uses them.

The flat calling conventions used between these pieces:

* ``fun(*xs) -> outs`` (flat lists);
* custom_jvp rule: ``jvp(primals, tangents) -> (primals_out, tangents_out)``; tangents may
  be ``Zero`` (materialised before reaching the user unless ``symbolic_zeros``);
* custom_vjp: ``fwd(*xs) -> (outs, residuals, res_tree)`` and
  ``bwd(res_tree, residuals, cts_out) -> cts_in`` (one per input; ``Zero`` allowed).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence

from jaxlite._src import custom_refs, dtypes, tree_util
from jaxlite._src.api_plumbing import flatten_fun, merge_static_args, split_static_args
from jaxlite._src.compile import codegen
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.errors import CustomVJPException, UnexpectedTracerError
from jaxlite._src.core.ir import closure_convert_consts, jaxpr_forwarding, subjaxprs
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal
from jaxlite._src.core.trace import Tracer, eval_trace, set_current_trace, trace_ctx
from jaxlite._src.custom_args import resolve_args as _resolve_args
from jaxlite._src.custom_staged import DeadCodeFreeRule, applying_trace_kind, run_staged_rule
from jaxlite._src.custom_trees import (
    CustomVJPPrimal,
    SymbolicZero,
    bwd_cotangent_leaves,
    check_nondiff_not_traced,
    is_host_residual,
    zero_from_primal,
)
from jaxlite._src.custom_vmap import custom_jvp_call_batch, custom_vjp_call_batch
from jaxlite._src.interpreters.dce import dce_closed_jaxpr
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.interpreters.transpose import backward_pass
from jaxlite._src.ops.conversion import convert_element_type
from jaxlite._src.ops.structural import stop_gradient_p, zeros


# ------------------------------------------------------------------------ helpers
def _name(f) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _ty(aval) -> str:
    return f"{aval.dtype.name}[{','.join(map(str, aval.shape))}]{aval.vma_str()}"


def _zeros(aval):
    return zeros(aval)


def _trace_closed(trace, fun, tracers):
    """Trace ``fun`` at the avals of ``tracers`` with ``trace`` current; returns the closed
    jaxpr with no consts and the consts (values of ``trace``) to pass as leading operands."""

    with set_current_trace(trace):
        closed, _ = trace_to_jaxpr(fun, [aval_of(t) for t in tracers])
    return closure_convert_consts(closed)


def _to_arrays(leaves):
    return [to_array(x) for x in leaves]


# ===================================================================== custom_jvp
custom_jvp_call_p = Primitive("custom_jvp_call", multiple_results=True)


def _plain_eager_call(args) -> bool:
    """No transformation is active and no argument is a tracer."""
    if trace_ctx.trace is not eval_trace:
        return False
    return not any(isinstance(x, Tracer) for x in tree_util.tree_leaves(args))


class custom_jvp:
    """``jax.custom_jvp``: a function with a user-defined JVP rule."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None
        self.symbolic_zeros = False

    def defjvp(self, jvp: Callable, symbolic_zeros: bool = False) -> Callable:
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *jvps: Callable | None) -> None:
        if self.nondiff_argnums:
            raise TypeError("Can't use ``defjvps`` with ``nondiff_argnums``.")

        def jvp(primals, tangents):
            ans = self(*primals)
            out = None
            for fn, t in zip(jvps, tangents):
                if fn is None or isinstance(t, SymbolicZero):
                    continue
                contrib = fn(t, ans, *primals)
                out = (
                    contrib if out is None else tree_util.tree_map(lambda a, b: a + b, out, contrib)
                )
            if out is None:
                out = tree_util.tree_map(lambda a: SymbolicZero(aval_of(a).to_tangent_aval()), ans)
            return ans, out

        self.defjvp(jvp, symbolic_zeros=True)

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(
                f"No JVP defined for custom_jvp function {getattr(self.fun, '__name__', '')} "
                "using defjvp."
            )
        args = _resolve_args(self.fun, args, kwargs, "custom_jvp")
        if _plain_eager_call(args):
            # As in JAX: outside every transformation the function simply runs on the
            # values it was given (Python scalars in, a Python float out for ``x ** 2``).
            return self.fun(*args)
        n = len(args)
        nondiff, dyn = split_static_args(args, self.nondiff_argnums)
        # As JAX: a tracer among the nondiff arguments is passed through stop_gradient (a
        # differentiated one reaches fun and the rule as its primal; its derivative is 0).
        nondiff = {i: tree_util.tree_map(_stop_tracer, v) for i, v in nondiff.items()}
        flat, in_tree = tree_util.tree_flatten(dyn)
        flat = [to_array(x) for x in flat]
        store: dict = {}
        fun, user_jvp, sz = self.fun, self.jvp, self.symbolic_zeros

        flat_fun, _ = flatten_fun(
            lambda *dyn: fun(*merge_static_args(nondiff, dyn, n)),
            in_tree,
            out_leaves=_to_arrays,
            tree_name="custom_jvp function",
            store=store,
        )

        def flat_jvp(primals, tangents):
            p_args = tree_util.tree_unflatten(in_tree, primals)
            ts = []
            for t in tangents:
                if type(t) is Zero:
                    ts.append(SymbolicZero(t.aval) if sz else _zeros(t.aval))
                else:
                    ts.append(t)
            t_args = tree_util.tree_unflatten(in_tree, ts)
            nd = [nondiff[i] for i in sorted(nondiff)]
            res = user_jvp(*nd, tuple(p_args), tuple(t_args))
            if not (isinstance(res, (tuple, list)) and len(res) == 2):
                raise TypeError(
                    f"Custom JVP rule {_name(user_jvp)} for function {_name(fun)} must "
                    "produce a pair (list or tuple of length two) "
                    f"representing primal and tangent outputs, but got {res}."
                )
            p_out, t_out = res
            p_flat, p_tree = tree_util.tree_flatten(p_out)
            # As JAX: a None in either output is an empty subtree, not a leaf (equinox
            # returns primal trees with None holes and the tangents of the leaves).
            t_flat, t_tree = tree_util.tree_flatten(
                t_out, is_leaf=lambda x: isinstance(x, SymbolicZero)
            )
            if p_tree != t_tree:
                raise TypeError(
                    f"Custom JVP rule {_name(user_jvp)} for function {_name(fun)} must "
                    "produce primal and tangent outputs with equal "
                    "container (pytree) structures, but got "
                    f"{tree_util.treedef_repr(p_tree)} and {tree_util.treedef_repr(t_tree)} "
                    "respectively."
                )
            prev = store.get("tree")
            if prev is not None and prev != p_tree:
                raise TypeError(
                    "Custom JVP rule must produce a primal output with the same container "
                    "(pytree) structure as the primal function's output, but got "
                    f"{p_tree} for the rule and {prev} for the primal function."
                )
            store.setdefault("tree", p_tree)
            p_flat = [to_array(p) for p in p_flat]
            t_res = []
            for p, t in zip(p_flat, t_flat):
                pa = aval_of(p)
                expected = pa.to_tangent_aval()
                if isinstance(t, SymbolicZero) or expected.dtype == dtypes.float0:
                    t_res.append(Zero(expected))
                    continue
                t = to_array(t)
                ta = aval_of(t)
                # (inside a shard_map body with check_vma, the varying axes too: S9.6)
                if ta.shape != pa.shape or ta.dtype != expected.dtype or ta.vma != expected.vma:
                    raise TypeError(
                        "Custom JVP rule must produce primal and tangent outputs with "
                        "corresponding shapes and dtypes. Expected "
                        f"{_ty(expected)} (tangent type of "
                        f"{_ty(pa)}) but got {_ty(ta)}."
                    )
                t_res.append(t)
            return p_flat, t_res

        outs = trace_ctx.trace.process_custom_call(
            custom_jvp_call_p, flat, dict(fun=flat_fun, jvp=flat_jvp, symbolic_zeros=sz)
        )
        return tree_util.tree_unflatten(store["tree"], outs)


def _stop_tracer(x):
    return stop_gradient_p.bind(x) if isinstance(x, Tracer) else x


# --- how each kind of trace processes the not-yet-traced call (rules.custom_call_rules) --
def _cj_call_eval(trace, tracers, *, fun, jvp, symbolic_zeros):
    """Outside differentiation the rule is ignored: run ``fun``."""
    with set_current_trace(trace):
        return fun(*tracers)


def _cj_call_jvp(trace, tracers, *, fun, jvp, symbolic_zeros):
    """Under JVP: run the user's rule on the parent trace."""
    pairs = [trace.to_primal_tangent(t) for t in tracers]
    primals = [p for p, _ in pairs]
    tangents = [t for _, t in pairs]
    if all(type(t) is Zero for t in tangents):
        with set_current_trace(trace.parent_trace):
            return trace.parent_trace.process_custom_call(
                custom_jvp_call_p, primals, dict(fun=fun, jvp=jvp, symbolic_zeros=symbolic_zeros)
            )
    with set_current_trace(trace.parent_trace):
        p_out, t_out = jvp(primals, tangents)
    return [trace.wrap(p, t) for p, t in zip(p_out, t_out)]


def _cj_call_bind(trace, tracers, *, fun, jvp, symbolic_zeros):
    """Staging and batching: stage ``fun`` to a jaxpr and bind ``custom_jvp_call_p`` (whose
    jvp/batch rules then apply)."""
    closed, consts = custom_refs.trace_closed(trace, fun, tracers, "custom_jvp")
    return custom_jvp_call_p.bind_with_trace(
        trace,
        list(consts) + list(tracers),
        dict(call_jaxpr=closed, jvp=jvp, num_consts=len(consts), symbolic_zeros=symbolic_zeros),
    )


def _cj_call_partial_eval(trace, tracers, **params):
    """All inputs known: the parent trace processes the call. Else, as in JAX, ``fun`` is
    inlined: partial evaluation with unknowns only builds linear functions (linearize, vjp),
    where the rule is no longer needed, and a staged call would have no transpose (a jvp
    rule calling the custom function on its tangents, as optimistix's ``asarray`` does)."""
    if not any(trace.is_unknown(a) for a in tracers):
        return trace.parent_trace.process_custom_call(custom_jvp_call_p, tracers, params)
    with set_current_trace(trace):
        return params["fun"](*tracers)


def _eval_call(call_jaxpr, args):
    """A custom function's call evaluated eagerly, one operation at a time, as JAX does (an
    unused pure_callback in it still runs, D3)."""
    with set_current_trace(eval_trace):
        return eval_jaxpr(call_jaxpr.jaxpr, call_jaxpr.consts, *args)


# Compiled code calls the custom function's jaxpr as compiled code (simplified, so an unused
# pure_callback in it is removed, D1, and nested callbacks behave as under jit); only an
# eager call (the impl) evaluates it one operation at a time.
_call_lower = functools.partial(codegen.lower_as_call, param="call_jaxpr")


def _call_forwarding(params):
    return jaxpr_forwarding(params["call_jaxpr"].jaxpr)


def _cj_impl(*args, call_jaxpr, jvp, num_consts, symbolic_zeros):
    return _eval_call(call_jaxpr, args)


def _cj_abstract_eval(*avals, call_jaxpr, jvp, num_consts, symbolic_zeros):
    return call_jaxpr.out_avals


def _cj_effects(*avals, call_jaxpr, jvp, num_consts, symbolic_zeros):
    return call_jaxpr.effects


def _closed_over_error(kind):
    return TypeError(
        f"Detected differentiation of a {kind} function with respect to a closed-over "
        f"value. That isn't supported because the custom {kind[7:].upper()} rule only "
        f"specifies how to differentiate the {kind} function with respect to explicit "
        "input parameters. Try passing the closed-over value into the custom_"
        f"{kind[7:]} function as an argument, and adapting the {kind} rule."
    )


def _cj_jvp(primals, tangents, *, call_jaxpr, jvp, num_consts, symbolic_zeros):
    if any(type(t) is not Zero for t in tangents[:num_consts]):
        raise _closed_over_error("custom_jvp")
    n = len(primals) - num_consts

    def rule(*xs):
        p_out, t_out = jvp(list(xs[:n]), list(xs[n:]))
        return [*p_out, *t_out]

    outs = run_staged_rule(rule, [*primals[num_consts:], *tangents[num_consts:]])
    m = len(outs) // 2
    return outs[:m], outs[m:]


def _cj_transpose(cts, *args, call_jaxpr, jvp, num_consts, symbolic_zeros):
    """A staged call left in a linear function (a tangent computation staged by jit before
    partial evaluation): transpose its body, as the inlined call would be."""
    return backward_pass(call_jaxpr.jaxpr, call_jaxpr.consts, list(args), list(cts))


def _call_dce(used_outputs, eqn):
    jaxpr = eqn.params["call_jaxpr"]
    if not any(used_outputs) and not jaxpr.effects:
        return [False] * len(eqn.invars), None
    return [True] * len(eqn.invars), eqn


def _cj_dce(used_outputs, eqn):
    """As JAX's: the body keeps every input (the rule may use one the body does not) and
    only the used outputs; the rule, when the call is differentiated, keeps only those
    outputs and their tangents, with its dead code removed (``DeadCodeFreeRule``)."""
    call = eqn.params["call_jaxpr"]
    if not any(used_outputs) and not call.effects:
        return [False] * len(eqn.invars), None
    jvp = eqn.params["jvp"]
    if all(used_outputs) and isinstance(jvp, DeadCodeFreeRule):
        return [True] * len(eqn.invars), eqn
    new_call, _ = dce_closed_jaxpr(call, used_outputs)
    params = dict(eqn.params, call_jaxpr=new_call, jvp=DeadCodeFreeRule(jvp, used_outputs))
    outvars = [v for v, u in zip(eqn.outvars, used_outputs) if u]
    return [True] * len(eqn.invars), eqn.replace(outvars=outvars, params=params)


rules.impl_rules[custom_jvp_call_p] = _cj_impl
rules.forwarding_rules[custom_jvp_call_p] = _call_forwarding
rules.abstract_eval_rules[custom_jvp_call_p] = _cj_abstract_eval
rules.vma_rules[custom_jvp_call_p] = rules.keep_vma
rules.effects_rules[custom_jvp_call_p] = _cj_effects
rules.jvp_rules[custom_jvp_call_p] = _cj_jvp
rules.batch_rules[custom_jvp_call_p] = functools.partial(custom_jvp_call_batch, custom_jvp_call_p)
rules.dce_rules[custom_jvp_call_p] = _cj_dce
rules.transpose_rules[custom_jvp_call_p] = _cj_transpose
rules.lower_rules[custom_jvp_call_p] = _call_lower
rules.native_inline[custom_jvp_call_p] = "call_jaxpr"
rules.remat_runs_once.add(custom_jvp_call_p)
rules.custom_call_rules[custom_jvp_call_p] = {
    "eval": _cj_call_eval,
    "jvp": _cj_call_jvp,
    "batch": _cj_call_bind,
    "staging": _cj_call_bind,
    "partial_eval": _cj_call_partial_eval,
}


# ===================================================================== custom_vjp
custom_vjp_call_p = Primitive("custom_vjp_call", multiple_results=True)
custom_lin_p = Primitive("custom_lin", multiple_results=True)

_JVP_OF_VJP_MSG = "can't apply forward-mode autodiff (jvp) to a custom_vjp function."


class custom_vjp:
    """``jax.custom_vjp``: a function with a user-defined VJP (fwd and bwd rules)."""

    def __init__(self, fun: Callable, nondiff_argnums: Sequence[int] = ()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = None
        self.bwd = None
        self.symbolic_zeros = False

    def defvjp(
        self,
        fwd: Callable,
        bwd: Callable,
        symbolic_zeros: bool = False,
        optimize_remat: bool = False,
    ) -> None:
        self.fwd = fwd
        self.bwd = bwd
        self.symbolic_zeros = symbolic_zeros

    def __call__(self, *args, **kwargs):
        if self.fwd is None:
            raise AttributeError(
                f"No VJP defined for custom_vjp function {getattr(self.fun, '__name__', '')} "
                "using defvjp."
            )
        args = _resolve_args(self.fun, args, kwargs, "custom_vjp")
        for i in self.nondiff_argnums:
            check_nondiff_not_traced(args[i])
        if _plain_eager_call(args):
            # As in JAX: outside every transformation the function simply runs on the
            # values it was given (Python scalars in, a Python float out for ``x ** 2``).
            return self.fun(*args)
        n = len(args)
        nondiff, dyn = split_static_args(args, self.nondiff_argnums)
        flat, in_tree = tree_util.tree_flatten(dyn)
        flat = [to_array(x) for x in flat]
        in_avals = [aval_of(x) for x in flat]
        store: dict = {}
        fun, user_fwd, user_bwd, sz = self.fun, self.fwd, self.bwd, self.symbolic_zeros
        nd = [nondiff[i] for i in sorted(nondiff)]

        flat_fun, _ = flatten_fun(
            lambda *dyn: fun(*merge_static_args(nondiff, dyn, n)),
            in_tree,
            out_leaves=_to_arrays,
            store=store,
        )

        def flat_fwd(*xs, perturbed=None):
            if sz:
                pert = perturbed if perturbed is not None else [True] * len(xs)
                xs_in = [CustomVJPPrimal(x, p) for x, p in zip(xs, pert)]
            else:
                xs_in = list(xs)
            res = user_fwd(*merge_static_args(nondiff, tree_util.tree_unflatten(in_tree, xs_in), n))
            if not (isinstance(res, (tuple, list)) and len(res) == 2):
                raise TypeError(
                    f"Custom VJP fwd rule {_name(user_fwd)} for function {_name(fun)} must "
                    "produce a pair (list or tuple of length two) where the first element "
                    "represents the primal output (equal to those of the custom_vjp-decorated "
                    f"function {_name(fun)}) and the second element represents residuals "
                    "(i.e. values stored from the forward pass for use on the backward pass), "
                    f"but instead of a pair the fwd rule {_name(user_fwd)} produced {res}."
                )
            out, resid = res
            out_flat, out_tree = tree_util.tree_flatten(out)
            prev = store.get("tree")
            if prev is not None and prev != out_tree:
                raise TypeError(
                    "Custom VJP fwd rule must produce a pair (list or tuple of length two) "
                    "where the first element represents the primal output (equal to the "
                    "output of the custom_vjp-decorated function), but the primal output "
                    f"structure {out_tree} differs from the function's {prev}."
                )
            store["tree"] = out_tree
            res_flat, res_tree = tree_util.tree_flatten(resid)
            # As JAX: residuals that are not JAX values (Python bools and numbers, NumPy
            # arrays) reach ``bwd`` as they were given (equinox returns its Python-bool
            # ``perturbed`` flags this way and tests them with ``is False``).
            static = tuple((i, r) for i, r in enumerate(res_flat) if is_host_residual(r))
            return (
                [to_array(o) for o in out_flat],
                [to_array(r) for i, r in enumerate(res_flat) if not is_host_residual(r)],
                (res_tree, static),
            )

        def flat_bwd(res_info, res_flat, cts_flat):
            out_tree = store["tree"]
            res_tree, static = res_info
            res_all = list(res_flat)
            for i, r in static:
                res_all.insert(i, r)
            resid = tree_util.tree_unflatten(res_tree, res_all)
            cts = []
            for c in cts_flat:
                if type(c) is Zero:
                    cts.append(SymbolicZero(c.aval) if sz else _zeros(c.aval))
                else:
                    cts.append(c)
            ct = tree_util.tree_unflatten(out_tree, cts)
            got = user_bwd(*nd, resid, ct)
            if not isinstance(got, (tuple, list)) or len(got) != len(dyn):
                got_tree = tree_util.tree_structure(got, is_leaf=lambda x: x is None)
                raise TypeError(
                    "Custom VJP bwd rule must produce an output with the same container "
                    "(pytree) structure as the args tuple of the primal function, and in "
                    "particular must produce a tuple of length equal to the number of "
                    "arguments to the primal function, but got bwd output structure "
                    f"{tree_util.treedef_repr(got_tree)} for primal input structure "
                    f"{tree_util.treedef_repr(tree_util.tree_structure(dyn))}."
                )
            out = []
            arg_trees = [tree_util.tree_structure(a) for a in dyn]
            it_avals = iter(in_avals)
            for k, (g, tree) in enumerate(zip(got, arg_trees)):
                nleaves = tree.num_leaves
                avals = [next(it_avals) for _ in range(nleaves)]
                if g is None:
                    out.extend(Zero(a.to_tangent_aval()) for a in avals)
                    continue
                g_flat = bwd_cotangent_leaves(g, tree, whole=(got, dyn))
                for x, a in zip(g_flat, avals):
                    ta = a.to_tangent_aval()
                    if x is None or isinstance(x, SymbolicZero) or ta.dtype == dtypes.float0:
                        out.append(Zero(ta))
                        continue
                    x = to_array(x)
                    xa = aval_of(x)
                    # Inside shard_map the varying manual axes are part of the type: a
                    # cotangent varying along an axis its (invariant) input does not is
                    # an error, as in JAX (summing it is the rule's job).
                    bad_vma = bool(xa.vma - a.vma)
                    if xa.shape != a.shape or bad_vma:
                        what = [
                            *(["the shapes do not match"] if xa.shape != a.shape else []),
                            *(["the manual axis types do not match"] if bad_vma else []),
                        ]
                        raise ValueError(
                            "Custom VJP bwd rule must produce an output with the same type "
                            "as the args tuple of the primal function, but at "
                            f"output[{k}] the bwd rule produced an output of type {_ty(xa)} "
                            f"corresponding to an input of type {_ty(a)}, so " + ", and ".join(what)
                        )
                    if xa.dtype != ta.dtype:
                        x = convert_element_type(x, ta.dtype)
                    out.append(x)
            return out

        outs = trace_ctx.trace.process_custom_call(
            custom_vjp_call_p,
            flat,
            dict(fun=flat_fun, fwd=flat_fwd, bwd=flat_bwd, symbolic_zeros=sz),
        )
        return tree_util.tree_unflatten(store["tree"], outs)


def _jvp_via_fwd(fwd, bwd, primals, tangents, symbolic_zeros):
    """Run ``fwd`` on the current trace and return (primals_out, tangents_out) where the
    tangents come from ``custom_lin_p`` (transposed by ``bwd``)."""
    perturbed = [type(t) is not Zero for t in tangents]
    if symbolic_zeros:
        outs, res, res_tree = fwd(*primals, perturbed=perturbed)
    else:
        outs, res, res_tree = fwd(*primals)
    lin_mask = tuple(aval_of(p).to_tangent_aval().dtype != dtypes.float0 for p in primals)
    ts = [
        (_zeros(aval_of(p).to_tangent_aval()) if type(t) is Zero else t)
        for p, t, m in zip(primals, tangents, lin_mask)
        if m
    ]
    out_avals = tuple(aval_of(o).to_tangent_aval() for o in outs)
    in_avals = tuple(aval_of(p).to_tangent_aval() for p in primals)
    t_out = custom_lin_p.bind(
        *res,
        *ts,
        num_res=len(res),
        bwd=functools.partial(bwd, res_tree),
        out_avals=out_avals,
        in_avals=in_avals,
        lin_mask=lin_mask,
    )
    t_out = [Zero(a) if a.dtype == dtypes.float0 else t for t, a in zip(t_out, out_avals)]
    return outs, t_out


def _stop_tracer(x):
    return stop_gradient_p.bind(x) if isinstance(x, Tracer) else x


# --- how each kind of trace processes the not-yet-traced call (rules.custom_call_rules) --
def _cv_call_eval(trace, tracers, *, fun, fwd, bwd, symbolic_zeros):
    with set_current_trace(trace):
        return fun(*tracers)


def _cv_call_jvp(trace, tracers, *, fun, fwd, bwd, symbolic_zeros):
    """Under JVP: run fwd and emit ``custom_lin`` (transposed by bwd)."""
    pairs = [trace.to_primal_tangent(t) for t in tracers]
    primals = [p for p, _ in pairs]
    tangents = [t for _, t in pairs]
    parent = trace.parent_trace
    if all(type(t) is Zero for t in tangents):
        with set_current_trace(parent):
            return parent.process_custom_call(
                custom_vjp_call_p,
                primals,
                dict(fun=fun, fwd=fwd, bwd=bwd, symbolic_zeros=symbolic_zeros),
            )
    with set_current_trace(parent):
        p_out, t_out = _jvp_via_fwd(fwd, bwd, primals, tangents, symbolic_zeros)
    return [trace.wrap(p, t) for p, t in zip(p_out, t_out)]


def _cv_call_partial_eval(trace, tracers, **params):
    if not any(trace.is_unknown(a) for a in tracers):
        return trace.parent_trace.process_custom_call(custom_vjp_call_p, tracers, params)
    return _cv_call_bind(trace, tracers, **params)


def _cv_call_bind(trace, tracers, *, fun, fwd, bwd, symbolic_zeros):
    closed, consts = custom_refs.trace_closed(trace, fun, tracers, "custom_vjp")
    return custom_vjp_call_p.bind_with_trace(
        trace,
        list(consts) + list(tracers),
        dict(
            call_jaxpr=closed,
            fwd=fwd,
            bwd=bwd,
            num_consts=len(consts),
            symbolic_zeros=symbolic_zeros,
        ),
    )


def _cv_impl(*args, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros):
    return _eval_call(call_jaxpr, args)


def _cv_abstract_eval(*avals, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros):
    return call_jaxpr.out_avals


def _cv_effects(*avals, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros):
    return call_jaxpr.effects


def _cv_jvp(primals, tangents, *, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros):
    if any(type(t) is not Zero for t in tangents[:num_consts]):
        raise CustomVJPException()
    n = len(primals) - num_consts

    def rule(*xs):
        p_out, t_out = _jvp_via_fwd(fwd, bwd, list(xs[:n]), list(xs[n:]), symbolic_zeros)
        return [*p_out, *t_out]

    try:
        outs = run_staged_rule(rule, [*primals[num_consts:], *tangents[num_consts:]])
    except UnexpectedTracerError:
        # ``fwd`` uses a tracer of a finished trace (a loop carry, a jit argument). Outside
        # reverse mode the tangent map ``custom_lin`` could only be differentiated, batched
        # or evaluated forward, which JAX refuses first: its error, not the leak's.
        kind = applying_trace_kind()
        if kind == "jvp":
            raise rules.missing_rule("jvp", custom_lin_p) from None
        if kind != "partial_eval":
            raise TypeError(_JVP_OF_VJP_MSG) from None
        raise
    m = len(outs) // 2
    return outs[:m], outs[m:]


rules.impl_rules[custom_vjp_call_p] = _cv_impl
rules.forwarding_rules[custom_vjp_call_p] = _call_forwarding
rules.abstract_eval_rules[custom_vjp_call_p] = _cv_abstract_eval
rules.vma_rules[custom_vjp_call_p] = rules.keep_vma
rules.effects_rules[custom_vjp_call_p] = _cv_effects
rules.jvp_rules[custom_vjp_call_p] = _cv_jvp
rules.batch_rules[custom_vjp_call_p] = functools.partial(custom_vjp_call_batch, custom_vjp_call_p)
rules.dce_rules[custom_vjp_call_p] = _call_dce
rules.lower_rules[custom_vjp_call_p] = _call_lower
rules.native_inline[custom_vjp_call_p] = "call_jaxpr"
rules.custom_call_rules[custom_vjp_call_p] = {
    "eval": _cv_call_eval,
    "jvp": _cv_call_jvp,
    "batch": _cv_call_bind,
    "staging": _cv_call_bind,
    "partial_eval": _cv_call_partial_eval,
}


# --- custom_lin: the tangent map of a custom_vjp function; linear in its tangent operands.
def _lin_impl(*args, num_res, bwd, out_avals, in_avals, lin_mask):
    raise TypeError(_JVP_OF_VJP_MSG)


def _lin_lower(ctx, eqn, ins, outs):
    # JAX refuses forward mode of a custom_vjp function when it compiles the tangent map,
    # so a jitted jaxpr (a loop body, an untaken branch included) raises here too.
    raise TypeError(_JVP_OF_VJP_MSG)


def check_no_forward_custom_vjp(closed_jaxprs) -> None:
    """Raise JAX's jvp-of-custom_vjp TypeError if any of ``closed_jaxprs`` (or a jaxpr
    nested in them) evaluates a custom_vjp function's tangent map forward. JAX compiles
    every branch of a ``cond``, so it raises even when the branch is not taken."""
    todo = [c.jaxpr for c in closed_jaxprs]
    while todo:
        j = todo.pop()
        if any(e.primitive is custom_lin_p for e in j.eqns):
            raise TypeError(_JVP_OF_VJP_MSG)
        todo.extend(subjaxprs(j))


def _lin_abstract_eval(*avals, num_res, bwd, out_avals, in_avals, lin_mask):
    return list(out_avals)


def _lin_jvp(primals, tangents, **params):
    # Differentiating the tangent map itself (grad or jvp of a jvp of a custom_vjp
    # function): JAX has no rule for it.
    raise rules.missing_rule("jvp", custom_lin_p)


def _lin_partial_eval_known(parent_trace, args, *, num_res, bwd, out_avals, in_avals, lin_mask):
    # Linearizing with tangent operands independent of the linear inputs (a custom_jvp
    # rule's ``zeros_like`` feeding the custom_vjp function, also in loop or branch bodies):
    # a linear map of nothing is zero, as in JAX; binding it would run the map forward.
    with set_current_trace(parent_trace):
        return [_zeros(a) for a in out_avals]


def _lin_transpose(cts, *args, num_res, bwd, out_avals, in_avals, lin_mask):
    res = list(args[:num_res])
    for r in res:
        if is_undefined_primal(r):  # pragma: no cover
            raise ValueError("custom_lin: residuals must not be linear")
    cts_out = list(cts)
    cts_in = bwd(res, cts_out)
    if len(cts_in) != len(in_avals):  # pragma: no cover (bwd checks this)
        raise TypeError("custom_vjp bwd returned the wrong number of cotangents")
    lin_cts = [c for c, m in zip(cts_in, lin_mask) if m]
    return [None] * num_res + lin_cts


def _lin_batch(axis_data, args, dims, *, num_res, bwd, out_avals, in_avals, lin_mask):
    # Batching the linearized call means evaluating it forward (vmap of jvp, jacfwd): JAX
    # refuses forward mode of a custom_vjp function with this TypeError.
    raise TypeError(_JVP_OF_VJP_MSG)


rules.impl_rules[custom_lin_p] = _lin_impl
rules.abstract_eval_rules[custom_lin_p] = _lin_abstract_eval
rules.vma_rules[custom_lin_p] = rules.keep_vma
rules.jvp_rules[custom_lin_p] = _lin_jvp
rules.transpose_rules[custom_lin_p] = _lin_transpose
rules.partial_eval_known_rules[custom_lin_p] = _lin_partial_eval_known
rules.transpose_at_zero.add(custom_lin_p)
rules.batch_rules[custom_lin_p] = _lin_batch
rules.lower_rules[custom_lin_p] = _lin_lower


__all__ = [
    "custom_jvp",
    "custom_vjp",
    "SymbolicZero",
    "CustomVJPPrimal",
    "custom_jvp_call_p",
    "custom_vjp_call_p",
    "custom_lin_p",
]
