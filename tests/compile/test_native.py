"""The native (Numba) tier: same results as the Python tier, switched in without blocking,
off for effectful bodies, clean fallback when Numba is absent or refuses a region.

Numba compiles are CPU-heavy (0.3-1 s each): the tests batch many operations into few
kernels, and Numba's disk cache makes reruns cheap.
"""

import importlib
import logging
import os
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.compile import codegen, native, native_blocks, native_emit
from jaxlite._src.control_flow import common
from jaxlite._src.interpreters import simplify
from jaxlite._src.ops import xla_math_flag

pytestmark = pytest.mark.jaxlite_only  # the tier is jaxlite's own machinery

numba = pytest.importorskip("numba", reason="numba is not installed (pip install jaxlite[native])")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "ops"))
try:
    from op_specs import SPECS, draw_args  # noqa: E402
except ImportError:  # pragma: no cover - the table moved
    SPECS, draw_args = [], None


@pytest.fixture
def native_mode():
    """Set ``jaxlite_native`` for one test and restore it after."""
    old = jax.config.read("jaxlite_native")

    def set_mode(m):
        jax.config.update("jaxlite_native", m)

    yield set_mode
    jax.config.update("jaxlite_native", old)


def _both_tiers(f, *args):
    """(python-tier outputs, native outputs) of ``f`` at ``args``: one Numba compile."""
    closed = simplify.simplify(jax.make_jaxpr(f)(*args))
    flat = [np.asarray(a) for a in args]
    with jax.config._override("jaxlite_native", "off"):
        want = codegen.compile_jaxpr(closed)[0](*flat)
    got = native.compile_kernel(closed)(*flat)
    return want, got


def _same(want, got, exact=True, what=""):
    assert len(want) == len(got)
    for k, (w, g) in enumerate(zip(want, got)):
        w, g = np.asarray(w), np.asarray(g)
        assert g.dtype == w.dtype, f"{what}[{k}]: dtype {g.dtype} vs {w.dtype}"
        assert g.shape == w.shape, f"{what}[{k}]: shape {g.shape} vs {w.shape}"
        if exact or w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=f"{what}[{k}]")
        else:
            np.testing.assert_allclose(
                g,
                w,
                rtol=4e-7 if w.dtype == np.float64 else 4e-6,
                atol=1e-37,
                err_msg=f"{what}[{k}]",
            )


# ------------------------------------------------------------------ the op-spec table
# Primitives whose native code performs the same IEEE operations as NumPy's (bit-identical);
# the others (libm vs NumPy's SIMD transcendental functions, BLAS, summation order) are
# compared to a few ulps, as docs/compat.md states.
_EXACT = {
    "add",
    "sub",
    "mul",
    "div",
    "neg",
    "abs",
    "sign",
    "floor",
    "ceil",
    "round",
    "sqrt",
    "max",
    "min",
    "eq",
    "ne",
    "lt",
    "le",
    "gt",
    "ge",
    "select_n",
    "clamp",
    "and",
    "or",
    "xor",
    "not",
    "convert_element_type",
    "broadcast_in_dim",
    "reshape",
    "transpose",
    "squeeze",
    "rev",
    "slice",
    "dynamic_slice",
    "dynamic_update_slice",
    "concatenate",
    "iota",
    "is_finite",
    "square",
    "integer_pow",
    "copy_p",
    "stop_gradient",
    "add_any",
    "reduce_max",
    "reduce_min",
    "reduce_and",
    "reduce_or",
    "rem",
}


def _prims(jaxpr):
    return {p for p, _ in _signature(jaxpr)}


def _signature(jaxpr):
    """(primitive, operand dtypes and ranks) of every equation, recursively."""
    out = set()
    for e in jaxpr.eqns:
        out.add(
            (
                str(e.primitive),
                tuple((np.dtype(v.aval.dtype).kind, len(v.aval.shape) > 0) for v in e.invars),
            )
        )
        for c in native._sub_closed(e.params):
            out |= _signature(c.jaxpr)
    return out


def _native_rows():
    """(name, function of arrays, arrays, exact?) for every op-spec row whose jitted jaxpr
    lies in the native subset."""
    rows = []
    covered = set()
    ns = _NS()
    for spec in SPECS:
        if not spec.jit:
            continue
        args = draw_args(spec)
        pos = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]
        f = spec.fn(ns)

        def g(*arrays, f=f, args=args, pos=pos):
            full = list(args)
            for i, a in zip(pos, arrays):
                full[i] = a
            return f(*full)

        arrays = [args[i] for i in pos]
        try:
            closed = simplify.simplify(jax.make_jaxpr(g)(*arrays))
        except Exception:  # noqa: BLE001 (rows that need statics etc. are not ours)
            continue
        if not closed.jaxpr.eqns or not native.jaxpr_supported(closed.jaxpr):
            continue
        try:  # rules may decline some params (e.g. partial-axis max)
            source, _ = native.emit_kernel(closed)
        except native.NotNative:
            continue
        sig = _signature(closed.jaxpr)
        if sig <= covered:
            continue  # nothing new for the native tier (keeps the kernels few and small)
        covered |= sig
        rows.append((spec.name, g, arrays, _prims(closed.jaxpr) <= _EXACT, source.count("\n")))
    return rows


