"""``jax.scipy.signal``: N-d convolution and correlation (direct and by FFT), ``detrend``,
and the windowed-FFT estimators (``stft``, ``istft``, ``csd``, ``welch``) in
``signal_spectral``.

The direct convolutions are one ``lax.conv_general_dilated`` of the larger operand with the
flipped smaller one; ``mode='same'`` and ``'valid'`` are paddings of that convolution that
cut out the window SciPy defines on the full result (centred, ``(full - out) // 2`` first),
so no full result is ever built. ``fftconvolve`` multiplies ``rfftn``/``fftn`` spectra over
the convolution axes and slices the same window. Integer and boolean inputs compute in the
default float, as in JAX; the errors are JAX's (types and texts).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

import jaxlite.lax as lax
import jaxlite.numpy as jnp
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jaxlite._src.ops.precision import check_precision
from jaxlite._src.util import canonicalize_axis

_MODES = ["full", "same", "valid"]


def _out_shape(mode: str, s1: Sequence[int], s2: Sequence[int]) -> tuple[int, ...]:
    """The result shape SciPy gives ``mode`` for operand shapes ``s1`` (first) and ``s2``."""
    if mode == "full":
        return tuple(a + b - 1 for a, b in zip(s1, s2))
    if mode == "same":
        return tuple(s1)
    return tuple(abs(a - b) + 1 for a, b in zip(s1, s2))


def _conv_nd(in1, in2, mode: str, precision=None):
    """The direct N-d convolution with SciPy's output windows (JAX's checks and order)."""
    if mode not in _MODES:
        raise ValueError("mode must be one of ['full', 'same', 'valid']")
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 must have the same number of dimensions")
    if in1.size == 0 or in2.size == 0:
        raise ValueError(
            "zero-size arrays not supported in convolutions, got shapes "
            f"{in1.shape} and {in2.shape}."
        )
    in1, in2 = promote_dtypes_inexact(in1, in2)
    s1, s2 = tuple(in1.shape), tuple(in2.shape)
    first_bigger = all(a >= b for a, b in zip(s1, s2))
    if not (first_bigger or all(a <= b for a, b in zip(s1, s2))):
        raise ValueError("One input must be smaller than the other in every dimension.")
    # Convolution commutes: slide the flipped smaller operand over the larger one.
    big, small = (in1, in2) if first_bigger else (in2, in1)
    full = _out_shape("full", s1, s2)
    out = _out_shape(mode, s1, s2)
    padding = []
    for k, f, o in zip(small.shape, full, out):
        start = (f - o) // 2  # first index of the window in the full result
        padding.append((k - 1 - start, k - 1 - (f - o - start)))
    kernel = jnp.flip(small)
    res = lax.conv_general_dilated(
        big[None, None], kernel[None, None], (1,) * big.ndim, padding, precision=precision
    )
    return res[0, 0]


def convolve(in1, in2, mode: str = "full", method: str = "auto", precision=None):
    """N-d convolution (``jax.scipy.signal.convolve``, after ``scipy.signal.convolve``).

    Args:
        in1: first operand, any shape.
        in2: second operand, with ``in2.ndim == in1.ndim``.
        mode: ``'full'`` (every overlap, shape ``s1 + s2 - 1``), ``'same'`` (the centred
            part of the full result with ``in1``'s shape) or ``'valid'`` (only full
            overlaps, shape ``|s1 - s2| + 1``; one operand must be at least as large as the
            other along every axis).
        method: ``'auto'`` and ``'direct'`` use ``lax.conv_general_dilated``; ``'fft'`` is
            :func:`fftconvolve`.
        precision: passed to ``lax.conv_general_dilated``.

    Returns:
        The convolution, in the inputs' common inexact dtype (integers and booleans give
        the default float).

    Raises:
        ValueError: an unknown ``method`` or ``mode``, ranks that differ, a zero-size
            operand, or shapes neither of which is the smaller along every axis.
    """
    check_precision(precision)
    if method == "fft":
        return fftconvolve(in1, in2, mode=mode)
    if method in ("direct", "auto"):
        return _conv_nd(in1, in2, mode, precision=precision)
    raise ValueError(f"Got method={method!r}; expected 'auto', 'fft', or 'direct'.")


def correlate(in1, in2, mode: str = "full", method: str = "auto", precision=None):
    """N-d cross-correlation (``jax.scipy.signal.correlate``): the convolution of ``in1``
    with ``in2`` conjugated and reversed along every axis.

    Args:
        in1: first operand, any shape.
        in2: second operand, with ``in2.ndim == in1.ndim``.
        mode: ``'full'``, ``'same'`` or ``'valid'``, as in :func:`convolve`.
        method: ``'auto'``, ``'direct'`` or ``'fft'``, as in :func:`convolve`.
        precision: passed to ``lax.conv_general_dilated``.

    Returns:
        The cross-correlation, in the inputs' common inexact dtype.

    Raises:
        ValueError: as :func:`convolve`.
    """
    check_precision(precision)
    return convolve(in1, jnp.flip(in2.conj()), mode, method=method, precision=precision)


def _check_2d(name: str, in1, in2, boundary, fillvalue) -> None:
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(f"{name}() only supports boundary='fill', fillvalue=0")
    if np.ndim(in1) != 2 or np.ndim(in2) != 2:
        raise ValueError(f"{name}() only supports 2-dimensional inputs.")


def convolve2d(in1, in2, mode: str = "full", boundary: str = "fill", fillvalue=0, precision=None):
    """2-D convolution (``jax.scipy.signal.convolve2d``).

    Args:
        in1: ``(M, N)`` first operand.
        in2: ``(K, L)`` second operand.
        mode: ``'full'``, ``'same'`` or ``'valid'``, as in :func:`convolve`.
        boundary: only ``'fill'`` (as in JAX).
        fillvalue: only ``0`` (as in JAX).
        precision: passed to ``lax.conv_general_dilated``.

    Returns:
        The convolution, in the inputs' common inexact dtype.

    Raises:
        NotImplementedError: another ``boundary`` or ``fillvalue``.
        ValueError: an operand that is not 2-D, or as :func:`convolve`.
    """
    check_precision(precision)
    _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return _conv_nd(in1, in2, mode, precision=precision)


def correlate2d(in1, in2, mode: str = "full", boundary: str = "fill", fillvalue=0, precision=None):
    """2-D cross-correlation (``jax.scipy.signal.correlate2d``).

    Its windows are SciPy's ``correlate2d``'s, which are not those of
    :func:`correlate`: ``'same'`` with an even-sized ``in2`` starts one step later, and
    ``'valid'`` with the smaller operand first is conjugated and not reversed. As in JAX it
    is built from convolutions of reversed operands.

    Args:
        in1: ``(M, N)`` first operand.
        in2: ``(K, L)`` second operand.
        mode: ``'full'``, ``'same'`` or ``'valid'``.
        boundary: only ``'fill'`` (as in JAX).
        fillvalue: only ``0`` (as in JAX).
        precision: passed to ``lax.conv_general_dilated``.

    Returns:
        The cross-correlation, in the inputs' common inexact dtype.

    Raises:
        NotImplementedError: another ``boundary`` or ``fillvalue``.
        ValueError: an operand that is not 2-D, or as :func:`convolve`.
    """
    check_precision(precision)
    _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    first_smaller = all(a <= b for a, b in zip(in1.shape, in2.shape))
    equal = tuple(in1.shape) == tuple(in2.shape)
    reverse_first = (mode == "same") or (mode == "valid" and (equal or not first_smaller))
    reverse_first = reverse_first or (mode not in ("same", "valid") and not first_smaller)
    if reverse_first:
        return jnp.flip(_conv_nd(jnp.flip(in1), in2.conj(), mode, precision=precision))
    res = _conv_nd(jnp.flip(in2), in1.conj(), mode, precision=precision)
    return res if mode == "valid" else res.conj()


def _ensure_axes(axes, ndim: int) -> tuple[int, ...]:
    if isinstance(axes, Sequence) or (isinstance(axes, np.ndarray) and axes.ndim):
        axes = tuple(operator.index(a) for a in axes)
    else:
        axes = (operator.index(axes),)
    return tuple(canonicalize_axis(a, ndim) for a in axes)


def fftconvolve(in1, in2, mode: str = "full", axes=None):
    """N-d convolution by FFT (``jax.scipy.signal.fftconvolve``).

    Args:
        in1: first operand.
        in2: second operand, with ``in2.ndim == in1.ndim``.
        mode: ``'full'``, ``'same'`` or ``'valid'``, as in :func:`convolve`.
        axes: the axes to convolve along (default all); along the others the operands must
            have equal lengths and are multiplied elementwise.

    Returns:
        The convolution, in the inputs' common inexact dtype (FFT accuracy, not exact even
        for integer inputs). float16 and bfloat16 inputs raise, as JAX's real FFT does.

    Raises:
        TypeError: an operand that is not an array or scalar.
        ValueError: ranks that differ, an unknown ``mode``, mapped axes of different
            lengths, an axis out of range, or (``'valid'``) shapes neither of which is the
            smaller along every convolution axis.
    """
    check_arraylike("fftconvolve", in1, in2)
    in1, in2 = promote_dtypes_inexact(in1, in2)
    if in1.ndim != in2.ndim:
        raise ValueError("in1 and in2 should have the same dimensionality")
    if mode not in ("same", "full", "valid"):
        raise ValueError("mode must be one of ['same', 'full', 'valid']")
    if axes is None:
        axes = tuple(range(in1.ndim))
    else:
        axes = _ensure_axes(axes, in1.ndim)
        mapped = sorted(set(range(in1.ndim)) - set(axes))
        if any(in1.shape[i] != in2.shape[i] for i in mapped):
            raise ValueError(
                f"mapped axes must have same shape; got in1.shape={tuple(in1.shape)} "
                f"in2.shape={tuple(in2.shape)} axes={axes}"
            )
    axes = tuple(sorted(set(axes)))
    s1 = [in1.shape[a] for a in axes]
    s2 = [in2.shape[a] for a in axes]
    if mode == "valid":
        first_bigger = all(a >= b for a, b in zip(s1, s2))
        if not (first_bigger or all(a <= b for a, b in zip(s1, s2))):
            raise ValueError(
                "For 'valid' mode, One input must be at least as large as the other in "
                "every dimension."
            )
        if not first_bigger:
            in1, in2, s1, s2 = in2, in1, s2, s1
    full = [a + b - 1 for a, b in zip(s1, s2)]
    if all(a == 1 or b == 1 for a, b in zip(s1, s2)):
        conv = in1 * in2  # every product is one term: exact, and no transform needed
    elif jnp.iscomplexobj(in1):
        sp = jnp.fft.fftn(in1, full, axes) * jnp.fft.fftn(in2, full, axes)
        conv = jnp.fft.ifftn(sp, full, axes)
    else:
        sp = jnp.fft.rfftn(in1, full, axes) * jnp.fft.rfftn(in2, full, axes)
        conv = jnp.fft.irfftn(sp, full, axes)
    out = _out_shape(mode, s1, s2)
    for a, f, o in zip(axes, full, out):
        start = (f - o) // 2
        conv = lax.slice_in_dim(conv, start, start + o, axis=a)
    return conv


def detrend(data, axis: int = -1, type: str = "linear", bp=0, overwrite_data=None):
    """Remove a constant or (piecewise) linear trend (``jax.scipy.signal.detrend``).

    The linear fit of each piece is the closed-form least-squares line (centred times and
    data), not a ``lstsq`` call, so it is differentiable and works in float16 too.

    Args:
        data: the signal, any shape with at least one axis.
        axis: the axis along which to detrend.
        type: ``'linear'`` (subtract the least-squares line of each piece) or
            ``'constant'`` (subtract the mean).
        bp: breakpoints (indices along ``axis``) that split the data into pieces fitted
            separately; ``'linear'`` only.
        overwrite_data: unsupported (as in JAX); must be ``None``.

    Returns:
        ``data`` minus its trend, same shape, in ``data``'s inexact dtype.

    Raises:
        NotImplementedError: ``overwrite_data`` given.
        ValueError: an unknown ``type``, or a breakpoint outside ``[0, N]``.
    """
    if overwrite_data is not None:
        raise NotImplementedError("overwrite_data argument not implemented.")
    if type not in ("constant", "linear"):
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    (x,) = promote_dtypes_inexact(jnp.asarray(data))
    if type == "constant":
        return x - x.mean(axis, keepdims=True)
    n = x.shape[axis]
    edges = np.sort(np.unique(np.r_[0, bp, n]))
    if edges[0] < 0 or edges[-1] > n:
        raise ValueError(
            "Breakpoints must be non-negative and less than length of data along given axis."
        )
    x = jnp.moveaxis(x, axis, 0)
    pieces = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        seg = x[int(lo) : int(hi)]
        npts = int(hi - lo)
        if npts == 1:
            pieces.append(seg - seg)  # a line through one point fits it exactly
            continue
        # Times 1/npts, ..., 1 (as SciPy); centring makes the slope a ratio of two sums.
        t = np.arange(1, npts + 1) / npts
        t = jnp.asarray(t - t.mean(), dtype=x.dtype).reshape((npts,) + (1,) * (x.ndim - 1))
        centred = seg - seg.mean(0, keepdims=True)
        slope = (t * centred).sum(0, keepdims=True) / (t * t).sum()
        pieces.append(centred - t * slope)
    if pieces:
        x = jnp.concatenate(pieces, axis=0)
    return jnp.moveaxis(x, 0, axis)
