"""Host callbacks: ``pure_callback`` and ``io_callback`` (debug callbacks: ``debugging.py``).

Design:

* A callback call site becomes one equation of ``pure_callback_p`` (no effect: DCE removes
  it when its results are unused) or ``io_callback_p`` (``IOEffect`` / ``OrderedIOEffect``:
  never removed). Params: ``callback`` (a ``HostFn``, hashed by identity), ``result_avals``
  (declared, never weak) and ``vmap_method`` / ``ordered``.
* A ``HostFn`` is the flat host function: NumPy arrays in, a list of NumPy arrays out. It
  wraps the operands as read-only ``Array``s (no copies), rebuilds the call's
  ``(args, kwargs)`` pytree, calls the user function, then converts, canonicalises and
  validates the results (spec section B). Exceptions become ``CallbackError`` (C1-C3).
* Under ``vmap`` the sequential methods (and io/debug callbacks) do not unroll: the batching
  rule binds the same primitive with a ``MappedHostFn`` that loops over the batch inside the
  host function. Nested vmaps add loop levels; the innermost vmap's axis is the outermost
  loop (F7, F15), as in JAX.
* Codegen turns an equation into a direct Python call of a closure specialised for the
  equation's avals (``lower_callback``), or, for one operand and one result, into that
  closure's body written into the generated code (``HostFn.inline``): that is the whole
  per-call cost under ``jit``.
* Everything runs synchronously in program order, so ordered effects need no tokens and
  ``effects_barrier`` has nothing to wait for.
"""

from __future__ import annotations

import itertools
import logging
import sys
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes, tree_util
from jaxlite._src.callback_host import HostFn, MappedHostFn, _physical, check_results, map_host_fn
from jaxlite._src.core import effects as _effects, rules, sharding_hooks
from jaxlite._src.core.array import LOCAL_REFS, SOLE_REFS, ArrayImpl, freeze_chain
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.effects import Effect
from jaxlite._src.core.errors import CallbackError
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.refs import Ref
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.core.trace import eval_trace, set_current_trace, trace_ctx
from jaxlite._src.ops import shape as _shape

callback_logger = logging.getLogger("jax._src.callback")


# ------------------------------------------------------------------------------- effects
class IOEffect(Effect):
    """An unordered host side effect (``io_callback(ordered=False)``)."""


class OrderedIOEffect(Effect):
    """An ordered host side effect (``io_callback(ordered=True)``)."""


_effects.ordered_effects.add_type(OrderedIOEffect)
for _t in (IOEffect, OrderedIOEffect):
    _effects.control_flow_allowed_effects.add_type(_t)
    _effects.custom_derivatives_allowed_effects.add_type(_t)
# Deliberately NOT in remat_allowed_effects (saved, never recomputed) nor in
# batched_cond_allowed_effects (run per element under a batched predicate).

io_effect = IOEffect()
ordered_io_effect = OrderedIOEffect()


# ------------------------------------------------------------------------ front ends
_VMAP_METHODS = [
    "sequential",
    "sequential_unrolled",
    "expand_dims",
    "broadcast_all",
    "legacy_vectorized",
    None,
]


def _result_avals(result_shape_dtypes: Any) -> tuple[tuple, Any]:
    leaves, tree = tree_util.tree_flatten(result_shape_dtypes)
    avals = []
    for leaf in leaves:
        shape, dtype = leaf.shape, leaf.dtype  # AttributeError for non-specs (1.1 check 2)
        dtype = np.dtype(dtype)
        if not _cfg.x64() and dtypes.canonicalize_dtype(dtype) != dtype:
            raise ValueError(
                "result_shape_dtypes cannot specify 64-bit types when `jax_enable_x64` is disabled"
            )
        avals.append(ShapedArray(tuple(shape), dtype, False))
    return tuple(avals), tree


def _check_operands(flat: Sequence[Any], api: str) -> None:
    for i, x in enumerate(flat):
        if isinstance(x, Ref):  # JAX's words: a ref cannot be handed to the host
            raise NotImplementedError(f"No state discharge rule implemented for primitive: {api}")
        try:
            aval_of(x)
        except TypeError:
            raise TypeError(
                f"Error interpreting argument to {api} as a JAX value. The problematic value "
                f"is of type {type(x)} and was passed to {api} at position {i}."
            ) from None


def _check_callable(callback: Any, api: str) -> None:
    if not callable(callback):
        raise TypeError(
            f"first argument to {api} must be callable, but got an object of type {type(callback)}"
        )


