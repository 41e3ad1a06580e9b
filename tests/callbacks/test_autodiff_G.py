"""Spec section G (autodiff): ``pure_callback``/``io_callback`` under ``grad``/``jvp``/
``linearize``/``vjp``/``linear_transpose``, debug prints under AD, and callbacks inside
``custom_jvp``/``custom_vjp`` functions and rules.

Behaviour numbers (G1..G12) refer to ``spec/callbacks.md``. G13 (``inspect_array_sharding``
under ``jit(grad)``) is a sharding utility, out of scope for this file.

The last group covers a jaxlite guarantee that goes beyond the JAX spec (1.7 says JAX does
not officially allow IO effects in custom derivatives): ``io_callback`` inside
``custom_jvp``/``custom_vjp`` functions and rules works under ``jit``, ``vmap`` and ``grad``,
with the call counts checked. JAX in its default configuration behaves the same way, so these
tests are not marked ``jaxlite_only`` and are validated in oracle mode. Only the combinations
JAX refuses (inside ``checkpoint`` under AD, inside vmap-of-cond) are ``jaxlite_only``.
"""

import re

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.experimental import io_callback

F32 = jax.ShapeDtypeStruct((), jnp.float32)

PURE_JVP_MSG = re.escape(
    "Pure callbacks do not support JVP. Please use `jax.custom_jvp` to use callbacks while "
    "taking gradients."
)
PURE_TRANSPOSE_MSG = re.escape(
    "Pure callbacks do not support transpose. Please use `jax.custom_vjp` to use callbacks "
    "while taking gradients."
)
IO_JVP_MSG = re.escape("IO callbacks do not support JVP.")
IO_TRANSPOSE_MSG = re.escape("IO callbacks do not support transpose.")


def _io_unordered(cb, result_shape, *args):
    return io_callback(cb, result_shape, *args, ordered=False)


def _io_ordered(cb, result_shape, *args):
    return io_callback(cb, result_shape, *args, ordered=True)


def _pure(cb, result_shape, *args):
    return jax.pure_callback(cb, result_shape, *args, vmap_method="sequential")


FLAVOURS = [
    pytest.param(_io_unordered, id="io_unordered"),
    pytest.param(_io_ordered, id="io_ordered"),
    pytest.param(_pure, id="pure_callback"),
]
IO_FLAVOURS = FLAVOURS[:2]

AD_ENTRY_POINTS = {
    "grad": lambda f: jax.grad(f)(1.0),
    "jit_grad": lambda f: jax.jit(jax.grad(f))(1.0),
    "jvp": lambda f: jax.jvp(f, (1.0,), (1.0,)),
    "linearize": lambda f: jax.linearize(f, 1.0),
    "vjp": lambda f: jax.vjp(f, 1.0),
}


def _recorder(calls, tag=None):
    def cb(x):
        calls.append(float(x) if tag is None else (tag, float(x)))
        return x

    return cb


# ---------------------------------------------------------------------------------------------
# G1..G4: callbacks with non-zero tangents / under transpose


@pytest.mark.parametrize("entry", list(AD_ENTRY_POINTS))
def test_G1_pure_callback_with_nonzero_tangent_raises(entry):
    calls = []

    def f(x):
        return jnp.sin(_pure(_recorder(calls), F32, x))

    with pytest.raises(ValueError, match=PURE_JVP_MSG):
        AD_ENTRY_POINTS[entry](f)
        jax.effects_barrier()
    assert calls == []


def test_G2_pure_callback_transpose_raises():
    def f(x):
        return _pure(lambda v: v, F32, x)

    with pytest.raises(ValueError, match=PURE_TRANSPOSE_MSG):
        jax.linear_transpose(f, 1.0)(1.0)
        jax.effects_barrier()


@pytest.mark.parametrize("entry", list(AD_ENTRY_POINTS))
@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_G3_io_callback_with_nonzero_tangent_raises(callback, entry):
    calls = []

    def f(x):
        return callback(_recorder(calls), F32, x) * 2.0

    with pytest.raises(ValueError, match=IO_JVP_MSG):
        AD_ENTRY_POINTS[entry](f)
        jax.effects_barrier()
    assert calls == []


