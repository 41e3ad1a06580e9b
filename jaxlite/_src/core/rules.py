"""THE registry: one table per transformation, keyed by primitive.

Interpreters only read these tables; primitives register into them next to their definition
(one block per primitive in ``ops/`` or in a higher-order module).

Rule signatures:

* ``impl_rules[p](*np_arrays, **params)`` -> NumPy array (or list if ``p.multiple_results``).
  The one NumPy callable used by eager evaluation and, unless ``lower_rules`` overrides it,
  by generated code.
* ``abstract_eval_rules[p](*avals_in, **params)`` -> aval (or list of avals).
* ``effects_rules[p](*avals_in, **params)`` -> set of effects (default: none).
* ``jvp_rules[p](primals, tangents, **params)`` -> (primals_out, tangents_out); tangents may
  be ``Zero``.
* ``transpose_rules[p](cts, *args, **params)`` -> cotangent per argument (``None`` for
  arguments that are not ``UndefinedPrimal``); ``cts`` is one value (or a list if
  ``p.multiple_results``).
* ``batch_rules[p](axis_data, args, dims, **params)`` -> (outs, out_dims).
* ``partial_eval_rules[p](trace, tracers, **params)`` -> output tracers (override of the
  default "all known -> evaluate, else stage" rule).
* ``partial_eval_known_rules[p](parent_trace, args, **params)`` -> outputs: under partial
  evaluation, an equation none of whose operands is unknown (default: bound on the parent
  trace). ``custom_lin``'s: its tangent operands do not depend on the linear inputs, so
  the linear map's outputs are zeros (evaluating it would be forward mode of a custom_vjp).
* ``vma_rules[p](avals_in, avals_out, **params)`` -> avals_out with their varying manual
  axes (``ShapedArray.vma``, inside ``shard_map`` bodies with ``check_vma``). Primitives
  without an entry are *standard*: operands with different vmas first get an implicit
  ``pvary`` to their union (``vma_pvary`` below) and every output varies along the union.
  Collectives and higher-order primitives (whose abstract eval takes the vma of their
  bodies) have entries, and get no implicit pvary.
* ``dce_rules[p](used_outputs, eqn)`` -> (used_inputs, new_eqn or None).
* ``lower_rules[p](ctx, eqn, in_names, out_names)`` -> lines of Python source.
* ``native_rules[p](ctx, eqn, in_names, out_names)`` -> lines of Numba-compilable Python
  (the native tier, ``compile/native.py``), or None when these params are outside the
  native subset. Values of shape ``()`` are Numba scalars, others arrays; ``ctx.typed``
  re-casts a scalar expression to its aval's dtype, ``ctx.const`` passes a value in as a
  kernel argument, ``ctx.emit`` inlines a sub-jaxpr.
* ``native_loops``: primitives whose equations are native regions of their own (loops).
* ``native_elementwise``: primitives whose native rule is elementwise, so the native tier
  may apply it to each element of a small array held as scalar locals (scalarization).
* ``native_scalar_rules[p](ctx, eqn, operands)`` -> (lines, element names per output), or
  None: ``p`` on small arrays held as scalar locals; each operand gives ``aval``,
  ``elem(k)`` (flat C-order element ``k``), ``elems()``, ``array()`` and ``scalarized``.
* ``native_inline[p]`` -> the name of the param holding the ``ClosedJaxpr`` that an
  equation of ``p`` calls (``jit``, ``custom_jvp_call``, ``custom_vjp_call``,
  ``checkpoint``): the native tier inlines it (``compile/native_physical.py``), so a loop
  calling jitted or custom-derivative functions can compile.
* ``native_key_views``: primitives whose result holds exactly its operand's words
  (``random_wrap``, ``random_unwrap``): the native tier, which carries typed keys as their
  words, drops them.
* ``inline_rules``: primitives the simplifier may inline (jit_p).
* ``simplify_rules[p](eqn, producer, const)`` -> a replacement equation, an operand the
  result equals (a ``Var``: ``x + 0``), an object with ``eqn`` and ``consts`` (new
  ``(Var, value)`` constants the equation reads), or None: rewrites
  of compiled code only (after tracing and AD, before codegen and the native tier), where
  ``producer(var)`` is the equation computing ``var`` in the same jaxpr (or None) and
  ``const(var)`` the value of a constvar (or None). Used
  for XLA's ``a / broadcast(b)`` -> ``a * broadcast(1 / b)`` (``ops/division.py``) and
  its merged constants of add/mul chains (``ops/const_chains.py``).
* ``sharding_rules[p](mesh, specs, avals_in, avals_out, **params)`` -> the result's spec
  (a list of specs if ``p.multiple_results``) over the Explicit axes of ``mesh`` (an
  ``AbstractMesh``). A spec is a tuple with one entry per dimension: ``None`` or a tuple of
  mesh axis names (first name major); ``specs`` has one per operand (all ``None`` for an
  unplaced operand). Raises ``ShardingTypeError`` when the operands' shardings cannot be
  combined. Used only for operands on a mesh with Explicit axes (``sharding/explicit.py``);
  helpers and the elementwise rule are in ``core/sharding_types.py``.
* ``custom_call_rules[p][kind](trace, tracers, **params)`` -> output tracers: how a trace of
  a given ``Trace.kind`` ("eval", "jvp", "batch", "partial_eval", "staging") processes a
  primitive whose params are Python callables that must not be traced yet
  (``custom_jvp_call``, ``custom_vjp_call``: the user's rule runs only under JVP). The
  interpreters stay generic: ``Trace.process_custom_call`` looks the rule up here.
"""

