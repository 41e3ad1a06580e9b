"""JAX's errors for a Python list or tuple passed as a sampler's distribution parameter.

JAX's samplers convert their parameters inside jitted helpers, so a list fails there, with
an error that depends on the helper (``Cannot determine dtype of [...]`` from a dtype
check, a tracer's NumPy conversion, ``broadcast_to``'s argument check, or Python's own
operator error); jaxlite's samplers would accept the list as an array. ``reject_sequences``
raises the ``TypeError`` (class and first line) JAX raises for that sampler.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import errors

# How JAX's sampler fails on a list parameter.
DTYPE = "dtype"  # its dtype check: "Cannot determine dtype of [...]"
TRACED = "traced"  # the list's elements traced, then converted by NumPy
BROADCAST = "broadcast"  # jnp.broadcast_to's argument check
DIVIDE = "divide"  # ``1 / p`` in Python


class TracerArrayConversionError(errors.TracerArrayConversionError):
    """JAX's ``TracerArrayConversionError`` for a list of scalars its sampler traced."""

    def __init__(self, message: str):
        TypeError.__init__(self, message)


def _element_dtype(seq) -> str:
    flat = np.asarray(seq, dtype=object).ravel()
    first = flat[0] if flat.size else 0.0
    return np.dtype(dtypes.canonicalize_dtype(np.asarray(first).dtype)).name


def reject_sequences(kind: str, **params) -> None:
    """Raise JAX's ``TypeError`` if one of ``params`` (in order) is a list or tuple."""
    for value in params.values():
        if not isinstance(value, (list, tuple)):
            continue
        if kind == DTYPE:
            raise TypeError(f"Cannot determine dtype of {value}")
        if kind == TRACED:
            raise TracerArrayConversionError(
                "The numpy.ndarray conversion method __array__() was called on traced array "
                f"with shape {_element_dtype(value)}[]\nThe sampler's parameters must be arrays "
                "or scalars, not Python lists or tuples."
            )
        if kind == BROADCAST:
            raise TypeError(
                f"broadcast_to requires ndarray or scalar arguments, got {type(value)} at "
                "position 0."
            )
        raise TypeError(f"unsupported operand type(s) for /: 'int' and '{type(value).__name__}'")
