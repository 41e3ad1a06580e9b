"""Public ``jaxlite.interpreters.xla`` (the registries of ``jax.interpreters.xla`` that
libraries write to)."""

from jaxlite._src.jax_extension import canonicalize_dtype_handlers as canonicalize_dtype_handlers
