"""``jax.scipy.stats.gaussian_kde``: Gaussian kernel density estimation, a pytree (its
arrays are the leaves) so it passes through ``jit`` and ``vmap``."""

from __future__ import annotations

import numpy as np

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src import dtypes, tree_util
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact
from jaxlite._src.random import continuous as _rc, distributions as _rd, keys as _rk
from jaxlite._src.scipy import linalg as scipy_linalg, special as sp

_FIELDS = ("neff", "dataset", "weights", "covariance", "inv_cov")


@tree_util.register_pytree_node_class
class gaussian_kde:
    """Gaussian kernel density estimator, mirrors ``jax.scipy.stats.gaussian_kde``.

    Args:
        dataset: the data points, shape ``(d, n)`` (a 1-D array is ``(1, n)``).
        bw_method: ``'scott'`` (default), ``'silverman'``, a scalar factor or a callable
            taking the estimator and returning the factor.
        weights: optional weights of the ``n`` points (normalized to sum 1).

    Attributes:
        dataset, weights, neff, covariance, inv_cov; ``d`` and ``n`` the dimension and the
        number of points.
    """

    __slots__ = _FIELDS

    def __init__(self, dataset, bw_method=None, weights=None):
        check_arraylike("gaussian_kde", dataset)
        dataset = jnp.atleast_2d(dataset)
        if dtypes.issubdtype(dataset.dtype, np.complexfloating):
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not dataset.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = dataset.shape
        if weights is not None:
            check_arraylike("gaussian_kde", weights)
            dataset, weights = promote_dtypes_inexact(dataset, weights)
            weights = jnp.atleast_1d(weights)
            weights = weights / jnp.sum(weights)
            if weights.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(weights) != n:
                raise ValueError("`weights` input should be of length n")
        else:
            (dataset,) = promote_dtypes_inexact(dataset)
            weights = jnp.full(n, 1.0 / n, dtype=dataset.dtype)
        self._set("dataset", dataset)
        self._set("weights", weights)
        neff = self._set("neff", 1 / jnp.sum(weights**2))
        if bw_method is None or (isinstance(bw_method, str) and bw_method == "scott"):
            factor = jnp.power(neff, -1.0 / (d + 4))
        elif isinstance(bw_method, str) and bw_method == "silverman":
            factor = jnp.power(neff * (d + 2) / 4.0, -1.0 / (d + 4))
        elif jnp.isscalar(bw_method) and not isinstance(bw_method, str):
            factor = bw_method
        elif callable(bw_method):
            factor = bw_method(self)
        else:
            raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")
        cov = _weighted_cov(dataset, weights)
        self._set("covariance", cov * factor**2)
        self._set("inv_cov", jnp.linalg.inv(cov) / factor**2)

    def _set(self, name, value):
        object.__setattr__(self, name, value)
        return value

    def __setattr__(self, name, value):
        raise AttributeError(f"gaussian_kde is immutable: cannot set {name!r}")

    def tree_flatten(self):
        return tuple(getattr(self, f) for f in _FIELDS), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        del aux_data
        kde = cls.__new__(cls)
        for f, c in zip(_FIELDS, children):
            kde._set(f, c)
        return kde

    @property
    def d(self):
        return self.dataset.shape[0]

    @property
    def n(self):
        return self.dataset.shape[1]

    def evaluate(self, points):
        """The estimated density at ``points`` (shape ``(d, m)``), mirrors
        ``gaussian_kde.evaluate``."""
        check_arraylike("evaluate", points)
        points = self._reshape_points(points)
        return _kernel_eval(False, self.dataset.T, self.weights, points.T, self.inv_cov)

    def __call__(self, points):
        return self.evaluate(points)

    def pdf(self, x):
        """Same as :meth:`evaluate`, mirrors ``gaussian_kde.pdf``."""
        return self.evaluate(x)

    def logpdf(self, x):
        """The log of the estimated density, mirrors ``gaussian_kde.logpdf``."""
        check_arraylike("logpdf", x)
        x = self._reshape_points(x)
        return _kernel_eval(True, self.dataset.T, self.weights, x.T, self.inv_cov)

    def integrate_gaussian(self, mean, cov):
        """The integral of the density times a Gaussian, mirrors
        ``gaussian_kde.integrate_gaussian``."""
        mean = jnp.atleast_1d(jnp.squeeze(mean))
        cov = jnp.atleast_2d(cov)
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        chol = scipy_linalg.cho_factor(self.covariance + cov)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))
        return _convolve(chol, norm, self.dataset, self.weights, mean)

    def integrate_box_1d(self, low, high):
        """The integral of a 1-D density over ``[low, high]``, mirrors
        ``gaussian_kde.integrate_box_1d``."""
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        if np.ndim(low) != 0 or np.ndim(high) != 0:
            raise ValueError("the limits of integration in integrate_box_1d must be scalars")
        sigma = jnp.squeeze(jnp.sqrt(self.covariance))
        lo = jnp.squeeze((low - self.dataset) / sigma)
        hi = jnp.squeeze((high - self.dataset) / sigma)
        return jnp.sum(self.weights * (sp.ndtr(hi) - sp.ndtr(lo)))

    def integrate_kde(self, other):
        """The integral of the product of two estimated densities, mirrors
        ``gaussian_kde.integrate_kde``."""
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        chol = scipy_linalg.cho_factor(self.covariance + other.covariance)
        norm = 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))
        small, large = (self, other) if self.n < other.n else (other, self)
        d, ns, nl = self.d, small.n, large.n
        diff = large.dataset[:, None, :] - small.dataset[:, :, None]  # (d, ns, nl)
        alpha = scipy_linalg.cho_solve(chol, jnp.reshape(diff, (d, ns * nl)))
        arg = 0.5 * jnp.sum(jnp.reshape(diff, (d, ns * nl)) * alpha, axis=0)
        per = norm * jnp.sum(jnp.reshape(jnp.exp(-arg), (ns, nl)) * large.weights, axis=1)
        return jnp.sum(per * small.weights)

    def resample(self, key, shape=()):
        """Draw samples (shape ``(d,) + shape``), mirrors ``gaussian_kde.resample``."""
        ind_key, eps_key = _rk.split(key)
        ind = _rd.choice(ind_key, self.n, shape=shape, p=self.weights)
        eps = _rc.multivariate_normal(
            eps_key,
            jnp.zeros(self.d, self.covariance.dtype),
            self.covariance,
            shape=shape,
            dtype=self.dataset.dtype,
        ).T
        return self.dataset[:, ind] + eps

    def integrate_box(self, low_bounds, high_bounds, maxpts=None):
        """Not supported (as JAX): use :meth:`integrate_box_1d`."""
        del low_bounds, high_bounds, maxpts
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method=None):
        """Not supported (as JAX): the estimator is immutable."""
        del bw_method
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")

    def _reshape_points(self, points):
        points = jnp.asarray(points)
        if dtypes.issubdtype(points.dtype, np.complexfloating):
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        points = jnp.atleast_2d(points)
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                points = jnp.reshape(points, (self.d, 1))
            else:
                raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        return points


