"""Public ``jaxlite.lax.linalg`` (mirrors ``jax.lax.linalg``): decomposition primitives."""

from jaxlite._src.lax_qdwh import qdwh as qdwh
from jaxlite._src.ops.linalg_more import (  # noqa: F401
    EighImplementation as EighImplementation,
    EigImplementation as EigImplementation,
    SvdAlgorithm as SvdAlgorithm,
    cholesky_update as cholesky_update,
    cholesky_update_p as cholesky_update_p,
    eigh as eigh,
    householder_product as householder_product,
    householder_product_p as householder_product_p,
    lu_pivots_to_permutation as lu_pivots_to_permutation,
    lu_pivots_to_permutation_p as lu_pivots_to_permutation_p,
    ormqr as ormqr,
    ormqr_p as ormqr_p,
    qr as qr,
    svd as svd,
    symmetric_product as symmetric_product,
    symmetric_product_p as symmetric_product_p,
    tridiagonal as tridiagonal,
    tridiagonal_p as tridiagonal_p,
    tridiagonal_solve as tridiagonal_solve,
    tridiagonal_solve_p as tridiagonal_solve_p,
)
from jaxlite._src.ops.linalg_ops import (  # noqa: F401
    cholesky as cholesky,
    cholesky_p as cholesky_p,
    eig as eig,
    eig_p as eig_p,
    eigh_p as eigh_p,
    lu as lu,
    lu_p as lu_p,
    qr_p as qr_p,
    triangular_solve as triangular_solve,
    triangular_solve_p as triangular_solve_p,
)
from jaxlite._src.ops.linalg_schur import (  # noqa: F401
    hessenberg as hessenberg,
    hessenberg_p as hessenberg_p,
    schur as schur,
    schur_p as schur_p,
)
from jaxlite._src.ops.linalg_svd import svd_p as svd_p  # noqa: F401
