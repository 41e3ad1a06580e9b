"""More ``jax.lax.linalg`` primitives: tridiagonal_solve, tridiagonal (sytrd / hetrd),
cholesky_update, householder_product (orgqr / ungqr), ormqr (ormqr / unmqr),
lu_pivots_to_permutation and symmetric_product.

Kernels are LAPACK's through SciPy (the library JAX's CPU kernels call) where JAX calls
LAPACK, so the factors agree with JAX's up to rounding; the others are NumPy loops with
JAX's semantics. Leading axes are batch axes, and operand checks raise JAX's errors
(rank, batch rank, dtype category, same dtypes, per-primitive shapes). As in JAX only
``tridiagonal_solve`` is differentiable (JVP in all operands, transpose in ``b``); the
others raise ``NotImplementedError("Differentiation rule for '<name>' not implemented")``,
and ``cholesky_update`` has no batching rule (JAX: rank exactly 2, no vmap).
"""

from __future__ import annotations

import enum

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal
from jaxlite._src.ops import (
    elementwise as ew,
    indexing,
    linalg_ops as _lo,
    linalg_svd,
    shape as _sh,
)
from jaxlite._src.ops.linalg_ops import _T, _batch_to_front, _tril, qr_p
from jaxlite._src.ops.linalg_schur import (
    _front_batch,
    _per_matrix,
    lapack_dtype as _lapack_dtype,
    qr_pivots,
)
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use

_FLOATING = "floating"
_INEXACT = "floating, complexfloating"


# ------------------------------------------------------------------------------ checks
def _operands(name, *xs):
    """``to_array`` of each operand, with JAX's error for lists and other non-arrays."""
    out = []
    for i, x in enumerate(xs):
        try:
            out.append(to_array(x))
        except TypeError:
            raise TypeError(
                f"Error interpreting argument to {name} as a JAX value. The problematic value "
                f"is of type {type(x)} and was passed to {name} at position {i}.\n"
            ) from None
    return out


def _check(name, avals, ranks, accepted, *, exact_rank=False):
    """JAX's ``linalg_shape_rule`` / ``naryop_dtype_rule`` checks; returns the batch shape."""
    batch = []
    for i, (a, r) in enumerate(zip(avals, ranks)):
        if len(a.shape) < r:
            raise TypeError(
                f"Input {i} to {name} must have rank at least {r}, but got shape={a.shape}"
            )
        if exact_rank and len(a.shape) != r:
            raise TypeError(
                f"Input {i} to {name} must have a rank of exactly {r}, but got shape={a.shape}"
            )
        batch.append(tuple(a.shape[: len(a.shape) - r]))
    if any(len(b) != len(batch[0]) for b in batch):
        raise TypeError(
            f"All inputs to {name} must have the same number of batch dimensions, but got "
            f"{[len(b) for b in batch]} batch dimensions for the inputs."
        )
    for i, a in enumerate(avals):
        ok = {
            _FLOATING: dtypes.is_float,
            _INEXACT: dtypes.is_inexact,
            "int32": lambda d: d == np.int32,
        }[accepted](a.dtype)
        if not ok:
            raise TypeError(
                f"{name} does not accept dtype {a.dtype.name} at position {i}. Accepted dtypes "
                f"at position {i} are subtypes of {accepted}."
            )
    if any(a.dtype != avals[0].dtype for a in avals[1:]):
        raise TypeError(
            f"lax.{name} requires arguments to have the same dtypes, got "
            f"{', '.join(a.dtype.name for a in avals)}."
        )
    return batch[0]


def _weak(avals):
    return all(a.weak_type for a in avals)


# -------------------------------------------------------------------- tridiagonal_solve
tridiagonal_solve_p = Primitive("tridiagonal_solve")


def _gtsv(dl, d, du, b):
    """LAPACK gtsv on one system; a singular matrix (info > 0) gives NaN, as in JAX."""
    n = d.shape[0]
    if n == 0 or b.shape[1] == 0:
        return (b.copy(),)
    gtsv = scipy.linalg.get_lapack_funcs("gtsv", (dl, d, du, b))
    *_, x, info = gtsv(dl[1:], d, du[:-1], b)
    if info != 0:
        x = np.full(b.shape, np.nan, b.dtype)
    return (x,)


