"""The ``vmap`` rules of ``custom_jvp_call_p`` / ``custom_vjp_call_p`` (registered by
``custom_derivatives``): the call is batched as a jaxpr, and the user's rules are wrapped to
run under a batch trace when the batched call is differentiated.

Which outputs come back batched is decided as JAX decides it (spec F, general rule):

* inputs that ``vmap`` does not batch (closed-over values, ``in_axes=None`` operands) stay
  unbatched; the cotangent ``bwd`` gives such an input is summed over the batch;
* when the batched call is evaluated or staged, an output is batched only if the custom
  function's output depends on a batched input (so a callback on an output that does not
  runs once, not once per element);
* when the call is differentiated right away (the parent trace runs the rule while the call
  is bound: ``jvp``/``grad`` of ``vmap``), the rule's outputs decide: for ``custom_jvp`` an
  output is batched if the rule's primal *or* tangent output is (the pair must agree), for
  ``custom_vjp`` if ``fwd``'s primal output is (cotangents reach ``bwd`` as those outputs
  are batched).

A rule run later, when a staged batched call is differentiated (``grad`` of ``jit`` of
``vmap``), cannot change the staged output types. JAX then returns the rule's outputs batched
as the rule decides, even where that disagrees with the staged types (a callback on such an
output sees the whole batch in one call); jaxlite does the same, except that an output the
staged call batches is broadcast where the rule left it unbatched (docs/compat.md).
"""

from __future__ import annotations

from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.interpreters.batching import batch_flat, batch_jaxpr, move_dim
from jaxlite._src.ops.reductions import reduce_sum
from jaxlite._src.ops.shape import expand_dims, pad
from jaxlite._src.ops.structural import instantiate, zeros as _zeros


def _batch_inputs(axis_data, args, dims):
    """Batched inputs with their batch axis at 0; unbatched ones (a closed-over value, an
    ``in_axes=None`` operand) stay unbatched, as in JAX: a callback that sees only them runs
    once, not once per element (spec F, general rule)."""
    in_dims = [not_mapped if d is not_mapped else 0 for d in dims]
    args = [x if d is not_mapped else move_dim(x, d, 0, axis_data.size) for x, d in zip(args, dims)]
    return args, in_dims


def _mapped(d) -> bool:
    return d is not not_mapped


class _BindState:
    """Whether the batched call is being bound now (so a rule that runs decides the output
    dims, stored in ``dims``) or a staged call's rule runs later (``dims`` is fixed)."""

    def __init__(self, dims):
        self.binding = True
        self.dims = list(dims)

    def decide(self, rule_dims):
        """The dims the rule's outputs take: its own while binding; later, batched where
        the staged call's output or the rule's is (JAX keeps the rule's)."""
        if self.binding:
            self.dims = list(rule_dims)
            return self.dims
        return [0 if _mapped(s) or _mapped(r) else not_mapped for s, r in zip(self.dims, rule_dims)]


def custom_jvp_call_batch(
    prim, axis_data, args, dims, *, call_jaxpr, jvp, num_consts, symbolic_zeros
):
    """The batching rule of ``custom_jvp_call_p`` (``prim``): the batched call, whose rule is
    the user's rule batched."""
    args, in_dims = _batch_inputs(axis_data, args, dims)
    batched, out_dims = batch_jaxpr(call_jaxpr, axis_data, in_dims, instantiate=False)
    size = axis_data.size
    arg_dims = in_dims[num_consts:]
    state = _BindState(out_dims)

    def jvp_b(primals, tangents):
        n = len(primals)
        ts = [
            _zeros(aval_of(p).to_tangent_aval()) if type(t) is Zero else t
            for p, t in zip(primals, tangents)
        ]
        float0 = [aval_of(p).to_tangent_aval().dtype == dtypes.float0 for p in primals]
        info = {}

        def f(*xs):
            ps = list(xs[:n])
            tt = [
                Zero(aval_of(p).to_tangent_aval()) if f0 else t
                for p, t, f0 in zip(ps, xs[n:], float0)
            ]
            p_out, t_out = jvp(ps, tt)
            info["zero"] = [type(t) is Zero for t in t_out]
            return list(p_out) + [instantiate(t) for t in t_out]

        outs, odims = batch_flat(f, axis_data, list(primals) + ts, arg_dims + arg_dims)
        m = len(outs) // 2
        # A primal output and its tangent share one batch dim: batched if either is.
        rule_dims = [
            0 if _mapped(dp) or (_mapped(dt) and not z) else not_mapped
            for dp, dt, z in zip(odims[:m], odims[m:], info["zero"])
        ]
        dims_out = state.decide(rule_dims)
        p_out = [move_dim(o, d, d2, size) for o, d, d2 in zip(outs[:m], odims[:m], dims_out)]
        t_out = []
        for p, t, d, d2, z in zip(p_out, outs[m:], odims[m:], dims_out, info["zero"]):
            t_out.append(Zero(aval_of(p).to_tangent_aval()) if z else move_dim(t, d, d2, size))
        return p_out, t_out

    outs = prim.bind(
        *args, call_jaxpr=batched, jvp=jvp_b, num_consts=num_consts, symbolic_zeros=False
    )
    state.binding = False
    return outs, list(state.dims)


