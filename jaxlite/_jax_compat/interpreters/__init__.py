"""``jax._src.interpreters`` (only the modules below)."""

from jaxlite._jax_compat import submodule_getattr as _submodule_getattr

# Submodules read as attributes without an import (jaxopt's tests: ``jax._src.interpreters.ad``).
__getattr__ = _submodule_getattr(__name__)
