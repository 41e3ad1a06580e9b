"""JAX's original threefry scheme, ``jax_threefry_partitionable=False`` (spec/random.md R5.6):
``split`` and the raw bits hash the counters ``0..n-1`` half against half; ``fold_in`` is as
in the default scheme. Libraries' test suites select it at import (rlax's
``distributions_test``, distrax's ``von_mises_test``). The spec's vectors are checked here;
with JAX installed, samplers are compared with it bit for bit (the E0/E1 classes of the
spec; ``gamma``-based and linear-algebra samplers to tolerance, as in the default scheme).
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
import jaxlite.random as jr

HAS_JAX = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib")


@pytest.fixture
def original():
    with jaxlite.threefry_partitionable(False):
        yield


def _u32(x):
    return np.asarray(x).astype(np.uint32).ravel().tolist()


def test_spec_vectors(original):
    k = jr.PRNGKey(0)
    assert _u32(jr.split(k)) == [4146024105, 967050713, 2718843009, 1272950319]
    assert _u32(jr.split(k, 3)) == [
        2467461003, 428148500, 3186719485, 3840466878, 2562233961, 1946702221,
    ]  # fmt: skip
    assert _u32(jr.bits(k, (4,))) == [4146024105, 967050713, 2718843009, 1272950319]
    assert _u32(jr.bits(k, (5,))) == [2467461003, 428148500, 1688610540, 3840466878, 2562233961]
    u = np.asarray(jr.uniform(k, (5,)))
    assert [format(v, "08x") for v in u.view(np.uint32)] == [
        "3f131276", "3dcc2830", "3ec94c4c", "3f64e8de", "3f18b896",
    ]  # fmt: skip
    assert _u32(jr.fold_in(k, 7)) == [2716826189, 292468403]


def test_flag_switches_back_and_jit_sees_each_scheme():
    k = jr.PRNGKey(0)
    draw = jaxlite.jit(lambda k: jr.split(k))
    default = _u32(draw(k))
    with jaxlite.threefry_partitionable(False):
        assert _u32(draw(k)) == [4146024105, 967050713, 2718843009, 1272950319]
    assert _u32(draw(k)) == default != [4146024105, 967050713, 2718843009, 1272950319]
    jaxlite.config.update("jax_threefry_partitionable", False)
    try:
        assert _u32(draw(k))[:2] == [4146024105, 967050713]
    finally:
        jaxlite.config.update("jax_threefry_partitionable", True)
    assert _u32(draw(k)) == default


def test_narrow_bits_unpack_each_word_low_bits_first(original):
    k = jr.PRNGKey(3)
    word = int(np.asarray(jr.bits(k, (1,)))[0])
    got8 = np.asarray(jr.bits(k, (4,), jnp.uint8)).tolist()
    assert got8 == [(word >> (8 * j)) & 0xFF for j in range(4)]
    got16 = np.asarray(jr.bits(k, (2,), jnp.uint16)).tolist()
    assert got16 == [word & 0xFFFF, word >> 16]
    # a partial last word: the first values of the same unpacking
    assert np.asarray(jr.bits(k, (3,), jnp.uint8)).tolist() == got8[:3]


def _samplers(L):
    r, np_ = L.random, L.numpy
    k, kt = r.PRNGKey(0), r.key(42)
    return {
        "split_shape": lambda: r.key_data(r.split(kt, (2, 3))),
        "bits_2x3": lambda: r.bits(k, (2, 3)),
        "bits_scalar": lambda: r.bits(k),
        **{
            f"bits_{dt}_{n}": (lambda dt=dt, n=n: r.bits(k, (n,), dt))
            for dt in ("uint8", "uint16")
            for n in (1, 3, 5, 7)
        },
        "normal": lambda: r.normal(kt, (3, 3)),
        "randint": lambda: r.randint(k, (7,), 0, 100),
        "permutation": lambda: r.permutation(k, 10),
        "choice": lambda: r.choice(k, 10, (3,), replace=False),
        "bernoulli": lambda: r.bernoulli(k, 0.3, (9,)),
        "categorical": lambda: r.categorical(k, np_.log(np_.array([0.2, 0.3, 0.5])), shape=(6,)),
        "poisson": lambda: r.poisson(k, 3.0, (5,)),
        "truncated_normal": lambda: r.truncated_normal(k, -1.0, 1.0, (4,)),
        "jit_uniform": lambda: L.jit(lambda k: r.uniform(k, (5,)))(k),
        "vmap_normal": lambda: L.vmap(lambda k: r.normal(k, (3,)))(r.split(k, 4)),
        "vmap_split": lambda: r.key_data(L.vmap(lambda k: r.split(k, 3))(r.split(r.key(1), 2))),
        "vmap_bits8": lambda: L.vmap(lambda k: r.bits(k, (5,), "uint8"))(r.split(k, 2)),
        # E2: gamma's log-gamma and orthogonal's QR agree to float32 rounding only
        "gamma": lambda: r.gamma(k, np_.array([0.5, 2.0, 5.0])),
        "dirichlet": lambda: r.dirichlet(k, np_.ones(3)),
        "orthogonal": lambda: r.orthogonal(k, 3),
    }


TOLERANCE = {"gamma": 1e-5, "dirichlet": 1e-5, "orthogonal": 1e-5}


@pytest.mark.skipif(not HAS_JAX, reason="needs JAX 0.10.2 as the reference")
@pytest.mark.parametrize("name", list(_samplers(jaxlite)))
def test_samplers_match_jax(name):
    import jax

    with jax.threefry_partitionable(False):
        want = np.asarray(_samplers(jax)[name]())
    with jaxlite.threefry_partitionable(False):
        got = np.asarray(_samplers(jaxlite)[name]())
    assert got.dtype == want.dtype and got.shape == want.shape
    if name in TOLERANCE:
        np.testing.assert_allclose(got, want, rtol=TOLERANCE[name], atol=1e-6)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.skipif(not HAS_JAX, reason="needs JAX 0.10.2 as the reference")
def test_64_bit_draws_match_jax():
    import jax

    def draws(L):
        r = L.random
        k = r.PRNGKey(5)
        with L.enable_x64(True), L.threefry_partitionable(False):
            return [
                np.asarray(r.bits(k, (3,), "uint64")),
                np.asarray(r.uniform(k, (3,), "float64")),
                np.asarray(r.randint(k, (3,), 0, 2**40, "int64")),
            ]

    for got, want in zip(draws(jaxlite), draws(jax)):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
