"""Public ``jaxlite.scipy.stats.dirichlet`` (mirrors ``jax.scipy.stats.dirichlet``)."""

from jaxlite._src.scipy.stats_more import dirichlet as _d

logpdf = _d.logpdf
pdf = _d.pdf
