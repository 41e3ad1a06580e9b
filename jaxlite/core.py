"""Public ``jaxlite.core`` (mirrors ``jax.core``'s public subset in JAX 0.10.2).

JAX 0.10.2 keeps only a few names here; the jaxpr types live in ``jaxlite.extend.core``.
"""

from typing import Any as Value

from jaxlite._src.core.avals import (
    AbstractValue as AbstractValue,
    ShapedArray as ShapedArray,
    pytype_aval_mappings as pytype_aval_mappings,
)
from jaxlite._src.core.ir import Literal as _Literal, Var as _Var
from jaxlite._src.core.trace import Trace as Trace, Tracer as Tracer
from jaxlite._src.interpreters.eval import eval_jaxpr as eval_jaxpr
from jaxlite._src.jax_extension import (
    ensure_compile_time_eval as ensure_compile_time_eval,
    eval_context as eval_context,
    find_top_trace as find_top_trace,
    get_opaque_trace_state as get_opaque_trace_state,
    jaxprs_in_params as jaxprs_in_params,
    new_jaxpr_eqn as new_jaxpr_eqn,
)

Atom = _Var | _Literal
ParamDict = dict


def max_dim(d1, d2):
    """The larger of two dimension sizes (``jax.core.max_dim``)."""
    return max(d1, d2)


def min_dim(d1, d2):
    """The smaller of two dimension sizes (``jax.core.min_dim``)."""
    return min(d1, d2)
