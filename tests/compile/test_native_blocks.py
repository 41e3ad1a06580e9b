"""Blocked NumPy regions of the native tier (``compile/native_blocks.py``): same bits as the
Python tier, for every dtype family, at sizes that do not fill a block; thread safety; the
tier switching them in; and all of it without Numba (they need none)."""

import re
import threading

import ml_dtypes
import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.compile import codegen, native, native_blocks
from jaxlite._src.core import rules
from jaxlite._src.core.ir import Var
from jaxlite._src.interpreters import simplify
from jaxlite._src.ops import xla_math_flag
from tests.sharding._subproc import run

pytestmark = pytest.mark.jaxlite_only  # the tier is jaxlite's own machinery


@pytest.fixture
def native_mode():
    old = jax.config.read("jaxlite_native")
    yield lambda m: jax.config.update("jaxlite_native", m)
    jax.config.update("jaxlite_native", old)


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 4096 elements, so small arrays span several blocks and a partial one."""
    monkeypatch.setattr(native_blocks, "_BLOCK_MIN", 4096)
    monkeypatch.setattr(native_blocks, "_BLOCK_MAX", 4096)


@pytest.fixture
def no_numba(monkeypatch):
    monkeypatch.setattr(xla_math_flag, "_numba", {"avail": False})


def _chain(x):
    y = jnp.sin(x) * 2.0 + 1.0
    y = jnp.exp(-y) * x
    return jnp.sqrt(jnp.abs(jnp.tanh(y) - 0.5)) + x


def _float_multi(x, s):
    """Several outputs, a value read long after it is made, a broadcast scalar operand, a
    cast and a select (not plain ufuncs) in the middle."""
    a = jnp.sin(x)
    b = jnp.exp(a * s)
    c = lax.convert_element_type(b, jnp.float32) * 3.0
    d = jnp.where(c > 2.0, a, c - s)
    return d + a, lax.integer_pow(b, 3) / (a + 2.0), c


def _int_chain(x, s):
    y = (x * 3 + s) ^ (x >> 2)
    y = jnp.abs(y - 7) // 5
    return jnp.maximum(y, x) - (y % 3), (y & 255) << 1


def _bool_chain(x, y):
    a = jnp.logical_and(x, jnp.logical_not(y))
    b = jnp.logical_or(a, jnp.logical_xor(x, y))
    return jnp.where(b, a, y) != x, jnp.logical_not(b) & a


def _tiers(fn):
    return [v for v in fn.__globals__.values() if isinstance(v, native.Tier)]


def _region(closed):
    out = native.outline_regions(closed, min_size=0)
    regions = [e for e in out.jaxpr.eqns if str(e.primitive) == "native_region"]
    assert len(regions) == 1 and regions[0].params["threads"], out
    return regions[0]


def _check(f, *args, xla=None):
    """``f`` with its one blocked region (built in ``always`` mode) against the Python
    tier, bit for bit; returns the region's kernel. Where Numba is installed the region's
    float32 exp/log/tanh are XLA's expansions: both then run with ``jaxlite_xla_math`` on
    (unless ``xla`` says otherwise), which gives the Python tier the same (and both the C
    library's sin/cos; tests/compile/test_native_xla_math.py checks the default, flag off)."""
    closed = simplify.simplify(jax.make_jaxpr(f)(*args))
    outlined = native.outline_regions(closed, min_size=0)
    _region(outlined)
    xla = native_blocks.numba_installed() if xla is None else xla
    with (
        jax.config._override("jaxlite_native", "off"),
        jax.config._override("jaxlite_xla_math", xla),
    ):
        want = codegen.compile_jaxpr(closed)[0](*args)
    with (
        jax.config._override("jaxlite_native", "always"),
        jax.config._override("jaxlite_xla_math", xla),
    ):
        fn = codegen.compile_jaxpr(outlined)[0]
        got = fn(*args)
    (tier,) = _tiers(fn)
    assert tier.threads and tier.state == "ready"
    assert len(got) == len(want)
    for w, g in zip(want, got):
        w, g = np.asarray(w), np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape
        # Compare the bits (NaNs included, -0.0 apart from 0.0).
        np.testing.assert_array_equal(
            np.ascontiguousarray(g).view(np.uint8), np.ascontiguousarray(w).view(np.uint8)
        )
    return tier.kernel


def _floats(n, dtype, seed=0):
    x = np.random.RandomState(seed).uniform(-6, 6, n).astype(dtype)
    special = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1e30, -1e-30], np.float32)
    with np.errstate(over="ignore"):  # 1e30 is inf in the 16-bit floats
        x[: min(n, special.size)] = special[: min(n, special.size)].astype(dtype)
    return x


