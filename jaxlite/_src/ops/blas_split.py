"""Matrix products that a busy core does not stall: OpenBLAS at one thread, and large
products split across threads by jaxlite.

OpenBLAS splits each product statically between its threads and waits for all of them:
when another process keeps a core busy, every product waits for the worker's next time
slice (even a 128x512 @ 512x10 product took 20-40 ms instead of 30 us), and a step of dense
work takes 10-50x longer (docs/benchmarks.md, "Under load"). The remedies here: a product
that OpenBLAS would run on several threads can run with OpenBLAS limited to one thread
(threadpoolctl, a well-kept library for exactly this; the limit is restored after each
product), and a large one can be cut into column (or row) blocks, written straight into
the output through ``np.matmul(..., out=block)`` (a BLAS call with a leading dimension, no
copy), and the blocks are taken one by one by the calling thread and helper threads: a
thread that does not get a core takes fewer blocks, the others take the rest.

Two modes, chosen by the environment when the first product runs:

* ``JAXLITE_BLAS_THREADS=off`` (the default) leaves OpenBLAS as it is: bit-reproducible, and
  the fastest on a quiet machine (a trial's timings there are noisy enough to keep a worse
  choice: the MLP step measured 0.80-0.86x JAX with ``off`` against 1.20-1.38x with ``auto``
  on the same quiet machine, 2026-12-01 23:42 UTC).
* ``JAXLITE_BLAS_THREADS=auto`` (opt-in, for machines whose cores are shared with other busy
  work): the way a product runs follows the load.
  Each product shape is on trial now and then: calls with OpenBLAS limited to one thread,
  calls split as above (large products only) and calls at OpenBLAS's own thread count are
  taken in turn, and the fastest (median of ``TRIAL_CALLS``) runs until the next trial.
  Trials get rarer while the choice stays the same (every ``FIRST_PERIOD`` calls of that
  shape at first, then at most every ``MAX_PERIOD``, or ``MAX_PERIOD_ONE`` for a shape kept
  off OpenBLAS's threads). A way whose one call is ``RULE_OUT`` times slower than the best
  so far is ruled out of the trial at once (so a trial costs one slow call per loser);
  OpenBLAS's threads ruled out so (a stall) stay out of every shape's trial for
  ``STALL_MEMORY`` seconds (the load is the machine's, not a shape's), and a call of theirs
  ``STALL`` times slower than their trial median re-opens the trial at once. On a quiet
  machine OpenBLAS's threads win and the cost is a timer read per product plus the trials;
  when another process keeps a core busy, OpenBLAS's second thread would stall every
  product, and one thread or the split wins (the MLP step with one core busy: 1.09-1.21x JAX
  against 2.06-3.22x with ``off``).
* ``JAXLITE_BLAS_SPLIT=on`` (opt-in, takes precedence): every product at one OpenBLAS thread,
  large ones split into blocks as above. On a quiet 2-core machine OpenBLAS's own threads are
  faster (a 784-512-512-10 MLP step 1.18x JAX's time without the split, 1.63x with it; a
  batched MLP forward 0.32x against 1.75x of hand-batched NumPy), so it is for machines whose
  cores are shared with other busy work.

Used only when it can help: the optional ``threadpoolctl`` is installed, NumPy's BLAS is
OpenBLAS (pthreads) with more than one thread allowed (a user's own limit, e.g.
``OPENBLAS_NUM_THREADS=1`` or ``threadpool_limits(1)``, is respected), and no other product
of this module is running in another thread (a concurrent one runs as a plain ``np.dot``).
Each output element is one BLAS dot product of a row and a column, as in ``np.dot``; results
can differ from a multi-threaded ``np.dot`` in the last bits, as OpenBLAS's own results do
between thread counts (float32 products nearly always do). So in the adaptive mode a
product's low bits can change from one call to the next when a trial changes the choice
(docs/compat.md); the default ``JAXLITE_BLAS_THREADS=off`` gives bit-reproducible runs.
"""

from __future__ import annotations

import math
import os
import queue
import threading
import time

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

# Adaptive thread count (``JAXLITE_BLAS_THREADS=auto``): calls per thread count in a trial,
# calls between trials (first and most), and the slowdown that re-opens a trial.
# A call of OpenBLAS's threads on trial costs a time slice (~10-40 ms) when a core is busy,
# a one-thread call at most ~2x theirs on a quiet machine: trials of a shape kept off
# OpenBLAS's threads get rarer (up to every MAX_PERIOD_ONE calls), and only a shape that
# runs on them watches for stalls.
TRIAL_CALLS = 3
FIRST_PERIOD = 16
MAX_PERIOD = 512
MAX_PERIOD_ONE = 2048
STALL = 3.0
# A way of running a product slower than this times the best of its trial is ruled out.
RULE_OUT = 1.5
# Seconds after a stall of OpenBLAS's threads (in any shape) during which a trial takes one
# thread without timing OpenBLAS's threads again (the load is the machine's, not a shape's).
STALL_MEMORY = 1.0
# Product shapes remembered (a program with more starts over).
MAX_SHAPES = 512

_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


class _Splitter:
    """The OpenBLAS controller and the helper threads, made on first use."""

    def __init__(self):
        self.lock = threading.Lock()
        self.blas = None  # threadpoolctl's controller of NumPy's OpenBLAS, or False
        self.split = False  # JAXLITE_BLAS_SPLIT=on; else the adaptive thread count
        self.helpers: list = []
        self.done: queue.SimpleQueue = queue.SimpleQueue()
        self.choices: dict = {}  # product shape -> _Choice (adaptive mode)
        self.stalled_at = -math.inf  # time.monotonic() of the last stall seen

    def controller(self):
        if self.blas is None:
            env = os.environ.get
            self.split = env("JAXLITE_BLAS_SPLIT", "off").lower() in ("on", "1", "auto")
            adaptive = env("JAXLITE_BLAS_THREADS", "off").lower() in ("auto", "on", "1")
            self.blas = _find_openblas() if self.split or adaptive else False
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
    _state = _Splitter()  # the child has no helper threads (and its own load)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_after_fork)


def matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``np.matmul(x, y)`` for ``x`` (..., m, k) and ``y`` (..., k, n) of one BLAS dtype and
    the same batch shape, run as the opted-in mode says (module docstring): with
    ``JAXLITE_BLAS_SPLIT=on`` at one OpenBLAS thread, split across threads when large (a
    matrix product by column or row blocks, a batched one by batch blocks); with
    ``JAXLITE_BLAS_THREADS=auto`` the way its shape's last trial chose. ``None`` when the
    product should run as a plain ``np.matmul``: neither mode on (the default), a product
    OpenBLAS runs on one thread anyway, another dtype, no OpenBLAS to limit, one thread
    allowed, or a product of this module already running in another thread."""
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
        if not st.split:
            return _adaptive(st, blas, x, y)
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


# The ways a product can run (adaptive mode), in the order a trial tries them.
ONE, SPLIT, ALL = 0, 1, 2  # one OpenBLAS thread; split by jaxlite (large); OpenBLAS's own


class _Choice:
    """How one product shape runs (adaptive mode), and its trial."""

    __slots__ = ("mode", "ref", "left", "period", "times", "split")

    def __init__(self, split: bool):
        self.mode = ALL
        self.ref = 0.0  # the chosen way's median time in the last trial
        self.left = 0  # calls before the next trial (0: on trial)
        self.period = FIRST_PERIOD
        self.split = split  # large enough to be split: SPLIT is a candidate
        self.times: list = [[], [], []]  # per way: this trial's times (None: ruled out)


def _timed(st: _Splitter, blas, allowed: int, mode: int, x: np.ndarray, y: np.ndarray):
    """``np.matmul(x, y)`` run the given way, and how long it took."""
    if mode == ALL:
        t0 = time.perf_counter()
        out = np.matmul(x, y)
        return out, time.perf_counter() - t0
    blas.set_num_threads(1)
    try:
        t0 = time.perf_counter()
        out = _split(st, x, y, min(allowed, _cores())) if mode == SPLIT else np.matmul(x, y)
        return out, time.perf_counter() - t0
    finally:
        blas.set_num_threads(allowed)


def _adaptive(st: _Splitter, blas, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``np.matmul(x, y)`` the way (one OpenBLAS thread, OpenBLAS's own threads, or split by
    jaxlite) that was fastest for this product shape in its last trial (see the module
    docstring); ``None`` (a plain product) when the user allows OpenBLAS one thread. Running
    on OpenBLAS's threads needs no call to OpenBLAS: the user's limit applies as it is."""
    key = (x.shape, y.shape, x.dtype.char, x.strides, y.strides)
    c = st.choices.get(key)
    if c is not None and c.left > 0 and c.mode == ALL:
        c.left -= 1
        t0 = time.perf_counter()
        out = np.matmul(x, y)
        if time.perf_counter() - t0 > STALL * c.ref:
            c.left, c.period = 0, FIRST_PERIOD  # a stall (the load changed): a trial next
            st.stalled_at = time.monotonic()
        return out
    allowed = blas.get_num_threads()
    if allowed < 2:
        return None
    if c is None:
        if len(st.choices) >= MAX_SHAPES:
            st.choices.clear()
        work = x.shape[-2] * x.shape[-1] * y.shape[-1] * math.prod(x.shape[:-2])
        c = st.choices[key] = _Choice(work >= MIN_WORK and min(allowed, _cores()) >= 2)
    if c.left > 0:  # one thread or the split, until the next trial
        c.left -= 1
        return _timed(st, blas, allowed, c.mode, x, y)[0]
    times = c.times
    if not c.split:
        times[SPLIT] = None
    if times[ALL] is not None and time.monotonic() - st.stalled_at < STALL_MEMORY:
        times[ALL] = None  # OpenBLAS's threads stalled a moment ago (this shape or another)
    ways = [w for w in (ONE, SPLIT, ALL) if times[w] is not None]
    way = min(ways, key=lambda w: len(times[w]))  # in turn, the cheap ways first
    out, dt = _timed(st, blas, allowed, way, x, y)
    times[way].append(dt)
    # A way far slower than the best so far is ruled out at once: a trial costs one slow
    # call of each loser, not TRIAL_CALLS (only close contenders are timed again).
    best = min(min(times[w]) for w in ways if times[w])
    for w in list(ways):
        if times[w] and min(times[w]) > RULE_OUT * best:
            times[w] = None
            ways.remove(w)
            if w == ALL:
                st.stalled_at = time.monotonic()  # OpenBLAS's threads stall
    if any(len(times[w]) < TRIAL_CALLS for w in ways) and len(ways) > 1:
        return out
    pick = min(ways, key=lambda w: _median(times[w]) if times[w] else math.inf)
    limit = MAX_PERIOD if pick == ALL else MAX_PERIOD_ONE
    c.period = min(2 * c.period, limit) if pick == c.mode else FIRST_PERIOD
    c.mode, c.ref = pick, _median(times[pick]) if times[pick] else 0.0
    c.left, c.times = c.period, [[], [], []]
    return out


def _median(ts: list) -> float:
    return sorted(ts)[len(ts) // 2]


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
