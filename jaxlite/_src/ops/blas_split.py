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
copy), and the blocks are taken one by one by the calling thread and helper threads (kept
off the caller's CPU): a thread that does not get a core takes fewer blocks, and a helper's
block still unfinished when the caller runs out of blocks (after as long as one of its own
took) is computed again by the caller, the helper's copy dropped (``_SplitJob``).

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
  way's calls are timed too). Each shape's stall-safe ways are found the first time they are
  needed, on random operands of its shapes and layouts: among OpenBLAS at one thread, the
  split (large products), and either of them summing the contraction in the blocks
  OpenBLAS's threaded driver cuts it into, those whose bits equal OpenBLAS's threads' (else
  the fastest); each is then timed in use (``SAFE_TRIAL_CALLS`` calls) and the least mean
  time stays. A stay ends with a probe only if other processes left the cores free
  meanwhile (``/proc/stat``; while they keep ``OTHERS_BUSY`` cores busy it goes on, as long
  again). On a quiet machine only the timing runs (and that one-thread call).
* ``off``: plain ``np.matmul``, nothing timed: bit-reproducible whatever the load.
* ``auto`` (opt-in): each product shape is on trial now and then: calls at one OpenBLAS
  thread, split as above (large products) and at OpenBLAS's own thread count, in turn; the
  fastest (median of ``TRIAL_CALLS``) runs until the next trial, trials getting rarer while
  the choice holds (every ``FIRST_PERIOD`` calls of the shape, up to ``MAX_PERIOD``, or
  ``MAX_PERIOD_ONE`` off OpenBLAS's threads). A way ``RULE_OUT`` times slower than the best
  so far is ruled out at once; OpenBLAS's threads ruled out so (a stall) stay out of every
  trial for ``STALL_MEMORY`` seconds, and a call of theirs ``STALL`` times slower than their
  trial median re-opens the trial (on a quiet machine, 40-60% of the MLP step: session 4).
* ``JAXLITE_BLAS_SPLIT=on`` (opt-in, takes precedence): every product at one OpenBLAS thread,
  large ones split into blocks as above: for machines whose cores are shared with other busy
  work (on a quiet one OpenBLAS's own threads are faster, docs/benchmarks.md).

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

import ctypes
import math
import os
import queue
import threading
import time

import numpy as np

from jaxlite._src.util import usable_cores

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
# Calls of each exact stall-safe way timed in use before the fastest (least mean) stays.
SAFE_TRIAL_CALLS = 4
# Other processes' CPU use (cores) over a stay on the stall-safe way that prolongs it with
# no probe of OpenBLAS's threads (a busy loop: ~1 core; the 10 ms clock ticks read over a
# 50 ms stay: +-0.4 core).
OTHERS_BUSY = 0.5
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


_TICK = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


def _cpu_marks():
    """``(CPU seconds run on this process's CPUs, CPU seconds of this process, monotonic
    time)``, from ``/proc/stat`` (Linux; in clock ticks, ~10 ms; only the CPUs the process
    may run on count), or ``None`` where it cannot be read."""
    try:
        mine = {b"cpu%d" % c for c in os.sched_getaffinity(0)}
        busy = 0
        with open("/proc/stat", "rb") as f:
            for line in f:
                fields = line.split()
                if fields and fields[0] in mine:  # user nice system, irq softirq
                    busy += sum(int(v) for v in fields[1:4]) + sum(int(v) for v in fields[6:8])
    except (OSError, ValueError, AttributeError):
        return None
    t = os.times()
    return busy * _TICK, t.user + t.system, time.monotonic()


class _Splitter:
    """The OpenBLAS controller and the helper threads, made on first use."""

    def __init__(self):
        self.lock = threading.Lock()
        self.blas = None  # threadpoolctl's controller of NumPy's OpenBLAS, or False
        self.split = False  # JAXLITE_BLAS_SPLIT=on; else self.mode
        self.mode = "watch"  # JAXLITE_BLAS_THREADS: "watch", "off" or "auto"
        self.helpers: list = []
        self.choices: dict = {}  # product shape -> _Choice (auto) or _Watch (watch)
        self.stalled_at = -math.inf  # _clock() of the last stall seen (auto)
        # The stall watch (the load is the machine's: one watch for every product shape).
        self.strikes = 0.0  # stalls lately, less 1/FORGIVE per normal call
        self.safe_until = -math.inf  # _clock() time until which products run stall-safe
        self.backoff = FIRST_BACKOFF  # seconds of the next stay on the stall-safe way
        self.stay = FIRST_BACKOFF  # seconds of the current (last) stay
        self.stay_mark = None  # _cpu_marks() at the start of the current stay
        self.cpu_marks = _cpu_marks  # how the machine's load is read (None: it is not)
        self.depths: dict = {}  # dtype -> OpenBLAS's contraction block depth (_depth)

    def controller(self):
        if self.blas is None:
            env = os.environ.get
            self.split = env("JAXLITE_BLAS_SPLIT", "off").lower() in ("on", "1", "auto")
            self.mode = blas_mode()
            self.blas = find_openblas() if self.split or self.mode != "off" else False
        return self.blas

    def start_helpers(self, n: int) -> None:
        while len(self.helpers) < n:
            q: queue.SimpleQueue = queue.SimpleQueue()
            t = threading.Thread(target=_helper, args=(q,), name="jaxlite-blas", daemon=True)
            t.start()
            self.helpers.append(q)


def _helper(jobs: queue.SimpleQueue) -> None:
    pinned = None  # the CPUs this helper is kept on (the calling thread's CPU excluded)
    while True:
        job, cpus = jobs.get()
        if cpus is not None and cpus != pinned:
            try:
                os.sched_setaffinity(0, cpus)  # this thread only (pid 0: the caller)
            except OSError:  # a CPU gone offline, or a container's limit: run anywhere
                pass
            pinned = cpus
        job.help()


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


def find_openblas():  # threadpoolctl's controller of NumPy's OpenBLAS (pthreads), or False
    try:  # imported here, at the first large product, not with jaxlite (import time)
        from threadpoolctl import ThreadpoolController
    except ImportError:  # optional: without it, products run as plain np.dot
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


def stalled() -> bool:  # products run off OpenBLAS's threads now (the stall watch)?
    return _clock() < _state.safe_until


def note_call(key, dt: float) -> None:  # a product run elsewhere (dot_fma's), watched
    st = _state
    if st.controller() and st.mode == "watch" and not st.split:
        _record(st, st.choices.setdefault(key, _Watch()), dt, _clock())


_cores = usable_cores  # the cores this process may run on (taskset, CPU sets)


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

    __slots__ = ("best", "one", "excess", "safe", "trial")

    def __init__(self):
        self.best = math.inf  # fastest call on OpenBLAS's threads
        self.one = None  # fastest call off them (one-thread reference, stall-safe calls)
        self.excess = 0.0  # mean time over ``best`` of calls on them (1/FORGIVE per call)
        self.safe = None  # (way, blocks, same bits as OpenBLAS's threads), chosen when due
        self.trial = None  # [[(way, blocks, exact), total time, calls], ...] while timed in use


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
    if t0 >= st.safe_until and st.stay_mark is not None:
        _end_stay(st, t0)  # still busy: the stay goes on, with no probe
    if t0 < st.safe_until:
        allowed = blas.get_num_threads()
        if allowed < 2:
            return None
        if w.safe is None:
            ways = _choose_safe(st, blas, allowed, x, y)
            w.safe = ways[0]
            if len(ways) > 1:
                w.trial = [[way, 0.0, 0] for way in ways]
            t0 = _clock()
        entry = min(w.trial, key=lambda e: e[2]) if w.trial else None
        way, blocks, _ = w.safe if entry is None else entry[0]
        blas.set_num_threads(1)
        try:
            out = _run(st, way, blocks, x, y, min(allowed, _cores()))
        finally:
            blas.set_num_threads(allowed)
        dt = _clock() - t0
        if w.one is None or dt < w.one:
            w.one = dt
        if entry is not None:
            _trial_call(w, entry, dt)
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
            st.stay = st.backoff
            st.stay_mark = st.cpu_marks() if st.cpu_marks is not None else None
            st.backoff = min(2 * st.backoff, MAX_BACKOFF)
            st.strikes = STRIKES - 1  # the probe after this stay: one stall sends it back
        return
    if dt < w.best:
        w.best = dt
    if st.strikes:
        st.strikes = max(0.0, st.strikes - 1 / FORGIVE)
        if not st.strikes:
            st.backoff = FIRST_BACKOFF  # the stalls are over


def _trial_call(w: _Watch, entry: list, dt: float) -> None:
    """Counts a stall-safe call of ``w``'s shape run ``entry``'s way, in its trial: once
    every exact way has had SAFE_TRIAL_CALLS calls in use, the one of least mean time stays
    (in use, not on the random operands they were checked on: between the step's other
    work, jaxlite's split of a large product was slower than one thread in every MLP
    shape with one core busy, though faster back to back on the same operands)."""
    entry[1] += dt
    entry[2] += 1
    if min(e[2] for e in w.trial) >= SAFE_TRIAL_CALLS:
        w.safe = min(w.trial, key=lambda e: e[1] / e[2])[0]
        w.trial = None


def _end_stay(st: _Splitter, now: float) -> None:
    """At the end of a stay on the stall-safe way: if other processes kept at least
    OTHERS_BUSY cores busy meanwhile (the machine's CPU time less this process's), the stay
    goes on as long again without probing OpenBLAS's threads (a probe under such load
    costs a stall, 5-50 ms); else the next products probe them."""
    mark, st.stay_mark = st.stay_mark, None
    new = st.cpu_marks()
    if new is None:
        return
    wall = new[2] - mark[2]
    if wall > 0 and (new[0] - mark[0] - (new[1] - mark[1])) / wall >= OTHERS_BUSY:
        st.safe_until = now + st.stay
        st.stay_mark = new


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
    st: _Splitter, blas, allowed: int, x: np.ndarray, y: np.ndarray, calls: int = 1
) -> list:
    """The stall-safe ways for the shape of ``x @ y``, each ``(way, blocks, exact)``, found
    on random operands of the same shapes and layouts. ``way`` is ONE or SPLIT, ``blocks``
    the lengths the contraction is cut into (``()``: not cut), ``exact`` whether its bits
    equal OpenBLAS's threads'. Every exact way, fastest first (median of ``calls`` calls
    each; the watch times them again in use, ``_trial_call``), else the fastest way."""
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
    found.sort(key=lambda f: f[:2])
    exact = [(way, blocks, True) for inexact, _, way, blocks in found if not inexact]
    return exact or [(found[0][2], found[0][3], False)]


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
    rng, out = np.random.default_rng(seed), np.empty_like(a)
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
    job = _SplitJob(x, y, out, cut, axis, _edges(size, blocks, unit))
    helpers = min(threads - 1, job.blocks - 1)
    st.start_helpers(helpers)
    cpus = _helper_cpus()
    for q in st.helpers[:helpers]:
        q.put((job, cpus))
    job.run()
    return out


def _edges(size: int, blocks: int, unit: int) -> list:
    """Where the ``blocks`` blocks of a split along ``size`` start, and its end."""
    step = -(-size // blocks)
    if unit > 1:
        step = -(-step // 16) * 16
    return list(range(0, size, step)) + [size]


# Block states of a split product.
FREE, HELPING, DONE = 0, 1, 2


class _SplitJob:
    """One split product: blocks of ``out`` taken in turn by the calling thread and the
    helpers. A helper computes its block into its own buffer and copies it into ``out``
    only if the block is still its own; the calling thread, out of free blocks, waits for
    the helpers' blocks about as long as one of its own blocks took, then computes those
    still unfinished itself. So a helper that loses its core mid-block (another process's
    time slice, 1-50 ms) costs the product one block's time, not the wait: the product never
    waits for a thread that does not run, and no helper writes ``out`` once it is returned
    (a late helper's block is dropped). Every block is the same BLAS call whoever computes
    it, so the bits do not depend on which thread did which block."""

    __slots__ = ("x", "y", "out", "cut", "axis", "edges", "blocks", "state", "cond")

    def __init__(self, x, y, out, cut, axis, edges):
        self.x, self.y, self.out, self.cut = x, y, out, cut
        self.axis, self.edges, self.blocks = axis, edges, len(edges) - 1
        self.state = [FREE] * self.blocks
        self.cond = threading.Condition(threading.Lock())

    def _views(self, b: int):
        s = slice(self.edges[b], self.edges[b + 1])
        x, y, out, ell = self.x, self.y, self.out, Ellipsis
        if self.axis == "batch":
            return x[s], y[s], out[s]
        if self.axis == "cols":
            return x, y[ell, s], out[ell, s]
        return x[ell, s, :], y, out[ell, s, :]

    def _take(self, owner: int, also: int = -1) -> int:
        """A block in state FREE (or ``also``) now owned by ``owner``, or -1 (the lock
        held)."""
        state = self.state
        for b in range(self.blocks):
            if state[b] == FREE or state[b] == also:
                state[b] = owner
                return b
        return -1

    def help(self) -> None:
        """A helper's part: free blocks, each into a buffer of its own, kept if still its."""
        cond, state = self.cond, self.state
        while True:
            with cond:
                b = self._take(HELPING)
            if b < 0:
                return
            x, y, dest = self._views(b)
            buf = np.empty(dest.shape, dest.dtype)
            try:
                _product(x, y, buf, self.cut)
            except BaseException:  # the calling thread computes this block again
                return
            with cond:
                if state[b] == HELPING:  # not taken over: the block is this helper's
                    dest[...] = buf
                    state[b] = DONE
                    cond.notify()

    def run(self) -> None:
        """The calling thread's part: free blocks, then helpers' blocks not done in time."""
        cond, state = self.cond, self.state
        mine = 0
        t0 = _clock()
        deadline = None
        while True:
            with cond:
                b = self._take(DONE)
                while b < 0 and HELPING in state:
                    now = _clock()
                    if deadline is None:
                        # Patience: as long as one of our blocks took (all of the time so
                        # far if none was ours), then the helpers' blocks are taken over.
                        deadline = now + (now - t0) / max(mine, 1)
                    if now >= deadline:
                        b = self._take(DONE, also=HELPING)
                    else:
                        cond.wait(deadline - now)
            if b < 0:
                return
            x, y, dest = self._views(b)
            _product(x, y, dest, self.cut)
            mine += 1


def _this_cpu() -> int:
    """The CPU the calling thread runs on now (-1 where it cannot be asked)."""
    return _sched_getcpu() if _sched_getcpu is not None else -1


try:  # Linux: glibc's sched_getcpu (no os.sched_getcpu in Python's os module)
    _sched_getcpu = ctypes.CDLL(None).sched_getcpu
    _sched_getcpu.restype, _sched_getcpu.argtypes = ctypes.c_int, []
except (OSError, AttributeError):
    _sched_getcpu = None


def _helper_cpus() -> frozenset | None:
    """The CPUs the helpers may run on: the process's, less the calling thread's own (woken
    by the caller, a helper is otherwise often queued on its CPU while another process has
    the other: a 128x784 @ 784x512 product in 4 blocks with a busy core, median of 300: 0.71
    ms so, 0.41 ms kept off it). ``None`` where the affinity cannot be set."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    cpus = frozenset(os.sched_getaffinity(0))
    return (cpus - {_this_cpu()}) or cpus
