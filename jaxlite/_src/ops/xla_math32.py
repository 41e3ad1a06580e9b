"""XLA:CPU's float32 ``exp``, ``log`` and ``tanh``, bit for bit, in NumPy.

XLA's CPU backend does not call the C library for these: it expands each into float32
arithmetic (a range reduction and a polynomial, or a rational function), and LLVM, which
XLA:CPU runs with floating-point contraction on, fuses every multiply that feeds only an add
into one fused multiply-add (FMA, one rounding). Under XLA:CPU's flush-to-zero mode a
subnormal result is 0 and a subnormal operand of a comparison counts as 0. The functions
below follow the same operations in the same order, so they return JAX's bits.

Each FMA ``a*b + c`` of float32 values is computed in float64: the product is exact there,
the sum is rounded to float64 and then to float32. That double rounding can differ from one
rounding only when the float64 sum falls exactly halfway between two float32 values; the
checks against JAX (below) found no operand where it changes a result.

* ``exp``: ``x`` clamped to ``[-87.8, 88.8]``; ``n = floor(fma(x, log2(e), 0.5))`` clamped
  to ``[-127, 127]``; ``r = fma(-C2, n, x - n*C1)`` with ``C1 + C2`` a two-part ``ln 2``;
  ``y = 1 + fma(P(r), r*r, r)`` with ``P`` a degree-5 polynomial by FMA Horner steps;
  the result is ``y * 2**n`` with ``2**n`` built from its exponent bits (``n = -127`` gives
  0), flushed to 0 below the smallest normal float32.
* ``log``: ``x = m * 2**e`` with ``m`` in ``[0.5, 1)``; for ``m < sqrt(1/2)``, ``m`` is
  doubled and ``e`` decremented; ``f = m - 1``; three quadratics in ``f`` (FMA Horner),
  combined with ``f**3`` by FMAs into ``y``, the last FMA adding ``e*C2``; the result is
  ``((f - f*f/2) + y) + e*C1``. A zero or subnormal operand (either sign) gives ``-inf``,
  ``+inf`` gives ``+inf``, a negative one or a NaN gives the NaN with every bit set.
* ``tanh``: ``x`` for ``|x| < 0.0004`` (subnormals included, not flushed), ``sign(x)`` for
  ``|x| >= 20``; else, with ``x`` clamped to ``+-7.90531``, the rational function
  ``x * p(x*x) / q(x*x)`` (degrees 6 and 3 in ``x*x``, FMA Horner steps).

Checked against JAX 0.10.2's jitted results (session 16; tests/hunt/
test_xla_f32_transcendentals_s16.py keeps a sample and a table of them): ``exp32``,
``log32`` and ``tanh32`` over all 2**32 float32 bit patterns: no difference, NaN bits
included (the expansions, written with hardware FMAs in a scratch Numba reference, matched
too, NaN bits aside: so the float64 double rounding never shows). XLA computes bfloat16
``exp``/``log``/``tanh`` and float16 ``tanh`` with the float32 expansion of the widened
operand, rounded back; float16 ``exp``/``log`` it leaves to LLVM, which widens them to a
float32 call of the C library. Over all 65,536 16-bit values, these kernels widened and
rounded give JAX's bits in all six cases.

Used by ``lax.exp``, ``lax.log`` and ``lax.tanh`` (float32; bfloat16, and float16 ``tanh``,
through float32) when the ``jaxlite_xla_math`` flag is on (``ops/xla_math_flag``), where
Numba is absent or the native tier off: a block costs some forty NumPy passes where NumPy's
SIMD kernel makes one (float32[1M], measured on the loaded 2-core development machine:
``exp`` 43 ms against NumPy's 0.6 ms, ``tanh`` 18-39 ms against 0.5 ms, ``log`` 34-64 ms
against 0.4 ms). The native tier's loops over the same expansions
(``ops/xla_math32_numba``) give these bits near NumPy's speed.
"""

from __future__ import annotations

import struct

import numpy as np

_f32, _f64, _u32 = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.uint32)


