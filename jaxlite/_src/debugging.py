"""Debug callbacks: ``jax.debug.callback``, ``jax.debug.print``, ``jax.debug.log``.

One primitive, ``debug_callback_p``, with no outputs and a ``DebugEffect`` (or
``OrderedDebugEffect``): never removed by DCE, allowed everywhere (control flow, remat,
custom derivatives, batched predicates). Its rules:

* impl: call the host function now (an exception keeps its type, C3);
* jvp: bind on the primals only (tangents are never shown, G6);
* transpose: nothing (no printing in the backward pass, G7);
* batch: one call per batch element in index order (a loop inside the host function, see
  ``callback_host.MappedHostFn``), nested vmaps looping the innermost axis outermost (F14, F15);
* lower: a direct Python call; an exception becomes ``CallbackError``.

Arguments whose leaves are not arrays or numbers are static: captured at the call and handed
to the callback unchanged.
"""

from __future__ import annotations

import functools
import logging
import string
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.callback_host import HostFn, MappedHostFn
from jaxlite._src.callbacks import lower_callback, sequential_batch
from jaxlite._src.core import effects as _effects, rules, sharding_hooks
from jaxlite._src.core.array import Array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.effects import Effect
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal
from jaxlite._src.ops import spmd

debug_logger = logging.getLogger("jax._src.debugging")


# ------------------------------------------------------------------------------- effects
class DebugEffect(Effect):
    """An unordered debugging side effect (``debug.callback``/``debug.print``)."""


class OrderedDebugEffect(Effect):
    """An ordered debugging side effect (``ordered=True``)."""


_effects.ordered_effects.add_type(OrderedDebugEffect)
for _t in (DebugEffect, OrderedDebugEffect):
    _effects.control_flow_allowed_effects.add_type(_t)
    _effects.custom_derivatives_allowed_effects.add_type(_t)
    _effects.remat_allowed_effects.add_type(_t)
    _effects.batched_cond_allowed_effects.add_type(_t)

debug_effect = DebugEffect()
ordered_debug_effect = OrderedDebugEffect()


# ---------------------------------------------------------------------------- primitive
debug_callback_p = Primitive("debug_callback", multiple_results=True)


def _debug_impl(*vals, callback, ordered, partitioned):
    callback.invoke(vals, (), True)
    return []


def _debug_abstract_eval(*avals, callback, ordered, partitioned):
    return []


def _debug_effects(*avals, callback, ordered, partitioned):
    return {ordered_debug_effect if ordered else debug_effect}


def _debug_jvp(primals, tangents, **params):
    debug_callback_p.bind(*primals, **params)
    return [], []


def _debug_transpose(cts, *args, **params):
    return [Zero(a.aval) if is_undefined_primal(a) else None for a in args]


def _debug_batch(axis_data, args, dims, **params):
    return sequential_batch(debug_callback_p, axis_data, args, dims, params)


rules.runs_user_code.add(debug_callback_p)
rules.impl_rules[debug_callback_p] = _debug_impl
rules.abstract_eval_rules[debug_callback_p] = _debug_abstract_eval
rules.vma_rules[debug_callback_p] = rules.keep_vma
rules.effects_rules[debug_callback_p] = _debug_effects
rules.jvp_rules[debug_callback_p] = _debug_jvp
rules.transpose_rules[debug_callback_p] = _debug_transpose
rules.batch_rules[debug_callback_p] = _debug_batch


def _lower_debug(ctx, eqn, ins, outs):
    """A direct call (on a shard_map device thread too: the body runs its top-level host
    callbacks in lockstep, in device order, K9); a ``partitioned=True`` call under a
    global-view jit runs once per device on its shards (K7)."""
    host = eqn.params["callback"]
    in_avals = [v.aval for v in eqn.invars]
    # Compiled debug callbacks receive PRNG keys as their data (``uint32[..., 2]``), as
    # JAX's do under jit; eager calls (``_debug_impl``) receive the keys themselves.
    to_data = {
        i: a.dtype.physical_value for i, a in enumerate(in_avals) if dtypes.is_extended(a.dtype)
    }
    for i in to_data:
        data = to_data[i](np.empty(in_avals[i].shape, np.dtype(in_avals[i].dtype)))
        in_avals[i] = ShapedArray(data.shape, data.dtype)
    fn = host.specialise(in_avals, (), bare=True) if isinstance(host, HostFn) else None
    if fn is None:
        fn = host.specialise(in_avals, ())
    if to_data:
        keyed = fn

        def fn(*vals):
            return keyed(*[to_data[i](v) if i in to_data else v for i, v in enumerate(vals)])

    partitioned = eqn.params["partitioned"]
    current = spmd.current
    plans = sharding_hooks.partitioned_plans

    mapped = isinstance(host, MappedHostFn)
    if partitioned and mapped:  # vmapped: each element's call is partitioned (K7)
        dropped = [tuple(ax.values()) for ax in host.operand_axes]
        elem = [
            ShapedArray(tuple(d for i, d in enumerate(a.shape) if i not in dr), a.dtype)
            for a, dr in zip(in_avals, dropped)
        ]
        inner = host.base.specialise(elem, ())

    def run(*vals):
        plan = plans.get(host) if partitioned and plans and current() is None else None
        if plan is None:
            fn(*vals)
        elif mapped:
            host.invoke(vals, (), call=lambda sub: plan.run(inner, sub, dropped) or [])
        else:
            plan.run(fn, vals)
        return []

    call = run
    if len(ins) == 1 and not partitioned:
        call = fn  # the common case, one call layer: a callback in a loop body
    name = ctx.add_global(call, "_cb")
    return [f"{name}({', '.join(ins)})"]


