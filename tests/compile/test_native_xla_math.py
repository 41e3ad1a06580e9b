"""The native tier's float32 ``exp``, ``log`` and ``tanh`` (``ops/xla_math32_numba``):
XLA:CPU's expansions, the bits of ``ops/xla_math32``'s NumPy kernels (JAX's), in the Numba
kernels and in blocked NumPy regions; vectorised loops (no libm call per element)."""

import platform
import re
import sys

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.compile import codegen, native, native_blocks
from jaxlite._src.interpreters import simplify
from jaxlite._src.ops import xla_math32, xla_math_flag

pytestmark = pytest.mark.jaxlite_only  # the tier is jaxlite's own machinery

numba = pytest.importorskip("numba", reason="numba is not installed (pip install jaxlite[native])")
xm = pytest.importorskip("jaxlite._src.ops.xla_math32_numba")

_NUMPY = {"exp": xla_math32.exp32, "log": xla_math32.log32, "tanh": xla_math32.tanh32}
_LOOPS = {"exp": xm.exp_block, "log": xm.log_block, "tanh": xm.tanh_block}
_INPLACE = {"exp": xm.exp_inplace, "log": xm.log_inplace, "tanh": xm.tanh_inplace}
_JNP = {"exp": jnp.exp, "log": jnp.log, "tanh": jnp.tanh}


def _operands():
    """Every 65,537th float32 bit pattern (65,536 values over the whole range, both signs,
    subnormals, inf and NaNs with payloads), the special values, and ordinary ones."""
    bits = np.arange(0, 2**32, 65537, dtype=np.uint64).astype(np.uint32)
    special = np.array(
        [0, 0x80000000, 1, 0x80000001, 0x007FFFFF, 0x00800000, 0x7F800000, 0xFF800000,
         0x7FC00000, 0xFFC00000, 0x7FA12345, 0xFFA12345, 0x3F800000, 0xBF800000],
        np.uint32,
    )  # fmt: skip
    rng = np.random.default_rng(0)
    ordinary = np.concatenate(
        [rng.uniform(-90, 90, 20000), rng.standard_normal(20000) * 3, rng.uniform(0, 3, 9000)]
    ).astype(np.float32)
    return np.concatenate([bits.view(np.float32), special.view(np.float32), ordinary])


def _same_bits(got, want):
    np.testing.assert_array_equal(np.asarray(got).view(np.uint32), np.asarray(want).view(np.uint32))


@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
def test_block_loops_give_the_numpy_kernels_bits(name):
    x = _operands()
    with np.errstate(all="ignore"):
        want = _NUMPY[name](x)
    out = np.empty_like(x)
    _LOOPS[name](x, out)
    _same_bits(out, want)
    y = x.copy()
    _INPLACE[name](y)  # as blocked regions call them on a scratch buffer
    _same_bits(y, want)
    for k in (1, 3, 13):  # the vector loop's scalar tail alone
        out = np.empty(k, np.float32)
        _LOOPS[name](x[:k], out)
        _same_bits(out, want[:k])


@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
def test_jax_computes_the_same_bits(name):
    jax_ = pytest.importorskip("jax")
    x = _operands()
    want = np.asarray(jax_.jit(getattr(jax_.numpy, name))(x))
    out = np.empty_like(x)
    _LOOPS[name](x, out)
    _same_bits(out, want)


@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
def test_numba_kernel_uses_the_helper(name):
    f = _JNP[name]
    x = np.abs(_operands()[-49000:]) + np.float32(0.5)

    def g(v):
        return f(v) * 2.0 + f(v[3])  # an array loop and a scalar call

    closed = simplify.simplify(jax.make_jaxpr(g)(x))
    src, _ = native.emit_kernel(closed)
    assert f"from jaxlite._src.ops.xla_math32_numba import {name}_f32" in src
    assert f"np.{name}(" not in src
    got = native.compile_kernel(closed)(x)
    with np.errstate(all="ignore"):
        want = _NUMPY[name](x) * np.float32(2) + _NUMPY[name](x[3:4])[0]
    _same_bits(got[0], want)
    # float64 keeps the C library's function (no float64 helper).
    with jax.config._override("jax_enable_x64", True):
        closed = simplify.simplify(jax.make_jaxpr(g)(x.astype(np.float64)))
        src, _ = native.emit_kernel(closed)
    assert f"np.{name}(" in src and "xla_math32_numba" not in src


def _chain(x):
    y = jnp.sin(x) * 2.0 + 1.0
    y = jnp.exp(-y) * x
    return jnp.sqrt(jnp.abs(jnp.tanh(y) - 0.5)) + jnp.log(x)


