"""``jax.custom_batching``: ``custom_vmap`` and ``sequential_vmap``.

A ``custom_vmap`` function is a function with a user-defined batching rule. Calling it
asks the current trace to process the call (``Trace.process_custom_call``), which looks up
``custom_vmap_call_p``'s rule for the trace's kind in ``rules.custom_call_rules``:

* the ``EvalTrace`` runs the function on arrays;
* every other trace stages the function to a closed jaxpr and binds ``custom_vmap_call_p``
  with the jaxpr and the flat rule as params, so the primitive's ordinary rules (below, one
  block) apply: its batching rule calls the user's rule; its JVP rule binds the primitive
  again over the JVP of the jaxpr, with the JVP of the user's rule as the new rule (so a
  JVP of a custom_vmap function is still custom-batched); its partial-evaluation rule
  refuses unknown operands, as JAX does, so reverse mode raises (JAX: "Linearization
  failed to produce known values for all output primals").

Flat conventions: ``rule(axis_size, in_batched, *args) -> (outs, out_batched)`` with flat
lists of the non-const operands (batched ones with their batch axis at 0) and one bool per
operand / output. The leading ``num_consts`` operands are values the function closed over;
they must be unbatched (a clear error otherwise; JAX fails with an internal assertion).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from jaxlite._src import dtypes, tree_util
from jaxlite._src.api_plumbing import check_callable, flatten_fun
from jaxlite._src.compile.jit import compiled_for
from jaxlite._src.control_flow.scan import map as _lax_map
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import AxisData, Zero, not_mapped
from jaxlite._src.core.trace import set_current_trace, trace_ctx
from jaxlite._src.custom_derivatives import _call_dce, _name, _resolve_args, _trace_closed
from jaxlite._src.interpreters.batching import batch_flat, move_dim
from jaxlite._src.interpreters.jvp import jvp_flat, jvp_jaxpr
from jaxlite._src.ops.structural import instantiate

custom_vmap_call_p = Primitive("custom_vmap_call", multiple_results=True)

_LINEARIZE_MSG = (
    "Linearization failed to produce known values for all output primals. This is "
    "typically caused by attempting to differentiate a function uses an operation that "
    "does not support reverse-mode autodiff. (Here: a jax.custom_batching.custom_vmap "
    "function{name}; those support forward mode -- jax.jvp, jax.jacfwd -- only.)"
)


class custom_vmap:
    """``jax.custom_batching.custom_vmap``: a function with a user-defined vmap rule.

    Outside ``vmap`` the wrapped function runs as it is (under ``jit``, ``jvp`` and every
    other transformation too). Under ``jax.vmap`` the rule set with ``def_vmap`` runs
    instead, once per ``vmap`` level, as
    ``rule(axis_size, in_batched, *args) -> (out, out_batched)``: ``in_batched`` is a list
    with, per positional argument, a pytree of bools saying which leaves are batched
    (batched leaves have their batch axis first); ``out_batched`` is a pytree of bools with
    exactly the structure of ``out``. Forward-mode differentiation works (the JVP of the
    rule batches the JVP); reverse mode raises ``ValueError``, as in JAX.

    Args:
        fun: the function to customize.

    Example:
        >>> f = custom_vmap(lambda x: x + 1.0)
        >>> @f.def_vmap
        ... def rule(axis_size, in_batched, x):
        ...     return x + 1.0, in_batched[0]
    """

    def __init__(self, fun: Callable[..., Any]):
        check_callable(fun)
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule: Callable | None = None

    def def_vmap(self, vmap_rule: Callable[..., tuple[Any, Any]]) -> Callable[..., tuple[Any, Any]]:
        """Define the vmap rule (``jax.custom_batching.custom_vmap.def_vmap``).

        Args:
            vmap_rule: ``rule(axis_size, in_batched, *args) -> (out, out_batched)``.

        Returns:
            ``vmap_rule`` unchanged (so it can be used as a decorator).
        """
        check_callable(vmap_rule)
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        return functools.partial(self, obj)

    def __call__(self, *args, **kwargs):
        fun_name = _name(self.fun)
        if self.vmap_rule is None:
            raise AttributeError(
                f"No batching rule defined for custom_vmap function {fun_name} using def_vmap."
            )
        args = _resolve_args(self.fun, args, kwargs, "custom_vmap")
        args = _with_defaults(self.fun, args)
        flat, in_tree = tree_util.tree_flatten(args)
        flat = [to_array(x) for x in flat]
        store: dict = {}
        flat_fun, _ = flatten_fun(
            self.fun,
            in_tree,
            out_leaves=lambda leaves: [to_array(x) for x in leaves],
            tree_name="custom_vmap function",
            store=store,
        )
        flat_rule = _flatten_rule(self.vmap_rule, in_tree, store, fun_name)
        outs = trace_ctx.trace.process_custom_call(
            custom_vmap_call_p, flat, dict(fun=flat_fun, rule=flat_rule, name=fun_name)
        )
        return tree_util.tree_unflatten(store["tree"], outs)


def _with_defaults(fun, args):
    """Positional ``args`` completed with ``fun``'s defaults (JAX batches those too)."""
    try:
        ba = inspect.signature(fun).bind(*args)
    except (TypeError, ValueError):
        return args
    ba.apply_defaults()
    return tuple(ba.args) if not ba.kwargs else args


