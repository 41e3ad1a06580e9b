"""``jax.numpy`` functions of a number's binary form, and the window functions:
``frexp``, ``ldexp``, ``spacing``, ``bitwise_count``, ``isdtype``; ``hanning``, ``hamming``,
``blackman``, ``bartlett``, ``kaiser``.

``frexp`` reads the exponent field through ``bitcast_convert_type`` (exact for subnormals
too) with a custom JVP as JAX's; the rest are compositions of ``jax.numpy`` functions.
"""

from __future__ import annotations

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy.creation import arange, full
from jaxlite._src.numpy.ufuncs import (
    _where,
    abs,  # noqa: A004 (jnp.abs)
    copysign,
    cos,
    exp2,
    isinf,
    isnan,
    power,
    sqrt,
)
from jaxlite._src.numpy.ufuncs_extra import i0, nextafter
from jaxlite._src.numpy.util import (
    asarray_any,
    check_arraylike,
    promote_args_inexact,
    promote_args_numeric,
)
from jaxlite._src.ops import bitcast, elementwise as ew

_INT_OF_WIDTH = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}


def frexp(x, /):
    """Split ``x`` into mantissa and exponent: ``x == m * 2**e`` with ``0.5 <= |m| < 1``.

    Mirrors ``jax.numpy.frexp`` (NumPy's ``frexp``). Zeros, infinities and NaNs give
    ``m = x`` and ``e = 0``. The derivative of ``m`` is ``2**-e`` (``e`` has none).

    Args:
      x: real array (integers are promoted to the default float dtype).

    Returns:
      ``(m, e)``: ``m`` of ``x``'s inexact dtype, ``e`` of dtype ``int32``.

    Raises:
      TypeError: for complex input.
    """
    check_arraylike("frexp", x)
    (x,) = promote_args_inexact("frexp", x)
    if dtypes.is_complex(x.dtype):
        raise TypeError("frexp does not support complex-valued inputs")
    return _frexp(x)


@custom_jvp
def _frexp(x):
    info = dtypes.finfo(x.dtype)
    idt = _INT_OF_WIDTH[x.dtype.itemsize]
    nmant, mask = int(info.nmant), (1 << int(info.nexp)) - 1
    bias = 1 - int(info.minexp)  # the IEEE exponent bias: 0.5 has biased exponent bias - 1
    # Subnormals carry no implicit leading bit: scale them into the normal range first.
    sub = abs(x) < float(info.tiny)
    scaled = _where(sub, x * float(2.0**nmant), x)
    shift = _where(sub, np.int32(-nmant), np.int32(0))
    bits = bitcast.bitcast_convert_type(scaled, idt)
    field = (bits >> idt(nmant)) & idt(mask)
    e = field.astype(np.int32) - np.int32(bias - 1) + shift
    m_bits = (bits & idt(~(mask << nmant))) | idt((bias - 1) << nmant)
    m = bitcast.bitcast_convert_type(m_bits, x.dtype)
    special = isinf(x) | isnan(x) | (x == 0)
    return _where(special, x, m), _where(special, np.int32(0), e)


@_frexp.defjvp
def _frexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    m, e = _frexp(x)
    return (m, e), (t * exp2(-e.astype(t.dtype)), np.zeros(e.shape, dtypes.float0))


