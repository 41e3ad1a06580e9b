"""Workload registry for ``benchmarks/run.py``.

A workload is a function ``setup(lib) -> callable``: given a library namespace (``lib.jax``,
``lib.jnp``, ``lib.lax``, ``lib.name`` = "jaxlite", "jax" or "numpy") it prepares inputs
and returns a zero-argument callable to time (``run.py`` blocks on its result). Return
``None`` when the workload does not apply to that library. Register it with::

    from registry import workload

    @workload("scan_sum", "lax.scan summing float32[1000]", target="<= 1.0x JAX")
    def _(lib):
        xs = lib.jnp.arange(1000.0)
        f = lib.jax.jit(lambda xs: lib.lax.scan(lambda c, x: (c + x, c), 0.0, xs))
        return lambda: f(xs)

``numpy=True`` also runs the setup with ``lib.name == "numpy"`` (``lib.jax`` is then None)
for a hand-written NumPy baseline. ``per=N, unit="step"`` says that one timed call does N
units of work (scan steps, calls in a Python loop); the table then reports time per unit.
``interleave=True`` times jaxlite and the NumPy baseline in turn, one sample of each at a
time (for a floor that must see the same load as jaxlite, like the callback rows').

``children=True`` says that the timed call runs child processes (``import_time``): with
``--timer cpu`` their CPU time is added to the process's own (``time.process_time`` alone
would not see it).

``target`` is a phrase that ``run.py`` checks when it has the figures it needs:
``"<= R x JAX"`` or ``"<= R x ... NumPy"`` (jaxlite's time over the other library's), or
``"<= T us/step"`` (jaxlite's time per unit; ``ns``, ``us``, ``ms`` or ``s``). Text in
parentheses after it is commentary. Workloads live in ``benchmarks/workloads_*.py`` (each
file is imported by ``run.py``).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable


@dataclasses.dataclass
class Workload:
    name: str
    description: str
    setup: Callable
    target: str | None = None
    numpy: bool = False
    # Each timed call does fresh work (e.g. a first call that traces and compiles).
    fresh: bool = False
    # One timed call does ``per`` units of work; times are reported per ``unit``.
    per: int = 1
    unit: str = "call"
    # Time jaxlite and the NumPy baseline in turn (a floor measured alongside); off for
    # BLAS rows, where the baseline's own OpenBLAS threads would disturb jaxlite's samples.
    interleave: bool = False
    # The timed call runs child processes: ``--timer cpu`` counts their CPU time too.
    children: bool = False


WORKLOADS: dict[str, Workload] = {}


def workload(
    name: str,
    description: str,
    *,
    target: str | None = None,
    numpy: bool = False,
    fresh: bool = False,
    per: int = 1,
    unit: str = "call",
    interleave: bool = False,
    children: bool = False,
):
    """Decorator registering ``setup`` under ``name`` (see the module docstring)."""

    def deco(setup):
        if name in WORKLOADS:
            raise ValueError(f"duplicate benchmark workload {name!r}")
        WORKLOADS[name] = Workload(
            name, description, setup, target, numpy, fresh, per, unit, interleave, children
        )
        return setup

    return deco


def hot(lib, call, timeout: float = 300.0):
    """Call ``call`` until a native kernel compiled for it is in use (jaxlite only): a
    workload's setup uses it to time the native tier, as a long-running program sees it."""
    if lib.name != "jaxlite":
        return call()
    from jaxlite._src.compile import native

    # A blocked NumPy region is built on the calling thread, possibly in the first call
    # (by the background thread if its Numba loops are not loaded yet).
    done0 = native.stats["compiled"] + native.stats["failed"]
    out = call()
    if not native.active():
        return out
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        out = call()
        if native.stats["compiled"] + native.stats["failed"] > done0:
            native.wait_for_compiles(timeout)
            break
    return call()
