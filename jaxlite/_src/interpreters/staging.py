"""Staging: trace a Python function to a ``ClosedJaxpr`` (``make_jaxpr``, jit).

``StagingTrace.process_primitive`` does not compute anything: it records an equation whose
output avals come from the primitive's abstract-eval rule and whose effects come from its
effects rule. Values that are not this trace's tracers become constants: scalars are
written inline as ``Literal``s, arrays become constvars of the resulting closed jaxpr
(tracers of enclosing transformations included, which is how closures are captured).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes, tree_util
from jaxlite._src.api_plumbing import (
    canonicalize_argnums,
    flatten_fun,
    merge_static_args,
    split_static_args,
)
from jaxlite._src.core import refs, rules, sharding_hooks
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.core.refs import AbstractRef, Ref
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.core.trace import (
    Trace,
    Tracer,
    check_valid_tracer,
    escaped_tracer_error,
    eval_trace,
    set_current_trace,
    trace_ctx,
)
from jaxlite._src.ops import spmd
from jaxlite._src.util import function_where

# While a staged custom_jvp/custom_vjp call's rule runs (``dead_tracers_as_consts``), a
# tracer of a finished transformation that the rule closes over becomes a constant like any
# other outer value instead of raising at once: JAX traces such a rule to a jaxpr lazily, so
# the tracer only fails (a TypeError) if it survives dead-code elimination and is used.
_dead_tracers_as_consts = [0]


class dead_tracers_as_consts:
    """Context manager: stage tracers of finished transformations as constants (above)."""

    def __enter__(self):
        _dead_tracers_as_consts[0] += 1

    def __exit__(self, *exc):
        _dead_tracers_as_consts[0] -= 1


class StagingTracer(Tracer):
    # ``_var``, not ``var``: ``x.var()`` is the Array method (jnp.var).
    __slots__ = ("_aval", "_var")

    def __init__(self, trace: StagingTrace, aval: ShapedArray, var: Var):
        self._trace = trace
        self._aval = aval
        self._var = var

    @property
    def aval(self):
        return self._aval

    def _jax_class_name(self) -> str:
        return "DynamicJaxprTracer"

    def __repr__(self):
        # JAX's name for a value being staged out (jit, scan bodies, eval_shape...)
        return f"JitTracer({'~' if self._aval.weak_type else ''}{self._aval.str_short()})"


class StagingTrace(Trace):
    """Records primitives into a jaxpr under construction."""

    __slots__ = (
        "eqns",
        "invars",
        "constvar_of",
        "const_vals",
        "const_vars",
        "effects",
        "shardings",
    )
    kind = "staging"

    def __init__(self, parent_trace: Trace | None = None):
        super().__init__(parent_trace if parent_trace is not None else trace_ctx.trace)
        self.eqns: list[JaxprEqn] = []
        self.invars: list[Var] = []
        self.constvar_of: dict[int, Var] = {}
        self.const_vals: list = []
        self.const_vars: list[Var] = []
        # id(Var) -> Sharding of values on Explicit meshes (sharding/explicit.py).
        self.shardings: dict = {}

    def new_arg(self, aval: ShapedArray) -> StagingTracer:
        v = Var(aval)
        self.invars.append(v)
        return StagingTracer(self, aval, v)

    def to_atom(self, x: Any):
        """The jaxpr atom (Var or Literal) standing for ``x`` in this trace."""
        if isinstance(x, StagingTracer) and x._trace is self:
            return x._var
        if isinstance(x, Tracer):
            if not _dead_tracers_as_consts[0]:
                check_valid_tracer(x)
            if x._trace._valid and x._trace._serial > self._serial:
                # A live tracer of a transformation nested inside this one (grad inside
                # jit) reached it unprocessed: a rule ran user code closing over it (a
                # custom_vjp fwd over a differentiated closure). As a constant it would
                # lose its derivative; JAX raises UnexpectedTracerError.
                raise escaped_tracer_error(x)
            return self._constvar(x)
        aval = aval_of(x)
        if aval.shape == ():
            val = x._value if type(x) is ArrayImpl else np.asarray(x, aval.dtype)
            return Literal(val, aval)
        return self._constvar(x)

    def new_const(self, x) -> StagingTracer:
        """A tracer of this trace for the constant ``x`` (``core.trace.staged_constant``):
        a literal for a scalar, a constvar for an array."""
        return StagingTracer(self, aval_of(x), self.to_atom(x))

    def _constvar(self, x):
        key = id(x)
        v = self.constvar_of.get(key)
        if v is None:
            v = Var(aval_of(x))
            self.constvar_of[key] = v
            self.const_vars.append(v)
            self.const_vals.append(x)
        return v

    def process_primitive(self, primitive, args, params):
        if _cfg.eager_constant_folding_enabled() and not any(isinstance(a, Tracer) for a in args):
            # Inside ``jax.ensure_compile_time_eval``, even while a jitted function or a
            # loop body is traced there, operations on concrete values run now (as JAX's
            # ``eager_constant_folding``; the flag is in jit's cache key).
            with set_current_trace(eval_trace):
                return eval_trace.process_primitive(primitive, args, params)
        atoms = [self.to_atom(a) for a in args]
        avals_in = [a.aval for a in atoms]
        try:
            rule = rules.abstract_eval_rules[primitive]
        except KeyError:
            raise rules.missing_rule("abstract_eval", primitive) from None
        vma_rule = None
        for a in avals_in:
            if a.vma:  # inside a shard_map body with check_vma: types carry varying axes
                vma_rule = rules.vma_rules.get(primitive, _standard_vma)
                if vma_rule is _standard_vma:
                    atoms, avals_in = self._insert_pvary(args, atoms, avals_in)
                break
        avals_out = rule(*avals_in, **params)
        if vma_rule is not None:
            avals_out = vma_rule(avals_in, avals_out, **params)
        eff_rule = rules.effects_rules.get(primitive)
        effects = eff_rule(*avals_in, **params) if eff_rule else ()
        if primitive.multiple_results:
            outvars = [Var(a) for a in avals_out]
            self.eqns.append(JaxprEqn(primitive, atoms, outvars, params, effects))
            if self.shardings or primitive in sharding_hooks.sharding_primitives:
                sharding_hooks.staging_outputs(
                    self, primitive, args, avals_in, avals_out, params, outvars
                )
            return [StagingTracer(self, a, v) for a, v in zip(avals_out, outvars)]
        v = Var(avals_out)
        self.eqns.append(JaxprEqn(primitive, atoms, [v], params, effects))
        if self.shardings or primitive in sharding_hooks.sharding_primitives:
            sharding_hooks.staging_outputs(self, primitive, args, avals_in, avals_out, params, [v])
        return StagingTracer(self, avals_out, v)

    def _insert_pvary(self, args, atoms, avals_in):
        """Operands of a standard primitive that vary along fewer manual axes than the
        others get an implicit ``pvary`` (whose transpose is a psum), as in JAX."""
        union = frozenset().union(*(a.vma for a in avals_in))
        new_atoms, new_avals = [], []
        for x, atom, aval in zip(args, atoms, avals_in):
            missing = union - aval.vma
            if missing:
                with set_current_trace(self):
                    t = rules.vma_pvary[0](x, missing)
                atom, aval = self.to_atom(t), t.aval
            new_atoms.append(atom)
            new_avals.append(aval)
        return new_atoms, new_avals

    def to_closed_jaxpr(self, outs: Sequence[Any]) -> ClosedJaxpr:
        outvars = [self.to_atom(o) for o in outs]
        # Literal outputs are fine in a jaxpr's outvars.
        jaxpr = Jaxpr(self.const_vars, self.invars, outvars, self.eqns)
        return ClosedJaxpr(jaxpr, self.const_vals)


def _standard_vma(avals_in, avals_out, **params):
    """Outputs of a standard primitive vary along the union of its operands' axes."""
    union = frozenset().union(*(a.vma for a in avals_in))
    if isinstance(avals_out, (list, tuple)):
        return [a.update(vma=union) for a in avals_out]
    return avals_out.update(vma=union)


