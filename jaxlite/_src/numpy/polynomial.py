"""``jax.numpy`` polynomial evaluation."""

from __future__ import annotations

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
      unroll: accepted for JAX compatibility (the loop is always unrolled).

    Raises:
      TypeError: for non-array arguments (lists), as in JAX.
    """
    del unroll
    check_arraylike("polyval", p, x)
    p, x = promote_dtypes(p, x)
    # A strongly typed zero of x's dtype, as JAX's full_like(x, 0, dtype=x.dtype).
    y = _sh.full(broadcast_shapes(p.shape[1:], x.shape), 0, x.dtype)
    for i in range(p.shape[0]):
        y = add(multiply(y, x), p[i])
    return y
