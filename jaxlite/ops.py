"""Public ``jaxlite.ops`` (mirrors ``jax.ops``): segment reductions."""

from jaxlite._src.segment_ops import (  # noqa: F401
    segment_max as segment_max,
    segment_min as segment_min,
    segment_prod as segment_prod,
    segment_sum as segment_sum,
)
