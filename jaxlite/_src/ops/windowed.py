"""Windowed reductions: ``reduce_window`` (``conv_general_dilated`` is ``convolution.py``).

``reduce_window`` is a composition: the operand is padded (and base-dilated) with the
initial value, each window offset becomes one strided ``slice``, and the slices are combined
with the reduction (a ``reduce_*`` over a stacked axis for add/max/min/mul, or a pairwise fold
of any other binary computation). Its rules therefore come from ``pad``/``slice``.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    lax_api,
    reduce_order as _red_order,
    reductions as _red,
    shape as _sh,
)
from jaxlite._src.ops._factories import defjvp2
from jaxlite._src.ops.conv_kernels import check_window_args, padtype_to_pads
from jaxlite._src.ops.forward_only import forward_only, reduce_window_refusal


def _dilate_len(n, d):
    return 0 if n == 0 else (n - 1) * d + 1


# ---------------------------------------------------------------------- reduce_window
# The binary functions reduce_window recognises as monoids (so it can use a NumPy
# reduction). The lax ones are listed here; jax.numpy registers its own (``jnp.add`` is a
# different function from ``lax.add``) with ``register_monoid``.
_MONOIDS: dict = {ew.add: "add", ew.max: "max", ew.min: "min", ew.mul: "mul"}
# The public jax.lax operators (strict dtypes) are the same monoids.
_MONOIDS.update({lax_api.add: "add", lax_api.max: "max", lax_api.min: "min", lax_api.mul: "mul"})


def register_monoid(fn, kind: str) -> None:
    """Let ``reduce_window`` recognise ``fn`` as the monoid ``kind`` ("add", "max", "min"
    or "mul"). (``lax.reduce`` recognises a monoid by the one primitive its computation
    traces to, ``lax_reduce._traced_monoid``, so a lambda counts too.)"""
    _MONOIDS[fn] = kind


def _monoid(computation):
    return _MONOIDS.get(computation)


def reduce_window(
    operand,
    init_value,
    computation,
    window_dimensions,
    window_strides,
    padding,
    base_dilation=None,
    window_dilation=None,
):
    """``jax.lax.reduce_window``: reduce each window of ``operand`` with ``computation``.

    Args:
        operand: an array (a pytree of arrays is not supported).
        init_value: scalar start value (padded positions are skipped, as in XLA).
        computation: a binary function; ``lax.add``/``max``/``min``/``mul`` are reduced in
            one step, any other function is folded pairwise.
        window_dimensions, window_strides: one int per operand dimension.
        padding: ``"VALID"``, ``"SAME"`` or a sequence of (low, high) pairs.
        base_dilation, window_dilation: optional dilation factors.
    """

    x = to_array(operand)
    jax_monoid = _jax_monoid(computation, init_value)
    if not jax_monoid:
        _check_generic_init(x, init_value, computation)
    wd = tuple(int(w) for w in window_dimensions)
    ws = tuple(int(s) for s in window_strides) if window_strides is not None else (1,) * len(wd)
    bd = tuple(int(b) for b in base_dilation) if base_dilation else (1,) * len(wd)
    wdil = tuple(int(d) for d in window_dilation) if window_dilation else (1,) * len(wd)
    if isinstance(padding, str) and any(d <= 0 for d in wdil):  # JAX dilates the window first
        raise TypeError(f"All dilations must be positive, got {wdil}.")
    check_window_args(x.shape, wd, ws, bd, wdil)
    dilated_win = tuple(_dilate_len(k, d) for k, d in zip(wd, wdil))
    # As JAX: string padding is computed from the undilated operand shape (and the
    # dilated window), so SAME with base dilation is not "same size" of the dilated input.
    pads = padtype_to_pads(x.shape, dilated_win, ws, padding)
    kind = _monoid(computation)
    if not jax_monoid and dtypes.is_inexact(aval_of(x).dtype):
        # JAX's generic path: its JVP folds the computation's JVP over each window in
        # order (ties of max/min split their tangents there): the fold below, not the
        # one-step reduction and its first-winner derivative (seed window 34)
        kind = None
    if jax_monoid:
        # JAX's window primitive uses the identity of the operand's type whatever the
        # init's type (a False init of an int32 max pads with int32's lowest value)
        ident = {"add": 0, "max": _red._lowest(x.dtype), "min": _red._highest(x.dtype)}[kind]
        init_value = _sh.full((), ident, x.dtype)
    init = conversion.convert_element_type(to_array(init_value), x.dtype)
    refusal = reduce_window_refusal(
        jax_monoid,
        jax_monoid,
        kind,
        wdil,
        aval_of(x).dtype,
    )
    # XLA skips padded positions and base-dilation holes: they are filled with the
    # identity of add/mul (the init enters once, below), with the init for max/min, and
    # masked out of a general computation.
    fill = init
    if kind in ("add", "mul") and not _is_identity(init_value, 0 if kind == "add" else 1):
        fill = _sh.full((), 0 if kind == "add" else 1, x.dtype)
    cfg = [(lo, hi, b - 1) for (lo, hi), b in zip(pads, bd)]
    padded = tuple(_dilate_len(n, b) + lo + hi for n, (lo, hi), b in zip(x.shape, pads, bd))
    out_shape = tuple((p - w) // s + 1 if p >= w else 0 for p, w, s in zip(padded, dilated_win, ws))
    weak = aval_of(x).weak_type and jax_monoid  # JAX's generic path is strongly typed
    if 0 in out_shape:
        # a window larger than the (padded) operand, or negative padding past its extent
        # (no padded operand: its shape would be negative): no windows. An empty piece of
        # the operand, so that reverse mode refuses it as JAX does.
        nothing = _sh.slice(x, (0,) * len(out_shape), (0,) * len(out_shape))
        return _finish(_sh.reshape(nothing, out_shape), refusal, weak)
    xp = _sh.pad(x, fill, cfg)
    slices, masks = [], []
    real = _sh.pad(_sh.full(x.shape, True, dtypes.bool_), _sh.full((), False, dtypes.bool_), cfg)
    for offs in np.ndindex(*wd):
        start = [o * d for o, d in zip(offs, wdil)]
        limit = [st + (m - 1) * s + 1 if m else st for st, m, s in zip(start, out_shape, ws)]
        slices.append(_sh.slice(xp, start, limit, ws))
        masks.append(_sh.slice(real, start, limit, ws) if kind is None else None)
    if kind is not None:
        stacked = _sh.concatenate([_sh.expand_dims(s, (0,)) for s in slices], 0)
        if kind in ("max", "min"):
            chooser = _window_max_p if kind == "max" else _window_min_p
            out = chooser.bind(stacked, axes=(0,))
        else:
            out = _fold_windows(kind, stacked)
        # The padding already holds init_value (max/min) or the identity (add/mul); the
        # init must still enter each window once, which only matters where it is not the
        # identity (a window without padding never saw a max/min init: seed window 31).
        identity = {"add": 0, "mul": 1, "max": _red._lowest(x.dtype), "min": _red._highest(x.dtype)}
        if not _is_identity(init_value, identity[kind]):
            combine = {"add": ew.add, "mul": ew.mul, "max": ew.max, "min": ew.min}[kind]
            out = combine(out, _sh.broadcast_to_rank(init, aval_of(out).shape))
        return _finish(out, refusal, weak)
    out = _sh.broadcast_to_rank(init, aval_of(slices[0]).shape)
    for s, keep in zip(slices, masks):
        out = ew.select_n(keep, out, computation(out, s))
    return _finish(out, refusal, weak)


def _fold_windows(kind, stacked):
    """The sum / product over axis 0 of the stacked window elements (row-major window
    order) as XLA:CPU's reduce-window folds a float window: one element after the other
    from the identity, not its reductions' window tree (docs/compat.md, "Order of a float
    reduction"). A reduction of at most 32 elements is such a fold, so a longer window is
    folded in chunks, each one carrying the running result in as its first element."""
    red = _red.reduce_sum if kind == "add" else _red.reduce_prod
    n = aval_of(stacked).shape[0]
    if n <= _red_order.WINDOW or not dtypes.is_inexact(aval_of(stacked).dtype):
        return red(stacked, (0,))
    out = red(_sh.slice_in_dim(stacked, 0, _red_order.WINDOW, 1, 0), (0,))
    for start in range(_red_order.WINDOW, n, _red_order.WINDOW - 1):
        chunk = _sh.slice_in_dim(stacked, start, min(n, start + _red_order.WINDOW - 1), 1, 0)
        out = red(_sh.concatenate([_sh.expand_dims(out, (0,)), chunk], 0), (0,))
    return out


def _finish(out, refusal, weak):
    """reduce_window's result: refused in reverse mode where JAX refuses it, weakly typed
    where JAX's sum / max / min window primitive keeps a weak operand's type."""
    if refusal:
        out = forward_only(out, *refusal)
    if aval_of(out).weak_type != weak:
        out = conversion.convert_element_type(out, aval_of(out).dtype, weak)
    return out


# --------------------------------------------------- max/min windows: the first winner
# The value is the window's max (min), as reduce_max gives it, but the derivative is JAX's
# select-and-scatter one: each window's whole tangent / cotangent goes to ONE element, the
# first in window order that the comparison ``current >= candidate`` (``<=`` for min)
# keeps; a NaN candidate is taken (the comparison is false) and then replaced by the next
# element. Not reduce_max's derivative, which splits ties evenly.
def _window_chooser(kind):
    base = _red.reduce_max_p if kind == "max" else _red.reduce_min_p
    p = _red._reduction(f"reduce_window_{kind}", lambda x, axis: None, "fciub")
    rules.impl_rules[p] = rules.impl_rules[base]
    keep = ew.ge if kind == "max" else ew.le

    def jvp(t, ans, x, *, axes):
        (ax,) = axes
        n = aval_of(x).shape[ax]
        cur_x = _sh.index_in_dim(x, 0, ax, keepdims=False)
        cur_t = _sh.index_in_dim(t, 0, ax, keepdims=False)
        for k in range(1, n):
            xk = _sh.index_in_dim(x, k, ax, keepdims=False)
            kept = keep(cur_x, xk)
            cur_x = ew.select_n(kept, xk, cur_x)
            cur_t = ew.select_n(kept, _sh.index_in_dim(t, k, ax, keepdims=False), cur_t)
        return cur_t

    defjvp2(p, jvp)
    return p


_window_max_p = _window_chooser("max")
_window_min_p = _window_chooser("min")


def _jax_monoid(computation, init_value) -> bool:
    """Whether JAX reduces these windows with its sum / max / min window primitive:
    ``lax.add`` / ``lax.max`` / ``lax.min`` with a concrete scalar init that is the
    identity of the init's own type (0; the lowest / highest value). Anything else takes
    its generic path (dtype checks, no reverse-mode derivative)."""
    if computation not in (lax_api.add, lax_api.max, lax_api.min):
        return False
    if isinstance(init_value, Tracer):
        return False
    v = np.asarray(init_value)
    if v.shape != ():
        return False
    dtype = aval_of(to_array(init_value)).dtype
    if computation is lax_api.add:
        ident = 0
    else:
        ident = (_red._lowest if computation is lax_api.max else _red._highest)(dtype)
    return bool(v == ident)


def _check_generic_init(x, init_value, computation):
    """JAX's generic reduce_window: the computation is traced on the init (so it refuses
    the init's type as it would), then the init must be a scalar of the operand's dtype."""
    init = to_array(init_value)
    computation(init, init)
    init_aval, x_aval = aval_of(init), aval_of(x)
    if init_aval.dtype != x_aval.dtype:
        raise TypeError(
            "reduce_window got inconsistent dtypes for operands and init_values: got operand "
            f"dtypes [{np.dtype(x_aval.dtype)!r}] and init_value dtypes "
            f"[{np.dtype(init_aval.dtype)!r}]."
        )
    if init_aval.shape != ():
        raise TypeError(
            "reduce_window expected init_values to be scalars but init_values have shapes "
            f"[{init_aval.shape}]."
        )


def _is_identity(value, identity):
    if isinstance(value, Tracer):
        return False
    v = np.asarray(value)
    return v.shape == () and bool(v == identity)
