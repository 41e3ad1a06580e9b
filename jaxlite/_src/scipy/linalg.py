"""``jax.scipy.linalg``: SciPy-style linear algebra on top of ``lax.linalg`` primitives.

Factorizations (``cho_factor``, ``lu_factor``) and the solves that reuse them, triangular
solves with SciPy's ``trans`` convention, and thin wrappers with SciPy's signatures. All
compose primitives, so they jit, vmap and differentiate.
"""

from __future__ import annotations

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src.core.avals import aval_of
from jaxlite._src.numpy.util import promote_dtypes_inexact, with_weak_type
from jaxlite._src.ops import linalg_ops, linalg_schur

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def _trans_code(trans) -> int:
    try:
        return _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"Invalid 'trans' value {trans}") from None


def _as_matrix_rhs(a, b):
    """``b`` as a matrix right-hand side of ``a`` (a vector gets a trailing axis)."""
    b = jnp.asarray(b)
    vector = b.ndim == a.ndim - 1
    return (b[..., None] if vector else b), vector


def solve_triangular(
    a,
    b,
    trans=0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    debug=None,
    check_finite: bool = True,
):
    """Solve ``op(a) x = b`` for triangular ``a``; ``op`` is given by ``trans``: 0/'N'
    (``a``), 1/'T' (``a.T``), 2/'C' (``a.conj().T``). ``b``: ``(..., n)`` or ``(..., n, k)``.

    Raises:
      ValueError: for an invalid ``trans``.
    """
    del overwrite_b, debug, check_finite
    code = _trans_code(trans)
    a = jnp.asarray(a)
    b2, vector = _as_matrix_rhs(a, b)
    # As JAX: the common inexact dtype of ``a`` and ``b`` (no float32 floor: float16 stays,
    # and strict promotion accepts two float64 operands), weak only if both are.
    a, b2 = promote_dtypes_inexact(a, b2)
    x = linalg_ops.triangular_solve(
        a,
        b2,
        left_side=True,
        lower=lower,
        transpose_a=code > 0,
        conjugate_a=code == 2,
        unit_diagonal=unit_diagonal,
    )
    return x[..., 0] if vector else x


