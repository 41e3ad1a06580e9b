"""More samplers of ``jax.random``, each a few lines over ``uniform``/``normal``/``bernoulli``
(spec/random.md R8.2, R8.10, R8.15): truncated_normal, laplace, logistic, cauchy,
rademacher, maxwell, double_sided_maxwell, weibull_min, rayleigh, pareto, geometric,
lognormal, wald, triangular, multivariate_normal, orthogonal.

``laplace`` and ``logistic`` use XLA's ``log``/``log1p`` (``_xla_math``) and match JAX bit for
bit; the others agree to a tolerance (docs/compat.md).
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes
from jaxlite._src.compile.jit import jit
from jaxlite._src.core.array import Array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer, concrete_or_error
from jaxlite._src.numpy import creation, linalg, reductions, shape as jshape, ufuncs, ufuncs_extra
from jaxlite._src.numpy.einsum import einsum
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jaxlite._src.ops import elementwise as ew, structural
from jaxlite._src.random import _xla_math as xm
from jaxlite._src.random.distributions import (
    _check_safe_cast,
    _check_shape,
    _float_dtype,
    _split2,
    _uniform,
    _unit_floats,
    bernoulli,
    exponential,
    normal,
    uniform,
)
from jaxlite._src.random.param_checks import BROADCAST, DIVIDE, DTYPE, TRACED, reject_sequences
from jaxlite._src.random.prng import canonicalize_shape, check_prng_key
from jaxlite._src.sharding import explicit as _explicit


def _c(dtype, v):
    return np.asarray(v, dtype)


def _shape_of(name: str, shape, *params):
    """``shape`` (checked against the parameters' shapes) or their broadcast shape."""
    shapes = [np.shape(p) if not hasattr(p, "aval") else aval_of(p).shape for p in params]
    if shape is None:
        return tuple(np.broadcast_shapes(*shapes)) if shapes else ()
    shape = canonicalize_shape(shape)
    _check_shape(name, shape, *shapes)
    return shape


def static_index(x, context: str) -> int:
    """``x`` as a Python ``int`` (``operator.index`` of its concrete value, as JAX's
    ``concrete_or_error(index, ...)``): a float refuses, a traced value raises
    ``ConcretizationTypeError``."""
    if isinstance(x, (Array, Tracer)):
        x = concrete_or_error(x, context)
        if not dtypes.is_int(x.dtype):
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(x)
    return operator.index(x)


def _as(x, dtype):
    return creation.asarray(x, dtype=dtype)


# ------------------------------------------------------------------- truncated_normal


def _truncated_normal(key, lower, upper, shape, dtype):
    sqrt2 = _c(dtype, np.sqrt(2))
    lower, upper = _as(lower, dtype), _as(upper, dtype)
    a = ew.erf(ew.div(lower, sqrt2))
    b = ew.erf(ew.div(upper, sqrt2))
    u = _uniform(key, shape, dtype, a, b, "fma")
    out = ew.mul(sqrt2, xm.erf_inv(u))
    lo = ufuncs_extra.nextafter(structural.stop_gradient_p.bind(lower), _c(dtype, np.inf))
    hi = ufuncs_extra.nextafter(structural.stop_gradient_p.bind(upper), _c(dtype, -np.inf))
    out = ufuncs.clip(out, lo, hi)
    if np.dtype(dtype) == np.float16:  # computed in float32: its subnormals are normal
        return out
    # JAX's jitted sampler runs with subnormals flushed: a bound's neighbour
    # nextafter(0, +-inf) (a subnormal) comes out as a zero of its sign
    tiny = _c(dtype, dtypes.finfo(dtype).tiny)
    return ufuncs.where(ufuncs.abs(out) < tiny, ew.mul(out, _c(dtype, 0.0)), out)


_truncated_normal_jit = jit(_truncated_normal, static_argnums=(3, 4))


@_explicit.placed_result
def truncated_normal(
    key: Any,
    lower: Any,
    upper: Any,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    *,
    out_sharding: Any = None,
) -> Array:
    """Standard normal samples truncated to ``(lower, upper)`` (``jax.random.truncated_normal``).

    Inverse-CDF sampling: ``sqrt(2) * erf_inv(u)`` for ``u`` uniform in
    ``[erf(lower/sqrt2), erf(upper/sqrt2))``, clipped into the open interval.

    Raises:
        ValueError: for a non-float dtype or bounds that do not broadcast to ``shape``.
    """
    reject_sequences(TRACED, lower=lower, upper=upper)
    typed, _ = check_prng_key("truncated_normal", key)
    dt = _float_dtype("truncated_normal", dtype)
    shape = _shape_of("truncated_normal", shape, lower, upper)
    return _truncated_normal_jit(typed, lower, upper, shape, dt)


# -------------------------------------------------------------- one-line transforms


def _laplace(key, shape, dtype):
    lo = _c(dtype, -1.0 + dtypes.finfo(dtype).epsneg)
    # maxval - minval rounds to 2 (exact product), as in ``normal``.
    f = _unit_floats(key, shape, dtype)
    u = ew.max(lo, ew.add(ew.mul(f, _c(dtype, 2.0)), lo))
    return ew.mul(ew.sign(u), xm.log1p(ew.neg(ew.abs(u))))


def _logistic(key, shape, dtype):
    tiny = _c(dtype, dtypes.finfo(dtype).tiny)
    f = _unit_floats(key, shape, dtype)
    x = ew.max(tiny, ew.add(f, tiny))
    return ew.sub(xm.log(x), xm.log1p(ew.neg(x)))


def _cauchy(key, shape, dtype):
    u = _uniform(key, shape, dtype, dtypes.finfo(dtype).eps, 1.0, "fma")
    return ew.tan(ew.mul(_c(dtype, np.pi), ew.sub(u, _c(dtype, 0.5))))


def _maxwell(key, shape, dtype):
    x = normal(key, (*shape, 3), dtype)
    return linalg.norm(x, axis=-1)


_laplace_jit = jit(_laplace, static_argnums=(1, 2))
_logistic_jit = jit(_logistic, static_argnums=(1, 2))
_cauchy_jit = jit(_cauchy, static_argnums=(1, 2))
_maxwell_jit = jit(_maxwell, static_argnums=(1, 2))


def _simple(name, body):
    def sampler(key, shape=(), dtype=None, *, out_sharding=None):
        typed, _ = check_prng_key(name, key)
        return body(typed, canonicalize_shape(shape), _float_dtype(name, dtype))

    sampler.__name__ = sampler.__qualname__ = name
    return sampler


laplace = _simple("laplace", _laplace_jit)
laplace.__doc__ = """Standard Laplace samples (``jax.random.laplace``): ``sign(u) * log1p(-|u|)``
for ``u`` uniform in ``(-1, 1)``, bit-exact with JAX."""
logistic = _simple("logistic", _logistic_jit)
logistic.__doc__ = """Standard logistic samples (``jax.random.logistic``): ``log(u) - log1p(-u)``,
bit-exact with JAX."""
cauchy = _simple("cauchy", _cauchy_jit)
cauchy.__doc__ = """Standard Cauchy samples (``jax.random.cauchy``): ``tan(pi * (u - 1/2))``."""
maxwell = _simple("maxwell", _maxwell_jit)
maxwell.__doc__ = """Maxwell samples (``jax.random.maxwell``): the norm of three normals."""


@_explicit.placed_result
def rademacher(key: Any, shape: Sequence[int] = (), dtype: Any = None, *, out_sharding=None):
    """Random signs, ``-1`` or ``+1`` with equal probability (``jax.random.rademacher``).

    Args:
        dtype: an integer dtype (default int32/int64).
    """
    typed, _ = check_prng_key("rademacher", key)
    dt = dtypes.check_user_dtype_supported(dtype or dtypes.default_int_dtype(), "rademacher")
    b = bernoulli(typed, 0.5, canonicalize_shape(shape)).astype(dt)
    return (2 * b - 1).astype(dt)


def double_sided_maxwell(key, loc, scale, shape=(), dtype=None):
    """Double-sided Maxwell samples (``jax.random.double_sided_maxwell``):
    ``sign * maxwell * scale + loc``.

    As in JAX 0.10.2, ``shape`` is prepended to the broadcast shape of ``loc`` and
    ``scale``, and an empty ``shape`` is taken as that shape first: vector parameters of
    shape ``(5,)`` give ``(5, 5)`` samples with ``shape=()``, ``(3, 5)`` with ``(3,)``.
    """
    reject_sequences(TRACED, loc=loc, scale=scale)
    typed, _ = check_prng_key("double_sided_maxwell", key)
    dt = _float_dtype("double_sided_maxwell", dtype)
    shape = canonicalize_shape(shape)
    params = tuple(np.broadcast_shapes(np.shape(loc), np.shape(scale)))
    shape = (shape or params) + params
    k1, k2 = _split2(typed)
    m = maxwell(k1, shape, dt)
    sign = rademacher(k2, shape, dt)
    return sign * m * scale + loc


def weibull_min(key, scale, concentration, shape=(), dtype=None):
    """Weibull samples (``jax.random.weibull_min``): ``(-log1p(-u)) ** (1/c) * scale``."""
    typed, _ = check_prng_key("weibull_min", key)
    dt = _float_dtype("weibull_min", dtype)
    u = uniform(typed, canonicalize_shape(shape), dt)
    # the parameters as given, not cast to ``dtype`` (so a strong float32 or a complex
    # parameter promotes the result), as in JAX
    return ufuncs.power(-xm.log1p(-u), 1.0 / concentration) * scale


@_explicit.placed_result
def rayleigh(key, scale, shape=None, dtype=None, *, out_sharding=None):
    """Rayleigh samples (``jax.random.rayleigh``): ``scale * sqrt(-2 log u)``."""
    reject_sequences(DTYPE, scale=scale)
    typed, _ = check_prng_key("rayleigh", key)
    dt = _float_dtype("rayleigh", dtype)
    shape = _shape_of("rayleigh", shape, scale)
    _check_safe_cast("rayleigh", dt, scale)
    u = uniform(typed, shape, dt)  # [0, 1) as JAX's: u = 0 gives inf
    return _as(scale, dt) * ufuncs.sqrt(xm.log(u) * -2.0)


@_explicit.placed_result
def pareto(key, b, shape=None, dtype=None, *, out_sharding=None):
    """Pareto samples (``jax.random.pareto``): ``exp(e / b)`` for standard exponential ``e``."""
    reject_sequences(DTYPE, b=b)
    typed, _ = check_prng_key("pareto", key)
    dt = _float_dtype("pareto", dtype)
    shape = _shape_of("pareto", shape, b)
    _check_safe_cast("pareto", dt, b)
    return ufuncs.exp(exponential(typed, shape, dt) / _as(b, dt))


@_explicit.placed_result
def geometric(key, p, shape=None, dtype=None, *, out_sharding=None):
    """Geometric samples on ``1, 2, ...`` (``jax.random.geometric``):
    ``floor(log(u) / log1p(-p)) + 1``.

    Args:
        dtype: an integer dtype (default int32/int64).
    """
    typed, _ = check_prng_key("geometric", key)
    dt = dtypes.check_user_dtype_supported(dtype or dtypes.default_int_dtype(), "geometric")
    if not dtypes.is_int(dt):
        raise ValueError(f"dtype argument to `geometric` must be an int dtype, got {dt}")
    shape = _shape_of("geometric", shape, p)
    check_arraylike("geometric", p)
    (p,) = promote_dtypes_inexact(p)
    u = uniform(typed, shape, p.dtype)  # a complex p is uniform's ValueError, as in JAX
    u = ufuncs.where(u == 0, 1, u)
    sample = ufuncs.floor(xm.log(u) / jshape.broadcast_to(xm.log1p(-p), shape)) + 1
    return sample.astype(dt)


_ONE = np.float32(1.0)


@_explicit.placed_result
def lognormal(key, sigma=_ONE, shape=None, dtype=None, *, out_sharding=None):
    """Log-normal samples (``jax.random.lognormal``): ``exp(sigma * normal)``."""
    reject_sequences(DTYPE, sigma=sigma)
    typed, _ = check_prng_key("lognormal", key)
    dt = _float_dtype("lognormal", dtype, allow_complex=True)  # as JAX's
    shape = _shape_of("lognormal", shape, sigma)
    _check_safe_cast("lognormal", dt, sigma)
    return ufuncs.exp(normal(typed, shape, dt) * _as(sigma, dt))


@_explicit.placed_result
def wald(key, mean, shape=None, dtype=None, *, out_sharding=None):
    """Wald (inverse Gaussian) samples (``jax.random.wald``), by Michael et al.'s method."""
    reject_sequences(DTYPE, mean=mean)
    typed, _ = check_prng_key("wald", key)
    dt = _float_dtype("wald", dtype)
    shape = _shape_of("wald", shape, mean)
    _check_safe_cast("wald", dt, mean)
    mean = jshape.broadcast_to(_as(mean, dt), shape)
    k1, k2 = _split2(typed)
    v = normal(k1, shape, dt)
    z = uniform(k2, shape, dt)
    y = v * v
    y_sq = y * y  # JAX's association: mean_sq * (y * y)
    mean_sq = mean * mean
    # x = mean + mean_sq * y / 2 - mean / 2 * sqrt(4 * mean * y + mean_sq * y_sq) with the
    # two multiply-adds XLA:CPU contracts (x cancels: a rounding difference reaches the
    # leading digits; 0 mismatches in 2e4 float32 draws at means 0.25 to 1e8)
    sqrt_term = ufuncs.sqrt(xm.fma(4 * mean, y, mean_sq * y_sq))
    x = xm.fma(-(mean / 2), sqrt_term, mean + mean_sq * y / 2)
    return ufuncs.where(z <= mean / (mean + x), x, mean_sq / x)


@_explicit.placed_result
def triangular(key, left, mode, right, shape=None, dtype=None, *, out_sharding=None):
    """Triangular samples on ``[left, right]`` peaking at ``mode`` (``jax.random.triangular``)."""
    reject_sequences(DTYPE, left=left, mode=mode, right=right)
    typed, _ = check_prng_key("triangular", key)
    dt = _float_dtype("triangular", dtype)
    shape = _shape_of("triangular", shape, left, mode, right)
    _check_safe_cast("triangular", dt, left, mode, right)
    left, mode, right = _as(left, dt), _as(mode, dt), _as(right, dt)
    fc = (mode - left) / (right - left)
    u = uniform(typed, shape, dt)
    out1 = left + ufuncs.sqrt(u * (right - left) * (mode - left))
    out2 = right - ufuncs.sqrt((1 - u) * (right - left) * (right - mode))
    return ufuncs.where(u < fc, out1, out2)


# ------------------------------------------------------------------ linear algebra


@_explicit.placed_result
def multivariate_normal(
    key, mean, cov, shape=None, dtype=None, method="cholesky", *, out_sharding=None
):
    """Multivariate normal samples (``jax.random.multivariate_normal``):
    ``mean + factor @ z`` with ``factor`` from ``method`` (``'cholesky'``, ``'eigh'``, ``'svd'``).

    Raises:
        ValueError: for a bad method or mean/cov shapes (JAX's messages).
    """
    reject_sequences(DTYPE, mean=mean, cov=cov)
    typed, _ = check_prng_key("multivariate_normal", key)
    if method not in {"svd", "eigh", "cholesky"}:
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    dt = _float_dtype("multivariate_normal", dtype)
    mean, cov = _as(mean, dt), _as(cov, dt)
    if mean.ndim < 1:
        raise ValueError(
            f"multivariate_normal requires mean.ndim >= 1, got mean.ndim == {mean.ndim}"
        )
    if cov.ndim < 2:
        raise ValueError(f"multivariate_normal requires cov.ndim >= 2, got cov.ndim == {cov.ndim}")
    n = mean.shape[-1]
    if cov.shape[-2:] != (n, n):
        raise ValueError(
            f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, "
            f"but got cov.shape == {cov.shape}."
        )
    if shape is None:
        shape = tuple(np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2]))
    else:
        shape = canonicalize_shape(shape)
        _check_shape("normal", shape, mean.shape[:-1], cov.shape[:-2])
    if method == "svd":
        u, s, _ = linalg.svd(cov)
        factor = u * ufuncs.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = linalg.eigh(cov)
        factor = v * ufuncs.sqrt(w[..., None, :])
    else:
        factor = linalg.cholesky(cov)
    z = normal(typed, shape + mean.shape[-1:], dt)
    with _cfg.numpy_rank_promotion("allow"):  # ``mean`` broadcasts to ``shape``, as JAX's
        return mean + einsum("...ij,...j->...i", factor, z)


