"""Op-spec rows: linear algebra."""

from __future__ import annotations

import importlib

import numpy as np
import scipy.linalg

from ._base import LA, S34, S234, A, F, I, J, OpSpec, add

# ----------------------------------------------------------------------- linear algebra
add(
    OpSpec("dot_mm", J("dot"), (A(S34), A((4, 2))), np.dot, grad=2),
    OpSpec("dot_mv", J("dot"), (A(S34), A((4,))), np.dot),
    OpSpec("dot_nd", J("dot"), (A(S234), A((4, 2))), np.dot),
    OpSpec("matmul", J("matmul"), (A(S234), A((4, 2))), np.matmul, grad=2),
    OpSpec("matmul_batch", J("matmul"), (A((2, 1, 3, 4)), A((3, 4, 2))), np.matmul),
    OpSpec("matmul_vec", J("matmul"), (A((4,)), A((2, 4, 3))), np.matmul),
    OpSpec("matmul_int", J("matmul"), (A(S34, I, -3, 3), A((4, 2), I, -3, 3)), np.matmul, grad=0),
    OpSpec("vdot", J("vdot"), (A(S34), A(S34)), np.vdot),
    OpSpec("inner", J("inner"), (A(S34), A((2, 4))), np.inner),
    OpSpec("outer", J("outer"), (A((3,)), A((4,))), np.outer),
    OpSpec(
        "tensordot", J("tensordot", axes=1), (A(S34), A((4, 2))), lambda a, b: np.tensordot(a, b, 1)
    ),
    OpSpec(
        "tensordot_pairs",
        J("tensordot", axes=([0, 2], [1, 0])),
        (A(S234), A((4, 2, 5))),
        lambda a, b: np.tensordot(a, b, ([0, 2], [1, 0])),
    ),
    OpSpec("kron", J("kron"), (A((2, 3)), A((3, 2))), np.kron),
    OpSpec(
        "einsum_mm",
        lambda m: lambda a, b: m.jnp.einsum("ij,jk->ik", a, b),
        (A(S34), A((4, 2))),
        lambda a, b: np.einsum("ij,jk->ik", a, b),
        grad=2,
    ),
    OpSpec(
        "einsum_batch",
        lambda m: lambda a, b: m.jnp.einsum("bij,bjk->bik", a, b),
        (A(S234), A((2, 4, 3))),
        lambda a, b: np.einsum("bij,bjk->bik", a, b),
    ),
    OpSpec(
        "einsum_trace",
        lambda m: lambda a: m.jnp.einsum("ii", a),
        (A((3, 3)),),
        lambda a: np.einsum("ii", a),
    ),
    OpSpec(
        "einsum_diag",
        lambda m: lambda a: m.jnp.einsum("ii->i", a),
        (A((3, 3)),),
        lambda a: np.einsum("ii->i", a),
    ),
    OpSpec(
        "einsum_sum",
        lambda m: lambda a: m.jnp.einsum("ijk->j", a),
        (A(S234),),
        lambda a: np.einsum("ijk->j", a),
    ),
    OpSpec(
        "einsum_implicit",
        lambda m: lambda a, b: m.jnp.einsum("ij,kj", a, b),
        (A(S34), A((2, 4))),
        lambda a, b: np.einsum("ij,kj", a, b),
    ),
    OpSpec(
        "einsum_ellipsis",
        lambda m: lambda a, b: m.jnp.einsum("...ij,...jk", a, b),
        (A(S234), A((2, 4, 2))),
        lambda a, b: np.einsum("...ij,...jk", a, b),
    ),
    OpSpec(
        "einsum_three",
        lambda m: lambda a, b, c: m.jnp.einsum("ij,jk,kl->il", a, b, c),
        (A(S34), A((4, 2)), A((2, 5))),
        lambda a, b, c: np.einsum("ij,jk,kl->il", a, b, c),
    ),
    OpSpec(
        "einsum_outer",
        lambda m: lambda a, b: m.jnp.einsum("i,j->ij", a, b),
        (A((3,)), A((4,))),
        lambda a, b: np.einsum("i,j->ij", a, b),
    ),
    OpSpec("linalg_norm", LA("norm"), (A(S34),), np.linalg.norm),
    OpSpec("linalg_norm_vec", LA("norm"), (A((5,)),), np.linalg.norm),
    OpSpec(
        "linalg_norm_ord1",
        LA("norm", ord=1, axis=1),
        (A(S34),),
        lambda x: np.linalg.norm(x, 1, axis=1),
    ),
    OpSpec(
        "linalg_norm_inf", LA("norm", ord=np.inf), (A((5,)),), lambda x: np.linalg.norm(x, np.inf)
    ),
    OpSpec(
        "linalg_norm_nuc",
        LA("norm", ord="nuc"),
        (A(S34),),
        lambda x: np.linalg.norm(x, "nuc"),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_norm_2", LA("norm", ord=2), (A(S34),), lambda x: np.linalg.norm(x, 2), rtol=1e-4
    ),
    OpSpec("linalg_inv", LA("inv"), (A((3, 3), F, -1, 1, "wellcond"),), np.linalg.inv, rtol=1e-4),
    OpSpec(
        "linalg_solve",
        LA("solve"),
        (A((3, 3), F, -1, 1, "wellcond"), A((3, 2))),
        np.linalg.solve,
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_solve_vec",
        LA("solve"),
        (A((3, 3), F, -1, 1, "wellcond"), A((3,))),
        np.linalg.solve,
        rtol=1e-4,
    ),
    OpSpec("linalg_det", LA("det"), (A((3, 3), F, -1, 1, "wellcond"),), np.linalg.det, rtol=1e-4),
    OpSpec(
        "linalg_det_batch",
        LA("det"),
        (A((2, 3, 3), F, -1, 1, "wellcond"),),
        np.linalg.det,
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_slogdet",
        LA("slogdet"),
        (A((3, 3), F, -1, 1, "wellcond"),),
        lambda x: tuple(np.linalg.slogdet(x)),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_cholesky", LA("cholesky"), (A((3, 3), F, gen="spd"),), np.linalg.cholesky, rtol=1e-4
    ),
    OpSpec(
        "linalg_qr_recon",
        lambda m: lambda x: _matmul_pair(m, m.linalg.qr(x)),
        (A((4, 3)),),
        lambda x: x,
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_qr_r_abs",
        lambda m: lambda x: m.jnp.abs(m.linalg.qr(x)[1]),
        (A((4, 3)),),
        lambda x: np.abs(np.linalg.qr(x)[1]),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_svd_vals",
        LA("svd", compute_uv=False),
        (A((4, 3)),),
        lambda x: np.linalg.svd(x, compute_uv=False),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_svd_recon",
        lambda m: lambda x: _svd_recon(m, x),
        (A((4, 3)),),
        lambda x: x,
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_eigh_vals",
        lambda m: lambda x: m.linalg.eigh(x)[0],
        (A((3, 3), F, gen="spd"),),
        lambda x: np.linalg.eigh(x)[0],
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_eigh_recon",
        lambda m: lambda x: _eigh_recon(m, x),
        (A((3, 3), F, gen="spd"),),
        lambda x: x,
        rtol=1e-4,
    ),
    OpSpec(
        "lax_linalg_schur_t",
        lambda m: lambda x: m.lax.linalg.schur(x)[0],
        (A((3, 3), F, gen="spd"),),
        lambda x: scipy.linalg.schur(x)[0],
        rtol=1e-4,
        grad=0,
    ),
    OpSpec(
        "linalg_qr_raw_h",  # geqrf (no derivative, as in JAX)
        lambda m: lambda x: m.linalg.qr(x, mode="raw")[0],
        (A((4, 3)),),
        lambda x: np.linalg.qr(x, mode="raw")[0],
        rtol=1e-4,
        grad=0,
    ),
    OpSpec(
        "scipy_linalg_qr_pivots",  # qr_pivots (geqp3's permutation: no tangent)
        lambda m: lambda x: _sla(m).qr(x, pivoting=True, mode="r")[1],
        (A((4, 3)),),
        lambda x: scipy.linalg.qr(x, pivoting=True, mode="r")[1],
        grad=0,
    ),
    OpSpec(
        "scipy_linalg_hessenberg_recon",
        lambda m: lambda x: _hess_recon(m, x),
        (A((3, 3), F, gen="spd"),),
        lambda x: x,
        rtol=1e-4,
        grad=0,
    ),
    OpSpec(
        "scipy_linalg_solve_sylvester",
        lambda m: lambda x: _sla(m).solve_sylvester(x, x, x),
        (A((3, 3), F, gen="spd"),),
        lambda x: scipy.linalg.solve_sylvester(x, x, x),
        rtol=1e-4,
        grad=0,
    ),
    OpSpec(
        "linalg_eigvals",
        LA("eigvals"),
        (A((3, 3), F, gen="spd"),),
        lambda x: np.linalg.eigvals(x).astype(np.complex64),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_eigvalsh", LA("eigvalsh"), (A((3, 3), F, gen="spd"),), np.linalg.eigvalsh, rtol=1e-4
    ),
    OpSpec("linalg_pinv", LA("pinv"), (A((4, 3)),), np.linalg.pinv, rtol=1e-4),
    OpSpec(
        "linalg_matrix_power",
        LA("matrix_power", n=3),
        (A((3, 3), F, -1, 1),),
        lambda x: np.linalg.matrix_power(x, 3),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_matrix_power_neg",
        LA("matrix_power", n=-2),
        (A((3, 3), F, -1, 1, "wellcond"),),
        lambda x: np.linalg.matrix_power(x, -2),
        rtol=1e-4,
    ),
    OpSpec(
        "linalg_lstsq",
        lambda m: lambda a, b: m.linalg.lstsq(a, b)[0],
        (A((5, 3)), A((5,))),
        lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0],
        rtol=1e-4,
    ),
)


