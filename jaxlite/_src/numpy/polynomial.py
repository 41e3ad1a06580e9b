"""``jax.numpy`` polynomial evaluation."""

from __future__ import annotations

import operator

import numpy as np
from jaxlite._src.control_flow.common import check_unroll
from jaxlite._src.numpy.shape import broadcast_shapes
from jaxlite._src.numpy.ufuncs import add, multiply
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes
from jaxlite._src.ops import shape as _sh


def polyval(p, x, *, unroll: int = 16):
    """Evaluate the polynomial with coefficients ``p`` (highest degree first) at ``x``.

    Mirrors ``jax.numpy.polyval`` (Horner's scheme over the static length of ``p``).

    Args:
      p: array of coefficients along its first axis (further axes broadcast with ``x``).
      x: array of points; the result has the broadcast shape and the promoted dtype
        (strongly typed).
      unroll: checked as JAX's ``scan`` reads it (the loop is always unrolled here).

    Raises:
      TypeError: for non-array arguments (lists), as in JAX; an ``unroll`` that is not a
        bool or an integer (None, a string, a float).
      ValueError: a negative ``unroll``.
    """
    # (a concrete integer array stands for its integer, as for jaxlite's other statics)
    check_unroll(operator.index(unroll) if isinstance(unroll, np.ndarray) else unroll, 1)
    check_arraylike("polyval", p, x)
    p, x = promote_dtypes(p, x)
    # A strongly typed zero of x's dtype, as JAX's full_like(x, 0, dtype=x.dtype).
    y = _sh.full(broadcast_shapes(p.shape[1:], x.shape), 0, x.dtype)
    for i in range(p.shape[0]):
        y = add(multiply(y, x), p[i])
    return y
