"""The public ``jax.lax`` special functions, ``clamp`` and cumulative reductions, with
JAX's strict dtype rule (``lax_api.check_accepted``): they sit above their families in the
ops order, which ``lax_api`` (used by the windowed reductions) cannot."""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.ops import (
    clamp as _clamp,
    conversion,
    cumulative,
    elementwise as ew,
    special,
    special_more,
)
from jaxlite._src.ops.lax_api import FLOAT, _strict, check_accepted
from jaxlite._src.ops.lax_types import AccuracyMode, Tolerance

igamma = _strict("igamma", special.igamma, None, (FLOAT, FLOAT))
igammac = _strict("igammac", special.igammac, None, (FLOAT, FLOAT))
igamma_grad_a = _strict("igamma_grad_a", special.igamma_grad_a, None, (FLOAT, FLOAT))
random_gamma_grad = _strict("random_gamma_grad", special.random_gamma_grad, None, (FLOAT, FLOAT))
betainc = _strict(
    "betainc", special.betainc, None, (FLOAT, FLOAT, FLOAT), "regularized_incomplete_beta"
)
polygamma = _strict("polygamma", special_more.polygamma, None, (FLOAT, FLOAT))
zeta = _strict("zeta", special_more.zeta, None, (FLOAT, FLOAT))
clamp = _strict("clamp", _clamp.clamp, None)
for _f, _impl in [
    (igamma, special.igamma), (igammac, special.igammac), (betainc, special.betainc),
    (igamma_grad_a, special.igamma_grad_a), (random_gamma_grad, special.random_gamma_grad),
    (polygamma, special_more.polygamma), (zeta, special_more.zeta), (clamp, _clamp.clamp),
]:  # fmt: skip
    _f.__doc__ = _impl.__doc__


def check_cumulative(name, operand, axis) -> int:
    """JAX's checks of a cumulative reduction's operand and axis (the shape rule's first):
    ``ValueError`` for a negative axis or one past the operand's rank (a 0-d operand has
    no axis 0), then ``TypeError`` for a non-number dtype. Returns ``int(axis)``."""
    axis = int(axis)
    try:
        shape = aval_of(operand).shape
    except TypeError:  # a list, a string...: the error of JAX's primitive bind
        raise TypeError(
            f"Error interpreting argument to {name} as a JAX value. The problematic value is "
            f"of type {type(operand)} and was passed to {name} at position 0."
        ) from None
    if axis < 0:
        raise ValueError("XLA operations do not allow negative axes")
    if axis >= len(shape):
        raise ValueError(f"axis {axis} is out of bounds for array of shape {shape}")
    check_accepted(name, (("number",),), operand)
    return axis


def _cumulative_op(name, impl):
    def op(operand, axis: int = 0, reverse: bool = False):
        return impl(operand, check_cumulative(name, operand, axis), reverse)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"``jax.lax.{name}`` along ``axis`` (reversed when ``reverse``), the result of "
        "``operand``'s shape and dtype.\n\nRaises:\n    TypeError: for a bool operand, as JAX."
    )
    return op


def conj(x):
    """``jax.lax.conj``: the complex conjugate, always complex (a float32/float64 operand
    becomes complex64/complex128, weak type kept), as JAX's ``conj_p``; ``jnp.conj`` is the
    one that returns real input unchanged.

    Raises:
        TypeError: for integer, bool, float16 or bfloat16 operands (as JAX).
    """
    check_accepted("conj", (("float32", "complexfloating", "float64"),), x)
    a = aval_of(x)
    if not dtypes.is_complex(a.dtype):
        x = conversion.convert_element_type(x, dtypes.to_complex_dtype(a.dtype), a.weak_type)
    return ew.conj(x)


