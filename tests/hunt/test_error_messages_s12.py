"""Error types and first lines as JAX 0.10.2's (session 12). jaxlite named a tracer as
``Traced<float32[]>with<StagingTrace>`` where JAX says ``traced array with shape float32[]``,
raised ``TypeError`` for a matmul whose batch dimensions do not broadcast (JAX:
``ValueError``), and worded reshape/split/matmul/item-assignment errors its own way. Each
test asserts JAX's message (they pass in oracle mode); jaxlite's extra advice may follow on
later lines."""

import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import errors


def _raises(exc, first_line):
    return pytest.raises(exc, match="^" + re.escape(first_line))


def test_bool_of_tracer_names_the_traced_array():
    with _raises(
        errors.TracerBoolConversionError,
        "Attempted boolean conversion of traced array with shape bool[].",
    ):
        jax.jit(lambda x: 1 if x > 0 else 2)(1.0)


@pytest.mark.parametrize("convert", [int, float])
def test_int_float_of_tracer(convert):
    with _raises(
        errors.ConcretizationTypeError,
        "Abstract tracer value encountered where concrete value is expected: "
        "traced array with shape float32[]",
    ):
        jax.jit(lambda x: convert(x))(1.0)


def test_index_of_tracer():
    with _raises(
        errors.TracerIntegerConversionError,
        "The __index__() method was called on traced array with shape int32[]",
    ):
        jax.jit(lambda x, i: [1, 2, 3][i])(1.0, 1)


def test_numpy_conversion_of_tracer():
    with _raises(
        errors.TracerArrayConversionError,
        "The numpy.ndarray conversion method __array__() was called on traced array with "
        "shape float32[2,3]",
    ):
        jax.jit(lambda x: np.asarray(x))(jnp.ones((2, 3)))


@pytest.mark.parametrize(
    "shape, message",
    [
        ((4, 2), "cannot reshape array of shape (6,) (size 6) into shape (4, 2) (size 8)"),
        (
            (4, -1),
            "cannot reshape array of shape (6,) (size 6) into shape (4, -1) because the "
            "product of specified axis sizes (4) does not evenly divide 6",
        ),
        ((-1, -1), "can only specify one unknown axis size with a `-1` value, got (-1, -1)"),
    ],
)
def test_reshape_messages(shape, message):
    with _raises(TypeError, message):
        jnp.reshape(jnp.ones(6), shape)
    with _raises(TypeError, message):
        jnp.ones(6).reshape(shape)


@pytest.mark.parametrize("axis, shape", [(0, (5,)), (1, (2, 7))])
def test_split_unequal(axis, shape):
    rest = shape[axis] % 2
    with _raises(ValueError, f"array split does not result in an equal division: rest is {rest}"):
        jnp.split(jnp.ones(shape), 2, axis=axis)


@pytest.mark.parametrize(
    "a, b, exc, message",
    [
        ((2, 3), (2, 3), TypeError, "got (3,) and (2,)."),
        ((3,), (4,), TypeError, "got (3,) and (4,)."),
        ((2, 3, 4), (2, 5, 6), TypeError, "got (4,) and (5,)."),
        (
            (2, 3, 4),
            (3, 4, 6),
            ValueError,
            "Incompatible types for matmul arguments: float32[2,3,4] and float32[3,4,6]",
        ),
        (
            (2, 3, 4),
            (3, 5, 6),
            ValueError,
            "Incompatible types for matmul arguments: float32[2,3,4] and float32[3,5,6]",
        ),
    ],
)
def test_matmul_mismatch(a, b, exc, message):
    if exc is TypeError:
        message = "dot_general requires contracting dimensions to have the same shape, " + message
    with _raises(exc, message):
        jnp.matmul(jnp.ones(a), jnp.ones(b))
    with _raises(exc, message):
        jnp.ones(a) @ jnp.ones(b)


def test_matmul_broadcasting_still_works():
    out = jnp.matmul(jnp.ones((2, 1, 3, 4)), jnp.ones((5, 4, 2)))
    assert out.shape == (2, 5, 3, 2)
    assert jnp.matmul(jnp.ones((2, 3, 4)), jnp.ones(4)).shape == (2, 3)
    assert jnp.matmul(jnp.ones(3), jnp.ones((2, 3, 4))).shape == (2, 4)


@pytest.mark.parametrize("traced", [False, True])
def test_item_assignment(traced):
    message = (
        "JAX arrays are immutable and do not support in-place item assignment. Instead of "
        "x[idx] = y, use x = x.at[idx].set(y) or another .at[] method"
    )

    def f(x):
        x[0] = 1
        return x

    with _raises(TypeError, message):
        (jax.jit(f) if traced else f)(jnp.ones(3))
