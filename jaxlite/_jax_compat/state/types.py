"""``jax._src.state.types`` (flax.nnx.variablelib: ``AbstractRef``)."""

from jaxlite._src.core.refs import AbstractRef as AbstractRef, TransformedRef as TransformedRef
