"""Public ``jaxlite.typing`` (mirrors ``jax.typing``)."""

from jaxlite._src.typing import (
    ArrayLike as ArrayLike,
    DTypeLike as DTypeLike,
    DuckTypedArray as DuckTypedArray,
)
