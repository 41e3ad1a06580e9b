"""Public ``jaxlite.numpy.linalg`` (mirrors ``jax.numpy.linalg``)."""

from jaxlite._src.numpy.linalg import (  # noqa: F401
    EighResult as EighResult, QRResult as QRResult, SlogdetResult as SlogdetResult,
    SVDResult as SVDResult, cholesky as cholesky, det as det, eigh as eigh,
    eigvalsh as eigvalsh, inv as inv, lstsq as lstsq, matrix_norm as matrix_norm,
    matrix_power as matrix_power, matrix_rank as matrix_rank,
    matrix_transpose as matrix_transpose, multi_dot as multi_dot, norm as norm,
    outer as outer, pinv as pinv, qr as qr, slogdet as slogdet, solve as solve, svd as svd,
    svdvals as svdvals, trace as trace, vector_norm as vector_norm, cond as cond,
    cross as cross, diagonal as diagonal, matmul as matmul, tensordot as tensordot,
    tensorinv as tensorinv, tensorsolve as tensorsolve, vecdot as vecdot)
