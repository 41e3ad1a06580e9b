"""Public ``jaxlite.extend`` (mirrors ``jax.extend``): the extension surface.

``jax.extend``'s submodules (``core``, ``linear_util``) are here, and -- jaxlite's own
addition -- what adding a primitive from outside the package needs, in one place: the
``Primitive`` class, the rule tables (one per transformation), the rule factories, and the
types rules use (``Zero``, ``UndefinedPrimal``, ``not_mapped``). docs/adding_a_primitive.md
shows how to use them.
"""

from jaxlite._src.core.avals import ShapedArray as ShapedArray
from jaxlite._src.core.primitive import Primitive as Primitive
from jaxlite._src.core.rule_types import (
    AxisData as AxisData,
    UndefinedPrimal as UndefinedPrimal,
    Zero as Zero,
    is_undefined_primal as is_undefined_primal,
    not_mapped as not_mapped,
)
from jaxlite._src.core.rules import (
    abstract_eval_rules as abstract_eval_rules,
    batch_rules as batch_rules,
    dce_rules as dce_rules,
    effects_rules as effects_rules,
    impl_rules as impl_rules,
    jvp_rules as jvp_rules,
    lower_rules as lower_rules,
    partial_eval_rules as partial_eval_rules,
    transpose_rules as transpose_rules,
)
from jaxlite._src.ops._factories import (
    ANY as ANY,
    FLOAT as FLOAT,
    INEXACT as INEXACT,
    INT as INT,
    NUM as NUM,
    broadcast_batcher as broadcast_batcher,
    defjvp as defjvp,
    defjvp2 as defjvp2,
    deflinear as deflinear,
    naryop as naryop,
    non_differentiable as non_differentiable,
    unop as unop,
)
from jaxlite.extend import (
    core as core,
    linear_util as linear_util,
    source_info_util as source_info_util,
)
