"""The native tier: hot loops and fused elementwise regions compiled by Numba.

The Python/NumPy code generator (``codegen``) stays the first tier: it compiles in
milliseconds. This module adds a second tier for *regions* whose every equation has a
``native_rules`` entry (see ``core/rules.py``):

* a loop equation (a primitive in ``rules.native_loops``: ``scan``, ``while``), anywhere in
  generated code, including inside a loop body that itself stays in Python;
* a run of at least ``_REGION_MIN_EQNS`` consecutive native-subset equations without
  control flow that produces an array of at least ``_REGION_MIN_SIZE`` elements (a fused
  elementwise/reduction chain, e.g. most of ``random.uniform``): ``outline_regions`` turns
  it into one ``native_region`` equation before code generation; compiled with
  ``parallel=True``;
* such a run that is elementwise on one shape and that NumPy does best (its SIMD
  ``sin``/``exp``/... kernels, 16-bit floats, or any run when Numba is absent): a *blocked
  NumPy region* (``native_blocks``), NumPy's own ufuncs walked in cache-sized blocks on
  threads; it needs no Numba and is built in a fraction of a millisecond.

Life of a region (``Tier``): the generated Python runs and its time is accumulated; once the
Python tier has spent ``_HOT_SECONDS`` in the region (trip count x calls x cost per step,
measured rather than estimated), the region is queued for a single background thread that
generates Numba source (``emit_kernel``), compiles it (``cache=True``: a second process loads
the machine code from disk) and then sets ``Tier.kernel``; the generated code checks that
attribute on every call and never waits for it. In ``"always"`` mode the kernel is compiled
synchronously when the function is compiled (deterministic, for tests). Any failure (a rule
declining its params, a Numba error) marks the tier failed with one debug log line; the
Python tier keeps running.

Kernel conventions: a value of shape ``()`` is a Numba scalar of its exact dtype (results
are re-cast after every operation, so integer arithmetic wraps in the value's width and
float32 stays float32); other values are arrays. Constants and literals are kernel
arguments, never source text, so the source only holds generated names, operators, dtype
names and integers (shapes, axes), and one kernel source serves every constant value.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import logging
import math
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from jaxlite._src import config as _cfg, dtypes
from jaxlite._src.compile import native_physical
from jaxlite._src.compile.native_blocks import compile_blocks, needs_compile, numba_installed
from jaxlite._src.compile.native_emit import _DTYPES, NotNative, emit_kernel
from jaxlite._src.core import rules
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.core.primitive import Primitive

logger = logging.getLogger("jaxlite.native")

# Python-tier seconds spent in a region before it is compiled natively. A Numba compile of
# a small region costs 0.3-1 s of one core (measured on the 2-core dev machine); starting
# it after a fifth of that bounds the time lost to the Python tier before the switch and
# keeps one-shot programs (tests, scripts) from paying for compiles they never amortise.
_HOT_SECONDS = 0.2
# The same for a blocked NumPy region (``native_blocks``): generating its block function
# costs ~0.3 ms, so it is built (on the calling thread) once the Python tier has spent
# 30x that in the region: one or two calls of a chain on a few million elements.
_HOT_SECONDS_BLOCKS = 0.01
# A control-flow-free top-level function is a region only if it is long and large enough
# for a fused (and parallel) kernel to beat NumPy's per-op loops.
_REGION_MIN_EQNS = 4
_REGION_MIN_SIZE = 1 << 16

# Timed calls of a new kernel before it replaces the Python tier for good (auto mode), and
# the Python tier's last calls it is compared with (their median).
_TRIALS = 3
_RECENT = 16
# Where NumPy's own SIMD kernels beat Numba's scalar libm calls on large arrays (measured:
# a 10-op float32 chain with sin/exp/tanh costs 6x NumPy's CPU time as one Numba loop);
# large-array runs containing them are not outlined as regions.
_NUMPY_SIMD = {
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "exp",
    "exp2",
    "log",
    "log1p",
    "expm1",
    "pow",
    "atan2",
    "logistic",
}

# Equations a straight-line (outlined) region does not take: a matrix product is one BLAS
# call in Numba as in NumPy, so a region around it fuses only the elementwise rest, and a
# region holding the products of a jitted MLP forward cost ~7 s of background compile on a
# 2-core machine (every call meanwhile up to 3x slower) to lose its trial (session 15).
# Loop bodies still compile them (an RNN step's products run in the native loop).
_NOT_IN_REGIONS = {"dot_general"}

_NUMBA_OPTIONS = dict(error_model="numpy", nogil=True, cache=True, boundscheck=False)
MODES = ("auto", "off", "always")

stats = {"regions": 0, "compiled": 0, "failed": 0, "slower": 0}


# ------------------------------------------------------------------------------- numba
_numba_state: dict[str, Any] = {}


def numba_module():
    """The ``numba`` module, or None when it is not installed (imported on first need:
    importing it costs ~0.3 s, which programs that never get hot must not pay)."""
    if "mod" not in _numba_state:
        try:
            _numba_state["mod"] = importlib.import_module("numba")
        except Exception as e:  # noqa: BLE001 (any import failure means "no native tier")
            logger.debug("jaxlite native tier disabled: numba unavailable (%s)", e)
            _numba_state["mod"] = None
    return _numba_state["mod"]


def numba_available() -> bool:
    return importlib.util.find_spec("numba") is not None and numba_module() is not None


def mode() -> str:
    m = _cfg.config.read("jaxlite_native")
    return m if m in MODES else "auto"


def active() -> bool:
    """Is the native tier on (config)? Blocked NumPy regions need nothing else; Numba
    kernels also need ``enabled()``. Cheap: called by codegen."""
    return mode() != "off"


def enabled() -> bool:
    """Is the native tier on (config) and is Numba installed?"""
    return mode() != "off" and numba_installed()


# ------------------------------------------------------------------------------ subset
def _aval_ok(aval) -> bool:
    return getattr(aval, "dtype", None) in _DTYPES and hasattr(aval, "shape")


_sub_closed = native_physical.sub_closed  # the closed jaxprs among an equation's params


def jaxpr_supported(jaxpr: Jaxpr) -> bool:
    """Is every equation (recursively) in the native subset, with supported dtypes and no
    effects? A cheap structural check: rules may still decline specific params later."""
    for eqn in jaxpr.eqns:
        if eqn.primitive not in rules.native_rules or eqn.effects:
            return False
        if not all(_aval_ok(v.aval) for v in list(eqn.invars) + list(eqn.outvars)):
            return False
        if not all(jaxpr_supported(c.jaxpr) for c in _sub_closed(eqn.params)):
            return False
    return True


def _supported(closed: ClosedJaxpr) -> bool:
    """``jaxpr_supported`` of a loop region as it is compiled: calls inlined, keys as
    words (``native_physical.prepare``)."""
    try:
        physical = native_physical.prepare(closed)
    except NotNative:
        return False
    return jaxpr_supported(physical.jaxpr)


# ----------------------------------------------------------------------------- compiling
def cache_dir() -> str:
    d = os.environ.get("JAXLITE_NATIVE_CACHE_DIR")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "jaxlite", "native")
    return d


def _load_kernel_module(source: str):
    """Write ``source`` to a file named by its hash (Numba's disk cache needs a real file)
    and import it; reused as is when an earlier process wrote it."""
    import hashlib  # here, not at module level: import time (docs/benchmarks.md)
    import tempfile

    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    modname = f"jaxlite_native_{digest}"
    if modname in sys.modules:
        return sys.modules[modname]
    d = cache_dir()
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        d = tempfile.mkdtemp(prefix="jaxlite-native-")
    path = os.path.join(d, modname + ".py")
    if not os.path.exists(path):
        fd, tmp = tempfile.mkstemp(dir=d, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(source)
        os.replace(tmp, path)
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    sys.modules[modname] = mod
    return mod


def _numba_type(nb, aval_or_value, is_aval: bool):
    if not is_aval:
        return nb.typeof(aval_or_value)
    a = aval_or_value
    dt = nb.from_dtype(np.dtype(a.dtype))
    if a.shape == ():
        return dt
    return nb.types.Array(dt, len(a.shape), "A", readonly=True)


def compile_kernel(closed: ClosedJaxpr, parallel: bool = False) -> Callable:
    """Emit, compile (Numba, one signature, no further compiles) and wrap ``closed``.

    The wrapper takes NumPy values (one per invar) and returns a list of NumPy arrays, like
    the Python tier's function. Raises on any failure.
    """
    nb = numba_module()
    if nb is None:
        raise NotNative("numba is not installed")
    physical = native_physical.prepare(closed)
    source, ctx = emit_kernel(physical)
    if not parallel:  # a serial variant is its own source file (and disk-cache entry)
        source = source.replace("prange(", "range(")
    mod = _load_kernel_module(source)
    opts = dict(_NUMBA_OPTIONS)
    if parallel:
        opts["parallel"] = True
    disp = nb.njit(**opts)(mod.kernel)
    sig = tuple(_numba_type(nb, a, True) for a in physical.jaxpr.in_avals) + tuple(
        _numba_type(nb, v, False) for v in ctx.const_values
    )
    disp.compile(sig)
    disp.disable_compile()
    return _wrapper(disp, closed, ctx.const_values)


def _wrapper(disp, closed: ClosedJaxpr, consts: list) -> Callable:
    """A generated Python function adapting NumPy values to the kernel's conventions
    (0-d arrays in as scalars, scalars out as 0-d arrays of the exact dtype, typed keys in
    and out as their words: ``native_physical``)."""
    n_in = len(closed.jaxpr.invars)
    g: dict[str, Any] = {"_kern": disp, "_asarray": np.asarray, "_keys": _keys_of_words}
    args = []
    for i, a in enumerate(closed.jaxpr.in_avals):
        key = native_physical.key_storage(a.dtype)
        if key is not None:  # the record field's name reaches the source as a global
            g[f"_f{i}"] = key[0]
            args.append(f"a{i}[_f{i}]")
        else:
            args.append(f"a{i}[()]" if a.shape == () else f"a{i}")
    for j, c in enumerate(consts):
        g[f"_k{j}"] = c
        args.append(f"_k{j}")
    outs = []
    for i, a in enumerate(closed.out_avals):
        key = native_physical.key_storage(a.dtype)
        if key is not None:
            g[f"_d{i}"], g[f"_o{i}"] = np.dtype(a.dtype), key[0]
            outs.append(f"_keys(r[{i}], _d{i}, _o{i})")
        elif a.shape == ():
            g[f"_d{i}"] = np.dtype(a.dtype)
            outs.append(f"_asarray(r[{i}], _d{i})")
        else:
            outs.append(f"r[{i}]")
    params = ", ".join(f"a{i}" for i in range(n_in))
    src = f"def call({params}):\n    r = _kern({', '.join(args)})\n    return [{', '.join(outs)}]\n"
    exec(compile(src, "<jaxlite-native-wrapper>", "exec"), g)  # noqa: S102 (generated names)
    return g["call"]


def _keys_of_words(words: np.ndarray, storage: np.dtype, field: str) -> np.ndarray:
    """Key records (``storage``) holding ``words`` (the kernel's physical keys)."""
    shape = words.shape[: words.ndim - storage.fields[field][0].ndim]
    out = np.empty(shape, storage)
    out[field] = words
    return out


# -------------------------------------------------------------------------------- tiers
class Tier:
    """One region: the Python tier's time so far and, once compiled, the native kernel.

    Generated code reads ``kernel`` (None until ready) and reports Python-tier time through
    ``tick``; neither ever blocks. In auto mode a new kernel is first on trial: its first
    ``_TRIALS`` calls are timed, and it stays only if it beats the median of the Python
    tier's last ``_RECENT`` calls before the region was queued (NumPy's SIMD transcendental
    kernels can beat a scalar Numba loop; the first calls, which pay for allocations and
    BLAS warm-up, and the calls made while the compiler shares the cores are not the Python
    tier's usual time). A parallel region is compiled serial too, and the faster of
    the two candidates is kept.
    """

    __slots__ = (
        "closed",
        "parallel",
        "threads",
        "kernel",
        "spent",
        "calls",
        "recent",
        "state",
        "_native",
        "_candidates",
        "_times",
        "_lock",
        "__weakref__",
    )

    def __init__(self, closed: ClosedJaxpr, parallel: bool = False, threads: bool = False):
        self.closed = closed
        self.parallel = parallel
        self.threads = threads  # blocked NumPy on threads (``native_blocks``)
        self.kernel: Callable | None = None
        self.spent = 0.0
        self.calls = 0
        self.recent: collections.deque = collections.deque(maxlen=_RECENT)  # last calls' s
        self.state = "cold"  # cold -> queued -> (trial ->) ready | failed | slower
        self._native: Callable | None = None
        self._candidates: list[Callable] = []
        self._times: list[list[float]] = []
        # shard_map runs one body per device on threads: they can be in _trial together.
        self._lock = threading.Lock()
        stats["regions"] += 1

    def tick(self, seconds: float) -> None:
        self.spent += seconds
        self.calls += 1
        if self.state == "cold":
            self.recent.append(seconds)
        if self.state != "cold" or self.spent < (
            _HOT_SECONDS_BLOCKS if self.threads else _HOT_SECONDS
        ):
            return
        with self._lock:
            if self.state != "cold":
                return
            self.state = "queued"
        if self.threads and not needs_compile(self.closed):
            self.build(trial=True)  # a code generation of ~0.3 ms: no compiler to wait for
        else:
            _submit(self)

    def build(self, trial: bool = False) -> None:
        """Compile now (in whichever thread calls this); failures are logged, not raised."""
        trial = trial and self.calls > 0
        try:
            if self.threads:
                kernels = [compile_blocks(self.closed)]
            else:
                kernels = [compile_kernel(self.closed, self.parallel)]
        except Exception as e:  # noqa: BLE001 (any failure keeps the Python tier)
            self.state = "failed"
            stats["failed"] += 1
            logger.debug("jaxlite native tier: region left in Python (%s: %s)", type(e).__name__, e)
            return
        if self.parallel and not self.threads and trial:
            # The same loop on one thread is a second candidate: with no idle core (a busy
            # machine) the parallel loop waits for its workers and the serial one wins.
            try:
                kernels.append(compile_kernel(self.closed, False))
            except Exception as e:  # noqa: BLE001 (the parallel kernel stays a candidate)
                logger.debug("jaxlite native tier: no serial variant (%s)", e)
        stats["compiled"] += 1
        if trial:
            self._candidates, self._times = kernels, [[] for _ in kernels]
            self._native, self.state = kernels[0], "trial"
            self.kernel = self._trial
        else:
            self.kernel, self.state = kernels[0], "ready"

    def _trial(self, *args):
        """Time each candidate kernel on ``_TRIALS`` calls (in turn), then keep the fastest
        if it beats the Python tier's mean time per call. Thread-safe: a call that arrives
        after another thread has decided runs the chosen kernel untimed."""
        with self._lock:
            if self._candidates:
                k = min(range(len(self._times)), key=lambda i: len(self._times[i]))
                fn = self._candidates[k]
            else:
                k, fn = None, self._native
        t0 = time.perf_counter()
        out = fn(*args)
        if k is None:
            return out
        elapsed = time.perf_counter() - t0
        with self._lock:
            if not self._candidates:
                return out
            self._times[k].append(elapsed)
            if all(len(t) >= _TRIALS for t in self._times):
                self._decide()
        return out

    def _decide(self) -> None:
        medians = [sorted(t)[len(t) // 2] for t in self._times]
        best = min(range(len(medians)), key=medians.__getitem__)
        recent = sorted(self.recent)
        python_t = recent[len(recent) // 2] if recent else self.spent / self.calls
        native_t = medians[best]
        self._native = self._candidates[best]
        self._candidates = []
        if native_t < python_t:
            self.kernel, self.state = self._native, "ready"
        else:
            self.kernel, self.state = None, "slower"
            stats["slower"] += 1
            logger.debug(
                "jaxlite native tier: region kept in Python (native %.3g s/call, Python "
                "%.3g s/call)",
                native_t,
                python_t,
            )


_queue: queue.Queue = queue.Queue()
_worker: list[threading.Thread] = []
_worker_lock = threading.Lock()


def _work() -> None:
    while True:
        tier = _queue.get()
        try:
            tier.build(trial=True)
        finally:
            _queue.task_done()


def _submit(tier: Tier) -> None:
    with _worker_lock:
        if not _worker:
            t = threading.Thread(target=_work, name="jaxlite-native", daemon=True)
            t.start()
            _worker.append(t)
    _queue.put(tier)


def wait_for_compiles(timeout: float | None = None) -> bool:
    """Block until queued native compiles are done (tests, benchmarks). True if idle."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while _queue.unfinished_tasks:
        if deadline is not None and time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def _new_tier(closed: ClosedJaxpr, parallel: bool = False, threads: bool = False) -> Tier:
    tier = Tier(closed, parallel, threads)
    if mode() == "always":
        tier.state = "queued"
        tier.build()
    return tier


# --------------------------------------------------------------------- codegen hooks
def tier_lines(ctx, eqn, ins: list[str], outs: list[str], python_lines: list[str]) -> list[str]:
    """Wrap a loop equation's Python lines (``python_lines``) in a tier switch, when the
    loop is in the native subset; otherwise return them unchanged."""
    if eqn.primitive not in rules.native_loops or not outs:
        return python_lines
    if eqn.primitive is native_region_p and eqn.params.get("threads"):
        tier = _new_tier(eqn.params["jaxpr"], threads=True)
    else:
        sub = _single_eqn_jaxpr(eqn)
        if not enabled() or not _supported(sub):
            return python_lines
        tier = _new_tier(sub, parallel=eqn.primitive is native_region_p)
    if tier.state == "failed":
        return python_lines
    name = ctx.add_global(tier, "_tier")
    perf = ctx.add_global(time.perf_counter, "_perf")
    t0 = ctx.fresh("_t")
    args = [n for n, v in zip(ins, eqn.invars) if type(v) is not Literal]
    target = f"{', '.join(outs)}{',' if len(outs) == 1 else ''}"
    return (
        [f"if {name}.kernel is not None:", f"    {target} = {name}.kernel({', '.join(args)})"]
        + ["else:", f"    {t0} = {perf}()"]
        + ["    " + line for line in python_lines]
        + [f"    {name}.tick({perf}() - {t0})"]
    )


def _single_eqn_jaxpr(eqn) -> ClosedJaxpr:
    """``eqn`` alone as a jaxpr taking its non-literal operands (literals stay literals and
    become kernel constants)."""
    new_in = [v if type(v) is Literal else Var(v.aval) for v in eqn.invars]
    invars = [v for v in new_in if type(v) is not Literal]
    outvars = [Var(v.aval) for v in eqn.outvars]
    new_eqn = JaxprEqn(eqn.primitive, new_in, outvars, eqn.params, eqn.effects)
    return ClosedJaxpr(Jaxpr([], invars, outvars, [new_eqn]), [])


# ----------------------------------------------------------------- fused regions
native_region_p = Primitive("native_region", multiple_results=True)
rules.native_loops.add(native_region_p)


def _region_lower(ctx, eqn, ins, outs):
    # The Python tier: the region's equations inline, as they were before outlining.
    body, res = ctx.inline(eqn.params["jaxpr"], ins, manage_buffers=True)
    return body + [f"{o} = {r}" for o, r in zip(outs, res) if o != r]


def _region_native(ctx, eqn, ins, outs):
    # One loop over the lanes when the region is lane-wise, else NumPy-style array code.
    got = ctx.emit_lanes(eqn.params["jaxpr"], ins)
    body, res = got if got is not None else ctx.emit(eqn.params["jaxpr"], ins)
    return body + [f"{o} = {r}" for o, r in zip(outs, res) if o != r]


rules.abstract_eval_rules[native_region_p] = lambda *avals, jaxpr: list(jaxpr.out_avals)
rules.lower_rules[native_region_p] = _region_lower
rules.native_rules[native_region_p] = _region_native


# Dtypes of blocked NumPy regions: Numba's, and the 16-bit floats it lacks.
_BLOCK_DTYPES = frozenset(_DTYPES) | {dtypes.float16, dtypes.bfloat16}


def _blockable(eqn, shape: tuple) -> bool:
    """Is ``eqn`` elementwise on ``shape`` (operands of that shape or scalars), so that
    running it on flat blocks of its operands gives the same elements?"""
    return (
        eqn.primitive in rules.native_elementwise
        and eqn.primitive in rules.impl_rules
        and not eqn.effects
        and not _sub_closed(eqn.params)
        and bool(eqn.outvars)
        and all(
            tuple(v.aval.shape) == shape and getattr(v.aval, "dtype", None) in _BLOCK_DTYPES
            for v in eqn.outvars
        )
        and all(
            tuple(v.aval.shape) in (shape, ()) and getattr(v.aval, "dtype", None) in _BLOCK_DTYPES
            for v in eqn.invars
        )
    )


def _eqn_supported(eqn) -> bool:
    return (
        not _sub_closed(eqn.params)
        and eqn.primitive in rules.native_rules
        and not eqn.effects
        and all(_aval_ok(v.aval) for v in list(eqn.invars) + list(eqn.outvars))
    )


def _runs(eqns, ok: Callable, key: Callable = lambda e: None) -> list[tuple[int, int]]:
    """Maximal runs of consecutive equations passing ``ok`` with equal ``key``."""
    runs, start, k0 = [], None, None
    for i, e in enumerate(list(eqns) + [None]):
        k = key(e) if e is not None else None
        good = e is not None and ok(e, k)
        if start is not None and (not good or k != k0):
            runs.append((start, i))
            start = None
        if good and start is None:
            start, k0 = i, k
    return runs


def _find_regions(eqns, min_size: int) -> list[tuple[int, int, bool]]:
    """(start, stop, blocked) of each region, in program order. Elementwise runs on one
    shape with NumPy-SIMD functions, with 16-bit floats, or any when Numba is absent are
    blocked NumPy regions; other runs of native-subset equations are Numba regions."""

    def big(run):
        return run[1] - run[0] >= _REGION_MIN_EQNS and any(
            math.prod(v.aval.shape) >= min_size for q in eqns[run[0] : run[1]] for v in q.outvars
        )

    def simd(run):
        return any(str(q.primitive) in _NUMPY_SIMD for q in eqns[run[0] : run[1]])

    numba = numba_installed()
    shape_of = lambda e: tuple(e.outvars[0].aval.shape) if e.outvars else None  # noqa: E731
    blocked = [
        r
        for r in _runs(eqns, lambda e, k: k is not None and _blockable(e, k), shape_of)
        if big(r)
        and (not numba or simd(r) or not all(_eqn_supported(q) for q in eqns[r[0] : r[1]]))
    ]
    taken = {id(eqns[i]) for a, b in blocked for i in range(a, b)}
    compiled = []
    if numba:
        ok = lambda e, k: (  # noqa: E731
            id(e) not in taken and str(e.primitive) not in _NOT_IN_REGIONS and _eqn_supported(e)
        )
        compiled = [r for r in _runs(eqns, ok) if big(r) and not simd(r)]
    return sorted([(a, b, True) for a, b in blocked] + [(a, b, False) for a, b in compiled])


def _hoist_scalars(jaxpr: Jaxpr) -> list:
    """``jaxpr``'s equations with the pure scalar ones that need only literals, inputs and
    constants (e.g. shard_map's ``pvary`` of a literal) moved first, in order, so they do
    not split an elementwise run."""
    ready = {id(v) for v in list(jaxpr.invars) + list(jaxpr.constvars)}
    first, rest = [], []
    for e in jaxpr.eqns:
        if (
            not e.effects
            and not _sub_closed(e.params)
            and all(v.aval.shape == () for v in e.outvars)
            and all(type(v) is Literal or id(v) in ready for v in e.invars)
        ):
            first.append(e)
            ready.update(id(v) for v in e.outvars)
        else:
            rest.append(e)
    return first + rest


def outline_regions(closed: ClosedJaxpr, min_size: int | None = None) -> ClosedJaxpr:
    """``closed`` with each long run of consecutive native-subset equations (no control
    flow, no effects) that produces a large array replaced by one ``native_region``
    equation (its own tier: a Numba kernel compiled with ``parallel=True``, or a blocked
    NumPy function, see ``_find_regions``). Runs keep program order."""
    jaxpr = closed.jaxpr
    eqns = _hoist_scalars(jaxpr)
    runs = _find_regions(eqns, _REGION_MIN_SIZE if min_size is None else min_size)
    if not runs:
        return closed
    later_uses: list[set[int]] = [set() for _ in range(len(eqns) + 1)]
    used = {id(v) for v in jaxpr.outvars if type(v) is not Literal}
    for i in range(len(eqns) - 1, -1, -1):
        later_uses[i + 1] = set(used)
        used |= {id(v) for v in eqns[i].invars if type(v) is not Literal}
    new_eqns, pos = [], 0
    for start, stop, threads in runs:
        new_eqns.extend(eqns[pos:start])
        run = eqns[start:stop]
        defined = {id(v) for e in run for v in e.outvars}
        ins, seen = [], set()
        for e in run:
            for v in e.invars:
                if type(v) is not Literal and id(v) not in defined and id(v) not in seen:
                    seen.add(id(v))
                    ins.append(v)
        after = later_uses[stop]
        outs = [v for e in run for v in e.outvars if id(v) in after]
        # The region body reads its own copies of the inputs.
        sub_in = [Var(v.aval) for v in ins]
        rename = {id(v): n for v, n in zip(ins, sub_in)}
        sub_eqns = [
            JaxprEqn(
                e.primitive,
                [rename.get(id(v), v) if type(v) is not Literal else v for v in e.invars],
                e.outvars,
                e.params,
                e.effects,
            )
            for e in run
        ]
        sub = ClosedJaxpr(Jaxpr([], sub_in, outs, sub_eqns), [])
        params = {"jaxpr": sub, "threads": threads}
        new_eqns.append(JaxprEqn(native_region_p, ins, outs, params, ()))
        pos = stop
    new_eqns.extend(eqns[pos:])
    out = Jaxpr(jaxpr.constvars, jaxpr.invars, jaxpr.outvars, new_eqns)
    return ClosedJaxpr(out, closed.consts)