def _by_hand(x):
    """``_chain`` with XLA's exp/log/tanh (the NumPy kernels) and NumPy for the rest."""
    f = np.float32
    with np.errstate(all="ignore"):
        y = np.sin(x) * f(2) + f(1)
        y = xla_math32.exp32(-y) * x
        return np.sqrt(np.abs(xla_math32.tanh32(y) - f(0.5))) + xla_math32.log32(x)


def test_blocked_region_runs_xla_exp_log_tanh_by_default():
    """Flag off (the default): the Python tier computes exp/log/tanh with NumPy's kernels,
    the installed blocked region with XLA's (JAX's bits); the rest is the same ufuncs."""
    x = np.random.RandomState(3).uniform(-3, 6, 70001).astype(np.float32)
    x[:4] = [0.0, -0.0, np.inf, np.nan]
    closed = simplify.simplify(jax.make_jaxpr(_chain)(x))
    outlined = native.outline_regions(closed, min_size=0)
    (region,) = [e for e in outlined.jaxpr.eqns if str(e.primitive) == "native_region"]
    assert region.params["threads"]
    with jax.config._override("jaxlite_native", "always"):
        fn = codegen.compile_jaxpr(outlined)[0]
    (tier,) = [v for v in fn.__globals__.values() if isinstance(v, native.Tier)]
    assert tier.threads and tier.state == "ready"
    x.setflags(write=False)  # as jit's arguments: log reads it, a type compiled at build
    loaded = [len(loop.signatures) for loop in _LOOPS.values()]
    got = fn(x)[0]
    assert [len(loop.signatures) for loop in _LOOPS.values()] == loaded  # no compile here
    _same_bits(got, _by_hand(x))
    with jax.config._override("jaxlite_native", "off"), np.errstate(all="ignore"):
        python = np.asarray(codegen.compile_jaxpr(closed)[0](x)[0])
    # NumPy's kernels differ in the last bits of many elements: the documented tier switch.
    assert np.mean(python.view(np.uint32) != got.view(np.uint32)) > 0.01


def test_auto_mode_builds_the_region_in_the_background(monkeypatch):
    """A region whose Numba loops are not loaded yet is built by the native tier's
    background thread (their first compile takes seconds), then tried and installed."""
    monkeypatch.setattr(xla_math_flag, "_numba", {"avail": True})  # nothing loaded yet
    monkeypatch.setattr(native, "_HOT_SECONDS_BLOCKS", 0.0)
    x = np.random.RandomState(4).uniform(0.1, 4, 1 << 17).astype(np.float32)
    with jax.config._override("jaxlite_native", "auto"):
        f = jax.jit(_chain)
        f(x)
        (tier,) = [
            v for v in f.lower(x)._compiled().fn.__globals__.values() if isinstance(v, native.Tier)
        ]
        assert tier.threads
        native._queue.join()
        assert tier.state == "trial"
        for _ in range(native._TRIALS + 1):
            got = np.asarray(f(x))
    assert tier.state in ("ready", "slower")
    if tier.state == "ready":
        _same_bits(got, _by_hand(x))


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


def test_rnn_scan_matches_python_tier_with_xla_tanh():
    # benchmarks' native_rnn_scan: the step's tanh is a loop over tanh_f32; with the
    # jaxlite_xla_math flag the Python tier computes the same tanh, so the bits agree.
    f, args, closed = _rnn()
    src, _ = native.emit_kernel(closed)
    assert "from jaxlite._src.ops.xla_math32_numba import tanh_f32" in src
    with (
        jax.config._override("jaxlite_native", "off"),
        jax.config._override("jaxlite_xla_math", True),
    ):
        want = codegen.compile_jaxpr(closed)[0](*args)
    got = native.compile_kernel(closed)(*args)
    for w, g in zip(want, got):
        # the products are NumPy's BLAS in one tier and Numba's binding in the other
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-6)


@pytest.mark.skipif(
    platform.machine().lower() not in ("x86_64", "amd64", "aarch64", "arm64"),
    reason="vector width of other targets not known",
)
@pytest.mark.parametrize("name", ["exp", "tanh"])
def test_loops_vectorise_with_fused_multiply_adds(name):
    # The point of the float32 forms: a loop over them has no call, LLVM vectorises it
    # and fuses the multiply-adds (as XLA's LLVM does). (A fresh compile of the same loop:
    # Numba does not keep the IR of code loaded from its disk cache.)
    loop = numba.njit(error_model="numpy", fastmath={"contract"})(_LOOPS[name].py_func)
    loop(np.ones(8, np.float32), np.empty(8, np.float32))
    llvm = "".join(loop.inspect_llvm().values())
    assert re.search(r"<\d+ x float>", llvm)
    assert not re.search(r"call [^@]*@(expf|tanhf|exp|tanh)\b", llvm)
    import llvmlite.binding as ll

    if platform.machine().lower() in ("x86_64", "amd64") and ll.get_host_cpu_features().get("fma"):
        assert re.search(r"vfn?m(add|sub)", "".join(loop.inspect_asm().values()))


