"""Spec callbacks.md section D (D1-D8): dead-code elimination and execution guarantees.

pure_callback carries no effect and is removed when its results are unused; io_callback and
debug callbacks are never removed. Execution counts are observed through host lists.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax
from jaxlite.experimental import io_callback

F32 = jax.ShapeDtypeStruct((), np.float32)


def _recording_identity(log):
    def cb(x):
        log.append(float(x))
        return x

    return cb


def test_D1_unused_pure_callback_not_executed_under_jit():
    """D1: jit(f) where f drops the pure_callback's result never runs the callback."""
    calls = []

    def f(x):
        jax.pure_callback(_recording_identity(calls), F32, x)
        return x * 2.0

    assert float(jax.jit(f)(jnp.float32(1.0))) == 2.0
    jax.effects_barrier()
    assert calls == []


def test_D1_used_pure_callback_executed():
    """D1 (docs contrast): when the result is returned, the callback runs."""
    calls = []

    def f(x):
        return jax.pure_callback(_recording_identity(calls), F32, x)

    assert float(jax.jit(f)(jnp.float32(1.0))) == 1.0
    jax.effects_barrier()
    assert calls == [1.0]


def test_D2_dce_is_transitive():
    """D2: a pure_callback feeding only dead code, and the one feeding it, are removed."""
    calls = []
    cb = _recording_identity(calls)

    def f(x):
        y = jax.pure_callback(cb, F32, x)
        z = jnp.sin(y) * 2.0
        jax.pure_callback(cb, F32, z)
        return x * 2.0

    assert float(jax.jit(f)(jnp.float32(1.0))) == 2.0
    jax.effects_barrier()
    assert calls == []


@pytest.mark.parametrize("construct", ["scan", "scan_unused_ys", "while", "cond"])
def test_D2_dce_inside_control_flow_bodies(construct):
    """D2: a dead pure_callback inside scan/while/cond bodies is removed."""
    calls = []
    cb = _recording_identity(calls)

    def f(x):
        if construct == "scan":

            def body(c, _):
                jax.pure_callback(cb, F32, c)
                return c + 1.0, None

            return lax.scan(body, x, None, length=3)[0]
        if construct == "scan_unused_ys":

            def body(c, _):
                return c + 1.0, jax.pure_callback(cb, F32, c)

            return lax.scan(body, x, None, length=3)[0]
        if construct == "while":

            def body(c):
                jax.pure_callback(cb, F32, c)
                return c + 1.0

            return lax.while_loop(lambda c: c < 3.0, body, x)

        def taken(v):
            jax.pure_callback(cb, F32, v)
            return v + 3.0

        return lax.cond(x < 10.0, taken, lambda v: v, x)

    assert float(jax.jit(f)(jnp.float32(0.0))) == 3.0
    jax.effects_barrier()
    assert calls == []


@pytest.mark.parametrize("construct", ["cond", "switch"])
def test_D2_dead_pure_callback_in_an_eager_cond_is_removed(construct):
    """D2 (callback fuzzer, seed 116): an eager cond/switch is compiled in JAX, so a
    pure_callback whose result is unused in the taken branch is removed there too."""
    calls = []
    cb = _recording_identity(calls)

    def taken(v):
        jax.pure_callback(cb, F32, v)
        return v + 3.0

    x = jnp.float32(0.0)
    if construct == "cond":
        out = lax.cond(x < 10.0, taken, lambda v: v, x)
    else:
        out = lax.switch(jnp.int32(1), [lambda v: v, taken], x)
    jax.effects_barrier()
    assert float(out) == 3.0
    assert calls == []


@pytest.mark.parametrize("n_outputs", [1, 2])
def test_D3_eager_pure_callback_runs_exactly_once(n_outputs):
    """D3: an eager pure_callback with at least one output executes exactly once."""
    calls = []

    def cb(x):
        calls.append(float(x))
        return (x,) * n_outputs

    out = jax.pure_callback(cb, (F32,) * n_outputs, jnp.float32(5.0))
    jax.effects_barrier()
    assert [float(o) for o in out] == [5.0] * n_outputs
    assert calls == [5.0]


