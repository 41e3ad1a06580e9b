"""``jax.profiler`` on a host-only engine.

JAX's profiler records device and host activity into TensorBoard/XPlane traces. jaxlite runs
entirely in Python, so a trace here is Python's own profiler: ``start_trace(log_dir)`` starts
``cProfile`` and ``stop_trace()`` writes the statistics (``pstats`` format, readable with
``python -m pstats`` or snakeviz) to ``log_dir/plugins/profile/<timestamp>/<host>.prof``, the
directory layout TensorBoard's profile plugin uses. Annotations (``TraceAnnotation``,
``StepTraceAnnotation``, ``annotate_function``) are accepted and cost nothing, as JAX's do
when no trace is being collected. The memory profile and the profiler server need XLA and
raise ``NotImplementedError``.
"""

from __future__ import annotations

import contextlib
import cProfile
import functools
import os
import threading
import time
from collections.abc import Callable

_lock = threading.Lock()
_active: dict = {}


class ProfileOptions:
    """``jax.profiler.ProfileOptions``: accepted and stored; jaxlite's Python profiler has
    no tracer levels to set."""

    def __init__(self):
        self.host_tracer_level = 2
        self.python_tracer_level = 0
        self.enable_hlo_proto = True
        self.include_dataset_ops = True
        self.duration_ms = 0
        self.start_timestamp_ns = 0
        self.repository_path = ""
        self.session_id = ""
        self.raise_error_on_start_failure = False
        self.advanced_configuration = {}


def start_trace(
    log_dir,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: ProfileOptions | None = None,
) -> None:
    """``jax.profiler.start_trace``: start profiling this process (Python's ``cProfile``).

    Raises:
      RuntimeError: a trace is already running.
      NotImplementedError: ``create_perfetto_link`` or ``create_perfetto_trace``.
    """
    del profiler_options
    if create_perfetto_link or create_perfetto_trace:
        raise NotImplementedError("jaxlite's traces are cProfile statistics, not Perfetto traces")
    with _lock:
        if _active:
            raise RuntimeError(
                "Profile has already been started. Only one profile may be run at a time."
            )
        prof = cProfile.Profile()
        _active.update(profile=prof, log_dir=os.fspath(log_dir))
        prof.enable()


def stop_trace() -> None:
    """``jax.profiler.stop_trace``: stop the trace and write it under its ``log_dir``.

    Raises:
      RuntimeError: no trace is running ("No profile started", as JAX).
    """
    with _lock:
        if not _active:
            raise RuntimeError("No profile started")
        prof, log_dir = _active.pop("profile"), _active.pop("log_dir")
        prof.disable()
    stamp = time.strftime("%Y_%m_%d_%H_%M_%S")
    out = os.path.join(log_dir, "plugins", "profile", stamp)
    os.makedirs(out, exist_ok=True)
    prof.dump_stats(os.path.join(out, f"{_host()}.prof"))


def _host() -> str:
    return os.uname().nodename if hasattr(os, "uname") else "localhost"


@contextlib.contextmanager
def trace(
    log_dir,
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: ProfileOptions | None = None,
):
    """``jax.profiler.trace``: ``start_trace`` on entry, ``stop_trace`` on exit."""
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    try:
        yield
    finally:
        stop_trace()


class TraceAnnotation:
    """``jax.profiler.TraceAnnotation(name, **kwargs)``: a context manager naming a region of
    host code in a trace. Accepted; jaxlite's cProfile traces name regions by function."""

    def __init__(self, name: str, **kwargs):
        self.name, self.kwargs = name, kwargs

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class StepTraceAnnotation(TraceAnnotation):
    """``jax.profiler.StepTraceAnnotation(name, step_num=...)``: a training-step region."""


def annotate_function(func: Callable, name: str | None = None, **decorator_kwargs):
    """``jax.profiler.annotate_function``: ``func`` wrapped so that each call runs inside a
    ``TraceAnnotation`` (named ``name`` or the function's name)."""
    label = name or getattr(func, "__qualname__", repr(func))

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper


def _no_xla(what: str):
    raise NotImplementedError(f"jax.profiler.{what} needs XLA's profiler; jaxlite has none")


def device_memory_profile(backend: str | None = None) -> bytes:
    """``jax.profiler.device_memory_profile``: not available (raises NotImplementedError)."""
    _no_xla("device_memory_profile")


def save_device_memory_profile(filename, backend: str | None = None) -> None:
    """``jax.profiler.save_device_memory_profile``: not available (NotImplementedError)."""
    _no_xla("save_device_memory_profile")


def start_server(port: int, requires_backend: bool = True):
    """``jax.profiler.start_server``: not available (NotImplementedError)."""
    _no_xla("start_server")


def stop_server():
    """``jax.profiler.stop_server``: not available (NotImplementedError)."""
    _no_xla("stop_server")


def register_subprocess(pid: int, port: int):
    """``jax.profiler.register_subprocess``: not available (NotImplementedError)."""
    _no_xla("register_subprocess")
