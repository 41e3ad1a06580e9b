"""``jax.scipy.stats``: the continuous location-scale distributions (normal, uniform,
Laplace, logistic, exponential, Cauchy, Student's t, Gumbel, Pareto), as compositions of
``jax.numpy`` and ``jax.scipy.special`` functions (so they jit, vmap and differentiate).

Each distribution is a namespace class of static functions with JAX's signatures
(``loc``/``scale`` keyword defaults as in ``jax.scipy.stats``). Out-of-support and NaN
inputs follow JAX's ``where``-conventions exactly (a comparison with NaN is False, so
e.g. ``uniform.pdf(nan)`` is ``1/scale`` as in JAX); the shape-parameter distributions are
in ``stats_more``, the discrete ones in ``stats_discrete``.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import dtypes
from jaxlite._src.core.avals import aval_of
from jaxlite._src.nn import log1mexp
from jaxlite._src.numpy.util import (
    promote_args_inexact,
    promote_dtypes_inexact,
    with_weak_type,
)
from jaxlite._src.ops import elementwise as ew, lax_api as L, linalg_ops
from jaxlite._src.scipy import special as sp

_LOG_2PI = float(np.log(2 * np.pi))


def _complex_arg(args) -> np.dtype | None:
    """The complex dtype among the arguments' (``None`` when all are real)."""
    for a in args:
        if a is None:
            continue
        try:
            dt = dtypes.dtype_and_weak_type(a)[0]
        except TypeError:
            continue  # not array-like: the function's own checks report it
        if dtypes.is_complex(dt):
            return dt
    return None


def refuse_complex(cls, table: dict) -> None:
    """Make ``cls``'s functions named in ``table`` (``{op: names}``) raise JAX's
    ``TypeError`` for a complex argument: JAX compares its promoted arguments with
    ``lax.lt``/``le``/``gt`` (or divides with ``lax.div``), which refuse complex operands
    (``op``, the first one JAX meets), where ``jnp``'s comparisons would order them."""
    for op, names in table.items():
        for name in names:
            fn = getattr(cls, name)

            def checked(*args, _fn=fn, _op=op, **kwargs):
                dt = _complex_arg(list(args) + list(kwargs.values()))
                if dt is not None:  # lax's own checks raise JAX's messages
                    z = np.zeros((), dt)
                    if _op == "div":
                        real = np.zeros((), dtypes.to_real_dtype(dt))
                        L.check_same_dtypes("div", "divide", real, z)
                    L.check_accepted(_op, (L.ORDERED, L.ORDERED), z, z)
                return _fn(*args, **kwargs)

            functools.update_wrapper(checked, fn)
            setattr(cls, name, staticmethod(checked))


ALWAYS = "always"


def _ndim(v) -> int:
    return v.ndim if hasattr(v, "ndim") else np.ndim(v)


def strong_like_jax(cls, table: dict) -> None:
    """Give ``cls``'s functions named in ``table`` JAX's weak type.

    JAX builds a formula's constants with ``lax._const(example, value)``: a weakly typed
    scalar when ``example`` (a promoted argument) is a weakly typed 0-d value, a strongly
    typed array of its dtype otherwise. So where every promoted argument is weak (integer
    or bool arrays with Python-scalar parameters, weak arrays) JAX's result is strong as
    soon as one of the arguments its constants are built from is not 0-d; the formulas
    here keep the inputs' weak type. ``table`` maps each function name to the names of
    those arguments, or to ``ALWAYS`` where JAX's result is strong whatever the arguments
    (it converts to a typed constant's dtype or builds an array with ``jnp.array``).
    Values are unchanged: a weak result is already in the promoted (canonical) dtype."""
    for name, examples in table.items():
        fn = getattr(cls, name)
        sig = inspect.signature(fn)

        def typed(*args, _fn=fn, _sig=sig, _examples=examples, **kwargs):
            out = _fn(*args, **kwargs)
            if not aval_of(out).weak_type:
                return out
            if _examples != ALWAYS:
                bound = _sig.bind(*args, **kwargs)
                bound.apply_defaults()
                if all(_ndim(bound.arguments[a]) == 0 for a in _examples):
                    return out
            return with_weak_type(out, False)

        functools.update_wrapper(typed, fn)
        setattr(cls, name, staticmethod(typed))


