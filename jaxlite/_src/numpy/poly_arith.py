"""``jax.numpy`` polynomial arithmetic on coefficient arrays (highest degree first): ``poly``,
``polyadd``, ``polysub``, ``polymul``, ``polydiv``, ``polyder``, ``polyint``, ``polyfit``,
``roots`` (the eigenvalues of the companion matrix).

Compositions of ``jax.numpy`` functions (``convolve``, ``.at`` updates, ``vander`` and
``lstsq``), so they trace, batch and differentiate. ``polyval`` is in ``polynomial.py``.
"""

from __future__ import annotations

import operator

import numpy as np
from jaxlite._src import dtypes
from jaxlite._src.core.errors import ConcretizationTypeError
from jaxlite._src.core.trace import Tracer
from jaxlite._src.numpy import reductions, ufuncs
from jaxlite._src.numpy.creation import arange, asarray, full, ones, zeros
from jaxlite._src.numpy.indexing_routines import roll
from jaxlite._src.numpy.matrices import vander
from jaxlite._src.numpy.numerical import convolve
from jaxlite._src.numpy.shape import atleast_1d, concatenate, trim_zeros
from jaxlite._src.numpy.sorting import argsort
from jaxlite._src.numpy.util import (
    asarray_any,
    check_arraylike,
    promote_dtypes,
    promote_dtypes_inexact,
)


