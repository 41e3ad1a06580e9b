"""JAX's extension API (``jax.extend.core``, ``jax.interpreters.ad/batching/mlir``) as views.

Libraries such as equinox, lineax and distrax define their own primitives the JAX way::

    p = jax.extend.core.Primitive("my_op"); p.def_impl(impl); p.def_abstract_eval(aval_rule)
    ad.primitive_jvps[p] = jvp;  ad.primitive_transposes[p] = transpose
    batching.primitive_batchers[p] = batch;  mlir.register_lowering(p, mlir.lower_fun(impl))

Nothing here keeps a rule table of its own: every registration lands in jaxlite's tables
(``core.rules``), adapted where JAX's calling convention differs from jaxlite's:

* ``ad.primitive_jvps`` / ``ad.primitive_transposes`` *are* ``rules.jvp_rules`` /
  ``rules.transpose_rules`` (same signatures, same symbolic ``Zero`` / ``UndefinedPrimal``).
* ``batching.fancy_primitive_batchers`` is ``rules.batch_rules`` (``(axis_data, args, dims)``);
  ``primitive_batchers`` (``(args, dims)``) and ``axis_primitive_batchers``
  (``(axis_size, axis_name, trace_type, args, dims)``) are write-only proxies that adapt,
  as in JAX 0.10.2.
* ``mlir.register_lowering(p, mlir.lower_fun(fun))`` makes generated code call ``fun`` (on
  ``Array``s) for ``p``; a hand-written MLIR rule cannot run on NumPy, so it is recorded but
  jit then uses the primitive's impl (and says so if it has none).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg
from jaxlite._src.compile import codegen
from jaxlite._src.core import rules, trace as core_trace
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.core.primitive import Primitive, array_level_impl
from jaxlite._src.core.rule_types import AxisData, not_mapped
from jaxlite._src.core.trace import Tracer
from jaxlite._src.interpreters.eval import eval_jaxpr
from jaxlite._src.interpreters.partial_eval import trace_partial
from jaxlite._src.ops import shape as shape_ops

# ------------------------------------------------------------------------------ batching


class PrimitiveBatchersProxy:
    """``batching.primitive_batchers``: rules ``(batched_args, batch_dims, **params)``."""

    def __setitem__(self, prim: Primitive, batcher: Callable) -> None:
        def rule(axis_data, args, dims, **params):
            del axis_data
            if all(d is not_mapped for d in dims):
                out = prim.bind(*args, **params)
                return (out, [not_mapped] * len(out)) if prim.multiple_results else (out, None)
            return batcher(args, dims, **params)

        rules.batch_rules[prim] = rule

    def __delitem__(self, prim: Primitive) -> None:
        del rules.batch_rules[prim]

    def __contains__(self, prim) -> bool:
        return prim in rules.batch_rules


class AxisPrimitiveBatchersProxy(PrimitiveBatchersProxy):
    """``batching.axis_primitive_batchers``: ``(axis_size, axis_name, trace_type, args, dims)``."""

    def __setitem__(self, prim: Primitive, batcher: Callable) -> None:
        def rule(axis_data, args, dims, **params):
            return batcher(axis_data.size, axis_data.name, None, args, dims, **params)

        rules.batch_rules[prim] = rule


def moveaxis_to(x, src, dst):
    """Move batch dimension ``src`` of ``x`` to ``dst`` (``batching.moveaxis``)."""
    if src == dst:
        return x
    return shape_ops.moveaxis(x, src, dst)


def bdim_at_front(x, bdim, size: int):
    """``x`` with its batch dimension first, broadcasting an unbatched ``x`` to ``size``."""
    if bdim is not_mapped:
        return broadcast(x, size, 0)
    return moveaxis_to(x, bdim, 0)


def broadcast(x, sz: int, axis: int):
    """Insert a dimension of size ``sz`` at ``axis`` (``batching.broadcast``)."""
    aval = aval_of(x)
    shape = list(aval.shape)
    shape.insert(axis, sz)
    dims = tuple(i for i in range(len(shape)) if i != axis)
    return shape_ops.broadcast_in_dim(x, tuple(shape), dims)


def vectorized_batcher(prim: Primitive, axis_data, args, dims, **params):
    """All batch dimensions equal: the primitive applies elementwise along them."""
    dims_set = {d for d in dims if d is not not_mapped}
    if len(dims_set) == 1 and all(d is not not_mapped for d in dims):
        (d,) = dims_set
        out = prim.bind(*args, **params)
        return out, ([d] * len(out) if prim.multiple_results else d)
    args = [bdim_at_front(a, d, axis_data.size) for a, d in zip(args, dims)]
    out = prim.bind(*args, **params)
    return out, ([0] * len(out) if prim.multiple_results else 0)


def defvectorized(prim: Primitive) -> None:
    rules.batch_rules[prim] = functools.partial(vectorized_batcher, prim)


def defbroadcasting(prim: Primitive) -> None:
    """Batching of an elementwise primitive with NumPy broadcasting between operands."""

    def rule(axis_data, args, dims, **params):
        ndim = max(aval_of(a).ndim - (d is not not_mapped) for a, d in zip(args, dims))
        moved = []
        for a, d in zip(args, dims):
            if d is not_mapped:
                moved.append(a)
                continue
            a = moveaxis_to(a, d, 0)
            rank = aval_of(a).ndim - 1
            if rank < ndim:  # align the batch dimension in front of the broadcast ones
                shape = aval_of(a).shape
                a = shape_ops.reshape(a, (shape[0],) + (1,) * (ndim - rank) + shape[1:])
            moved.append(a)
        out = prim.bind(*moved, **params)
        return out, ([0] * len(out) if prim.multiple_results else 0)

    rules.batch_rules[prim] = rule


# -------------------------------------------------------------------------------- lowering


class LoweredFunction:
    """What ``mlir.lower_fun(fun)`` returns: a lowering that runs ``fun`` (on Arrays)."""

    def __init__(self, fun: Callable, multiple_results: bool):
        self.fun = fun
        self.multiple_results = multiple_results
        functools.update_wrapper(self, fun)

    def __call__(self, ctx, *args, **params):
        raise NotImplementedError(
            "jaxlite does not build MLIR: lowering rules made by mlir.lower_fun are run "
            "by jaxlite's code generator, not called directly"
        )


def lower_fun(fun: Callable, multiple_results: bool = True) -> LoweredFunction:
    """``mlir.lower_fun``: a lowering rule that computes the primitive with ``fun``."""
    return LoweredFunction(fun, multiple_results)


# Hand-written (MLIR) lowerings registered by libraries, kept only so they can be inspected.
foreign_lowerings: dict = {}


def register_lowering(
    prim: Primitive, rule: Callable, platform: str | None = None, **kwargs: Any
) -> None:
    """``mlir.register_lowering``: how generated (jitted) code computes ``prim``.

    A rule from ``lower_fun(fun)`` makes jitted code call ``fun`` (and gives ``prim`` an
    eager impl if it has none). Any other rule builds MLIR, which jaxlite cannot run: it
    is recorded, and jitted code uses the primitive's impl rule instead.
    """
    if platform not in (None, "cpu"):
        return  # a GPU/TPU-only lowering never applies to jaxlite's CPU devices
    if not isinstance(rule, LoweredFunction):
        foreign_lowerings[prim] = rule
        return
    fun, multiple = rule.fun, rule.multiple_results

    def as_outputs(*args, **params):
        out = fun(*args, **params)
        if not multiple:
            out = [out]
        return list(out) if prim.multiple_results else out[0]

    impl = array_level_impl(prim, as_outputs)
    rules.lower_rules[prim] = functools.partial(codegen.lower_impl, impl)
    rules.impl_rules.setdefault(prim, impl)


# ----------------------------------------------------------------------- extend.core helpers


def mapped_aval(size: int, axis: int | None, aval: ShapedArray) -> ShapedArray:
    """The aval of one slice of ``aval`` along ``axis`` (``jax.extend.core.mapped_aval``)."""
    if axis is None:
        return aval
    shape = list(aval.shape)
    if shape[axis] != size:
        raise ValueError(f"mapped axis of size {shape[axis]} does not match {size}")
    del shape[axis]
    return aval.update(shape=tuple(shape))


def unmapped_aval(size: int, axis: int | None, aval: ShapedArray, *_: Any) -> ShapedArray:
    """``aval`` with a dimension of ``size`` inserted at ``axis``."""
    if axis is None:
        return aval
    shape = list(aval.shape)
    shape.insert(axis, size)
    return aval.update(shape=tuple(shape))


def find_top_trace(xs) -> core_trace.Trace:
    """The innermost trace among the tracers in ``xs`` (the current trace if none)."""
    top = None
    depth = -1
    for x in xs:
        if isinstance(x, Tracer):
            d = _trace_depth(x._trace)
            if d > depth:
                top, depth = x._trace, d
    return top if top is not None else core_trace.current_trace()


def _trace_depth(t) -> int:
    d = 0
    while t.parent_trace is not None:
        t = t.parent_trace
        d += 1
    return d


def get_opaque_trace_state(convention: str | None = None):
    """An opaque, hashable token of the current trace (``jax.extend.core``)."""
    del convention
    return core_trace.current_trace()


def trace_state_clean() -> bool:
    """True outside every transformation: the current trace is the eager one
    (``jax._src.core.trace_state_clean``; numpyro checks it before caching closures)."""
    return core_trace.current_trace() is core_trace.eval_trace


def jaxprs_in_params(params: dict) -> list[Jaxpr]:
    """The jaxprs appearing in an equation's params (closed ones unwrapped)."""
    out = []
    for v in params.values():
        for x in v if isinstance(v, (tuple, list)) else (v,):
            if isinstance(x, ClosedJaxpr):
                out.append(x.jaxpr)
            elif isinstance(x, Jaxpr):
                out.append(x)
    return out


