"""NumPy kernels of complex elementwise primitives with XLA:CPU's results at the edges.

NumPy's complex kernels follow C99 Annex G (or its own formulas); XLA expands each complex
operation into real arithmetic with its own algorithm, and the two part at infinities, NaNs
and signed zeros (``(-inf - inf j) / (-2 + 0j)`` is ``inf + inf j`` in JAX, NaN in NumPy).
These kernels reproduce XLA's expansions, found by probing JAX 0.10.2 over grids of special
values (tests/hunt/test_complex_edges_s10.py): the common finite path is a handful of
vectorised passes, and edge cases are patched only where a mask says so.

XLA:CPU contracts ``a*b + c`` into one fused multiply-add: the edge paths reproduce it
exactly for complex64 (a float32 product is exact in float64, then one rounding) and with
two roundings for complex128. Finite values take NumPy's fast kernels where those agree
with XLA to a few ulps (docs/compat.md). No project imports.
"""

from __future__ import annotations

import numpy as np

_f32, _f64 = np.dtype(np.float32), np.dtype(np.float64)


def _fma(a, b, c):
    """XLA:CPU's contracted ``a*b + c`` in the dtype of ``a``: exact for float32 (float64
    product and sum, then one rounding), two roundings for float64."""
    if a.dtype == _f32:
        return (a.astype(_f64) * b + c).astype(_f32)
    return a * b + c


def _pack(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real = re
    out.imag = im
    return out


def _parts(z):
    z = np.asarray(z)
    return z.real, z.imag


def divide(a, b):
    """``a / b`` for complex operands, as XLA.

    Finite quotients by finite divisors are NumPy's (Smith's algorithm too, within a few
    ulps of XLA's, several times faster than re-deriving XLA's roundings); every other
    element (a non-finite divisor or result, a zero divisor) is recomputed with XLA's
    algorithm, ``_xla_divide``."""
    a, b = np.asarray(a), np.asarray(b)
    with np.errstate(all="ignore"):
        out = np.true_divide(a, b)
        redo = ~np.isfinite(out)
        redo |= ~np.isfinite(b)
        if redo.any():
            out = _redo(out, redo, _xla_divide, a, b)
    return out


def _redo(out, mask, fn, *args):
    """``out`` with the elements under ``mask`` replaced by ``fn`` of those of ``args``."""
    shape = out.shape
    out = np.array(out, copy=True).reshape(-1) if out.ndim == 0 else out
    mask = mask.reshape(-1) if mask.ndim == 0 else mask
    args = [np.broadcast_to(x, shape).reshape(mask.shape) for x in args]
    out[mask] = fn(*[x[mask] for x in args])
    return out.reshape(shape)


def _xla_divide(a, b):
    """XLA's complex division: Smith's algorithm (the ratio of the smaller to the larger
    part of ``b``, contracted multiply-adds), then, where both parts came out NaN, the limits
    C99 recovers: a zero divisor gives ``copysign(inf, b.real) * a``; an infinite dividend
    over a finite divisor, inf times the unit-signed parts' product; a finite dividend over
    an infinite divisor, zero times it."""
    ar, ai = _parts(a)
    br, bi = _parts(b)
    small = np.abs(br) < np.abs(bi)
    p = np.where(small, br, bi)
    q = np.where(small, bi, br)
    r = p / q
    d = _fma(p, r, q)
    re = _fma(np.where(small, ar, ai), r, np.where(small, ai, ar)) / d
    im = _fma(np.where(small, ai, -ar), r, np.where(small, -ar, ai)) / d
    nan = np.isnan(re) & np.isnan(im)
    if nan.any():
        re[nan], im[nan] = _divide_limits(ar[nan], ai[nan], br[nan], bi[nan])
    return _pack(re, im, np.result_type(a, b))


def _divide_limits(ar, ai, br, bi):
    """The parts of ``a / b`` where Smith's algorithm gave NaN + NaN j."""
    ft = ar.dtype.type
    inf, zero, one = ft(np.inf), ft(0), ft(1)
    re, im = np.full_like(ar, np.nan), np.full_like(ar, np.nan)
    # A zero divisor (and a dividend not all NaN).
    m = (br == 0) & (bi == 0) & ~(np.isnan(ar) & np.isnan(ai))
    s = np.copysign(inf, br)
    re = np.where(m, s * ar, re)
    im = np.where(m, s * ai, im)
    # An infinite dividend over a finite divisor.
    a_inf_r, a_inf_i = np.isinf(ar), np.isinf(ai)
    m2 = ~m & (a_inf_r | a_inf_i) & np.isfinite(br) & np.isfinite(bi)
    ur = np.copysign(np.where(a_inf_r, one, zero), ar)
    ui = np.copysign(np.where(a_inf_i, one, zero), ai)
    re = np.where(m2, inf * (ur * br + ui * bi), re)
    im = np.where(m2, inf * (ui * br - ur * bi), im)
    # A finite dividend over an infinite divisor.
    b_inf_r, b_inf_i = np.isinf(br), np.isinf(bi)
    m3 = ~m & ~m2 & (b_inf_r | b_inf_i) & np.isfinite(ar) & np.isfinite(ai)
    vr = np.copysign(np.where(b_inf_r, one, zero), br)
    vi = np.copysign(np.where(b_inf_i, one, zero), bi)
    re = np.where(m3, zero * (ar * vr + ai * vi), re)
    im = np.where(m3, zero * (ai * vr - ar * vi), im)
    return re, im


def reciprocal(z):
    """``1 / z`` as XLA's complex division."""
    z = np.asarray(z)
    return divide(np.ones((), z.dtype), z)
