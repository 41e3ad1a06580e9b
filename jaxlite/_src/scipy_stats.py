"""``jax.scipy.stats``: log-densities and CDFs of common distributions, as compositions of
``jax.numpy`` and ``jax.scipy.special`` functions (so they jit, vmap and differentiate).

Each distribution is a namespace class of static functions with JAX's signatures
(``loc``/``scale`` keyword defaults as in ``jax.scipy.stats``).
"""

from __future__ import annotations

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import scipy_special as sp
from jaxlite._src.numpy.util import promote_args_inexact
from jaxlite._src.ops import linalg_ops

_LOG_SQRT_2PI = float(np.log(np.sqrt(2 * np.pi)))


class norm:
    """The normal distribution (``jax.scipy.stats.norm``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("norm.logpdf", x, loc, scale)
        z = jnp.divide(jnp.subtract(x, loc), scale)
        return jnp.subtract(
            jnp.multiply(-0.5, jnp.square(z)), jnp.add(_LOG_SQRT_2PI, jnp.log(scale))
        )

    @staticmethod
    def pdf(x, loc=0, scale=1):
        return jnp.exp(norm.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("norm.cdf", x, loc, scale)
        return sp.ndtr(jnp.divide(jnp.subtract(x, loc), scale))

    @staticmethod
    def logcdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("norm.logcdf", x, loc, scale)
        return sp.log_ndtr(jnp.divide(jnp.subtract(x, loc), scale))

    @staticmethod
    def sf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("norm.sf", x, loc, scale)
        return sp.ndtr(jnp.divide(jnp.subtract(loc, x), scale))

    @staticmethod
    def logsf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("norm.logsf", x, loc, scale)
        return sp.log_ndtr(jnp.divide(jnp.subtract(loc, x), scale))

    @staticmethod
    def ppf(q, loc=0, scale=1):
        q, loc, scale = promote_args_inexact("norm.ppf", q, loc, scale)
        return jnp.add(jnp.multiply(sp.ndtri(q), scale), loc)

    @staticmethod
    def isf(q, loc=0, scale=1):
        q, loc, scale = promote_args_inexact("norm.isf", q, loc, scale)
        return jnp.add(jnp.multiply(sp.ndtri(jnp.subtract(1, q)), scale), loc)


class multivariate_normal:
    """The multivariate normal distribution (``jax.scipy.stats.multivariate_normal``)."""

    @staticmethod
    def logpdf(x, mean, cov, allow_singular=None):
        """Log-density; ``cov`` may be a scalar, a vector (diagonal) or a matrix."""
        if allow_singular is not None:
            raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
        x, mean, cov = promote_args_inexact("multivariate_normal.logpdf", x, mean, cov)
        if not mean.shape:
            return jnp.subtract(
                jnp.multiply(-0.5, jnp.divide(jnp.square(jnp.subtract(x, mean)), cov)),
                jnp.multiply(0.5, jnp.add(np.log(2 * np.pi), jnp.log(cov))),
            )
        n = mean.shape[-1]
        if not np.shape(cov):
            y = jnp.subtract(x, mean)
            quad = jnp.divide(jnp.sum(jnp.square(y), axis=-1), cov)
            return jnp.multiply(-0.5, jnp.add(quad, jnp.multiply(n, jnp.log(2 * np.pi * cov))))
        if cov.ndim < 2 or cov.shape[-2:] != (n, n):
            raise ValueError("multivariate_normal.logpdf got incompatible shapes")
        chol = jnp.linalg.cholesky(cov)
        y = jnp.subtract(x, mean)
        y = jnp.broadcast_to(y, jnp.broadcast_shapes(y.shape, cov.shape[:-1]))
        chol = jnp.broadcast_to(chol, y.shape[:-1] + (n, n))
        solved = linalg_ops.triangular_solve(chol, y[..., None], left_side=True, lower=True)
        quad = jnp.sum(jnp.square(solved[..., 0]), axis=-1)
        logdet = jnp.sum(jnp.log(jnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)
        return jnp.subtract(jnp.multiply(-0.5, jnp.add(quad, n * np.log(2 * np.pi))), logdet)

    @staticmethod
    def pdf(x, mean, cov):
        return jnp.exp(multivariate_normal.logpdf(x, mean, cov))


def _in_support(x, lo, hi, value, outside):
    inside = jnp.logical_and(jnp.greater_equal(x, lo), jnp.less_equal(x, hi))
    return jnp.where(inside, value, outside)


class uniform:
    """The uniform distribution on ``[loc, loc + scale]`` (``jax.scipy.stats.uniform``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("uniform.logpdf", x, loc, scale)
        return _in_support(x, loc, jnp.add(loc, scale), jnp.negative(jnp.log(scale)), -np.inf)

    @staticmethod
    def pdf(x, loc=0, scale=1):
        return jnp.exp(uniform.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("uniform.cdf", x, loc, scale)
        return jnp.clip(jnp.divide(jnp.subtract(x, loc), scale), 0, 1)

    @staticmethod
    def ppf(q, loc=0, scale=1):
        q, loc, scale = promote_args_inexact("uniform.ppf", q, loc, scale)
        value = jnp.add(loc, jnp.multiply(q, scale))
        return _in_support(q, 0, 1, value, np.nan)


class laplace:
    """The Laplace distribution (``jax.scipy.stats.laplace``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("laplace.logpdf", x, loc, scale)
        z = jnp.abs(jnp.divide(jnp.subtract(x, loc), scale))
        return jnp.negative(jnp.add(z, jnp.log(jnp.multiply(2, scale))))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        return jnp.exp(laplace.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("laplace.cdf", x, loc, scale)
        z = jnp.divide(jnp.subtract(x, loc), scale)
        half = jnp.multiply(0.5, jnp.exp(jnp.negative(jnp.abs(z))))
        return jnp.where(jnp.less(z, 0), half, jnp.subtract(1, half))


class logistic:
    """The logistic distribution (``jax.scipy.stats.logistic``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("logistic.logpdf", x, loc, scale)
        z = jnp.divide(jnp.subtract(x, loc), scale)
        return jnp.subtract(
            jnp.negative(z),
            jnp.add(jnp.multiply(2, jnp.log1p(jnp.exp(jnp.negative(z)))), jnp.log(scale)),
        )

    @staticmethod
    def pdf(x, loc=0, scale=1):
        return jnp.exp(logistic.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("logistic.cdf", x, loc, scale)
        return sp.expit(jnp.divide(jnp.subtract(x, loc), scale))

    @staticmethod
    def ppf(q, loc=0, scale=1):
        q, loc, scale = promote_args_inexact("logistic.ppf", q, loc, scale)
        return jnp.add(loc, jnp.multiply(scale, sp.logit(q)))


class expon:
    """The exponential distribution (``jax.scipy.stats.expon``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("expon.logpdf", x, loc, scale)
        z = jnp.divide(jnp.subtract(x, loc), scale)
        return jnp.where(jnp.less(z, 0), -np.inf, jnp.negative(jnp.add(z, jnp.log(scale))))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        return jnp.exp(expon.logpdf(x, loc, scale))


class cauchy:
    """The Cauchy distribution (``jax.scipy.stats.cauchy``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        x, loc, scale = promote_args_inexact("cauchy.logpdf", x, loc, scale)
        z = jnp.divide(jnp.subtract(x, loc), scale)
        return jnp.negative(jnp.add(jnp.log(np.pi * scale), jnp.log1p(jnp.square(z))))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        return jnp.exp(cauchy.logpdf(x, loc, scale))


class gamma:
    """The gamma distribution with shape ``a`` (``jax.scipy.stats.gamma``)."""

    @staticmethod
    def logpdf(x, a, loc=0, scale=1):
        x, a, loc, scale = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
        y = jnp.divide(jnp.subtract(x, loc), scale)
        val = jnp.subtract(sp.xlogy(jnp.subtract(a, 1), y), jnp.add(y, sp.gammaln(a)))
        return jnp.where(jnp.less(y, 0), -np.inf, jnp.subtract(val, jnp.log(scale)))

    @staticmethod
    def pdf(x, a, loc=0, scale=1):
        return jnp.exp(gamma.logpdf(x, a, loc, scale))


class beta:
    """The beta distribution (``jax.scipy.stats.beta``)."""

    @staticmethod
    def logpdf(x, a, b, loc=0, scale=1):
        x, a, b, loc, scale = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
        y = jnp.divide(jnp.subtract(x, loc), scale)
        val = jnp.add(
            sp.xlogy(jnp.subtract(a, 1), y), sp.xlog1py(jnp.subtract(b, 1), jnp.negative(y))
        )
        val = jnp.subtract(val, jnp.add(sp.betaln(a, b), jnp.log(scale)))
        return _in_support(y, 0, 1, val, -np.inf)

    @staticmethod
    def pdf(x, a, b, loc=0, scale=1):
        return jnp.exp(beta.logpdf(x, a, b, loc, scale))


class t:
    """Student's t distribution (``jax.scipy.stats.t``)."""

    @staticmethod
    def logpdf(x, df, loc=0, scale=1):
        x, df, loc, scale = promote_args_inexact("t.logpdf", x, df, loc, scale)
        z = jnp.divide(jnp.subtract(x, loc), scale)
        half = jnp.multiply(0.5, jnp.add(df, 1))
        norm_const = jnp.subtract(sp.gammaln(half), sp.gammaln(jnp.multiply(0.5, df)))
        norm_const = jnp.subtract(norm_const, jnp.multiply(0.5, jnp.log(jnp.multiply(np.pi, df))))
        val = jnp.multiply(jnp.negative(half), jnp.log1p(jnp.divide(jnp.square(z), df)))
        return jnp.subtract(jnp.add(norm_const, val), jnp.log(scale))

    @staticmethod
    def pdf(x, df, loc=0, scale=1):
        return jnp.exp(t.logpdf(x, df, loc, scale))


class bernoulli:
    """The Bernoulli distribution (``jax.scipy.stats.bernoulli``)."""

    @staticmethod
    def logpmf(k, p, loc=0):
        k, p, loc = promote_args_inexact("bernoulli.logpmf", k, p, loc)
        k = jnp.subtract(k, loc)
        val = jnp.add(sp.xlogy(k, p), sp.xlog1py(jnp.subtract(1, k), jnp.negative(p)))
        ok = jnp.logical_or(jnp.equal(k, 0), jnp.equal(k, 1))
        return jnp.where(ok, val, -np.inf)

    @staticmethod
    def pmf(k, p, loc=0):
        return jnp.exp(bernoulli.logpmf(k, p, loc))


class poisson:
    """The Poisson distribution (``jax.scipy.stats.poisson``)."""

    @staticmethod
    def logpmf(k, mu, loc=0):
        k, mu, loc = promote_args_inexact("poisson.logpmf", k, mu, loc)
        x = jnp.subtract(k, loc)
        val = jnp.subtract(jnp.subtract(sp.xlogy(x, mu), sp.gammaln(jnp.add(x, 1))), mu)
        ok = jnp.logical_and(jnp.greater_equal(x, 0), jnp.equal(x, jnp.round(x)))
        return jnp.where(ok, val, -np.inf)

    @staticmethod
    def pmf(k, mu, loc=0):
        return jnp.exp(poisson.logpmf(k, mu, loc))
