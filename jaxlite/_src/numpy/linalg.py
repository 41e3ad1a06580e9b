"""``jax.numpy.linalg``: norms, solves, inverses, determinants and decompositions, built
on the primitives of ``ops/linalg_ops.py`` (cholesky, triangular_solve, lu, qr, eigh, svd)."""

from __future__ import annotations

import operator
from typing import NamedTuple

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.compile.jit import hash_static
from jaxlite._src.core.array import Array
from jaxlite._src.core.trace import new_array
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import (
    creation,
    indexing_routines as _ix_routines,
    products,
    reductions,
    sorting as _sorting,
    ufuncs,
)
from jaxlite._src.numpy.creation import arange, eye, full_like, ones_like, zeros, zeros_like
from jaxlite._src.numpy.einsum import tensordot as _td
from jaxlite._src.numpy.indexing_routines import diagonal as _diagonal
from jaxlite._src.numpy.products import cross as _cross, trace as _trace, vecdot as _vecdot
from jaxlite._src.numpy.reductions import cumprod, prod
from jaxlite._src.numpy.shape import (
    broadcast_to,
    concatenate,
    expand_dims,
    flip,
    moveaxis,
    ravel,
    reshape,
    squeeze,
    swapaxes,
)
from jaxlite._src.numpy.ufuncs import (
    conj,
    divide,
    equal,
    greater,
    greater_equal,
    less,
    log,
    logical_and,
    multiply,
    not_equal,
    power,
    real as _real,
    sqrt,
    square,
    subtract,
    where,
)
from jaxlite._src.numpy.util import (
    asarray_any,
    canonicalize_axis,
    check_arraylike,
    check_jit_arguments,
    promote_dtypes_inexact,
)
from jaxlite._src.ops import (
    indexing as _ix,
    linalg_more as _lm,
    linalg_ops as _la,
    linalg_schur as _schur,
)
from jaxlite._src.ops.precision import check_precision


class EighResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    Q: Array
    R: Array


class SVDResult(NamedTuple):
    U: Array
    S: Array
    Vh: Array


def _inexact(x):
    (x,) = promote_dtypes_inexact(asarray_any(x))
    return x


def _H(x):
    x = swapaxes(x, -1, -2)
    return conj(x) if dtypes.is_complex(x.dtype) else x


def _square(name, a):
    if (a.ndim < 2 or a.shape[-1] != a.shape[-2]) and name == "inv":
        raise ValueError(f"Argument to inv must have shape [..., n, n], got {a.shape}.")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(
            f"{name}: argument must be a square matrix or stack of square "
            f"matrices, got shape {a.shape}"
        )


def cholesky(a, *, upper: bool = False, symmetrize_input: bool = True):
    """``jnp.linalg.cholesky``: lower (or upper) Cholesky factor; NaN if not PD."""
    check_arraylike("jnp.linalg.cholesky", a)
    a = _inexact(a)
    _square("cholesky", a)
    L = _la.cholesky(a, symmetrize_input=symmetrize_input)
    return _H(L) if upper else L


def qr(a, mode: str = "reduced"):
    """``jnp.linalg.qr``: ``QRResult(Q, R)`` (``mode`` reduced/complete; "r" returns R;
    "raw" returns LAPACK's Householder form ``(h, tau)``, ``h`` of shape ``(..., n, m)``)."""
    check_arraylike("jnp.linalg.qr", a)
    a = _inexact(a)
    if mode not in ("reduced", "complete", "r", "raw"):
        raise ValueError(f"Unsupported QR decomposition mode '{mode}'")
    if mode == "raw":  # LAPACK's (a, taus), a transposed as NumPy and JAX return it
        h, taus = _schur.geqrf(a)
        return QRResult(swapaxes(h, -1, -2), taus)
    q, r = _la.qr(a, full_matrices=(mode == "complete"))
    if mode == "r":
        return r
    return QRResult(q, r)


