"""Public ``jaxlite.dlpack`` (mirrors ``jax.dlpack``)."""

from jaxlite._src.numpy.misc_api import (  # noqa: F401
    from_dlpack as from_dlpack,
    is_supported_dlpack_dtype as is_supported_dtype,
)
