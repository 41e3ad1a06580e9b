"""``jax.clear_caches``: every jitted function traces again on its next call (its Python
side effects run again), with the same results; loop bodies too."""

import numpy as np

import jaxlite as jax
import jaxlite.numpy as jnp


def test_jitted_functions_trace_again_after_clear_caches():
    traces = []

    @jax.jit
    def f(x):
        traces.append("f")
        return x * 2.0 + 1.0

    @jax.jit
    def g(x, y):
        traces.append("g")
        return jax.lax.scan(lambda c, v: (c + v, c), x, y)

    x, y = jnp.float32(1.5), jnp.arange(4.0)
    first = (f(x), g(x, y))
    f(x), g(x, y)  # cache hits (f's one-argument identity hit included)
    assert traces == ["f", "g"]
    jax.clear_caches()
    again = (f(x), g(x, y))
    assert traces == ["f", "g", "f", "g"]
    np.testing.assert_array_equal(np.asarray(first[0]), np.asarray(again[0]))
    for a, b in zip(jax.tree_util.tree_leaves(first[1]), jax.tree_util.tree_leaves(again[1])):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    f(x)
    assert traces == ["f", "g", "f", "g"]  # cached again


def test_clear_caches_returns_none_and_keeps_the_settings():
    before = jax.config.read("jax_enable_x64")
    assert jax.clear_caches() is None
    assert jax.config.read("jax_enable_x64") == before
