"""``jax.scipy.integrate``: ``trapezoid``, which is ``jnp.trapezoid`` compiled with a static
``axis`` (as JAX's, so its results carry jit's dtypes and weak types)."""

from __future__ import annotations

import jaxlite.numpy as jnp
from jaxlite._src.compile.jit import jit


def _trapezoid(y, x, dx, axis):
    return jnp.trapezoid(y, x, dx, axis)


_trapezoid_jit = jit(_trapezoid, static_argnames=("axis",))


def trapezoid(y, x=None, dx=1.0, axis: int = -1):
    """Integrate ``y`` along ``axis`` with the trapezoidal rule
    (``jax.scipy.integrate.trapezoid``, after ``scipy.integrate.trapezoid``).

    Args:
        y: the samples.
        x: the sample points: 1-D of length ``y.shape[axis]``, or ``y``'s shape; ``None``
            for evenly spaced samples ``dx`` apart.
        dx: the spacing when ``x`` is ``None``.
        axis: the axis to integrate along (static).

    Returns:
        The integral, ``y``'s shape without ``axis``, in the inexact dtype of the inputs.

    Raises:
        ValueError: ``axis`` out of range.
    """
    return _trapezoid_jit(y, x, dx, axis=axis)
