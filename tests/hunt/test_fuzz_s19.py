"""Session 19 differential hunt (generators in tests/hunt/fuzz_s19.py: x64 mode, size-0
operands, named-axis collectives under vmap, deep transformation stacks) checked against
JAX 0.10.2. Each case asserts JAX's answer as a known value (so it means something
without JAX, and the file passes in oracle mode, ``JAXLITE_ORACLE=jax``) and, where JAX is
importable, compares the whole result with it through tests/hunt/oracle.py: raised
exception class, or structure, shapes, dtypes, weak types, values and signs of zeros."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from tests.hunt.oracle import same


def _x64(build):
    """``build`` run under ``enable_x64(True)``."""

    def run(m):
        with m.jx.enable_x64(True):
            return build(m)

    return run


# --------------------------------------------------- bools made numeric are int32 in x64
# JAX's numeric promotion of bool operands (square, power, shifts, floor_divide, divmod,
# remainder, fmod) gives int32 with or without x64 (its to_numeric_dtype); jaxlite gave
# the default integer type, int64 under x64 (``jnp.square(bools)`` was int64).

_BOOL_NUMERIC = {
    "square": lambda m: m.jnp.square(m.jnp.array([True, False])),
    "square_scalar": lambda m: m.jnp.square(True),
    "power_int": lambda m: m.jnp.array([True, False]) ** 2,
    "power_bool": lambda m: m.jnp.power(m.jnp.array([True, False]), True),
    "power_bools": lambda m: m.jnp.power(m.jnp.array([True, False]), m.jnp.array([True, True])),
    "power_int8_scalar": lambda m: m.jnp.power(m.jnp.array([True, False]), m.jnp.int8(3)),
    "left_shift": lambda m: m.jnp.left_shift(m.jnp.array([True, False]), True),
    "right_shift": lambda m: m.jnp.right_shift(m.jnp.array([True, False]), False),
    "floor_divide": lambda m: m.jnp.array([True, False]) // m.jnp.array([True, True]),
    "divmod": lambda m: m.jnp.divmod(m.jnp.array([True, False]), True),
    "remainder": lambda m: m.jnp.array([True, False]) % m.jnp.array([True, True]),
    "fmod": lambda m: m.jnp.fmod(m.jnp.array([True, False]), True),
    "jit_power": lambda m: m.jx.jit(lambda b: b**2)(m.jnp.array([True, False])),
    "vmap_square": lambda m: m.jx.vmap(m.jnp.square)(m.jnp.array([True, False])),
    "grad_allow_int": lambda m: m.jx.grad(
        lambda x, b: (x * m.jnp.square(b).astype(x.dtype)).sum(), allow_int=True
    )(m.jnp.ones(2), m.jnp.array([True, False])),
}


@pytest.mark.parametrize("name", sorted(_BOOL_NUMERIC))
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_bools_made_numeric_are_int32(name, x64):
    build = _BOOL_NUMERIC[name]
    same(_x64(build) if x64 else build)


def test_bools_made_numeric_known_values():
    with jaxlite.enable_x64(True):
        b = jnp.array([True, False])
        for r in (jnp.square(b), b**2, jnp.left_shift(b, b), b // True, jnp.fmod(b, True)):
            assert r.dtype == np.int32
        np.testing.assert_array_equal(jnp.square(b), [1, 0])
        np.testing.assert_array_equal(jnp.left_shift(b, True), [2, 0])
        # a non-bool operand decides as before: int64 under x64
        assert (b // jnp.int64(1)).dtype == np.int64
        assert jnp.power(b, jnp.asarray(np.array([2], np.int64))).dtype == np.int64