@pytest.mark.parametrize("n", [0, 1, 4095, 4096, 4097, 3 * 4096 + 17])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.float64])
def test_float_chains_match_python_tier(small_blocks, n, dtype):
    x = _floats(n, dtype)
    if dtype == np.float64:
        with jax.config._override("jax_enable_x64", True):
            _check(_chain, x)
            _check(_float_multi, x, np.asarray(0.75, dtype))
        return
    _check(_chain, x)
    # float32 casts inside the chain (a no-op for float32) keep 16-bit floats out of it.
    if dtype == np.float32:
        _check(_float_multi, x, np.asarray(0.75, dtype))


@pytest.mark.parametrize("n", [1, 4097, 2 * 4096 + 5])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint16, np.uint32])
def test_integer_chains_wrap_as_python_tier(small_blocks, no_numba, n, dtype):
    info = np.iinfo(dtype)
    x = np.random.RandomState(2).randint(info.min, info.max, n, dtype=np.int64).astype(dtype)
    _check(_int_chain, x, np.asarray(info.max, dtype))  # x * 3 + max wraps


@pytest.mark.parametrize("n", [1, 4096 * 2 + 3])
def test_bool_chains_match_python_tier(small_blocks, no_numba, n):
    rng = np.random.RandomState(3)
    _check(_bool_chain, rng.rand(n) < 0.5, rng.rand(n) < 0.3)


def test_real_block_size_and_odd_shape():
    """The default block size (the chain's working set in L2) on a 2-D array whose size is
    not a multiple of it; the tail block is the array's tail."""
    x = _floats(3 * 70001, np.float32).reshape(3, 70001)
    kernel = _check(_chain, x)
    m = re.search(r"b = k \* (\d+)", kernel.__jaxlite_source__)
    assert m and int(m.group(1)) % native_blocks._ALIGN == 0
    assert native_blocks._BLOCK_MIN <= int(m.group(1)) <= native_blocks._BLOCK_MAX


def test_buffers_are_reused_in_place():
    """The 10-op chain needs one scratch buffer: each ufunc writes over its dying operand,
    and the last one writes the result slice."""
    x = _floats(1 << 16, np.float32)
    src = _check(_chain, x).__jaxlite_source__
    assert "s0, = _scratch(_spec)" in src and "s1" not in src
    # ``out`` passed positionally (the last operand of each ufunc call).
    assert src.rstrip().splitlines()[-1].strip().endswith(", x0, r0)")
    # Only generated names: constants and callables are globals, never source text.
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", src))
    generated = re.compile(r"^(_[ucf]\d+|[sxrtAO]\d+|_run|_scratch|_spec)$")
    keywords = {"def", "for", "in", "if", "return", "take", "k", "b", "e", "out"}
    assert all(generated.match(w) or w in keywords for w in words), words


