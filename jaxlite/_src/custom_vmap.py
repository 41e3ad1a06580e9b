"""The ``vmap`` rules of ``custom_jvp_call_p`` / ``custom_vjp_call_p`` (registered by
``custom_derivatives``): the call is batched as a jaxpr, and the user's rules are wrapped to
run under a batch trace when the batched call is differentiated.

Inputs that ``vmap`` does not batch (closed-over values, ``in_axes=None`` operands) stay
unbatched, as in JAX; the cotangent ``bwd`` gives such an input is summed over the batch.
"""

from __future__ import annotations

from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.interpreters.batching import batch_flat, batch_jaxpr, move_dim
from jaxlite._src.ops.reductions import reduce_sum
from jaxlite._src.ops.structural import instantiate, zeros as _zeros


def _batch_inputs(axis_data, args, dims):
    """Batched inputs with their batch axis at 0; unbatched ones (a closed-over value, an
    ``in_axes=None`` operand) stay unbatched, as in JAX: a callback that sees only them runs
    once, not once per element (spec F, general rule)."""
    in_dims = [not_mapped if d is not_mapped else 0 for d in dims]
    args = [x if d is not_mapped else move_dim(x, d, 0, axis_data.size) for x, d in zip(args, dims)]
    return args, in_dims


def custom_jvp_call_batch(
    prim, axis_data, args, dims, *, call_jaxpr, jvp, num_consts, symbolic_zeros
):
    """The batching rule of ``custom_jvp_call_p`` (``prim``): the batched call, whose rule is
    the user's rule batched."""
    args, in_dims = _batch_inputs(axis_data, args, dims)
    batched, _ = batch_jaxpr(call_jaxpr, axis_data, in_dims, instantiate=True)
    size = axis_data.size
    arg_dims = in_dims[num_consts:]

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
        outs = [move_dim(o, d, 0, size) for o, d in zip(outs, odims)]
        m = len(outs) // 2
        t_out = [
            Zero(aval_of(p).to_tangent_aval()) if z else t
            for p, t, z in zip(outs[:m], outs[m:], info["zero"])
        ]
        return outs[:m], t_out

    outs = prim.bind(
        *args, call_jaxpr=batched, jvp=jvp_b, num_consts=num_consts, symbolic_zeros=False
    )
    return outs, [0] * len(outs)


def custom_vjp_call_batch(
    prim, axis_data, args, dims, *, call_jaxpr, fwd, bwd, num_consts, symbolic_zeros
):
    """The batching rule of ``custom_vjp_call_p`` (``prim``): the batched call, with ``fwd``
    and ``bwd`` batched."""
    args, in_dims = _batch_inputs(axis_data, args, dims)
    batched, _ = batch_jaxpr(call_jaxpr, axis_data, in_dims, instantiate=True)
    size = axis_data.size
    arg_dims = in_dims[num_consts:]

    def fwd_b(*xs, perturbed=None):
        info = {}

        def f(*a):
            kw = {} if perturbed is None else {"perturbed": perturbed}
            outs, res, res_tree = fwd(*a, **kw)
            info["n_out"], info["res_tree"] = len(outs), res_tree
            return list(outs) + list(res)

        outs, odims = batch_flat(f, axis_data, list(xs), arg_dims)
        outs = [move_dim(o, d, 0, size) for o, d in zip(outs, odims)]
        k = info["n_out"]
        return outs[:k], outs[k:], info["res_tree"]

    def bwd_b(res_tree, res, cts):
        nr = len(res)
        cts = [_zeros(c.aval) if type(c) is Zero else c for c in cts]
        info = {}

        def f(*a):
            got = bwd(res_tree, list(a[:nr]), list(a[nr:]))
            info["zero"] = [type(g) is Zero for g in got]
            return [_zeros(g.aval) if type(g) is Zero else g for g in got]

        outs, odims = batch_flat(f, axis_data, list(res) + cts, [0] * (nr + len(cts)))
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
    return outs, [0] * len(outs)
