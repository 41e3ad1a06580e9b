"""``jax.experimental.compilation_cache.compilation_cache``: JAX's persistent cache of XLA
executables. jaxlite compiles a function to Python source in milliseconds and keeps it in
memory only, so there is nothing to persist: the directory is recorded (and read back by
``jax.config.jax_compilation_cache_dir``) and never written."""

from jaxlite._src.config import (
    reset_compilation_cache as reset_cache,  # noqa: F401
    set_compilation_cache_dir as set_cache_dir,  # noqa: F401
)
