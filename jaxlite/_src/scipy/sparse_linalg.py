"""``jax.scipy.sparse.linalg``: the Krylov solvers ``cg``, ``bicgstab`` and ``gmres``.

Each solver is a ``lax.while_loop`` over pytrees of ``jax.numpy`` arrays (so it traces
under ``jit`` and batches under ``vmap``), wrapped in ``lax.custom_linear_solve`` so that
derivatives come from a second solve (implicit differentiation), never from
differentiating the loop. The iterations, stopping tests and defaults follow JAX's: SciPy's
"non-legacy" tolerance ``norm(r) <= max(tol * norm(b), atol)``, ``maxiter = 10 * size``,
``bicgstab``'s breakdown codes, ``gmres``'s restarted Arnoldi process (one classical
Gram-Schmidt pass per step) with either a dense least-squares solve per restart
(``'batched'``) or Givens rotations and early exit (``'incremental'``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import lax
from jaxlite._src import dtypes, tree_util
from jaxlite._src.lax_solves import custom_linear_solve
from jaxlite._src.ops.conversion import convert_element_type
from jaxlite._src.scipy import linalg as scipy_linalg

_leaves = tree_util.tree_leaves
_map = tree_util.tree_map


# ------------------------------------------------------------------ pytree vector algebra
def _vdot_real(x, y):
    """``Re(x^H y)`` without the cross terms: real even for complex operands."""
    out = jnp.vdot(x.real, y.real)
    if jnp.iscomplexobj(x) or jnp.iscomplexobj(y):
        out = out + jnp.vdot(x.imag, y.imag)
    return out


def _tree_vdot_real(x, y):
    return sum(_leaves(_map(_vdot_real, x, y)))


def _tree_vdot(x, y):
    return sum(_leaves(_map(jnp.vdot, x, y)))


def _tree_norm(x):
    return jnp.sqrt(_tree_vdot_real(x, x))


def _scale(alpha, x):
    return _map(lambda leaf: alpha * leaf, x)


def _add(x, y):
    return _map(operator.add, x, y)


def _sub(x, y):
    return _map(operator.sub, x, y)


def _select(pred, x, y):
    return _map(partial(jnp.where, pred), x, y)


def _identity(x):
    return x


def _as_operator(a) -> Callable:
    """A matrix (or anything with ``@``) becomes its matvec; a callable stays itself."""
    if callable(a):
        return a
    if isinstance(a, (np.ndarray, jnp.ndarray)):
        if a.ndim != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {a.shape}")
        return partial(jnp.dot, a)
    if hasattr(a, "__matmul__"):
        if hasattr(a, "shape") and len(a.shape) != 2 or a.shape[0] != a.shape[1]:
            raise ValueError(f"linear operator must be a square matrix, but has shape: {a.shape}")
        return partial(operator.matmul, a)
    raise TypeError(f"linear operator must be either a function or ndarray: {a}")


def _result_dtype(tree) -> tuple[np.dtype, bool]:
    return dtypes.result_type(*_leaves(tree), return_weak_type_flag=True)


# ------------------------------------------------------------------------ CG, BiCGSTAB
def _cg_iterate(A, b, *, x0, maxiter, tol, atol, M):
    """Preconditioned conjugate gradients; the loop stops when ``r.r <= max(tol^2 b.b,
    atol^2)`` (``r.z`` stands in for ``r.r`` without a preconditioner)."""
    threshold = jnp.maximum(jnp.square(tol) * _tree_vdot_real(b, b), jnp.square(atol))
    r0 = _sub(b, A(x0))
    z0 = M(r0)
    dtype = dtypes.result_type(*_leaves(z0))
    rz0 = _tree_vdot_real(r0, z0).astype(dtype)

    def not_done(state):
        _, r, rz, _, k = state
        rr = rz.real if M is _identity else _tree_vdot_real(r, r)
        return (rr > threshold) & (k < maxiter)

    def step(state):
        x, r, rz, p, k = state
        Ap = A(p)
        alpha = rz / _tree_vdot_real(p, Ap).astype(dtype)
        x = _add(x, _scale(alpha, p))
        r = _sub(r, _scale(alpha, Ap))
        z = M(r)
        rz_new = _tree_vdot_real(r, z).astype(dtype)
        p = _add(z, _scale(rz_new / rz, p))
        return x, r, rz_new, p, k + 1

    return lax.while_loop(not_done, step, (x0, r0, rz0, z0, 0))[0]


def _bicgstab_iterate(A, b, *, x0, maxiter, tol, atol, M):
    """Preconditioned BiCGSTAB with the shadow residual fixed at ``r0``. The counter turns
    negative on breakdown (-10: ``rho == 0``; -11: ``omega`` or ``alpha == 0``), which
    stops the loop, as JAX's does."""
    threshold = jnp.maximum(jnp.square(tol) * _tree_vdot_real(b, b), jnp.square(atol))
    r0 = _sub(b, A(x0))
    one = convert_element_type(1, *_result_dtype(b))

    def not_done(state):
        r, k = state[1], state[-1]
        return (_tree_vdot_real(r, r) > threshold) & (k < maxiter) & (k >= 0)

    def step(state):
        x, r, r_hat, alpha, omega, rho, p, v, k = state
        rho_new = _tree_vdot(r_hat, r)
        beta = rho_new / rho * alpha / omega
        p = _add(r, _scale(beta, _sub(p, _scale(omega, v))))
        p_hat = M(p)
        v = A(p_hat)
        alpha = rho_new / _tree_vdot(r_hat, v)
        s = _sub(r, _scale(alpha, v))
        half_step_enough = _tree_vdot_real(s, s) < threshold
        s_hat = M(s)
        t = A(s_hat)
        omega = _tree_vdot(t, s) / _tree_vdot(t, t)
        x_half = _add(x, _scale(alpha, p_hat))
        x = _select(half_step_enough, x_half, _add(x_half, _scale(omega, s_hat)))
        r = _select(half_step_enough, s, _sub(s, _scale(omega, t)))
        k = jnp.where((omega == 0) | (alpha == 0), -11, k + 1)
        k = jnp.where(rho_new == 0, -10, k)
        return x, r, r_hat, alpha, omega, rho_new, p, v, k

    init = (x0, r0, r0, one, one, one, r0, r0, 0)
    return lax.while_loop(not_done, step, init)[0]


