"""Adaptive BLAS threading for compiled functions dominated by matrix products.

OpenBLAS (what NumPy's wheels ship) splits each large product statically across its
threads, one per core. When another process keeps a core busy, the share of the thread on
that core waits for its time slice and the whole product stalls: on the 2-core machine of
``docs/benchmarks.md``, a 3 ms training step took 120-450 ms with one core busy, and 15-19
ms with one BLAS thread. On a quiet machine all threads win (about 1.7x on 2 cores). No
fixed setting is right on a shared machine, so a compiled function with a large matrix
product measures both settings as it runs (``ThreadChoice``): it runs with the setting
whose recent calls were faster and re-tries the other now and then, less and less often
while the other keeps losing, so that a losing setting costs a few percent at most.

Only OpenBLAS is controlled, through its own ``*_set_num_threads`` entry point found with
ctypes in the loaded libraries; with another BLAS (or none found) compiled functions run
unchanged, and ``JAXLITE_ADAPTIVE_BLAS=0`` turns this off. The thread count is restored
after every call. It is process-wide, so two
threads running such functions at once may see each other's setting (a speed effect,
never a numerical one: OpenBLAS results do not depend on its thread count here).
"""

from __future__ import annotations

import ctypes
import glob
import os
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src.core.ir import Jaxpr, subjaxprs

# A product of at least this many multiply-adds is split across threads by OpenBLAS (its
# own threshold is lower; below this the setting makes no measurable difference).
HEAVY_FLOPS = 4_000_000

_SYMBOLS = [
    ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
    ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
    ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
    ("openblas_set_num_threads", "openblas_get_num_threads"),
]


def _candidate_libraries() -> list[str]:
    paths = []
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.rsplit(" ", 1)[-1].strip()
                if "openblas" in os.path.basename(path).lower() and path not in paths:
                    paths.append(path)
    except OSError:
        pass
    libs_dir = os.path.join(os.path.dirname(os.path.dirname(np.__file__)), "numpy.libs")
    paths += [p for p in glob.glob(os.path.join(libs_dir, "*openblas*")) if p not in paths]
    return paths


def _find_openblas() -> tuple[Callable, Callable] | None:
    """``(set_num_threads, get_num_threads)`` of the loaded OpenBLAS, or None."""
    for path in _candidate_libraries():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _SYMBOLS:
            setter, getter = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if setter is not None and getter is not None:
                setter.argtypes, setter.restype = [ctypes.c_int], None
                getter.argtypes, getter.restype = [], ctypes.c_int
                return setter, getter
    return None


_openblas = _find_openblas()


def _dot_flops(eqn) -> int:
    (xc, _), _ = eqn.params["dimension_numbers"]
    x_shape = eqn.invars[0].aval.shape
    contracted = int(np.prod([x_shape[d] for d in xc], dtype=np.int64)) if xc else 1
    return int(np.prod(eqn.outvars[0].aval.shape, dtype=np.int64)) * contracted


def has_heavy_product(jaxpr: Jaxpr) -> bool:
    """Does ``jaxpr`` (or a body in it) hold a matrix product of ``HEAVY_FLOPS`` or more?"""
    for eqn in jaxpr.eqns:
        if eqn.primitive.name == "dot_general" and _dot_flops(eqn) >= HEAVY_FLOPS:
            return True
    return any(has_heavy_product(sub) for sub in subjaxprs(jaxpr))


class ThreadChoice:
    """Which of two ``choices`` (thread counts) to run the next call with, from measured
    call times.

    Each choice is judged by the fastest of its last ``keep`` calls (preemption only ever
    adds time, so the minimum is the steady cost). The faster choice runs; the other is
    re-tried after ``explore`` calls, an interval that doubles (up to ``max_explore``) each
    time the re-try loses and resets when it wins.
    """

    def __init__(
        self, choices: Sequence[int], explore: int = 8, max_explore: int = 512, keep: int = 3
    ):
        self.choices = tuple(choices)
        self.samples: list[list[float]] = [[] for _ in self.choices]
        self.base_explore = self.explore = explore
        self.max_explore = max_explore
        self.keep = keep
        self.since = 0

    def cost(self, i: int) -> float:
        s = self.samples[i]
        return min(s) if s else 0.0

    def best(self) -> int:
        return min(range(len(self.choices)), key=self.cost)

    def pick(self) -> int:
        """Index of the choice for the next call."""
        for i, s in enumerate(self.samples):
            if not s:
                return i
        if len(self.choices) < 2:
            return 0
        self.since += 1
        if self.since >= self.explore:
            self.since = 0
            return 1 - self.best()
        return self.best()

    def record(self, i: int, seconds: float) -> None:
        explored = len(self.choices) == 2 and all(self.samples) and i != self.best()
        s = self.samples[i]
        s.append(seconds)
        if len(s) > self.keep:
            del s[0]
        if explored:
            if self.best() == i:
                self.explore = self.base_explore
            else:
                self.explore = min(2 * self.explore, self.max_explore)


class AdaptiveBlasThreads:
    """A compiled function run with the BLAS thread count ``ThreadChoice`` picks."""

    __slots__ = ("fn", "choice", "set_threads", "get_threads", "__jaxlite_source__")

    def __init__(self, fn: Callable, set_threads: Callable, get_threads: Callable):
        self.fn = fn
        self.set_threads, self.get_threads = set_threads, get_threads
        n = max(int(get_threads()), 1)
        self.choice = ThreadChoice((n, 1) if n > 1 else (n,))
        self.__jaxlite_source__ = getattr(fn, "__jaxlite_source__", None)

    def __call__(self, *args: Any) -> Any:
        choice = self.choice
        i = choice.pick()
        k = choice.choices[i]
        prev = self.get_threads()
        if k != prev:
            self.set_threads(k)
        t0 = time.perf_counter()
        try:
            return self.fn(*args)
        finally:
            choice.record(i, time.perf_counter() - t0)
            if k != prev:
                self.set_threads(prev)


def adapt_blas_threads(fn: Callable, jaxpr: Jaxpr) -> Callable:
    """``fn`` wrapped in ``AdaptiveBlasThreads`` when ``jaxpr`` has a heavy matrix product,
    OpenBLAS is found and it has more than one thread; otherwise ``fn`` itself."""
    if _openblas is None or os.environ.get("JAXLITE_ADAPTIVE_BLAS") == "0":
        return fn
    if not has_heavy_product(jaxpr):
        return fn
    setter, getter = _openblas
    if getter() <= 1:
        return fn
    return AdaptiveBlasThreads(fn, setter, getter)