def svd(
    a,
    full_matrices: bool = True,
    compute_uv: bool = True,
    hermitian: bool = False,
    subset_by_index=None,
):
    """``jnp.linalg.svd``: ``SVDResult(U, S, Vh)``, or ``S`` when not ``compute_uv``.

    ``hermitian=True`` decomposes through ``eigh`` of the symmetrized input, as JAX does
    (so a non-Hermitian input is read as ``(a + a^H) / 2``, and derivatives stay in the
    Hermitian directions): ``S`` are the eigenvalues' magnitudes in descending order (ties
    in reverse eigenvalue order), ``U`` the matching eigenvectors, ``Vh`` the conjugate
    transpose of ``U`` times the eigenvalues' signs. ``subset_by_index`` other than the
    whole range raises as JAX on CPU (``ValueError`` with ``full_matrices``, else
    ``NotImplementedError``).
    """
    check_arraylike("jnp.linalg.svd", a)
    a = _inexact(a)
    if hermitian:
        v, w = _lm.eigh(a, subset_by_index=subset_by_index)
        s = ufuncs.abs(w)
        if not compute_uv:
            return flip(_sorting.sort(s, axis=-1), axis=-1)
        order = flip(_sorting.argsort(s, axis=-1, stable=True), axis=-1)
        s = _ix_routines.take_along_axis(s, order, axis=-1)
        sign = _ix_routines.take_along_axis(ufuncs.sign(w), order, axis=-1)
        u = _ix_routines.take_along_axis(v, expand_dims(order, -2), axis=-1)
        vh = _H(multiply(u, expand_dims(sign, -2).astype(u.dtype)))
        return SVDResult(u, s, vh)
    out = _lm.svd(
        a, full_matrices=full_matrices, compute_uv=compute_uv, subset_by_index=subset_by_index
    )
    return SVDResult(*out) if compute_uv else out


def svdvals(x):
    """``jnp.linalg.svdvals``: singular values."""
    check_arraylike("jnp.linalg.svdvals", x)
    return svd(x, compute_uv=False)


def eigh(a, UPLO: str | None = None, symmetrize_input: bool = True):
    """``jnp.linalg.eigh``: ``EighResult(eigenvalues, eigenvectors)`` of a Hermitian matrix,
    eigenvalues ascending."""
    check_arraylike("jnp.linalg.eigh", a)
    a = _inexact(a)
    _square("eigh", a)
    lower = UPLO in (None, "L")
    v, w = _la.eigh(a, lower=lower, symmetrize_input=symmetrize_input)
    return EighResult(w, v)


def eig(a):
    """``jnp.linalg.eig``: ``EigResult(eigenvalues, eigenvectors)`` of a general square
    matrix (or stack), both complex (``complex64`` for float32 input); eigenvalues in
    LAPACK's order, eigenvectors (columns) of unit norm. Only the eigenvalues are
    differentiable, as in JAX.

    Raises:
        ValueError: not a (stack of) square matrices.
    """
    check_arraylike("jnp.linalg.eig", a)
    a = asarray_any(a)
    (a,) = promote_dtypes_inexact(a)
    w, v = _la.eig(a, compute_left_eigenvectors=False)
    return EigResult(w, v)


def eigvals(a):
    """``jnp.linalg.eigvals``: the (complex) eigenvalues of a general square matrix, in
    LAPACK's order; differentiable."""
    check_arraylike("jnp.linalg.eigvals", a)
    a = asarray_any(a)
    (a,) = promote_dtypes_inexact(a)
    return _la.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False)[0]


def eigvalsh(a, UPLO: str | None = "L", *, symmetrize_input: bool = True):
    """``jnp.linalg.eigvalsh``: eigenvalues of a Hermitian matrix, ascending."""
    check_arraylike("jnp.linalg.eigvalsh", a)
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def _lu_parts(a):
    lu, piv, perm = _la.lu(a)
    n = a.shape[-1]
    parity = reductions.sum(not_equal(piv, arange(n, dtype=np.int32)), axis=-1) % 2
    return lu, perm, parity


def _lu_solve(lu, perm, b):
    """Solve ``A x = b`` for matrix ``b`` (..., n, k) given ``P A = L U``."""
    nd = b.ndim
    perm_b = broadcast_to(expand_dims(perm, -1), b.shape)
    pb = _ix.take_along_axis(b, perm_b.astype(np.int32), nd - 2)
    y = _la.triangular_solve(lu, pb, left_side=True, lower=True, unit_diagonal=True)
    return _la.triangular_solve(lu, y, left_side=True, lower=False)