def round(x, rounding_method=0):  # noqa: A001
    """``jax.lax.round``: 0 (``RoundingMethod.AWAY_FROM_ZERO``) or 1 (``TO_NEAREST_EVEN``).

    Raises:
        ValueError: another ``rounding_method`` (JAX's message).
    """
    if isinstance(rounding_method, (str, bytes)) or rounding_method not in (0, 1):
        raise ValueError(f"{rounding_method!r} is not a valid RoundingMethod")
    return ew.round(x, rounding_method)


def integer_pow(x, y: int):
    """``jax.lax.integer_pow``: ``x ** y`` for a static integer ``y``.

    Raises:
        TypeError: an array ``y`` (JAX hashes it: never ``int(y)``), a non-integral
            float ``y``, or integer ``x`` with a negative ``y`` (as JAX).
    """
    if getattr(y, "aval", None) is not None or isinstance(y, np.ndarray):
        raise TypeError(f"unhashable type: '{type(y).__name__}'")
    if not isinstance(y, (int, float, np.integer, np.floating)):  # "2" was read as 2
        raise TypeError(f"'<' not supported between instances of '{type(y).__name__}' and 'int'")
    return ew.integer_pow(x, y)


cumsum = _cumulative_op("cumsum", cumulative.cumsum)
cumprod = _cumulative_op("cumprod", cumulative.cumprod)
cummax = _cumulative_op("cummax", cumulative.cummax)
cummin = _cumulative_op("cummin", cumulative.cummin)


def select_n(which, *cases):
    """``jax.lax.select_n``: ``cases[which]`` elementwise (a bool ``which``: False picks
    ``cases[0]``).

    Raises:
        ValueError: no cases.
        TypeError: cases of different shapes or dtypes (weakly typed ones and Python
            scalars too: no promotion, as JAX), or a ``which`` of another shape than a
            scalar's or the cases', or not bool or integer.
    """
    if not cases:
        raise ValueError("select_n() must have at least one case")
    return ew.select_n_p.bind(which, *cases)


def select(pred, on_true, on_false):
    """``jax.lax.select``: ``on_true`` where ``pred``, else ``on_false`` (``select_n``'s
    rules and errors)."""
    return select_n(pred, on_false, on_true)


def _with_accuracy(name: str, impl, any_accuracy: bool = False):
    """``impl`` with JAX's ``accuracy=`` keyword: ``None``, an ``AccuracyMode`` or a
    ``Tolerance``. XLA:CPU has one kernel per function, so JAX's CPU results do not depend
    on it, and neither do jaxlite's (NumPy's kernels). Other values raise JAX's
    ``NotImplementedError``, except for ``logistic``, which JAX lowers as an expansion that
    ignores the request (``any_accuracy``)."""

    def op(x, *, accuracy=None):
        if not (any_accuracy or accuracy is None or isinstance(accuracy, _ACCURACIES)):
            raise NotImplementedError(f"Accuracy {accuracy} not supported")
        return impl(x)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"``jax.lax.{name}`` elementwise. ``accuracy``: ``None``, a ``lax.AccuracyMode`` or a "
        "``lax.Tolerance``; the result is the same for each (as on JAX's CPU backend).\n\n"
        "Raises:\n    NotImplementedError: for another ``accuracy`` (as JAX)."
    )
    return op


_ACCURACIES = (AccuracyMode, Tolerance)


cbrt = _with_accuracy("cbrt", ew.cbrt)
cos = _with_accuracy("cos", ew.cos)
exp = _with_accuracy("exp", ew.exp)
exp2 = _with_accuracy("exp2", ew.exp2)
expm1 = _with_accuracy("expm1", ew.expm1)
log = _with_accuracy("log", ew.log)
log1p = _with_accuracy("log1p", ew.log1p)
logistic = _with_accuracy("logistic", ew.logistic, any_accuracy=True)
rsqrt = _with_accuracy("rsqrt", ew.rsqrt)
sin = _with_accuracy("sin", ew.sin)
sqrt = _with_accuracy("sqrt", ew.sqrt)
tan = _with_accuracy("tan", ew.tan)
tanh = _with_accuracy("tanh", ew.tanh)