def _gtsv_perturbed(dl, d, du, b):
    """Gaussian elimination with partial pivoting (gttrf's scheme) in which each pivot
    smaller than ``eps * max|U|`` (the smallest normal number if U is zero) is replaced by
    that size, keeping its sign (phase): a finite answer for a singular matrix."""
    n = d.shape[0]
    dt = b.dtype
    if n == 0 or b.shape[1] == 0:
        return (b.copy(),)
    u0 = d.astype(dt).copy()  # diagonal of U
    u1 = np.zeros(n, dt)  # first superdiagonal
    u2 = np.zeros(n, dt)  # second superdiagonal (from row swaps)
    u1[: n - 1] = du[: n - 1]
    low = dl.astype(dt).copy()  # row i+1's entry below the pivot
    x = b.astype(dt).copy()
    with np.errstate(all="ignore"):
        for i in range(n - 1):
            a, c = u0[i], low[i + 1]
            if abs(c) > abs(a):  # swap rows i and i+1, then eliminate
                a1 = u1[i]
                u0[i], u1[i], u2[i] = c, u0[i + 1], u1[i + 1]
                x[[i, i + 1]] = x[[i + 1, i]]
                m = a / c
                u0[i + 1] = a1 - m * u1[i]
                u1[i + 1] = -m * u2[i]
                x[i + 1] -= m * x[i]
            else:
                m = c / a if a != 0 else 0
                u0[i + 1] = u0[i + 1] - m * u1[i]
                x[i + 1] -= m * x[i]
        big = max(np.max(np.abs(u0)), np.max(np.abs(u1)), np.max(np.abs(u2)))
        real = dtypes.to_real_dtype(dt)
        tol = np.finfo(real).eps * big
        if not tol > 0:
            tol = np.finfo(real).tiny
        small = np.abs(u0) < tol
        phase = np.where(u0 == 0, 1, u0 / np.where(u0 == 0, 1, np.abs(u0)))
        u0 = np.where(small, phase * tol, u0).astype(dt)
        for i in range(n - 1, -1, -1):
            acc = x[i].copy()
            if i + 1 < n:
                acc -= u1[i] * x[i + 1]
            if i + 2 < n:
                acc -= u2[i] * x[i + 2]
            x[i] = acc / u0[i]
    return (x,)


def _tridiagonal_solve_impl(dl, d, du, b, *, perturb_singular):
    _lapack_dtype(b)
    kernel = _gtsv_perturbed if perturb_singular else _gtsv
    n, k = b.shape[-2:]
    return _per_matrix(kernel, [dl, d, du, b], [((n, k), b.dtype)], core=[1, 1, 1, 2])[0]


def _tridiagonal_solve_abstract_eval(dl, d, du, b, *, perturb_singular):
    avals = [dl, d, du, b]
    _check("tridiagonal_solve", avals, (1, 1, 1, 2), _INEXACT)
    if dl.shape != d.shape or dl.shape != du.shape:
        raise TypeError(
            "tridiagonal_solve requires that all diagonal arguments have the same shape."
        )
    if dl.shape != b.shape[:-1]:
        raise TypeError(
            "tridiagonal_solve requires that the leading ndim-1 dimensions of b equal the "
            "dimensions of the diagonal arguments."
        )
    return ShapedArray(b.shape, b.dtype, _weak(avals))


def _shift(x, lo, hi, axis):
    """``x`` along ``axis`` with ``lo`` leading and ``hi`` trailing entries dropped, zero
    padded back to its length at the opposite ends: ``(0, 1)`` shifts it one row down
    (entry i is old entry i-1), ``(1, 0)`` one row up."""
    nd = len(_sh._shape_of(x))
    n = _sh._shape_of(x)[axis]
    part = _sh.slice_in_dim(x, lo, n - hi, 1, axis)
    cfg = [(0, 0, 0)] * nd
    cfg[axis] = (hi, lo, 0)
    return _sh.pad(part, _sh.full((), 0, aval_of(x).dtype), cfg)


