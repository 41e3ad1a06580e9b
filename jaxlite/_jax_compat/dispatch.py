"""``jax._src.dispatch`` (equinox: ``wait_for_tokens`` after a jitted call)."""

from jaxlite._src.callbacks import effects_barrier as _effects_barrier


def wait_for_tokens() -> None:
    """Wait for pending ordered effects; jaxlite runs effects synchronously."""
    _effects_barrier()
