"""The native tier on the loops of MCMC samplers (blackjax's and numpyro's NUTS): nested calls
inlined, PRNG keys carried as their words, and the rules those loops need (integer
division, signed logical shifts, population counts, pad, split, scatter, small products,
logistic, float sums in XLA's order), each checked bit for bit against the Python tier on its
edge cases; and the cap on a kernel's size.

Numba compiles are slow (seconds for a few hundred lines on the loaded 2-core machine): each
test builds one kernel holding all its cases.
"""

import logging

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite._src.compile import codegen, native, native_emit, native_physical
from jaxlite._src.interpreters import simplify
from jaxlite._src.ops import indexing, reductions

pytestmark = pytest.mark.jaxlite_only  # the tier is jaxlite's own machinery

numba = pytest.importorskip("numba", reason="numba is not installed (pip install jaxlite[native])")


@pytest.fixture
def native_mode():
    """Set ``jaxlite_native`` for one test and restore it after."""
    old = jax.config.read("jaxlite_native")
    yield lambda m: jax.config.update("jaxlite_native", m)
    jax.config.update("jaxlite_native", old)


def _bits(x):
    x = np.asarray(x)
    if x.dtype.kind == "f":
        return x.view(np.dtype(f"u{x.dtype.itemsize}"))
    return x


def _tiers(f, *args):
    """(Python-tier outputs, native outputs) of ``f`` at ``args``, one kernel."""
    closed = simplify.simplify(jax.make_jaxpr(f)(*args))
    flat = [np.asarray(a) for a in args]
    with jax.config._override("jaxlite_native", "off"):
        want = codegen.compile_jaxpr(closed)[0](*flat)
    got = native.compile_kernel(closed)(*flat)
    return want, got


def _same_bits(want, got, names):
    assert len(want) == len(got) == len(names)
    for name, w, g in zip(names, want, got):
        w, g = np.asarray(w), np.asarray(g)
        assert (g.dtype, g.shape) == (w.dtype, w.shape), name
        np.testing.assert_array_equal(_bits(g), _bits(w), err_msg=name)


# ------------------------------------------------------------------- elementwise rules
_INTS = {
    # dividends and divisors crossing every sign, zero, -1 and the most negative value
    np.int8: (
        [-128, -128, -7, 7, -7, 7, 0, 5, 127, -1, 100, -100],
        [-1, 0, 2, -2, -2, 2, 0, 0, 3, 1, -7, 7],
    ),
    np.int32: (
        [-(2**31), -(2**31), -7, 7, -7, 7, 0, 9, 2**31 - 1, -1, 1000, -1000],
        [-1, 0, 2, -2, -2, 2, -3, 0, 2, -1, -7, 7],
    ),
    np.int64: (
        [-(2**63), -(2**63), -7, 7, -7, 7, 0, 9, 2**63 - 1, -1, 10**15, -(10**15)],
        [-1, 0, 2, -2, -2, 2, -3, 0, 2, -1, -7, 7],
    ),
    np.uint32: (
        [0, 7, 7, 2**32 - 1, 5, 9, 100, 0, 1, 3, 2**31, 6],
        [0, 0, 2, 3, 7, 9, 7, 3, 1, 2, 2, 6],
    ),
}
_SHIFTS = [-1, 0, 1, 3, 7, 8, 15, 31, 32, 33, 63, 64]  # negative and >= width give 0


def _tile(a, n):
    return np.resize(np.asarray(a), n)


def test_integer_rules_match_python_tier():
    """div, rem, signed shift_right_logical and population_count on scalars, small
    (scalarized) arrays and large arrays: XLA's C-style truncation, x / 0 = -1, x rem 0 = x,
    INT_MIN / -1 wrapping and INT_MIN rem -1 = 0, shifts by negative or too large amounts."""
    args, names = [], []
    for dt, (x, y) in _INTS.items():
        x, y = np.asarray(x, dt), np.asarray(y, dt)
        s = (
            np.asarray(_SHIFTS, dt)
            if np.dtype(dt).kind == "i"
            else np.asarray(_SHIFTS[1:] + [2], dt)
        )
        args += [x[:4], y[:4], _tile(x, 40), _tile(y, 40), x[0], y[0], _tile(s, 40), s[:4]]

    def f(*flat):
        outs = []
        for k in range(0, len(flat), 8):
            xs, ys, xl, yl, x0, y0, sl, ss = flat[k : k + 8]
            for a, b in ((xs, ys), (xl, yl), (x0, y0)):
                outs += [lax.div(a, b), lax.rem(a, b)]
            outs += [lax.div(xl[0], yl), lax.rem(xl, yl[1])]  # scalar with array
            outs += [lax.shift_right_logical(xl, sl), lax.shift_right_logical(xs, ss)]
            outs += [lax.shift_right_logical(x0, ss[1]), lax.population_count(xl)]
            outs += [lax.population_count(xs), lax.population_count(x0)]
        return outs

    with jax.enable_x64(True):  # int64 operands (INT64_MIN / -1 would trap in hardware)
        want, got = _tiers(f, *args)
    names = [f"{dt.__name__}:{i}" for dt in _INTS for i in range(14)]
    _same_bits(want, got, names)
    # The Python tier is XLA's: spot-check the edge values themselves.
    i8 = {n: np.asarray(w) for n, w in zip(names, want)}
    np.testing.assert_array_equal(i8["int8:0"], np.asarray([-128, -1, -3, -3], np.int8))
    np.testing.assert_array_equal(i8["int8:1"], np.asarray([0, -128, -1, 1], np.int8))


