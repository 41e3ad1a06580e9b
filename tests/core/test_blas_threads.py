"""Adaptive BLAS threading of compiled functions with large matrix products."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite._src.compile import blas_threads as bt

pytestmark = pytest.mark.jaxlite_only


def _drive(choice, cost_of, calls):
    """Run ``calls`` calls with ``cost_of(thread_count)`` seconds each; the picks made."""
    picks = []
    for _ in range(calls):
        i = choice.pick()
        picks.append(choice.choices[i])
        choice.record(i, cost_of(choice.choices[i]))
    return picks


def test_thread_choice_settles_on_the_faster_setting_and_backs_off():
    choice = bt.ThreadChoice((2, 1), explore=4, max_explore=64)
    picks = _drive(choice, {2: 0.010, 1: 0.017}.get, 400)
    assert picks[:2] == [2, 1]  # each setting measured once first
    assert picks.count(1) < 20  # the slower one is only re-tried, ever more rarely
    assert choice.explore == 64
    assert picks[-1] == 2


def test_thread_choice_follows_a_change_of_load():
    choice = bt.ThreadChoice((2, 1), explore=4, max_explore=16)
    busy = {"on": False}

    def cost(n):
        if busy["on"]:
            return 0.200 if n == 2 else 0.019  # a busy core stalls the 2-thread split
        return 0.010 if n == 2 else 0.017

    _drive(choice, cost, 50)
    assert choice.choices[choice.best()] == 2
    busy["on"] = True
    picks = _drive(choice, cost, 100)
    assert choice.choices[choice.best()] == 1
    assert picks[-50:].count(2) <= 4
    busy["on"] = False
    _drive(choice, cost, 100)
    assert choice.choices[choice.best()] == 2


def test_thread_choice_ignores_a_preempted_sample():
    """One slow sample (preemption) does not flip the choice: the minimum of the last few
    calls judges each setting."""
    choice = bt.ThreadChoice((2, 1), explore=1000)
    choice.record(choice.pick(), 0.010)
    choice.record(choice.pick(), 0.017)
    for t in (0.010, 0.500, 0.010):
        i = choice.pick()
        assert choice.choices[i] == 2
        choice.record(i, t)
    assert choice.choices[choice.best()] == 2


class _FakeBlas:
    def __init__(self, n):
        self.n = n
        self.history = []

    def set(self, n):
        self.history.append(n)
        self.n = n

    def get(self):
        return self.n


def test_adaptive_wrapper_restores_the_thread_count_and_passes_results():
    blas = _FakeBlas(2)
    seen = []

    def fn(a, b):
        seen.append(blas.n)
        return [a + b]

    wrapped = bt.AdaptiveBlasThreads(fn, blas.set, blas.get)
    for k in range(6):
        assert wrapped(k, 1) == [k + 1]
        assert blas.n == 2
    assert set(seen) == {1, 2}


def test_adaptive_wrapper_restores_the_thread_count_when_the_function_raises():
    blas = _FakeBlas(2)

    def fn():
        raise ValueError("boom")

    wrapped = bt.AdaptiveBlasThreads(fn, blas.set, blas.get)
    for _ in range(3):
        with pytest.raises(ValueError, match="boom"):
            wrapped()
        assert blas.n == 2


def test_heavy_products_are_detected():
    big = jax.make_jaxpr(lambda a, b: a @ b)(jnp.ones((256, 256)), jnp.ones((256, 256)))
    small = jax.make_jaxpr(lambda a, b: a @ b)(jnp.ones((8, 8)), jnp.ones((8, 8)))
    in_scan = jax.make_jaxpr(
        lambda a, b: jax.lax.scan(lambda c, _: (c @ b, None), a, None, length=2)[0]
    )(jnp.ones((256, 256)), jnp.ones((256, 256)))
    assert bt.has_heavy_product(big.jaxpr)
    assert not bt.has_heavy_product(small.jaxpr)
    assert bt.has_heavy_product(in_scan.jaxpr)


@pytest.mark.skipif(bt._openblas is None, reason="NumPy is not linked to OpenBLAS here")
def test_jitted_products_are_identical_whatever_the_thread_count():
    rng = np.random.RandomState(0)
    a = jnp.asarray(rng.randn(256, 300).astype(np.float32))
    b = jnp.asarray(rng.randn(300, 200).astype(np.float32))
    f = jax.jit(lambda a, b: jnp.tanh(a @ b))
    outs = [np.asarray(f(a, b)) for _ in range(6)]  # both settings are measured
    for o in outs[1:]:
        np.testing.assert_array_equal(o, outs[0])
    np.testing.assert_allclose(outs[0], np.tanh(np.asarray(a) @ np.asarray(b)), rtol=1e-5)
    setter, getter = bt._openblas
    before = getter()
    f(a, b)
    assert getter() == before
