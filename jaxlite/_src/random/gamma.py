"""Samplers built on the gamma distribution (spec/random.md R8.11-R8.14): gamma, loggamma,
beta, dirichlet, chisquare, t, f, generalized_normal, ball, and poisson.

``gamma`` follows JAX's key usage exactly (one key per element from ``split(key, a.size)``,
Marsaglia and Tsang's rejection loop per element, vectorised with ``vmap``), so results
agree with JAX to float rounding (XLA's ``pow``/``log`` differ from NumPy's in the last
bit), not bit for bit (E2, docs/compat.md). Its derivative in ``a`` is the implicit
reparameterisation gradient ``-(dF/da) / (dF/dx)`` of the gamma CDF ``F``
(``random_gamma_grad``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.api import vmap
from jaxlite._src.compile.jit import jit
from jaxlite._src.control_flow.while_loop import while_loop
from jaxlite._src.core import rules
from jaxlite._src.custom_derivatives import custom_jvp
from jaxlite._src.numpy import creation, reductions, shape as jshape, ufuncs
from jaxlite._src.numpy.util import check_arraylike
from jaxlite._src.ops import _factories, elementwise as ew, shape as sh
from jaxlite._src.ops.special import random_gamma_grad_p
from jaxlite._src.random import _xla_math as xm
from jaxlite._src.random.continuous import _shape_of, static_index
from jaxlite._src.random.distributions import (
    _check_safe_cast,
    _check_shape,
    _float_dtype,
    _split2,
    exponential,
    normal,
    uniform,
)
from jaxlite._src.random.keys import split
from jaxlite._src.random.param_checks import BROADCAST, DIVIDE, DTYPE, TRACED, reject_sequences
from jaxlite._src.random.prng import canonicalize_shape, check_prng_key, random_split
from jaxlite._src.sharding import explicit as _explicit
from jaxlite._src.util import scipy  # a LazyModule: SciPy loads at the first use

# ----------------------------------------------------------------- random_gamma_grad


def random_gamma_grad(a, x):
    """``jax.lax.random_gamma_grad``: the derivative of a gamma sample ``x`` w.r.t. ``a``."""
    return random_gamma_grad_p.bind(a, x)


# ----------------------------------------------------------------------------- gamma


def _gamma_one(key, alpha, log_space: bool):
    """One Marsaglia-Tsang gamma sample (alpha < 1 is boosted from alpha + 1)."""
    dtype = alpha.dtype
    c = lambda v: np.asarray(v, dtype)  # noqa: E731
    zero, one = c(0), c(1)
    boost_mask = ew.ge(alpha, one)
    alpha_orig = alpha
    alpha = ew.select_n(boost_mask, ew.add(alpha, one), alpha)
    d = ew.sub(alpha, c(1 / 3))
    cc = ew.div(c(1 / 3), ew.sqrt(d))

    def cond(state):
        _, X, V, U = state
        squeeze = ew.ge(U, ew.sub(one, ew.mul(c(0.0331), ew.mul(X, X))))
        log_test = ew.ge(
            xm.log(U),
            ew.add(ew.mul(X, c(0.5)), ew.mul(d, ew.add(ew.sub(one, V), xm.log(V)))),
        )
        return ew.and_(squeeze, log_test)

    def body(state):
        k = state[0]
        ks = random_split(k, (3,))
        k, xk, uk = ks[0], ks[1], ks[2]

        def next_x(s):
            kk = random_split(s[0], (2,))
            x = normal(kk[1], (), dtype)
            return kk[0], x, ew.add(one, ew.mul(x, cc))

        _, x, v = while_loop(lambda s: ew.le(s[2], zero), next_x, (xk, zero, c(-1)))
        return k, ew.mul(x, x), ew.mul(ew.mul(v, v), v), uniform(uk, (), dtype)

    key, sub = _split2(key)
    _, _, V, _ = while_loop(cond, body, (key, zero, one, c(2)))
    if log_space:
        log_samples = ew.neg(exponential(sub, (), dtype))
        log_boost = ew.select_n(
            ew.or_(boost_mask, ew.eq(log_samples, zero)),
            ew.mul(log_samples, ew.div(one, alpha_orig)),
            zero,
        )
        return ew.add(ew.add(xm.log(d), xm.log(V)), log_boost)
    samples = ew.sub(one, uniform(sub, (), dtype))
    boost = ew.select_n(boost_mask, ew.pow(samples, ew.div(one, alpha_orig)), one)
    return ew.mul(ew.mul(d, V), boost)


def _gamma_samples(key, a, log_space):
    shape = a.shape
    n = math.prod(shape)
    if n == 0:
        return creation.zeros(shape, a.dtype)
    keys = split(key, n)
    flat = sh.reshape(a, (n,))
    out = vmap(lambda k, al: _gamma_one(k, al, log_space))(keys, flat)
    return sh.reshape(out, shape)


def _make_gamma(log_space: bool):
    @custom_jvp
    def sample(key, a):
        return _gamma_samples(key, a, log_space)

    @sample.defjvp
    def sample_jvp(primals, tangents):
        key, a = primals
        _, ta = tangents
        ans = sample(key, a)
        if log_space:
            x = ufuncs.exp(ans)
            x = ufuncs.where(x == 0, dtypes.finfo(x.dtype).tiny, x)
            g = random_gamma_grad(a, x) / x
        else:
            g = random_gamma_grad(a, ans)
        return ans, ta * g

    return sample


_gamma_sample = _make_gamma(False)
_loggamma_sample = _make_gamma(True)


def _gamma(key, a, shape, dtype, log_space):
    a = creation.asarray(a).astype(dtype)
    if a.shape != shape:
        a = jshape.broadcast_to(a, shape)
    return (_loggamma_sample if log_space else _gamma_sample)(key, a)


_gamma_jit = jit(_gamma, static_argnums=(2, 3, 4))


@_explicit.placed_result
def gamma(key: Any, a: Any, shape=None, dtype=None, *, out_sharding=None):
    """Gamma samples with shape parameter ``a`` and unit scale (``jax.random.gamma``).

    Differentiable in ``a`` (implicit reparameterisation).

    Raises:
        ValueError: for a non-float dtype or an ``a`` that does not broadcast to ``shape``.
    """
    reject_sequences(TRACED, a=a)
    typed, _ = check_prng_key("gamma", key)
    dt = _float_dtype("gamma", dtype)
    return _gamma_jit(typed, a, _shape_of("gamma", shape, a), dt, False)


@_explicit.placed_result
def loggamma(key: Any, a: Any, shape=None, dtype=None, *, out_sharding=None):
    """``log`` of gamma samples, accurate for small ``a`` (``jax.random.loggamma``)."""
    reject_sequences(TRACED, a=a)
    typed, _ = check_prng_key("loggamma", key)
    dt = _float_dtype("loggamma", dtype)
    return _gamma_jit(typed, a, _shape_of("gamma", shape, a), dt, True)


@_explicit.placed_result
def beta(key: Any, a: Any, b: Any, shape=None, dtype=None, *, out_sharding=None):
    """Beta samples (``jax.random.beta``), from two log-gamma draws."""
    reject_sequences(DTYPE, a=a, b=b)
    typed, _ = check_prng_key("beta", key)
    dt = _float_dtype("beta", dtype)
    _check_safe_cast("beta", dt, a, b)
    shape = _shape_of("beta", shape, a, b)
    ka, kb = _split2(typed)
    ga = loggamma(ka, a, shape, dt)
    gb = loggamma(kb, b, shape, dt)
    m = ufuncs.maximum(ga, gb)
    ea, eb = ufuncs.exp(ga - m), ufuncs.exp(gb - m)
    return ea / (ea + eb)


@_explicit.placed_result
def dirichlet(key: Any, alpha: Any, shape=None, dtype=None, *, out_sharding=None):
    """Dirichlet samples (``jax.random.dirichlet``): normalised log-gamma draws.

    Raises:
        ValueError: for a scalar ``alpha``.
    """
    reject_sequences(TRACED, alpha=alpha)
    typed, _ = check_prng_key("dirichlet", key)
    dt = _float_dtype("dirichlet", dtype)
    # a list is refused (JAX fails converting its traced elements: a TypeError)
    check_arraylike("dirichlet", alpha)
    alpha = creation.asarray(alpha)
    if alpha.ndim < 1:
        raise ValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == {alpha.ndim}")
    if shape is None:
        shape = alpha.shape[:-1]
    else:
        shape = canonicalize_shape(shape)
        _check_shape("dirichlet", shape, alpha.shape[:-1])
    lg = loggamma(typed, alpha, shape + alpha.shape[-1:], dt)
    lg = lg - reductions.max(lg, axis=-1, keepdims=True)
    e = ufuncs.exp(lg)
    return e / reductions.sum(e, axis=-1, keepdims=True)


@_explicit.placed_result
def chisquare(key: Any, df: Any, shape=None, dtype=None, *, out_sharding=None):
    """Chi-square samples (``jax.random.chisquare``): ``2 * exp(loggamma(df / 2))``."""
    reject_sequences(DTYPE, df=df)
    typed, _ = check_prng_key("chisquare", key)
    dt = _float_dtype("chisquare", dtype)
    shape = _shape_of("chisquare", shape, df)
    _check_safe_cast("chisquare", dt, df)
    half = creation.asarray(df, dtype=dt) / 2
    return 2 * ufuncs.exp(loggamma(typed, half, shape, dt))


@_explicit.placed_result
def t(key: Any, df: Any, shape=None, dtype=None, *, out_sharding=None):
    """Student's t samples (``jax.random.t``): ``normal * sqrt(df/2 / gamma(df/2))``."""
    reject_sequences(DTYPE, df=df)
    typed, _ = check_prng_key("t", key)
    dt = _float_dtype("t", dtype)
    shape = _shape_of("t", shape, df)
    _check_safe_cast("t", dt, df)
    kn, kg = _split2(typed)
    n = normal(kn, shape, dt)
    half = creation.asarray(df, dtype=dt) / 2
    g = gamma(kg, half, shape, dt)
    return n * ufuncs.sqrt(half / g)