def test_float_rules_match_python_tier():
    """logistic (SciPy's expit: the same operations), float sums and products in XLA's
    window-tree order (``ops/reduce_order``: scalarized 8-16 elements, a thousand, a
    column sum and product of 40 rows), float div and rem, and one-element reductions (a
    reshape; of a scalar, a Numba scalar)."""
    rng = np.random.default_rng(0)
    edge = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.0, -88.0, 750.0, -750.0, 1e-30, -17.5, 3.0]
    args = []
    for dt in (np.float32, np.float64):
        big = np.concatenate([edge, rng.normal(0, 20, 1000)]).astype(dt)
        args += [big, big[:4], np.asarray(edge[:12], dt), rng.normal(size=(4, 3)).astype(dt)]
        args += [rng.normal(size=8).astype(dt), rng.normal(size=9).astype(dt) * 1e4]
        args += [(rng.normal(size=(40, 5)) * np.exp2(rng.integers(-20, 20, (40, 5)))).astype(dt)]

    def f(*flat):
        outs = []
        for k in range(0, len(flat), 7):
            big, small, edge, m, v8, v9, cols = flat[k : k + 7]
            outs += [jnp.sum(cols, axis=0), jnp.prod(1 + cols / 2**20, axis=0)]
            outs += [jax.nn.sigmoid(big), jax.nn.sigmoid(small), lax.logistic(edge[5])]
            outs += [jnp.sum(big[12:]), jnp.sum(v8), jnp.sum(v9), jnp.sum(m), jnp.sum(edge[:5])]
            outs += [lax.div(big, big[::-1]), lax.rem(big, jnp.flip(big) + 1)]
            # One-element reductions are reshapes: of a scalar (no axes), to a scalar.
            outs += [reductions.reduce_sum_p.bind(edge[3], axes=())]
            outs += [reductions.reduce_max_p.bind(big[:1], axes=(0,))]
            outs += [reductions.reduce_sum_p.bind(m[:1], axes=(0,))]
        return outs

    with jax.enable_x64(True):
        want, got = _tiers(f, *args)
    _same_bits(want, got, [f"{dt}:{i}" for dt in ("f32", "f64") for i in range(15)])


# ---------------------------------------------------------------------- structural rules
def test_pad_split_and_products_match_python_tier():
    """pad with negative (cropping) and interior padding on small (scalarized) and large
    operands, split, and dot_general's one-element contractions (a vector times a scalar,
    outer products) next to a BLAS vector product."""
    rng = np.random.default_rng(1)
    small = rng.normal(size=(2, 3)).astype(np.float32)
    large = rng.normal(size=(7, 9)).astype(np.float32)
    ints = np.arange(-6, 6, dtype=np.int32)
    v2, w2 = rng.normal(size=2).astype(np.float32), rng.normal(size=2).astype(np.float32)
    configs = [
        ((1, 2, 0), (0, 0, 1)),
        ((-1, 1, 1), (2, -2, 0)),
        ((0, -1, 2), (-2, -1, 1)),
        ((-2, 3, 0), (1, 0, 3)),
    ]

    def f(small, large, ints, v2, w2, pv):
        outs = []
        for cfg in configs:
            outs += [lax.pad(small, pv, cfg), lax.pad(large, pv, cfg)]
        outs += [
            lax.pad(ints, jnp.int32(-9), ((-3, 2, 1),)),
            lax.pad(ints[:3], jnp.int32(7), ((2, -1, 2),)),
        ]
        outs += list(lax.split(large, (2, 0, 5), axis=0)) + list(lax.split(small, (1, 2), axis=1))
        outs += list(lax.split(ints, (5, 7)))
        outs += [v2 * pv, lax.dot_general(v2, pv, (((), ()), ((), ())))]
        outs += [jnp.dot(v2, w2), jnp.outer(v2, w2), jnp.outer(large[:, 0], w2)]
        outs += [lax.dot_general(small[:, :1], w2[None, :], (((1,), (0,)), ((), ())))]
        outs += [lax.dot_general(ints[:3], ints[3:5], (((), ()), ((), ())))]
        return outs

    want, got = _tiers(f, small, large, ints, v2, w2, np.float32(-0.5))
    _same_bits(want, got, [f"out{i}" for i in range(len(want))])
    assert np.asarray(want[0]).shape == (5, 5)  # 2 + 1 + 2 rows, 3 + 2 interior columns


