"""Session 20: BlackJAX 1.7.1 (its README quick start and its own test suite) run with
jaxlite installed as ``jax``; each jaxlite-only failure reduced here to plain jax/jnp.
Expected values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``from jax._src.flatten_util import ravel_pytree`` (blackjax's SMC tuning and nested
  sampling modules import it at module level, so ``import blackjax`` failed with
  ``ModuleNotFoundError``): the private path now serves ``jax.flatten_util.ravel_pytree``.
* ``jax.device_get`` of a tracer (chex's ``without_device`` test variant wraps blackjax's
  integrator step, which runs inside a ``fori_loop``): jaxlite converted every array leaf
  with ``np.asarray`` and raised ``TracerArrayConversionError``; JAX returns tracers
  unchanged, and PRNG key arrays too (jaxlite raised ``TypeError``). Now as JAX.
* ``jnp.repeat(a, repeats, total_repeat_length=T)`` with traced ``repeats`` (blackjax's
  residual resampling under ``jit``): jaxlite refused every traced ``repeats``
  (``ConcretizationTypeError``); JAX needs only ``T`` to be static. Implemented. The
  same cases showed a wrong answer for concrete repeats: where the repeats sum to less
  than ``T``, jaxlite padded with the last element *of the result*; JAX pads with the
  last element of ``a`` (``repeat([0, 10, 20, 30], [0, 0, 3, 0], total_repeat_length=5)``
  is ``[20, 20, 20, 30, 30]``), and all-zero repeats raised ``TypeError``.
"""

import importlib

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

from .oracle import same


def _flatten_util_private():
    name = "jax._src.flatten_util" if jax.__name__ == "jax" else "jaxlite._jax_compat.flatten_util"
    return importlib.import_module(name)


def test_private_flatten_util_is_ravel_pytree():
    ravel = _flatten_util_private().ravel_pytree
    tree = {"loc": 1.0, "scale": jnp.arange(3.0), "n": (jnp.int32(2),)}
    flat, unravel = ravel(tree)
    want, _ = importlib.import_module(jax.__name__ + ".flatten_util").ravel_pytree(tree)
    np.testing.assert_array_equal(np.asarray(flat), np.asarray(want))
    assert flat.dtype == want.dtype == jnp.float32
    back = unravel(flat * 2)
    assert float(back["loc"]) == 2.0
    np.testing.assert_array_equal(np.asarray(back["scale"]), [0.0, 2.0, 4.0])
    assert back["n"][0].dtype == jnp.int32 and int(back["n"][0]) == 4


@pytest.mark.parametrize("where", ["jit", "vmap", "grad", "fori_loop"])
def test_device_get_passes_tracers_through(where):
    def build(m):
        def f(x):
            got = m.jx.device_get({"a": x, "b": [x * 2], "c": 1.5})
            return got["a"] * got["b"][0] + got["c"]

        x = m.jnp.float32(3.0)
        if where == "jit":
            return m.jx.jit(f)(x)
        if where == "vmap":
            return m.jx.vmap(f)(m.jnp.arange(3.0))
        if where == "grad":
            return m.jx.grad(f)(x)
        return m.lax.fori_loop(0, 2, lambda i, v: f(v) / 10, x)

    out = same(build)
    want = {"jit": 19.5, "vmap": [1.5, 3.5, 9.5], "grad": 12.0, "fori_loop": 0.9105}[where]
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-6)


def test_device_get_values_and_key_arrays():
    def build(m):
        got = m.jx.device_get({"x": m.jnp.arange(3.0), "n": 3, "k": m.jx.random.key(0)})
        is_key = m.jnp.issubdtype(got["k"].dtype, m.jx.dtypes.prng_key)
        checks = (isinstance(got["x"], np.ndarray), got["n"] == 3, is_key)
        return np.asarray(checks), m.jx.random.key_data(got["k"])

    checks, data = same(build)
    assert np.asarray(checks).all()
    np.testing.assert_array_equal(np.asarray(data), [0, 0])


REPEAT_CASES = {
    "exact": ([1, 2, 0, 1], 4),
    "padded": ([1, 2, 0, 1], 6),
    "cut": ([1, 2, 0, 1], 2),
    "trailing_zero_padded": ([0, 0, 3, 0], 5),
    "cut_equal": ([2, 2, 2, 2], 3),
    "all_zero": ([0, 0, 0, 0], 3),
    "scalar": (2, 5),
    "scalar_padded": (2, 9),
    "scalar_zero": (0, 2),
}


@pytest.mark.parametrize("traced", [False, True], ids=["concrete", "traced"])
@pytest.mark.parametrize("name", list(REPEAT_CASES))
def test_repeat_total_repeat_length(name, traced):
    reps, total = REPEAT_CASES[name]

    def build(m):
        a = m.jnp.arange(4) * 10
        r = m.jnp.asarray(reps)
        f = lambda r: m.jnp.repeat(a, r, total_repeat_length=total)
        return m.jx.jit(f)(r) if traced else f(r)

    out = same(build)
    assert out.shape == (total,)


def test_repeat_traced_axis_grad_vmap():
    x = jnp.arange(6.0).reshape(2, 3)
    f = jax.jit(lambda r: jnp.repeat(x, r, axis=1, total_repeat_length=5))
    np.testing.assert_array_equal(
        np.asarray(f(jnp.array([2, 0, 3]))), [[0, 0, 2, 2, 2], [3, 3, 5, 5, 5]]
    )
    g = jax.grad(
        lambda v: jnp.sum(
            jax.jit(lambda r: jnp.repeat(v, r, total_repeat_length=4))(jnp.array([1, 2, 0])) ** 2
        )
    )(jnp.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(np.asarray(g), [2.0, 8.0, 6.0])  # JAX's values
    a = jnp.arange(4) * 10
    out = jax.vmap(lambda r: jnp.repeat(a, r, total_repeat_length=4))(
        jnp.array([[1, 1, 1, 1], [4, 0, 0, 0]])
    )
    np.testing.assert_array_equal(np.asarray(out), [[0, 10, 20, 30], [0, 0, 0, 0]])


def test_repeat_traced_needs_total_repeat_length():
    def build(m):
        return m.jx.jit(lambda r: m.jnp.repeat(m.jnp.arange(4), r))(m.jnp.array([1, 2, 0, 1]))

    err = same(build)
    assert type(err).__name__ == "ConcretizationTypeError"
    assert "the total number of repeats must be static" in str(err)