from __future__ import annotations

from collections.abc import Callable

from jaxlite._src.config import config as _config

impl_rules: dict = {}
abstract_eval_rules: dict = {}
effects_rules: dict = {}
jvp_rules: dict = {}
transpose_rules: dict = {}
batch_rules: dict = {}
partial_eval_rules: dict = {}
partial_eval_known_rules: dict = {}
dce_rules: dict = {}
vma_rules: dict = {}
lower_rules: dict = {}
native_rules: dict = {}
native_loops: set = set()
native_elementwise: set = set()
native_scalar_rules: dict = {}
native_inline: dict = {}
native_key_views: set = set()
custom_call_rules: dict = {}
simplify_rules: dict = {}
sharding_rules: dict = {}

# How an operand is cast to vary along more manual axes: ``vma_pvary[0](x, axes)`` binds
# ``pvary`` (set by ``ops/parallel.py``, where the primitive lives).
vma_pvary: list = [None]

# Primitives with no derivative on purpose (comparisons, integer ops...): their outputs get
# zero tangents and they need no transpose rule.
non_differentiable: set = set()
# Primitives allowed to lack a batching rule, batched by the loop-and-stack fallback.
loop_batched: set = set()
# Primitives whose NumPy kernels may raise floating-point warnings (divide by zero, overflow,
# invalid) where JAX is silent: eager evaluation and generated code run them under
# ``np.errstate(all="ignore")``.
quiet_fp: set = set()
# Primitives whose impl always returns newly allocated arrays (never a view of an input;
# every result, for multiple-result primitives): generated code may write later
# elementwise results into such a buffer once it is dead.
fresh_output: set = set()
# Primitives whose generated code calls user Python code (host callbacks): a generated
# function containing one makes the eval trace current before it runs (once per call, not
# once per callback), so jaxlite code inside a callback computes concrete values (K13).
runs_user_code: set = set()
# Call primitives whose debug effects ``checkpoint`` never replays in the backward pass: their
# outputs are saved instead (JAX rematerialises a debug callback inside a custom_jvp call
# once only, in the forward pass; one inside jit, cond, scan or custom_vjp twice).
remat_runs_once: set = set()
# How ``checkpoint``'s backward pass replays the debug callbacks inside a primitive with
# sub-jaxprs (JAX's per-primitive partial-eval rules): "branches" (cond, scan: each body is
# decided callback by callback with all its inputs available; all outputs available after),
# "call" (jit, checkpoint: the body is decided with the operands' availability, which flows
# through to the outputs), "whole" (while: the loop is replayed whole). A primitive absent
# here with effects is never replayed; its outputs are saved.
remat_replay_rules: dict = {}
# Primitives that read the shard_map device context (collectives, ``axis_index``): never
# evaluated ahead of time (constant folding would bake in the value of the device thread
# that compiled the code, e.g. an inner shard_map compiled on an outer device), and their
# output avals never cached by the eager trace (``trace.eval_abstract``: ``axis_index``'s
# vma is the running body's vma-checked manual axes, in neither its avals nor its params).
device_context: set = set()
# Eager input forwarding: ``forwarding_rules[p](params)`` gives, for each output of the
# primitive ``p`` (one for a single-result primitive such as ``stop_gradient``), the index
# of the operand its body returns unchanged (an output variable that is an input variable),
# or None. The eager trace returns that operand object itself, as JAX does for eager calls,
# loops and custom functions (``vmap(custom_jvp identity)(x) is x``; ``lax.cond`` prunes
# such outputs when tracing).
forwarding_rules: dict = {}
# Primitives whose transpose runs user code (custom_vjp's ``bwd``), so it is run even when
# every cotangent is a symbolic zero, wherever the equation is live in the linear jaxpr
# (its outputs reach the jaxpr's outputs): JAX calls ``bwd`` with zeros there, and a ``bwd``
# may return values that do not depend on the cotangents (flax's fp8 statistics do).
transpose_at_zero: set = set()