def pure_callback(
    callback: Callable,
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    vmap_method: str | None = None,
    **kwargs: Any,
) -> Any:
    """Call a side-effect-free host function from (possibly transformed) code.

    Args:
        callback: a Python callable; it receives jaxlite Arrays in the structure of
            ``(args, kwargs)`` and returns array-likes matching ``result_shape_dtypes``.
        result_shape_dtypes: a pytree of objects with ``.shape`` and ``.dtype``
            (``ShapeDtypeStruct``...), or ``None`` for no outputs.
        *args, **kwargs: pytrees of arrays forwarded to ``callback``.
        sharding: the device that runs the callback in a global-view computation (a
            ``SingleDeviceSharding``); every device shares this host, so it changes no value.
        vmap_method: how ``vmap`` batches the call: "sequential", "sequential_unrolled",
            "expand_dims", "broadcast_all", "legacy_vectorized" or ``None`` (vmap raises).

    Returns:
        A pytree with the structure of ``result_shape_dtypes``.

    The call may be removed when its results are unused, or run more than once.
    Exceptions inside ``callback`` reach the caller as ``jaxlite.errors.CallbackError``.
    """
    pending = None
    if sharding is not None or sharding_hooks.check_callback is not None:
        pending = sharding_hooks.check_callback("pure_callback", sharding, (args, kwargs))
    if vmap_method not in _VMAP_METHODS:
        raise ValueError(
            f"vmap_method must be on of the allowed methods {_VMAP_METHODS}, but got: {vmap_method}"
        )
    _check_callable(callback, "pure_callback")
    result_avals, out_tree = _result_avals(result_shape_dtypes)
    flat, in_tree = tree_util.tree_flatten((args, kwargs))
    flat = _physical(flat)
    _check_operands(flat, "pure_callback")
    host = HostFn(callback, "pure_callback", in_tree, len(flat))
    host.pending = pending
    if sharding is not None and pending is None:
        host.device = next(iter(sharding.device_set))
    outs = pure_callback_p.bind(
        *flat, callback=host, result_avals=result_avals, vmap_method=vmap_method
    )
    return tree_util.tree_unflatten(out_tree, outs)


def io_callback(
    callback: Callable,
    result_shape_dtypes: Any,
    *args: Any,
    sharding: Any = None,
    ordered: bool = False,
    **kwargs: Any,
) -> Any:
    """Call a host function with side effects (``jax.experimental.io_callback``).

    Never removed by dead-code elimination. With ``ordered=True`` successive ordered calls
    run in program order (in jaxlite every callback runs synchronously in program order);
    an ordered call cannot be vmapped over a batched operand.
    Exceptions inside ``callback`` reach the caller as ``jaxlite.errors.CallbackError``.
    """
    pending = None
    if sharding is not None or sharding_hooks.check_callback is not None:
        pending = sharding_hooks.check_callback("io_callback", sharding, (args, kwargs))
    _check_callable(callback, "io_callback")
    result_avals, out_tree = _result_avals(result_shape_dtypes)
    flat, in_tree = tree_util.tree_flatten((args, kwargs))
    flat = _physical(flat)
    _check_operands(flat, "io_callback")
    host = HostFn(callback, "io_callback", in_tree, len(flat))
    host.pending = pending
    if sharding is not None and pending is None:
        host.device = next(iter(sharding.device_set))
    outs = io_callback_p.bind(
        *flat, callback=host, result_avals=result_avals, ordered=bool(ordered)
    )
    return tree_util.tree_unflatten(out_tree, outs)


# ----------------------------------------------------------------------- primitives
pure_callback_p = Primitive("pure_callback", multiple_results=True)
io_callback_p = Primitive("io_callback", multiple_results=True)


def _pure_impl(*vals, callback, result_avals, vmap_method):
    if not result_avals:
        return []  # D4: nothing could use it, so it never runs
    return callback.invoke(vals, result_avals, True)


def _io_impl(*vals, callback, result_avals, ordered):
    return callback.invoke(vals, result_avals, True)


def _abstract_eval(*avals, callback, result_avals, **_):
    return list(result_avals)


def _io_effects(*avals, callback, result_avals, ordered):
    return {ordered_io_effect if ordered else io_effect}


rules.runs_user_code.update({pure_callback_p, io_callback_p})
rules.impl_rules[pure_callback_p] = _pure_impl
rules.impl_rules[io_callback_p] = _io_impl
rules.abstract_eval_rules[pure_callback_p] = _abstract_eval
rules.abstract_eval_rules[io_callback_p] = _abstract_eval
# Callback results are typed invariant inside shard_map, as in JAX (whatever they hold).
rules.vma_rules[pure_callback_p] = rules.keep_vma
rules.vma_rules[io_callback_p] = rules.keep_vma
rules.effects_rules[io_callback_p] = _io_effects


def _pure_jvp(primals, tangents, **params):
    raise ValueError(
        "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use "
        "callbacks while taking gradients."
    )


def _io_jvp(primals, tangents, **params):
    raise ValueError("IO callbacks do not support JVP.")


