"""``jax._src.tree_util`` (flax.nnx: ``_registry`` to ask whether a type is a pytree node)."""

from jaxlite._src.tree_util import *  # noqa: F403
from jaxlite._src.tree_util import node_registry as _registry  # noqa: F401
