"""``jax._src.flatten_util`` (blackjax: ``ravel_pytree``)."""

from jaxlite.flatten_util import ravel_pytree as ravel_pytree
