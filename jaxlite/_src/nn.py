"""``jax.nn`` activations and helpers, as compositions of ``jax.numpy`` functions."""

from __future__ import annotations

import operator

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core.trace import concrete_index, new_array
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import indexing_routines, reductions, ufuncs
from jaxlite._src.numpy.creation import arange, full_like, ones, ones_like, zeros_like
from jaxlite._src.numpy.einsum import einsum
from jaxlite._src.numpy.matrices import tril
from jaxlite._src.numpy.shape import _reduction_axes, broadcast_to, expand_dims, reshape, split
from jaxlite._src.numpy.ufuncs import (
    add,
    clip,
    divide,
    equal,
    exp,
    expm1,
    greater,
    greater_equal,
    isfinite,
    less,
    less_equal,
    log,
    log1p,
    logical_and,
    maximum,
    minimum,
    multiply,
    negative,
    power,
    sqrt,
    square,
    subtract,
    where,
)
from jaxlite._src.numpy.ufuncs_extra import logaddexp
from jaxlite._src.numpy.util import asarray_any, check_arraylike, promote_dtypes_inexact
from jaxlite._src.ops import conversion, elementwise as ew
from jaxlite._src.ops.structural import stop_gradient_p
from jaxlite._src.scipy.special import logsumexp


def _arr(name, x):
    check_arraylike(name, x)
    return asarray_any(x)


def relu(x):
    """``jax.nn.relu``: ``max(x, 0)`` (derivative 0 at 0)."""
    x = _arr("relu", x)
    # max(x, 0) (NaN propagates; bool promotes to int, as in JAX) with the derivative taken
    # from ``x > 0``, so it is 0 at 0.
    m = maximum(x, 0)
    xm = ew.convert_element_type_like(x, m)
    return where(greater(x, 0), xm, stop_gradient_p.bind(m))


def relu6(x):
    """``jax.nn.relu6``: ``min(max(x, 0), 6)``.

    As in JAX, the derivative is 1 on the open interval ``(0, 6)`` and 0 elsewhere,
    including at the kinks 0 and 6 (``min``/``max`` alone would give 0.5 there).
    """
    x = _arr("relu6", x)
    # 6.0, a weak float, as in JAX: an integer input gives a weakly typed float result.
    m = minimum(maximum(x, 0), 6.0)
    inside = logical_and(greater(x, 0), less(x, 6))
    return where(inside, ew.convert_element_type_like(x, m), stop_gradient_p.bind(m))


def sigmoid(x):
    """``jax.nn.sigmoid``: the logistic function.

    As in JAX, ``lax.logistic`` itself: an integer or bool input is its ``TypeError``.
    """
    return ew.logistic(_arr("sigmoid", x))


def silu(x):
    """``jax.nn.silu`` (= ``swish``): ``x * sigmoid(x)`` (floating inputs only, as
    ``sigmoid``)."""
    x = _arr("silu", x)
    return multiply(x, ew.logistic(x))


swish = silu


def softplus(x):
    """``jax.nn.softplus``: ``log(1 + exp(x))``."""
    return logaddexp(_arr("softplus", x), 0)


def soft_sign(x):
    """``jax.nn.soft_sign``: ``x / (|x| + 1)``."""
    x = _arr("soft_sign", x)
    return divide(x, add(ufuncs.abs(x), 1))


def log_sigmoid(x):
    """``jax.nn.log_sigmoid``: ``-softplus(-x)``.

    As in JAX, ``x`` is negated in its own dtype: a bool input is ``neg``'s ``TypeError``
    and an unsigned one wraps around.
    """
    return negative(softplus(negative(_arr("log_sigmoid", x))))


def elu(x, alpha=1.0):
    """``jax.nn.elu``: ``x`` if positive else ``alpha * (exp(x) - 1)``."""
    x = _arr("elu", x)
    pos = greater(x, 0)
    safe = where(pos, 0.0, x)  # an integer x becomes a weak float here, as in JAX
    return where(pos, x, multiply(alpha, expm1(safe)))


def selu(x):
    """``jax.nn.selu``: scaled ELU with the self-normalising constants."""
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return multiply(scale, elu(x, alpha))


def celu(x, alpha=1.0):
    """``jax.nn.celu``: ``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``."""
    x = _arr("celu", x)
    return add(maximum(x, 0.0), multiply(alpha, expm1(divide(minimum(x, 0.0), alpha))))


def leaky_relu(x, negative_slope=1e-2):
    """``jax.nn.leaky_relu``: ``x`` if ``x >= 0`` else ``negative_slope * x``."""
    x = _arr("leaky_relu", x)
    return where(greater_equal(x, 0), x, multiply(negative_slope, x))


