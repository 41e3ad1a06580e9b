"""``ShapeDtypeStruct``: a shape and dtype standing for an array (``jax.ShapeDtypeStruct``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src import dtypes


class ShapeDtypeStruct:
    """A shape/dtype pair, e.g. to declare callback results.

    Args:
        shape: a sequence of non-negative ints (converted to a tuple; ``None`` is rejected).
        dtype: anything ``np.dtype`` accepts (``None`` is rejected).
        sharding: accepted for compatibility; ignored by callbacks.
        weak_type: whether the described value is weakly typed.
    """

    __slots__ = ("shape", "dtype", "sharding", "weak_type")

    def __init__(self, shape: Any, dtype: Any, *, sharding=None, weak_type: bool = False):
        shape = tuple(shape)
        if any(d is None for d in shape):
            raise TypeError(f"ShapeDtypeStruct shape must not contain None, got {shape}")
        if dtype is None:
            raise ValueError("ShapeDtypeStruct: dtype must be specified.")
        self.shape = shape
        # an extended dtype (a PRNG key's) stays itself: np.dtype would take its storage
        self.dtype = dtype if dtypes.is_extended(dtype) else np.dtype(dtype)
        self.sharding = sharding
        self.weak_type = bool(weak_type)

    @classmethod
    def like(cls, x: Any) -> ShapeDtypeStruct:
        """Copy shape and dtype (and weak type) from an array-like."""
        return cls(
            np.shape(x) if not hasattr(x, "shape") else x.shape,
            x.dtype,
            sharding=getattr(x, "sharding", None),
            weak_type=bool(getattr(x, "weak_type", False)),
        )

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __repr__(self):
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{weak})"

    def __eq__(self, other):
        return (
            isinstance(other, ShapeDtypeStruct)
            and self.shape == other.shape
            and self.dtype == other.dtype
            and self.weak_type == other.weak_type
        )

    def __hash__(self):
        return hash((self.shape, self.dtype, self.weak_type))