class _NS:
    jnp = jnp
    lax = lax

    @property
    def nn(self):
        return importlib.import_module("jaxlite.nn")

    @property
    def special(self):
        return importlib.import_module("jaxlite.scipy.special")

    @property
    def linalg(self):
        return jnp.linalg


def _check_rows(rows):
    """One kernel for ``rows`` (one Numba compile), outputs compared row by row."""
    arrays = [a for _, _, arrs, _ in rows for a in arrs]
    counts = [len(arrs) for _, _, arrs, _ in rows]

    def all_rows(*flat):
        outs, k = [], 0
        for (_, g, _, _), n in zip(rows, counts):
            outs.append(g(*flat[k : k + n]))
            k += n
        return outs

    closed = simplify.simplify(jax.make_jaxpr(all_rows)(*arrays))
    with jax.config._override("jaxlite_native", "off"):
        want = codegen.compile_jaxpr(closed)[0](*arrays)
    got = native.compile_kernel(closed)(*arrays)
    per_row = [len(jax.tree_util.tree_leaves(jax.eval_shape(g, *arrs))) for _, g, arrs, _ in rows]
    k = 0
    for (name, _, _, exact), n in zip(rows, per_row):
        _same(want[k : k + n], got[k : k + n], exact=exact, what=name)
        k += n


_ROWS = _native_rows() if SPECS else []
# Lines of source per kernel: Numba's compile time grows faster than linearly with a
# kernel's size, so the rows are checked in kernels of about this many lines each.
_CHUNK_LINES = 1200


def _chunks(rows):
    out, size = [[]], 0
    for row in rows:
        if out[-1] and size + row[4] > _CHUNK_LINES:
            out.append([])
            size = 0
        out[-1].append(row[:4])
        size += row[4]
    return out


_CHUNKS = _chunks(_ROWS)


def test_op_spec_table_mostly_native():
    assert len(_ROWS) >= 40, [r[0] for r in _ROWS]  # the subset covers the common ops


@pytest.mark.skipif(not SPECS, reason="op-spec table not importable")
@pytest.mark.parametrize("chunk", range(len(_CHUNKS)))
def test_op_spec_rows_match_python_tier(chunk):
    _check_rows(_CHUNKS[chunk])


# ------------------------------------------------------------------------- dtype table
_INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"]
_FLOAT_DTYPES = ["float32", "float64"]