def solve(a, b):
    """``jnp.linalg.solve``: ``x`` with ``a @ x = b``; ``b`` is a vector when 1-D, else a
    (batch of) matrices of shape ``(..., n, k)`` broadcast against ``a``'s batch."""
    check_arraylike("jnp.linalg.solve", a, b)
    a, b = promote_dtypes_inexact(asarray_any(a), asarray_any(b))
    batch = _solve_check(a, b)
    vec = b.ndim == 1
    if vec:
        b = expand_dims(b, -1)
    a = broadcast_to(a, batch + a.shape[-2:])
    b = broadcast_to(b, batch + b.shape[-2:])
    lu, perm, _ = _lu_parts(a)
    x = _lu_solve(lu, perm, b)
    return squeeze(x, -1) if vec else x


def _solve_check(a, b):
    """JAX's checks of ``solve``'s shapes, in its order and words (its ``jnp.vectorize``
    with signature ``(m,m),(m)->(m)`` or ``(m,m),(m,n)->(m,n)``); the batch shape."""
    if a.ndim < 2:
        raise ValueError(f"left hand array must be at least two dimensional; got a.shape={a.shape}")
    if 1 < b.ndim == a.ndim - 1 and a.shape[-1] == b.shape[-1] != b.shape[-2]:
        raise ValueError(
            f"Invalid shapes for solve: {a.shape}, {b.shape}. Prior to JAX v0.5.0, this would "
            "have been treated as a batched 1-dimensional solve. To recover this behavior, use "
            "solve(a, b[..., None]).squeeze(-1)."
        )
    core = ("m",) if b.ndim == 1 else ("m", "n")
    sig = "(m,m),(m)->(m)" if b.ndim == 1 else "(m,m),(m,n)->(m,n)"
    where = f"on vectorized function with excluded=frozenset() and signature={sig!r}"
    if b.ndim < len(core):
        raise ValueError(
            f"input with shape {b.shape} does not have enough dimensions for all core "
            f"dimensions {core} {where}"
        )
    for n in (a.shape[-1], b.shape[-len(core)]):
        if n != a.shape[-2]:
            raise ValueError(
                f"inconsistent size for core dimension 'm': {n} vs {a.shape[-2]} {where}"
            )
    shapes = [a.shape[:-2], b.shape[: b.ndim - len(core)]]
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(f"Incompatible shapes for broadcasting: shapes={shapes}") from None


def inv(a):
    """``jnp.linalg.inv``: the matrix inverse (via an LU solve against the identity)."""
    check_arraylike("jnp.linalg.inv", a)
    a = _inexact(a)
    _square("inv", a)
    eye = broadcast_to(creation.eye(a.shape[-1], dtype=a.dtype), a.shape)
    return solve(a, eye)


def _pinv_tangent(x, t, p):
    """The tangent of the pseudo-inverse ``p`` of ``x`` (of locally constant rank) along
    ``t``: dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P. It reads only ``p``,
    ``x`` and ``t``, so differentiating it again (``p`` a custom_jvp function's output)
    never goes through the SVD's derivative (its 1 / (s_i^2 - s_j^2))."""
    mm = products.matmul
    eye_m = creation.eye(x.shape[-2], dtype=x.dtype)
    eye_n = creation.eye(x.shape[-1], dtype=x.dtype)
    th, ph = _H(t), _H(p)
    dp = -mm(mm(p, t), p)
    dp = dp + mm(mm(mm(p, ph), th), eye_m - mm(x, p))
    return dp + mm(mm(eye_n - mm(p, x), th), mm(ph, p))


