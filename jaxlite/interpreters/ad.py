"""Public ``jaxlite.interpreters.ad`` (mirrors ``jax.interpreters.ad``).

``primitive_jvps`` and ``primitive_transposes`` ARE jaxlite's JVP and transpose rule tables.
"""

from jaxlite._src.core.rule_types import (
    UndefinedPrimal as UndefinedPrimal,
    Zero as Zero,
    is_undefined_primal as is_undefined_primal,
)
from jaxlite._src.core.rules import (
    jvp_rules as primitive_jvps,
    transpose_rules as primitive_transposes,
)
from jaxlite._src.interpreters.jvp import JVPTrace as JVPTrace, JVPTracer as JVPTracer
from jaxlite._src.jax_extension import deflinear_jax as deflinear
from jaxlite._src.ops._factories import defjvp as defjvp, defjvp2 as defjvp2
from jaxlite._src.ops.structural import (
    add_any as add_tangents,
    add_any_p as add_jaxvals_p,
    instantiate as instantiate_zeros,
    zeros_like_aval as zeros_like_aval,
)


def get_primitive_transpose(p):
    """The transpose rule of ``p``; raises NotImplementedError naming ``p`` if it has none."""
    try:
        return primitive_transposes[p]
    except KeyError:
        raise NotImplementedError(
            f"Transpose rule (for reverse-mode differentiation) for '{p}' not implemented"
        ) from None


def add_jaxvals(x, y):
    return add_jaxvals_p.bind(x, y)