def _tridiagonal_matmul(dl, d, du, x):
    """``A x`` for the tridiagonal ``A`` (dl[i] = A[i, i-1], du[i] = A[i, i+1])."""
    nd = len(aval_of(x).shape)
    shape = aval_of(x).shape
    bdims = tuple(range(nd - 1))

    def col(v):
        return _sh.broadcast_in_dim(v, shape, bdims)

    y = ew.mul(col(d), x)
    if shape[-2] > 1:
        # row i gets dl[i] x[i-1]: shift x down one row; du[i] x[i+1]: shift x up.
        y = ew.add(y, ew.mul(col(dl), _shift(x, 0, 1, nd - 2)))
        y = ew.add(y, ew.mul(col(du), _shift(x, 1, 0, nd - 2)))
    return y


def _instantiate(t, like):
    return ew.zeros_like(like) if type(t) is Zero else t


def _tridiagonal_solve_jvp(primals, tangents, *, perturb_singular):
    dl, d, du, b = primals
    x = tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=perturb_singular)
    *t_diags, tb = tangents
    if all(type(t) is Zero for t in tangents):
        return x, Zero(aval_of(x).to_tangent_aval())
    # A x = b  =>  A dx = db - dA x.
    rhs = None if type(tb) is Zero else tb
    if any(type(t) is not Zero for t in t_diags):
        tl, td, tu = (_instantiate(t, p) for t, p in zip(t_diags, (dl, d, du)))
        dax = _tridiagonal_matmul(tl, td, tu, x)
        rhs = ew.neg(dax) if rhs is None else ew.sub(rhs, dax)
    return x, tridiagonal_solve_p.bind(dl, d, du, rhs, perturb_singular=perturb_singular)


def _tridiagonal_solve_transpose(ct, dl, d, du, b, *, perturb_singular):
    assert is_undefined_primal(b) and not any(map(is_undefined_primal, (dl, d, du)))
    if type(ct) is Zero:
        return [None, None, None, Zero(b.aval)]
    # The transposed matrix (no conjugation: the map b -> A^-1 b is linear) has
    # sub-diagonal du shifted down a row and super-diagonal dl shifted up a row.
    axis = len(aval_of(dl).shape) - 1
    dl_t = _shift(du, 0, 1, axis)
    du_t = _shift(dl, 1, 0, axis)
    ct_b = tridiagonal_solve_p.bind(dl_t, d, du_t, ct, perturb_singular=perturb_singular)
    return [None, None, None, ct_b]


rules.impl_rules[tridiagonal_solve_p] = _tridiagonal_solve_impl
rules.abstract_eval_rules[tridiagonal_solve_p] = _tridiagonal_solve_abstract_eval
rules.jvp_rules[tridiagonal_solve_p] = _tridiagonal_solve_jvp
rules.transpose_rules[tridiagonal_solve_p] = _tridiagonal_solve_transpose


def _tridiagonal_solve_batch(axis_data, args, dims, **params):
    return tridiagonal_solve_p.bind(*_batch_to_front(axis_data, args, dims), **params), 0


rules.batch_rules[tridiagonal_solve_p] = _tridiagonal_solve_batch


def tridiagonal_solve(dl, d, du, b, *, perturb_singular: bool = False):
    """``jax.lax.linalg.tridiagonal_solve``: solve ``A X = B`` for tridiagonal ``A``.

    Args:
        dl: ``[..., m]`` lower diagonal, ``dl[i] = A[i, i-1]`` (``dl[0]`` is ignored).
        d: ``[..., m]`` diagonal.
        du: ``[..., m]`` upper diagonal, ``du[i] = A[i, i+1]`` (``du[m-1]`` is ignored).
        b: ``[..., m, k]`` right-hand sides, same dtype as the diagonals.
        perturb_singular: perturb tiny pivots (of order ``eps * max|U|``) so that a
            singular system gives a finite answer instead of NaN.

    Returns:
        ``X`` of ``b``'s shape and dtype (NaN for a singular system unless
        ``perturb_singular``). Differentiable in all four operands.
    """
    ops = _operands("tridiagonal_solve", dl, d, du, b)
    return tridiagonal_solve_p.bind(*ops, perturb_singular=bool(perturb_singular))


