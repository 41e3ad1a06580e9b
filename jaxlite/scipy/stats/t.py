"""Public ``jaxlite.scipy.stats.t`` (mirrors ``jax.scipy.stats.t``)."""

from jaxlite._src.scipy.stats import t as _d

logpdf = _d.logpdf
pdf = _d.pdf
