"""Public ``jaxlite.debug`` (mirrors ``jax.debug``): host-side debugging callbacks."""

from jaxlite._src.debugging import (
    debug_callback as callback,
    debug_log as log,
    debug_print as print,
)

__all__ = ["callback", "log", "print"]
