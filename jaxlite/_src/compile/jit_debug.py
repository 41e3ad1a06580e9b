"""``jit``'s debugging flags: ``jax_no_tracing``, ``jax_log_compiles`` and
``jax_check_tracer_leaks`` (what a trace cache miss checks and logs)."""

from __future__ import annotations

import gc
import logging

from jaxlite._src import config as _cfg
from jaxlite._src.core.trace import Tracer
from jaxlite._src.util import function_where

_logger = logging.getLogger("jaxlite._src.compile.jit")


def live_tracers() -> tuple[list, set]:
    """The live tracers and their traces, and the set of their ids (the list keeps them
    alive until the check is done, so no new object can reuse one of those ids)."""
    gc.collect()
    # type(), not isinstance: some objects (lazy module proxies) compute __class__.
    tracers = [o for o in gc.get_objects() if issubclass(type(o), Tracer)]
    keep = tracers + [o._trace for o in tracers]
    return keep, {id(o) for o in keep}


def refuse_trace(fun) -> None:
    """``jax_no_tracing``: a jit cache miss is an error (JAX's RuntimeError and message)."""
    raise RuntimeError(
        f"re-tracing function {function_where(fun)} for `jit`, but 'no_tracing' is set"
    )


def debug_after_trace(wrapped, avals, seconds, before) -> None:
    """``jax_log_compiles``: log the trace; ``jax_check_tracer_leaks`` (``before``: what
    ``live_tracers`` found before tracing): raise if a tracer made by this trace is still
    referenced (after a collection, only leaks keep one alive)."""
    name = getattr(wrapped._fun, "__name__", type(wrapped._fun).__name__)
    if _cfg.config.read("jax_log_compiles"):
        _logger.warning("Finished tracing + transforming %s for jit in %.9f sec", name, seconds)
        types = ", ".join(
            f"ShapedArray({a.str_short()})" if hasattr(a, "str_short") else str(a) for a in avals
        )
        _logger.warning("Compiling jit(%s) with global shapes and types (%s).", name, types)
    if before is not None:
        gc.collect()
        leaked = [
            o
            for o in gc.get_objects()
            if issubclass(type(o), Tracer)
            and id(o) not in before[1]
            and id(o._trace) not in before[1]
            and not o._trace.is_valid()
        ]
        if leaked:
            shown = "\n".join(f"{type(t).__name__}({t.aval.str_short()})" for t in leaked[:5])
            raise Exception(  # noqa: TRY002 (JAX raises a plain Exception here)
                f"Leaked trace {type(leaked[0]._trace).__name__}. Leaked tracer(s):\n\n{shown}\n"
                f"The tracer(s) were created while tracing the function {name} for jit and "
                "are still referenced after it finished (stored in a global, a closure or an "
                "object attribute). Return the values from the function instead."
            )
