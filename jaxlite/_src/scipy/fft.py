"""``jax.scipy.fft``: the type-II discrete cosine transform and its inverse (``dct``,
``idct``, ``dctn``, ``idctn``). As in JAX only type 2 exists, with norms ``None``/
``'backward'`` and ``'ortho'``.

One length-N complex FFT computes a DCT-II (Makhoul's reordering): the even-indexed
samples followed by the odd-indexed ones reversed, transformed, each bin turned by a
quarter-sample phase ``exp(-i pi k / 2N)`` and doubled in its real part. The inverse undoes
each step: scale, turn back, inverse FFT, undo the reordering. The N-d forms apply the 1-D
transform along each axis in turn (the transform is separable). Complex inputs transform
their real and imaginary parts separately; everything else computes in the default
float, as JAX's.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

import numpy as np

import jaxlite.lax as lax
import jaxlite.numpy as jnp
from jaxlite._src import dtypes
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jaxlite._src.util import canonicalize_axis


def _check(name: str, x, type, norm) -> None:
    check_arraylike(name, x)
    if type != 2:
        raise NotImplementedError("Only DCT type 2 is implemented.")
    if norm is not None and norm not in ("backward", "ortho"):
        raise ValueError(f"jax.scipy.fft.{name}: norm={norm!r} is not implemented")


def _resize(x, axis: int, n: int | None):
    """Zero-pad or truncate ``x`` to length ``n`` along ``axis`` (as SciPy's ``n``)."""
    if n is None:
        return x
    try:
        n = operator.index(n)
    except TypeError:
        shape = list(x.shape)
        shape[axis] = shape[axis] + (n - shape[axis])
        raise TypeError(
            f"Shapes must be 1D sequences of concrete values of integer type, got {tuple(shape)}."
        ) from None
    cfg = [(0, 0, 0)] * x.ndim
    cfg[axis] = (0, n - x.shape[axis], 0)
    return lax.pad(x, jnp.zeros((), x.dtype), cfg)


def _along(v, axis: int, ndim: int):
    """A 1-D vector ``v`` shaped to broadcast along ``axis`` of an ``ndim``-d array."""
    shape = [1] * ndim
    shape[axis] = v.shape[0]
    return v.reshape(shape)


def _orders(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(reorder, undo): ``x[reorder]`` is the evens then the odds reversed."""
    reorder = np.concatenate([np.arange(0, n, 2), np.arange(1, n, 2)[::-1]])
    return reorder, np.argsort(reorder)


def _ortho_scale(n: int) -> np.ndarray:
    """Orthonormal DCT-II factors: ``1/sqrt(4n)`` for bin 0, ``1/sqrt(2n)`` for the rest."""
    s = np.full(n, 1.0 / np.sqrt(2.0 * n))
    s[0] = 1.0 / np.sqrt(4.0 * n)
    return s


def _split_complex(fn, x, **kw):
    return lax.complex(fn(x.real, **kw), fn(x.imag, **kw))


def dct(x, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None):
    """Type-II discrete cosine transform along one axis (``jax.scipy.fft.dct``).

    ``y[k] = 2 * sum_j x[j] cos(pi k (2j + 1) / (2N))``; with ``norm='ortho'`` bin 0 is
    divided by ``sqrt(4N)`` and the others by ``sqrt(2N)`` (an orthonormal transform).

    Args:
        x: input array (at least 1-D).
        type: the DCT type; only 2.
        n: the length to transform: ``x`` is zero-padded or truncated to it first.
        axis: the axis to transform.
        norm: ``None``/``'backward'`` or ``'ortho'``.

    Returns:
        The transform, shape of ``x`` with ``n`` along ``axis``; complex inputs keep their
        complex dtype, all others give the default float (float16 too, as in JAX).

    Raises:
        TypeError: a non-array input, or a zero length (JAX's slicing error).
        NotImplementedError: ``type`` other than 2.
        ValueError: another ``norm``, or ``axis`` out of range.
    """
    _check("dct", x, type, norm)
    x = jnp.asarray(x)
    if dtypes.is_complex(x.dtype):
        return _split_complex(dct, x, type=type, n=n, axis=axis, norm=norm)
    axis = canonicalize_axis(operator.index(axis), x.ndim)
    x = _resize(x, axis, n)
    size = x.shape[axis]
    if size == 0:
        raise TypeError(
            "slice limit_indices must be greater than or equal to start_indices, got "
            "start_indices (1,) and limit_indices (0,)."
        )
    reorder, _ = _orders(size)
    spec = jnp.fft.fft(jnp.take(x, reorder, axis=axis), axis=axis)
    real = spec.real.dtype
    k = np.arange(size)
    turn = _along(jnp.asarray(np.exp(-0.5j * np.pi * k / size), spec.dtype), axis, x.ndim)
    out = 2 * (spec * turn).real
    if norm == "ortho":
        out = out * _along(jnp.asarray(_ortho_scale(size), real), axis, x.ndim)
    return out


def idct(x, type: int = 2, n: int | None = None, axis: int = -1, norm: str | None = None):
    """Inverse of the type-II DCT along one axis (``jax.scipy.fft.idct``): a scaled
    type-III DCT, so that ``idct(dct(x, norm=m), norm=m) == x``.

    Args:
        x: input array (at least 1-D).
        type: the DCT type; only 2.
        n: the length to transform: ``x`` is zero-padded or truncated to it first.
        axis: the axis to transform.
        norm: ``None``/``'backward'`` or ``'ortho'``.

    Returns:
        The inverse transform, shape of ``x`` with ``n`` along ``axis``; complex inputs keep
        their complex dtype, all others give the default float.

    Raises:
        TypeError: a non-array input, or a zero length (JAX's broadcasting error).
        NotImplementedError: ``type`` other than 2.
        ValueError: another ``norm``, or ``axis`` out of range.
    """
    _check("idct", x, type, norm)
    x = jnp.asarray(x)
    if dtypes.is_complex(x.dtype):
        return _split_complex(idct, x, type=type, n=n, axis=axis, norm=norm)
    axis = canonicalize_axis(operator.index(axis), x.ndim)
    x = _resize(x, axis, n)
    size = x.shape[axis]
    if size == 0:
        raise TypeError("broadcast_in_dim shape must have every element be nonnegative, got (-1,).")
    (x,) = promote_dtypes_inexact(x)
    # Halve bin 0 and turn each bin back by its quarter-sample phase (after undoing the
    # orthonormal scaling): the real part of the inverse FFT is then the reordered signal.
    k = np.arange(size)
    weights = np.exp(0.5j * np.pi * k / size)
    weights[0] /= 2
    if norm == "ortho":
        weights = weights / _ortho_scale(size)
    spec = x * _along(jnp.asarray(weights, dtypes.to_complex_dtype(x.dtype)), axis, x.ndim)
    v = jnp.fft.ifft(spec, axis=axis).real
    _, undo = _orders(size)
    return jnp.take(v, undo, axis=axis)


def _nd_axes(name: str, x, s, axes):
    if s is not None:
        s = list(s) if isinstance(s, Sequence) or isinstance(s, np.ndarray) else [operator.index(s)]
        if len(s) > x.ndim:
            raise ValueError(f"s must have at most x.ndim ({x.ndim}) elements, got {len(s)}")
    if axes is None:
        axes = tuple(range(x.ndim - len(s), x.ndim)) if s is not None else tuple(range(x.ndim))
    elif isinstance(axes, Sequence):
        axes = tuple(canonicalize_axis(a, x.ndim) for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis: {axes}")
    else:
        axes = (canonicalize_axis(axes, x.ndim),)
    return s, axes


def _nd(name: str, fn, x, type, s, axes, norm):
    _check(name, x, type, norm)
    x = jnp.asarray(x)
    if dtypes.is_complex(x.dtype):
        return lax.complex(
            _nd(name, fn, x.real, type, s, axes, norm), _nd(name, fn, x.imag, type, s, axes, norm)
        )
    s, axes = _nd_axes(name, x, s, axes)
    if len(axes) == 1:
        return fn(x, n=None if s is None else s[0], axis=axes[0], norm=norm)
    if s is not None:
        for a, n in zip(axes, s):
            x = _resize(x, a, n)
    for a in axes:
        x = fn(x, axis=a, norm=norm)
    return x


def dctn(x, type: int = 2, s=None, axes=None, norm: str | None = None):
    """N-d type-II DCT (``jax.scipy.fft.dctn``): :func:`dct` along each of ``axes``.

    Args:
        x: input array.
        type: the DCT type; only 2.
        s: lengths to zero-pad or truncate ``axes`` to (paired with ``axes`` in order; by
            default the last ``len(s)`` axes).
        axes: the axes to transform (default: all, or the last ``len(s)``).
        norm: ``None``/``'backward'`` or ``'ortho'``.

    Returns:
        The transform; complex inputs keep their dtype, all others give the default float
        (a 0-d input with no axes comes back unchanged, as in JAX).

    Raises:
        TypeError: a non-array input.
        NotImplementedError: ``type`` other than 2.
        ValueError: another ``norm``, ``s`` longer than ``x.ndim``, an axis out of range or
            repeated.
    """
    return _nd("dctn", dct, x, type, s, axes, norm)


def idctn(x, type: int = 2, s=None, axes=None, norm: str | None = None):
    """N-d inverse type-II DCT (``jax.scipy.fft.idctn``): :func:`idct` along each of
    ``axes``.

    Args:
        x: input array.
        type: the DCT type; only 2.
        s: lengths to zero-pad or truncate ``axes`` to (as in :func:`dctn`).
        axes: the axes to transform (as in :func:`dctn`).
        norm: ``None``/``'backward'`` or ``'ortho'``.

    Returns:
        The inverse transform; complex inputs keep their dtype, all others give the
        default float.

    Raises:
        TypeError: a non-array input.
        NotImplementedError: ``type`` other than 2.
        ValueError: as :func:`dctn`.
    """
    return _nd("idctn", idct, x, type, s, axes, norm)