def pinv(a, rtol=None, hermitian: bool = False, *, rcond=None):
    """``jnp.linalg.pinv``: Moore-Penrose pseudo-inverse via the SVD (singular values at or
    below ``rtol * max(s)`` dropped; default ``rtol = 10 * max(m, n) * eps``).

    Its derivative is the closed form for a pseudo-inverse of locally constant rank (as
    JAX's), finite also at rank-deficient matrices, where differentiating the SVD gives NaN.
    With ``hermitian=True`` the input and its tangent are read as their Hermitian parts.
    """
    check_arraylike("jnp.linalg.pinv", a)
    a = _inexact(a)
    m, n = a.shape[-2:]
    if rcond is not None:
        if rtol is not None:
            raise ValueError("pinv: only one of rtol and rcond may be specified.")
        rtol = rcond
    if rtol is None:
        rtol = 10.0 * max(m, n) * float(dtypes.finfo(a.dtype).eps)
    if a.size == 0:  # no singular values to cut at: the (n, m) zeros, as JAX
        return zeros(a.shape[:-2] + (n, m), a.dtype)

    # ``rtol`` of shape ``a.shape[:-2]`` is one cutoff per matrix; any other shape
    # broadcasts as JAX's, aligned with the batch dimensions (its trailing axes with the
    # leading batch axes), so the result gains them: rtol of shape (3, 3) for one (3, 3)
    # matrix gives (3, 3, 3, 3).
    rtol = asarray_any(rtol)
    if rtol.ndim + 1 < a.ndim - 1:
        rtol = expand_dims(rtol, tuple(range(a.ndim - 1 - rtol.ndim - 1)))

    @custom_jvp
    def _pinv(x):
        u, s, vh = svd(x, full_matrices=False, hermitian=hermitian)
        cutoff = multiply(rtol[..., None], reductions.max(s, axis=-1, keepdims=True))
        s_inv = where(greater(s, cutoff), divide(1, s), zeros_like(s))
        return products.matmul(_H(vh) * s_inv[..., None, :].astype(x.dtype), _H(u))

    @_pinv.defjvp
    def _pinv_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        p = _pinv(x)
        if hermitian:  # the SVD reads (x + x^H) / 2: so does the derivative (as JAX)
            x, t = (x + _H(x)) * 0.5, (t + _H(t)) * 0.5
        return p, _pinv_tangent(x, t, p)

    return _pinv(a)


def matrix_power(a, n: int):
    """``jnp.linalg.matrix_power``: ``a`` to the integer power ``n`` (inverse if negative)."""
    check_arraylike("jnp.linalg.matrix_power", a)
    a = asarray_any(a)
    if a.ndim < 2:  # JAX's TypeErrors
        raise TypeError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise TypeError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError:  # JAX's message: a float or a string is refused, never truncated
        raise TypeError(f"exponent must be an integer, got {n}") from None
    if n == 0:
        return broadcast_to(eye(a.shape[-1], dtype=a.dtype), a.shape)
    if n < 0:
        a = inv(a)
        n = -n
    result = None
    base = a
    while n:
        if n & 1:
            result = base if result is None else products.matmul(result, base)
        n >>= 1
        if n:
            base = products.matmul(base, base)
    return new_array(result)  # jitted in JAX: n=1 gives a new array


def matrix_rank(M, rtol=None, *, hermitian: bool = False, tol=None):
    """``jnp.linalg.matrix_rank``: the number of singular values above a threshold.

    As in JAX 0.10.2, a given ``rtol`` (or its alias ``tol``) is compared with the singular
    values directly; without it the threshold is ``max(s) * max(m, n) * eps``.

    Raises:
      ValueError: both ``tol`` and ``rtol`` given.
    """
    check_arraylike("jnp.linalg.matrix_rank", M)
    check_jit_arguments(matrix_rank, (M, rtol), {"tol": tol})  # (read for a matrix only)
    if tol is not None:
        if rtol is not None:
            raise ValueError("matrix_rank: only one of tol or rtol may be specified.")
        rtol = tol
    M = _inexact(M)
    if M.ndim < 2:
        return reductions.any(not_equal(M, 0)).astype(np.int32)
    s = svd(M, full_matrices=False, compute_uv=False, hermitian=hermitian)
    if rtol is None:
        r = max(M.shape[-2:]) * float(dtypes.finfo(s.dtype).eps)
        thr = multiply(reductions.max(s, axis=-1, keepdims=True), r)
    else:
        thr = expand_dims(asarray_any(rtol), -1)
    return reductions.sum(greater(s, thr), axis=-1)


