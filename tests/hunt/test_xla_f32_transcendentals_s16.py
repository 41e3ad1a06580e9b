"""float32 ``exp``, ``log`` and ``tanh`` against XLA:CPU's own expansions (session 16).

JAX 0.10.2 on CPU does not call the C library for these: XLA expands them into float32
arithmetic (range reduction and polynomial for ``exp``/``log``, a rational function for
``tanh``) that LLVM compiles with every multiply feeding an add fused into an FMA, under
flush-to-zero. jaxlite used NumPy's SIMD kernels, which differ from JAX's results in the
last bits (100,000 random float32 values: ``tanh`` 60% of elements up to 4 ulps, ``exp``
40%, ``log`` ~20%; bfloat16 ``log`` 254 of the 65,536 values). ``ops/xla_math32`` reproduces
the three expansions in NumPy (FMAs emulated in float64); over all 2**32 float32 bit
patterns, against JAX's jitted results (eager JAX runs the same kernel): 0 differences for
each of the three, NaN bit patterns included.

Used by ``lax.exp``/``log``/``tanh`` (so ``jnp``'s) of float32, and of bfloat16 (and float16
``tanh``) through float32, when the ``jaxlite_xla_math`` flag is on (``JAXLITE_XLA_MATH=1``):
the emulation runs ~40 NumPy passes where NumPy's SIMD kernel runs one (30-160x its time on
large arrays), so by default the Python tier keeps NumPy's kernels. The native tier's float32
``log`` (``ops/xla_math32_numba``, the same operations: the same bits) is as fast as NumPy's
and is used whatever the flag.

JAX itself is not consistent: in a jitted array of 3, 5, 6, 7, 11, 13, 14 or 15 elements,
the elements after the last multiple of 8 get the C library's ``expf``/``logf`` (not
``tanh``); jaxlite follows the expansion everywhere (docs/compat.md).
"""

from __future__ import annotations

import pathlib

import ml_dtypes
import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as lnp
from jaxlite import lax
from jaxlite._src.ops import xla_math32 as xm

NAMES = ("exp", "log", "tanh")
TABLE = pathlib.Path(__file__).with_name("xla_f32_transcendentals_s16.npz")
KERNELS = {"exp": xm.exp32, "log": xm.log32, "tanh": xm.tanh32}


def _f(bits):
    return np.asarray(bits, np.uint32).view(np.float32)


def operands():
    """The table's operands: special values, the expansions' thresholds and their float32
    neighbours, and a seeded sample of bit patterns (all float32)."""
    f32 = np.float32
    edges = [
        0.0, 1.0, 2.0, 0.5, 0.75, 1.5, 10.0, 100.0, 1e-3, 1e-10, 1e10, 1e30, 3.4e38,
        4e-4, 20.0, 7.905311107635498, -87.8, 88.8, 88.72283, -87.33655, -103.97, 85.0,
        0.70710677, 0.7071068, 1.4142135, 1.4142137, 2.0**-126, 2.0**-125, 1e-38,
        np.e, np.pi, 0.1, 0.3, 0.35, 0.69314718, 1.0986123, 3.0, 5.0, 8.0, 15.0, 19.99,
    ]  # fmt: skip
    xs = []
    for v in edges:
        v = f32(v)
        for s in (v, -v):
            xs += [s, np.nextafter(s, f32(np.inf)), np.nextafter(s, f32(-np.inf))]
    xs += [f32(np.inf), f32(-np.inf), f32(1e-40), f32(-1e-40), f32(-0.0)]
    nans = _f([0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FC12345, 0xFF812345, 0xFFFFFFFF])
    rng = np.random.RandomState(16)
    sample = _f(rng.randint(0, 2**32, 200, dtype=np.uint64).astype(np.uint32))
    typical = (rng.randn(100) * 4).astype(np.float32)
    return np.concatenate([np.array(xs, np.float32), nans, sample, typical, np.abs(typical)])


def _ulps(a, b):
    """|a - b| in float32 ulps (monotone integer order of the bit patterns)."""
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return np.abs(ia - ib)


def _bits_equal(got, want_bits, x, what):
    got = np.asarray(got)
    assert got.dtype == np.float32 and got.shape == x.shape
    bad = np.flatnonzero(got.view(np.uint32) != want_bits)
    assert bad.size == 0, (
        f"{what}: {bad.size} of {x.size} differ, e.g. x={x[bad[:4]]!r} "
        f"got {[hex(v) for v in got.view(np.uint32)[bad[:4]]]} "
        f"want {[hex(v) for v in want_bits[bad[:4]]]}"
    )


