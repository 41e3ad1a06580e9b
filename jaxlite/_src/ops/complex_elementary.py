"""NumPy kernels of complex unary functions with XLA:CPU's results at the edges.

NumPy's complex kernels follow C99 Annex G; XLA expands each complex function into real
arithmetic (its elemental emitter, StableHLO's CHLO decompositions, or jax.numpy's own
formula), and the two part at infinities, NaNs and signed zeros: XLA's ``tanh(inf - 0j)`` is
``1 + 0j`` (C99: ``1 - 0j``), its ``abs(inf + nan j)`` is NaN (C99: inf), its
``sqrt(-1 - 0j)`` is ``+1j`` (C99: ``-1j``). Each kernel here runs NumPy's kernel, then
recomputes with XLA's expansion only the elements where they may part: a part of the
operand zero, infinite or NaN, or a result part not finite (``_special``). Finite results of
finite operands with nonzero parts stay NumPy's, within a few ulps of XLA's.

The expansions were read off XLA's and StableHLO's published algorithms and checked against
JAX 0.10.2 over grids of special values (tests/hunt/test_complex_unary_s11.py). Where XLA's
own algorithm was not at hand (``sqrt``, ``asin``, ``acos``, ``asinh``, ``acosh``), the kernel
applies the rules the sweep observed: XLA's branch-cut algorithms test ``part >= 0``, so a
zero part's sign is ignored where C99 follows it, and a NaN part makes the whole result NaN
where C99 keeps an exact part. Imports only complex_kernels.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src.ops.complex_kernels import _fma, _redo, divide

_LOG_HALF = float(np.log(0.5))
# Parts below these (zeros included) are special: their squares underflow.
_TINY = {np.dtype(d): np.finfo(d).tiny ** 0.5 for d in (np.complex64, np.complex128)}


def _special(z, out):
    """Elements whose result XLA may compute otherwise than NumPy: a part of ``z`` zero, tiny
    (its square underflows) or not finite, or ``out`` (NumPy's result) not finite."""
    m = ~np.isfinite(out)
    m |= ~np.isfinite(z)
    tiny = _TINY[z.dtype]
    m |= np.abs(z.real) < tiny
    m |= np.abs(z.imag) < tiny
    return m


def _pack(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real = re
    out.imag = im
    return out


def _patch(np_fn, xla_parts):
    """A kernel: ``np_fn`` (NumPy's complex kernel), with the special elements recomputed by
    ``xla_parts(re, im) -> (re, im)`` (XLA's expansion, on the operand's real dtype)."""

    def xla(z):
        re, im = xla_parts(z.real, z.imag)
        return _pack(re, im, z.dtype)

    def kernel(z):
        z = np.asarray(z)
        with np.errstate(all="ignore"):
            out = np_fn(z)
            mask = _special(z, out)
            if mask.any():
                out = _redo(out, mask, xla, z)
        return out

    kernel.xla = xla  # the expansion on every element (tests compare it too)
    return kernel


def _c(x, v):
    return x.dtype.type(v)


# ------------------------------------------------------------------ exp, expm1, log, abs
def _exp_parts(a, b):
    """XLA: ``e^a (cos b + i sin b)``, with ``e^(a/2) * . * e^(a/2)`` where ``e^a``
    overflows, and an imaginary part of exactly 0 where ``b == 0``."""
    ea, eh = np.exp(a), np.exp(a * _c(a, 0.5))
    c, s = np.cos(b), np.sin(b)
    over = ea == np.inf
    re = np.where(over, eh * c * eh, ea * c)
    im = np.where(b == 0, _c(a, 0), np.where(over, eh * s * eh, ea * s))
    return re, im


def _cosm1(b):
    h = np.sin(b * _c(b, 0.5))
    return _c(b, -2) * h * h + _c(b, 0)  # cosm1(0) is +0


def _expm1_parts(a, b):
    """XLA: ``(expm1(a) cos b + cosm1(b)) + i e^a sin b``, imaginary 0 where ``b == 0``."""
    em1 = np.expm1(a)
    cm1 = _cosm1(b)
    re = em1 * (cm1 + _c(a, 1)) + cm1
    im = np.where(b == 0, _c(a, 0), (em1 + _c(a, 1)) * np.sin(b))
    return re, im


def abs_(z):
    """``|z|`` as XLA: NaN when either part is NaN (C99 gives inf for an infinite part)."""
    z = np.asarray(z)
    out = np.abs(z)
    nan = np.isnan(z)  # either part
    if nan.any():
        out = np.where(nan, out.dtype.type(np.nan), out)
    return out


def _nan_if_any_nan(np_fn):
    """``np_fn``, NaN + NaN j wherever a part of the operand is NaN (XLA's ``abs`` of such a
    number is NaN, and its ``log``/``sqrt`` start from it)."""

    def kernel(z):
        z = np.asarray(z)
        with np.errstate(all="ignore"):
            out = np_fn(z)
        nan = np.isnan(z)
        if nan.any():
            out = np.where(nan, out.dtype.type(complex(np.nan, np.nan)), out)
        return out

    return kernel


def _log1p_parts(a, b):
    """XLA: ``log(hypot(a + 1, b))`` as ``log1p(max - 1) + log1p((min / max)**2) / 2``
    (``a`` itself for ``max - 1`` when ``a + 1 > |b|``; ``min`` where that is NaN) and
    ``atan2(b, a + 1)``."""
    one = _c(a, 1)
    a1 = a + one
    aa1, ab = np.abs(a1), np.abs(b)
    nan = np.isnan(aa1) | np.isnan(ab)
    mx = np.where(nan, np.nan, np.maximum(aa1, ab)).astype(a.dtype)
    mn = np.where(nan, np.nan, np.minimum(aa1, ab)).astype(a.dtype)
    r = mn / mx
    re = _c(a, 0.5) * np.log1p(r * r) + np.log1p(np.where(a1 > ab, a, mx - one))
    re = np.where(np.isnan(re), mn, re)
    re = np.where(mx == 0, _c(a, -np.inf), re)  # log1p(-1 + 0j)
    return re, np.arctan2(b, a1)


def log1p(z):
    """XLA's complex ``log1p`` on every element: NumPy's is ``log(1 + z)``, which loses
    ``z`` below the rounding of 1 (``log1p(1e-30)`` was 0)."""
    z = np.asarray(z)
    with np.errstate(all="ignore"):
        re, im = _log1p_parts(z.real, z.imag)
    return _pack(re, im, z.dtype)


def sqrt(z):
    """``sqrt`` as XLA: a zero imaginary part counts as +0 (``sqrt(-1 - 0j)`` is ``+1j``),
    and a NaN part gives NaN + NaN j."""
    z = np.asarray(z)
    with np.errstate(all="ignore"):
        neg0 = (z.imag == 0) & np.signbit(z.imag)
        if neg0.any():
            z = np.where(neg0, z.real.astype(z.dtype), z)
        out = np.sqrt(z)
        nan = np.isnan(z)
        if nan.any():
            out = np.where(nan, z.dtype.type(complex(np.nan, np.nan)), out)
    return out


def _rsqrt_parts(a, b):
    """XLA: ``rsqrt|z| (cos(-t/2) + i sin(-t/2))``, ``t = atan2(b, a)``, with its limits:
    ``inf + nan j`` at 0, signed zeros at infinities."""
    zero, inf = _c(a, 0), _c(a, np.inf)
    aa, ab = np.abs(a), np.abs(b)
    nan = np.isnan(aa) | np.isnan(ab)
    mx = np.where(nan, np.nan, np.maximum(aa, ab)).astype(a.dtype)
    mn = np.where(nan, np.nan, np.minimum(aa, ab)).astype(a.dtype)
    q = mn / mx
    one = _c(a, 1)
    r = (one / np.sqrt(mx)) * (one / np.sqrt(np.sqrt(one + q * q)))
    r = np.where(np.isnan(r), one / np.sqrt(mn), r)
    ang = np.arctan2(b, a) * _c(a, -0.5)
    re, im = r * np.cos(ang), r * np.sin(ang)
    edge = ((ab == inf) & np.isnan(a)) | (aa == inf)
    re = np.where(edge, np.copysign(zero, a), re)
    im = np.where(edge, -np.copysign(zero, b), im)
    zz = (a == 0) & (b == 0)
    return np.where(zz, inf, re), np.where(zz, _c(a, np.nan), im)


def _rsqrt_np(z):
    return np.asarray(1, z.dtype) / np.sqrt(z)


def sign(z):
    """``sign`` as XLA: ``z / |z|`` with XLA's ``|z|`` (NaN when a part is), and ``z`` itself
    (with its signed zeros) where ``|z|`` is 0: ``sign(-inf + 2j)`` is ``nan + 0j``."""
    z = np.asarray(z)
    with np.errstate(all="ignore"):
        r = abs_(z)
        zero = r == 0
        r = np.where(zero, 1, r).astype(r.dtype)
        return _pack(z.real / r, z.imag / r, z.dtype)


def _square_parts(a, b):
    """StableHLO's complex square: ``(a - b)(a + b) + 2ab i``, the real part exactly 0
    where ``|a| == |b|`` is finite (no ``inf - inf`` from overflowing products)."""
    re = np.where(np.isfinite(a) & (np.abs(a) == np.abs(b)), _c(a, 0), (a - b) * (a + b))
    return re, a * b * _c(a, 2)


# --------------------------------------------------------- trigonometric and hyperbolic
def _sinh_cosh(a, b):
    """jax.numpy's ``sinh``/``cosh`` of the parts (from ``expm1``)."""
    e1, e2 = np.expm1(b), np.expm1(-b)
    two = _c(a, 2)
    return (e1 - e2) / two, (e1 + e2 + two) / two


def _sin_parts(a, b):
    """jax.numpy's complex ``sin``: ``sin a cosh b + i cos a sinh b``, real part 0 where
    ``a == 0``."""
    snh, csh = _sinh_cosh(a, b)
    re = np.where(a == 0, _c(a, 0), np.sin(a) * csh)
    return re, np.cos(a) * snh


def _cos_parts(a, b):
    """jax.numpy's complex ``cos``: ``cos a cosh b - i sin a sinh b``, imaginary part 0
    where ``a == 0``."""
    snh, csh = _sinh_cosh(a, b)
    im = np.where(a == 0, _c(a, 0), -(np.sin(a) * snh))
    return np.cos(a) * csh, im


def _tanh_parts(a, b):
    """XLA's complex ``tanh``: ``(e^2a - e^-2a + 2i sin 2b) / (e^2a + e^-2a + 2 cos 2b)`` from
    ``expm1``, with its limits: ``copysign(1, a)`` where the sum overflows, NaN real part
    where ``sin 2b`` is NaN and ``a`` finite, imaginary 0 where ``b == 0`` (or ``a``
    infinite and ``sin 2b`` NaN)."""
    inf, four = _c(a, np.inf), _c(a, 4)
    e2, en2 = np.expm1(a + a), np.expm1(_c(a, -1) * (a + a))
    cb, sb = np.cos(b), np.sin(b)
    inum = four * (cb * sb)
    esum = e2 + en2
    den = esum + cb * cb * four
    re = np.where(esum == inf, np.copysign(_c(a, 1), a), (e2 - en2) / den)
    im = inum / den
    a_inf, s_nan = np.abs(a) == inf, np.isnan(inum)
    re = np.where(s_nan & ~a_inf, _c(a, np.nan), re)
    im = np.where((b == 0) | (a_inf & s_nan), _c(a, 0), im)
    return re, im


def _tan_parts(a, b):
    """XLA: ``tan(a + bi) = -i tanh(-b + ai)``."""
    re, im = _tanh_parts(_c(a, -1) * b, a)
    return im, _c(a, -1) * re


def _exp_shifted(a, b):
    return _exp_parts(a + _c(a, _LOG_HALF), b + _c(b, 0))


def _sinh_parts(a, b):
    """StableHLO's complex ``sinh``: ``e^(z + log 1/2) - e^(-z + log 1/2)`` (XLA's ``exp``)."""
    pr, pi = _exp_shifted(a, b)
    nr, ni = _exp_shifted(-a, -b)
    return pr - nr, pi - ni


def _cosh_parts(a, b):
    """StableHLO's complex ``cosh``: ``e^(z + log 1/2) + e^(-z + log 1/2)``."""
    pr, pi = _exp_shifted(a, b)
    nr, ni = _exp_shifted(-a, -b)
    return pr + nr, pi + ni


# ------------------------------------------------------------------- inverse functions
def _atanh_parts(x, y):
    """StableHLO's complex ``atanh`` (the functional_algorithms expansion): the real part
    ``sign * log1p(4 |x| / ((1 - |x|)**2 + y**2)) / 4``, the imaginary part
    ``atan2(2y, (1 - |x|)(1 + |x|) - y**2) / 2``, with ``sign``/``pi`` from ``x >= 0`` /
    ``y >= 0`` (so a zero's sign is ignored) and their own forms outside a safe range."""
    one, zero = _c(x, 1), _c(x, 0)
    inv_negeps = _c(x, 9007199254740994.0 if x.dtype == np.float64 else 16777218.0)
    safe_max = inv_negeps * inv_negeps
    ax, ay = np.abs(x), np.abs(y)
    safe = (ax < safe_max) & (ay < safe_max)
    naxm1, y2 = one - ax, y * y
    big = np.where(
        ay * inv_negeps < ax,
        one / ax,
        np.where(np.isinf(x) | np.isinf(y), zero, (one / (ax / y + y / ax)) / y),
    )
    t = np.where(safe, ax / (naxm1 * naxm1 + y2), big)
    re = np.where(x >= zero, one, -one) * np.log1p(_c(x, 4) * t) * _c(x, 0.25)
    half_pi = np.where(y >= zero, one, -one) * _c(x, np.pi)
    im = np.where(safe, np.arctan2(y + y, naxm1 * (one + ax) - y2), half_pi) * _c(x, 0.5)
    return re, im


def _atan_parts(a, b):
    """``atan(z) = -i atanh(i z)``."""
    re, im = _atanh_parts(-b, a)
    return im, -re


def _ignore_zero_sign(np_fn, part, huge):
    """XLA's ``asin``/``acos``/``acosh`` (``part`` 1: the imaginary part) and ``asinh``
    (``part`` 0): the sign of a zero ``part`` is ignored (``asin(2 - 0j)`` is
    ``1.571 + 1.317j``), and a NaN ``part`` gives NaN + NaN j opposite a zero, and
    ``huge(log 2|x|)`` (a NaN and that logarithm, in the function's places) opposite a finite
    ``x`` beyond ``sqrt(max) / 8``, where XLA's algorithm takes its large-argument form."""

    def xla(z):
        re, im = z.real, z.imag
        if part:
            im = im + _c(im, 0)  # -0 + 0 is +0
        else:
            re = re + _c(re, 0)
        out = np_fn(_pack(re, im, z.dtype))
        other = z.real if part else z.imag
        nan = np.isnan(z.imag if part else z.real)
        out = np.where(nan & (other == 0), z.dtype.type(complex(np.nan, np.nan)), out)
        ao = np.abs(other)
        big = nan & np.isfinite(ao) & (ao >= _c(ao, np.sqrt(np.finfo(ao.dtype).max) / 8))
        if big.any():
            r, i = huge(np.log(ao) + _c(ao, np.log(2)))
            r, i = np.broadcast_arrays(r, i)
            out = np.where(big, _pack(r, i, z.dtype), out)
        return out

    def kernel(z):
        z = np.asarray(z)
        with np.errstate(all="ignore"):
            out = np_fn(z)
            mask = (z.imag if part else z.real) == 0
            mask |= np.isnan(z)
            if mask.any():
                out = _redo(out, mask, xla, z)
        return out

    kernel.xla = xla
    return kernel


# --------------------------------------------------------------------------- the table
exp = _patch(np.exp, _exp_parts)
expm1 = _patch(np.expm1, _expm1_parts)
log = _nan_if_any_nan(np.log)
rsqrt = _patch(_rsqrt_np, _rsqrt_parts)
square = _patch(np.square, _square_parts)
sin = _patch(np.sin, _sin_parts)
cos = _patch(np.cos, _cos_parts)
tan = _patch(np.tan, _tan_parts)
tanh = _patch(np.tanh, _tanh_parts)
sinh = _patch(np.sinh, _sinh_parts)
cosh = _patch(np.cosh, _cosh_parts)
atanh = _patch(np.arctanh, _atanh_parts)
atan = _patch(np.arctan, _atan_parts)
asin = _ignore_zero_sign(np.arcsin, 1, lambda v: (np.nan, v))
acos = _ignore_zero_sign(np.arccos, 1, lambda v: (np.nan, -v))
acosh = _ignore_zero_sign(np.arccosh, 1, lambda v: (v, np.nan))
asinh = _ignore_zero_sign(np.arcsinh, 0, lambda v: (v, np.nan))


def _exp2_parts(a, b):
    """jax.numpy's ``exp2(z) = exp(log(2) * z)``: a complex product with ``log 2 + 0j``."""
    ln2, zero = _c(a, np.log(2)), _c(a, 0)
    return _exp_parts(a * ln2 - b * zero, a * zero + b * ln2)


exp2 = _patch(np.exp2, _exp2_parts)


def _logistic(z):
    """``1 / (1 + e^-z)`` with XLA's ``exp`` and complex division."""
    one = z.dtype.type(1)
    return divide(one, one + exp(-z))


logistic = _logistic


# ----------------------------------------------------------------------------- power
_NORMAL = {np.dtype(d): np.finfo(d).tiny for d in (np.float32, np.float64)}


def _flush(x):
    """``x`` with subnormal values replaced by zeros of their sign: XLA:CPU flushes them, and
    inside ``power`` that decides some results (``atan2(1, 1e38)`` is 0 there, so
    ``(1e38 + 1j) ** 2`` is ``inf + nan j``)."""
    sub = np.abs(x) < _NORMAL[x.dtype]
    sub &= x != 0
    if sub.any():
        x = np.where(sub, np.copysign(x.dtype.type(0), x), x)
    return x


def _abs_parts(a, b):
    """XLA's ``|a + bi|``: ``max * sqrt(1 + (min / max)**2)``, ``min`` where that is NaN
    (both parts 0 or infinite; a NaN part gives NaN)."""
    aa, ab = np.abs(a), np.abs(b)
    nan = np.isnan(aa) | np.isnan(ab)
    mx = np.where(nan, np.nan, np.maximum(aa, ab)).astype(a.dtype)
    mn = np.where(nan, np.nan, np.minimum(aa, ab)).astype(a.dtype)
    q = mn / mx
    r = mx * np.sqrt(_c(a, 1) + q * q)
    return np.where(np.isnan(r), mn, r)


def _rounded(fn, *args):
    """``fn`` of float32 operands computed in float64 and rounded once, as XLA:CPU's own
    float32 ``atan2``/``pow``/``exp``/``log``/``cos``/``sin`` nearly always are (NumPy's
    float32 kernels are off by an ulp in 15-40% of the elements, which ``power`` amplifies by
    the exponent); float64 operands as they are."""
    if args[0].dtype == np.float32:
        return fn(*[x.astype(np.float64) for x in args]).astype(np.float32)
    return fn(*args)


def power(z, w):
    """``z ** w`` for complex ``z`` and ``w`` as XLA expands it into real arithmetic (on every
    element: NumPy's ``exp(w log z)`` rounds ``w log z`` in the operand's precision, ~1e-6
    relative off for complex64 at ``|z|`` near 1e38, and follows C99 at the edges):
    ``r**c * e**(-d t) * (cos q + i sin q)`` with ``z = a + bi``, ``w = c + di``, ``r = |z|``,
    ``t = atan2(b, a)``, ``q = c t + d log r``; then, in this order of precedence,
    ``inf**c`` (``a = inf``, ``b = 0``, ``d = 0``) is ``inf`` for ``c > 0`` and 0 for
    ``c < 0``, ``1**w`` is 1, ``z**0`` is 1, and ``0**c`` is 0 for ``c > 0`` (1 for
    ``c = 0``). ``power(inf j, 0.5)`` is thus NaN + NaN j (``0 * log inf``)."""
    z, w = np.asarray(z), np.asarray(w)
    with np.errstate(all="ignore"):
        t = _flush(_rounded(np.arctan2, z.imag, z.real))
        re, im = _power_parts(z.real, z.imag, w.real, w.imag, t)
    return _pack(re, im, np.result_type(z, w))


def _power_parts(a, b, c, d, t):
    """The parts of ``(a + bi) ** (c + di)`` given ``t = atan2(b, a)`` (``power``)."""
    r = _abs_parts(a, b)
    coeff = _flush(_flush(_rounded(np.power, r, c)) * _rounded(np.exp, -d * t))
    q = _fma(c, t, d * _rounded(np.log, r))  # XLA:CPU contracts c * t into a fused add
    re, im = coeff * _rounded(np.cos, q), coeff * _rounded(np.sin, q)
    zero, one, inf = _c(a, 0), _c(a, 1), _c(a, np.inf)
    d0 = d == 0
    m = (r == 0) & d0 & (c >= 0)
    re = np.where(m, np.where(c == 0, one, zero), re)
    im = np.where(m, zero, im)
    m = (d0 & (c == 0)) | ((a == 1) & (b == 0))
    re = np.where(m, one, re)
    im = np.where(m, zero, im)
    m = (a == inf) & (b == 0) & d0
    re = np.where(m & (c > 0), inf, np.where(m & (c < 0), zero, re))
    im = np.where(m & ((c > 0) | (c < 0)), zero, im)
    return re, im


def split(real_impl, kernel):
    """An impl: ``kernel`` for complex operands, ``real_impl`` otherwise (unary, or binary
    with operands of one dtype). A ufunc ``real_impl`` is exposed as ``impl.ufunc``, which
    code generation calls directly for real operands (``core.rules.impl_for``)."""

    def impl(x, *rest):
        if x.dtype.kind == "c":
            return kernel(x, *rest)
        return real_impl(x, *rest)

    if isinstance(real_impl, np.ufunc):
        impl.ufunc = real_impl
    elif getattr(real_impl, "xla_math", False):  # ops/xla_math_flag's switchable impls
        impl.ufunc = getattr(real_impl, "ufunc", None)
        impl.plain = getattr(real_impl, "plain", None)
        impl.flagged = real_impl.flagged
        impl.xla_math = True
    impl.__name__ = getattr(real_impl, "__name__", "impl")
    impl.complex_kernel = kernel
    return impl
