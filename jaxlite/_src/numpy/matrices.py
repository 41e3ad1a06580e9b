"""``jax.numpy`` matrix builders: ``tri``, ``tril``, ``triu``, ``diag``, ``diagflat``,
``vander``."""

from __future__ import annotations

import builtins
import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.numpy.creation import arange, zeros, zeros_like
from jaxlite._src.numpy.indexing_routines import diagonal
from jaxlite._src.numpy.shape import flip, ravel
from jaxlite._src.numpy.ufuncs import power
from jaxlite._src.numpy.util import asarray_any
from jaxlite._src.ops import conversion, elementwise as ew, lax_api, shape as _sh


def _offset(k) -> int:
    """A diagonal offset as JAX takes it: an integer (``operator.index``: a float or a
    string is a TypeError, never truncated), not a bool."""
    if isinstance(k, bool):  # (a NumPy bool has no __index__: operator.index refuses it)
        raise TypeError(f"offset must be an integer, got {asarray_any(k)!r}")
    return operator.index(k)


def tri(N: int, M: int | None = None, k: int = 0, dtype=None):
    """``jnp.tri``: ones at and below the ``k``-th diagonal."""
    N, k = operator.index(N), _offset(k)
    M = N if M is None else operator.index(M)
    rows = conversion.broadcasted_iota(dtypes.int32, (N, M), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (N, M), 1)
    mask = ew.ge(ew.add(rows, _sh.full((), k, dtypes.int32)), cols)
    # JAX's default is float32 even under x64 (not the default float type)
    dtype = dtypes.float32 if dtype is None else dtypes.canonicalize_dtype(dtype)
    return conversion.convert_element_type(mask, dtype)


def _tri_mask(shape, k):
    n, m = shape[-2:]
    rows = conversion.broadcasted_iota(dtypes.int32, (n, m), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (n, m), 1)
    return ew.ge(ew.add(rows, _sh.full((), _offset(k), dtypes.int32)), cols)


def tril(m, k: int = 0):
    """``jnp.tril``: zero the elements above the ``k``-th diagonal."""
    m = asarray_any(m)
    if m.ndim < 2:
        raise ValueError("Argument to jax.numpy.tril must be at least 2D")
    mask = _sh.broadcast_to_rank(_tri_mask(m.shape, k), m.shape)
    return ew.select_n(mask, zeros_like(m), m)


def triu(m, k: int = 0):
    """``jnp.triu``: zero the elements below the ``k``-th diagonal."""
    m = asarray_any(m)
    if m.ndim < 2:
        raise ValueError("Argument to jax.numpy.triu must be at least 2D")
    # as JAX: k - 1 first (a str k is its TypeError, a bool counts as 0/1)
    mask = _sh.broadcast_to_rank(_tri_mask(m.shape, _offset(k - 1)), m.shape)
    return ew.select_n(mask, m, zeros_like(m))


def diag(v, k: int = 0):
    """``jnp.diag``: the ``k``-th diagonal of a matrix, or a matrix with ``v`` on it."""
    v = asarray_any(v)
    k = operator.index(k)  # as JAX: a float (or float array) k is a TypeError
    if v.ndim == 1:
        n = v.shape[0] + builtins.abs(k)
        rows = np.arange(v.shape[0]) + builtins.max(0, -k)
        cols = rows + k
        out = zeros_like(v, shape=(n, n))  # v's dtype and weak type, as JAX's
        return out.at[rows.astype(np.int32), cols.astype(np.int32)].set(v)
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("diag input must be 1d or 2d")


def diagflat(v, k: int = 0):
    """``jnp.diagflat``: ``diag(ravel(v), k)``, strongly typed (JAX scatters into typed
    zeros); a boolean ``k`` counts as 0/1, as JAX's arithmetic on it does."""
    if np.ndim(k) == 0 and np.result_type(k) == np.bool_:
        k = int(bool(k))
    out = diag(ravel(asarray_any(v)), k)
    return conversion.convert_element_type(out, out.dtype, False)


def vander(x, N=None, increasing: bool = False):
    """``jnp.vander``: the Vandermonde matrix of a 1-D array."""
    x = asarray_any(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array")
    N = x.shape[0] if N is None else operator.index(N)
    if N < 0:
        raise ValueError("N must be nonnegative")
    lax_api.check_accepted("iota", (lax_api.NUMBER,), x)
    # JAX's powers: an iota of x's dtype, so an int8 or uint8 x keeps its type (not the
    # default int's) and the powers wrap in it
    powers = conversion.broadcasted_iota(x.dtype, (N,), 0)
    if not increasing:
        powers = flip(powers, 0)
    return power(x[:, None], powers[None, :])
