"""More ``jax.numpy`` functions: ``histogram2d``/``histogramdd``, ``dsplit``, the printing
helpers (``array_str``, ``array_repr`` and NumPy's print options), and the constructors
from host data (``frombuffer``, ``fromstring``; ``fromiter`` raises as in JAX).
"""

from __future__ import annotations

import builtins
import math

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.numpy.creation import asarray
from jaxlite._src.numpy.indexing_routines import ix_, ravel_multi_index
from jaxlite._src.numpy.numerical import diff
from jaxlite._src.numpy.shape import reshape, split, transpose
from jaxlite._src.numpy.sorting import searchsorted
from jaxlite._src.numpy.statistics import bincount, histogram_bin_edges
from jaxlite._src.numpy.ufuncs import where
from jaxlite._src.numpy.util import asarray_any, check_arraylike, promote_dtypes_inexact


def histogramdd(sample, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """A multi-dimensional histogram (``jax.numpy.histogramdd``).

    Args:
      sample: ``(N, D)`` array of ``N`` points in ``D`` dimensions.
      bins: an int (bins per dimension), or one entry per dimension (an int or an array
        of edges).
      range: ``None`` or one ``(lo, hi)`` pair (or None) per dimension.
      weights: optional ``(N,)`` weights.
      density: normalize to a probability density.

    Returns:
      ``(hist, edges)``: the ``D``-dimensional counts (sums of weights) and a list of the
      ``D`` edge arrays. Each dimension's last bin includes its right edge.

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for weights not one per sample, a bad ``range``, or ``bins`` of the wrong
        length.
    """
    if weights is None:
        check_arraylike("histogramdd", sample)
        (sample,) = promote_dtypes_inexact(asarray_any(sample))
    else:
        check_arraylike("histogramdd", sample, weights)
        if np.shape(weights) != np.shape(sample)[:1]:
            raise ValueError("should have one weight for each sample.")
        sample, weights = promote_dtypes_inexact(asarray_any(sample), asarray_any(weights))
    N, D = sample.shape
    if range is not None and (
        len(range) != D or any(r is not None and np.shape(r)[0] != 2 for r in range)
    ):
        raise ValueError(
            f"For sample.shape={(N, D)}, range must be a sequence of {D} pairs or Nones; "
            f"got {range=}"
        )
    try:
        per_dim = list(bins)
    except TypeError:
        per_dim = D * [bins]
    else:
        if len(per_dim) != D:
            raise ValueError("should be a bin for each dimension.")
    idx, edges = [], []
    for i in builtins.range(D):
        col = sample[:, i]
        e = histogram_bin_edges(col, per_dim[i], None if range is None else range[i], weights)
        j = searchsorted(e, col, side="right")
        # The last bin is closed on the right.
        idx.append(where(col == e[-1], j - 1, j))
        edges.append(e)
    nbins = tuple(e.shape[0] + 1 for e in edges)
    flat = ravel_multi_index(tuple(idx), nbins, mode="clip")
    hist = reshape(bincount(flat, weights, length=math.prod(nbins)), nbins)
    hist = hist[D * (slice(1, -1),)]
    if density:
        hist = hist.astype(sample.dtype)
        hist = hist / hist.sum()
        for widths in ix_(*[diff(e) for e in edges]):
            hist = hist / widths
    return hist, edges


def histogram2d(x, y, bins=10, range=None, weights=None, density=None):  # noqa: A002
    """A two-dimensional histogram (``jax.numpy.histogram2d``).

    Args:
      x: ``(N,)`` first coordinates.
      y: ``(N,)`` second coordinates.
      bins: an int, a pair of ints or edge arrays, or one edge array used for both axes.
      range: ``None`` or ``[(xlo, xhi), (ylo, yhi)]``.
      weights: optional ``(N,)`` weights.
      density: normalize to a probability density.

    Returns:
      ``(hist, xedges, yedges)``.

    Raises:
      TypeError: for non-array arguments (lists).
    """
    check_arraylike("histogram2d", x, y)
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n not in (1, 2):
        e = asarray(bins)
        bins = [e, e]
    hist, edges = histogramdd(
        transpose(asarray([asarray_any(x), asarray_any(y)])), bins, range, weights, density
    )
    return hist, edges[0], edges[1]


def dsplit(ary, indices_or_sections):
    """Split along the third axis (``jax.numpy.dsplit``; arrays of 3 or more dimensions).

    Returns:
      A list of arrays.
    """
    a = asarray_any(ary)
    if a.ndim < 3:  # JAX: IndexError (it indexes the missing axis)
        raise IndexError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, axis=2)