def cholesky(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """The Cholesky factor of a Hermitian positive-definite ``a`` (upper by default).

    Only the triangle named by ``lower`` is read (no symmetrization, as in SciPy and JAX),
    which is also what the derivative with respect to ``a`` reflects.
    """
    del overwrite_a, check_finite
    a = jnp.asarray(a)
    (a,) = promote_dtypes_inexact(a)
    if lower:
        return linalg_ops.cholesky(a, symmetrize_input=False)
    l_ = linalg_ops.cholesky(jnp.conj(jnp.swapaxes(a, -1, -2)), symmetrize_input=False)
    return jnp.conj(jnp.swapaxes(l_, -1, -2))


def cho_factor(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """``(c, lower)`` for ``cho_solve``: ``c`` is the Cholesky factor of ``a``."""
    return cholesky(a, lower=lower), lower


def cho_solve(c_and_lower, b, overwrite_b: bool = False, check_finite: bool = True):
    """Solve ``a x = b`` given ``cho_factor(a)``."""
    del overwrite_b, check_finite
    c, lower = c_and_lower
    if lower:
        y = solve_triangular(c, b, trans=0, lower=True)
        return solve_triangular(c, y, trans=2, lower=True)
    y = solve_triangular(c, b, trans=2, lower=False)
    return solve_triangular(c, y, trans=0, lower=False)


def lu_factor(a, overwrite_a: bool = False, check_finite: bool = True):
    """``(lu, piv)``: the packed LU factorization of ``a`` with LAPACK-style pivots
    (row ``i`` was swapped with row ``piv[i]``)."""
    del overwrite_a, check_finite
    lu, pivots, _ = linalg_ops.lu(jnp.asarray(a))
    return lu, pivots


def _pivots_to_permutation(pivots, n: int):
    perm = jnp.arange(n)
    for i in range(pivots.shape[-1]):
        j = pivots[i]
        pi, pj = perm[i], perm[j]
        perm = perm.at[i].set(pj).at[j].set(pi)
    return perm


def lu_solve(lu_and_piv, b, trans: int = 0, overwrite_b: bool = False, check_finite: bool = True):
    """Solve ``op(a) x = b`` given ``lu_factor(a)`` (``trans`` as in ``solve_triangular``).

    Raises:
      ValueError: for an invalid ``trans``; for batched factors (not implemented).
    """
    del overwrite_b, check_finite
    lu, piv = lu_and_piv
    lu = jnp.asarray(lu)
    if lu.ndim != 2:
        raise ValueError("jaxlite's lu_solve takes one (unbatched) factorization; use vmap")
    code = _trans_code(trans)
    perm = _pivots_to_permutation(jnp.asarray(piv), lu.shape[0])
    b = jnp.asarray(b)
    if code == 0:
        y = solve_triangular(lu, b[perm], trans=0, lower=True, unit_diagonal=True)
        return solve_triangular(lu, y, trans=0, lower=False)
    y = solve_triangular(lu, b, trans=code, lower=False)
    z = solve_triangular(lu, y, trans=code, lower=True, unit_diagonal=True)
    return jnp.zeros_like(z).at[perm].set(z)


def lu(a, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """``(p, l, u)`` with ``a = p @ l @ u`` (or ``(p @ l, u)`` with ``permute_l``)."""
    del overwrite_a, check_finite
    a = jnp.asarray(a)
    packed, _, permutation = linalg_ops.lu(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    l_ = jnp.tril(packed[..., :, :k], -1) + jnp.eye(m, k, dtype=packed.dtype)
    u = jnp.triu(packed[..., :k, :])
    p = jnp.swapaxes(jnp.eye(m, dtype=packed.dtype)[permutation], -1, -2)
    if permute_l:
        return jnp.matmul(p, l_), u
    return p, l_, u


def solve(a, b, lower: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
          debug: bool = False, check_finite: bool = True, assume_a: str = "gen"):  # fmt: skip
    """Solve ``a x = b``; ``assume_a``: 'gen' (LU), 'sym'/'her' (LU), 'pos' (Cholesky).

    Raises:
      ValueError: for an unknown ``assume_a``.
    """
    del overwrite_a, overwrite_b, debug, check_finite
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ValueError(
            f"Expected assume_a to be one of 'gen', 'sym', 'her', 'pos', got {assume_a}"
        )
    if assume_a == "pos":
        return cho_solve(cho_factor(a, lower=lower), b)
    return jnp.linalg.solve(a, b)


def det(a, overwrite_a: bool = False, check_finite: bool = True):
    del overwrite_a, check_finite
    return jnp.linalg.det(a)


def inv(a, overwrite_a: bool = False, check_finite: bool = True):
    del overwrite_a, check_finite
    return jnp.linalg.inv(a)


def svd(a, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd"):  # fmt: skip
    del overwrite_a, check_finite, lapack_driver
    return jnp.linalg.svd(a, full_matrices=full_matrices, compute_uv=compute_uv)


def qr(a, overwrite_a: bool = False, lwork=None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True):  # fmt: skip
    """``jax.scipy.linalg.qr``: ``(q, r)`` (mode 'full'/'economic'), ``(r,)`` (mode 'r');
    with ``pivoting=True`` also the int32 column permutation ``p`` (``a[:, p] = q r``,
    LAPACK's ``geqp3`` order), differentiable in ``q`` and ``r`` as in JAX.

    Raises:
      ValueError: an unknown mode (including 'raw', as in JAX).
    """
    del overwrite_a, lwork, check_finite
    if mode not in ("full", "r", "economic"):
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    a = jnp.asarray(a)
    p = None
    if pivoting:
        p = linalg_schur.qr_pivots(a)
        a = jnp.take_along_axis(a, jnp.broadcast_to(p[..., None, :], a.shape), axis=-1)
    q, r = jnp.linalg.qr(a, mode="complete" if mode in ("full", "r") else "reduced")
    out = (r,) if mode == "r" else (q, r)
    return out + (p,) if pivoting else out


def eigh(a, b=None, lower: bool = True, eigvals_only: bool = False, **_):
    """Eigenvalues (and vectors) of a Hermitian ``a``.

    Raises:
      NotImplementedError: for the generalized problem (``b`` given).
    """
    if b is not None:
        raise NotImplementedError("jax.scipy.linalg.eigh with b (generalized) in jaxlite")
    w, v = jnp.linalg.eigh(a, UPLO="L" if lower else "U")
    return w if eigvals_only else (w, v)


def block_diag(*arrs):
    """A block-diagonal matrix of the given (at most 2-D) arrays."""
    if not arrs:
        return jnp.zeros((1, 0))
    mats = [jnp.atleast_2d(jnp.asarray(x)) for x in arrs]
    dtype = jnp.result_type(*mats)
    rows = sum(m.shape[0] for m in mats)
    cols = sum(m.shape[1] for m in mats)
    out = jnp.zeros((rows, cols), dtype)
    r = c = 0
    for m in mats:
        out = out.at[r : r + m.shape[0], c : c + m.shape[1]].set(m.astype(dtype))
        r, c = r + m.shape[0], c + m.shape[1]
    return out
