"""The threefry2x32 block function (spec/random.md R4): known answers, the primitive under
jit and vmap, and its place in jaxprs."""

import os

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import random

pytestmark = pytest.mark.jaxlite_only  # the primitive is jaxlite's internal API

# In oracle mode jaxlite is JAX, which has no such module; every test here is skipped there.
if os.environ.get("JAXLITE_ORACLE", "") != "jax":
    from jaxlite._src.random.threefry import threefry2x32, threefry2x32_kernel

# R4.2: (key words, counter words) -> output words.
KNOWN = [
    ((0, 0), (0, 0), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
]


def _u32(*v):
    return [np.uint32(x) for x in v]


@pytest.mark.parametrize("key,count,expected", KNOWN)
def test_known_answers_kernel(key, count, expected):
    y0, y1 = threefry2x32_kernel(*_u32(*key, *count))
    assert (int(y0), int(y1)) == expected


@pytest.mark.parametrize("key,count,expected", KNOWN)
def test_known_answers_primitive_eager_and_jit(key, count, expected):
    args = [jnp.asarray(x) for x in _u32(*key, *count)]
    eager = threefry2x32(*args)
    jitted = jax.jit(threefry2x32)(*args)
    for out in (eager, jitted):
        assert (int(out[0]), int(out[1])) == expected
        assert out[0].dtype == jnp.uint32


def test_kernel_chunks_agree_with_one_pass(monkeypatch):
    from jaxlite._src.random import threefry as tf

    lo = np.arange(200_003, dtype=np.uint32)
    ref = tf.threefry2x32_kernel(np.uint32(7), np.uint32(9), np.uint32(0), lo)
    monkeypatch.setattr(tf, "_CHUNK", 4096)
    small = tf.threefry2x32_kernel(np.uint32(7), np.uint32(9), np.uint32(0), lo)
    np.testing.assert_array_equal(ref[0], small[0])
    np.testing.assert_array_equal(ref[1], small[1])
    # Split across threads (uneven last range) and on one thread: the same bits.
    monkeypatch.setattr(tf, "_PARALLEL_MIN", 1000)
    monkeypatch.setattr(tf, "_THREADS", 3)
    threaded = tf.threefry2x32_kernel(np.uint32(7), np.uint32(9), np.uint32(0), lo)
    np.testing.assert_array_equal(ref[0], threaded[0])
    np.testing.assert_array_equal(ref[1], threaded[1])
    # Array-valued key words (one per lane) give the same as scalar ones.
    k = np.full(lo.shape, 7, np.uint32)
    arr = tf.threefry2x32_kernel(k, np.uint32(9), np.uint32(0), lo)
    np.testing.assert_array_equal(ref[0], arr[0])


def test_small_inputs_python_path_agrees_with_numpy_pass(monkeypatch):
    """Up to ``_SMALL`` lanes are hashed with Python integers: the same bits, shapes and
    dtypes as the NumPy pass, for every way the four operands broadcast (scalars, 1-element
    and full arrays, zero lanes), over random words (carries and rotations at every bit)."""
    from jaxlite._src.random import threefry as tf

    rng = np.random.default_rng(21)
    cases = 0
    for n in range(tf._SMALL + 1):
        for _ in range(40):
            shapes = [((n,), (1,), ())[rng.integers(3)] if n else (0,) for _ in range(4)]
            if n and all(s != (n,) for s in shapes):
                shapes[int(rng.integers(4))] = (n,)
            args = [
                rng.integers(0, 2**32, size=s, dtype=np.uint64).astype(np.uint32) for s in shapes
            ]
            small = tf.threefry2x32_kernel(*args)
            with monkeypatch.context() as m:
                m.setattr(tf, "_SMALL", -1)
                full = tf.threefry2x32_kernel(*args)
            for a, b in zip(small, full):
                assert a.shape == b.shape and a.dtype == b.dtype == np.uint32
                np.testing.assert_array_equal(a, b)
            cases += 1
    assert cases == 40 * (tf._SMALL + 1)
    # The Python path is the one taken for a key split's few lanes.
    assert tf._SMALL >= 4


def test_broadcasting_and_vmap_match_a_loop():
    k0 = jnp.asarray(np.array([1, 2, 3], np.uint32))
    k1 = jnp.asarray(np.array([4, 5, 6], np.uint32))
    cnt = jnp.arange(5, dtype=jnp.uint32)
    zero = jnp.zeros((), jnp.uint32)
    batched = jax.vmap(lambda a, b: threefry2x32(a, b, zero, cnt))(k0, k1)
    for i in range(3):
        y0, y1 = threefry2x32(k0[i], k1[i], zero, cnt)
        np.testing.assert_array_equal(np.asarray(batched[0][i]), np.asarray(y0))
        np.testing.assert_array_equal(np.asarray(batched[1][i]), np.asarray(y1))


def test_rejects_non_uint32():
    with pytest.raises(TypeError, match="threefry_2x32 requires uint32 arguments"):
        threefry2x32(jnp.int32(0), jnp.uint32(0), jnp.uint32(0), jnp.uint32(0))


def test_one_primitive_in_split_jaxpr():
    text = str(jax.make_jaxpr(lambda k: random.split(k, 3))(random.key(0)))
    assert text.count("= threefry2x32 ") == 1
    assert "random_wrap" in text and "random_unwrap" in text
    assert "key<fry>[]" in text


def test_not_differentiable_but_samplers_are_in_their_parameters():
    # The key path has zero tangents; the parameter path carries the derivative.
    k = random.key(0)
    g = jax.grad(lambda m: random.uniform(k, minval=m, maxval=2.0))(0.5)
    u = float(random.uniform(k))
    assert abs(float(g) - (1 - u)) < 1e-6
