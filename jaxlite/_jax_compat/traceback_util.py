"""``jax._src.traceback_util`` (equinox, diffrax, lineax, optimistix, flax, jaxtyping)."""

from jaxlite._src.traceback_util import (
    _exclude_paths as _exclude_paths,
    api_boundary as api_boundary,
    include_frame as include_frame,
    register_exclusion as register_exclusion,
)
