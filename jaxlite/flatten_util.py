"""Public ``jaxlite.flatten_util`` (mirrors ``jax.flatten_util``)."""

from jaxlite._src.flatten_util import ravel_pytree as ravel_pytree