def ldexp(x1, x2, /):
    """``x1 * 2**x2``, elementwise.

    Mirrors ``jax.numpy.ldexp`` (NumPy's ``ldexp``), computed as JAX computes it: the
    exponent of ``x1`` (``frexp``) plus ``x2`` in ``x1``'s float dtype, so a small ``x1``
    with a large ``x2`` stays finite (``ldexp(1e-30, 200)`` is ``1.6e30`` in float32, not
    ``inf``, and ``ldexp(0, 200)`` is ``0``, not NaN); zeros and infinities are returned as
    they are (their derivative is 1, JAX's), NaNs stay NaN.

    Args:
      x1: real array (integers are promoted to the default float dtype).
      x2: integer or boolean array, broadcast against ``x1``.

    Returns:
      An array of ``x1``'s inexact dtype.

    Raises:
      ValueError: ``x1`` complex or ``x2`` not an integer (or boolean) array, as in JAX.
    """
    x1, x2 = asarray_any(x1), asarray_any(x2)
    if dtypes.is_complex(x1.dtype) or not (dtypes.is_int(x2.dtype) or x2.dtype == dtypes.bool_):
        raise ValueError(
            f"ldexp not supported for input types ({np.dtype(x1.dtype)!r}, {np.dtype(x2.dtype)!r})"
        )
    (x1,) = promote_args_inexact("ldexp", x1)
    m, e = _frexp(x1)
    # The whole exponent, as a float; one power of two moves into the mantissa when it is
    # positive, so that 2**e stays finite where the result does.
    e = e.astype(x1.dtype) + x2.astype(x1.dtype)
    up = e > 0
    m = _where(up, m * 2, m)
    e = _where(up, e - 1, e)
    return _where(isinf(x1) | (x1 == 0), x1, m * power(2, e))


def spacing(x, /):
    """The distance from ``x`` to the next representable number away from zero.

    Mirrors ``jax.numpy.spacing`` (NumPy's ``spacing``): for ``float16`` the step toward
    ``+inf``; where the step underflows to 0 the signed smallest subnormal.

    Args:
      x: real array (integers are promoted to the default float dtype).

    Returns:
      An array of ``x``'s inexact dtype.

    Raises:
      ValueError: for complex input.
    """
    (arr,) = promote_args_inexact("spacing", x)
    if dtypes.is_complex(arr.dtype):
        raise ValueError("jnp.spacing is not defined for complex inputs.")
    inf = full((), np.inf, arr.dtype)
    if arr.dtype == np.float16:
        return nextafter(arr, inf) - arr
    result = nextafter(arr, copysign(inf, arr)) - arr
    tiny = float(dtypes.finfo(arr.dtype).smallest_subnormal)
    return _where(result == 0, copysign(full((), tiny, arr.dtype), arr), result)


def bitwise_count(x, /):
    """The number of 1 bits in the absolute value of each element.

    Mirrors ``jax.numpy.bitwise_count`` (NumPy's ``bitwise_count``).

    Args:
      x: integer or boolean array.

    Returns:
      A ``uint8`` array of ``x``'s shape.

    Raises:
      TypeError: for inexact input (``population_count`` accepts only integers).
    """
    (x,) = promote_args_numeric("bitwise_count", x)
    if not dtypes.is_int(x.dtype):
        raise TypeError(
            f"population_count does not accept dtype {x.dtype.name}. Accepted dtypes are "
            "subtypes of integer."
        )
    return ew.population_count(abs(x)).astype(np.uint8)


_KINDS = {
    "bool": lambda d: d == np.bool_,
    "signed integer": dtypes.is_signed,
    "unsigned integer": dtypes.is_unsigned,
    "integral": dtypes.is_int,
    "real floating": dtypes.is_float,
    "complex floating": dtypes.is_complex,
    "numeric": lambda d: dtypes.is_int(d) or dtypes.is_inexact(d),
}


def isdtype(dtype, kind) -> bool:
    """Whether ``dtype`` is of ``kind`` (the array API's ``isdtype``).

    Mirrors ``jax.numpy.isdtype``: JAX's narrow floats (bfloat16, float8...) count as
    ``"real floating"``; a tuple matches if any entry does.

    Args:
      dtype: a dtype or anything ``jnp.dtype`` accepts.
      kind: one of ``"bool"``, ``"signed integer"``, ``"unsigned integer"``,
        ``"integral"``, ``"real floating"``, ``"complex floating"``, ``"numeric"``; a dtype
        (matched exactly); or a tuple of these.

    Returns:
      A Python bool.

    Raises:
      TypeError: for a kind that is neither a string, a dtype nor a tuple.
      ValueError: for an unknown kind string.
    """
    the_dtype = np.dtype(dtype)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    for k in kinds:
        if isinstance(k, str):
            if k not in _KINDS:
                raise ValueError(
                    f"Unrecognized {kind=} expected one of {list(_KINDS)}, or a compatible "
                    "input for jnp.dtype()"
                )
            if _KINDS[k](the_dtype):
                return True
        elif isinstance(k, np.dtype) or (
            isinstance(k, type) and hasattr(k, "dtype") and not issubclass(k, np.generic)
        ):
            if the_dtype == np.dtype(k):
                return True
        elif isinstance(k, type) and issubclass(k, np.generic) and not k.__subclasses__():
            if the_dtype == np.dtype(k):
                return True
        else:
            raise TypeError(f"Expected kind to be a dtype, string, or tuple; got {kind=}")
    return False


