"""Public ``jaxlite.debug`` (mirrors ``jax.debug``): host-side debugging callbacks."""

from jaxlite._src import util as _util
from jaxlite._src.debugging import (
    debug_breakpoint as breakpoint,
    debug_callback as callback,
    debug_log as log,
    debug_print as print,
)

_SHARDING_NAMES = ("inspect_array_sharding", "visualize_array_sharding", "visualize_sharding")


def __getattr__(name):
    # The sharding pictures load at first use (import time: docs/benchmarks.md).
    if name in _SHARDING_NAMES:
        from jaxlite._src.sharding import visualize

        return getattr(visualize, name)
    raise _util.missing_attribute(__name__, name)


def __dir__():
    return sorted(set(globals()) | set(_SHARDING_NAMES))


__all__ = [
    "breakpoint",
    "callback",
    "inspect_array_sharding",
    "log",
    "print",
    "visualize_array_sharding",
    "visualize_sharding",
]
