"""``jax.lax.linalg.qdwh``: the polar decomposition by the QR-based dynamically weighted
Halley iteration (Nakatsukasa, Bai and Gygi 2010; Nakatsukasa and Higham 2013).

The iterate starts as ``x / sqrt(|x|_1 |x|_inf)`` (all singular values at most 1) and each
step maps a singular value ``s`` to ``s (a + b s^2) / (1 + c s^2)`` with weights chosen from
the current lower bound ``l`` of the smallest singular value, which rises to 1 within a
few steps. The weights depend only on ``l``, a Python number here, so the weighted steps
are unrolled: while ``c > 100`` a step is computed stably from the QR of
``[sqrt(c) u; I]``, after that from the Cholesky factor of ``c u^H u + I``. Once the
weights have converged (``l ~ 1``) plain Halley steps (a, b, c = 3, 1, 3) run in a
``while_loop`` until the Frobenius change of the iterate is at most ``(5 eps)^(1/3)`` or
``max_iterations`` steps were taken in all. A Newton-Schulz step then refines ``u`` and
``h = sym(u^H x)``. The iteration count and convergence flag are JAX's.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.control_flow.while_loop import while_loop
from jaxlite._src.core.avals import aval_of
from jaxlite._src.numpy import linalg as _jla
from jaxlite._src.numpy.creation import asarray, eye
from jaxlite._src.numpy.shape import concatenate
from jaxlite._src.numpy.ufuncs import conj, greater, logical_and, logical_not, sqrt, where
from jaxlite._src.ops import linalg_ops as _lo

_CHOLESKY_CUTOFF = 100


def _weights(eps: float, max_iterations: int):
    """The (a, b, c) of each dynamically weighted step, from the lower bound eps."""
    out = []
    lo = eps
    tol_l = 10.0 * eps / 2.0
    while lo + tol_l < 1 and len(out) < max_iterations:
        l2 = lo * lo
        dd = (4 * (1 / l2 - 1) / l2) ** (1 / 3)
        sqd = (1.0 + dd) ** 0.5
        a = sqd + (2 - dd + 2 * (2 - l2) / (l2 * sqd)) ** 0.5
        b = (a - 1) ** 2 / 4
        c = a + b - 1
        lo = lo * (a + b * l2) / (1 + c * l2)
        out.append((a, b, c))
    return out


def _H(m):
    return conj(m.T)


def _qr_step(u, a, b, c):
    # u (e I + (a - e) X^-1) with X = c u^H u + I and e = b / c. From the reduced QR
    # [sqrt(c) u; I] = [q1; q2] r: r^H r = X, q1 = sqrt(c) u r^-1 and q2 = r^-1, so
    # q1 q2^H = sqrt(c) u X^-1 without forming X (stable while c is large).
    n = u.shape[1]
    e = b / c
    sc = c**0.5
    dt = u.dtype
    y = concatenate([u * asarray(sc, dt), eye(n, dtype=dt)])
    q, _ = _lo.qr(y, full_matrices=False)
    q1, q2 = q[: u.shape[0]], q[u.shape[0] :]
    return u * asarray(e, dt) + (q1 @ _H(q2)) * asarray((a - e) / sc, dt)


def _chol_step(u, a, b, c):
    # The same map through the Cholesky factor L of X = c u^H u + I: u X^-1 is found as
    # (L^-H L^-1 u^H)^H by two triangular solves.
    n = u.shape[1]
    e = b / c
    dt = u.dtype
    x = (_H(u) @ u) * asarray(c, dt) + eye(n, dtype=dt)
    chol = _lo.cholesky(x, symmetrize_input=False)
    z = _lo.triangular_solve(chol, _H(u), left_side=True, lower=True)
    z = _lo.triangular_solve(
        chol, z, left_side=True, lower=True, transpose_a=True, conjugate_a=True
    )
    return u * asarray(e, dt) + _H(z) * asarray(a - e, dt)


def qdwh(x, *, is_hermitian: bool = False, max_iterations=None, eps=None, dynamic_shape=None):
    """``jax.lax.linalg.qdwh``: the polar decomposition ``x = u h`` of a full-rank
    ``M x N`` matrix (``M >= N``) by the QR-based dynamically weighted Halley iteration.

    Args:
        x: a 2-D float or complex matrix with at least as many rows as columns.
        is_hermitian: accepted and unused (as in JAX).
        max_iterations: the most iterations (default 10).
        eps: the convergence scale (default the dtype's machine epsilon).
        dynamic_shape: must be None or ``x``'s own shape (padded inputs are not
            supported in jaxlite).

    Returns:
        ``(u, h, num_iters, is_converged)``: ``u`` with orthonormal columns, ``h``
        Hermitian positive semi-definite, the iteration count (int32) and whether the
        iteration converged within ``max_iterations``.
    """
    x = asarray(x)
    shape = aval_of(x).shape
    if len(shape) != 2:
        raise ValueError("too many values to unpack (expected 2)")
    m, n = shape
    if m < n:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    if dynamic_shape is not None and tuple(dynamic_shape) != (m, n):
        raise NotImplementedError("qdwh(dynamic_shape=...) of a padded matrix is not implemented")
    dt = aval_of(x).dtype
    if not dtypes.is_inexact(dt):
        raise ValueError(f"data type {np.dtype(dt).type} not inexact")
    max_iterations = 10 if max_iterations is None else int(max_iterations)
    eps = float(np.finfo(dtypes.to_real_dtype(dt)).eps) if eps is None else float(eps)
    tol_norm = (10.0 * eps / 2.0) ** (1 / 3)

    one_norm = _jla.norm(x, ord=1)
    inf_norm = _jla.norm(x, ord=np.inf)
    scale = where(one_norm == 0, 1, 1 / (sqrt(one_norm) * sqrt(inf_norm)))
    u = x * scale.astype(dt)

    weights = _weights(eps, max_iterations)
    not_converged = asarray(True)
    for a, b, c in weights:
        if c > _CHOLESKY_CUTOFF:
            u = _qr_step(u, a, b, c)
        else:
            prev = u
            u = _chol_step(u, a, b, c)
            not_converged = greater(_jla.norm(u - prev), tol_norm)

    def cond(state):
        k, _, nc = state
        return logical_and(nc, k < max_iterations)

    def body(state):
        k, uk, _ = state
        nxt = _chol_step(uk, 3.0, 1.0, 3.0)
        return k + 1, nxt, greater(_jla.norm(nxt - uk), tol_norm)

    num_iters, u, not_converged = while_loop(cond, body, (len(weights), u, not_converged))
    u = u * asarray(1.5, dt) - (u @ (_H(u) @ u)) * asarray(0.5, dt)
    h = _H(u) @ x
    h = (h + _H(h)) * asarray(0.5, dt)
    return u, h, num_iters, logical_not(not_converged)