def test_broken_numba_leaves_numpys_ufuncs(monkeypatch):
    """Numba found but its import failing: the region runs NumPy's ufuncs (the Python
    tier's bits), and later regions do not try again."""
    import jaxlite._src.ops as ops

    monkeypatch.setitem(sys.modules, "jaxlite._src.ops.xla_math32_numba", None)
    monkeypatch.delattr(ops, "xla_math32_numba")
    monkeypatch.setattr(xla_math_flag, "_numba", {"avail": True})
    x = np.random.RandomState(5).uniform(0.1, 4, 70001).astype(np.float32)
    closed = simplify.simplify(jax.make_jaxpr(_chain)(x))
    outlined = native.outline_regions(closed, min_size=0)
    (region,) = [e for e in outlined.jaxpr.eqns if str(e.primitive) == "native_region"]
    got = native_blocks.compile_blocks(region.params["jaxpr"])(x)[0]
    with jax.config._override("jaxlite_native", "off"):
        want = np.asarray(codegen.compile_jaxpr(closed)[0](x)[0])
    _same_bits(got, want)
    assert xla_math_flag._numba == {"avail": False}


def _flagged(x, name, **native):
    with jax.config._override("jaxlite_xla_math", True):
        with jax.config._override("jaxlite_native", native.get("mode", "always")):
            return np.asarray(_JNP[name](x))


@pytest.mark.parametrize("name", ["exp", "log", "tanh"])
def test_flag_runs_the_loops_with_the_kernels_bits(name, monkeypatch):
    """``jaxlite_xla_math`` in the Python tier: the native tier's loop (loaded at the first
    flagged call with ``jaxlite_native="always"``) on any layout, read-only operands, 0-d
    and the widened 16-bit dtypes, with the NumPy kernels' bits (JAX's)."""
    monkeypatch.setattr(xla_math_flag, "_numba", {})  # nothing loaded: this test loads
    x = _operands()
    with np.errstate(all="ignore"):
        _same_bits(_flagged(x, name), _NUMPY[name](x))
        assert xla_math_flag._numba[name] is _LOOPS[name]
        grid = x[: 3 * 4000].reshape(3, 4000)[:, ::3]  # not contiguous
        _same_bits(_flagged(grid, name), _NUMPY[name](grid))
        frozen = x[:999].copy()
        frozen.setflags(write=False)
        _same_bits(_flagged(frozen, name), _NUMPY[name](frozen))
        scalar = np.float32(0.75)
        got = _flagged(scalar, name)
        assert got.shape == () and got.dtype == np.float32
        _same_bits(got, _NUMPY[name](np.asarray(scalar)))
        sixteen = [jnp.bfloat16] + ([np.float16] if name == "tanh" else [])
        for dt in sixteen:
            h = x[:5000].astype(dt)
            got = _flagged(h, name)
            assert got.dtype == dt
            want = _NUMPY[name](h.astype(np.float32)).astype(dt)
            np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
        # Under jit too (the flag is in jit's cache key; the impl runs the loop).
        with jax.config._override("jaxlite_xla_math", True):
            _same_bits(jax.jit(_JNP[name])(x), _NUMPY[name](x))


def test_flag_loads_the_loops_in_the_background(monkeypatch):
    """With the native tier on ("auto"), the first flagged call starts loading the loops on a
    background thread and answers with the NumPy kernels meanwhile: the same bits before and
    after; with the tier off, no Numba is touched."""
    import threading

    monkeypatch.setattr(xla_math_flag, "_numba", {"avail": True})
    x = _operands()[:20000]
    with np.errstate(all="ignore"):
        want = _NUMPY["tanh"](x)
        _same_bits(_flagged(x, "tanh", mode="off"), want)
        assert "loading" not in xla_math_flag._numba
        _same_bits(_flagged(x, "tanh", mode="auto"), want)  # the kernels, or the loop
        assert xla_math_flag._numba["loading"]
        for t in threading.enumerate():
            if t.name == "jaxlite-xla-math":
                t.join(120)
        assert xla_math_flag._numba["exp"] is xm.exp_block
        assert xla_math_flag._numba["tanh"] is xm.tanh_block
        _same_bits(_flagged(x, "tanh", mode="auto"), want)  # the loop now


def _libm(name, *xs):
    """The C library's float32 function ``name`` of each element of ``xs`` (ctypes)."""
    import ctypes
    import ctypes.util

    fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name + "f")
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float] * len(xs)
    flats = [np.asarray(x, np.float32).reshape(-1) for x in np.broadcast_arrays(*xs)]
    out = [fn(*map(float, vals)) for vals in zip(*flats)]
    return np.array(out, np.float32).reshape(np.broadcast_shapes(*map(np.shape, xs)))


