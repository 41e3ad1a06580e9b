"""``jax.lax`` enums, types and small helpers: Precision, RoundingMethod, AccuracyMode,
RandomAlgorithm, Tolerance, ConvDimensionNumbers, GatherScatterMode, the typing aliases,
tokens (create_token, after_all), shape_as_value, stage, reciprocal, full, full_like."""

from __future__ import annotations

import enum
import operator
from collections.abc import Sequence

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import sharding_hooks
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of, canonicalize_shape
from jaxlite._src.core.trace import staged_constant
from jaxlite._src.ops import elementwise as ew, shape as _sh, structural
from jaxlite._src.ops.conv_kernels import ConvDimensionNumbers  # noqa: F401 (lax's)
from jaxlite._src.ops.precision import Precision  # noqa: F401 (re-exported as lax.Precision)


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


def reciprocal(x):
    """``jax.lax.reciprocal``: ``1 / x``.

    Raises:
        TypeError: for integer ``x`` (JAX's ``integer_pow(x, -1)`` error).
    """
    if dtypes.is_int(aval_of(x).dtype):
        return ew.integer_pow(x, -1)  # raises, as JAX's integer_pow does
    return ew.div(ew._const(x, 1), x)


def full(shape, fill_value, dtype=None, *, sharding=None):
    """``jax.lax.full``: an array of ``shape`` filled with the scalar ``fill_value``.

    With ``dtype=None`` the result has ``fill_value``'s dtype (weakly typed for a Python
    scalar); ``sharding``: where the result is placed. Raises ``TypeError`` for a
    non-scalar ``fill_value``, as JAX does.
    """
    if sharding is not None:
        return sharding_hooks.place_created(full(shape, fill_value, dtype), sharding)
    _check_scalar_fill(fill_value)
    if isinstance(shape, np.ndarray) and shape.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    if isinstance(shape, np.generic):  # only a Python int stands for a 1-d shape in JAX
        raise TypeError(f"'{type(shape).__module__}.{type(shape).__name__}' object is not iterable")
    shape = canonicalize_shape(shape)  # floats are JAX's TypeError, never truncated
    if dtype is None:
        dt, weak = dtypes.result_type(fill_value, return_weak_type_flag=True)
    else:
        dt, weak = dtypes.check_user_dtype_supported(dtype, "full"), False
    return staged_constant(_sh.full(shape, fill_value, dt, weak))  # a tracer while staging


def _check_scalar_fill(fill_value):
    fv_shape = aval_of(fill_value).shape
    if fv_shape != ():
        raise TypeError(
            f"full must be called with scalar fill_value, got fill_value.shape {fv_shape}."
        )


def full_like(x, fill_value, dtype=None, shape=None, sharding=None):
    """``jax.lax.full_like``: ``full`` with ``x``'s shape and dtype unless given; without a
    ``dtype`` the result keeps ``x``'s weak type, as in JAX; ``sharding``: where the result
    is placed."""
    if sharding is not None:
        out = full_like(x, fill_value, dtype, shape)
        return sharding_hooks.place_created(out, sharding)
    a = aval_of(x)
    if dtype is None:
        _check_scalar_fill(fill_value)
        shape = a.shape if shape is None else canonicalize_shape(shape)
        out = _sh.full(shape, fill_value, a.dtype, a.weak_type)
    else:
        out = full(a.shape if shape is None else shape, fill_value, dtype)
    return structural.with_vma(staged_constant(out), a.vma)


class AccuracyMode(enum.Enum):
    """``jax.lax.AccuracyMode`` (the ``accuracy=`` of transcendental ops; NumPy's kernels
    are used whichever is asked for)."""

    HIGHEST = 1
    DEFAULT = 2


class RandomAlgorithm(enum.IntEnum):
    """``jax.lax.RandomAlgorithm`` (XLA's bit-generator algorithms)."""

    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2

    def __str__(self):
        return self.name


class Tolerance:
    """``jax.lax.Tolerance``: an ``atol`` / ``rtol`` / ``ulps`` accuracy request.

    Raises:
        ValueError: when one is negative or all three are zero (as JAX).
    """

    def __init__(self, atol: float = 0.0, rtol: float = 0.0, ulps: int = 0):
        if atol < 0.0 or rtol < 0.0 or ulps < 0.0:
            raise ValueError("Tolerances must be non-negative.")
        if atol == 0 and rtol == 0 and ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")
        self.atol, self.rtol, self.ulps = atol, rtol, ulps

    def __repr__(self):
        return f"Tolerance(atol={self.atol}, rtol={self.rtol}, ulps={self.ulps})"

    def __eq__(self, other):
        return isinstance(other, Tolerance) and (self.atol, self.rtol, self.ulps) == (
            other.atol,
            other.rtol,
            other.ulps,
        )

    def __hash__(self):
        return hash((self.atol, self.rtol, self.ulps))


# JAX's typing aliases of dimension-number and precision arguments.
ConvGeneralDilatedDimensionNumbers = tuple[str, str, str] | ConvDimensionNumbers | None
DotDimensionNumbers = tuple[
    tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]
]
PrecisionLike = None | str | Precision | tuple[str, str] | tuple[Precision, Precision]


class Token:
    """An ordering token (``jax.lax.create_token``): carries no data; jaxlite orders
    effects itself, so tokens only thread through user code."""

    __slots__ = ()

    def __repr__(self):
        return "Token()"


def create_token(_=None) -> Token:
    """``jax.lax.create_token``: a fresh ordering token (its argument is ignored)."""
    return Token()


def after_all(*operands) -> Token:
    """``jax.lax.after_all``: a token ordered after the given tokens."""
    return Token()


def shape_as_value(shape):
    """``jax.lax.shape_as_value``: a shape as an int32 vector (int64 where a dimension
    does not fit int32; a NumPy array for a non-empty static shape, as JAX returns)."""
    shape = tuple(shape)
    if not shape:
        return to_array(np.zeros((0,), np.int32))
    dims = [operator.index(d) for d in shape]  # a float dimension is JAX's TypeError
    # int64 once a dimension exceeds int32 (a NumPy array, so also without x64), as JAX
    wide = any(d > np.iinfo(np.int32).max for d in dims)
    return np.array(dims, np.int64 if wide else np.int32)


def stage(x, /):
    """``jax.lax.stage``: the identity that lifts a Python scalar or NumPy array to a
    (weakly typed, for Python scalars) jaxlite array."""
    return to_array(x)