def _c(bits: int) -> float:
    """The float32 value with these bits, as a Python float (exactly)."""
    return float(np.array(bits, np.uint32).view(np.float32))


_MIN_NORMAL = _c(0x00800000)

# exp: Cody-Waite reduction by ln 2 = LN2_HI + LN2_LO (LN2_HI has 9 significant bits, so
# n * LN2_HI is exact), then a degree-5 polynomial of the reduced argument.
_EXP_LO, _EXP_HI = np.float32(-87.8), np.float32(88.8)
_LOG2E = _c(0x3FB8AA3B)
_LN2_HI, _LN2_LO = np.float32(_c(0x3F318000)), _c(0xB95E8083)
_EXP_P = tuple(map(_c, (0x39506967, 0x3AB743CE, 0x3C088908, 0x3D2AA9C1, 0x3E2AAAAA))) + (0.5,)

# log: three quadratics of f combined in f**3 (the Cephes logf coefficients, low to high).
_SQRT_HALF_MANT = 0x3504F3  # mantissa bits of float32(sqrt(1/2))
_LOG_P = tuple(
    map(
        _c,
        (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A, 0xBDFE5D4F, 0x3E11E9BF, 0xBE2AAE50, 0x3E4CCEAC,
         0xBE7FFFFC, 0x3EAAAAAA),
    )
)  # fmt: skip

# tanh: x * p(x*x) / q(x*x) on |x| <= 7.90531..., coefficients highest degree first.
_TANH_CLAMP = np.float32(_c(0x40FFF644))
_TANH_P = tuple(map(_c, (0xA59F25C0, 0x2A61337E, 0xAEBD37FF, 0x335C0041, 0x3779434A,
                         0x3A270DED, 0x3BA059DC)))  # fmt: skip
_TANH_Q = tuple(map(_c, (0x35A0D3D8, 0x38F895D6, 0x3B14AA05, 0x3BA059DD)))
_TANH_TINY, _TANH_BIG = np.float32(4e-4), np.float32(20.0)

# Elements per block: the float64 and float32 scratch of a block (~0.6 MiB) stays in L2.
_BLOCK = 1 << 14


class _Scratch:
    """Per-call scratch buffers of one block: float64 ``d*``, float32 ``s*``, a mask."""

    def __init__(self, n: int, n64: int, n32: int):
        self.d = [np.empty(n, _f64) for _ in range(n64)]
        self.s = [np.empty(n, _f32) for _ in range(n32)]
        self.m = np.empty(n, np.bool_)

    def view(self, k: int):
        return [a[:k] for a in self.d], [a[:k] for a in self.s], self.m[:k]


def _round32(t, s):
    """``t`` (float64) rounded to float32 in place; ``s`` (float32) receives it too."""
    np.copyto(s, t, casting="same_kind")
    np.copyto(t, s)


def _horner(t, z, coefs, s):
    """``t = fma(...fma(fma(c0, z, c1), z, c2)..., z, ck)`` with every FMA rounded to
    float32 (``t``, ``z`` float64 holding float32 values; ``s`` float32 scratch, which holds
    the result on return, as ``t`` does)."""
    np.multiply(z, coefs[0], out=t)
    t += coefs[1]
    _round32(t, s)
    for c in coefs[2:]:
        t *= z
        t += c
        _round32(t, s)


