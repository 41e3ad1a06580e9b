"""Sampler vectors of spec/random.md R10 (bit-exact, checked on the float bit patterns),
eagerly and under jit, in x32 and x64 mode; and the R10.5 prefix properties."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import random

MODES = ["eager", "jit"]


def _run(mode, f, k):
    return f(k) if mode == "eager" else jax.jit(f)(k)


def _hex(x):
    a = np.asarray(x)
    view = a.view(np.uint64 if a.dtype == np.float64 else np.uint32)
    width = 16 if a.dtype == np.float64 else 8
    return " ".join(f"{int(v):0{width}x}" for v in view.ravel())


LOG_P = np.log(np.array([0.1, 0.2, 0.3, 0.4], np.float32))
P4 = np.array([0.1, 0.2, 0.3, 0.4], np.float32)

# (seed, name, fn, expected): hex strings for floats (authoritative), lists otherwise.
X32 = [
    (
        0,
        "uniform5",
        lambda k: random.uniform(k, (5,)),
        "3f729a4e 3f7a8436 3eaa221c 3eeff550 3f11e43a",
    ),
    (0, "uniform()", lambda k: random.uniform(k), "3f729a4e"),
    (
        0,
        "uniform_range",
        lambda k: random.uniform(k, (3,), minval=2.0, maxval=5.0),
        [4.843000888824463, 4.935739517211914, 2.9968743324279785],
    ),
    (
        0,
        "uniform_2x3",
        lambda k: random.uniform(k, (2, 3)).ravel(),
        "3f729a4e 3f7a8436 3eaa221c 3eeff550 3f11e43a " + _hex(np.float32(0.16550303)),
    ),
    (
        0,
        "normal5",
        lambda k: random.normal(k, (5,)),
        "3fcfb2bd 40019df0 bede0017 bda10222 3e34512c",
    ),
    (0, "randint", lambda k: random.randint(k, (5,), 0, 10), [9, 0, 2, 3, 1]),
    (0, "randint_neg", lambda k: random.randint(k, (5,), -3, 3), [-2, -3, -1, -2, 2]),
    (0, "randint_u8", lambda k: random.randint(k, (5,), 0, 256, jnp.uint8), [101, 80, 200, 61, 3]),
    (0, "perm10", lambda k: random.permutation(k, 10), [0, 1, 8, 5, 6, 4, 3, 2, 7, 9]),
    (0, "perm5", lambda k: random.permutation(k, 5), [0, 1, 4, 3, 2]),
    (
        0,
        "perm_rows",
        lambda k: random.permutation(k, jnp.arange(6).reshape(3, 2)),
        [[0, 1], [2, 3], [4, 5]],
    ),
    (
        0,
        "perm_indep",
        lambda k: random.permutation(k, jnp.arange(6).reshape(2, 3), axis=1, independent=True),
        [[0, 1, 2], [5, 4, 3]],
    ),
    (
        0,
        "categorical",
        lambda k: random.categorical(k, LOG_P, shape=(8,)),
        [1, 3, 2, 3, 1, 1, 2, 3],
    ),
    (
        0,
        "bernoulli",
        lambda k: random.bernoulli(k, 0.3, (8,)),
        [False, False, False, False, False, True, False, False],
    ),
    (0, "bernoulli()", lambda k: random.bernoulli(k), False),
    (0, "choice", lambda k: random.choice(k, 10, (5,)), [9, 0, 2, 3, 1]),
    (0, "choice_norep", lambda k: random.choice(k, 10, (5,), replace=False), [0, 1, 8, 5, 6]),
    (0, "choice_p", lambda k: random.choice(k, 4, (6,), p=P4), [0, 0, 3, 2, 2, 3]),
    (0, "choice_p_norep", lambda k: random.choice(k, 4, (3,), replace=False, p=P4), [1, 0, 3]),
    (0, "gumbel", lambda k: random.gumbel(k, (5,)), "403b1889 4075499c bdc66ff7 3e8df4a4 3f1360b8"),
    (
        0,
        "exponential",
        lambda k: random.exponential(k, (5,)),
        "403ccee6 4075faab 3ececc72 3f21e2f1 3f57fd76",
    ),
    (
        0,
        "normal_c64",
        lambda k: random.normal(k, (2,), jnp.complex64),
        [
            complex(0.7099452614784241, -1.7270770072937012),
            complex(-0.6408771872520447, -1.4394434690475464),
        ],
    ),
    (
        0,
        "uniform_bf16",
        lambda k: random.uniform(k, (4,), jnp.bfloat16).astype(jnp.float32),
        [0.6484375, 0.5703125, 0.15625, 0.203125],
    ),
    (
        0,
        "uniform_f16",
        lambda k: random.uniform(k, (4,), jnp.float16).astype(jnp.float32),
        [0.310546875, 0.212890625, 0.0546875, 0.65625],
    ),
    (
        42,
        "uniform5",
        lambda k: random.uniform(k, (5,)),
        "3efa3824 3f2e0730 3f1dc3f8 3f0f9ec0 3ee6bae4",
    ),
    (
        42,
        "normal5",
        lambda k: random.normal(k, (5,)),
        "bce7df15 3eef2be8 3e976661 3e1d3b24 bdfe04eb",
    ),
    (42, "randint", lambda k: random.randint(k, (5,), 0, 10), [4, 4, 1, 9, 9]),
    (42, "perm10", lambda k: random.permutation(k, 10), [7, 4, 2, 5, 3, 6, 8, 9, 0, 1]),
    (
        42,
        "categorical",
        lambda k: random.categorical(k, LOG_P, shape=(8,)),
        [3, 3, 3, 3, 3, 3, 1, 1],
    ),
    (
        42,
        "bernoulli",
        lambda k: random.bernoulli(k, 0.3, (8,)),
        [False, False, False, False, False, False, True, False],
    ),
    (
        123,
        "uniform5",
        lambda k: random.uniform(k, (5,)),
        "3f72f68e 3f4cbde6 3f024262 3e98bba8 3e7c0f98",
    ),
    (
        123,
        "normal5",
        lambda k: random.normal(k, (5,)),
        "3fd166b5 3f573f49 3cb53d3e bf077eb0 bf2fc7f6",
    ),
    (123, "randint", lambda k: random.randint(k, (5,), 0, 10), [1, 5, 0, 3, 7]),
    (123, "perm10", lambda k: random.permutation(k, 10), [1, 7, 0, 2, 8, 9, 3, 6, 4, 5]),
    (
        123,
        "categorical",
        lambda k: random.categorical(k, LOG_P, shape=(8,)),
        [0, 3, 2, 1, 2, 0, 1, 3],
    ),
    (
        123,
        "bernoulli",
        lambda k: random.bernoulli(k, 0.3, (8,)),
        [False, False, False, True, True, True, True, False],
    ),
]


def _check(got, expected):
    if isinstance(expected, str):
        assert _hex(got) == expected
    elif isinstance(expected, list) and expected and isinstance(expected[0], float):
        np.testing.assert_array_equal(np.asarray(got), np.float32(expected))
    else:
        assert np.asarray(got).tolist() == expected


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("seed,name,fn,expected", X32, ids=[f"{s}-{n}" for s, n, _, _ in X32])
def test_vectors_x32(seed, name, fn, expected, mode):
    _check(_run(mode, fn, random.PRNGKey(seed)), expected)
    _check(_run(mode, fn, random.key(seed)), expected)


def test_categorical_2d():
    with np.errstate(divide="ignore"):
        logits = np.log(np.array([[0.5, 0.5, 0.0], [0.1, 0.1, 0.8]], np.float32))
    assert random.categorical(random.PRNGKey(0), logits).tolist() == [1, 2]


X64 = [
    (
        0,
        lambda k: random.uniform(k, (5,)),
        "3fdac80056666e90 3fcbaf91c7e6ed88 3feee3e9d53441c8 3fe2624ef17c9d1a 3fe107ffd8233b78",
    ),
    (
        0,
        lambda k: random.normal(k, (5,)),
        "bfca5909049a141d bfe91ccd1e1b7b4a 3ffd0eb0e61cf797 3fc80b45ca1069ab 3fb4b3c1e85a437c",
    ),
    (0, lambda k: random.randint(k, (5,), 0, 10), [5, 1, 5, 7, 3]),
    (0, lambda k: random.permutation(k, 10), [0, 1, 8, 5, 6, 4, 3, 2, 7, 9]),
    (
        42,
        lambda k: random.uniform(k, (5,)),
        "3fdb4f8123c40884 3f8ebd996d6e8400 3fe25f641d41e71a 3fe75aad28c6a974 3fe60275dc7869da",
    ),
    (
        42,
        lambda k: random.normal(k, (5,)),
        "bfc7a4a26c962159 c0015bccfaa7ba3a 3fc7ed8110b50460 3fe397ad84a04356 3fdf5603e3665211",
    ),
    (42, lambda k: random.randint(k, (5,), 0, 10), [5, 8, 3, 1, 5]),
    (
        123,
        lambda k: random.uniform(k, (5,)),
        "3fcce3c8a4e59888 3fdf38afff6c17d4 3fdc426834bcd2f0 3fd8a2ad748bb5d8 3fe2e1b2a45501ce",
    ),
    (
        123,
        lambda k: random.normal(k, (5,)),
        "bfe81937d2959432 bf9f3ae08b74642a bfc2d1f6688828c9 bfd2b94fb9cab540 3fcd247e35a5f64c",
    ),
    (123, lambda k: random.randint(k, (5,), 0, 10), [6, 6, 7, 3, 4]),
    # float32 draws are the same in x64 mode
    (
        0,
        lambda k: random.uniform(k, (5,), jnp.float32),
        "3f729a4e 3f7a8436 3eaa221c 3eeff550 3f11e43a",
    ),
    (
        42,
        lambda k: random.normal(k, (5,), jnp.float32),
        "bce7df15 3eef2be8 3e976661 3e1d3b24 bdfe04eb",
    ),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("i", range(len(X64)))
def test_vectors_x64(i, mode):
    jax.config.update("jax_enable_x64", True)
    seed, fn, expected = X64[i]
    got = _run(mode, fn, random.PRNGKey(seed))
    _check(got, expected)


def test_x64_default_dtypes():
    jax.config.update("jax_enable_x64", True)
    k = random.key(0)
    assert random.uniform(k).dtype == jnp.float64
    assert random.normal(k).dtype == jnp.float64
    assert random.randint(k, (2,), 0, 3).dtype == jnp.int64
    assert random.permutation(k, 4).dtype == jnp.int64


def test_x32_default_dtypes():
    k = random.key(0)
    assert random.uniform(k).dtype == jnp.float32
    assert random.randint(k, (2,), 0, 3).dtype == jnp.int32
    assert random.bernoulli(k).dtype == jnp.bool_
    assert random.normal(k, (0,)).shape == (0,)
    with pytest.warns(UserWarning, match="Explicitly requested dtype float64"):
        assert random.uniform(k, (2,), jnp.float64).dtype == jnp.float32


@pytest.mark.parametrize(
    "fn",
    [
        lambda k, s: random.uniform(k, s),
        lambda k, s: random.normal(k, s),
        lambda k, s: random.bits(k, s),
        lambda k, s: random.randint(k, s, -5, 1000),
        lambda k, s: random.bernoulli(k, 0.4, s),
        lambda k, s: random.gumbel(k, s),
        lambda k, s: random.exponential(k, s),
    ],
)
def test_prefix_property(fn):
    k = random.key(11)
    assert np.array_equal(np.asarray(fn(k, (40,)))[:13], np.asarray(fn(k, (13,))))
    assert np.array_equal(np.asarray(fn(k, (2, 3))).ravel(), np.asarray(fn(k, (6,))))


def test_choice_is_randint_and_legacy_equals_typed():
    k = random.key(5)
    assert random.choice(k, 17, (9,)).tolist() == random.randint(k, (9,), 0, 17).tolist()
    for s in (0, 1, 99):
        assert _hex(random.uniform(random.PRNGKey(s), (3,))) == _hex(
            random.uniform(random.key(s), (3,))
        )


def test_uniform_edge_ranges():
    k = random.PRNGKey(0)
    assert random.uniform(k, (3,), minval=2.0, maxval=1.0).tolist() == [2.0, 2.0, 2.0]
    u = random.uniform(k, (1000,), minval=-1.0, maxval=1.0)
    assert float(u.min()) >= -1.0 and float(u.max()) < 1.0


def test_randint_corner_cases():
    k = random.PRNGKey(0)
    assert random.randint(k, (3,), 5, 2).tolist() == [5, 5, 5]
    a = random.randint(k, (5,), 0, 300, jnp.uint8).tolist()
    assert a == random.randint(k, (5,), 0, 256, jnp.uint8).tolist()
    # R14.2: float bounds truncate toward zero.
    assert random.randint(k, (6,), 0.5, 10.5).tolist() == random.randint(k, (6,), 0, 10).tolist()
    assert random.randint(k, (6,), -2.7, 3.9).tolist() == random.randint(k, (6,), -2, 3).tolist()
    big = random.randint(k, (2000,), -(2**31), 2**31 - 1)
    assert big.dtype == jnp.int32 and int(big.min()) < -(2**30) and int(big.max()) > 2**30
