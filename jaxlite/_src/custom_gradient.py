"""``jax.custom_gradient``: TensorFlow-style custom gradients on top of ``custom_vjp``.

``fun(*args)`` returns ``(value, vjp)``; the gradient of ``value`` with respect to the
arguments is ``vjp(cotangent)``. The ``vjp`` closure is closure-converted so the values it
closes over travel as residuals.
"""

from __future__ import annotations

from collections.abc import Callable

from jaxlite._src import tree_util
from jaxlite._src.ad import closure_convert
from jaxlite._src.custom_derivatives import custom_vjp


def custom_gradient(fun: Callable) -> Callable:
    """Define ``fun``'s reverse-mode derivative with the vjp function it returns.

    Args:
      fun: ``fun(*args) -> (value, vjp)`` where ``vjp(ct)`` returns one cotangent per
        argument (a tuple, or a single value for one argument).
    """

    @custom_vjp
    def wrapped(*args):
        value, _ = fun(*args)
        return value

    def fwd(*args):
        value, rule = fun(*args)
        converted, consts = closure_convert(rule, value)
        return value, (tree_util.Partial(converted), tuple(consts))

    def bwd(res, ct):
        converted, consts = res
        cts = converted(ct, *consts)
        return cts if isinstance(cts, tuple) else (cts,)

    wrapped.defvjp(fwd, bwd)
    return wrapped
