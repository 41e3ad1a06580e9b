"""``jax.scipy.linalg``'s special-matrix constructors: ``companion``,
``convolution_matrix``, ``dft``, ``fiedler``, ``fiedler_companion``, ``hadamard``,
``helmert``, ``invhilbert``, ``pascal``, ``invpascal``, ``leslie``.

Those of an array (companion, fiedler, fiedler_companion, leslie, convolution_matrix) are
jax.numpy, with leading batch axes as in JAX, and differentiable. Those of a size are
constants: the integer ones (pascal, invpascal, invhilbert) are computed exactly with
Python integers and then converted (JAX evaluates binomials through ``gammaln``, so its
entries are off in the last bits -- ``pascal(4)[0, 0]`` is ``0.99999905``).
"""

from __future__ import annotations

import math
import operator

import numpy as np

import jaxlite.numpy as jnp
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.numpy.list_args import list_checked
from jaxlite._src.numpy.util import with_weak_type

_KINDS = ["symmetric", "lower", "upper"]


def _float():
    return dtypes.default_float_dtype()


def _last_axis_at_least_2(a, name):
    a = jnp.asarray(a)
    if a.ndim < 1 or a.shape[-1] < 2:
        raise ValueError(
            f"The length of {name} along the last axis must be at least 2; got shape {a.shape}."
        )
    return a


def _size(n, bools: str = "count"):
    """A matrix order ``n`` as an integer (a float is ``operator.index``'s ``TypeError``,
    never truncated; JAX's arange reads it as its ceiling, docs/compat.md). A bool is read
    as each JAX function does: ``"count"`` (Python's or NumPy's, as 0 / 1: dft, pascal,
    hadamard...), ``"index"`` (Python's only: convolution_matrix) or ``"iota"`` (JAX's
    iota of dtype bool refuses it: helmert)."""
    if isinstance(n, (bool, np.bool_)):
        if bools == "iota":
            raise TypeError(
                "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, "
                "floating, complexfloating."
            )
        if bools == "count":
            return int(n)
    return operator.index(n)


def companion(a):
    """``jax.scipy.linalg.companion``: the companion matrix of the polynomial with
    coefficients ``a`` (highest degree first): first row ``-a[1:] / a[0]``, ones on the
    subdiagonal.

    Args:
        a: ``(..., N)`` coefficients, ``N >= 2``.

    Returns:
        ``(..., N - 1, N - 1)``, floating point.
    """
    a = _last_axis_at_least_2(a, "`a`")
    if not dtypes.is_inexact(a.dtype):
        a = a.astype(_float())
    n = a.shape[-1] - 1
    first = -a[..., 1:] / a[..., :1]
    sub = jnp.broadcast_to(jnp.eye(n - 1, n, dtype=a.dtype), a.shape[:-1] + (n - 1, n))
    return jnp.concatenate([first[..., None, :], sub], axis=-2)


def convolution_matrix(a, n: int, mode: str = "full"):
    """``jax.scipy.linalg.convolution_matrix``: ``A`` with ``A @ v == convolve(a, v, mode)``
    for every ``v`` of length ``n``.

    Args:
        a: ``(..., m)`` the kernel.
        n: the length of the vectors it multiplies (positive).
        mode: ``"full"`` (``m + n - 1`` rows), ``"same"`` (``max(m, n)``) or ``"valid"``
            (``max(m, n) - min(m, n) + 1``).

    Returns:
        ``(..., rows, n)``.
    """
    n = _size(n, bools="index")
    if n <= 0:
        raise ValueError(f"n must be a positive integer; got {n}.")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"mode must be one of 'full', 'valid', 'same'; got {mode!r}.")
    a = jnp.asarray(a)
    if a.ndim == 0:
        raise ValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar.")
    if a.shape[-1] == 0:
        raise ValueError(f"len(a) must be at least 1; got shape {a.shape}.")
    m = a.shape[-1]
    rows_full = m + n - 1
    i = np.arange(rows_full)[:, None]
    k = i - np.arange(n)[None, :]  # index into a
    valid = (k >= 0) & (k < m)
    full = jnp.where(jnp.asarray(valid), a[..., np.clip(k, 0, max(m - 1, 0))], 0)
    if mode == "full":
        return full
    if mode == "same":
        start, rows = (min(m, n) - 1) // 2, max(m, n)
    else:
        start, rows = min(m, n) - 1, max(m, n) - min(m, n) + 1
    return full[..., start : start + rows, :]