@pytest.mark.parametrize(
    "n, int_dtypes",
    [(17, _INT_DTYPES), (7, ["int8", "uint32", "int64"])],
    ids=["arrays", "scalarized"],
)
def test_dtype_table_matches_python_tier(n, int_dtypes, monkeypatch):
    """Every elementwise family over every dtype, in one kernel: integer arithmetic wraps,
    float32 stays float32, NaN/inf propagate as in NumPy, casts saturate as JAX's. Arrays of
    17 elements take the array form, arrays of 7 are held as scalar locals (fewer integer
    dtypes: the unrolled kernel is large and slow to compile; ~2,100 lines, above the kernel
    cap, which this test lifts: it checks the rules, not the cap)."""
    monkeypatch.setattr(native_emit, "_MAX_LINES", 5000)
    rng = np.random.default_rng(0)
    with jax.experimental.enable_x64():
        ints = []
        for dt in int_dtypes:
            info = np.iinfo(dt)
            v = rng.integers(info.min, info.max, size=n, dtype=dt, endpoint=True)
            v[:3] = [info.max, info.min, 1]
            ints.append(v)
        floats = []
        for dt in _FLOAT_DTYPES:
            v = rng.uniform(-3, 3, size=n).astype(dt)
            v[:4] = [np.nan, np.inf, -np.inf, 0.0]
            floats.append(v)
        bools = rng.random(n) < 0.5

        def f(bools, *xs):
            ints, floats = xs[: len(int_dtypes)], xs[len(int_dtypes) :]
            exact, approx = [], []
            for x in ints:
                y = x[::-1]
                exact += [x + y, x - y, x * y, -x, x & y, x | y, x ^ y, ~x, jnp.abs(x)]
                exact += [x < y, x == y, jnp.maximum(x, y), jnp.where(bools, x, y)]
                exact += [x[0] + x[1], x[0] * x[2], -x[1]]  # scalars wrap too
                exact += [lax.convert_element_type(x, jnp.int8), x.astype(jnp.float32)]
                exact += [jnp.sum(x), jnp.max(x), lax.clamp(x[2], x, x[0])]
                nbits = np.dtype(x.dtype).itemsize * 8
                for k in (3, nbits - 1, nbits + 1):  # in range, at the edge, past it
                    kk = np.asarray(k, x.dtype)
                    exact += [lax.shift_left(x, kk), lax.shift_right_arithmetic(x, kk)]
                    exact += [lax.shift_left(x[0], kk)]  # (unsigned >> fills with the top bit)
                    if np.dtype(x.dtype).kind == "u":
                        exact += [lax.shift_right_logical(x, kk), lax.shift_right_logical(x[1], kk)]
                if np.dtype(x.dtype).itemsize == 4:
                    exact += [lax.bitcast_convert_type(x, jnp.float32)]
            for x in floats:
                y = x[::-1]
                exact += [x + y, x - y, x * y, x / y, -x, jnp.abs(x), jnp.sqrt(x), x * x * x]
                exact += [jnp.floor(x), jnp.ceil(x), jnp.sign(x), jnp.maximum(x, y)]
                exact += [x < y, x != y, jnp.isfinite(x), jnp.minimum(x, y)]
                exact += [jnp.where(x > 0, x, y), x[1] / x[3], x[0] * x[5] + x[6]]
                exact += [x.astype(jnp.int32), x.astype(jnp.uint8), x.astype(jnp.bool_)]
                exact += [x.astype(jnp.float32), jnp.max(x), jnp.fmod(x, y + 4), x**3]
                exact += [
                    lax.bitcast_convert_type(x, jnp.uint32 if x.dtype == np.float32 else jnp.int64)
                ]
                approx += [jnp.exp(x), jnp.log(jnp.abs(x)), jnp.sin(x), jnp.tanh(x)]
                approx += [jnp.sum(x)]  # summation order differs (pairwise in NumPy)
            exact += [bools & bools[::-1], ~bools, jnp.any(bools), jnp.all(bools)]
            return exact, approx

        args = (bools, *ints, *floats)
        closed = simplify.simplify(jax.make_jaxpr(f)(*args))
        with jax.config._override("jaxlite_native", "off"):
            want = codegen.compile_jaxpr(closed)[0](*args)
        got = native.compile_kernel(closed)(*args)
        n_approx = 5 * len(_FLOAT_DTYPES)
        _same(want[:-n_approx], got[:-n_approx], exact=True, what="exact")
        _same(want[-n_approx:], got[-n_approx:], exact=False, what="approx")


# ------------------------------------------------------------------------------- loops
def test_loops_nesting_loops_match_python_tier():
    def f(x, xs, n):
        def inner(i, c):
            return c * 0.5 + lax.dynamic_slice(x, (i,), (2,)).sum()

        def body(c, row):
            c = lax.fori_loop(0, 3, inner, c)
            w = lax.while_loop(lambda s: s[0] < n, lambda s: (s[0] + 1, s[1] * 1.01), (0, c))
            w1 = lax.cond(w[1][0] > 1.0, lambda v: v * 2.0, lambda v: v - 1.0, w[1])
            upd = lax.dynamic_update_slice(row, w1[:1], (1,))
            return w[1] + row[0], (upd, jnp.dot(row, row))

        c, (ys, ds) = lax.scan(body, jnp.zeros(2, jnp.float32), xs)
        back = lax.scan(lambda c, y: (c + y, c), jnp.float32(0), ds, reverse=True)
        return c, ys, back, lax.iota(jnp.int32, 5) * n

    x = np.linspace(0, 1, 6, dtype=np.float32)
    xs = np.arange(12, dtype=np.float32).reshape(6, 2)
    want, got = _both_tiers(f, x, xs, np.int32(4))
    _same(want, got, exact=False)


def test_loop_is_tiered_and_always_mode_runs_native(native_mode):
    native_mode("always")
    before = dict(native.stats)

    @jax.jit
    def f(c):
        return lax.fori_loop(0, 100, lambda i, c: c * 0.99 + 0.01, c)

    x = jnp.ones(4, jnp.float32) * 3
    out = f(x)
    src = f.lower(x).as_text()
    assert "_tier" in src and ".kernel" in src
    assert native.stats["compiled"] == before["compiled"] + 1
    native_mode("off")
    ref = jax.jit(lambda c: lax.fori_loop(0, 100, lambda i, c: c * 0.99 + 0.01, c))(x)
    np.testing.assert_array_equal(np.asarray(out), np.asarray(ref))
    assert np.asarray(out).dtype == np.float32


