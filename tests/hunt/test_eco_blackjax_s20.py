"""Session 20: BlackJAX 1.7.1 (its README quick start and its own test suite) run with
jaxlite installed as ``jax``; each jaxlite-only failure reduced here to plain jax/jnp.
Expected values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``from jax._src.flatten_util import ravel_pytree`` (blackjax's SMC tuning and nested
  sampling modules import it at module level, so ``import blackjax`` failed with
  ``ModuleNotFoundError``): the private path now serves ``jax.flatten_util.ravel_pytree``.
"""

import importlib

import numpy as np

import jaxlite as jax
import jaxlite.numpy as jnp


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
