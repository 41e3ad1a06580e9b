"""Large products split across threads with OpenBLAS at one thread (ops/blas_split.py):
the same values as a plain product, the user's BLAS thread limit respected and restored,
and the plain path whenever the split cannot apply."""

import os
import threading

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
class _FakeBlas:
    """Records the thread counts set; stands in for threadpoolctl's OpenBLAS controller."""

    def __init__(self, allowed=2):
        self.allowed, self.now, self.set = allowed, allowed, []

    def get_num_threads(self):
        return self.now

    def set_num_threads(self, n):
        self.set.append(n)
        self.now = n


def _adaptive_calls(monkeypatch, timings, n):
    """Run ``n`` products through ``_adaptive`` with fake timings: ``timings(one)`` is the
    time a call takes at one thread (``one``) or at OpenBLAS's own count. Returns the
    thread count each call ran with."""
    st = blas_split._Splitter()
    blas = _FakeBlas()
    x, y = _operands(64, 64, 64, np.float32, "C")
    ran = []

    def fake_timed(blas_, allowed, one, a, b):
        ran.append(1 if one else allowed)
        return a @ b, timings(one)

    monkeypatch.setattr(blas_split, "_timed", fake_timed)
    real_matmul = np.matmul

    def counting_matmul(a, b):  # the untimed path of a shape decided for one thread
        ran.append(blas.now)
        return real_matmul(a, b)

    for _ in range(n):
        monkeypatch.setattr(blas_split.np, "matmul", counting_matmul)
        try:
            out = blas_split._adaptive(st, blas, 2, x, y)
        finally:
            monkeypatch.setattr(blas_split.np, "matmul", real_matmul)
        np.testing.assert_allclose(out, x @ y, rtol=1e-6)
        assert blas.now == 2  # OpenBLAS's count restored after every product
    return ran, st


def test_adaptive_keeps_openblas_threads_when_they_are_faster(monkeypatch):
    ran, st = _adaptive_calls(monkeypatch, lambda one: 2.0 if one else 1.0, 200)
    trial = 2 * blas_split.TRIAL_CALLS
    assert ran[:trial] == [1, 2] * blas_split.TRIAL_CALLS  # the trial alternates
    assert ran[trial : trial + blas_split.FIRST_PERIOD] == [2] * blas_split.FIRST_PERIOD
    assert ran.count(1) <= 4 * blas_split.TRIAL_CALLS  # trials get rarer
    (c,) = st.choices.values()
    assert not c.one and c.period > blas_split.FIRST_PERIOD


def test_adaptive_moves_to_one_thread_when_openblas_threads_stall(monkeypatch):
    ran, st = _adaptive_calls(monkeypatch, lambda one: 1.0 if one else 30.0, 100)
    assert ran[:2] == [1, 2]  # one stalled call decides
    assert ran[2 : 2 + blas_split.FIRST_PERIOD] == [1] * blas_split.FIRST_PERIOD
    assert ran.count(2) <= 4  # a trial now and then, each of one stalled call
    (c,) = st.choices.values()
    assert c.one


def test_adaptive_stall_reopens_the_trial_at_once(monkeypatch):
    state = {"busy": False}

    def timings(one):
        return 1.0 if one else (30.0 if state["busy"] else 0.5)

    st = blas_split._Splitter()
    blas = _FakeBlas()
    x, y = _operands(64, 64, 64, np.float32, "C")
    monkeypatch.setattr(blas_split, "_timed", lambda b, a, one, p, q: (p @ q, timings(one)))
    for _ in range(2 * blas_split.TRIAL_CALLS + 3):
        blas_split._adaptive(st, blas, 2, x, y)
    (c,) = st.choices.values()
    assert not c.one and c.left > 0
    state["busy"] = True
    blas_split._adaptive(st, blas, 2, x, y)  # a stalled call of OpenBLAS's threads
    assert c.left == 0  # the next call is on trial
    blas_split._adaptive(st, blas, 2, x, y)  # one thread
    blas_split._adaptive(st, blas, 2, x, y)  # OpenBLAS's threads: stalled, decided
    assert c.one


@pytest.mark.skipif(
    not blas_split._find_openblas() or blas_split._cores() < 2,
    reason="needs NumPy on OpenBLAS (pthreads) and two cores",
)
def test_adaptive_mode_on_real_openblas_restores_the_thread_count():
    st = blas_split._Splitter()
    st.blas, st.split = blas_split._find_openblas(), False
    x, y = _operands(128, 784, 512, np.float32, "T")
    before = _blas_threads()
    for _ in range(3 * blas_split.TRIAL_CALLS):
        out = blas_split._adaptive(st, st.blas, st.blas.get_num_threads(), x, y)
        assert _blas_threads() == before
        np.testing.assert_allclose(out, x.astype(np.float64) @ y, rtol=1e-4, atol=1e-3)


def test_adaptive_stall_in_one_shape_spares_the_others_a_stalled_trial(monkeypatch):
    st = blas_split._Splitter()
    blas = _FakeBlas()
    ran = []

    def fake_timed(b, allowed, one, p, q):
        ran.append((p.shape, 1 if one else allowed))
        return p @ q, 1.0 if one else 30.0  # OpenBLAS's threads stall

    monkeypatch.setattr(blas_split, "_timed", fake_timed)
    a = _operands(64, 64, 64, np.float32, "C")
    b = _operands(32, 64, 64, np.float32, "C")
    blas_split._adaptive(st, blas, 2, *a)
    blas_split._adaptive(st, blas, 2, *a)  # stalls: shape a goes to one thread
    blas_split._adaptive(st, blas, 2, *b)  # shape b: one thread, decided without a stall
    assert ran == [(a[0].shape, 1), (a[0].shape, 2), (b[0].shape, 1)]
    assert all(c.one for c in st.choices.values())