def _flatten_rule(user_rule, in_tree, store, fun_name):
    """The user's pytree rule as a flat rule (see the module docstring)."""
    rule_name = _name(user_rule)

    def flat_rule(axis_size, in_batched, *flat_args):
        args = tree_util.tree_unflatten(in_tree, flat_args)
        batched = list(tree_util.tree_unflatten(in_tree, list(in_batched)))
        res = user_rule(axis_size, batched, *args)
        if not (isinstance(res, (tuple, list)) and len(res) == 2):
            raise ValueError(
                f"The custom vmap rule {rule_name} of custom_vmap function {fun_name} must "
                "return a pair (out, out_batched): the batched output and a pytree of bools "
                f"with the output's structure saying which outputs are batched; got {res!r}."
            )
        out, out_batched = res
        out_flat, out_tree = tree_util.tree_flatten(out)
        b_flat, b_tree = tree_util.tree_flatten(out_batched)
        if out_tree != b_tree:
            raise ValueError(
                "structure of output value and output batching specification returned by "
                f"custom vmap rule ({rule_name}) do not match.\nOutput values: {out_tree}\n"
                f"Batching spec: {b_tree}"
            )
        if store.get("tree") is not None and out_tree != store["tree"]:
            raise ValueError(
                f"structure of output returned by custom vmap rule ({rule_name}) does not "
                "match that of original custom-vmapped function.\nOriginal output: "
                f"{store['tree']}\nRule output: {out_tree}"
            )
        return [to_array(o) for o in out_flat], [bool(b) for b in b_flat]

    return flat_rule


# --- how each kind of trace processes the not-yet-traced call (rules.custom_call_rules) --
def _cvmap_call_eval(trace, tracers, *, fun, rule, name):
    with set_current_trace(trace):
        return fun(*tracers)


def _cvmap_call_bind(trace, tracers, *, fun, rule, name):
    closed, consts = _trace_closed(trace, fun, tracers)
    return custom_vmap_call_p.bind_with_trace(
        trace,
        list(consts) + list(tracers),
        dict(call_jaxpr=closed, rule=rule, num_consts=len(consts), name=name),
    )


def _cvmap_call_partial_eval(trace, tracers, **params):
    if not any(trace.is_unknown(t) for t in tracers):
        return trace.parent_trace.process_custom_call(custom_vmap_call_p, tracers, params)
    raise ValueError(_LINEARIZE_MSG.format(name=f" {params['name']}"))


# --- custom_vmap_call_p: all its rules -------------------------------------------------
def _cvmap_impl(*args, call_jaxpr, rule, num_consts, name):
    return compiled_for(call_jaxpr).fn(*args)


def _cvmap_abstract_eval(*avals, call_jaxpr, rule, num_consts, name):
    return call_jaxpr.out_avals


def _cvmap_effects(*avals, call_jaxpr, rule, num_consts, name):
    return call_jaxpr.effects


def _closed_over_batched(name):
    return ValueError(
        f"custom_vmap function {name} closes over a value that is batched by an enclosing "
        "jax.vmap (or, for its JVP, over a value being differentiated). Its vmap rule "
        "cannot see that value's batch axis: pass the value to the function as an argument."
    )