def lstsq(a, b, rcond=None, *, numpy_resid: bool = False):
    """``jnp.linalg.lstsq``: ``(x, residuals, rank, s)`` minimising ``|b - a x|``."""
    check_arraylike("jnp.linalg.lstsq", a, b)
    a, b = promote_dtypes_inexact(asarray_any(a), asarray_any(b))
    if a.ndim != 2:
        raise TypeError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    if b.ndim not in (1, 2):
        msg = f"{b.ndim}-dimensional array given. Array must be one or two-dimensional"
        raise TypeError(msg)
    vec = b.ndim == 1
    if vec:
        b = expand_dims(b, -1)
    m, n = a.shape
    eps = float(dtypes.finfo(a.dtype).eps)
    if rcond is None:
        rcond = eps * max(n, m)
    else:  # as JAX: a negative rcond is eps; an array one broadcasts against s
        rcond = where(less(asarray_any(rcond), 0), eps, rcond)

    def _keep(s):
        # JAX's mask: s > 0 (an all-zero matrix has rank 0, minimum-norm answer 0) and
        # s >= rcond * s[0] (rcond = 1 keeps the largest singular value)
        cut = multiply(asarray_any(rcond).astype(s.dtype), s[0])
        return logical_and(greater(s, 0), greater_equal(s, cut))

    def solve(u, s, vh, b):
        mask = _keep(s) if s.shape[0] else s.astype(bool)
        safe_s = where(mask, s, ones_like(s))
        s_inv = where(mask, divide(1, safe_s), zeros_like(s))[:, None]
        uTb = products.matmul(_H(u), b)
        return products.matmul(_H(vh), multiply(s_inv.astype(a.dtype), uTb)), mask

    @custom_jvp
    def _lstsq(a, b):
        u, s, vh = svd(a, full_matrices=False)
        return solve(u, s, vh, b)[0], s

    @custom_jvp
    def _kept_pinv(a):
        # the pseudo-inverse of the singular values lstsq keeps
        u, s, vh = svd(a, full_matrices=False)
        return solve(u, s, vh, eye(a.shape[0], dtype=a.dtype))[0]

    @_kept_pinv.defjvp
    def _kept_pinv_jvp(primals, tangents):
        (a,), (ta,) = primals, tangents
        p = _kept_pinv(a)
        return p, _pinv_tangent(a, ta, p)

    @_lstsq.defjvp
    def _lstsq_jvp(primals, tangents):
        # x = P b with P the pseudo-inverse of the kept singular values: dx = dP b + P db,
        # dP in pinv's closed form (finite where singular values repeat, where the SVD's
        # derivative divides by their zero difference), ds = Re diag(U^H da V). x and P
        # come from the custom_jvp functions, so higher derivatives of x and P use these
        # closed forms again, not the SVD's derivative (whose 1 / (s_i^2 - s_j^2) cost
        # float32 third derivatives ~4x JAX's error)
        (a, b), (ta, tb) = primals, tangents
        x, s = _lstsq(a, b)
        p = _kept_pinv(a)
        u, _, vh = svd(a, full_matrices=False)
        mm = products.matmul
        dx = mm(_pinv_tangent(a, ta, p), b) + mm(p, tb)
        ds = _diagonal(mm(mm(_H(u), ta), _H(vh)))
        ds = ds.real if dtypes.is_complex(ds.dtype) else ds
        return (x, s), (dx, ds.astype(s.dtype))

    x, s = _lstsq(a, b)
    mask = _keep(s) if s.shape[0] else s.astype(bool)
    rank = reductions.sum(mask, dtype=reductions._int_dtype())  # an integer count, even of nothing
    if numpy_resid:
        if int(np.asarray(rank)) == n and m > n:
            resid = reductions.sum(square(ufuncs.abs(subtract(b, products.matmul(a, x)))), axis=0)
        else:
            resid = zeros((0,), s.dtype)
    else:
        resid = reductions.sum(square(ufuncs.abs(subtract(b, products.matmul(a, x)))), axis=0)
    if vec:
        # As in NumPy and JAX, the residuals of a vector ``b`` keep shape (1,).
        x = squeeze(x, -1)
    return x, resid, rank, s


