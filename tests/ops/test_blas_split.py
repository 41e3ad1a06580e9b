"""Large products split across threads with OpenBLAS at one thread (ops/blas_split.py):
the same values as a plain product, the user's BLAS thread limit respected and restored,
and the plain path whenever the split cannot apply."""

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

# The split is opt-in (JAXLITE_BLAS_SPLIT=on); switch it on for these tests (and re-detect).
os.environ["JAXLITE_BLAS_SPLIT"] = "on"
blas_split._state.blas = None

pytestmark = pytest.mark.jaxlite_only  # jaxlite's internal BLAS threading

threadpoolctl = pytest.importorskip("threadpoolctl", reason="the split needs threadpoolctl")

needs_split = pytest.mark.skipif(
    not blas_split._state.controller() or blas_split._cores() < 2,
    reason="needs NumPy on OpenBLAS (pthreads) and two cores",
)

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
def test_jitted_matmul_uses_it_and_matches_numpy():
    x, y = _operands(256, 512, 512, np.float32, "C")
    got = np.asarray(jax.jit(jnp.matmul)(x, y))
    np.testing.assert_allclose(got, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)
    g = jax.grad(lambda a, b: jnp.sum(jnp.tanh(a @ b)), argnums=(0, 1))(x, y)
    t = 1 - np.tanh(x.astype(np.float64) @ y) ** 2
    np.testing.assert_allclose(np.asarray(g[0]), t @ y.T, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(np.asarray(g[1]), x.T @ t, rtol=1e-3, atol=1e-3)


@needs_split
def test_user_thread_limit_is_respected():
    x, y = _operands(256, 512, 512, np.float32, "C")
    with threadpoolctl.threadpool_limits(1, user_api="blas"):
        assert blas_split.matmul(x, y) is None  # one thread allowed: plain np.dot
        assert _blas_threads() == [1] * len(_blas_threads())


def test_plain_path_for_small_products_and_other_dtypes():
    x, y = _operands(16, 16, 16, np.float32, "C")
    assert blas_split.matmul(x, y) is None  # OpenBLAS runs it on one thread anyway
    xi, yi = (np.ones((256, 512), np.int32), np.ones((512, 256), np.int32))
    assert blas_split.matmul(xi, yi) is None  # not a BLAS dtype
    assert blas_split.matmul(xi.astype(np.float32), yi.astype(np.float64)) is None


@needs_split
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
    trials really sleeps) and returns the way it ran; each result is checked."""
    st = blas_split._Splitter()
    blas = _FakeBlas()
    ran = []

    def fake_timed(st_, blas_, allowed, way, a, b):
        ran.append(way)
        return a @ b, timings(way)

    real_matmul = np.matmul

    def committed_all(a, b):  # OpenBLAS's threads between trials: no OpenBLAS call at all
        ran.append(ALL)
        time.sleep(delay())
        return real_matmul(a, b)

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
    not blas_split._find_openblas() or blas_split._cores() < 2,
    reason="needs NumPy on OpenBLAS (pthreads) and two cores",
)
@pytest.mark.parametrize("shape", [(128, 784, 512), (130, 512, 10)])
def test_adaptive_mode_on_real_openblas_restores_the_thread_count(shape):
    st = blas_split._Splitter()
    st.blas, st.split = blas_split._find_openblas(), False
    x, y = _operands(*shape, np.float32, "T")
    before = _blas_threads()
    for _ in range(4 * blas_split.TRIAL_CALLS):
        out = blas_split._adaptive(st, st.blas, x, y)
        assert _blas_threads() == before
        np.testing.assert_allclose(out, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize(
    "env, adaptive",
    [
        ({}, False),
        ({"JAXLITE_BLAS_THREADS": "off"}, False),
        ({"JAXLITE_BLAS_THREADS": "auto"}, True),
    ],
)
def test_adaptive_mode_is_opt_in(monkeypatch, env, adaptive):
    # The default leaves OpenBLAS alone: products are bit-reproducible from call to call
    # (the adaptive choice can change a product's low bits; docs/compat.md).
    monkeypatch.delenv("JAXLITE_BLAS_SPLIT", raising=False)
    monkeypatch.delenv("JAXLITE_BLAS_THREADS", raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    st = blas_split._Splitter()
    found = st.controller()
    assert st.split is False
    expected = blas_split._find_openblas()
    if adaptive and expected:
        assert found.filepath == expected.filepath
    else:
        assert found is False
