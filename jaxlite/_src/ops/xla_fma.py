"""XLA:CPU's contracted multiply-add ``a*b + c`` (one rounding, as LLVM fuses it on FMA
hosts; in float16/bfloat16 the product and the sum are each rounded, as XLA does),
reproduced in NumPy: a private elementwise primitive (impl, JVP, native rule) used where
JAX's bits depend on it (the samplers of ``random``, ``jnp.quantile``)."""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.ops import elementwise as ew
from jaxlite._src.ops._factories import FLOAT, defjvp, naryop

_f16, _f32, _f64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _host_fp16() -> bool:
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # NumPy's private module moved: assume the common host
        return False
    return bool(__cpu_features__.get("AVX512FP16"))


# Does XLA:CPU keep float16 products in float32 on this host (AVX512-FP16)?
_HOST_FP16 = _host_fp16()


# The one implementation of the emulation. Three forms of the same operations in the same
# order, so every caller gets the same bits: array functions (the primitive's impl), in-place
# ones over caller-owned buffers (the cache-blocked kernels of random/_xla_blocked, and the
# array functions themselves), and plain scalar arithmetic that Numba compiles
# (random/_xla_numba inlines it into the native-tier kernels).

# 2**27 + 1: Veltkamp's splitter; hi and lo of a float64 each fit in 26 bits, so the
# partial products of two split values are exact.
SPLIT = 134217729.0


def fma32(a, b, c):
    """float32 ``a*b + c`` rounded once: the product of two float32 values is exact in
    float64, so one float64 add then a rounding to float32 (double rounding below 2**-29)."""
    return (np.asarray(a, _f64) * b + c).astype(_f32)


def fma32_into(out, a, b64, c, t64):
    """``out = fma32(a, b, c)`` in place: ``b64`` is ``b`` already widened to float64,
    ``t64`` a float64 scratch of ``out``'s size (``out`` may be ``a``)."""
    np.multiply(b64, a, out=t64)
    np.add(t64, c, out=out, casting="same_kind")


def fma32_scalar(a, b, c):
    """``fma32`` of scalars (Numba compiles it)."""
    return np.float32(np.float64(a) * np.float64(b) + np.float64(c))


def veltkamp(a):
    """``(hi, lo)`` with ``a == hi + lo`` exactly, each half of 26 significant bits."""
    t = SPLIT * a
    hi = t - (t - a)
    return hi, a - hi


def veltkamp_into(a, hi, lo, t):
    """``hi, lo = veltkamp(a)`` in place (``t`` is scratch)."""
    np.multiply(a, SPLIT, out=t)
    np.subtract(t, a, out=hi)
    np.subtract(t, hi, out=hi)  # hi = t - (t - a)
    np.subtract(a, hi, out=lo)


FMA64_SCRATCH = 7  # float64 buffers fma64_into needs


def fma64_into(out, a, b, bh, bl, c, scratch):
    """``out = fma64(a, b, c)`` in place over 1-D float64 arrays: ``bh, bl`` is
    ``veltkamp(b)`` (a Horner chain splits its multiplier once), ``scratch`` a sequence of
    ``FMA64_SCRATCH`` float64 buffers of ``a``'s size; ``out`` may be ``a``. ``b`` and ``c``
    may be scalars."""
    pr, ah, al, e, t, sm, bb = scratch
    np.multiply(a, b, out=pr)  # p
    veltkamp_into(a, ah, al, t)
    np.multiply(ah, bh, out=e)  # Dekker: the rounding error of p, exactly
    e -= pr
    np.multiply(ah, bl, out=t)
    e += t
    np.multiply(al, bh, out=t)
    e += t
    np.multiply(al, bl, out=t)
    e += t  # e = ((ah*bh - p) + ah*bl + al*bh) + al*bl
    np.add(pr, c, out=sm)  # Knuth's TwoSum of p and c: s and its error t
    np.subtract(sm, pr, out=bb)
    np.subtract(sm, bb, out=t)
    np.subtract(pr, t, out=t)
    np.subtract(c, bb, out=bb)
    t += bb  # t = (p - (s - bb)) + (c - bb)
    t += e
    np.add(sm, t, out=out)  # s + (t + e)
    # Where the correction is zero the result is ``s`` itself; ``s + 0`` would turn a
    # ``-0.0`` sum (``-0.0*b + -0.0``) into ``+0.0``, which a real FMA does not.
    if not out.all():
        z = np.flatnonzero((out == 0) & (t == 0))
        out[z] = sm[z]


