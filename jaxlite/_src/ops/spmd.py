"""The per-device runtime of ``shard_map``: device contexts and value exchange.

``shard_map`` runs its body once per device (per position of the manual sub-mesh), each on
its own thread. Collective primitives (``ops/parallel.py``) evaluated on such a thread find
its ``DeviceContext`` here and exchange values through the ``Exchange`` shared by the
threads of one execution:

* every device calls the same collectives in the same order (they run the same compiled
  body), so the k-th collective of every thread meets the others at one barrier;
* each thread writes its value into a slot, waits at the barrier, then reads the slots of
  its *group* (the devices that share its coordinates along the axes not reduced over).
  Slots alternate between two arrays, so one barrier per collective suffices: a thread can
  only overwrite slot array ``k % 2`` after every thread has passed barrier ``k + 1``,
  i.e. after it finished reading collective ``k``;
* results are computed in a fixed member order (position along the named axes), so they
  never depend on thread timing.

Across processes (``jax.distributed``), each process runs only the bodies of its own
devices (``local``): the barrier has one party per local device, and its action, run by one
local thread once all have written their slots, hands the local values to ``transport``
(the sharding layer's MPI exchange), which fills in every other process's slots. Every
device then reads the same complete slot list as in one process, so results are
bit-identical to a one-process run with the same number of devices.

While a body is traced, ``tracing_axes`` holds the manual axes it binds (name -> size), so
collectives can check their axis names at trace time (see ``parallel._bound_axes``).
"""

from __future__ import annotations

import itertools
import threading
from typing import Any

from jaxlite._src.core.avals import note_axis_order

# Seconds a device waits at a collective before giving up: a deadlock (collectives called
# a different number of times on different devices) raises instead of hanging.
BARRIER_TIMEOUT = 120.0


class DeviceContext:
    """What a device thread knows about itself: its position and the shared exchange."""

    __slots__ = ("exchange", "index", "coords", "parent")

    def __init__(self, exchange: Exchange, index: int, parent: DeviceContext | None = None):
        self.exchange = exchange
        self.index = index
        self.coords = exchange.coords[index]
        # The device of an enclosing shard_map this (nested) one runs on, if any.
        self.parent = parent

    def position(self, names: tuple) -> int:
        """This device's row-major index along ``names`` (the order given)."""
        return self.exchange.position(self.index, names)

    def group(self, names: tuple) -> list:
        """Flat indices of the devices exchanging with this one over ``names``, in order."""
        return self.exchange.group(self.index, names)

    def gather(self, value: Any) -> list:
        """Every device's ``value`` (a barrier: all devices must call it)."""
        return self.exchange.gather(self.index, value)


