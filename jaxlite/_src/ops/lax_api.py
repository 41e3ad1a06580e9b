"""The public ``jax.lax`` elementwise operators, with JAX's strict dtype rule.

At the ``lax`` level JAX does not promote: both operands must have the same dtype, a Python
scalar counting as its default dtype (``lax.add(1, 1.0)`` is int32 + float32, a
``TypeError``; ``lax.add(x_f32, 2.0)`` is fine). ``jax.numpy`` is where promotion happens.
The engine's own callers use the lenient ``ops.elementwise`` functions (weak operands
adapt), so internal compositions are unaffected.
"""

from __future__ import annotations

import inspect

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import conversion, elementwise as ew

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
}
_ORDERED_CMP = {"lt": (ew.lt, None), "le": (ew.le, None), "gt": (ew.gt, None), "ge": (ew.ge, None)}


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


# JAX's dtype categories, by the names its error messages use.
_CATEGORY = {
    "integer": dtypes.is_int,
    "signedinteger": dtypes.is_signed,
    "floating": dtypes.is_float,
    "complexfloating": dtypes.is_complex,
    "bool": lambda d: d == dtypes.bool_,
    "number": lambda d: d != dtypes.bool_,
    "float32": lambda d: d == np.float32,
    "float64": lambda d: d == np.float64,
}
NUMBER = ("integer", "floating", "complexfloating")
ORDERED = ("integer", "floating", "bool")  # lt/le/gt/ge: no complex operands
FLOAT = ("floating",)


def check_accepted(name: str, accepted, *args) -> None:
    """Raise JAX's ``TypeError`` for an operand outside its position's dtype categories
    (``accepted[i]``: names from ``_CATEGORY``). A Python scalar counts as its default dtype
    (``lax.igamma(1, x)``: int32, refused), as in JAX, where ``lax`` never promotes."""
    for i, (a, cats) in enumerate(zip(args, accepted)):
        dt = aval_of(a).dtype
        if not any(_CATEGORY[c](dt) for c in cats):
            where = f" at position {i}" if len(args) > 1 else ""
            raise TypeError(
                f"{name} does not accept dtype {np.dtype(dt).name}{where}. Accepted dtypes"
                f"{where} are subtypes of {', '.join(cats)}."
            )


# JAX's parameter names where they are not (x, y); random_gamma_grad takes *args in JAX.
_PARAM_NAMES = {
    "nextafter": ("x1", "x2"),
    "igamma": ("a", "x"),
    "igammac": ("a", "x"),
    "igamma_grad_a": ("a", "x"),
    "betainc": ("a", "b", "x"),
    "polygamma": ("m", "x"),
    "zeta": ("x", "q"),
    "clamp": ("min", "x", "max"),
}
_POS_OR_KW = inspect.Parameter.POSITIONAL_OR_KEYWORD


def _strict(name: str, impl, tip: str | None, accepted=None, jax_name=None):
    jax_name = jax_name or name
    names = _PARAM_NAMES.get(name, ("x", "y"))
    sig = inspect.Signature([inspect.Parameter(n, _POS_OR_KW) for n in names])

    def op(*args, **kwargs):
        if kwargs or len(args) != len(names):  # keyword calls as JAX's (x, y) signature
            args = sig.bind(*args, **kwargs).args
        if accepted is not None:
            check_accepted(jax_name, accepted, *args)
        check_same_dtypes(jax_name, tip, *args)
        return impl(*args)

    op.__name__ = op.__qualname__ = name
    op.__signature__ = sig
    op.__doc__ = (
        f"``jax.lax.{name}``: elementwise, operands of one dtype (Python scalars count as "
        "their default dtype).\n\nRaises:\n    TypeError: for operands of different dtypes."
    )
    return op


add, sub, mul, div, rem, max, min, atan2, nextafter, eq, ne = (
    _strict(n, impl, tip) for n, (impl, tip) in _BINARY.items()
)


def _key_aware(f, op: str):
    # Typed PRNG keys compare through their dtype (equal where all key words are), as in JAX.
    def compare(x, y):
        if dtypes.is_extended(getattr(x, "dtype", None)):
            return x.dtype.compare(op, x, y)
        if dtypes.is_extended(getattr(y, "dtype", None)):
            return y.dtype.compare(op, x, y)
        return f(x, y)

    compare.__name__ = compare.__qualname__ = f.__name__
    compare.__signature__, compare.__doc__ = f.__signature__, f.__doc__
    return compare