def _window_length(M, name: str) -> int:
    if isinstance(M, Tracer):
        value = M.to_concrete_value()
        if value is None:
            raise ConcretizationTypeError(M, f"M argument of jnp.{name}")
        M = value
    return int(M)


def _window(name: str, M, formula):
    M = _window_length(M, name)
    dt = dtypes.default_float_dtype()
    if M <= 1:
        return full((M,), 1, dt)
    return formula(arange(M, dtype=dt), M)


def hanning(M: int):
    """The Hann window ``0.5 - 0.5 cos(2 pi n / (M - 1))``.

    Mirrors ``jax.numpy.hanning`` (NumPy's ``hanning``).

    Args:
      M: the window length (static); ``M <= 1`` gives ``ones((M,))``.

    Returns:
      A 1-D array of the default float dtype.

    Raises:
      ConcretizationTypeError: for a traced ``M``.
    """
    return _window("hanning", M, lambda n, M: 0.5 * (1 - cos(2 * np.pi * n / (M - 1))))


def hamming(M: int):
    """The Hamming window ``0.54 - 0.46 cos(2 pi n / (M - 1))``.

    Mirrors ``jax.numpy.hamming`` (NumPy's ``hamming``).

    Args:
      M: the window length (static); ``M <= 1`` gives ``ones((M,))``.

    Returns:
      A 1-D array of the default float dtype.

    Raises:
      ConcretizationTypeError: for a traced ``M``.
    """
    return _window("hamming", M, lambda n, M: 0.54 - 0.46 * cos(2 * np.pi * n / (M - 1)))


def blackman(M: int):
    """The Blackman window ``0.42 - 0.5 cos(2 pi n/(M-1)) + 0.08 cos(4 pi n/(M-1))``.

    Mirrors ``jax.numpy.blackman`` (NumPy's ``blackman``).

    Args:
      M: the window length (static); ``M <= 1`` gives ``ones((M,))``.

    Returns:
      A 1-D array of the default float dtype.

    Raises:
      ConcretizationTypeError: for a traced ``M``.
    """

    def formula(n, M):
        return 0.42 - 0.5 * cos(2 * np.pi * n / (M - 1)) + 0.08 * cos(4 * np.pi * n / (M - 1))

    return _window("blackman", M, formula)


def bartlett(M: int):
    """The Bartlett (triangular) window ``1 - |2n + 1 - M| / (M - 1)``.

    Mirrors ``jax.numpy.bartlett`` (NumPy's ``bartlett``).

    Args:
      M: the window length (static); ``M <= 1`` gives ``ones((M,))``.

    Returns:
      A 1-D array of the default float dtype.

    Raises:
      ConcretizationTypeError: for a traced ``M``.
    """
    return _window("bartlett", M, lambda n, M: 1 - abs(2 * n + 1 - M) / (M - 1))


def kaiser(M: int, beta):
    """The Kaiser window ``i0(beta sqrt(1 - ((n - a)/a)**2)) / i0(beta)``, ``a = (M-1)/2``.

    Mirrors ``jax.numpy.kaiser`` (NumPy's ``kaiser``); ``beta`` may be traced (and
    differentiated).

    Args:
      M: the window length (static); ``M <= 1`` gives ``ones((M,))``.
      beta: the shape parameter (scalar).

    Returns:
      A 1-D array of the default float dtype (or ``beta``'s wider float dtype).

    Raises:
      ConcretizationTypeError: for a traced ``M``.
    """

    def formula(n, M):
        alpha = 0.5 * (M - 1)
        return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2)) / i0(beta)

    return _window("kaiser", M, formula)
