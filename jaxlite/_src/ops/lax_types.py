"""``jax.lax`` enums and small helpers: Precision, RoundingMethod, ConvDimensionNumbers,
GatherScatterMode, reciprocal, full, full_like."""

from __future__ import annotations

import enum
from typing import NamedTuple

from jaxlite._src.core.avals import aval_of


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
    """``jax.lax.reciprocal``: ``1 / x``."""
    from jaxlite._src.ops import elementwise as ew

    return ew.div(ew._const(x, 1), x)


def full(shape, fill_value, dtype=None):
    """``jax.lax.full``."""
    from jaxlite._src.numpy import creation

    return creation.full(shape, fill_value, dtype)


def full_like(x, fill_value, dtype=None, shape=None):
    """``jax.lax.full_like``."""
    from jaxlite._src.numpy import creation

    a = aval_of(x)
    return creation.full(
        a.shape if shape is None else shape, fill_value, a.dtype if dtype is None else dtype
    )
