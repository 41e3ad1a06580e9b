"""Traceback exclusions (``jax._src.traceback_util``, ``jax.extend.source_info_util``).

JAX hides its own frames from tracebacks; libraries register their files for the same
treatment. jaxlite does not filter tracebacks, so the registrations are recorded only.
"""

from __future__ import annotations

import functools

_exclude_paths: list[str] = []


def register_exclusion(path: str) -> None:
    """Record that frames from ``path`` would be hidden from user tracebacks."""
    _exclude_paths.append(path)


def include_frame(f) -> bool:
    """Whether a traceback frame is shown to the user (not in a registered file)."""
    return not any(f.f_code.co_filename.startswith(p) for p in _exclude_paths)


def api_boundary(fun=None, **_kwargs):
    """Decorator marking a public API entry point (a no-op: tracebacks are unfiltered)."""
    if fun is None:
        return api_boundary

    @functools.wraps(fun)
    def wrapper(*args, **kwargs):
        return fun(*args, **kwargs)

    return wrapper
