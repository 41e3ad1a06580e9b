"""What a callback's argument is and does (spec 1.8, A7), on every path that builds it.

Callbacks receive jax Arrays. In jaxlite they are ``CallbackArray``s (issue 17): Arrays
whose buffer is a read-only view, so that ``np.asarray(x)`` is NumPy's own
``ndarray.__array__`` of that view. These tests pin what that must not change: NumPy's
``dtype``/``copy`` semantics of ``__array__`` (a conversion, never a reinterpretation of the
bytes), the argument staying read-only for good (also when it is the previous step's
result, a buffer the engine owns), and the argument working as an ordinary Array inside
the callback (jnp functions, ``jit``, ``vmap``), never taken for a sharded one.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

F32_4 = jax.ShapeDtypeStruct((4,), np.float32)
KINDS = ["io", "pure", "debug"]


def _paths(kind, host):
    """``host(x)`` called through a callback of ``kind`` on every path: eager, jit, and a
    jitted scan whose carry goes through the callback (the inlined call site), so that the
    argument of steps 2 and 3 is the buffer the callback returned before."""

    def once(x):
        if kind == "io":
            return io_callback(host, F32_4, x)
        if kind == "pure":
            return jax.pure_callback(host, F32_4, x)
        jax.debug.callback(host, x)
        return x + 1

    def scan(x):
        return jax.lax.scan(lambda c, _: (once(c), None), x, None, length=3)[0]

    return {"eager": once, "jit": jax.jit(once), "jit_scan": jax.jit(scan)}


def _checked(seen):
    def host(x):
        seen.append(x)
        assert isinstance(x, jax.Array)
        a = np.asarray(x)
        assert type(a) is np.ndarray and a.dtype == np.float32 and a.shape == (4,)
        # NumPy's conversions keep their meaning: a value conversion, never the float32
        # bytes read as float64 (two elements of garbage).
        f64 = np.asarray(x, dtype=np.float64)
        assert f64.dtype == np.float64 and f64.shape == (4,)
        np.testing.assert_array_equal(f64, a.astype(np.float64))
        i32 = np.array(x, dtype=np.int32)
        np.testing.assert_array_equal(i32, a.astype(np.int32))
        c = np.array(x)  # a copy, writeable, and not the argument's memory
        assert c.flags.writeable and not np.shares_memory(c, a)
        c += 100
        np.testing.assert_array_equal(np.asarray(x), a)
        with pytest.raises(ValueError):
            np.asarray(x, dtype=np.float64, copy=False)  # NumPy 2: a copy would be needed
        # Read-only for good: neither the view nor anything reached from it can write.
        with pytest.raises(ValueError):
            a.setflags(write=True)
        with pytest.raises(ValueError):
            a[0] = 7
        return a + 1

    return host


@pytest.mark.parametrize("path", ["eager", "jit", "jit_scan"])
@pytest.mark.parametrize("kind", KINDS)
def test_numpy_conversions_of_the_argument(kind, path):
    seen = []
    fn = _paths(kind, _checked(seen))[path]
    x = jnp.arange(4, dtype=jnp.float32) + 0.5
    out = fn(x)
    jax.effects_barrier()
    assert seen
    steps = 3 if path == "jit_scan" else 1
    np.testing.assert_array_equal(np.asarray(out), np.arange(4, dtype=np.float32) + 0.5 + steps)
    # Every argument kept by the callback still holds its own step's value.
    for i, kept in enumerate(seen):
        np.testing.assert_array_equal(np.asarray(kept), np.arange(4, dtype=np.float32) + 0.5 + i)


@pytest.mark.parametrize("path", ["eager", "jit", "jit_scan"])
@pytest.mark.parametrize("kind", ["io", "pure"])
def test_argument_used_as_an_array_inside_the_callback(kind, path):
    """jnp functions, a jitted function and vmap take the argument like any Array (it is
    not routed as a sharded array) and give the right values."""
    double = jax.jit(lambda v: v * 2)

    def host(x):
        y = jnp.sin(x) * 0 + x  # eager primitives on the argument
        z = double(x)  # a jitted function called with it
        w = jax.vmap(lambda e: e + 1)(x)
        r = np.asarray(y) + np.asarray(z) - np.asarray(w) + 1
        assert type(r) is np.ndarray
        return r  # == x + x * 2 - (x + 1) + 1 == 2 * x

    fn = _paths(kind, host)[path]
    x = jnp.arange(4, dtype=jnp.float32)
    out = np.asarray(fn(x))
    steps = 3 if path == "jit_scan" else 1
    np.testing.assert_allclose(out, np.arange(4, dtype=np.float32) * 2**steps)


@pytest.mark.parametrize("kind", ["io", "pure"])
def test_returning_the_argument_itself(kind):
    """An identity callback: the argument object comes back as the result, every step."""
    fn = _paths(kind, lambda x: x)["jit_scan"]
    x = jnp.arange(4, dtype=jnp.float32)
    out = fn(x)
    np.testing.assert_array_equal(np.asarray(out), np.arange(4, dtype=np.float32))
    assert not np.asarray(out).flags.writeable


def test_debug_callback_receives_key_data_under_jit_and_keys_eagerly():
    """PRNG keys reach a compiled debug callback as their ``uint32[..., 2]`` data (JAX's
    jit lowers them to it; jaxlite handed keys over, so debug.print showed
    ``Array((), dtype=key<fry>) overlaying: ...`` where JAX prints ``[0 0]``); an eager
    call receives the key, whose NumPy conversion raises as in JAX."""
    seen, errors = [], []

    def host(k):
        try:
            seen.append(np.asarray(k))
        except TypeError as e:
            errors.append(str(e))

    def f(k):
        jax.debug.callback(host, k)
        return k

    keys = jax.random.split(jax.random.key(0), 2)
    jax.jit(f)(keys)
    jax.jit(jax.vmap(f))(keys)
    jax.effects_barrier()
    data = np.asarray(jax.random.key_data(keys))
    assert not errors and len(seen) == 3
    assert seen[0].dtype == np.uint32 and seen[0].shape == (2, 2)
    np.testing.assert_array_equal(seen[0], data)
    # Unordered debug callbacks under vmap: JAX may run the elements in any order.
    got = sorted(tuple(s.tolist()) for s in seen[1:])
    assert got == sorted(tuple(r) for r in data.tolist())

    f(keys)  # eager: the key itself
    jax.effects_barrier()
    assert errors and "cannot be converted to a NumPy array" in errors[0]


@pytest.mark.parametrize("path", ["eager", "jit", "jit_scan"])
@pytest.mark.parametrize("kind", ["io", "pure"])
def test_reshaping_the_argument_in_place_reaches_nothing_else(kind, path):
    """``np.asarray(x).shape = ...`` (NumPy allows it on a read-only view) changes only what
    the callback was given: a loop-invariant argument keeps its shape at the next call, and
    the caller's array keeps its own."""
    shapes = []

    def host(x):
        shapes.append(np.asarray(x).shape)
        a = np.asarray(x)
        a.shape = (2, 2)
        return np.ones(4, np.float32)

    c = jnp.arange(4, dtype=jnp.float32)

    def once(s):
        if kind == "io":
            return s + io_callback(host, F32_4, c)
        return s + jax.pure_callback(host, F32_4, c)

    if path == "eager":
        out = once(jnp.zeros(4, jnp.float32))
    elif path == "jit":
        out = jax.jit(once)(jnp.zeros(4, jnp.float32))
    else:
        out = jax.jit(lambda s: jax.lax.scan(lambda t, _: (once(t), None), s, None, length=3)[0])(
            jnp.zeros(4, jnp.float32)
        )
    jax.effects_barrier()
    assert shapes and all(s == (4,) for s in shapes)
    assert np.asarray(c).shape == (4,) and c.shape == (4,)
    np.testing.assert_array_equal(np.asarray(out), np.full(4, len(shapes), np.float32))