def test_switches_in_without_blocking(native_mode, monkeypatch):
    """Auto mode: calls keep running the Python tier while the kernel compiles in the
    background (here: held back by an event), and switch to it once it is ready."""
    native_mode("auto")
    monkeypatch.setattr(native, "_HOT_SECONDS", 0.0)
    release = threading.Event()
    started = threading.Event()
    real = native.compile_kernel

    def slow_compile(closed, parallel=False):
        started.set()
        assert release.wait(60)
        return real(closed, parallel)

    monkeypatch.setattr(native, "compile_kernel", slow_compile)

    @jax.jit
    def f(c):
        return lax.scan(lambda c, _: (c * 0.99 + 0.01, None), c, None, length=50)[0]

    x = jnp.ones(4, jnp.float32) * 2
    first = np.asarray(f(x))
    assert started.wait(30)
    tier = next(
        v for v in f.lower(x)._compiled().fn.__globals__.values() if isinstance(v, native.Tier)
    )
    for _ in range(3):  # the compile is blocked; calls must not wait for it
        np.testing.assert_array_equal(np.asarray(f(x)), first)
    assert tier.kernel is None and tier.state == "queued"
    release.set()
    assert native.wait_for_compiles(60)
    assert tier.kernel is not None and tier.state == "trial"  # timed against Python first
    for _ in range(native._TRIALS):
        np.testing.assert_array_equal(np.asarray(f(x)), first)
    # 50 steps on float32[4]: the kernel is ~100x faster than the Python loop, and stays.
    assert tier.state == "ready" and tier.kernel is tier._native
    np.testing.assert_array_equal(np.asarray(f(x)), first)


def test_slower_kernel_is_dropped(native_mode, monkeypatch):
    """A kernel slower than the Python tier on its trial calls is dropped for good."""
    native_mode("auto")
    monkeypatch.setattr(native, "_HOT_SECONDS", 0.0)
    real = native.compile_kernel

    def slow_kernel(closed, parallel=False):
        k = real(closed, parallel)

        def call(*a):
            time.sleep(0.05)
            return k(*a)

        return call

    monkeypatch.setattr(native, "compile_kernel", slow_kernel)

    @jax.jit
    def f(c):
        return lax.fori_loop(0, 20, lambda i, c: c + 1.0, c)

    x = jnp.zeros(3, jnp.float32)
    for _ in range(2 + native._TRIALS):
        np.testing.assert_array_equal(np.asarray(f(x)), np.full(3, 20.0, np.float32))
        native.wait_for_compiles(60)
    (tier,) = _tiers(f.lower(x)._compiled().fn)
    assert tier.state == "slower" and tier.kernel is None


def test_bodies_with_callbacks_stay_python(native_mode):
    native_mode("always")
    seen = []

    @jax.jit
    def f(c):
        def body(c, _):
            jax.debug.callback(lambda v: seen.append(float(v)), c[0])
            return c + 1.0, None

        return lax.scan(body, c, None, length=3)[0]

    before = native.stats["regions"]
    out = f(jnp.zeros(2, jnp.float32))
    assert native.stats["regions"] == before
    assert "_tier" not in f.lower(jnp.zeros(2, jnp.float32)).as_text()
    assert seen == [0.0, 1.0, 2.0]
    np.testing.assert_array_equal(np.asarray(out), [3.0, 3.0])


def test_fallback_when_numba_absent(native_mode, monkeypatch, caplog):
    native_mode("always")
    # Installed but failing to import (or removed): every region stays in Python.
    monkeypatch.setattr(native, "_numba_state", {"mod": None})
    monkeypatch.setattr(xla_math_flag, "_numba", {"avail": True})
    caplog.set_level(logging.DEBUG, logger="jaxlite.native")

    @jax.jit
    def f(c):
        return lax.fori_loop(0, 10, lambda i, c: c + i, c)

    out = f(jnp.float32(0))
    assert float(out) == 45.0
    lines = [r for r in caplog.records if r.name == "jaxlite.native"]
    assert len(lines) == 1 and "numba is not installed" in lines[0].getMessage()
    # Not installed at all: no tier is even set up.
    monkeypatch.setattr(xla_math_flag, "_numba", {"avail": False})
    g = jax.jit(lambda c: lax.fori_loop(0, 10, lambda i, c: c + i, c))
    assert float(g(jnp.float32(1))) == 46.0
    assert "_tier" not in g.lower(jnp.float32(1)).as_text()


