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