def _cvmap_batch(axis_data, args, dims, *, call_jaxpr, rule, num_consts, name):
    if any(d is not not_mapped for d in dims[:num_consts]):
        raise _closed_over_batched(name)
    size = axis_data.size
    vals = [
        x if d is not_mapped else move_dim(x, d, 0, size)
        for x, d in zip(args[num_consts:], dims[num_consts:])
    ]
    in_batched = [d is not not_mapped for d in dims[num_consts:]]
    outs, out_batched = rule(size, in_batched, *vals)
    expected = call_jaxpr.out_avals
    if len(outs) != len(expected):  # pragma: no cover (the rule checks the tree)
        raise ValueError(f"custom vmap rule of {name} returned {len(outs)} outputs")
    for i, (o, b, a) in enumerate(zip(outs, out_batched, expected)):
        got = aval_of(o)
        want_shape = (size, *a.shape) if b else a.shape
        if got.shape != want_shape or got.dtype != a.dtype:
            kind = "batched" if b else "unbatched"
            raise ValueError(
                f"custom vmap rule of {name}: output {i} is marked {kind} so it must have "
                f"shape {want_shape} and dtype {a.dtype.name} (the function's output "
                f"{a.str_short()}{' with a leading axis of size ' + str(size) if b else ''}),"
                f" but the rule returned {got.str_short()}."
            )
    return list(outs), [0 if b else not_mapped for b in out_batched]


def _cvmap_jvp(primals, tangents, *, call_jaxpr, rule, num_consts, name):
    nonzeros = [type(t) is not Zero for t in tangents]
    jvp_call, _ = jvp_jaxpr(call_jaxpr, nonzeros, True)
    tans = [t for t in tangents if type(t) is not Zero]
    jrule = _jvp_of_rule(rule, nonzeros[num_consts:], any(nonzeros[:num_consts]), name)
    outs = custom_vmap_call_p.bind(
        *primals, *tans, call_jaxpr=jvp_call, rule=jrule, num_consts=num_consts, name=name
    )
    m = len(call_jaxpr.out_avals)
    p_out, t_out = outs[:m], outs[m:]
    t_out = [
        Zero(aval_of(p).to_tangent_aval())
        if aval_of(p).to_tangent_aval().dtype == dtypes.float0
        else t
        for p, t in zip(p_out, t_out)
    ]
    return p_out, t_out


def _jvp_of_rule(rule, nonzeros, consts_differentiated, name):
    """The vmap rule of the JVP: the JVP of ``rule``. Operands are
    ``(*primals, *nonzero_tangents)`` (non-const primals; tangents of consts come first
    among the tangents; a zero tangent counts as unbatched).

    As in JAX, ``rule`` sees as batched only the inputs whose primal and tangent are both
    batched; when no input is, the inputs batched on one side only are handled by an
    ordinary vmap of the JVP of ``rule`` (so ``jacfwd`` of a custom_vmap function gives
    the JVP of its rule at an unbatched primal). When some inputs are batched on both sides
    and others on one side, the one-sided ones are broadcast instead (JAX returns a wrong
    shape there, see docs/compat.md), so each output has one batch axis."""

    def rule_jvp(axis_size, in_batched, *args):
        if consts_differentiated:
            raise _closed_over_batched(name)
        n = len(nonzeros)
        primals, tans = list(args[:n]), list(args[n:])
        p_batched = list(in_batched[:n])
        it = iter(in_batched[n:])
        t_batched = [next(it) if nz else False for nz in nonzeros]
        mutual = [p and t for p, t in zip(p_batched, t_batched)]
        one_sided = [p != t for p, t in zip(p_batched, t_batched)]
        if any(mutual) and any(one_sided):
            primals = [
                move_dim(p, not_mapped, 0, axis_size) if t and not pb else p
                for p, pb, t in zip(primals, p_batched, t_batched)
            ]
            nz_idx = [i for i, nz in enumerate(nonzeros) if nz]
            tans = [
                move_dim(t, not_mapped, 0, axis_size) if p_batched[i] and not t_batched[i] else t
                for t, i in zip(tans, nz_idx)
            ]
            mutual = [p or t for p, t in zip(p_batched, t_batched)]
            one_sided = [False] * n
        info: dict = {}

        def jvp_fun(*xs):
            ps, it = list(xs[:n]), iter(xs[n:])
            ts = [
                next(it) if nz else Zero(aval_of(p).to_tangent_aval())
                for p, nz in zip(ps, nonzeros)
            ]

            def f(*ps):
                outs, out_b = rule(axis_size, mutual, *ps)
                info["out_batched"] = out_b
                return outs

            p_out, t_out = jvp_flat(f, ps, ts)
            return list(p_out) + [instantiate(t) for t in t_out]

        if not any(one_sided):
            outs = jvp_fun(*primals, *tans)
            ob = list(info["out_batched"])
            return outs, ob + ob
        # Inputs batched on one side only: an ordinary vmap of the rule's JVP over them.
        dims = [0 if p and not t else not_mapped for p, t in zip(p_batched, t_batched)]
        dims += [
            0 if t and not p else not_mapped
            for p, t, nz in zip(p_batched, t_batched, nonzeros)
            if nz
        ]
        outs, odims = batch_flat(jvp_fun, AxisData(None, axis_size), primals + tans, dims)
        ob = list(info["out_batched"]) * 2
        res, res_b = [], []
        for o, d, b in zip(outs, odims, ob):
            if d is not_mapped:
                res.append(o)
                res_b.append(b)
            elif b:
                raise NotImplementedError(
                    f"the JVP of custom_vmap function {name} under vmap: its vmap rule "
                    "marked an output batched although no input was batched on both the "
                    "primal and the tangent side; make the rule's out_batched follow "
                    "in_batched."
                )
            else:
                res.append(move_dim(o, d, 0, axis_size))
                res_b.append(True)
        return res, res_b

    return rule_jvp


