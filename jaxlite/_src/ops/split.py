"""The ``split`` primitive (``jax.lax.split``): one operand cut along an axis into pieces of
static sizes, several results.

It is ``concatenate``'s transpose, and its transpose is ``concatenate``, as in JAX, so a
weakly typed cotangent stays weak through second derivatives of ``concatenate`` /
``jnp.stack`` (a ``slice``'s transpose pads with a strongly typed zero, as JAX's does). All
rules of the primitive are in this block.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.ops import _native, shape as _shape, structural

split_p = Primitive("split", multiple_results=True)


def _split_impl(x, *, sizes, axis):
    return np.split(x, np.cumsum(sizes)[:-1], axis)


def _split_abstract_eval(x, *, sizes, axis):
    if any(s < 0 for s in sizes):
        raise ValueError(f"Sizes passed to split must be nonnegative, got {list(sizes)}")
    if sum(sizes) != x.shape[axis]:
        raise ValueError(
            f"Sum of sizes {sum(sizes)} must be equal to dimension {axis} of the operand "
            f"shape {list(x.shape)}"
        )
    out = []
    for s in sizes:
        shape = list(x.shape)
        shape[axis] = s
        out.append(ShapedArray(tuple(shape), x.dtype, x.weak_type, vma=x.vma))
    return out


def _split_jvp(primals, tangents, *, sizes, axis):
    (x,), (t,) = primals, tangents
    outs = split_p.bind(x, sizes=sizes, axis=axis)
    if type(t) is Zero:
        return outs, [Zero(aval_of(o).to_tangent_aval()) for o in outs]
    return outs, split_p.bind(t, sizes=sizes, axis=axis)


def _split_transpose(cts, x, *, sizes, axis):
    if all(type(c) is Zero for c in cts):
        return [Zero(x.aval)]
    return [_shape.concatenate([structural.instantiate(c) for c in cts], axis)]


def _split_batch(axis_data, args, dims, *, sizes, axis):
    (x,), (d,) = args, dims
    if d is not_mapped:
        return split_p.bind(x, sizes=sizes, axis=axis), (not_mapped,) * len(sizes)
    outs = split_p.bind(_shape.moveaxis(x, d, 0), sizes=sizes, axis=axis + 1)
    return outs, (0,) * len(sizes)


rules.impl_rules[split_p] = _split_impl
rules.native_rules[split_p] = _native.split
rules.native_scalar_rules[split_p] = _native.scalar_split
rules.abstract_eval_rules[split_p] = _split_abstract_eval
rules.jvp_rules[split_p] = _split_jvp
rules.transpose_rules[split_p] = _split_transpose
rules.batch_rules[split_p] = _split_batch


def split(operand, sizes, axis: int):
    """``operand`` cut along ``axis`` (non-negative) into pieces of ``sizes``: a list."""
    return split_p.bind(operand, sizes=tuple(int(s) for s in sizes), axis=int(axis))
