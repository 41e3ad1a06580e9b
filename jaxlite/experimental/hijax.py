"""Public ``jaxlite.experimental.hijax`` (mirrors ``jax.experimental.hijax``).

The names libraries subclass and register at import time; binding a hijax primitive raises
``NotImplementedError`` (jaxlite has no hijax lowering; see ``jaxlite/_src/hijax.py``).
"""

from jaxlite._src.core.avals import AbstractValue as AbstractValue, ShapedArray as ShapedArray
from jaxlite._src.core.effects import (
    control_flow_allowed_effects as control_flow_allowed_effects,
)
from jaxlite._src.core.refs import AbstractRef as AbstractRef, TransformedRef as TransformedRef
from jaxlite._src.core.rule_types import Zero as Zero, is_undefined_primal as is_undefined_primal
from jaxlite._src.hijax import (
    AvalMutableQDD as AvalMutableQDD,
    AvalQDD as AvalQDD,
    HiPrimitive as HiPrimitive,
    HiPspec as HiPspec,
    HiType as HiType,
    MutableHiType as MutableHiType,
    VJPHiPrimitive as VJPHiPrimitive,
    aval_method as aval_method,
    aval_property as aval_property,
    register_hitype as register_hitype,
)
from jaxlite._src.ops.structural import instantiate as instantiate_zeros