def _exp_block(x, out, d, s, m):
    t, r64, u = d
    xc, fx, r = s
    np.maximum(x, _EXP_LO, out=xc)
    np.minimum(xc, _EXP_HI, out=xc)
    np.copyto(t, xc)
    t *= _LOG2E
    t += 0.5
    np.copyto(fx, t, casting="same_kind")  # fma(x, log2e, 0.5): the product is exact
    np.floor(fx, out=fx)
    np.maximum(fx, np.float32(-127), out=fx)
    np.minimum(fx, np.float32(127), out=fx)
    np.multiply(fx, _LN2_HI, out=r)  # exact
    np.subtract(xc, r, out=r)
    # fma(-LN2_LO, n, r): r - n*LN2_LO is exact in float64 (a span of under 40 bits).
    np.copyto(t, fx)
    t *= _LN2_LO
    np.copyto(r64, r)
    np.subtract(r64, t, out=r64)
    _round32(r64, r)
    _horner(t, r64, _EXP_P, xc)
    np.multiply(r, r, out=xc)  # r*r, rounded
    np.copyto(u, xc)
    t *= u  # P(r) * r*r: exact
    t += r64
    np.copyto(xc, t, casting="same_kind")
    xc += np.float32(1)
    # 2**n from its exponent bits: n + 127 in [0, 254] (0 gives the float 0).
    e = fx.view(np.int32)
    np.copyto(e, fx, casting="unsafe")  # NaN gives garbage bits: y is NaN there anyway
    e += 127
    e <<= 23
    np.multiply(xc, fx, out=out)  # fx now holds the bits of 2**n
    np.less(out, _MIN_NORMAL, out=m)
    np.copyto(out, 0, where=m)  # flush to zero (results are >= 0 or NaN)


def _log_block(x, out, d, s, m):
    t, z, y, y1, z3 = d
    f, a, b = s
    bits = x.view(np.uint32)
    mb = a.view(np.uint32)
    np.bitwise_and(bits, np.uint32(0x7FFFFF), out=mb)
    np.less(mb, np.uint32(_SQRT_HALF_MANT), out=m)
    # the exponent, as XLA's float: (bits >> 23) - 127 + 1, minus 1 where m is doubled
    eb = b.view(np.uint32)
    np.right_shift(bits, np.uint32(23), out=eb)
    np.copyto(f, eb, casting="unsafe")
    np.copyto(b, f)
    b -= np.float32(126)
    np.subtract(b, m, out=b)  # e (float32, integral)
    mb |= np.uint32(0x3F000000)  # a = m in [0.5, 1)
    np.subtract(a, np.float32(1), out=f)
    np.add(f, a, out=f, where=m)  # (m - 1) + m, exact
    np.copyto(z, f)
    # three quadratics in f, then y = fma(fma(fma(y0, f3, y1), f3, y2), f3, e*LN2_LO)
    _horner(y, z, _LOG_P[0:3], a)
    _horner(y1, z, _LOG_P[3:6], a)
    _horner(t, z, _LOG_P[6:9], a)
    np.multiply(f, f, out=a)  # f*f
    np.multiply(a, f, out=out)  # f**3
    np.copyto(z3, out)
    y *= z3
    y += y1
    _round32(y, out)
    y *= z3
    y += t
    _round32(y, out)
    y *= z3
    np.multiply(b, np.float32(_LN2_LO), out=out)  # e*LN2_LO, rounded
    np.copyto(t, out)
    y += t
    np.copyto(out, y, casting="same_kind")  # y
    a *= np.float32(0.5)
    np.subtract(f, a, out=f)  # f - f*f/2 (the product is exact)
    f += out
    np.multiply(b, _LN2_HI, out=out)  # exact
    np.add(f, out, out=out)
    # zero, subnormal, negative, inf, NaN: one unsigned comparison finds them all
    np.subtract(bits, np.uint32(0x00800000), out=mb)
    np.greater_equal(mb, np.uint32(0x7F000000), out=m)
    if m.any():
        idx = np.flatnonzero(m)
        xb = bits[idx]
        v = np.full(idx.size, 0xFFFFFFFF, np.uint32)  # negative, NaN
        v[xb == 0x7F800000] = 0x7F800000
        v[(xb & np.uint32(0x7FFFFFFF)) < 0x00800000] = 0xFF800000
        out.view(np.uint32)[idx] = v


