"""Spec section F (``vmap``): how ``pure_callback`` (per ``vmap_method``), ``io_callback`` and
``debug.print`` batch, including vmap of ``cond``/``while_loop``/``scan``.

Behaviour numbers (F1..F17, plus the general "only batched operands batch" rule) refer to
``spec/callbacks.md``. F11/F12 are where jaxlite deliberately goes beyond JAX: JAX refuses an
``io_callback`` under vmap-of-cond and under vmap-of-while with a batched predicate, whereas
jaxlite runs such loops/conds per element, so that only the taken branch's callbacks fire,
in element order. Those tests assert JAX's error in oracle mode and jaxlite's behaviour
otherwise.
"""

import os
import re
from collections import Counter

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback

try:
    from conftest import ORACLE
except ImportError:  # another conftest shadows the tests/ one
    ORACLE = os.environ.get("JAXLITE_ORACLE", "") == "jax"

F32 = jax.ShapeDtypeStruct((), jnp.float32)
BOOL = jax.ShapeDtypeStruct((), jnp.bool_)
ORDERED_VMAP_MSG = re.escape("Cannot `vmap` ordered IO callback.")


def _spec(x):
    return jax.ShapeDtypeStruct(x.shape, x.dtype)


def _lines(capsys):
    return capsys.readouterr().out.splitlines()


def _shape_recorder(log):
    """A callback ``(x, y) -> x + y`` that logs the shapes it is called with."""

    def cb(x, y):
        log.append((np.shape(x), np.shape(y)))
        return np.asarray(x) + np.asarray(y)

    return cb


# ---------------------------------------------------------------------------------------------
# General rule: only callbacks with a batched operand are batched


