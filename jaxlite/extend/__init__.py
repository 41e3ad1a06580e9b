"""Public ``jaxlite.extend`` (mirrors ``jax.extend``): the extension surface."""

from jaxlite.extend import (
    core as core,
    linear_util as linear_util,
    source_info_util as source_info_util,
)
