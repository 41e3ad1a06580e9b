"""Bad input to jax.random (spec/random.md R2.5-R2.7, R3.3, R5, R6.1, R8): JAX's exception
types and messages. Runs in oracle mode too (``JAXLITE_ORACLE=jax``), except where jaxlite
deliberately gives a clearer error than JAX (``jaxlite_only``, see docs/compat.md)."""

import numpy as np
import pytest

import jaxlite.numpy as jnp
from jaxlite import random

K = random.key(0)

CASES = [
    ("float key", lambda: random.uniform(jnp.zeros(2, jnp.float32)), TypeError,
     "JAX encountered invalid PRNG key data: expected key_data.dtype = uint32; got dtype=float32"),
    ("int32 key", lambda: random.normal(jnp.zeros(2, jnp.int32)), TypeError,
     "expected key_data.dtype = uint32; got dtype=int32"),
    ("wrong trailing shape", lambda: random.uniform(jnp.zeros(3, jnp.uint32)), TypeError,
     "JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,); "
     "got shape=(3,)"),
    ("python int as key", lambda: random.uniform(0), TypeError,
     "JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, and "
     "dtype attributes. Got 0"),
    ("list as key", lambda: random.uniform([0, 0]), TypeError,
     "unexpected PRNG key type <class 'list'>"),
    ("typed key to wrap_key_data", lambda: random.wrap_key_data(K), TypeError,
     "JAX encountered invalid PRNG key data: expected key_data.ndim >= 1; got ndim=0"),
    ("batch of typed keys", lambda: random.uniform(random.split(K)), ValueError,
     "uniform accepts a single key, but was given a key array of shape (2,) != (). "
     "Use jax.vmap for batching."),
    ("batch of legacy keys", lambda: random.normal(random.split(random.PRNGKey(0))), ValueError,
     "normal accepts a single key, but was given a key array of shape (2, 2) != ()."),
    ("split of a batch", lambda: random.split(random.split(K)), ValueError,
     "split accepts a single key"),
    ("randint float dtype", lambda: random.randint(K, (2,), 0, 5, jnp.float32), TypeError,
     "randint only accepts integer dtypes, got float32"),
    ("randint bound overflow", lambda: random.randint(K, (2,), 0, 2**31), OverflowError,
     "An overflow was encountered while parsing an argument to a jitted computation, whose "
     "argument path is maxval. Got <class 'int'> with value 2147483648"),
    ("randint missing maxval", lambda: random.randint(K, 0, 5), TypeError,
     "randint() missing 1 required positional argument: 'maxval'"),
    ("randint bounds not broadcasting",
     lambda: random.randint(K, (3,), jnp.zeros(4, jnp.int32), 10), ValueError,
     "Incompatible shapes for broadcasting: shapes=[(3,), (4,), ()]"),
    ("uniform bounds not broadcasting", lambda: random.uniform(K, (3,), minval=jnp.zeros(4)),
     TypeError, "mul got incompatible shapes for broadcasting: (3,), (4,)."),
    ("choice too many", lambda: random.choice(K, 3, (5,), replace=False), ValueError,
     "Cannot take a larger sample (size 5) than population (size 3) when 'replace=False'"),
    ("choice int shape", lambda: random.choice(K, 3, 5), TypeError,
     "shape argument of jax.random.choice must be a sequence, got 5"),
    ("choice bad p", lambda: random.choice(K, 3, (2,), p=jnp.ones(4) / 4), ValueError,
     "p must be None or a 1D vector with the same size as a.shape[axis]. p has shape (4,) "
     "and a.shape[axis] is 3."),
    ("choice empty population", lambda: random.choice(K, 0, (2,)), ValueError,
     "a must be greater than 0 unless no samples are taken"),
    ("non-integer shape", lambda: random.uniform(K, (2.5,)), TypeError,
     "Shapes must be 1D sequences of concrete values of integer type, got (2.5,)."),
    ("bits signed dtype", lambda: random.bits(K, (2,), jnp.int32), ValueError,
     "dtype argument to `bits` must be an unsigned int dtype, got int32"),
    ("uniform int dtype", lambda: random.uniform(K, (2,), jnp.int32), ValueError,
     "dtype argument to `uniform` must be a float dtype, got int32"),
    ("normal int dtype", lambda: random.normal(K, (2,), jnp.int32), ValueError,
     "dtype argument to `normal` must be a float or complex dtype, got int32"),
    ("bernoulli int p", lambda: random.bernoulli(K, 1, (2,)), TypeError,
     "bernoulli probability `p` must have a floating dtype, got int32."),
    ("bernoulli mode", lambda: random.bernoulli(K, 0.5, (2,), mode="x"), ValueError,
     "got mode='x', expected 'high' or 'low'"),
    ("bernoulli p shape", lambda: random.bernoulli(K, jnp.ones(2) * 0.5, (3,)), ValueError,
     "Incompatible shapes for broadcasting: shapes=[(3,), (2,)]"),
    ("gumbel mode", lambda: random.gumbel(K, (2,), mode="x"), ValueError,
     "Must provide valid mode for gumbel got: x"),
    ("permutation float scalar", lambda: random.permutation(K, 1.5), TypeError,
     "x must be an integer or at least 1-dimensional"),
    ("categorical too many",
     lambda: random.categorical(K, jnp.zeros(3), shape=(5,), replace=False), ValueError,
     "Number of samples without replacement (5) cannot exceed number of categories (3)."),
    ("categorical shape", lambda: random.categorical(K, jnp.zeros((2, 3)), shape=(5,)),
     ValueError, "Incompatible shapes for broadcasting: shapes=[(5,), (np.int64(2),)]"),
    ("fold_in negative", lambda: random.fold_in(K, -1), OverflowError,
     "Python integer -1 out of bounds for uint32"),
    ("fold_in array", lambda: random.fold_in(K, jnp.arange(2)), TypeError,
     "fold_in accepts a scalar, but was given an array ofshape (2,) != (). "
     "Use jax.vmap for batching."),
    ("float seed", lambda: random.key(1.5), TypeError, "PRNG key seed must be an integer; got"),
    ("array seed", lambda: random.PRNGKey(jnp.arange(2)), TypeError,
     "PRNGKey accepts a scalar seed, but was given an array of shape (2,) != (). "
     "Use jax.vmap for batching"),
    ("key as seed", lambda: random.key(K), TypeError,
     "key accepts a scalar seed, but was given a PRNG key."),
    ("seed overflow", lambda: random.PRNGKey(2**64), OverflowError,
     "Python int too large to convert to C long"),
    ("impl and dtype", lambda: random.key(0, impl="threefry2x32", dtype=random.key_dtype()),
     ValueError, "Cannot specify both `impl` and `dtype` arguments to jax.random.key"),
    ("wrap impl and dtype",
     lambda: random.wrap_key_data(random.key_data(K), impl="threefry2x32",
                                  dtype=random.key_dtype()),
     ValueError, "Cannot specify both `impl` and `dtype` arguments to jax.random.wrap_key_data"),
    ("unknown impl", lambda: random.key(0, impl="nope"), ValueError,
     'unrecognized PRNG implementation "nope". Did you mean one of:'),
    ("dirichlet scalar", lambda: random.dirichlet(K, 1.0), ValueError,
     "dirichlet requires alpha.ndim >= 1, got alpha.ndim == 0"),
    ("mvn method", lambda: random.multivariate_normal(K, jnp.zeros(2), jnp.eye(2), method="x"),
     ValueError, "method must be one of {'svd', 'eigh', 'cholesky'}"),
    ("mvn cov shape", lambda: random.multivariate_normal(K, jnp.zeros(3), jnp.eye(2)),
     ValueError, "multivariate_normal requires cov.shape == (..., n, n) for n=3, but got "
     "cov.shape == (2, 2)."),
    ("mvn mean rank", lambda: random.multivariate_normal(K, 0.0, jnp.eye(2)), ValueError,
     "multivariate_normal requires mean.ndim >= 1, got mean.ndim == 0"),
    ("beta complex", lambda: random.beta(K, 1j, 1.0), ValueError,
     "In arguments to beta, cannot safely cast argument of type complex64 to float32"),
]  # fmt: skip