# -------------------------------------------------------------------------- tridiagonal
tridiagonal_p = Primitive("tridiagonal", multiple_results=True)


def _tridiagonal_impl(a, *, lower):
    _lapack_dtype(a)
    n = a.shape[-1]
    real = dtypes.to_real_dtype(a.dtype)

    def one(m):
        sytrd = scipy.linalg.get_lapack_funcs("hetrd" if np.iscomplexobj(m) else "sytrd", (m,))
        c, dd, e, tau, info = sytrd(m, lower=int(lower))
        if info != 0:
            return [np.full_like(v, np.nan) for v in (c, dd, e, tau)]
        return c, dd, e, tau

    specs = [((n, n), a.dtype), ((n,), real), ((n - 1,), real), ((n - 1,), a.dtype)]
    return _per_matrix(one, [a], specs)


def _tridiagonal_abstract_eval(a, *, lower):
    b = _check("tridiagonal", [a], (2,), _INEXACT)
    n = a.shape[-1]
    if a.shape[-2] != n or n == 0:
        raise ValueError(
            f"The input to tridiagonal must be a square matrix. Got shape {a.shape[-2:]}."
        )
    real = dtypes.to_real_dtype(a.dtype)
    w = a.weak_type
    return [
        ShapedArray(a.shape, a.dtype, w),
        ShapedArray(b + (n,), real, w),
        ShapedArray(b + (n - 1,), real, w),
        ShapedArray(b + (n - 1,), a.dtype, w),
    ]


rules.impl_rules[tridiagonal_p] = _tridiagonal_impl
rules.abstract_eval_rules[tridiagonal_p] = _tridiagonal_abstract_eval
rules.no_derivative(tridiagonal_p)
_front_batch(tridiagonal_p)


def tridiagonal(a, *, lower: bool = True):
    """``jax.lax.linalg.tridiagonal``: reduce a symmetric (Hermitian) matrix to tridiagonal
    form ``Q^H A Q = T`` (LAPACK ``sytrd`` / ``hetrd``).

    Args:
        a: a (batch of) square float or complex matrices; only the triangle named by
            ``lower`` is read.
        lower: use the lower (True) or upper triangle.

    Returns:
        ``(arr, d, e, taus)``: ``arr`` holds T's diagonal and first sub- (super-)diagonal
        and the Householder reflectors beyond it, ``d`` the (real) diagonal, ``e`` the
        (real) off-diagonal, ``taus`` the reflectors' scales, in LAPACK's sign convention.
    """
    (a,) = _operands("tridiagonal", a)
    return tuple(tridiagonal_p.bind(a, lower=bool(lower)))


# ---------------------------------------------------------------------- cholesky_update
cholesky_update_p = Primitive("cholesky_update")


def _cholesky_update_impl(r, w):
    # Givens rotations (BLAS rotg's scaled form) that fold w into each row of R in turn;
    # rows are rotated whole, as JAX does, so below-diagonal entries carry rounding.
    r = r.copy()
    z = w.copy()
    one = r.dtype.type(1)
    zero = r.dtype.type(0)
    with np.errstate(all="ignore"):
        for k in range(z.shape[0]):
            x, y = r[k, k], z[k]
            if y == 0:
                c, s = one, zero
            else:
                den = max(abs(x), abs(y))
                xs, ys = x / den, y / den
                rh = one / np.sqrt(xs * xs + ys * ys)
                c, s = xs * rh, -ys * rh
            row = r[k, :].copy()
            r[k, :] = c * row - s * z
            z = c * z + s * row
    return r


def _cholesky_update_abstract_eval(r, w):
    _check("cholesky_update", [r, w], (2, 1), _FLOATING, exact_rank=True)
    if r.shape[0] != r.shape[1] or w.shape[0] != r.shape[1]:
        raise ValueError(
            "Rank-1 update to Cholesky decomposition takes a square matrix and a vector of "
            f"the same size as input. Got shapes {r.shape} and {w.shape} instead"
        )
    return ShapedArray(r.shape, r.dtype, r.weak_type and w.weak_type)