def subjaxprs(jaxpr: Jaxpr):
    """Yield each jaxpr nested in ``jaxpr``'s equations' params, recursively."""
    for eqn in jaxpr.eqns:
        for sub in jaxprs_in_params(eqn.params):
            yield sub
            yield from subjaxprs(sub)


def jaxpr_as_fun(closed: ClosedJaxpr, *args):
    """A callable evaluating ``closed`` (``jax.extend.core.jaxpr_as_fun``)."""
    if args:
        return eval_jaxpr(closed.jaxpr, closed.consts, *args)
    return functools.partial(jaxpr_as_fun, closed)


def new_jaxpr_eqn(invars, outvars, primitive, params, effects, source_info=None, ctx=None):
    del source_info, ctx
    return JaxprEqn(primitive, invars, outvars, params, effects)


def concrete_or_error(force: Callable | None, val: Any, context: str = ""):
    """``force(val)`` if ``val`` is concrete, else a ConcretizationTypeError."""
    v = core_trace.concrete_or_error(val, context)
    return v if force is None else force(v)


def valid_jaxtype(x) -> bool:
    try:
        aval_of(x)
    except TypeError:
        return False
    return True


def primal_dtype_to_tangent_dtype(dtype) -> np.dtype:
    return ShapedArray((), dtype).to_tangent_aval().dtype


