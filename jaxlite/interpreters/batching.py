"""Public ``jaxlite.interpreters.batching`` (mirrors ``jax.interpreters.batching``).

``fancy_primitive_batchers`` IS jaxlite's batching rule table (rules
``(axis_data, args, dims, **params)``); ``primitive_batchers`` and
``axis_primitive_batchers`` adapt JAX's older rule signatures into it.
"""

from jaxlite._src.core.rule_types import AxisData as AxisData, not_mapped as not_mapped
from jaxlite._src.core.rules import batch_rules as fancy_primitive_batchers
from jaxlite._src.interpreters.batching import (
    BatchTrace as BatchTrace,
    BatchTracer as BatchTracer,
)
from jaxlite._src.jax_extension import (
    AxisPrimitiveBatchersProxy as _AxisPrimitiveBatchersProxy,
    PrimitiveBatchersProxy as _PrimitiveBatchersProxy,
    bdim_at_front as bdim_at_front,
    broadcast as broadcast,
    defbroadcasting as defbroadcasting,
    defvectorized as defvectorized,
    moveaxis_to as moveaxis,
    vectorized_batcher as vectorized_batcher,
)

primitive_batchers = _PrimitiveBatchersProxy()
axis_primitive_batchers = _AxisPrimitiveBatchersProxy()
