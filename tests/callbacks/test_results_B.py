"""Spec callbacks.md section B (B1-B8): validation of what pure/io callbacks return.

B1, B2, B4, B5 and B7 surface as a RuntimeError (subclass) carrying the quoted text; B6 is a
call-time ValueError. Tests run over unordered io_callback, ordered io_callback and
pure_callback, and call effects_barrier inside the raises block because errors may surface
only there.
"""

import logging

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

FLAVOURS = ["io_unordered", "io_ordered", "pure"]


def _callback(flavour, cb, spec, *args):
    if flavour == "pure":
        return jax.pure_callback(cb, spec, *args)
    return io_callback(cb, spec, *args, ordered=flavour == "io_ordered")


def _run(flavour, cb, spec, *args, use_jit=True):
    def f(*a):
        return _callback(flavour, cb, spec, *a)

    out = (jax.jit(f) if use_jit else f)(*args)
    jax.tree_util.tree_map(lambda leaf: leaf.block_until_ready(), out)
    jax.effects_barrier()
    return out


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B1_too_many_outputs(flavour, use_jit):
    """B1: returning (x, ones(4)) for one declared output."""
    spec = jax.ShapeDtypeStruct((), np.float32)
    with pytest.raises(RuntimeError) as info:
        _run(
            flavour, lambda x: (x, np.ones(4, np.float32)), spec, jnp.float32(1.0), use_jit=use_jit
        )
    assert "Mismatched number of outputs from callback. Expected: 1, Actual: 2" in str(info.value)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B1_none_for_two_outputs(flavour):
    """B1: returning None where two outputs are declared."""
    spec = (jax.ShapeDtypeStruct((), np.float32), jax.ShapeDtypeStruct((), np.float32))
    with pytest.raises(RuntimeError) as info:
        _run(flavour, lambda x: None, spec, jnp.float32(1.0))
    assert "Mismatched number of outputs from callback. Expected: 2, Actual: 0" in str(info.value)


@pytest.mark.parametrize("ordered", [False, True])
def test_B1_value_for_none_spec(ordered):
    """B1: returning a value where no outputs are declared (io_callback with spec None)."""
    with pytest.raises(RuntimeError) as info:
        jax.jit(lambda x: io_callback(lambda v: v, None, x, ordered=ordered))(1.0)
        jax.effects_barrier()
    assert "Mismatched number of outputs from callback. Expected: 0, Actual: 1" in str(info.value)


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B2_wrong_shape(flavour, use_jit):
    """B2: np.float32(1.) (shape ()) returned for a declared (1,) output."""
    spec = jax.ShapeDtypeStruct((1,), np.float32)
    with pytest.raises(RuntimeError) as info:
        _run(flavour, lambda x: np.float32(1.0), spec, jnp.float32(1.0), use_jit=use_jit)
    assert "Incorrect output shape for return value #0: Expected: (1,), Actual: ()" in str(
        info.value
    )


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B2_wrong_shape_reports_flat_index_and_no_broadcast(flavour):
    """B2: the index is the flattened output position; shapes must match exactly."""
    spec = {
        "a": jax.ShapeDtypeStruct((2,), np.float32),
        "b": [jax.ShapeDtypeStruct((2, 3), np.float32)],
    }

    def cb(x):
        # (1, 3) would broadcast to (2, 3) but must be rejected.
        return {"a": np.ones(2, np.float32), "b": [np.ones((1, 3), np.float32)]}

    with pytest.raises(RuntimeError) as info:
        _run(flavour, cb, spec, jnp.float32(1.0))
    assert "Incorrect output shape for return value #1: Expected: (2, 3), Actual: (1, 3)" in str(
        info.value
    )


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B3_float64_result_accepted_with_x64_off(flavour):
    """B3: with x64 off a float64 result for a float32 spec is narrowed silently."""
    spec = jax.ShapeDtypeStruct((1,), np.float32)
    out = _run(flavour, lambda x: np.array([1.0], np.float64), spec, jnp.float32(0.0))
    assert out.dtype == np.float32
    np.testing.assert_array_equal(np.asarray(out), [1.0])


