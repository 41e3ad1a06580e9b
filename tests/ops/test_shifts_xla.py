"""lax shifts with XLA's semantics (JAX's values): the arithmetic right shift of unsigned
integers fills with the top bit (jaxlite shifted logically: ``uint8 250 >> 1`` gave 125, JAX
253), out-of-range amounts (negative, or at least the width) give 0 or, for the arithmetic
shift, the sign fill; also in jit and in the native tier (whose arithmetic shift treated
negative amounts as 0)."""

import os
import sys

import numpy as np
import pytest

import jaxlite as jax
from jaxlite import lax

CASES = [
    (np.array([250, 128, 7, 255, 1], np.uint8), np.array([1, 7, 1, 3, 0], np.uint8)),
    (np.array([250, 128, 7], np.uint8), np.array([8, 200, 9], np.uint8)),
    (np.array([2**31 + 5, 3, 2**32 - 1], np.uint32), np.array([4, 40, 31], np.uint32)),
    (np.array([-8, 5, -1, -128], np.int8), np.array([1, 9, -3, 100], np.int8)),
    (np.array([-8, 5, -1, 1 << 20], np.int32), np.array([-1, 33, 31, 3], np.int32)),
    (np.array([40000, 3], np.uint16), np.array([15, 16], np.uint16)),
]


def _reference(name, x, s):
    """XLA's shift on the bit pattern, computed with Python integers."""
    bits = x.dtype.itemsize * 8
    out = []
    for v, k in zip(x.tolist(), s.tolist()):
        u = v % (1 << bits)  # the bit pattern
        signed = u - (1 << bits) if u >> (bits - 1) else u
        if name == "shift_left":
            r = 0 if not 0 <= k < bits else (u << k) % (1 << bits)
        elif name == "shift_right_logical":
            r = 0 if not 0 <= k < bits else u >> k
        else:
            r = (signed >> min(k, bits - 1) if k >= 0 else signed >> (bits - 1)) % (1 << bits)
        out.append(r)
    return np.array(out, dtype=f"uint{bits}").view(x.dtype)


NAMES = ["shift_left", "shift_right_logical", "shift_right_arithmetic"]


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("case", range(len(CASES)))
def test_shift_matches_xla(name, case, jit):
    x, s = CASES[case]
    fn = getattr(lax, name)
    got = (jax.jit(fn) if jit else fn)(x, s)
    want = _reference(name, x, s)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(got), want)


# The native tier compiles every shift but the logical shift of signed values (that one
# stays in the Python tier).
NATIVE = [
    (name, i)
    for name in NAMES
    for i, (x, _) in enumerate(CASES)
    if name != "shift_right_logical" or x.dtype.kind == "u"
]


@pytest.mark.jaxlite_only  # the native tier is jaxlite's own machinery
@pytest.mark.parametrize("name, case", NATIVE)
def test_native_tier_shifts_match(name, case):
    pytest.importorskip("numba", reason="numba is not installed (pip install jaxlite[native])")
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "compile"))
    from test_native import _both_tiers, _same  # noqa: PLC0415

    x, s = CASES[case]
    fn = getattr(lax, name)
    want, got = _both_tiers(fn, x, s)
    _same(want, got, what=name)
    np.testing.assert_array_equal(np.asarray(got[0]), _reference(name, x, s))
    # A scalar amount (the native rule's scalar form).
    want, got = _both_tiers(lambda v: fn(v, s.dtype.type(-1) if s.dtype.kind == "i" else s[1]), x)
    _same(want, got, what=name + " scalar")
