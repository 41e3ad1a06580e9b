"""``jax.scipy.linalg``: SciPy-style linear algebra on top of ``lax.linalg`` primitives.

Factorizations (``cho_factor``, ``lu_factor``) and the solves that reuse them, triangular
solves with SciPy's ``trans`` convention, and thin wrappers with SciPy's signatures. All
compose primitives, so they jit, vmap and differentiate.
"""

from __future__ import annotations

import warnings

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import lax
from jaxlite._src.api import vmap
from jaxlite._src.core.avals import aval_of
from jaxlite._src.lax_solves import custom_linear_solve
from jaxlite._src.numpy.util import no_sequences, promote_dtypes_inexact, with_weak_type
from jaxlite._src.ops import linalg_more, linalg_ops, linalg_schur

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def _trans_code(trans) -> int:
    try:
        return _TRANS[trans]
    except (KeyError, TypeError):
        raise ValueError(f"Invalid 'trans' value {trans}") from None


def _rhs_signature(a, b, name: str, hint: str, n_factor_args: int = 1) -> str:
    """JAX's rule for a right-hand side ``b`` of factors ``a``: a vector when ``b`` is
    1-D, or (deprecated, with JAX's ``FutureWarning``) when ``b`` has one dimension fewer
    than ``a`` and the same last axis; a matrix ``(n, k)`` otherwise. Batch dimensions
    broadcast (``jnp.vectorize`` with the returned signature)."""
    factors = "(n,n)," + "(n)," * (n_factor_args - 1)
    if b.ndim == 1:
        return factors + "(n)->(n)"
    if a.ndim == b.ndim + 1 and a.shape[-1] == b.shape[-1]:
        warnings.warn(
            f"jax.scipy.linalg.{name}: batched 1D solves with b.ndim > 1 are deprecated, "
            "and in the future will be treated as a batched 2D solve. "
            f"Use {hint} to avoid this warning.",
            category=FutureWarning,
            stacklevel=3,
        )
        return factors + "(n)->(n)"
    return factors + "(n,k)->(n,k)"


