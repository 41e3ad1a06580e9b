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

from tests.hunt.oracle import JAX, LITE, same

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


# ----------------------------------------------------------- large convolutions' patches
# haiku's ConvNDTranspose initializer test (a 3-D transposed convolution of a
# (16, 32, 32, 32, 64) input with a 4x4x4 kernel) made jaxlite's convolution kernel
# allocate an 8 GiB patch matrix (the input times the kernel's volume) and the process was
# killed for memory; JAX runs it in place. The patch matrix is now built in blocks.
CONV_CASES = {
    "2d": ((4, 6, 9, 9), (5, 6, 3, 3), 1, (1, 1), None),
    "3d-groups": ((3, 8, 7, 6, 5), (4, 2, 2, 3, 2), 4, (1, 1, 1), None),
    "1d-strided": ((2, 4, 11), (6, 4, 3), 1, (2,), None),
    "2d-dilated-groups": ((5, 4, 9, 9), (8, 2, 3, 3), 2, (1, 1), (2, 1)),
}


@pytest.mark.jaxlite_only  # sets jaxlite's block size
@pytest.mark.parametrize("case", list(CONV_CASES))
@pytest.mark.parametrize("block", [64, 1500, 1 << 27], ids=["rows", "items", "whole"])
def test_conv_in_patch_blocks_matches_jax(case, block, monkeypatch):
    from jaxlite._src.ops import conv_kernels

    monkeypatch.setattr(conv_kernels, "PATCH_BLOCK_BYTES", block)
    lhs_shape, rhs_shape, groups, strides, lhs_dilation = CONV_CASES[case]
    rng = np.random.default_rng(0)
    x = rng.standard_normal(lhs_shape).astype(np.float32)
    w = rng.standard_normal(rhs_shape).astype(np.float32)

    def build(m):
        def f(x):
            return m.lax.conv_general_dilated(
                x, w, strides, "SAME", lhs_dilation=lhs_dilation, feature_group_count=groups
            )

        return f(x), m.jx.grad(lambda x: (f(x) ** 2).sum())(x)

    same(build, rtol=2e-5, atol=2e-5)


@pytest.mark.jaxlite_only  # jaxlite's kernel's memory
def test_large_conv_patch_matrix_is_not_materialized(monkeypatch):
    import tracemalloc

    import jaxlite
    from jaxlite._src.ops import conv_kernels

    monkeypatch.setattr(conv_kernels, "PATCH_BLOCK_BYTES", 1 << 22)
    x = np.ones((1, 32, 32, 32, 8), np.float32)  # a 64 MiB patch matrix unblocked
    w = np.full((4, 4, 4, 2, 8), 0.01, np.float32)
    tracemalloc.start()
    try:
        y = jaxlite.lax.conv_transpose(
            x, w, (1, 1, 1), "SAME", dimension_numbers=("NDHWC", "DHWOI", "NDHWC")
        )
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert y.shape == (1, 32, 32, 32, 2)
    np.testing.assert_allclose(np.asarray(y)[0, 10, 10, 10], [5.12, 5.12], rtol=1e-5)
    assert peak < 32 * 2**20, peak


# ------------------------------------------------- branches given the same function
# haiku's stateful_test checks that hk.cond / hk.switch trace a function given for several
# branches once, "in sync with JAX": JAX traces one function object once per cond/switch;
# jaxlite traced it once per branch.
def _count_traces(m, kind):
    calls = []

    def f(x):
        calls.append(None)
        return x**2

    def g(x):
        calls.append(None)
        return x + 1.0

    x = np.float32(3.0)
    if kind == "cond-same":
        out = m.lax.cond(False, f, f, x)
    elif kind == "cond-different":
        out = m.lax.cond(False, f, g, x)
    elif kind == "switch-same":
        out = m.lax.switch(2, [f, f, f, f], x)
    elif kind == "switch-mixed":
        out = m.lax.switch(1, [f, g, f, g, f], x)
    elif kind == "jit-switch-same":
        out = m.jx.jit(lambda i, x: m.lax.switch(i, [f, f, f], x))(1, x)
    else:  # grad of a cond with one function
        out = m.jx.grad(lambda x: m.lax.cond(x > 0, f, f, x))(x)
    return np.float32(out), np.int64(len(calls))


@pytest.mark.parametrize(
    "kind",
    ["cond-same", "cond-different", "switch-same", "switch-mixed", "jit-switch-same", "grad"],
)
def test_a_function_given_for_several_branches_is_traced_once(kind):
    out, traces = same(lambda m: _count_traces(m, kind))
    expected = {
        "cond-same": (9.0, 1),
        "cond-different": (4.0, 2),
        "switch-same": (9.0, 1),
        "switch-mixed": (4.0, 2),
        "jit-switch-same": (9.0, 1),
        "grad": (6.0, 1),
    }[kind]
    assert (float(out), int(traces)) == expected


# ----------------------------------------------------------------- ad.deflinear
# haiku's stateful_test (test_remat) defines a primitive with
# ``jax.interpreters.ad.deflinear(prim, b_impl)``, where JAX calls ``b_impl(cotangent,
# **params)``; jaxlite passed its own rule convention (cotangent *and operands*), so the
# transpose raised TypeError.
_LINEAR_COUNT = iter(range(10**6))


@pytest.mark.parametrize("m", ENGINES)
def test_ad_deflinear_transpose_rule_gets_the_cotangent_only(m):
    core, _ = _mods(m)
    ad = importlib.import_module(m.jx.__name__ + ".interpreters.ad")
    prim = core.Primitive(f"eco21_scale_{next(_LINEAR_COUNT)}_{m.jx.__name__}")
    prim.def_impl(lambda x, *, k: x * k)
    prim.def_abstract_eval(lambda x, *, k: x)
    seen = []

    def transpose(ct, *, k):
        seen.append(k)
        return (ct * k,)

    ad.deflinear(prim, transpose)
    x = m.jnp.float32(2.0)
    assert float(m.jx.grad(lambda x: prim.bind(x, k=3.0) ** 2)(x)) == 36.0
    assert seen == [3.0]
    _, tangent = m.jx.jvp(lambda x: prim.bind(x, k=3.0), (x,), (m.jnp.float32(1.0),))
    assert float(tangent) == 3.0
    # a cotangent that is symbolically zero never reaches the rule
    assert float(m.jx.grad(lambda x: m.lax.stop_gradient(prim.bind(x, k=5.0)) + x)(x)) == 1.0
    assert seen == [3.0]