class Exchange:
    """Shared state of one ``shard_map`` execution over ``n`` devices.

    Args:
        axis_names: the manual axes, in mesh order.
        axis_sizes: their sizes.
        local: the flat indices of the devices run by this process (default: all).
        transport: ``transport(local, values, step, cancelled) -> list`` of every device's
            value (in flat order), given this process's ``values`` of collective number
            ``step``; ``cancelled()`` turns true when a local device failed. None in one
            process.
        timeout: seconds a device waits at a collective (default ``BARRIER_TIMEOUT``).
    """

    def __init__(
        self, axis_names: tuple, axis_sizes: tuple, local=None, transport=None, timeout=None
    ):
        self.axis_names = tuple(axis_names)
        self.axis_sizes = dict(zip(axis_names, axis_sizes))
        self.coords = [
            dict(zip(axis_names, c)) for c in itertools.product(*[range(s) for s in axis_sizes])
        ]
        self.n = len(self.coords)
        self.local = list(range(self.n)) if local is None else list(local)
        self.transport = transport
        self.barrier = threading.Barrier(
            max(1, len(self.local)),
            action=self._cross if transport is not None else None,
            timeout=BARRIER_TIMEOUT if timeout is None else timeout,
        )
        self._slots = ([None] * self.n, [None] * self.n)
        self._step = [0] * self.n
        self._current_step = 0
        self._failed = False
        self._groups: dict = {}
        # Lockstep host callbacks (``in_turn``): a barrier of their own (over this
        # process's devices) and a turn counter.
        self._turn_barrier = threading.Barrier(
            max(1, len(self.local)), timeout=BARRIER_TIMEOUT if timeout is None else timeout
        )
        self._turn_cv = threading.Condition()
        self._turn = 0
        self._rounds = [0] * self.n
        self._aborted = False

    def position(self, index: int, names: tuple) -> int:
        c = self.coords[index]
        p = 0
        for a in names:
            p = p * self.axis_sizes[a] + c[a]
        return p

    def group(self, index: int, names: tuple) -> list:
        key = (index, names)
        g = self._groups.get(key)
        if g is None:
            mine = self.coords[index]
            others = [a for a in self.axis_names if a not in names]
            members = [j for j, c in enumerate(self.coords) if all(c[a] == mine[a] for a in others)]
            members.sort(key=lambda j: self.position(j, names))
            g = self._groups[key] = members
        return g

    def gather(self, index: int, value: Any) -> list:
        k = self._step[index]
        self._step[index] = k + 1
        slots = self._slots[k % 2]
        slots[index] = value
        self._current_step = k  # the same k on every local thread
        self.barrier.wait()
        return list(slots)

    def _cross(self) -> None:
        # The barrier action: one local thread, after every local slot is written.
        k = self._current_step
        slots = self._slots[k % 2]
        every = self.transport(self.local, [slots[i] for i in self.local], k, lambda: self._failed)
        slots[:] = every

    def in_turn(self, index: int, fn) -> Any:
        """Run ``fn()`` on every (local) device, one after the other in device order, after
        all of them got here: an effect at the top level of a body happens on all devices
        before the next one starts (JAX's eager shard_map order). Every device must call it
        (the same top-level sequence runs everywhere). ``fn=None``: only wait for the
        others."""
        self._turn_barrier.wait()
        if fn is None:
            return None
        r = self._rounds[index]
        self._rounds[index] = r + 1
        nl = len(self.local)
        mine = r * nl + (index if nl == self.n else self.local.index(index))
        with self._turn_cv:
            while self._turn != mine:
                if self._aborted:
                    raise threading.BrokenBarrierError
                self._turn_cv.wait(BARRIER_TIMEOUT)
        try:
            return fn()
        except BaseException:
            self.abort()
            raise
        finally:
            with self._turn_cv:
                self._turn = mine + 1
                self._turn_cv.notify_all()

    def abort(self) -> None:
        # The flag first: a barrier action waiting on other processes holds the barrier's
        # lock, and gives up (``cancelled()``) when it sees the flag.
        self._failed = True
        self.barrier.abort()
        self._turn_barrier.abort()
        with self._turn_cv:
            self._aborted = True
            self._turn_cv.notify_all()


class _TLS(threading.local):
    def __init__(self):
        self.ctx: DeviceContext | None = None
        self.tracing_axes: list = []
        self.partial: list = []
        self.vma: list = []


_tls = _TLS()


def current() -> DeviceContext | None:
    """The device context of this thread (None outside a shard_map execution)."""
    return _tls.ctx


def set_current(ctx: DeviceContext | None) -> None:
    _tls.ctx = ctx


def tracing_axes() -> dict:
    """Manual axes bound by the shard_map bodies being traced (innermost last)."""
    env: dict = {}
    for axes in _tls.tracing_axes:
        env.update(axes)
    return env


def vma_axes() -> frozenset:
    """The manual axes bound, while tracing, by shard_map bodies with ``check_vma=True``:
    values vary along these axes in their types (``axis_index`` results, pvary...)."""
    out: frozenset = frozenset()
    for axes in _tls.vma:
        out = out | axes
    return out


def tracing_partial() -> bool:
    """Whether a shard_map body being traced leaves some mesh axes automatic."""
    return any(_tls.partial)


class binding_axes:  # noqa: N801
    """Context manager: the manual axes ``axes`` (name -> size, in mesh order) are bound
    while tracing; ``partial``: the mesh has automatic axes too; ``check_vma``: values'
    types track the axes they vary along (shard_map's ``check_vma=True``)."""

    def __init__(self, axes: dict, partial: bool = False, check_vma: bool = False):
        self.axes = dict(axes)
        self.partial = partial
        self.vma = frozenset(self.axes) if check_vma else frozenset()
        note_axis_order(self.axes)

    def __enter__(self):
        _tls.tracing_axes.append(self.axes)
        _tls.partial.append(self.partial)
        _tls.vma.append(self.vma)
        return self

    def __exit__(self, *exc):
        _tls.tracing_axes.pop()
        _tls.partial.pop()
        _tls.vma.pop()
        return False


__all__ = [
    "DeviceContext",
    "Exchange",
    "binding_axes",
    "current",
    "set_current",
    "tracing_axes",
    "tracing_partial",
    "vma_axes",
]
