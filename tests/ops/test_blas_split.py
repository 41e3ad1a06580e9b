"""Large products split across threads with OpenBLAS at one thread (ops/blas_split.py):
the same values as a plain product, the user's BLAS thread limit respected and restored,
and the plain path whenever the split cannot apply."""

import math
import os
import threading
import time

import numpy as np
import pytest

if os.environ.get("JAXLITE_ORACLE", "") == "jax":
    pytest.skip("tests jaxlite's own BLAS threading (jaxlite_only)", allow_module_level=True)

import jaxlite as jax  # noqa: E402
import jaxlite.numpy as jnp  # noqa: E402
from jaxlite._src.ops import blas_split  # noqa: E402

pytestmark = pytest.mark.jaxlite_only  # jaxlite's internal BLAS threading

threadpoolctl = pytest.importorskip("threadpoolctl", reason="the split needs threadpoolctl")

needs_split = pytest.mark.skipif(
    not blas_split.find_openblas() or blas_split._cores() < 2,
    reason="needs NumPy on OpenBLAS (pthreads) and two cores",
)


def _fresh_state(monkeypatch, split=False, mode="watch"):
    """A new module state (helpers, watch, trials) with the given mode, for one test."""
    st = blas_split._Splitter()
    st.blas, st.split, st.mode = blas_split.find_openblas(), split, mode
    st.cpu_marks = None  # stays end with a probe, whatever the machine's load (tests below)
    monkeypatch.setattr(blas_split, "_state", st)
    return st


@pytest.fixture(autouse=True)
def _own_state(monkeypatch):
    _fresh_state(monkeypatch)  # each test starts from a new state, in the default mode


@pytest.fixture
def split_mode(monkeypatch):
    _fresh_state(monkeypatch, split=True)  # the split is opt-in (JAXLITE_BLAS_SPLIT=on)


split_tests = pytest.mark.usefixtures("split_mode")

SHAPES = [(128, 784, 512), (784, 128, 512), (512, 128, 130), (1000, 300, 70), (130, 512, 10)]


def _operands(m, k, n, dtype, layout):
    rng = np.random.default_rng(m * 7 + n)
    x = rng.standard_normal((m, k)).astype(dtype)
    y = rng.standard_normal((k, n)).astype(dtype)
    if layout == "T":  # transposed views, as dot_general's transpose rule produces them
        x, y = np.ascontiguousarray(x.T).T, np.ascontiguousarray(y.T).T
    return x, y


def _blas_threads():
    return [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]