def test_fallback_when_a_rule_declines(native_mode, caplog):
    """max over one axis of a (not small) array has no native form: the region stays
    Python, one log line."""
    native_mode("always")
    caplog.set_level(logging.DEBUG, logger="jaxlite.native")
    failed = native.stats["failed"]

    @jax.jit
    def f(c):
        return lax.fori_loop(0, 3, lambda i, c: c * 0.5 + jnp.max(c, axis=0), c)

    x = np.arange(60, dtype=np.float32).reshape(3, 20)
    out = f(x)
    c = x
    for _ in range(3):
        c = c * np.float32(0.5) + c.max(axis=0)
    np.testing.assert_array_equal(np.asarray(out), c)
    assert native.stats["failed"] == failed + 1
    assert any("region left in Python" in r.getMessage() for r in caplog.records)


def test_fallback_when_numba_refuses(native_mode, monkeypatch, caplog):
    native_mode("always")
    caplog.set_level(logging.DEBUG, logger="jaxlite.native")

    def broken(closed, parallel=False):
        raise numba.core.errors.TypingError("refused")

    monkeypatch.setattr(native, "compile_kernel", broken)

    @jax.jit
    def f(c):
        return lax.fori_loop(0, 4, lambda i, c: c * 2, c)

    assert int(f(jnp.int32(1))) == 16
    assert any("TypingError" in r.getMessage() for r in caplog.records)


def test_config_values(native_mode):
    with pytest.raises(ValueError, match="jaxlite_native"):
        jax.config.update("jaxlite_native", "sometimes")
    for m in native.MODES:
        native_mode(m)
        assert native.mode() == m


def test_kernels_are_cached_on_disk():
    closed = common.simplified(
        jax.make_jaxpr(lambda c: lax.fori_loop(0, 7, lambda i, c: c * 3 + 1, c))(np.int32(1))
    )
    call = native.compile_kernel(closed)
    assert int(call(np.asarray(1, np.int32))[0]) == 3280
    d = native.cache_dir()
    files = os.listdir(os.path.join(d, "__pycache__")) if os.path.isdir(d) else []
    assert any(f.endswith(".nbi") for f in files), files  # Numba's index of cached machine code


_PROBE = """
import numpy as np
import jaxlite as jax
from jaxlite import lax
from jaxlite._src.compile import native
from jaxlite._src.control_flow import common

from jaxlite._src.ops import reduce_order

# The float32 sum is ops/sum_numba's helper (XLA's window-tree order, the Python tier's
# reduce_order): a kernel calling a helper must load too.
body = lambda i, c: (c[0] * 5 - 2, c[1] * np.float32(0.5) + c[1].sum())
v = np.linspace(-1, 2, 40, dtype=np.float32)
loop = lambda c, v: lax.fori_loop(0, 9, body, (c, v))
closed = common.simplified(jax.make_jaxpr(loop)(np.int32(1), v))
call = native.compile_kernel(closed)
c, w = call(np.asarray(1, np.int32), v)
assert int(c) == 976563
for _ in range(9):
    v = v * np.float32(0.5) + reduce_order.tree_reduce(np.add, v, (0,))
np.testing.assert_array_equal(w, v)
# float32 exp/tanh are helpers compiled on their own (with contraction, not inlined) and
# linked into the kernel; the blocked regions' loops are cached Numba functions of their own.
import jaxlite.numpy as jnp
from jaxlite._src.ops import xla_math32, xla_math32_numba as xm
x = np.linspace(-5, 5, 1001, dtype=np.float32)
closed = common.simplified(jax.make_jaxpr(lambda x: (jnp.tanh(x) * 2.0, jnp.exp(x[3])))(x))
call2 = native.compile_kernel(closed)
t, e = call2(x)
np.testing.assert_array_equal(t, xla_math32.tanh32(x) * np.float32(2))
assert e.view(np.uint32) == xla_math32.exp32(x[3:4]).view(np.uint32)[0]
out = np.empty_like(x)
xm.exp_block(x, out)
np.testing.assert_array_equal(out, xla_math32.exp32(x))
hits = [call.__globals__["_kern"], call2.__globals__["_kern"], xm.exp_block]
print(sum(sum(k.stats.cache_hits.values()) for k in hits))
"""