def test_float32_sin_and_cos_read_a_staged_copy_of_inputs():
    """NumPy's float32 sin/cos read an input block from a copy in scratch (in place there);
    a sin of a computed value, and other ufuncs, read their operands as they are. Same
    bits for values across sin's fast and slow (large-argument) paths."""
    rng = np.random.RandomState(7)
    x = np.concatenate(
        [
            _floats(1 << 14, np.float32),
            rng.uniform(-2e5, 2e5, 1 << 14).astype(np.float32),  # past the SIMD range
            np.float32(2.0) ** rng.randint(-149, 128, 1 << 14).astype(np.float32),
            np.array([np.finfo(np.float32).tiny / 3, 71476.0625, 117435.992], np.float32),
        ]
    )
    with np.errstate(over="ignore"):
        x[-(1 << 13) - 3 : -3] *= -1

    def f(x, y):
        return jnp.sin(x) + jnp.cos(y) * jnp.sin(x * 0.5) + x * 3.0

    # NumPy's sin and cos: the flag off (under it they are the C library's, not staged).
    src = _check(f, x, x[::-1].copy(), xla=False).__jaxlite_source__
    copies = re.findall(r"(_f\d+)\((s\d+), (x[01])\)\n\s+_u\d+\(\2, \2\)", src)
    assert sorted(c[2] for c in copies) == ["x0", "x1"], src
    assert native_blocks._STAGED >= {(np.sin, np.dtype(np.float32))}
    (copy_name,) = {c[0] for c in copies}
    # sin(x * 0.5) reads a scratch value, the product reads x itself: no more copies.
    assert src.count(copy_name + "(") == 2
    with jax.config._override("jax_enable_x64", True):
        x64 = x.astype(np.float64)
        src64 = _check(f, x64, x64[::-1].copy(), xla=False).__jaxlite_source__
    assert not re.search(r"_f\d+\(s\d+, x[01]\)", src64), src64  # float64: no copies


def test_positional_out_only_where_numpy_allows_it():
    assert native_blocks._positional_out(np.add) and native_blocks._positional_out(np.sin)
    # NumPy 2.4 deprecates a third positional argument of maximum/minimum.
    assert not native_blocks._positional_out(np.maximum)
    assert not native_blocks._positional_out(np.minimum)


def test_non_contiguous_operand_is_copied_first():
    x = _floats(2 * 40000, np.float32).reshape(2, 40000)
    closed = simplify.simplify(jax.make_jaxpr(_chain)(x.T))
    region = _region(closed)
    xla = native_blocks.numba_installed()
    with jax.config._override("jaxlite_xla_math", xla):  # as in ``_check``
        kernel = native_blocks.compile_blocks(region.params["jaxpr"])
    with (
        jax.config._override("jaxlite_native", "off"),
        jax.config._override("jaxlite_xla_math", xla),
    ):
        want = codegen.compile_jaxpr(closed)[0](x.T)
    got = kernel(x.T)
    np.testing.assert_array_equal(np.asarray(got[0]).view(np.uint32), want[0].view(np.uint32))