def test_D3_eager_checkpoint_runs_an_unused_pure_callback():
    """D3/H4 (callback fuzzer, seed 123): an eager checkpoint evaluates its function one
    operation at a time, so an eager pure_callback in it runs once even when its result is
    unused; under jit it is removed (D1)."""
    calls = []

    def f(v):
        jax.pure_callback(_recording_identity(calls), F32, v)
        return v * 2.0

    assert float(jax.checkpoint(f)(jnp.float32(1.5))) == 3.0
    jax.effects_barrier()
    assert calls == [1.5]
    assert float(jax.jit(jax.checkpoint(f))(jnp.float32(1.5))) == 3.0
    jax.effects_barrier()
    assert calls == [1.5]


@pytest.mark.parametrize("kind", ["custom_jvp", "custom_vjp"])
def test_D3_eager_custom_function_in_checkpoint_runs_an_unused_pure_callback(kind):
    """D3 (callback fuzzer, seed 1280): a custom_jvp/custom_vjp call evaluated eagerly (here
    inside an eager checkpoint) runs its operations one at a time, so an unused
    pure_callback in it still runs once."""
    calls = []

    def fun(v):
        jax.pure_callback(_recording_identity(calls), F32, v)
        return v * 2.0

    if kind == "custom_jvp":
        c = jax.custom_jvp(fun)
        c.defjvp(lambda p, t: (c(*p), t[0] * 2.0))
    else:
        c = jax.custom_vjp(fun)
        c.defvjp(lambda v: (fun(v), None), lambda _, g: (g * 2.0,))
    assert float(jax.checkpoint(c)(jnp.float32(1.5))) == 3.0
    jax.effects_barrier()
    assert calls == [1.5]
    # compiled (jit, or a loop body), the custom function's unused pure_callback is removed
    assert float(jax.jit(c)(jnp.float32(1.5))) == 3.0
    out = lax.scan(lambda x, _: (c(x), None), jnp.float32(1.5), None, length=2)[0]
    jax.effects_barrier()
    assert float(out) == 6.0
    assert calls == [1.5]


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
def test_D4_zero_output_pure_callback_never_runs(use_jit):
    """D4: a pure_callback with result_shape_dtypes=None never runs, not even eagerly."""
    calls = []

    def f(x):
        return jax.pure_callback(lambda v: calls.append(float(v)), None, x)

    assert (jax.jit(f) if use_jit else f)(jnp.float32(1.0)) is None
    jax.effects_barrier()
    assert calls == []


@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
def test_D5_io_callback_with_unused_result_runs(use_jit, ordered):
    """D5: io_callbacks are never DCE'd: an unused result or no result at all still runs."""
    calls = []

    def f(x):
        io_callback(_recording_identity(calls), F32, x, ordered=ordered)
        io_callback(lambda v: calls.append(-float(v)), None, x, ordered=ordered)
        return x * 2.0

    assert float((jax.jit(f) if use_jit else f)(jnp.float32(3.0))) == 6.0
    jax.effects_barrier()
    assert sorted(calls) == [-3.0, 3.0]


@pytest.mark.parametrize("ordered", [False, True])
def test_D5_io_callback_runs_inside_grad(ordered):
    """D5/G5: an io_callback on non-differentiated values inside grad (of a jitted function)
    runs once."""
    calls = []

    @jax.jit
    def f(x, y):
        io_callback(lambda v: calls.append(float(v)), None, y, ordered=ordered)
        return x * 2.0

    assert float(jax.grad(f)(1.0, 5.0)) == 2.0
    jax.effects_barrier()
    assert calls == [5.0]


