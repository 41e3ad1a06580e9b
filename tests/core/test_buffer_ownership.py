"""Arrays are immutable (issue 15 item 3): who owns a buffer, and when jaxlite copies.

* memory jaxlite does not own (a read-only view of writeable memory, a frozen view, a
  broadcast view) is copied on the way in, so later writes to it never change a result;
* a callback cannot write into its arguments, nor re-enable writing on them;
* a callback's results stay as returned even if the callback keeps, and later mutates,
  what it returned (or a buffer its result is a view of);
* ``np.asarray(result).setflags(write=True)`` raises, as in JAX.

These are JAX behaviours: the file also runs in oracle mode
(``JAXLITE_ORACLE=jax python -m pytest tests/core/test_buffer_ownership.py``), except the
tests marked ``jaxlite_only`` that pin jaxlite's no-copy fast paths.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

F32_4 = jax.ShapeDtypeStruct((4,), np.float32)


def _frozen_view(buf):
    v = buf.view()
    v.flags.writeable = False
    return v


# Read-only views of writeable memory, the way users make them.
VIEWS = {
    "frozen_view": lambda buf: _frozen_view(buf),
    "broadcast_to": lambda buf: np.broadcast_to(buf, buf.shape),
    "frozen_slice": lambda buf: _frozen_view(buf[:]),
}

# Functions that could hand back a view of their (read-only) input.
FUNCS = {
    "jit_identity": jax.jit(lambda x: x),
    "jit_reshape": jax.jit(lambda x: x.reshape(2, 3)),
    "ravel": jnp.ravel,
    "transpose": jnp.transpose,
    "flip": jnp.flip,
    "expand_dims": lambda x: jnp.expand_dims(x, 0),
    "squeeze": lambda x: jnp.squeeze(jnp.expand_dims(x, 0)),
    "moveaxis": lambda x: jnp.moveaxis(x.reshape(2, 3), 0, 1),
    "broadcast_to": lambda x: jnp.broadcast_to(x, (6,)),
    "lax_reshape": lambda x: jax.lax.reshape(x, (2, 3)),
    "real": jnp.real,
    "copy": jnp.copy,
    "asarray": jnp.asarray,
    "array": jnp.array,
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_read_only_view_of_writeable_memory_is_not_aliased(name, view):
    buf = np.arange(6, dtype=np.float32)
    out = FUNCS[name](VIEWS[view](buf))
    want = np.asarray(out).copy()
    buf[:] = -1.0  # the caller writes the memory it still owns
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.jaxlite_only  # JAX's device_put may alias an aligned read-only array (compat.md)
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_device_put_of_a_read_only_view_is_not_aliased(view):
    buf = np.arange(6, dtype=np.float32)
    out = jax.device_put(VIEWS[view](buf))
    buf[:] = -1.0
    np.testing.assert_array_equal(np.asarray(out), np.arange(6, dtype=np.float32))


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_caller_read_only_array_later_made_writeable_is_not_aliased(name):
    """A read-only array the caller owns can be made writeable again by the caller."""
    buf = np.arange(6, dtype=np.float32)
    buf.flags.writeable = False
    out = FUNCS[name](buf)
    want = np.asarray(out).copy()
    buf.flags.writeable = True
    buf[:] = -1.0
    np.testing.assert_array_equal(np.asarray(out), want)


@pytest.mark.parametrize(
    "make",
    [
        lambda: jnp.arange(4.0),
        lambda: jnp.ones((2, 3)) * 2,
        lambda: jax.jit(lambda x: x * 2 + 1)(jnp.ones(4)),
        lambda: jax.jit(lambda x: x)(jnp.ones(4)),
        lambda: jax.jit(lambda x: x.T)(jnp.ones((2, 3))),
        lambda: jnp.full((3,), 2.0),
        lambda: jnp.asarray(np.arange(3.0)),
        lambda: jnp.ones(3)[1:],
    ],
    ids=["arange", "mul", "jit", "jit_identity", "jit_transpose", "full", "asarray", "slice"],
)
def test_setflags_write_true_on_an_array_raises(make):
    x = make()
    want = np.asarray(x).copy()
    with pytest.raises(ValueError):
        np.asarray(x).setflags(write=True)
    with pytest.raises(ValueError):
        np.asarray(x)[...] = 7.0
    np.testing.assert_array_equal(np.asarray(x), want)


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_callback_cannot_write_into_its_argument(use_jit):
    """``y = x * 2; io_callback(cb, None, y); return y + 0``: the callback's write attempt
    fails (the error reaches the caller) and never changes ``y``."""
    attempts = []

    def cb(a):
        v = np.asarray(a)
        try:
            v.setflags(write=True)
            v[...] = 100.0
        except ValueError:
            attempts.append("refused")

    def f(x):
        y = x * 2
        io_callback(cb, None, y)
        return y + 0

    g = jax.jit(f) if use_jit else f
    out = g(jnp.ones(4))
    jax.effects_barrier()
    assert attempts == ["refused"]
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 2.0, np.float32))


def test_callback_cannot_write_into_a_reshaped_or_broadcast_argument():
    """Views of an intermediate (reshape, broadcast) are read-only down the whole chain."""
    refused = []

    def cb(a, b):
        for v in (np.asarray(a), np.asarray(b)):
            try:
                v.setflags(write=True)
            except ValueError:
                refused.append(True)

    def f(x):
        y = x * 2
        io_callback(cb, None, y.reshape(2, 2), jnp.broadcast_to(y, (3, 4)))
        return y + 0

    out = jax.jit(f)(jnp.ones(4))
    jax.effects_barrier()
    assert refused == [True, True]
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 2.0, np.float32))


@pytest.mark.parametrize("kind", ["io", "pure"])
@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_callback_that_keeps_and_mutates_its_result(kind, use_jit):
    kept = []

    def cb(x):
        r = np.asarray(x) + 1
        kept.append(r)
        return r

    def f(x):
        if kind == "io":
            return io_callback(cb, F32_4, x)
        return jax.pure_callback(cb, F32_4, x)

    g = jax.jit(f) if use_jit else f
    out = g(jnp.zeros(4, jnp.float32))
    jax.effects_barrier()
    kept[0][...] = 99.0
    np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_callback_returning_a_read_only_view_of_a_kept_buffer(use_jit):
    buf = np.zeros(4, np.float32)

    def cb(x):
        buf[...] = np.asarray(x) + 1
        v = buf.view()
        v.flags.writeable = False
        return v

    def f(x):
        return io_callback(cb, F32_4, x)

    g = jax.jit(f) if use_jit else f
    out = g(jnp.zeros(4, jnp.float32))
    jax.effects_barrier()
    buf[...] = 42.0
    np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


def test_callback_keeping_a_view_or_a_weak_reference_of_its_result():
    """Holding a view (or a weak reference) of the returned array reaches its memory."""
    kept = []

    def keep_view(x):
        r = np.asarray(x) + 1
        kept.append(r[:])
        return r

    def keep_weakref(x):
        import weakref

        r = np.asarray(x) + 1
        kept.append(weakref.ref(r))
        return r

    for cb in (keep_view, keep_weakref):
        kept.clear()
        out = jax.jit(lambda x, cb=cb: io_callback(cb, F32_4, x))(jnp.zeros(4, jnp.float32))
        jax.effects_barrier()
        held = kept[0] if isinstance(kept[0], np.ndarray) else kept[0]()
        if held is not None:
            try:
                held.setflags(write=True)
                held[...] = 99.0
            except ValueError:
                pass
        np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


@pytest.mark.parametrize("n_out", [1, 2])
def test_callback_keeping_its_returned_tuple(n_out):
    """Multiple results held by a tuple the callback keeps are copied too."""
    kept = []
    spec = (F32_4,) * n_out

    def cb(x):
        r = tuple(np.asarray(x) + k for k in range(n_out))
        kept.append(r)
        return r

    out = jax.jit(lambda x: io_callback(cb, spec, x))(jnp.zeros(4, jnp.float32))
    jax.effects_barrier()
    for r in kept[0]:
        r[...] = 99.0
    for k, o in enumerate(out):
        np.testing.assert_array_equal(np.asarray(o), np.full(4, k, np.float32))


class _Holder:
    """An object whose ``__array__`` hands out the buffer it keeps."""

    def __init__(self):
        self.buf = np.ones(4, np.float32)

    def __array__(self, dtype=None, copy=None):
        return self.buf


def test_callback_returning_an_array_like_object_that_keeps_its_buffer():
    holder = _Holder()
    out = jax.jit(lambda x: io_callback(lambda _: holder, F32_4, x))(jnp.zeros(4))
    jax.effects_barrier()
    holder.buf[...] = 5.0
    np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


def test_array_like_object_passed_in_keeps_its_buffer():
    holder = _Holder()
    outs = [jnp.asarray(holder), jax.jit(lambda x: x)(np.asarray(holder))]
    holder.buf[...] = 5.0
    for out in outs:
        np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_callback_results_are_read_only(use_jit):
    def f(x):
        return jax.pure_callback(lambda a: np.asarray(a) * 3, F32_4, x)

    out = (jax.jit(f) if use_jit else f)(jnp.ones(4, jnp.float32))
    with pytest.raises(ValueError):
        np.asarray(out).setflags(write=True)
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 3.0, np.float32))


def test_scan_carry_through_a_callback_that_keeps_every_result():
    """The fast path inside a loop: each step's result is copied if the callback keeps it."""
    kept = []

    def cb(c):
        r = np.asarray(c) + 1
        kept.append(r)
        return r

    def body(c, _):
        return io_callback(cb, F32_4, c), None

    out = jax.jit(lambda c: jax.lax.scan(body, c, None, length=5)[0])(jnp.zeros(4))
    jax.effects_barrier()
    for r in kept:
        r[...] = -7.0
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 5.0, np.float32))


