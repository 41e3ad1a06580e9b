"""``ops/xla_fma``: the one emulation of XLA's contracted multiply-add, in its three forms
(array, in place over buffers, scalar for Numba). float64 results are checked against the
exact ``a*b + c`` rounded once (``fractions.Fraction``); every form must give the same bits,
``-0.0`` sums included. The samplers built on them are checked against JAX bit for bit in
tests/random/test_random_fast_paths.py and test_random_native.py."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from jaxlite._src.ops import xla_fma

pytestmark = pytest.mark.jaxlite_only  # private kernels: no JAX counterpart to alias


def _operands(n=4000, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n) * np.exp2(rng.integers(-40, 40, n))
    b = rng.standard_normal(n) * np.exp2(rng.integers(-40, 40, n))
    c = rng.standard_normal(n) * np.exp2(rng.integers(-80, 80, n))
    # c = -round(a*b): the exact result is the product's rounding error, which an unfused
    # multiply-add loses entirely (it returns 0).
    c[: n // 4] = -(a[: n // 4] * b[: n // 4])
    c[n // 4 : n // 2] = np.nextafter(c[: n // 4], np.inf)
    return a, b, c


def _bits(x):
    return np.asarray(x, np.float64).view(np.uint64)


def test_fma64_is_the_exact_result_rounded_once():
    a, b, c = _operands()
    got = xla_fma.fma64(a, b, c)
    want = np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)])
    np.testing.assert_array_equal(_bits(got), _bits(want))
    assert np.count_nonzero(got != a * b + c) > 1000  # the cases an unfused a*b + c misses


SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 1e-310, -5e-324, 1e308, -1e308, np.inf, -np.inf]


def test_forms_agree_bit_for_bit():
    a, b, c = _operands(seed=1)
    sp = np.array(SPECIAL + [np.nan])
    ga, gb, gc = (g.reshape(-1) for g in np.meshgrid(sp, sp, sp, indexing="ij"))
    a, b, c = np.concatenate([a, ga]), np.concatenate([b, gb]), np.concatenate([c, gc])
    with np.errstate(all="ignore"):
        arr = xla_fma.fma64(a, b, c)
        out = np.empty_like(a)
        bh, bl = xla_fma.veltkamp(b)
        scratch = [np.empty_like(a) for _ in range(xla_fma.FMA64_SCRATCH)]
        xla_fma.fma64_into(out, a, b, bh, bl, c, scratch)
        scalar = np.array(
            [xla_fma.fma64_scalar(*v) for v in zip(a.tolist(), b.tolist(), c.tolist())]
        )
    np.testing.assert_array_equal(_bits(arr), _bits(out))
    np.testing.assert_array_equal(_bits(arr), _bits(scalar))
    # -0.0 * b + -0.0 stays -0.0, as on an FMA unit (s + 0 would make it +0.0).
    assert _bits(xla_fma.fma64(-0.0, 2.0, -0.0)) == _bits(-0.0)
    assert _bits(xla_fma.fma64_scalar(-0.0, 2.0, -0.0)) == _bits(-0.0)


def test_fma64_broadcasts():
    a = np.linspace(-3, 3, 6).reshape(2, 3, 1)
    b = np.array([0.1, -7.0, 1e-20, 3.0])
    got = xla_fma.fma64(a, b, 0.25)
    assert got.shape == (2, 3, 4) and got.dtype == np.float64
    want = xla_fma.fma64(*(np.ascontiguousarray(v) for v in np.broadcast_arrays(a, b, 0.25)))
    np.testing.assert_array_equal(_bits(got), _bits(want))


def test_fma32_forms_agree():
    rng = np.random.default_rng(2)
    a, b, c = (rng.standard_normal(3000).astype(np.float32) for _ in range(3))
    c[:1000] = -(a[:1000] * b[:1000])
    arr = xla_fma.fma32(a, b, c)
    out, t64 = np.empty_like(a), np.empty(a.shape, np.float64)
    xla_fma.fma32_into(out, a, b.astype(np.float64), c, t64)
    scalar = np.array([xla_fma.fma32_scalar(*v) for v in zip(a, b, c)], np.float32)
    assert arr.dtype == out.dtype == np.float32
    np.testing.assert_array_equal(arr.view(np.uint32), out.view(np.uint32))
    np.testing.assert_array_equal(arr.view(np.uint32), scalar.view(np.uint32))
    exact = [
        float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
        for x, y, z in zip(a, b, c)
    ]
    np.testing.assert_array_equal(arr, np.array(exact).astype(np.float32))


def test_numba_forms_agree():
    pytest.importorskip("numba")
    from jaxlite._src.random import _xla_numba

    a, b, c = _operands(500, seed=3)
    with np.errstate(all="ignore"):
        want = xla_fma.fma64(a, b, c)
    got = np.array([_xla_numba.fma64(x, y, z) for x, y, z in zip(a, b, c)])
    np.testing.assert_array_equal(_bits(got), _bits(want))
    a32, b32, c32 = (v.astype(np.float32) for v in (a, b, c))
    got32 = np.array([_xla_numba.fma32(x, y, z) for x, y, z in zip(a32, b32, c32)], np.float32)
    np.testing.assert_array_equal(got32, xla_fma.fma32(a32, b32, c32))
