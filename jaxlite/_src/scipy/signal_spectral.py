"""``jax.scipy.signal``'s windowed-FFT estimators: ``stft``, ``istft``, ``csd`` and ``welch``.

A signal is cut into frames of ``nperseg`` samples every ``nperseg - noverlap`` (one static
gather), each frame detrended, windowed and transformed; ``csd``/``welch`` average the
frames' cross/power spectra, ``stft`` returns them. ``istft`` inverts with a weighted
overlap-add (a static scatter-add), divided by the overlap-added squared window.

JAX's choices are kept where they differ from SciPy's: ``nperseg=None`` means the whole
signal (SciPy: 256), ``istft`` treats ``nperseg=0``/``noverlap=0`` as not given, its inverse
FFT uses the ``nfft`` argument as given, its time vector counts the first axis of the
result, and a callable ``detrend`` sees the frames with the signal's axis moved last.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

import jaxlite.numpy as jnp
from jaxlite._src import dtypes
from jaxlite._src.core.trace import Tracer, concrete_or_error
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jaxlite._src.scipy.signal import detrend as _detrend
from jaxlite._src.util import canonicalize_axis


def _drop(shape, axis: int) -> tuple[int, ...]:
    return tuple(n for i, n in enumerate(shape) if i != axis)


def _concrete_int(v, what: str) -> int:
    """JAX's ``concrete_or_error(int, v)`` for the segment sizes: ``int()`` of a concrete
    value, as SciPy's spectral functions (a float is truncated, a numeric string read); a
    traced one without a known value is ``ConcretizationTypeError``."""
    if isinstance(v, Tracer):
        v = concrete_or_error(v, what)[()]
    return int(v)


def _hann(n: int, dtype):
    if n == 1:
        return jnp.array([1.0], dtype=dtype)
    return (jnp.sin(jnp.linspace(0, np.pi, n, endpoint=False)) ** 2).astype(dtype)


def _named_window(window, n: int, dtype):
    if isinstance(window, str) and window == "hann":
        return _hann(n, dtype)
    try:
        from scipy.signal import get_window  # optional: other named windows come from SciPy
    except ImportError as err:  # pragma: no cover - scipy is installed with the tests
        raise ImportError(f"scipy must be available to use window={window!r}") from err
    return jnp.array(get_window(window, n), dtype=dtype)


def _window_and_length(window, nperseg, input_length: int, dtype):
    """(window array, nperseg) from a window name/tuple or an explicit window."""
    if isinstance(window, (str, tuple)):
        n = input_length if nperseg is None else int(nperseg)
        if n > input_length:
            warnings.warn(
                f"nperseg={n} is greater than input_length={input_length!r}, using "
                f"nperseg={input_length}",
                stacklevel=4,
            )
            n = input_length
        return _named_window(window, n, dtype), n
    win = jnp.asarray(window, dtype=dtype)
    n = win.size if nperseg is None else int(nperseg)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if input_length < win.size:
        raise ValueError("window is longer than input signal")
    if n != win.size:
        raise ValueError("value specified for nperseg is different from length of window")
    return win, n


def _pad_last(x, lo: int, hi: int, mode: str):
    width = [(0, 0)] * (x.ndim - 1) + [(lo, hi)]
    return jnp.pad(x, width, mode)


def _odd_extension(x, n: int):
    """Extend the last axis by ``n`` samples at each end, odd about the end samples."""
    if n < 1:
        return x
    if n > x.shape[-1] - 1:
        raise ValueError(
            f"The extension length n ({n}) is too big. It must not exceed x.shape[axis]-1, "
            f"which is {x.shape[-1] - 1}."
        )
    first, last = x[..., :1], x[..., -1:]
    left = 2 * first - jnp.flip(x[..., 1 : n + 1], -1)
    right = 2 * last - jnp.flip(x[..., -(n + 1) : -1], -1)
    return jnp.concatenate([left, x, right], axis=-1)


_BOUNDARIES = ("even", "odd", "constant", "zeros", None)


def _extend(x, n: int, boundary):
    if boundary == "even":
        return _pad_last(x, n, n, "reflect")
    if boundary == "odd":
        return _odd_extension(x, n)
    if boundary == "constant":
        return _pad_last(x, n, n, "edge")
    if boundary == "zeros":
        return _pad_last(x, n, n, "constant")
    return x


def _frames_spectrum(x, win, detrend_fn, nperseg: int, noverlap: int, nfft: int, sides: str):
    """(..., frames, freqs): the windowed FFT of every frame of the last axis."""
    if x.dtype.kind == "i":
        x = x.astype(win.dtype)
    length = x.shape[-1]
    if nperseg == 1 and noverlap == 0:
        frames = x[..., None]
    else:
        starts = np.arange(0, length - nperseg + 1, nperseg - noverlap)
        frames = x[..., starts[:, None] + np.arange(nperseg)[None, :]]
    frames = detrend_fn(frames)
    if jnp.iscomplexobj(win) and not jnp.iscomplexobj(frames):
        frames = frames.astype(dtypes.to_complex_dtype(frames.dtype))
    frames = win * frames
    if sides == "twosided":
        return jnp.fft.fft(frames, n=nfft)
    return jnp.fft.rfft(frames.real, n=nfft)


def _detrend_function(detrend_type, axis: int):
    if isinstance(detrend_type, str):
        return lambda d: _detrend(d, axis=-1, type=detrend_type)
    if callable(detrend_type):
        # As JAX: the (canonical, so never -1) signal axis is moved last around the call.
        return lambda d: jnp.moveaxis(detrend_type(jnp.moveaxis(d, axis, -1)), -1, axis)
    if not detrend_type:
        return lambda d: d
    raise ValueError(f"Unsupported detrend type: {detrend_type}")


def _spectral(
    x,
    y,
    fs,
    window,
    nperseg,
    noverlap,
    nfft,
    detrend_type,
    return_onesided,
    scaling,
    axis,
    mode,
    boundary=None,
    padded=False,
):
    """(freqs, times, spectra) of the frames: ``stft`` (mode ``'stft'``) or the power/cross
    spectral densities ``csd`` averages (mode ``'psd'``)."""
    if mode not in ("psd", "stft"):
        raise ValueError(f"Unknown value for mode {mode}, must be one of: ('psd', 'stft')")
    if boundary not in _BOUNDARIES:
        raise ValueError(
            f"Unknown boundary option '{boundary}', must be one of: {list(_BOUNDARIES)}"
        )
    axis = canonicalize_axis(operator.index(axis), x.ndim)
    if y is None:
        check_arraylike("spectral_helper", x)
        (x,) = promote_dtypes_inexact(x)
        outer = _drop(x.shape, axis)
    else:
        if mode != "psd":
            raise ValueError("two-argument mode is available only when mode=='psd'")
        check_arraylike("spectral_helper", x, y)
        x, y = promote_dtypes_inexact(x, y)
        if x.ndim != y.ndim:
            raise ValueError("two-arguments must have the same rank ({x.ndim} vs {y.ndim}).")
        try:
            outer = jnp.broadcast_shapes(_drop(x.shape, axis), _drop(y.shape, axis))
        except ValueError as err:
            raise ValueError("x and y cannot be broadcast together.") from err
    result_dtype = dtypes.to_complex_dtype(x.dtype)
    freq_dtype = np.finfo(result_dtype).dtype
    if nperseg is not None:
        nperseg = _concrete_int(nperseg, "nperseg of windowed-FFT")
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    win, nperseg = _window_and_length(window, nperseg, x.shape[axis], x.dtype)
    noverlap = nperseg // 2 if noverlap is None else _concrete_int(noverlap, "noverlap")
    nfft = nperseg if nfft is None else _concrete_int(nfft, "nfft of windowed-FFT")
    if y is None and x.size == 0:
        z = jnp.zeros(x.shape, freq_dtype)
        return z, z, jnp.zeros(x.shape, result_dtype)
    if y is not None and (x.size == 0 or y.size == 0):
        shape = tuple(outer[:axis]) + (min(x.shape[axis], y.shape[axis]),) + tuple(outer[axis:])
        z = jnp.zeros(shape, freq_dtype)
        return z, z, jnp.zeros(shape, result_dtype)
    x = jnp.moveaxis(x, axis, -1)
    if y is not None and y.ndim > 1:
        y = jnp.moveaxis(y, axis, -1)
    if y is not None and x.shape[-1] != y.shape[-1]:
        longest = max(x.shape[-1], y.shape[-1])
        x = _pad_last(x, 0, longest - x.shape[-1], "constant")
        y = _pad_last(y, 0, longest - y.shape[-1], "constant")
    if nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg - noverlap
    if boundary is not None:
        x = _extend(x, nperseg // 2, boundary)
        if y is not None:
            y = _extend(y, nperseg // 2, boundary)
    if padded:
        extra = -(x.shape[-1] - nperseg) % step % nperseg
        x = _pad_last(x, 0, extra, "constant")
        if y is not None:
            y = _pad_last(y, 0, extra, "constant")
    detrend_fn = _detrend_function(detrend_type, axis)
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    elif scaling == "spectrum":
        scale = 1.0 / win.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling}")
    if mode == "stft":
        scale = jnp.sqrt(scale)
    scale = jnp.asarray(scale)
    scale = scale.astype(dtypes.to_complex_dtype(scale.dtype))
    sides = "twosided"
    if return_onesided:
        if jnp.iscomplexobj(x) or (y is not None and jnp.iscomplexobj(y)):
            warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=3)
        else:
            sides = "onesided"
    if sides == "twosided":
        freqs = jnp.fft.fftfreq(nfft, 1 / fs, dtype=freq_dtype)
    else:
        freqs = jnp.fft.rfftfreq(nfft, 1 / fs, dtype=freq_dtype)
    res = _frames_spectrum(x, win, detrend_fn, nperseg, noverlap, nfft, sides)
    if y is not None:
        res = jnp.conjugate(res) * _frames_spectrum(
            y, win, detrend_fn, nperseg, noverlap, nfft, sides
        )
    elif mode == "psd":
        res = jnp.conjugate(res) * res
    res = res * scale
    if sides == "onesided" and mode == "psd":
        # Fold the negative frequencies in: every bin but DC (and Nyquist, for even nfft).
        doubled = np.ones(res.shape[-1])
        doubled[1 : None if nfft % 2 else -1] = 2
        res = res * jnp.asarray(doubled, res.real.dtype)
    times = jnp.arange(
        nperseg / 2, x.shape[-1] - nperseg / 2 + 1, nperseg - noverlap, dtype=freq_dtype
    )
    times = times / fs
    if boundary is not None:
        times = times - nperseg / 2 / fs
    res = res.astype(result_dtype)
    if y is None and mode != "stft":
        res = res.real
    return freqs, times, jnp.moveaxis(res, -1, axis)


def stft(
    x,
    fs=1.0,
    window="hann",
    nperseg: int = 256,
    noverlap=None,
    nfft=None,
    detrend=False,
    return_onesided: bool = True,
    boundary="zeros",
    padded: bool = True,
    axis: int = -1,
):
    """Short-time Fourier transform (``jax.scipy.signal.stft``).

    Args:
        x: the signal; time along ``axis``.
        fs: the sampling frequency.
        window: ``'hann'``, another SciPy window name or tuple, or a 1-D window array.
        nperseg: frame length (at most the signal length; longer warns and is cut).
        noverlap: overlap between frames (default ``nperseg // 2``).
        nfft: FFT length (default ``nperseg``).
        detrend: ``False``, ``'constant'``, ``'linear'`` or a callable, applied per frame.
        return_onesided: one-sided spectrum for real data (complex data switches to two
            sides with a warning).
        boundary: how the signal is extended by ``nperseg // 2`` at both ends:
            ``'zeros'``, ``'even'``, ``'odd'``, ``'constant'`` or ``None``.
        padded: zero-pad the end so that the frames cover the whole signal.
        axis: the time axis.

    Returns:
        ``(f, t, Zxx)``: frequencies, frame times (real dtype) and the transform (complex;
        frequency at ``axis``, frames last).

    Raises:
        ValueError: a bad ``boundary``, ``nperseg``, ``noverlap``, ``nfft``, ``window`` or
            ``detrend`` (JAX's texts).
    """
    return _spectral(
        x,
        None,
        fs,
        window,
        nperseg,
        noverlap,
        nfft,
        detrend,
        return_onesided,
        "spectrum",
        axis,
        "stft",
        boundary=boundary,
        padded=padded,
    )


def csd(
    x,
    y,
    fs=1.0,
    window="hann",
    nperseg=None,
    noverlap=None,
    nfft=None,
    detrend="constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
):
    """Cross power spectral density by Welch's method (``jax.scipy.signal.csd``).

    Args:
        x: first signal; time along ``axis``.
        y: second signal (broadcast against ``x`` off ``axis``; the shorter is zero-padded),
            or ``None`` for the power spectrum of ``x``.
        fs: the sampling frequency.
        window: ``'hann'``, another SciPy window name or tuple, or a 1-D window array.
        nperseg: frame length (default: the whole signal, as JAX).
        noverlap: overlap between frames (default ``nperseg // 2``).
        nfft: FFT length (default ``nperseg``).
        detrend: ``'constant'``, ``'linear'``, ``False`` or a callable, per frame.
        return_onesided: one-sided spectrum for real data.
        scaling: ``'density'`` (per Hz) or ``'spectrum'`` (power).
        axis: the time axis.
        average: ``'mean'`` or ``'median'`` (bias-corrected) over the frames.

    Returns:
        ``(f, Pxy)``: frequencies and the (complex, when ``y`` is given) cross spectrum,
        frequency at ``axis``.

    Raises:
        ValueError: as :func:`stft`, an unknown ``scaling`` or ``average``, or ``x`` and
            ``y`` that do not broadcast.
    """
    freqs, _, pxy = _spectral(
        x,
        y,
        fs,
        window,
        nperseg,
        noverlap,
        nfft,
        detrend,
        return_onesided,
        scaling,
        axis,
        "psd",
    )
    if y is not None:
        pxy = pxy + 0j
    if pxy.ndim >= 2 and pxy.size > 0:
        nframes = pxy.shape[-1]
        if nframes > 1:
            if average == "median":
                even = np.arange(2.0, nframes, 2)
                bias = 1 + jnp.sum(1.0 / (jnp.asarray(even) + 1) - 1.0 / jnp.asarray(even))
                bias = bias.astype(pxy.dtype)
                if jnp.iscomplexobj(pxy):
                    pxy = jnp.median(pxy.real, axis=-1) + 1j * jnp.median(pxy.imag, axis=-1)
                else:
                    pxy = jnp.median(pxy, axis=-1)
                pxy = pxy / bias
            elif average == "mean":
                pxy = pxy.mean(axis=-1)
            else:
                raise ValueError(f'average must be "median" or "mean", got {average}')
        else:
            pxy = pxy.reshape(pxy.shape[:-1])
    return freqs, pxy


def welch(
    x,
    fs=1.0,
    window="hann",
    nperseg=None,
    noverlap=None,
    nfft=None,
    detrend="constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
):
    """Power spectral density by Welch's method (``jax.scipy.signal.welch``): the real
    part of ``csd(x, None, ...)``.

    Args:
        x: the signal; time along ``axis``.
        fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling, axis,
            average: as in :func:`csd`.

    Returns:
        ``(f, Pxx)``: frequencies and the power spectrum (real), frequency at ``axis``.

    Raises:
        ValueError: as :func:`csd`.
    """
    freqs, pxx = csd(
        x,
        None,
        fs=fs,
        window=window,
        nperseg=nperseg,
        noverlap=noverlap,
        nfft=nfft,
        detrend=detrend,
        return_onesided=return_onesided,
        scaling=scaling,
        axis=axis,
        average=average,
    )
    return freqs, pxx.real


def _overlap_add(frames, step: int):
    """(..., frames, length) -> (..., step * (frames - 1) + length): the frames summed at
    offsets ``step`` apart (one scatter-add of static indices)."""
    *batch, nframes, length = frames.shape
    total = step * (nframes - 1) + length
    index = (np.arange(nframes) * step)[:, None] + np.arange(length)[None, :]
    out = jnp.zeros((*batch, total), frames.dtype)
    return out.at[..., index].add(frames)


def istft(
    Zxx,
    fs=1.0,
    window="hann",
    nperseg=None,
    noverlap=None,
    nfft=None,
    input_onesided: bool = True,
    boundary: bool = True,
    time_axis: int = -1,
    freq_axis: int = -2,
):
    """Inverse short-time Fourier transform (``jax.scipy.signal.istft``).

    Args:
        Zxx: the STFT, at least 2-D, frequencies along ``freq_axis`` and frames along
            ``time_axis``.
        fs: the sampling frequency.
        window: ``'hann'``, another SciPy window name or tuple, or a 1-D window array of
            length ``nperseg``.
        nperseg: frame length (default from the number of frequencies).
        noverlap: overlap between frames (default ``nperseg // 2``).
        nfft: FFT length (default from the number of frequencies).
        input_onesided: ``Zxx`` holds a one-sided spectrum (inverted with ``irfft``).
        boundary: cut the ``nperseg // 2`` samples :func:`stft` added at each end.
        time_axis: the frames' axis.
        freq_axis: the frequencies' axis.

    Returns:
        ``(t, x)``: sample times and the real (``input_onesided``) or complex signal, time
        at the position of ``time_axis`` among the remaining axes.

    Raises:
        ValueError: ``Zxx`` below 2-D, equal axes, a bad ``nperseg``, ``nfft``,
            ``noverlap`` or ``window`` (JAX's texts).
    """
    check_arraylike("istft", Zxx)
    Zxx = jnp.asarray(Zxx)
    if Zxx.ndim < 2:
        raise ValueError("Input stft must be at least 2d!")
    freq_axis = canonicalize_axis(operator.index(freq_axis), Zxx.ndim)  # (a float: TypeError)
    time_axis = canonicalize_axis(operator.index(time_axis), Zxx.ndim)
    if freq_axis == time_axis:
        raise ValueError("Must specify differing time and frequency axes!")
    Zxx = Zxx.astype(dtypes.to_complex_dtype(Zxx.dtype))
    n_default = 2 * (Zxx.shape[freq_axis] - 1) if input_onesided else Zxx.shape[freq_axis]
    nperseg_int = _concrete_int(nperseg or n_default, "nperseg: segment length of STFT")
    if nperseg_int < 1:
        raise ValueError("nperseg must be a positive integer")
    if nfft is None:
        nfft_int = n_default + (1 if input_onesided and nperseg_int == n_default + 1 else 0)
    else:
        nfft_int = _concrete_int(nfft, "nfft of STFT")
    if nfft_int < nperseg_int:
        raise ValueError(f"FFT length ({nfft_int}) must be longer than nperseg ({nperseg_int}).")
    noverlap_int = _concrete_int(noverlap or nperseg_int // 2, "noverlap of STFT")
    if noverlap_int >= nperseg_int:
        raise ValueError("noverlap must be less than nperseg.")
    step = nperseg_int - noverlap_int
    if time_axis != Zxx.ndim - 1 or freq_axis != Zxx.ndim - 2:
        outer = tuple(a for a in range(Zxx.ndim) if a not in (time_axis, freq_axis))
        Zxx = jnp.transpose(Zxx, outer + (freq_axis, time_axis))
    inverse = jnp.fft.irfft if input_onesided else jnp.fft.ifft
    # As JAX, the inverse FFT takes the nfft argument as given (None: its own default).
    frames = inverse(Zxx, axis=-2, n=nfft)[..., :nperseg_int, :]
    if isinstance(window, (str, tuple)):
        win = _named_window(window, nperseg_int, frames.dtype)
    else:
        win = jnp.asarray(window)
        if win.ndim != 1:
            raise ValueError("window must be 1-D")
        if win.shape[0] != nperseg_int:
            raise ValueError(f"window must have length of {nperseg_int}")
    frames = frames * win.sum()
    win = win.reshape((1,) * (frames.ndim - 2) + (-1, 1))
    x = _overlap_add(jnp.swapaxes(frames * win, -2, -1), step)
    win_sq = jnp.broadcast_to(win * win, win.shape[:-1] + (frames.shape[-1],))
    norm = _overlap_add(jnp.swapaxes(win_sq, -2, -1), step)
    if boundary:
        cut = slice(nperseg_int // 2, -(nperseg_int // 2))
        x, norm = x[..., cut], norm[..., cut]
    x = x / jnp.where(norm > 1e-10, norm, 1.0)
    if x.ndim > 1 and time_axis != Zxx.ndim - 1:
        if freq_axis < time_axis:
            time_axis -= 1
        x = jnp.moveaxis(x, -1, time_axis)
    times = jnp.arange(x.shape[0], dtype=np.finfo(x.dtype).dtype) / fs
    return times, x
