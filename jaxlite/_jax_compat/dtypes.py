"""``jax._src.dtypes`` (equinox: TypePromotionError; flax.linen.fp8_ops: extended,
ExtendedDType, DType, supports_inf, finfo, issubdtype)."""

import abc as _abc

import numpy as _np

from jaxlite._src.dtypes import *  # noqa: F403
from jaxlite._src.dtypes import (
    TypePromotionError as TypePromotionError,
    finfo as finfo,
    is_inexact as _is_inexact,
    issubdtype as issubdtype,
)

DType = _np.dtype


class extended(_np.generic):  # noqa: N801 (JAX's name)
    """Scalar type of extended dtypes (``jax.dtypes.extended``); jaxlite's own dtypes are
    NumPy dtypes, so only library-defined dtypes derive from it."""


class ExtendedDType(_abc.ABC):  # noqa: B024 (a marker base for library dtypes, as in JAX)
    """Base of library-defined dtypes (``jax._src.dtypes.ExtendedDType``)."""


def supports_inf(dtype) -> bool:
    """Whether ``dtype`` can represent infinity."""
    dtype = _np.dtype(dtype)
    if not _is_inexact(dtype):
        return False
    try:
        return bool(_np.isinf(_np.array(_np.inf).astype(dtype)))
    except (OverflowError, ValueError):
        return False
