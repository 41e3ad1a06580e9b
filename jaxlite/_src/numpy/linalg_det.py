"""``jnp.linalg.det`` and ``jnp.linalg.slogdet`` computed as JAX computes them.

JAX's ``det`` of a 2x2 or 3x3 matrix is the cofactor expansion, which XLA:CPU compiles
with its multiplies contracted into fused multiply-adds (``ops/xla_fma.py``); larger (and
1x1) matrices get ``sign * exp(logabsdet)`` from ``slogdet``. ``slogdet`` uses the same
expansion for 1x1 and 2x2 matrices and the LU factorization otherwise, with the
derivative ``trace(solve(a, da))`` (infinite or NaN at a singular matrix, as JAX's).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.array import Array
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import products, reductions, ufuncs
from jaxlite._src.numpy.creation import arange, ones_like, zeros_like
from jaxlite._src.numpy.indexing_routines import diagonal
from jaxlite._src.numpy.linalg import _H, solve, svd
from jaxlite._src.numpy.products import trace
from jaxlite._src.numpy.reductions import cumprod
from jaxlite._src.numpy.shape import concatenate, flip, swapaxes
from jaxlite._src.numpy.ufuncs import multiply
from jaxlite._src.numpy.util import asarray_any, check_arraylike, promote_dtypes_inexact
from jaxlite._src.ops import elementwise as ew, linalg_ops as _la, linalg_schur as _schur
from jaxlite._src.ops.xla_fma import fma


class SlogdetResult(NamedTuple):
    sign: Array
    logabsdet: Array


def _inexact(a):
    (a,) = promote_dtypes_inexact(asarray_any(a))
    return a


def _check(a, name):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"Argument to {name}() must have shape [..., n, n], got {a.shape}")


# ---------------------------------------------------------------- contracted products
def _cmul(x, y, fuse_x_imag=True):
    """XLA:CPU's complex product: the real part ``fma(xr, yr, -(xi*yi))``, the imaginary
    part a fused multiply-add whose fused product is ``xi*yr`` (or ``xr*yi``, as LLVM's
    operand order picks for one product of the 3x3 expansion)."""
    xr, xi, yr, yi = ew.real(x), ew.imag(x), ew.real(y), ew.imag(y)
    re = fma(xr, yr, ew.neg(ew.mul(xi, yi)))
    if fuse_x_imag:
        im = fma(xi, yr, ew.mul(xr, yi))
    else:
        im = fma(xr, yi, ew.mul(xi, yr))
    return ew.complex_(re, im)


def _det_2x2(a):
    a00, a01, a10, a11 = a[..., 0, 0], a[..., 0, 1], a[..., 1, 0], a[..., 1, 1]
    if dtypes.is_complex(a.dtype):
        return ew.sub(_cmul(a00, a11), _cmul(a01, a10))
    return fma(a00, a11, ew.neg(ew.mul(a01, a10)))


def _det_3x3(a):
    e = [[a[..., i, j] for j in range(3)] for i in range(3)]
    terms = [  # (row 0, row 1, row 2) columns of the six products, + + + - - -
        (0, 1, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0), (0, 2, 1), (1, 0, 2),
    ]  # fmt: skip
    if dtypes.is_complex(a.dtype):
        out = None
        for k, (i, j, m) in enumerate(terms):
            t = _cmul(_cmul(e[0][i], e[1][j], fuse_x_imag=k != 3), e[2][m])
            out = t if out is None else (ew.add(out, t) if k < 3 else ew.sub(out, t))
        return out
    # ((((t0 + t1) + t2) - t3) - t4) - t5, each step a fused multiply-add of the
    # running sum and one rounded two-factor product times its third factor.
    prods = [ew.mul(e[0][i], e[1][j]) for i, j, _ in terms]
    out = fma(prods[0], e[2][2], ew.mul(prods[1], e[2][0]))
    for k in range(2, 6):
        i, j, m = terms[k]
        p = prods[k] if k < 3 else ew.neg(prods[k])
        out = fma(p, e[2][m], out)
    return out


# --------------------------------------------------------------------------- slogdet
def _sign_log(d):
    absd = ew.abs(d)
    return ufuncs.sign(d), ufuncs.real(ew.log(absd))


@custom_jvp
def _slogdet_small(a):
    if a.shape[-1] == 1:
        return _sign_log(a[..., 0, 0])
    return _sign_log(_det_2x2(a))


@_slogdet_small.defjvp
def _slogdet_small_jvp(primals, tangents):
    (x,), (g,) = primals, tangents
    sign, ans = _slogdet_small(x)
    if x.shape[-1] == 1:
        dot = ew.div(g[..., 0, 0], x[..., 0, 0])
    else:
        x00, x01, x10, x11 = x[..., 0, 0], x[..., 0, 1], x[..., 1, 0], x[..., 1, 1]
        num = ew.sub(ew.mul(g[..., 0, 0], x11), ew.mul(g[..., 0, 1], x10))
        num = ew.sub(num, ew.mul(g[..., 1, 0], x01))
        num = ew.add(num, ew.mul(g[..., 1, 1], x00))
        dot = ew.div(num, ew.sub(ew.mul(x00, x11), ew.mul(x01, x10)))
    return (sign, ans), _sign_log_dot(x, sign, dot)


def _sign_log_dot(x, sign, dot):
    if dtypes.is_complex(x.dtype):
        re = ew.real(dot)
        sign_dot = ew.mul(ew.sub(dot, ew.complex_(re, zeros_like(re))), sign)
        return sign_dot, re
    return zeros_like(sign), dot


def _parity(piv, n):
    return reductions.count_nonzero(ufuncs.not_equal(piv, arange(n, dtype=piv.dtype)), axis=-1)


@custom_jvp
def _slogdet_lu(a):
    lu, piv, _ = _la.lu(a)
    d = diagonal(lu, 0, -2, -1)
    dt = a.dtype
    is_zero = reductions.any(ufuncs.equal(d, 0), axis=-1)
    parity = _parity(piv, a.shape[-1])
    if dtypes.is_complex(dt):
        sign = reductions.prod(ew.div(d, ew.abs(d).astype(dt)), axis=-1)
    else:
        sign = np.ones((), dt)
        parity = parity + reductions.count_nonzero(ufuncs.less(d, 0), axis=-1)
    flip = ufuncs.where(ufuncs.equal(parity % 2, 1), np.array(-1, dt), np.array(1, dt))
    sign = ufuncs.where(is_zero, np.zeros((), dt), ufuncs.multiply(sign, flip))
    logs = reductions.sum(ew.log(ew.abs(d)).astype(dt), axis=-1)
    logdet = ufuncs.where(is_zero, np.array(-np.inf, dt), logs)
    return sign, ufuncs.real(logdet)


@_slogdet_lu.defjvp
def _slogdet_lu_jvp(primals, tangents):
    (x,), (g,) = primals, tangents
    sign, ans = slogdet(x)
    dot = trace(solve(x, g), axis1=-1, axis2=-2)
    return (sign, ans), _sign_log_dot(x, sign, dot)


def _slogdet_qr(a):
    if dtypes.is_complex(a.dtype):
        raise NotImplementedError("slogdet method='qr' not implemented for complex inputs")
    return _slogdet_qr_real(a)


@custom_jvp
def _slogdet_qr_real(a):
    n = a.shape[-1]
    r, taus = _schur.geqrf(a)
    d = diagonal(r, 0, -2, -1)
    logdet = reductions.sum(ew.log(ew.abs(d)), axis=-1)
    sign = reductions.prod(ufuncs.sign(d), axis=-1)
    refl = ufuncs.where(ufuncs.not_equal(taus[..., : n - 1], 0), -1, 1)
    return sign * reductions.prod(refl, axis=-1).astype(sign.dtype), logdet


# geqrf has no derivative: the QR method shares the LU method's rule (as in JAX, whose
# rule also recomputes the primal outputs by the default method)
_slogdet_qr_real.defjvp(_slogdet_lu_jvp)


def slogdet(a, *, method: str | None = None) -> SlogdetResult:
    """``jnp.linalg.slogdet``: ``SlogdetResult(sign, logabsdet)`` of ``a`` (``..., n, n``).

    Args:
      a: a square matrix or a stack of them.
      method: ``"lu"`` (or ``None``, the default): the closed form for 1x1 and 2x2
        matrices, else the LU factorization; ``"qr"``: the QR factorization (real only).

    Raises:
      ValueError: ``a`` is not a stack of square matrices, or an unknown ``method``.
      NotImplementedError: ``method="qr"`` of a complex matrix.
    """
    check_arraylike("jnp.linalg.slogdet", a)
    a = _inexact(a)
    _check(a, "slogdet")
    if method is None or method == "lu":
        if a.shape[-1] in (1, 2):
            return SlogdetResult(*_slogdet_small(a))
        return SlogdetResult(*_slogdet_lu(a))
    if method == "qr":
        return SlogdetResult(*_slogdet_qr(a))
    raise ValueError(
        f"Unknown slogdet method '{method}'. Supported methods are 'lu' (`None`), and 'qr'."
    )


# ------------------------------------------------------------------------------- det
def det(a):
    """``jnp.linalg.det``: the determinant of ``a`` (``..., n, n``).

    2x2 and 3x3 matrices: the cofactor expansion, rounded as XLA:CPU rounds it (fused
    multiply-adds), differentiated as a formula. Other sizes: ``sign * exp(logabsdet)``
    of ``slogdet``, whose derivative is the adjugate (transposed cofactor matrix), built
    from the SVD without dividing by a singular value, so a matrix of rank n-1 gets its
    nonzero cofactors and one of lower rank zeros.

    Raises:
      ValueError: ``a`` is not a stack of square matrices.
    """
    check_arraylike("jnp.linalg.det", a)
    a = _inexact(a)
    _check(a, "_det")
    if a.shape[-1] == 2:
        return _det_2x2(a)
    if a.shape[-1] == 3:
        return _det_3x3(a)
    return _det(a)


@custom_jvp
def _det(a):
    sign, logdet = slogdet(a)
    return ufuncs.multiply(sign, ew.exp(logdet).astype(sign.dtype))


def lu_det(a):
    """The determinant as the product of the LU pivots' diagonal (in order) with the
    permutation's sign: the primal value of ``det``'s derivative (as JAX's)."""
    if a.shape[-1] == 1:
        return a[..., 0, 0]
    lu, piv, _ = _la.lu(a)
    d = diagonal(lu, 0, -2, -1)
    sign = ufuncs.where(ufuncs.equal(_parity(piv, a.shape[-1]) % 2, 1), -1, 1).astype(a.dtype)
    return ufuncs.multiply(reductions.cumprod(d, axis=-1)[..., -1], sign)


def _adjugate(a):
    # adj(A) = det(U) det(V^H) V diag(prod_{j != i} s_j) U^H  for  A = U diag(s) V^H.
    u, s, vh = svd(a, full_matrices=False)
    n = s.shape[-1]
    ones = ones_like(s[..., :1])
    left = cumprod(concatenate([ones, s[..., : n - 1]], axis=-1), axis=-1)
    right = flip(cumprod(concatenate([ones, flip(s[..., 1:], -1)], axis=-1), axis=-1), -1)
    others = multiply(left, right).astype(a.dtype)  # prod of all singular values but one
    phase = multiply(_det_unitary(u), _det_unitary(vh))
    adj = products.matmul(_H(vh) * others[..., None, :], _H(u))
    return multiply(phase[..., None, None], adj)


@custom_jvp
def _det_unitary(q):
    # det of a unitary matrix, with the JVP det(Q) tr(Q^H dQ) (Q^-1 = Q^H): smooth, where
    # the adjugate of Q would need the SVD of a matrix whose singular values are all 1.
    return lu_det(q)


@_det_unitary.defjvp
def _det_unitary_jvp(primals, tangents):
    (q,), (t,) = primals, tangents
    y = _det_unitary(q)
    return y, multiply(y, reductions.sum(multiply(swapaxes(_H(q), -1, -2), t), axis=(-2, -1)))


@_det.defjvp
def _det_jvp(primals, tangents):
    (a,), (t,) = primals, tangents
    if a.shape[-1] == 0:  # JAX's derivative fails (IndexError); det is the constant 1
        return _det(a), zeros_like(_det(a))
    y = lu_det(a)
    if a.shape[-1] == 1:
        return y, t[..., 0, 0]
    dy = reductions.sum(ufuncs.multiply(_adjugate(a).swapaxes(-1, -2), t), axis=(-2, -1))
    return y, dy