def test_F_general_ordered_io_with_unbatched_operands_runs_once():
    calls = []

    def cb(v):
        calls.append(float(v))
        return v

    def f(x):
        return io_callback(cb, F32, jnp.float32(1.0), ordered=True) + x

    out = jax.vmap(f)(jnp.arange(4.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(1.0, 5.0, dtype=np.float32))
    assert calls == [1.0]


def test_F_general_ordered_io_without_operands_runs_once():
    calls = []

    def cb():
        calls.append("called")
        return np.float32(7.0)

    out = jax.vmap(lambda x: io_callback(cb, F32, ordered=True) + x)(jnp.arange(4.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(7.0, 11.0, dtype=np.float32))
    assert calls == ["called"]


@pytest.mark.parametrize(
    "method",
    [None, "sequential", "sequential_unrolled", "expand_dims", "broadcast_all",
     "legacy_vectorized"],
)  # fmt: skip
def test_F_general_pure_callback_with_unbatched_operands_runs_once(method):
    """Also covers F1's exception: vmap_method=None does not raise when nothing is batched."""
    log = []

    def f(z):
        two, one = jnp.float32(2.0), jnp.float32(1.0)
        return jax.pure_callback(_shape_recorder(log), F32, two, one, vmap_method=method) + z

    out = jax.vmap(f)(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(3.0, 6.0, dtype=np.float32))
    assert log == [((), ())]


@pytest.mark.parametrize("ordered", [False, True])
def test_F16_debug_print_with_unbatched_operands_prints_once(capsys, ordered):
    def f(x):
        jax.debug.print("c: {}", 7, ordered=ordered)
        jax.debug.print("d: {}", jnp.int32(8), ordered=ordered)
        return x

    jax.vmap(f)(jnp.arange(3))
    jax.effects_barrier()
    assert _lines(capsys) == ["c: 7", "d: 8"]


def _custom(kind, fun):
    """``fun`` as a custom_jvp / custom_vjp function (rules that double the tangent)."""
    if kind == "custom_jvp":
        c = jax.custom_jvp(fun)
        c.defjvp(lambda p, t: (c(*p), t[0] * 2.0))
        return c
    c = jax.custom_vjp(fun)
    c.defvjp(lambda v: (fun(v), None), lambda _, g: (g * 2.0,))
    return c


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp"])
def test_F_general_unbatched_operands_stay_unbatched_in_custom_derivatives(kind):
    """F general rule through custom_jvp/custom_vjp (callback fuzzer, seeds 96, 139): a value
    the custom function closes over is not batched by vmap, so an io_callback on it runs
    once, and an expand_dims pure_callback sees it with a size-1 axis."""
    calls, shapes = [], []
    y = jnp.array([1.5, -0.5])

    def io(a):
        calls.append(np.asarray(a).tolist())
        return np.asarray(a)

    def pc(v, w):
        shapes.append((np.shape(v), np.shape(w)))
        return np.asarray(v) + np.sum(np.asarray(w))

    def fun(v):
        r = io_callback(io, _spec(y), y)
        s = jax.pure_callback(pc, _spec(v), v, y, vmap_method="expand_dims")
        return v + jnp.sum(r) + s

    out = jax.vmap(_custom(kind, fun))(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [2.0, 4.0, 6.0])
    assert calls == [[1.5, -0.5]]
    assert shapes == [((3,), (1, 2))]


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp"])
def test_F_general_grad_of_vmapped_custom_function_with_unbatched_input(kind):
    """The unbatched input of a vmapped custom function gets the sum of the per-element
    cotangents (its rule's derivative, here doubled)."""

    def fun(x, y):
        return x * y

    c = jax.custom_jvp(fun) if kind == "custom_jvp" else jax.custom_vjp(fun)
    if kind == "custom_jvp":
        c.defjvp(lambda p, t: (c(*p), 2.0 * (t[0] * p[1] + t[1] * p[0])))
    else:
        c.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (2.0 * g * r[1], 2.0 * g * r[0]))
    x = jnp.arange(3.0)
    gx, gy = jax.grad(lambda x, y: jnp.sum(jax.vmap(c, in_axes=(0, None))(x, y)), argnums=(0, 1))(
        x, jnp.float32(1.5)
    )
    np.testing.assert_array_equal(np.asarray(gx), [3.0, 3.0, 3.0])
    assert float(gy) == 6.0


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_F15_nested_vmap_in_compiled_code_passes_strong_arrays(capsys, wrap):
    """F15 / 1.8 (callback fuzzer, seed 40895): in compiled code (here a fori_loop body) a
    debug callback under two vmaps receives arrays that are not weakly typed, as under one
    vmap: the weak loop index prints as ``Array(0, dtype=int32)``."""

    def body(i, v):
        jax.debug.print("{}", {"b": (i,), "v": v})
        return v

    g = jax.vmap(jax.vmap(lambda v: lax.fori_loop(0, 1, body, v)))
    (g if wrap is None else wrap(g))(jnp.ones((1, 2)))
    jax.effects_barrier()
    assert _lines(capsys) == ["{'b': (Array(0, dtype=int32),), 'v': Array(1., dtype=float32)}"] * 2


# ---------------------------------------------------------------------------------------------
# F1..F7: pure_callback vmap_method


@pytest.mark.parametrize("in_axes", [0, 1])
def test_F1_vmap_method_none_raises_for_batched_operand(in_axes):
    msg = re.escape(
        "vmap is only supported for the pure_callback primitive when vmap_method is one of "
        "'sequential', 'sequential_unrolled', 'expand_dims', 'broadcast_all', or "
        "'legacy_vectorized'. Got vmap_method=None."
    )

    def f(x):
        return jax.pure_callback(lambda x: x, _spec(x), x)

    with pytest.raises(NotImplementedError, match=msg):
        jax.vmap(f, in_axes=in_axes)(jnp.ones((2, 2)))
        jax.effects_barrier()


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled"])
@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_F2_F3_sequential_calls_per_element_in_order(method, wrap):
    calls = []

    def cb(x):
        assert isinstance(x, jax.Array)
        calls.append((np.shape(x), float(x)))
        return np.sin(np.asarray(x))

    def f(x):
        return jax.pure_callback(cb, _spec(x), x, vmap_method=method)

    g = jax.vmap(f)
    if wrap is not None:
        g = wrap(g)
    xs = jnp.arange(4.0)
    out = g(xs)
    jax.effects_barrier()
    np.testing.assert_allclose(np.asarray(out), np.sin(np.arange(4.0, dtype=np.float32)))
    assert calls == [((), float(i)) for i in range(4)]


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled"])
def test_F2_F3_sequential_unbatched_operand_passed_whole(method):
    log = []

    def f(x, y):
        return jax.pure_callback(_shape_recorder(log), _spec(x), x, y, vmap_method=method)

    y = jnp.arange(3.0)
    out = jax.vmap(f, in_axes=(0, None))(jnp.arange(6.0).reshape(2, 3), y)
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0).reshape(2, 3) + np.arange(3.0))
    assert log == [((3,), (3,)), ((3,), (3,))]