@pytest.mark.parametrize("callback", IO_FLAVOURS)
def test_G4_io_callback_transpose_raises(callback):
    def f(x):
        return callback(lambda v: v, F32, x)

    with pytest.raises(ValueError, match=IO_TRANSPOSE_MSG):
        jax.linear_transpose(f, 1.0)(1.0)
        jax.effects_barrier()


# ---------------------------------------------------------------------------------------------
# G5: callbacks on non-differentiated values


@pytest.mark.parametrize("entry", ["grad", "jit_grad", "jvp", "vjp", "linearize"])
@pytest.mark.parametrize("callback", FLAVOURS)
def test_G5_callback_on_non_differentiated_value_runs_once(callback, entry):
    calls = []

    def g(x, y):
        return x * callback(_recorder(calls), F32, y)

    x, y = 2.0, 3.0
    if entry == "grad":
        assert float(jax.grad(g)(x, y)) == 3.0
    elif entry == "jit_grad":
        assert float(jax.jit(jax.grad(g))(x, y)) == 3.0
    elif entry == "jvp":
        primal, tangent = jax.jvp(lambda x: g(x, y), (x,), (1.0,))
        assert (float(primal), float(tangent)) == (6.0, 3.0)
    elif entry == "vjp":
        primal, pullback = jax.vjp(lambda x: g(x, y), x)
        (ct,) = pullback(1.0)
        assert (float(primal), float(ct)) == (6.0, 3.0)
    else:
        primal, f_lin = jax.linearize(lambda x: g(x, y), x)
        assert (float(primal), float(f_lin(1.0))) == (6.0, 3.0)
    jax.effects_barrier()
    assert calls == [3.0]


def test_G5_docs_example_output_free_io_callback_under_grad(capsys):
    @jax.jit
    def f(x):
        io_callback(lambda: print("hello"), None)
        return x

    assert float(jax.grad(f)(1.0)) == 1.0
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello\n"


# ---------------------------------------------------------------------------------------------
# G6..G11: debug prints under AD