rules.lower_rules[debug_callback_p] = _lower_debug


# ------------------------------------------------------------------------ debug.callback
def _is_dynamic(x: Any) -> bool:
    if isinstance(x, Array):
        return True
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype.kind not in "OUSV"
    return type(x) in (bool, int, float, complex)


def _debug_callback(
    callback: Callable, args: tuple, kwargs: dict, ordered: bool, partitioned: bool
) -> None:
    if not callable(callback):
        raise TypeError(
            "first argument to jax.debug.callback must be callable, but got an "
            f"object of type {type(callback)}"
        )
    leaves, in_tree = tree_util.tree_flatten((args, kwargs))
    statics, dyn = {}, []
    for i, leaf in enumerate(leaves):
        if _is_dynamic(leaf):
            dyn.append(leaf)
        else:
            statics[i] = leaf
    weak = [aval_of(x).weak_type for x in dyn]
    host = HostFn(
        callback,
        "debug.callback",
        in_tree,
        len(leaves),
        statics=statics,
        weak=weak,
        logger=debug_logger,
        returns=False,
    )
    debug_callback_p.bind(*dyn, callback=host, ordered=bool(ordered), partitioned=bool(partitioned))


def debug_callback(
    callback: Callable | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    **kwargs: Any,
):
    """Call ``callback(*args, **kwargs)`` on the host when the computation runs.

    Two forms: ``debug.callback(cb, *args, **kwargs)`` and
    ``debug.callback(ordered=..., partitioned=...)(cb, *args, **kwargs)`` (in the second
    call every keyword goes to the callback). Array leaves are passed as Arrays (per element
    under vmap, primal values only under AD); other leaves are passed unchanged. The
    callback's return value is ignored. Returns ``None``.
    """
    if callback is None:
        if args or kwargs:
            raise TypeError(
                "debug_callback received unexpected arguments in the two-call "
                f"form: args={args!r} kwargs={kwargs!r}"
            )

        def second(callback, *args, **kwargs):
            _debug_callback(callback, args, kwargs, ordered, partitioned)

        return second
    _debug_callback(callback, args, kwargs, ordered, partitioned)
    return None


# --------------------------------------------------------------------------- debug.print
class _FormatChecker(string.Formatter):
    """Resolves every field against the arguments, formats nothing, rejects unused ones."""

    def format_field(self, value, format_spec):
        return ""

    def check_unused_args(self, used_args, args, kwargs):
        unused_pos = [a for i, a in enumerate(args) if i not in used_args]
        if unused_pos:
            raise ValueError(f"Unused positional arguments to `jax.debug.print`: {unused_pos}")
        unused_kw = [k for k in kwargs if k not in used_args]
        if unused_kw:
            raise ValueError(
                f"Unused keyword arguments to `jax.debug.print`: {unused_kw}. You may be "
                'passing an f-string (i.e, `f"{x}"`) into `jax.debug.print` and instead '
                "should pass in a regular string."
            )


def _has_placeholders(fmt: str) -> bool:
    return any(field is not None for _, field, _, _ in string.Formatter().parse(fmt))


def _call_site() -> tuple[str, int, str]:
    """(filename, lineno, function) of the first frame outside jaxlite."""
    import os

    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    f = sys._getframe(1)
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(pkg + os.sep):
        f = f.f_back
    if f is None:
        return "(unknown file)", 0, "(unknown function)"
    return f.f_code.co_filename, f.f_lineno, f.f_code.co_name