@pytest.mark.parametrize("method", ["sequential", "sequential_unrolled"])
def test_F2_F3_sequential_in_axes_1_out_axes_1(method):
    seen = []

    def cb(x):
        seen.append(np.asarray(x).tolist())
        return np.asarray(x) * 10

    def f(x):
        return jax.pure_callback(cb, _spec(x), x, vmap_method=method)

    x = jnp.arange(6.0).reshape(2, 3)
    out = jax.vmap(f, in_axes=1, out_axes=1)(x)
    jax.effects_barrier()
    assert out.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(out), 10 * np.arange(6.0).reshape(2, 3))
    # Columns, one per call, in batch-index order.
    assert seen == [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]


def test_F4_expand_dims_shapes():
    log = []

    def f(x, y):
        return jax.pure_callback(_shape_recorder(log), _spec(x), x, y, vmap_method="expand_dims")

    out = jax.vmap(f, in_axes=(0, None))(jnp.arange(4.0), jnp.float32(1.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(1.0, 5.0, dtype=np.float32))
    assert log == [((4,), (1,))]


def test_F4_expand_dims_moves_batch_axis_to_front():
    log = []

    def f(x, y):
        return jax.pure_callback(_shape_recorder(log), _spec(x), x, y, vmap_method="expand_dims")

    x = jnp.arange(6.0).reshape(2, 3)
    out = jax.vmap(f, in_axes=(1, None))(x, jnp.float32(1.0))
    jax.effects_barrier()
    assert log == [((3, 2), (1,))]
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0).reshape(2, 3).T + 1.0)


def test_F4_expand_dims_sin_plus_unbatched():
    def cb(x, y):
        assert np.shape(x) == (4,) and np.shape(y) == (1,)
        return np.sin(np.asarray(x)) + np.asarray(y)

    def f(x, y):
        return jax.pure_callback(cb, _spec(x), x, y, vmap_method="expand_dims")

    out = jax.jit(jax.vmap(f, in_axes=(0, None)))(jnp.arange(4.0), jnp.float32(4.0))
    jax.effects_barrier()
    np.testing.assert_allclose(np.asarray(out), np.sin(np.arange(4.0, dtype=np.float32)) + 4)


def test_F4_expand_dims_result_without_batch_dim_is_an_error():
    """B2 under F4: the callback must return the full batched shape."""

    def f(x):
        return jax.pure_callback(lambda x: np.sum(x), F32, x, vmap_method="expand_dims")

    with pytest.raises(RuntimeError, match=re.escape("Expected: (4,), Actual: ()")):
        jax.vmap(f)(jnp.arange(4.0))
        jax.effects_barrier()


def test_F5_broadcast_all_tiles_unbatched_operands():
    log = []

    def f(x, y):
        return jax.pure_callback(_shape_recorder(log), _spec(x), x, y, vmap_method="broadcast_all")

    out = jax.vmap(f, in_axes=(0, None))(jnp.arange(4.0), jnp.float32(1.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(1.0, 5.0, dtype=np.float32))
    assert log == [((4,), (4,))]


def test_F6_legacy_vectorized_leaves_unbatched_operands_alone():
    log = []

    def cb(x, y):
        log.append((np.shape(x), np.shape(y)))
        return np.asarray(x) + np.asarray(y)

    def f(x, y):
        return jax.pure_callback(cb, _spec(x), x, y, vmap_method="legacy_vectorized")

    x = jnp.arange(4.0).reshape(1, 4)
    out = jax.vmap(f, in_axes=(1, None), out_axes=1)(x, jnp.float32(2.0))
    jax.effects_barrier()
    assert log == [((4, 1), ())]
    assert out.shape == (1, 4)
    np.testing.assert_array_equal(np.asarray(out), np.arange(4.0).reshape(1, 4) + 2.0)


@pytest.mark.parametrize(
    "method, expected",
    [
        ("expand_dims", [((2, 3), (1, 1))]),
        ("broadcast_all", [((2, 3), (2, 3))]),
        ("legacy_vectorized", [((2, 3), ())]),
        ("sequential", [((), ())] * 6),
    ],
)
def test_F7_nested_vmap_shapes(method, expected):
    log = []

    def f(x, y):
        return jax.pure_callback(_shape_recorder(log), _spec(x), x, y, vmap_method=method)

    g = jax.vmap(jax.vmap(f, in_axes=(0, None)), in_axes=(0, None))
    out = g(jnp.arange(6.0).reshape(2, 3), jnp.float32(1.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0).reshape(2, 3) + 1.0)
    assert log == expected


def test_F7_nested_sequential_innermost_axis_is_outer_loop():
    seen = []

    def cb(x):
        seen.append(float(x))
        return x

    f = lambda x: jax.pure_callback(cb, _spec(x), x, vmap_method="sequential")
    out = jax.vmap(jax.vmap(f))(jnp.arange(6.0).reshape(3, 2))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(6.0).reshape(3, 2))
    assert seen == [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]


