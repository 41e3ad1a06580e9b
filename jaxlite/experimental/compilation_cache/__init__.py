"""Public ``jaxlite.experimental.compilation_cache`` (mirrors JAX's package of that name)."""

from jaxlite.experimental.compilation_cache import compilation_cache as compilation_cache  # noqa: F401
