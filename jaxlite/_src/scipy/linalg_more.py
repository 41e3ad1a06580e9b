"""``jax.scipy.linalg``: the matrix exponential (``expm``, ``expm_frechet``) and the
structured-matrix constructors ``toeplitz``, ``hankel``, ``circulant`` and ``hilbert``.

All are compositions of jax.numpy and lax, so jit, vmap and the derivatives come from the
primitives they use. ``expm`` is scaling and squaring with a diagonal Padé approximant
(Higham, "The scaling and squaring method for the matrix exponential revisited", SIAM J.
Matrix Anal. Appl. 26(4), 2005): the degree and the number of squarings are chosen from
the 1-norm of the matrix at run time (``lax.switch`` and a fixed-length ``fori_loop``).
"""

from __future__ import annotations

import operator

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import lax
from jaxlite._src import dtypes
from jaxlite._src.numpy.list_args import list_checked
from jaxlite._src.numpy.util import no_sequences

# Padé numerator coefficients b_0..b_m of the degree-m approximant of exp (Higham 2005).
_PADE = {
    3: (120.0, 60.0, 12.0, 1.0),
    5: (30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0),
    7: (17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0, 1.0),
    9: (
        17643225600.0, 8821612800.0, 2075673600.0, 302702400.0, 30270240.0,
        2162160.0, 110880.0, 3960.0, 90.0, 1.0,
    ),
    13: (
        64764752532480000.0, 32382376266240000.0, 7771770303897600.0,
        1187353796428800.0, 129060195264000.0, 10559470521600.0, 670442572800.0,
        33522128640.0, 1323241920.0, 40840800.0, 960960.0, 16380.0, 182.0, 1.0,
    ),
}  # fmt: skip
# theta_m: the largest 1-norm for which the degree-m approximant is accurate to the unit
# roundoff (Higham 2005, Table 2.3 for double; single precision: degrees 3, 5, 7).
_THETA = {
    "double": ((3, 1.495585217958292e-2), (5, 2.539398330063230e-1), (7, 9.504178996162932e-1),
               (9, 2.097847961257068e0), (13, 5.371920351148152e0)),
    "single": ((3, 4.258730016922831e-1), (5, 1.880152677804762e0), (7, 3.925724783138660e0)),
}  # fmt: skip


def _square_matrix(a, name: str = "A"):
    no_sequences((a,))  # JAX promotes dtypes first: a list has none
    a = jnp.asarray(a)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(
            f"Expected {name} to be a (batched) square matrix, got {name}.shape={a.shape}."
        )
    if not dtypes.is_inexact(a.dtype):
        a = a.astype(dtypes.default_float_dtype())
    return a


