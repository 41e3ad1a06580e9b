"""Spec callbacks.md section I (I1-I6): ordering, asynchrony and effects_barrier.

Ordered effects keep program order within a computation and across dispatches of one thread,
with a separate chain per effect kind; unordered effects are only guaranteed to have happened
by effects_barrier(). I4 (unordered io in a multi-device jit) needs several devices and is
not tested here; its single-device content is covered by I1.
"""

import threading
import time

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback


def test_I1_unordered_effects_done_by_barrier(capsys):
    """I1: every unordered io/debug effect of earlier dispatches has run at effects_barrier."""
    seen = []

    @jax.jit
    def f(x):
        for k in range(3):
            io_callback(lambda v, k=k: seen.append((k, int(v))), None, x)
        jax.debug.print("x={}", x)
        return x

    for i in range(4):
        f(i)
    jax.effects_barrier()
    assert sorted(seen) == sorted((k, i) for k in range(3) for i in range(4))
    assert sorted(capsys.readouterr().out.splitlines()) == [f"x={i}" for i in range(4)]


@pytest.mark.parametrize("kind", ["print", "io"])
def test_I2_ordered_calls_in_program_order(capsys, kind):
    """I2: ordered callbacks in one computation run in program order."""
    seen = []

    @jax.jit
    def f(x, y):
        if kind == "print":
            jax.debug.print("x: {}", x, ordered=True)
            jax.debug.print("y: {}", y, ordered=True)
        else:
            io_callback(lambda v: seen.append(("x", int(v))), None, x, ordered=True)
            io_callback(lambda v: seen.append(("y", int(v))), None, y, ordered=True)
        return x + y

    f(1, 2)
    jax.effects_barrier()
    if kind == "print":
        assert capsys.readouterr().out == "x: 1\ny: 2\n"
    else:
        assert seen == [("x", 1), ("y", 2)]


def test_I2_ordered_prints_interleave_exactly_in_fori_loop(capsys):
    """I2: two ordered prints per iteration of a fori_loop keep the exact interleaving."""

    @jax.jit
    def f(x):
        def body(i, v):
            jax.debug.print("i: {}", i, ordered=True)
            jax.debug.print("x: {}", v, ordered=True)
            return v + 1

        return lax.fori_loop(0, 5, body, x)

    f(2)
    jax.effects_barrier()
    expected = "".join(f"i: {i}\nx: {i + 2}\n" for i in range(5))
    assert capsys.readouterr().out == expected


def test_I2_ordered_io_in_scan_in_iteration_order():
    """I2: ordered io_callbacks in a scan run in iteration order, after earlier and before
    later ordered calls of the same computation."""
    seen = []

    def record(tag):
        return lambda v: seen.append((tag, int(v)))

    @jax.jit
    def f(xs):
        io_callback(record("before"), None, xs[0], ordered=True)

        def body(c, x):
            io_callback(record("body"), None, x, ordered=True)
            return c + x, None

        total = lax.scan(body, 0, xs)[0]
        io_callback(record("after"), None, total, ordered=True)
        return total

    assert int(f(jnp.arange(4))) == 6
    jax.effects_barrier()
    assert seen == [("before", 0)] + [("body", i) for i in range(4)] + [("after", 6)]


def test_I3_ordered_io_keeps_order_across_dispatches():
    """I3: ordered io_callbacks dispatched in several computations run in dispatch order,
    even when the callbacks sleep different amounts."""
    seen = []

    def make(tag, delay):
        def cb(x):
            time.sleep(delay)
            seen.append((tag, int(x)))

        return jax.jit(lambda x: io_callback(cb, None, x, ordered=True))

    fns = [make(0, 0.02), make(1, 0.0), make(2, 0.01)]
    for i in range(6):
        fns[i % 3](i)
    jax.effects_barrier()
    assert seen == [(i % 3, i) for i in range(6)]


def test_I3_ordered_io_order_spans_eager_and_jit_calls():
    """I3: the order also holds between eager and jitted ordered io_callbacks."""
    seen = []

    def cb(x):
        seen.append(int(x))

    g = jax.jit(lambda x: io_callback(cb, None, x * 10, ordered=True))
    for i in range(3):
        io_callback(cb, None, jnp.int32(i), ordered=True)
        g(i)
    jax.effects_barrier()
    assert seen == [0, 0, 1, 10, 2, 20]


def test_I5_ordering_is_per_effect_kind():
    """I5: ordered io and ordered debug callbacks have separate chains: each kind is in
    program order, the relative order between kinds is not specified."""
    log = []

    @jax.jit
    def f(x):
        for k in range(3):
            io_callback(lambda v, k=k: log.append(("io", k)), None, x, ordered=True)
            jax.debug.callback(lambda v, k=k: log.append(("debug", k)), x, ordered=True)
        return x

    f(1)
    f(2)
    jax.effects_barrier()
    assert [k for kind, k in log if kind == "io"] == [0, 1, 2] * 2
    assert [k for kind, k in log if kind == "debug"] == [0, 1, 2] * 2


def test_I5_ordering_is_per_thread():
    """I5: each Python thread's ordered io_callbacks keep that thread's dispatch order."""
    results = {0: [], 1: []}

    def worker(t):
        g = jax.jit(
            lambda x: io_callback(lambda v: results[t].append(int(v)), None, x, ordered=True)
        )
        for i in range(15):
            g(i)
        jax.effects_barrier()

    threads = [threading.Thread(target=worker, args=(t,)) for t in results]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    jax.effects_barrier()
    assert results == {0: list(range(15)), 1: list(range(15))}


def test_I6_unordered_prints_in_scan_in_program_order(capsys):
    """I6: on CPU, unordered prints of one computation come out in program order."""

    @jax.jit
    def f(xs):
        def body(carry, x):
            jax.debug.print("carry: {}, x: {}", carry, x)
            return carry + 1, None

        return lax.scan(body, 2, xs)[0]

    f(jnp.arange(2))
    jax.effects_barrier()
    assert capsys.readouterr().out == "carry: 2, x: 0\ncarry: 3, x: 1\n"


def test_I6_unordered_io_in_program_order():
    """I6: unordered io_callbacks in one computation run in program order on CPU."""
    seen = []

    @jax.jit
    def f(x):
        for k in range(4):
            io_callback(lambda v, k=k: seen.append(k), None, x)
        return x

    f(np.float32(1.0))
    jax.effects_barrier()
    assert seen == [0, 1, 2, 3]