def _pure_transpose(cts, *args, **params):
    raise ValueError(
        "Pure callbacks do not support transpose. Please use `jax.custom_vjp` "
        "to use callbacks while taking gradients."
    )


def _io_transpose(cts, *args, **params):
    raise ValueError("IO callbacks do not support transpose.")


rules.jvp_rules[pure_callback_p] = _pure_jvp
rules.jvp_rules[io_callback_p] = _io_jvp
rules.transpose_rules[pure_callback_p] = _pure_transpose
rules.transpose_rules[io_callback_p] = _io_transpose


# ------------------------------------------------------------------------- batching
def _batched_avals(result_avals, size):
    return tuple(ShapedArray((size,) + a.shape, a.dtype, False) for a in result_avals)


def _front(args, dims):
    return [
        x if d is not_mapped or d == 0 else _shape.moveaxis(x, d, 0) for x, d in zip(args, dims)
    ]


def sequential_batch(prim, axis_data, args, dims, params):
    """Batch a callback equation as a loop over the batch inside the host function."""
    size = axis_data.size
    args = _front(args, dims)
    batched = [d is not not_mapped for d in dims]
    cb = map_host_fn(params["callback"], size, batched)
    new = dict(params, callback=cb)
    if "result_avals" in params:
        new["result_avals"] = _batched_avals(params["result_avals"], size)
    outs = prim.bind(*args, **new)
    return outs, [0] * len(outs)


def _pure_batch(axis_data, args, dims, *, callback, result_avals, vmap_method):
    params = {"callback": callback, "result_avals": result_avals, "vmap_method": vmap_method}
    if vmap_method in ("sequential", "sequential_unrolled"):
        return sequential_batch(pure_callback_p, axis_data, args, dims, params)
    if vmap_method is None:
        raise NotImplementedError(
            "vmap is only supported for the pure_callback primitive when vmap_method is one "
            "of 'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
            "'legacy_vectorized'. Got vmap_method=None."
        )
    size = axis_data.size
    new_args = []
    for x, d in zip(_front(args, dims), dims):
        if d is not_mapped:
            if vmap_method == "expand_dims":
                x = _shape.expand_dims(x, (0,))
            elif vmap_method == "broadcast_all":
                x = _shape.broadcast_batch(x, size)
        new_args.append(x)
    outs = pure_callback_p.bind(
        *new_args,
        callback=callback,
        result_avals=_batched_avals(result_avals, size),
        vmap_method=vmap_method,
    )
    return outs, [0] * len(outs)


def _io_batch(axis_data, args, dims, *, callback, result_avals, ordered):
    if ordered:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    return sequential_batch(
        io_callback_p,
        axis_data,
        args,
        dims,
        {"callback": callback, "result_avals": result_avals, "ordered": ordered},
    )


rules.batch_rules[pure_callback_p] = _pure_batch
rules.batch_rules[io_callback_p] = _io_batch


# -------------------------------------------------------------------------- codegen
def lower_callback(ctx, eqn, ins, outs):
    """A callback equation is one direct Python call of a closure specialised for its avals,
    or, for one operand and one result, that closure's body as lines (``HostFn.inline``)."""
    params = eqn.params
    result_avals = params.get("result_avals", ())
    if eqn.primitive is pure_callback_p and not result_avals:
        return []
    in_avals = [v.aval for v in eqn.invars]
    cb = params["callback"]
    # One result (or none): the closure returns the array itself, no list to unpack.
    bare = len(outs) <= 1 and isinstance(cb, HostFn)
    if bare and len(ins) == 1 and len(outs) == 1:
        # The hot case (``fn(x)``, one result): the closure's body written into the loop.
        lines = cb.inline(ctx, in_avals[0], result_avals, ins[0], outs[0])
        if lines is not None:
            return lines
    fn = (
        cb.specialise(in_avals, result_avals, bare=True)
        if bare
        else cb.specialise(in_avals, result_avals)
    )
    name = ctx.add_global(fn, "_cb")
    call = f"{name}({', '.join(ins)})"
    if not outs:
        return [call]
    if bare:
        return [f"{outs[0]} = {call}"]
    return [f"{', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}"]


rules.lower_rules[pure_callback_p] = lower_callback
rules.lower_rules[io_callback_p] = lower_callback


def effects_barrier() -> None:
    """Wait until every callback dispatched so far has run.

    jaxlite runs callbacks synchronously, in program order, when the computation runs, so
    there is never anything pending: this returns immediately. It exists for JAX
    compatibility (code and tests call it before looking at callback side effects).
    """
    return


__all__ = [
    "HostFn",
    "IOEffect",
    "MappedHostFn",
    "OrderedIOEffect",
    "Zero",
    "check_results",
    "effects_barrier",
    "io_callback",
    "io_callback_p",
    "is_undefined_primal",
    "lower_callback",
    "pure_callback",
    "pure_callback_p",
    "sequential_batch",
]