def _scatter(x, u, *idx, mode):
    # The primitive itself (jnp's .at[] first normalizes indices with a gather).
    return indexing.scatter_p.bind(x, u, *idx, mode=mode)


def test_scatter_matches_python_tier():
    """scatter's set and add modes (``x.at[i].set/add``) with repeated indices (the last
    set wins; adds accumulate in order), negative and too large indices dropped, window
    updates of rows, broadcast updates, two index arrays, on small and large operands."""
    rng = np.random.default_rng(2)
    x = rng.normal(size=30).astype(np.float32)
    m = rng.normal(size=(6, 4)).astype(np.float64)
    xi = np.arange(20, dtype=np.int32)
    idx = np.asarray([3, 1, 3, 29, -1, 3, 40, 1], np.int32)
    u = rng.normal(size=8).astype(np.float32)

    def f(x, m, xi, idx, u, i0):
        one = jnp.float64(1.5)
        outs = []
        for mode in ("set", "add", "gather_t"):
            outs += [_scatter(x, u, idx, mode=mode), _scatter(x[:4], u, idx, mode=mode)]
            outs += [_scatter(x, jnp.float32(2.5), i0, mode=mode)]
            outs += [_scatter(m, m[0], idx[:3], mode=mode)]  # rows: a window update
            outs += [_scatter(m, one, idx[:4], mode=mode)]  # a broadcast update
            outs += [_scatter(m, m[:3, 0], idx[:3], idx[5:], mode=mode)]  # two index arrays
            outs += [_scatter(m, m[:2, None, :], idx[:, None][:2], mode=mode)]
            outs += [_scatter(xi, jnp.int32(-7), idx, mode=mode)]
            outs += [_scatter(xi, idx.astype(jnp.int32), idx.astype(jnp.int64), mode=mode)]
        outs += [_scatter(xi > 5, jnp.ones(8, bool), idx, mode="set")]
        return outs

    with jax.enable_x64(True):
        want, got = _tiers(f, x, m, xi, idx, u, np.int32(17))
    _same_bits(want, got, [f"out{i}" for i in range(len(want))])
    w = np.asarray(want[0])
    assert w[3] == u[5] and w[1] == u[7]  # repeated indices: the last update stays


def test_scatter_add_of_nans_keeps_the_python_tiers_bits():
    """Adding NaNs of both signs to one position (and to a NaN operand): the same
    additions in the same order, so the same NaN sign bits as the Python tier."""
    x = np.zeros(20, np.float32)
    x[5] = -np.nan
    u = np.asarray([np.nan, -np.nan, 1.0, -np.nan, np.nan, 2.0], np.float32)
    idx = np.asarray([2, 2, 2, 5, 7, 7], np.int32)
    want, got = _tiers(lambda x, u, i: [_scatter(x, u, i, mode="add")], x, u, idx)
    _same_bits(want, got, ["scatter-add"])
    assert np.signbit(np.asarray(want[0])[[2, 5, 7]]).tolist() == [False, True, False]


# --------------------------------------------------------------- calls and keys in loops
def _compiled(f, *args):
    """Run jitted ``f`` in ``always`` mode: its outputs, and the native stats' change."""
    before = dict(native.stats)
    out = jax.jit(f)(*args)
    return out, {k: native.stats[k] - before[k] for k in before}


@jax.custom_jvp
def _softplus(x):
    return jnp.logaddexp(x, 0.0)


_softplus.defjvp(lambda p, t: (_softplus(p[0]), t[0] * jax.nn.sigmoid(p[0])))


@jax.custom_vjp
def _clip_grad(x):
    return x * 1.0


_clip_grad.defvjp(lambda x: (x, None), lambda _, g: (jnp.clip(g, -1, 1),))


@jax.jit
def _inner(c, i):
    return c * 0.5 + jnp.sin(c) * i.astype(c.dtype)


