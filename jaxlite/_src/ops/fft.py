"""The ``fft`` primitive (``jax.lax.fft``): discrete Fourier transforms over the trailing
``len(fft_lengths)`` axes, of four kinds (``FftType``).

The kernels are SciPy's (``scipy.fft``, pocketfft), which computes in the operand's own
precision: complex64 stays complex64, as in XLA. All four kinds are linear, so the JVP
applies the primitive to the tangent; the transposes:

* FFT and IFFT: their matrices are symmetric (``F[j, k]`` depends on ``j * k``), so each is
  its own transpose.
* RFFT (real ``n`` -> complex ``n // 2 + 1``) is "convert to complex, FFT, keep the first
  ``n // 2 + 1`` entries"; its transpose is the transpose of that chain read backwards: pad
  the cotangent with zeros to ``n``, FFT, keep the real part.
* IRFFT (complex ``n // 2 + 1`` -> real ``n``) reads its operand as the non-negative half
  of a Hermitian spectrum, so every entry but the first (and, for even ``n``, the last)
  stands for two entries of the full spectrum. Its transpose is RFFT of the cotangent,
  scaled by ``1 / prod(fft_lengths)`` and by 2 on the doubled entries, conjugated (JAX's
  convention for the cotangent of a complex operand).
"""

from __future__ import annotations

import enum
import math

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero
from jaxlite._src.ops import conversion, elementwise as ew, shape as _sh
from jaxlite._src.ops._factories import deflinear
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


class FftType(enum.IntEnum):
    """``jax.lax.FftType``: the kind of transform ``lax.fft`` computes."""

    FFT = 0  # complex -> complex, forward
    IFFT = 1  # complex -> complex, inverse (scaled by 1 / n)
    RFFT = 2  # real -> complex, forward, the non-negative frequencies only
    IRFFT = 3  # complex (non-negative half of a Hermitian spectrum) -> real, inverse


def _fft_type(fft_type) -> FftType:
    if isinstance(fft_type, FftType):
        return fft_type
    if isinstance(fft_type, str):
        try:
            return FftType[fft_type.upper()]
        except KeyError:
            pass
    elif isinstance(fft_type, int) and not isinstance(fft_type, bool):
        return FftType(fft_type)
    raise ValueError(f"Unknown FFT type '{fft_type}'")


# ----------------------------------------------------------------- fft
fft_p = Primitive("fft")


