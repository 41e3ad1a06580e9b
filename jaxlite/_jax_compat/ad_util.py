"""``jax._src.ad_util`` (lineax: ``stop_gradient_p``)."""

from jaxlite._src.core.rule_types import Zero as Zero
from jaxlite._src.ops.structural import stop_gradient_p as stop_gradient_p
