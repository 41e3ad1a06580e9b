"""Public ``jaxlite.dtypes`` (mirrors ``jax.dtypes``)."""

from jaxlite._src.dtypes import (  # noqa: F401
    bfloat16 as _bfloat16_dtype,
    canonicalize_dtype as canonicalize_dtype,
    extended as extended,
    finfo as finfo,
    float0 as float0,
    iinfo as iinfo,
    issubdtype as issubdtype,
    prng_key as prng_key,
    promote_types as promote_types,
    result_type as result_type,
)

bfloat16 = _bfloat16_dtype.type
