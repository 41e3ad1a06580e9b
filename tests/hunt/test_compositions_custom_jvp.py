"""custom_jvp inside loops at second order, found by differential testing against JAX
0.10.2. With a rule that is not the primal's derivative, JAX's reverse-mode second
derivative through ``scan`` differs from its own unrolled loop (compat.md, "Transformations,
jit and numerics"); jaxlite uses the rule at every order, so loop and unrolled loop agree."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
from jaxlite import lax

_XS = np.array([0.5, -0.3], np.float32)


def _scaled_rule():
    @jaxlite.custom_jvp
    def f(x):
        return jnp.sin(x) * x

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), (jnp.cos(x) * x + jnp.sin(x)) * t * 1.5

    return f


def _second(mode, fn):
    if mode == "grad_grad":
        return jaxlite.grad(jaxlite.grad(fn))(0.5)
    if mode == "jacfwd_grad":
        return jaxlite.jacfwd(jaxlite.grad(fn))(0.5)
    return jaxlite.jvp(lambda c: jaxlite.jvp(fn, (c,), (1.0,))[1], (0.5,), (1.0,))[1]


def test_unrolled_second_derivative_is_jaxs():
    # The unrolled loop: JAX gives 0.048144687 in every mode.
    f = _scaled_rule()
    unrolled = lambda c: f(f(c * 0.5) * -0.3)  # noqa: E731
    for mode in ("grad_grad", "jacfwd_grad", "jvp_jvp"):
        np.testing.assert_allclose(float(_second(mode, unrolled)), 0.048144687, rtol=1e-5)


@pytest.mark.jaxlite_only
@pytest.mark.parametrize("mode", ["grad_grad", "jacfwd_grad", "jvp_jvp"])
@pytest.mark.parametrize("loop", ["scan", "fori_loop"])
def test_loop_second_derivative_equals_the_unrolled_loop(loop, mode):
    f = _scaled_rule()
    if loop == "scan":
        fn = lambda c: lax.scan(lambda c, x: (f(c * x), c), c, _XS)[0]  # noqa: E731
    else:
        xs = jnp.asarray(_XS)
        fn = lambda c: lax.fori_loop(0, 2, lambda i, c: f(c * xs[i]), c)  # noqa: E731
    np.testing.assert_allclose(float(_second(mode, fn)), 0.048144687, rtol=1e-5)


@pytest.mark.jaxlite_only
def test_hessian_through_scan_of_custom_jvp_is_symmetric():
    f = _scaled_rule()
    h = lambda x: lax.scan(lambda c, xi: (f(c * xi), c), 0.5, x)[1]  # noqa: E731
    hv = lambda x: jaxlite.vjp(h, x)[1](jnp.ones(3))[0]  # noqa: E731
    x = np.array([0.5, -0.3, -1.5], np.float32)
    m = np.asarray(jaxlite.jacfwd(hv)(x))
    np.testing.assert_allclose(m, m.T, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(np.asarray(jaxlite.jacrev(hv)(x)), m, rtol=1e-5, atol=1e-7)
