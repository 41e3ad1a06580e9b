"""Spec callbacks.md section J (J1-J7): jax.debug.print formatting rules.

J8 (JAX's escaped-brace placeholder-detection quirk) is deliberately not tested: the spec
leaves the behaviour to the implementation. J3's PRNG-key printing needs extended key dtypes,
which the single-device NumPy engine does not model, so it is not tested either.
"""

import contextlib
import io
import logging
import os

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


class _WriteRecorder(io.TextIOBase):
    """A stand-in stdout recording each write call separately."""

    def __init__(self):
        self.writes = []

    def write(self, text):
        self.writes.append(text)
        return len(text)


def test_J1_one_write_per_print():
    """J1: the message and its newline are written with a single sys.stdout.write call."""
    out = _WriteRecorder()
    with contextlib.redirect_stdout(out):
        jax.jit(lambda x: jax.debug.print("x: {} and {}", x, x + 1))(2)
        jax.effects_barrier()
        jax.debug.print("eager {}", 5)
        jax.effects_barrier()
    assert out.writes == ["x: 2 and 3\n", "eager 5\n"]


def test_J1_stdout_resolved_at_execution_time():
    """J1: the print goes to whatever sys.stdout is when the computation executes."""
    f = jax.jit(lambda x: jax.debug.print("x: {}", x))
    first, second = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(first):
        f(1)  # traced and executed here
        jax.effects_barrier()
    with contextlib.redirect_stdout(second):
        f(2)  # cache hit, executed with another stdout
        jax.effects_barrier()
    assert first.getvalue() == "x: 1\n"
    assert second.getvalue() == "x: 2\n"


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_J1_debug_log_emits_info_record(capsys, caplog, use_jit):
    """J1: debug.log writes nothing to stdout and emits an INFO record whose msg is the
    formatted message, located at the user's call site."""
    caplog.set_level(logging.INFO)

    def f(x):
        jax.debug.log("x={}", x)

    (jax.jit(f) if use_jit else f)(4)
    jax.effects_barrier()
    assert capsys.readouterr().out == ""
    records = [r for r in caplog.records if r.getMessage() == "x=4"]
    assert len(records) == 1
    assert records[0].levelno == logging.INFO
    assert records[0].msg == "x=4"
    assert os.path.basename(records[0].pathname) == os.path.basename(__file__)


_VALUES = np.array([1.2345, 2.3456, 1e-7])


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_J2_default_print_options(capsys, use_jit):
    """J2: with default NumPy options the float32 array prints in scientific notation."""

    def f(x):
        jax.debug.print("{}", x)

    (jax.jit(f) if use_jit else f)(_VALUES)
    jax.effects_barrier()
    assert capsys.readouterr().out == "[1.2345e+00 2.3456e+00 1.0000e-07]\n"


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_J2_print_options_respected(capsys, use_jit):
    """J2: np.printoptions around the call apply to the printed value."""

    def f(x):
        jax.debug.print("{}", x)

    with np.printoptions(precision=2, suppress=True):
        (jax.jit(f) if use_jit else f)(_VALUES)
        jax.effects_barrier()
    assert capsys.readouterr().out == "[1.23 2.35 0.  ]\n"


def test_J2_print_options_captured_at_trace_time(capsys):
    """J2: under jit the options in force when debug.print was traced are used, not those at
    execution time."""
    plain = jax.jit(lambda x: jax.debug.print("{}", x))
    plain(_VALUES)  # traced with default options
    with np.printoptions(precision=2, suppress=True):
        plain(_VALUES)  # cache hit: still the default options
        jax.effects_barrier()
        tight = jax.jit(lambda x: jax.debug.print("{}", x))
        tight(_VALUES)  # traced under the custom options
    tight(_VALUES)  # executed later, outside the context: still the captured options
    jax.effects_barrier()
    default = "[1.2345e+00 2.3456e+00 1.0000e-07]\n"
    custom = "[1.23 2.35 0.  ]\n"
    assert capsys.readouterr().out == default + default + custom + custom


@pytest.mark.parametrize(
    "value, expected",
    [
        (2, "2"),
        (1.0, "1.0"),
        (np.float32(2.0), "2.0"),
        (np.array([1.0, 2.0, 3.0], np.float32), "[1. 2. 3.]"),
        (np.bool_(True), "True"),
    ],
    ids=["int", "float", "float32", "vector", "bool"],
)
def test_J3_values_render_with_str(capsys, value, expected):
    """J3: a top-level `{}` renders str() of the runtime value."""
    jax.jit(lambda x: jax.debug.print("{}", x))(value)
    jax.effects_barrier()
    assert capsys.readouterr().out == expected + "\n"


def test_J3_default_layout_wraps_like_numpy(capsys):
    """J3: multi-line arrays use NumPy's default str layout (line width 75)."""
    x = np.arange(1, 105, dtype=np.int32).reshape(8, 13)
    jax.jit(lambda v: jax.debug.print("{}", v))(x)
    jax.effects_barrier()
    assert capsys.readouterr().out == str(x) + "\n"


