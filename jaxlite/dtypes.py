"""Public ``jaxlite.dtypes`` (mirrors ``jax.dtypes``)."""

from jaxlite._src.dtypes import (  # noqa: F401
    TypePromotionError as TypePromotionError,
    bfloat16 as _bfloat16_dtype,
    canonicalize_dtype as canonicalize_dtype,
    extended as extended,
    finfo as finfo,
    float0 as float0,
    iinfo as iinfo,
    issubdtype as issubdtype,
    itemsize_bits as itemsize_bits,
    prng_key as prng_key,
    promote_types as promote_types,
    public_result_type as result_type,
    scalar_type_of as scalar_type_of,
)

bfloat16 = _bfloat16_dtype.type