def hard_tanh(x):
    """``jax.nn.hard_tanh``: ``clip(x, -1, 1)``."""
    x = _arr("hard_tanh", x)
    return where(greater(x, 1), 1, where(less(x, -1), -1, x))


def hard_sigmoid(x):
    """``jax.nn.hard_sigmoid``: ``relu6(x + 3) / 6``."""
    return divide(relu6(add(x, 3.0)), 6.0)


def hard_silu(x):
    """``jax.nn.hard_silu`` (= ``hard_swish``): ``x * hard_sigmoid(x)``."""
    x = _arr("hard_silu", x)
    return multiply(x, hard_sigmoid(x))


hard_swish = hard_silu


def mish(x):
    """``jax.nn.mish``: ``x * tanh(softplus(x))``."""
    x = _arr("mish", x)
    return multiply(x, ufuncs.tanh(softplus(x)))


def gelu(x, approximate: bool = True):
    """``jax.nn.gelu``: tanh approximation by default, exact (erf) form otherwise.

    The result keeps ``x``'s dtype (float16 / bfloat16 included) and, as in JAX, is strongly
    typed even for a Python scalar input.
    """
    (x,) = promote_dtypes_inexact(_arr("gelu", x))
    if approximate:
        c = float(np.sqrt(2 / np.pi))  # a Python float: weak, so float16/bfloat16 stay
        inner = multiply(c, add(x, multiply(0.044715, power(x, 3))))
        out = multiply(multiply(0.5, x), add(1.0, ufuncs.tanh(inner)))
    else:
        out = multiply(x, divide(ew.erfc(multiply(x, -float(np.sqrt(0.5)))), 2.0))
    return conversion.convert_element_type(out, out.dtype, False)


def glu(x, axis: int = -1):
    """``jax.nn.glu``: split ``x`` in two halves along ``axis``: ``a * sigmoid(b)``."""
    x = _arr("glu", x)
    n = x.shape[axis]
    if n % 2:
        raise AssertionError("axis size must be divisible by 2")
    a, b = split(x, 2, axis)
    return multiply(a, sigmoid(b))


def _shifted(x, axis, where):
    """``x`` (``-inf`` where masked out) minus its maximum along ``axis``, as JAX's softmax
    shifts it: no substitute for an infinite maximum (a ``+inf`` input makes the result
    NaN throughout, as in JAX). As in JAX, the subtraction is in ``x``'s own dtype (a bool
    ``x`` is ``sub``'s ``TypeError``, an unsigned one wraps around)."""
    m = reductions.max(x, axis, keepdims=True, where=where, initial=-np.inf)  # empty axes work
    if where is not None:
        x = ufuncs.where(where, x, -np.inf)
    return subtract(x, stop_gradient_p.bind(m))


def softmax(x, axis=-1, where=None):
    """``jax.nn.softmax``: ``exp(x) / sum(exp(x))`` along ``axis`` (max-shifted)."""
    x = _arr("softmax", x)
    u = exp(_shifted(x, axis, where))
    out = divide(u, reductions.sum(u, axis, keepdims=True, where=where))
    return out if where is None else ufuncs.where(where, out, zeros_like(out))


def log_softmax(x, axis=-1, where=None):
    """``jax.nn.log_softmax``: ``x - logsumexp(x)`` along ``axis``."""
    x = _arr("log_softmax", x)
    shifted = _shifted(x, axis, where)
    out = subtract(shifted, log(reductions.sum(exp(shifted), axis, keepdims=True, where=where)))
    return out if where is None else ufuncs.where(where, out, full_like(out, -np.inf))


def one_hot(x, num_classes: int, *, dtype=None, axis=-1):
    """``jax.nn.one_hot``: ``x[..., None] == arange(num_classes)`` as ``dtype`` (float32)."""
    x = _arr("one_hot", x)
    if x.dtype == np.bool_:  # JAX builds the classes with an iota of x's dtype
        raise TypeError(
            "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, "
            "floating, complexfloating."
        )
    num_classes = concrete_index(
        num_classes, "The num_classes argument of one_hot"
    )  # float: TypeError
    dt = dtypes.canonicalize_dtype(dtype if dtype is not None else dtypes.default_float_dtype())
    if isinstance(axis, int) and not -x.ndim - 1 <= axis <= x.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {x.ndim + 1}")
    out_axis = axis % (x.ndim + 1) if isinstance(axis, int) else axis
    lhs = expand_dims(x, out_axis)
    shape = [1] * (x.ndim + 1)
    shape[out_axis] = num_classes
    rhs = reshape(arange(num_classes, dtype=x.dtype if dtypes.is_int(x.dtype) else None), shape)
    return equal(lhs, rhs).astype(dt)