rules.impl_rules[cholesky_update_p] = _cholesky_update_impl
rules.abstract_eval_rules[cholesky_update_p] = _cholesky_update_abstract_eval
rules.no_derivative(cholesky_update_p)


def _cholesky_update_batch(axis_data, args, dims):
    raise rules.missing_rule("batch", cholesky_update_p)


rules.batch_rules[cholesky_update_p] = _cholesky_update_batch


def cholesky_update(r_matrix, w_vector):
    """``jax.lax.linalg.cholesky_update``: the upper Cholesky factor of ``R^T R + w w^T``
    from the upper factor ``R`` of ``A = R^T R``, in O(n^2) (Givens rotations).

    Args:
        r_matrix: an ``(n, n)`` upper triangular float matrix (no batch axes, as in JAX).
        w_vector: an ``(n,)`` vector of the same dtype.

    Returns:
        The updated upper triangular factor (entries below the diagonal hold rounding
        residue, as JAX's).
    """
    r, w = _operands("cholesky_update", r_matrix, w_vector)
    return cholesky_update_p.bind(r, w)


# ------------------------------------------------------------------- householder_product
householder_product_p = Primitive("householder_product")


def _householder_product_impl(a, taus):
    _lapack_dtype(a)
    m, n = a.shape[-2:]

    def one(mat, tau):
        if m == 0 or n == 0:
            return (mat.copy(),)
        k = tau.shape[0]
        if k == 0:
            return (np.eye(m, n, dtype=mat.dtype),)
        orgqr = scipy.linalg.get_lapack_funcs("ungqr" if np.iscomplexobj(mat) else "orgqr", (mat,))
        # orgqr forms the product of the first k reflectors; columns past k come out as
        # those of the identity, which is what LAPACK (and so JAX) returns too.
        q, _, info = orgqr(mat, tau)
        return (q,)

    return _per_matrix(one, [a, taus], [((m, n), a.dtype)], core=[2, 1])[0]


def _householder_product_abstract_eval(a, taus):
    _check("householder_product", [a, taus], (2, 1), _INEXACT)
    m, n = a.shape[-2:]
    if m < n:
        raise ValueError(
            "The first argument to householder_product must have at least as many rows as "
            f"columns, got shape {a.shape[-2:]}"
        )
    if taus.shape[-1] > min(m, n):
        raise ValueError(
            "The second argument to householder_product must not have more rows than the "
            "minimum of the first argument's rows and columns."
        )
    return ShapedArray(a.shape, a.dtype, a.weak_type and taus.weak_type)


rules.impl_rules[householder_product_p] = _householder_product_impl
rules.abstract_eval_rules[householder_product_p] = _householder_product_abstract_eval
rules.no_derivative(householder_product_p)


def _householder_product_batch(axis_data, args, dims):
    return householder_product_p.bind(*_batch_to_front(axis_data, args, dims)), 0


rules.batch_rules[householder_product_p] = _householder_product_batch


def householder_product(a, taus):
    """``jax.lax.linalg.householder_product``: the product of the elementary Householder
    reflectors stored below the diagonal of ``a`` with scales ``taus`` (LAPACK ``orgqr`` /
    ``ungqr``).

    Args:
        a: ``[..., m, n]`` with ``m >= n``.
        taus: ``[..., k]`` with ``k <= n``, same dtype.

    Returns:
        The ``[..., m, n]`` matrix with orthonormal (unitary) columns.
    """
    a, taus = _operands("householder_product", a, taus)
    return householder_product_p.bind(a, taus)


# -------------------------------------------------------------------------------- ormqr
ormqr_p = Primitive("ormqr")


def _ormqr_impl(a, taus, c, *, left, transpose):
    _lapack_dtype(a)
    rows, cols = c.shape[-2:]

    def one(mat, tau, cm):
        k = tau.shape[0]
        if k == 0 or cm.size == 0:
            return (cm.copy(),)
        cplx = np.iscomplexobj(mat)
        ormqr = scipy.linalg.get_lapack_funcs("unmqr" if cplx else "ormqr", (mat,))
        trans = ("C" if cplx else "T") if transpose else "N"
        side = "L" if left else "R"
        v = np.ascontiguousarray(mat[:, :k])
        lwork = max(1, cols if left else rows) * 64
        out, _, info = ormqr(side, trans, v, tau, cm, lwork)
        return (out,)

    return _per_matrix(one, [a, taus, c], [((rows, cols), c.dtype)], core=[2, 1, 2])[0]