# ---------------------------------------------------------------------------------------------
# F8..F10, F13: io_callback under vmap


def test_F8_unordered_io_batched_sequentially():
    calls = []

    def cb(x):
        assert isinstance(x, jax.Array)
        calls.append((np.shape(x), int(x)))
        return np.int32(x * 2)

    f = jax.vmap(lambda x: io_callback(cb, jax.ShapeDtypeStruct((), jnp.int32), x))
    out = f(jnp.arange(4))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), 2 * np.arange(4))
    f(jnp.arange(4))
    jax.effects_barrier()
    assert len(calls) == 8
    assert calls == [((), i) for i in range(4)] * 2


def test_F8_unordered_io_unbatched_operand_passed_whole():
    calls = []

    def cb(x, y):
        calls.append((float(x), np.asarray(y).tolist()))
        return x

    f = jax.vmap(lambda x, y: io_callback(cb, F32, x, y), in_axes=(0, None))
    out = f(jnp.arange(3.0), jnp.arange(2.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), np.arange(3.0, dtype=np.float32))
    assert calls == [(0.0, [0.0, 1.0]), (1.0, [0.0, 1.0]), (2.0, [0.0, 1.0])]


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_F9_two_io_callbacks_run_as_two_maps(wrap):
    seen = []

    def f(x):
        io_callback(lambda v: seen.append(float(v)), None, x)
        io_callback(lambda v: seen.append(float(v)), None, 2 * x)
        return x

    g = jax.vmap(f)
    if wrap is not None:
        g = wrap(g)
    g(jnp.arange(3.0))
    jax.effects_barrier()
    assert seen == [0.0, 1.0, 2.0, 0.0, 2.0, 4.0]


def test_F10_ordered_io_with_batched_operand_raises():
    def f(x):
        return io_callback(lambda x: x, F32, x, ordered=True)

    with pytest.raises(ValueError, match=ORDERED_VMAP_MSG):
        jax.vmap(f)(jnp.arange(4.0))
        jax.effects_barrier()


def test_F10_ordered_io_raises_through_scan_and_jit():
    def f(x):
        return io_callback(lambda x: x, F32, x, ordered=True)

    def via_scan(x):
        return lax.scan(lambda c, _: (f(c), None), x, None, length=2)[0]

    with pytest.raises(ValueError, match=ORDERED_VMAP_MSG):
        jax.vmap(via_scan)(jnp.arange(4.0))
        jax.effects_barrier()
    with pytest.raises(ValueError, match=ORDERED_VMAP_MSG):
        jax.vmap(jax.jit(f))(jnp.arange(4.0))
        jax.effects_barrier()


def test_F13_vmap_of_scan_of_unordered_io():
    """Each scan iteration does B calls (batch-index order) per io_callback: L * B in all."""
    calls = []

    def cb(c, i):
        calls.append((float(c), float(i)))
        return c

    def f(x):
        return lax.scan(lambda c, i: (c + io_callback(cb, F32, c, i), None), x, jnp.arange(3.0))[0]

    out = jax.vmap(f)(jnp.array([10.0, 20.0]))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [80.0, 160.0])
    assert calls == [(10.0, 0.0), (20.0, 0.0), (20.0, 1.0), (40.0, 1.0), (40.0, 2.0), (80.0, 2.0)]


