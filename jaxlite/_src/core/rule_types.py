"""Values that rules receive but that interpreters define the meaning of.

They live here so that ``ops`` (below the interpreters) can name them in their rules.
"""

from __future__ import annotations

from jaxlite._src.core.avals import ShapedArray, aval_of


class Zero:
    """A symbolic zero tangent/cotangent of the given aval (nothing is materialised)."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"Zero({self.aval.str_short(short_dtypes=True)})"

    @staticmethod
    def from_primal_value(x) -> Zero:
        return Zero(aval_of(x).to_tangent_aval())


class UndefinedPrimal:
    """Marks a linear input of an equation during transposition."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"UndefinedPrimal({self.aval.str_short(short_dtypes=True)})"


def is_undefined_primal(x) -> bool:
    return type(x) is UndefinedPrimal


# The batch dimension of a value that is not batched.
not_mapped = None


class AxisData:
    """What a batching rule knows about the vmapped axis."""

    __slots__ = ("name", "size", "spmd_name")

    def __init__(self, name, size: int, spmd_name=None):
        self.name = name
        self.size = size
        self.spmd_name = spmd_name

    def __repr__(self):
        return f"AxisData(name={self.name!r}, size={self.size})"
