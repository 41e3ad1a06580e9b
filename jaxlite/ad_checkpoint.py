"""``jax.ad_checkpoint``: rematerialisation helpers."""

from jaxlite._src.ad_checkpoint import (  # noqa: F401
    checkpoint as checkpoint,
    checkpoint_name as checkpoint_name,
    checkpoint_policies as checkpoint_policies,
    remat as remat,
)
from jaxlite._src.saved_residuals import (  # noqa: F401
    print_saved_residuals as print_saved_residuals,
    saved_residuals as saved_residuals,
)