@pytest.fixture(scope="module")
def table():
    t = np.load(TABLE)
    x = t["x"].view(np.float32)
    assert np.array_equal(t["x"], operands().view(np.uint32)), "regenerate the table"
    return x, {n: t[n] for n in NAMES}


# ------------------------------------------------------------- the table (JAX's results)
@pytest.mark.parametrize("name", NAMES)
def test_kernels_give_jax_bits_on_the_table(table, name):
    x, want = table
    _bits_equal(KERNELS[name](x), want[name], x, f"xla_math32.{name}32")


@pytest.fixture
def xla_math():
    with jaxlite.config._override("jaxlite_xla_math", True):
        yield


@pytest.mark.parametrize("name", NAMES)
def test_jnp_functions_give_jax_bits_on_the_table_with_the_flag(table, name, xla_math):
    x, want = table
    f = getattr(lnp, name)
    _bits_equal(f(x), want[name], x, f"jnp.{name} eager")
    _bits_equal(jaxlite.jit(f)(x), want[name], x, f"jnp.{name} jit")
    g = getattr(lax, name)
    _bits_equal(jaxlite.jit(lambda v: g(v * 1.0))(x), want[name], x, f"lax.{name} jit")
    # one element at a time (0-d operands) too
    for v, w in zip(x[::37], want[name][::37]):
        got = np.asarray(f(v))
        assert got.shape == () and got.view(np.uint32) == w, (v, got, hex(w))


@pytest.mark.parametrize("name", NAMES)
def test_without_the_flag_numpy_kernels_and_ufuncs_in_generated_code(name):
    x = _sample(4096, seed=7)
    if name == "log":
        x = np.abs(x)
    ufunc = getattr(np, name)
    with np.errstate(all="ignore"):
        want = ufunc(x).view(np.uint32)
    f = getattr(lnp, name)
    with jaxlite.config._override("jaxlite_native", "off"):
        _bits_equal(f(x), want, x, f"jnp.{name} eager")
        _bits_equal(jaxlite.jit(f)(x), want, x, f"jnp.{name} jit")
    from jaxlite._src.core import rules

    eqn = jaxlite.make_jaxpr(f)(x).jaxpr.eqns[0]
    assert rules.impl_for(eqn) is ufunc
    with jaxlite.config._override("jaxlite_xla_math", True):
        assert rules.impl_for(eqn) is not ufunc


def test_log_small_arrays_take_the_same_bits():
    # Arrays of up to xla_math32._SMALL elements are computed element by element in Python
    # floats: the same bits as the block kernel, sizes 1..SMALL+1 and 0-d.
    rng = np.random.RandomState(6)
    x = np.concatenate([operands(), _f(rng.randint(0, 2**32, 20000, dtype=np.uint64))])
    want = xm._apply("log", x).view(np.uint32)
    for n in range(1, xm._SMALL + 2):
        got = np.concatenate([xm.log32(x[i : i + n]) for i in range(0, x.size, n)])
        assert np.array_equal(got.view(np.uint32), want), n
    got0 = np.array([xm.log32(v) for v in x[:300]])
    assert np.array_equal(got0.view(np.uint32), want[:300])


def test_log_special_values(xla_math):
    # XLA:CPU: zeros and subnormals (flushed: either sign) give -inf; negatives and NaN
    # give the NaN with every bit set; +inf gives +inf.
    x = np.array([0.0, -0.0, 1e-40, -1e-40, -1.0, -np.inf, np.nan, np.inf, 1.0], np.float32)
    got = np.asarray(lnp.log(x))
    assert list(got.view(np.uint32)) == [0xFF800000] * 4 + [0xFFFFFFFF] * 3 + [0x7F800000, 0]


# ------------------------------------------------ accuracy (no JAX needed, no recording)
@pytest.mark.parametrize(("name", "bound"), [("exp", 5), ("log", 1), ("tanh", 4)])
def test_kernels_within_ulps_of_float64(name, bound):
    rng = np.random.RandomState(1)
    x = _f(rng.randint(0, 2**32, 1 << 18, dtype=np.uint64).astype(np.uint32))
    x = x[np.isfinite(x) & (np.abs(x) >= 2.0**-126)]
    if name == "log":
        x = np.abs(x)
    got = KERNELS[name](x)
    with np.errstate(over="ignore"):
        ref = getattr(np, name)(x.astype(np.float64)).astype(np.float32)
    normal = np.isfinite(ref) & (np.abs(ref) >= 2.0**-126)
    assert normal.sum() > x.size // 3
    d = _ulps(got[normal], ref[normal])
    assert d.max() <= bound, (name, d.max())
    # outside the normal range: flushed to 0 (exp) or the same infinity
    rest = ~normal
    assert np.all((got[rest] == ref[rest]) | (got[rest] == 0))