@_explicit.placed_result
def orthogonal(key, n, shape=(), dtype=None, m=None, *, out_sharding=None):
    """Haar-random orthogonal (semi-orthogonal when ``m != n``) matrices
    (``jax.random.orthogonal``), from the QR decomposition of a normal matrix."""
    typed, _ = check_prng_key("orthogonal", key)
    shape = canonicalize_shape(shape)
    # As JAX: the sizes must be concrete integers, then ``normal`` checks the dtype.
    n = static_index(n, "The error occurred in jax.random.orthogonal()")
    m = n if m is None else static_index(m, "The error occurred in jax.random.orthogonal()")
    dt = _float_dtype("normal", dtype, allow_complex=True)
    # A tall normal matrix (max(n, m), min(n, m)) is orthonormalised column-wise; a wide
    # result (n < m) is its transpose, with orthonormal rows.
    z = normal(typed, (*shape, max(n, m), min(n, m)), dt)
    q, r = linalg.qr(z)
    d = reductions.sum(r * creation.eye(*r.shape[-2:], dtype=r.dtype), axis=-1)
    q = q * jshape.expand_dims(ufuncs.sign(d), -2)
    return jshape.swapaxes(q, -1, -2) if n < m else q


__all__ = [
    "truncated_normal",
    "laplace",
    "logistic",
    "cauchy",
    "rademacher",
    "maxwell",
    "double_sided_maxwell",
    "weibull_min",
    "rayleigh",
    "pareto",
    "geometric",
    "lognormal",
    "wald",
    "triangular",
    "multivariate_normal",
    "orthogonal",
]