def _data_pointer(x):
    return np.asarray(x).__array_interface__["data"][0]


@pytest.mark.jaxlite_only
def test_fresh_callback_result_is_taken_without_a_copy():
    """A result nobody else can reach becomes the Array's buffer as it is (no copy)."""
    seen = []

    def cb(x):
        r = np.asarray(x) + 1
        seen.append(r.__array_interface__["data"][0])  # an int: holds no reference
        return r

    out = jax.jit(lambda x: io_callback(cb, F32_4, x))(jnp.zeros(4, jnp.float32))
    assert _data_pointer(out) == seen[0]


@pytest.mark.jaxlite_only
def test_view_of_the_callback_argument_is_returned_without_a_copy():
    x = jnp.arange(4.0)
    out = jax.jit(lambda x: io_callback(lambda a: np.asarray(a), F32_4, x))(x)
    assert _data_pointer(out) == _data_pointer(x)


@pytest.mark.jaxlite_only
def test_fresh_numpy_conversions_are_not_copied_twice():
    """jnp.asarray of a list or of another dtype makes one fresh buffer and owns it."""
    x = jnp.asarray(np.arange(3.0, dtype=np.float64))
    assert x.dtype == np.float32
    with pytest.raises(ValueError):
        np.asarray(x).setflags(write=True)