def standardize(
    x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None, *, algorithm: str = "fast"
):
    """``jax.nn.standardize``: ``(x - mean) * rsqrt(variance + epsilon)`` along ``axis``.

    Without ``variance``, ``algorithm`` picks how it is computed: ``"fast"`` as
    ``mean(x**2) - mean(x)**2`` clipped at 0 (it can cancel catastrophically), ``"stable"``
    as the two-pass ``mean((x - mean)**2)``. As in JAX, ``x`` is not promoted first: an
    integer ``x`` is squared in its own type.

    Raises:
      ValueError: an unknown ``algorithm`` (only checked when ``variance`` is computed).
    """
    x = _arr("standardize", x)
    for arg in (mean, variance, where):
        if arg is not None:
            check_arraylike("standardize", arg)
    if mean is None:
        mean = reductions.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = reductions.mean(square(subtract(x, mean)), axis, keepdims=True, where=where)
        elif algorithm == "fast":
            variance = subtract(
                reductions.mean(square(x), axis, keepdims=True, where=where), square(mean)
            )
            variance = clip(variance, 0)
        else:
            raise ValueError(f"Unknown algorithm '{algorithm}'. Expected 'fast' or 'stable'.")
    return multiply(subtract(x, mean), ew.rsqrt(add(variance, epsilon)))


def identity(x):
    """``jax.nn.identity``: returns ``x`` (a new array, as JAX's)."""
    return new_array(_arr("identity", x))


def tanh(x):
    """``jax.nn.tanh``."""
    return ufuncs.tanh(x)


@custom_jvp
def log1mexp(x):
    """``jax.nn.log1mexp``: ``log(1 - exp(-x))`` computed stably for ``x > 0``.

    Below ``log(2)`` it is ``log(-expm1(-x))``, from there ``log1p(-exp(-x))`` (NaN for
    ``x < 0``, where the function is undefined). Its JVP is JAX's ``g / expm1(x)``, so the
    derivative stays finite where the value is NaN.
    """
    x = _arr("log1mexp", x)  # negated in its own dtype, as in JAX (bool: TypeError)
    small = less(x, float(np.log(2.0)))
    return where(small, log(negative(expm1(negative(x)))), log1p(negative(exp(negative(x)))))


log1mexp.defjvps(lambda g, ans, x: divide(g, expm1(x)))


def logmeanexp(x, axis=None, where=None, keepdims: bool = False):
    """``jax.nn.logmeanexp``: ``logsumexp(x) - log(count)``."""
    x = _arr("logmeanexp", x)
    lse = logsumexp(x, axis=axis, keepdims=keepdims, where=where)
    if where is None:
        axes = _reduction_axes(x, axis)
        n = int(np.prod([x.shape[i] for i in axes], dtype=np.int64))
        return subtract(lse, float(np.log(n)))
    cnt = reductions.sum(broadcast_to(asarray_any(where), x.shape), axis=axis, keepdims=keepdims)
    return subtract(lse, log(cnt.astype(lse.dtype)))


def sparse_plus(x):
    """``jax.nn.sparse_plus``: 0, ``(x+1)**2/4`` or ``x`` on (-inf,-1], (-1,1), [1,inf)."""
    x = _arr("sparse_plus", x)
    quad = multiply(square(add(x, 1.0)), 0.25)
    return where(less_equal(x, -1.0), 0.0, where(greater_equal(x, 1.0), x, quad))


def sparse_sigmoid(x):
    """``jax.nn.sparse_sigmoid``: ``clip((x + 1) / 2, 0, 1)``."""
    x = _arr("sparse_sigmoid", x)
    return multiply(0.5, clip(add(x, 1.0), 0.0, 2.0))


def squareplus(x, b=4):
    """``jax.nn.squareplus``: ``(x + sqrt(x**2 + b)) / 2``."""
    check_arraylike("squareplus", x, b)
    x = asarray_any(x)
    return divide(add(x, sqrt(add(square(x), b))), 2)


# jax.scipy.special.softmax / log_softmax: the same functions over all axes by default, as
# in SciPy (defined here, next to the jax.nn ones; jaxlite/scipy/special.py re-exports them).
def scipy_softmax(x, axis=None):
    """``jax.scipy.special.softmax`` (over all axes by default, as in SciPy)."""
    return softmax(x, axis)


def scipy_log_softmax(x, axis=None):
    """``jax.scipy.special.log_softmax`` (over all axes by default, as in SciPy)."""
    return log_softmax(x, axis)