@_explicit.placed_result
def f(key: Any, dfnum: Any, dfden: Any, shape=None, dtype=None, *, out_sharding=None):
    """F-distribution samples (``jax.random.f``): a ratio of scaled chi-squares."""
    reject_sequences(DTYPE, dfnum=dfnum, dfden=dfden)
    typed, _ = check_prng_key("f", key)
    dt = _float_dtype("f", dtype)
    shape = _shape_of("f", shape, dfnum, dfden)
    _check_safe_cast("f", dt, dfnum, dfden)
    k_den, k_num = _split2(typed)
    num = chisquare(k_num, dfnum, shape, dt) / creation.asarray(dfnum, dtype=dt)
    den = chisquare(k_den, dfden, shape, dt) / creation.asarray(dfden, dtype=dt)
    return num / den


@_explicit.placed_result
def generalized_normal(key: Any, p: float, shape=(), dtype=None, *, out_sharding=None):
    """Generalized normal samples with density ``∝ exp(-|x|^p)``
    (``jax.random.generalized_normal``)."""
    reject_sequences(DIVIDE, p=p)
    typed, _ = check_prng_key("generalized_normal", key)
    # As JAX: ``shape`` is a sequence, and ``gamma`` checks the dtype and ``p``'s shape.
    shape = canonicalize_shape(shape)
    dt = _float_dtype("gamma", dtype)
    shape = _shape_of("gamma", shape, p)
    k1, k2 = _split2(typed)
    # ``1 / p`` as given (a strong float32 or complex ``p`` promotes the result), as JAX
    inv = 1 / p if dtypes.is_python_scalar(p) else ufuncs.divide(1, p)
    g = gamma(k1, inv, shape, dt)
    r = rademacher_float(k2, shape, dt)
    return r * g**inv


