"""``binomial`` and ``multinomial`` (spec/random.md R8.15), following JAX's algorithms and
key usage: geometric waiting times (inversion) where ``n * min(p, 1-p) <= 10``, Hormann's
BTRS transformed rejection elsewhere, and ``multinomial`` as a scan of conditional
binomials. Values agree with JAX to float rounding (E2, docs/compat.md).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.compile.jit import jit
from jaxlite._src.control_flow.scan import scan
from jaxlite._src.control_flow.while_loop import while_loop
from jaxlite._src.numpy import creation, reductions, shape as jshape, ufuncs
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jaxlite._src.random import _xla_math as xm
from jaxlite._src.random.distributions import _check_shape, _float_dtype, _split2, uniform
from jaxlite._src.random.keys import split
from jaxlite._src.random.prng import canonicalize_shape, check_prng_key, random_split

# log(k!) - Stirling's approximation, for k = 0..9 (the series below is used above).
_STIRLING_TAIL = np.array(
    [
        0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
        0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
        0.00925546218271273, 0.00833056343336287,
    ]
)  # fmt: skip


def _stirling_tail(k):
    table = creation.asarray(_STIRLING_TAIL, dtype=k.dtype)
    kc = ufuncs.clip(k, 0.0, 9.0)
    kp1sq = (kc + 1) * (kc + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (kc + 1)
    return ufuncs.where(k <= 9, table[ufuncs.floor(kc).astype(np.int32)], approx)


def _inversion(key, count, prob, shape, dtype):
    log1mp = xm.log1p(-prob)

    def body(carry):
        i, num, total, key = carry
        ks = random_split(key, (2,))
        sub, key = ks[0], ks[1]
        num = ufuncs.where(total <= count, num + 1, num)
        u = uniform(sub, shape, prob.dtype)
        total = total + ufuncs.ceil(xm.log(u) / log1mp)
        return i + 1, num, total, key

    def cond(carry):
        return reductions.any(carry[2] <= count)

    zeros = creation.zeros(shape, prob.dtype)
    k = while_loop(cond, body, (np.int32(0), zeros, zeros, key))[1]
    return (k - 1).astype(dtype)


def _btrs(key, count, prob, shape, dtype):
    stddev = ufuncs.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = ufuncs.floor((count + 1) * prob)

    def body(carry):
        i, k_out, accepted, key = carry
        ks = random_split(key, (3,))
        key, k0, k1 = ks[0], ks[1], ks[2]
        u = uniform(k0, shape, prob.dtype) - 0.5
        v = uniform(k1, shape, prob.dtype)
        us = 0.5 - ufuncs.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        k = ufuncs.floor((2 * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        v = xm.log(v * alpha / (a / (us * us) + b))
        ub = (
            (m + 0.5) * xm.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * xm.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * xm.log(r * (count - k + 1) / (k + 1))
            + _stirling_tail(m)
            + _stirling_tail(count - m)
            - _stirling_tail(k)
            - _stirling_tail(count - k)
        )
        accept = accept1 | (~reject & (v <= ub))
        return i + 1, ufuncs.where(accept, k, k_out), accepted | accept, key

    def cond(carry):
        return reductions.any(~carry[2])

    k0 = creation.full(shape, -1, prob.dtype)
    acc0 = creation.zeros(shape, bool)
    return while_loop(cond, body, (np.int32(0), k0, acc0, key))[1].astype(dtype)


def _binomial(key, count, prob, shape, dtype):
    prob = jshape.broadcast_to(prob, shape)
    count = jshape.broadcast_to(count.astype(prob.dtype), shape)
    p_lt_half = prob < 0.5
    q = ufuncs.where(p_lt_half, prob, 1.0 - prob)
    count_bad = ufuncs.isnan(count) | (count < 0.0)
    count_inf = ufuncs.isinf(count)
    q_nan = ufuncs.isnan(q)
    q_neg = q < 0.0
    q = ufuncs.where(q_nan | q_neg, 0.01, q)
    use_inv = count_bad | (count * q <= 10.0)
    count = ufuncs.floor(count)
    inv = _inversion(key, ufuncs.where(use_inv, count, 0.0), q, shape, dtype)
    rej = _btrs(key, ufuncs.where(use_inv, 1e4, count), ufuncs.where(use_inv, 0.5, q), shape, dtype)
    samples = ufuncs.where(use_inv, inv, rej)
    invalid = q_neg | q_nan | count_bad
    samples = ufuncs.where(invalid, np.nan, samples)
    samples = ufuncs.where(count_inf & ~invalid, np.inf, samples)
    keep = p_lt_half | count_bad | q_nan | count_inf
    return ufuncs.where(keep, samples, count.astype(dtype) - samples).astype(dtype)


_binomial_jit = jit(_binomial, static_argnums=(3, 4))


def binomial(key: Any, n: Any, p: Any, shape=None, dtype=None) -> Any:
    """Binomial samples with ``n`` trials of probability ``p`` (``jax.random.binomial``).

    Returns:
        Floats (default float32/float64): NaN for a negative/NaN ``n`` or a NaN/negative
        ``p``, inf for an infinite ``n``.

    Raises:
        ValueError: for a non-float dtype or ``n``/``p`` that do not broadcast to ``shape``.
    """
    typed, _ = check_prng_key("binomial", key)
    check_arraylike("binomial", n, p)
    dt = _float_dtype("binomial", dtype)
    n, p = creation.asarray(n), creation.asarray(p)
    if shape is None:
        shape = tuple(np.broadcast_shapes(n.shape, p.shape))
    else:
        shape = canonicalize_shape(shape)
        _check_shape("binomial", shape, n.shape, p.shape)
    if not dtypes.is_inexact(p.dtype):
        p = p.astype(dtypes.to_inexact_dtype(p.dtype))
    return _binomial_jit(typed, n, p, shape, dt)


def multinomial(key: Any, n: Any, p: Any, *, shape=None, dtype=None, unroll: Any = 1) -> Any:
    """Multinomial counts of ``n`` draws over the categories of ``p`` (last axis)
    (``jax.random.multinomial``): a scan of binomials of the remaining count with the
    conditional probabilities ``p_i / sum(p_i..)``.

    Raises:
        ValueError: for a ``shape`` that does not end with ``p``'s category axis.
    """
    typed, _ = check_prng_key("multinomial", key)
    check_arraylike("multinomial", n, p)
    n, p = promote_dtypes_inexact(n, p)
    # As JAX: ``shape`` is taken as given (its last entry is the category axis) and only
    # checked by the broadcasts; ``dtype`` is any dtype the counts can be cast to.
    if shape is None:
        shape = p.shape
    n = jshape.broadcast_to(n, shape[:-1])
    p = jshape.moveaxis(jshape.broadcast_to(p, shape), -1, 0)
    remaining = reductions.cumsum(p[::-1], axis=0)[::-1]
    ratios = p / ufuncs.where(remaining == 0, 1, remaining)
    keys = split(typed, ratios.shape[0])

    def step(remainder, ratio_key):
        ratio, k = ratio_key
        count = binomial(k, remainder, ufuncs.clip(ratio, 0, 1), dtype=remainder.dtype)
        return remainder - count, count

    _, counts = scan(step, n, (ratios, keys))
    return jshape.moveaxis(counts, 0, -1).astype(dtype)


__all__ = ["binomial", "multinomial", "_split2"]
