"""Keys under transformations (spec/random.md R9): vmap over keys, scan/fori_loop carries,
grad through sampler parameters (not keys), jit = eager, keys through callbacks."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import random


def _data(k):
    return np.asarray(random.key_data(k)).tolist()


def test_vmap_over_keys_vector():
    out = jax.vmap(lambda k: random.uniform(k, (2,)))(random.split(random.key(0), 3))
    # (the spec prints these vectors with 7-8 digits, hence the tolerance)
    np.testing.assert_allclose(
        np.asarray(out),
        np.float32([[0.8423141, 0.18237865], [0.00729382, 0.02089119], [0.9024495, 0.91229284]]),
        rtol=1e-6,
    )


@pytest.mark.parametrize(
    "fn",
    [
        lambda k: random.normal(k, (3,)),
        lambda k: random.randint(k, (4,), 0, 100),
        lambda k: random.permutation(k, 6),
        lambda k: random.split(k, 3),
        lambda k: random.bernoulli(k, 0.5, (5,)),
        lambda k: random.categorical(k, jnp.zeros((3, 4))),
        lambda k: random.choice(k, 9, (4,), replace=False),
    ],
)
@pytest.mark.parametrize("legacy", [False, True])
def test_vmap_equals_stacking(fn, legacy):
    keys = random.split(random.PRNGKey(7) if legacy else random.key(7), 4)
    batched = jax.vmap(fn)(keys)
    for i in range(4):
        one = fn(keys[i])
        a, b = batched[i], one
        if jnp.issubdtype(one.dtype, jax.dtypes.prng_key):
            a, b = random.key_data(a), random.key_data(b)
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_fold_in_broadcasts_under_vmap():
    k = random.key(0)
    per_device = jax.vmap(lambda i: random.uniform(random.fold_in(k, i), (1,)))(jnp.arange(8))
    np.testing.assert_allclose(
        np.asarray(per_device).ravel(),
        np.float32(
            [
                0.8423141,
                0.00729382,
                0.9024495,
                0.26698947,
                0.15365434,
                0.73806036,
                0.8776865,
                0.47504628,
            ]
        ),
        rtol=1e-6,
    )
    both = jax.vmap(random.fold_in)(random.split(k, 3), jnp.arange(3))
    for i in range(3):
        assert _data(both[i]) == _data(random.fold_in(random.split(k, 3)[i], i))


def test_scan_carry():
    ys = jax.lax.scan(
        lambda c, _: (random.split(c)[0], random.uniform(c)), random.key(0), None, length=3
    )[1]
    np.testing.assert_allclose(
        np.asarray(ys), np.float32([0.947667, 0.8423141, 0.28271997]), rtol=1e-6
    )


def test_scan_stacks_keys_and_fori_loop():
    k = random.key(2)
    final, ks = jax.lax.scan(lambda c, _: (random.split(c)[0], c), k, None, length=3)
    assert ks.dtype == k.dtype and ks.shape == (3,)
    assert _data(ks[1]) == _data(random.split(k)[0])
    f = jax.lax.fori_loop(0, 3, lambda i, c: random.fold_in(c, i), k)
    expected = random.fold_in(random.fold_in(random.fold_in(k, 0), 1), 2)
    assert _data(f) == _data(expected)


def test_jit_equals_eager_large():
    k = random.key(9)
    for f in (
        lambda k: random.normal(k, (5000,)),
        lambda k: random.gumbel(k, (5000,)),
        lambda k: random.uniform(k, (5000,), minval=0.1, maxval=0.7),
    ):
        np.testing.assert_array_equal(np.asarray(f(k)), np.asarray(jax.jit(f)(k)))


def test_grad_through_parameters():
    k = random.key(0)
    g = jax.grad(lambda m: random.uniform(k, minval=m, maxval=2.0))(0.5)
    np.testing.assert_allclose(float(g), 0.052333, rtol=1e-5)
    g = jax.grad(lambda s: (s * random.normal(k, (3,))).sum())(1.0)
    np.testing.assert_allclose(float(g), 3.2143123, rtol=1e-6)
    # a jitted reparameterised loss
    loss = jax.jit(jax.grad(lambda mu: jnp.mean((mu + random.normal(k, (100,))) ** 2)))
    np.testing.assert_allclose(
        float(loss(0.0)), float(2 * jnp.mean(random.normal(k, (100,)))), rtol=1e-5
    )


def test_grad_rejects_keys():
    msg = (
        "grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
        "np.inexact), but got key<fry>. If you want to use Boolean- or integer-valued inputs, "
        "use vjp or set allow_int to True."
    )
    with pytest.raises(TypeError) as e:
        jax.grad(lambda k: random.uniform(k))(random.key(0))
    assert msg in str(e.value)
    with pytest.raises(TypeError, match="but got uint32"):
        jax.grad(lambda k: random.uniform(k))(random.PRNGKey(0))


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_keys_through_callbacks(mode):
    from jaxlite.experimental import io_callback

    seen = []

    def cb(x):
        seen.append(np.asarray(jax.tree_util.tree_leaves(x)[0]))
        return np.zeros((), np.float32)

    k = random.key(3)
    out = jax.ShapeDtypeStruct((), jnp.float32)

    def f(k):
        a = io_callback(cb, out, k)
        b = jax.pure_callback(cb, out, {"key": k})
        c = jax.vmap(lambda kk: jax.pure_callback(cb, out, kk, vmap_method="sequential"))(
            random.split(k, 2)
        )
        return a, b, c

    f(k) if mode == "eager" else jax.jit(f)(k)
    # io_callback / pure_callback receive a key's uint32 data, as in JAX
    assert [a.dtype for a in seen] == [np.uint32] * 4
    assert seen[0].tolist() == seen[1].tolist() == _data(k)
    assert [seen[2].tolist(), seen[3].tolist()] == _data(random.split(k, 2))


def test_debug_callback_gets_the_key():
    got = []
    k = random.key(3)
    jax.debug.callback(lambda x: got.append(x), k)
    assert jnp.issubdtype(got[0].dtype, jax.dtypes.prng_key)
    assert _data(got[0]) == [0, 3]
