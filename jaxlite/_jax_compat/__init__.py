"""``jax._src`` under ``install_as_jax()``: the private JAX names third-party libraries use.

Kept apart from jaxlite's own ``_src``: every module here only re-exports jaxlite objects
(or tiny adapters) under the private JAX path a library imports them from. Each name is
listed with the library that needs it; docs/ecosystem.md has the table.
"""
