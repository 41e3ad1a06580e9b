"""``jax.scipy.stats`` summary functions: ``mode``, ``rankdata`` and ``sem``.

As JAX, ``nan_policy`` supports ``'propagate'`` only for ``mode`` and ``rankdata`` (the other
policies raise ``NotImplementedError`` with JAX's messages); ``sem`` supports ``'omit'`` too.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array
from jaxlite._src.numpy.util import canonicalize_axis, check_arraylike, promote_args_inexact

_POLICIES = ("propagate", "omit", "raise")


def _check_nan_policy(fun: str, nan_policy: str) -> None:
    if nan_policy not in _POLICIES:
        raise ValueError(
            f"Illegal nan_policy value {nan_policy!r}; expected one of "
            "{'propagate', 'omit', 'raise'}"
        )
    if nan_policy == "omit":
        raise NotImplementedError(f"Logic for `nan_policy` of {nan_policy} is not implemented")
    if nan_policy == "raise":
        raise NotImplementedError(
            f"In order to best JIT compile `{fun}`, we cannot know whether `x` contains nans. "
            f"Please check if nans exist in `x` outside of the `{fun}` function."
        )


class ModeResult(NamedTuple):
    """The result of :func:`mode` (``jax.scipy.stats._core.ModeResult``)."""

    mode: Array
    count: Array


def mode(a, axis: int | None = 0, nan_policy: str = "propagate", keepdims: bool = False):
    """The most frequent value along an axis, mirrors ``jax.scipy.stats.mode``.

    Ties go to the smallest value; NaNs count as one value (sorted last). An empty axis
    gives ``(nan, 0.0)`` in the default float dtype, as JAX.

    Args:
        a: the data.
        axis: the axis to reduce, or ``None`` for the flattened array.
        nan_policy: only ``'propagate'`` is implemented (as JAX).
        keepdims: keep the reduced axis with size 1.

    Returns:
        A ``ModeResult(mode, count)``; ``count`` has the default integer dtype.
    """
    check_arraylike("mode", a)
    x = jnp.atleast_1d(a)
    _check_nan_policy("mode", nan_policy)
    if axis is not None:
        axis = canonicalize_axis(axis, x.ndim)
    shape = x.shape
    if keepdims:
        out_shape = tuple(1 if axis is None or i == axis else s for i, s in enumerate(shape))
    elif axis is None:
        out_shape = ()
    else:
        out_shape = tuple(s for i, s in enumerate(shape) if i != axis)
    if axis is None:
        x, axis = jnp.ravel(x), 0
    x = jnp.moveaxis(x, axis, 0)
    n = x.shape[0]
    x = jnp.reshape(x, (n, math.prod(x.shape[1:])))
    if n == 0:
        fdt = dtypes.default_float_dtype()
        return ModeResult(jnp.full(out_shape, np.nan, fdt), jnp.zeros(out_shape, fdt))
    s = jnp.sort(x, axis=0)
    same = s[:, None, :] == s[None, :, :]
    if dtypes.issubdtype(s.dtype, np.inexact):
        nan = jnp.isnan(s)
        same = same | (nan[:, None, :] & nan[None, :, :])
    counts = jnp.sum(same, axis=1, dtype=dtypes.default_int_dtype())
    best = jnp.argmax(counts, axis=0)
    vals = jnp.take_along_axis(s, best[None, :], axis=0)[0]
    cnt = jnp.max(counts, axis=0)
    return ModeResult(jnp.reshape(vals, out_shape), jnp.reshape(cnt, out_shape))


def _rank_flat(a, method):
    n = a.shape[0]
    fdt = dtypes.default_float_dtype()
    sorter = jnp.argsort(a, stable=True)
    inv = jnp.zeros(n, sorter.dtype).at[sorter].set(jnp.arange(n, dtype=sorter.dtype))
    if method == "ordinal":
        ranks = (inv + 1).astype(fdt)
    else:
        arr = a[sorter]
        first = jnp.concatenate([jnp.ones(1, bool), arr[1:] != arr[:-1]])
        dense = jnp.cumsum(first)[inv]
        if method == "dense":
            ranks = dense.astype(fdt)
        else:
            ends = jnp.nonzero(first, size=n + 1, fill_value=n)[0].astype(fdt)
            if method == "max":
                ranks = ends[dense]
            elif method == "min":
                ranks = ends[dense - 1] + 1
            else:
                ranks = 0.5 * (ends[dense] + ends[dense - 1] + 1)
    if dtypes.issubdtype(a.dtype, np.inexact):
        ranks = jnp.where(jnp.any(jnp.isnan(a)), jnp.full_like(ranks, np.nan), ranks)
    return ranks


def rankdata(a, method: str = "average", *, axis: int | None = None, nan_policy="propagate"):
    """Ranks of the data (1-based), mirrors ``jax.scipy.stats.rankdata``.

    Args:
        a: the data.
        method: ``'average'``, ``'min'``, ``'max'``, ``'dense'`` or ``'ordinal'`` (ties in
            order of appearance).
        axis: rank along this axis; ``None`` ranks the flattened array.
        nan_policy: only ``'propagate'`` is implemented (any NaN makes every rank NaN).

    Returns:
        The ranks, in the default float dtype.
    """
    check_arraylike("rankdata", a)
    _check_nan_policy("rankdata", nan_policy)
    if method not in ("average", "min", "max", "dense", "ordinal"):
        raise ValueError(f"unknown method '{method}'")
    if axis is not None:
        return jnp.apply_along_axis(lambda v: _rank_flat(v, method), axis, jnp.asarray(a))
    return _rank_flat(jnp.ravel(jnp.asarray(a)), method)


def sem(a, axis: int | None = 0, ddof: int = 1, nan_policy: str = "propagate", *, keepdims=False):
    """Standard error of the mean, mirrors ``jax.scipy.stats.sem``.

    Args:
        a: the data.
        axis: the axis to reduce, or ``None`` for all elements.
        ddof: delta degrees of freedom of the standard deviation.
        nan_policy: ``'propagate'`` or ``'omit'`` (NaNs left out of the count and the std).
        keepdims: keep the reduced axis with size 1.

    Returns:
        ``std(a, ddof) / sqrt(n)``.
    """
    (b,) = promote_args_inexact("sem", a)
    if nan_policy == "propagate":
        size = b.size if axis is None else b.shape[axis]
        return b.std(axis, ddof=ddof, keepdims=keepdims) / jnp.sqrt(size).astype(b.dtype)
    if nan_policy == "omit":
        count = jnp.sum(~jnp.isnan(b), axis, keepdims=keepdims)
        sd = jnp.nanstd(b, axis, ddof=ddof, keepdims=keepdims)
        return sd / jnp.sqrt(count).astype(b.dtype)
    raise ValueError(f"{nan_policy} is not supported")