def _ormqr_abstract_eval(a, taus, c, *, left, transpose):
    _check("ormqr", [a, taus, c], (2, 1, 2), _INEXACT)
    m, n = a.shape[-2:]
    if left and c.shape[-2] != m:
        raise ValueError(
            "ormqr with left=True expects c to have the same number of rows as the "
            f"Householder matrix a. Got a shape {a.shape[-2:]} and c shape {c.shape[-2:]}."
        )
    if not left and c.shape[-1] != m:
        raise ValueError(
            "ormqr with left=False expects c to have the same number of columns as the "
            f"Householder matrix a has rows. Got a shape {a.shape[-2:]} and c shape "
            f"{c.shape[-2:]}."
        )
    if taus.shape[-1] > min(m, n):  # JAX reads past a's columns here (docs/compat.md)
        raise ValueError(
            f"ormqr: taus has {taus.shape[-1]} reflectors but a of shape {a.shape[-2:]} "
            f"holds at most {min(m, n)}."
        )
    return ShapedArray(c.shape, c.dtype, _weak([a, taus, c]))


rules.impl_rules[ormqr_p] = _ormqr_impl
rules.abstract_eval_rules[ormqr_p] = _ormqr_abstract_eval
rules.no_derivative(ormqr_p)


def _ormqr_batch(axis_data, args, dims, **params):
    return ormqr_p.bind(*_batch_to_front(axis_data, args, dims), **params), 0


rules.batch_rules[ormqr_p] = _ormqr_batch


def ormqr(a, taus, c, *, left: bool = True, transpose: bool = False):
    """``jax.lax.linalg.ormqr``: multiply ``c`` by the Q of a Householder QR without
    forming it (LAPACK ``ormqr`` / ``unmqr``).

    Args:
        a: ``[..., m, n]`` reflectors below the diagonal (``geqrf``'s form, or
            ``jnp.linalg.qr(mode="raw")[0].mT``).
        taus: ``[..., k]`` scales.
        c: ``[..., m, p]`` (``left``) or ``[..., p, m]``.
        left: ``Q @ c`` (True) or ``c @ Q``.
        transpose: use ``Q^T`` (``Q^H`` for complex).

    Returns:
        The product, of ``c``'s shape.
    """
    a, taus, c = _operands("ormqr", a, taus, c)
    return ormqr_p.bind(a, taus, c, left=bool(left), transpose=bool(transpose))


# -------------------------------------------------------------- lu_pivots_to_permutation
lu_pivots_to_permutation_p = Primitive("lu_pivots_to_permutation")


def _lu_pivots_to_permutation_impl(pivots, *, permutation_size):
    m = permutation_size
    batch = pivots.shape[:-1]
    k = pivots.shape[-1]
    perm = np.broadcast_to(np.arange(m, dtype=np.int32), batch + (m,)).copy()
    if m == 0 or k == 0:
        return perm
    flat_p = perm.reshape(-1, m)
    flat_s = pivots.reshape(-1, k)
    # Swap i with pivots[i], with jax.numpy indexing semantics: a negative index counts
    # from the end; the read clamps, the write drops an index outside the array.
    for row, swaps in zip(flat_p, flat_s):
        for i in range(k):
            j = int(swaps[i])
            j = j + m if j < 0 else j
            x = row[i]
            row[i] = row[min(max(j, 0), m - 1)]
            if 0 <= j < m:
                row[j] = x
    return perm


def _lu_pivots_to_permutation_abstract_eval(pivots, *, permutation_size):
    b = _check("lu_pivots_to_permutation", [pivots], (1,), "int32")
    k = pivots.shape[-1]
    if not permutation_size >= k:
        raise ValueError(
            f"Output permutation size {permutation_size} has to exceed the trailing dimension "
            f"of the pivots. Got pivots size {k}"
        )
    return ShapedArray(b + (permutation_size,), dtypes.int32, pivots.weak_type)


