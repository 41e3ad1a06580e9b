"""Public ``jaxlite.scipy.linalg`` (mirrors ``jax.scipy.linalg``)."""

from jaxlite._src.scipy_linalg import (
    block_diag as block_diag,
    cho_factor as cho_factor,
    cho_solve as cho_solve,
    cholesky as cholesky,
    det as det,
    eigh as eigh,
    inv as inv,
    lu as lu,
    lu_factor as lu_factor,
    lu_solve as lu_solve,
    qr as qr,
    solve as solve,
    solve_triangular as solve_triangular,
    svd as svd,
)
from jaxlite._src.scipy_linalg_more import (  # noqa: E402
    circulant as circulant,
    expm as expm,
    expm_frechet as expm_frechet,
    hankel as hankel,
    hilbert as hilbert,
    toeplitz as toeplitz,
)
