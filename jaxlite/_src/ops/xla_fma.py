"""XLA:CPU's contracted multiply-add ``a*b + c`` (one rounding, as LLVM fuses it on FMA
hosts), reproduced in NumPy: a private elementwise primitive (impl, JVP, native rule) used
where JAX's bits depend on it (the samplers of ``random``, ``jnp.linspace``)."""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.ops import elementwise as ew
from jaxlite._src.ops._factories import FLOAT, defjvp, naryop

_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)


def fma32(a, b, c):
    """float32 ``a*b + c`` rounded once: the product of two float32 values is exact in
    float64, so one float64 add then a rounding to float32 (double rounding below 2**-29)."""
    return (np.asarray(a, _f64) * b + c).astype(_f32)


def _veltkamp(a):
    s = 134217729.0 * a
    hi = s - (s - a)
    return hi, a - hi


def fma64(a, b, c):
    """float64 ``a*b + c`` with error-free transforms (Dekker product, Knuth TwoSum)."""
    a, b, c = np.asarray(a, _f64), np.asarray(b, _f64), np.asarray(c, _f64)
    p = a * b
    ah, al = _veltkamp(a)
    bh, bl = _veltkamp(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    te = t + e
    # Where the correction is zero the result is ``s`` itself; ``s + te`` would turn a
    # ``-0.0`` sum (``-0.0*b + -0.0``) into ``+0.0``, which a real FMA does not.
    return np.where(te == 0, s, s + te)


def _fma_impl(a, b, c):
    dt = np.result_type(a, b, c)
    if dt == _f64:
        return fma64(a, b, c)
    if dt == _f32:
        return fma32(a, b, c)
    return fma32(*(np.asarray(v, _f32) for v in (a, b, c))).astype(dt)


fma_p = naryop("xla_fma", _fma_impl, [FLOAT, FLOAT, FLOAT])


def _fma_native(ctx, eqn, ins, outs):
    # float32 only: the operations of fma32 (float64 product and sum, one rounding back).
    aval = eqn.outvars[0].aval
    if any(v.aval.dtype != _f32 for v in eqn.invars):
        return None
    a, b, c = ins
    if aval.shape == ():
        return [f"{outs[0]} = np.float32(np.float64({a}) * np.float64({b}) + np.float64({c}))"]
    wide = f"np.asarray({a}).astype(np.float64) * {b} + {c}"
    return [f"{outs[0]} = ({wide}).astype(np.float32)"]


rules.native_rules[fma_p] = _fma_native
rules.native_elementwise.add(fma_p)
defjvp(
    fma_p,
    lambda t, a, b, c: ew.mul(t, b),
    lambda t, a, b, c: ew.mul(a, t),
    lambda t, a, b, c: t,
)


def fma(a, b, c):
    """``a*b + c`` rounded once (XLA's contracted multiply-add)."""
    return fma_p.bind(a, b, c)
