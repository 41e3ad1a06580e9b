"""``jax.ad_checkpoint``: rematerialisation helpers."""

from jaxlite._src.ad_checkpoint import (  # noqa: F401
    checkpoint as checkpoint,
    checkpoint_name as checkpoint_name,
    checkpoint_policies as checkpoint_policies,
    print_saved_residuals as print_saved_residuals,
    remat as remat,
    saved_residuals as saved_residuals,
)
