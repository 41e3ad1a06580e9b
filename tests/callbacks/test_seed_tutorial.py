"""Every code example of the seed tutorial (``seed/000_*.txt``, a Chinese walk-through of
``io_callback`` under ``jit``/``vmap``/``scan``/``grad``), run with its printed lines and
values checked.

The tutorial's random numbers come from a host-side ``np.random.default_rng(0)``; each test
makes its own generator and computes the expected values from a fresh ``default_rng(0)``
drawn in the same order, so nothing is hard-coded. Related spec items: A10, D5, F8, F10,
E3/E12, G3, G5.
"""

import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback


def _lines(capsys):
    return capsys.readouterr().out.splitlines()


def _tutorial_functions(seed=0):
    """The tutorial's ``host_side_random_like`` and its jitted wrappers, with a private
    global generator."""
    global_rng = np.random.default_rng(seed)

    def host_side_random_like(x):
        """Generate a random array like x using the global_rng state."""
        # Two side effects: printing the shape and dtype, and advancing global_rng.
        print(f"generating {x.dtype}{list(x.shape)}")
        return global_rng.uniform(size=x.shape).astype(x.dtype)

    @jax.jit
    def numpy_random_like(x):
        return io_callback(host_side_random_like, x, x)

    @jax.jit
    def numpy_random_like_ordered(x):
        return io_callback(host_side_random_like, x, x, ordered=True)

    return numpy_random_like, numpy_random_like_ordered


def _expected_draws(*sizes):
    """What successive ``uniform(size=...)`` calls on a fresh default_rng(0) give, as float32."""
    rng = np.random.default_rng(0)
    return [rng.uniform(size=s).astype(np.float32) for s in sizes]


def test_python_print_in_jit_shows_trace_time_value_not_runtime_value(capsys):
    """Example 1: a plain ``print`` inside ``jit`` runs while tracing and shows an abstract
    value (a tracer), once; later calls reuse the compiled function and print nothing."""

    @jax.jit
    def f(x):
        y = x + 1
        print("intermediate value: {}".format(y))  # noqa: UP032 (as in the tutorial)
        return y * 2

    result = f(2)
    lines = _lines(capsys)
    assert int(result) == 6
    assert len(lines) == 1
    assert lines[0].startswith("intermediate value: ")
    assert lines[0] != "intermediate value: 3"
    assert "int32" in lines[0]  # the abstract value's dtype, not a concrete number
    assert int(f(3)) == 8
    jax.effects_barrier()
    assert _lines(capsys) == []


def test_debug_print_in_jit_shows_runtime_value(capsys):
    """Example 2: ``jax.debug.print`` prints the runtime value on every call (A10)."""

    @jax.jit
    def f(x):
        y = x + 1
        jax.debug.print("intermediate value: {}", y)
        return y * 2

    result = f(2)
    jax.effects_barrier()
    assert int(result) == 6
    assert capsys.readouterr().out == "intermediate value: 3\n"
    f(4)
    jax.effects_barrier()
    assert capsys.readouterr().out == "intermediate value: 5\n"


def test_io_callback_in_jit_host_random(capsys):
    """Example 3: the jitted ``numpy_random_like`` prints ``generating float32[5]`` and
    returns the global generator's next draw; a second run consumes fresh numbers."""
    numpy_random_like, _ = _tutorial_functions()
    x = jnp.zeros(5)
    first = numpy_random_like(x)
    jax.effects_barrier()
    assert _lines(capsys) == ["generating float32[5]"]
    second = numpy_random_like(x)
    jax.effects_barrier()
    assert _lines(capsys) == ["generating float32[5]"]
    exp_first, exp_second = _expected_draws(5, 5)
    assert first.shape == (5,) and first.dtype == jnp.float32
    np.testing.assert_array_equal(np.asarray(first), exp_first)
    np.testing.assert_array_equal(np.asarray(second), exp_second)
    assert not np.array_equal(np.asarray(first), np.asarray(second))


def test_io_callback_runs_even_when_its_result_is_unused(capsys):
    """The tutorial's note: unlike pure_callback, an unused io_callback is never removed
    (D5): the host generator still advances."""
    numpy_random_like, _ = _tutorial_functions()

    @jax.jit
    def ignore_result(x):
        numpy_random_like(x)
        return x + 1.0

    out = ignore_result(jnp.zeros(3))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.ones(3, np.float32))
    assert _lines(capsys) == ["generating float32[3]"]
    after = numpy_random_like(jnp.zeros(3))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(after), _expected_draws(3, 3)[1])


def test_io_callback_under_vmap(capsys):
    """Example 4: ``vmap(numpy_random_like)(x)`` calls the host function once per element,
    each time with a scalar (F8)."""
    numpy_random_like, _ = _tutorial_functions()
    x = jnp.zeros(5)
    out = jax.vmap(numpy_random_like)(x)
    jax.effects_barrier()
    assert _lines(capsys) == ["generating float32[]"] * 5
    assert out.shape == (5,)
    # One scalar draw per element; on CPU the mapped calls run in element order.
    expected = np.array(_expected_draws(*[()] * 5), dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_ordered_io_callback_under_vmap_raises(capsys):
    """Example 5: the ordered variant cannot be vmapped (F10); nothing runs."""
    _, numpy_random_like_ordered = _tutorial_functions()
    with pytest.raises(ValueError, match=re.escape("Cannot `vmap` ordered IO callback.")):
        jax.vmap(numpy_random_like_ordered)(jnp.zeros(5))
        jax.effects_barrier()
    assert _lines(capsys) == []


def test_ordered_io_callback_inside_scan(capsys):
    """Example 6: the ordered variant works inside ``scan``: one call per iteration, in
    order (E3, E12)."""
    _, numpy_random_like_ordered = _tutorial_functions()

    def body_fun(_, x):
        return _, numpy_random_like_ordered(x)

    out = jax.lax.scan(body_fun, None, jnp.arange(5.0))[1]
    jax.effects_barrier()
    assert _lines(capsys) == ["generating float32[]"] * 5
    expected = np.array(_expected_draws(*[()] * 5), dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_io_callback_independent_of_differentiated_value_under_grad(capsys):
    """Example 7: an output-free io_callback that does not depend on x runs under grad and
    prints ``hello`` (G5)."""

    @jax.jit
    def f(x):
        io_callback(lambda: print("hello"), None)
        return x

    out = jax.grad(f)(1.0)
    jax.effects_barrier()
    assert float(out) == 1.0
    assert capsys.readouterr().out == "hello\n"


@pytest.mark.parametrize("shape", [(), (3,)])
def test_grad_through_io_callback_on_differentiated_value_raises(capsys, shape):
    """The tutorial's warning: differentiating ``numpy_random_like`` itself fails (G3)."""
    numpy_random_like, _ = _tutorial_functions()
    with pytest.raises(ValueError, match=re.escape("IO callbacks do not support JVP.")):
        jax.grad(lambda x: numpy_random_like(x).sum())(jnp.zeros(shape))
        jax.effects_barrier()
    assert _lines(capsys) == []