def _pade(a, m: int):
    """(P, Q) of the degree-m diagonal Padé approximant: exp(a) ~ Q^-1 P."""
    b = _PADE[m]
    eye = jnp.eye(a.shape[-1], dtype=a.dtype)
    a2 = a @ a
    if m == 13:
        a4 = a2 @ a2
        a6 = a4 @ a2
        u = a @ (a6 @ (b[13] * a6 + b[11] * a4 + b[9] * a2) + b[7] * a6 + b[5] * a4
                 + b[3] * a2 + b[1] * eye)  # fmt: skip
        v = a6 @ (b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2
        v = v + b[0] * eye
    else:
        powers = [eye, a2]
        for _ in range((m - 1) // 2 - 1):
            powers.append(powers[-1] @ a2)
        u = a @ sum(b[2 * k + 1] * p for k, p in enumerate(powers))
        v = sum(b[2 * k] * p for k, p in enumerate(powers))
    return u + v, v - u


def _expm2(a, max_squarings, steps: int):
    precision = "double" if a.dtype in (np.float64, np.complex128) else "single"
    thetas = _THETA[precision]
    degrees = [m for m, _ in thetas]
    top_theta = thetas[-1][1]
    norm = jnp.max(jnp.sum(jnp.abs(a), axis=-2))  # the 1-norm
    # Degree: the smallest whose theta covers the norm (JAX's digitize: a norm equal to a
    # theta takes the next degree); else the top one after scaling by 2**floor(log2(norm /
    # theta)), JAX's count (so the scaled norm can reach twice the top theta).
    index = jnp.sum(jnp.stack([norm >= t for _, t in thetas[:-1]]).astype(np.int32))
    n_sq = jnp.maximum(0, jnp.floor(jnp.log2(norm / top_theta))).astype(np.int32)
    n_sq = jnp.where(index < len(degrees) - 1, 0, n_sq)
    scaled = a / (2.0**n_sq).astype(a.real.dtype)
    p, q = lax.switch(index, [lambda x, m=m: _pade(x, m) for m in degrees], scaled)
    r = jnp.linalg.solve(q, p)  # (JAX solves triangularly if upper_triangular: same values)
    r = lax.fori_loop(0, steps, lambda i, x: jnp.where(i < n_sq, x @ x, x), r)
    # Too many squarings needed: NaN, as in JAX.
    return jnp.where(n_sq > max_squarings, jnp.full_like(r, np.nan), r)


def expm(A, *, upper_triangular: bool = False, max_squarings: int = 16):
    """``jax.scipy.linalg.expm``: the matrix exponential of ``A``, shape ``(..., N, N)``.

    Args:
        A: a square matrix or a stack of them; integers are computed in the default float.
        upper_triangular: ``A`` is upper triangular (accepted as in JAX; the values are
            those of the general solve).
        max_squarings: the most squarings of the scaling-and-squaring method; a matrix
            whose 1-norm would need more gives NaN (as in JAX).

    Returns:
        ``exp(A)``, of ``A``'s (inexact) dtype and shape.

    Raises:
        ValueError: ``A`` is not a (batched) square matrix.
        TypeError: for float16 or bfloat16 ``A`` (as JAX).
    """
    a = _square_matrix(A)
    if a.dtype in (np.float16, dtypes.bfloat16):
        raise TypeError(f"A.dtype={a.dtype} is not supported.")
    # JAX scans over ``arange(max_squarings)``: a float count takes ceil(count) steps
    max_squarings_steps = jnp.arange(max_squarings).shape[0]
    if a.size == 0:  # an empty (stack of) matrices: its own exponential, as JAX's
        return a
    if a.ndim > 2:
        one = lambda m: _expm2(m, max_squarings, max_squarings_steps)  # noqa: E731
        return jnp.vectorize(one, signature="(n,n)->(n,n)")(a)
    return _expm2(a, max_squarings, max_squarings_steps)


def expm_frechet(A, E, *, method: str | None = None, compute_expm: bool = True):
    """``jax.scipy.linalg.expm_frechet``: the Fréchet derivative of ``expm`` at ``A`` in
    the direction ``E`` (``d/dt expm(A + t E)`` at 0), and optionally ``expm(A)``.

    Computed as blocks of ``expm([[A, E], [0, A]])`` (its upper right block is the
    derivative), which agrees with the Al-Mohy–Higham method JAX and SciPy use to within
    rounding.

    Args:
        A, E: (stacks of) square matrices of the same shape ``(..., N, N)``.
        method: accepted for compatibility (``None`` or ``"SPS"``).
        compute_expm: also return ``expm(A)``.

    Returns:
        ``(expm(A), L(A, E))`` if ``compute_expm``, else ``L(A, E)``.

    Raises:
        ValueError: non-square or mismatched shapes, or an unknown ``method``.
    """
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(f"Unknown implementation {method}")
    a, e = jnp.asarray(A), jnp.asarray(E)
    if a.ndim < 2 or a.shape[-2] != a.shape[-1]:
        raise ValueError(f"expected A to be a (batched) square matrix, got A.shape={a.shape}")
    if e.ndim < 2 or e.shape[-2] != e.shape[-1]:
        raise ValueError(f"expected E to be a (batched) square matrix, got E.shape={e.shape}")
    if e.shape != a.shape:
        raise ValueError(
            f"expected A and E to be the same shape, got A.shape={a.shape} E.shape={e.shape}"
        )
    dtype = jnp.result_type(a, e)
    if not dtypes.is_inexact(dtype):
        dtype = dtypes.default_float_dtype()
    a, e = a.astype(dtype), e.astype(dtype)
    n = a.shape[-1]
    top = jnp.concatenate([a, e], axis=-1)
    big = jnp.concatenate([top, jnp.concatenate([jnp.zeros_like(a), a], axis=-1)], axis=-2)
    out = expm(big)  # (batched: leading axes are a stack, as in JAX)
    exp_a, frechet = out[..., :n, :n], out[..., :n, n:]
    return (exp_a, frechet) if compute_expm else frechet


# --------------------------------------------------------------------- constructors
def _index_grid(m: int, n: int):
    return np.arange(m)[:, None], np.arange(n)[None, :]


def _column_and_row(c, r):
    """``c`` and ``r`` (at least 1-D) in their promoted dtype, batch dims broadcast."""
    c, r = jnp.atleast_1d(c), jnp.atleast_1d(jnp.asarray(r))
    dtype = jnp.result_type(c, r)
    batch = jnp.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c = jnp.broadcast_to(c.astype(dtype), batch + c.shape[-1:])
    return c, jnp.broadcast_to(r.astype(dtype), batch + r.shape[-1:])


def toeplitz(c, r=None):
    """``jax.scipy.linalg.toeplitz``: the Toeplitz matrix with first column ``c`` and first
    row ``r`` (``r[..., 0]`` is ignored; without ``r``, ``conj(c)``, a Hermitian matrix).

    Args:
        c: shape ``(..., M)``; r: shape ``(..., N)`` (batch dims broadcast).

    Returns:
        Shape ``(..., M, N)``, of the promoted dtype.
    """
    c = jnp.atleast_1d(jnp.asarray(c))
    c, r = _column_and_row(c, jnp.conj(c) if r is None else r)
    m, n = c.shape[-1], r.shape[-1]
    i, j = _index_grid(m, n)
    d = i - j
    return jnp.where(d >= 0, c[..., np.clip(d, 0, m - 1)], r[..., np.clip(-d, 0, n - 1)])


def hankel(c, r=None):
    """``jax.scipy.linalg.hankel``: the Hankel matrix with first column ``c`` and last row
    ``r`` (``r[..., 0]`` is ignored; without ``r``, zeros below the anti-diagonal).

    Args:
        c: shape ``(..., M)``; r: shape ``(..., N)`` (default ``zeros_like(c)``).

    Returns:
        Shape ``(..., M, N)``, of the promoted dtype.
    """
    if jnp.ndim(c) == 0:
        raise ValueError("hankel: c must be at least 1-dimensional, got a scalar.")
    c = jnp.atleast_1d(jnp.asarray(c))
    c, r = _column_and_row(c, jnp.zeros_like(c) if r is None else r)
    m, n = c.shape[-1], r.shape[-1]
    i, j = _index_grid(m, n)
    s = i + j
    return jnp.where(s < m, c[..., np.clip(s, 0, m - 1)], r[..., np.clip(s - m + 1, 0, n - 1)])


def circulant(c):
    """``jax.scipy.linalg.circulant``: ``C[..., i, j] = c[..., (i - j) % N]`` for ``c`` of
    shape ``(..., N)``; shape ``(..., N, N)``."""
    c = jnp.atleast_1d(jnp.asarray(c))
    n = c.shape[-1]
    i, j = _index_grid(n, n)
    return c[..., (i - j) % n]


def hilbert(n: int):
    """``jax.scipy.linalg.hilbert``: ``H[i, j] = 1 / (i + j + 1)``, shape ``(n, n)``, in
    the default float dtype."""
    try:  # JAX's messages: a float size is refused (never truncated), as is a negative one
        n = operator.index(n)
    except TypeError:
        msg = "Shapes must be 1D sequences of concrete values of integer type, got"
        raise TypeError(f"{msg} {(n, 1)}.") from None
    if n < 0:
        raise TypeError(f"iota shape must have every element be nonnegative, got {(n, 1)}.")
    i, j = _index_grid(n, n)
    return jnp.asarray(1.0 / (i + j + 1), dtype=dtypes.default_float_dtype())


__all__ = ["circulant", "expm", "expm_frechet", "hankel", "hilbert", "toeplitz"]

# JAX refuses a list or tuple as an operand of these, by position or keyword
# (tests/hunt/test_err_sweep_s25.py, test_err_sweep_s26.py)
circulant, hankel, toeplitz = (
    list_checked(circulant),
    list_checked(hankel, 0, 1),
    list_checked(toeplitz, 0, 1),
)
