"""The callback fast paths keep every guarantee of the contract (issue 17).

Compiled code calls a callback through a closure specialised for its call site
(``HostFn.specialise``): a one-argument one-result path that checks results inline, a
generic path, and the eager path (``HostFn.invoke``). Each test below runs a callback
through all of them (eager, jit, inside a jitted scan and under vmap) and checks what the
contract promises: results validated against the declared shapes and dtypes (spec B1-B5),
results immutable even if the callback keeps and mutates what it returned, arguments
immutable, exceptions chained, and the same results on cache hits as on the first call.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

F32_4 = jax.ShapeDtypeStruct((4,), np.float32)


def _call(kind, cb, spec, *args):
    if kind == "io":
        return io_callback(cb, spec, *args)
    return jax.pure_callback(cb, spec, *args, vmap_method="sequential")


def _modes(kind, cb, spec=F32_4):
    """The same callback call through every path: {mode: function of x (float32[4])}."""

    def once(x):
        return _call(kind, cb, spec, x)

    def in_scan(x):
        def body(c, _):
            return c, once(c)

        return jax.lax.scan(body, x, None, length=3)[1][-1]

    def in_vmap(x):
        return jax.vmap(once)(jnp.stack([x, x]))[1]

    return {
        "eager": once,
        "jit": jax.jit(once),
        "jit_scan": jax.jit(in_scan),
        "jit_vmap": jax.jit(in_vmap),
    }


MODES = ["eager", "jit", "jit_scan", "jit_vmap"]
KINDS = ["io", "pure"]


def _run(fn, x):
    out = fn(x)
    jax.effects_barrier()
    return out


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_kept_and_mutated_result_does_not_change_the_output(kind, mode):
    kept = []

    def cb(x):
        r = np.asarray(x) + 1
        kept.append(r)
        return r

    out = _run(_modes(kind, cb)[mode], jnp.zeros(4, jnp.float32))
    for r in kept:
        r[...] = 99.0
    np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_result_that_is_a_view_of_the_argument(kind, mode):
    out = _run(_modes(kind, lambda x: np.asarray(x)[::-1])[mode], jnp.arange(4.0))
    np.testing.assert_array_equal(np.asarray(out), [3.0, 2.0, 1.0, 0.0])
    with pytest.raises(ValueError):
        np.asarray(out).setflags(write=True)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_argument_returned_as_it_is(kind, mode):
    x = jnp.arange(4.0)
    for cb in (lambda a: a, lambda a: np.asarray(a)):
        out = _run(_modes(kind, cb)[mode], x)
        np.testing.assert_array_equal(np.asarray(out), np.arange(4.0, dtype=np.float32))


class _Sub(np.ndarray):
    pass


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_subclass_result(kind, mode):
    kept = []

    def cb(x):
        r = (np.asarray(x) + 2).view(_Sub)
        kept.append(r)
        return r

    out = _run(_modes(kind, cb)[mode], jnp.zeros(4, jnp.float32))
    for r in kept:
        r[...] = -1.0
    assert type(out) is not _Sub
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 2.0, np.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_python_scalar_and_list_results(kind, mode):
    scalar = jax.ShapeDtypeStruct((), np.float32)
    fns = _modes(kind, lambda x: 3.0, scalar)
    np.testing.assert_array_equal(np.asarray(_run(fns[mode], jnp.zeros(4))), np.float32(3.0))
    if mode in ("eager", "jit"):  # (the scan and vmap wrappers expect one output)
        # A list is a pytree of two leaves: two declared outputs.
        fns = _modes(kind, lambda x: [1.0, 2.0], (scalar, scalar))
        a, b = _run(fns[mode], jnp.zeros(4))
        assert (float(a), float(b)) == (1.0, 2.0)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_list_for_one_array_output_is_two_outputs(kind, mode):
    """B1: a Python list [1., 2., 3., 4.] is four leaves, not one float32[4]."""
    fn = _modes(kind, lambda x: [1.0, 2.0, 3.0, 4.0])[mode]
    with pytest.raises(RuntimeError, match="Mismatched number of outputs"):
        _run(fn, jnp.zeros(4, jnp.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_wrong_kind_dtype_fails(kind, mode):
    """B5: int32 for a declared float32 output."""
    fn = _modes(kind, lambda x: np.arange(4, dtype=np.int32))[mode]
    with pytest.raises(RuntimeError, match="Incorrect output dtype for return value #0"):
        _run(fn, jnp.zeros(4, jnp.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_float64_result_is_canonicalised_with_x64_off(kind, mode):
    """B3: a float64 result for a float32 output is accepted and converted."""
    out = _run(_modes(kind, lambda x: np.asarray(x, np.float64) + 0.5)[mode], jnp.zeros(4))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 0.5, np.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_wrong_shape_fails(kind, mode):
    """B2: a float32[3] result for a float32[4] output."""
    fn = _modes(kind, lambda x: np.zeros(3, np.float32))[mode]
    with pytest.raises(RuntimeError, match=r"Incorrect output shape for return value #0"):
        _run(fn, jnp.zeros(4, jnp.float32))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_argument_cannot_be_made_writeable(kind, mode):
    refused = []

    def cb(x):
        try:
            np.asarray(x).setflags(write=True)
        except ValueError:
            refused.append(True)
        return np.asarray(x) * 2

    fn = _modes(kind, cb)[mode]
    x = jnp.ones(4, jnp.float32) + 0  # an engine-computed buffer
    out = _run(fn, x)
    assert refused and all(refused)
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 2.0, np.float32))
    np.testing.assert_array_equal(np.asarray(x), np.ones(4, np.float32))


@pytest.mark.jaxlite_only  # JAX's JaxRuntimeError carries the text, not a __cause__
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_exception_is_chained(kind, mode):
    def cb(x):
        raise KeyError("boom")

    with pytest.raises(RuntimeError, match="boom") as info:
        _run(_modes(kind, cb)[mode], jnp.zeros(4, jnp.float32))
    cause = info.value.__cause__
    while cause is not None and not isinstance(cause, KeyError):
        cause = cause.__cause__
    assert isinstance(cause, KeyError)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_cache_hits_and_misses_give_identical_results(kind, mode):
    """The first call (trace, compile) and later calls (cache hits, identity hits) agree,
    also when the callback returns a different kind of value on each call."""
    returns = iter(
        [
            lambda a: np.asarray(a) + 1,  # a fresh array
            lambda a: np.asarray(a, np.float64) + 1,  # canonicalised
            lambda a: jnp.asarray(a) + 1,  # an Array
            lambda a: np.asarray(a) + 1,
        ]
    )
    state = {}

    def cb(a):
        return state["f"](a)

    fn = _modes(kind, cb)[mode]
    x = jnp.arange(4.0)
    outs = []
    for make in returns:
        state["f"] = make
        outs.append(np.asarray(_run(fn, x)).copy())
    for o in outs:
        np.testing.assert_array_equal(o, np.arange(4.0, dtype=np.float32) + 1)


def test_one_argument_jit_identity_hit_follows_config_changes():
    """The identity hit of a one-argument jitted call is dropped when the config changes."""
    f = jax.jit(lambda x: x * 2)
    x = jnp.ones(3, jnp.int32)
    for _ in range(3):
        assert f(x).dtype == jnp.int32
    jax.config.update("jax_enable_x64", True)
    try:
        assert f(x).dtype == jnp.int32
        assert f(jnp.ones(3, jnp.int64)).dtype == jnp.int64
        assert jax.jit(lambda x: x * 2.0)(x).dtype == jnp.float64
    finally:
        jax.config.update("jax_enable_x64", False)
    assert f(x).dtype == jnp.int32
    np.testing.assert_array_equal(np.asarray(f(x)), [2, 2, 2])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_kept_arguments_keep_their_values(kind, mode):
    """An Array the callback keeps (or keeps a weak reference to) still holds its own value
    after later calls at the same call site."""
    import weakref

    kept, weak = [], []

    def cb(x):
        kept.append(x)
        weak.append(weakref.ref(x))
        return np.asarray(x) + 1

    fn = _modes(kind, cb)[mode]
    for i in range(3):
        _run(fn, jnp.full(4, float(i), jnp.float32))
    seen = sorted({float(np.asarray(x)[0]) for x in kept})
    assert seen == [0.0, 1.0, 2.0]
    for x, w in zip(kept, weak):
        assert w() is x


def test_loop_carry_through_a_callback_that_keeps_every_argument():
    kept = []

    def cb(c):
        kept.append(c)
        return np.asarray(c) + 1

    def body(c, _):
        return io_callback(cb, F32_4, c), None

    out = jax.jit(lambda c: jax.lax.scan(body, c, None, length=6)[0])(jnp.zeros(4))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 6.0, np.float32))
    assert [float(np.asarray(c)[0]) for c in kept] == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_one_call_site_from_several_threads():
    """The per-call-site caches of the fast path are safe when threads share a function."""
    import threading

    seen_ok = []

    def cb(c):
        v = np.asarray(c)
        seen_ok.append(bool((v == v[0]).all()))
        return v + 1

    def body(c, _):
        return io_callback(cb, F32_4, c), None

    f = jax.jit(lambda c: jax.lax.scan(body, c, None, length=200)[0])
    results = {}

    def work(k):
        results[k] = np.asarray(f(jnp.full(4, 1000.0 * k, jnp.float32)))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        np.testing.assert_array_equal(results[k], np.full(4, 1000.0 * k + 200, np.float32))
    assert len(seen_ok) == 800 and all(seen_ok)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_argument_kept_only_by_weak_reference_keeps_its_value(kind, mode):
    """The fast path reuses the Array it handed the callback only when nothing refers to
    it: an Array reachable through a weak reference never changes its value."""
    import weakref

    seen = []  # (weak reference, value it had)
    changed = []

    def cb(x):
        for w, v in seen:
            a = w()
            if a is not None and float(np.asarray(a)[0]) != v:
                changed.append((v, float(np.asarray(a)[0])))
        seen.append((weakref.ref(x), float(np.asarray(x)[0])))
        return np.asarray(x) + 1

    def in_scan(x):
        return jax.lax.scan(lambda c, _: (_call(kind, cb, F32_4, c), None), x, None, length=4)[0]

    fn = jax.jit(in_scan) if mode.startswith("jit") else in_scan
    out = _run(fn, jnp.zeros(4, jnp.float32))
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 4.0, np.float32))
    assert not changed


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", KINDS)
def test_result_kept_by_weak_reference_and_mutated(kind, mode):
    """A result the callback can still reach through a weak reference is not taken as the
    output's buffer: writing it later leaves the output alone."""
    import weakref

    weak = []

    def cb(x):
        r = np.asarray(x) + 1
        weak.append(weakref.ref(r))
        return r

    out = _run(_modes(kind, cb)[mode], jnp.zeros(4, jnp.float32))
    for w in weak:
        r = w()
        if r is not None and r.flags.writeable:
            r[...] = 99.0
    np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))
