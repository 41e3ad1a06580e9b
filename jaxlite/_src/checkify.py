"""``jax.experimental.checkify``: value-dependent checks that work under jit and grad.

Design: JAX functionalizes checks (the error becomes an extra output threaded through
every primitive). jaxlite runs every computation synchronously on the host, so checks are
host callbacks instead:

* ``checkify(f)`` brackets ``f`` with two unordered ``io_callback``s: one at the start opens
  a *runtime error record* (a thread-local stack), one at the end closes it and returns
  the index of the first failed check as an ``int32`` (``-1``: none). That index is the
  ``Error``'s only leaf, so ``Error`` is a real output of ``jit(checkify(f))``.
* ``check(pred, msg, *fmt_args)`` under checkify binds an ``io_callback`` that, when it
  runs, formats the message of a false predicate into the innermost open record. Eagerly,
  with concrete values and no checkify, it raises ``JaxRuntimeError`` at once, as JAX does;
  staged without checkify it raises ValueError (JAX's message).

Callbacks keep program order in generated code and are never removed by DCE, so every
check runs between the two brackets. Only user checks (``user_checks``) exist: the
automatic NaN / division / index checks JAX instruments primitives for are not
implemented and asking for them raises NotImplementedError.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from jaxlite._src import config as _cfg, tree_util, util as _util
from jaxlite._src.callbacks import io_callback
from jaxlite._src.core.array import Array
from jaxlite._src.core.shape_dtype import ShapeDtypeStruct
from jaxlite._src.core.trace import Tracer
from jaxlite._src.ops.structural import stop_gradient_p

Out = TypeVar("Out")


class JaxException(Exception):
    """Base class of the errors checkify reports."""


class FailedCheckError(JaxException):
    """A user ``check`` whose predicate was false."""


class NaNError(JaxException):
    """A NaN produced by a primitive (automatic check; not implemented in jaxlite)."""


class OOBError(JaxException):
    """An out-of-bounds index (automatic check; not implemented in jaxlite)."""


class DivisionByZeroError(JaxException):
    """A division by zero (automatic check; not implemented in jaxlite)."""


class JaxRuntimeError(ValueError):
    """Raised by ``Error.throw()``, ``check_error`` and eager failed checks."""


ErrorCategory = type[JaxException]

user_checks: frozenset = frozenset({FailedCheckError})
nan_checks: frozenset = frozenset({NaNError})
index_checks: frozenset = frozenset({OOBError})
div_checks: frozenset = frozenset({DivisionByZeroError})
float_checks: frozenset = nan_checks | div_checks
automatic_checks: frozenset = float_checks | index_checks
all_checks: frozenset = automatic_checks | user_checks

# Messages of failed checks, indexed by the int32 code an Error carries.
_messages: list[str] = []
_lock = threading.Lock()


class _Records(threading.local):
    def __init__(self):
        self.open: list[list[int]] = []  # runtime records: codes of failed checks
        self.tracing_depth = 0  # checkify wrappers being run (at trace or eager time)


_records = _Records()


def _store(message: str) -> int:
    with _lock:
        _messages.append(message)
        return len(_messages) - 1


@tree_util.register_pytree_node_class
class Error:
    """The outcome of a checkified function: the first failed check, if any.

    A pytree with one int32 leaf (the failed check's code, ``-1`` for none), so it can be
    returned from ``jit``.
    """

    def __init__(self, code: Any):
        self._code = code

    def tree_flatten(self):
        return (self._code,), None

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0])

    def _concrete_code(self) -> int:
        if isinstance(self._code, Tracer):
            raise ValueError(
                "checkify.Error.get() needs a concrete error; call it outside of jit/vmap"
            )
        codes = np.asarray(self._code).reshape(-1)
        failed = [int(c) for c in codes if int(c) >= 0]
        return failed[0] if failed else -1

    def get(self) -> str | None:
        """The failed check's message, or None if every check passed."""
        code = self._concrete_code()
        return None if code < 0 else _messages[code]

    def get_exception(self) -> JaxException | None:
        msg = self.get()
        return None if msg is None else FailedCheckError(msg)

    def throw(self) -> None:
        """Raise ``JaxRuntimeError`` if a check failed."""
        msg = self.get()
        if msg is not None:
            raise JaxRuntimeError(msg)

    def __str__(self):
        msg = self.get()
        return "Error(no error)" if msg is None else f"Error({msg})"

    __repr__ = __str__


def _check_format_args(fmt_args, fmt_kwargs) -> None:
    for x in tree_util.tree_leaves((fmt_args, fmt_kwargs)):
        if not isinstance(x, (Array, np.ndarray, np.generic)):
            raise TypeError(
                "Formatting arguments to checkify.check need to be PyTrees of arrays, but got "
                f"{x!r} of type {type(x)}."
            )


def _format(msg: str, fmt_args, fmt_kwargs) -> str:
    return msg.format(*fmt_args, **fmt_kwargs) + " (`check` failed)"


def _record(message: str) -> None:
    code = _store(message)
    if _records.open:
        _records.open[-1].append(code)
    else:  # a check whose checkify has already finished (a leaked function)
        raise JaxRuntimeError(message)


def _host_check(msg: str, pred, fmt_args, fmt_kwargs) -> None:
    pred = np.asarray(pred)
    if pred.all():
        return
    if pred.ndim == 0:
        _record(_format(msg, fmt_args, fmt_kwargs))
        return
    # Batched (vmapped) operands: one message per failing element, as JAX reports them.
    for idx in zip(*np.nonzero(~pred)):
        args, kwargs = tree_util.tree_map(lambda a: np.asarray(a)[idx], (fmt_args, fmt_kwargs))
        where = ", ".join(str(int(i)) for i in idx)
        _record(f"at mapped index {where}: " + _format(msg, args, kwargs))


def check(pred: Any, msg: str, *fmt_args: Any, debug: bool = False, **fmt_kwargs: Any) -> None:
    """Check that ``pred`` is true everywhere (``jax.experimental.checkify.check``).

    Args:
      pred: a boolean array (or scalar).
      msg: the error message; ``str.format`` placeholders are filled with ``fmt_args`` /
        ``fmt_kwargs``, which must be pytrees of arrays.
      debug: accepted for JAX compatibility (a debug check is reported the same way).

    Raises:
      JaxRuntimeError: eagerly, outside ``checkify``, when ``pred`` is false.
      ValueError: when staged (under jit/vmap/...) outside ``checkify``.
      TypeError: for formatting arguments that are not arrays.
    """
    del debug
    if not isinstance(msg, str):
        raise TypeError(f"Expected a string for the check message, got {type(msg)}")
    _check_format_args(fmt_args, fmt_kwargs)
    leaves = tree_util.tree_leaves((pred, fmt_args, fmt_kwargs))
    staged = any(isinstance(x, Tracer) for x in leaves)
    if _records.tracing_depth == 0:
        if staged:
            raise ValueError(
                "Cannot abstractly evaluate a checkify.check which was not functionalized. "
                "This probably means you tried to stage (jit/scan/pmap/...) a `check` "
                "without functionalizing it through `checkify.checkify`."
            )
        if not np.asarray(pred).all():
            raise JaxRuntimeError(_format(msg, fmt_args, fmt_kwargs))
        return
    # The callback only reads the values: no derivative flows through it.
    operands = tree_util.tree_map(_stop_gradient, (pred, fmt_args, fmt_kwargs))
    io_callback(functools.partial(_host_check, msg), None, *operands)


def _stop_gradient(x):
    return stop_gradient_p.bind(x) if isinstance(x, Tracer) else x


def _open_record() -> None:
    _records.open.append([])


def _close_record() -> np.ndarray:
    codes = _records.open.pop()
    return np.asarray(codes[0] if codes else -1, np.int32)


def checkify(f: Callable[..., Out], errors: frozenset = user_checks) -> Callable:
    """Make ``f`` return ``(Error, out)`` instead of raising on failed checks.

    Mirrors ``jax.experimental.checkify.checkify``; works eagerly and under jit, vmap and
    grad of the checkified function.

    Raises:
      NotImplementedError: if ``errors`` asks for automatic checks (NaN, division by zero,
        out-of-bounds indexing), which jaxlite does not instrument.
    """
    unsupported = frozenset(errors) - user_checks
    if unsupported:
        names = ", ".join(sorted(e.__name__ for e in unsupported))
        raise NotImplementedError(
            f"checkify: automatic checks ({names}) are not implemented in jaxlite; only "
            "user checks (checkify.user_checks) are"
        )

    @_util.wraps(f)
    def checked(*args, **kwargs):
        io_callback(_open_record, None)
        _records.tracing_depth += 1
        # Checks trace differently inside: name the context in jit's cache key.
        prev = _cfg.set_trace_context("checkify", True)
        try:
            out = f(*args, **kwargs)
        finally:
            _records.tracing_depth -= 1
            _cfg.set_trace_context("checkify", prev)
        code = io_callback(_close_record, ShapeDtypeStruct((), np.int32))
        return Error(code), out

    return checked


def check_error(error: Error) -> None:
    """Raise (eagerly) or re-check (under checkify) the failure recorded in ``error``."""
    if not isinstance(error, Error):
        raise TypeError(f"check_error takes a checkify.Error, got {type(error)}")
    code = error._code
    if not isinstance(code, Tracer) and _records.tracing_depth == 0:
        error.throw()
        return
    io_callback(_recheck, None, code)


def _recheck(code) -> None:
    for c in np.asarray(code).reshape(-1):
        if int(c) >= 0:
            _record(_messages[int(c)])
            return


def debug_check(pred: Any, msg: str, *fmt_args: Any, **fmt_kwargs: Any) -> None:
    """A check that is silently skipped outside ``checkify`` (JAX's ``debug_check``)."""
    if _records.tracing_depth == 0:
        return
    check(pred, msg, *fmt_args, **fmt_kwargs)
