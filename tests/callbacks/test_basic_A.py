"""Spec callbacks.md section A (A1-A15): basic invocation of host callbacks.

Unless noted, pure_callback / io_callback tests run over the three flavours of the spec:
unordered io_callback, ordered io_callback and pure_callback.
"""

import gc

import ml_dtypes
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback

FLAVOURS = ["io_unordered", "io_ordered", "pure"]


def _callback(flavour, cb, spec, *args):
    if flavour == "pure":
        return jax.pure_callback(cb, spec, *args)
    return io_callback(cb, spec, *args, ordered=flavour == "io_ordered")


def _spec_of(x):
    return jax.ShapeDtypeStruct(np.shape(x), jnp.result_type(x))


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A1_scalar_round_trip_under_jit(flavour):
    """A1: jit(f)(0.) with callback(x + 1.0) gives 1.0."""
    spec = jax.ShapeDtypeStruct((), np.float32)
    f = jax.jit(lambda x: _callback(flavour, lambda v: v + np.float32(1.0), spec, x))
    out = f(0.0)
    jax.effects_barrier()
    assert out.dtype == np.float32 and out.shape == ()
    assert float(out) == 1.0


_X32_DTYPES = [
    ml_dtypes.bfloat16,
    np.float16,
    np.float32,
    np.int8,
    np.int16,
    np.int32,
    np.uint8,
    np.uint16,
    np.uint32,
    np.complex64,
    np.bool_,
]
_X64_ONLY_DTYPES = [np.float64, np.int64, np.uint64, np.complex128]