def fma64(a, b, c):
    """float64 ``a*b + c`` rounded once, with error-free transforms (Veltkamp split, Dekker
    product, Knuth TwoSum): ``fma64_into`` over the broadcast operands."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, _f64) for v in (a, b, c)))
    shape = a.shape
    a, b, c = (np.ascontiguousarray(v).reshape(-1) for v in (a, b, c))
    out = np.empty(a.shape, _f64)
    bh, bl = veltkamp(b)
    fma64_into(out, a, b, bh, bl, c, [np.empty_like(out) for _ in range(FMA64_SCRATCH)])
    return out.reshape(shape)


def fma64_scalar(a, b, c):
    """``fma64`` of float64 scalars, the same operations in the same order (plain
    arithmetic, so Numba compiles it; Numba does not contract multiplies and adds)."""
    p = a * b
    t = SPLIT * a
    ah = t - (t - a)
    al = a - ah
    t = SPLIT * b
    bh = t - (t - b)
    bl = b - bh
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    te = ((p - (s - bb)) + (c - bb)) + e
    return s if te == 0 else s + te


def fma64_any(a, b, c):
    """``fma64`` for any float64 operands: also at infinities and NaNs (where the
    error-free transforms would give NaN) and at magnitudes where Veltkamp's split
    overflows or Dekker's error term underflows (recomputed with the operands scaled by
    powers of two)."""
    a, b, c = np.broadcast_arrays(*(np.asarray(v, _f64) for v in (a, b, c)))
    with np.errstate(all="ignore"):
        out = np.asarray(fma64(a, b, c))
        ab_fin = np.isfinite(a) & np.isfinite(b)
        # a*b exact for an infinite or NaN factor; an infinite c with finite factors wins
        special = ~ab_fin | ~np.isfinite(c)
        out = np.where(special, np.where(ab_fin, c, a * b + c), out)
        p = np.abs(a * b)
        big = (np.abs(a) > 2.0**500) | (np.abs(b) > 2.0**500) | (p > 2.0**900)
        risky = ~special & (big | ((p < 2.0**-900) & (a != 0) & (b != 0)))
        if risky.any():
            a1, b1, c1 = a[risky], b[risky], c[risky]
            ea, eb = np.frexp(a1)[1], np.frexp(b1)[1]
            k = ea + eb
            r = fma64(np.ldexp(a1, -ea), np.ldexp(b1, -eb), np.ldexp(c1, -k))
            out = np.array(out)
            # where the scaled c overflowed, the product is far below its last bit
            out[risky] = np.where(np.isfinite(np.ldexp(c1, -k)), np.ldexp(r, k), c1)
    return out


def _fma_impl(a, b, c):
    dt = np.result_type(a, b, c)
    if dt == _f64:
        return fma64_any(a, b, c)
    if dt == _f32:
        return fma32(a, b, c)
    # float16/bfloat16: XLA:CPU computes each 16-bit operation in float32 and rounds it
    # back, so the multiply and the add are not contracted: two roundings. On hosts with
    # AVX512-FP16 (Sapphire Rapids and later) it keeps a float16 product in float32 up to
    # the add (JAX 0.10.2 measured there: one rounding; bfloat16 still two).
    a, b, c = (np.asarray(v, _f32) for v in (a, b, c))
    if dt == _f16 and _HOST_FP16:
        return (a * b + c).astype(dt)  # the product of two float16 values is exact in float32
    return ((a * b).astype(dt).astype(_f32) + c).astype(dt)


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
# jaxlite's own multiply-add (users write a product and a sum, XLA contracts them): its
# IEEE warnings (inf * 0 in quantile weights, histogram edges over inf data) are quiet.
rules.quiet_fp.add(fma_p)
defjvp(
    fma_p,
    lambda t, a, b, c: ew.mul(t, b),
    lambda t, a, b, c: ew.mul(a, t),
    lambda t, a, b, c: t,
)


def fma(a, b, c):
    """``a*b + c`` as XLA:CPU computes it: rounded once (a contracted multiply-add) in
    float32/float64, the product and then the sum rounded in float16/bfloat16 (float16
    rounded once on hosts with AVX512-FP16, as XLA:CPU does there)."""
    return fma_p.bind(a, b, c)
