"""Public ``jaxlite.ref`` (mirrors ``jax.ref``): mutable array references.

The types are provided so code can test for refs; every operation that would make, read or
write one raises ``NotImplementedError`` (jaxlite has no ref effects; docs/compat.md).
"""

from jaxlite._src.core.refs import (
    AbstractRef as AbstractRef,
    Ref as Ref,
    addupdate as addupdate,
    empty_ref as empty_ref,
    free_ref as free_ref,
    freeze as freeze,
    get as get,
    new_ref as new_ref,
    set as set,  # noqa: A004 (JAX's name)
    swap as swap,
)
