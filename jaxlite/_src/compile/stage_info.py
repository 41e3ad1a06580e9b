"""What ``Lowered`` and ``Compiled`` stages of ``jit`` report besides running: the output
types (``out_info``) and XLA's cost and memory estimates, which jaxlite does not have.

JAX's ``cost_analysis()`` / ``memory_analysis()`` return XLA's estimates (flops, bytes
accessed, buffer sizes), or ``None`` where they are unavailable. jaxlite compiles to NumPy
code and has no such cost model, so both answer ``None``: callers treat the costs as unknown
(flax's ``nnx.tabulate(compute_flops=True)`` then counts 0 flops) instead of reading numbers
that were never computed.
"""

from __future__ import annotations

from typing import Any

from jaxlite._src import tree_util
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct


class StageInfo:
    """Mixin of ``Lowered`` / ``Compiled``; needs ``self._entry`` (the jit cache entry) and
    ``self._in_tree``."""

    @property
    def in_tree(self):
        """The treedef of the dynamic ``(args, kwargs)`` (``jax.stages``)."""
        return self._in_tree

    @property
    def out_tree(self):
        """The treedef of the outputs (``jax.stages``)."""
        return self._entry.out_tree

    @property
    def out_info(self):
        """The outputs' ``ShapeDtypeStruct``s, in the output tree (``jax.stages``)."""
        avals = self._entry.closed.out_avals
        leaves = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in avals]
        return tree_util.tree_unflatten(self._entry.out_tree, leaves)

    def cost_analysis(self) -> Any | None:
        """The execution cost estimates: ``None`` (unavailable in jaxlite)."""
        return None

    def memory_analysis(self) -> Any | None:
        """The memory use estimates: ``None`` (unavailable in jaxlite)."""
        return None