def trace_to_jaxpr(
    fun: Callable, in_avals: Sequence[ShapedArray], in_shardings: Sequence[Any] | None = None
) -> tuple[ClosedJaxpr, Any]:
    """Trace ``fun`` (a function of flat arguments returning a flat list) to a jaxpr.

    ``in_shardings``: the arguments' shardings on Explicit meshes (None entries: none),
    recorded so that sharding rules apply while tracing (sharding/explicit.py).
    Returns the closed jaxpr (consts hold any captured arrays and outer tracers).
    """
    trace = StagingTrace()
    args = [trace.new_arg(a) for a in in_avals]
    if in_shardings is not None:
        for t, s in zip(args, in_shardings):
            if s is not None:
                trace.shardings[id(t._var)] = s
    try:
        with set_current_trace(trace):
            outs = fun(*args)
        closed = trace.to_closed_jaxpr(outs)
    finally:
        trace.invalidate()
    return closed, outs


def trace_flat(
    fun: Callable,
    in_tree,
    in_avals: Sequence[ShapedArray],
    *,
    check_outs=None,
    in_shardings=None,
    source=None,
):
    """Trace a pytree function: returns (closed_jaxpr, out_tree). ``source``: ``(the user's
    function, the transformation's name)``, to name them in the error for an output that is
    not an array (as JAX does)."""

    store: dict = {}
    flat_fun, store = flatten_fun(
        fun,
        in_tree,
        kwargs=True,
        out_leaves=_out_leaves_check(check_outs, source, store),
        store=store,
    )
    closed, _ = trace_to_jaxpr(flat_fun, in_avals, in_shardings)
    return closed, store["tree"]