def _fft_abstract_eval(x, *, fft_type, fft_lengths):
    n = len(fft_lengths)
    if x.ndim < n:
        raise ValueError(
            f"FFT input shape {x.shape} must have at least as many input dimensions as "
            f"fft_lengths {fft_lengths}."
        )
    lead, minor = x.shape[: x.ndim - n], x.shape[x.ndim - n :]
    if fft_type == FftType.RFFT:
        if dtypes.is_complex(x.dtype):
            raise ValueError("only real valued inputs supported for rfft")
        if x.dtype not in (np.float32, np.float64):
            raise ValueError(f"RFFT input must be float32 or float64, got {x.dtype}")
        if minor != fft_lengths:
            raise ValueError(
                f"RFFT input shape {x.shape} minor dimensions must be equal to fft_lengths "
                f"{fft_lengths}"
            )
        shape = (*lead, *fft_lengths[:-1], fft_lengths[-1] // 2 + 1)
        return ShapedArray(shape, dtypes.to_complex_dtype(x.dtype))
    if not dtypes.is_complex(x.dtype):
        raise ValueError(f"only complex valued inputs supported for {fft_type.name.lower()}")
    if fft_type == FftType.IRFFT:
        expected = (*fft_lengths[:-1], fft_lengths[-1] // 2 + 1)
        if minor != expected:
            raise ValueError(
                f"IRFFT input shape {x.shape} minor dimensions must be equal to {expected} "
                f"(fft_lengths {fft_lengths}, the last one halved plus one)"
            )
        return ShapedArray((*lead, *fft_lengths), dtypes.to_real_dtype(x.dtype))
    if minor != fft_lengths:
        raise ValueError(
            f"FFT input shape {x.shape} minor dimensions must be equal to fft_lengths {fft_lengths}"
        )
    return ShapedArray(x.shape, x.dtype)


def _fft_impl(x, *, fft_type, fft_lengths):
    axes = tuple(range(x.ndim - len(fft_lengths), x.ndim))
    if fft_type != FftType.RFFT and 0 in fft_lengths:
        # a transform of no points is empty, as in JAX (an IRFFT of n = 0 too)
        out = _fft_abstract_eval(aval_of(x), fft_type=fft_type, fft_lengths=fft_lengths)
        return np.zeros(out.shape, out.dtype)
    if fft_type == FftType.FFT:
        out = scipy.fft.fftn(x, axes=axes)
    elif fft_type == FftType.IFFT:
        out = scipy.fft.ifftn(x, axes=axes)
    elif fft_type == FftType.RFFT:
        out = scipy.fft.rfftn(x, axes=axes)
    else:
        out = scipy.fft.irfftn(x, s=fft_lengths, axes=axes)
    want = _fft_abstract_eval(aval_of(x), fft_type=fft_type, fft_lengths=fft_lengths).dtype
    return np.asarray(out, dtype=want)


def _fft_batch(axis_data, args, dims, *, fft_type, fft_lengths):
    (x,), (d,) = args, dims
    if d >= aval_of(x).ndim - len(fft_lengths):  # a transformed axis: move it in front
        x, d = _sh.moveaxis(x, d, 0), 0
    return fft_p.bind(x, fft_type=fft_type, fft_lengths=fft_lengths), d


def _irfft_scale(ct_spectrum, fft_lengths):
    """``ct_spectrum`` (an RFFT result) times ``1 / prod(fft_lengths)``, doubled on the
    entries that stand for two entries of the full spectrum."""
    m = aval_of(ct_spectrum).shape[-1]
    doubled = m - 1 - (1 - fft_lengths[-1] % 2)  # all but entry 0 and, for even n, the last
    weights = np.concatenate([[1.0], np.full(doubled, 2.0), np.ones(m - 1 - doubled)])
    weights = weights / math.prod(fft_lengths)
    aval = aval_of(ct_spectrum)
    w = _sh.broadcast_in_dim(np.asarray(weights, aval.dtype), aval.shape, (aval.ndim - 1,))
    return ew.mul(ct_spectrum, w)


def _fft_transpose(ct, x, *, fft_type, fft_lengths):
    if type(ct) is Zero:
        return [Zero(x.aval)]
    if fft_type in (FftType.FFT, FftType.IFFT):
        return [fft_p.bind(ct, fft_type=fft_type, fft_lengths=fft_lengths)]
    if fft_type == FftType.RFFT:
        n, nd = fft_lengths[-1], aval_of(ct).ndim
        config = [(0, 0, 0)] * nd
        config[-1] = (0, n - aval_of(ct).shape[-1], 0)
        full = _sh.pad(ct, np.zeros((), aval_of(ct).dtype), config)
        spectrum = fft_p.bind(full, fft_type=FftType.FFT, fft_lengths=fft_lengths)
        return [conversion.convert_element_type(ew.real(spectrum), x.aval.dtype)]
    if 0 in fft_lengths:
        # JAX's transpose scales by 1 / prod(fft_lengths) and fails so (its class kept)
        raise ZeroDivisionError(
            f"division by zero: the transpose of an IRFFT of no points (fft_lengths {fft_lengths})"
        )
    ct = conversion.convert_element_type(ct, dtypes.to_real_dtype(x.aval.dtype))
    spectrum = fft_p.bind(ct, fft_type=FftType.RFFT, fft_lengths=fft_lengths)
    return [ew.conj(_irfft_scale(spectrum, fft_lengths))]


rules.abstract_eval_rules[fft_p] = _fft_abstract_eval
rules.impl_rules[fft_p] = _fft_impl
rules.batch_rules[fft_p] = _fft_batch
rules.fresh_output.add(fft_p)
deflinear(fft_p, _fft_transpose)


def fft(x, fft_type, fft_lengths):
    """``jax.lax.fft``: a discrete Fourier transform over the trailing axes of ``x``.

    Args:
      x: the operand. FFT, IFFT and IRFFT take complex values (real or integer ones are
        converted to the matching complex dtype, as in JAX); RFFT takes real values
        (integers are converted to floats; float32 or float64 once converted).
      fft_type: an ``FftType`` or its name (``"fft"``, ``"ifft"``, ``"rfft"``, ``"irfft"``).
      fft_lengths: the lengths of the transformed (trailing) axes, at most 3.

    Returns:
      FFT/IFFT: ``x``'s shape and dtype. RFFT: the last axis becomes
      ``fft_lengths[-1] // 2 + 1``, the dtype complex64 (float32 in) or complex128.
      IRFFT: the trailing axes become ``fft_lengths``, the dtype float32 or float64.

    Raises:
      ValueError: an unknown ``fft_type``; an operand with fewer axes than
        ``fft_lengths``, trailing axes that do not match them, or the wrong kind of dtype.
    """
    kind = _fft_type(fft_type)
    lengths = tuple(int(n) for n in fft_lengths)
    dtype = aval_of(x).dtype
    if kind == FftType.RFFT:
        if dtypes.is_complex(dtype):
            raise ValueError("only real valued inputs supported for rfft")
        want = dtypes.to_inexact_dtype(dtype)
    else:
        want = dtypes.to_complex_dtype(dtype)
    if want != dtype or not lengths:
        x = conversion.convert_element_type(x, want)  # (strongly typed, as JAX's)
    if not lengths:  # no axes: the converted operand itself, as JAX (XLA has no 0-d FFT)
        return x
    return fft_p.bind(x, fft_type=kind, fft_lengths=lengths)
