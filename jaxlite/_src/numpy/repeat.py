"""``jnp.repeat``: static repeats, and traced repeats with a static ``total_repeat_length``.

With ``total_repeat_length`` T, output position ``j`` holds element ``i`` of ``a`` where
``i`` is the number of elements after the first whose block starts at or before ``j``
(block ``k`` starts at ``repeats[0] + ... + repeats[k-1]``). Past the sum of the repeats
that is the last element of ``a``; a sum above T is cut at T. Concrete and traced repeats
follow this one rule, as in JAX.
"""

from __future__ import annotations

import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy.creation import zeros
from jaxlite._src.numpy.indexing_routines import take
from jaxlite._src.numpy.reductions import cumsum
from jaxlite._src.numpy.shape import _take_static, broadcast_to, ravel, reshape
from jaxlite._src.numpy.util import asarray_any, canonicalize_axis
from jaxlite._src.ops import shape as _sh
from jaxlite._src.sharding import explicit as _explicit

_TRACED_MESSAGE = (
    "When jit-compiling jnp.repeat, the total number of repeats must be static. To fix "
    "this, either specify a static value for `repeats`, or pass a static value to "
    "`total_repeat_length`."
)


def _check_integer(dtype):
    if np.dtype(dtype).kind not in "iub":  # as JAX: never truncated
        raise TypeError("broadcast_in_dim shape must have every element be an integer type")


def _repeat_traced(a, repeats, axis, total):
    """Traced ``repeats``: block starts (an exclusive cumulative sum) marked on a length-T
    line, whose running count is the source index of each output position."""
    _check_integer(repeats.dtype)
    n = a.shape[axis]
    repeats = broadcast_to(repeats, (n,))
    starts = cumsum(repeats) - repeats
    marks = zeros((total,), dtypes.canonicalize_dtype(np.int32))
    marks = marks.at[starts[1:]].add(1, mode="drop")
    return take(a, cumsum(marks), axis=axis)


def repeat(
    a,
    repeats,
    axis: int | None = None,
    *,
    total_repeat_length: int | None = None,
    out_sharding=None,
):
    """``jnp.repeat``: repeat each element of ``a`` along ``axis``.

    Args:
        a: the array.
        repeats: an integer, or one integer per element along ``axis``; traced (inside
            ``jit``, ``vmap``, ...) only together with ``total_repeat_length``.
        axis: the axis to repeat along (None: of the flattened array).
        total_repeat_length: the static length of the result along ``axis``: a longer
            result is cut, a shorter one padded with the last element of ``a``.
        out_sharding: the result's sharding.

    Raises:
        ConcretizationTypeError: traced ``repeats`` without ``total_repeat_length``.
    """
    if out_sharding is not None:
        return _explicit.apply_out_sharding(
            repeat, out_sharding, a, repeats, axis, total_repeat_length=total_repeat_length
        )
    a = asarray_any(a)
    if a.ndim == 0 and axis is not None:
        # As JAX: a scalar is repeated into a vector whatever integer axis is named (it is
        # not checked against the rank), and only by one repeat count
        operator.index(axis)
        if not isinstance(repeats, Tracer) and np.size(repeats) != 1:
            raise ValueError(
                "`repeat` with a scalar parameter `a` is only implemented for scalar values "
                "of the parameter `repeats`."
            )
        axis = None
    if axis is None:
        a = ravel(a)
        axis = 0
    axis = canonicalize_axis(axis, a.ndim)
    if total_repeat_length is not None:
        try:  # as JAX: a float or string length is refused, never truncated
            total_repeat_length = operator.index(total_repeat_length)
        except TypeError:
            msg = "Shapes must be 1D sequences of concrete values of integer type, got"
            raise TypeError(f"{msg} {[total_repeat_length]}.") from None
        if total_repeat_length < 0:
            msg = "broadcast_in_dim shape must have every element be nonnegative, got"
            raise TypeError(f"{msg} {(total_repeat_length,)}.")
    if isinstance(repeats, Tracer) and repeats.to_concrete_value() is None:
        if total_repeat_length is None:
            raise ConcretizationTypeError(repeats, _TRACED_MESSAGE)
        return _repeat_traced(a, repeats, axis, total_repeat_length)
    rep = np.asarray(repeats)
    _check_integer(rep.dtype)
    if rep.dtype.kind == "u":  # np.repeat takes int64 counts only (uint64 will not cast)
        rep = rep.astype(np.int64)
    if total_repeat_length is not None:
        n = a.shape[axis]
        idx = np.repeat(np.arange(n), np.broadcast_to(rep, (n,)))[: int(total_repeat_length)]
        pad = np.full(int(total_repeat_length) - idx.size, n - 1)
        return _take_static(a, np.concatenate([idx, pad]).astype(np.int32), axis)
    if rep.ndim == 0:
        r = int(rep)
        shape = list(a.shape)
        b = _sh.broadcast_in_dim(
            a,
            tuple(shape[: axis + 1] + [r] + shape[axis + 1 :]),
            tuple(i if i <= axis else i + 1 for i in range(a.ndim)),
        )
        shape[axis] *= r
        return reshape(b, shape)
    idx = np.repeat(np.arange(a.shape[axis]), rep).astype(np.int32)
    return _take_static(a, idx, axis)