def gensym(suffix: str = "") -> Callable[[ShapedArray], Var]:
    del suffix
    return Var


class DropVar(Var):
    """An equation output nothing reads."""

    __slots__ = ()


array_types: set = {np.ndarray, np.bool_, *(np.dtype(c).type for c in "bBhHiIlLqQefdgFDG")}


def eval_context():
    """Evaluate eagerly inside (``jax.core.eval_context``)."""
    return core_trace.set_current_trace(core_trace.eval_trace)


class _CompileTimeEvalTrace(core_trace.EvalTrace):
    """Evaluates primitives on concrete values; one with a traced operand is handed to
    that operand's (innermost) trace, so it is staged as usual (JAX's behaviour)."""

    __slots__ = ()

    def process_primitive(self, primitive, args, params):
        tracers = [a for a in args if isinstance(a, Tracer)]
        if tracers:
            trace = find_top_trace(tracers)
            with core_trace.set_current_trace(trace):
                return primitive.bind_with_trace(trace, args, params)
        return super().process_primitive(primitive, args, params)


_compile_time_eval_trace = _CompileTimeEvalTrace()


def ensure_compile_time_eval():
    """Inside, operations on concrete values run now, even while ``jit`` traces
    (``jax.ensure_compile_time_eval``); operations on traced values are staged as usual.
    A jitted function called in the block is traced so too (JAX's ``eager_constant_folding``
    flag, on inside the block, is part of jit's cache key).

    Example::

        @jax.jit
        def f(x):
            with jax.ensure_compile_time_eval():
                table = jnp.sin(jnp.arange(4.0))  # a concrete constant, not staged
            return x + table
    """
    return _compile_time_eval()


@contextlib.contextmanager
def _compile_time_eval():
    # The trace evaluates operations on concrete values here; the flag makes the traces
    # started inside (a jitted function called in the block, a loop body) do the same.
    with _cfg.config._override("eager_constant_folding", True):
        with core_trace.set_current_trace(_compile_time_eval_trace):
            yield


__all__ = [
    "AxisData",
    "ClosedJaxpr",
    "Jaxpr",
    "JaxprEqn",
    "Literal",
    "Var",
]


# ------------------------------------------------------------------ partial_eval helpers


