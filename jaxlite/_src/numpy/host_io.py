"""``jax.numpy``'s NumPy file and masking helpers: ``save``, ``savez``, ``load``,
``fromfile`` (raises as JAX), ``ComplexWarning``, ``mask_indices``, ``place``."""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.numpy.creation import asarray, ones
from jaxlite._src.numpy.indexing_routines import nonzero
from jaxlite._src.numpy.shape import ravel, reshape, tile
from jaxlite._src.numpy.util import asarray_any, check_arraylike

save = np.save

savez = np.savez

ComplexWarning = np.exceptions.ComplexWarning


def load(file, *args, **kwargs):
    """``numpy.load``, with ``.npy`` contents returned as arrays (``jax.numpy.load``).

    ``bfloat16`` data (saved by NumPy as 2-byte void) is restored. ``.npz`` archives come
    back as NumPy's lazy mapping, as in JAX. Not usable under transformations.
    """
    out = np.load(file, *args, **kwargs)
    if isinstance(out, np.ndarray):
        if out.dtype == np.dtype("V2"):
            out = out.view(dtypes.bfloat16)
        try:
            return asarray(out)
        except (TypeError, ValueError):
            return out
    return out


def fromfile(*args, **kwargs):
    """Not implemented, as in JAX (``jax.numpy.fromfile``): reading a file is a side effect.

    Raises:
      NotImplementedError: always.
    """
    raise NotImplementedError(
        "jnp.fromfile() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromfile(...)) "
        "instead, although care should be taken if np.fromfile is used within a jax "
        "transformations because of its potential side-effect of consuming the file object; "
        "for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions"
    )


def mask_indices(n: int, mask_func, k: int = 0, *, size: int | None = None):
    """The indices where ``mask_func(ones((n, n)), k)`` is nonzero (``jax.numpy.mask_indices``).

    Args:
      n: the (static) side of the square.
      mask_func: e.g. ``jnp.triu`` or ``jnp.tril``.
      k: the diagonal offset passed to ``mask_func``.
      size: the static number of indices to return (padded with 0), needed under jit.

    Returns:
      ``(rows, cols)`` integer arrays.
    """
    return nonzero(mask_func(ones((n, n)), k), size=size)


def place(arr, mask, vals, *, inplace: bool = True):
    """``arr`` with the positions where ``mask`` holds set to ``vals``, cycled
    (``jax.numpy.place`` with ``inplace=False``).

    Args:
      arr: the array to update.
      mask: boolean array of ``arr``'s size.
      vals: values (flattened and repeated as needed).
      inplace: must be False (JAX arrays are immutable).

    Returns:
      An updated array of ``arr``'s shape and dtype.

    Raises:
      ValueError: for ``inplace=True``, mismatched sizes, or empty ``vals``.
    """
    check_arraylike("place", arr, mask, vals)
    data, m, v = asarray_any(arr), asarray_any(mask), ravel(asarray_any(vals))
    if inplace:
        raise ValueError(
            "jax.numpy.place cannot modify arrays in-place, because JAX arrays are immutable. "
            "Pass inplace=False to instead return an updated array."
        )
    if data.size != m.size:
        raise ValueError("place: arr and mask must be the same size")
    if not v.size:
        raise ValueError("Cannot place values from an empty array")
    if not data.size:
        return data
    idx = nonzero(ravel(m), size=m.size, fill_value=m.size)[0]
    reps = -(-idx.shape[0] // v.shape[0])
    cycled = tile(v, reps)[: idx.shape[0]]
    return reshape(ravel(data).at[idx].set(cycled, mode="drop"), data.shape)