ALL_TABLES: dict[str, dict] = {
    "impl": impl_rules,
    "abstract_eval": abstract_eval_rules,
    "jvp": jvp_rules,
    "transpose": transpose_rules,
    "batch": batch_rules,
    "partial_eval": partial_eval_rules,
    "dce": dce_rules,
    "lower": lower_rules,
    "native": native_rules,
    "effects": effects_rules,
    "sharding": sharding_rules,
    "simplify": simplify_rules,
    "vma": vma_rules,
}


def keep_vma(avals_in, avals_out, **params):
    """The ``vma_rules`` entry of primitives whose abstract eval gives the varying manual
    axes itself (collectives, and higher-order primitives: their bodies' output types)."""
    return avals_out


def register(table: dict, prim) -> Callable:
    """Decorator: ``@register(jvp_rules, sin_p) def _sin_jvp(...)``."""

    def deco(f):
        table[prim] = f
        return f

    return deco


def missing_rule(kind: str, prim) -> NotImplementedError:
    what = {
        "jvp": "Differentiation rule",
        "transpose": "Transpose rule (for reverse-mode differentiation)",
        "batch": "Batching rule",
        "impl": "Evaluation rule",
        "abstract_eval": "Abstract evaluation rule",
        "lower": "Code generation rule",
    }.get(kind, f"{kind} rule")
    return NotImplementedError(f"{what} for '{prim}' not implemented")


def no_derivative(prim) -> None:
    """Register a JVP rule for ``prim`` that raises ``missing_rule``: the primitive has no
    derivative (as in JAX), even where every tangent would otherwise be taken as zero."""

    def jvp(primals, tangents, **params):
        raise missing_rule("jvp", prim)

    jvp_rules[prim] = jvp


def impl_for(eqn) -> Callable | None:
    """The NumPy callable that computes ``eqn`` in generated code: ``impl_rules[p]``, or the
    ufunc it wraps (its ``ufunc`` attribute) when no operand is complex. An impl that only adds
    complex kernels to a ufunc (``ops/complex_elementary.py``) thus stays a plain ufunc to
    code generation (``out=`` buffers) for real operands. The ``jaxlite_xla_math`` flag's
    impls (``ops/xla_math_flag``) give their ``flagged`` callable with the flag on, else
    their ufunc or ``plain`` callable: compiled code never reads the flag."""
    f = impl_rules.get(eqn.primitive)
    u = getattr(f, "ufunc", None)
    flagged = getattr(f, "xla_math", False)
    if (u is not None or flagged) and not any(
        getattr(v.aval.dtype, "kind", "") == "c" for v in eqn.invars
    ):
        if flagged and _config.read("jaxlite_xla_math"):
            return f.flagged  # XLA's functions (ops/xla_math_flag); the flag is in jit's key
        return u if u is not None else getattr(f, "plain", None) or f
    return f
