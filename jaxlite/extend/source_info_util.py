"""Public ``jaxlite.extend.source_info_util`` (the part of ``jax.extend.source_info_util``
libraries use: registering their files as excluded from user tracebacks)."""

from jaxlite._src.traceback_util import register_exclusion as register_exclusion