class _Printer:
    """The host function of one debug.print: formats under the print options captured at the
    call, then writes once to the current ``sys.stdout`` (or logs)."""

    __slots__ = ("fmt", "options", "placeholders", "site")

    def __init__(self, fmt: str, use_logging: bool):
        self.fmt = fmt
        self.options = np.get_printoptions()
        self.placeholders = _has_placeholders(fmt)
        self.site = _call_site() if use_logging else None

    def __call__(self, *args, **kwargs):
        if self.placeholders:
            with np.printoptions(**self.options):
                msg = self.fmt.format(*args, **kwargs)
        else:
            assert not kwargs, "Format without placeholders should not have kwargs."
            msg = " ".join([self.fmt, *(str(a) for a in args)])
        if self.site is None:
            sys.stdout.write(msg + "\n")
        else:
            # As JAX: the record goes to the logger's handlers whatever the logger's level
            # (``handle`` applies filters, not the level), so ``jax.debug.log`` is never
            # silently dropped by a WARNING-level configuration.
            fn, lno, func = self.site
            record = debug_logger.makeRecord(
                debug_logger.name, logging.INFO, fn, lno, msg, (), None, func
            )
            debug_logger.handle(record)


def _debug_print(
    fmt: str,
    args: tuple,
    kwargs: dict,
    ordered: bool,
    partitioned: bool,
    skip_format_check: bool,
    use_logging: bool,
) -> None:
    if not skip_format_check:
        _FormatChecker().format(fmt, *args, **kwargs)
    printer = _Printer(fmt, use_logging)
    _debug_callback(printer, args, kwargs, ordered, partitioned)


def debug_print(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    _use_logging: bool = False,
    **kwargs: Any,
):
    """Print ``fmt.format(*args, **kwargs)`` with runtime values (``jax.debug.print``).

    ``fmt`` is checked against the arguments now (KeyError/IndexError for missing fields,
    ValueError for unused arguments) unless ``skip_format_check``; formatting happens when
    the computation runs, under the NumPy print options in force at this call.
    Two-call form: ``debug.print(ordered=True)(fmt, *args, **kwargs)``.
    """
    if fmt is None:
        if args or kwargs:
            raise TypeError(
                "debug_print received unexpected arguments in the two-call form: "
                f"args={args!r} kwargs={kwargs!r}"
            )

        def second(fmt, *args, **kwargs):
            _debug_print(fmt, args, kwargs, ordered, partitioned, skip_format_check, _use_logging)

        return second
    _debug_print(fmt, args, kwargs, ordered, partitioned, skip_format_check, _use_logging)
    return None


def debug_log(
    fmt: str | None = None,
    *args: Any,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: Any,
):
    """``debug.print`` that emits an INFO record on logger ``jax._src.debugging`` instead of
    writing to stdout (``jax.debug.log``)."""
    return debug_print(
        fmt,
        *args,
        ordered=ordered,
        partitioned=partitioned,
        skip_format_check=skip_format_check,
        _use_logging=True,
        **kwargs,
    )


def debug_breakpoint(
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: Any = None,
    **kwargs: Any,
):
    """Stop in a debugger with the caller's array values (``jax.debug.breakpoint``).

    Works eagerly and inside transformations: the caller's local variables that are
    arrays (traced or not) are passed to a debug callback, so at run time the debugger
    (``pdb`` on the terminal; ``backend`` ``None`` or ``"cli"``) sees their concrete
    values by name. Type ``c`` to continue. ``filter_frames``/``num_frames`` are accepted
    for compatibility (only the calling frame is shown).

    Raises:
        ValueError: for a ``backend`` other than ``None``/``"cli"``.
    """
    import inspect
    import pdb

    if backend not in (None, "cli"):
        raise ValueError(f"jaxlite.debug.breakpoint supports backend='cli' only, got {backend!r}")
    frame = inspect.currentframe().f_back
    names, values, static = [], [], {}
    for k, v in frame.f_locals.items():
        leaves = tree_util.tree_leaves(v)
        if leaves and all(isinstance(x, (Array, np.ndarray, np.generic)) for x in leaves):
            names.append(k)
            values.append(v)
        else:
            static[k] = v
    del frame

    def enter(*vals):
        env = dict(static)
        env.update(zip(names, vals))
        pdb.Pdb().run("pass", env, env)

    debug_callback(enter, *values, ordered=ordered)
    return token


__all__ = [
    "DebugEffect",
    "OrderedDebugEffect",
    "debug_breakpoint",
    "debug_callback",
    "debug_callback_p",
    "debug_log",
    "debug_print",
]