def dft(n: int, scale: str | None = None, *, dtype=None):
    """``jax.scipy.linalg.dft``: the discrete Fourier transform matrix
    ``W[j, k] = exp(-2 pi i j k / n)``.

    Args:
        n: its size.
        scale: None, ``"sqrtn"`` (divide by ``sqrt(n)``) or ``"n"`` (divide by ``n``).
        dtype: a complex dtype (default: the default complex dtype).

    Returns:
        ``(n, n)`` complex.
    """
    if scale not in (None, "sqrtn", "n"):
        raise ValueError(f"scale must be None, 'sqrtn', or 'n'; got {scale!r}.")
    n = _size(n)
    jk = np.outer(np.arange(n), np.arange(n)) % max(n, 1)
    w = np.exp(-2j * np.pi * jk / max(n, 1))
    if scale == "sqrtn":
        w = w / math.sqrt(n)
    elif scale == "n":
        w = w / n
    dt = dtypes.to_complex_dtype(_float()) if dtype is None else dtype
    return jnp.asarray(w, dtype=dt)


def fiedler(a):
    """``jax.scipy.linalg.fiedler``: ``F[i, j] = |a[i] - a[j]|``.

    Args:
        a: ``(..., N)``.

    Returns:
        ``(..., N, N)``.
    """
    a = jnp.atleast_1d(jnp.asarray(a))
    return jnp.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a):
    """``jax.scipy.linalg.fiedler_companion``: Fiedler's pentadiagonal companion matrix of
    the polynomial with coefficients ``a`` (highest degree first), with the same
    eigenvalues as ``companion(a)``.

    Args:
        a: ``(..., N)`` coefficients.

    Returns:
        ``(..., N - 1, N - 1)``, floating point.
    """
    a = jnp.asarray(a)
    if a.ndim == 0:  # one coefficient, as JAX: the empty matrix (weak for a Python number)
        a = a.reshape(1)
    if a.shape[-1] == 0:
        raise ValueError(
            "fiedler_companion requires the last axis of 'a' to have nonzero length, but got "
            f"an array of shape {a.shape}."
        )
    weak = aval_of(a).weak_type
    if not dtypes.is_inexact(a.dtype):
        a = a.astype(_float())
    n = a.shape[-1] - 1
    batch = a.shape[:-1]
    if n <= 0:
        return with_weak_type(jnp.zeros(batch + (0, 0), a.dtype), weak)
    a = a / a[..., :1]
    c = jnp.zeros(batch + (n, n), a.dtype)
    # Column 0: -a1 over 1; then alternating blocks along the sub- and superdiagonals.
    c = c.at[..., 0, 0].set(-a[..., 1])
    if n == 1:
        return c
    c = c.at[..., 1, 0].set(1)
    r, k = np.arange(3, n, 2), np.arange(1, n - 2, 2)
    c = c.at[..., r, k].set(1)
    r, k = np.arange(2, n, 2), np.arange(1, n - 1, 2)
    c = c.at[..., r, k].set(-a[..., 3::2])
    r, k = np.arange(0, n - 2, 2), np.arange(2, n, 2)
    c = c.at[..., r, k].set(1)
    r, k = np.arange(0, n - 1, 2), np.arange(1, n, 2)
    c = c.at[..., r, k].set(-a[..., 2::2])
    return c


def hadamard(n: int, dtype=int):
    """``jax.scipy.linalg.hadamard``: Sylvester's Hadamard matrix of order ``n``.

    Args:
        n: a positive power of 2.
        dtype: the result dtype (``int``: the default integer dtype).

    Returns:
        ``(n, n)`` of ``+1`` / ``-1``.
    """
    given, n = n, _size(n)
    if n < 1 or n & (n - 1):
        raise ValueError(f"n must be a positive power of 2; got {given}.")
    h = np.ones((1, 1), np.int64)
    while h.shape[0] < n:
        h = np.block([[h, h], [h, -h]])
    return jnp.asarray(h, dtype=dtype)


def helmert(n: int, full: bool = False):
    """``jax.scipy.linalg.helmert``: the orthogonal Helmert matrix of order ``n``.

    Args:
        n: its order.
        full: keep the first row (``1 / sqrt(n)`` everywhere); by default it is dropped,
            giving ``(n - 1, n)``.

    Returns:
        The matrix, in the default float dtype.
    """
    if isinstance(n, (int, np.integer, np.bool_)) and n <= 0:  # (before iota's bool check)
        raise ValueError(f"n must be a positive integer; got {n}.")
    n = _size(n, bools="iota")
    h = np.zeros((n, n))
    if n:
        h[0] = 1 / math.sqrt(n)
    for k in range(1, n):
        norm = math.sqrt(k * (k + 1))
        h[k, :k] = 1 / norm
        h[k, k] = -k / norm
    return jnp.asarray(h if full else h[1:], dtype=_float())