def test_nested_calls_and_keys_run_in_one_native_loop(native_mode):
    """A fori_loop whose body calls a jitted function, a custom_jvp and a custom_vjp
    function and a checkpointed one, and carries a typed PRNG key it splits, folds and
    draws from (bits, uniform, normal), wraps and unwraps, and indexes a key array: one
    native kernel (nothing left in Python), the same values as the Python tier."""
    native_mode("always")
    ckpt = jax.checkpoint(lambda c: jnp.cos(c) + c)

    def body(i, carry):
        c, key, acc, words = carry
        key, sub = jax.random.split(key)
        keys = jax.random.split(jax.random.fold_in(sub, i), 3)
        c = _inner(c, i) + _softplus(c) + _clip_grad(c) + ckpt(c)
        c = c * 0.1 + jax.random.uniform(keys[1], c.shape, c.dtype)
        bits = (jax.random.bits(sub) % 7).astype(jnp.float32)
        acc = acc + jax.random.normal(keys[2], acc.shape) + bits
        data = jax.random.key_data(keys[0])
        rekey = lambda: jax.random.wrap_key_data(data ^ words)  # noqa: E731
        key = lax.cond(i % 3 == 0, rekey, lambda: key)
        return c, key, acc, jnp.roll(words, 1) + data

    def f(c, key, acc, words):
        return lax.fori_loop(0, 9, body, (c, key, acc, words))

    args = (
        jnp.arange(3, dtype=jnp.float32),
        jax.random.key(42),
        jnp.zeros(40, jnp.float32),
        jnp.asarray([5, 9], jnp.uint32),
    )
    got, delta = _compiled(f, *args)
    assert delta["compiled"] == 1 and delta["failed"] == 0
    native_mode("off")
    want = jax.jit(f)(*args)
    for g, w in zip(got[:1] + got[2:], want[:1] + want[2:]):
        np.testing.assert_array_equal(_bits(g), _bits(w))
    np.testing.assert_array_equal(jax.random.key_data(got[1]), jax.random.key_data(want[1]))
    assert got[1].dtype == want[1].dtype


def test_prepare_inlines_calls_and_maps_keys_to_words():
    """The rewrite itself: no call primitive and no key-typed value is left (recursively),
    the loop's key carry is uint32[2], and an operation on keys without a word mapping
    keeps the region in Python (NotNative)."""

    def f(key, x):
        def body(i, c):
            k, x = c
            k, sub = jax.random.split(k)
            return k, _inner(x, i) + jax.random.uniform(sub)

        return lax.fori_loop(0, 3, body, (key, x))

    closed = jax.make_jaxpr(f)(jax.random.key(0), jnp.float32(1))
    (loop,) = [e for e in closed.jaxpr.eqns if e.primitive in native.rules.native_loops]
    physical = native_physical.prepare(native._single_eqn_jaxpr(loop))

    def walk(jaxpr):
        for e in jaxpr.eqns:
            assert e.primitive not in native.rules.native_inline, e.primitive
            assert e.primitive not in native.rules.native_key_views, e.primitive
            for v in list(e.invars) + list(e.outvars):
                assert native_physical.key_storage(v.aval.dtype) is None, e
            for c in native._sub_closed(e.params):
                walk(c.jaxpr)

    walk(physical.jaxpr)
    assert [tuple(a.shape) for a in physical.jaxpr.in_avals if a.dtype == np.uint32] == [(2,)]
    assert native.jaxpr_supported(physical.jaxpr)

    # A gather of keys has no word mapping: the region is not native.
    def g(k, idx):
        return lax.fori_loop(0, 2, lambda i, c: jax.random.split(c, 4)[idx][0], k)

    (loop,) = [
        e
        for e in jax.make_jaxpr(g)(jax.random.key(0), jnp.asarray([1, 2])).jaxpr.eqns
        if e.primitive in native.rules.native_loops
    ]
    sub = native._single_eqn_jaxpr(loop)
    with pytest.raises(native_emit.NotNative, match="gather on PRNG keys"):
        native_physical.prepare(sub)
    assert not native._supported(sub)


# ----------------------------------------------------------------------- the kernel cap
def test_kernel_size_cap_keeps_huge_regions_in_python(native_mode, monkeypatch, caplog):
    """A region whose kernel would pass ``native_emit._MAX_LINES`` lines stays in the
    Python tier (one debug line) and still computes; under the cap it compiles."""
    native_mode("always")
    caplog.set_level(logging.DEBUG, logger="jaxlite.native")

    def g(x):  # scalarized: a few lines per element and operation
        return lax.fori_loop(0, 5, lambda i, c: c * 0.5 + jnp.roll(c, 1) + c[::-1], x)

    x = np.linspace(-1, 1, 12).astype(np.float32)
    closed = jax.make_jaxpr(g)(x)
    src, _ = native_emit.emit_kernel(closed)
    n = src.count("\n")
    monkeypatch.setattr(native_emit, "_MAX_LINES", n // 2)
    with pytest.raises(native_emit.NotNative, match="lines"):
        native_emit.emit_kernel(closed)
    got, delta = _compiled(g, x)
    assert delta["failed"] == 1 and delta["compiled"] == 0
    assert any("lines (more than" in r.getMessage() for r in caplog.records)
    c = x
    for _ in range(5):
        c = c * np.float32(0.5) + np.roll(c, 1) + c[::-1]
    np.testing.assert_array_equal(np.asarray(got), c)