class PartialVal(tuple):
    """``(aval, None)`` for an unknown value, ``(None, const)`` for a known one."""

    @classmethod
    def known(cls, const) -> PartialVal:
        return cls((None, const))

    @classmethod
    def unknown(cls, aval) -> PartialVal:
        return cls((aval, None))

    def is_known(self) -> bool:
        return self[0] is None

    def get_known(self):
        return self[1] if self[0] is None else None

    def get_aval(self):
        return aval_of(self[1]) if self[0] is None else self[0]


def trace_to_jaxpr_nounits(fun, pvals, instantiate: bool | Sequence[bool] = False):
    """Partially evaluate ``fun`` (a linear_util WrappedFun on flat arguments).

    Known inputs are computed with now; the rest is staged. Returns ``(jaxpr, out_pvals,
    residuals)``: ``jaxpr``'s constvars take ``residuals`` and its invars the unknown inputs.
    """
    unknowns = [not pv.is_known() for pv in pvals]
    args = [pv[0] if u else pv[1] for pv, u in zip(pvals, unknowns)]
    known_outs, out_unknowns, closed, residuals = trace_partial(
        fun.call_wrapped, args, unknowns, instantiate
    )
    j = closed.jaxpr
    n_res = len(residuals)
    jaxpr = Jaxpr(j.invars[:n_res], j.invars[n_res:], j.outvars, j.eqns, j.effects)
    unknown_avals = iter(j.out_avals)
    out_pvals = [
        PartialVal.unknown(next(unknown_avals)) if u else PartialVal.known(k)
        for k, u in zip(known_outs, out_unknowns)
    ]
    return jaxpr, out_pvals, residuals


# ------------------------------------------------------------------------ interpreters.xla

# type -> (value -> value): libraries register array-like types here and copy entries from
# it (tensorflow_probability does). jaxlite itself converts array-likes with ``np.asarray``
# and abstracts unknown types through ``core.avals.pytype_aval_mappings``.
canonicalize_dtype_handlers: dict = {np.ndarray: np.asarray, np.generic: np.asarray}


class _InlinedCallPrimitive(Primitive):
    """JAX's final-style call primitives (``call_p``, ``closed_call_p``), inlined.

    jaxlite stages nested calls as ``jit_p`` equations and never emits these; libraries
    import them to key jaxpr-walking rules on them (numpyro's provenance tracking) and
    occasionally bind them with a ``linear_util.WrappedFun``: ``p.bind(*args,
    subfuns=(fun,))`` (JAX 0.9.2 and later; the older ``p.bind(fun, *args)`` is refused
    with ``TypeError``, as in JAX 0.10.2). A call without a
    transformation means running ``fun``, so binding calls it in the current trace: the
    values are JAX's, but a traced program shows ``fun``'s equations in place of one
    call equation (docs/compat.md)."""

    call_primitive = True

    def bind(self, *args, subfuns=(), **params):
        del params  # call_jaxpr-style parameters have no meaning for an inlined call
        for i, a in enumerate(args):
            if callable(a) and not hasattr(a, "shape"):
                raise TypeError(
                    f"Error interpreting argument to {self.name} as a JAX value. The "
                    f"problematic value is of type {type(a)} and was passed to "
                    f"{self.name} at position {i}."
                )
        if not subfuns:
            raise TypeError(f"{self.name}_p.bind needs the function to call: subfuns=(f,)")
        (fun,) = subfuns
        call = getattr(fun, "call_wrapped", fun)
        return list(call(*args))

    def bind_with_trace(self, trace, args, params):
        with core_trace.set_current_trace(trace):
            return self.bind(*args, **params)


call_p = _InlinedCallPrimitive("call", multiple_results=True)
closed_call_p = _InlinedCallPrimitive("closed_call", multiple_results=True)


def deflinear_jax(primitive: Primitive, transpose_rule: Callable) -> None:
    """``jax.interpreters.ad.deflinear``: ``primitive`` is linear in its operands, and
    ``transpose_rule(cotangent, **params)`` (JAX's convention: no operands) returns their
    cotangents. A symbolic-zero cotangent gives zero cotangents without calling it."""
    from jaxlite._src.core.rule_types import Zero, is_undefined_primal
    from jaxlite._src.ops._factories import deflinear

    def transpose(ct, *args, **params):
        if type(ct) is Zero:
            return [Zero(x.aval) if is_undefined_primal(x) else None for x in args]
        return transpose_rule(ct, **params)

    deflinear(primitive, transpose)
