"""``jax.named_scope`` / ``jax.named_call``: names for parts of a computation.

JAX records the name stack in each equation's source info for profilers and HLO dumps.
jaxlite has neither, so names only live on a thread-local stack (``current_name_stack``)
that tools may read; computations are unchanged, exactly as in JAX.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator


class _NameStack(threading.local):
    def __init__(self):
        self.names: list[str] = []


_stack = _NameStack()


def current_name_stack() -> str:
    """The active scope names joined with ``/`` (``""`` outside any scope)."""
    return "/".join(_stack.names)


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """Run the enclosed operations under the scope ``name`` (``jax.named_scope``).

    Raises:
      TypeError: if ``name`` is not a string.
    """
    if not isinstance(name, str):
        raise TypeError("named_scope name must be a string.")
    _stack.names.append(name)
    try:
        yield
    finally:
        _stack.names.pop()


def named_call(fun: Callable, *, name: str | None = None) -> Callable:
    """``fun`` whose calls run under ``named_scope(name or fun.__name__)`` (``jax.named_call``)."""
    scope = name if name is not None else getattr(fun, "__name__", "named_call")

    @functools.wraps(fun)
    def named(*args, **kwargs):
        with named_scope(scope):
            return fun(*args, **kwargs)

    return named