def _weighted_cov(x, w):
    """``np.cov(x, aweights=w)`` (rows are variables, ``ddof = 1``), as a ``(d, d)`` matrix.
    (jaxlite's ``jnp.cov`` does not take ``aweights`` yet.)"""
    v1 = jnp.sum(w)
    avg = jnp.sum(x * w, axis=1, keepdims=True) / v1
    fact = v1 - jnp.sum(w * w) / v1
    xc = x - avg
    return jnp.atleast_2d(jnp.dot(xc * w, xc.T) / fact)


def _convolve(chol, norm, target, weights, mean):
    diff = target - mean[:, None]
    alpha = scipy_linalg.cho_solve(chol, diff)
    arg = 0.5 * jnp.sum(diff * alpha, axis=0)
    return norm * jnp.sum(jnp.exp(-arg) * weights)


def _kernel_eval(in_log, points, weights, xi, precision):
    """Sum (or log-sum-exp) over the data points of weighted Gaussian kernels at each row
    of ``xi``, in the whitened coordinates of ``precision``."""
    points, weights, xi, precision = promote_dtypes_inexact(points, weights, xi, precision)
    d = points.shape[1]
    if xi.shape[1] != d:
        raise ValueError("points and xi must have same trailing dim")
    if precision.shape != (d, d):
        raise ValueError("precision matrix must match data dims")
    whiten = jnp.linalg.cholesky(precision)
    points = jnp.dot(points, whiten)
    xi = jnp.dot(xi, whiten)
    log_norm = jnp.sum(jnp.log(jnp.diag(whiten))) - 0.5 * d * jnp.log(2 * np.pi)
    sq = jnp.sum(jnp.square(points[None, :, :] - xi[:, None, :]), axis=-1)  # (m, n)
    arg = log_norm - 0.5 * sq
    if in_log:
        return sp.logsumexp(jnp.log(weights)[None, :] + arg, axis=1)
    return jnp.sum(weights[None, :] * jnp.exp(arg), axis=1)
