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


def check_not_linear(primitive: str, role: str, *xs) -> None:
    """Transpose rules: refuse an operand the primitive is not linear in (cond's index,
    select_n's predicate, the indices of a dynamic slice, gather or scatter) when it is a
    linear input. It is one when a JVP rule decides with its input tangents (``lax.cond(t >
    0, ...)``, ``jnp.where(t > 0, ...)`` in a ``custom_jvp`` rule): the tangent output is
    then not linear in them and reverse mode cannot transpose it. JAX fails an assertion
    there (an ``AssertionError`` without a message); this is one that says why."""
    if any(type(x) is UndefinedPrimal for x in xs):
        raise AssertionError(
            f"Reverse-mode differentiation cannot transpose {primitive}: the values being "
            f"differentiated (tangents) reach its {role}, so the computation is not linear "
            "in them. A custom_jvp rule whose tangent output branches on, selects by or "
            "indexes with its input tangents has this form: decide from the primal values "
            "instead."
        )


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
