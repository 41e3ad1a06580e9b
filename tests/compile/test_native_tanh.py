"""The native tier's float32 ``tanh`` (``ops/tanh_numba``): a vectorisable element function
instead of a libm ``tanhf`` call per element (the cost of benchmarks' ``native_rnn_scan``
step), within 1 ulp of the correctly rounded value, equal at every special operand."""

import platform
import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.compile import codegen, native
from jaxlite._src.interpreters import simplify

pytestmark = pytest.mark.jaxlite_only  # the tier is jaxlite's own machinery

numba = pytest.importorskip("numba", reason="numba is not installed (pip install jaxlite[native])")


def _rnn(steps=20):
    rng = np.random.RandomState(0)
    w = (rng.randn(64, 64) / 8).astype(np.float32)
    u = (rng.randn(32, 64) / 6).astype(np.float32)
    b = (rng.randn(64) / 10).astype(np.float32)
    xs = rng.randn(steps, 32).astype(np.float32)

    def f(h, xs, w, u, b):
        def cell(h, x):
            h = jnp.tanh(jnp.dot(h, w) + jnp.dot(x, u) + b)
            return h, h

        return lax.scan(cell, h, xs)

    args = (np.zeros(64, np.float32), xs, w, u, b)
    return f, args, simplify.simplify(jax.make_jaxpr(f)(*args))


def test_float32_tanh_kernel_calls_the_helper_not_libm():
    # The benchmark's RNN scan: the step's tanh is a loop over tanh_numba.tanh_f32.
    _, _, closed = _rnn()
    src, _ = native.emit_kernel(closed)
    assert "from jaxlite._src.ops.tanh_numba import tanh_f32" in src
    assert "np.tanh" not in src
    # float64 keeps the C library's tanh (no float64 helper), scalars and arrays alike.
    x = np.linspace(-3, 3, 40)
    with jax.config._override("jax_enable_x64", True):
        closed = simplify.simplify(jax.make_jaxpr(lambda x: (jnp.tanh(x), jnp.tanh(x[3])))(x))
        assert closed.jaxpr.outvars[0].aval.dtype == np.float64
        src, _ = native.emit_kernel(closed)
    assert "np.tanh" in src and "tanh_numba" not in src


def test_rnn_scan_matches_python_tier():
    f, args, closed = _rnn()
    with jax.config._override("jaxlite_native", "off"):
        want = codegen.compile_jaxpr(closed)[0](*args)
    got = native.compile_kernel(closed)(*args)
    for w, g in zip(want, got):
        w, g = np.asarray(w), np.asarray(g)
        assert g.dtype == w.dtype == np.float32 and g.shape == w.shape
        # tanh may differ by an ulp between the tiers (docs/compat.md), and the recurrence
        # carries such a difference on: a few float32 ulps of the O(1) hidden state.
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def _ulps(a, b):
    """|a - b| in float32 units in the last place (NaN against NaN: 0)."""
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    d = np.abs(ia - ib)
    d[np.isnan(a) & np.isnan(b)] = 0
    return d


@pytest.fixture(scope="module")
def tanh_f32_loop():
    from jaxlite._src.ops.tanh_numba import tanh_f32

    @numba.njit(error_model="numpy")  # as the native tier compiles its kernels
    def loop(x):
        out = np.empty_like(x)
        for i in range(x.size):
            out[i] = tanh_f32(x[i])
        return out

    return loop


def test_tanh_f32_within_one_ulp_of_correct_rounding(tanh_f32_loop):
    # Every 61st float32 of 2**-14 <= x < 16 (the computed range), both signs, and random
    # bit patterns over the whole range; the reference is the C library's double tanh.
    lo, hi = np.float32(2.0**-14).view(np.int32), np.float32(16.0).view(np.int32)
    pos = np.arange(lo, hi, 61, dtype=np.int32).view(np.float32)
    bits = np.random.default_rng(0).integers(0, 2**32, 1 << 20, dtype=np.uint64)
    x = np.concatenate([pos, -pos, bits.astype(np.uint32).view(np.float32)])
    with np.errstate(invalid="ignore"):
        want = np.tanh(x.astype(np.float64)).astype(np.float32)
    d = _ulps(tanh_f32_loop(x), want)
    assert d.max() <= 1
    assert np.mean(d > 0) < 1e-4  # ~3e-6 measured exhaustively


def test_tanh_f32_special_operands(tanh_f32_loop):
    tiny = np.float32(2.0**-13)
    sub = np.float32(1e-45)
    x = np.array(
        [0.0, -0.0, sub, -sub, 1e-38, tiny, -tiny, np.nextafter(tiny, 0), 9.0, 10.0, 3e38],
        np.float32,
    )
    x = np.concatenate([x, -x[8:], np.float32([np.inf, -np.inf, np.nan])])
    got = tanh_f32_loop(x)
    with np.errstate(invalid="ignore"):
        want = np.tanh(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got[:2]), [False, True])  # signed zeros
    np.testing.assert_array_equal(got[2:4], x[2:4])  # subnormals are their own tanh


@pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64", "aarch64", "arm64"),
    reason="vector width of other targets not known",
)
def test_tanh_f32_loop_vectorises(tanh_f32_loop):
    # The point of the helper: a loop over it has no call and LLVM vectorises it (Python's
    # error model, a branch in the body or a libm call would keep it scalar).
    tanh_f32_loop(np.ones(8, np.float32))
    llvm = "".join(tanh_f32_loop.inspect_llvm().values())
    assert re.search(r"<\d+ x double>", llvm)
    assert "tanhf" not in llvm and "@exp" not in llvm