def rademacher_float(key, shape, dtype):
    from jaxlite._src.random.continuous import rademacher  # (same layer, avoids a cycle)

    return rademacher(key, shape, dtype)


@_explicit.placed_result
def ball(key: Any, d: int, p: float = 2, shape=(), dtype=None, *, out_sharding=None):
    """Uniform samples from the unit ``p``-norm ball in ``d`` dimensions (``jax.random.ball``)."""
    reject_sequences(DIVIDE, p=p)
    typed, _ = check_prng_key("ball", key)
    shape = canonicalize_shape(shape)
    d = static_index(d, "The error occurred in jax.random.ball()")
    dt = _float_dtype("gamma", dtype)  # checked by generalized_normal's gamma, as in JAX
    k1, k2 = _split2(typed)
    g = generalized_normal(k1, p, (*shape, d), dt)
    e = exponential(k2, shape, dt)
    norm = (reductions.sum(ufuncs.abs(g) ** p, axis=-1) + e) ** (1 / p)
    return g / norm[..., None]


# ---------------------------------------------------------------------------- poisson


def _poisson_knuth(key, lam, shape, dtype):
    def body(carry):
        i, k, rng, log_prod = carry
        rng, sub = _split2(rng)
        k = ufuncs.where(log_prod > -lam, k + 1, k)
        u = uniform(sub, shape, np.float32)
        return i + 1, k, rng, log_prod + xm.log(u)

    def cond(carry):
        return reductions.any(carry[3] > -lam)

    k0 = creation.zeros(shape, dtype)
    lp0 = creation.zeros(shape, np.float32)
    k = while_loop(cond, body, (np.int32(0), k0, key, lp0))[1]
    return (k - 1).astype(dtype)