def _output_component(store: dict, i: int) -> str:
    """`` at output component ['a'][1]``: where the ``i``-th output leaf sits in the output
    tree (``flatten_fun`` records the tree before checking the leaves), as JAX names it;
    empty for an output that is the leaf itself."""
    tree = store.get("tree")
    if tree is None:
        return ""
    paths = tree_util.tree_flatten_with_path(tree_util.tree_unflatten(tree, [0] * tree.num_leaves))
    path = paths[0][i][0]
    return f" at output component {tree_util.keystr(path)}" if path else ""


def _out_leaves_check(check_outs, source, store):
    def out_leaves(out_flat):
        if check_outs is not None:
            check_outs(out_flat)
        for i, o in enumerate(out_flat):
            if isinstance(o, Ref):
                fun, what = source if source is not None else (None, "jit")
                raise refs.returned_ref_error(o, fun, what)
            if source is None:
                check_output_leaf(o)
            elif not _valid_output(o):
                raise TypeError(
                    f"{traced_for(*source)} returned a value of type {type(o)}"
                    f"{_output_component(store, i)}, which is not a valid JAX type"
                )
        return out_flat

    return out_leaves


class RefPlan:
    """How a function traced by ``trace_flat_refs`` threads refs: the positions of its
    flat arguments that are refs (``arg_pos``), the refs it closes over (``closure``) and
    its own number of outputs (``n_out``). Its jaxpr takes ``(*flat_args, *closure
    values)``, a ref argument standing for the ref's value, and returns ``(*outs, *final
    values of the ref arguments, *final values of the closure refs)``; ``written`` says
    which of those refs the function writes (only those are written back).
    ``cond_effects``: its jaxpr has a ``cond`` whose branches touch refs made outside them
    (``refs.refuse_cond_effects`` at each call); ``recomputed_writes``: a checkpoint in it
    writes refs that reverse mode would recompute (``refs.bind_recomputing``)."""

    __slots__ = ("arg_pos", "closure", "n_out", "written", "cond_effects", "recomputed_writes")

    def __init__(self, arg_pos, closure, n_out, written, cond_effects=False, recomputed=False):
        self.arg_pos = arg_pos
        self.closure = closure
        self.n_out = n_out
        self.written = written
        self.cond_effects = cond_effects
        self.recomputed_writes = recomputed