@pytest.mark.parametrize("name,call,exc,msg", CASES, ids=[c[0] for c in CASES])
def test_bad_input(name, call, exc, msg):
    with pytest.raises(exc) as e:
        call()
    assert msg in str(e.value)


@pytest.mark.jaxlite_only  # JAX fails later, in MLIR, with "invalid tensor dimension size"
@pytest.mark.parametrize(
    "call",
    [
        lambda: random.uniform(K, (-1,)),
        lambda: random.normal(K, (3, -2)),
        lambda: random.split(K, -1),
        lambda: random.bits(K, (-4,)),
    ],
)
def test_negative_shape(call):
    with pytest.raises(TypeError, match="Negative dimensions are not allowed"):
        call()


@pytest.mark.jaxlite_only  # JAX accepts a complex bound and silently drops the imaginary part
def test_randint_complex_bound():
    with pytest.raises(TypeError, match="randint requires maxval"):
        random.randint(K, (2,), 0, 5j)


def test_legacy_key_policy():
    import jaxlite

    jaxlite.config.update("jax_legacy_prng_key", "error")
    try:
        with pytest.raises(ValueError, match="Legacy uint32 key array passed as key"):
            random.uniform(random.PRNGKey(0))
        random.uniform(K)  # typed keys are unaffected
    finally:
        jaxlite.config.update("jax_legacy_prng_key", "allow")
    jaxlite.config.update("jax_legacy_prng_key", "warn")
    try:
        with pytest.warns(UserWarning, match="Legacy uint32 key array passed as key"):
            random.uniform(np.zeros(2, np.uint32))
    finally:
        jaxlite.config.update("jax_legacy_prng_key", "allow")


def test_no_shuffle():
    assert not hasattr(random, "shuffle")