def _matmul_pair(m, qr):
    return m.jnp.matmul(qr[0], qr[1])


def _svd_recon(m, x):
    u, s, vh = m.linalg.svd(x, full_matrices=False)
    return m.jnp.matmul(u * s[..., None, :], vh)


def _eigh_recon(m, x):
    w, v = m.linalg.eigh(x)
    return m.jnp.matmul(v * w[..., None, :], m.jnp.swapaxes(v, -1, -2))


def _sla(m):
    """``jaxlite.scipy.linalg`` or ``jax.scipy.linalg``, whichever library ``m`` is."""
    return importlib.import_module(m.lax.__name__.split(".")[0] + ".scipy.linalg")


def _hess_recon(m, x):
    h, q = _sla(m).hessenberg(x, calc_q=True)
    return q @ h @ q.T


# ------------------------------------------- lax.linalg extras (session 10: linalg_more)
def _np_tridiag(dl, d, du, b):
    return np.linalg.solve(np.diag(d) + np.diag(dl[1:], -1) + np.diag(du[:-1], 1), b)


def _raw(m, x):
    h, t = m.jnp.linalg.qr(x, mode="raw")
    return h.mT, t


add(
    OpSpec(
        "lax_linalg_tridiagonal_solve",
        lambda m: lambda dl, d, du, b: m.lax.linalg.tridiagonal_solve(dl, d + 4, du, b),
        (A((4,)), A((4,)), A((4,)), A((4, 2))),
        lambda dl, d, du, b: _np_tridiag(dl, d + 4, du, b),
        rtol=1e-4,
        atol=1e-5,
    ),
    OpSpec(
        "lax_linalg_tridiagonal_d",  # sytrd: the tridiagonal's diagonal
        lambda m: lambda x: m.lax.linalg.tridiagonal(x)[1],
        (A((3, 3), F, gen="spd"),),
        lambda x: scipy.linalg.lapack.ssytrd(x, lower=1)[1],
        rtol=1e-4,
        grad=0,
    ),
    OpSpec(
        "lax_linalg_cholesky_update",  # no batching rule, as in JAX
        lambda m: lambda r, w: m.lax.linalg.cholesky_update(m.jnp.triu(r), w),
        (A((3, 3), F, gen="spd"), A((3,))),
        lambda r, w: np.linalg.cholesky(np.triu(r).T @ np.triu(r) + np.outer(w, w)).T,
        rtol=1e-4,
        atol=1e-5,
        grad=0,
        vmap=False,
    ),
    OpSpec(
        "lax_linalg_householder_product",
        lambda m: lambda x: m.lax.linalg.householder_product(*_raw(m, x)),
        (A((4, 3)),),
        lambda x: np.linalg.qr(x)[0],
        rtol=1e-4,
        atol=1e-5,
        grad=0,
    ),
    OpSpec(
        "lax_linalg_ormqr",
        lambda m: lambda x, c: m.lax.linalg.ormqr(*_raw(m, x), c, transpose=True),
        (A((4, 3)), A((4, 2))),
        lambda x, c: np.linalg.qr(x, mode="complete")[0].T @ c,
        rtol=1e-4,
        atol=1e-5,
        grad=0,
    ),
    OpSpec(
        "lax_linalg_lu_pivots_to_permutation",
        lambda m: lambda p: m.lax.linalg.lu_pivots_to_permutation(p, 5),
        (A((3,), I, 0, 5),),
        None,
        grad=0,
    ),
    OpSpec(
        "lax_linalg_symmetric_product",
        lambda m: lambda a, c: m.lax.linalg.symmetric_product(a, c, alpha=2.0, beta=0.5),
        (A((3, 4)), A((3, 3))),
        lambda a, c: 2 * a @ a.T + 0.5 * c,
        rtol=1e-4,
        atol=1e-5,
        grad=0,
    ),
)
