"""Session 22: rlax 0.1.9 on jaxlite. Its ``interruptions_test`` builds arrays from dm_env's
``StepType`` (an ``enum.IntEnum``) and failed: jaxlite took only values whose type is exactly
``bool``/``int``/``float``/``complex`` for Python scalars, so a member of an ``IntEnum`` (or
any other subclass of ``int``, ``float`` or ``complex`` that is not a NumPy scalar) was "not a
valid JAX type" in ``jnp.array``, operators, ``jit`` arguments and outputs, ``lax.dtype``,
and ``jnp.array(e)`` lost the weak type. JAX treats such a value as the Python scalar it
extends (weakly typed); ``np.float64``, which subclasses ``float``, stays a NumPy scalar.
Each case runs on both engines (``same``: values, dtypes, weak types).
"""

import enum

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE, same


class Step(enum.IntEnum):
    FIRST = 0
    MID = 1
    LAST = 2


class Half(float, enum.Enum):
    H = 0.5


class Flag(enum.IntFlag):
    R = 4


class MyFloat(float):
    pass


class MyInt(int):
    pass


CASES = {
    "array_nested": lambda m: m.jnp.array([[Step.MID], [Step.LAST], [Step.FIRST]]),
    "array_scalar_weak": lambda m: m.jnp.array(Step.LAST),
    "asarray_scalar_weak": lambda m: m.jnp.asarray(Step.LAST),
    "asarray_dtype": lambda m: m.jnp.asarray(Step.LAST, dtype=m.jnp.float32),
    "array_mixed_float": lambda m: m.jnp.array([Step.LAST, 1.5]),
    "array_mixed_bool": lambda m: m.jnp.array([True, Step.LAST]),
    "array_mixed_numpy": lambda m: m.jnp.array([np.int64(3), Step.LAST]),
    "array_float_enum": lambda m: m.jnp.array([Half.H]),
    "array_intflag": lambda m: m.jnp.array([Flag.R]),
    "float_subclass_weak": lambda m: m.jnp.asarray(MyFloat(1.5)),
    "float_subclass_keeps_bf16": lambda m: m.jnp.ones(2, m.jnp.bfloat16) * MyFloat(2.0),
    "numpy_float64_stays_strong": lambda m: m.jnp.asarray(np.float64(1.5)),
    "add": lambda m: m.jnp.add(Step.LAST, 1),
    "operator_add": lambda m: m.jnp.arange(3) + Step.LAST,
    "operator_eq": lambda m: m.jnp.arange(3) == Step.LAST,
    "int8_stays_int8": lambda m: m.jnp.int8(3) + Step.LAST,
    "where": lambda m: m.jnp.where(m.jnp.arange(3) > 0, Step.LAST, Step.FIRST),
    "full": lambda m: m.jnp.full((2,), Step.LAST),
    "stack": lambda m: m.jnp.stack([Step.LAST, Step.FIRST]),
    "result_type": lambda m: m.jnp.zeros((), m.jnp.result_type(Step.LAST)),
    "lax_dtype": lambda m: m.jnp.zeros((), m.lax.dtype(Step.LAST)),
    "lax_add": lambda m: m.lax.add(m.jnp.int32(1), Step.LAST),
    "jit_argument": lambda m: m.jx.jit(lambda x: x * 2)(Step.LAST),
    "jit_int_subclass": lambda m: m.jx.jit(lambda x: x + 1)(MyInt(3)),
    "jit_output": lambda m: m.jx.jit(lambda: Step.LAST)(),
    "vmap_unmapped": lambda m: m.jx.vmap(lambda x, s: x * s, in_axes=(0, None))(
        m.jnp.arange(2.0), Step.LAST
    ),
    "grad_float_subclass": lambda m: m.jx.grad(lambda x: x * 2.0)(MyFloat(1.5)),
    "cond_branch_output": lambda m: m.lax.cond(True, lambda: Step.LAST, lambda: 1),
    "scan_carry": lambda m: m.lax.scan(lambda c, x: (c + x, c), Step.LAST, m.jnp.arange(3))[0],
    "index": lambda m: m.jnp.arange(5.0)[Step.LAST],
    "at_set": lambda m: m.jnp.arange(5.0).at[Step.LAST].set(Step.FIRST),
    "clip": lambda m: m.jnp.clip(m.jnp.arange(5.0), Step.FIRST, Step.LAST),
}


@pytest.mark.parametrize("name", list(CASES))
def test_python_scalar_subclasses_are_python_scalars(name):
    out = same(CASES[name])
    assert not isinstance(out, Exception), out


def test_rlax_interruptions_trajectory():
    # the construction rlax's test makes: StepType members in a nested list
    out = LITE.jnp.array([[Step.MID], [Step.LAST], [Step.FIRST], [Step.MID]])
    assert out.dtype == np.int32 and out.shape == (4, 1)
    np.testing.assert_array_equal(np.asarray(out).ravel(), [1, 2, 0, 1])
    assert LITE.jnp.asarray(Step.LAST).weak_type


ENGINES = [pytest.param(LITE, id="jaxlite")]
if JAX is not None:
    ENGINES.append(pytest.param(JAX, id="jax"))


@pytest.mark.parametrize("m", ENGINES)
def test_linearize_and_vjp_return_the_scalar_outputs_themselves(m):
    # primal outputs that were Python scalars come back unchanged, subclasses included
    primal = m.jx.linearize(lambda a: (a * 2.0, Step.LAST), 1.0)[0]
    assert primal[1] is Step.LAST and float(primal[0]) == 2.0
    three = MyFloat(3.0)
    primal = m.jx.vjp(lambda a: (a * 2.0, three), 1.0)[0]
    assert primal[1] is three


def test_plain_enum_is_still_refused():
    class Plain(enum.Enum):
        Q = 1

    with pytest.raises(TypeError, match="not a valid JAX array type"):
        LITE.jnp.array([Plain.Q])
    out = same(lambda m: m.jnp.array([Plain.Q]))
    assert isinstance(out, TypeError)