@pytest.mark.parametrize(
    "literal, dtype", [(42, np.int32), (42.0, np.float32)], ids=["int", "float"]
)
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B3_python_literal_accepted_with_x64_off(flavour, literal, dtype):
    """B3: Python literals 42 / 42.0 are accepted for int32 / float32 specs."""
    out = _run(flavour, lambda: literal, jax.ShapeDtypeStruct((), dtype))
    assert out.dtype == dtype
    assert float(out) == 42.0


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B4_float64_result_rejected_with_x64_on(flavour):
    """B4: with x64 on, float64 returned for a float32 spec is an error."""
    jax.config.update("jax_enable_x64", True)
    spec = jax.ShapeDtypeStruct((1,), np.float32)
    with pytest.raises(RuntimeError) as info:
        _run(flavour, lambda x: np.array([1.0], np.float64), spec, jnp.float32(0.0))
    assert "Incorrect output dtype for return value #0: Expected: float32, Actual: float64" in str(
        info.value
    )


@pytest.mark.parametrize(
    "literal, dtype, actual",
    [(42, np.int32, "int64"), (42.0, np.float32, "float64")],
    ids=["int", "float"],
)
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B4_python_literal_rejected_with_x64_on(flavour, literal, dtype, actual):
    """B4: with x64 on, Python literals are int64/float64 and fail 32-bit specs."""
    jax.config.update("jax_enable_x64", True)
    with pytest.raises(RuntimeError) as info:
        _run(flavour, lambda: literal, jax.ShapeDtypeStruct((), dtype))
    expected = np.dtype(dtype).name
    assert (
        f"Incorrect output dtype for return value #0: Expected: {expected}, Actual: {actual}"
        in str(info.value)
    )


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B4_matching_64bit_spec_accepted_with_x64_on(flavour):
    """B4: with x64 on, a float64 spec accepts a Python float literal."""
    jax.config.update("jax_enable_x64", True)
    out = _run(flavour, lambda: 42.0, jax.ShapeDtypeStruct((), np.float64))
    assert out.dtype == np.float64 and float(out) == 42.0


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B5_kind_mismatch_always_fails(flavour, x64):
    """B5: int32 returned for a float32 spec fails; no casting between kinds."""
    jax.config.update("jax_enable_x64", x64)
    spec = jax.ShapeDtypeStruct((), np.float32)
    with pytest.raises(RuntimeError) as info:
        _run(flavour, lambda x: np.int32(1), spec, jnp.float32(1.0))
    assert "Incorrect output dtype for return value #0: Expected: float32, Actual: int32" in str(
        info.value
    )


@pytest.mark.parametrize("dtype", [np.int64, np.float64])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B6_64bit_spec_with_x64_off_is_call_time_error(flavour, dtype):
    """B6: a 64-bit spec with x64 off is a ValueError at call time, before any execution."""
    calls = []

    def cb(x):
        calls.append(x)
        return x

    @jax.jit
    def f(x):
        jax.debug.callback(lambda v: calls.append("executed"), x)
        return _callback(flavour, cb, jax.ShapeDtypeStruct((), dtype), x)

    with pytest.raises(ValueError) as info:
        f(jnp.float32(1.0))
    assert str(info.value) == (
        "result_shape_dtypes cannot specify 64-bit types when `jax_enable_x64` is disabled"
    )
    jax.effects_barrier()
    assert calls == []


@pytest.mark.parametrize("use_jit", [True, False], ids=["jit", "eager"])
@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B7_wrong_number_of_callback_arguments(flavour, use_jit):
    """B7: a callback needing x but called with no arguments: RuntimeError for the user."""
    spec = jax.ShapeDtypeStruct((), np.float32)

    def cb(x):
        return x

    with pytest.raises(RuntimeError):
        _run(flavour, cb, spec, use_jit=use_jit)


@pytest.mark.parametrize("flavour", FLAVOURS)
def test_B8_validation_failures_are_not_logged_as_callback_failures(flavour, caplog):
    """B8 [src]: shape/dtype/count mismatches are not logged as 'jax.<api> failed'."""
    caplog.set_level(logging.ERROR)
    bad_returns = [
        (jax.ShapeDtypeStruct((1,), np.float32), lambda x: np.float32(1.0)),
        (jax.ShapeDtypeStruct((), np.float32), lambda x: np.int32(1)),
        (jax.ShapeDtypeStruct((), np.float32), lambda x: (x, x)),
    ]
    for spec, cb in bad_returns:
        with pytest.raises(RuntimeError):
            _run(flavour, cb, spec, jnp.float32(1.0))
    assert not [r for r in caplog.records if "failed" in r.getMessage()]
    # Contrast: an exception raised by the user function itself is logged.
    with pytest.raises(RuntimeError):
        _run(flavour, lambda x: 1 / 0, jax.ShapeDtypeStruct((), np.float32), jnp.float32(1.0))
    assert [r for r in caplog.records if "failed" in r.getMessage()]
