"""Cache-blocked NumPy kernels for XLA:CPU's ``log``, ``log1p`` and ``erf_inv``.

These compute exactly what the spec's recipe (spec/random.md R7.3-R7.6) computes, the same
operations on the same values in the same order, but arranged for speed. They are what
``_xla_math`` runs on float32 and float64 arrays:

* the input is walked in blocks of ``_BLOCK`` elements, so every intermediate lives in a
  per-thread scratch buffer that stays in cache, and every ufunc writes in place (no
  temporaries of the array's size);
* every ``fma`` is one of ``ops/xla_fma``'s in-place forms (``fma32_into``: the float64
  product, exact for float32 operands, plus ``c``, rounded once; ``fma64_into``: the
  error-free transforms), over this module's scratch buffers; a Horner chain widens its
  multiplier to float64 (float32) or splits it (float64) once;
* a two-way branch (``log1p``'s rational form vs ``log(1 + x)``) evaluates each side only
  on the elements that take it, gathered by index; ``erf_inv``'s rare outer pieces
  (``w >= 5`` in float32, ``w >= 6.25`` in float64: under 0.4% of a ``normal`` draw) are a
  fix-up after the central polynomial has run over the whole block;
* selects are arithmetic where that is exact (NumPy's masked ``where=`` loops cost ~20x a
  plain ufunc);
* arrays of at least ``_PARALLEL_MIN`` elements are split over a few threads (NumPy
  releases the GIL inside its loops), each with its own scratch buffers.

tests/random/test_random_fast_paths.py checks them against JAX's own ``lax.log``,
``lax.log1p`` and ``lax.erf_inv`` bit for bit, special values included.
"""

from __future__ import annotations

import concurrent.futures
import math
import os
import threading

import numpy as np

from jaxlite._src.ops.xla_fma import (
    FMA64_SCRATCH,
    fma32_into,
    fma64_into,
    veltkamp,
    veltkamp_into,
)
from jaxlite._src.util import usable_cores

_f32, _f64, _u32 = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.uint32)

# Elements per block: the dozen float32/float64 scratch buffers of one block fit in L2.
_BLOCK = 1 << 14
# Arrays of at least this many elements per worker are split across threads.
_PARALLEL_MIN = 1 << 17
_THREADS = min(4, usable_cores())


def _f32c(bits: int) -> np.float32:
    return np.array(bits, _u32).view(_f32)[()]


def _f64c(bits: int) -> np.float64:
    return np.array(bits, np.uint64).view(_f64)[()]


def wide(c) -> np.float64:
    """A float32 constant as the float64 operand XLA's fused multiply-add sees."""
    return np.float64(np.float32(c))


# Giles' erf_inv coefficients (spec R7.6), highest power first; float32 tables are
# rounded to float32 where used.
EI32_A = (
    2.81022636e-08,
    3.43273939e-07,
    -3.5233877e-06,
    -4.39150654e-06,
    0.00021858087,
    -0.00125372503,
    -0.00417768164,
    0.246640727,
    1.50140941,
)
EI32_B = (
    -0.000200214257,
    0.000100950558,
    0.00134934322,
    -0.00367342844,
    0.00573950773,
    -0.0076224613,
    0.00943887047,
    1.00167406,
    2.83297682,
)
EI64_A = (
    -3.64441206401782e-21,
    -1.6850591381820166e-19,
    1.28584807152564e-18,
    1.1157877678025181e-17,
    -1.333171662854621e-16,
    2.0972767875968562e-17,
    6.637638134358324e-15,
    -4.054566272975207e-14,
    -8.151934197605472e-14,
    2.6335093153082323e-12,
    -1.2975133253453532e-11,
    -5.415412054294628e-11,
    1.0512122733215323e-09,
    -4.112633980346984e-09,
    -2.9070369957882005e-08,
    4.2347877827932404e-07,
    -1.3654692000834679e-06,
    -1.3882523362786469e-05,
    0.00018673420803405714,
    -0.000740702534166267,
    -0.006033670871430149,
    0.24015818242558962,
    1.6536545626831027,
)
EI64_B = (
    2.2137376921775787e-09,
    9.075656193888539e-08,
    -2.7517406297064545e-07,
    1.8239629214389228e-08,
    1.5027403968909828e-06,
    -4.013867526981546e-06,
    2.9234449089955446e-06,
    1.2475304481671779e-05,
    -4.7318229009055734e-05,
    6.828485145957318e-05,
    2.4031110387097894e-05,
    -0.0003550375203628475,
    0.0009532893797373805,
    -0.0016882755560235047,
    0.002491442096107851,
    -0.003751208507569241,
    0.005370914553590064,
    1.0052589676941592,
    3.0838856104922208,
)
EI64_C = (
    -2.7109920616438573e-11, -2.555641816996525e-10, 1.5076572693500548e-09,
    -3.789465440126737e-09, 7.61570120807834e-09, -1.496002662714924e-08,
    2.914795345090108e-08, -6.771199775845234e-08, 2.2900482228026655e-07,
    -9.9298272942317e-07, 4.526062597223154e-06, -1.968177810553167e-05,
    7.599527703001776e-05, -0.00021503011930044477, -0.00013871931833623122,
    1.0103004648645344, 4.849906401408584,
)  # fmt: skip


