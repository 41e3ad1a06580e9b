"""Public ``jaxlite.scipy.special`` (mirrors ``jax.scipy.special``)."""

from jaxlite._src.scipy_special import (  # noqa: F401
    betaln as betaln,
    digamma as digamma,
    entr as entr,
    erf as erf,
    erfc as erfc,
    erfinv as erfinv,
    expit as expit,
    gamma as gamma,
    gammaln as gammaln,
    kl_div as kl_div,
    log_softmax as log_softmax,
    logit as logit,
    logsumexp as logsumexp,
    multigammaln as multigammaln,
    ndtr as ndtr,
    ndtri as ndtri,
    rel_entr as rel_entr,
    softmax as softmax,
    xlog1py as xlog1py,
    xlogy as xlogy,
)