def norm(x, ord=None, axis=None, keepdims: bool = False):  # noqa: A002
    """``jnp.linalg.norm``: vector norms (ord None/2, inf, -inf, 0, p) and matrix norms
    (None/'fro', 'nuc', 1, -1, 2, -2, inf, -inf)."""
    check_arraylike("jnp.linalg.norm", x)
    if isinstance(ord, list):
        hash_static(ord, "static argument 'ord'")  # JAX's jit static: unhashable
    x = _inexact(x)
    if axis is None:
        if ord is None:
            return _vec_norm(ravel(x), None, 0, False, keep_shape=x.shape if keepdims else None)
        axis = tuple(range(x.ndim))
    if isinstance(axis, (int, np.integer)):
        axis = (axis,)
    axis = tuple(canonicalize_axis(a, x.ndim) for a in axis)  # a float axis: TypeError
    if len(axis) == 1:
        return _vec_norm(x, ord, axis[0], keepdims)
    if len(axis) == 2:
        return _mat_norm(x, ord, axis, keepdims)
    raise ValueError(f"Invalid axis values ({axis}) for jnp.linalg.norm.")


def _sum_of_squares(x, axis, keepdims):
    """``sum(x * conj(x))`` as JAX's jitted norm computes it: XLA computes a bfloat16
    square in float32 and, feeding the float32 sum, never rounds it to bfloat16 (its
    normalisation pass and fusion; float16 squares are rounded on hosts with float16
    arithmetic and not elsewhere, so float16 keeps the rounded square, docs/compat.md)."""
    if dtypes.is_complex(x.dtype):
        return reductions.sum(_real(multiply(x, conj(x))), axis=axis, keepdims=keepdims)
    if np.dtype(x.dtype) == dtypes.bfloat16:
        wide = x.astype(np.float32)
        return reductions.sum(multiply(wide, wide), axis=axis, keepdims=keepdims).astype(x.dtype)
    return reductions.sum(multiply(x, x), axis=axis, keepdims=keepdims)


def _vec_norm(x, ord, axis, keepdims, keep_shape=None):  # noqa: A002
    ax = ufuncs.abs(x)
    if ord is None or ord == 2:
        out = sqrt(_sum_of_squares(x, axis, keepdims))
    elif ord == np.inf:  # JAX's max starts at 0: an empty vector has norm 0
        out = reductions.max(ax, axis=axis, keepdims=keepdims, initial=0)
    elif ord == -np.inf:
        out = reductions.min(ax, axis=axis, keepdims=keepdims)
    elif ord == 0:
        out = reductions.sum(not_equal(x, 0).astype(ax.dtype), axis=axis, keepdims=keepdims)
    elif ord == 1:
        out = reductions.sum(ax, axis=axis, keepdims=keepdims)
    elif isinstance(ord, str):
        hint = {"inf": "Use 'jax.numpy.inf' instead.", "-inf": "Use '-jax.numpy.inf' instead."}
        raise ValueError(f"Invalid order '{ord}' for vector norm.{hint.get(ord, '')}")
    else:
        # JAX's constants of |x|'s dtype, 1 / p computed in it: a tuple ord is an array
        # that broadcasts (norm(x, (2,)) has shape (1,)), as JAX's p-norm branch
        p = np.asarray(ord, dtype=ax.dtype)
        inv = np.asarray(1.0 / p, dtype=ax.dtype)
        out = power(reductions.sum(power(ax, p), axis=axis, keepdims=keepdims), inv)
    if keep_shape is not None:
        out = reshape(out, (1,) * len(keep_shape))
    return out


def _extreme(largest, s, axis):
    # JAX's maxima in norms start at 0 (the norm of an empty matrix is 0); minima have no
    # initial value (an empty one raises)
    if largest:
        return reductions.max(s, axis=axis, keepdims=True, initial=0)
    return reductions.min(s, axis=axis, keepdims=True)


def _mat_norm(x, ord, axes, keepdims):  # noqa: A002
    r, c = axes
    if ord in (None, "fro", "f"):
        if np.dtype(x.dtype) == dtypes.bfloat16:
            return sqrt(_sum_of_squares(x, axes, keepdims))
        return sqrt(reductions.sum(square(ufuncs.abs(x)), axis=axes, keepdims=keepdims))
    if ord in (1, -1):
        s = reductions.sum(ufuncs.abs(x), axis=r, keepdims=True)
        out = _extreme(ord == 1, s, c)
    elif ord in (np.inf, -np.inf):
        s = reductions.sum(ufuncs.abs(x), axis=c, keepdims=True)
        out = _extreme(ord == np.inf, s, r)
    elif ord in ("nuc", 2, -2):
        y = moveaxis(x, (r, c), (-2, -1))
        s = svd(y, compute_uv=False)
        if ord == "nuc":
            red = reductions.sum(s, axis=-1)
        elif ord == 2:
            red = reductions.max(s, axis=-1, initial=0)
        else:
            red = reductions.min(s, axis=-1)
        if keepdims:
            shape = [1 if i in axes else n for i, n in enumerate(x.shape)]
            return reshape(red, shape)
        return red
    else:
        raise ValueError(f"Invalid order '{ord}' for matrix norm.")
    if not keepdims:
        out = squeeze(out, axis=axes)
    return out


