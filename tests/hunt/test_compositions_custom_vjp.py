"""Regression tests for forward-mode differentiation of ``custom_vjp`` functions inside
control flow, found by differential testing against JAX 0.10.2. JAX compiles every branch
and loop body, so a custom_vjp function evaluated forward anywhere in them raises its
TypeError, even in an untaken branch or a loop that runs zero times. The file also passes
in oracle mode (``JAXLITE_ORACLE=jax``)."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite import lax

_MSG = "can't apply forward-mode autodiff"
_X = np.array([-1.5, 0.0, 0.5], np.float32)


def _cv():
    @jaxlite.custom_vjp
    def f(x):
        return jnp.tanh(x) * 2

    f.defvjp(lambda x: (f(x), jnp.cosh(x)), lambda r, g: (g * 3.0 / r,))
    return f


_CASES = {
    "cond_untaken": lambda f: lambda x: lax.cond(False, f, jnp.sin, x),
    "cond_traced_pred_untaken": lambda f: lambda x: lax.cond(x[0] > 0, f, jnp.sin, x),
    "switch_untaken": lambda f: lambda x: lax.switch(0, [jnp.sin, jnp.cos, f], x),
    "nested_cond_untaken": lambda f: (
        lambda x: lax.cond(True, lambda x: lax.cond(False, f, jnp.sin, x), jnp.cos, x)
    ),
    "while_zero_iterations": lambda f: lambda x: lax.while_loop(lambda c: False, f, x),
}


@pytest.mark.parametrize("jit", [False, True])
@pytest.mark.parametrize("case", sorted(_CASES))
def test_jvp_of_custom_vjp_in_untaken_code_raises(case, jit):
    # jaxlite returned sin's JVP for the cond cases and x for the while loop.
    fn = _CASES[case](_cv())

    def run(x):
        return jaxlite.jvp(fn, (x,), (x,))

    with pytest.raises(TypeError, match=_MSG):
        (jaxlite.jit(run) if jit else run)(_X)


def test_zero_tangent_array_still_takes_the_custom_vjp_jvp():
    # A concrete zeros tangent is not a symbolic zero: JAX raises here too.
    f = _cv()

    def g(x, y):
        return lax.cond(False, lambda: f(y), lambda: x)

    with pytest.raises(TypeError, match=_MSG):
        jaxlite.jvp(g, (_X, _X), (_X, jnp.zeros_like(_X)))


def test_reverse_mode_through_the_same_programs_still_works():
    f = _cv()
    g = lambda x: lax.cond(x[0] > 0, f, jnp.sin, x).sum()  # noqa: E731
    want = [0.0707372, 1.0, 0.87758255]  # JAX's: cos(x), the taken branch
    np.testing.assert_allclose(np.asarray(jaxlite.grad(g)(_X)), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(jaxlite.jit(jaxlite.grad(g))(_X)), want, rtol=1e-5)
    y, f_lin = jaxlite.linearize(lambda x: lax.cond(False, f, jnp.sin, x), _X)
    np.testing.assert_allclose(np.asarray(y), np.sin(_X), rtol=1e-6)
    # Only a primal output under jit: the tangent map is dead code, nothing is compiled.
    out = jaxlite.jit(lambda x: jaxlite.jvp(f, (x,), (x,))[0])(_X)
    np.testing.assert_allclose(np.asarray(out), 2 * np.tanh(_X), rtol=1e-6)


def test_grad_of_a_jvp_of_a_custom_vjp_function_has_no_rule():
    """Callback fuzzer (seed 3117): grad of ``jvp(custom_vjp_f)`` reaches the JVP of the
    tangent map itself, for which JAX has no rule: NotImplementedError (the plain jvp keeps
    the TypeError)."""
    f = _cv()

    def inner(v):
        p, t = jaxlite.jvp(f, (v,), (jnp.ones_like(v),))
        return jnp.sum(p + t)

    x = jnp.asarray(_X)
    with pytest.raises(NotImplementedError, match="Differentiation rule for 'custom_lin'"):
        jaxlite.grad(inner)(x)
    with pytest.raises(TypeError, match=_MSG):
        inner(x)
