"""Public ``jaxlite.lax.linalg`` (mirrors ``jax.lax.linalg``): decomposition primitives."""

from jaxlite._src.ops.linalg_ops import (  # noqa: F401
    cholesky as cholesky,
    eig as eig,
    eig_p as eig_p,
    eigh as eigh,
    lu as lu,
    qr as qr,
    svd as svd,
    triangular_solve as triangular_solve,
)
from jaxlite._src.ops.linalg_schur import (  # noqa: F401,E402
    hessenberg as hessenberg,
    hessenberg_p as hessenberg_p,
    schur as schur,
    schur_p as schur_p,
)