@pytest.mark.parametrize("ordered", [False, True])
def test_G6_debug_print_under_jvp_prints_primal_once(capsys, ordered):
    def f(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        return x * 2.0

    primal, tangent = jax.jvp(f, (1.0,), (1.0,))
    jax.effects_barrier()
    assert (float(primal), float(tangent)) == (2.0, 2.0)
    assert capsys.readouterr().out == "x: 1.0\n"


@pytest.mark.parametrize("ordered", [False, True])
def test_G7_debug_print_under_vjp_prints_in_forward_pass_only(capsys, ordered):
    def f(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        return x * 2.0

    primal, pullback = jax.vjp(f, 1.0)
    jax.effects_barrier()
    assert float(primal) == 2.0
    assert capsys.readouterr().out == "x: 1.0\n"
    (ct,) = pullback(1.0)
    jax.effects_barrier()
    assert float(ct) == 2.0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("ordered", [False, True])
def test_G7_debug_print_under_grad_prints_once(capsys, ordered, wrap):
    def f(x):
        jax.debug.print("x: {}", x, ordered=ordered)
        return jnp.sin(x)

    g = jax.grad(f)
    if wrap is not None:
        g = wrap(g)
    out = g(1.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), np.cos(1.0), rtol=1e-6)
    assert capsys.readouterr().out == "x: 1.0\n"


def test_G7_debug_callback_never_sees_tangents_or_cotangents():
    seen = []

    def f(x):
        jax.debug.callback(lambda v: seen.append(float(v)), x)
        return x * x

    jax.jvp(f, (3.0,), (5.0,))
    jax.grad(f)(4.0)
    jax.effects_barrier()
    assert seen == [3.0, 4.0]


def test_G8_debug_print_in_custom_jvp_rule_prints_tangent(capsys):
    @jax.custom_jvp
    def print_tangent(x):
        return x

    @print_tangent.defjvp
    def _print_tangent_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        jax.debug.print("x_tangent: {}", t)
        return x, t

    def f(x):
        return print_tangent(x**2)

    primal, tangent = jax.jvp(f, (1.0,), (1.0,))
    jax.effects_barrier()
    assert (float(primal), float(tangent)) == (1.0, 2.0)
    assert capsys.readouterr().out == "x_tangent: 2.0\n"


def test_G9_debug_print_in_custom_vjp_bwd_prints_cotangent(capsys):
    @jax.custom_vjp
    def print_grad(x):
        return x

    def _fwd(x):
        return x, None

    def _bwd(_, ct):
        jax.debug.print("x_grad: {}", ct)
        return (ct,)

    print_grad.defvjp(_fwd, _bwd)

    def f(x):
        jax.debug.print("x: {}", x)
        return print_grad(x) ** 2

    out = jax.grad(f)(1.0)
    jax.effects_barrier()
    assert float(out) == 2.0
    assert capsys.readouterr().out == "x: 1.0\nx_grad: 2.0\n"


def test_G10_staged_custom_jvp_prints_primal_or_rule(capsys):
    @jax.custom_jvp
    def f(x):
        jax.debug.print("hello: {x}", x=x)
        return x

    @f.defjvp
    def _f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        jax.debug.print("goodbye: {x} {t}", x=x, t=t)
        return x, t

    @jax.jit
    def g(x):
        return f(x)

    g(2.0)
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello: 2.0\n"
    primal, tangent = jax.jvp(g, (2.0,), (3.0,))
    jax.effects_barrier()
    assert (float(primal), float(tangent)) == (2.0, 3.0)
    assert capsys.readouterr().out == "goodbye: 2.0 3.0\n"


def test_G11_staged_custom_vjp_prints_primal_fwd_bwd(capsys):
    @jax.custom_vjp
    def f(x):
        jax.debug.print("hello: {x}", x=x)
        return x

    def _fwd(x):
        jax.debug.print("hello fwd: {x}", x=x)
        return x, x

    def _bwd(x, ct):
        jax.debug.print("hello bwd: {x} {ct}", x=x, ct=ct)
        return (ct,)

    f.defvjp(_fwd, _bwd)

    @jax.jit
    def g(x):
        return f(x)

    g(2.0)
    jax.effects_barrier()
    assert capsys.readouterr().out == "hello: 2.0\n"
    primal, pullback = jax.vjp(g, 2.0)
    jax.effects_barrier()
    assert float(primal) == 2.0
    assert capsys.readouterr().out == "hello fwd: 2.0\n"
    (ct,) = pullback(3.0)
    jax.effects_barrier()
    assert float(ct) == 3.0
    assert capsys.readouterr().out == "hello bwd: 2.0 3.0\n"


def test_G12_pure_callback_with_custom_jvp():
    calls = []

    def host_sin(x):
        calls.append("sin")
        return np.sin(np.asarray(x))

    def host_cos(x):
        calls.append("cos")
        return np.cos(np.asarray(x))

    @jax.custom_jvp
    def sin(x):
        return jax.pure_callback(host_sin, F32, x)

    @sin.defjvp
    def _sin_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return sin(x), jax.pure_callback(host_cos, F32, x) * t

    out = jax.jit(jax.grad(sin))(2.0)
    np.testing.assert_allclose(float(out), np.cos(2.0), rtol=1e-6)
    assert "cos" in calls
    np.testing.assert_allclose(float(sin(2.0)), np.sin(2.0), rtol=1e-6)


def test_G12_pure_callback_with_custom_vjp():
    @jax.custom_vjp
    def exp(x):
        return jax.pure_callback(lambda v: np.exp(np.asarray(v)), F32, x)

    def _fwd(x):
        y = exp(x)
        return y, y

    def _bwd(y, ct):
        return (jax.pure_callback(lambda a, b: np.asarray(a) * np.asarray(b), F32, y, ct),)

    exp.defvjp(_fwd, _bwd)
    out = jax.jit(jax.grad(lambda x: exp(x) * 2.0))(1.5)
    np.testing.assert_allclose(float(out), 2.0 * np.exp(1.5), rtol=1e-6)


# ---------------------------------------------------------------------------------------------
# io_callback inside custom_jvp / custom_vjp (jaxlite guarantee, see module docstring)


def _custom_jvp_with_io(calls, ordered):
    @jax.custom_jvp
    def f(x):
        return io_callback(_recorder(calls, "primal"), F32, x, ordered=ordered) * 2.0

    @f.defjvp
    def _f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        y = io_callback(_recorder(calls, "rule"), F32, x, ordered=ordered) * 2.0
        return y, 2.0 * t

    return f


def _custom_vjp_with_io(calls, ordered):
    @jax.custom_vjp
    def f(x):
        return io_callback(_recorder(calls, "primal"), F32, x, ordered=ordered) * 2.0

    def _fwd(x):
        return io_callback(_recorder(calls, "fwd"), F32, x, ordered=ordered) * 2.0, x

    def _bwd(x, ct):
        return (io_callback(_recorder(calls, "bwd"), F32, ct, ordered=ordered) * 2.0,)

    f.defvjp(_fwd, _bwd)
    return f


CUSTOM = [
    pytest.param(_custom_jvp_with_io, id="custom_jvp"),
    pytest.param(_custom_vjp_with_io, id="custom_vjp"),
]


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("ordered", [False, True])
@pytest.mark.parametrize("make", CUSTOM)
def test_io_callback_in_custom_derivative_plain_call_runs_primal(make, ordered, wrap):
    calls = []
    f = make(calls, ordered)
    if wrap is not None:
        f = wrap(f)
    assert float(f(3.0)) == 6.0
    jax.effects_barrier()
    assert calls == [("primal", 3.0)]


@pytest.mark.parametrize("make", CUSTOM)
def test_io_callback_in_custom_derivative_under_vmap(make):
    calls = []
    f = make(calls, False)
    out = jax.vmap(f)(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [0.0, 2.0, 4.0])
    assert calls == [("primal", 0.0), ("primal", 1.0), ("primal", 2.0)]


@pytest.mark.parametrize("make", CUSTOM)
def test_ordered_io_callback_in_custom_derivative_under_vmap_raises(make):
    calls = []
    f = make(calls, True)
    with pytest.raises(ValueError, match=re.escape("Cannot `vmap` ordered IO callback.")):
        jax.vmap(f)(jnp.arange(3.0))
        jax.effects_barrier()
    assert calls == []


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("ordered", [False, True])
def test_io_callback_in_custom_jvp_under_grad_runs_rule_only(ordered, wrap):
    calls = []
    g = jax.grad(_custom_jvp_with_io(calls, ordered))
    if wrap is not None:
        g = wrap(g)
    assert float(g(3.0)) == 2.0
    jax.effects_barrier()
    assert calls == [("rule", 3.0)]


@pytest.mark.parametrize("ordered", [False, True])
def test_io_callback_in_custom_jvp_under_jvp_runs_rule_only(ordered):
    calls = []
    primal, tangent = jax.jvp(_custom_jvp_with_io(calls, ordered), (3.0,), (1.0,))
    jax.effects_barrier()
    assert (float(primal), float(tangent)) == (6.0, 2.0)
    assert calls == [("rule", 3.0)]


def test_io_callback_in_custom_jvp_under_vmap_of_grad():
    calls = []
    out = jax.vmap(jax.grad(_custom_jvp_with_io(calls, False)))(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0, 2.0])
    assert calls == [("rule", 0.0), ("rule", 1.0), ("rule", 2.0)]


