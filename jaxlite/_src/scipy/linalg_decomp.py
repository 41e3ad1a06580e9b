"""``jax.scipy.linalg`` functions built on the Schur and Hessenberg decompositions:
``schur``, ``rsf2csf``, ``sqrtm``, ``funm``, ``solve_sylvester``, ``hessenberg``, plus
``polar``, ``qr_multiply`` and ``eigh_tridiagonal``.

The factorizations are LAPACK's through SciPy (``ops/linalg_schur.py``); the rest is
jax.numpy. As in JAX, everything that starts with a Schur or Hessenberg factorization has
no derivative (``NotImplementedError: Differentiation rule for 'schur' not implemented``);
``rsf2csf`` (Givens rotations in jax.numpy) and ``polar`` with ``method='svd'`` do.

Triangular recurrences (``sqrtm``, ``funm``) run over the superdiagonals: for an upper
triangular ``T`` and a function ``F = f(T)`` (which commutes with ``T``), the entries on
superdiagonal ``d`` follow from those on the diagonals below it. With the unknown entries
still zero, ``(T F - F T)[i, j]`` is exactly the known part of Parlett's numerator, and for
the square root ``(R R)[i, j]`` is the known part of ``T[i, j]``; one masked update per
superdiagonal.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import jaxlite.numpy as jnp
from jaxlite._src import dtypes
from jaxlite._src.numpy.util import no_sequences, promote_dtypes_inexact, with_weak_type
from jaxlite._src.ops import linalg_schur as _ls


def _inexact(a):
    a = jnp.asarray(a)
    if not dtypes.is_inexact(a.dtype):
        a = a.astype(dtypes.default_float_dtype())
    return a


def _to_complex(a):
    return a.astype(dtypes.to_complex_dtype(a.dtype))


def _diag_offset_mask(n: int, d: int):
    i = np.arange(n)
    return jnp.asarray(i[None, :] - i[:, None] == d)


def _H(x):
    return jnp.conj(jnp.swapaxes(x, -1, -2))


# ------------------------------------------------------------------------------- schur
def schur(a, output: str = "real"):
    """``jax.scipy.linalg.schur``: the Schur decomposition ``a = Z T Z^H``.

    Args:
        a: a (batch of) square float or complex matrices.
        output: ``"real"`` (quasi upper triangular ``T`` for real input, 2x2 blocks for
            complex eigenvalue pairs) or ``"complex"`` (upper triangular, complex ``T``).

    Returns:
        ``[T, Z]`` (a list, as JAX's).

    Raises:
        ValueError: for another ``output``, or a non-square matrix.
        TypeError: for an integer matrix (as JAX).
    """
    if output not in ("real", "complex"):
        raise ValueError(
            f"Expected 'output' to be either 'real' or 'complex', got output={output!r}."
        )
    no_sequences((a,))  # JAX refuses a list (each with its own error; a TypeError here)
    a = jnp.asarray(a)
    if output == "complex" and dtypes.is_inexact(a.dtype):
        a = _to_complex(a)
    return _ls.schur(a)


def _check_2d_square(a, name):
    if a.ndim < 2:
        # The message JAX gives (from its Schur decomposition).
        raise TypeError(f"Input 0 to schur must have rank at least 2, but got shape={a.shape}")
    if a.ndim != 2:
        raise ValueError(f"{name}: expected a 2-D square matrix, got shape {a.shape}")
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"The input to schur must be a square matrix. Got shape {a.shape}.")


def _complex_schur(a):
    t, z = _ls.schur(_to_complex(_inexact(a)))
    return t, z


# ------------------------------------------------------------------------------- sqrtm
def sqrtm(A, blocksize: int = 1):
    """``jax.scipy.linalg.sqrtm``: the principal matrix square root.

    Computed from the complex Schur form ``A = Z T Z^H`` by the triangular recurrence
    ``R[i, j] (R[i, i] + R[j, j]) = T[i, j] - sum_k R[i, k] R[k, j]``.

    Args:
        A: a square matrix (2-D).
        blocksize: must be 1 (the blocked algorithm is not implemented, as in JAX).

    Returns:
        The complex matrix ``R`` with ``R @ R == A`` (NaNs where the recurrence divides by
        zero, e.g. a singular matrix without a square root).
    """
    if blocksize > 1:
        raise NotImplementedError("Blocked version is not implemented yet.")
    no_sequences((A,))
    A = jnp.asarray(A)
    _check_2d_square(A, "sqrtm")
    t, z = _complex_schur(A)
    n = t.shape[-1]
    r = jnp.diag(jnp.sqrt(jnp.diagonal(t)))
    for d in range(1, n):
        rii = jnp.diagonal(r)
        denom = rii[:, None] + rii[None, :]
        upd = (t - r @ r) / jnp.where(denom == 0, 1, denom) + jnp.where(denom == 0, jnp.nan, 0)
        r = jnp.where(_diag_offset_mask(n, d), upd, r)
    return z @ r @ _H(z)


# -------------------------------------------------------------------------------- funm
def funm(A, func: Callable, disp: bool = True):
    """``jax.scipy.linalg.funm``: a matrix function by Schur-Parlett.

    ``func`` is applied to the eigenvalues (the diagonal of the complex Schur form) and
    Parlett's recurrence fills the rest. Where two eigenvalues coincide the recurrence's
    numerator is kept undivided, as SciPy (and JAX) do; the error estimate then flags it.

    Args:
        A: a square matrix (2-D).
        func: an elementwise function of jax.numpy arrays (applied to a vector).
        disp: if False, also return SciPy's error estimate (1 means unreliable).

    Returns:
        ``f(A)`` (complex), or ``(f(A), errest)`` when ``disp`` is False.
    """
    A = jnp.asarray(A)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError("expected square array_like input")
    if A.dtype in (np.float16, dtypes.bfloat16):
        _ls.lapack_dtype(A)  # JAX's Schur refuses half precisions
    t, z = _complex_schur(A)
    n = t.shape[-1]
    tdiag = jnp.diagonal(t)
    f = jnp.diag(jnp.asarray(func(tdiag)).astype(t.dtype))
    tdt = dtypes.to_real_dtype(t.dtype)
    minden = jnp.abs(t[0, 0]) if n else jnp.asarray(0, tdt)
    for d in range(1, n):
        den = tdiag[None, :] - tdiag[:, None]
        num = t @ f - f @ t  # with F's superdiagonal d still zero: Parlett's numerator
        upd = jnp.where(den == 0, num, num / jnp.where(den == 0, 1, den))
        mask = _diag_offset_mask(n, d)
        f = jnp.where(mask, upd, f)
        minden = jnp.minimum(minden, jnp.min(jnp.where(mask, jnp.abs(den), jnp.inf)))
    out = z @ f @ _H(z)
    if disp:
        return out
    eps = np.finfo(tdt).eps
    minden = jnp.where(minden == 0, eps, minden)
    norm1 = jnp.max(jnp.sum(jnp.abs(jnp.triu(t, 1)), axis=0)) if n else jnp.asarray(0, tdt)
    err = jnp.minimum(1, jnp.maximum(eps, (eps / minden) * norm1)).astype(tdt)
    err = jnp.where(jnp.all(jnp.isfinite(f)), err, jnp.inf)
    return out, err


# --------------------------------------------------------------------- solve_sylvester
def solve_sylvester(A, B, C, *, method: str = "schur", tol: float = 1e-8):
    """``jax.scipy.linalg.solve_sylvester``: ``X`` with ``A X + X B = C``.

    Args:
        A: ``(..., m, m)``.
        B: ``(..., n, n)``.
        C: ``(..., m, n)``; the batch axes of the three broadcast.
        method: ``"schur"`` (Bartels-Stewart: complex Schur forms of ``A`` and ``B`` and
            LAPACK's triangular Sylvester solver) or ``"eigen"`` (eigendecompositions).
        tol: if some ``|lambda_i(A) + mu_j(B)|`` is below it (no unique solution), the
            result is all NaN.

    Returns:
        ``X`` of shape ``(..., m, n)``, real when all inputs are real.
    """
    if method not in ("schur", "eigen"):
        raise ValueError(
            f'Unrecognized method {method}. The two valid methods are either "schur" or "eigen".'
        )
    A, B, C = (jnp.asarray(x) for x in (A, B, C))
    for name, x in (("A", A), ("B", B), ("C", C)):
        if x.ndim < 2:
            raise ValueError(f"solve_sylvester: {name} must be a (batch of) matrices")
    m, n = A.shape[-1], B.shape[-1]
    if A.shape[-2] != m or B.shape[-2] != n or C.shape[-2:] != (m, n):
        raise ValueError(
            "solve_sylvester: expected A (..., m, m), B (..., n, n) and C (..., m, n); got "
            f"{A.shape}, {B.shape} and {C.shape}"
        )
    dt = jnp.result_type(A, B, C)
    if not dtypes.is_inexact(dt):
        dt = dtypes.default_float_dtype()
    batch = jnp.broadcast_shapes(A.shape[:-2], B.shape[:-2], C.shape[:-2])
    A = jnp.broadcast_to(A.astype(dt), batch + (m, m))
    B = jnp.broadcast_to(B.astype(dt), batch + (n, n))
    C = jnp.broadcast_to(C.astype(dt), batch + (m, n))
    if method == "schur":
        r, u = _ls.schur(_to_complex(A))
        s, v = _ls.schur(_to_complex(B))
        f = _H(u) @ _to_complex(C) @ v
        y = _ls.trsyl_p.bind(r, s, f)
        x = u @ y @ _H(v)
        lam, mu = jnp.diagonal(r, axis1=-2, axis2=-1), jnp.diagonal(s, axis1=-2, axis2=-1)
    else:
        lam, va = jnp.linalg.eig(A)
        mu, vb = jnp.linalg.eig(B)
        f = jnp.linalg.solve(va, _to_complex(C) @ vb)
        y = f / (lam[..., :, None] + mu[..., None, :])
        x = va @ y @ jnp.linalg.inv(vb)
    close = jnp.any(jnp.abs(lam[..., :, None] + mu[..., None, :]) < tol, axis=(-2, -1))
    x = jnp.where(close[..., None, None], jnp.nan, x)
    return x if dtypes.is_complex(dt) else jnp.real(x).astype(dt)


def _abs2(x):
    return jnp.real(x) ** 2 + jnp.imag(x) ** 2


# ----------------------------------------------------------------------------- rsf2csf
def rsf2csf(T, Z, check_finite: bool = True):
    """``jax.scipy.linalg.rsf2csf``: real Schur form to complex Schur form.

    Each 2x2 diagonal block of ``T`` (a complex eigenvalue pair) is triangularized by a
    complex Givens rotation, applied to ``T`` from both sides and to ``Z`` from the right;
    blocks whose subdiagonal entry is negligible are left alone (and, as in JAX, that
    entry is set to 0). Differentiable.

    Args:
        T: ``(..., n, n)`` real Schur form.
        Z: ``(..., n, n)`` its Schur vectors.
        check_finite: unused (JAX's signature).

    Returns:
        ``(T, Z)``, complex, ``T`` upper triangular.
    """
    T, Z = jnp.asarray(T), jnp.asarray(Z)
    if T.ndim < 2 or T.shape[-1] != T.shape[-2]:
        raise ValueError(f"Input 'T' must be square, got shape {T.shape}")
    if Z.shape != T.shape:
        raise ValueError(f"Input array shapes must match: Z: {Z.shape} vs. T: {T.shape}")
    dt = dtypes.to_complex_dtype(jnp.result_type(_inexact(T), _inexact(Z)))
    T, Z = T.astype(dt), Z.astype(dt)
    n = T.shape[-1]
    eps = np.finfo(dtypes.to_real_dtype(dt)).eps
    for m in range(n - 1, 0, -1):
        a, b = T[..., m - 1, m - 1], T[..., m - 1, m]
        c, d = T[..., m, m - 1], T[..., m, m]
        active = jnp.abs(c) > eps * (jnp.abs(a) + jnp.abs(d))
        # Inactive blocks get a stand-in block [[0, 1], [-1, 0]] (a rotation that is then
        # discarded), so no square root or division meets a zero -- also in the gradient.
        a, b = jnp.where(active, a, 0), jnp.where(active, b, 1)
        c, d = jnp.where(active, c, -1), jnp.where(active, d, 0)
        # The eigenvalue of the block with the positive imaginary part (LAPACK's first).
        disc = jnp.sqrt(((a - d) / 2) ** 2 + b * c)
        mu = (a + d) / 2 + jnp.where(jnp.imag(disc) < 0, -disc, disc)
        r = jnp.sqrt(_abs2(mu - d) + _abs2(c))
        cs = jnp.where(active, (mu - d) / r, 1)
        sn = jnp.where(active, c / r, 0)
        g = jnp.stack(
            [jnp.stack([jnp.conj(cs), sn], -1), jnp.stack([-jnp.conj(sn), cs], -1)], -2
        )  # (..., 2, 2)
        gh = _H(g)
        T = T.at[..., m - 1 : m + 1, m - 1 :].set(g @ T[..., m - 1 : m + 1, m - 1 :])
        T = T.at[..., : m + 1, m - 1 : m + 1].set(T[..., : m + 1, m - 1 : m + 1] @ gh)
        Z = Z.at[..., :, m - 1 : m + 1].set(Z[..., :, m - 1 : m + 1] @ gh)
        # As JAX: every subdiagonal entry becomes 0 (negligible ones included).
        T = T.at[..., m, m - 1].set(0)
    return T, Z


# -------------------------------------------------------------------------- hessenberg
def hessenberg(a, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """``jax.scipy.linalg.hessenberg``: ``a = Q H Q^H`` with ``H`` upper Hessenberg.

    Args:
        a: a (batch of) square float or complex matrices.
        calc_q: also return ``Q``.
        overwrite_a: unused (JAX's signature).
        check_finite: unused (JAX's signature).

    Returns:
        ``H``, or ``(H, Q)`` with ``calc_q``.
    """
    no_sequences((a,))
    h, taus = _ls.hessenberg(jnp.asarray(a))
    hh = jnp.triu(h, -1)
    if not calc_q:
        return hh
    return hh, _ls.hessenberg_q_p.bind(h, taus)


# ------------------------------------------------------------------------------- polar
def polar(
    a,
    side: str = "right",
    *,
    method: str = "qdwh",
    eps: float | None = None,
    max_iterations: int | None = None,
):
    """``jax.scipy.linalg.polar``: ``a = U P`` (``side="right"``) or ``a = P U``
    (``side="left"``), ``U`` with orthonormal columns/rows, ``P`` positive semidefinite.

    Both methods compute the factors from the SVD ``a = W S V^H`` (``U = W V^H``,
    ``P = V S V^H`` or ``W S W^H``), so ``eps`` and ``max_iterations`` (QDWH's) are unused;
    ``method="qdwh"`` keeps JAX's shape restrictions (docs/compat.md).

    Args:
        a: an ``m x n`` float or complex matrix.
        side: ``"right"`` or ``"left"``.
        method: ``"qdwh"`` or ``"svd"``.
        eps: accepted, unused.
        max_iterations: accepted, unused.

    Returns:
        ``(unitary, posdef)``.
    """
    if side not in ("right", "left"):
        raise ValueError("The argument `side` must be either 'right' or 'left'.")
    if method not in ("qdwh", "svd"):
        raise ValueError(f"Unknown polar decomposition method {method}.")
    a = jnp.asarray(a)
    if not dtypes.is_inexact(a.dtype):
        raise ValueError(f"data type {a.dtype.type} not inexact")
    if a.ndim < 2:
        raise ValueError(f"polar: expected a (batch of) matrices, got shape {a.shape}")
    m, n = a.shape[-2:]
    if method == "qdwh" and ((side == "right" and m < n) or (side == "left" and m >= n)):
        raise NotImplementedError(
            "method='qdwh' only supports mxn matrices where m < n where side='right' and "
            f"m >= n side='left', got {a.shape} with side='{side}'"
        )
    w, s, vh = jnp.linalg.svd(a, full_matrices=False)
    unitary = w @ vh
    if method == "qdwh":  # JAX's QDWH iteration mixes in strong arrays: U is strong
        unitary = with_weak_type(unitary, False)
    sc = s.astype(a.dtype)
    if side == "right":
        posdef = _H(vh) @ (sc[..., :, None] * vh)
    else:
        posdef = (w * sc[..., None, :]) @ _H(w)
    return unitary, posdef


# ------------------------------------------------------------------------- qr_multiply
def qr_multiply(
    a,
    c,
    mode: str = "right",
    pivoting: bool = False,
    conjugate: bool = False,
    overwrite_a: bool = False,
    overwrite_c: bool = False,
):
    """``jax.scipy.linalg.qr_multiply``: the product of ``a``'s economic ``Q`` with ``c``.

    ``a`` and ``c`` are promoted to one inexact dtype first (a complex ``c`` makes ``Q``
    and ``R`` complex), and their batch axes broadcast against each other, as in JAX.

    Args:
        a: an ``(..., m, n)`` matrix (batch).
        c: ``(..., p, m)`` for ``mode="right"`` (``c @ Q``), ``(..., k, p)`` with
            ``k = min(m, n)`` for ``mode="left"`` (``Q @ c``). A 1-D ``c`` is a row
            (right) or a column (left), and the product is raveled (batch axes included,
            as JAX's).
        mode: ``"right"`` or ``"left"``.
        pivoting: column-pivoted QR (LAPACK ``geqp3``'s order); adds the permutation.
        conjugate: use ``conj(Q)``.
        overwrite_a: unused (JAX's signature).
        overwrite_c: unused (JAX's signature).

    Returns:
        ``(product, R)`` with the economic ``R`` of shape ``(..., k, n)``, and the int32
        permutation ``P`` of shape ``(..., n)`` when ``pivoting``.
    """
    del overwrite_a, overwrite_c
    a, c = promote_dtypes_inexact(jnp.asarray(a), jnp.asarray(c))
    if mode not in ("right", "left"):
        raise ValueError(f"mode must be 'right' or 'left', got {mode!r}")
    vector = c.ndim == 1
    if vector:
        c = c[:, None] if mode == "left" else c[None, :]
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == "left" and c.shape[-2] != k:
        raise ValueError(
            f"Array shapes are not compatible for Q @ c operation: a has shape "
            f"{tuple(a.shape)} so Q has {k} columns, but c has {c.shape[-2]} rows "
            f"(expected {k})."
        )
    if mode == "right" and c.shape[-1] != m:
        raise ValueError(
            f"Array shapes are not compatible for c @ Q operation: a has shape "
            f"{tuple(a.shape)} so Q has {m} rows, but c has {c.shape[-1]} columns "
            f"(expected {m})."
        )
    batch = jnp.broadcast_shapes(a.shape[:-2], c.shape[:-2])
    a = jnp.broadcast_to(a, batch + a.shape[-2:])
    c = jnp.broadcast_to(c, batch + c.shape[-2:])
    perm = None
    if pivoting:  # the factors of the column-permuted matrix (as scipy.linalg.qr)
        perm = _ls.qr_pivots(a)
        a = jnp.take_along_axis(a, jnp.broadcast_to(perm[..., None, :], a.shape), axis=-1)
    q, r = jnp.linalg.qr(a, mode="reduced")
    if conjugate:
        q = jnp.conj(q)
    product = q @ c if mode == "left" else c @ q
    if vector:
        product = product.ravel()
    return (product, r, perm) if pivoting else (product, r)


# -------------------------------------------------------------------- eigh_tridiagonal
def eigh_tridiagonal(
    d,
    e,
    *,
    eigvals_only: bool = False,
    select: str = "a",
    select_range=None,
    tol: float | None = None,
    key=None,
):
    """``jax.scipy.linalg.eigh_tridiagonal``: eigenvalues (and vectors) of the symmetric
    (Hermitian) tridiagonal matrix with diagonal ``d`` and off-diagonal ``e``.

    Computed with ``jnp.linalg.eigh`` of the dense matrix (so it is differentiable, where
    JAX's bisection is not in reverse mode).

    Args:
        d: the diagonal, shape ``(n,)``.
        e: the off-diagonal, shape ``(n - 1,)``.
        eigvals_only: return the eigenvalues only.
        select: ``"a"`` (all) or ``"i"`` (the eigenvalues with indices
            ``select_range[0]..select_range[1]`` inclusive, ascending); ``"v"`` is not
            implemented, as in JAX.
        select_range: see ``select``.
        tol: accepted, unused (JAX's bisection tolerance).
        key: accepted, unused.

    Returns:
        The ascending eigenvalues, or ``(eigenvalues, eigenvectors)`` (vectors in columns).
    """
    if select == "v":
        raise NotImplementedError("eigh_tridiagonal(..., select='v') is not implemented")
    if select not in ("a", "i"):
        raise ValueError(f"Unrecognized select value: {select!r}")
    d, e = _inexact(d), jnp.asarray(e)
    if d.dtype in (np.float16, dtypes.bfloat16) or e.dtype in (np.float16, dtypes.bfloat16):
        raise TypeError(
            "Only float32 and float64 inputs are supported as inputs to "
            f"jax.scipy.linalg.eigh_tridiagonal, got {d.dtype} and {e.dtype}"
        )
    if d.ndim != 1 or e.ndim != 1 or e.shape[0] != max(d.shape[0] - 1, 0):
        raise ValueError(
            f"eigh_tridiagonal: expected d of shape (n,) and e of shape (n - 1,), got "
            f"{d.shape} and {e.shape}"
        )
    e = e.astype(jnp.result_type(d, e))
    mat = jnp.diag(d.astype(e.dtype)) + jnp.diag(e, 1) + jnp.diag(jnp.conj(e), -1)
    w, v = jnp.linalg.eigh(mat)
    if select == "i":
        lo, hi = int(select_range[0]), int(select_range[1])
        w, v = w[lo : hi + 1], v[:, lo : hi + 1]
    return w if eigvals_only else (w, v)


__all__ = [
    "eigh_tridiagonal",
    "funm",
    "hessenberg",
    "polar",
    "qr_multiply",
    "rsf2csf",
    "schur",
    "solve_sylvester",
    "sqrtm",
]