def _first_only(ct, size: int):
    """``ct`` stacked with ``size - 1`` zeros on a new leading axis: a cotangent that the
    first of ``size`` batch elements carries alone (bwd is linear in its cotangents)."""
    ct = expand_dims(ct, (0,))
    zero = _zeros(aval_of(ct).update(shape=()))
    return pad(ct, zero, [(0, size - 1, 0)] + [(0, 0, 0)] * (ct.ndim - 1))


def custom_vjp_call_batch(
    prim, axis_data, args, dims, *, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros
):
    """The batching rule of ``custom_vjp_call_p`` (``prim``): the batched call, with ``fwd``
    and ``bwd`` batched."""
    args, in_dims = _batch_inputs(axis_data, args, dims)
    batched, out_dims = batch_jaxpr(call_jaxpr, axis_data, in_dims, instantiate=False)
    size = axis_data.size
    arg_dims = in_dims[num_consts:]
    state = _BindState(out_dims)

    def fwd_b(*xs, perturbed=None):
        info = {}

        def f(*a):
            kw = {} if perturbed is None else {"perturbed": perturbed}
            outs, res, res_tree = fwd(*a, **kw)
            info["n_out"], info["res_tree"] = len(outs), res_tree
            return list(outs) + list(res)

        outs, odims = batch_flat(f, axis_data, list(xs), arg_dims)
        k = info["n_out"]
        rule_dims = [0 if _mapped(d) else not_mapped for d in odims[:k]]
        dims_out = state.decide(rule_dims)
        p_out = [move_dim(o, d, d2, size) for o, d, d2 in zip(outs[:k], odims[:k], dims_out)]
        # Residuals keep their own dims, handed to bwd_b with the outputs' (the cotangents').
        res = outs[k:]
        res_dims = [0 if _mapped(d) else not_mapped for d in odims[k:]]
        res = [move_dim(r, d, d2, size) for r, d, d2 in zip(res, odims[k:], res_dims)]
        return p_out, res, (info["res_tree"], tuple(res_dims), tuple(dims_out))

    def bwd_b(res_info, res, cts):
        res_tree, res_dims, ct_dims = res_info
        cts = [_zeros(c.aval) if type(c) is Zero else c for c in cts]
        if any(_mapped(d) for d in list(res_dims) + list(ct_dims)):
            # bwd runs per element; the cotangent of an unbatched output is the whole batch's
            # (summed), so it must count once: element 0 gets it, the others zero.
            # (float0 cotangents are zeros: broadcasting them is exact.)
            one = [
                not _mapped(d) and aval_of(c).dtype != dtypes.float0 for c, d in zip(cts, ct_dims)
            ]
            cts = [_first_only(c, size) if o else c for c, o in zip(cts, one)]
            ct_dims = tuple(0 if o else d for d, o in zip(ct_dims, one))
        info = {}

        def f(*a):
            nr = len(res)
            got = bwd(res_tree, list(a[:nr]), list(a[nr:]))
            info["zero"] = [type(g) is Zero for g in got]
            return [_zeros(g.aval) if type(g) is Zero else g for g in got]

        outs, odims = batch_flat(f, axis_data, list(res) + cts, list(res_dims) + list(ct_dims))
        res_out = []
        for o, d, z, ind in zip(outs, odims, info["zero"], arg_dims):
            if ind is not_mapped:  # one input shared by every element: its cotangents add up
                o = o if d is not_mapped else reduce_sum(o, (d,))
            else:
                o = move_dim(o, d, 0, size)
            res_out.append(Zero(aval_of(o)) if z else o)
        return res_out

    outs = prim.bind(
        *args,
        call_jaxpr=batched,
        fwd=fwd_b,
        bwd=bwd_b,
        num_consts=num_consts,
        symbolic_zeros=symbolic_zeros,
    )
    state.binding = False
    return outs, list(state.dims)