# ---------------------------------------------------------------------------------------------
# F11, F12: io_callback in vmap-of-cond / vmap-of-while (JAX raises; jaxlite runs per element)


def _branch_recorder(calls, tag, delta):
    def cb(x):
        calls.append((tag, float(x)))
        return np.float32(x + delta)

    return cb


def _io_cond(calls, ordered=False):
    def f(pred, x):
        return lax.cond(
            pred,
            lambda x: io_callback(_branch_recorder(calls, "t", 1.0), F32, x, ordered=ordered),
            lambda x: io_callback(_branch_recorder(calls, "f", -1.0), F32, x, ordered=ordered),
            x,
        )

    return f


def test_F11_io_in_vmap_of_cond_batched_predicate():
    calls = []
    f = jax.vmap(_io_cond(calls))
    preds = jnp.array([True, False, True])
    if ORACLE:
        # JAX refuses any IO effect in a cond processed by vmap.
        with pytest.raises(NotImplementedError, match="IO effect not supported in vmap-of-cond."):
            f(preds, jnp.arange(3.0))
            jax.effects_barrier()
    else:
        # jaxlite runs the cond per element: only the taken branch fires, in element order.
        out = f(preds, jnp.arange(3.0))
        jax.effects_barrier()
        np.testing.assert_array_equal(np.asarray(out), [1.0, 0.0, 3.0])
        assert calls == [("t", 0.0), ("f", 1.0), ("t", 2.0)]


def test_F11_io_in_vmap_of_cond_unbatched_predicate():
    calls = []
    f = jax.vmap(_io_cond(calls), in_axes=(None, 0))
    if ORACLE:
        # JAX raises even though the predicate is not batched.
        with pytest.raises(NotImplementedError, match="IO effect not supported in vmap-of-cond."):
            f(False, jnp.arange(3.0))
            jax.effects_barrier()
    else:
        # jaxlite: only the selected branch runs, once per element, in element order.
        out = f(False, jnp.arange(3.0))
        jax.effects_barrier()
        np.testing.assert_array_equal(np.asarray(out), [-1.0, 0.0, 1.0])
        assert calls == [("f", 0.0), ("f", 1.0), ("f", 2.0)]


def test_F11_io_in_vmap_of_switch_batched_index():
    calls = []

    def f(i, x):
        branches = [
            lambda x, k=k: io_callback(_branch_recorder(calls, f"b{k}", 10.0 * k), F32, x)
            for k in range(3)
        ]
        return lax.switch(i, branches, x)

    g = jax.vmap(f)
    idx = jnp.array([2, 0, 1])
    if ORACLE:
        # switch is a cond: JAX refuses it under vmap.
        with pytest.raises(NotImplementedError, match="IO effect not supported in vmap-of-cond."):
            g(idx, jnp.arange(3.0))
            jax.effects_barrier()
    else:
        # jaxlite: each element runs only its own branch, in element order.
        out = g(idx, jnp.arange(3.0))
        jax.effects_barrier()
        np.testing.assert_array_equal(np.asarray(out), [20.0, 1.0, 12.0])
        assert calls == [("b2", 0.0), ("b0", 1.0), ("b1", 2.0)]


def test_F11_ordered_io_in_vmap_of_cond_raises():
    calls = []
    f = jax.vmap(_io_cond(calls, ordered=True))
    if ORACLE:
        with pytest.raises(NotImplementedError, match="IO effect not supported in vmap-of-cond."):
            f(jnp.array([True, False]), jnp.arange(2.0))
            jax.effects_barrier()
    else:
        # jaxlite keeps JAX's ordered-IO-under-vmap error (the operand is batched).
        with pytest.raises(ValueError, match=ORDERED_VMAP_MSG):
            f(jnp.array([True, False]), jnp.arange(2.0))
            jax.effects_barrier()
    assert calls == []