def _tanh_block(x, out, d, s, m):
    t, z = d
    xc, q = s
    np.maximum(x, -_TANH_CLAMP, out=xc)
    np.minimum(xc, _TANH_CLAMP, out=xc)
    np.multiply(xc, xc, out=q)
    np.copyto(z, q)
    _horner(t, z, _TANH_Q, q)
    _horner(t, z, _TANH_P, out)
    np.multiply(xc, out, out=out)
    np.divide(out, q, out=out)
    np.abs(x, out=xc)
    np.less(xc, _TANH_TINY, out=m)
    np.copyto(out, x, where=m)
    np.greater_equal(xc, _TANH_BIG, out=m)
    if m.any():
        np.copysign(np.float32(1), x, out=out, where=m)


_KERNELS = {"exp": (_exp_block, 3, 3), "log": (_log_block, 5, 3), "tanh": (_tanh_block, 2, 2)}


def _apply(name: str, x):
    """The float32 function ``name`` of array ``x`` (any shape), block by block."""
    fn, n64, n32 = _KERNELS[name]
    x = np.asarray(x)
    flat = np.ascontiguousarray(x, _f32).reshape(-1)
    out = np.empty(flat.size, _f32)
    n = flat.size
    sc = _Scratch(min(n, _BLOCK), n64, n32)
    with np.errstate(all="ignore"):
        for i in range(0, n, _BLOCK):
            k = min(_BLOCK, n - i)
            d, s, m = sc.view(k)
            fn(flat[i : i + k], out[i : i + k], d, s, m)
    return out.reshape(x.shape)


def exp32(x):
    """XLA:CPU's float32 ``exp`` of a float32 array."""
    return _apply("exp", x)


def log32(x):
    """XLA:CPU's float32 ``log`` of a float32 array."""
    x = np.asarray(x)
    if x.size <= _SMALL:
        flat = np.ascontiguousarray(x, _f32).reshape(-1).view(np.uint32)
        bits = [_log_bits(int(b)) for b in flat]
        return np.array(bits, np.uint32).view(_f32).reshape(x.shape)
    return _apply("log", x)


# Arrays of at most this many elements take ``_log_bits``, element by element in Python
# (~5 us an element against ~50 us for one call of the block kernel's forty ufuncs).
_SMALL = 8
_PACK_F, _UNPACK_F = struct.Struct("<f").pack, struct.Struct("<f").unpack
_PACK_I = struct.Struct("<I").pack


def _r32(v: float) -> float:
    """``v`` rounded to float32 (to nearest even), as a Python float."""
    return _UNPACK_F(_PACK_F(v))[0]


def _log_bits(b: int) -> int:
    """``_log_block`` for one element, in Python floats: the same operations on the same
    values (float32 ``+ - *`` are float64 ones rounded once; an FMA is the exact float64
    product plus ``c``, rounded to float64 then to float32), so the same bits. ``b`` is the
    operand's bit pattern; so is the result."""
    if (b - 0x00800000) & 0xFFFFFFFF >= 0x7F000000:  # zero, subnormal, negative, inf, NaN
        if b == 0x7F800000:
            return b
        return 0xFF800000 if b & 0x7FFFFFFF < 0x00800000 else 0xFFFFFFFF
    mb = b & 0x7FFFFF
    small = mb < _SQRT_HALF_MANT
    e = float((b >> 23) - 126 - small)
    m = (mb | 0x800000) * 2.0**-24  # in [0.5, 1), exactly
    f = (m - 1.0) + m if small else m - 1.0  # exact
    p = _LOG_P
    y = _r32(_r32(f * p[0] + p[1]) * f + p[2])
    y1 = _r32(_r32(f * p[3] + p[4]) * f + p[5])
    y2 = _r32(_r32(f * p[6] + p[7]) * f + p[8])
    f2 = _r32(f * f)
    f3 = _r32(f2 * f)
    y = _r32(y * f3 + y1)
    y = _r32(y * f3 + y2)
    y = _r32(y * f3 + _r32(e * _LN2_LO))
    r = _r32(_r32(_r32(f - f2 * 0.5) + y) + _r32(e * float(_LN2_HI)))
    return int.from_bytes(_PACK_F(r), "little")


def tanh32(x):
    """XLA:CPU's float32 ``tanh`` of a float32 array."""
    return _apply("tanh", x)