def _cvmap_partial_eval(trace, tracers, *, call_jaxpr, rule, num_consts, name):
    # Only reached with an unknown operand (PartialEvalTrace binds all-known calls itself).
    raise ValueError(_LINEARIZE_MSG.format(name=f" {name}"))


rules.impl_rules[custom_vmap_call_p] = _cvmap_impl
rules.abstract_eval_rules[custom_vmap_call_p] = _cvmap_abstract_eval
rules.vma_rules[custom_vmap_call_p] = rules.keep_vma
rules.effects_rules[custom_vmap_call_p] = _cvmap_effects
rules.jvp_rules[custom_vmap_call_p] = _cvmap_jvp
rules.batch_rules[custom_vmap_call_p] = _cvmap_batch
rules.partial_eval_rules[custom_vmap_call_p] = _cvmap_partial_eval
rules.dce_rules[custom_vmap_call_p] = _call_dce
rules.custom_call_rules[custom_vmap_call_p] = {
    "eval": _cvmap_call_eval,
    "jvp": _cvmap_call_bind,
    "batch": _cvmap_call_bind,
    "staging": _cvmap_call_bind,
    "partial_eval": _cvmap_call_partial_eval,
}


# ===================================================================== sequential_vmap
def sequential_vmap(f: Callable) -> custom_vmap:
    """``jax.custom_batching.sequential_vmap``: batch ``f`` by looping over the batch.

    Under ``vmap`` the function is applied to one batch element at a time with
    ``jax.lax.map`` (unbatched arguments are shared by every step) and the results stacked,
    so ``f`` itself never sees a batch axis. Outside ``vmap`` it runs unchanged.

    Args:
        f: the function to wrap.

    Returns:
        A ``custom_vmap`` function with that loop as its vmap rule.
    """
    fn = custom_vmap(f)

    def rule(axis_size, in_batched, *args):
        flat_args, tree = tree_util.tree_flatten(args)
        flat_b = tree_util.tree_leaves(list(in_batched))
        batched = [a for a, b in zip(flat_args, flat_b) if b]

        def step(xs):
            it = iter(xs)
            full = [next(it) if b else a for a, b in zip(flat_args, flat_b)]
            return fn(*tree_util.tree_unflatten(tree, full))

        out = _lax_map(step, batched)
        return out, tree_util.tree_map(lambda _: True, out)

    fn.def_vmap(rule)
    return fn


__all__ = ["custom_vmap", "custom_vmap_call_p", "sequential_vmap"]