def test_F12_io_in_body_of_vmap_of_while_batched_predicate():
    calls = []

    def body(x):
        return io_callback(_branch_recorder(calls, "body", 1.0), F32, x)

    f = jax.vmap(lambda x: lax.while_loop(lambda x: x < 3.0, body, x))
    if ORACLE:
        with pytest.raises(Exception, match="not supported in while_loop with batched predicate"):
            f(jnp.array([0.0, 1.0]))
            jax.effects_barrier()
    else:
        # jaxlite runs the loop per element: element 0's iterations, then element 1's.
        out = f(jnp.array([0.0, 1.0]))
        jax.effects_barrier()
        np.testing.assert_array_equal(np.asarray(out), [3.0, 3.0])
        assert calls == [("body", 0.0), ("body", 1.0), ("body", 2.0), ("body", 1.0),
                         ("body", 2.0)]  # fmt: skip


def test_F12_io_in_cond_fn_of_vmap_of_while_batched_predicate():
    calls = []

    def pred(x):
        calls.append(float(x))
        return np.bool_(x < 3.0)

    f = jax.vmap(
        lambda x: lax.while_loop(lambda x: io_callback(pred, BOOL, x), lambda x: x + 1.0, x)
    )
    if ORACLE:
        with pytest.raises(Exception, match="not supported in while_loop with batched predicate"):
            f(jnp.array([1.0, 3.0]))
            jax.effects_barrier()
    else:
        # Per element, the predicate runs n+1 times: 1, 2, 3 for element 0; 3 for element 1.
        out = f(jnp.array([1.0, 3.0]))
        jax.effects_barrier()
        np.testing.assert_array_equal(np.asarray(out), [3.0, 3.0])
        assert calls == [1.0, 2.0, 3.0, 3.0]


def test_F12_ordered_io_in_vmap_of_while_raises():
    calls = []

    def body(x):
        return io_callback(_branch_recorder(calls, "body", 1.0), F32, x, ordered=True)

    f = jax.vmap(lambda x: lax.while_loop(lambda x: x < 3.0, body, x))
    if ORACLE:
        with pytest.raises(Exception, match="Ordered IO effects not supported in vmap."):
            f(jnp.array([0.0, 1.0]))
            jax.effects_barrier()
    else:
        # jaxlite keeps JAX's ordered-IO-under-vmap error (the operand is batched).
        with pytest.raises(ValueError, match=ORDERED_VMAP_MSG):
            f(jnp.array([0.0, 1.0]))
            jax.effects_barrier()
    assert calls == []


