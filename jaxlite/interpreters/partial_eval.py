"""Public ``jaxlite.interpreters.partial_eval`` (the part of ``jax.interpreters.partial_eval``
libraries use)."""

from jaxlite._src.interpreters.partial_eval import (
    PartialEvalTrace as PartialEvalTrace,
    PETracer as JaxprTracer,
    partial_eval_jaxpr_nounits as partial_eval_jaxpr_nounits,
)
from jaxlite._src.interpreters.staging import (
    StagingTrace as DynamicJaxprTrace,
    StagingTracer as DynamicJaxprTracer,
)
