"""Public ``jaxlite.scipy.stats`` (mirrors ``jax.scipy.stats``)."""

from jaxlite.scipy.stats import (
    bernoulli as bernoulli,
    beta as beta,
    cauchy as cauchy,
    expon as expon,
    gamma as gamma,
    laplace as laplace,
    logistic as logistic,
    multivariate_normal as multivariate_normal,
    norm as norm,
    poisson as poisson,
    t as t,
    uniform as uniform,
)