def _poisson_rejection(key, lam, shape, dtype):
    log_lam = xm.log(lam)
    b = 0.931 + 2.53 * ufuncs.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def body(carry):
        i, k_out, accepted, key = carry
        ks = random_split(key, (3,))
        key, k0, k1 = ks[0], ks[1], ks[2]
        u = uniform(k0, shape, lam.dtype) - 0.5
        v = uniform(k1, shape, lam.dtype)
        us = 0.5 - ufuncs.abs(u)
        k = ufuncs.floor((2 * a / us + b) * u + lam + 0.43)
        s = xm.log(v * inv_alpha / (a / (us * us) + b))
        tt = -lam + k * log_lam - ew.lgamma(k + 1)
        accept1 = (us >= 0.07) & (v <= v_r)
        reject = (k < 0) | ((us < 0.013) & (v > us))
        accept = accept1 | (~reject & (s <= tt))
        return i + 1, ufuncs.where(accept, k, k_out), accepted | accept, key

    def cond(carry):
        return reductions.any(~carry[2])

    k0 = creation.full(shape, -1, lam.dtype)
    acc0 = creation.zeros(shape, bool)
    k = while_loop(cond, body, (np.int32(0), k0, acc0, key))[1]
    return k.astype(dtype)


def _poisson(key, lam, shape, dtype):
    lam = jshape.broadcast_to(lam, shape)
    use_knuth = ufuncs.isnan(lam) | (lam < 10)
    lam_knuth = ufuncs.where(use_knuth, lam, 0.0)
    lam_rej = ufuncs.where(use_knuth, 1e5, lam)
    result = ufuncs.where(
        use_knuth,
        _poisson_knuth(key, lam_knuth, shape, dtype),
        _poisson_rejection(key, lam_rej, shape, dtype),
    )
    return ufuncs.where(lam == 0, 0, result).astype(dtype)


_poisson_jit = jit(_poisson, static_argnums=(2, 3))


@_explicit.placed_result
def poisson(key: Any, lam: Any, shape=None, dtype=None, *, out_sharding=None):
    """Poisson samples with rate ``lam`` (``jax.random.poisson``): Knuth's method for
    ``lam < 10``, transformed rejection (Hormann) above.

    Args:
        dtype: an integer dtype (default int32/int64).
    """
    reject_sequences(BROADCAST, lam=lam)
    typed, _ = check_prng_key("poisson", key)
    dt = dtypes.check_user_dtype_supported(dtype or dtypes.default_int_dtype(), "poisson")
    if not dtypes.is_int(np.dtype(dt)):
        raise ValueError(f"poisson only accepts integer dtypes, got {np.dtype(dt)}")
    lam = creation.asarray(lam).astype(np.float32)
    shape = _shape_of("poisson", shape, lam)
    return _poisson_jit(typed, lam, shape, np.dtype(dt))


__all__ = [
    "gamma",
    "loggamma",
    "beta",
    "dirichlet",
    "chisquare",
    "t",
    "f",
    "generalized_normal",
    "ball",
    "poisson",
    "random_gamma_grad",
]