def _shapes(tree) -> list:
    return [np.shape(leaf) for leaf in _leaves(tree)]


def _prepare(A, b, x0, M):
    if x0 is None:
        x0 = _map(jnp.zeros_like, b)
    b = _map(jnp.asarray, b)
    x0 = _map(jnp.asarray, x0)
    A = _as_operator(A)
    M = _identity if M is None else _as_operator(M)
    if tree_util.tree_structure(x0) != tree_util.tree_structure(b):
        raise ValueError(
            "x0 and b must have matching tree structure: "
            f"{tree_util.tree_structure(x0)} vs {tree_util.tree_structure(b)}"
        )
    return A, b, x0, M


def _krylov(iterate, A, b, x0, *, tol, atol, maxiter, M, symmetric_if_real):
    A, b, x0, M = _prepare(A, b, x0, M)
    if maxiter is None:
        maxiter = 10 * sum(np.size(leaf) for leaf in _leaves(b))
    if _shapes(x0) != _shapes(b):
        raise ValueError(
            f"arrays in x0 and b must have matching shapes: {_shapes(x0)} vs {_shapes(b)}"
        )
    solve = partial(iterate, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)
    # A real symmetric positive-definite operator is its own transpose.
    symmetric = symmetric_if_real and not any(jnp.iscomplexobj(leaf) for leaf in _leaves(b))
    x = custom_linear_solve(A, b, solve=solve, transpose_solve=solve, symmetric=symmetric)
    return x, None


