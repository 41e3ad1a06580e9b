"""The samplers beyond R6-R8.9 (spec/random.md R8.2, R8.10-R8.15): spec vectors, moments,
gradients, and (where JAX is installed) agreement with JAX — exact for the E1 ones, to the
tolerances of docs/compat.md for E2."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import random


def _hex(x):
    return " ".join(f"{int(v):08x}" for v in np.asarray(x).view(np.uint32).ravel())


K0 = random.PRNGKey(0)


def test_spec_vectors_exact():
    assert _hex(random.truncated_normal(K0, -1.0, 1.0, (5,))) == (
        "3f5ca2d1 3f70f845 be95044c bd5bb779 3df5857d"
    )
    mvn = random.multivariate_normal(K0, jnp.zeros(2), jnp.array([[1, 0.5], [0.5, 1]]), (3,))
    np.testing.assert_allclose(
        np.asarray(mvn),
        [
            [1.622642159461975, 2.5652518272399902],
            [-0.4335944354534149, -0.2848818302154541],
            [0.17609089612960815, -0.7538084983825684],
        ],
        rtol=1e-6,
    )


E2_VECTORS = [
    (lambda k: random.gamma(k, 2.0, (4,)), [1.5897877, 1.7599413, 1.1290071, 3.974334]),
    (lambda k: random.gamma(k, 0.5, (4,)), [0.8845648, 1.0290775, 0.0470742, 0.07322501]),
    (lambda k: random.beta(k, 2.0, 3.0, (4,)), [0.23627362, 0.49045956, 0.6837948, 0.5423442]),
    (lambda k: random.dirichlet(k, jnp.array([1.0, 2.0, 3.0])), [0.1422856, 0.4048826, 0.4528318]),
]


@pytest.mark.parametrize("i", range(len(E2_VECTORS)))
@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_spec_vectors_e2(i, mode):
    fn, expected = E2_VECTORS[i]
    got = fn(K0) if mode == "eager" else jax.jit(fn)(K0)
    np.testing.assert_allclose(np.asarray(got), expected, rtol=2e-5)


def test_poisson_vectors():
    assert random.poisson(K0, 3.0, (6,)).tolist() == [0, 0, 4, 4, 1, 2]
    assert random.poisson(K0, 50.0, (6,)).tolist() == [39, 47, 41, 57, 43, 53]
    assert random.poisson(K0, 3.0, (6,)).dtype == jnp.int32
    # Knuth branch is prefix-stable; lam == 0 gives 0.
    k = random.key(4)
    assert random.poisson(k, 2.0, (20,))[:7].tolist() == random.poisson(k, 2.0, (7,)).tolist()
    assert random.poisson(k, jnp.zeros(3)).tolist() == [0, 0, 0]


MOMENTS = [
    # (sampler, mean, variance)
    (lambda k, s: random.gamma(k, 3.0, s), 3.0, 3.0),
    (lambda k, s: random.gamma(k, 0.3, s), 0.3, 0.3),
    (lambda k, s: jnp.exp(random.loggamma(k, 2.0, s)), 2.0, 2.0),
    (lambda k, s: random.beta(k, 2.0, 5.0, s), 2 / 7, 10 / (49 * 8)),
    (lambda k, s: random.chisquare(k, 4.0, s), 4.0, 8.0),
    (lambda k, s: random.t(k, 10.0, s), 0.0, 10 / 8),
    (lambda k, s: random.f(k, 5.0, 12.0, s), 12 / 10, 2 * 144 * 15 / (5 * 100 * 8)),
    (lambda k, s: random.poisson(k, 4.0, s), 4.0, 4.0),
    (lambda k, s: random.poisson(k, 40.0, s), 40.0, 40.0),
    (lambda k, s: random.laplace(k, s), 0.0, 2.0),
    (lambda k, s: random.logistic(k, s), 0.0, np.pi**2 / 3),
    (lambda k, s: random.truncated_normal(k, -1.0, 2.0, s), 0.22964, 0.5198),
    (lambda k, s: random.rademacher(k, s), 0.0, 1.0),
    (lambda k, s: random.maxwell(k, s), 2 * np.sqrt(2 / np.pi), 3 - 8 / np.pi),
    (lambda k, s: random.weibull_min(k, 2.0, 1.5, s), 2 * 0.9027453, 1.5027),
    (lambda k, s: random.rayleigh(k, 1.0, s), np.sqrt(np.pi / 2), (4 - np.pi) / 2),
    (lambda k, s: random.pareto(k, 5.0, s), 5 / 4, 5 / (16 * 3)),
    (lambda k, s: random.geometric(k, 0.25, s), 4.0, 12.0),
    (lambda k, s: random.lognormal(k, 0.5, s), np.exp(0.125), (np.exp(0.25) - 1) * np.exp(0.25)),
    (lambda k, s: random.wald(k, 2.0, s), 2.0, 8.0),
    (lambda k, s: random.triangular(k, 0.0, 1.0, 3.0, s), 4 / 3, (9 + 1 - 3) / 18),
    (lambda k, s: random.double_sided_maxwell(k, 1.0, 2.0, s), 1.0, 12.0),
    (lambda k, s: random.generalized_normal(k, 2.0, s), 0.0, 0.5),
    (lambda k, s: random.binomial(k, 30.0, 0.2, s), 6.0, 4.8),
    (lambda k, s: random.binomial(k, 500.0, 0.7, s), 350.0, 105.0),
]


@pytest.mark.parametrize("i", range(len(MOMENTS)))
def test_moments(i):
    fn, mean, var = MOMENTS[i]
    x = np.asarray(fn(random.key(100 + i), (20000,)), np.float64)
    se = np.sqrt(var / x.size)
    assert abs(x.mean() - mean) < 6 * se + 1e-3
    assert abs(x.var() / var - 1) < 0.15


def test_cauchy_median_and_ball_and_orthogonal():
    c = np.asarray(random.cauchy(random.key(1), (20000,)))
    assert abs(np.median(c)) < 0.05 and abs(np.quantile(c, 0.75) - 1) < 0.06
    b = np.asarray(random.ball(random.key(2), 3, 2, (5000,)))
    assert b.shape == (5000, 3) and (np.linalg.norm(b, axis=-1) <= 1 + 1e-6).all()
    q = np.asarray(random.orthogonal(random.key(3), 4, (2,)))
    for m in q:
        np.testing.assert_allclose(m @ m.T, np.eye(4), atol=1e-5)
    mvn = np.asarray(
        random.multivariate_normal(random.key(4), jnp.array([1.0, -1.0]),
                                   jnp.array([[2.0, 0.6], [0.6, 1.0]]), (20000,), method="eigh")
    )  # fmt: skip
    np.testing.assert_allclose(np.cov(mvn.T), [[2.0, 0.6], [0.6, 1.0]], atol=0.08)


def test_gamma_reparameterised_gradient():
    k = random.key(5)

    def f(a):
        return random.gamma(k, a, (2000,)).mean()

    g = float(jax.grad(f)(2.5))
    assert abs(g - 1.0) < 0.06  # d E[gamma(a)] / da = 1
    eps = 1e-3
    fd = (float(f(2.5 + eps)) - float(f(2.5 - eps))) / (2 * eps)
    assert abs(g - fd) < 1e-2


def test_multinomial_counts_sum_to_n():
    c = np.asarray(
        random.multinomial(random.key(8), 50.0, jnp.array([0.1, 0.6, 0.3]), shape=(400, 3))
    )
    assert c.shape == (400, 3) and (c.sum(-1) == 50).all() and (c >= 0).all()
    np.testing.assert_allclose(c.mean(0), [5.0, 30.0, 15.0], rtol=0.05)


def test_dirichlet_rows_sum_to_one():
    d = np.asarray(random.dirichlet(random.key(6), jnp.array([0.5, 1.0, 2.0]), (100,)))
    assert d.shape == (100, 3)
    np.testing.assert_allclose(d.sum(-1), 1.0, rtol=1e-5)


def test_vmap_gamma_over_keys():
    ks = random.split(random.key(7), 3)
    batched = jax.vmap(lambda k: random.gamma(k, 1.5, (4,)))(ks)
    for i in range(3):
        np.testing.assert_array_equal(
            np.asarray(batched[i]), np.asarray(random.gamma(ks[i], 1.5, (4,)))
        )


# ------------------------------------------------------------------ against real JAX

EXACT = [
    ("laplace", lambda r, n, k: r.laplace(k, (500,))),
    ("logistic", lambda r, n, k: r.logistic(k, (500,))),
    ("geometric", lambda r, n, k: r.geometric(k, 0.2, (500,))),
    ("rayleigh", lambda r, n, k: r.rayleigh(k, 2.0, (500,))),
    ("triangular", lambda r, n, k: r.triangular(k, -1.0, 0.0, 2.0, (500,))),
    ("rademacher", lambda r, n, k: r.rademacher(k, (500,))),
    ("truncated_normal-sym", lambda r, n, k: r.truncated_normal(k, -2.0, 2.0, (500,))),
    ("poisson-small", lambda r, n, k: r.poisson(k, 3.5, (500,))),
    ("poisson-large", lambda r, n, k: r.poisson(k, 25.0, (500,))),
    ("binomial-inversion", lambda r, n, k: r.binomial(k, 10.0, 0.3, (500,))),
    ("binomial-btrs", lambda r, n, k: r.binomial(k, 200.0, 0.4, (500,))),
    ("binomial-high-p", lambda r, n, k: r.binomial(k, 100.0, 0.9, (500,))),
    ("binomial-special",
     lambda r, n, k: r.binomial(k, n.array([-1.0, 5.0, n.inf, 7.0]),
                                n.array([0.5, n.nan, 0.5, 0.2]))),
    ("multinomial", lambda r, n, k: r.multinomial(k, n.array([10.0, 100.0]),
                                                  n.array([0.2, 0.3, 0.5]), shape=(2, 3))),
]  # fmt: skip

CLOSE = [
    ("truncated_normal", lambda r, n, k: r.truncated_normal(k, -0.25, 1.5, (500,)), 5e-4),
    ("cauchy", lambda r, n, k: r.cauchy(k, (500,)), 1e-5),
    ("maxwell", lambda r, n, k: r.maxwell(k, (200,)), 1e-5),
    ("weibull_min", lambda r, n, k: r.weibull_min(k, 1.0, 2.0, (200,)), 1e-5),
    ("pareto", lambda r, n, k: r.pareto(k, 3.0, (200,)), 1e-5),
    ("lognormal", lambda r, n, k: r.lognormal(k, 0.5, (200,)), 1e-5),
    ("wald", lambda r, n, k: r.wald(k, 1.5, (200,)), 1e-4),
    ("gamma", lambda r, n, k: r.gamma(k, 0.7, (300,)), 1e-5),
    ("loggamma", lambda r, n, k: r.loggamma(k, 0.2, (300,)), 1e-5),
    ("beta", lambda r, n, k: r.beta(k, 2.0, 3.0, (200,)), 1e-5),
    ("dirichlet", lambda r, n, k: r.dirichlet(k, n.array([1.0, 2.0, 3.0]), (50,)), 1e-5),
    ("chisquare", lambda r, n, k: r.chisquare(k, 3.0, (200,)), 1e-5),
    ("t", lambda r, n, k: r.t(k, 4.0, (200,)), 1e-5),
    ("f", lambda r, n, k: r.f(k, 3.0, 5.0, (200,)), 1e-5),
    ("generalized_normal", lambda r, n, k: r.generalized_normal(k, 1.5, (200,)), 1e-5),
    ("ball", lambda r, n, k: r.ball(k, 3, 2, (50,)), 1e-5),
    ("mvn-eigh",
     lambda r, n, k: r.multivariate_normal(k, n.zeros(2), n.eye(2) + 0.5, (20,), method="eigh"),
     1e-5),
    ("orthogonal", lambda r, n, k: r.orthogonal(k, 3, (2,)), 1e-5),
    ("mvn-cholesky",
     lambda r, n, k: r.multivariate_normal(k, n.zeros(3), n.eye(3) + 0.25, (50,)), 1e-5),
]  # fmt: skip


def _pair(seed):
    realjax = pytest.importorskip("jax")
    import jax.numpy  # noqa: F401
    import jax.random  # noqa: F401

    return realjax, realjax.random.key(seed), random.key(seed)


@pytest.mark.parametrize("name,fn", EXACT, ids=[n for n, _ in EXACT])
def test_exact_vs_jax(name, fn):
    realjax, kj, kl = _pair(3)
    want = np.asarray(fn(realjax.random, realjax.numpy, kj))
    got = np.asarray(fn(random, jnp, kl))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # (NaNs compare equal here)


@pytest.mark.parametrize("name,fn,rtol", CLOSE, ids=[n for n, _, _ in CLOSE])
def test_close_to_jax(name, fn, rtol):
    realjax, kj, kl = _pair(3)
    want = np.asarray(fn(realjax.random, realjax.numpy, kj))
    got = np.asarray(fn(random, jnp, kl))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
