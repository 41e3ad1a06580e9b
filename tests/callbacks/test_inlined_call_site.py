"""A one-operand, one-result callback under ``jit`` is written into the generated code
(``HostFn.inline``) instead of called as a closure (``HostFn._specialise1``). Both must do
the same: each case runs through the inlined lines and, with inlining turned off, through
the closure, and the results (values, dtypes, immutability) or errors (type, message,
``__cause__`` chain) are compared."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite._src import callback_host
from jaxlite._src.compile import codegen
from jaxlite.experimental import io_callback

pytestmark = pytest.mark.jaxlite_only  # inspects jaxlite's generated code

F32_4 = jax.ShapeDtypeStruct((4,), np.float32)
KINDS = ["io", "pure"]


def _scan_fn(kind, cb, spec=F32_4, steps=3):
    def call(x):
        if kind == "io":
            return io_callback(cb, spec, x)
        return jax.pure_callback(cb, spec, x)

    def f(x):
        def body(c, _):
            y = call(c)
            return c + 1, y

        return jax.lax.scan(body, x, None, length=steps)[1]

    return jax.jit(f)


def _outcome(kind, cb, x, spec=F32_4):
    """(result, None) or (None, (type, message, chain of cause types))."""
    try:
        out = _scan_fn(kind, cb, spec)(x)
        jax.effects_barrier()
    except Exception as e:
        chain, c = [], e.__cause__
        while c is not None:
            chain.append((type(c), str(c)))
            c = c.__cause__
        return None, (type(e), str(e), chain)
    return np.asarray(out), None


def _both(monkeypatch, kind, make_cb, x, spec=F32_4):
    """The outcome inlined, then with ``HostFn.inline`` off (the closure)."""
    inlined = _outcome(kind, make_cb(), x, spec)
    with monkeypatch.context() as m:
        m.setattr(callback_host.HostFn, "inline", lambda self, *a: None)
        closure = _outcome(kind, make_cb(), x, spec)
    return inlined, closure


def _same(a, b):
    (ra, ea), (rb, eb) = a, b
    assert ea == eb
    if ra is not None:
        assert ra.dtype == rb.dtype
        np.testing.assert_array_equal(ra, rb)


@pytest.mark.parametrize("kind", KINDS)
def test_the_scan_body_calls_no_closure(kind):
    f = _scan_fn(kind, lambda x: np.asarray(x) + 1)
    np.testing.assert_array_equal(np.asarray(f(jnp.zeros(4))), [[1] * 4, [2] * 4, [3] * 4])
    closed = jax.make_jaxpr(lambda x: io_callback(lambda a: np.asarray(a) * 2, F32_4, x))(
        jnp.zeros(4)
    )
    _, text = codegen.compile_jaxpr(closed)
    assert "_cb" not in text and "_ufn" in text


def _kept_and_mutated():
    kept = []

    def cb(x):
        r = np.asarray(x) * 2
        kept.append(r)
        if len(kept) > 1:
            kept[-2][...] = -7.0  # mutates what it returned on the previous step
        return r

    return cb


class _Sub(np.ndarray):
    pass


CASES = {
    "fresh": lambda: lambda x: np.asarray(x) + 1,
    "kept_and_mutated": _kept_and_mutated,
    "view_of_input": lambda: lambda x: np.asarray(x)[::-1],
    "input_itself": lambda: lambda x: x,
    "subclass": lambda: lambda x: (np.asarray(x) + 2).view(_Sub),
    "list": lambda: lambda x: [1.0, 2.0, 3.0, 4.0],
    "float64": lambda: lambda x: np.asarray(x, np.float64) + 0.5,
    "int32_wrong_kind": lambda: lambda x: np.asarray(x).astype(np.int32),
    "wrong_shape": lambda: lambda x: np.zeros(3, np.float32),
    "none": lambda: lambda x: None,
    "two_outputs": lambda: lambda x: (np.asarray(x), np.asarray(x)),
}


def _raise_key(x):
    raise KeyError("boom")


def _raise_nested(x):
    return jax.jit(lambda y: io_callback(_raise_key, F32_4, y))(jnp.zeros(4))


CASES["raises"] = lambda: _raise_key
CASES["raises_in_nested_callback"] = lambda: _raise_nested


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("kind", KINDS)
def test_inlined_and_closure_agree(monkeypatch, kind, case):
    x = jnp.arange(4.0, dtype=jnp.float32)
    inlined, closure = _both(monkeypatch, kind, CASES[case], x)
    _same(inlined, closure)


@pytest.mark.parametrize("kind", KINDS)
def test_scalar_result_agrees(monkeypatch, kind):
    spec = jax.ShapeDtypeStruct((), np.float32)
    _same(*_both(monkeypatch, kind, lambda: lambda x: 3.0, jnp.zeros(4), spec))


@pytest.mark.parametrize("kind", KINDS)
def test_result_of_kept_array_is_immutable_and_unchanged(kind):
    kept = []

    def cb(x):
        r = np.asarray(x) + 1
        kept.append(r)
        return r

    out = _scan_fn(kind, cb)(jnp.zeros(4, jnp.float32))
    jax.effects_barrier()
    for r in kept:
        r[...] = 99.0
    np.testing.assert_array_equal(np.asarray(out), [[1] * 4, [2] * 4, [3] * 4])
    with pytest.raises(ValueError):
        np.asarray(out).setflags(write=True)


@pytest.mark.parametrize("kind", KINDS)
def test_kept_argument_arrays_are_read_only_and_keep_their_values(kind):
    kept = []

    def cb(x):
        kept.append(x)
        with pytest.raises(ValueError):
            np.asarray(x).setflags(write=True)
        return np.asarray(x) + 1

    _scan_fn(kind, cb)(jnp.zeros(4, jnp.float32))
    jax.effects_barrier()
    assert [float(np.asarray(a)[0]) for a in kept] == [0.0, 1.0, 2.0]
    assert len({id(a) for a in kept}) == 3  # a kept Array is never reused


@pytest.mark.parametrize("kind", KINDS)
def test_carry_through_the_callback_over_many_steps(kind):
    def f(x):
        def body(c, _):
            if kind == "io":
                return io_callback(lambda a: np.asarray(a) + 1, F32_4, c), None
            return jax.pure_callback(lambda a: np.asarray(a) + 1, F32_4, c), None

        return jax.lax.scan(body, x, None, length=500)[0]

    out = jax.jit(f)(jnp.zeros(4, jnp.float32))
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 500.0, np.float32))


def test_large_buffers_use_the_closure_and_stay_correct():
    big = jax.ShapeDtypeStruct((20000,), np.float32)  # 80 KB: over the inlining limit
    kept = []

    def cb(x):
        r = np.asarray(x) + 1
        kept.append(r)
        return r

    closed = jax.make_jaxpr(lambda x: io_callback(cb, big, x))(jnp.zeros(20000))
    _, text = codegen.compile_jaxpr(closed)
    assert "_cb" in text
    out = jax.jit(lambda x: io_callback(cb, big, x))(jnp.zeros(20000, jnp.float32))
    kept[-1][...] = 5.0
    np.testing.assert_array_equal(np.asarray(out), np.ones(20000, np.float32))


def test_ordered_io_callbacks_keep_their_order():
    seen = []

    def tag(k):
        def cb(x):
            seen.append(k)
            return np.asarray(x) + k

        return cb

    def f(x):
        def body(c, _):
            c = io_callback(tag(1), F32_4, c, ordered=True)
            c = io_callback(tag(2), F32_4, c, ordered=True)
            return c, None

        return jax.lax.scan(body, x, None, length=3)[0]

    out = jax.jit(f)(jnp.zeros(4, jnp.float32))
    jax.effects_barrier()
    assert seen == [1, 2, 1, 2, 1, 2]
    np.testing.assert_array_equal(np.asarray(out), np.full(4, 9.0, np.float32))
