"""The ``max_p`` / ``min_p`` primitives (their JVPs are in ``elementwise``) and their
native-tier (Numba) rules: NumPy's ``maximum``/``minimum`` for
integers and bools; for floats the same XLA signed-zero tie rule as the NumPy kernels of
``minmax`` (a tie of two zeros takes their sum, ``+0`` unless both are ``-0`` for max)."""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.ops import minmax
from jaxlite._src.ops._factories import ANY, naryop


def _rule(int_template, scalar_template, array_template):
    def rule(ctx, eqn, ins, outs):
        aval = eqn.outvars[0].aval
        kind = np.dtype(eqn.invars[-1].aval.dtype).kind
        if kind in "iub":
            template = int_template
        elif kind == "f":
            template = scalar_template if aval.shape == () else array_template
        else:
            return None
        return [f"{outs[0]} = {ctx.typed(template.format(*ins), aval)}"]

    return rule


max_p = naryop("max", minmax.max_impl, [ANY, ANY])
min_p = naryop("min", minmax.min_impl, [ANY, ANY])
# Elementwise, not inlinable: the float templates read each operand twice.
rules.native_rules[max_p] = _rule("np.maximum({0}, {1})", minmax.MAX_SCALAR, minmax.MAX_ARRAY)
rules.native_rules[min_p] = _rule("np.minimum({0}, {1})", minmax.MIN_SCALAR, minmax.MIN_ARRAY)
rules.native_elementwise.update((max_p, min_p))
