"""``jax.numpy`` functional helpers that call a user function over arrays:
``apply_along_axis``, ``apply_over_axes``, ``fromfunction``."""

from __future__ import annotations

from jaxlite._src import dtypes
from jaxlite._src.api import vmap
from jaxlite._src.numpy.indexing_routines import indices
from jaxlite._src.numpy.shape import expand_dims, moveaxis, reshape
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis


def fromfunction(function, shape, *, dtype=float, **kwargs):
    """``jnp.fromfunction``: ``function(*indices(shape))``."""
    grids = indices(
        shape,
        dtype=dtypes.canonicalize_dtype(dtypes.default_float_dtype() if dtype is float else dtype),
    )
    return function(*[grids[i] for i in range(len(shape))], **kwargs)


def apply_along_axis(func1d, axis: int, arr, *args, **kwargs):
    """``jnp.apply_along_axis``: ``func1d`` on every 1-D slice along ``axis`` (via vmap)."""
    arr = asarray_any(arr)
    return _apply_along(func1d, canonicalize_axis(axis, arr.ndim), arr, args, kwargs)


def _apply_along(func1d, axis, arr, args, kwargs):
    moved = moveaxis(arr, axis, -1)
    batch = moved.shape[:-1]
    flat = reshape(moved, (-1, moved.shape[-1])) if batch else reshape(moved, (1, moved.shape[-1]))
    out = vmap(lambda v: func1d(v, *args, **kwargs))(flat)
    out = reshape(out, batch + out.shape[1:])
    if out.ndim > len(batch):
        nd_extra = out.ndim - len(batch)
        src = list(range(len(batch), out.ndim))
        dst = list(range(axis, axis + nd_extra))
        out = moveaxis(out, src, dst)
    return out


def apply_over_axes(func, a, axes):
    """``jnp.apply_over_axes``: apply ``func(a, axis)`` repeatedly, keeping dims."""
    a = asarray_any(a)
    for ax in axes:
        b = func(a, ax)
        if b.ndim == a.ndim - 1:
            b = expand_dims(b, ax)
        a = b
    return a