def test_second_process_starts_warm(tmp_path):
    """A kernel compiled by one process is loaded from the disk cache by the next one."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(
        os.environ,
        JAXLITE_NATIVE_CACHE_DIR=str(tmp_path),
        NUMBA_CACHE_DIR=str(tmp_path / "numba"),
        PYTHONPATH=root,
    )
    hits = []
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-c", _PROBE], env=env, capture_output=True, text=True, timeout=300
        )
        assert out.returncode == 0, out.stderr
        hits.append(int(out.stdout.strip().splitlines()[-1]))
    assert hits == [0, 3]  # compiled by the first process, loaded by the second


def _tiers(fn):
    return [v for v in fn.__globals__.values() if isinstance(v, native.Tier)]


def test_fused_region_for_large_elementwise_chains(native_mode):
    native_mode("always")

    def f(x):
        return jnp.sum(jnp.abs(x * 1.5 + 0.5) * x - jnp.sqrt(jnp.abs(x)))

    x = np.linspace(-2, 2, 1 << 16, dtype=np.float32)
    jf = jax.jit(f)
    out = jf(x)
    (tier,) = _tiers(jf.lower(x)._compiled().fn)
    assert tier.parallel and tier.kernel is not None
    native_mode("off")
    ref = jax.jit(f)(x)
    np.testing.assert_allclose(np.asarray(out), np.asarray(ref), rtol=1e-5)
    assert np.asarray(out).dtype == np.float32


def test_regions_are_runs_of_native_equations():
    """A region is a long run of native-subset equations; what comes before or after it
    (here a callback) stays as it was, in order."""
    seen = []

    def f(x):
        jax.debug.callback(lambda v: seen.append(1), x[0])
        return jnp.maximum(x * 2.0 + 1.0, 0.0) - x * 3.0

    closed = simplify.simplify(jax.make_jaxpr(f)(np.ones(1 << 16, np.float32)))
    out = native.outline_regions(closed)
    prims = [str(e.primitive) for e in out.jaxpr.eqns]
    assert prims[-1] == "native_region" and "native_region" not in prims[:-1]
    assert len(out.jaxpr.eqns) < len(closed.jaxpr.eqns)
    small = simplify.simplify(jax.make_jaxpr(f)(np.ones(8, np.float32)))
    assert native.outline_regions(small) is small  # small arrays: NumPy is as fast


def test_matrix_products_stay_out_of_straight_line_regions():
    """A jitted MLP forward's products are BLAS calls either way: an outlined region takes
    the elementwise runs between them only (here too short to be one), so Numba is not
    asked to compile a region it cannot speed up."""

    def forward(x, w1, w2):
        h = jnp.maximum(x @ w1 + 1.0, 0.0)
        return jnp.maximum(h @ w2 * 2.0 - 1.0, 0.0)

    x, w = np.ones((512, 256), np.float32), np.ones((256, 256), np.float32)
    closed = simplify.simplify(jax.make_jaxpr(forward)(x, w, w))
    assert native.outline_regions(closed, min_size=1) is closed

    def chain(x, w):  # a long elementwise run after the product is still a region
        y = x @ w
        return jnp.maximum(y * 2.0 + 1.0, 0.0) - y * 3.0

    out = native.outline_regions(simplify.simplify(jax.make_jaxpr(chain)(x, w)), min_size=1)
    prims = [str(e.primitive) for e in out.jaxpr.eqns]
    assert prims[0] == "dot_general" and prims[-1] == "native_region"


def test_threefry_kernel_matches_python_tier():
    import jaxlite.random as jr

    key = jr.PRNGKey(42)

    def f(k):
        return jr.uniform(k, (64,)), jr.bits(jr.split(k)[1], (3, 5))

    closed = simplify.simplify(jax.make_jaxpr(f)(key))
    regions = [
        e
        for e in native.outline_regions(closed, min_size=1).jaxpr.eqns
        if str(e.primitive) == "native_region"
    ]
    assert len(regions) == 2  # the key wrap/unwrap between them is not in the subset
    args = [np.asarray(jr.key_data(key))]
    for region in regions:
        sub = region.params["jaxpr"]
        with jax.config._override("jaxlite_native", "off"):
            want = codegen.compile_jaxpr(sub)[0](*args)
        got = native.compile_kernel(sub)(*args)
        _same(want, got, exact=True, what="threefry")
        args = [want[-1][1]] if len(want) == 2 else args  # the second region's key


# ------------------------------------------------------------------ scalarization
def _loop_lines(source):
    """The kernel lines inside loops (indented past the function body)."""
    return [ln.strip() for ln in source.splitlines() if ln.startswith("        ")]


def test_small_arrays_live_in_scalars_and_match_python_tier():
    """Small fixed-size arrays (an ODE state, a 2x2 matrix, loop carries, scan slices) are
    held as scalar locals: no array is allocated per step, and every op on them (index
    maps, dynamic slices with clamped starts, updates, reductions, casts, selects) gives
    the Python tier's results bit for bit."""

    def f(s, m, xs, k):
        def step(i, c):
            s, m = c
            x, y, z = s[0], s[1], s[2]
            d = jnp.stack([10.0 * (y - x), x * (28.0 - z) - y, x * y - 2.5 * z])
            s = s + 1e-3 * d
            m = m.T[::-1] * 0.5 + jnp.broadcast_to(s[:2], (2, 2)) + lax.iota(jnp.float32, 2)
            m = lax.dynamic_update_slice(m, s[1:3][None] * 0.25, (i & 3, 0))
            w = lax.dynamic_slice(s, (i - 1,), (2,))  # the start is clamped at both ends
            v = lax.dynamic_slice(m, (i & 1, 0), (1, 2))  # from a scalarized value
            t = jnp.concatenate([w.sum(keepdims=True), m.sum(axis=0) - v[0]])
            return s + t * 1e-4, m

        s, m = lax.fori_loop(0, 50, step, (s, m))

        def body(c, x):
            c = lax.while_loop(lambda c: c[0] < 10, lambda c: c * 2 + 1, c)
            ys = (c.max(), jnp.min(c), jnp.prod(c), (c > 3).any(), (c > 3).all())
            ys += (c.astype(jnp.int8), jnp.where(c > 5, c, -c), lax.rev(c, (0,)) << 1)
            return c - x, ys

        c, ys = lax.scan(body, k, xs)
        return s, m, c, ys

    args = (
        np.array([1.0, 1.0, 1.0], np.float32),
        np.array([[0.5, -1.0], [2.0, 0.25]], np.float32),
        np.arange(10, dtype=np.int32).reshape(5, 2),
        np.array([1, -3], np.int32),
    )
    want, got = _both_tiers(f, *args)
    _same(want, got, exact=True)
    closed = simplify.simplify(jax.make_jaxpr(f)(*args))
    source, _ = native.emit_kernel(closed)
    inner = _loop_lines(source)
    assert inner and not [ln for ln in inner if "np.empty(" in ln or "np.full(" in ln]
    assert not [ln for ln in inner if "concatenate" in ln or ".copy()" in ln or "[0:" in ln]