def test_concurrent_calls_from_many_threads(small_blocks):
    """Scratch buffers are per thread and threads share only the block counter: calls
    from several threads at once each get their own, correct result."""
    x = _floats(5 * 4096 + 3, np.float32)
    kernel = _check(_chain, x)
    inputs = [x * np.float32(k + 1) for k in range(6)]
    xla = native_blocks.numba_installed()  # (as in ``_check``)
    with (
        jax.config._override("jaxlite_native", "off"),
        jax.config._override("jaxlite_xla_math", xla),
    ):
        f = jax.jit(_chain)
        wants = [np.asarray(f(a)) for a in inputs]
    gate = threading.Barrier(6)
    errors = []

    def call(k):
        gate.wait()
        try:
            for _ in range(10):
                got = kernel(inputs[k])[0]
                np.testing.assert_array_equal(got.view(np.uint32), wants[k].view(np.uint32))
        except Exception as e:  # noqa: BLE001 - collected and asserted below
            errors.append(e)

    threads = [threading.Thread(target=call, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


@pytest.mark.parametrize("numba", [True, False])
def test_modes_with_and_without_numba(native_mode, monkeypatch, numba):
    """``always``: the blocked region is built when the function is compiled; ``auto``: once
    the Python tier has spent ``_HOT_SECONDS_BLOCKS`` in it, on the calling thread, then
    three trial calls; ``off``: no region. Numba is needed by none of them (with it, the
    region's float32 exp/tanh are XLA's: the Python tier's under ``jaxlite_xla_math``, which
    makes sin the C library's in both)."""
    if not numba:
        monkeypatch.setattr(xla_math_flag, "_numba", {"avail": False})
    x = _floats(1 << 17, np.float32)
    with jax.config._override("jaxlite_xla_math", native_blocks.numba_installed()):
        native_mode("off")
        want = np.asarray(jax.jit(_chain)(x))
        f = jax.jit(_chain)
        assert not _tiers(f.lower(x)._compiled().fn)
        native_mode("always")
        f = jax.jit(_chain)
        np.testing.assert_array_equal(np.asarray(f(x)), want)
        (tier,) = _tiers(f.lower(x)._compiled().fn)
        assert tier.threads and tier.state == "ready"
        native_mode("auto")
        monkeypatch.setattr(native, "_HOT_SECONDS_BLOCKS", 0.0)
        f = jax.jit(_chain)
        np.testing.assert_array_equal(np.asarray(f(x)), want)  # the Python tier; then built
        (tier,) = _tiers(f.lower(x)._compiled().fn)
        # (the region's Numba loops, if any, were loaded above: built on the calling thread)
        assert tier.state == "trial" and native._queue.unfinished_tasks == 0
        for _ in range(native._TRIALS):
            np.testing.assert_array_equal(np.asarray(f(x)), want)
        assert tier.state in ("ready", "slower")
        np.testing.assert_array_equal(np.asarray(f(x)), want)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # the Python tier on inf * 0
def test_arithmetic_chain_is_blocked_without_numba(no_numba):
    """Without Numba an elementwise chain with no NumPy-SIMD function is a blocked region
    too (with Numba it would be a compiled one)."""

    def f(x):
        return jnp.maximum(x * 1.5 + 0.25, 0.0) * x - 3.0

    x = _floats(1 << 16, np.float32)
    _check(f, x)


def test_shard_map_device_bodies_run_blocks_on_their_thread():
    """Inside a shard_map device body a blocked region runs its blocks on the device's own
    thread (the devices' threads already occupy the cores), with the same bits."""
    run(
        """
        from jaxlite._src.compile import native_blocks
        native_blocks.workers = lambda: 2  # as on a 2-core machine, even on one core
        def chain(x):
            y = jnp.sin(x) * 2.0 + 1.0
            y = jnp.exp(-y) * x
            return jnp.sqrt(jnp.abs(jnp.tanh(y) - 0.5)) + x
        def no_pool():
            raise AssertionError("a device body handed blocks to the pool")
        native_blocks._get_pool = no_pool
        mesh = jax.make_mesh((2,), ("i",), axis_types=(AxisType.Auto,))
        # (with Numba, the region's float32 exp/tanh are XLA's: the flag's Python tier,
        # whose sin is the C library's in both)
        jax.config.update("jaxlite_xla_math", native_blocks.numba_installed())
        g = jax.jit(jax.shard_map(chain, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
        x = np.random.RandomState(0).uniform(-6, 6, 2 * 300001).astype(np.float32)
        from jaxlite._src.compile import native
        before = dict(native.stats)
        got = np.asarray(g(x))
        # One region: the body's pvary of each literal is hoisted out of the chain.
        assert native.stats["regions"] - before["regions"] == 1, native.stats
        assert native.stats["compiled"] - before["compiled"] == 1, native.stats
        jax.config.update("jaxlite_native", "off")
        want = np.asarray(jax.jit(chain)(x))
        assert np.array_equal(got.view(np.uint32), want.view(np.uint32))
        """,
        n_devices=2,
        env={"JAXLITE_NATIVE": "always"},
    )


def test_scalar_equations_of_inputs_are_hoisted_out_of_runs():
    """A pure scalar equation of literals and inputs moves before the run it would split;
    one that needs a value computed in the function stays where it is."""

    def f(x, s):
        y = jnp.sin(x) * 2.0
        t = s * 3.0  # inputs only: hoisted
        y = jnp.exp(y + t) - 1.0
        u = jnp.sum(y)  # computed here: the scalar below stays after it
        return jnp.tanh(y) * (u * 2.0)

    x, s = _floats(1 << 16, np.float32), np.asarray(0.5, np.float32)
    closed = simplify.simplify(jax.make_jaxpr(f)(x, s))
    eqns = native._hoist_scalars(closed.jaxpr)
    assert [str(e.primitive) for e in eqns[:1]] == ["mul"] and eqns[0].outvars[0].aval.shape == ()
    defined = {id(v) for v in closed.jaxpr.invars}
    for e in eqns:  # every operand is defined before it is read
        assert all(type(v) is not Var or id(v) in defined for v in e.invars), e
        defined.update(id(v) for v in e.outvars)
    assert sorted(map(id, eqns)) == sorted(map(id, closed.jaxpr.eqns))
    outlined = native.outline_regions(closed, min_size=0)
    assert [str(e.primitive) for e in outlined.jaxpr.eqns].count("native_region") == 1
    with jax.config._override("jaxlite_native", "off"):
        want = codegen.compile_jaxpr(closed)[0](x, s)
    with jax.config._override("jaxlite_native", "always"):
        got = codegen.compile_jaxpr(outlined)[0](x, s)
    np.testing.assert_array_equal(np.asarray(got[0]).view(np.uint32), want[0].view(np.uint32))


@pytest.mark.parametrize(
    "dtype", [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int32, np.uint8, np.bool_]
)
def test_every_elementwise_ufunc_is_block_invariant(dtype):
    """What "same bits" rests on: every ufunc of an elementwise primitive gives the same
    bits on blocks of 4096 elements (misaligned in memory, scalar second operand too) as on
    the whole array."""
    n = 3 * 4096 + 5
    rng = np.random.RandomState(4)
    if np.dtype(dtype).kind in "iub":
        a = rng.randint(0, 100, n).astype(dtype)
        b = rng.randint(1, 100, n).astype(dtype)
    else:
        a, b = _floats(n, dtype), _floats(n, dtype, seed=5)
    impls = [rules.impl_rules.get(p) for p in rules.native_elementwise]
    impls = [getattr(f, "ufunc", f) for f in impls]  # complex kernels wrap a ufunc
    ufuncs = {f for f in impls if isinstance(f, np.ufunc) and f.nout == 1}
    assert len(ufuncs) > 30
    checked = 0
    with np.errstate(all="ignore"):
        for f in sorted(ufuncs, key=lambda u: u.__name__):
            ops = [a] if f.nin == 1 else [a, b] if f.nin == 2 else None
            if ops is None:
                continue
            for second in [None] if f.nin == 1 else [b, b[:1].reshape(())]:
                args = ops if second is None else [a, second]
                try:
                    want = f(*args)
                except TypeError:
                    continue  # no loop for this dtype
                buf = np.empty(n + 3, dtype)
                moved = buf[3:]  # misaligned by 3 elements
                moved[...] = a
                got = np.empty_like(want)
                for k in range(0, n, 4096):
                    rest = [x if x.ndim == 0 else x[k : k + 4096] for x in args[1:]]
                    f(moved[k : k + 4096], *rest, out=got[k : k + 4096])
                np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), f.__name__)
                checked += 1
    assert checked > 5


def test_scratch_is_per_thread_and_shared_by_regions():
    f32, i8 = np.dtype(np.float32), np.dtype(np.int8)
    a = native_blocks._scratch((65536, (f32, f32, i8)))
    b = native_blocks._scratch((32768, (f32,)))
    assert [x.shape for x in a] == [(65536,)] * 3 and a[2].dtype == i8
    assert np.shares_memory(a[0], b[0]) and not np.shares_memory(a[0], a[1])
    other = []
    t = threading.Thread(target=lambda: other.extend(native_blocks._scratch((32768, (f32,)))))
    t.start()
    t.join()
    assert not np.shares_memory(other[0], b[0])
