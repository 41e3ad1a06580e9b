"""Public ``jaxlite.scipy.special`` (mirrors ``jax.scipy.special``)."""

from jaxlite._src.scipy_special import (  # noqa: F401
    digamma as digamma, erf as erf, erfc as erfc, erfinv as erfinv, expit as expit,
    gamma as gamma, gammaln as gammaln, logit as logit, logsumexp as logsumexp, ndtr as ndtr,
    xlog1py as xlog1py, xlogy as xlogy, betaln as betaln, entr as entr, kl_div as kl_div,
    log_softmax as log_softmax, multigammaln as multigammaln, ndtri as ndtri,
    rel_entr as rel_entr, softmax as softmax)
