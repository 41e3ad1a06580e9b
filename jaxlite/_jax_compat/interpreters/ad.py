"""``jax._src.interpreters.ad`` (diffrax's tests: ``CustomVJPException``), with the public
``jax.interpreters.ad`` names."""

from jaxlite._src.core.errors import CustomVJPException as CustomVJPException
from jaxlite.interpreters.ad import *  # noqa: F403
