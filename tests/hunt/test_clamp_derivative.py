"""``lax.clamp``'s derivative (a wrong answer found by the stats engineer): jaxlite gave the
operand's tangent at the bounds too (1 where JAX gives 0) and no derivative at all in
``min`` and ``max``. JAX 0.10.2's rule: the operand's tangent strictly inside
``(min, max)``, ``min``'s where ``operand < min < max``, ``max``'s where ``max < operand``.
Expected values are JAX's; the file also passes in oracle mode."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp

X = jnp.array([-2.0, 0.0, 0.5, 1.0, 3.0])


@pytest.mark.parametrize("jit", [False, True])
def test_grads_in_all_three_arguments(jit):
    f = lambda lo, x, hi: jaxlite.lax.clamp(lo, x, hi)  # noqa: E731
    g = jaxlite.vmap(jaxlite.grad(f, (0, 1, 2)))
    g = jaxlite.jit(g) if jit else g
    d_lo, d_x, d_hi = g(jnp.zeros(5), X, jnp.ones(5))
    np.testing.assert_array_equal(np.asarray(d_lo), [1, 0, 0, 0, 0])
    np.testing.assert_array_equal(np.asarray(d_x), [0, 0, 1, 0, 0])  # 0 at both bounds
    np.testing.assert_array_equal(np.asarray(d_hi), [0, 0, 0, 0, 1])
    assert d_lo.dtype == jnp.float32 and not d_lo.weak_type


def test_jvp_sums_the_active_tangents():
    primal, tangent = jaxlite.jvp(
        lambda lo, hi: jaxlite.lax.clamp(lo, X, hi),
        (jnp.zeros(5), jnp.ones(5)),
        (jnp.ones(5), 2 * jnp.ones(5)),
    )
    np.testing.assert_array_equal(np.asarray(primal), [0, 0, 0.5, 1, 1])
    np.testing.assert_array_equal(np.asarray(tangent), [1, 0, 0, 0, 2])


def test_min_above_max_gives_no_derivative_in_min():
    assert float(jaxlite.grad(lambda lo: jaxlite.lax.clamp(lo, 0.5, 0.2))(0.7)) == 0.0
