"""bitcast_convert_type and reduce_precision."""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.core.trace import concrete_index
from jaxlite._src.ops import shape as _shape
from jaxlite._src.ops._factories import deflinear, non_differentiable

# --- bitcast_convert_type -----------------------------------------------------------------
bitcast_convert_type_p = Primitive("bitcast_convert_type")


def _bitcast_shape(shape, old, new):
    old, new = np.dtype(old).itemsize, np.dtype(new).itemsize
    if old == new:
        return tuple(shape)
    if old > new:
        return tuple(shape) + (old // new,)
    if not shape or shape[-1] != new // old:
        raise TypeError(
            f"bitcast_convert_type from a {old}-byte to a {new}-byte type needs a "
            f"trailing dimension of size {new // old}, got shape {shape}"
        )
    return tuple(shape[:-1])


def _bitcast_impl(x, *, new_dtype):
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one.)
    x = np.asarray(x)
    if not x.flags.c_contiguous:
        x = x.copy()
    out_shape = _bitcast_shape(x.shape, x.dtype, new_dtype)
    return x.view(new_dtype).reshape(out_shape)


def _bitcast_abstract_eval(x, *, new_dtype):
    old, new = np.dtype(x.dtype), np.dtype(new_dtype)
    if old != new and any(d == dtypes.bool_ or d.kind == "c" for d in (old, new)):
        raise TypeError(
            "lax.bitcast_convert_type does not support bool or complex values unless the "
            f"operand and destination types match. Got operand dtype={old}, "
            f"new_dtype={new!r}. Consider using the arr.view() method instead."
        )
    return ShapedArray(_bitcast_shape(x.shape, x.dtype, new_dtype), new_dtype)


def _bitcast_batch(axis_data, args, dims, *, new_dtype):
    x = _shape.moveaxis(args[0], dims[0], 0)
    return bitcast_convert_type_p.bind(x, new_dtype=new_dtype), 0


rules.impl_rules[bitcast_convert_type_p] = _bitcast_impl
rules.abstract_eval_rules[bitcast_convert_type_p] = _bitcast_abstract_eval
rules.batch_rules[bitcast_convert_type_p] = _bitcast_batch


def _bitcast_native(ctx, eqn, ins, outs, *, new_dtype):
    x = eqn.invars[0].aval
    if np.dtype(x.dtype).itemsize != np.dtype(new_dtype).itemsize:
        return None  # width changes: left to the Python tier
    if x.shape == ():  # a Numba scalar's bits as another scalar type
        # (Numba wants the operand spelled as a dtype call to type ``.view``.)
        return [f"{outs[0]} = {ctx.dtype(x.dtype)}({ins[0]}).view({ctx.dtype(new_dtype)})"]
    return [f"{outs[0]} = np.ascontiguousarray({ins[0]}).view({ctx.dtype(new_dtype)})"]


rules.native_rules[bitcast_convert_type_p] = lambda ctx, eqn, ins, outs: _bitcast_native(
    ctx, eqn, ins, outs, **eqn.params
)
rules.native_elementwise.add(bitcast_convert_type_p)
non_differentiable(bitcast_convert_type_p)


def bitcast_convert_type(operand, new_dtype):
    """``jax.lax.bitcast_convert_type``: reinterpret the bits of ``operand`` as ``new_dtype``.

    Same-width types keep the shape; a narrower target adds a trailing dimension and a wider
    one consumes it.
    """
    return bitcast_convert_type_p.bind(
        to_array(operand), new_dtype=dtypes.canonicalize_dtype(new_dtype)
    )


# --- reduce_precision ---------------------------------------------------------------------
reduce_precision_p = Primitive("reduce_precision")


def _reduce_precision_impl(x, *, exponent_bits, mantissa_bits):
    """XLA's reduce_precision on the bits: the mantissa rounded to nearest even, then
    exponents past the narrow format's range overflow to infinity and those at or below
    its smallest normal one flush to zero (its subnormals included); NaN stays the input
    NaN."""
    x = np.asarray(x)
    nbits = x.dtype.itemsize * 8
    nmant = int(dtypes.finfo(x.dtype).nmant)
    nexp = nbits - 1 - nmant
    it = {2: np.uint16, 4: np.uint32, 8: np.uint64}[x.dtype.itemsize]
    b = np.ascontiguousarray(x).view(it).copy()
    if mantissa_bits < nmant:
        sh = nmant - mantissa_bits
        lsb = (b >> it(sh)) & it(1)
        b = (b + lsb + it((1 << (sh - 1)) - 1)) & ~it((1 << sh) - 1)
    if exponent_bits < nexp:
        sign = b & it(1 << (nbits - 1))
        emask = it(((1 << nexp) - 1) << nmant)
        bias, rbias = (1 << (nexp - 1)) - 1, (1 << (exponent_bits - 1)) - 1
        e = b & emask
        b = np.where(
            e > it((bias + rbias) << nmant),
            sign | emask,
            np.where(e <= it((bias - rbias) << nmant), sign, b),
        )
    out = np.asarray(b, dtype=it).view(x.dtype)
    with np.errstate(invalid="ignore"):
        return np.where(np.isnan(x), x, out).astype(x.dtype)


def _reduce_precision_abstract_eval(x, *, exponent_bits, mantissa_bits):
    if not dtypes.is_float(x.dtype):
        raise TypeError("reduce_precision requires a floating-point operand")
    return x


rules.impl_rules[reduce_precision_p] = _reduce_precision_impl
rules.abstract_eval_rules[reduce_precision_p] = _reduce_precision_abstract_eval
rules.batch_rules[reduce_precision_p] = lambda ad, args, dims, **p: (
    reduce_precision_p.bind(*args, **p),
    dims[0],
)
deflinear(
    reduce_precision_p,
    lambda ct, x, **p: [Zero(x.aval) if type(ct) is Zero else reduce_precision_p.bind(ct, **p)],
)


def reduce_precision(operand, exponent_bits: int, mantissa_bits: int):
    """``jax.lax.reduce_precision``: round to a float format with the given bit counts.

    Raises:
        TypeError: a bit count that is not an integer (a float is refused, never truncated).
        ValueError: a negative mantissa or an exponent below 1 (JAX's messages)."""
    exponent_bits = concrete_index(exponent_bits, "exponent_bits must be static")
    mantissa_bits = concrete_index(mantissa_bits, "mantissa_bits must be static")
    if exponent_bits < 1:
        raise ValueError(f"reduce_precision: exponent_bits must be positive; got {exponent_bits}")
    if mantissa_bits < 0:
        msg = f"reduce_precision: mantissa_bits must be non-negative; got {mantissa_bits}"
        raise ValueError(msg)
    return reduce_precision_p.bind(
        to_array(operand), exponent_bits=exponent_bits, mantissa_bits=mantissa_bits
    )
