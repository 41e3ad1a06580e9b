"""Public ``jaxlite.scipy.stats.vonmises`` (mirrors ``jax.scipy.stats.vonmises``)."""

from jaxlite._src.scipy.stats_more import vonmises as _d

logpdf = _d.logpdf
pdf = _d.pdf