eq, ne = _key_aware(eq, "eq"), _key_aware(ne, "ne")
_mul_same_dtype = mul


def mul(x, y, *, out_dtype=None):
    """``jax.lax.mul``: ``x * y`` elementwise, operands of one dtype (Python scalars count as
    their default dtype). With ``out_dtype``, as in JAX, each operand is first converted to
    ``out_dtype`` (any numeric operand dtypes, mixed allowed; floats truncate when it is an
    integer type) and the product is computed in it; the result is weakly typed only when
    both operands are.

    Raises:
        TypeError: operands of different dtypes without ``out_dtype``, or a bool operand.
    """
    check_accepted("mul", (NUMBER, NUMBER), x, y)
    if out_dtype is None:
        return _mul_same_dtype(x, y)
    if not dtypes.is_extended(out_dtype):
        dtypes.check_valid_dtype(np.dtype(out_dtype), "mul", out_dtype)
    weak = aval_of(x).weak_type and aval_of(y).weak_type
    x = conversion.convert_element_type(x, out_dtype, weak_type=weak)
    y = conversion.convert_element_type(y, out_dtype, weak_type=weak)
    # A product of bools is their conjunction (XLA's multiply of predicates).
    return ew.and_(x, y) if aval_of(x).dtype == dtypes.bool_ else ew.mul(x, y)


lt, le, gt, ge = (
    _strict(n, impl, tip, (ORDERED, ORDERED)) for n, (impl, tip) in _ORDERED_CMP.items()
)
_INTBOOL = ("integer", "bool")
bitwise_and = _strict("bitwise_and", ew.and_, None, (_INTBOOL, _INTBOOL), "and")
bitwise_or = _strict("bitwise_or", ew.or_, None, (_INTBOOL, _INTBOOL), "or")
bitwise_xor = _strict("bitwise_xor", ew.xor, None, (_INTBOOL, _INTBOOL), "xor")
_INT2 = (("integer",), ("integer",))
shift_left = _strict("shift_left", ew.shift_left, "left_shift", _INT2)
shift_right_logical = _strict("shift_right_logical", ew.shift_right_logical, "right_shift", _INT2)
shift_right_arithmetic = _strict(
    "shift_right_arithmetic", ew.shift_right_arithmetic, "right_shift", _INT2
)
_REAL_PARTS = ("float32", "float64")
complex = _strict("complex", ew.complex_, None, (_REAL_PARTS, _REAL_PARTS))  # noqa: A001


def pow(x, y):  # noqa: A001
    """``jax.lax.pow``: ``x ** y`` elementwise, ``x`` float or complex and ``y`` of ``x``'s
    dtype or an integer dtype (JAX's rule; no promotion).

    Raises:
        TypeError: for other operand dtypes, Python scalars counting as their default
            dtype (``lax.pow(2, x)`` is an int32 base).
    """
    check_accepted("pow", (("floating", "complexfloating"), NUMBER), x, y)
    dx, dy = aval_of(x).dtype, aval_of(y).dtype
    if dtypes.is_inexact(dy) and dx != dy:
        raise TypeError(
            "the first argument to pow must have an inexact dtype (float or complex), and "
            "the second argument must have an inexact or integer dtype, and two inexact "
            f"dtypes must match, but got {np.dtype(dx).name} and {np.dtype(dy).name} "
            "respectively."
        )
    if dtypes.is_int(dy):
        # An integer exponent: XLA's pow(float, int) is the power by the exponent's value
        # in x's dtype (no derivative flows to an integer operand).
        y = conversion.convert_element_type(y, dx, aval_of(y).weak_type)
    return ew.pow(x, y)


def abs(x):  # noqa: A001
    """``jax.lax.abs``: elementwise absolute value (float, complex or signed integer ``x``;
    the magnitude of a complex value is real).

    Raises:
        TypeError: for bool or unsigned ``x``, as JAX.
    """
    check_accepted("abs", (("floating", "complexfloating", "signedinteger"),), x)
    return ew.abs(x)