def test_F12_unordered_io_in_vmap_of_while_unbatched_predicate():
    """Both engines: the loop runs in lock-step; each iteration batches the body's callback
    per F8 (all elements, index order)."""
    calls = []

    def cb(x):
        calls.append(float(x))
        return x

    def f(n, x):
        def body(c):
            i, v = c
            return i + 1, io_callback(cb, F32, v) + 1.0

        return lax.while_loop(lambda c: c[0] < n, body, (0, x))[1]

    out = jax.vmap(f, in_axes=(None, 0))(3, jnp.arange(2.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [3.0, 4.0])
    assert calls == [0.0, 1.0, 1.0, 2.0, 2.0, 3.0]


# ---------------------------------------------------------------------------------------------
# F14, F15, F17: debug callbacks (and pure_callback) under vmap


@pytest.mark.parametrize("ordered", [False, True])
def test_F14_debug_print_unrolled_per_element(capsys, ordered):
    jax.vmap(lambda x: jax.debug.print("hello: {}", x, ordered=ordered))(jnp.arange(2))
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello: 0\nhello: 1\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_F14_debug_print_different_in_axes(capsys, ordered):
    def f(x, y):
        jax.debug.print("hello: {} {}", x, y, ordered=ordered)

    jax.vmap(f, in_axes=(0, 1))(jnp.arange(2), jnp.arange(2)[None])
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello: 0 [0]\nhello: 1 [1]\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_F14_each_print_unrolled_separately(capsys, ordered):
    def f(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        jax.debug.print("y: {}", x + 10, ordered=ordered)
        return x

    jax.vmap(f)(jnp.arange(3))
    jax.effects_barrier()
    assert _lines(capsys) == ["x: 0", "x: 1", "x: 2", "y: 10", "y: 11", "y: 12"]


def test_F14_debug_callback_receives_slices_and_whole_unbatched():
    seen = []

    def cb(x, y):
        seen.append((np.asarray(x).tolist(), np.asarray(y).tolist()))

    jax.vmap(lambda x, y: jax.debug.callback(cb, x, y), in_axes=(0, None))(
        jnp.arange(6).reshape(3, 2), jnp.arange(2)
    )
    jax.effects_barrier()
    assert seen == [([0, 1], [0, 1]), ([2, 3], [0, 1]), ([4, 5], [0, 1])]


@pytest.mark.parametrize("ordered", [False, True])
def test_F15_nested_vmap_innermost_axis_outermost(capsys, ordered):
    def f(x):
        jax.debug.print("{}", x, ordered=ordered)

    x = jnp.arange(6).reshape(3, 2)
    jax.vmap(jax.vmap(f))(x)
    jax.effects_barrier()
    assert _lines(capsys) == ["0", "2", "4", "1", "3", "5"]
    jax.vmap(jax.vmap(f, in_axes=0), in_axes=1)(x)
    jax.effects_barrier()
    assert _lines(capsys) == ["0", "1", "2", "3", "4", "5"]


def _print_cond(ordered):
    def f(pred, x):
        def true_fn(x):
            jax.debug.print("true: {}", x, ordered=ordered)
            return x + 1

        def false_fn(x):
            jax.debug.print("false: {}", x, ordered=ordered)
            return x - 1

        return lax.cond(pred, true_fn, false_fn, x)

    return f


@pytest.mark.parametrize("ordered", [False, True])
def test_F17_debug_print_in_vmap_of_cond_batched_predicate_runs_all_branches(capsys, ordered):
    out = jax.vmap(_print_cond(ordered))(jnp.array([True, False]), jnp.arange(2))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [1, 0])
    # Branch 0 (the false branch) first, every element; then branch 1.
    assert _lines(capsys) == ["false: 0", "false: 1", "true: 0", "true: 1"]


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_F17_batched_predicate_batches_every_operand(capsys, wrap):
    """F17 (callback fuzzer, seed 10256): with a batched predicate every operand of the cond
    is batched first, closed-over values too: a debug print of an unbatched operand runs
    per element, and an expand_dims pure_callback sees it with the full batch axis."""
    shapes = []
    y = jnp.array([1.5, -0.5])

    def cb(v, w):
        shapes.append((np.shape(v), np.shape(w)))
        return np.asarray(v) + np.sum(np.asarray(w), axis=-1)

    def f(v, w):
        def taken(ops):
            v, w = ops
            jax.debug.print("w={}", w)
            return v + jax.pure_callback(cb, _spec(v), v, y, vmap_method="expand_dims")

        return lax.cond(v > 0.7, taken, lambda ops: ops[0], (v, w))

    g = jax.vmap(f, in_axes=(0, None))
    out = (g if wrap is None else wrap(g))(jnp.array([1.0, 0.5]), jnp.float32(4.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [3.0, 0.5])
    assert shapes == [((2,), (2, 2))]
    assert _lines(capsys) == ["w=4.0", "w=4.0"]


@pytest.mark.parametrize("ordered", [False, True])
def test_F17_debug_print_in_vmap_of_cond_unbatched_predicate(capsys, ordered):
    out = jax.vmap(_print_cond(ordered), in_axes=(None, 0))(True, jnp.arange(2))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [1, 2])
    assert _lines(capsys) == ["true: 0", "true: 1"]


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
def test_F17_pure_callback_in_vmap_of_cond(wrap):
    calls = []

    def f(pred, x):
        return lax.cond(
            pred,
            lambda x: jax.pure_callback(
                _branch_recorder(calls, "t", 1.0), F32, x, vmap_method="sequential"
            ),
            lambda x: jax.pure_callback(
                _branch_recorder(calls, "f", -1.0), F32, x, vmap_method="sequential"
            ),
            x,
        )

    g = jax.vmap(f)
    if wrap is not None:
        g = wrap(g)
    out = g(jnp.array([True, False, True]), jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [1.0, 0.0, 3.0])
    # Every branch ran for every element (the select picks the results).
    assert Counter(calls) == Counter(
        [("f", 0.0), ("f", 1.0), ("f", 2.0), ("t", 0.0), ("t", 1.0), ("t", 2.0)]
    )

    calls.clear()
    out = jax.vmap(f, in_axes=(None, 0))(False, jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [-1.0, 0.0, 1.0])
    assert set(calls) == {("f", 0.0), ("f", 1.0), ("f", 2.0)}