def cg(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """Solves ``A x = b`` by preconditioned conjugate gradients (``jax.scipy.sparse.linalg.cg``).

    Derivatives (forward and reverse) come from another ``cg`` solve through
    ``lax.custom_linear_solve``; they are accurate when both solves converge.

    Args:
        A: a Hermitian positive-definite operator: a square 2-D array, an object with
            ``@``, or a function ``x -> A x`` returning the structure and shapes of ``x``.
        b: the right-hand side, an array or a pytree of arrays of any shapes.
        x0: the starting guess, structured like ``b`` (zeros by default).
        tol, atol: stop when ``norm(b - A x) <= max(tol * norm(b), atol)``.
        maxiter: the most iterations (``10 * b.size`` by default).
        M: a preconditioner approximating ``A^-1`` (same forms as ``A``).

    Returns:
        ``(x, None)``: the solution, structured like ``b``, and JAX's placeholder for
        convergence information.

    Raises:
        ValueError: a non-square matrix operator; ``x0`` structured or shaped unlike ``b``.
        TypeError: an operator that is neither callable nor a matrix.
    """
    return _krylov(
        _cg_iterate, A, b, x0, tol=tol, atol=atol, maxiter=maxiter, M=M, symmetric_if_real=True
    )


def bicgstab(A, b, x0=None, *, tol=1e-5, atol=0.0, maxiter=None, M=None):
    """Solves ``A x = b`` by BiCGSTAB, as ``jax.scipy.sparse.linalg.bicgstab``.

    ``A`` may be any non-singular operator. Arguments, results, errors and derivatives are
    as for :func:`cg` (the implicit solves here use ``bicgstab`` on ``A`` and its
    transpose).

    Returns:
        ``(x, None)``, ``x`` structured like ``b``.
    """
    return _krylov(
        _bicgstab_iterate,
        A,
        b,
        x0,
        tol=tol,
        atol=atol,
        maxiter=maxiter,
        M=M,
        symmetric_if_real=False,
    )


# ----------------------------------------------------------------------------- GMRES
def _normalize(x, thresh=None):
    """``(x / norm(x), norm(x))``, or zeros and 0 when the norm is at most ``thresh``
    (the dtype's epsilon by default)."""
    norm = _tree_norm(x)
    dtype, weak = _result_dtype(x)
    if thresh is None:
        thresh = jnp.finfo(norm.dtype).eps
    thresh = jnp.asarray(thresh).astype(dtype).real
    big_enough = norm > thresh
    norm_as_x = convert_element_type(norm, dtype, weak)
    unit = _map(lambda leaf: jnp.where(big_enough, leaf / norm_as_x, 0.0), x)
    return unit, jnp.where(big_enough, norm, 0.0)


def _arnoldi_step(k, A, M, V, H):
    """Appends the unit vector of ``M(A(V[..., k]))`` orthogonalized against ``V``'s
    columns as column ``k + 1`` of ``V``, and its coefficients as row ``k`` of ``H``
    (``H`` is stored transposed: one row per step). Returns ``(V, H, breakdown)``."""
    dtype, _ = _result_dtype(V)
    w = M(A(_map(lambda basis: basis[..., k], V)))
    _, w_norm = _normalize(w)
    # One classical Gram-Schmidt pass (JAX's "twice is enough" loop stops after one).
    h = sum(_leaves(_map(lambda basis, y: jnp.einsum("...n,...->n", basis.conj(), y), V, w)))
    w = _sub(w, _map(lambda basis: jnp.dot(basis, h), V))
    unit, w_norm_after = _normalize(w, thresh=jnp.finfo(dtype).eps * w_norm)
    V = _map(lambda basis, y: basis.at[..., k + 1].set(y), V, unit)
    h = h.at[k + 1].set(w_norm_after.astype(dtype))
    return V, H.at[k, :].set(h), w_norm_after == 0.0


def _rotate(v, i, cs, sn):
    a, b = v[i], v[i + 1]
    v = v.at[i].set(cs.conj() * a - sn.conj() * b)
    return v.at[i + 1].set(sn * a + cs * b)


def _givens(a, b):
    """The rotation ``(cs, sn)`` that zeroes ``b`` in ``(a, b)``."""
    b_is_zero = abs(b) == 0
    a_smaller = abs(a) < abs(b)
    t = -jnp.where(a_smaller, a, b) / jnp.where(a_smaller, b, a)
    r = lax.rsqrt(1 + abs(t) ** 2).astype(t.dtype)
    cs = jnp.where(b_is_zero, 1, jnp.where(a_smaller, r * t, r))
    sn = jnp.where(b_is_zero, 0, jnp.where(a_smaller, r, r * t))
    return cs, sn


def _krylov_basis(unit_residual, restart):
    return _map(
        lambda x: jnp.pad(x[..., None], ((0, 0),) * x.ndim + ((0, restart),)), unit_residual
    )


def _finish_restart(A, b, M, x0, V, y):
    x = _add(x0, _map(lambda basis: jnp.dot(basis[..., :-1], y), V))
    unit, norm = _normalize(M(_sub(b, A(x))))
    return x, unit, norm


def _gmres_restart_incremental(A, b, x0, unit_residual, residual_norm, ptol, restart, M):
    """One restart, QR-factorizing the Hessenberg matrix by Givens rotations as it grows;
    stops early once the implied residual is at most ``ptol``."""
    V = _krylov_basis(unit_residual, restart)
    dtype = dtypes.result_type(*_leaves(b))
    R = jnp.eye(restart, restart + 1, dtype=dtype)  # identity rows keep R invertible
    rotations = jnp.zeros((restart, 2), dtype=dtype)
    rhs = jnp.zeros(restart + 1, dtype=dtype).at[0].set(residual_norm.astype(dtype))

    def not_done(state):
        k, err = state[0], state[1]
        return (k < restart) & (err > ptol)

    def step(state):
        k, _, V, R, rhs, rotations = state
        V, H, _ = _arnoldi_step(k, A, M, V, R)
        row = lax.fori_loop(0, k, lambda i, row: _rotate(row, i, *rotations[i, :]), H[k, :])
        cs_sn = _givens(row[k], row[k + 1])
        rotations = rotations.at[k, :].set(cs_sn)
        R = R.at[k, :].set(_rotate(row, k, *cs_sn))
        rhs = _rotate(rhs, k, *cs_sn)
        return k + 1, abs(rhs[k + 1]), V, R, rhs, rotations

    init = (0, residual_norm, V, R, rhs, rotations)
    _, _, V, R, rhs, _ = lax.while_loop(not_done, step, init)
    y = scipy_linalg.solve_triangular(R[:, :-1].T, rhs[:-1])
    return _finish_restart(A, b, M, x0, V, y)


def _gmres_restart_batched(A, b, x0, unit_residual, residual_norm, ptol, restart, M):
    """One restart: the full Arnoldi process (unless it breaks down), then the dense
    least-squares problem by its normal equations."""
    del ptol
    V = _krylov_basis(unit_residual, restart)
    dtype, weak = _result_dtype(b)
    H = convert_element_type(jnp.eye(restart, restart + 1, dtype=dtype), dtype, weak)

    def not_done(state):
        return (state[3] < restart) & jnp.logical_not(state[2])

    def step(state):
        V, H, _, k = state
        V, H, breakdown = _arnoldi_step(k, A, M, V, H)
        return V, H, breakdown, k + 1

    V, H, _, _ = lax.while_loop(not_done, step, (V, H, False, 0))
    rhs = jnp.zeros_like(H, shape=(restart + 1,)).at[0].set(residual_norm.astype(dtype))
    Ht = H.T
    y = scipy_linalg.solve(jnp.dot(Ht.T.conj(), Ht), jnp.dot(Ht.T.conj(), rhs), assume_a="pos")
    return _finish_restart(A, b, M, x0, V, y)


def _gmres_iterate(A, b, x0, atol, ptol, restart, maxiter, M, restart_fn):
    unit, norm = _normalize(M(_sub(b, A(x0))))

    def not_done(state):
        return (state[1] < maxiter) & (state[3] > atol)

    def step(state):
        x, k, unit, norm = state
        x, unit, norm = restart_fn(A, b, x, unit, norm, ptol, restart, M)
        return x, k + 1, unit, norm

    return lax.while_loop(not_done, step, (x0, 0, unit, norm))[0]


_GMRES_METHODS = {
    "incremental": _gmres_restart_incremental,
    "batched": _gmres_restart_batched,
}


def gmres(
    A,
    b,
    x0=None,
    *,
    tol=1e-5,
    atol=0.0,
    restart=20,
    maxiter=None,
    M=None,
    solve_method="batched",
) -> tuple[Any, Any]:
    """Solves ``A x = b`` by restarted GMRES, as ``jax.scipy.sparse.linalg.gmres``.

    Args:
        A: any non-singular operator: a square 2-D array, an object with ``@``, or a
            function ``x -> A x``.
        b: the right-hand side, an array or a pytree of arrays.
        x0: the starting guess, structured like ``b`` (zeros by default).
        tol, atol: stop when ``norm(b - A x) <= max(tol * norm(b), atol)`` (tested
            between restarts on the preconditioned residual).
        restart: the Krylov subspace dimension built per restart (at most ``b.size``).
        maxiter: the most restarts (``10 * b.size`` by default).
        M: a preconditioner approximating ``A^-1``.
        solve_method: ``'batched'`` (a dense least-squares solve per restart) or
            ``'incremental'`` (Givens rotations; may stop inside a restart).

    Returns:
        ``(x, info)``: ``x`` structured like ``b``; ``info`` an int32 scalar, -1 where the
        solution has a NaN, else 0.

    Raises:
        ValueError: an unknown ``solve_method``; ``x0`` structured unlike ``b``; a
            non-square matrix operator.
        TypeError: an operator that is neither callable nor a matrix.
    """
    A, b, x0, M = _prepare(A, b, x0, M)
    size = sum(np.size(leaf) for leaf in _leaves(b))
    if maxiter is None:
        maxiter = 10 * size
    restart = min(restart, size)
    b_norm = _tree_norm(b)
    atol = jnp.maximum(tol * b_norm, atol)
    ptol = _tree_norm(M(b)) * jnp.minimum(1.0, atol / b_norm)
    if solve_method not in _GMRES_METHODS:
        raise ValueError(
            f"invalid solve_method {solve_method}, must be either 'incremental' or 'batched'"
        )
    restart_fn = _GMRES_METHODS[solve_method]

    def solve(A, b):
        return _gmres_iterate(A, b, x0, atol, ptol, restart, maxiter, M, restart_fn)

    x = custom_linear_solve(A, b, solve=solve, transpose_solve=solve)
    info = jnp.where(jnp.isnan(_tree_norm(x)), -1, 0)
    return x, info
