"""Small public helpers: block_until_ready, clear_caches, device_get, eval_shape, jit_stats.

(``device_put`` and ``typeof`` live in ``sharding/array.py``: placement is theirs.)
"""

from __future__ import annotations

import gc
import platform
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import devices as _devices, dtypes, tree_util
from jaxlite._src.compile import jit as _jit
from jaxlite._src.compile.jit import stats
from jaxlite._src.control_flow import common as _control_flow
from jaxlite._src.core.array import Array, ArrayImpl
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.refs import Ref
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.core.trace import Tracer
from jaxlite._src.interpreters.staging import argument_type_error, trace_flat_refs
from jaxlite._src.numpy.creation import asarray
from jaxlite._src.numpy.util import asarray_any


def live_arrays(platform: str | None = None) -> list:
    """``jax.live_arrays``: every ``jax.Array`` alive in this process.

    Found by walking the garbage collector's objects (no bookkeeping on array creation),
    so it is slow; for debugging memory use.

    Args:
        platform: None or ``"cpu"`` (the only platform).

    Returns:
        A list of the live arrays.
    """
    _devices._check_backend(platform)
    return [o for o in gc.get_objects() if type(o) is ArrayImpl]


def block_until_ready(x: Any) -> Any:
    """Wait for every array in the pytree ``x`` (computation is synchronous: returns ``x``)."""
    for leaf in tree_util.tree_leaves(x):
        if hasattr(leaf, "block_until_ready"):
            leaf.block_until_ready()
    return x


def clear_caches() -> None:
    """``jax.clear_caches``: clear every compilation and staging cache.

    Each jitted function (and each compiled loop or branch body) is traced and compiled
    again on its next call, so Python side effects of tracing run again, as in JAX.
    """
    _jit.clear_caches()
    _control_flow.clear_caches()


def device_get(x: Any) -> Any:
    """``jax.device_get``: the arrays in the pytree ``x`` as NumPy arrays.

    As in JAX, leaves that have no NumPy form come back unchanged: tracers (a call inside
    ``jit``, ``vmap``, a loop body, ...) and arrays of an extended dtype (PRNG keys);
    other leaves are returned as they are.
    """

    def get(v):
        if not isinstance(v, Array) or isinstance(v, Tracer) or dtypes.is_extended(v.dtype):
            return v
        return np.asarray(v)

    return tree_util.tree_map(get, x)


def eval_shape(fun: Callable, *args: Any, **kwargs: Any) -> Any:
    """Output shapes/dtypes of ``fun`` without running it (``jax.eval_shape``)."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")

    def to_aval(x):
        if hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, (Array, Ref)):
            return ShapedArray(
                tuple(x.shape), dtypes.canonicalize_dtype(x.dtype), getattr(x, "weak_type", False)
            )
        return aval_of(x)

    flat, in_tree = tree_util.tree_flatten((args, kwargs))
    try:
        avals = [to_aval(x) for x in flat]
    except TypeError:
        err = argument_type_error(fun, args, kwargs, structs_ok=True)
        if err is None:
            raise
        raise err from None
    # Outputs that are already ShapeDtypeStructs (no value) are their own shapes, as in JAX;
    # only the other output leaves go through tracing.
    structs: dict = {}

    def traced(*a, **k):
        leaves, tree = tree_util.tree_flatten(fun(*a, **k))
        structs["tree"] = tree
        structs["given"] = [x if isinstance(x, ShapeDtypeStruct) else None for x in leaves]
        # the output tree with those leaves emptied: an invalid output is named by its own
        # path (JAX's "at output component ['a'][1]")
        return tree.unflatten([None if isinstance(x, ShapeDtypeStruct) else x for x in leaves])

    # Refs the function takes or touches are threaded as in jit (their values only traced).
    closed, _, plan = trace_flat_refs(traced, in_tree, avals, source=(fun, "jit"))
    out_avals = closed.out_avals if plan is None else closed.out_avals[: plan.n_out]
    computed = iter(ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in out_avals)
    leaves = [next(computed) if g is None else g for g in structs["given"]]
    return tree_util.tree_unflatten(structs["tree"], leaves)


def jit_stats() -> dict:
    """Process-wide counts of jit traces and compilations (for tests and benchmarks)."""
    return dict(stats)


__all__ = ["ArrayImpl"]


def copy_to_host_async(x: Any) -> Any:
    """``jax.copy_to_host_async``: start copying every array leaf of ``x`` to the host.
    jaxlite arrays live in host memory already: returns ``x`` unchanged."""
    return x


def print_environment_info(return_string: bool = False) -> str | None:
    """``jax.print_environment_info``: the versions of jaxlite, the JAX API it implements,
    NumPy and Python, the devices and the platform; printed, or returned as a string."""
    devs = _devices.devices()
    jaxlite_root = sys.modules.get("jaxlite")
    text = (
        f"jaxlite: {getattr(jaxlite_root, '__version__', '?')} (JAX API 0.10.2)\n"
        f"numpy:   {np.__version__}\n"
        f"python:  {sys.version}\n"
        f"device info: cpu-{len(devs)}, {len(devs)} local devices\n"
        f"process_count: 1\n"
        f"platform: {platform.uname()}\n"
    )
    if return_string:
        return text
    print(text)
    return None
