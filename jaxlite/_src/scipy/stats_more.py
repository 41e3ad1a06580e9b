"""``jax.scipy.stats``: the continuous distributions with shape parameters (gamma, beta,
chi-squared, generalized normal, von Mises, wrapped Cauchy, truncated normal, Dirichlet),
written with ``jax.numpy`` and ``jax.scipy.special`` so they jit, vmap and differentiate.

Out-of-support and NaN inputs follow JAX's ``where``-conventions exactly.
"""

from __future__ import annotations

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite import lax
from jaxlite._src.numpy.util import promote_args_inexact, promote_dtypes_inexact
from jaxlite._src.scipy import special as sp
from jaxlite._src.scipy.stats import ALWAYS, norm, refuse_complex, strong_like_jax


def _clamp(lo, y, hi):
    """``lax.clamp(lo, y, hi)`` with XLA's derivative (1 strictly inside, 0 at and beyond
    the bounds and at NaN), which the CDFs below inherit from JAX."""
    inside = (y > lo) & (y < hi)
    return jnp.where(inside, y, lax.stop_gradient(jnp.minimum(jnp.maximum(y, lo), hi)))


class gamma:
    """The gamma distribution with shape ``a`` (``jax.scipy.stats.gamma``)."""

    @staticmethod
    def logpdf(x, a, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.gamma.logpdf`` (``-inf`` where
        ``x < loc`` or ``x`` is NaN)."""
        x, a, loc, scale = promote_args_inexact("gamma.logpdf", x, a, loc, scale)
        ok = x >= loc
        y = jnp.where(ok, (x - loc) / scale, 1)
        val = sp.xlogy(a - 1, y) - y - (sp.gammaln(a) + jnp.log(scale))
        return jnp.where(ok, val, -np.inf)

    @staticmethod
    def pdf(x, a, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.gamma.pdf``."""
        return jnp.exp(gamma.logpdf(x, a, loc, scale))

    @staticmethod
    def cdf(x, a, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.gamma.cdf``."""
        x, a, loc, scale = promote_args_inexact("gamma.cdf", x, a, loc, scale)
        return sp.gammainc(a, _clamp(0, (x - loc) / scale, np.inf))

    @staticmethod
    def logcdf(x, a, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.gamma.logcdf``."""
        return jnp.log(gamma.cdf(x, a, loc, scale))

    @staticmethod
    def sf(x, a, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.gamma.sf``."""
        x, a, loc, scale = promote_args_inexact("gamma.sf", x, a, loc, scale)
        y = (x - loc) / scale
        return jnp.where(y < 0, 1, sp.gammaincc(a, y))

    @staticmethod
    def logsf(x, a, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.gamma.logsf``."""
        return jnp.log(gamma.sf(x, a, loc, scale))


class beta:
    """The beta distribution (``jax.scipy.stats.beta``); NaN where ``a``, ``b`` or
    ``scale`` is not positive."""

    @staticmethod
    def logpdf(x, a, b, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.beta.logpdf``."""
        x, a, b, loc, scale = promote_args_inexact("beta.logpdf", x, a, b, loc, scale)
        y = (x - loc) / scale
        val = sp.xlogy(a - 1, y) + sp.xlog1py(b - 1, -y)
        val = -sp.betaln(a, b) + val - jnp.log(scale)
        val = jnp.where((x > loc + scale) | (x < loc), -np.inf, val)
        return jnp.where((a <= 0) | (b <= 0) | (scale <= 0), np.nan, val)

    @staticmethod
    def pdf(x, a, b, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.beta.pdf``."""
        return jnp.exp(beta.logpdf(x, a, b, loc, scale))

    @staticmethod
    def cdf(x, a, b, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.beta.cdf``."""
        x, a, b, loc, scale = promote_args_inexact("beta.cdf", x, a, b, loc, scale)
        return sp.betainc(a, b, _clamp(0, (x - loc) / scale, 1))

    @staticmethod
    def logcdf(x, a, b, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.beta.logcdf``."""
        return jnp.log(beta.cdf(x, a, b, loc, scale))

    @staticmethod
    def sf(x, a, b, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.beta.sf``."""
        x, a, b, loc, scale = promote_args_inexact("beta.sf", x, a, b, loc, scale)
        return sp.betainc(b, a, 1 - _clamp(0, (x - loc) / scale, 1))

    @staticmethod
    def logsf(x, a, b, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.beta.logsf``."""
        return jnp.log(beta.sf(x, a, b, loc, scale))


class chi2:
    """The chi-squared distribution with ``df`` degrees of freedom
    (``jax.scipy.stats.chi2``)."""

    @staticmethod
    def logpdf(x, df, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.chi2.logpdf``."""
        x, df, loc, scale = promote_args_inexact("chi2.logpdf", x, df, loc, scale)
        y = (x - loc) / scale
        half_df = df / 2
        kernel = (half_df - 1) * jnp.log(y) - y / 2
        const = -(lax.lgamma(half_df) + float(np.log(2)) * df / 2)
        return jnp.where(x < loc, -np.inf, const - jnp.log(scale) + kernel)

    @staticmethod
    def pdf(x, df, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.chi2.pdf``."""
        return jnp.exp(chi2.logpdf(x, df, loc, scale))

    @staticmethod
    def cdf(x, df, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.chi2.cdf``."""
        x, df, loc, scale = promote_args_inexact("chi2.cdf", x, df, loc, scale)
        return sp.gammainc(df / 2, _clamp(0, (x - loc) / (scale * 2), np.inf))

    @staticmethod
    def logcdf(x, df, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.chi2.logcdf``."""
        return jnp.log(chi2.cdf(x, df, loc, scale))

    @staticmethod
    def sf(x, df, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.chi2.sf``."""
        x, df, loc, scale = promote_args_inexact("chi2.sf", x, df, loc, scale)
        return sp.gammaincc(df / 2, _clamp(0, (x - loc) / (scale * 2), np.inf))

    @staticmethod
    def logsf(x, df, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.chi2.logsf``."""
        return jnp.log(chi2.sf(x, df, loc, scale))


class gennorm:
    """The generalized normal distribution with shape ``beta``
    (``jax.scipy.stats.gennorm``)."""

    @staticmethod
    def logpdf(x, beta):
        """Log-density, mirrors ``jax.scipy.stats.gennorm.logpdf``."""
        x, beta = promote_args_inexact("gennorm.logpdf", x, beta)
        return jnp.log(0.5 * beta) - lax.lgamma(1 / beta) - jnp.abs(x) ** beta

    @staticmethod
    def pdf(x, beta):
        """Density, mirrors ``jax.scipy.stats.gennorm.pdf``."""
        return jnp.exp(gennorm.logpdf(x, beta))

    @staticmethod
    def cdf(x, beta):
        """CDF, mirrors ``jax.scipy.stats.gennorm.cdf``."""
        x, beta = promote_args_inexact("gennorm.cdf", x, beta)
        return 0.5 * (1 + jnp.sign(x) * lax.igamma(1 / beta, jnp.abs(x) ** beta))


class vonmises:
    """The von Mises distribution with concentration ``kappa``
    (``jax.scipy.stats.vonmises``); NaN where ``kappa <= 0``."""

    @staticmethod
    def logpdf(x, kappa):
        """Log-density, mirrors ``jax.scipy.stats.vonmises.logpdf``."""
        x, kappa = promote_args_inexact("vonmises.logpdf", x, kappa)
        val = kappa * (jnp.cos(x) - 1) - jnp.log(2 * np.pi * lax.bessel_i0e(kappa))
        return jnp.where(kappa > 0, val, np.nan)

    @staticmethod
    def pdf(x, kappa):
        """Density, mirrors ``jax.scipy.stats.vonmises.pdf``."""
        return jnp.exp(vonmises.logpdf(x, kappa))


class wrapcauchy:
    """The wrapped Cauchy distribution on ``[0, 2 pi]`` (``jax.scipy.stats.wrapcauchy``);
    NaN unless ``0 < c < 1``."""

    @staticmethod
    def logpdf(x, c):
        """Log-density, mirrors ``jax.scipy.stats.wrapcauchy.logpdf``."""
        x, c = promote_args_inexact("wrapcauchy.logpdf", x, c)
        val = (
            jnp.log(1 - c * c) - float(np.log(2 * np.pi)) - jnp.log(1 + c * c - 2 * c * jnp.cos(x))
        )
        val = jnp.where((x >= 0) & (x <= 2 * np.pi), val, -np.inf)
        return jnp.where((c > 0) & (c < 1), val, np.nan)

    @staticmethod
    def pdf(x, c):
        """Density, mirrors ``jax.scipy.stats.wrapcauchy.pdf``."""
        return jnp.exp(wrapcauchy.logpdf(x, c))


def _log_diff(x, y):
    """``log(exp(x) - exp(y))`` by a signed ``logsumexp``."""
    return sp.logsumexp(
        jnp.stack([x, y]), b=jnp.stack([jnp.ones_like(x), -jnp.ones_like(y)]), axis=0
    )


def _log_gauss_mass(a, b):
    """Log of the standard normal mass on ``[a, b]``, computed in the tail that keeps
    precision."""
    a, b = jnp.broadcast_arrays(jnp.asarray(a), jnp.asarray(b))
    left = b <= 0
    right = a > 0
    central = ~(left | right)
    a_tail = jnp.where(right, -b, a)
    b_tail = jnp.where(right, -a, b)
    tail = _log_diff(sp.log_ndtr(b_tail), sp.log_ndtr(a_tail))
    middle = jnp.log1p(-sp.ndtr(a) - sp.ndtr(-b))
    return jnp.where(central, middle, tail)


class truncnorm:
    """The normal distribution truncated to standardized ``[a, b]``
    (``jax.scipy.stats.truncnorm``); NaN where ``a >= b``."""

    @staticmethod
    def logpdf(x, a, b, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.truncnorm.logpdf``."""
        x, a, b, loc, scale = promote_args_inexact("truncnorm.logpdf", x, a, b, loc, scale)
        val = norm.logpdf(x, loc, scale) - _log_gauss_mass(a, b)
        z = (x - loc) / scale
        val = jnp.where((z < a) | (z > b), -np.inf, val)
        return jnp.where(a >= b, np.nan, val)

    @staticmethod
    def pdf(x, a, b, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.truncnorm.pdf``."""
        return jnp.exp(truncnorm.logpdf(x, a, b, loc, scale))

    @staticmethod
    def logcdf(x, a, b, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.truncnorm.logcdf``."""
        x, a, b, loc, scale = promote_args_inexact("truncnorm.logcdf", x, a, b, loc, scale)
        x, a, b = jnp.broadcast_arrays(x, a, b)
        z = (x - loc) / scale
        mass = _log_gauss_mass(a, b)
        lcdf = _log_gauss_mass(a, z) - mass
        lsf = _log_gauss_mass(z, b) - mass
        out = jnp.select(
            [z >= b, z <= a, lcdf > -0.1, z > a],
            [0, -np.inf, jnp.log1p(-jnp.exp(lsf)), lcdf],
        )
        return jnp.where(a >= b, np.nan, out)

    @staticmethod
    def cdf(x, a, b, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.truncnorm.cdf``."""
        return jnp.exp(truncnorm.logcdf(x, a, b, loc, scale))

    @staticmethod
    def logsf(x, a, b, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.truncnorm.logsf``."""
        x, a, b, loc, scale = promote_args_inexact("truncnorm.logsf", x, a, b, loc, scale)
        return truncnorm.logcdf(-x, -b, -a, -loc, scale)

    @staticmethod
    def sf(x, a, b, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.truncnorm.sf``."""
        return jnp.exp(truncnorm.logsf(x, a, b, loc, scale))


class dirichlet:
    """The Dirichlet distribution (``jax.scipy.stats.dirichlet``); the simplex axis of
    ``x`` is axis 0."""

    @staticmethod
    def logpdf(x, alpha):
        """Log-density, mirrors ``jax.scipy.stats.dirichlet.logpdf``; ``x`` may omit the
        last coordinate (it is ``1 - sum``); ``-inf`` off the simplex."""
        x, alpha = promote_dtypes_inexact(x, alpha)
        if alpha.ndim != 1:
            raise ValueError(f"`alpha` must be one-dimensional; got alpha.shape={alpha.shape}")
        if x.ndim == 0 or x.shape[0] not in (alpha.shape[0], alpha.shape[0] - 1):
            raise ValueError(
                "`x` must have either the same number of entries as `alpha` or one entry "
                f"fewer; got x.shape={x.shape}, alpha.shape={alpha.shape}"
            )
        if x.shape[0] != alpha.shape[0]:
            x = jnp.concatenate([x, 1 - jnp.sum(x, axis=0, keepdims=True)], axis=0)
        log_norm = jnp.sum(sp.gammaln(alpha)) - sp.gammaln(jnp.sum(alpha))
        if x.ndim > 1:
            alpha = jnp.reshape(alpha, alpha.shape + (1,) * (x.ndim - 1))
        val = jnp.sum(sp.xlogy(alpha - 1, x), axis=0) - log_norm
        simplex = jnp.all(x > 0, axis=0) & (jnp.abs(jnp.sum(x, axis=0) - 1) < 1e-6)
        return jnp.where(simplex, val, -np.inf)

    @staticmethod
    def pdf(x, alpha):
        """Density, mirrors ``jax.scipy.stats.dirichlet.pdf``."""
        return jnp.exp(dirichlet.logpdf(x, alpha))


refuse_complex(wrapcauchy, {"gt": ("logpdf", "pdf")})  # JAX's lax.gt refuses complex

# JAX's weak types (see stats.strong_like_jax): the arguments its constants are built from.
_ALL = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")
strong_like_jax(beta, {n: ("x",) for n in _ALL})
strong_like_jax(
    chi2,
    {
        "logpdf": ("x",),
        "pdf": ("x",),
        **{n: ("x", "scale") for n in ("cdf", "logcdf", "sf", "logsf")},
    },
)
strong_like_jax(gamma, {n: ("x",) for n in ("logpdf", "pdf", "cdf", "logcdf")})
strong_like_jax(truncnorm, {n: ALWAYS for n in _ALL})
