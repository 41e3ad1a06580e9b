"""``jax.image``: resampling of N-d images (``resize``, ``scale_and_translate``).

Every interpolating method is separable. For each spatial dimension of size ``m`` resampled
to size ``n`` we build an ``(m, n)`` weight matrix whose column ``i`` holds the kernel
evaluated at the distance between output pixel ``i``'s centre (mapped back into input
coordinates) and each input pixel's centre, then contract the image with it along that
dimension. Pixels are half-centred: pixel ``k`` covers ``[k, k + 1)`` with its centre at
``k + 0.5``; the warp ``out = in * scale + translation`` is inverted to find sample points.

* Downsampling with ``antialias=True`` stretches the kernel by ``1 / scale`` so it low-pass
  filters as well as interpolates; upsampling never stretches it.
* Each column is normalised to sum 1 (columns whose weights sum to ~0 become 0), and
  columns whose sample point lies outside ``[-0.5, m - 0.5]`` are zeroed: samples off the
  image read 0.
* ``CUBIC_PYTORCH`` without antialiasing uses edge padding instead: the kernel also sees
  ``radius`` virtual pixels past each edge, and their weight is folded onto the edge pixel.
* ``AREA`` weights are the overlap lengths of the output pixel's footprint with each input
  pixel.
* ``NEAREST`` (``resize`` only) is a gather at ``floor((i + 0.5) * m / n)``, computed in
  float32 as JAX does, and keeps the input dtype.

Everything is written with ``jax.numpy`` operations, so ``jit``, ``vmap`` and ``grad``
(with respect to the image and to ``scale``/``translation``) come from their rules.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.compile.jit import jit
from jaxlite._src.core.avals import canonicalize_shape
from jaxlite._src.numpy import reductions, ufuncs
from jaxlite._src.numpy.creation import arange
from jaxlite._src.numpy.einsum import tensordot
from jaxlite._src.numpy.indexing_routines import take
from jaxlite._src.numpy.shape import moveaxis
from jaxlite._src.numpy.util import promote_dtypes_inexact
from jaxlite._src.ops.precision import Precision, check_precision
from jaxlite._src.util import canonicalize_axis

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]

_PI = np.pi
# Columns whose weights sum to less than this are treated as empty (set to zero).
_EMPTY_COLUMN = 1000.0 * float(np.finfo(np.float32).eps)


class ResizeMethod(enum.Enum):
    """How ``jax.image`` resamples (mirrors ``jax.image.ResizeMethod``).

    Members:
        NEAREST: nearest-neighbour lookup (``resize`` only; keeps the input dtype).
        LINEAR: linear interpolation (triangle kernel of radius 1).
        LANCZOS3: Lanczos resampling with a kernel of radius 3.
        LANCZOS5: Lanczos resampling with a kernel of radius 5.
        CUBIC: Keys cubic convolution (a = -0.5), radius 2.
        CUBIC_PYTORCH: PyTorch's bicubic: equal to CUBIC with antialiasing; without it, the
            OpenCV kernel (a = -0.75) with edge padding.
        AREA: each output pixel averages the input area it covers (a box filter when
            upsampling).
    """

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> ResizeMethod:
        """The method named by ``s`` (e.g. ``"bilinear"``, ``"bicubic"``, ``"lanczos3"``).

        Raises:
            ValueError: ``Unknown resize method "<s>"`` for any other name (names are
                case-sensitive, as in JAX).
        """
        for method, names in _NAMES.items():
            if s in names:
                return method
        raise ValueError(f'Unknown resize method "{s}"')


_NAMES: dict[ResizeMethod, tuple[str, ...]] = {
    ResizeMethod.NEAREST: ("nearest",),
    ResizeMethod.LINEAR: ("linear", "bilinear", "trilinear", "triangle"),
    ResizeMethod.LANCZOS3: ("lanczos3",),
    ResizeMethod.LANCZOS5: ("lanczos5",),
    ResizeMethod.CUBIC: ("cubic", "bicubic", "tricubic"),
    ResizeMethod.CUBIC_PYTORCH: ("cubic-pytorch", "bicubic-pytorch"),
    ResizeMethod.AREA: ("area",),
}


# ---- kernels: functions of the (non-negative) distance d between sample and pixel centre


def _triangle(d):
    return ufuncs.maximum(0, 1 - ufuncs.abs(d))


def _cubic(a: float) -> Callable:
    """The cubic convolution kernel with parameter ``a`` (Keys: -0.5; OpenCV: -0.75)."""

    def kernel(d):
        inner = ((a + 2.0) * d - (a + 3.0)) * d * d + 1.0  # |d| < 1
        outer = ((a * d - 5.0 * a) * d + 8.0 * a) * d - 4.0 * a  # 1 <= |d| < 2
        return ufuncs.where(d >= 2.0, 0.0, ufuncs.where(d >= 1.0, outer, inner))

    return kernel


def _lanczos(radius: float) -> Callable:
    """sinc(d) * sinc(d / radius) on ``|d| <= radius``, with the removable singularity at 0
    filled in (and kept out of the gradient)."""

    def kernel(d):
        num = radius * ufuncs.sin(_PI * d) * ufuncs.sin(_PI * d / radius)
        den = ufuncs.where(d != 0, _PI**2 * (d * d), 1)
        val = ufuncs.where(d > 1e-3, ufuncs.divide(num, den), 1)
        return ufuncs.where(d > radius, 0.0, val)

    return kernel


_AREA = "area"  # marker: weights are overlaps, not a function of distance

# method -> (radius, kernel)
_KERNELS: dict[ResizeMethod, tuple[int, Any]] = {
    ResizeMethod.LINEAR: (1, _triangle),
    ResizeMethod.LANCZOS3: (3, _lanczos(3.0)),
    ResizeMethod.LANCZOS5: (5, _lanczos(5.0)),
    ResizeMethod.CUBIC: (2, _cubic(-0.5)),
    ResizeMethod.CUBIC_PYTORCH: (2, _cubic(-0.75)),
    ResizeMethod.AREA: (1, _AREA),
}


def _normalize_columns(w):
    total = reductions.sum(w, axis=0, keepdims=True)
    safe = ufuncs.where(total != 0, total, 1)
    return ufuncs.where(ufuncs.abs(total) > _EMPTY_COLUMN, ufuncs.divide(w, safe), 0)


def _fold_edges(m: int, k: int) -> np.ndarray:
    """The (m, m + 2k) 0/1 matrix that adds the weights of the k virtual pixels past each
    edge of an m-pixel line onto the edge pixel (edge padding)."""
    fold = np.zeros((m, m + 2 * k), np.float32)
    fold[np.clip(np.arange(-k, m + k), 0, m - 1), np.arange(m + 2 * k)] = 1.0
    return fold


def _weights(m: int, n: int, scale, translation, kernel, antialias, edge_pad: int | None):
    """The (m, n) weight matrix of one dimension (see the module docstring).

    ``edge_pad`` is the kernel radius when edge padding is on, else None. The matrix has
    the dtype of ``scale`` and ``translation`` promoted together.
    """
    dtype = dtypes.result_type(scale, translation)
    inv = 1.0 / scale
    out_pos = arange(n, dtype=dtype)
    # Input coordinate (in pixel-index units) of each output pixel's centre.
    centres = (out_pos + 0.5) * inv - translation * inv - 0.5
    if kernel is _AREA:
        left = out_pos * inv - translation * inv
        right = left + inv
        in_left = arange(m, dtype=dtype)
        w = ufuncs.maximum(
            0.0,
            ufuncs.minimum(right[None, :], in_left[:, None] + 1.0)
            - ufuncs.maximum(left[None, :], in_left[:, None]),
        )
    else:
        stretch = ufuncs.maximum(inv, 1.0) if antialias else 1.0
        k = 0 if edge_pad is None else edge_pad
        pixels = arange(-k, m + k, dtype=dtype)
        w = kernel(ufuncs.abs(centres[None, :] - pixels[:, None]) / stretch)
    if edge_pad is not None:
        if edge_pad:
            w = tensordot(_fold_edges(m, edge_pad).astype(w.dtype), w, axes=1)
        return _normalize_columns(w)
    w = _normalize_columns(w)
    inside = ufuncs.logical_and(centres >= -0.5, centres <= m - 0.5)
    return ufuncs.where(inside[None, :], w, 0)


def _resample(x, shape, dims, scales, translations, method, antialias, precision):
    """Contract ``x`` with one weight matrix per dimension in ``dims``."""
    if method == ResizeMethod.CUBIC_PYTORCH and antialias:
        method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[method]
    edge_pad = radius if (method == ResizeMethod.CUBIC_PYTORCH and not antialias) else None
    for d, s, t in zip(dims, scales, translations):
        d = canonicalize_axis(d, x.ndim)
        w = _weights(x.shape[d], shape[d], s, t, kernel, antialias, edge_pad)
        y = tensordot(x, w.astype(x.dtype), axes=((d,), (0,)), precision=precision)
        x = moveaxis(y, -1, d)
    return x


def _check_rank(shape, image) -> None:
    if len(shape) != image.ndim:
        raise ValueError(
            "shape must have length equal to the number of dimensions of x; "
            f" {shape} vs {image.shape}"
        )


def _as_method(method) -> ResizeMethod:
    if isinstance(method, str):
        method = ResizeMethod.from_string(method)
    assert isinstance(method, ResizeMethod)  # JAX raises a bare AssertionError too
    return method


def scale_and_translate(
    image,
    shape: Sequence[int],
    spatial_dims: Sequence[int],
    scale,
    translation,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision=Precision.HIGHEST,
):
    """Resample ``image`` under the warp ``out = in * scale + translation`` (per dimension).

    Mirrors ``jax.image.scale_and_translate``. Pixels are half-centred (pixel ``k`` has
    centre ``k + 0.5``); output pixels whose inverse-warped centre falls outside the input
    read 0. ``torch``'s ``align_corners=True`` is ``scale = (n - 1) / (m - 1)``,
    ``translation = 0.5 * (1 - scale)``.

    Args:
        image: an array of any rank.
        shape: the output shape, one entry per dimension of ``image``.
        spatial_dims: the K dimensions that ``scale`` and ``translation`` apply to.
        scale: a ``[K]`` array (not a list: JAX cannot take its dtype) of scales.
        translation: a ``[K]`` array of translations (in output pixels).
        method: a ``ResizeMethod`` other than NEAREST, or its name (see
            ``ResizeMethod.from_string``).
        antialias: stretch the kernel when downsampling to low-pass filter (default True).
        precision: the contraction precision (accepted; NumPy always computes exactly).

    Returns:
        An array of shape ``shape``: the image promoted to an inexact dtype (integers and
        bools give the default float dtype).

    Raises:
        ValueError: ``shape`` has the wrong length, the method name is unknown, or the
            method is NEAREST.
        TypeError: ``scale`` or ``translation`` is a list or tuple.
        AssertionError: ``spatial_dims``, ``scale`` and ``translation`` differ in length.
    """
    shape = canonicalize_shape(shape)
    _check_rank(shape, image)
    method = _as_method(method)
    if method == ResizeMethod.NEAREST:
        raise ValueError(
            "Nearest neighbor resampling is not currently supported for scale_and_translate."
        )
    for arg in (scale, translation):
        # JAX takes the dtype of the sequence itself, which fails (unlike jnp.asarray).
        if isinstance(arg, (list, tuple)) and len(arg) == 0:
            raise TypeError(
                f"Value '{arg}' with dtype {arg} is not a valid JAX array type. Only arrays "
                "of numeric types are supported by JAX."
            )
        if isinstance(arg, (list, tuple)):
            raise TypeError(f"Cannot determine dtype of {arg}")
    check_precision(precision)
    (image,) = promote_dtypes_inexact(image)
    scale, translation = promote_dtypes_inexact(scale, translation)
    assert len(spatial_dims) == len(scale) == len(translation)
    scales = [scale[i] for i in range(len(spatial_dims))]
    translations = [translation[i] for i in range(len(spatial_dims))]
    return _resample(image, shape, spatial_dims, scales, translations, method, antialias, precision)


def _resize_nearest(x, shape):
    for d, (m, n) in enumerate(zip(x.shape, shape)):
        if m == n:
            continue
        if m == 0:
            raise TypeError(
                f"Slice size at index {d} in gather op is out of range, must be within "
                "[0, 0 + 1), got 1."
            )
        # float32 arithmetic, as JAX (its float64 path has a known bug, so it never uses it)
        pos = (np.arange(n, dtype=np.float32) + np.float32(0.5)) * np.float32(m)
        idx = np.floor(pos / np.float32(n)).astype(np.int32)
        x = take(x, idx, axis=d, mode="clip")
    return x


def _resize_impl(image, shape, method, antialias, precision):
    _check_rank(shape, image)
    method = _as_method(method)
    if method == ResizeMethod.NEAREST:
        return _resize_nearest(image, shape)
    check_precision(precision)
    (image,) = promote_dtypes_inexact(image)
    # Dimensions kept at their size are skipped: every kernel interpolates (identity warp
    # gives the input back).
    dims = [d for d in range(len(shape)) if image.shape[d] != shape[d]]
    scales = [1.0 if shape[d] == 0 else shape[d] / image.shape[d] for d in dims]
    return _resample(image, shape, dims, scales, [0.0] * len(dims), method, antialias, precision)


_resize_jit = jit(_resize_impl, static_argnums=(1, 2, 3, 4))


def resize(
    image,
    shape: Sequence[int],
    method: str | ResizeMethod,
    antialias: bool = True,
    precision=Precision.HIGHEST,
):
    """Resize ``image`` to ``shape`` (mirrors ``jax.image.resize``).

    Every dimension whose size changes is resampled (there is no notion of batch or channel
    dimensions: keep those at their size). Compiled with ``jit``, the static arguments being
    ``shape``, ``method``, ``antialias`` and ``precision``.

    Args:
        image: an array (NumPy or jaxlite; not a list) of any rank.
        shape: the output shape, one entry per dimension of ``image``.
        method: a ``ResizeMethod`` or its name: ``"nearest"``, ``"linear"``/``"bilinear"``/
            ``"trilinear"``/``"triangle"``, ``"cubic"``/``"bicubic"``/``"tricubic"``,
            ``"cubic-pytorch"``/``"bicubic-pytorch"``, ``"lanczos3"``, ``"lanczos5"``,
            ``"area"``.
        antialias: stretch the kernel when downsampling (default True); ignored by NEAREST.
        precision: the contraction precision (accepted; NumPy always computes exactly).

    Returns:
        The resized array of shape ``shape``: NEAREST keeps the input dtype; other methods
        promote it to an inexact dtype (integers and bools give the default float dtype).

    Raises:
        ValueError: ``shape`` has the wrong length, or the method name is unknown.
        TypeError: ``shape`` is not a sequence of integers.
        ZeroDivisionError: a dimension of size 0 is resized to a non-zero size (as JAX).
    """
    return _resize_jit(image, canonicalize_shape(shape), method, antialias, precision)
