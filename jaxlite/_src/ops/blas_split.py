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

Modes, chosen by ``JAXLITE_BLAS_THREADS`` when the first product runs:

* ``watch`` (the default): products run on OpenBLAS's own threads, as a plain ``np.matmul``,
  each timed (two timer reads and a running minimum per product shape). A call ``STALL``
  times slower than its shape's usual time, and at least ``STALL_MIN`` seconds slower, is a
  stall; a normal call forgives 1/``FORGIVE`` of one. After ``STRIKES`` stalls (of any
  shape: the load is the machine's), at a stall that makes its shape's calls cost more on
  average (over ``FORGIVE`` calls) than the stall-safe way's, every product runs the
  stall-safe way for a backoff (``FIRST_BACKOFF`` seconds at first, doubled up to
  ``MAX_BACKOFF`` while the stalls come back), then OpenBLAS's threads are probed again: one
  more stall sends the products back at once, calls without stalls keep them home. A shape's
  usual time is its fastest call on OpenBLAS's threads, or its one-thread time if that is
  less (one call measured at the shape's second call if it has at most ``ONE_REF_WORK``
  multiply-adds, so that a process started under load still sees its stalls; the stall-safe
  way's calls are timed too). Each shape's stall-safe way is chosen the first time it is
  needed, on random operands of its shapes and layouts: among OpenBLAS at one thread, the
  split (large products), and either of them summing the contraction in the blocks
  OpenBLAS's threaded driver cuts it into, the fastest whose bits equal OpenBLAS's threads',
  or the fastest if none does. On a quiet machine only the timing runs (and that one-thread
  call).
* ``off``: plain ``np.matmul``, nothing timed: bit-reproducible whatever the load.
* ``auto`` (opt-in): the way a product runs follows timed trials.
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
  machine its trials keep a worse choice often enough to cost 40-60% of the MLP step
  (docs/benchmarks.md, quiet check of session 4).
* ``JAXLITE_BLAS_SPLIT=on`` (opt-in, takes precedence): every product at one OpenBLAS thread,
  large ones split into blocks as above. On a quiet 2-core machine OpenBLAS's own threads are
  faster (a 784-512-512-10 MLP step 1.18x JAX's time without the split, 1.63x with it; a
  batched MLP forward 0.32x against 1.75x of hand-batched NumPy), so it is for machines whose
  cores are shared with other busy work.

Used only when it can help: the optional ``threadpoolctl`` is installed, NumPy's BLAS is
OpenBLAS (pthreads) with more than one thread allowed (a user's own limit, e.g.
``OPENBLAS_NUM_THREADS=1`` or ``threadpool_limits(1)``, is respected), and no other product
of this module is running in another thread (a concurrent one runs as a plain ``np.dot``).
Bits: NumPy's OpenBLAS gives products that differ in the last bits between one thread and
several when the contraction is longer than its block depth (448 for float32, 384 for
float64 with the SkylakeX kernels: its one- and multi-threaded drivers cut the last blocks
at different places; see ``_blocks``). ``watch`` runs such a shape under load with the
contraction cut as the threaded driver cuts it where that gives the same bits (checked per
shape on random operands), so its results are a plain ``np.matmul``'s unless no stall-safe
way matches (e.g. float32 with ``OPENBLAS_CORETYPE=Haswell``: then a stalled shape's low
bits can change, docs/compat.md); ``auto`` can change a product's low bits from one call to
the next; ``off`` never does.
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
# Stall watch (``JAXLITE_BLAS_THREADS=watch``, the default): a call slower than STALL times
# its shape's usual time and by at least STALL_MIN seconds (a time slice is ~1-4 ms; noise
# on a quiet machine is tens of us) is a stall. Stalls are rare but long (one core busy: 10-25%
# of the calls of a 128x784 @ 784x512 product, 4-56 ms each against 0.33 ms, so 4x slower on
# average than one thread): STRIKES of them, less one per FORGIVE normal calls, move products
# (any shape's: the load is the machine's) to the stall-safe way for a backoff (seconds),
# doubled while stalls recur. A stall costs 5-50 ms, the stall-safe way ~1.5x OpenBLAS's
# threads on a quiet machine: at most MAX_BACKOFF between probes bounds both costs.
STALL_MIN = 200e-6
STRIKES = 3
FORGIVE = 32
CHOOSE_CALLS = 3  # timed calls of each stall-safe way when one is chosen for a shape
# Products of more multiply-adds (~10 ms at one thread) get no one-thread reference call
# (it would cost a slow call; a time slice is no stall for them). By size, not by time: a
# process started under load times every call stalled.
ONE_REF_WORK = 1 << 28
FIRST_BACKOFF = 0.05
MAX_BACKOFF = 2.0
# A way of running a product slower than this times the best of its trial is ruled out.
RULE_OUT = 1.5
# Seconds after a stall of OpenBLAS's threads (in any shape) during which a trial takes one
# thread without timing OpenBLAS's threads again (the load is the machine's, not a shape's).
STALL_MEMORY = 1.0
# Product shapes remembered (a program with more starts over).
MAX_SHAPES = 512

_MODES = ("watch", "off", "auto")
_clock = time.perf_counter  # every timing here (tests replace it)

_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


class _Splitter:
    """The OpenBLAS controller and the helper threads, made on first use."""

    def __init__(self):
        self.lock = threading.Lock()
        self.blas = None  # threadpoolctl's controller of NumPy's OpenBLAS, or False
        self.split = False  # JAXLITE_BLAS_SPLIT=on; else self.mode
        self.mode = "watch"  # JAXLITE_BLAS_THREADS: "watch", "off" or "auto"
        self.helpers: list = []
        self.done: queue.SimpleQueue = queue.SimpleQueue()
        self.choices: dict = {}  # product shape -> _Choice (auto) or _Watch (watch)
        self.stalled_at = -math.inf  # _clock() of the last stall seen (auto)
        # The stall watch (the load is the machine's: one watch for every product shape).
        self.strikes = 0.0  # stalls lately, less 1/FORGIVE per normal call
        self.safe_until = -math.inf  # _clock() time until which products run stall-safe
        self.backoff = FIRST_BACKOFF  # seconds of the next stay on the stall-safe way
        self.depths: dict = {}  # dtype -> OpenBLAS's contraction block depth (_depth)

    def controller(self):
        if self.blas is None:
            env = os.environ.get
            self.split = env("JAXLITE_BLAS_SPLIT", "off").lower() in ("on", "1", "auto")
            self.mode = blas_mode()
            self.blas = _find_openblas() if self.split or self.mode != "off" else False
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


def blas_mode() -> str:
    """The mode ``JAXLITE_BLAS_THREADS`` asks for: ``"watch"`` (default), ``"off"`` or
    ``"auto"`` (``on``/``1`` are read as ``auto``, ``0``/``none`` as ``off``).

    Raises:
      ValueError: for any other value.
    """
    value = os.environ.get("JAXLITE_BLAS_THREADS", "watch").strip().lower() or "watch"
    value = {"on": "auto", "1": "auto", "0": "off", "none": "off"}.get(value, value)
    if value not in _MODES:
        raise ValueError(f"JAXLITE_BLAS_THREADS must be one of {_MODES}, got {value!r}")
    return value


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
    the same batch shape, run as ``JAXLITE_BLAS_THREADS`` says (module docstring): by
    default on OpenBLAS's threads, timed, and the stall-safe way while they stall; with
    ``auto`` the way its shape's last trial chose; with ``JAXLITE_BLAS_SPLIT=on`` at one
    OpenBLAS thread, split across threads when large (a matrix product by column or row
    blocks, a batched one by batch blocks). ``None`` when the product should run as a plain
    ``np.matmul``: mode ``off``, a product OpenBLAS runs on one thread anyway, another
    dtype, no OpenBLAS to limit, one thread allowed, or a product of this module already
    running in another thread.

    Raises:
      ValueError: ``JAXLITE_BLAS_THREADS`` is not ``watch``, ``off`` or ``auto``.
    """
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
            if st.mode == "watch":
                return _watched(st, blas, x, y)
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
        t0 = _clock()
        out = np.matmul(x, y)
        return out, _clock() - t0
    blas.set_num_threads(1)
    try:
        t0 = _clock()
        out = _split(st, x, y, min(allowed, _cores())) if mode == SPLIT else np.matmul(x, y)
        return out, _clock() - t0
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
        t0 = _clock()
        out = np.matmul(x, y)
        if _clock() - t0 > STALL * c.ref:
            c.left, c.period = 0, FIRST_PERIOD  # a stall (the load changed): a trial next
            st.stalled_at = _clock()
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
    if times[ALL] is not None and _clock() - st.stalled_at < STALL_MEMORY:
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
                st.stalled_at = _clock()  # OpenBLAS's threads stall
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


class _Watch:
    """One product shape's part of the stall watch (``watch`` mode)."""

    __slots__ = ("best", "one", "excess", "safe")

    def __init__(self):
        self.best = math.inf  # fastest call on OpenBLAS's threads
        self.one = None  # fastest call off them (one-thread reference, stall-safe calls)
        self.excess = 0.0  # mean time over ``best`` of calls on them (1/FORGIVE per call)
        self.safe = None  # (way, blocks, same bits as OpenBLAS's threads), chosen when due


def _watched(st: _Splitter, blas, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """``np.matmul(x, y)`` on OpenBLAS's threads, timed; the stall-safe way while products
    are moved off them (module docstring); ``None`` (a plain product) when the user allows
    OpenBLAS one thread and the stall-safe way is due. Between stalls nothing here calls
    OpenBLAS: the user's limit applies as it is."""
    key = (x.shape, y.shape, x.dtype.char, x.strides, y.strides)
    w = st.choices.get(key)
    if w is None:
        if len(st.choices) >= MAX_SHAPES:
            st.choices.clear()
        w = st.choices[key] = _Watch()
    t0 = _clock()
    if t0 < st.safe_until:
        allowed = blas.get_num_threads()
        if allowed < 2:
            return None
        if w.safe is None:
            calls = CHOOSE_CALLS if _work(x, y) <= ONE_REF_WORK else 1  # large: one call each
            w.safe = _choose_safe(st, blas, allowed, x, y, calls)
            t0 = _clock()
        way, blocks, _ = w.safe
        blas.set_num_threads(1)
        try:
            out = _run(st, way, blocks, x, y, min(allowed, _cores()))
        finally:
            blas.set_num_threads(allowed)
        dt = _clock() - t0
        if w.one is None or dt < w.one:
            w.one = dt
        return out
    out = np.matmul(x, y)
    dt = _clock() - t0
    best = w.best
    if dt <= STALL * best and w.one is not None and best <= w.one and not st.strikes:
        w.excess += (dt - best - w.excess) / FORGIVE  # a normal call (_record's common case)
        if dt < best:
            w.best = dt
        return out
    second = best < math.inf
    _record(st, w, dt, t0 + dt)
    if second and w.one is None and _work(x, y) <= ONE_REF_WORK:
        w.one = _one_thread_time(blas, x, y)  # at the second call: the one-thread reference
    return out


def _record(st: _Splitter, w: _Watch, dt: float, now: float) -> None:
    """Counts one call of ``w``'s shape on OpenBLAS's threads that took ``dt`` seconds and
    ended at ``now``: a stall or a normal call (module docstring)."""
    if w.best < math.inf:
        w.excess += (max(dt - w.best, 0.0) - w.excess) / FORGIVE
    ref = w.best if w.one is None else min(w.best, w.one)
    if dt > STALL * ref and dt - ref > STALL_MIN:
        st.strikes = min(st.strikes + 1, STRIKES)
        # Worth a switch if the stalls cost this shape more, on average, than the
        # stall-safe way would (its time over OpenBLAS's threads' when they do not stall).
        premium = 0.0 if w.one is None else w.one - w.best
        if st.strikes >= STRIKES and w.excess > premium:
            st.safe_until = now + st.backoff
            st.backoff = min(2 * st.backoff, MAX_BACKOFF)
            st.strikes = STRIKES - 1  # the probe after this stay: one stall sends it back
        return
    if dt < w.best:
        w.best = dt
    if st.strikes:
        st.strikes = max(0.0, st.strikes - 1 / FORGIVE)
        if not st.strikes:
            st.backoff = FIRST_BACKOFF  # the stalls are over


def _one_thread_time(blas, x: np.ndarray, y: np.ndarray) -> float:
    """One call's time with OpenBLAS at one thread (``math.inf`` if the user allows one)."""
    allowed = blas.get_num_threads()
    if allowed < 2:
        return math.inf
    blas.set_num_threads(1)
    try:
        t0 = _clock()
        np.matmul(x, y)
        return _clock() - t0
    finally:
        blas.set_num_threads(allowed)


def _choose_safe(
    st: _Splitter, blas, allowed: int, x: np.ndarray, y: np.ndarray, calls: int = CHOOSE_CALLS
):
    """The stall-safe way for the shape of ``x @ y``: ``(way, blocks, exact)``, found on
    random operands of the same shapes and layouts. ``way`` is ONE or SPLIT, ``blocks`` the
    lengths the contraction is cut into (``()``: not cut), ``exact`` whether its bits equal
    OpenBLAS's threads'. The fastest exact way wins, else the fastest (median of ``calls``
    calls each)."""
    xr, yr = _random_like(x, 1), _random_like(y, 2)
    want = np.matmul(xr, yr)  # OpenBLAS's own threads
    depth = _depth(st, blas, allowed, x.dtype)
    k = x.shape[-1]
    cuts = [(), _blocks(k, depth)] if depth and k > depth else [()]
    ways = [ONE, SPLIT] if _large(x, y, allowed) else [ONE]
    threads = min(allowed, _cores())
    found = []
    blas.set_num_threads(1)
    try:
        for way in ways:
            for blocks in cuts:
                times = []
                for _ in range(calls):
                    t0 = _clock()
                    got = _run(st, way, blocks, xr, yr, threads)
                    times.append(_clock() - t0)
                exact = bool(np.array_equal(got, want))
                found.append((not exact, _median(times), way, blocks))
    finally:
        blas.set_num_threads(allowed)
    inexact, _, way, blocks = min(found)
    return way, blocks, not inexact


# OpenBLAS's threaded driver cuts a contraction into blocks of its block depth while at
# least twice the depth is left, and what is left, if longer than the depth, into two
# halves (the first rounded up); its one-thread driver rounds those halves to its kernel's
# unroll, hence the different bits (measured: 784 is cut 392 + 392 on threads, 400 + 384
# on one). The depth
# (per dtype and kernel: 448 for float32 and 384 for float64 with the SkylakeX kernels) is
# found once per dtype by matching the threaded driver's bits on a contraction of DEPTH_K
# (2-10 ms).
DEPTH_K = 1200  # finds depths up to 600 (32 x 1200 @ 1200 x 32: 1.2M multiply-adds, threaded)


def _blocks(k: int, depth: int) -> tuple:
    """The lengths OpenBLAS's threaded driver cuts a contraction of ``k`` into."""
    out = []
    while k >= 2 * depth:
        out.append(depth)
        k -= depth
    if k > depth:
        out += [(k + 1) // 2, k // 2]
    elif k:
        out.append(k)
    return tuple(out)


def _depth(st: _Splitter, blas, allowed: int, dtype: np.dtype) -> int:
    """OpenBLAS's contraction block depth for ``dtype`` on its threads (0: not found)."""
    depths = st.depths
    if dtype not in depths:
        x = _random_like(np.empty((32, DEPTH_K), dtype), 3)
        y = _random_like(np.empty((DEPTH_K, 32), dtype), 4)
        want = np.matmul(x, y)
        out = np.empty_like(want)
        depths[dtype] = 0
        blas.set_num_threads(1)
        try:
            for depth in range(64, DEPTH_K // 2, 16):
                _product(x, y, out, _blocks(DEPTH_K, depth))
                if np.array_equal(out, want):
                    depths[dtype] = depth
                    break
        finally:
            blas.set_num_threads(allowed)
    return depths[dtype]


def _random_like(a: np.ndarray, seed: int) -> np.ndarray:
    """Random values of ``a``'s shape, dtype and memory order."""
    rng = np.random.default_rng(seed)
    out = np.empty_like(a)
    out[...] = rng.standard_normal(a.shape)
    if out.dtype.kind == "c":
        out.imag = rng.standard_normal(a.shape)
    return out


def _work(x: np.ndarray, y: np.ndarray) -> int:
    return x.shape[-2] * x.shape[-1] * y.shape[-1] * math.prod(x.shape[:-2])


def _large(x: np.ndarray, y: np.ndarray, allowed: int) -> bool:
    return _work(x, y) >= MIN_WORK and min(allowed, _cores()) >= 2


def _run(st: _Splitter, way: int, blocks: tuple, x, y, threads: int) -> np.ndarray:
    """``x @ y`` at one OpenBLAS thread (the caller sets it), split across ``threads`` if
    ``way`` is SPLIT, the contraction cut into ``blocks`` (lengths) if not empty."""
    if way == SPLIT:
        return _split(st, x, y, threads, blocks)
    out = np.empty(x.shape[:-1] + y.shape[-1:], x.dtype)
    _product(x, y, out, blocks)
    return out


def _product(x: np.ndarray, y: np.ndarray, out: np.ndarray, blocks: tuple = ()) -> None:
    """``out[...] = x @ y``; with ``blocks``, as products over those lengths of the
    contraction added in order (the bits of OpenBLAS's threaded driver, which blocks the
    contraction so)."""
    if len(blocks) < 2:
        np.matmul(x, y, out=out)
        return
    end = blocks[0]
    np.matmul(x[..., :end], y[..., :end, :], out=out)
    for n in blocks[1:]:
        out += np.matmul(x[..., end : end + n], y[..., end : end + n, :])
        end += n


def _split(
    st: _Splitter, x: np.ndarray, y: np.ndarray, threads: int, cut: tuple = ()
) -> np.ndarray:
    out = np.empty(x.shape[:-1] + y.shape[-1:], x.dtype)
    if x.ndim > 2 and x.shape[0] >= 2:
        axis, size, unit = "batch", x.shape[0], 1  # blocks of whole matrices
    elif y.shape[-1] >= x.shape[-2]:
        axis, size, unit = "cols", y.shape[-1], MIN_BLOCK
    else:
        axis, size, unit = "rows", x.shape[-2], MIN_BLOCK
    blocks = max(1, min(threads * BLOCKS_PER_THREAD, size // unit))
    if blocks < 2:
        _product(x, y, out, cut)
        return out
    step = -(-size // blocks)
    if unit > 1:
        step = -(-step // 16) * 16
    starts = iter(range(0, size, step))
    errors: list = []
    ell = Ellipsis

    def work():
        try:
            for j in starts:  # next() on a range iterator is atomic under the GIL
                s = slice(j, j + step)
                if axis == "batch":
                    _product(x[s], y[s], out[s], cut)
                elif axis == "cols":
                    _product(x, y[ell, s], out[ell, s], cut)
                else:
                    _product(x[ell, s, :], y, out[ell, s, :], cut)
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
