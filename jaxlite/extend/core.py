"""Public ``jaxlite.extend.core`` (mirrors ``jax.extend.core``).

Primitives defined here the JAX way (``def_impl``, ``def_abstract_eval``, and rules set
through ``jaxlite.interpreters.ad/batching/mlir``) work under jit, grad and vmap.
"""

from jaxlite._src.core.effects import Effect as Effect, no_effects as no_effects
from jaxlite._src.core.errors import JaxprTypeError as JaxprTypeError
from jaxlite._src.core.ir import (
    ClosedJaxpr as ClosedJaxpr,
    Jaxpr as Jaxpr,
    JaxprEqn as JaxprEqn,
    Literal as Literal,
    Var as Var,
    check_jaxpr as check_jaxpr,
)
from jaxlite._src.core.primitive import Primitive as Primitive
from jaxlite._src.core.trace import (
    TraceTag as TraceTag,
    set_current_trace as set_current_trace,
    take_current_trace as take_current_trace,
)
from jaxlite._src.jax_extension import (
    DropVar as DropVar,
    array_types as array_types,
    concrete_or_error as concrete_or_error,
    find_top_trace as find_top_trace,
    gensym as gensym,
    get_opaque_trace_state as get_opaque_trace_state,
    jaxpr_as_fun as jaxpr_as_fun,
    jaxprs_in_params as jaxprs_in_params,
    mapped_aval as mapped_aval,
    new_jaxpr_eqn as new_jaxpr_eqn,
    primal_dtype_to_tangent_dtype as primal_dtype_to_tangent_dtype,
    subjaxprs as subjaxprs,
    unmapped_aval as unmapped_aval,
    valid_jaxtype as valid_jaxtype,
)
from jaxlite.extend import core_primitives as primitives

Effects = frozenset
