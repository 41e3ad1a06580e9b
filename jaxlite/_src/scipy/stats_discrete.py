"""``jax.scipy.stats``: the discrete distributions (Bernoulli, binomial, Poisson,
geometric, negative binomial, beta-binomial, multinomial), written with ``jax.numpy`` and
``jax.scipy.special``.

As in JAX, the log-pmfs evaluate their closed formula at any real ``k`` inside the range
checks JAX makes (e.g. ``bernoulli.pmf(0.5, 0.3)`` is ``0.3**0.5 * 0.7**0.5``); only the
checks JAX makes are made.
"""

from __future__ import annotations

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import dtypes
from jaxlite._src.numpy.util import promote_args_inexact, promote_args_numeric
from jaxlite._src.scipy import special as sp
from jaxlite._src.scipy.stats import ALWAYS, refuse_complex, strong_like_jax


class bernoulli:
    """The Bernoulli distribution (``jax.scipy.stats.bernoulli``)."""

    @staticmethod
    def logpmf(k, p, loc=0):
        """Log-pmf, mirrors ``jax.scipy.stats.bernoulli.logpmf`` (``-inf`` only where
        ``k - loc`` is outside ``[0, 1]``)."""
        k, p, loc = promote_args_inexact("bernoulli.logpmf", k, p, loc)
        x = k - loc
        val = sp.xlogy(x, p) + sp.xlog1py(1 - x, -p)
        return jnp.where((x < 0) | (x > 1), -np.inf, val)

    @staticmethod
    def pmf(k, p, loc=0):
        """Pmf, mirrors ``jax.scipy.stats.bernoulli.pmf``."""
        return jnp.exp(bernoulli.logpmf(k, p, loc))

    @staticmethod
    def cdf(k, p):
        """CDF, mirrors ``jax.scipy.stats.bernoulli.cdf`` (NaN for NaN input or ``p``
        outside ``[0, 1]``)."""
        k, p = promote_args_inexact("bernoulli.cdf", k, p)
        zero, one = jnp.zeros_like(k), jnp.ones_like(k)  # weak iff the arguments are
        bad = jnp.isnan(k) | jnp.isnan(p) | (p < 0) | (p > 1)
        conds = [bad, k < 0, (k >= 0) & (k < 1), k >= 1]
        return jnp.select(conds, [np.nan, zero, 1 - p, one], zero)

    @staticmethod
    def ppf(q, p):
        """Quantile function, mirrors ``jax.scipy.stats.bernoulli.ppf``."""
        q, p = promote_args_inexact("bernoulli.ppf", q, p)
        bad = jnp.isnan(q) | jnp.isnan(p) | (p < 0) | (p > 1) | (q < 0) | (q > 1)
        zero, one = jnp.zeros_like(q), jnp.ones_like(q)  # weak iff the arguments are
        return jnp.where(bad, np.nan, jnp.where(q <= 1 - p, zero, one))


class binom:
    """The binomial distribution (``jax.scipy.stats.binom``)."""

    @staticmethod
    def logpmf(k, n, p, loc=0):
        """Log-pmf, mirrors ``jax.scipy.stats.binom.logpmf``."""
        k, n, p, loc = promote_args_inexact("binom.logpmf", k, n, p, loc)
        y = k - loc
        comb = sp.gammaln(n + 1) - (sp.gammaln(y + 1) + sp.gammaln(n - y + 1))
        lin = sp.xlogy(y, p) + sp.xlog1py(n - y, -p)
        val = jnp.where(((y == 0) & (n == 0)) | (lin == 0), 0.0, comb + lin)
        return jnp.where((k >= loc) & (k < loc + n + 1), val, -np.inf)

    @staticmethod
    def pmf(k, n, p, loc=0):
        """Pmf, mirrors ``jax.scipy.stats.binom.pmf``."""
        return jnp.exp(binom.logpmf(k, n, p, loc))


class poisson:
    """The Poisson distribution (``jax.scipy.stats.poisson``)."""

    @staticmethod
    def logpmf(k, mu, loc=0):
        """Log-pmf, mirrors ``jax.scipy.stats.poisson.logpmf`` (``-inf`` for ``k - loc <
        0`` or non-integer ``k``)."""
        k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
        x = k - loc
        val = sp.xlogy(x, mu) - sp.gammaln(x + 1) - mu
        return jnp.where((x < 0) | (jnp.round(k) != k), -np.inf, val)

    @staticmethod
    def pmf(k, mu, loc=0):
        """Pmf, mirrors ``jax.scipy.stats.poisson.pmf``."""
        return jnp.exp(poisson.logpmf(k, mu, loc))

    @staticmethod
    def cdf(k, mu, loc=0):
        """CDF, mirrors ``jax.scipy.stats.poisson.cdf`` (``gammaincc(floor(k-loc+1), mu)``)."""
        k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
        x = k - loc
        return jnp.where(x < 0, 0, sp.gammaincc(jnp.floor(1 + x), mu))

    @staticmethod
    def entropy(mu, loc=0):
        """Entropy, mirrors ``jax.scipy.stats.poisson.entropy``: a sum over the pmf for
        ``mu < 100`` (35 terms below 10, 250 below 100), the asymptotic series above."""
        mu, loc = promote_args_inexact("poisson.entropy", mu, loc)
        shape = jnp.broadcast_shapes(mu.shape, loc.shape)
        flat = jnp.ravel(mu)

        def summed(n_terms, upper):
            k = jnp.arange(n_terms, dtype=flat.dtype)[:, None]
            probs = poisson.pmf(k, flat, 0)
            mask = k < jnp.ceil(upper).astype(k.dtype)[None, :]
            return jnp.sum(sp.entr(jnp.where(mask, probs, 0.0)), axis=0)

        small = summed(35, flat + 20)
        medium = summed(250, flat + 10 * jnp.sqrt(flat) + 20)
        large = 0.5 * jnp.log(2 * np.pi * np.e * flat) - 1.0 / (12 * flat)
        out = jnp.where(flat < 10, small, jnp.where(flat < 100, medium, large))
        out = jnp.where(flat == 0, jnp.zeros_like(flat), out)
        return jnp.broadcast_to(jnp.reshape(out, mu.shape), shape)


