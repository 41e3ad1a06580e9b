"""The public ``jax.lax`` binary operators, with JAX's strict dtype rule.

At the ``lax`` level JAX does not promote: both operands must have the same dtype, a Python
scalar counting as its default dtype (``lax.add(1, 1.0)`` is int32 + float32, a
``TypeError``; ``lax.add(x_f32, 2.0)`` is fine). ``jax.numpy`` is where promotion happens.
The engine's own callers use the lenient ``ops.elementwise`` functions (weak operands
adapt), so internal compositions are unaffected.
"""

from __future__ import annotations

from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import elementwise as ew

# lax name -> (lenient implementation, the jax.numpy function named in JAX's tip or None)
_BINARY = {
    "add": (ew.add, "add"),
    "sub": (ew.sub, "subtract"),
    "mul": (ew.mul, "multiply"),
    "div": (ew.div, "divide"),
    "rem": (ew.rem, None),
    "max": (ew.max, "maximum"),
    "min": (ew.min, "minimum"),
    "atan2": (ew.atan2, "arctan2"),
    "nextafter": (ew.nextafter, "nextafter"),
    "eq": (ew.eq, "equal"),
    "ne": (ew.ne, "not_equal"),
    "lt": (ew.lt, None),
    "le": (ew.le, None),
    "gt": (ew.gt, None),
    "ge": (ew.ge, None),
}


def check_same_dtypes(name: str, tip: str | None, *args) -> None:
    """Raise JAX's ``TypeError`` unless every operand has the same dtype."""
    dts = [aval_of(a).dtype for a in args]
    if any(d != dts[0] for d in dts[1:]):
        msg = (
            f"lax.{name} requires arguments to have the same dtypes, got "
            f"{', '.join(d.name for d in dts)}."
        )
        if tip:
            msg += (
                f" (Tip: jnp.{tip} is a similar function that does automatic type promotion "
                "on inputs)."
            )
        raise TypeError(msg)


def _strict(name: str, impl, tip: str | None):
    def op(x, y):
        check_same_dtypes(name, tip, x, y)
        return impl(x, y)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"``jax.lax.{name}``: elementwise, operands of one dtype (Python scalars count as "
        "their default dtype).\n\nRaises:\n    TypeError: for operands of different dtypes."
    )
    return op


add, sub, mul, div, rem, max, min, atan2, nextafter, eq, ne, lt, le, gt, ge = (
    _strict(n, impl, tip) for n, (impl, tip) in _BINARY.items()
)
