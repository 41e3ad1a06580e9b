"""Legacy jax.experimental.host_callback on io_callback, with DeprecationWarnings (issue 14).

JAX removed the module, so these tests are jaxlite-only.
"""

import io

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

# JAX removed host_callback: in oracle mode (jaxlite is JAX) the module is skipped.
hcb = pytest.importorskip("jaxlite.experimental.host_callback", reason="JAX removed it")

pytestmark = pytest.mark.jaxlite_only


def test_id_tap_id_print_call_eager_jit_grad_vmap():
    seen = []
    out = io.StringIO()

    def f(x):
        y = hcb.id_tap(lambda a, transforms: seen.append((float(a), transforms)), x * 2)
        hcb.id_print(y, what="y", output_stream=out)
        z = hcb.call(lambda a: a + 1, y, result_shape=jax.ShapeDtypeStruct((), jnp.float32))
        return y * z

    with pytest.warns(DeprecationWarning, match="use jax.debug.callback"):
        assert float(f(1.0)) == 6.0
    with pytest.warns(DeprecationWarning):
        assert float(jax.jit(f)(1.0)) == 6.0
        # the tap is the identity for differentiation; the call's result is a constant
        assert float(jax.grad(f)(1.0)) == 6.0
        np.testing.assert_array_equal(jax.vmap(f)(jnp.arange(3.0)), [0, 6, 20])
    assert [v for v, _ in seen] == [2.0, 2.0, 2.0, 0.0, 2.0, 4.0]
    assert all(t == () for _, t in seen)
    assert out.getvalue().startswith("what: y\n2.")


def test_id_tap_result_and_call_without_result():
    calls = []
    with pytest.warns(DeprecationWarning, match="host_callback.id_tap"):
        r = hcb.id_tap(lambda a, t: calls.append(a), jnp.ones(2), result=jnp.zeros(3))
    assert r.shape == (3,)
    with pytest.warns(DeprecationWarning, match="host_callback.call"):
        assert hcb.call(lambda a: calls.append(a), jnp.ones(1)) is None
    assert len(calls) == 2
    with pytest.warns(DeprecationWarning, match="effects_barrier"):
        hcb.barrier_wait()
