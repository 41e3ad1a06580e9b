"""``jax.typing``: annotations for array-like values and dtype-like values."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from jaxlite._src.core.array import Array


class SupportsDType(Protocol):
    @property
    def dtype(self) -> np.dtype: ...


# Anything a jaxlite function accepts as an array operand.
ArrayLike = Array | np.ndarray | np.bool_ | np.number | bool | int | float | complex

# Anything jaxlite accepts as a dtype.
DTypeLike = str | type[Any] | np.dtype | SupportsDType


class DuckTypedArray(Protocol):
    @property
    def shape(self) -> tuple[int, ...]: ...

    @property
    def dtype(self) -> np.dtype: ...