def _lu_pivots_to_permutation_jvp(primals, tangents, **params):
    out = lu_pivots_to_permutation_p.bind(*primals, **params)
    return out, Zero(aval_of(out).to_tangent_aval())


rules.impl_rules[lu_pivots_to_permutation_p] = _lu_pivots_to_permutation_impl
rules.abstract_eval_rules[lu_pivots_to_permutation_p] = _lu_pivots_to_permutation_abstract_eval
rules.jvp_rules[lu_pivots_to_permutation_p] = _lu_pivots_to_permutation_jvp


def _lu_pivots_to_permutation_batch(axis_data, args, dims, **params):
    return lu_pivots_to_permutation_p.bind(*_batch_to_front(axis_data, args, dims), **params), 0


rules.batch_rules[lu_pivots_to_permutation_p] = _lu_pivots_to_permutation_batch


def lu_pivots_to_permutation(pivots, permutation_size: int):
    """``jax.lax.linalg.lu_pivots_to_permutation``: the permutation made by applying the
    row swaps ``i <-> pivots[..., i]`` in order to ``arange(permutation_size)``.

    Args:
        pivots: an int32 ``[..., k]`` array (as ``lu`` returns).
        permutation_size: the output length, at least ``k``.

    Returns:
        An int32 ``[..., permutation_size]`` array.
    """
    (pivots,) = _operands("lu_pivots_to_permutation", pivots)
    return lu_pivots_to_permutation_p.bind(pivots, permutation_size=int(permutation_size))


# -------------------------------------------------------------------- symmetric_product
symmetric_product_p = Primitive("symmetric_product")


def _symmetric_product_impl(a, c, *, alpha, beta):
    dt = c.dtype
    prod = np.matmul(a, np.swapaxes(a, -1, -2))
    return (np.asarray(alpha, dt) * prod.astype(dt) + np.asarray(beta, dt) * c).astype(dt)


def _symmetric_product_abstract_eval(a, c, *, alpha, beta):
    _check("symmetric_product", [a, c], (2, 2), _FLOATING)
    if a.shape[-2] != c.shape[-1] or c.shape[-2] != c.shape[-1]:
        raise ValueError(
            "symmetric_update expects a rectangular matrix of shape (m, n) and a square "
            f"matrix of shape (n, n). Got shapes {a.shape[-2:]} and {c.shape[-2:]}."
        )
    return ShapedArray(c.shape, c.dtype, a.weak_type and c.weak_type)


rules.impl_rules[symmetric_product_p] = _symmetric_product_impl
rules.abstract_eval_rules[symmetric_product_p] = _symmetric_product_abstract_eval
rules.no_derivative(symmetric_product_p)


def _symmetric_product_batch(axis_data, args, dims, **params):
    return symmetric_product_p.bind(*_batch_to_front(axis_data, args, dims), **params), 0


rules.batch_rules[symmetric_product_p] = _symmetric_product_batch


def symmetric_product(
    a_matrix, c_matrix, *, alpha: float = 1.0, beta: float = 0.0, symmetrize_output: bool = False
):
    """``jax.lax.linalg.symmetric_product``: ``alpha * A @ A^T + beta * C``.

    Args:
        a_matrix: ``[..., m, n]`` float.
        c_matrix: ``[..., m, m]`` symmetric, same dtype.
        alpha: a hashable scalar (a static parameter, as in JAX).
        beta: a hashable scalar.
        symmetrize_output: mirror the lower triangle onto the upper one.

    Returns:
        The ``[..., m, m]`` product.
    """
    for v in (alpha, beta):
        hash(v)  # JAX: an array alpha/beta is an unhashable parameter (TypeError)
    a, c = _operands("symmetric_product", a_matrix, c_matrix)
    out = symmetric_product_p.bind(a, c, alpha=alpha, beta=beta)
    if symmetrize_output:
        out = ew.add(_tril(out), _T(_tril(out, -1)))
    return out