def _static_int(value, what: str) -> int:
    if isinstance(value, Tracer):
        concrete = value.to_concrete_value()
        if concrete is None:
            raise ConcretizationTypeError(value, what)
        value = concrete
    return operator.index(value)


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with the given roots.

    Mirrors ``jax.numpy.poly``: 1-D roots, or a square matrix (its eigenvalues).

    Args:
      seq_of_zeros: 1-D array of roots (a scalar counts as one root).

    Returns:
      A 1-D array of ``len(seq_of_zeros) + 1`` coefficients of the inexact dtype (a 0-d
      ``1`` for no roots).

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for other shapes than 1-D or a non-empty square matrix (whose
        characteristic polynomial is returned: complex, from its eigenvalues, as JAX).
    """
    check_arraylike("poly", seq_of_zeros)
    (z,) = promote_dtypes_inexact(asarray_any(seq_of_zeros))
    z = atleast_1d(z)
    sh = z.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        from jaxlite._src.numpy import linalg  # jnp.linalg loads at first use (import time)

        z = linalg.eigvals(z)  # the characteristic polynomial (complex, as JAX's)
    elif z.ndim != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    dt = z.dtype
    if z.shape[0] == 0:
        return ones((), dt)
    a = ones((1,), dt)
    one = ones((1,), dt)
    for k in range(z.shape[0]):
        a = convolve(a, concatenate([one, -z[k : k + 1]]), mode="full")
    return a


def polyadd(a1, a2):
    """The sum of two polynomials (``jax.numpy.polyadd``): the shorter is aligned at the
    low-degree end.

    Args:
      a1: 1-D coefficient array.
      a2: 1-D coefficient array.

    Returns:
      An array of the longer length and the promoted dtype.

    Raises:
      TypeError: for non-array arguments (lists).
    """
    check_arraylike("polyadd", a1, a2)
    a1, a2 = promote_dtypes(asarray_any(a1), asarray_any(a2))
    if a2.shape[0] <= a1.shape[0]:
        return a1.at[a1.shape[0] - a2.shape[0] :].add(a2)
    return a2.at[a2.shape[0] - a1.shape[0] :].add(a1)


def polysub(a1, a2):
    """The difference of two polynomials (``jax.numpy.polysub``).

    Raises:
      TypeError: for non-array arguments (lists).
    """
    check_arraylike("polysub", a1, a2)
    a1, a2 = promote_dtypes(asarray_any(a1), asarray_any(a2))
    return polyadd(a1, -a2)


def polymul(a1, a2, *, trim_leading_zeros: bool = False):
    """The product of two polynomials (``jax.numpy.polymul``), a full convolution.

    Args:
      a1: 1-D coefficient array.
      a2: 1-D coefficient array.
      trim_leading_zeros: strip leading zeros first (needs concrete inputs).

    Returns:
      An array of length ``len(a1) + len(a2) - 1`` of the promoted inexact dtype.

    Raises:
      TypeError: for non-array arguments (lists).
    """
    check_arraylike("polymul", a1, a2)
    a1, a2 = promote_dtypes_inexact(asarray_any(a1), asarray_any(a2))
    if trim_leading_zeros and (len(a1) > 1 or len(a2) > 1):
        a1, a2 = trim_zeros(a1, trim="f"), trim_zeros(a2, trim="f")
    if len(a1) == 0:
        a1 = zeros(1, a2.dtype)
    if len(a2) == 0:
        a2 = zeros(1, a1.dtype)
    return convolve(a1, a2, mode="full")


def polydiv(u, v, *, trim_leading_zeros: bool = False):
    """Polynomial long division ``u = q v + r`` (``jax.numpy.polydiv``).

    Args:
      u: 1-D dividend coefficients.
      v: 1-D divisor coefficients (leading coefficient nonzero).
      trim_leading_zeros: strip the remainder's leading near-zeros (needs concrete
        inputs); otherwise the remainder keeps ``u``'s length, as in JAX.

    Returns:
      ``(q, r)`` of the promoted inexact dtype.

    Raises:
      TypeError: for non-array arguments (lists).
    """
    check_arraylike("polydiv", u, v)
    u, v = promote_dtypes_inexact(asarray_any(u), asarray_any(v))
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]
    q = zeros(max(m - n + 1, 1), u.dtype)
    for k in range(m - n + 1):
        d = scale * u[k]
        q = q.at[k].set(d)
        u = u.at[k : k + n + 1].add(-d * v)
    if trim_leading_zeros:
        tol = float(np.sqrt(dtypes.finfo(u.dtype).eps))
        vals = np.asarray(u)
        nz = np.flatnonzero(np.abs(vals) >= tol)
        u = u[int(nz[0]) :] if nz.size else u[u.shape[0] :]
    return q, u


def polyder(p, m: int = 1):
    """The ``m``-th derivative of a polynomial (``jax.numpy.polyder``).

    Args:
      p: 1-D coefficient array.
      m: the static order (non-negative).

    Returns:
      An array of length ``len(p) - m`` of the inexact dtype.

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for a negative order.
      ConcretizationTypeError: for a traced ``m``.
    """
    check_arraylike("polyder", p)
    m = _static_int(m, "'m' argument of jnp.polyder")
    (p,) = promote_dtypes_inexact(asarray_any(p))
    if m < 0:
        raise ValueError("Order of derivative must be positive")
    if m == 0:
        return p
    # Coefficient of x^j after m derivatives: j (j-1) ... (j-m+1).
    j = np.arange(m, p.shape[0])
    fall = np.ones(j.shape, np.float64)
    for i in range(m):
        fall = fall * (j - i)
    # (an order above the degree leaves nothing: an empty array, not a slice from the end)
    return p[: max(p.shape[0] - m, 0)] * asarray(fall[::-1], p.dtype)


def polyint(p, m: int = 1, k=None):
    """The ``m``-th antiderivative of a polynomial (``jax.numpy.polyint``).

    Args:
      p: 1-D coefficient array.
      m: the static order (non-negative).
      k: the integration constants: a scalar (used for every step) or ``m`` values, the
        first for the highest-degree new term; default 0.

    Returns:
      An array of length ``len(p) + m`` of the promoted inexact dtype.

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for a negative order or a ``k`` of the wrong length.
      ConcretizationTypeError: for a traced ``m``.
    """
    m = _static_int(m, "'m' argument of jnp.polyint")
    k = 0 if k is None else k
    check_arraylike("polyint", p, k)
    p, k = promote_dtypes_inexact(asarray_any(p), asarray_any(k))
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = atleast_1d(k)
    if k.shape[0] == 1:
        k = full((m,), k[0])
    if k.shape != (m,):
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or m.")
    if m == 0:
        return p
    # Coefficient i of the result (degree len+m-1-i) divides by the rising product.
    deg = np.arange(p.shape[0] + m)
    coeff = np.ones(deg.shape, np.float64)
    for i in range(m):
        coeff = coeff * np.maximum(1, deg - i)
    return ufuncs.true_divide(concatenate([p, k]), asarray(coeff[::-1], p.dtype))


def polyfit(x, y, deg: int, rcond=None, full: bool = False, w=None, cov: bool = False):
    """Least-squares polynomial fit (``jax.numpy.polyfit``).

    Args:
      x: 1-D sample points.
      y: sample values, 1-D or 2-D (one fit per column).
      deg: the static degree.
      rcond: relative cutoff of small singular values (default ``len(x) * eps``).
      full: also return the residuals, rank, singular values and ``rcond``.
      w: optional 1-D weights.
      cov: also return the coefficient covariance (``"unscaled"`` for no scaling).

    Returns:
      The coefficients, highest degree first (``(deg + 1,)`` or ``(deg + 1, k)``), or the
      tuples described above.

    Raises:
      TypeError: for non-array arguments or inconsistent shapes.
      ValueError: for ``deg < 0``, ``cov`` with too few points, or integer ``x`` without
        ``rcond``.
    """
    if w is None:
        check_arraylike("polyfit", x, y)
    else:
        check_arraylike("polyfit", x, y, w)
    x, y = asarray_any(x), asarray_any(y)
    deg = _static_int(deg, "deg must be int")
    order = deg + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        # x's own dtype, as JAX: integer points without an rcond are NumPy's ValueError
        # ("data type <class 'numpy.int32'> not inexact")
        rcond = x.shape[0] * float(dtypes.finfo(x.dtype).eps)
    rcond = float(rcond)
    lhs, rhs = vander(x, order), y
    if w is not None:
        (w,) = promote_dtypes_inexact(asarray_any(w))
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = ufuncs.sqrt(reductions.sum(lhs * lhs, axis=0))
    lhs = lhs / scale[None, :]
    from jaxlite._src.numpy import linalg  # jnp.linalg loads at first use (import time)

    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale[None, :]).T if c.ndim > 1 else c / scale
    if full:
        return c, resids, rank, s, asarray(rcond)
    if cov:
        vbase = linalg.inv(lhs.T @ lhs) / (scale[:, None] * scale[None, :])
        if cov == "unscaled":
            fac = asarray(1.0)
        else:
            if x.shape[0] <= order:
                raise ValueError(
                    "the number of data points must exceed order to scale the covariance matrix"
                )
            fac = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, vbase * atleast_1d(fac)[None]
        return c, vbase[:, :, None] * atleast_1d(fac)[None, None, :]
    return c


def roots(p, *, strip_zeros: bool = True):
    """The roots of a polynomial (``jax.numpy.roots``): the eigenvalues of its companion
    matrix (LAPACK ``geev`` through ``eig``, so it traces, batches and differentiates).

    Args:
      p: 1-D coefficient array, highest degree first.
      strip_zeros: drop leading zero coefficients (then fewer roots; needs concrete
        coefficients); otherwise each leading zero gives a NaN root at the end, as in JAX,
        with a fixed output shape (usable under jit and vmap).

    Returns:
      A 1-D complex array (the complex dtype of ``p``'s inexact dtype).

    Raises:
      TypeError: for non-array arguments (lists).
      ValueError: for input of more than one dimension.
      ConcretizationTypeError: ``strip_zeros=True`` on traced coefficients under jit.
    """
    check_arraylike("roots", p)
    (p,) = promote_dtypes_inexact(asarray_any(p))
    p = atleast_1d(p)
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    cdt = np.result_type(p.dtype, np.complex64)
    n = p.shape[0]
    if n < 2:
        return zeros((0,), cdt)
    is_zero = ufuncs.equal(p, 0)
    if strip_zeros:
        lead = reductions.argmin(is_zero)
        if isinstance(lead, Tracer):
            concrete = lead.to_concrete_value()
            all_zero = reductions.all(is_zero).to_concrete_value()
            if concrete is None or all_zero is None:
                raise ConcretizationTypeError(
                    lead,
                    "The error occurred in the jnp.roots() function. To use this within a "
                    "JIT-compiled context, pass strip_zeros=False, but be aware that leading "
                    "zeros will result in some returned roots being set to NaN.",
                )
            lead, all_zero = int(np.asarray(concrete)), bool(np.asarray(all_zero))
        else:
            lead, all_zero = int(np.asarray(lead)), bool(np.asarray(reductions.all(is_zero)))
        return _companion_eigvals(p[n if all_zero else lead :], cdt)
    # JAX's fixed-shape form: roll the leading zeros to the end (their roots are 0), move
    # the zero roots last (stably), and report one NaN per leading zero.
    lead = ufuncs.where(reductions.all(is_zero), n, reductions.argmin(is_zero))
    found = _companion_eigvals(roll(p, -lead), cdt)
    found = found[argsort(ufuncs.equal(found, 0).astype(np.int32), stable=True)]
    nan = full((), complex(np.nan, np.nan), cdt)
    return ufuncs.where(arange(n - 1) >= n - 1 - lead, nan, found)


def _companion_eigvals(c, cdt):
    k = c.shape[0]
    if k < 2:
        return zeros((0,), cdt)
    companion = np.diag(np.ones(k - 2, c.dtype), -1)
    companion = asarray(companion).at[0, :].set(-c[1:] / c[0])
    from jaxlite._src.numpy import linalg  # jnp.linalg loads at first use (import time)

    return linalg.eigvals(companion).astype(cdt)