def vector_norm(x, /, *, axis=None, keepdims: bool = False, ord=2):  # noqa: A002
    """``jnp.linalg.vector_norm``."""
    check_arraylike("jnp.linalg.vector_norm", x)
    x = asarray_any(x)
    if (dtypes.is_int(x.dtype) or x.dtype == np.bool_) and not isinstance(ord, str):
        # as JAX's: no promotion for these orders (the maximum, minimum or sum of the
        # magnitudes keeps the integer dtype), and no count of nonzeros for integers
        if ord == np.inf:
            return reductions.max(ufuncs.abs(x), axis=axis, keepdims=keepdims, initial=0)
        if ord == -np.inf:
            return reductions.min(ufuncs.abs(x), axis=axis, keepdims=keepdims)
        if ord == 1:
            return reductions.sum(ufuncs.abs(x), axis=axis, keepdims=keepdims)
        if ord == 0:
            raise ValueError(f"data type {x.dtype.type!r} not inexact")
        if ord is None or ord == 2:  # the sum of squares in the integer type, then sqrt
            return sqrt(reductions.sum(multiply(x, x), axis=axis, keepdims=keepdims))
    x = _inexact(x)
    if axis is None:
        out = _vec_norm(ravel(x), ord, 0, False)
        return reshape(out, (1,) * x.ndim) if keepdims else out
    if isinstance(axis, (tuple, list)) and len(axis) != 1:
        # a vector norm over all the named axes together (``norm`` would read two axes as
        # a matrix: ``ord=1`` its largest column sum)
        return _vec_norm(x, ord, tuple(axis), keepdims)
    return norm(x, ord, axis, keepdims)


def matrix_norm(x, /, *, keepdims: bool = False, ord="fro"):  # noqa: A002
    """``jnp.linalg.matrix_norm``: norm over the last two axes."""
    check_arraylike("jnp.linalg.matrix_norm", x)
    return norm(x, ord, (-2, -1), keepdims)


