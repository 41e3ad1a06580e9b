"""The public ``jax.lax`` special functions, ``clamp`` and cumulative reductions, with
JAX's strict dtype rule (``lax_api.check_accepted``): they sit above their families in the
ops order, which ``lax_api`` (used by the windowed reductions) cannot."""

from __future__ import annotations

from jaxlite._src.ops import (
    clamp as _clamp,
    cumulative,
    elementwise as ew,
    special,
    special_more,
)
from jaxlite._src.ops.lax_api import _FLOAT, _strict, check_accepted
from jaxlite._src.ops.lax_types import AccuracyMode, Tolerance

igamma = _strict("igamma", special.igamma, None, (_FLOAT, _FLOAT))
igammac = _strict("igammac", special.igammac, None, (_FLOAT, _FLOAT))
igamma_grad_a = _strict("igamma_grad_a", special.igamma_grad_a, None, (_FLOAT, _FLOAT))
random_gamma_grad = _strict("random_gamma_grad", special.random_gamma_grad, None, (_FLOAT, _FLOAT))
betainc = _strict(
    "betainc", special.betainc, None, (_FLOAT, _FLOAT, _FLOAT), "regularized_incomplete_beta"
)
polygamma = _strict("polygamma", special_more.polygamma, None, (_FLOAT, _FLOAT))
zeta = _strict("zeta", special_more.zeta, None, (_FLOAT, _FLOAT))
clamp = _strict("clamp", _clamp.clamp, None)
for _f, _impl in [
    (igamma, special.igamma), (igammac, special.igammac), (betainc, special.betainc),
    (igamma_grad_a, special.igamma_grad_a), (random_gamma_grad, special.random_gamma_grad),
    (polygamma, special_more.polygamma), (zeta, special_more.zeta), (clamp, _clamp.clamp),
]:  # fmt: skip
    _f.__doc__ = _impl.__doc__


def _cumulative_op(name, impl):
    def op(operand, axis: int = 0, reverse: bool = False):
        check_accepted(name, (("number",),), operand)
        return impl(operand, axis, reverse)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (
        f"``jax.lax.{name}`` along ``axis`` (reversed when ``reverse``), the result of "
        "``operand``'s shape and dtype.\n\nRaises:\n    TypeError: for a bool operand, as JAX."
    )
    return op


cumsum = _cumulative_op("cumsum", cumulative.cumsum)
cumprod = _cumulative_op("cumprod", cumulative.cumprod)
cummax = _cumulative_op("cummax", cumulative.cummax)
cummin = _cumulative_op("cummin", cumulative.cummin)


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
