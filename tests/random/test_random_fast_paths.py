"""The fast kernels behind ``normal``/``uniform``/``truncated_normal`` (session 9) against
real JAX 0.10.2, bit for bit: XLA:CPU's float32 and float64 ``log``, ``log1p`` and
``erf_inv`` (spec/random.md R7.3-R7.6) on every kind of input, and the samplers (R6, R8.1,
R8.2) over many keys and shapes (empty, odd, sizes that straddle kernel blocks and thread
splits), x64 off and on.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.random  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.random  # noqa: E402,F401
from jaxlite._src.random import _xla_blocked, _xla_math as xm  # noqa: E402

jax.config.update("jax_platforms", "cpu")

_UINT = {np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}


def _bits(a):
    a = np.asarray(a)
    return a.view(_UINT[a.dtype])


def _assert_same_bits(got, want, where=None):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and got.dtype == want.dtype
    differ = (_bits(got) != _bits(want)) & ~(np.isnan(got) & np.isnan(want))
    if where is not None:
        differ &= where
    bad = np.flatnonzero(differ)
    assert bad.size == 0, (bad.size, got.ravel()[bad[:5]], want.ravel()[bad[:5]])


# ------------------------------------------------------------ the float32 kernels (R7)


def _inputs(name):
    rng = np.random.default_rng(17)
    every = rng.integers(0, 2**32, 120_000, dtype=np.uint64).astype(np.uint32).view(np.float32)
    special = np.array(
        [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.0**-126, -(2.0**-126), 0.5, 2.0]
        + [0.41421357, -0.41421357, 0.4142135, -0.4142135, 0.99999994, -0.99999994, 1.0000001]
        + [0.70710677, 0.7071068, 1e30, -1e30, 3.4028235e38],
        np.float32,
    )
    spans = {"log": (0.0, 3.0), "log1p": (-1.0, 1.0), "erf_inv": (-1.0, 1.0)}[name]
    near = {"log": 1.0, "log1p": 0.0, "erf_inv": 1.0}[name]
    parts = [
        every,
        special,
        rng.uniform(*spans, 120_000).astype(np.float32),
        (near - rng.uniform(0, 1e-3, 30_000)).astype(np.float32),
        (-near + rng.uniform(0, 1e-3, 30_000)).astype(np.float32),
    ]
    return np.concatenate(parts)


KERNELS = [
    ("log", xm.log_f32, jax.lax.log),
    ("log1p", xm.log1p_f32, jax.lax.log1p),
    ("erf_inv", xm.erf_inv_f32, jax.lax.erf_inv),
]


@pytest.mark.parametrize("name,ours,theirs", KERNELS, ids=[k[0] for k in KERNELS])
def test_f32_kernel_matches_xla(name, ours, theirs):
    x = _inputs(name)
    with np.errstate(all="ignore"):
        got = ours(x)
    want = np.asarray(jax.jit(theirs)(x))
    # XLA flushes subnormal inputs and results to zero (R7.2); the samplers never meet them.
    normal = ~((np.abs(x) < 2.0**-126) & (x != 0))
    normal &= ~((np.abs(want) < 2.0**-126) & (want != 0))
    normal &= ~((np.abs(got) < 2.0**-126) & (got != 0))
    _assert_same_bits(got, want, normal)
    # Shapes: 0-d, empty, odd lengths, one block plus one, several threads' worth.
    for n in (0, 1, 3, _xla_blocked._BLOCK + 1, 2 * _xla_blocked._PARALLEL_MIN + 3):
        part = np.resize(x[np.isfinite(x)], n)
        with np.errstate(all="ignore"):
            full = ours(np.resize(x[np.isfinite(x)], max(n, 1)))
        assert ours(part).shape == (n,)
        _assert_same_bits(ours(part), full[:n])
    assert ours(np.float32(0.25)).shape == ()
    assert ours(x[:12].reshape(3, 4)).shape == (3, 4)


def _inputs64(name):
    rng = np.random.default_rng(19)
    every = rng.integers(0, 2**64, 60_000, dtype=np.uint64).view(np.float64)
    special = np.array(
        [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.0**-1022, 0.5, 2.0, 1e300]
        + [0.41421356237309503, -0.41421356237309503, 1 - 2.0**-53, -(1 - 2.0**-53)]
    )
    spans = {"log": (0.0, 3.0), "log1p": (-1.0, 1.0), "erf_inv": (-1.0, 1.0)}[name]
    near = {"log": 1.0, "log1p": 0.0, "erf_inv": 1.0}[name]
    parts = [every, special, rng.uniform(*spans, 60_000), near - rng.uniform(0, 1e-3, 20_000)]
    parts.append(near - rng.uniform(0, 1e-12, 5_000))  # erf_inv's w >= 16 piece
    return np.concatenate(parts)


KERNELS64 = [
    ("log", xm.log_f64, jax.lax.log),
    ("log1p", xm.log1p_f64, jax.lax.log1p),
    ("erf_inv", xm.erf_inv_f64, jax.lax.erf_inv),
]


@pytest.mark.parametrize("name,ours,theirs", KERNELS64, ids=[k[0] for k in KERNELS64])
def test_f64_kernel_matches_xla(name, ours, theirs):
    x = _inputs64(name)
    with np.errstate(all="ignore"):
        got = ours(x)
    jax.config.update("jax_enable_x64", True)
    try:
        want = np.asarray(jax.jit(theirs)(x))
    finally:
        jax.config.update("jax_enable_x64", False)
    tiny = np.finfo(np.float64).tiny
    normal = ~((np.abs(x) < tiny) & (x != 0))  # subnormals are flushed by XLA (R7.2)
    normal &= ~((np.abs(want) < tiny) & (want != 0))
    normal &= ~((np.abs(got) < tiny) & (got != 0))
    _assert_same_bits(got, want, normal)
    for n in (0, 1, 3, _xla_blocked._BLOCK + 1):
        part = np.resize(x[np.isfinite(x)], n)
        with np.errstate(all="ignore"):
            full = ours(np.resize(x[np.isfinite(x)], max(n, 1)))
        _assert_same_bits(ours(part), full[:n])


def test_f32_kernels_accept_strided_views():
    x = np.linspace(-0.99, 0.99, 4001, dtype=np.float32)
    _assert_same_bits(xm.erf_inv_f32(x[::3]), xm.erf_inv_f32(x[::3].copy()))
    _assert_same_bits(xm.log1p_f32(x[::-1]), xm.log1p_f32(x)[::-1])


# ------------------------------------------------------------- the samplers (R6, R8)

SHAPES = [(0,), (), (1,), (3,), (5, 7), (2, 3, 5), (16385,), (2, 131073)]
SEEDS = [0, 2**31 - 1, 123456789]

SAMPLERS = {
    "normal": lambda r, k, s, dt: r.normal(k, s, dt),
    "uniform": lambda r, k, s, dt: r.uniform(k, s, dt),
    "uniform-range": lambda r, k, s, dt: r.uniform(k, s, dt, -0.3, 0.7),
    "truncated_normal": lambda r, k, s, dt: r.truncated_normal(k, 0.0, 1.0, s, dt),
}
CASES = [(name, dt) for dt in ("float32", "float64") for name in SAMPLERS]


@pytest.mark.parametrize("name,dtype", CASES, ids=[f"{n}-{d}" for n, d in CASES])
def test_samplers_match_jax(name, dtype):
    # Element i of every sampler here depends only on the key and i (counter i, R5.1), so
    # JAX's draw of the largest size, cut and reshaped, is JAX's draw of each shape (spec
    # R5.2's prefix consequence): one JAX compile per sampler instead of one per shape.
    fn = SAMPLERS[name]
    on = dtype == "float64"
    jax.config.update("jax_enable_x64", on)
    jaxlite.config.update("jax_enable_x64", on)
    try:
        n = max(math.prod(s) for s in SHAPES)
        for seed in SEEDS:
            want = np.asarray(fn(jax.random, jax.random.key(seed), (n,), dtype))
            for shape in SHAPES:
                got = fn(jaxlite.random, jaxlite.random.key(seed), shape, dtype)
                _assert_same_bits(got, want[: math.prod(shape)].reshape(shape))
    finally:
        jax.config.update("jax_enable_x64", False)
        jaxlite.config.update("jax_enable_x64", False)


def test_normal_one_million_matches_jax():
    k = 2024
    got = jaxlite.jit(lambda k: jaxlite.random.normal(k, (1_000_001,)))(jaxlite.random.key(k))
    want = jax.jit(lambda k: jax.random.normal(k, (1_000_001,)))(jax.random.key(k))
    _assert_same_bits(got, want)


def test_normal_many_keys_match_jax():
    keys = [jaxlite.random.fold_in(jaxlite.random.key(3), i) for i in range(24)]
    jkeys = [jax.random.fold_in(jax.random.key(3), i) for i in range(24)]
    for kl, kj in zip(keys, jkeys):
        _assert_same_bits(jaxlite.random.normal(kl, (257,)), jax.random.normal(kj, (257,)))