@pytest.mark.parametrize("scalarize", [True, False])
def test_scalarized_and_array_forms_agree(monkeypatch, scalarize):
    """The same small-array program with scalarization on and off (the array form is what
    larger arrays get): both are the Python tier's results."""
    if not scalarize:
        monkeypatch.setattr(native_emit, "_SCALAR_MAX", 0)

    def f(x, y):
        z = jnp.where(x > y, x * y - 1.5, jnp.abs(y)) / (1.0 + x * x)
        q = jnp.concatenate([z[::2], z[1::2] ** 3])
        return q, z.reshape(2, 3).T.sum(axis=1), jnp.maximum(q, y).astype(jnp.int16), x[2] * y

    x = np.array([0.5, -1.0, np.nan, 3.0, -0.0, np.inf], np.float32)
    y = np.array([1.0, 2.0, 3.0, -4.0, 5.0, -6.0], np.float32)
    want, got = _both_tiers(f, x, y)
    _same(want, got, exact=True)


def test_lane_fused_regions_match_python_tier():
    """A lane-wise region (threefry, the bits-to-float chain, the affine map, a reshape and
    2-D iotas) is one loop that allocates only its outputs, bit for bit the Python tier."""
    import jaxlite.random as jr

    def f(k, x):
        u = jr.uniform(k, (3, 500), minval=-1.0, maxval=2.0)
        i = lax.broadcasted_iota(jnp.int32, (3, 500), 1) * 3 - lax.broadcasted_iota(
            jnp.int32, (3, 500), 0
        )
        return u, jnp.where(u > 0.5, u * x, -x) + i.astype(jnp.float32), i ^ 5

    args = (jr.PRNGKey(3), np.linspace(-1, 1, 1500, dtype=np.float32).reshape(3, 500))
    closed = simplify.simplify(jax.make_jaxpr(f)(*args))
    out = native.outline_regions(closed, min_size=1)
    (region,) = [e for e in out.jaxpr.eqns if str(e.primitive) == "native_region"]
    sub = native._single_eqn_jaxpr(region)
    source, _ = native.emit_kernel(sub)
    assert source.count("prange(") == 1 and "np.arange" not in source
    assert source.count("np.empty(") == len(region.outvars)
    flat = [np.asarray(v) for v in jax.tree_util.tree_leaves(args)]
    ins = [
        flat[1] if v.aval.shape == (3, 500) else np.asarray(jr.key_data(args[0]))
        for v in region.invars
    ]
    with jax.config._override("jaxlite_native", "off"):
        want = codegen.compile_jaxpr(sub)[0](*ins)
    got = native.compile_kernel(sub, parallel=True)(*ins)
    _same(want, got, exact=True, what="lanes")


