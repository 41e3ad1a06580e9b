"""Bit-counting elementwise primitives beyond ``elementwise.py``: ``clz`` (count leading
zeros, ``jax.lax.clz``). Like ``population_count``, integers only and not differentiable
(a zero tangent; ``grad`` refuses integer inputs before reaching it)."""

from __future__ import annotations

import numpy as np

from jaxlite._src.ops._factories import INT, non_differentiable, unop

_SHIFTS = tuple(np.uint64(s) for s in (32, 16, 8, 4, 2, 1))


def _clz(x):
    """Leading zeros of each element in its own width: width - bit_length, the bit length
    found by halving (exact for every width up to 64 bits)."""
    x = np.asarray(x)
    width = x.dtype.itemsize * 8
    u = x.view(np.dtype(f"u{x.dtype.itemsize}")).astype(np.uint64)
    bit_length = np.zeros(x.shape, np.int64)
    for s in _SHIFTS:
        high = (u >> s) != 0
        bit_length += high * int(s)
        u = np.where(high, u >> s, u)
    bit_length += u != 0
    return (width - bit_length).astype(x.dtype)


clz_p = unop("clz", _clz, INT)
non_differentiable(clz_p, refuse=True)


def clz(x):
    """``jax.lax.clz``: count the leading zero bits of each element.

    Args:
        x: an array of integer dtype (signed or unsigned, any width).

    Returns:
        An array of ``x``'s shape and dtype: the number of leading zeros of each element in
        its dtype's width (the width itself for 0; 0 for a negative signed value).

    Raises:
        TypeError: for a non-integer dtype (bool included), as JAX does.
    """
    return clz_p.bind(x)


__all__ = ["clz", "clz_p"]
