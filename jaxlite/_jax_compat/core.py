"""``jax._src.core`` (flax.linen.fp8_ops, equinox: ShapedArray, Tracer, Primitive...)."""

from jaxlite._src.core.avals import (
    AbstractValue as AbstractValue,
    ShapedArray as ShapedArray,
    aval_of as get_aval,
)
from jaxlite._src.core.ir import (
    ClosedJaxpr as ClosedJaxpr,
    Jaxpr as Jaxpr,
    JaxprEqn as JaxprEqn,
    Literal as Literal,
    Var as Var,
)
from jaxlite._src.core.primitive import Primitive as Primitive
from jaxlite._src.core.trace import (
    Trace as Trace,
    Tracer as Tracer,
    eval_trace as eval_trace,
    set_current_trace as set_current_trace,
)
from jaxlite._src.interpreters.eval import eval_jaxpr as eval_jaxpr
from jaxlite._src.jax_extension import (
    find_top_trace as find_top_trace,
    get_opaque_trace_state as get_opaque_trace_state,
    mapped_aval as mapped_aval,
    trace_state_clean as trace_state_clean,
    unmapped_aval as unmapped_aval,
)