class geom:
    """The geometric distribution on ``k = 1, 2, ...`` (``jax.scipy.stats.geom``)."""

    @staticmethod
    def logpmf(k, p, loc=0):
        """Log-pmf, mirrors ``jax.scipy.stats.geom.logpmf``."""
        k, p, loc = promote_args_inexact("geom.logpmf", k, p, loc)
        x = k - loc
        val = sp.xlog1py(x - 1, -p) + jnp.log(p)
        return jnp.where(x <= 0, -np.inf, val)

    @staticmethod
    def pmf(k, p, loc=0):
        """Pmf, mirrors ``jax.scipy.stats.geom.pmf``."""
        return jnp.exp(geom.logpmf(k, p, loc))


class nbinom:
    """The negative binomial distribution (``jax.scipy.stats.nbinom``)."""

    @staticmethod
    def logpmf(k, n, p, loc=0):
        """Log-pmf, mirrors ``jax.scipy.stats.nbinom.logpmf``."""
        k, n, p, loc = promote_args_inexact("nbinom.logpmf", k, n, p, loc)
        y = k - loc
        comb = sp.gammaln(y + n) - sp.gammaln(n) - sp.gammaln(y + 1)
        val = comb + (sp.xlogy(n, p) + sp.xlogy(y, 1 - p))
        return jnp.where(k < loc, -np.inf, val)

    @staticmethod
    def pmf(k, n, p, loc=0):
        """Pmf, mirrors ``jax.scipy.stats.nbinom.pmf``."""
        return jnp.exp(nbinom.logpmf(k, n, p, loc))


class betabinom:
    """The beta-binomial distribution (``jax.scipy.stats.betabinom``); ``k`` is floored;
    NaN where ``n < 0``, ``a <= 0`` or ``b <= 0``."""

    @staticmethod
    def logpmf(k, n, a, b, loc=0):
        """Log-pmf, mirrors ``jax.scipy.stats.betabinom.logpmf``."""
        k, n, a, b, loc = promote_args_inexact("betabinom.logpmf", k, n, a, b, loc)
        y = jnp.floor(k) - loc
        log_comb = -(jnp.log1p(n) + sp.betaln(n - y + 1, y + 1))
        val = log_comb + (sp.betaln(y + a, n - y + b) - sp.betaln(a, b))
        val = jnp.where((y == 0) & (n == 0), 0.0, val)
        val = jnp.where((y < -loc) | (y > n) | (y + a <= 0), -np.inf, val)
        return jnp.where((n < 0) | (a <= 0) | (b <= 0), np.nan, val)

    @staticmethod
    def pmf(k, n, a, b, loc=0):
        """Pmf, mirrors ``jax.scipy.stats.betabinom.pmf``."""
        return jnp.exp(betabinom.logpmf(k, n, a, b, loc))


class multinomial:
    """The multinomial distribution (``jax.scipy.stats.multinomial``)."""

    @staticmethod
    def logpmf(x, n, p):
        """Log-pmf, mirrors ``jax.scipy.stats.multinomial.logpmf``; ``x`` and ``n`` must be
        integers; ``-inf`` unless the counts sum to ``n``."""
        (p,) = promote_args_inexact("multinomial.logpmf", p)
        x, n = promote_args_numeric("multinomial.logpmf", x, n)
        if not dtypes.issubdtype(x.dtype, np.integer):
            raise ValueError(
                f"x and n must be of integer type; got x.dtype={x.dtype}, n.dtype={n.dtype}"
            )
        x = x.astype(p.dtype)
        n = n.astype(p.dtype)
        val = sp.gammaln(n + 1) + jnp.sum(sp.xlogy(x, p) - sp.gammaln(x + 1), axis=-1)
        return jnp.where(jnp.sum(x) == n, val, -np.inf)

    @staticmethod
    def pmf(x, n, p):
        """Pmf, mirrors ``jax.scipy.stats.multinomial.pmf``."""
        return jnp.exp(multinomial.logpmf(x, n, p))


# JAX's lax comparisons refuse complex arguments
refuse_complex(bernoulli, {"lt": ("logpmf", "pmf", "cdf"), "le": ("ppf",)})
refuse_complex(geom, {"le": ("logpmf", "pmf")})

# JAX's weak types (see stats.strong_like_jax): the arguments its constants are built from.
strong_like_jax(bernoulli, {"logpmf": ("k",), "pmf": ("k",), "cdf": ("k",), "ppf": ("q",)})
strong_like_jax(betabinom, {"logpmf": ("k", "loc"), "pmf": ("k", "loc")})
strong_like_jax(geom, {"logpmf": ("k",), "pmf": ("k",)})
strong_like_jax(nbinom, {"logpmf": ("k",), "pmf": ("k",)})
strong_like_jax(poisson, {"cdf": ("k",), "entropy": ALWAYS})