def _triangular(a, b, signature: str, **params):
    """``lax.linalg.triangular_solve`` (left side) vectorized over broadcast batch
    dimensions; a vector ``b`` gets a trailing axis for the primitive."""

    def core(a_, b_):
        if b_.ndim == 1:
            return linalg_ops.triangular_solve(a_, b_[:, None], left_side=True, **params)[:, 0]
        return linalg_ops.triangular_solve(a_, b_, left_side=True, **params)

    return jnp.vectorize(core, signature=signature)(a, b)


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
    (``a``), 1/'T' (``a.T``), 2/'C' (``a.conj().T``). ``b``: ``(n,)``, ``(..., n, k)``, or
    (deprecated, as in JAX) ``(..., n)`` with one dimension fewer than ``a``; batch
    dimensions of ``a`` and ``b`` broadcast.

    Raises:
      ValueError: for an invalid ``trans``.
    """
    del overwrite_b, debug, check_finite
    code = _trans_code(trans)
    # As JAX: the common inexact dtype of ``a`` and ``b`` (no float32 floor: float16 stays,
    # and strict promotion accepts two float64 operands), weak only if both are.
    a, b = promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(b))
    sig = _rhs_signature(a, b, "solve_triangular",
                         "solve_triangular(a, b[..., None]).squeeze(-1)")
    return _triangular(a, b, sig, lower=lower, transpose_a=code > 0,
                       conjugate_a=code == 2, unit_diagonal=unit_diagonal)


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
    c, b = promote_dtypes_inexact(jnp.asarray(c), jnp.asarray(b))
    sig = _rhs_signature(c, b, "cho_solve",
                         "cho_solve(c_and_lower, b[..., None]).squeeze(-1)")
    y = _triangular(c, b, sig, lower=lower, transpose_a=not lower, conjugate_a=not lower,
                    unit_diagonal=False)
    return _triangular(c, y, sig, lower=lower, transpose_a=lower, conjugate_a=lower,
                       unit_diagonal=False)


def lu_factor(a, overwrite_a: bool = False, check_finite: bool = True):
    """``(lu, piv)``: the packed LU factorization of ``a`` with LAPACK-style pivots
    (row ``i`` was swapped with row ``piv[i]``)."""
    del overwrite_a, check_finite
    lu, pivots, _ = linalg_ops.lu(jnp.asarray(a))
    return lu, pivots


def lu_solve(lu_and_piv, b, trans: int = 0, overwrite_b: bool = False, check_finite: bool = True):
    """Solve ``op(a) x = b`` given ``lu_factor(a)`` (``trans`` as in ``solve_triangular``).

    ``b`` as in ``solve_triangular``; batch dimensions of the factors and ``b`` broadcast.

    Raises:
      ValueError: for an invalid ``trans``; for core sizes that do not match.
    """
    del overwrite_b, check_finite
    lu, piv = lu_and_piv
    code = _trans_code(trans)
    lu, b = promote_dtypes_inexact(jnp.asarray(lu), jnp.asarray(b))
    perm = linalg_more.lu_pivots_to_permutation(jnp.asarray(piv), lu.shape[-2])
    sig = _rhs_signature(lu, b, "lu_solve",
                         "lu_solve(lu_and_piv, b[..., None]).squeeze(-1)", n_factor_args=2)

    def core(lu_, perm_, b_):
        x = b_[:, None] if b_.ndim == 1 else b_
        if code == 0:
            x = linalg_ops.triangular_solve(lu_, x[perm_], left_side=True, lower=True,
                                            unit_diagonal=True)
            x = linalg_ops.triangular_solve(lu_, x, left_side=True, lower=False)
        else:
            conj = code == 2
            x = linalg_ops.triangular_solve(lu_, x, left_side=True, lower=False,
                                            transpose_a=True, conjugate_a=conj)
            x = linalg_ops.triangular_solve(lu_, x, left_side=True, lower=True,
                                            unit_diagonal=True, transpose_a=True,
                                            conjugate_a=conj)
            x = jnp.zeros_like(x).at[perm_].set(x)
        return x[:, 0] if b_.ndim == 1 else x

    return jnp.vectorize(core, signature=sig)(lu, perm, b)


def lu(a, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """``(p, l, u)`` with ``a = p @ l @ u`` (or ``(p @ l, u)`` with ``permute_l``)."""
    del overwrite_a, check_finite
    (a,) = promote_dtypes_inexact(jnp.asarray(a))
    if a.ndim != 2:
        # JAX unpacks the shape into (m, n): a stack is refused (vmap it instead)
        raise ValueError(f"jax.scipy.linalg.lu: a must be a 2-D matrix, got shape {a.shape}")
    packed, _, permutation = linalg_ops.lu(a)
    m, n = a.shape
    k = min(m, n)
    l_ = jnp.tril(packed[..., :, :k], -1) + jnp.eye(m, k, dtype=packed.dtype)
    u = jnp.triu(packed[..., :k, :])
    # the permutation matrix is real (of the input's real dtype) also for complex input;
    # with permute_l the product p @ l takes l's dtype
    p = jnp.swapaxes(jnp.eye(m, dtype=jnp.real(packed).dtype)[permutation], -1, -2)
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
        return _solve_pos(a, b, lower)
    return jnp.linalg.solve(a, b)


def _solve_pos(a, b, lower):
    """``solve(assume_a='pos')`` with JAX's derivative: the Cholesky factors of
    ``stop_gradient(a)`` solve inside a symmetric ``custom_linear_solve`` whose matvec is
    ``a @ x``, so ``a``'s cotangent is the whole outer product ``-(a^-1 g) x^T`` (through
    the factorization it would fall on the one triangle the factorization reads)."""
    a, b = promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(b))
    square = a.ndim >= 2 and a.shape[-1] == a.shape[-2]
    if not (square and b.ndim in (a.ndim, a.ndim - 1) and b.shape[a.ndim - 2] == a.shape[-1]):
        raise ValueError(
            "The arguments to solve must have shapes a=[..., m, m] and b=[..., m, k] or "
            f"b=[..., m]; got a={a.shape} and b={b.shape}"
        )
    factors = cho_factor(lax.stop_gradient(a), lower=lower)

    def matvec(x):
        return jnp.einsum("...ij,...j->...i", a, x)

    def solve(_, x):
        return cho_solve(factors, x[..., None])[..., 0]

    def one(x):
        return custom_linear_solve(matvec, x, solve=solve, symmetric=True)

    if a.ndim == b.ndim + 1:
        return one(b)
    return vmap(one, b.ndim - 1, max(a.ndim, b.ndim) - 1)(b)


def det(a, overwrite_a: bool = False, check_finite: bool = True):
    del overwrite_a, check_finite
    return jnp.linalg.det(a)


def inv(a, overwrite_a: bool = False, check_finite: bool = True):
    del overwrite_a, check_finite
    return jnp.linalg.inv(a)


def svd(a, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd"):  # fmt: skip
    del overwrite_a, check_finite, lapack_driver
    a = jnp.asarray(a)  # (JAX's scipy svd takes a list)
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
    if pivoting:  # (an integer matrix is promoted, as jnp.linalg.qr does)
        (a,) = promote_dtypes_inexact(a)
        p = linalg_schur.qr_pivots(a)
        a = jnp.take_along_axis(a, jnp.broadcast_to(p[..., None, :], a.shape), axis=-1)
    q, r = jnp.linalg.qr(a, mode="complete" if mode in ("full", "r") else "reduced")
    out = (r,) if mode == "r" else (q, r)
    return out + (p,) if pivoting else out


def eigh(
    a,
    b=None,
    lower: bool = True,
    eigvals_only: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    turbo: bool = True,
    eigvals=None,
    type: int = 1,  # noqa: A002 - SciPy's parameter name
    check_finite: bool = True,
):
    """Eigenvalues (and vectors) of a Hermitian ``a``, JAX's signature (SciPy's newer
    ``subset_by_index`` / ``subset_by_value`` are a ``TypeError`` there too).

    Raises:
      NotImplementedError: for the generalized problem (``b`` given), ``type`` other than
        1 or ``eigvals`` given, as JAX.
    """
    del overwrite_a, overwrite_b, turbo, check_finite
    if b is not None:
        raise NotImplementedError("Only the b=None case of eigh is implemented")
    if type != 1:
        raise NotImplementedError("Only the type=1 case of eigh is implemented.")
    if eigvals is not None:
        raise NotImplementedError("Only the eigvals=None case of eigh is implemented.")
    w, v = jnp.linalg.eigh(jnp.asarray(a), UPLO="L" if lower else "U")  # (a list too, as JAX)
    return w if eigvals_only else (w, v)


def block_diag(*arrs):
    """A block-diagonal matrix of the given (at most 2-D) arrays (a list or tuple is
    refused: JAX promotes the operands' dtypes first)."""
    no_sequences(arrs)
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