@needs_split
@split_tests
@pytest.mark.parametrize("layout", ["C", "T"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
@pytest.mark.parametrize("shape", SHAPES)
def test_split_product_matches_numpy(shape, dtype, layout):
    m, k, n = shape
    x, y = _operands(m, k, n, dtype, layout)
    before = _blas_threads()
    out = blas_split.matmul(x, y)
    assert _blas_threads() == before  # OpenBLAS's thread count restored
    assert out is not None and out.shape == (m, n) and out.dtype == np.dtype(dtype)
    tol = 1e-10 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(out, x.astype(np.complex128) @ y, rtol=tol, atol=tol * k)


@needs_split
@split_tests
def test_jitted_matmul_uses_it_and_matches_numpy():
    x, y = _operands(256, 512, 512, np.float32, "C")
    got = np.asarray(jax.jit(jnp.matmul)(x, y))
    np.testing.assert_allclose(got, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)
    g = jax.grad(lambda a, b: jnp.sum(jnp.tanh(a @ b)), argnums=(0, 1))(x, y)
    t = 1 - np.tanh(x.astype(np.float64) @ y) ** 2
    np.testing.assert_allclose(np.asarray(g[0]), t @ y.T, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(np.asarray(g[1]), x.T @ t, rtol=1e-3, atol=1e-3)


@needs_split
@split_tests
def test_user_thread_limit_is_respected():
    x, y = _operands(256, 512, 512, np.float32, "C")
    with threadpoolctl.threadpool_limits(1, user_api="blas"):
        assert blas_split.matmul(x, y) is None  # one thread allowed: plain np.dot
        assert _blas_threads() == [1] * len(_blas_threads())


@split_tests
def test_plain_path_for_small_products_and_other_dtypes():
    x, y = _operands(16, 16, 16, np.float32, "C")
    assert blas_split.matmul(x, y) is None  # OpenBLAS runs it on one thread anyway
    xi, yi = (np.ones((256, 512), np.int32), np.ones((512, 256), np.int32))
    assert blas_split.matmul(xi, yi) is None  # not a BLAS dtype
    assert blas_split.matmul(xi.astype(np.float32), yi.astype(np.float64)) is None


@needs_split
@split_tests
def test_products_from_several_threads_at_once():
    x, y = _operands(256, 512, 512, np.float32, "C")
    want = x.astype(np.float64) @ y
    before = _blas_threads()
    f = jax.jit(jnp.matmul)
    errs = []

    def work():
        for _ in range(5):
            got = np.asarray(f(x, y))
            if not np.allclose(got, want, rtol=1e-4, atol=1e-3):
                errs.append(got)

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errs
    assert _blas_threads() == before  # every limit undone


@needs_split
@split_tests
@pytest.mark.parametrize("shape", [(8, 128, 256, 256), (3, 64, 512, 300), (1, 256, 512, 512)])
def test_batched_product_matches_numpy(shape):
    b, m, k, n = shape
    rng = np.random.default_rng(b + m)
    x = rng.standard_normal((b, m, k)).astype(np.float32)
    y = rng.standard_normal((b, k, n)).astype(np.float32)
    before = _blas_threads()
    out = blas_split.matmul(x, y)
    assert _blas_threads() == before
    assert out is not None and out.shape == (b, m, n)
    np.testing.assert_allclose(out, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)
    got = np.asarray(jax.jit(lambda a, c: jnp.einsum("bmk,bkn->bmn", a, c))(x, y))
    np.testing.assert_allclose(got, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)


@split_tests
def test_mismatched_batch_shapes_take_the_plain_path():
    x = np.ones((2, 64, 512), np.float32)
    assert blas_split.matmul(x, np.ones((3, 512, 64), np.float32)) is None
    assert blas_split.matmul(x, np.ones((512, 64), np.float32)) is None


# ------------------------------------------------------------------ adaptive thread count
ONE, SPLIT, ALL = blas_split.ONE, blas_split.SPLIT, blas_split.ALL


class _FakeBlas:
    """Records the thread counts set; stands in for threadpoolctl's OpenBLAS controller."""

    def __init__(self, allowed=2):
        self.allowed, self.now = allowed, allowed

    def get_num_threads(self):
        return self.now

    def set_num_threads(self, n):
        self.now = n


def _fake_adaptive(monkeypatch, timings, delay=lambda: 0.0):
    """``call(x, y)`` runs ``_adaptive`` with fake timings (``timings(way)``: seconds a call
    on trial takes run that way; ``delay()``: seconds a call on OpenBLAS's threads between
    trials takes) and returns the way it ran; each result is checked."""
    st = blas_split._Splitter()
    blas = _FakeBlas()
    ran = []

    def fake_timed(st_, blas_, allowed, way, a, b):
        ran.append(way)
        return a @ b, timings(way)

    real_matmul = np.matmul
    clock = [0.0]  # a fake timer: only committed calls on OpenBLAS's threads take time

    def committed_all(a, b):  # OpenBLAS's threads between trials: no OpenBLAS call at all
        ran.append(ALL)
        clock[0] += delay()
        return real_matmul(a, b)

    monkeypatch.setattr(blas_split, "_clock", lambda: clock[0])
    monkeypatch.setattr(blas_split, "_timed", fake_timed)
    monkeypatch.setattr(blas_split.np, "matmul", committed_all)
    monkeypatch.setattr(blas_split, "MIN_WORK", 100_000)  # LARGE is split, SMALL not

    def call(x, y):
        n = len(ran)
        out = blas_split._adaptive(st, blas, x, y)
        np.testing.assert_allclose(out, x @ y, rtol=1e-6)
        assert blas.now == 2  # OpenBLAS's count restored after every product
        assert len(ran) == n + 1
        return ran[-1]

    return call, st


SMALL = _operands(32, 32, 32, np.float32, "C")  # below MIN_WORK: never split
LARGE = _operands(64, 64, 64, np.float32, "C")  # above it: split is a candidate


def test_adaptive_keeps_openblas_threads_when_they_are_faster(monkeypatch):
    call, st = _fake_adaptive(monkeypatch, lambda way: {ONE: 1.2, SPLIT: 1.3, ALL: 1.0}[way])
    ran = [call(*LARGE) for _ in range(300)]
    n = blas_split.TRIAL_CALLS
    assert ran[: 3 * n] == [ONE, SPLIT, ALL] * n  # the trial takes the ways in turn
    assert ran[3 * n : 3 * n + blas_split.FIRST_PERIOD] == [ALL] * blas_split.FIRST_PERIOD
    assert ran.count(ONE) <= 4 * n  # trials get rarer
    (c,) = st.choices.values()
    assert c.mode == ALL and c.period > blas_split.FIRST_PERIOD


def test_adaptive_far_slower_ways_cost_one_call_per_trial(monkeypatch):
    call, st = _fake_adaptive(monkeypatch, lambda way: {ONE: 2.0, SPLIT: 1.6, ALL: 1.0}[way])
    ran = [call(*LARGE) for _ in range(100)]
    assert ran[:4] == [ONE, SPLIT, ALL, ALL]  # both ruled out by their first call
    (c,) = st.choices.values()
    assert c.mode == ALL
    trials = ran.count(ONE)
    assert trials >= 2 and ran.count(SPLIT) == trials  # one call of each loser per trial


def test_adaptive_small_products_are_never_split(monkeypatch):
    call, st = _fake_adaptive(monkeypatch, lambda way: {ONE: 1.0, SPLIT: 0.1, ALL: 1.5}[way])
    ran = [call(*SMALL) for _ in range(40)]
    assert SPLIT not in ran
    assert ran[: 2 * blas_split.TRIAL_CALLS] == [ONE, ALL] * blas_split.TRIAL_CALLS
    (c,) = st.choices.values()
    assert c.mode == ONE


def test_adaptive_moves_off_openblas_threads_when_they_stall(monkeypatch):
    call, st = _fake_adaptive(monkeypatch, lambda way: {ONE: 1.0, SPLIT: 0.8, ALL: 30.0}[way])
    ran = [call(*LARGE) for _ in range(200)]
    assert ran[:3] == [ONE, SPLIT, ALL]
    assert ran.count(ALL) <= 3  # one stalled call rules them out, and trials get rarer
    (c,) = st.choices.values()
    assert c.mode == SPLIT


def test_adaptive_stall_reopens_the_trial_at_once(monkeypatch):
    state = {"busy": False}

    def timings(way):
        return {ONE: 0.002}.get(way, 0.05 if state["busy"] else 0.001)

    call, st = _fake_adaptive(monkeypatch, timings, lambda: 0.02 if state["busy"] else 0.0)
    for _ in range(4):
        call(*SMALL)
    (c,) = st.choices.values()
    assert c.mode == ALL and c.left > 0
    state["busy"] = True
    assert call(*SMALL) == ALL  # a stalled call of OpenBLAS's threads (20 ms, not ~1 ms)
    assert c.left == 0  # the next call is on trial
    assert call(*SMALL) == ONE  # and it decides without timing OpenBLAS's threads again
    assert c.mode == ONE


def test_adaptive_stall_in_one_shape_spares_the_others_a_stalled_trial(monkeypatch):
    call, st = _fake_adaptive(monkeypatch, lambda way: {ONE: 1.0, ALL: 30.0}[way])
    other = _operands(16, 32, 32, np.float32, "C")
    assert [call(*SMALL), call(*SMALL)] == [ONE, ALL]  # stalls: SMALL goes to one thread
    assert call(*other) == ONE  # decided without a stalled call
    assert all(c.mode == ONE for c in st.choices.values())


@pytest.mark.skipif(
    not blas_split.find_openblas() or blas_split._cores() < 2,
    reason="needs NumPy on OpenBLAS (pthreads) and two cores",
)
@pytest.mark.parametrize("shape", [(128, 784, 512), (130, 512, 10)])
def test_adaptive_mode_on_real_openblas_restores_the_thread_count(shape):
    st = blas_split._Splitter()
    st.blas, st.split = blas_split.find_openblas(), False
    x, y = _operands(*shape, np.float32, "T")
    before = _blas_threads()
    for _ in range(4 * blas_split.TRIAL_CALLS):
        out = blas_split._adaptive(st, st.blas, x, y)
        assert _blas_threads() == before
        np.testing.assert_allclose(out, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)


# ------------------------------------------------------------------ mode selection
@pytest.mark.parametrize(
    "value, mode",
    [(None, "watch"), ("", "watch"), ("watch", "watch"), ("off", "off"), ("OFF", "off")]
    + [("0", "off"), ("auto", "auto"), ("on", "auto"), ("1", "auto")],
)
def test_mode_from_the_environment(monkeypatch, value, mode):
    monkeypatch.delenv("JAXLITE_BLAS_SPLIT", raising=False)
    if value is None:
        monkeypatch.delenv("JAXLITE_BLAS_THREADS", raising=False)
    else:
        monkeypatch.setenv("JAXLITE_BLAS_THREADS", value)
    assert blas_split.blas_mode() == mode
    st = blas_split._Splitter()
    found = st.controller()
    assert st.mode == mode and st.split is False
    expected = blas_split.find_openblas()
    if mode != "off" and expected:
        assert found.filepath == expected.filepath
    else:
        assert found is False  # off: products are plain np.matmul calls, nothing timed


def test_unknown_mode_is_an_error(monkeypatch):
    monkeypatch.setenv("JAXLITE_BLAS_THREADS", "fast")
    with pytest.raises(ValueError, match="JAXLITE_BLAS_THREADS must be one of"):
        blas_split._Splitter().controller()


def test_off_mode_is_a_plain_product(monkeypatch):
    st = _fresh_state(monkeypatch, mode="off")
    st.blas = False  # as controller() leaves it for "off"
    x, y = _operands(256, 512, 512, np.float32, "C")
    assert blas_split.matmul(x, y) is None  # dot_general then calls np.dot itself


# ------------------------------------------------------------------ stall watch (default)
class _Clock:
    """A fake timer: every read advances it by ``tick`` seconds, so every interval the
    watch measures (a product, the one-thread reference, a stall-safe way on trial) lasts
    ``tick`` (set it to make the next calls normal or stalled)."""

    def __init__(self, tick=1e-3):
        self.now, self.tick = 100.0, tick

    def __call__(self):
        self.now += self.tick
        return self.now


def _record(st, w, dt):
    blas_split._record(st, w, dt, 0.0)
    return st.safe_until > 0.0  # moved to the stall-safe way (until a time after now=0)


def _watched_shape(normal=1e-3):
    st, w = blas_split._Splitter(), blas_split._Watch()
    w.one = 2 * normal  # the stall-safe way: twice OpenBLAS's threads' usual time
    for _ in range(5):
        _record(st, w, normal)
    return st, w


def test_watch_never_switches_on_a_single_slow_call():
    st, w = _watched_shape()
    assert not _record(st, w, 0.5)  # one call 500x slower: a stall, counted
    assert st.strikes == 1
    for _ in range(blas_split.FORGIVE):
        assert not _record(st, w, 1e-3)
    assert st.strikes == 0  # forgiven after FORGIVE normal calls
    # Isolated slow calls, each forgiven before the next, never add up to a switch.
    for _ in range(20):
        assert not _record(st, w, 0.5)
        for _ in range(blas_split.FORGIVE):
            assert not _record(st, w, 1e-3)


def test_watch_switches_after_repeated_stalls():
    st, w = _watched_shape()
    for _ in range(blas_split.STRIKES - 1):
        assert not _record(st, w, 20e-3)
    assert _record(st, w, 20e-3)  # the third stall in a row
    assert st.safe_until == blas_split.FIRST_BACKOFF
    assert st.backoff == 2 * blas_split.FIRST_BACKOFF
    assert w.best == 1e-3  # stalled calls do not move the shape's usual time


def test_watch_stays_when_stalls_cost_less_than_the_stall_safe_way():
    st, w = _watched_shape(normal=1e-3)
    w.one = 3e-3  # the stall-safe way costs 2 ms more per call
    for _ in range(100):  # every 4th call stalls by 3 ms: 0.75 ms per call on average
        assert not _record(st, w, 4e-3)
        for _ in range(3):
            assert not _record(st, w, 1e-3)
    assert st.strikes > blas_split.STRIKES - 1  # stalls seen, but not worth a switch
    for _ in range(3):  # longer stalls (30 ms): worth it
        switched = _record(st, w, 30e-3)
    assert switched


def test_watch_slow_calls_need_both_ratio_and_absolute_excess():
    st, w = _watched_shape(normal=20e-6)
    for _ in range(50):  # 10x slower, but 180 us: noise on a quiet machine, not a stall
        assert not _record(st, w, 200e-6)
    st, w = _watched_shape(normal=10e-3)
    for _ in range(50):  # 1 ms slower, but only 1.1x
        assert not _record(st, w, 11e-3)
    assert st.strikes == 0


def test_watch_probe_sends_products_back_at_once_with_a_longer_backoff():
    st, w = _watched_shape()
    backoffs = []
    for _ in range(3):
        _record(st, w, 20e-3)
    backoffs.append(st.safe_until)
    for _ in range(10):  # every probe stalls: one stall each time, the backoff doubles
        st.safe_until = -1.0
        assert _record(st, w, 20e-3)
        backoffs.append(st.safe_until)
    first, most = blas_split.FIRST_BACKOFF, blas_split.MAX_BACKOFF
    assert backoffs[:3] == [first, 2 * first, 4 * first]
    assert max(backoffs) == most and backoffs[-1] == most


def test_watch_probe_without_stall_brings_products_home():
    st, w = _watched_shape()
    for _ in range(6):
        _record(st, w, 20e-3)
    assert st.backoff > 2 * blas_split.FIRST_BACKOFF
    st.safe_until = -1.0  # the stay is over: the next call probes OpenBLAS's threads
    assert not _record(st, w, 1e-3)
    for _ in range(3 * blas_split.FORGIVE):
        assert not _record(st, w, 1e-3)
    assert st.strikes == 0 and st.backoff == blas_split.FIRST_BACKOFF  # stalls are over
    assert not _record(st, w, 20e-3)  # a new stall counts from zero again


def test_watch_started_under_load_sees_stalls_against_the_one_thread_time():
    st, w = blas_split._Splitter(), blas_split._Watch()
    w.one = 2e-3  # one thread: 2 ms; OpenBLAS's threads stalled from the first call
    for _ in range(blas_split.STRIKES - 1):
        assert not _record(st, w, 30e-3)
    assert _record(st, w, 30e-3)


class _FakeBlas2(_FakeBlas):
    def __init__(self, allowed=2):
        super().__init__(allowed)
        self.sets = []

    def set_num_threads(self, n):
        self.sets.append(n)
        self.now = n


def test_watched_runs_and_results_through_a_stall(monkeypatch):
    clock = _Clock(tick=1e-3)
    monkeypatch.setattr(blas_split, "_clock", clock)
    monkeypatch.setattr(blas_split, "MIN_WORK", 100_000)  # the split is a candidate
    st = _fresh_state(monkeypatch)
    blas = _FakeBlas2()
    x, y = LARGE
    want = np.matmul(x, y)

    def call():
        out = blas_split._watched(st, blas, x, y)
        np.testing.assert_allclose(out, want, rtol=1e-6)
        assert blas.now == 2  # OpenBLAS's count restored after every product
        return out

    for _ in range(10):  # quiet: nothing but OpenBLAS's threads
        np.testing.assert_array_equal(call(), want)  # a plain np.matmul's bits
    (w,) = st.choices.values()
    assert blas.sets == [1, 2]  # only the one-thread reference, once, at the second call
    assert w.best == pytest.approx(1e-3) and w.one == pytest.approx(1e-3) and w.safe is None
    clock.tick = 20e-3  # stalls
    for _ in range(blas_split.STRIKES):
        call()
    assert st.safe_until > clock.now and w.safe is None  # chosen when first needed
    blas.sets.clear()
    call()
    assert w.safe is not None and w.safe[0] in (ONE, SPLIT) and blas.sets[-2:] == [1, 2]
    while clock.now < st.safe_until:  # the stay: every call at one OpenBLAS thread
        blas.sets.clear()
        call()
        assert blas.sets == [1, 2]
    clock.tick = 1e-3
    blas.sets.clear()
    call()  # the probe, on OpenBLAS's threads: no stall, so they stay
    assert blas.sets == [] and st.safe_until < clock.now


def test_watched_large_products_get_no_one_thread_reference(monkeypatch):
    monkeypatch.setattr(blas_split, "_clock", _Clock(tick=1e-3))
    monkeypatch.setattr(blas_split, "ONE_REF_WORK", 64**3 - 1)  # LARGE is above it
    st = _fresh_state(monkeypatch)
    blas = _FakeBlas2()
    for _ in range(5):
        np.testing.assert_array_equal(blas_split._watched(st, blas, *LARGE), np.matmul(*LARGE))
    assert blas.sets == []  # no extra call at one thread for a product this large
    (w,) = st.choices.values()
    assert w.one is None


def test_watched_respects_a_user_limit_while_stall_safe(monkeypatch):
    st = _fresh_state(monkeypatch)
    st.safe_until = math.inf  # as after a stall
    blas = _FakeBlas2(allowed=1)
    assert blas_split._watched(st, blas, *LARGE) is None  # a plain product, limit untouched
    assert blas.sets == []


@needs_split
@pytest.mark.parametrize("layout", ["C", "T"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize(
    "shape", [(128, 784, 512), (784, 128, 512), (128, 512, 10), (96, 600, 256)]
)
def test_stall_safe_way_on_real_openblas(monkeypatch, shape, dtype, layout):
    # The way chosen for a stalled shape: its results are np.matmul's (to rounding), and
    # bit for bit OpenBLAS's threads' whenever the choice says so (checked on new data).
    st = _fresh_state(monkeypatch)
    x, y = _operands(*shape, dtype, layout)
    before = _blas_threads()
    (way, cut, exact), *_ = blas_split._choose_safe(st, st.blas, before[0], x, y)
    assert _blas_threads() == before
    st.safe_until = math.inf
    out = blas_split.matmul(x, y)
    assert _blas_threads() == before
    (w,) = st.choices.values()
    assert w.safe[0] in (ONE, SPLIT) and w.safe[2] == exact  # exactness: of the shape alone
    tol = 1e-10 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(out, x.astype(np.float64) @ y, rtol=tol, atol=tol * shape[1])
    if exact:
        np.testing.assert_array_equal(out, np.matmul(x, y))


@needs_split
def test_stall_safe_way_keeps_the_bits_of_the_mlp_products(monkeypatch):
    # The products of a 784-512-512-10 MLP step (batch 128), layouts as the jitted step
    # has them: where OpenBLAS's float32 block depth is found (its SkylakeX kernels; not
    # its Haswell sgemm, whose threads' bits no cut reproduces), each has a stall-safe way
    # with OpenBLAS's threads' bits (the 784-long contraction cut as they cut it).
    st = _fresh_state(monkeypatch)
    allowed = _blas_threads()[0]
    depth = blas_split._depth(st, st.blas, allowed, np.dtype(np.float32))
    assert _blas_threads() == [allowed] * len(_blas_threads())
    if not depth:
        pytest.skip("this OpenBLAS kernel's threaded float32 bits match no cut")
    assert blas_split._blocks(784, depth) == (392, 392)  # 784 <= 2 * depth: two halves
    for m, k, n, layout in [(128, 784, 512, "C"), (128, 512, 512, "C"), (128, 512, 512, "T")]:
        x, y = _operands(m, k, n, np.float32, layout)
        (way, cut, exact), *_ = blas_split._choose_safe(st, st.blas, allowed, x, y)
        assert exact, (m, k, n, layout)
        with threadpoolctl.threadpool_limits(1, user_api="blas"):
            got = blas_split._run(st, way, cut, x, y, 2)
        np.testing.assert_array_equal(got, np.matmul(x, y))


def test_blocks_of_a_contraction():
    assert blas_split._blocks(300, 448) == (300,)
    assert blas_split._blocks(785, 448) == (393, 392)
    assert blas_split._blocks(2000, 448) == (448, 448, 448, 328, 328)
    assert blas_split._blocks(896, 448) == (448, 448)
    x, y = _operands(8, 70, 5, np.float64, "C")
    out = np.empty((8, 5))
    blas_split._product(x, y, out, (30, 20, 20))
    np.testing.assert_allclose(out, x @ y, rtol=1e-12)


MLP_PRODUCTS = [  # the jitted MLP step's large products: (m, k, n, layout)
    (128, 784, 512, "C"),  # x @ W1
    (128, 512, 512, "C"),  # h1 @ W2
    (128, 512, 512, "T"),  # d2 @ W2.T (as a transposed view)
    (784, 128, 512, "T"),  # x.T @ d1
    (512, 128, 512, "T"),  # h1.T @ d2
]


def _split_by_the_caller_alone(monkeypatch, st, x, y, cut, threads=2):
    """``_split``'s blocks, every one computed by the calling thread (helpers idle)."""
    with monkeypatch.context() as m:
        m.setattr(blas_split._SplitJob, "help", lambda job: None)
        return blas_split._split(st, x, y, threads, cut)


@needs_split
@pytest.mark.parametrize("m, k, n, layout", MLP_PRODUCTS)
def test_split_takes_over_a_stalled_helpers_block(monkeypatch, m, k, n, layout):
    # A helper that loses its core mid-block (here: sleeps, then returns garbage): the
    # calling thread computes that block itself, the product keeps its bits (those of
    # OpenBLAS's threads when the cut matches them), and the late helper never writes the
    # returned array.
    st = _fresh_state(monkeypatch, split=True)
    x, y = _operands(m, k, n, np.float32, layout)
    allowed = _blas_threads()[0]
    depth = blas_split._depth(st, st.blas, allowed, np.dtype(np.float32))
    cut = blas_split._blocks(k, depth) if depth and k > depth else ()
    real = blas_split._product
    late = threading.Event()

    def stalling(a, b, out, blocks=()):
        if threading.current_thread().name == "jaxlite-blas":
            late.wait(5.0)  # released only after the product has returned
            out[...] = np.nan
            return
        real(a, b, out, blocks)

    with threadpoolctl.threadpool_limits(1, user_api="blas"):
        want = _split_by_the_caller_alone(monkeypatch, st, x, y, cut)
        monkeypatch.setattr(blas_split, "_product", stalling)
        got = blas_split._split(st, x, y, 2, cut)
        kept = got.copy()
        late.set()
        time.sleep(0.05)  # the helper wakes, finds its block taken, drops its garbage
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got, kept)
    if depth:  # the cut reproduces OpenBLAS's threads (SkylakeX): np.matmul's own bits
        np.testing.assert_array_equal(got, np.matmul(x, y))


@needs_split
@pytest.mark.parametrize("m, k, n, layout", MLP_PRODUCTS)
def test_split_with_helpers_matches_the_callers_bits(monkeypatch, m, k, n, layout):
    # Whichever thread computes a block (helpers into their own buffers, copied), the bits
    # are those of the same blocks computed by the calling thread alone.
    st = _fresh_state(monkeypatch, split=True)
    x, y = _operands(m, k, n, np.float32, layout)
    allowed = _blas_threads()[0]
    depth = blas_split._depth(st, st.blas, allowed, np.dtype(np.float32))
    for cut in {(), blas_split._blocks(k, depth) if depth else ()}:
        with threadpoolctl.threadpool_limits(1, user_api="blas"):
            for threads in (2, 3):
                want = _split_by_the_caller_alone(monkeypatch, st, x, y, cut, threads)
                for _ in range(5):
                    got = blas_split._split(st, x, y, threads, cut)
                    np.testing.assert_array_equal(got, want)


@needs_split
def test_stall_safe_ways_are_timed_in_use_and_the_fastest_stays(monkeypatch):
    clock = _Clock(tick=1e-3)
    monkeypatch.setattr(blas_split, "_clock", clock)
    monkeypatch.setattr(blas_split, "MIN_WORK", 100_000)  # ONE and SPLIT both candidates
    st = _fresh_state(monkeypatch)
    st.safe_until = math.inf
    blas = _FakeBlas2()
    real_run = blas_split._run
    ran = []

    def run(st_, way, blocks, a, b, threads):
        ran.append(way)
        clock.tick = 1e-3 if way == SPLIT else 3e-3  # the split is the faster in use
        return real_run(st_, way, blocks, a, b, threads)

    monkeypatch.setattr(blas_split, "_run", run)
    x, y = LARGE
    want = np.matmul(x, y)
    blas_split._watched(st, blas, x, y)  # chooses the candidates (bits checked)
    (w,) = st.choices.values()
    assert w.trial is not None and {e[0][0] for e in w.trial} == {ONE, SPLIT}
    assert all(e[0][2] for e in w.trial)  # only ways with OpenBLAS's threads' bits
    ran.clear()
    for _ in range(2 * blas_split.SAFE_TRIAL_CALLS):
        np.testing.assert_array_equal(blas_split._watched(st, blas, x, y), want)
    assert w.trial is None and w.safe[0] == SPLIT  # least mean time in use
    assert ran.count(ONE) >= blas_split.SAFE_TRIAL_CALLS - 1
    ran.clear()
    blas_split._watched(st, blas, x, y)
    assert ran == [SPLIT]


def test_stay_goes_on_without_a_probe_while_other_processes_keep_a_core(monkeypatch):
    clock = _Clock(tick=1e-3)
    monkeypatch.setattr(blas_split, "_clock", clock)
    st = _fresh_state(monkeypatch)
    others = [1.0]  # cores other processes use
    marks = {"busy": 0.0, "own": 0.0, "t": 0.0}

    def cpu_marks():  # every read: 0.1 s later, this process used 0.1 core-s
        marks["t"] += 0.1
        marks["own"] += 0.1
        marks["busy"] += 0.1 + 0.1 * others[0]
        return marks["busy"], marks["own"], marks["t"]

    st.cpu_marks = cpu_marks
    blas = _FakeBlas2()
    x, y = LARGE
    for _ in range(3):
        blas_split._watched(st, blas, x, y)  # references
    clock.tick = 20e-3
    for _ in range(2 * blas_split.STRIKES):
        blas_split._watched(st, blas, x, y)  # stalls: off OpenBLAS's threads
        if st.safe_until > clock.now:
            break
    assert st.safe_until > clock.now and st.stay_mark is not None
    clock.tick = 1e-3
    first_end = st.safe_until
    while clock.now < first_end:
        blas_split._watched(st, blas, x, y)
    blas.sets.clear()
    blas_split._watched(st, blas, x, y)  # the stay is over, but a core is still busy
    assert blas.sets == [1, 2] and st.safe_until > first_end  # no probe: prolonged
    others[0] = 0.0  # the other process stopped
    while clock.now < st.safe_until:
        blas_split._watched(st, blas, x, y)
    blas.sets.clear()
    np.testing.assert_array_equal(blas_split._watched(st, blas, x, y), np.matmul(x, y))
    assert blas.sets == []  # the probe: OpenBLAS's threads again


def test_usable_cores_reads_the_affinity_mask(monkeypatch):
    """Thread counts (BLAS split, blocked regions, threefry and the XLA-blocked samplers)
    come from the cores the process may run on (``taskset``), not the machine's count."""
    from jaxlite._src import util

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 13)
    assert util.usable_cores() == 2
    assert blas_split._cores() == 2

    def no_affinity(pid):
        raise OSError("not supported")

    monkeypatch.setattr(os, "sched_getaffinity", no_affinity, raising=False)
    assert util.usable_cores() == 13
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert util.usable_cores() == 1