__all__ = [
    "cholesky_update",
    "cholesky_update_p",
    "householder_product",
    "householder_product_p",
    "lu_pivots_to_permutation",
    "lu_pivots_to_permutation_p",
    "ormqr",
    "ormqr_p",
    "symmetric_product",
    "symmetric_product_p",
    "tridiagonal",
    "tridiagonal_p",
    "tridiagonal_solve",
    "tridiagonal_solve_p",
]


# --------------------------------------------------------------------------- pivoted qr
def qr(x, *, pivoting: bool = False, full_matrices: bool = True, use_magma=None):
    """``jax.lax.linalg.qr``: ``(q, r)``, or with ``pivoting`` the rank-revealing
    ``(q, r, p)``: ``p`` is LAPACK ``geqp3``'s int32 column order and
    ``x[..., :, p] = q @ r`` (differentiable in ``q`` and ``r`` through the QR of the
    permuted matrix). ``use_magma`` is accepted and ignored (a GPU option)."""
    if not pivoting:
        return tuple(qr_p.bind(x, full_matrices=bool(full_matrices)))
    p = qr_pivots(x)
    shp = aval_of(x).shape
    nd = len(shp)
    cols = _sh.broadcast_in_dim(p, shp, tuple(range(nd - 2)) + (nd - 1,))
    q, r = qr_p.bind(indexing.take_along_axis(x, cols, nd - 1), full_matrices=bool(full_matrices))
    return q, r, p


# ------------------------------------------------------ eigh / svd with JAX's keywords
def eigh(
    x,
    *,
    lower: bool = True,
    symmetrize_input: bool = True,
    sort_eigenvalues: bool = True,
    subset_by_index=None,
    implementation=None,
):
    """``jax.lax.linalg.eigh``: ``(v, w)`` eigenvectors (columns) and ascending eigenvalues.

    As JAX on CPU: LAPACK's eigenvalues are always sorted (``sort_eigenvalues`` has no
    effect), ``subset_by_index`` must be None or the whole ``(0, n)``, and the Jacobi and
    QDWH implementations raise ``NotImplementedError``.
    """
    n = aval_of(x).shape[-1]
    if not (subset_by_index is None or tuple(subset_by_index) == (0, n)):
        raise NotImplementedError("subset_by_index not supported on CPU and GPU")
    kind = getattr(implementation, "value", None)
    if kind == "qdwh":
        raise NotImplementedError("QDWH implementation is only supported on TPU")
    if kind == "jacobi":
        raise NotImplementedError("Jacobi implementation is not supported on CPU")
    return _lo.eigh(x, lower=lower, symmetrize_input=symmetrize_input)


def svd(
    x, *, full_matrices: bool = True, compute_uv: bool = True, subset_by_index=None, algorithm=None
):
    """``jax.lax.linalg.svd``: ``(u, s, vh)`` (or ``s`` alone without ``compute_uv``).

    As JAX on CPU: ``subset_by_index`` must be None or the whole ``(0, min(m, n))``
    (another range is a ``ValueError`` with ``full_matrices``, else
    ``NotImplementedError``); ``algorithm`` may be None, ``DEFAULT``, ``QR`` or
    ``DIVIDE_AND_CONQUER`` (one LAPACK kernel here); the Jacobi and polar ones raise.
    """
    k = min(aval_of(x).shape[-2:])
    if subset_by_index is not None and tuple(subset_by_index) != (0, k):
        if full_matrices:
            raise ValueError("full_matrices and subset_by_index cannot both be set")
        raise NotImplementedError("subset_by_index not implemented for CPU and GPU")
    if algorithm is not None and getattr(algorithm, "value", None) not in (
        "default",
        "QR",
        "divide_and_conquer",
    ):
        raise NotImplementedError("The SVD Jacobi and Polar algorithms are not implemented on CPU.")
    return linalg_svd.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)


# ------------------------------------------------------------------------------ enums
class EigImplementation(enum.Enum):
    """``jax.lax.linalg.EigImplementation`` (accepted and ignored: one CPU kernel)."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


class EighImplementation(enum.Enum):
    """``jax.lax.linalg.EighImplementation`` (accepted and ignored: one CPU kernel)."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class SvdAlgorithm(enum.Enum):
    """``jax.lax.linalg.SvdAlgorithm`` (accepted and ignored: one CPU kernel)."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"
