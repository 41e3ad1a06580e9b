"""``jax._src.checkify`` (flax.nnx.checkify: Out, JaxException, Error, checkify, user_checks)."""

from jaxlite._src.checkify import *  # noqa: F403
from jaxlite._src.checkify import Out as Out
