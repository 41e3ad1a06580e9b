"""jax.random workloads (issue 12): raw throughput of the threefry-based samplers and the
per-call cost of key handling, side by side with JAX."""

from __future__ import annotations

from registry import workload


@workload(
    "random_uniform_1M",
    "jit(lambda k: random.uniform(k, (1_000_000,))) float32",
    target="<= 4.0x JAX",
)
def _uniform_1m(lib):
    f = lib.jax.jit(lambda k: lib.jax.random.uniform(k, (1_000_000,)))
    k = lib.jax.random.key(0)
    f(k)
    return lambda: f(k)


@workload("random_normal_1M", "jit(lambda k: random.normal(k, (1_000_000,))) float32")
def _normal_1m(lib):
    f = lib.jax.jit(lambda k: lib.jax.random.normal(k, (1_000_000,)))
    k = lib.jax.random.key(0)
    f(k)
    return lambda: f(k)


@workload("random_split", "random.split(key) called eagerly (key handling overhead)")
def _split(lib):
    k = lib.jax.random.key(0)
    split = lib.jax.random.split
    split(k)
    return lambda: split(k)
