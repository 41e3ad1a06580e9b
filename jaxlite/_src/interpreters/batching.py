"""Vectorisation: ``BatchTrace`` and ``batch_jaxpr``.

A ``BatchTracer`` holds a value of the parent trace and the index of its batch dimension.
Values with no batch dimension are never wrapped: a primitive whose operands are all
unbatched is bound unchanged on the parent trace (so a callback with no batched operand
runs once). Primitives carrying an ``axis_name`` param that names this trace's axis
(collectives) always reach their batching rule.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.ir import ClosedJaxpr
from jaxlite._src.core.rule_types import AxisData, not_mapped
from jaxlite._src.core.trace import Trace, Tracer, check_valid_tracer, set_current_trace, trace_ctx
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.ops import shape as _shape
from jaxlite._src.ops.shape import _loop_batch
from jaxlite._src.util import memoize_jaxpr_transform, safe_zip


class BatchTracer(Tracer):
    __slots__ = ("val", "batch_dim")

    def __init__(self, trace: BatchTrace, val: Any, batch_dim: int):
        self._trace = trace
        self.val = val
        self.batch_dim = batch_dim

    @property
    def aval(self):
        a = aval_of(self.val)
        shape = a.shape[: self.batch_dim] + a.shape[self.batch_dim + 1 :]
        return a.update(shape=shape)

    def __repr__(self):
        # JAX's: a weakly typed value's types are marked ``~``
        return f"VmapTracer(aval={_typed(self.aval)}, batched={_typed(aval_of(self.val))})"


def _typed(aval) -> str:
    return f"{'~' if aval.weak_type else ''}{aval.str_short()}"


class BatchTrace(Trace):
    __slots__ = ("axis_data",)
    kind = "batch"

    @property
    def tag(self):
        """Each vmap has its own trace, so the trace is its tag (``Trace.main``)."""
        return self

    def __init__(self, parent_trace: Trace, axis_data: AxisData):
        super().__init__(parent_trace)
        self.axis_data = axis_data

    def to_batch_info(self, x):
        if isinstance(x, BatchTracer) and x._trace is self:
            return x.val, x.batch_dim
        if isinstance(x, Tracer):
            check_valid_tracer(x)
        return x, not_mapped

    def wrap(self, val, dim):
        if dim is not_mapped:
            return val
        return BatchTracer(self, val, dim)

    def _names_this_axis(self, params) -> bool:
        name = params.get("axis_name", None)
        if name is None or self.axis_data.name is None:
            return False
        names = name if isinstance(name, tuple) else (name,)
        return self.axis_data.name in names

    def process_primitive(self, primitive, args, params):
        vals, dims = [], []
        for a in args:
            v, d = self.to_batch_info(a)
            vals.append(v)
            dims.append(d)
        if all(d is not_mapped for d in dims) and not self._names_this_axis(params):
            return primitive.bind_with_trace(self.parent_trace, vals, params)
        rule = rules.batch_rules.get(primitive)
        if rule is None:
            if primitive not in rules.loop_batched:
                raise rules.missing_rule("batch", primitive)
            rule = _loop_batch_rule(primitive)
        with set_current_trace(self.parent_trace):
            # Tuples, as JAX hands them (equinox passes the dims on as ``out_axes`` of a
            # function returning a tuple, where a list would not be a prefix).
            outs, out_dims = rule(self.axis_data, tuple(vals), tuple(dims), **params)
        if primitive.multiple_results:
            return [self.wrap(o, d) for o, d in safe_zip(outs, out_dims)]
        return self.wrap(outs, out_dims)


def _loop_batch_rule(primitive):
    """The explicit loop-and-stack fallback for primitives in ``rules.loop_batched``: the
    primitive is bound once per batch element and the results stacked (``axis_size`` copies
    when staged). Only primitives that opt in get it; others raise a missing-rule error."""

    def rule(axis_data, vals, dims, **params):
        return _loop_batch(primitive, axis_data, vals, dims, params)

    return rule


def move_dim(x, src, dst, size):
    """Move a batch dim (``not_mapped`` broadcasts) to ``dst`` (``not_mapped`` = leave)."""
    if dst is not_mapped:
        return x
    if src is not_mapped:
        x = _shape.broadcast_batch(x, size)
        src = 0
    return _shape.moveaxis(x, src, dst)


def batch_flat(
    fun: Callable,
    axis_data: AxisData,
    vals: Sequence[Any],
    dims: Sequence[Any],
    out_dims_fn: Callable[[int], Sequence[Any]] | None = None,
):
    """Run ``fun`` under a fresh BatchTrace; returns (outs, out_dims) as the trace left them."""
    trace = BatchTrace(trace_ctx.trace, axis_data)
    try:
        ins = [trace.wrap(v, d) for v, d in safe_zip(vals, dims)]
        with set_current_trace(trace):
            outs = fun(*ins)
        infos = [trace.to_batch_info(o) for o in outs]
    finally:
        trace.invalidate()
    return [v for v, _ in infos], [d for _, d in infos]


@memoize_jaxpr_transform(
    normalize=lambda args, res: (args[0], args[1], [d is not not_mapped for d in res[1]])
)
def batch_jaxpr(
    closed: ClosedJaxpr,
    axis_data: AxisData,
    dims_in: Sequence[Any],
    instantiate: bool | Sequence[bool],
) -> tuple[ClosedJaxpr, list]:
    """Batch a closed jaxpr. Inputs with ``dims_in[i]`` not ``not_mapped`` get a batch axis
    at that position. Outputs come back with the batch axis at 0 where batched (or where
    ``instantiate`` forces it); returns the jaxpr and the output dims (0 or not_mapped)."""

    if isinstance(instantiate, bool):
        instantiate = [instantiate] * len(closed.out_avals)
    in_avals = []
    for a, d in zip(closed.in_avals, dims_in):
        if d is not_mapped:
            in_avals.append(a)
        else:
            shape = list(a.shape)
            shape.insert(d, axis_data.size)
            in_avals.append(a.update(shape=tuple(shape)))
    out_dims: list = []

    def fun(*args):
        outs, dims = batch_flat(
            lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), axis_data, args, dims_in
        )
        res = []
        out_dims.clear()
        for o, d, inst in zip(outs, dims, instantiate):
            if d is not_mapped and not inst:
                res.append(o)
                out_dims.append(not_mapped)
            else:
                res.append(move_dim(o, d, 0, axis_data.size))
                out_dims.append(0)
        return res

    jaxpr, _ = trace_to_jaxpr(fun, in_avals)
    return jaxpr, list(out_dims)