# ------------------------------------------------------------------------ scratch space


class _Scratch(threading.local):
    """Per-thread scratch buffers of ``_BLOCK`` elements, created on first use by name."""

    def __init__(self):
        self.bufs: dict = {}

    def get(self, name: str, dtype: np.dtype, m: int) -> np.ndarray:
        buf = self.bufs.get((name, dtype))
        if buf is None:
            buf = self.bufs[(name, dtype)] = np.empty(_BLOCK, dtype)
        return buf[:m]


_scratch = _Scratch()
_pool = None
_pool_lock = threading.Lock()


def _thread_pool():
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=_THREADS, thread_name_prefix="jaxlite-xla-math"
            )
    return _pool


def _run_range(block_fn, x, out, start, stop):
    with np.errstate(all="ignore"):  # errstate is per thread: set it in each worker
        for lo in range(start, stop, _BLOCK):
            hi = min(lo + _BLOCK, stop)
            block_fn(x[lo:hi], out[lo:hi], _scratch)


def run_blocked(block_fn, x: np.ndarray, dtype=_f32) -> np.ndarray:
    """``block_fn(x_block, out_block, scratch)`` over ``x`` (as ``dtype``) in blocks; the
    result has ``x``'s shape."""
    x = np.asarray(x, dtype)
    out = np.empty(x.shape, dtype)
    xf, of = np.ascontiguousarray(x).reshape(-1), out.reshape(-1)
    n = xf.shape[0]
    workers = min(_THREADS, n // _PARALLEL_MIN) if _THREADS > 1 else 1
    if workers <= 1:
        _run_range(block_fn, xf, of, 0, n)
        return out
    blocks = -(-n // _BLOCK)
    per = -(-blocks // workers) * _BLOCK  # whole blocks per worker
    futures = [
        _thread_pool().submit(_run_range, block_fn, xf, of, lo, min(lo + per, n))
        for lo in range(0, n, per)
    ]
    for f in futures:
        f.result()
    return out


# ------------------------------------------------------------------------ building blocks


def _horner(w64, coeffs, p32, p64):
    """``p = c0; p = fma32(p, w, c)`` for the rest: result in ``p32`` (``p64`` is scratch).

    ``coeffs`` are float64 images of float32 constants; ``w64`` is ``w`` widened."""
    fma32_into(p32, coeffs[0], w64, coeffs[1], p64)
    for c in coeffs[2:]:
        fma32_into(p32, p32, w64, c, p64)


def _split(x, out, cond, s, tag, f_true, f_false):
    """``out = where(cond, f_true(x), f_false(x))``, each side on the elements taking it."""
    m = x.shape[0]
    n_true = int(np.count_nonzero(cond))
    if n_true == m:
        f_true(x, out, s)
        return
    if n_true == 0:
        f_false(x, out, s)
        return
    for idx, f in ((np.flatnonzero(cond), f_true), (np.flatnonzero(~cond), f_false)):
        k = idx.shape[0]
        xs = s.get(tag + "x", x.dtype, m)[:k]
        os_ = s.get(tag + "o", x.dtype, m)[:k]
        np.take(x, idx, out=xs)
        f(xs, os_, s)
        out[idx] = os_


# --------------------------------------------------------------------------------- log

_LOG_CLAMP = np.float32(2.0**-126)
_SQRTHF = _f32c(0x3F3504F3)
_LOG_A = tuple(wide(_f32c(b)) for b in (0x3D9021BB, 0xBDEBD1B8, 0x3DEF251A))
_LOG_B = tuple(wide(_f32c(b)) for b in (0xBDFE5D4F, 0x3E11E9BF, 0xBE2AAE50))
_LOG_C = tuple(wide(_f32c(b)) for b in (0x3E4CCEAC, 0xBE7FFFFC, 0x3EAAAAAA))
_LOG_Q1 = _f32c(0xB95E8083)
_LOG_Q2 = wide(_f32c(0x3F318000))
# Positive finite nonzero float32 bit patterns p are those with p - 1 < 0x7F7FFFFF (u32).
_FINITE_POS = np.uint32(0x7F7FFFFF)


def log_block(y, out, s):
    """XLA:CPU's float32 ``log`` (spec R7.3) of the block ``y`` into ``out``."""
    m = y.shape[0]
    yc = s.get("log.yc", _f32, m)
    np.fmax(y, _LOG_CLAMP, out=yc)  # also maps NaN, zeros and negatives to the clamp
    bits = yc.view(_u32)
    mb = s.get("log.mb", _u32, m)
    e = s.get("log.e", _f32, m)
    np.right_shift(bits, np.uint32(23), out=mb)
    np.copyto(e, mb, casting="unsafe")  # a biased exponent in [1, 254]: exact
    e -= np.float32(126)  # (k - 127) + 1
    np.bitwise_and(bits, np.uint32(0x807FFFFF), out=mb)
    mb |= np.uint32(0x3F000000)
    mant = mb.view(_f32)  # in [0.5, 1)
    # small = m < sqrt(1/2) as 0.0/1.0: x = (m - 1) + m*small, e -= small (both exact, and
    # the same as the recipe's select: (m - 1) + 0 is m - 1, as m - 1 is never zero).
    small = s.get("log.small", np.dtype(bool), m)
    np.less(mant, _SQRTHF, out=small)
    sm = s.get("log.sm", _f32, m)
    np.copyto(sm, small)
    e -= sm
    x = s.get("log.x", _f32, m)
    np.subtract(mant, np.float32(1), out=x)
    np.multiply(mant, sm, out=sm)
    x += sm
    x2 = s.get("log.x2", _f32, m)
    x3 = s.get("log.x3", _f32, m)
    np.multiply(x, x, out=x2)
    np.multiply(x2, x, out=x3)
    x64 = s.get("log.x64", _f64, m)
    x364 = s.get("log.x364", _f64, m)
    t64 = s.get("log.t64", _f64, m)
    np.copyto(x64, x)
    np.copyto(x364, x3)
    a, b, c = (s.get("log." + k, _f32, m) for k in "abc")
    for r, (k0, k1, k2) in zip((a, b, c), (_LOG_A, _LOG_B, _LOG_C)):
        fma32_into(r, k0, x64, k1, t64)
        fma32_into(r, r, x64, k2, t64)
    fma32_into(a, a, x364, b, t64)  # r = fma(A, x3, B)
    fma32_into(a, a, x364, c, t64)  # r = fma(r, x3, C)
    eq = s.get("log.eq", _f32, m)
    np.multiply(e, _LOG_Q1, out=eq)
    fma32_into(a, a, x364, eq, t64)  # r = fma(r, x3, e * q1)
    np.multiply(x2, np.float32(0.5), out=x2)
    np.subtract(x, x2, out=x)
    np.add(x, a, out=x)  # (x - x2 * 0.5) + r
    np.multiply(e, _LOG_Q2, out=t64)
    np.add(t64, x, out=out, casting="same_kind")  # fma(e, q2, ...)
    # Zeros, negatives, infinities and NaN: rare, patched element by element.
    pm1 = s.get("log.pm1", _u32, m)
    np.subtract(y.view(_u32), np.uint32(1), out=pm1)
    if m and pm1.max() >= _FINITE_POS:
        bad = np.flatnonzero(pm1 >= _FINITE_POS)
        v = y[bad]
        fix = out[bad]
        fix[v == 0] = -np.inf
        fix[v == np.inf] = np.inf
        fix[(v < 0) | np.isnan(v)] = np.nan
        out[bad] = fix


# ------------------------------------------------------------------------------- log1p

_L1P_C0 = _f32c(0x3ED413CD)
_L1P_P = tuple(
    wide(_f32c(b))
    for b in (0x383DE04B, 0x3EFF40C5, 0x40D284FA, 0x41EF4B9C, 0x4273CC76, 0x426473AD, 0x41A05101)
)
_L1P_Q = (np.float64(1.0),) + tuple(
    wide(_f32c(b)) for b in (0x417101AD, 0x42A6185B, 0x435DC32D, 0x439A8CA3, 0x43586D8A, 0x42707982)
)


def _log1p_rational_block(x, out, s):
    """``x + fma(x*x, -0.5, (x*x*x) * (p/q))`` with Giles' rational ``p/q`` (spec R7.4)."""
    m = x.shape[0]
    x64 = s.get("l1p.x64", _f64, m)
    p64 = s.get("l1p.p64", _f64, m)
    np.copyto(x64, x)
    p = s.get("l1p.p", _f32, m)
    q = s.get("l1p.q", _f32, m)
    _horner(x64, _L1P_P, p, p64)
    _horner(x64, _L1P_Q, q, p64)  # the first step, 1 * x + c, is exact as written
    np.divide(p, q, out=p)
    x2 = s.get("l1p.x2", _f32, m)
    np.multiply(x, x, out=x2)
    np.multiply(x, x2, out=q)
    np.multiply(q, p, out=p)  # (x * x2) * (p / q)
    np.multiply(x2, np.float64(-0.5), out=p64)  # float64: x2 widened times -0.5, exact
    np.add(p64, p, out=x2, casting="same_kind")
    np.add(x, x2, out=out)


def _log_of_1p_block(x, out, s):
    v = s.get("l1p.v", _f32, x.shape[0])
    np.add(x, np.float32(1), out=v)
    log_block(v, out, s)


def log1p_block(x, out, s):
    """XLA:CPU's float32 ``log1p`` (spec R7.4) of the block ``x`` into ``out``."""
    cond = s.get("l1p.cond", np.dtype(bool), x.shape[0])
    ax = s.get("l1p.ax", _f32, x.shape[0])
    np.abs(x, out=ax)
    np.less(ax, _L1P_C0, out=cond)
    _split(x, out, cond, s, "l1p.", _log1p_rational_block, _log_of_1p_block)


# ----------------------------------------------------------------------------- erf_inv


def erf_inv_block(x, out, s, central, tail):
    """Giles' float32 ``erf_inv`` (spec R7.6) of the block ``x`` into ``out``.

    ``central``/``tail`` are the two coefficient tuples (float64 images of float32 values).
    """
    m = x.shape[0]
    t = s.get("ei.t", _f32, m)
    np.multiply(x, x, out=t)
    np.negative(t, out=t)  # x * -x
    w = s.get("ei.w", _f32, m)
    log1p_block(t, w, s)
    np.negative(w, out=w)
    ww = s.get("ei.ww", _f32, m)
    w64 = s.get("ei.w64", _f64, m)
    p64 = s.get("ei.p64", _f64, m)
    np.subtract(w, np.float32(2.5), out=ww)
    np.copyto(w64, ww)
    _horner(w64, central, t, p64)  # over the whole block; the tail is redone below
    np.multiply(t, x, out=out)
    cond = s.get("ei.cond", np.dtype(bool), m)
    np.less(w, np.float32(5), out=cond)
    if cond.all():
        return
    idx = np.flatnonzero(~cond)  # w >= 5 or NaN: |x| > 0.9966, NaN, or |x| >= 1
    wt = np.sqrt(w[idx])
    wt -= np.float32(3)
    pt = np.empty_like(wt)
    _horner(wt.astype(_f64), tail, pt, np.empty(wt.shape, _f64))
    xt = x[idx]
    pt *= xt
    one = np.abs(xt) == np.float32(1)
    pt[one] = xt[one] * np.float32(np.inf)
    out[idx] = pt


# ----------------------------------------------------------------------------- float64
# float64 has no wider type to round from: ``fma64_into`` (ops/xla_fma) is the
# error-free-transform emulation, in place over scratch buffers; in a Horner chain the
# multiplier's split is computed once.


def _fma64_scratch(s, tag, m):
    return [s.get(f"{tag}f{k}", _f64, m) for k in range(FMA64_SCRATCH)]


def _horner64(w, coeffs, p, s, tag):
    """``p = c0; p = fma64(p, w, c)`` for the rest, into ``p``."""
    m = w.shape[0]
    wh, wl, t = (s.get(tag + k, _f64, m) for k in ("h.wh", "h.wl", "h.t"))
    veltkamp_into(w, wh, wl, t)
    scratch = _fma64_scratch(s, tag, m)
    p.fill(coeffs[0])
    for c in coeffs[1:]:
        fma64_into(p, p, w, wh, wl, c, scratch)


_L1P64_C0 = _f64c(0x3FDA827999FCEF32)
_L1P64_P = tuple(
    _f64c(b)
    for b in (
        0x3F07BC0962B395CA, 0x3FDFE818A0FE1A83, 0x401A509F46F4FA53, 0x403DE9738B8CB9C9,
        0x404E798EB86C3351, 0x404C8E7597479A10, 0x40340A202D99830A,
    )
)  # fmt: skip
_L1P64_Q = (np.float64(1.0),) + tuple(
    _f64c(b)
    for b in (
        0x402E20359E903E37, 0x4054C30B52213498, 0x406BB86590FCFB56,
        0x407351945DC908A5, 0x406B0DB13E48E066, 0x404E0F304466448E,
    )
)  # fmt: skip
_HALF_SPLIT = veltkamp(np.float64(-0.5))

_libm_log = np.frompyfunc(math.log, 1, 1)


def log_f64(y):
    """float64 ``log``: XLA:CPU calls the C library's, i.e. Python's ``math.log`` (NumPy's
    own SIMD ``log`` differs in about 0.3% of inputs, spec R7.5)."""
    y = np.asarray(y, _f64)
    out = np.empty(y.shape, _f64)
    ok = y > 0
    ok &= np.isfinite(y)
    out[ok] = _libm_log(y[ok]).astype(_f64)
    bad = ~ok
    if bad.any():
        with np.errstate(all="ignore"):
            out[bad] = np.log(y[bad])
    return out


def _log1p64_rational_block(x, out, s):
    m = x.shape[0]
    p, q, x2 = (s.get("l1p64." + k, _f64, m) for k in ("p", "q", "x2"))
    _horner64(x, _L1P64_P, p, s, "l1p64.")
    _horner64(x, _L1P64_Q, q, s, "l1p64.")
    np.divide(p, q, out=p)
    np.multiply(x, x, out=x2)
    np.multiply(x, x2, out=q)
    np.multiply(q, p, out=p)  # (x * x2) * (p / q)
    fma64_into(p, x2, np.float64(-0.5), *_HALF_SPLIT, p, _fma64_scratch(s, "l1p64.", m))
    np.add(x, p, out=out)


def _log64_of_1p_block(x, out, s):
    out[...] = log_f64(x + 1.0)


def log1p64_block(x, out, s):
    """XLA:CPU's float64 ``log1p`` (spec R7.5) of the block ``x`` into ``out``."""
    cond = s.get("l1p64.cond", np.dtype(bool), x.shape[0])
    ax = s.get("l1p64.ax", _f64, x.shape[0])
    np.abs(x, out=ax)
    np.less(ax, _L1P64_C0, out=cond)
    _split(x, out, cond, s, "l1p64.", _log1p64_rational_block, _log64_of_1p_block)


def erf_inv64_block(x, out, s, central, middle, tail):
    """Giles' float64 ``erf_inv`` (spec R7.6) of the block ``x`` into ``out``: the central
    polynomial (``w < 6.25``) over the whole block, then the rare rest redone."""
    m = x.shape[0]
    t, w, p = (s.get("ei64." + k, _f64, m) for k in ("t", "w", "p"))
    np.multiply(x, x, out=t)
    np.negative(t, out=t)  # x * -x
    log1p64_block(t, w, s)
    np.negative(w, out=w)
    np.subtract(w, 3.125, out=t)
    _horner64(t, central, p, s, "ei64.")
    np.multiply(p, x, out=out)
    cond = s.get("ei64.cond", np.dtype(bool), m)
    np.less(w, 6.25, out=cond)
    if cond.all():
        return
    idx = np.flatnonzero(~cond)  # w >= 6.25 or NaN: |x| > 0.999, NaN, or |x| >= 1
    wr = w[idx]
    k = idx.shape[0]
    mid = wr < 16.0
    pr = np.empty(k, _f64)
    for sel, ctr, coeffs in ((mid, 3.25, middle), (~mid, 5.0, tail)):
        j = np.flatnonzero(sel)
        if j.size:
            ww = np.sqrt(wr[j]) - ctr
            pj = np.empty(j.size, _f64)
            _horner64(ww, coeffs, pj, s, "ei64t.")
            pr[j] = pj
    xr = x[idx]
    pr *= xr
    one = np.abs(xr) == 1.0
    pr[one] = xr[one] * np.inf
    out[idx] = pr
