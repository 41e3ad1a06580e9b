"""``jax.lax`` enums and small helpers: Precision, RoundingMethod, ConvDimensionNumbers,
GatherScatterMode, reciprocal, full, full_like."""

from __future__ import annotations

import enum
from typing import NamedTuple

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import elementwise as ew, shape as _sh, structural


class Precision(enum.Enum):
    """``jax.lax.Precision``: accepted for compatibility (NumPy always computes at full
    precision)."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    def __str__(self):
        return self.name


class RoundingMethod(enum.IntEnum):
    """``jax.lax.RoundingMethod`` for ``lax.round``."""

    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


class GatherScatterMode(enum.Enum):
    """``jax.lax.GatherScatterMode``."""

    CLIP = 0
    FILL_OR_DROP = 1
    PROMISE_IN_BOUNDS = 2
    ONE_HOT = 3


class ConvDimensionNumbers(NamedTuple):
    """``jax.lax.ConvDimensionNumbers``: index tuples (batch/feature/spatial...)."""

    lhs_spec: tuple
    rhs_spec: tuple
    out_spec: tuple


def reciprocal(x):
    """``jax.lax.reciprocal``: ``1 / x``.

    Raises:
        TypeError: for integer ``x`` (JAX's ``integer_pow(x, -1)`` error).
    """
    if dtypes.is_int(aval_of(x).dtype):
        return ew.integer_pow(x, -1)  # raises, as JAX's integer_pow does
    return ew.div(ew._const(x, 1), x)


def full(shape, fill_value, dtype=None):
    """``jax.lax.full``: an array of ``shape`` filled with the scalar ``fill_value``.

    With ``dtype=None`` the result has ``fill_value``'s dtype (weakly typed for a Python
    scalar). Raises ``TypeError`` for a non-scalar ``fill_value``, as JAX does.
    """
    fv_shape = aval_of(fill_value).shape
    if fv_shape != ():
        raise TypeError(
            f"full must be called with scalar fill_value, got fill_value.shape {fv_shape}."
        )
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)
    if dtype is None:
        dt, weak = dtypes.result_type(fill_value, return_weak_type_flag=True)
    else:
        dt, weak = dtypes.check_user_dtype_supported(dtype, "full"), False
    return _sh.full(shape, fill_value, dt, weak)


def full_like(x, fill_value, dtype=None, shape=None):
    """``jax.lax.full_like``: ``full`` with ``x``'s shape and dtype unless given; without a
    ``dtype`` the result keeps ``x``'s weak type, as in JAX."""
    a = aval_of(x)
    if dtype is None:
        out = _sh.full(a.shape if shape is None else shape, fill_value, a.dtype, a.weak_type)
    else:
        out = full(a.shape if shape is None else shape, fill_value, dtype)
    return structural.with_vma(out, a.vma)
