"""Matrix products that a busy core does not stall: OpenBLAS at one thread, and large
products split across threads by jaxlite.

OpenBLAS splits each product statically between its threads and waits for all of them:
when another process keeps a core busy, every product waits for the worker's next time
slice (even a 128x512 @ 512x10 product took 20-40 ms instead of 30 us), and a step of dense
work takes 10-50x longer (docs/benchmarks.md, "Under load"). Here every 2-D float product
that OpenBLAS would run on several threads runs with OpenBLAS limited to one thread
(threadpoolctl, a well-kept library for exactly this; the limit is restored after each
product). A large product is also cut into column (or row) blocks, written straight into
the output through ``np.matmul(..., out=block)`` (a BLAS call with a leading dimension, no
copy), and the blocks are taken one by one by the calling thread and helper threads: a
thread that does not get a core takes fewer blocks, the others take the rest.

Used only when it can help: the optional ``threadpoolctl`` is installed, NumPy's BLAS is
OpenBLAS (pthreads) with more than one thread allowed (a user's own limit, e.g.
``OPENBLAS_NUM_THREADS=1`` or ``threadpool_limits(1)``, is respected), and no other product
of this module is running in another thread (a concurrent one runs as a plain ``np.dot``).
It is opt-in: ``JAXLITE_BLAS_SPLIT=on`` in the environment turns it on. On a quiet 2-core
machine OpenBLAS's own threads are faster (a 784-512-512-10 MLP step 1.18x JAX's time
without the split, 1.63x with it; a batched MLP forward 0.32x against 1.75x of hand-batched
NumPy), so it is for machines whose cores are shared with other busy work. Each output
element is one BLAS dot product of a row and a column, as in ``np.dot``; results can differ
from a multi-threaded ``np.dot`` in the last bits, as OpenBLAS's own results do between
thread counts.
"""

from __future__ import annotations

import math
import os
import queue
import threading

import numpy as np

try:
    from threadpoolctl import ThreadpoolController
except ImportError:  # optional: without it, products run as plain np.dot
    ThreadpoolController = None

# Multiply-adds below which OpenBLAS runs a product on one thread itself (its
# SMP_THRESHOLD_MIN * GEMM_MULTITHREAD_THRESHOLD): left alone.
OPENBLAS_ONE_THREAD = 65536 * 4
# Multiply-adds from which a product is split across threads (hand-offs cost ~10-30 us);
# between the two it runs in the calling thread with OpenBLAS at one thread, since even a
# small product stalls for a time slice when OpenBLAS's worker does not get a core.
MIN_WORK = 1 << 23
# Blocks per thread (more blocks balance better when a core is busy; each costs a call).
BLOCKS_PER_THREAD = 2
# Narrowest block, in columns (or rows), a multiple of every BLAS kernel's unroll.
MIN_BLOCK = 64

_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


class _Splitter:
    """The OpenBLAS controller and the helper threads, made on first use."""

    def __init__(self):
        self.lock = threading.Lock()
        self.blas = None  # threadpoolctl's controller of NumPy's OpenBLAS, or False
        self.helpers: list = []
        self.done: queue.SimpleQueue = queue.SimpleQueue()

    def controller(self):
        if self.blas is None:
            on = os.environ.get("JAXLITE_BLAS_SPLIT", "off").lower() in ("on", "1", "auto")
            self.blas = _find_openblas() if on else False
        return self.blas

    def start_helpers(self, n: int) -> None:
        while len(self.helpers) < n:
            q: queue.SimpleQueue = queue.SimpleQueue()
            t = threading.Thread(
                target=_helper, args=(q, self.done), name="jaxlite-blas", daemon=True
            )
            t.start()
            self.helpers.append(q)


def _helper(jobs: queue.SimpleQueue, done: queue.SimpleQueue) -> None:
    while True:
        job = jobs.get()
        try:
            job()
        finally:
            done.put(None)


def _find_openblas():
    if ThreadpoolController is None:
        return False
    try:
        libs = ThreadpoolController().select(internal_api="openblas").lib_controllers
    except Exception:  # a BLAS threadpoolctl cannot inspect: leave it alone
        return False
    numpy_libs = [c for c in libs if "numpy" in os.path.basename(os.path.dirname(c.filepath))]
    libs = numpy_libs or libs
    if len(libs) != 1 or getattr(libs[0], "threading_layer", "pthreads") != "pthreads":
        return False
    return libs[0]


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


_state = _Splitter()


def _reset_after_fork() -> None:
    global _state
    _state = _Splitter()  # the child has no helper threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``np.matmul(x, y)`` for ``x`` (..., m, k) and ``y`` (..., k, n) of one BLAS dtype and
    the same batch shape, with OpenBLAS at one thread: split across threads when large (a
    matrix product by column or row blocks, a batched one by batch blocks), in the calling
    thread otherwise; ``None`` when the product should run as a plain ``np.matmul`` (one
    OpenBLAS runs on one thread anyway, another dtype, no OpenBLAS to limit, one thread
    allowed, or a product of this module already running in another thread)."""
    if x.ndim < 2 or x.shape[:-2] != y.shape[:-2] or y.ndim != x.ndim:
        return None
    m, k = x.shape[-2:]
    n = y.shape[-1]
    batch = math.prod(x.shape[:-2])
    work = m * n * k * batch
    if work < OPENBLAS_ONE_THREAD or x.dtype != y.dtype or x.dtype not in _BLAS_DTYPES:
        return None
    st = _state
    blas = st.controller()
    if not blas:
        return None
    if not st.lock.acquire(blocking=False):
        return None
    try:
        allowed = blas.get_num_threads()
        if allowed < 2:
            return None
        threads = min(allowed, _cores())
        blas.set_num_threads(1)
        try:
            if work >= MIN_WORK and threads >= 2:
                return _split(st, x, y, threads)
            return np.matmul(x, y)
        finally:
            blas.set_num_threads(allowed)
    finally:
        st.lock.release()


def _split(st: _Splitter, x: np.ndarray, y: np.ndarray, threads: int) -> np.ndarray:
    out = np.empty(x.shape[:-1] + y.shape[-1:], x.dtype)
    if x.ndim > 2 and x.shape[0] >= 2:
        axis, size, unit = "batch", x.shape[0], 1  # blocks of whole matrices
    elif y.shape[-1] >= x.shape[-2]:
        axis, size, unit = "cols", y.shape[-1], MIN_BLOCK
    else:
        axis, size, unit = "rows", x.shape[-2], MIN_BLOCK
    blocks = max(1, min(threads * BLOCKS_PER_THREAD, size // unit))
    if blocks < 2:
        np.matmul(x, y, out=out)
        return out
    step = -(-size // blocks)
    if unit > 1:
        step = -(-step // 16) * 16
    starts = iter(range(0, size, step))
    mm = np.matmul
    errors: list = []
    ell = Ellipsis

    def work():
        try:
            for j in starts:  # next() on a range iterator is atomic under the GIL
                s = slice(j, j + step)
                if axis == "batch":
                    mm(x[s], y[s], out=out[s])
                elif axis == "cols":
                    mm(x, y[ell, s], out=out[ell, s])
                else:
                    mm(x[ell, s, :], y, out=out[ell, s, :])
        except BaseException as e:  # re-raised in the calling thread
            errors.append(e)

    helpers = min(threads - 1, blocks - 1)
    st.start_helpers(helpers)
    for q in st.helpers[:helpers]:
        q.put(work)
    work()
    for _ in range(helpers):
        st.done.get()
    if errors:
        raise errors[0]
    return out
