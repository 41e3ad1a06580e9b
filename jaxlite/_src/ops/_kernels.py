"""NumPy kernels of elementwise primitives that need more than one NumPy call (no project
imports; ``elementwise.py`` binds them)."""

from __future__ import annotations

import numpy as np


def atan2(x, y):
    """``lax.atan2(x, y)``: ``arctan(x / y)`` in the quadrant of ``(y, x)``; for complex
    operands (as XLA) ``-i log((y + i x) / sqrt(x**2 + y**2))``, computed in complex128
    and rounded back (NaN where ``x**2 + y**2`` is 0)."""
    if not np.iscomplexobj(x):
        return np.arctan2(x, y)
    xd, yd = np.asarray(x, np.complex128), np.asarray(y, np.complex128)
    with np.errstate(all="ignore"):
        out = -1j * np.log((yd + 1j * xd) / np.sqrt(xd * xd + yd * yd))
    return out.astype(np.result_type(x, y))


def power(x, y):
    """``lax.pow`` of real operands: ``np.power``, except where NumPy's power loop, given an
    exponent of 0.5 that does not move (a scalar, or broadcast: stride 0), computes
    ``sqrt``, which gives -0 for -0 and NaN for -inf where pow (C99, XLA) gives +0 and +inf
    (``jnp.power(x, 0.5)``, ``x ** 0.5`` under jit)."""
    out = np.power(x, y)
    y = np.asarray(y)
    if y.ndim == 0:
        if y != 0.5:
            return out
        half = True
    elif 0 not in y.strides:
        return out
    else:
        half = y == 0.5
        if not half.any():
            return out
    with np.errstate(invalid="ignore"):
        fixed = np.where(np.isneginf(x), np.inf, out + 0)  # -0 + 0 is +0
    return np.where(half, fixed, out) if half is not True else fixed


def nextafter(x, y):
    """``lax.nextafter``: ``np.nextafter``, except that NumPy's float16 loop returns ``x``
    where ``x == y`` (``nextafter(-0, +0)`` is -0) and C99/XLA return ``y`` (+0)."""
    out = np.nextafter(x, y)
    if out.dtype == np.float16:
        out = np.where(np.equal(x, y), y, out)
    return out


def sign(x):
    """``lax.sign`` of real operands: ``np.sign``, with the sign of a zero kept as XLA keeps
    it (``sign(-0.0)`` is -0.0; NumPy's ufunc gives +0.0)."""
    out = np.sign(x)
    if out.dtype.kind == "f":
        out = np.copysign(out, x, out=out) if type(out) is np.ndarray else np.copysign(out, x)
    return out


def popcount(x: np.ndarray) -> np.ndarray:
    """``lax.population_count``: the set bits of each integer, in its own dtype."""
    x = np.asarray(x)  # its bytes, one row per element (an empty x has no -1 to infer)
    raw = np.ascontiguousarray(x).view(np.uint8).reshape(x.shape + (x.dtype.itemsize,))
    bits = np.unpackbits(raw, axis=-1)
    return bits.sum(-1).astype(x.dtype)


def digamma(x):
    """``lax.digamma``: SciPy's, with the poles (0, -0 and the negative integers) NaN as in
    JAX (SciPy gives +-inf at 0)."""
    import scipy.special  # at the first call: importing jaxlite does not load SciPy

    out = scipy.special.digamma(x).astype(x.dtype, copy=False)
    return np.where((x <= 0) & (x == np.floor(x)), np.asarray(np.nan, x.dtype), out)


def lgamma(x):
    """``lax.lgamma``: SciPy's ``gammaln``, except at -inf (SciPy's -inf; C99's lgamma and
    XLA, so JAX, give +inf)."""
    import scipy.special  # at the first call: importing jaxlite does not load SciPy

    out = np.asarray(scipy.special.gammaln(x)).astype(x.dtype, copy=False)
    return np.where(x == -np.inf, np.asarray(np.inf, out.dtype), out)


def polygamma(x, *, m):
    """``lax.polygamma`` of the static order ``m``: SciPy's, with JAX's values at the poles
    (inf for odd orders, NaN for even ones)."""
    import scipy.special  # at the first call: importing jaxlite does not load SciPy

    pole = (x <= 0) & (x == np.floor(x))
    out = scipy.special.polygamma(m, x)
    return np.where(pole, np.inf if m % 2 else np.nan, out).astype(x.dtype)
