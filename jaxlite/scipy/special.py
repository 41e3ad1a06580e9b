"""Public ``jaxlite.scipy.special`` (mirrors ``jax.scipy.special``)."""

from jaxlite._src.nn import (  # noqa: F401
    scipy_log_softmax as log_softmax,
    scipy_softmax as softmax,
)
from jaxlite._src.scipy_special import (  # noqa: F401
    betainc as betainc,
    betaln as betaln,
    digamma as digamma,
    entr as entr,
    erf as erf,
    erfc as erfc,
    erfinv as erfinv,
    expit as expit,
    gamma as gamma,
    gammainc as gammainc,
    gammaincc as gammaincc,
    gammaln as gammaln,
    i0 as i0,
    i0e as i0e,
    i1 as i1,
    i1e as i1e,
    kl_div as kl_div,
    log_ndtr as log_ndtr,
    logit as logit,
    logsumexp as logsumexp,
    multigammaln as multigammaln,
    ndtr as ndtr,
    ndtri as ndtri,
    rel_entr as rel_entr,
    xlog1py as xlog1py,
    xlogy as xlogy,
)
