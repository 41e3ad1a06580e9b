"""Public ``jaxlite.image`` (mirrors ``jax.image``): image resampling."""

from jaxlite._src.image import (  # noqa: F401
    ResizeMethod as ResizeMethod,
    resize as resize,
    scale_and_translate as scale_and_translate,
)