def _check_dtype_round_trip(flavour, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        x = np.array([True, False, True, True])
        expected = ~x
    else:
        x = np.arange(4).astype(dtype)
        expected = x + x
    seen = []

    def cb(a):
        seen.append((np.dtype(a.dtype), np.asarray(a).copy()))
        a = np.asarray(a)
        return ~a if dtype == np.bool_ else a + a

    out = jax.jit(lambda a: _callback(flavour, cb, _spec_of(a), a))(x)
    jax.effects_barrier()
    assert len(seen) == 1
    assert seen[0][0] == dtype
    np.testing.assert_array_equal(seen[0][1], x)
    assert np.dtype(out.dtype) == dtype
    np.testing.assert_array_equal(np.asarray(out), expected)


@pytest.mark.parametrize("dtype", _X32_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A2_all_dtypes_pass_through_x32(flavour, dtype):
    """A2: every x32 dtype reaches the callback unchanged; x + x (bool: ~x) round trips."""
    _check_dtype_round_trip(flavour, dtype)


@pytest.mark.parametrize("dtype", _X64_ONLY_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A2_all_dtypes_pass_through_x64(flavour, dtype):
    """A2: with x64 enabled the 64-bit dtypes also pass through unchanged."""
    jax.config.update("jax_enable_x64", True)
    _check_dtype_round_trip(flavour, dtype)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A3_single_return_value(flavour):
    """A3: one declared output gives the array itself."""
    spec = jax.ShapeDtypeStruct((4,), np.float32)
    out = jax.jit(lambda: _callback(flavour, lambda: np.ones(4, np.float32), spec))()
    jax.effects_barrier()
    assert isinstance(out, jax.Array)
    np.testing.assert_array_equal(np.asarray(out), np.ones(4, np.float32))


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A3_multiple_return_values(flavour):
    """A3: a tuple of specs gives a tuple of arrays, e.g. (f32[4], i32[5])."""
    spec = (jax.ShapeDtypeStruct((4,), np.float32), jax.ShapeDtypeStruct((5,), np.int32))

    def cb():
        return np.ones(4, np.float32), np.full(5, 2, np.int32)

    out = jax.jit(lambda: _callback(flavour, cb, spec))()
    jax.effects_barrier()
    assert isinstance(out, tuple) and len(out) == 2
    assert out[0].dtype == np.float32 and out[1].dtype == np.int32
    np.testing.assert_array_equal(np.asarray(out[0]), np.ones(4))
    np.testing.assert_array_equal(np.asarray(out[1]), np.full(5, 2))


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A3_multiple_arguments_and_return_values(flavour):
    """A3: several arguments and several outputs together."""

    def cb(x, y, z):
        return x, y + z

    def f(x, y, z):
        spec = (_spec_of(x), _spec_of(y))
        return _callback(flavour, cb, spec, x, y, z)

    x, y, z = np.float32(1.0), np.arange(3, dtype=np.float32), np.float32(10.0)
    a, b = jax.jit(f)(x, y, z)
    jax.effects_barrier()
    assert float(a) == 1.0
    np.testing.assert_array_equal(np.asarray(b), y + z)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A4_zero_size_outputs(flavour):
    """A4: declared outputs of shape (2, 0) and (3, 0), mixed with a non-empty one."""
    spec = (
        jax.ShapeDtypeStruct((2, 0), np.float32),
        jax.ShapeDtypeStruct((3,), np.int32),
        jax.ShapeDtypeStruct((3, 0), np.int32),
    )

    def cb(x):
        return np.zeros((2, 0), np.float32), np.asarray(x) + 1, np.zeros((3, 0), np.int32)

    a, b, c = jax.jit(lambda x: _callback(flavour, cb, spec, x))(jnp.arange(3))
    jax.effects_barrier()
    assert (a.shape, a.dtype) == ((2, 0), np.float32)
    assert (c.shape, c.dtype) == ((3, 0), np.int32)
    np.testing.assert_array_equal(np.asarray(b), [1, 2, 3])


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A4_zero_size_only_output(flavour):
    """A4: a single zero-size declared output is returned with the right shape/dtype."""
    spec = jax.ShapeDtypeStruct((2, 0), np.float32)
    out = jax.jit(lambda x: _callback(flavour, lambda v: v, spec, x))(jnp.zeros((2, 0)))
    jax.effects_barrier()
    assert (out.shape, out.dtype) == ((2, 0), np.float32)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A5_pytree_arguments_and_results(flavour):
    """A5: callback(cb, dict(y=[spec]), [x]): cb gets [x], returns dict(y=[x])."""
    seen = []

    def cb(xs):
        seen.append(type(xs))
        assert len(xs) == 1
        return {"y": [xs[0]]}

    def f(x):
        return _callback(flavour, cb, {"y": [_spec_of(x)]}, [x])

    out = jax.jit(f)(jnp.float32(2.0))
    jax.effects_barrier()
    assert seen == [list]
    assert list(out) == ["y"] and isinstance(out["y"], list) and len(out["y"]) == 1
    assert float(out["y"][0]) == 2.0


@pytest.mark.parametrize("ret", [None, (), []], ids=["none", "empty_tuple", "empty_list"])
@pytest.mark.parametrize("ordered", [False, True])
def test_A6_none_result(ordered, ret):
    """A6: io_callback(cb, None, ...) returns None; cb may return None or an empty pytree."""
    seen = []

    def cb(x):
        seen.append(float(x))
        return ret

    out = jax.jit(lambda x: io_callback(cb, None, x, ordered=ordered))(3.0)
    jax.effects_barrier()
    assert out is None
    assert seen == [3.0]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A7_eager_calls_receive_arrays(flavour):
    """A7: eager (no jit) PC/IO calls run and the callback receives jax Arrays."""
    seen = []

    def cb(x):
        seen.append(isinstance(x, jax.Array))
        return x

    x = jnp.arange(3.0)
    out = _callback(flavour, cb, x, x)
    jax.effects_barrier()
    assert seen == [True]
    np.testing.assert_array_equal(np.asarray(out), [0.0, 1.0, 2.0])


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A7_eager_layout_preserved(flavour):
    """A7: an eager int32 (3, 2) round trip keeps shape and element layout."""
    x = np.arange(6, dtype=np.int32).reshape(3, 2)
    out = _callback(flavour, lambda a: a, _spec_of(x), x)
    jax.effects_barrier()
    assert out.shape == (3, 2) and out.dtype == np.int32
    np.testing.assert_array_equal(np.asarray(out), x)


@pytest.mark.parametrize("ordered", [False, True])
def test_A8_io_callback_mutates_state_once_per_call(ordered):
    """A8: an eager f() containing io_callback increments a host counter once per call."""
    counter = [0]

    def bump():
        counter[0] += 1
        return np.int32(counter[0])

    def f():
        return io_callback(bump, jax.ShapeDtypeStruct((), np.int32), ordered=ordered)

    assert int(f()) == 1
    jax.effects_barrier()
    assert counter[0] == 1
    assert int(f()) == 2
    jax.effects_barrier()
    assert counter[0] == 2


def test_A9_eager_debug_print_is_immediate(capsys):
    """A9: eager debug.print writes synchronously, before any barrier."""
    jax.debug.print("x: {}", 2)
    assert capsys.readouterr().out == "x: 2\n"


def test_A9_eager_debug_callback_is_immediate():
    """A9: eager debug.callback runs synchronously, before any barrier."""
    seen = []
    jax.debug.callback(lambda v: seen.append(int(v)), 7)
    assert seen == [7]


def test_A9_named_format_fields_eager(capsys):
    """A9: named fields work eagerly."""
    jax.debug.print("x: {x}", x=2)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: 2\n"


def test_A9_multiple_prints_in_program_order(capsys):
    """A9: two eager prints appear in program order."""
    jax.debug.print("x: {}", 2)
    jax.debug.print("y: {}", 3)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: 2\ny: 3\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_A10_staged_print_once_per_execution(capsys, ordered):
    """A10: a debug.print staged under jit prints at run time, once per execution."""
    f = jax.jit(lambda x: jax.debug.print("x: {}", x, ordered=ordered))
    f(2)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: 2\n"
    f(3)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: 3\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_A10_nested_jit_prints_once(capsys, ordered):
    """A10: jit(jit(f)) prints once per execution."""
    f = jax.jit(lambda x: jax.debug.print("x: {}", x, ordered=ordered))
    jax.jit(f)(2)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: 2\n"
    jax.jit(lambda x: f(x + 1))(2)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: 3\n"


def test_A10_python_side_effects_run_at_trace_time_only():
    """A10 [doc]: Python code in a jitted function runs at trace time only; the staged
    debug.callback runs at every execution with concrete values."""
    python_side = []
    staged = []

    @jax.jit
    def f(x):
        python_side.append("traced")
        jax.debug.callback(lambda v: staged.append(int(v)), x)
        return x

    f(1)
    f(2)
    jax.effects_barrier()
    assert len(python_side) == 1
    assert staged == [1, 2]


def test_A11_static_args(capsys):
    """A11: a dtype passed to debug.print is a static leaf and prints as itself."""

    @jax.jit
    def f(arr):
        jax.debug.print(
            "arr {array}, dtype: {dtype}, arr {array2}", array=arr, dtype=arr.dtype, array2=arr
        )

    f(np.array([1.0, 2.0, 3.0], np.float32))
    jax.effects_barrier()
    assert capsys.readouterr().out == "arr [1. 2. 3.], dtype: float32, arr [1. 2. 3.]\n"


def test_A12_debug_callback_two_call_form():
    """A12: debug.callback(ordered=True)(cb, x) with x=100 calls cb once with 100."""
    seen = []
    jax.debug.callback(ordered=True)(lambda v: seen.append(int(v)), 100)
    jax.effects_barrier()
    assert seen == [100]
    jax.jit(lambda x: jax.debug.callback(ordered=True)(lambda v: seen.append(int(v)), x))(100)
    jax.effects_barrier()
    assert seen == [100, 100]


@pytest.mark.parametrize(
    "orders, expected",
    [((False,), "x: 2\n"), ((True,), "x: 2\n"), ((True, False), "x: 2\nx: 2\n")],
    ids=["unordered", "ordered", "ordered_and_unordered"],
)
def test_A13_print_donated_argument(capsys, orders, expected):
    """A13: printing an argument of a jit with donate_argnums=0 still prints its value."""

    def f(x):
        for ordered in orders:
            jax.debug.print("x: {}", x, ordered=ordered)
        return x + 1

    out = jax.jit(f, donate_argnums=0)(jnp.array(2))
    jax.effects_barrier()
    assert int(out) == 3
    assert capsys.readouterr().out == expected


def test_A14_jitted_function_traced_once():
    """A14: a jitted function is traced once; later calls reuse the staged callback."""
    traces = [0]
    runs = []

    @jax.jit
    def f(x):
        traces[0] += 1
        return jax.pure_callback(lambda v: (runs.append(float(v)), v * 2)[1], _spec_of(x), x)

    results = [float(f(jnp.float32(v))) for v in (1.0, 2.0, 3.0)]
    jax.effects_barrier()
    assert results == [2.0, 4.0, 6.0]
    assert traces[0] == 1
    assert runs == [1.0, 2.0, 3.0]


def test_A14_callback_identity_captured_at_trace_time():
    """A14: the callable looked up while tracing is the one later cache hits call."""
    log = []
    current = {"cb": lambda v: log.append(("first", int(v)))}

    @jax.jit
    def f(x):
        jax.debug.callback(current["cb"], x)
        return x

    f(1)
    current["cb"] = lambda v: log.append(("second", int(v)))
    f(2)  # same input structure: cache hit, no retrace
    jax.effects_barrier()
    assert log == [("first", 1), ("first", 2)]


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_A14_repeated_eager_calls_each_run_the_callback(flavour):
    """A14: repeated eager calls with the same callable and tree run the callback each time."""
    runs = []

    def cb(v):
        runs.append(int(v))
        return v

    spec = jax.ShapeDtypeStruct((), np.int32)
    outs = [int(_callback(flavour, cb, spec, jnp.int32(i))) for i in range(3)]
    jax.effects_barrier()
    assert outs == [0, 1, 2]
    assert runs == [0, 1, 2]


def test_A15_compiled_computation_keeps_callback_alive():
    """A15: a bound method captured by a compiled function stays alive after its owner is
    dropped; fori_loop of 10 host '+1' steps on ones gives 11."""

    class Adder:
        def add_one(self, x):
            return np.asarray(x) + np.float32(1)

    def build():
        adder = Adder()
        return jax.jit(
            lambda x: lax.fori_loop(0, 10, lambda i, v: jax.pure_callback(adder.add_one, v, v), x)
        )

    f = build()
    gc.collect()
    out = f(jnp.ones(3))
    np.testing.assert_array_equal(np.asarray(out), np.full(3, 11.0, np.float32))
    gc.collect()
    out = f(jnp.ones(3))  # cache hit after another collection
    np.testing.assert_array_equal(np.asarray(out), np.full(3, 11.0, np.float32))
