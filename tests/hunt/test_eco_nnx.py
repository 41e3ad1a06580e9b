"""The flax hunt (flax.nnx, and flax.linen's lifted transforms) on jaxlite-as-jax against
JAX (``tests/ecosystem/eco_programs_nnx.py``), each difference reduced here to plain jax.
Expected values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* An eager ``jax.checkpoint`` (``remat``) of a function taking or returning a typed PRNG
  key (``flax.linen.remat`` passes the module's rng keys so, at ``init``): jaxlite's
  checkpoint impl evaluated its jaxpr on the keys' raw structured buffers and raised
  ``TypeError: Dtype [('key', '<u4', (2,))] is not a valid JAX array type``; a key result
  could not be converted back.
* ``jit(f).lower(...)``: ``Lowered.out_info``, ``compile(compiler_options)`` and
  ``cost_analysis()`` were missing (flax's ``nnx.tabulate`` reads them; it then left its
  method wrappers installed, breaking every later nnx call in the process).
* ``jnp.equal`` / ``jnp.not_equal`` / ``jnp.isclose`` of typed PRNG keys (flax's Rngs tests
  compare key streams so): jaxlite refused them (``equal does not accept dtypes key<fry>,
  key<fry>``) while ``==``/``!=`` worked; JAX compares the keys' data.
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp


def _normal(k, x):
    return jax.random.normal(k, (3,)) * x


@pytest.mark.parametrize(
    "policy",
    [None, jax.checkpoint_policies.nothing_saveable, jax.checkpoint_policies.dots_saveable],
)
def test_eager_checkpoint_of_typed_keys(policy):
    k = jax.random.key(0)
    ckpt = jax.checkpoint(_normal, policy=policy)
    np.testing.assert_array_equal(np.asarray(ckpt(k, 2.0)), np.asarray(_normal(k, 2.0)))
    split = jax.checkpoint(lambda k: jax.random.split(k), policy=policy)(k)
    assert jnp.issubdtype(split.dtype, jax.dtypes.prng_key) and split.shape == (2,)
    np.testing.assert_array_equal(
        np.asarray(jax.random.key_data(split)), np.asarray(jax.random.key_data(jax.random.split(k)))
    )
    both = jax.checkpoint(lambda k, x: (jax.random.fold_in(k, 3), _normal(k, x)), policy=policy)
    k3, y = both(k, 1.5)
    np.testing.assert_array_equal(
        np.asarray(jax.random.key_data(k3)),
        np.asarray(jax.random.key_data(jax.random.fold_in(k, 3))),
    )
    np.testing.assert_array_equal(np.asarray(y), np.asarray(_normal(k, 1.5)))
    grad = jax.grad(lambda x: jnp.sum(ckpt(k, x)))(2.0)
    np.testing.assert_allclose(float(grad), float(jnp.sum(jax.random.normal(k, (3,)))), rtol=1e-6)
    batched = jax.vmap(jax.checkpoint(lambda k: jax.random.normal(k, (2,)), policy=policy))(
        jax.random.split(k, 3)
    )
    np.testing.assert_array_equal(
        np.asarray(batched),
        np.asarray(jax.vmap(lambda k: jax.random.normal(k, (2,)))(jax.random.split(k, 3))),
    )


def test_lowered_and_compiled_stage_info():
    lowered = jax.jit(lambda x: (x @ x, {"row": x[0]})).lower(jnp.ones((4, 4)))
    want = (
        jax.ShapeDtypeStruct((4, 4), jnp.float32),
        {"row": jax.ShapeDtypeStruct((4,), jnp.float32)},
    )
    for stage in (lowered, lowered.compile(None), lowered.compile(compiler_options={})):
        got = stage.out_info
        assert jax.tree.structure(got) == jax.tree.structure(want)
        for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
            assert (g.shape, g.dtype) == (w.shape, w.dtype)
    np.testing.assert_array_equal(np.asarray(lowered.compile(None)(jnp.eye(4))[0]), np.eye(4))


@pytest.mark.jaxlite_only  # JAX returns XLA's estimates; jaxlite has no cost model
def test_cost_and_memory_analysis_are_unavailable():
    lowered = jax.jit(lambda x: x @ x).lower(jnp.ones((4, 4)))
    assert lowered.cost_analysis() is None and lowered.compile().cost_analysis() is None
    assert lowered.compile().memory_analysis() is None


def test_key_comparisons_through_jnp():
    k = jax.random.key(0)
    ks = jax.random.split(k, 3)
    assert bool(jnp.equal(k, k)) and not bool(jnp.not_equal(k, k)) and bool(jnp.isclose(k, k))
    np.testing.assert_array_equal(np.asarray(jnp.equal(ks, ks[1])), [False, True, False])
    np.testing.assert_array_equal(np.asarray(jnp.not_equal(ks, ks[1])), [True, False, True])
    np.testing.assert_array_equal(np.asarray(jnp.isclose(ks, ks[2])), [False, False, True])
    np.testing.assert_array_equal(
        np.asarray(jax.jit(jnp.equal)(ks, ks[0])), np.asarray(ks == ks[0])
    )
    for fn, name in ((jnp.equal, "equal"), (jnp.not_equal, "not_equal"), (jnp.isclose, "isclose")):
        with pytest.raises(TypeError, match=f"^{name} does not accept dtypes key<fry>, int32."):
            fn(k, 1)
    with pytest.raises(TypeError, match="^not_equal does not accept dtypes key<fry>, int32."):
        k != 1  # noqa: B015
