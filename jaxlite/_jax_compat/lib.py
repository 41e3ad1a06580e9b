"""``jax.lib`` under ``install_as_jax()``: in JAX 0.10.2 it holds only ``__version__``, the
jaxlib version, which test suites compare against releases (equinox's does at import).
jaxlite uses no jaxlib, so it reports the JAX API level it implements, as ``jax.version``."""

from jaxlite._jax_compat.version import __version__ as __version__
