"""``jax._src.state`` (flax.nnx: ``AbstractRef``, the abstract value of a mutable ref)."""

from jaxlite._jax_compat import submodule_getattr as _submodule_getattr
from jaxlite._src.core.refs import AbstractRef as AbstractRef, TransformedRef as TransformedRef

# Submodules read as attributes without an import (as in JAX, which imports them all).
__getattr__ = _submodule_getattr(__name__)
