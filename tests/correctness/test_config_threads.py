"""Issue 15 item 2: config context managers are thread-local and always restored."""

import threading

import numpy as np

import jaxlite as jax
import jaxlite.numpy as jnp

enable_x64 = jax.enable_x64


def test_eight_threads_with_overlapping_x64_and_disable_jit_blocks():
    n_threads, rounds = 8, 30
    barrier = threading.Barrier(n_threads)
    errors = []

    @jax.jit
    def f(x):
        return x * 2 + 1

    def worker(tid):
        try:
            for r in range(rounds):
                x64 = (tid + r) % 2 == 0
                nojit = (tid + r) % 3 == 0
                barrier.wait()  # every thread enters its blocks at the same moment
                with enable_x64(x64):
                    with jax.disable_jit(nojit):
                        a = jnp.arange(3.0)
                        y = f(a)
                        z = jnp.asarray(1) + 1
                        assert jax.config.jax_enable_x64 is x64
                        assert jax.config.jax_disable_jit is nojit
                barrier.wait()  # ... and leaves them while the others are still inside theirs
                want = np.float64 if x64 else np.float32
                assert a.dtype == want, (a.dtype, want)
                assert y.dtype == want, (y.dtype, want)
                assert z.dtype == (np.int64 if x64 else np.int32)
                np.testing.assert_array_equal(np.asarray(y), [1.0, 3.0, 5.0])
                assert jax.config.jax_enable_x64 is False
                assert jax.config.jax_disable_jit is False
        except BaseException as e:  # reported by the main thread
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]
    assert jax.config.jax_enable_x64 is False
    assert jax.config.jax_disable_jit is False
    assert jnp.arange(2.0).dtype == np.float32


def test_block_in_one_thread_is_invisible_to_another():
    inside, release = threading.Event(), threading.Event()
    seen = {}

    def holder():
        with enable_x64():
            inside.set()
            release.wait(10)

    t = threading.Thread(target=holder)
    t.start()
    try:
        assert inside.wait(10)
        seen["dtype"] = jnp.ones(2).dtype
        seen["flag"] = jax.config.jax_enable_x64
    finally:
        release.set()
        t.join()
    assert seen == {"dtype": np.float32, "flag": False}


def test_context_restored_after_an_exception():
    try:
        with enable_x64():
            with jax.disable_jit():
                raise RuntimeError("boom")
    except RuntimeError:
        pass
    assert jax.config.jax_enable_x64 is False
    assert jax.config.jax_disable_jit is False
    assert jnp.ones(1).dtype == np.float32


def test_jit_cache_separates_x64_settings():
    f = jax.jit(lambda x: x + jnp.asarray(1.0))
    assert f(1).dtype == np.float32
    with enable_x64():
        assert f(1).dtype == np.float64
    assert f(1).dtype == np.float32
