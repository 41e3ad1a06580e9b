"""Matrix decomposition primitives: cholesky, triangular_solve, lu, qr, eigh, eig (svd:
``linalg_svd.py``).

All act on the trailing two axes and treat leading axes as a batch (so batching rules move
the batch axis to the front). Kernels are NumPy/SciPy LAPACK calls. JVP rules follow the
standard matrix-calculus identities (noted per rule); ``triangular_solve`` is linear in its
right-hand side and has a transpose rule; the decompositions get reverse mode through
linearisation of their JVPs.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, is_undefined_primal, not_mapped
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    indexing,
    linalg as _dot,
    reductions,
    shape as _sh,
    structural,
)
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use


# ------------------------------------------------------------------------------ helpers
def _shape(x):
    return aval_of(x).shape


def _mm(a, b):
    """Batched matmul over the trailing two axes (leading axes must agree)."""
    na = len(_shape(a))
    nb = na - 2
    return _dot.dot_general(a, b, (((na - 1,), (nb,)), (tuple(range(nb)), tuple(range(nb)))))


def _T(x):
    n = len(_shape(x))
    perm = list(range(n - 2)) + [n - 1, n - 2]
    return _sh.transpose(x, perm)


def _H(x):
    x = _T(x)
    return ew.conj(x) if dtypes.is_complex(aval_of(x).dtype) else x


def _tri_mask(shape, k, lower):
    n, m = shape[-2:]
    rows = conversion.broadcasted_iota(dtypes.int32, (n, m), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (n, m), 1)
    kk = _sh.full((), k, dtypes.int32)
    mask = ew.ge(ew.add(rows, kk), cols) if lower else ew.le(ew.add(rows, kk), cols)
    return _sh.broadcast_to_rank(mask, tuple(shape))


def _tril(x, k=0):
    return ew.select_n(_tri_mask(_shape(x), k, True), ew.zeros_like(x), x)


def _triu(x, k=0):
    return ew.select_n(_tri_mask(_shape(x), k, False), ew.zeros_like(x), x)


def _eye_like(x):
    s = _shape(x)
    n = s[-1]
    rows = conversion.broadcasted_iota(dtypes.int32, (n, n), 0)
    cols = conversion.broadcasted_iota(dtypes.int32, (n, n), 1)
    eye = conversion.convert_element_type(ew.eq(rows, cols), aval_of(x).dtype)
    return eye


def _diag(x):
    """Diagonal of the trailing square matrices: shape ``batch + (n,)``."""
    s = _shape(x)
    n = min(s[-2:])
    eye = _eye_like(_sh.slice_in_dim(_sh.slice_in_dim(x, 0, n, 1, len(s) - 2), 0, n, 1, len(s) - 1))
    xs = _sh.slice_in_dim(_sh.slice_in_dim(x, 0, n, 1, len(s) - 2), 0, n, 1, len(s) - 1)

    return reductions.reduce_sum(ew.mul(xs, _sh.broadcast_to_rank(eye, _shape(xs))), (len(s) - 1,))


def _batch_to_front(axis_data, args, dims):
    return [
        _sh.broadcast_batch(x, axis_data.size) if d is not_mapped else _sh.moveaxis(x, d, 0)
        for x, d in zip(args, dims)
    ]


def _per_matrix(fn, x, n_out):
    """Apply ``fn`` (one matrix -> tuple of arrays) over the leading batch axes."""
    batch = x.shape[:-2]
    flat = x.reshape((int(np.prod(batch, dtype=np.int64)),) + x.shape[-2:])  # 0x0 matrices too
    res = [fn(m) for m in flat]
    if not res:
        return None
    outs = []
    for i in range(n_out):
        stacked = np.stack([r[i] for r in res])
        outs.append(stacked.reshape(batch + stacked.shape[1:]))
    return outs


def _nan_on_failure(batched, x, out_shapes_dtypes):
    """Run ``batched(x)`` (a NumPy factorisation over a stack of matrices). Data never
    raises, as in JAX: if LAPACK fails on some matrix (``LinAlgError``: NaN input, no
    convergence), each matrix is redone alone and the failed ones give NaN outputs.

    ``out_shapes_dtypes(m)`` gives, for one matrix ``m``, the (shape, dtype) of each output.
    """
    try:
        return list(batched(x))
    except np.linalg.LinAlgError:
        pass

    def one(m):
        try:
            return tuple(batched(m))
        except np.linalg.LinAlgError:
            return tuple(np.full(shp, np.nan, dt) for shp, dt in out_shapes_dtypes(m))

    if x.ndim == 2:
        return list(one(x))
    return _per_matrix(one, x, len(out_shapes_dtypes(x[(0,) * (x.ndim - 2)])))


def _check_square(name, x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(
            f"{name}: argument must be a stack of square matrices, got shape {x.shape}"
        )
    if not dtypes.is_inexact(x.dtype):
        raise TypeError(f"{name}: argument must be floating point or complex, got {x.dtype}")


# ---------------------------------------------------------------------------- cholesky
cholesky_p = Primitive("cholesky")


def _cholesky_impl(x):
    def one(m):
        try:
            return (np.linalg.cholesky(m),)
        except np.linalg.LinAlgError:
            # As JAX: NaN in the lower triangle, zeros above it.
            return (np.tril(np.full(m.shape, np.nan, m.dtype)),)

    if x.size == 0:
        return x.copy()
    return _per_matrix(one, x, 1)[0].astype(x.dtype)


def _cholesky_abstract_eval(x):
    _check_square("cholesky", x)
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _cholesky_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    L = cholesky_p.bind(x)
    if type(t) is Zero:
        return L, Zero(aval_of(L).to_tangent_aval())
    # dL = L phi(L^-1 dA L^-H), phi = lower triangle with the diagonal halved. The tangent
    # is used as given, as in JAX: cholesky(x, symmetrize_input=True) symmetrizes x (and so
    # its tangent) before binding; with symmetrize_input=False the derivative is JAX's too.
    tmp = triangular_solve(L, t, left_side=False, lower=True, transpose_a=True, conjugate_a=True)
    inner = triangular_solve(L, tmp, left_side=True, lower=True)
    # phi by selects and a division, and dL's upper triangle selected to 0, as JAX: a
    # NaN factor (x not positive definite) must not leak into the zeros (0 * NaN)
    one = _sh.full((), 1.0, aval_of(inner).dtype)
    diag = _sh.broadcast_to_rank(ew.add(_eye_like(inner), one), _shape(inner))
    phi = ew.div(_tril(inner), diag)
    return L, _tril(_mm(L, phi))


rules.impl_rules[cholesky_p] = _cholesky_impl
rules.abstract_eval_rules[cholesky_p] = _cholesky_abstract_eval
rules.jvp_rules[cholesky_p] = _cholesky_jvp
rules.batch_rules[cholesky_p] = lambda ad, args, dims: (
    cholesky_p.bind(*_batch_to_front(ad, args, dims)),
    0,
)


def cholesky(x, *, symmetrize_input: bool = True):
    """``jax.lax.linalg.cholesky``: lower Cholesky factor (NaNs if not positive definite)."""
    if symmetrize_input:
        x = ew.mul(ew.add(x, _H(x)), _sh.full((), 0.5, aval_of(x).dtype, weak_type=True))
    return cholesky_p.bind(x)


# -------------------------------------------------------------------- triangular_solve
triangular_solve_p = Primitive("triangular_solve")


def _tri_op(a, lower, transpose_a, conjugate_a, unit_diagonal):
    n = a.shape[-1]
    a = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:  # the diagonal replaced, whatever it held (inf and NaN too)
        a = np.where(np.eye(n, dtype=bool), np.ones((), a.dtype), a)
    if conjugate_a:
        a = np.conj(a)
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    return a


def _substitute(op, b, lower: bool):
    """Solve triangular ``op x = b`` by substitution in IEEE arithmetic (a zero pivot gives
    inf/NaN as XLA's does, no error), vectorised over the batch and ``b``'s columns."""
    n = op.shape[-1]
    x = np.zeros(np.broadcast_shapes(op.shape[:-2], b.shape[:-2]) + b.shape[-2:], b.dtype)
    order = range(n) if lower else range(n - 1, -1, -1)
    with np.errstate(all="ignore"):
        for i in order:
            done = slice(0, i) if lower else slice(i + 1, n)
            acc = b[..., i, :] - np.einsum("...j,...jk->...k", op[..., i, done], x[..., done, :])
            piv = op[..., i, i][..., None]
            out = acc / piv
            if np.iscomplexobj(out):
                # LAPACK's complex trsm: a NaN + NaN j row for a zero pivot (NumPy: infs)
                out = np.where(piv == 0, np.array(complex(np.nan, np.nan), out.dtype), out)
            x[..., i, :] = out
    return x


def _solve_triangular(op, b, lower: bool):
    # Substitution as XLA's trsm (np.linalg.solve pivoted rows: noise where inv(L) is 0):
    # BLAS trsm per matrix for finite systems (vectorised substitution for many small ones).
    few = op.shape[-1] > 16 or np.prod(b.shape[:-2], dtype=int) <= 8
    if few and np.isfinite(b).all() and np.isfinite(op).all():
        out, trsm = np.empty(b.shape, b.dtype), scipy.linalg.blas.get_blas_funcs("trsm", (op, b))
        for i in np.ndindex(b.shape[:-2]):
            out[i] = trsm(1.0, op[i], b[i], lower=int(lower))
        return out
    return _substitute(op, b, lower)


def _triangular_solve_impl(a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal):
    dtype, (a, b) = b.dtype, (x.astype(np.float32) if x.itemsize < 4 else x for x in (a, b))
    op = _tri_op(a, lower, transpose_a, conjugate_a, unit_diagonal)
    op_lower = lower != transpose_a  # transposing swaps the triangle
    if left_side:
        out = _solve_triangular(op, b, op_lower)
    else:  # x op = b  <=>  op^T x^T = b^T
        out = np.swapaxes(
            _solve_triangular(np.swapaxes(op, -1, -2), np.swapaxes(b, -1, -2), not op_lower),
            -1,
            -2,
        )
    return np.asarray(out, dtype=dtype)


def _triangular_solve_abstract_eval(
    a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal
):
    _check_square("triangular_solve", a)
    if b.ndim != a.ndim:
        raise TypeError("triangular_solve requires a and b to have the same rank")
    if a.shape[:-2] != b.shape[:-2]:  # JAX's ValueError (the kernel would broadcast them)
        raise ValueError(
            f"triangular_solve: batch dimensions of a {a.shape} and b {b.shape} differ"
        )
    k = b.shape[-2] if left_side else b.shape[-1]
    if k != a.shape[-1]:
        raise TypeError(f"triangular_solve: incompatible shapes {a.shape} and {b.shape}")
    if a.dtype != b.dtype:
        raise TypeError("triangular_solve requires a and b to have the same dtype")
    # Like JAX's linalg primitives: weak only when every operand is weak.
    return ShapedArray(b.shape, b.dtype, a.weak_type and b.weak_type)


def _triangular_solve_jvp(primals, tangents, **params):
    a, b = primals
    ta, tb = tangents
    x = triangular_solve_p.bind(a, b, **params)
    if type(ta) is Zero and type(tb) is Zero:
        return x, Zero(aval_of(x).to_tangent_aval())
    out = None
    if type(tb) is not Zero:
        out = triangular_solve_p.bind(a, tb, **params)
    if type(ta) is not Zero:
        # d(op(a)^-1 b) = -op(a)^-1 op(da) x  (left);  -x op(da) op(a)^-1  (right).
        da = _tril(ta) if params["lower"] else _triu(ta)
        if params["unit_diagonal"]:
            da = ew.sub(da, ew.mul(da, _sh.broadcast_to_rank(_eye_like(da), _shape(da))))
        if params["conjugate_a"] and dtypes.is_complex(aval_of(da).dtype):
            da = ew.conj(da)
        if params["transpose_a"]:
            da = _T(da)
        rhs = _mm(da, x) if params["left_side"] else _mm(x, da)
        contrib = ew.neg(triangular_solve_p.bind(a, rhs, **params))
        out = contrib if out is None else ew.add(out, contrib)
    return x, out


def _triangular_solve_transpose(
    ct, a, b, *, left_side, lower, transpose_a, conjugate_a, unit_diagonal
):
    assert not is_undefined_primal(a) and is_undefined_primal(b)
    if type(ct) is Zero:
        return [None, Zero(b.aval)]
    # x = op(a)^-1 b is linear in b; its transpose solves with op(a)^T.
    ct_b = triangular_solve_p.bind(
        a,
        ct,
        left_side=left_side,
        lower=lower,
        transpose_a=not transpose_a,
        conjugate_a=conjugate_a,
        unit_diagonal=unit_diagonal,
    )
    return [None, ct_b]


def _triangular_solve_batch(axis_data, args, dims, **params):
    a, b = _batch_to_front(axis_data, args, dims)
    return triangular_solve_p.bind(a, b, **params), 0


rules.impl_rules[triangular_solve_p] = _triangular_solve_impl
rules.abstract_eval_rules[triangular_solve_p] = _triangular_solve_abstract_eval
rules.jvp_rules[triangular_solve_p] = _triangular_solve_jvp
rules.transpose_rules[triangular_solve_p] = _triangular_solve_transpose
rules.batch_rules[triangular_solve_p] = _triangular_solve_batch


def triangular_solve(
    a,
    b,
    *,
    left_side: bool = False,
    lower: bool = False,
    transpose_a: bool = False,
    conjugate_a: bool = False,
    unit_diagonal: bool = False,
):
    """``jax.lax.linalg.triangular_solve``: solve ``op(a) x = b`` (``left_side``) or
    ``x op(a) = b`` with ``a`` triangular."""
    return triangular_solve_p.bind(
        a,
        b,
        left_side=bool(left_side),
        lower=bool(lower),
        transpose_a=bool(transpose_a),
        conjugate_a=bool(conjugate_a),
        unit_diagonal=bool(unit_diagonal),
    )


# ---------------------------------------------------------------------------------- lu
lu_p = Primitive("lu", multiple_results=True)


def _lu_one(m):
    rows, cols = m.shape
    k = min(rows, cols)
    if k == 0:
        return m.copy(), np.zeros((0,), np.int32), np.arange(rows, dtype=np.int32)
    lu, piv = scipy.linalg.lu_factor(m, check_finite=False)  # getrf: any (m, n)
    perm = np.arange(rows)
    for i, p in enumerate(piv):
        perm[i], perm[p] = perm[p], perm[i]
    return lu, piv.astype(np.int32), perm.astype(np.int32)


def _lu_impl(x):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if x.ndim == 2:
            lu, piv, perm = _lu_one(x)
            return [lu.astype(x.dtype), piv, perm]
        batch = x.shape[:-2]
        m, n = x.shape[-2:]
        if int(np.prod(batch)) == 0:
            return [
                x.copy(),
                np.zeros(batch + (min(m, n),), np.int32),
                np.zeros(batch + (m,), np.int32),
            ]
        lu, piv, perm = _per_matrix(_lu_one, x, 3)
        return [lu.astype(x.dtype), piv, perm]


def _lu_abstract_eval(x):
    if x.ndim < 2:
        raise ValueError(f"lu: argument must have at least 2 dimensions, got shape {x.shape}")
    if not dtypes.is_inexact(x.dtype):
        raise TypeError(f"lu: argument must be floating point or complex, got {x.dtype}")
    b, (m, n) = x.shape[:-2], x.shape[-2:]
    return [
        # JAX gives every output (the int32 pivots too) the operand's weak type.
        ShapedArray(x.shape, x.dtype, x.weak_type),
        ShapedArray(b + (min(m, n),), dtypes.int32, x.weak_type),
        ShapedArray(b + (m,), dtypes.int32, x.weak_type),
    ]


def _lu_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    lu, piv, perm = lu_p.bind(x)
    zeros_i = [Zero(aval_of(piv).to_tangent_aval()), Zero(aval_of(perm).to_tangent_aval())]
    if type(t) is Zero:
        return [lu, piv, perm], [Zero(aval_of(lu).to_tangent_aval())] + zeros_i

    nd = len(_shape(x))
    m, n = _shape(x)[-2:]
    k = min(m, n)
    # Rows of the tangent in pivoted order: P dA.
    perm_b = _sh.broadcast_in_dim(perm, _shape(x), tuple(range(nd - 1)))
    pa = indexing.take_along_axis(t, perm_b, nd - 2)
    # L (m x k) completed to a unit lower m x m matrix, U (k x n) to an upper n x n one
    # with unit diagonal below row k: both invertible, and their products with the
    # tangent's triangular parts give dL and dU (rectangular factorisations included).
    zero = _sh.full((), 0, aval_of(x).dtype)
    lead = [(0, 0, 0)] * (nd - 2)
    l_part = _sh.pad(
        _sh.slice_in_dim(_tril(lu, -1), 0, k, 1, nd - 1), zero, lead + [(0, 0, 0), (0, m - k, 0)]
    )
    eye_m = _sh.broadcast_to_rank(_eye_like(_sh.full((m, m), 0, aval_of(x).dtype)), _shape(l_part))
    L = ew.add(l_part, eye_m)
    u_part = _sh.pad(
        _sh.slice_in_dim(_triu(lu), 0, k, 1, nd - 2), zero, lead + [(0, n - k, 0), (0, 0, 0)]
    )
    eye_n = _eye_like(_sh.full((n, n), 0, aval_of(x).dtype))
    tail = _sh.broadcast_to_rank(
        _sh.pad(
            _sh.slice_in_dim(_sh.slice_in_dim(eye_n, k, n, 1, 0), k, n, 1, 1),
            zero,
            [(k, 0, 0), (k, 0, 0)],
        ),
        _shape(u_part),
    )
    U = ew.add(u_part, tail)
    la = triangular_solve(L, pa, left_side=True, lower=True, unit_diagonal=True)
    lau = triangular_solve(U, la, left_side=False, lower=False)
    l_dot = _mm(L, _tril(lau, -1))
    u_dot = _mm(_triu(lau), U)
    return [lu, piv, perm], [ew.add(l_dot, u_dot)] + zeros_i


def _lu_batch(axis_data, args, dims):
    (x,) = _batch_to_front(axis_data, args, dims)
    return lu_p.bind(x), [0, 0, 0]


rules.impl_rules[lu_p] = _lu_impl
rules.abstract_eval_rules[lu_p] = _lu_abstract_eval
rules.jvp_rules[lu_p] = _lu_jvp
rules.batch_rules[lu_p] = _lu_batch


def lu(x):
    """``jax.lax.linalg.lu``: ``(lu, pivots, permutation)`` with ``P A = L U`` (L unit
    lower, U upper, packed in ``lu``)."""
    return tuple(lu_p.bind(x))


# ---------------------------------------------------------------------------------- qr
qr_p = Primitive("qr", multiple_results=True)


def _qr_impl(x, *, full_matrices):
    mode = "complete" if full_matrices else "reduced"

    def shapes(m):
        r, c = m.shape
        k = r if full_matrices else min(r, c)
        return [((r, k), m.dtype), ((k, c), m.dtype)]

    q, r = _nan_on_failure(lambda m: np.linalg.qr(m, mode=mode), x, shapes)
    return [q.astype(x.dtype), r.astype(x.dtype)]


def _qr_abstract_eval(x, *, full_matrices):
    if x.ndim < 2:
        raise ValueError("qr: argument must have at least 2 dimensions")
    m, n = x.shape[-2:]
    k = m if full_matrices else min(m, n)
    b = x.shape[:-2]
    w = x.weak_type
    return [ShapedArray(b + (m, k), x.dtype, w), ShapedArray(b + (k, n), x.dtype, w)]


def _thin_qr_jvp(q, r, t):
    """Tangents of a thin QR (``q`` m x n orthonormal columns, ``r`` n x n upper, m >= n).

    ``dx R^-1 = dQ + Q dR R^-1`` with ``Q^H dQ`` skew-Hermitian and ``dR R^-1`` upper: the
    strictly lower part of ``C = Q^H dx R^-1`` fixes ``Q^H dQ`` off the diagonal; for
    complex input its diagonal is imaginary, fixed by ``dR``'s diagonal staying real
    (LAPACK's ``R`` has a real diagonal), so it takes the imaginary part of ``C``'s."""
    dx_rinv = triangular_solve(r, t, left_side=False, lower=False)
    c = _mm(_H(q), dx_rinv)
    low = _tril(c, -1)
    skew = ew.sub(low, _H(low))
    if dtypes.is_complex(aval_of(c).dtype):
        imag_c = ew.sub(c, conversion.convert_element_type(ew.real(c), aval_of(c).dtype))
        eye = _sh.broadcast_to_rank(_eye_like(c), _shape(c))
        skew = ew.add(skew, ew.mul(eye, imag_c))
    dq = ew.add(_mm(q, ew.sub(skew, c)), dx_rinv)
    dr = _mm(ew.sub(c, skew), r)
    return dq, dr


def _solve_general(a, b):
    """``a^-1 b`` for square ``a`` (partial-pivoting LU, two triangular solves)."""
    lu, _, perm = lu_p.bind(a)
    nd = len(_shape(b))
    perm_b = _sh.broadcast_in_dim(perm, _shape(b), tuple(range(nd - 1)))
    pb = indexing.take_along_axis(b, perm_b, nd - 2)
    y = triangular_solve(lu, pb, left_side=True, lower=True, unit_diagonal=True)
    return triangular_solve(lu, y, left_side=True, lower=False)


def _qr_jvp(primals, tangents, *, full_matrices):
    (x,), (t,) = primals, tangents
    q, r = qr_p.bind(x, full_matrices=full_matrices)
    if type(t) is Zero:
        return [q, r], [Zero(aval_of(q).to_tangent_aval()), Zero(aval_of(r).to_tangent_aval())]
    nd = len(_shape(x))
    m, n = _shape(x)[-2:]
    if m < n:
        # wide: x = [x1 x2] with x1 = Q r1 square (the thin rule) and r2 = Q^H x2, so
        # dr2 = dQ^H x2 + Q^H dx2
        dq, dr1 = _thin_qr_jvp(
            q, _sh.slice_in_dim(r, 0, m, 1, nd - 1), _sh.slice_in_dim(t, 0, m, 1, nd - 1)
        )
        x2, t2 = _sh.slice_in_dim(x, m, n, 1, nd - 1), _sh.slice_in_dim(t, m, n, 1, nd - 1)
        dr2 = ew.add(_mm(_H(dq), x2), _mm(_H(q), t2))
        return [q, r], [dq, _sh.concatenate([dr1, dr2], nd - 1)]
    if not full_matrices or m == n:
        dq, dr = _thin_qr_jvp(q, r, t)
        return [q, r], [dq, dr]
    # tall with the complete Q = [Q1 Q2] (m x m): Q1, R's top n rows from the thin rule;
    # Q2's tangent as LAPACK's Householder construction moves it (Roberts & Roberts,
    # arXiv:2409.13374, eqs. 32-33): with Q1 = [A; B] (A n x n) and Z = B (A - I)^-1,
    # dQ2 = dQ1 Z^H - (Q1 + Q2 Z)(dB - Z dA)^H; R's bottom rows stay zero.
    q1 = _sh.slice_in_dim(q, 0, n, 1, nd - 1)
    q2 = _sh.slice_in_dim(q, n, m, 1, nd - 1)
    dq1, dr_top = _thin_qr_jvp(q1, _sh.slice_in_dim(r, 0, n, 1, nd - 2), t)
    qa, qb = _sh.slice_in_dim(q1, 0, n, 1, nd - 2), _sh.slice_in_dim(q1, n, m, 1, nd - 2)
    dqa, dqb = _sh.slice_in_dim(dq1, 0, n, 1, nd - 2), _sh.slice_in_dim(dq1, n, m, 1, nd - 2)
    eye = _sh.broadcast_to_rank(_eye_like(qa), _shape(qa))
    z_h = _solve_general(_H(ew.sub(qa, eye)), _H(qb))
    z = _H(z_h)
    dq2 = ew.sub(_mm(dq1, z_h), _mm(ew.add(q1, _mm(q2, z)), _H(ew.sub(dqb, _mm(z, dqa)))))
    dq = _sh.concatenate([dq1, dq2], nd - 1)
    zero = _sh.full((), 0, aval_of(x).dtype)
    dr = _sh.pad(dr_top, zero, [(0, 0, 0)] * (nd - 2) + [(0, m - n, 0), (0, 0, 0)])
    return [q, r], [dq, dr]


def _qr_batch(axis_data, args, dims, *, full_matrices):
    (x,) = _batch_to_front(axis_data, args, dims)
    return qr_p.bind(x, full_matrices=full_matrices), [0, 0]


rules.impl_rules[qr_p] = _qr_impl
rules.abstract_eval_rules[qr_p] = _qr_abstract_eval
rules.jvp_rules[qr_p] = _qr_jvp
rules.batch_rules[qr_p] = _qr_batch


def qr(x, *, full_matrices: bool = True):
    """``jax.lax.linalg.qr`` without pivoting: ``(q, r)`` (the public function, with
    ``pivoting``, is ``linalg_more.qr``)."""
    return tuple(qr_p.bind(x, full_matrices=bool(full_matrices)))


# -------------------------------------------------------------------------------- eigh
eigh_p = Primitive("eigh", multiple_results=True)


def _eigh_impl(x, *, lower):
    def shapes(m):
        return [((m.shape[0],), dtypes.to_real_dtype(m.dtype)), (m.shape, m.dtype)]

    w, v = _nan_on_failure(lambda m: np.linalg.eigh(m, UPLO="L" if lower else "U"), x, shapes)
    return [v.astype(x.dtype), w.astype(dtypes.to_real_dtype(x.dtype))]


rules.impl_rules[eigh_p] = _eigh_impl


def _eigh_abstract_eval(x, *, lower):
    _check_square("eigh", x)
    w = x.weak_type
    return [
        ShapedArray(x.shape, x.dtype, w),
        ShapedArray(x.shape[:-1], dtypes.to_real_dtype(x.dtype), w),
    ]


def _eigh_jvp(primals, tangents, *, lower):
    (x,), (t,) = primals, tangents
    if type(t) is Zero:
        v, w = eigh_p.bind(x, lower=lower)
        return [v, w], [Zero(aval_of(v).to_tangent_aval()), Zero(aval_of(w).to_tangent_aval())]
    # As JAX's rule: the primal is the decomposition of the symmetrized input (so with
    # symmetrize_input=False, a non-symmetric input's values under differentiation are
    # those of (x + x^H) / 2, not of its triangle), the tangent the full one.
    v, w = eigh_p.bind(_symmetrize(x), lower=lower)
    # dw = diag(V^H dA V); dV = V (F * V^H dA V), F_ij = 1 / (w_j - w_i) off the diagonal.
    nd = len(_shape(x))
    vh_t_v = _mm(_mm(_H(v), t), v)
    wc = conversion.convert_element_type(w, aval_of(x).dtype)
    wi = _sh.broadcast_in_dim(wc, _shape(x), tuple(range(nd - 2)) + (nd - 2,))
    wj = _sh.broadcast_in_dim(wc, _shape(x), tuple(range(nd - 2)) + (nd - 1,))
    eye = _sh.broadcast_to_rank(_eye_like(x), _shape(x))
    F = ew.sub(ew.div(_sh.full((), 1, aval_of(x).dtype), ew.add(eye, ew.sub(wj, wi))), eye)
    dv = _mm(v, ew.mul(F, vh_t_v))
    dw = _diag(vh_t_v)
    if dtypes.is_complex(aval_of(dw).dtype):
        dw = ew.real(dw)
    return [v, w], [dv, dw]


def _eigh_batch(axis_data, args, dims, *, lower):
    (x,) = _batch_to_front(axis_data, args, dims)
    return eigh_p.bind(x, lower=lower), [0, 0]


rules.abstract_eval_rules[eigh_p] = _eigh_abstract_eval
rules.jvp_rules[eigh_p] = _eigh_jvp
rules.batch_rules[eigh_p] = _eigh_batch


def _symmetrize(x):
    return ew.mul(ew.add(x, _H(x)), _sh.full((), 0.5, aval_of(x).dtype, weak_type=True))


def eigh(x, *, lower: bool = True, symmetrize_input: bool = True):
    """``jax.lax.linalg.eigh``: ``(v, w)`` eigenvectors (columns) and ascending eigenvalues."""
    if symmetrize_input:
        x = _symmetrize(x)
    return tuple(eigh_p.bind(x, lower=bool(lower)))


# --------------------------------------------------------------------------------- eig
eig_p = Primitive("eig", multiple_results=True)

_EIGVEC_DERIVS = (
    "Derivatives of non-symmetric eigenvectors are only valid under assumptions on the "
    "input that JAX cannot check (see the enable_eigvec_derivs argument to "
    "jax.lax.linalg.eig). Pass enable_eigvec_derivs=True to jax.lax.linalg.eig to opt in. "
    "See https://github.com/jax-ml/jax/issues/2748 for discussion."
)


def _eig_impl(x, *, compute_left_eigenvectors, compute_right_eigenvectors):
    """LAPACK's geev through SciPy, whose LAPACK JAX's CPU kernels also call: the
    eigenvalues in its order, eigenvectors of unit norm with their largest component
    real (signs included); always complex."""
    cdt = dtypes.to_complex_dtype(x.dtype)
    n = x.shape[-1]
    left = bool(compute_left_eigenvectors)

    def shapes(m):
        return [((n,), cdt), ((n, n), cdt), ((n, n), cdt)]

    def geev(m):  # (w, vl, vr), one matrix at a time (vl is vr where not asked for)
        if m.ndim > 2:
            return _per_matrix(geev, m, 3)
        if not np.isfinite(m).all():  # JAX: nan+nanj outputs (SciPy's check would raise)
            bad = complex(np.nan, np.nan)
            return [np.full((n,), bad, cdt), np.full((n, n), bad, cdt), np.full((n, n), bad, cdt)]
        w, *vecs = scipy.linalg.eig(m, left=left, right=True, check_finite=False)
        return [w, vecs[0], vecs[-1]]

    w, vl, vr = _nan_on_failure(geev, x, shapes)
    outs = [w] + [vl] * left + [vr] * bool(compute_right_eigenvectors)
    return [np.asarray(o).astype(cdt) for o in outs]


def _eig_abstract_eval(x, *, compute_left_eigenvectors, compute_right_eigenvectors):
    _check_square("eig", x)
    cdt = dtypes.to_complex_dtype(x.dtype)
    n_vec = int(compute_left_eigenvectors) + int(compute_right_eigenvectors)
    w = x.weak_type
    return [ShapedArray(x.shape[:-1], cdt, w)] + [ShapedArray(x.shape, cdt, w)] * n_vec


def _eig_jvp(primals, tangents, *, compute_left_eigenvectors, compute_right_eigenvectors):
    if compute_left_eigenvectors or compute_right_eigenvectors:
        raise NotImplementedError(_EIGVEC_DERIVS)
    (x,), (t,) = primals, tangents
    if type(t) is Zero:
        (w,) = eig_p.bind(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False)
        return [w], [Zero(aval_of(w).to_tangent_aval())]
    w, vl, vr = eig_p.bind(x, compute_left_eigenvectors=True, compute_right_eigenvectors=True)
    # dw_i = vl_i^H dA vr_i / vl_i^H vr_i (first-order perturbation of a simple eigenvalue).
    tc = conversion.convert_element_type(t, aval_of(w).dtype)
    dw = ew.div(_diag(_mm(_mm(_H(vl), tc), vr)), _diag(_mm(_H(vl), vr)))
    return [w], [dw]


def _eig_batch(axis_data, args, dims, **params):
    (x,) = _batch_to_front(axis_data, args, dims)
    outs = eig_p.bind(x, **params)
    return outs, [0] * len(outs)


rules.impl_rules[eig_p] = _eig_impl
rules.abstract_eval_rules[eig_p] = _eig_abstract_eval
rules.jvp_rules[eig_p] = _eig_jvp
rules.batch_rules[eig_p] = _eig_batch


def eig(
    x,
    *,
    compute_left_eigenvectors: bool = True,
    compute_right_eigenvectors: bool = True,
    enable_eigvec_derivs: bool = False,
    implementation=None,
    use_magma=None,
):
    """``jax.lax.linalg.eig``: ``[w, vl, vr]`` (those requested) of a square matrix (or a
    stack): eigenvalues in LAPACK's order and unit-norm left/right eigenvectors, complex.

    Only the eigenvalues are differentiable (forward and reverse mode); derivatives of
    eigenvectors raise ``NotImplementedError`` with JAX's message
    (``enable_eigvec_derivs=True`` is not implemented in jaxlite).
    """
    if enable_eigvec_derivs:
        raise NotImplementedError(
            "jax.lax.linalg.eig(enable_eigvec_derivs=True) is not implemented in jaxlite"
        )
    return list(
        eig_p.bind(
            x,
            compute_left_eigenvectors=bool(compute_left_eigenvectors),
            compute_right_eigenvectors=bool(compute_right_eigenvectors),
        )
    )


del structural
