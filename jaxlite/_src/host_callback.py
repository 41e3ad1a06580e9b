"""Legacy ``jax.experimental.host_callback`` (``id_tap``, ``id_print``, ``call``), which JAX
deprecated and then removed, on top of ``io_callback`` so that old code still runs.

Every call warns with a ``DeprecationWarning`` naming the replacement. Differences from
the removed JAX module: ``transforms`` passed to tap functions is always ``()`` (jaxlite
does not record which transformations an operand went through); under ``vmap`` a tap runs
per batch element (jaxlite's ``io_callback`` behaviour); there is no outfeed, so
``barrier_wait`` only waits for pending effects (none: callbacks run synchronously).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import tree_util
from jaxlite._src.callbacks import effects_barrier, io_callback
from jaxlite._src.core.trace import Tracer
from jaxlite._src.ops.structural import stop_gradient_p


def _warn(name: str, replacement: str) -> None:
    warnings.warn(
        f"jax.experimental.host_callback.{name} is deprecated (JAX removed host_callback); "
        f"use {replacement} instead.",
        DeprecationWarning,
        stacklevel=3,
    )


def _stop_gradient(x):
    return stop_gradient_p.bind(x) if isinstance(x, Tracer) else x


def id_tap(tap_func: Callable, arg: Any, *, result: Any = None, tap_with_device: bool = False,
           device_index: int = 0, **_: Any) -> Any:  # fmt: skip
    """Call ``tap_func(arg, transforms)`` on the host and return ``arg`` (or ``result``).

    The identity on ``arg`` for every transformation (its derivative passes through).
    Replacement: ``jax.debug.callback`` or ``jax.experimental.io_callback``.
    """
    _warn("id_tap", "jax.debug.callback or jax.experimental.io_callback")

    def host(a):
        if tap_with_device:
            tap_func(a, (), device=device_index)
        else:
            tap_func(a, ())

    io_callback(host, None, tree_util.tree_map(_stop_gradient, arg))
    return arg if result is None else result


def id_print(
    arg: Any,
    *,
    result: Any = None,
    output_stream: Any = None,
    threshold: Any = None,
    tap_with_device: bool = False,
    device_index: int = 0,
    **kwargs: Any,
) -> Any:
    """Print ``arg`` on the host (after ``key: value`` pairs from ``kwargs``) and return it.

    Replacement: ``jax.debug.print``.
    """
    _warn("id_print", "jax.debug.print")

    def host(a):
        stream = output_stream if output_stream is not None else sys.stdout
        header = " ".join(f"{k}: {v}" for k, v in sorted(kwargs.items()))
        opts = {} if threshold is None else {"threshold": threshold}
        body = tree_util.tree_map(lambda x: np.array2string(np.asarray(x), **opts), a)
        text = (header + "\n" if header else "") + (body if isinstance(body, str) else str(body))
        stream.write(text + "\n")

    io_callback(host, None, tree_util.tree_map(_stop_gradient, arg))
    return arg if result is None else result


def call(callback_func: Callable, arg: Any, *, result_shape: Any = None,
         call_with_device: bool = False, device_index: int = 0, **_: Any) -> Any:  # fmt: skip
    """Call ``callback_func(arg)`` on the host and return its result, of ``result_shape``
    (a pytree of arrays or ``ShapeDtypeStruct``s; ``None``: no result).

    Replacement: ``jax.pure_callback`` or ``jax.experimental.io_callback``.
    """
    _warn("call", "jax.pure_callback or jax.experimental.io_callback")

    def host(a):
        out = callback_func(a, device=device_index) if call_with_device else callback_func(a)
        return None if result_shape is None else out

    shapes = None
    if result_shape is not None:
        shapes = tree_util.tree_map(
            lambda x: x if hasattr(x, "shape") and hasattr(x, "dtype") else np.asarray(x),
            result_shape,
        )
    return io_callback(host, shapes, tree_util.tree_map(_stop_gradient, arg))


def barrier_wait(logging_name: str | None = None) -> None:
    """Wait until every tap has run (jaxlite runs them synchronously)."""
    del logging_name
    _warn("barrier_wait", "jax.effects_barrier")
    effects_barrier()
