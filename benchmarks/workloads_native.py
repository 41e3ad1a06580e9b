"""Native-tier workloads (issue 18): loops and fused chains once hot, side by side with JAX.

jaxlite runs in its default ``jaxlite_native="auto"`` mode: each setup calls the function
until the background Numba compile has finished and been swapped in (``registry.hot``), so the
timed calls measure the native tier, as a long-running program would see it.
"""

from __future__ import annotations

import numpy as np
from registry import hot, workload

SCAN_STEPS = 10_000
RK4_STEPS = 1_000
RNN_STEPS = 200


@workload(
    "native_scan_affine_10k",
    "hot jit(lax.scan) of 10000 steps of c = c*0.99 + 0.01 on float32[4], native tier",
    target="<= 5x JAX",
    per=SCAN_STEPS,
    unit="step",
)
def _scan_affine(lib):
    jnp, lax = lib.jnp, lib.lax
    f = lib.jax.jit(
        lambda c: lax.scan(lambda c, _: (c * 0.99 + 0.01, None), c, None, length=SCAN_STEPS)[0]
    )
    c0 = jnp.zeros(4, jnp.float32)
    out = hot(lib, lambda: f(c0))
    if abs(float(out[0]) - 1.0) > 1e-3:
        raise AssertionError(f"{lib.name}: wrong scan result {out}")
    return lambda: f(c0)


def _lorenz(jnp, s):
    x, y, z = s[0], s[1], s[2]
    return jnp.stack([10.0 * (y - x), x * (28.0 - z) - y, x * y - (8.0 / 3.0) * z])


@workload(
    "native_rk4_lorenz",
    "hot jit(fori_loop) RK4 integration of the Lorenz system "
    "(float32[3], dt=1e-3, 1000 steps), native tier",
    target="<= 5x JAX",
    per=RK4_STEPS,
    unit="step",
)
def _rk4(lib):
    jnp, lax = lib.jnp, lib.lax
    dt = 1e-3

    def step(i, s):
        k1 = _lorenz(jnp, s)
        k2 = _lorenz(jnp, s + 0.5 * dt * k1)
        k3 = _lorenz(jnp, s + 0.5 * dt * k2)
        k4 = _lorenz(jnp, s + dt * k3)
        return s + (dt / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4)

    f = lib.jax.jit(lambda s: lax.fori_loop(0, RK4_STEPS, step, s))
    s0 = jnp.asarray(np.array([1.0, 1.0, 1.0], np.float32))
    out = hot(lib, lambda: f(s0))
    if not np.all(np.isfinite(np.asarray(out))):
        raise AssertionError(f"{lib.name}: RK4 diverged {out}")
    return lambda: f(s0)


@workload(
    "native_rnn_scan",
    "hot jit(lax.scan) of an Elman RNN forward pass (hidden 64, "
    "input 32, 200 steps, float32), native tier",
    target="<= 5x JAX",
    per=RNN_STEPS,
    unit="step",
)
def _rnn(lib):
    jnp, lax = lib.jnp, lib.lax
    rng = np.random.RandomState(0)
    w = jnp.asarray((rng.randn(64, 64) / 8).astype(np.float32))
    u = jnp.asarray((rng.randn(32, 64) / 6).astype(np.float32))
    b = jnp.asarray(np.zeros(64, np.float32))
    xs = jnp.asarray(rng.randn(RNN_STEPS, 32).astype(np.float32))

    def cell(h, x):
        h = jnp.tanh(jnp.dot(h, w) + jnp.dot(x, u) + b)
        return h, h

    f = lib.jax.jit(lambda h, xs: lax.scan(cell, h, xs))
    h0 = jnp.zeros(64, jnp.float32)
    hot(lib, lambda: f(h0, xs))
    return lambda: f(h0, xs)


@workload(
    "native_elementwise_chain_4M",
    "hot jit of a chain of 10 elementwise ops on "
    "float32[4_000_000], NumPy on one chunk per core (native tier)",
    target="<= 0.5x JAX",
    numpy=True,
)
def _chain(lib):
    def f(x, m):
        y = m.sin(x)
        y = y * 2.0
        y = y + 1.0
        y = m.exp(-y)
        y = y * x
        y = m.tanh(y)
        y = y - 0.5
        y = m.abs(y)
        y = m.sqrt(y)
        return y + x

    x0 = np.random.RandomState(0).rand(4_000_000).astype(np.float32)
    if lib.name == "numpy":
        return lambda: f(x0, np)
    x = lib.jnp.asarray(x0)
    g = lib.jax.jit(lambda x: f(x, lib.jnp))
    hot(lib, lambda: g(x))
    return lambda: g(x)


@workload(
    "native_random_uniform_1M",
    "hot jit of random.uniform(key, (1_000_000,)) (threefry "
    "and the bits-to-float chain as one lane-fused parallel native loop)",
    target="<= 1.0x JAX",
)
def _uniform(lib):
    if lib.name == "jaxlite":
        import jaxlite.random as random
    else:
        import jax.random as random
    key = random.PRNGKey(0)
    f = lib.jax.jit(lambda k: random.uniform(k, (1_000_000,)))
    hot(lib, lambda: f(key))
    return lambda: f(key)


@workload(
    "native_random_normal_1M",
    "hot jit of random.normal(key, (1_000_000,)) float32 (threefry, bits to floats and XLA's "
    "erf_inv as one lane-fused parallel native loop, bit-exact with JAX)",
    target="<= 2.0x JAX",
)
def _normal(lib):
    if lib.name == "jaxlite":
        import jaxlite.random as random
    else:
        import jax.random as random
    key = random.PRNGKey(0)
    f = lib.jax.jit(lambda k: random.normal(k, (1_000_000,)))
    hot(lib, lambda: f(key))
    return lambda: f(key)