_LIBM = {"sin": "sin", "cos": "cos", "tan": "tan", "atan": "arctan"}  # C name: NumPy name


@pytest.mark.parametrize("name", sorted(_LIBM))
def test_flag_calls_the_c_librarys_sin_cos_tan_atan(name, monkeypatch):
    """``jaxlite_xla_math``: float32 ``sin``/``cos``/``tan``/``arctan`` are the C library's
    float32 functions, which XLA:CPU calls (JAX's bits), loaded before the first answer
    (no NumPy route has these bits), eagerly and under jit, 16-bit dtypes widened, whatever
    the native tier's mode; without Numba, NumPy's kernels."""
    monkeypatch.setattr(xla_math_flag, "_numba", {})
    rng = np.random.default_rng(1)
    x = np.concatenate(
        [rng.uniform(-10, 10, 3000), rng.uniform(-1e5, 1e5, 500), [0.0, -0.0, np.inf, np.nan]]
    ).astype(np.float32)
    fn, np_fn = getattr(jnp, _LIBM[name]), getattr(np, _LIBM[name])
    with np.errstate(all="ignore"):
        want = _libm(name, x)
        with jax.config._override("jaxlite_xla_math", True):
            with jax.config._override("jaxlite_native", "auto"):
                _same_bits(fn(x), want)
                assert xla_math_flag._numba[name] is getattr(xm, f"{name}_block")
                _same_bits(jax.jit(fn)(x), want)
                grid = x[:3000].reshape(30, 100)[:, ::7]
                _same_bits(fn(grid), _libm(name, grid))
                for dt in (jnp.bfloat16, np.float16):
                    h = x[:3000].astype(dt)
                    got = np.asarray(fn(h))
                    assert got.dtype == dt
                    exp16 = _libm(name, h.astype(np.float32)).astype(dt)
                    np.testing.assert_array_equal(got.view(np.uint16), exp16.view(np.uint16))
            with jax.config._override("jaxlite_native", "off"):  # not the tier's business
                _same_bits(fn(x), want)
            monkeypatch.setitem(xla_math_flag._numba, "avail", False)  # no Numba: NumPy's
            monkeypatch.delitem(xla_math_flag._numba, name)
            _same_bits(fn(x), np_fn(x))
        assert np.any(want[:3000] != np_fn(x[:3000]))  # NumPy's kernels: other bits
    try:
        import jax as real_jax
    except ImportError:
        return
    _same_bits(np.asarray(real_jax.jit(getattr(real_jax.numpy, _LIBM[name]))(x)), want)


@pytest.mark.parametrize("name", ["atan2", "pow"])
def test_flag_calls_the_c_librarys_atan2_and_pow(name, monkeypatch):
    """``jaxlite_xla_math``: float32 ``arctan2`` and ``power`` are the C library's ``atan2f``
    and ``powf`` (JAX's bits), broadcast operands and edge values (signed zeros, infinities,
    NaN, negative bases, the exponent 0.5) included; without the flag, NumPy's."""
    monkeypatch.setattr(xla_math_flag, "_numba", {})
    rng = np.random.default_rng(2)
    edges = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -8.0, 2.5, np.inf, -np.inf, np.nan], np.float32)
    x = np.concatenate([rng.uniform(-5, 5, 2000), rng.uniform(0, 30, 2000)]).astype(np.float32)
    y = np.concatenate([rng.uniform(-5, 5, 2000), rng.uniform(-3, 3, 2000)]).astype(np.float32)
    ex, ey = np.meshgrid(edges, edges)
    x, y = np.concatenate([x, ex.ravel()]), np.concatenate([y, ey.ravel()])
    fn = {"atan2": jnp.arctan2, "pow": jnp.power}[name]
    with np.errstate(all="ignore"):
        want = _libm(name, x, y)
        with jax.config._override("jaxlite_xla_math", True):
            _same_bits(fn(x, y), want)
            assert xla_math_flag._numba[name] is getattr(xm, f"{name}_block")
            _same_bits(jax.jit(fn)(x, y), want)
            grid = x[:40].reshape(4, 10)  # broadcast against a row
            _same_bits(fn(grid, y[:10]), _libm(name, grid, y[:10]))
            _same_bits(fn(x, np.float32(0.5)), _libm(name, x, np.float32(0.5)))
        plain = np.asarray(fn(x, y))
        assert not np.array_equal(plain.view(np.uint32), want.view(np.uint32))  # NumPy's
    try:
        import jax as real_jax
    except ImportError:
        return
    real = {"atan2": real_jax.numpy.arctan2, "pow": real_jax.numpy.power}[name]
    _same_bits(np.asarray(real_jax.jit(real)(x, y)), want)