def multi_dot(arrays, *, precision=None):
    """``jnp.linalg.multi_dot``: chained matrix product (left to right)."""
    check_precision(precision)
    check_arraylike("jnp.linalg.multi_dot", *arrays)
    arrays = [asarray_any(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"multi_dot requires at least two arrays; got len(arrays)={len(arrays)}")
    shapes = [a.shape for a in arrays]
    if not (
        arrays[0].ndim in (1, 2)
        and arrays[-1].ndim in (1, 2)
        and all(a.ndim == 2 for a in arrays[1:-1])
    ):
        # (no batch dimensions: vmap a stack of chains)
        raise ValueError(
            "multi_dot: input arrays must all be two-dimensional, except for the first "
            f"and last array which may be 1 or 2 dimensional. Got array shapes {shapes}"
        )
    if any(a.shape[-1] != b.shape[0] for a, b in zip(arrays[:-1], arrays[1:])):
        raise ValueError(
            "multi_dot: last dimension of each array must match first dimension of "
            f"following array. Got array shapes {shapes}"
        )
    out = arrays[0]
    for a in arrays[1:]:
        out = products.matmul(out, a)
    return out


def matrix_transpose(x, /):
    """``jnp.linalg.matrix_transpose``."""
    check_arraylike("jnp.linalg.matrix_transpose", x)
    return swapaxes(x, -1, -2)


def outer(x1, x2, /):
    """``jnp.linalg.outer``."""
    check_arraylike("jnp.linalg.outer", x1, x2)
    n1, n2 = np.ndim(x1), np.ndim(x2)
    if n1 != 1 or n2 != 1:  # (jnp.outer flattens; the array-API one does not)
        raise ValueError(
            f"Input arrays must be one-dimensional, but they are x1.ndim={n1} x2.ndim={n2}"
        )
    return products.outer(x1, x2)


def trace(x, /, *, offset: int = 0, dtype=None):
    """``jnp.linalg.trace``: trace over the last two axes."""
    check_arraylike("jnp.linalg.trace", x)
    return _trace(x, offset, -2, -1, dtype)


def diagonal(x, /, *, offset: int = 0):
    """``jnp.linalg.diagonal``: diagonals of the trailing matrices."""
    check_arraylike("jnp.linalg.diagonal", x)
    return _diagonal(x, offset, -2, -1)


def matmul(x1, x2, /, *, precision=None, preferred_element_type=None):
    """``jnp.linalg.matmul``."""
    check_precision(precision)
    check_arraylike("jnp.linalg.matmul", x1, x2)
    return products.matmul(x1, x2, preferred_element_type=preferred_element_type)


def tensordot(x1, x2, /, *, axes=2, precision=None, preferred_element_type=None, out_sharding=None):
    """``jnp.linalg.tensordot``; ``out_sharding``: the result's sharding."""
    check_precision(precision)
    check_arraylike("jnp.linalg.tensordot", x1, x2)
    return _td(
        x1, x2, axes, precision=precision, preferred_element_type=preferred_element_type,
        out_sharding=out_sharding,
    )  # fmt: skip


def cross(x1, x2, /, *, axis=-1):
    """``jnp.linalg.cross``: cross product of 3-vectors along ``axis`` (2-vectors, which
    ``jnp.cross`` takes, are refused, as JAX's)."""
    check_arraylike("jnp.linalg.outer", x1, x2)  # (the name JAX's check reports)
    x1, x2 = asarray_any(x1), asarray_any(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:  # (a None axis: the TypeError of indexing)
        raise ValueError(
            "Both input arrays must be (arrays of) 3-dimensional vectors, but they have "
            f"{x1.shape[axis]=} and {x2.shape[axis]=}"
        )
    return _cross(x1, x2, axis=axis)


def vecdot(x1, x2, /, *, axis=-1, precision=None, preferred_element_type=None):
    """``jnp.linalg.vecdot``."""
    check_precision(precision)
    check_arraylike("jnp.linalg.vecdot", x1, x2)
    return _vecdot(
        x1, x2, axis=axis, precision=precision, preferred_element_type=preferred_element_type
    )


def cond(x, p=None):
    """``jnp.linalg.cond``: condition number (ratio of extreme singular values for
    ``p`` None/2/-2, else ``norm(x, p) * norm(inv(x), p)``)."""
    check_arraylike("cond", x)
    x = _inexact(x)
    if x.size == 0:
        raise ValueError(f"jnp.linalg.cond: input array must not be empty; got arr.shape={x.shape}")
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        r = divide(s[..., 0], s[..., -1])
        return divide(1, r) if p == -2 else r
    return multiply(norm(x, p, axis=(-2, -1)), norm(inv(x), p, axis=(-2, -1)))


def tensorsolve(a, b, axes=None):
    """``jnp.linalg.tensorsolve``: solve ``tensordot(a, x, x.ndim) = b`` for ``x``."""
    check_arraylike("tensorsolve", a, b)
    a, b = asarray_any(a), asarray_any(b)
    if axes is not None:
        axes = [canonicalize_axis(ax, a.ndim) for ax in axes]  # a float one: TypeError
        a = moveaxis(a, axes, [a.ndim - len(axes) + i for i in range(len(axes))])
    out_shape = a.shape[b.ndim :]
    n = int(np.prod(out_shape, dtype=np.int64))
    x = solve(reshape(a, (-1, n)), ravel(b))
    return reshape(x, out_shape)


def tensorinv(a, ind: int = 2):
    """``jnp.linalg.tensorinv``: inverse with respect to ``tensordot(..., ind)``."""
    check_arraylike("tensorinv", a)
    a = asarray_any(a)
    out_shape = a.shape[ind:] + a.shape[:ind]
    n = int(np.prod(a.shape[:ind], dtype=np.int64))
    return reshape(inv(reshape(a, (n, -1))), out_shape)
