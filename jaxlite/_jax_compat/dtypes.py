"""``jax._src.dtypes`` (equinox: TypePromotionError; flax.linen.fp8_ops: extended,
ExtendedDType, DType, supports_inf, finfo, issubdtype)."""

import numpy as _np

from jaxlite._src.dtypes import *  # noqa: F403
from jaxlite._src.dtypes import (
    ExtendedDType as ExtendedDType,
    TypePromotionError as TypePromotionError,
    extended as extended,
    finfo as finfo,
    is_inexact as _is_inexact,
    issubdtype as issubdtype,
)

DType = _np.dtype


def supports_inf(dtype) -> bool:
    """Whether ``dtype`` can represent infinity."""
    dtype = _np.dtype(dtype)
    if not _is_inexact(dtype):
        return False
    try:
        return bool(_np.isinf(_np.array(_np.inf).astype(dtype)))
    except (OverflowError, ValueError):
        return False