def invhilbert(n: int):
    """``jax.scipy.linalg.invhilbert``: the inverse of the ``n x n`` Hilbert matrix, from
    its closed form (exact integers, then the default float dtype).

    Args:
        n: its order.

    Returns:
        ``(n, n)``.
    """
    n = _size(n)
    out = np.zeros((max(n, 0), max(n, 0)), object)
    for i in range(n):
        for j in range(n):
            out[i, j] = (
                (-1) ** (i + j)
                * (i + j + 1)
                * math.comb(n + i, n - j - 1)
                * math.comb(n + j, n - i - 1)
                * math.comb(i + j, i) ** 2
            )
    return jnp.asarray(out.astype(np.float64), dtype=_float())


def _check_kind(kind, typo: bool):
    kind = "symmetric" if kind is None else kind
    if kind not in _KINDS:
        # JAX's two messages differ by a typo ("on of") in pascal's.
        raise ValueError(f"Expected kind to be {'on' if typo else 'one'} of: {_KINDS}; got {kind}")
    return kind


def _lower_binomials(n: int, signed: bool):
    out = np.zeros((n, n), object)
    for i in range(n):
        for j in range(i + 1):
            out[i, j] = math.comb(i, j) * ((-1) ** (i - j) if signed else 1)
    return out


def pascal(n: int, kind: str | None = None):
    """``jax.scipy.linalg.pascal``: the Pascal matrix (binomial coefficients).

    Args:
        n: its order.
        kind: ``"symmetric"`` (default: ``C(i + j, i)``), ``"lower"`` (``C(i, j)``) or
            ``"upper"``.

    Returns:
        ``(n, n)`` in the default float dtype (exact values; JAX's are approximate).
    """
    kind = _check_kind(kind, typo=True)
    n = max(_size(n), 0)
    low = _lower_binomials(n, signed=False)
    mat = {"lower": low, "upper": low.T, "symmetric": low.dot(low.T) if n else low}[kind]
    return jnp.asarray(np.asarray(mat, np.float64).reshape(n, n), dtype=_float())


def invpascal(n: int, kind: str | None = None):
    """``jax.scipy.linalg.invpascal``: the inverse of ``pascal(n, kind)``.

    Args:
        n: its order.
        kind: ``"symmetric"`` (default), ``"lower"`` or ``"upper"``.

    Returns:
        ``(n, n)`` in the default float dtype.
    """
    kind = _check_kind(kind, typo=False)
    n = max(_size(n), 0)
    low = _lower_binomials(n, signed=True)  # the inverse of the lower Pascal matrix
    mat = {"lower": low, "upper": low.T, "symmetric": low.T.dot(low) if n else low}[kind]
    return jnp.asarray(np.asarray(mat, np.float64).reshape(n, n), dtype=_float())


def leslie(f, s):
    """``jax.scipy.linalg.leslie``: the Leslie matrix: fecundities ``f`` in the first row,
    survival rates ``s`` on the subdiagonal.

    Args:
        f: ``(..., N)``, ``N >= 2``.
        s: ``(..., N - 1)``.

    Returns:
        ``(..., N, N)`` of ``f`` and ``s``'s result dtype.
    """
    f = _last_axis_at_least_2(f, "f")
    s = jnp.atleast_1d(jnp.asarray(s))
    if s.shape[-1] != f.shape[-1] - 1:
        raise ValueError(
            "Incorrect lengths for f and s. The length of s along the last axis must be one "
            f"less than the length of f; got f shape {f.shape} and s shape {s.shape}."
        )
    dt = jnp.result_type(f, s)
    n = f.shape[-1]
    batch = jnp.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    f = jnp.broadcast_to(f.astype(dt), batch + (n,))
    s = jnp.broadcast_to(s.astype(dt), batch + (n - 1,))
    out = jnp.zeros(batch + (n, n), dt)
    out = out.at[..., 0, :].set(f)
    return out.at[..., np.arange(1, n), np.arange(n - 1)].set(s)


__all__ = [
    "companion",
    "convolution_matrix",
    "dft",
    "fiedler",
    "fiedler_companion",
    "hadamard",
    "helmert",
    "invhilbert",
    "invpascal",
    "leslie",
    "pascal",
]

# JAX refuses a list or tuple as an operand of these, by position or keyword
# (tests/hunt/test_err_sweep_s25.py, test_err_sweep_s26.py)
companion, fiedler, fiedler_companion, convolution_matrix, leslie = (
    list_checked(companion),
    list_checked(fiedler),
    list_checked(fiedler_companion),
    list_checked(convolution_matrix),
    list_checked(leslie, 0, 1),
)