def test_J3_format_spec_applies_to_0d_values(capsys):
    """J3: `{x:.2f}` and alignment specs format the 0-d value."""
    jax.jit(lambda x: jax.debug.print("{x:.2f}|{y:>5}|{z:03d}", x=x, y=x, z=x.astype(int)))(2.0)
    jax.effects_barrier()
    assert capsys.readouterr().out == "2.00|  2.0|002\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_J3_containers_use_repr(capsys, ordered):
    """J3: values inside containers render with repr: Array(2, dtype=int32)."""
    x = np.array(2, np.int32)
    jax.jit(lambda v: jax.debug.print("x: {}", {"foo": v}, ordered=ordered))(x)
    jax.effects_barrier()
    assert capsys.readouterr().out == "x: {'foo': Array(2, dtype=int32)}\n"


def test_J3_container_repr_of_vectors_and_weak_values(capsys):
    """J3: repr uses ', ' separators and shows weak_type=True for weakly typed values."""
    jax.jit(lambda v: jax.debug.print("{}", (v,)))(jnp.arange(3.0))
    jax.debug.print("{}", {"foo": 2})  # eager: the Python int stays weakly typed
    jax.effects_barrier()
    assert capsys.readouterr().out == (
        "(Array([0., 1., 2.], dtype=float32),)\n{'foo': Array(2, dtype=int32, weak_type=True)}\n"
    )


def test_J3_static_leaves_formatted_as_objects(capsys):
    """J3: static leaves (strings, dtypes) format as the original objects."""
    jax.jit(lambda v: jax.debug.print("{} {} {}", v, "tag", np.dtype(np.float32)))(1)
    jax.effects_barrier()
    assert capsys.readouterr().out == "1 tag float32\n"


def test_J4_missing_named_field_is_key_error():
    """J4: a named field with no matching kwarg is a KeyError at call (trace) time."""
    with pytest.raises(KeyError):
        jax.make_jaxpr(lambda x: jax.debug.print("hello: {x}", x))(1.0)


def test_J4_missing_positional_field_is_index_error():
    """J4: a positional field with no positional argument is an IndexError at call time."""
    with pytest.raises(IndexError):
        jax.make_jaxpr(lambda x: jax.debug.print("hello: {}", x=x))(1.0)


def test_J4_unused_positional_arguments(capsys):
    """J4: unused positional arguments are a ValueError listing their reprs."""
    with pytest.raises(ValueError) as info:
        jax.debug.print("hello", 1, jnp.float32(2.0))
    assert str(info.value) == (
        "Unused positional arguments to `jax.debug.print`: [1, Array(2., dtype=float32)]"
    )
    jax.effects_barrier()
    assert capsys.readouterr().out == ""


def test_J4_unused_keyword_arguments():
    """J4: unused keyword arguments are a ValueError naming them, with the f-string hint."""
    with pytest.raises(ValueError) as info:
        jax.debug.print("hello {x}", x=1, y=2)
    assert str(info.value) == (
        "Unused keyword arguments to `jax.debug.print`: ['y']. You may be passing an f-string "
        '(i.e, `f"{x}"`) into `jax.debug.print` and instead should pass in a regular string.'
    )


def test_J4_mixed_numbering_is_value_error():
    """J4: mixing manual and automatic field numbering is string.Formatter's ValueError."""
    with pytest.raises(ValueError, match="cannot switch from manual field specification"):
        jax.debug.print("{0} {}", 1, 2)


def test_J4_format_specs_not_validated_at_call_time():
    """J4: only field resolution is checked at call time: a bad spec traces fine."""
    jax.make_jaxpr(lambda x: jax.debug.print("{:zz}", x))(1.0)


def test_J4_skip_format_check_disables_validation(capsys):
    """J4: skip_format_check=True skips the call-time check (unused kwargs tolerated)."""
    jax.debug.print("hello {x}", x=1, y=2, skip_format_check=True)
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello 1\n"


def test_J5_fstring_with_kwargs_is_rejected():
    """J5: an f-string has no fields left, so its kwargs are reported as unused."""
    x = 3
    with pytest.raises(ValueError) as info:
        jax.debug.print(f"hello {x}", x=x)
    assert str(info.value).startswith(
        "Unused keyword arguments to `jax.debug.print`: ['x']. You may be passing an f-string"
    )


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_J6_no_placeholder_path_joins_with_spaces(capsys, use_jit):
    """J6: without placeholders (skip_format_check=True) fmt and str() of each positional
    argument are joined by single spaces."""

    def f(a, b):
        jax.debug.print("hello", a, b, skip_format_check=True)

    (jax.jit(f) if use_jit else f)(1, np.array([1.5, 2.0], np.float32))
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello 1 [1.5 2. ]\n"


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
def test_J7_empty_format_prints_empty_line(capsys, use_jit):
    """J7: debug.print("") prints an empty line."""

    def f(x):
        jax.debug.print("")
        return x

    (jax.jit(f) if use_jit else f)(1)
    jax.effects_barrier()
    assert capsys.readouterr().out == "\n"