@pytest.mark.parametrize("wrap", [pytest.param(jax.jit, id="jit"), pytest.param(None, id="eager")])
@pytest.mark.parametrize("ordered", [False, True])
def test_io_callback_in_custom_vjp_under_grad_runs_fwd_then_bwd(ordered, wrap):
    calls = []
    g = jax.grad(_custom_vjp_with_io(calls, ordered))
    if wrap is not None:
        g = wrap(g)
    assert float(g(3.0)) == 2.0
    jax.effects_barrier()
    assert calls == [("fwd", 3.0), ("bwd", 1.0)]


@pytest.mark.parametrize("ordered", [False, True])
def test_io_callback_in_custom_vjp_bwd_runs_when_pullback_applied(ordered):
    calls = []
    primal, pullback = jax.vjp(_custom_vjp_with_io(calls, ordered), 3.0)
    jax.effects_barrier()
    assert float(primal) == 6.0
    assert calls == [("fwd", 3.0)]
    (ct,) = pullback(5.0)
    jax.effects_barrier()
    assert float(ct) == 10.0
    assert calls == [("fwd", 3.0), ("bwd", 5.0)]


def test_io_callback_in_custom_vjp_under_vmap_of_grad():
    calls = []
    out = jax.vmap(jax.grad(_custom_vjp_with_io(calls, False)))(jnp.arange(3.0))
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0, 2.0])
    fwd = [c for c in calls if c[0] == "fwd"]
    bwd = [c for c in calls if c[0] == "bwd"]
    assert fwd == [("fwd", 0.0), ("fwd", 1.0), ("fwd", 2.0)]
    assert calls.index(bwd[0]) > calls.index(fwd[-1])
    # The seed cotangent 1.0 is the same for every element: an engine may keep it unbatched
    # (one call, the F general rule) or batch it (one call per element).
    assert bwd in ([("bwd", 1.0)], [("bwd", 1.0)] * 3)
    assert len(calls) == len(fwd) + len(bwd)


