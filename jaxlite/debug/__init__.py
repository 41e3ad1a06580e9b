"""Public ``jaxlite.debug`` (mirrors ``jax.debug``): host-side debugging callbacks."""

from jaxlite._src.debugging import (
    debug_breakpoint as breakpoint,
    debug_callback as callback,
    debug_log as log,
    debug_print as print,
)
from jaxlite._src.sharding.visualize import (  # noqa: E402
    inspect_array_sharding as inspect_array_sharding,
    visualize_array_sharding as visualize_array_sharding,
    visualize_sharding as visualize_sharding,
)

__all__ = [
    "breakpoint",
    "callback",
    "inspect_array_sharding",
    "log",
    "print",
    "visualize_array_sharding",
    "visualize_sharding",
]
