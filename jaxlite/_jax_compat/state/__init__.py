"""``jax._src.state`` (flax.nnx: ``AbstractRef``, the abstract value of a mutable ref)."""

from jaxlite._src.core.refs import AbstractRef as AbstractRef, TransformedRef as TransformedRef
