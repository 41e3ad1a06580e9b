"""Session 21: dm-haiku 0.0.17 on jaxlite. Importing haiku failed on three names of JAX's
extension API (haiku's ``to_dot`` binds them at import), each added and checked here
against JAX 0.10.2 (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax.extend.core.take_current_trace``: a context manager that yields the current trace
  and makes evaluation eager inside the block (a trace takes itself off the stack so).
* ``jax.extend.core.TraceTag``: tags for a transformation's tracers; all tags are equal
  and hash alike.
* ``jax.extend.linear_util.transformation`` (and ``transformation_with_aux``,
  ``transformation2``, ``transformation_with_aux2``): generator- and function-style
  transformations of a ``WrappedFun``.
"""

import importlib

import numpy as np
import pytest

from tests.hunt.oracle import JAX, LITE

ENGINES = [pytest.param(LITE, id="jaxlite")]
if JAX is not None:
    ENGINES.append(pytest.param(JAX, id="jax"))


def _mods(m):
    core = importlib.import_module(m.jx.__name__ + ".extend.core")
    lu = importlib.import_module(m.jx.__name__ + ".extend.linear_util")
    return core, lu


@pytest.mark.parametrize("m", ENGINES)
def test_take_current_trace_yields_the_trace_and_evaluates_eagerly(m):
    core, _ = _mods(m)
    seen = {}

    def f(x):
        with core.take_current_trace() as outer:
            seen["outer_is_tracer_trace"] = outer is x._trace
            y = m.jnp.asarray(np.float32(2.0)) * 3.0  # eager inside: a concrete array
            seen["inner_concrete"] = float(y)
        return x * 2.0

    out = m.jx.jit(f)(np.float32(1.5))
    assert float(out) == 3.0
    assert seen == {"outer_is_tracer_trace": True, "inner_concrete": 6.0}


@pytest.mark.parametrize("m", ENGINES)
def test_take_current_trace_restores_on_exit_and_on_error(m):
    core, _ = _mods(m)

    def f(x):
        with pytest.raises(ZeroDivisionError):
            with core.take_current_trace():
                raise ZeroDivisionError
        with core.take_current_trace() as t:
            pass
        with core.take_current_trace() as t2:
            pass
        assert t is t2
        return x + 1.0  # still traced: the trace came back

    jaxpr = m.jx.make_jaxpr(f)(np.float32(1.0))
    assert len(jaxpr.jaxpr.eqns) == 1


@pytest.mark.parametrize("m", ENGINES)
def test_trace_tags_are_all_equal(m):
    core, _ = _mods(m)
    a, b = core.TraceTag(), core.TraceTag()
    assert a == b and hash(a) == hash(b)
    assert a != object()
    assert len({a, b}) == 1


@pytest.mark.parametrize("m", ENGINES)
def test_transformation_generator_style(m):
    _, lu = _mods(m)
    calls = []

    @lu.transformation
    def scale_in_out(k, *args):
        out = yield tuple(a * k for a in args), {}
        calls.append(out)
        yield out + 100

    g = scale_in_out(_wrap(lu, lambda x, y: x - y), 3)
    assert g.call_wrapped(5, 1) == 112
    assert g.call_wrapped(2, 2) == 100
    assert calls == [12, 0]


def _wrap(lu, fn):
    return lu.wrap_init(fn, debug_info=None)


@pytest.mark.parametrize("m", ENGINES)
def test_transformation_with_aux_generator_style(m):
    _, lu = _mods(m)

    @lu.transformation_with_aux
    def with_count(offset, *args):
        out = yield args, {}
        yield out, len(args) + offset

    g, aux = with_count(_wrap(lu, lambda *a: sum(a)), 10)
    assert g.call_wrapped(1, 2, 3) == 6
    assert aux() == 13
    with pytest.raises(lu.StoreException, match="Store occupied"):
        g.call_wrapped(4)  # the store is written once, as in JAX


@pytest.mark.parametrize("m", ENGINES)
def test_transformation2_function_style(m):
    _, lu = _mods(m)

    @lu.transformation2
    def shift(f, d, *args):
        return f(*(a + d for a in args)) * 2

    g = shift(_wrap(lu, lambda x, y: x * y), 1)
    assert g.call_wrapped(1, 2) == 12


@pytest.mark.parametrize("m", ENGINES)
def test_transformation_with_aux2_function_style(m):
    _, lu = _mods(m)

    @lu.transformation_with_aux2
    def record(f, store, tag, *args):
        out = f(*args)
        store.store((tag, out))
        return out

    g, aux = record(_wrap(lu, lambda x: x + 1), "t")
    assert g.call_wrapped(4) == 5
    assert aux() == ("t", 5)
    with pytest.raises(lu.StoreException, match="Store occupied"):
        g.call_wrapped(4)
