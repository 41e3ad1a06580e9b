"""The ``clamp`` primitive (``jax.lax.clamp``): its rules, then its wrapper."""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.ops import shape as _shape
from jaxlite._src.ops._factories import defnative
from jaxlite._src.ops.elementwise import _lax_args, add, and_, gt, lt, select_n, zeros_like
from jaxlite._src.ops.minmax import max_impl, min_impl

clamp_p = Primitive("clamp")
# min(max(x, lo), hi) with XLA's signed zeros (``minmax``).
rules.impl_rules[clamp_p] = lambda lo, x, hi: min_impl(max_impl(x, lo), hi)
defnative(clamp_p, "np.minimum(np.maximum({1}, {0}), {2})", "iu")


def _clamp_abstract_eval(lo, x, hi):
    if lo.dtype != x.dtype or hi.dtype != x.dtype:
        raise TypeError("clamp requires min, operand and max to have the same dtype")
    for name, b in (("min", lo), ("max", hi)):
        if b.shape not in ((), x.shape):
            raise TypeError(
                f"clamp requires {name}.shape == operand.shape or {name}.shape == (), got "
                f"{name}.shape={b.shape}, operand.shape={x.shape}."
            )
    # weakly typed only when all three operands are (JAX's standard weak-type rule)
    return ShapedArray(x.shape, x.dtype, lo.weak_type and x.weak_type and hi.weak_type)


def _clamp_jvp(primals, tangents):
    """JAX's rule: the operand's tangent strictly inside ``(min, max)`` (0 at the bounds),
    ``min``'s where it is active (``operand < min < max``), ``max``'s where ``max < operand``."""
    lo, x, hi = primals
    dt = aval_of(x).dtype
    if np.dtype(dt).kind == "c":
        # JAX's rule compares the operands (gt for min's and the operand's tangents, lt for
        # max's), which refuses complex: its derivative raises where the value does not
        name = "lt" if all(type(t) is Zero for t in tangents[:2]) else "gt"
        raise TypeError(
            f"{name} does not accept dtype {np.dtype(dt).name} at position 0. Accepted "
            "dtypes at position 0 are subtypes of integer, floating, bool."
        )
    out = clamp_p.bind(lo, x, hi)
    shape = aval_of(x).shape
    lo_b = _shape.broadcast_to_rank(lo, shape)
    hi_b = _shape.broadcast_to_rank(hi, shape)
    active = [
        (tangents[1], and_(gt(x, lo_b), lt(x, hi_b))),
        (tangents[0], and_(gt(lo_b, x), lt(lo_b, hi_b))),
        (tangents[2], lt(hi_b, x)),
    ]
    t_out = None
    for t, where in active:
        if type(t) is Zero:
            continue
        t = _shape.broadcast_to_rank(t, shape)
        part = select_n(where, zeros_like(t), t)
        t_out = part if t_out is None else add(t_out, part)
    if t_out is None:
        return out, Zero(aval_of(out).to_tangent_aval())
    return out, t_out


def _clamp_batch(axis_data, args, dims):
    size = axis_data.size
    lo, x, hi = args

    xb = (
        _shape.broadcast_batch(x, size) if dims[1] is not_mapped else _shape.moveaxis(x, dims[1], 0)
    )
    shp = aval_of(xb).shape

    def fix(b, d):
        if d is not_mapped:
            return b if aval_of(b).shape == () else _shape.broadcast_batch(b, size)
        b = _shape.moveaxis(b, d, 0)
        return _shape.broadcast_in_dim(b, shp, tuple(range(aval_of(b).ndim)))

    return clamp_p.bind(fix(lo, dims[0]), xb, fix(hi, dims[2])), 0


rules.abstract_eval_rules[clamp_p] = _clamp_abstract_eval
rules.jvp_rules[clamp_p] = _clamp_jvp
rules.batch_rules[clamp_p] = _clamp_batch


def clamp(min, x, max):  # noqa: A002 (JAX's parameter names)
    """``jax.lax.clamp(min, x, max)``."""
    min, x, max = _lax_args(min, x, max)
    return clamp_p.bind(min, x, max)


__all__ = ["clamp", "clamp_p"]
