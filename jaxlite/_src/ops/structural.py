"""Primitives the interpreters themselves use: add_any (tangent accumulation), zeros,
stop_gradient, copy."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules, trace as _trace
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.ops._factories import broadcast_batcher


# --- add_any: sum of two tangents/cotangents (linear; never appears in user programs) -----
class _AddAny(Primitive):
    """``add_any`` evaluated eagerly is JAX's eager ``add_any``: ``lax.add``, whose result is
    weakly typed only when both operands are (a weak carry cotangent plus a strong one is
    strong under eager ``grad``). Staged (``jit``, loop bodies), the result keeps the first
    operand's type, as JAX's abstract evaluation of ``add_any`` does."""

    def bind(self, *args, **params):
        return self.bind_with_trace(_trace.trace_ctx.trace, args, params)

    def bind_with_trace(self, trace, args, params):
        out = trace.process_primitive(self, args, params)
        if (
            trace is _trace.eval_trace
            and type(out) is ArrayImpl
            and out.aval.weak_type
            and not all(aval_of(a).weak_type for a in args)
        ):
            return ArrayImpl(out._value, out.aval.update(weak_type=False))
        return out


add_any_p = _AddAny("add_any")
rules.impl_rules[add_any_p] = np.add
rules.native_rules[add_any_p] = lambda ctx, eqn, ins, outs: [
    f"{outs[0]} = {ctx.typed(f'{ins[0]} + {ins[1]}', eqn.outvars[0].aval)}"
]
rules.native_elementwise.add(add_any_p)
# A rank-0 operand broadcasts (the broadcasting batch rule leaves unbatched scalars as is).
# The result has the first operand's type, weak type included, as JAX's add_any.
rules.abstract_eval_rules[add_any_p] = lambda x, y: ShapedArray(
    x.shape if x.shape != () else y.shape, x.dtype, x.weak_type
)
rules.batch_rules[add_any_p] = broadcast_batcher(add_any_p)


def _add_any_jvp(primals, tangents):
    # As JAX's linear JVP: a symbolic zero beside a nonzero tangent is materialised and
    # added (0 + -0 is +0: second derivatives keep JAX's signs of zeros).
    out = add_any_p.bind(*primals)
    if all(type(t) is Zero for t in tangents):
        return out, Zero(aval_of(out).to_tangent_aval())
    return out, add_any_p.bind(*[instantiate(t) for t in tangents])


rules.jvp_rules[add_any_p] = _add_any_jvp
rules.transpose_rules[add_any_p] = lambda ct, x, y: [ct, ct]


def add_any(x, y):
    """Add two tangents, either of which may be a symbolic ``Zero``."""
    if type(x) is Zero:
        return y
    if type(y) is Zero:
        return x
    return add_any_p.bind(x, y)


# --- zeros ------------------------------------------------------------------------------
def zeros(aval: ShapedArray):
    """A materialised array of zeros with ``aval``'s shape and dtype."""
    from jaxlite._src.ops import shape

    if aval.dtype == dtypes.float0:
        # As in JAX, a float0 zero is a NumPy array (what grad/vjp/jvp hand back for integer
        # inputs and outputs): it has no values, so it never needs a device array.
        return np.zeros(aval.shape, dtypes.float0)
    return with_vma(shape.full(aval.shape, 0, aval.dtype, weak_type=aval.weak_type), aval.vma)


def with_vma(x, vma):
    """``x`` cast (``pvary``) to vary along the manual axes ``vma`` too, as JAX types values
    made "like" another inside ``shard_map`` (``zeros_like`` of a varying value varies)."""
    if not vma or not (vma - aval_of(x).vma):
        return x
    return rules.vma_pvary[0](x, tuple(vma))


def instantiate(t):
    """Materialise a symbolic ``Zero``; pass other values through."""
    if type(t) is Zero:
        return zeros(t.aval)
    return t


def zeros_like_aval(aval):
    return zeros(aval)


# --- stop_gradient -----------------------------------------------------------------------
stop_gradient_p = Primitive("stop_gradient")
rules.impl_rules[stop_gradient_p] = lambda x: x
rules.native_rules[stop_gradient_p] = lambda ctx, eqn, ins, outs: [f"{outs[0]} = {ins[0]}"]
rules.native_elementwise.add(stop_gradient_p)
rules.abstract_eval_rules[stop_gradient_p] = lambda x: x
rules.batch_rules[stop_gradient_p] = lambda ad, args, dims: (stop_gradient_p.bind(*args), dims[0])
rules.non_differentiable.add(stop_gradient_p)
rules.forwarding_rules[stop_gradient_p] = lambda params: [0]  # eagerly: the operand itself
# Compiled code (after AD) is its operand, as JAX lowers it: ``select_n(w, x, stop_gradient(x))``
# (a batched cond's operands, F17) then picks between equal cases (``elementwise.py``).
rules.simplify_rules[stop_gradient_p] = lambda eqn, producer, const: eqn.invars[0]


def _stop_gradient_jvp(primals, tangents):
    out = stop_gradient_p.bind(*primals)
    return out, Zero(aval_of(out).to_tangent_aval())


rules.jvp_rules[stop_gradient_p] = _stop_gradient_jvp


# --- copy --------------------------------------------------------------------------------
copy_p = Primitive("copy_p")
rules.impl_rules[copy_p] = np.copy
rules.native_rules[copy_p] = lambda ctx, eqn, ins, outs: [
    f"{outs[0]} = {ins[0]}" + ("" if eqn.outvars[0].aval.shape == () else ".copy()")
]
rules.native_elementwise.add(copy_p)
rules.abstract_eval_rules[copy_p] = lambda x: x
rules.batch_rules[copy_p] = lambda ad, args, dims: (copy_p.bind(*args), dims[0])
rules.jvp_rules[copy_p] = lambda primals, tangents: (
    copy_p.bind(*primals),
    tangents[0] if type(tangents[0]) is Zero else copy_p.bind(tangents[0]),
)
rules.transpose_rules[copy_p] = lambda ct, x: [ct if type(ct) is Zero else copy_p.bind(ct)]