def trace_flat_refs(
    fun: Callable, in_tree, in_avals, *, in_shardings=None, source=None, construct=None
):
    """``trace_flat`` for functions that may take or close over refs (``jit``,
    ``make_jaxpr``): ``AbstractRef`` entries of ``in_avals`` are ref arguments, and refs
    made outside that the function touches are found by a first trace (core/refs.py).

    Returns ``(closed, out_tree, plan)``; ``plan`` is None when no ref is involved (then
    ``closed`` is exactly ``trace_flat``'s), else a ``RefPlan``. ``construct``: the
    threading construct's kind (``refs.Collector.kind``; ``"checkpoint"``).
    """
    arg_pos = tuple(i for i, a in enumerate(in_avals) if type(a) is AbstractRef)

    def run(closure):
        if not arg_pos and not closure:
            closed, tree = trace_flat(
                fun, in_tree, in_avals, in_shardings=in_shardings, source=source
            )
            refs.before_bind()
            return closed, tree, None
        store: dict = {}
        flat_fun, store = flatten_fun(
            fun,
            in_tree,
            kwargs=True,
            out_leaves=_out_leaves_check(None, source, store),
            store=store,
        )
        n = len(in_avals)

        def traced(*flat_in):
            flat = list(flat_in[:n])
            boxes = []
            for i in arg_pos:
                box = Ref._make(flat[i], in_avals[i])
                boxes.append(box)
                flat[i] = box
            saved = refs.install(closure, flat_in[n:])
            try:
                outs = flat_fun(*flat)
            finally:
                finals = refs.restore(closure, saved)
            store["n_out"] = len(outs)
            finals = [*(b._value for b in boxes), *finals]
            installed = [*(flat_in[i] for i in arg_pos), *flat_in[n:]]
            store["written"] = tuple(f is not v for f, v in zip(finals, installed))
            return [*outs, *finals]

        avals = [a.inner_aval if type(a) is AbstractRef else a for a in in_avals]
        avals += [r._aval.inner_aval for r in closure]
        shardings = None
        if in_shardings is not None:
            shardings = [None if i in arg_pos else s for i, s in enumerate(in_shardings)]
            shardings += [None] * len(closure)
        closed, _ = trace_to_jaxpr(traced, avals, shardings)
        refs.before_bind()
        col = refs.enclosing_constructs()[-1]
        plan = RefPlan(
            arg_pos,
            tuple(closure),
            store["n_out"],
            store["written"],
            col.cond_effects,
            col.recomputed_writes,
        )
        return closed, store["tree"], plan

    return refs.threading_construct(run, construct)


def traced_for(fun: Callable, what: str) -> str:
    """``function f at file.py:3 traced for jit``: how JAX names a traced function."""
    return f"function {function_where(fun)} traced for {what}"


def _valid_output(x: Any) -> bool:
    return (
        isinstance(x, (Array, np.ndarray, np.generic))
        or type(x) in (bool, int, float, complex)
        or dtypes.python_scalar_base(type(x)) is not None
    )


def check_output_leaf(x: Any, what: str = "function") -> None:
    if _valid_output(x):
        return
    raise TypeError(
        f"The {what} returned a value of type {type(x)}: {x!r}, which is not a valid JAX "
        "type. Outputs must be pytrees of arrays or numbers."
    )


