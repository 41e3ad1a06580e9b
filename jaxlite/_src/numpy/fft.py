"""``jax.numpy.fft``: NumPy's FFT functions over the ``fft`` primitive (``ops/fft.py``).

Each transform crops or zero-pads the transformed axes to the requested lengths, moves them
last, calls ``lax.fft`` and moves them back; ``norm`` scales the result afterwards.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.numpy.creation import arange
from jaxlite._src.numpy.indexing_routines import roll
from jaxlite._src.numpy.shape import moveaxis
from jaxlite._src.numpy.ufuncs import add, multiply, remainder
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis, check_arraylike
from jaxlite._src.ops import conversion, elementwise as ew, shape as _sh
from jaxlite._src.ops.fft import FftType, fft as _lax_fft

_NORMS = (None, "backward", "ortho", "forward")


def _check_norm(norm) -> None:
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')


def _resize(a, axis: int, n: int):
    """``a`` cropped or zero-padded to length ``n`` along ``axis``."""
    have = aval_of(a).shape[axis]
    if n < have:
        return _sh.slice_in_dim(a, 0, n, 1, axis)
    if n > have:
        config = [(0, 0, 0)] * aval_of(a).ndim
        config[axis] = (0, n - have, 0)
        return _sh.pad(a, np.zeros((), aval_of(a).dtype), config)
    return a


def _norm_factor(norm, n: int, inverse: bool) -> float | None:
    """What the unnormalized (``backward``) result is multiplied by, or None for 1."""
    if norm in (None, "backward") or n == 0:
        return None  # (a transform of no points is empty: nothing to scale)
    if norm == "ortho":
        return math.sqrt(n) if inverse else 1 / math.sqrt(n)
    return float(n) if inverse else 1 / n


def _fftn(func_name: str, kind: FftType, a, s, axes, norm):
    check_arraylike(func_name, a)
    _check_norm(norm)
    a = asarray_any(a)
    nd = aval_of(a).ndim
    if s is not None:
        s = tuple(operator.index(n) for n in s)  # a float length is a TypeError
        if any(n < 1 for n in s):
            raise ValueError("Shape should be positive.")
    if axes is None:
        if s is not None and len(s) > nd:
            raise ValueError(
                f"FFT input shape {aval_of(a).shape} must have at least as many input "
                f"dimensions as fft_lengths {s}."
            )
        axes = tuple(range(nd - (len(s) if s is not None else nd), nd))
    if len(set(axes)) != len(axes):
        raise ValueError(f"{func_name} does not support repeated axes. Got axes {tuple(axes)}.")
    axes = tuple(canonicalize_axis(ax, nd) for ax in axes)
    if len(set(axes)) != len(axes):
        # axes repeated only once normalized (0 and -1 of a vector): JAX checks the axes as
        # given and then fails with a TypeError (its transpose's permutation)
        raise TypeError(f"{func_name} does not support repeated axes. Got axes {tuple(axes)}.")
    if s is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    if not axes:  # no transform, but the transform's dtype (complex; rfftn: real), as JAX
        return _lax_fft(a, kind, ())
    shape = aval_of(a).shape
    if s is None:
        s = tuple(shape[ax] for ax in axes)
        if kind == FftType.IRFFT:
            # (an input of one frequency, or none, gives an empty result, as in JAX)
            s = (*s[:-1], max(0, 2 * (s[-1] - 1)))
    # Crop or pad the input: the last axis of an IRFFT holds s[-1] // 2 + 1 frequencies.
    for i, (ax, n) in enumerate(zip(axes, s)):
        last = i == len(axes) - 1
        a = _resize(a, ax, n // 2 + 1 if kind == FftType.IRFFT and last else n)
    if kind == FftType.RFFT and dtypes.is_complex(aval_of(a).dtype):
        raise ValueError("only real valued inputs supported for rfft")
    # Promote as JAX's fft does before lax.fft converts: integers and booleans by width
    # (64-bit ones to float64 under x64, the others to float32, not the default float).
    dtype = aval_of(a).dtype
    if not dtypes.is_inexact(dtype):
        real = dtypes.to_real_dtype(dtypes.to_complex_dtype(dtype))
        a = conversion.convert_element_type(a, real)
    k = len(axes)
    moved = moveaxis(a, axes, tuple(range(nd - k, nd)))
    out = moveaxis(_lax_fft(moved, kind, s), tuple(range(nd - k, nd)), axes)
    factor = _norm_factor(norm, math.prod(s), kind in (FftType.IFFT, FftType.IRFFT))
    if factor is not None:
        out = ew.mul(out, np.asarray(factor, aval_of(out).dtype))
    return out


def _one_axis(n, axis):
    # JAX's reading: axis=None is the n-D transform's default axes (all, or the last one
    # when n is given), so fft(m, axis=None) of a matrix is fftn(m)
    return (None if n is None else (n,)), (None if axis is None else (axis,))


# --------------------------------------------------------------------- complex <-> complex
def fft(a, n: int | None = None, axis: int = -1, norm: str | None = None):
    """``jnp.fft.fft``: the 1-D discrete Fourier transform along ``axis``.

    Args:
      a: the input; real and integer inputs are promoted to complex (complex64 unless x64).
      n: the transform length; the input is cropped or zero-padded to it (default: its
        length along ``axis``).
      axis: the transformed axis.
      norm: ``"backward"`` (default: no scaling forward), ``"ortho"`` (``1/sqrt(n)``) or
        ``"forward"`` (``1/n``).

    Returns:
      A complex array of ``a``'s shape, with ``n`` entries along ``axis``.

    Raises:
      ValueError: an invalid ``norm``, a non-positive ``n``, an out-of-bounds axis.
      TypeError: a non-array input (a list, say).
    """
    return _fftn("jax.numpy.fft.fft", FftType.FFT, a, *_one_axis(n, axis), norm)


def ifft(a, n: int | None = None, axis: int = -1, norm: str | None = None):
    """``jnp.fft.ifft``: the inverse of ``fft`` (scaled by ``1/n`` with the default norm).
    Arguments, result and errors as ``fft``."""
    return _fftn("jax.numpy.fft.ifft", FftType.IFFT, a, *_one_axis(n, axis), norm)


def fftn(a, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm=None):
    """``jnp.fft.fftn``: the N-D discrete Fourier transform over ``axes``.

    Args:
      a: the input (promoted to complex).
      s: the transform lengths, one per axis of ``axes`` (default: ``a``'s lengths there).
      axes: the transformed axes (default: the last ``len(s)`` axes, or all of them).
      norm: as ``fft``; ``n`` is the product of ``s``.

    Returns:
      A complex array; the transformed axes have the lengths ``s``.

    Raises:
      ValueError: ``s`` and ``axes`` of different lengths, repeated axes, a non-positive
        length, an invalid ``norm``.
    """
    return _fftn("jax.numpy.fft.fftn", FftType.FFT, a, s, axes, norm)


def ifftn(a, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm=None):
    """``jnp.fft.ifftn``: the inverse of ``fftn``. Arguments and errors as ``fftn``."""
    return _fftn("jax.numpy.fft.ifftn", FftType.IFFT, a, s, axes, norm)


def _two_axes(name, axes):
    # As JAX: the 2-D transforms take exactly two axes (NumPy accepts any number).
    if len(axes) != 2:
        raise ValueError(f"jax.numpy.fft.{name} only supports 2 axes. Got axes = {axes}.")


def fft2(a, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm=None):
    """``jnp.fft.fft2``: ``fftn`` over two axes (the last two by default)."""
    _two_axes("fft2", axes)
    return _fftn("jax.numpy.fft.fft2", FftType.FFT, a, s, axes, norm)


def ifft2(a, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm=None):
    """``jnp.fft.ifft2``: ``ifftn`` over two axes (the last two by default)."""
    _two_axes("ifft2", axes)
    return _fftn("jax.numpy.fft.ifft2", FftType.IFFT, a, s, axes, norm)


# --------------------------------------------------------------------- real <-> complex
def rfft(a, n: int | None = None, axis: int = -1, norm: str | None = None):
    """``jnp.fft.rfft``: the 1-D transform of a real input, non-negative frequencies only.

    Returns:
      A complex array (complex64 for float32 input) with ``n // 2 + 1`` entries along
      ``axis``.

    Raises:
      ValueError: a complex input, or as ``fft``.
    """
    return _fftn("jax.numpy.fft.rfft", FftType.RFFT, a, *_one_axis(n, axis), norm)


def irfft(a, n: int | None = None, axis: int = -1, norm: str | None = None):
    """``jnp.fft.irfft``: the inverse of ``rfft``: ``a`` holds the non-negative half of a
    Hermitian spectrum; the real result has ``n`` entries along ``axis`` (default
    ``2 * (m - 1)`` for ``m`` input entries)."""
    return _fftn("jax.numpy.fft.irfft", FftType.IRFFT, a, *_one_axis(n, axis), norm)


def rfftn(a, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm=None):
    """``jnp.fft.rfftn``: ``fftn`` of a real input; the last transformed axis keeps its
    non-negative frequencies (``s[-1] // 2 + 1`` entries)."""
    return _fftn("jax.numpy.fft.rfftn", FftType.RFFT, a, s, axes, norm)


def irfftn(a, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm=None):
    """``jnp.fft.irfftn``: the inverse of ``rfftn``; the last transformed axis of the
    result has ``s[-1]`` entries (default ``2 * (m - 1)``)."""
    return _fftn("jax.numpy.fft.irfftn", FftType.IRFFT, a, s, axes, norm)


def rfft2(a, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm=None):
    """``jnp.fft.rfft2``: ``rfftn`` over two axes (the last two by default)."""
    _two_axes("rfft2", axes)
    return _fftn("jax.numpy.fft.rfft2", FftType.RFFT, a, s, axes, norm)


def irfft2(a, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm=None):
    """``jnp.fft.irfft2``: ``irfftn`` over two axes (the last two by default)."""
    _two_axes("irfft2", axes)
    return _fftn("jax.numpy.fft.irfft2", FftType.IRFFT, a, s, axes, norm)


_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def hfft(a, n: int | None = None, axis: int = -1, norm: str | None = None):
    """``jnp.fft.hfft``: the transform of a signal with Hermitian symmetry, given by its
    non-negative half ``a``; the result is real with ``n`` entries (default
    ``2 * (m - 1)``). As NumPy: ``irfft(conj(a), n)`` with the ``norm`` direction swapped."""
    check_arraylike("jax.numpy.fft.hfft", a)
    _check_norm(norm)
    a = asarray_any(a)
    if n is None:  # JAX reads a.shape[axis] first: IndexError for an axis out of range
        canonicalize_axis(axis, aval_of(a).ndim, index_error=True)
    if not dtypes.is_complex(aval_of(a).dtype):
        a = conversion.convert_element_type(a, dtypes.to_complex_dtype(aval_of(a).dtype))
    return irfft(ew.conj(a), n, axis, _SWAPPED[norm])


def ihfft(a, n: int | None = None, axis: int = -1, norm: str | None = None):
    """``jnp.fft.ihfft``: the inverse of ``hfft`` for a real input: ``conj(rfft(a, n))``
    with the ``norm`` direction swapped."""
    check_arraylike("jax.numpy.fft.ihfft", a)
    _check_norm(norm)
    if n is None:  # JAX reads a.shape[axis] first: IndexError for an axis out of range
        canonicalize_axis(axis, np.ndim(a), index_error=True)
    out = ew.conj(rfft(a, n, axis, _SWAPPED[norm]))
    # JAX scales the conjugate by a complex scalar: a zero imaginary part takes the sign
    # of the real part (x*0 + -0.0), as a product by 1 + 0j gives it
    one = conversion.convert_element_type(np.ones((), aval_of(out).dtype), aval_of(out).dtype)
    return ew.mul(out, one)


# --------------------------------------------------------------------- frequencies, shifts
def fftfreq(n: int, d=1.0, *, dtype=None, device=None):
    """``jnp.fft.fftfreq``: the sample frequencies of an ``n``-point ``fft`` with sample
    spacing ``d``: ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ..., -1] / (d * n)``.

    ``n`` is read as JAX reads it, an ``arange`` bound: a float, a bool or a 0-d array
    answers (``fftfreq(4.0)`` is ``fftfreq(4)``; a non-integral ``n`` gives JAX's values of
    ``((arange(n) + n // 2) % n - n // 2) / (d * n)``).

    Returns:
      A float array of shape ``(ceil(n),)`` (the default float dtype unless ``dtype``).

    Raises:
      ValueError: ``n`` or ``d`` a list or tuple (JAX's messages).
    """
    del device
    _check_freq_args("fftfreq", n, d)
    out_dt = _freq_dtype(dtype)
    # JAX's arithmetic: k / (d * n) in the real float dtype of ``dtype``, then cast to it
    # (an integer dtype truncates toward zero; an unsigned one saturates negatives).
    cdt = np.dtype(dtypes.finfo(dtypes.to_inexact_dtype(out_dt)).dtype)
    if _is_int(n):
        k = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
        k = asarray_any(np.asarray(k, cdt))
    else:  # JAX's own expression, on an arange of the (float, bool, 0-d array) bound
        i = arange(n, dtype=cdt)
        k = conversion.convert_element_type(remainder(add(i, n // 2), n) - n // 2, cdt)
    out = _freq_div(k, _denominator(d, n, cdt))
    return conversion.convert_element_type(out, out_dt)


def rfftfreq(n: int, d=1.0, *, dtype=None, device=None):
    """``jnp.fft.rfftfreq``: the sample frequencies of an ``n``-point ``rfft``:
    ``[0, 1, ..., n // 2] / (d * n)``, shape ``(n // 2 + 1,)``. ``n`` and errors as
    ``fftfreq`` (a non-integral ``n``: JAX's ``arange(0, n // 2 + 1)`` for an ``n % 2``
    of 0, else ``arange(0, (n - 1) // 2 + 1)``)."""
    del device
    _check_freq_args("rfftfreq", n, d)
    # JAX's arithmetic: ``arange(n // 2 + 1, dtype) / array(d * n, dtype)``, so an integer
    # dtype truncates ``d * n`` and divides as ``true_divide`` (a float result).
    dt = _freq_dtype(dtype)
    if _is_int(n):
        k = asarray_any(np.arange(0, n // 2 + 1).astype(dt))
    else:
        k = arange(0, (n // 2 if n % 2 == 0 else (n - 1) // 2) + 1, dtype=dt)
    denom = _denominator(d, n, dt)
    if not dtypes.is_inexact(dt):
        fdt = dtypes.default_float_dtype()
        k = conversion.convert_element_type(k, fdt)
        denom = conversion.convert_element_type(denom, fdt)
    return _freq_div(k, denom)


def _freq_div(k, denom):
    """``k / denom`` broadcast both ways, as JAX's division: an array ``d`` of another
    shape broadcasts the frequencies (``rfftfreq(4, d)`` with ``d`` of shape ``(2, 1)`` is
    ``(2, 3)``); shapes that do not broadcast are JAX's ``div`` ``TypeError``."""
    ks, ds = aval_of(k).shape, aval_of(denom).shape
    try:
        shape = tuple(np.broadcast_shapes(ks, ds))
    except ValueError:
        raise TypeError(
            f"div got incompatible shapes for broadcasting: {tuple(ks)}, {tuple(ds)}."
        ) from None
    return ew.div(_sh.broadcast_to_rank(k, shape), _sh.broadcast_to_rank(denom, shape))


def _is_int(n) -> bool:
    return isinstance(n, (int, np.integer)) and not isinstance(n, bool)


def _check_freq_args(name: str, n, d) -> None:
    """JAX refuses only a list or tuple ``n`` or ``d``; any other ``n`` is an ``arange``
    bound (its errors: a None, string or complex ``n``)."""
    if isinstance(n, (list, tuple)):
        raise ValueError(
            f"The n argument of jax.numpy.fft.{name} only takes an int. Got n = {list(n)}."
        )
    if isinstance(d, (list, tuple)):
        raise ValueError(
            f"The d argument of jax.numpy.fft.{name} only takes a single value. Got d = {list(d)}."
        )


def _freq_dtype(dtype) -> np.dtype:
    if dtype is None:
        return dtypes.default_float_dtype()
    return dtypes.check_user_dtype_supported(dtype, "fftfreq")


def _denominator(d, n: int, dtype):
    """``d * n`` as a ``()`` array of ``dtype`` (a Python ``d`` multiplies in Python)."""
    n = int(n) if _is_int(n) else n
    if dtypes.is_python_scalar(d) and dtypes.is_python_scalar(n):
        return conversion.convert_element_type(asarray_any(d * n), dtype)
    return conversion.convert_element_type(multiply(d, n), dtype)


def _shift_axes(x, axes):
    if axes is None:
        return tuple(range(aval_of(x).ndim))
    return (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)


def fftshift(x, axes=None):
    """``jnp.fft.fftshift``: move the zero frequency to the centre (roll each axis of
    ``axes``, all by default, by half its length)."""
    check_arraylike("jax.numpy.fft.fftshift", x)
    x = asarray_any(x)
    axes = _shift_axes(x, axes)
    shape = aval_of(x).shape
    return roll(x, tuple(shape[ax] // 2 for ax in axes), axes)


def ifftshift(x, axes=None):
    """``jnp.fft.ifftshift``: the inverse of ``fftshift``."""
    check_arraylike("jax.numpy.fft.ifftshift", x)
    x = asarray_any(x)
    axes = _shift_axes(x, axes)
    shape = aval_of(x).shape
    return roll(x, tuple(-(shape[ax] // 2) for ax in axes), axes)