def _bad_q(q):
    """Where a probability argument is NaN or outside ``[0, 1]`` (quantile functions give
    NaN there)."""
    return jnp.isnan(q) | (q < 0) | (q > 1)


class norm:
    """The normal distribution (``jax.scipy.stats.norm``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.norm.logpdf``."""
        x, loc, scale = promote_args_inexact("norm.logpdf", x, loc, scale)
        var = jnp.square(scale)
        return (jnp.log((2 * np.pi) * var) + jnp.square(x - loc) / var) / -2

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.norm.pdf``."""
        return jnp.exp(norm.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.norm.cdf``."""
        x, loc, scale = promote_args_inexact("norm.cdf", x, loc, scale)
        return sp.ndtr((x - loc) / scale)

    @staticmethod
    def logcdf(x, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.norm.logcdf``."""
        x, loc, scale = promote_args_inexact("norm.logcdf", x, loc, scale)
        return sp.log_ndtr((x - loc) / scale)

    @staticmethod
    def sf(x, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.norm.sf``."""
        x, loc, scale = promote_args_inexact("norm.sf", x, loc, scale)
        return norm.cdf(-x, -loc, scale)

    @staticmethod
    def logsf(x, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.norm.logsf``."""
        x, loc, scale = promote_args_inexact("norm.logsf", x, loc, scale)
        return norm.logcdf(-x, -loc, scale)

    @staticmethod
    def ppf(q, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.norm.ppf`` (result in the default
        float dtype at least, as JAX)."""
        return jnp.asarray(sp.ndtri(q) * scale + loc, float)

    @staticmethod
    def isf(q, loc=0, scale=1):
        """Inverse survival function, mirrors ``jax.scipy.stats.norm.isf``."""
        if isinstance(q, (list, tuple)):  # JAX's ndtri reads the dtype of ``1 - q``
            raise TypeError(f"Cannot determine dtype of {q!r}")
        q = jnp.asarray(q)  # ``1 - q`` with lax's sub, which refuses booleans (as JAX)
        return norm.ppf(ew.sub(ew._formula_const(q, 1), q), loc, scale)


class multivariate_normal:
    """The multivariate normal distribution (``jax.scipy.stats.multivariate_normal``)."""

    @staticmethod
    def logpdf(x, mean, cov, allow_singular=None):
        """Log-density, mirrors ``jax.scipy.stats.multivariate_normal.logpdf``; ``cov`` may
        be a scalar, a vector (diagonal) or a matrix."""
        if allow_singular is not None:
            raise NotImplementedError("allow_singular argument of multivariate_normal.logpdf")
        x, mean, cov = promote_dtypes_inexact(x, mean, cov)
        if not mean.shape:
            return jnp.subtract(
                jnp.multiply(-0.5, jnp.divide(jnp.square(jnp.subtract(x, mean)), cov)),
                jnp.multiply(0.5, jnp.add(_LOG_2PI, jnp.log(cov))),
            )
        n = mean.shape[-1]
        if not np.shape(cov):
            # JAX contracts with einsum, which keeps weak operands' weak type (a sum of
            # squares would not), and takes the two logs apart.
            y = jnp.subtract(x, mean)
            quad = jnp.divide(jnp.einsum("...i,...i->...", y, y), cov)
            return -0.5 * quad - n / 2 * (jnp.log(2 * np.pi) + jnp.log(cov))
        if cov.ndim < 2 or cov.shape[-2:] != (n, n):
            raise ValueError("multivariate_normal.logpdf got incompatible shapes")
        chol = jnp.linalg.cholesky(cov)
        y = jnp.subtract(x, mean)
        y = jnp.broadcast_to(y, jnp.broadcast_shapes(y.shape, cov.shape[:-1]))
        chol = jnp.broadcast_to(chol, y.shape[:-1] + (n, n))
        solved = linalg_ops.triangular_solve(chol, y[..., None], left_side=True, lower=True)
        quad = jnp.sum(jnp.square(solved[..., 0]), axis=-1)
        logdet = jnp.sum(jnp.log(jnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)
        return jnp.subtract(jnp.multiply(-0.5, jnp.add(quad, n * _LOG_2PI)), logdet)

    @staticmethod
    def pdf(x, mean, cov):
        """Density, mirrors ``jax.scipy.stats.multivariate_normal.pdf``."""
        return jnp.exp(multivariate_normal.logpdf(x, mean, cov))


class uniform:
    """The uniform distribution on ``[loc, loc + scale]`` (``jax.scipy.stats.uniform``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.uniform.logpdf`` (NaN ``x`` counts as
        inside the support, as in JAX)."""
        x, loc, scale = promote_args_inexact("uniform.logpdf", x, loc, scale)
        outside = (x > loc + scale) | (x < loc)
        return jnp.where(outside, -np.inf, -jnp.log(scale))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.uniform.pdf``."""
        return jnp.exp(uniform.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.uniform.cdf`` (0 for NaN ``x``, as JAX's
        ``select`` default)."""
        x, loc, scale = promote_args_inexact("uniform.cdf", x, loc, scale)
        hi = loc + scale
        conds = [x < loc, x > hi, (x >= loc) & (x <= hi)]
        zero = jnp.zeros((), x.dtype)
        return jnp.select(conds, [zero, jnp.ones((), x.dtype), (x - loc) / scale], zero)

    @staticmethod
    def ppf(q, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.uniform.ppf``."""
        q, loc, scale = promote_args_inexact("uniform.ppf", q, loc, scale)
        return jnp.where(_bad_q(q), np.nan, loc + scale * q)


class laplace:
    """The Laplace distribution (``jax.scipy.stats.laplace``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.laplace.logpdf``."""
        x, loc, scale = promote_args_inexact("laplace.logpdf", x, loc, scale)
        return -(jnp.abs(x - loc) / scale + jnp.log(2 * scale))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.laplace.pdf``."""
        return jnp.exp(laplace.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.laplace.cdf``."""
        x, loc, scale = promote_args_inexact("laplace.cdf", x, loc, scale)
        z = (x - loc) / scale
        return jnp.where(z <= 0, 0.5 * jnp.exp(z), 1 - 0.5 * jnp.exp(-z))


class logistic:
    """The logistic distribution (``jax.scipy.stats.logistic``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.logistic.logpdf``: ``-2 log(2
        cosh(z/2)) - log(scale)`` via ``logaddexp`` (finite at +-inf: -inf)."""
        x, loc, scale = promote_args_inexact("logistic.logpdf", x, loc, scale)
        half = (x - loc) / scale / 2
        return -2 * jnp.logaddexp(half, -half) - jnp.log(scale)

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.logistic.pdf``."""
        return jnp.exp(logistic.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.logistic.cdf``."""
        x, loc, scale = promote_args_inexact("logistic.cdf", x, loc, scale)
        return sp.expit((x - loc) / scale)

    @staticmethod
    def sf(x, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.logistic.sf``."""
        x, loc, scale = promote_args_inexact("logistic.sf", x, loc, scale)
        return sp.expit(-((x - loc) / scale))

    @staticmethod
    def ppf(x, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.logistic.ppf`` (its probability
        argument is named ``x``, as JAX's)."""
        x, loc, scale = promote_args_inexact("logistic.ppf", x, loc, scale)
        return sp.logit(x) * scale + loc

    @staticmethod
    def isf(x, loc=0, scale=1):
        """Inverse survival function, mirrors ``jax.scipy.stats.logistic.isf`` (argument
        ``x``, as JAX's)."""
        x, loc, scale = promote_args_inexact("logistic.isf", x, loc, scale)
        return -sp.logit(x) * scale + loc


class expon:
    """The exponential distribution (``jax.scipy.stats.expon``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.expon.logpdf``."""
        x, loc, scale = promote_args_inexact("expon.logpdf", x, loc, scale)
        return jnp.where(x < loc, -np.inf, -((x - loc) / scale + jnp.log(scale)))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.expon.pdf``."""
        return jnp.exp(expon.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.expon.cdf``."""
        x, loc, scale = promote_args_inexact("expon.cdf", x, loc, scale)
        neg_z = (loc - x) / scale
        return jnp.where(x < loc, jnp.zeros_like(neg_z), -jnp.expm1(neg_z))

    @staticmethod
    def logcdf(x, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.expon.logcdf`` (``log1p(-sf)``)."""
        return jnp.log1p(-expon.sf(x, loc, scale))

    @staticmethod
    def logsf(x, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.expon.logsf``."""
        x, loc, scale = promote_args_inexact("expon.sf", x, loc, scale)
        neg_z = (loc - x) / scale
        return jnp.where(x < loc, jnp.zeros_like(neg_z), neg_z)

    @staticmethod
    def sf(x, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.expon.sf``."""
        return jnp.exp(expon.logsf(x, loc, scale))

    @staticmethod
    def ppf(q, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.expon.ppf``."""
        q, loc, scale = promote_args_inexact("expon.ppf", q, loc, scale)
        return jnp.where(_bad_q(q), np.nan, loc - scale * jnp.log1p(-q))


class cauchy:
    """The Cauchy distribution (``jax.scipy.stats.cauchy``)."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.cauchy.logpdf``."""
        x, loc, scale = promote_args_inexact("cauchy.logpdf", x, loc, scale)
        z = (x - loc) / scale
        return -(jnp.log(np.pi * scale) + jnp.log1p(z * z))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.cauchy.pdf``."""
        return jnp.exp(cauchy.logpdf(x, loc, scale))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.cauchy.cdf``."""
        x, loc, scale = promote_args_inexact("cauchy.cdf", x, loc, scale)
        return 0.5 + (1 / np.pi) * jnp.arctan((x - loc) / scale)

    @staticmethod
    def logcdf(x, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.cauchy.logcdf``."""
        return jnp.log(cauchy.cdf(x, loc, scale))

    @staticmethod
    def sf(x, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.cauchy.sf``."""
        x, loc, scale = promote_args_inexact("cauchy.sf", x, loc, scale)
        return cauchy.cdf(-x, -loc, scale)

    @staticmethod
    def logsf(x, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.cauchy.logsf``."""
        x, loc, scale = promote_args_inexact("cauchy.logsf", x, loc, scale)
        return cauchy.logcdf(-x, -loc, scale)

    @staticmethod
    def ppf(q, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.cauchy.ppf`` (no range check, as
        JAX)."""
        q, loc, scale = promote_args_inexact("cauchy.ppf", q, loc, scale)
        return jnp.tan(np.pi * q - np.pi / 2) * scale + loc

    @staticmethod
    def isf(q, loc=0, scale=1):
        """Inverse survival function, mirrors ``jax.scipy.stats.cauchy.isf``."""
        q, loc, scale = promote_args_inexact("cauchy.isf", q, loc, scale)
        return jnp.tan(np.pi / 2 - np.pi * q) * scale + loc


class t:
    """Student's t distribution (``jax.scipy.stats.t``)."""

    @staticmethod
    def logpdf(x, df, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.t.logpdf``."""
        x, df, loc, scale = promote_args_inexact("t.logpdf", x, df, loc, scale)
        z = (x - loc) / scale
        half_df = df / 2
        half_df1 = half_df + 0.5
        const = sp.gammaln(half_df) + jnp.log(scale * scale * np.pi * df) / 2
        const = const - sp.gammaln(half_df1)
        return -(const + half_df1 * jnp.log1p(z * z / df))

    @staticmethod
    def pdf(x, df, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.t.pdf``."""
        return jnp.exp(t.logpdf(x, df, loc, scale))


def _gumbel_ok(scale, value):
    return jnp.where(scale > 0, value, np.nan)


class gumbel_r:
    """The right-skewed Gumbel distribution (``jax.scipy.stats.gumbel_r``); NaN where
    ``scale <= 0``."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.gumbel_r.logpdf``."""
        x, loc, scale = promote_args_inexact("gumbel_r.logpdf", x, loc, scale)
        z = (x - loc) / scale
        return _gumbel_ok(scale, sp.xlogy(-1, scale) - (z + jnp.exp(-z)))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.gumbel_r.pdf``."""
        return jnp.exp(gumbel_r.logpdf(x, loc, scale))

    @staticmethod
    def logcdf(x, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.gumbel_r.logcdf``."""
        x, loc, scale = promote_args_inexact("gumbel_r.logcdf", x, loc, scale)
        return _gumbel_ok(scale, -jnp.exp(-((x - loc) / scale)))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.gumbel_r.cdf``."""
        return jnp.exp(gumbel_r.logcdf(x, loc, scale))

    @staticmethod
    def ppf(p, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.gumbel_r.ppf`` (NaN outside
        ``(0, 1)``)."""
        p, loc, scale = promote_args_inexact("gumbel_r.ppf", p, loc, scale)
        ok = (p > 0) & (p < 1)
        return jnp.where(ok, loc - scale * jnp.log(sp.xlogy(-1, p)), np.nan)

    @staticmethod
    def sf(x, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.gumbel_r.sf``."""
        x, loc, scale = promote_args_inexact("gumbel_r.sf", x, loc, scale)
        neg_z = (loc - x) / scale
        return _gumbel_ok(scale, 1 - jnp.exp(-jnp.exp(neg_z)))

    @staticmethod
    def logsf(x, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.gumbel_r.logsf``."""
        x, loc, scale = promote_args_inexact("gumbel_r.logsf", x, loc, scale)
        neg_z = (loc - x) / scale
        return _gumbel_ok(scale, log1mexp(jnp.exp(neg_z)))


class gumbel_l:
    """The left-skewed Gumbel distribution (``jax.scipy.stats.gumbel_l``); NaN where
    ``scale <= 0``."""

    @staticmethod
    def logpdf(x, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.gumbel_l.logpdf``."""
        x, loc, scale = promote_args_inexact("gumbel_l.logpdf", x, loc, scale)
        z = (x - loc) / scale
        return _gumbel_ok(scale, sp.xlogy(-1, scale) + (z - jnp.exp(z)))

    @staticmethod
    def pdf(x, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.gumbel_l.pdf``."""
        return jnp.exp(gumbel_l.logpdf(x, loc, scale))

    @staticmethod
    def logcdf(x, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.gumbel_l.logcdf``."""
        x, loc, scale = promote_args_inexact("gumbel_l.logcdf", x, loc, scale)
        z = (x - loc) / scale
        return _gumbel_ok(scale, jnp.log(-jnp.expm1(-jnp.exp(z))))

    @staticmethod
    def cdf(x, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.gumbel_l.cdf``."""
        return jnp.exp(gumbel_l.logcdf(x, loc, scale))

    @staticmethod
    def ppf(p, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.gumbel_l.ppf`` (NaN outside
        ``(0, 1)``)."""
        p, loc, scale = promote_args_inexact("gumbel_l.ppf", p, loc, scale)
        ok = (p > 0) & (p < 1)
        return jnp.where(ok, loc + scale * jnp.log(sp.xlog1py(-1, -p)), np.nan)

    @staticmethod
    def logsf(x, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.gumbel_l.logsf``."""
        x, loc, scale = promote_args_inexact("gumbel_l.logsf", x, loc, scale)
        return _gumbel_ok(scale, -jnp.exp((x - loc) / scale))

    @staticmethod
    def sf(x, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.gumbel_l.sf``."""
        return jnp.exp(gumbel_l.logsf(x, loc, scale))


class pareto:
    """The Pareto distribution with shape ``b`` (``jax.scipy.stats.pareto``); support
    ``x >= loc + scale``."""

    @staticmethod
    def logpdf(x, b, loc=0, scale=1):
        """Log-density, mirrors ``jax.scipy.stats.pareto.logpdf``."""
        x, b, loc, scale = promote_args_inexact("pareto.logpdf", x, b, loc, scale)
        z = (x - loc) / scale
        val = -(jnp.log(scale / b) + (b + 1) * jnp.log(z))
        return jnp.where(x < loc + scale, -np.inf, val)

    @staticmethod
    def pdf(x, b, loc=0, scale=1):
        """Density, mirrors ``jax.scipy.stats.pareto.pdf``."""
        return jnp.exp(pareto.logpdf(x, b, loc, scale))

    @staticmethod
    def cdf(x, b, loc=0, scale=1):
        """CDF, mirrors ``jax.scipy.stats.pareto.cdf``."""
        x, b, loc, scale = promote_args_inexact("pareto.cdf", x, b, loc, scale)
        z = (x - loc) / scale
        return jnp.where(x < loc + scale, 0, 1 - jnp.power(z, -b))

    @staticmethod
    def logcdf(x, b, loc=0, scale=1):
        """Log-CDF, mirrors ``jax.scipy.stats.pareto.logcdf``."""
        x, b, loc, scale = promote_args_inexact("pareto.logcdf", x, b, loc, scale)
        z = (x - loc) / scale
        return jnp.where(x < loc + scale, -np.inf, jnp.log1p(-jnp.power(z, -b)))

    @staticmethod
    def logsf(x, b, loc=0, scale=1):
        """Log survival function, mirrors ``jax.scipy.stats.pareto.logsf``."""
        x, b, loc, scale = promote_args_inexact("pareto.logsf", x, b, loc, scale)
        z = (x - loc) / scale
        return jnp.where(x < loc + scale, 0, -(b * jnp.log(z)))

    @staticmethod
    def sf(x, b, loc=0, scale=1):
        """Survival function, mirrors ``jax.scipy.stats.pareto.sf``."""
        return jnp.exp(pareto.logsf(x, b, loc, scale))

    @staticmethod
    def ppf(q, b, loc=0, scale=1):
        """Quantile function, mirrors ``jax.scipy.stats.pareto.ppf``."""
        q, b, loc, scale = promote_args_inexact("pareto.ppf", q, b, loc, scale)
        val = loc + scale * jnp.power(1 - q, -(1 / b))
        return jnp.where(_bad_q(q), np.nan, val)


# JAX's formulas compare (or divide) with lax, which refuses complex arguments.
refuse_complex(uniform, {"lt": ("cdf",), "gt": ("logpdf", "pdf")})
refuse_complex(laplace, {"le": ("cdf",), "div": ("logpdf", "pdf")})
refuse_complex(expon, {"lt": ("logpdf", "pdf", "cdf", "logcdf", "logsf", "sf")})
_GUMBEL = ("logpdf", "pdf", "logcdf", "cdf", "ppf", "sf", "logsf")
refuse_complex(gumbel_r, {"gt": _GUMBEL})
refuse_complex(gumbel_l, {"gt": _GUMBEL})
refuse_complex(pareto, {"lt": ("logpdf", "pdf", "cdf", "logcdf", "logsf", "sf")})

# JAX's weak types (see strong_like_jax): the arguments its constants are built from.
_ALL = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf")
_NORM_TYPED = ("cdf", "logcdf", "sf", "logsf", "ppf", "isf")
strong_like_jax(norm, {"logpdf": ("x",), "pdf": ("x",), **dict.fromkeys(_NORM_TYPED, ALWAYS)})
strong_like_jax(uniform, {"cdf": ALWAYS})
strong_like_jax(laplace, {n: ("x",) for n in ("logpdf", "pdf", "cdf")})
strong_like_jax(
    logistic,
    {"logpdf": ("x", "loc", "scale"), "pdf": ("x", "loc", "scale"), "ppf": ("x",), "isf": ("x",)},
)
strong_like_jax(cauchy, {**{n: ("x",) for n in _ALL}, "ppf": ("q",), "isf": ("q",)})
strong_like_jax(t, {"logpdf": ("x",), "pdf": ("x",)})
strong_like_jax(gumbel_r, {"sf": ("x",)})
strong_like_jax(pareto, {**{n: ("x",) for n in _ALL if n != "logcdf"}, "ppf": ("q",)})