@pytest.mark.parametrize("ordered", [False, True])
def test_D6_debug_callbacks_never_dced(capsys, ordered):
    """D6: debug callbacks run even when the enclosing function returns nothing."""
    calls = []

    @jax.jit
    def f(x):
        jax.debug.callback(lambda v: calls.append(float(v)), x, ordered=ordered)
        jax.debug.print("x: {}", x, ordered=ordered)

    assert f(jnp.float32(2.0)) is None
    jax.effects_barrier()
    assert calls == [2.0]
    assert capsys.readouterr().out == "x: 2.0\n"


def test_D7_identical_pure_callbacks_may_or_may_not_be_merged():
    """D7: two textually identical pure_callbacks whose results are used give the right
    values; deduplication is allowed but not required (one or two runs)."""
    calls = []
    cb = _recording_identity(calls)

    def f(x):
        return jax.pure_callback(cb, F32, x) + jax.pure_callback(cb, F32, x)

    assert float(jax.jit(f)(jnp.float32(1.5))) == 3.0
    jax.effects_barrier()
    assert calls in ([1.5], [1.5, 1.5])


def test_D7_sequential_vmap_may_run_pure_callback_per_element():
    """D7: under vmap with vmap_method='sequential' the callback runs once per element."""
    calls = []

    def f(x):
        return jax.pure_callback(_recording_identity(calls), F32, x, vmap_method="sequential")

    out = jax.vmap(f)(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [0.0, 1.0, 2.0])
    assert calls == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("use_jit", [False, True], ids=["eager", "jit"])
def test_D8_untaken_cond_branch_debug_callback_dropped(use_jit):
    """D8: debug callbacks in the untaken cond/switch branch do not run."""
    calls = []

    def branch(name):
        def run(v):
            jax.debug.callback(lambda w: calls.append((name, int(w))), v)
            return v

        return run

    def f(i):
        lax.cond(i > 0, branch("true"), branch("false"), i)
        return lax.switch(i, [branch("b0"), branch("b1"), branch("b2")], i)

    (jax.jit(f) if use_jit else f)(1)
    jax.effects_barrier()
    assert calls == [("true", 1), ("b1", 1)]


def test_D8_custom_jvp_primal_body_dropped_when_differentiated():
    """D8: when a custom_jvp function is differentiated only its rule runs."""
    calls = []

    @jax.custom_jvp
    def f(x):
        jax.debug.callback(lambda v: calls.append(("primal", float(v))), x)
        return x * 3.0

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        jax.debug.callback(lambda v: calls.append(("rule", float(v))), x)
        return x * 3.0, t * 3.0

    assert float(jax.grad(f)(2.0)) == 3.0
    jax.effects_barrier()
    assert calls == [("rule", 2.0)]


def test_D8_custom_vjp_primal_body_dropped_under_vjp():
    """D8: under vjp a custom_vjp function's primal body does not run (only fwd, then bwd)."""
    calls = []

    @jax.custom_vjp
    def f(x):
        jax.debug.callback(lambda v: calls.append(("primal", float(v))), x)
        return x * 3.0

    def fwd(x):
        jax.debug.callback(lambda v: calls.append(("fwd", float(v))), x)
        return x * 3.0, None

    def bwd(_, ct):
        return (ct * 3.0,)

    f.defvjp(fwd, bwd)
    _, pullback = jax.vjp(f, 2.0)
    jax.effects_barrier()
    assert calls == [("fwd", 2.0)]
    assert float(pullback(1.0)[0]) == 3.0
    jax.effects_barrier()
    assert calls == [("fwd", 2.0)]


def test_D8_backward_pass_runs_no_debug_callbacks():
    """D8: a debug callback fires in the forward pass only; applying the pullback adds none."""
    calls = []

    def f(x):
        jax.debug.callback(lambda v: calls.append(float(v)), x)
        return jnp.sin(x)

    _, pullback = jax.vjp(f, 1.0)
    jax.effects_barrier()
    assert calls == [1.0]
    pullback(1.0)
    pullback(2.0)
    jax.effects_barrier()
    assert calls == [1.0]