# Combinations JAX refuses (IO effect in checkpoint under AD, H1; in vmap-of-cond, F11):
# jaxlite-only.


@pytest.mark.jaxlite_only
def test_io_callback_in_custom_jvp_inside_checkpoint_under_grad():
    calls = []
    f = _custom_jvp_with_io(calls, False)
    out = jax.grad(jax.checkpoint(lambda x: jnp.sin(f(x))))(3.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), 2.0 * np.cos(6.0), rtol=1e-5)
    # The rule's callback runs once, in the forward pass; remat does not re-run it.
    assert calls == [("rule", 3.0)]


@pytest.mark.jaxlite_only
def test_io_callback_in_custom_vjp_inside_checkpoint_under_grad():
    calls = []
    f = _custom_vjp_with_io(calls, False)
    out = jax.grad(jax.checkpoint(lambda x: jnp.sin(f(x))))(3.0)
    jax.effects_barrier()
    np.testing.assert_allclose(float(out), 2.0 * np.cos(6.0), rtol=1e-5)
    assert [tag for tag, _ in calls] == ["fwd", "bwd"]
    assert calls[0] == ("fwd", 3.0)
    np.testing.assert_allclose(calls[1][1], np.cos(6.0), rtol=1e-5)


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("make", CUSTOM)
def test_io_callback_in_custom_derivative_in_vmap_of_cond(make):
    calls = []
    f = make(calls, False)
    out = jax.vmap(lambda p, x: jax.lax.cond(p, f, lambda x: x, x))(
        jnp.array([True, False, True]), jnp.arange(3.0)
    )
    jax.effects_barrier()
    np.testing.assert_array_equal(np.asarray(out), [0.0, 1.0, 4.0])
    # Per element: only the elements taking the custom-derivative branch call back.
    assert calls == [("primal", 0.0), ("primal", 2.0)]


# ---------------------------------------------------------------------------------------------
# Documented differences found by the callback fuzzer (docs/compat.md, "Host callbacks")


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("kind", ["debug", "io"])
def test_G5_effects_in_a_scan_under_grad_run_every_iteration(kind):
    """G5/G7: under grad, a debug callback or io_callback in a scan runs once per iteration
    in the forward pass, also when its operand is loop-invariant or a non-differentiated
    carry (JAX moves such effects out of the loop, or drops the io_callback)."""
    from jaxlite import lax

    calls = []
    y = jnp.float32(1.5)

    def body(c, _):
        if kind == "debug":
            jax.debug.callback(lambda a, b: calls.append((float(a), float(b))), y, c)
        else:
            io_callback(
                lambda a, b: calls.append((float(a), float(b))), None, y, jax.lax.stop_gradient(c)
            )
        return c * 2.0, None

    g = jax.grad(lambda x: lax.scan(body, x, None, length=3)[0])(jnp.float32(1.0))
    jax.effects_barrier()
    assert float(g) == 8.0
    assert calls == [(1.5, 1.0), (1.5, 2.0), (1.5, 4.0)]


@pytest.mark.jaxlite_only
def test_G4_io_callback_on_a_tangent_in_a_custom_jvp_rule_under_grad_raises():
    """G4: an io_callback applied to the tangent in a custom_jvp rule needs a transpose
    under grad: jaxlite raises G4's error (JAX drops the io_callback silently); under jvp it
    runs with the tangent."""
    calls = []

    @jax.custom_jvp
    def f(x):
        return x * 2.0

    def rule(primals, tangents):
        (x,), (t,) = primals, tangents
        io_callback(lambda a: calls.append(float(a)), None, t)
        return f(x), t * 2.0

    f.defjvp(rule)
    with pytest.raises(ValueError, match="IO callbacks do not support transpose."):
        jax.grad(f)(jnp.float32(1.0))
    assert jax.jvp(f, (jnp.float32(1.0),), (jnp.float32(3.0),))[1] == 6.0
    jax.effects_barrier()
    assert calls == [3.0]