def make_jaxpr(fun: Callable, static_argnums=(), axis_env=None, return_shape: bool = False):
    """``jax.make_jaxpr``: a function returning the ``ClosedJaxpr`` of ``fun`` on given args.

    ``axis_env``: ``[(axis_name, size), ...]``, named axes bound while tracing, so that
    collectives over them (``lax.psum(x, 'i')``, ``axis_index``) can be staged.
    """
    if not callable(fun):
        raise TypeError("the first argument must be callable")
    static_argnums = canonicalize_argnums(static_argnums)
    axes = dict(axis_env) if axis_env else None

    def wrapped(*args, **kwargs):
        static, dyn = split_static_args(args, static_argnums)

        def f(*dyn_args, **kw):
            return fun(*merge_static_args(static, dyn_args, len(args)), **kw)

        flat, in_tree = tree_util.tree_flatten((tuple(dyn), kwargs))
        # As in JAX, a ShapeDtypeStruct argument stands for an array of that shape.
        try:
            in_avals = [abstract_arg_aval(x) for x in flat]
        except TypeError:
            err = argument_type_error(
                fun,
                tuple(None if i in static else a for i, a in enumerate(args)),
                kwargs,
                structs_ok=True,
            )
            if err is None:
                raise
            raise err from None
        # Refs (arguments, or made outside and touched) show as extra inputs and outputs.
        if axes is None:
            closed, out_tree, _ = trace_flat_refs(f, in_tree, in_avals, source=(fun, "jit"))
        else:
            with spmd.binding_axes(axes):
                closed, out_tree, _ = trace_flat_refs(f, in_tree, in_avals, source=(fun, "jit"))
        if return_shape:
            shapes = [
                ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in closed.out_avals
            ]
            return closed, tree_util.tree_unflatten(out_tree, shapes)
        return closed

    return wrapped


def argument_type_error(
    fun: Callable, args: tuple, kwargs: dict, structs_ok: bool = False
) -> TypeError | None:
    """JAX's error for a ``jit`` / ``make_jaxpr`` / ``eval_shape`` argument that is not an
    array (a string, an object...), naming it by its path in the call (``x['a'][1]``, the
    parameter name first); None if every leaf is an array or number."""
    import inspect

    try:
        named = list(inspect.signature(fun).bind(*args, **kwargs).arguments.items())
    except (TypeError, ValueError):
        named = [(f"args[{i}]", a) for i, a in enumerate(args)] + list(kwargs.items())
    for name, value in named:
        for path, leaf in tree_util.tree_flatten_with_path(value)[0]:
            if isinstance(leaf, ShapeDtypeStruct) or type(leaf) is ShapedArray:
                if structs_ok:
                    continue
                return TypeError(
                    f"Argument '{name}{tree_util.keystr(path)}' of shape "
                    f"{ShapedArray(leaf.shape, leaf.dtype).str_short()} of type "
                    f"{type(leaf)} is not a valid JAX type."
                )
            try:
                aval_of(leaf)
            except TypeError:
                return TypeError(
                    f"Error interpreting argument to {fun!r} as an abstract array. The "
                    f"problematic value is of type {type(leaf)} and was passed to the function "
                    f"at path {name}{tree_util.keystr(path)}.\n"
                    "Arguments to transformed functions must be arrays, numbers or pytrees of "
                    "them; mark other arguments static (static_argnums) or close over them."
                )
    return None


def abstract_arg_aval(x: Any) -> ShapedArray:
    """The aval an argument of the APIs that trace without values (``make_jaxpr``,
    ``jit(f).trace/lower``, ``linear_transpose``) is traced with: as in JAX, a
    ``ShapeDtypeStruct`` or a ``ShapedArray`` stands for an array of its shape and dtype
    (equinox transposes at ``jax.core.ShapedArray``s); anything else by its value."""
    if isinstance(x, ShapeDtypeStruct):
        return ShapedArray(x.shape, dtypes.canonicalize_dtype(x.dtype), x.weak_type)
    if type(x) is ShapedArray:
        return x
    return abstractify(x)


def abstractify(x: Any) -> ShapedArray:
    """The aval a jit/make_jaxpr argument is traced with; clear error for non-arrays."""
    try:
        return aval_of(x)
    except TypeError:
        raise TypeError(
            f"Argument '{x}' of type {type(x)} is not a valid JAX type\nArguments to "
            "transformed functions must be arrays, numbers or pytrees of them; mark other "
            "arguments static (static_argnums) or close over them."
        ) from None
