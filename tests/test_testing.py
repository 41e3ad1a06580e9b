"""jaxlite.test_util.check_grads (JAX's signature) and the helpers of jaxlite/_src/testing.py
catch wrong derivatives and wrong batching, and accept right ones."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.test_util import check_grads


def test_check_grads_accepts_correct_derivatives():
    x = np.array([0.3, -1.2, 2.0], np.float32)
    check_grads(lambda v: jnp.sin(v) * v**2, (x,), order=2)
    check_grads(lambda a, b: jnp.dot(jnp.tanh(a), b), (np.eye(3, dtype=np.float32), x), 1)


@pytest.mark.parametrize("mode", ["fwd", "rev"])
def test_check_grads_rejects_a_wrong_custom_jvp(mode):
    @jax.custom_jvp
    def f(x):
        return jnp.sin(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return jnp.sin(x), 1.1 * jnp.cos(x) * t  # off by 10%

    with pytest.raises(AssertionError):
        check_grads(f, (np.array([0.5, 1.0], np.float32),), order=1, modes=(mode,))


def test_check_grads_rejects_a_wrong_second_derivative():
    @jax.custom_jvp
    def f(x):
        return x**3

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return x**3, 3.0 * jax.lax.stop_gradient(x) ** 2 * t  # first order right only

    x = (np.array([0.7], np.float32),)
    check_grads(f, x, order=1)
    with pytest.raises(AssertionError):
        check_grads(f, x, order=2, modes=("fwd",))


def test_check_grads_signature_matches_jax():
    params = list(inspect.signature(check_grads).parameters)
    assert params == ["f", "args", "order", "modes", "atol", "rtol", "eps"]


@pytest.mark.jaxlite_only  # JAX ignores an unknown mode (and so checks nothing); see compat.md
def test_check_grads_rejects_an_unknown_mode():
    with pytest.raises(ValueError, match="Unrecognized mode"):
        check_grads(jnp.sin, (np.float32(1.0),), 1, modes=("sideways",))


@pytest.mark.jaxlite_only  # jaxlite's internal helpers
def test_check_vmap_and_assert_close():
    from jaxlite._src.testing import assert_close, check_vmap

    check_vmap(lambda v: jnp.sum(v**2), (np.arange(12.0).reshape(4, 3),))
    check_vmap(lambda a, b: a * b, (np.ones((2, 3)), np.arange(3.0)), in_axes=(0, None))
    assert_close({"a": np.float32([1.0, 2.0])}, {"a": np.float32([1.0000005, 2.0])})
    with pytest.raises(AssertionError):
        assert_close(np.ones(2), np.ones(3))
    with pytest.raises(AssertionError):
        assert_close(np.float32(1.0), np.float32(1.1))
