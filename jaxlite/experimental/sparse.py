"""Public ``jaxlite.experimental.sparse`` (a subset of ``jax.experimental.sparse``).

Only the ``BCOO`` format without batch or dense dimensions (see
``jaxlite._src.sparse_bcoo`` and docs/compat.md).
"""

from jaxlite._src.sparse_bcoo import (
    BCOO as BCOO,
    JAXSparse as JAXSparse,
    bcoo_fromdense as bcoo_fromdense,
    bcoo_todense as bcoo_todense,
    todense as todense,
)
