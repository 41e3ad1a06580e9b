"""Public ``jaxlite.debug`` (mirrors ``jax.debug``): host-side debugging callbacks."""

from jaxlite._src.debugging import debug_callback as callback
from jaxlite._src.debugging import debug_log as log
from jaxlite._src.debugging import debug_print as print

__all__ = ["callback", "log", "print"]
