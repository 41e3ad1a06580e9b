"""jnp.arange / jnp.array / jnp.asarray against JAX 0.10.2 (a session-10 sweep).

Wrong answers fixed:
- ``jnp.array([1, 2**40])`` silently wrapped to int32; JAX raises OverflowError (so do
  ``[np.uint8(1), -1]`` and ``[np.int8(1), 300]``).
- A list mixing NumPy scalars/arrays with Python scalars took NumPy's dtype, not JAX's
  promotion: ``[np.int8(1), 2]`` gave int32 (JAX int8), ``[np.float16(1), 2]`` float32.
- ``arange(0, 5, 1.5, dtype=int32)`` gave ``[0, 1, 3, 4]``; JAX casts start and step to the
  dtype first: ``[0, 1, 2, 3]``. ``arange(np.int8(5))`` was int32 (JAX int8), and
  ``arange(True)`` was accepted (JAX: iota refuses bool).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.numpy as J  # noqa: E402

import jaxlite  # noqa: E402
import jaxlite.numpy as L  # noqa: E402


def outcome(mod, fn, *args, **kw):
    try:
        r = getattr(mod, fn)(*args, **kw)
    except (TypeError, ValueError, OverflowError) as e:
        return type(e).__name__, str(e)
    return str(r.dtype), np.asarray(r).tobytes(), np.shape(r)


ARANGE = [
    ((5,), {}), ((5.0,), {}), ((1, 7, 2), {}), ((0, 1, 0.1), {}), ((10, 0, -3), {}),
    ((0.5, 3), {"dtype": "int32"}), ((0, 5, 1.5), {"dtype": "int32"}),
    ((2.5, 0, -0.7), {"dtype": "int32"}), ((0, 2.5, 0.5), {"dtype": "uint8"}),
    ((-1.5, 2), {"dtype": "uint8"}), ((0, 1, 0.1), {"dtype": "float16"}),
    ((0, 1, 0.1), {"dtype": "bfloat16"}), ((-3, 7.7, 0.37), {}), ((1e3, 1e3 + 1, 0.03), {}),
    ((0.1, 12.3, 0.7), {"dtype": "float32"}), ((5,), {"dtype": "float16"}),
    ((0, 3), {"dtype": "complex64"}), ((np.int8(5),), {}), ((np.int8(1), 300), {}),
    ((np.uint8(2), np.int8(9)), {}), ((np.float16(2.5),), {}), ((1, np.float16(4)), {}),
    ((np.int16(1), 5, np.int8(2)), {}), ((np.float64(0.5), 3), {}), ((True,), {}),
    ((3,), {"dtype": bool}), ((-3,), {}), ((0, 1j),), ((np.arange(2),), {}),
]


@pytest.mark.parametrize("case", range(len(ARANGE)))
def test_arange_bits_match_jax(case):
    args, kw = (ARANGE[case] + ({},))[:2]
    assert outcome(L, "arange", *args, **kw) == outcome(J, "arange", *args, **kw)


def test_arange_under_jit_and_x64_matches_jax():
    f = lambda m: (lambda: m.arange(0.25, 9.0, 0.3))  # noqa: E731
    assert np.asarray(jaxlite.jit(f(L))()).tobytes() == np.asarray(jax.jit(f(J))()).tobytes()
    with jax.enable_x64(True), jaxlite.enable_x64(True):
        for args in [(0.25, 9.0, 0.3), (np.int8(3), 40), (1, 2**40, 2**38)]:
            assert outcome(L, "arange", *args) == outcome(J, "arange", *args)


LISTS = [
    [1, 2**40], [2**31], [-(2**31)], [2**63], [np.int8(1), 2], [np.int8(1), 2.5],
    [np.float16(1), 2], [np.int64(1), 2], [np.uint8(1), -1], [[np.int8(1)], [2]],
    [np.int8(1), 300], [1, np.array(2, np.int8)], [True, 2], [np.float32(1), 1j],
    [np.bool_(True), 2], [np.float64(1e300)], [1e300], (np.int16(3), np.uint8(4)),
    [np.uint32(1), 1], [np.array([1, 2], np.int8), [3, 4]], [np.uint8(1), np.int8(1)],
    [np.uint64(1), np.int64(1)], [1.0, 2**40], [], [[1, 2], [3, 4]], [[]], [1, 2.0, 3j],
]


@pytest.mark.parametrize("fn", ["array", "asarray"])
@pytest.mark.parametrize("case", range(len(LISTS)))
def test_nested_lists_match_jax(fn, case):
    with np.errstate(over="ignore"):
        ours, theirs = outcome(L, fn, LISTS[case]), outcome(J, fn, LISTS[case])
    assert ours == theirs
    if len(ours) == 3:  # an array: a list never gives a weak type
        assert getattr(L, fn)(LISTS[case]).weak_type is False


def test_python_scalars_beyond_int32_raise_under_x64_only_past_int64():
    with jax.enable_x64(True), jaxlite.enable_x64(True):
        for c in ([1, 2**40], [2**63], [np.int32(1), 2**40]):
            assert outcome(L, "array", c) == outcome(J, "array", c)
