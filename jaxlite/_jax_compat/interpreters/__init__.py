"""``jax._src.interpreters`` (only the modules below)."""