def test_bfloat16_and_float16_log(xla_math):
    x = np.arange(65536, dtype=np.uint16).view(ml_dtypes.bfloat16)
    with np.errstate(all="ignore"):
        want = xm.log32(x.astype(np.float32)).astype(ml_dtypes.bfloat16)
    got = np.asarray(lnp.log(x))
    assert got.dtype == x.dtype
    assert np.array_equal(got.view(np.uint16), want.view(np.uint16))
    h = np.arange(65536, dtype=np.uint16).view(np.float16)
    with np.errstate(all="ignore"):
        assert np.array_equal(np.asarray(lnp.log(h)).view(np.uint16), np.log(h).view(np.uint16))


# ----------------------------------------------------------------- the native tier
def test_native_log_is_the_exact_python_tier_bit_for_bit():
    pytest.importorskip("numba", reason="numba is not installed")
    from jaxlite._src.compile import codegen, native
    from jaxlite._src.interpreters import simplify

    rng = np.random.RandomState(2)
    xs = _f(rng.randint(0, 2**32, (64, 256), dtype=np.uint64).astype(np.uint32))
    xs[0, :10] = [0, -0.0, 1e-40, -1e-40, np.inf, -np.inf, np.nan, -1, 1, 3.4e38]

    def f(xs):
        def body(c, x):
            y = lnp.log(x)
            return c + lnp.where(lnp.isfinite(y), y, 0.0), y

        return lax.scan(body, np.zeros(256, np.float32), xs)

    closed = simplify.simplify(jaxlite.make_jaxpr(f)(xs))
    src, _ = native.emit_kernel(closed)
    assert "xla_math32_numba import log_f32" in src and "np.log(" not in src
    # The Python tier gives these bits with the jaxlite_xla_math flag on (NumPy's without).
    with jaxlite.config._override("jaxlite_native", "off"):
        with jaxlite.config._override("jaxlite_xla_math", True):
            want = codegen.compile_jaxpr(closed)[0](xs)
    got = native.compile_kernel(closed)(xs)
    for w, g in zip(want, got):
        w, g = np.asarray(w), np.asarray(g)
        assert g.dtype == w.dtype == np.float32 and g.shape == w.shape
        assert np.array_equal(g.view(np.uint32), w.view(np.uint32))
    assert np.array_equal(np.asarray(got[1]).view(np.uint32), xm.log32(xs).view(np.uint32))


# ------------------------------------------------------------ live JAX (when installed)
@pytest.fixture(scope="module")
def jax_cpu():
    jax = pytest.importorskip("jax")
    return jax


def _sample(n=1 << 20, seed=3):
    rng = np.random.RandomState(seed)
    return _f(rng.randint(0, 2**32, n, dtype=np.uint64).astype(np.uint32))


@pytest.mark.parametrize("name", NAMES)
def test_kernels_against_live_jax(jax_cpu, name):
    x = np.concatenate([_sample(), operands()])
    want = np.asarray(jax_cpu.jit(getattr(jax_cpu.numpy, name))(x)).view(np.uint32)
    _bits_equal(KERNELS[name](x), want, x, f"{name}32 vs jit")
    eager = np.asarray(getattr(jax_cpu.numpy, name)(x)).view(np.uint32)
    assert np.array_equal(eager, want)  # JAX's eager op is the same kernel


def test_jnp_log_against_live_jax(jax_cpu, xla_math):
    x = np.concatenate([_sample(1 << 18, seed=4), np.abs(_sample(1 << 18, seed=5))])
    want = np.asarray(jax_cpu.jit(jax_cpu.numpy.log)(x)).view(np.uint32)
    _bits_equal(lnp.log(x), want, x, "jnp.log")
    _bits_equal(jaxlite.jit(lnp.log)(x), want, x, "jit(jnp.log)")
    b = np.arange(65536, dtype=np.uint16).view(ml_dtypes.bfloat16)
    wb = np.asarray(jax_cpu.jit(jax_cpu.numpy.log)(b))
    gb = np.asarray(lnp.log(b))
    both_nan = np.isnan(wb.astype(np.float32)) & np.isnan(gb.astype(np.float32))
    assert np.all((wb.view(np.uint16) == gb.view(np.uint16)) | both_nan)
