"""Public ``jaxlite.experimental`` (mirrors ``jax.experimental``)."""

from jaxlite._src.callbacks import io_callback as io_callback
from jaxlite._src.config import enable_x64 as enable_x64
from jaxlite.experimental import checkify as checkify, host_callback as host_callback