def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """The string of an array's data (``jax.numpy.array_str``, NumPy's formatting)."""
    return np.array_str(np.asarray(a), max_line_width, precision, suppress_small)


def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """The repr of an array, named after its class (``jax.numpy.array_repr``; NumPy's
    formatting, as JAX)."""
    return np.array_repr(arr, max_line_width, precision, suppress_small)


def printoptions(*args, **kwargs):
    """NumPy's ``printoptions`` context manager (``jax.numpy.printoptions``): jaxlite
    arrays print through NumPy, so these options apply to them."""
    return np.printoptions(*args, **kwargs)


def get_printoptions():
    """NumPy's current print options (``jax.numpy.get_printoptions``)."""
    return np.get_printoptions()


def set_printoptions(*args, **kwargs):
    """Set NumPy's print options (``jax.numpy.set_printoptions``)."""
    return np.set_printoptions(*args, **kwargs)


def fromiter(*args, **kwargs):
    """Not implemented, as in JAX (``jax.numpy.fromiter``): consuming an iterator is a side
    effect. Use ``jnp.asarray(np.fromiter(...))``.

    Raises:
      NotImplementedError: always.
    """
    raise NotImplementedError(
        "jnp.fromiter() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromiter(...)) "
        "instead, although care should be taken if np.fromiter is used within a jax "
        "transformations because of its potential side-effect of consuming the iterable "
        "object; for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions"
    )


def frombuffer(buffer, dtype=float, count: int = -1, offset: int = 0):
    """An array from the bytes of ``buffer`` (``jax.numpy.frombuffer``, NumPy's reading;
    a Python ``float`` dtype means the default float dtype).

    Returns:
      A 1-D array (a copy).
    """
    return asarray(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromstring(string, dtype=float, count: int = -1, *, sep: str):
    """An array from text numbers separated by ``sep`` (``jax.numpy.fromstring``).

    Returns:
      A 1-D array.
    """
    return asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


_DLPACK_DTYPES = frozenset(
    np.dtype(t)
    for t in (
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
        "float16", "float32", "float64", "complex64", "complex128",
    )
) | {dtypes.bfloat16}  # fmt: skip


def is_supported_dlpack_dtype(dtype) -> bool:
    """``jax.dlpack.is_supported_dtype``: whether arrays of ``dtype`` cross DLPack (bool,
    the integers, float16/bfloat16/float32/float64, complex64/complex128; not float8 or
    int4)."""
    try:
        return np.dtype(dtype) in _DLPACK_DTYPES
    except TypeError:
        return False


def from_dlpack(x, /, *, device=None, copy=None):
    """``jax.numpy.from_dlpack`` / ``jax.dlpack.from_dlpack``: a jaxlite array with the
    contents of any object exporting DLPack (``__dlpack__`` and ``__dlpack_device__``: a
    NumPy array, a PyTorch CPU tensor, ...). The dtype is canonicalised as by ``asarray``
    (int64 becomes int32 unless x64 is on). The data is always copied: jaxlite arrays never
    alias a buffer someone else can write (JAX aliases it when ``copy=False``).

    Raises:
      TypeError: ``x`` does not export DLPack.
      BufferError: the producer lives on a device other than the CPU.
    """
    del device, copy
    if not (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")):
        raise TypeError(
            "The array passed to from_dlpack must have __dlpack__ and __dlpack_device__ methods."
        )
    return asarray(np.array(np.from_dlpack(x), copy=True))
