"""Division as XLA:CPU computes it, and the ``div_recip`` primitive of compiled code.

XLA's algebraic simplifier rewrites ``a / broadcast(b)`` as ``a * broadcast(1 / b)``: one
division per element of ``b`` instead of one per element of ``a``. On float32 and float64
this changes the rounding (the reciprocal is rounded, then the product), so in JAX
``x / 15.0`` differs from NumPy's correctly rounded ``x / 15.0`` in the last bit for about
60% of the elements, and so do ``jnp.mean``, softmax's and layer norm's normalisations.
jaxlite follows JAX:

* **Compiled code** (``jit``, loop and branch bodies, both tiers): the simplifier
  (``rules.simplify_rules``) turns a float16/32/64 ``div`` whose divisor is a broadcast
  into ``div_recip``: a divisor of a different shape than the result (rank 0, or size-1
  dimensions), the output of a ``broadcast_in_dim`` that adds elements (possibly
  transposed), or a constant that is a zero-stride view (a closed-over value broadcast
  while tracing), and, as XLA's ``A / Const => A * (1 / Const)``, a division by any
  constant (a literal, a closed-over array, a broadcast of one), rank 0 included.
  ``div_recip`` exists only there; jaxprs users see keep ``div``. JAX's own jitted
  functions divide by constants (``jnp.mean``'s count, ``jnp.round``'s scale) even when
  called eagerly: ``numpy.util.div_by_constant`` multiplies by the rounded reciprocal.
* **Eager** ``div``: the same test on the arrays themselves, where a broadcast divisor
  is a NumPy view with a zero stride (``broadcast_in_dim``'s result).

Not rewritten, as in XLA: integer, complex and bfloat16 division (XLA:CPU computes
bfloat16 in float32, where the reciprocal's rounding does not show). Not followed: XLA's
other simplifications that expose a broadcast (``x / (d * ones)``), and its compile-time
folding of fully constant expressions, which divides exactly (docs/compat.md).
"""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.ir import Literal
from jaxlite._src.ops import complex_kernels, shape as _shape
from jaxlite._src.ops._factories import naryop

RECIP_DTYPES = frozenset(np.dtype(d) for d in ("float16", "float32", "float64"))


def int_divide(x, y):
    """XLA integer division: exact (no float round trip, which loses int64 digits),
    rounding toward zero; ``x / 0`` is -1 (all ones for unsigned), ``INT_MIN / -1`` wraps."""
    with np.errstate(all="ignore"):
        safe = np.where(y == 0, 1, y).astype(x.dtype)
        q = np.floor_divide(x, safe)
        # floor -> toward zero: one up where the remainder is nonzero and signs differ.
        up = (np.remainder(x, safe) != 0) & ((x < 0) != (safe < 0))
        q = np.where(up, q + 1, q)
    return np.where(y == 0, np.array(-1).astype(x.dtype), q).astype(x.dtype)


def divide_exact(x, y):
    """``x / y``: floats correctly rounded, integers and complex numbers as XLA (``div`` in
    compiled code)."""
    kind = np.dtype(x.dtype).kind
    if kind in "iu":
        return int_divide(x, y)
    if kind == "c":  # XLA's algorithm (NumPy's differs at infinities and NaNs)
        return complex_kernels.divide(x, y)
    return np.true_divide(x, y)


def divide_by_reciprocal(x, y):
    """``x * (1 / y)`` in the operands' dtype: ``div_recip``."""
    return np.multiply(x, np.true_divide(y.dtype.type(1), y))


def _is_broadcast_view(y, out_shape) -> bool:
    """Is ``y`` a broadcast as a divisor for a result of ``out_shape``: another shape, or
    a zero stride along an axis of length > 1 (a ``broadcast_in_dim`` view)?"""
    if np.shape(y) != out_shape:
        return True
    strides = getattr(y, "strides", ())
    return 0 in strides and any(s == 0 and n > 1 for s, n in zip(strides, out_shape))


def divide_eager(x, y):
    """``div``'s impl (eager evaluation): by the reciprocal where ``y`` is a broadcast."""
    if x.dtype in RECIP_DTYPES:
        if y.shape == ():
            broadcast = x.shape != ()  # a rank-0 divisor of an array
        else:
            out = x.shape if x.shape == y.shape else np.broadcast_shapes(x.shape, y.shape)
            broadcast = _is_broadcast_view(y, out)
        if broadcast:
            return divide_by_reciprocal(x, y)
    return divide_exact(x, y)


div_recip_p = naryop("div_recip", divide_by_reciprocal, ["f", "f"])
rules.quiet_fp.add(div_recip_p)
rules.fresh_output.add(div_recip_p)


def _div_recip_native(ctx, eqn, ins, outs):
    """A scalar divisor only: its reciprocal rounded to the dtype, then the product."""
    y = eqn.invars[1].aval
    if y.shape != () or np.dtype(y.dtype) not in (np.float32, np.float64):
        return None
    recip = ctx.typed(f"1.0 / {ins[1]}", y)
    return [f"{outs[0]} = {ctx.typed(f'{ins[0]} * {recip}', eqn.outvars[0].aval)}"]


rules.native_rules[div_recip_p] = _div_recip_native


def _broadcasts(var, producer) -> bool:
    """Is ``var`` the result of a ``broadcast_in_dim`` that adds elements, possibly
    transposed after it (XLA folds the transpose into the broadcast)?"""
    eqn = producer(var)
    while eqn is not None and eqn.primitive is _shape.transpose_p:
        var = eqn.invars[0]
        eqn = producer(var)
    if eqn is None or eqn.primitive is not _shape.broadcast_in_dim_p:
        return False
    operand = eqn.invars[0].aval
    return int(np.prod(operand.shape)) < int(np.prod(eqn.outvars[0].aval.shape))


def _is_constant(var, producer, const) -> bool:
    """Is ``var`` a compile-time constant for XLA: a literal, a constant, or a broadcast
    (possibly transposed) of one?"""
    eqn = producer(var)
    while eqn is not None and eqn.primitive in (_shape.transpose_p, _shape.broadcast_in_dim_p):
        var = eqn.invars[0]
        eqn = producer(var)
    return type(var) is Literal or (eqn is None and const(var) is not None)


def reciprocal_rewrite(eqn, producer, const):
    """``rules.simplify_rules[div_p]``: ``div_recip`` for a float division by a broadcast
    (of another shape, made by a ``broadcast_in_dim`` here, or a constant that was a
    broadcast of a closed-over value, evaluated while tracing: a zero-stride view), and,
    as XLA's ``A / Const => A * (1 / Const)``, by any constant: a literal (``x / 7.0`` on
    a scalar), a closed-over array, or a broadcast of one."""
    out = eqn.outvars[0].aval
    if np.dtype(out.dtype) not in RECIP_DTYPES:
        return None
    y = eqn.invars[1]
    if _is_constant(y, producer, const):
        return eqn.replace(primitive=div_recip_p)
    if out.shape == ():
        return None
    value = const(y)
    if (
        y.aval.shape != out.shape
        or _broadcasts(y, producer)
        or (value is not None and _is_broadcast_view(np.asarray(value), out.shape))
    ):
        return eqn.replace(primitive=div_recip_p)
    return None
