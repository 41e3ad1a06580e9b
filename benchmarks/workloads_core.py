"""Core workloads: jit dispatch, first-call compile, elementwise chains, vmap (issues 2, 5)."""

from __future__ import annotations

import itertools

import numpy as np
from registry import hot, workload


@workload("jit_dispatch", "cached jit call of x*2+1 on float32[8]", target="<= 0.5x JAX (issue 17)")
def _jit_dispatch(lib):
    f = lib.jax.jit(lambda x: x * 2 + 1)
    x = lib.jnp.ones(8, lib.jnp.float32)
    f(x)
    return lambda: f(x)


@workload(
    "jit_dispatch_pytree",
    "cached jit call taking a model's parameters (3 layers of weight and bias, a list of "
    "pairs) and an input, returning new parameters: float32[2,2] leaves, 7 in, 7 out",
)
def _jit_dispatch_pytree(lib):
    jnp = lib.jnp
    params = [(jnp.ones((2, 2), jnp.float32), jnp.zeros(2, jnp.float32)) for _ in range(3)]
    x = jnp.ones((2, 2), jnp.float32)
    f = lib.jax.jit(lambda p, x: [(w + x, b) for w, b in p])
    f(params, x)
    return lambda: f(params, x)


@workload(
    "eager_small_ops",
    "eager (no jit) x + y, x * 2.0, jnp.sin(x), jnp.sum(x) and x > 0.5 on float32[8]: the "
    "per-operation cost of un-jitted code",
)
def _eager_small_ops(lib):
    jnp = lib.jnp
    x = jnp.arange(8, dtype=jnp.float32)
    y = jnp.ones(8, jnp.float32)

    def run():
        return x + y, x * 2.0, jnp.sin(x), jnp.sum(x), x > 0.5

    return run


def _thirty_ops(jnp, c):
    def f(x, y):
        a = jnp.sin(x) * c + y
        b = jnp.cos(a) - x * 0.5
        d = jnp.exp(-jnp.abs(b)) + jnp.tanh(y)
        e = jnp.maximum(d, a) * jnp.minimum(b, 1.0)
        g = jnp.sqrt(jnp.abs(e) + 1.0) / (1.0 + d * d)
        h = jnp.where(g > 0.5, g, -g) + jnp.log1p(jnp.abs(a))
        k = jnp.sum(h * x) + jnp.max(e)
        return h * k - jnp.mean(g), jnp.dot(a, b)

    return f


@workload(
    "first_call_30ops",
    "first call (trace + compile) of a fresh ~30-op function on float32[16]",
    target="<= 0.03x JAX (issue 17)",
    fresh=True,
)
def _first_call(lib):
    x = lib.jnp.ones(16, lib.jnp.float32)
    y = lib.jnp.full(16, 0.5, lib.jnp.float32)
    counter = [0]

    def run():
        counter[0] += 1
        # A new function object (and constant) each time: nothing can be cached.
        f = lib.jax.jit(_thirty_ops(lib.jnp, 1.0 + counter[0] * 1e-3))
        return f(x, y)

    return run


@workload(
    "elementwise_chain_4M",
    "chain of 10 elementwise ops on float32[4_000_000] (jit)",
    target="<= 0.8x JAX (issue 17)",
    numpy=True,
)
def _chain(lib):
    def f(x, np_=None):
        m = np_ if np_ is not None else lib.jnp
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
    g = lib.jax.jit(f)
    hot(lib, lambda: g(x))  # the native tier's region: Numba loops built in the background
    return lambda: g(x)


def _mlp_params(sizes=(256, 512, 512, 10)):
    rng = np.random.RandomState(0)
    return [
        (rng.randn(m, n).astype(np.float32) / np.sqrt(m), np.zeros(n, np.float32))
        for m, n in itertools.pairwise(sizes)
    ]


def _mlp_batch(n=1024, d=256):
    return np.random.RandomState(1).randn(n, d).astype(np.float32)


def _mlp_setup(lib, use_jit):
    params_np, xs_np = _mlp_params(), _mlp_batch()
    if lib.name == "numpy":

        def forward_batched(params, xs):
            h = xs
            for w, b in params[:-1]:
                h = np.maximum(h @ w + b, 0.0)
            w, b = params[-1]
            return h @ w + b

        return lambda: forward_batched(params_np, xs_np)
    jnp = lib.jnp

    def forward(params, x):  # one example: x is float32[256]
        h = x
        for w, b in params[:-1]:
            h = jnp.maximum(jnp.dot(h, w) + b, 0.0)
        w, b = params[-1]
        return jnp.dot(h, w) + b

    params = [(jnp.asarray(w), jnp.asarray(b)) for w, b in params_np]
    xs = jnp.asarray(xs_np)
    f = lib.jax.vmap(forward, in_axes=(None, 0))
    if use_jit:
        f = lib.jax.jit(f)
    f(params, xs)
    return lambda: f(params, xs)


@workload(
    "vmap_mlp_1024_jit",
    "jit(vmap(3-layer MLP forward)) over a batch of 1024 (256-512-512-10)",
    target="<= 1.2x hand-batched NumPy",
    numpy=True,
)
def _vmap_mlp_jit(lib):
    return _mlp_setup(lib, use_jit=True)


@workload(
    "vmap_mlp_1024_eager",
    "vmap(3-layer MLP forward) over a batch of 1024, no jit",
    target="<= 1.2x hand-batched NumPy",
    numpy=True,
)
def _vmap_mlp_eager(lib):
    return _mlp_setup(lib, use_jit=False)
