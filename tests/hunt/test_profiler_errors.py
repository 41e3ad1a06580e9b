"""jax.profiler (traces are cProfile statistics here; docs/compat.md) and the jax.errors
classes added in session 8."""

from __future__ import annotations

import pstats

import numpy as np
import pytest

import jaxlite
import jaxlite.errors
import jaxlite.numpy as jnp
import jaxlite.profiler as profiler


@pytest.mark.jaxlite_only  # JAX writes an XPlane trace; jaxlite a pstats file
def test_trace_writes_pstats(tmp_path):
    with profiler.trace(tmp_path):
        with profiler.TraceAnnotation("step", n=1):
            jaxlite.jit(lambda x: jnp.sin(x) * 2)(np.ones(3, np.float32))
    files = list((tmp_path / "plugins" / "profile").glob("*/*.prof"))
    assert len(files) == 1
    stats = pstats.Stats(str(files[0]))
    assert stats.total_calls > 0


def test_trace_start_stop_errors(tmp_path):
    with pytest.raises(RuntimeError, match="No profile started"):
        profiler.stop_trace()
    profiler.start_trace(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="already been started"):
            profiler.start_trace(tmp_path)
    finally:
        profiler.stop_trace()


def test_annotations():
    @profiler.annotate_function
    def f(x):
        """doc"""
        return x + 1

    assert f(2) == 3 and f.__name__ == "f" and f.__doc__ == "doc"
    g = profiler.annotate_function(lambda x: x * 2, name="double", tag=1)
    assert g(4) == 8
    with profiler.StepTraceAnnotation("train", step_num=3) as a:
        assert isinstance(a, profiler.TraceAnnotation)
    assert jaxlite.profiler is profiler


def test_error_classes():
    E = jaxlite.errors
    assert issubclass(E.JAXTypeError, TypeError) and issubclass(E.JAXIndexError, IndexError)
    assert issubclass(E.KeyReuseError, E.JAXTypeError)
    assert issubclass(E.JaxprTypeError, TypeError)
    assert issubclass(E.NonConcreteBooleanIndexError, E.JAXIndexError)
    assert issubclass(E.ConcretizationTypeError, E.JAXTypeError)
    # a TypeError as in JAX (callback fuzzer: an escaped tracer compared as TypeError)
    assert issubclass(E.UnexpectedTracerError, E.JAXTypeError)
    assert issubclass(E.InconclusiveDimensionOperation, Exception)
    with pytest.raises(E.JAXIndexError):
        jaxlite.jit(lambda x: x[x > 0])(np.ones(3, np.float32))