# ---------------------------------------------------------------- array objects, not buffers
# ``np.asarray(x)`` gives the caller an ndarray object it may reshape in place
# (``a.shape = ...``, no copy, allowed on read-only arrays). That must never reach the
# Array: each conversion is a new object, and a callback's result is never adopted as the
# very object the callback returned, which it may keep and reshape after the call.

ARRAYS = {
    "owner": lambda: jnp.arange(6.0),
    "reshaped": lambda: jnp.arange(6.0).reshape(2, 3),
    "sliced": lambda: jnp.arange(12.0)[::2],
    "jit_transpose": lambda: jax.jit(lambda x: x.T)(jnp.arange(6.0).reshape(3, 2)),
}


@pytest.mark.parametrize("make", list(ARRAYS.values()), ids=list(ARRAYS))
def test_reshaping_np_asarray_in_place_does_not_reach_the_array(make):
    x = make()
    want = np.array(x)
    a = np.asarray(x)
    a.shape = (1, *a.shape)  # allowed for any layout
    assert np.asarray(x) is not a
    assert np.asarray(x).shape == x.shape == want.shape
    np.testing.assert_array_equal(np.asarray(x), want)
    np.testing.assert_array_equal(np.asarray(x + 1), want + 1)


def _keeping_callbacks(kept):
    """Callbacks returning their argument (or a view of it, or the Array itself), each
    keeping the object it returns: what an engine could be tempted to adopt as it is."""

    def as_array(x):
        a = np.asarray(x)
        kept.append(a)
        return a

    def view(x):
        a = np.asarray(x).reshape(4)
        kept.append(a)
        return a

    def array_itself(x):
        kept.append(x)
        return x

    def jnp_result(x):
        r = jnp.asarray(x) * 1
        kept.append(r)
        return r

    return {"as_array": as_array, "view": view, "array": array_itself, "jnp": jnp_result}


def _callback_modes(kind, cb):
    def once(x):
        if kind == "io":
            return io_callback(cb, F32_4, x)
        return jax.pure_callback(cb, F32_4, x, vmap_method="sequential")

    def carry(x):  # each step's argument is the previous step's result
        return jax.lax.scan(lambda c, _: (once(c), None), x, None, length=3)[0]

    def ys(x):
        return jax.lax.scan(lambda c, _: (c, once(c)), x, None, length=3)[1][-1]

    return {
        "eager": once,
        "jit": jax.jit(once),
        "jit_scan_carry": jax.jit(carry),
        "jit_scan_ys": jax.jit(ys),
        "jit_vmap": jax.jit(lambda x: jax.vmap(once)(jnp.stack([x, x]))[1]),
        "jit_two_results": jax.jit(lambda x: tuple(once(x) for _ in range(2))[1]),
    }


@pytest.mark.parametrize(
    "mode", ["eager", "jit", "jit_scan_carry", "jit_scan_ys", "jit_vmap", "jit_two_results"]
)
@pytest.mark.parametrize("returns", ["as_array", "view", "array", "jnp"])
@pytest.mark.parametrize("kind", ["io", "pure"])
def test_callback_result_reshaped_in_place_after_the_call(kind, returns, mode):
    kept = []
    f = _callback_modes(kind, _keeping_callbacks(kept)[returns])[mode]
    x = jnp.arange(4.0)
    out = f(x)
    jax.effects_barrier()
    assert kept
    for k in kept:
        np.asarray(k).shape = (2, 2)
    want = np.arange(4.0, dtype=np.float32)
    for arr in (out, x):
        assert np.asarray(arr).shape == (4,)
        np.testing.assert_array_equal(np.asarray(arr), want)
    np.testing.assert_array_equal(np.asarray(out + 1), want + 1)
