"""Public ``jaxlite.ref`` (mirrors ``jax.ref``): mutable array references.

``new_ref`` makes one; ``get``/``set``/``swap``/``addupdate`` read and write it (as
``r[idx]`` and ``r[idx] = x`` do); ``freeze`` takes its value (docs/compat.md).
"""

from jaxlite._src.state import (
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
