"""Public ``jaxlite.scipy.linalg`` (mirrors ``jax.scipy.linalg``)."""

from jaxlite._src.scipy.linalg import (
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
from jaxlite._src.scipy.linalg_decomp import (  # noqa: E402
    eigh_tridiagonal as eigh_tridiagonal,
    funm as funm,
    hessenberg as hessenberg,
    polar as polar,
    qr_multiply as qr_multiply,
    rsf2csf as rsf2csf,
    schur as schur,
    solve_sylvester as solve_sylvester,
    sqrtm as sqrtm,
)
from jaxlite._src.scipy.linalg_matrices import (  # noqa: E402
    companion as companion,
    convolution_matrix as convolution_matrix,
    dft as dft,
    fiedler as fiedler,
    fiedler_companion as fiedler_companion,
    hadamard as hadamard,
    helmert as helmert,
    invhilbert as invhilbert,
    invpascal as invpascal,
    leslie as leslie,
    pascal as pascal,
)
from jaxlite._src.scipy.linalg_more import (  # noqa: E402
    circulant as circulant,
    expm as expm,
    expm_frechet as expm_frechet,
    hankel as hankel,
    hilbert as hilbert,
    toeplitz as toeplitz,
)
