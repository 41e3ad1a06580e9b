"""Public ``jaxlite.scipy.sparse.linalg`` (mirrors ``jax.scipy.sparse.linalg``)."""

from jaxlite._src.scipy.sparse_linalg import (  # noqa: F401
    bicgstab as bicgstab,
    cg as cg,
    gmres as gmres,
)
