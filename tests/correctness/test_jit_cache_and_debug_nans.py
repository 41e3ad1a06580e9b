"""Issue 15 items 7 and 8: jit caches are keyed on the function (so two wrappers of one
function trace it once, and a global read at trace time behaves as in JAX), and
``jax_debug_nans``/``jax_debug_infs`` raise ``FloatingPointError`` naming the primitive."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

# ---------------------------------------------------------------- item 7: shared cache


def test_two_jit_wrappers_of_one_function_trace_once():
    calls = []

    def f(x):
        calls.append(1)
        return x * 2

    np.testing.assert_allclose(jax.jit(f)(1.0), 2.0)
    np.testing.assert_allclose(jax.jit(f)(2.0), 4.0)
    assert len(calls) == 1
    # Different jit options are a different cache.
    jax.jit(f, static_argnums=0)(3.0)
    assert len(calls) == 2


def test_impure_function_reads_its_global_once_as_in_jax():
    state = {"y": 1.0}

    def g(x):
        return x + state["y"]

    assert float(jax.jit(g)(1.0)) == 2.0
    state["y"] = 5.0
    # JAX's "impure function" gotcha: the cached trace keeps the value read when tracing.
    assert float(jax.jit(g)(1.0)) == 2.0
    # A new signature traces again and sees the new value.
    assert float(jax.jit(g)(jnp.ones(2))[0]) == 6.0


def test_distinct_functions_do_not_share():
    fs = [lambda x, k=k: x + k for k in range(3)]
    assert [float(jax.jit(f)(0.0)) for f in fs] == [0.0, 1.0, 2.0]


# ---------------------------------------------------------------- item 8: debug_nans


@pytest.mark.parametrize(
    "f, arg, prim",
    [
        (lambda x: jnp.log(x), -1.0, "log"),
        (lambda x: x / jnp.asarray(x), 0.0, "div"),
        (lambda x: jnp.sqrt(x) * 2.0, -4.0, "sqrt"),
    ],
    ids=["log", "div", "sqrt"],
)
@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_debug_nans_names_the_primitive(f, arg, prim, jit):
    g = jax.jit(f) if jit else f
    with jax.debug_nans(True):
        with pytest.raises(
            FloatingPointError, match=rf"invalid value \(nan\) encountered in {prim}"
        ):
            g(arg)
        with pytest.raises(FloatingPointError, match=prim):  # again: a cache hit checks too
            g(arg)
    assert np.isnan(float(g(arg)))  # off again after the block


def test_debug_nans_config_update_and_restore():
    jax.config.update("jax_debug_nans", True)
    try:
        with pytest.raises(FloatingPointError, match="log"):
            jax.jit(lambda x: jnp.log(x) + 1.0)(-1.0)
        # Finite results and integer code are unaffected.
        assert float(jax.jit(lambda x: jnp.log(x))(1.0)) == 0.0
    finally:
        jax.config.update("jax_debug_nans", False)
    assert np.isnan(float(jax.jit(lambda x: jnp.log(x) + 1.0)(-1.0)))


def test_debug_nans_inside_nested_jit_and_scan():
    with jax.debug_nans(True):
        with pytest.raises(FloatingPointError, match="log"):
            jax.jit(lambda x: jax.jit(jnp.log)(x) * 2.0)(-1.0)
        with pytest.raises(FloatingPointError, match="scan"):
            jax.lax.scan(lambda c, x: (c * x, jnp.log(c)), -1.0, jnp.ones(3))


def test_debug_infs():
    with jax.debug_infs(True):
        with pytest.raises(FloatingPointError, match=r"\(inf\) encountered in exp"):
            jax.jit(lambda x: jnp.exp(x))(1000.0)
        with pytest.raises(FloatingPointError, match=r"\(inf\) encountered in div"):
            jnp.array(1.0) / 0.0
    with jax.debug_nans(True):
        assert float(jnp.array(1.0) / 0.0) == np.inf  # an inf is not a NaN
