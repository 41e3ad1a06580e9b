"""``jax.monitoring``: listeners for named events, durations and scalars.

jaxlite emits no events of its own; the ``record_*`` calls of libraries reach every
registered listener.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_event_listeners: list[Callable] = []
_event_duration_listeners: list[Callable] = []
_event_time_span_listeners: list[Callable] = []
_scalar_listeners: list[Callable] = []


def record_event(event: str, **kwargs: Any) -> None:
    """Tell every event listener that ``event`` happened."""
    for f in list(_event_listeners):
        f(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: Any) -> None:
    """Tell every duration listener that ``event`` took ``duration`` seconds."""
    for f in list(_event_duration_listeners):
        f(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float, **kwargs) -> None:
    for f in list(_event_time_span_listeners):
        f(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float | int, **kwargs: Any) -> None:
    for f in list(_scalar_listeners):
        f(event, value, **kwargs)


def register_event_listener(callback: Callable) -> None:
    _event_listeners.append(callback)


def register_event_duration_secs_listener(callback: Callable) -> None:
    _event_duration_listeners.append(callback)


def register_event_time_span_listener(callback: Callable) -> None:
    _event_time_span_listeners.append(callback)


def register_scalar_listener(callback: Callable) -> None:
    _scalar_listeners.append(callback)


def _unregister(listeners: list, callback: Callable) -> None:
    if callback not in listeners:
        raise AssertionError(f"The given listener {callback} is not registered.")
    listeners.remove(callback)


def unregister_event_listener(callback: Callable) -> None:
    _unregister(_event_listeners, callback)


def unregister_event_duration_listener(callback: Callable) -> None:
    _unregister(_event_duration_listeners, callback)


def unregister_event_time_span_listener(callback: Callable) -> None:
    _unregister(_event_time_span_listeners, callback)


def unregister_scalar_listener(callback: Callable) -> None:
    _unregister(_scalar_listeners, callback)


def clear_event_listeners() -> None:
    for listeners in (
        _event_listeners,
        _event_duration_listeners,
        _event_time_span_listeners,
        _scalar_listeners,
    ):
        listeners.clear()
