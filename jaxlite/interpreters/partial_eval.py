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
from jaxlite._src.jax_extension import (
    PartialVal as PartialVal,
    trace_to_jaxpr_nounits as trace_to_jaxpr_nounits,
)