def test_threaded_numpy_region_for_transcendental_chains(native_mode):
    """A large elementwise chain with NumPy-SIMD functions (sin, exp, tanh) stays NumPy but
    runs on one flat chunk per core: bit for bit the Python tier, odd sizes included (with
    Numba its float32 exp/tanh are XLA's, as the Python tier's under ``jaxlite_xla_math``,
    which makes sin the C library's in both)."""
    native_mode("always")

    def f(x):
        y = jnp.exp(-(jnp.sin(x) * 2.0 + 1.0)) * x
        return jnp.sqrt(jnp.abs(jnp.tanh(y) - 0.5)) + x, x * 3.0 - 1.0

    x = np.random.RandomState(1).uniform(-4, 4, (3, 70001)).astype(np.float32)
    x[0, :4] = [np.nan, np.inf, -np.inf, -0.0]
    jf = jax.jit(f)
    with jax.config._override("jaxlite_xla_math", native_blocks.numba_installed()):
        got = jf(x)
    with jax.config._override("jaxlite_xla_math", native_blocks.numba_installed()):
        tiers = _tiers(jf.lower(x)._compiled().fn)
    if (os.cpu_count() or 1) < 2:
        assert not tiers
    else:
        (tier,) = tiers
        assert tier.threads and tier.kernel is not None
    native_mode("off")
    with jax.config._override("jaxlite_xla_math", native_blocks.numba_installed()):
        want = jax.jit(f)(x)
    _same(jax.tree_util.tree_leaves(want), jax.tree_util.tree_leaves(got), exact=True)


def test_parallel_region_trial_picks_parallel_or_serial(native_mode, monkeypatch):
    """Auto mode: a parallel region is compiled twice (parallel and serial loops), each is
    timed on the trial calls, and the fastest stays if it beats the Python tier."""
    native_mode("auto")
    monkeypatch.setattr(native, "_HOT_SECONDS", 0.0)

    @jax.jit
    def f(x):
        return jnp.maximum(x * 1.5 + 0.25, 0.0) * x - 3.0

    x = np.linspace(-2, 2, 1 << 17, dtype=np.float32)
    want = np.asarray(f(x))
    assert native.wait_for_compiles(300)
    (tier,) = _tiers(f.lower(x)._compiled().fn)
    assert tier.parallel and tier.state == "trial" and len(tier._candidates) == 2
    for _ in range(2 * native._TRIALS):
        np.testing.assert_array_equal(np.asarray(f(x)), want)
    assert [len(t) for t in tier._times] == [native._TRIALS] * 2
    assert tier.state in ("ready", "slower") and not tier._candidates
    assert tier.kernel is (tier._native if tier.state == "ready" else None)


def test_trial_is_thread_safe():
    """shard_map runs one device body per thread, so several threads can be in a tier's
    trial at once: every call returns its kernel's result and one decision is made."""
    tier = native.Tier(jax.make_jaxpr(lambda x: x + 1)(np.float32(0)), parallel=True)
    tier.spent, tier.calls = 1.0, 1  # the Python tier's time: 1 s a call (native wins)
    gate = threading.Barrier(8)

    def slow_kernel(x):
        time.sleep(0.001)
        return [x + 1]

    tier._candidates, tier._times = [slow_kernel, slow_kernel], [[], []]
    tier._native, tier.state, tier.kernel = slow_kernel, "trial", tier._trial
    results, errors = [], []

    def call():
        gate.wait()
        try:
            for _ in range(20):
                results.append(tier._trial(np.float32(1))[0])
        except Exception as e:  # noqa: BLE001 - collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(results) == 160 and all(r == 2 for r in results)
    assert tier.state == "ready" and tier.kernel is slow_kernel and not tier._candidates


def test_trial_compares_with_the_python_tiers_usual_time_not_its_warm_up():
    """A kernel is kept only if it beats the median of the Python tier's calls before the
    region was queued: slow first calls (allocation, BLAS warm-up) must not make a slower
    kernel look faster (the mean of 2 x 1 s and 10 x 10 ms is 175 ms)."""

    def decide(kernel_seconds):
        tier = native.Tier(jax.make_jaxpr(lambda x: x + 1)(np.float32(0)))
        for t in [1.0, 1.0] + [0.010] * 10:
            tier.spent += t
            tier.calls += 1
            tier.recent.append(t)
        tier.state = "queued"
        tier.tick(5.0)  # a call while the compiler runs: not the usual time either
        tier._candidates, tier._times = [lambda x: [x + 1]], [[kernel_seconds] * native._TRIALS]
        tier._decide()
        return tier.state

    assert decide(0.020) == "slower"  # faster than the mean, slower than the usual call
    assert decide(0.005) == "ready"
