"""``jax._src.dtypes`` (equinox: TypePromotionError; flax: fp8 dtype helpers)."""

from jaxlite._src.dtypes import *  # noqa: F403
from jaxlite._src.dtypes import TypePromotionError as TypePromotionError
from jaxlite.dtypes import *  # noqa: F403
