"""Public ``jaxlite.random`` (mirrors ``jax.random``): threefry2x32 keys and samplers,
bit-exact with JAX 0.10.2 (see docs/compat.md for the samplers that agree to a tolerance)."""

from jaxlite._src.random.binomial import (  # noqa: F401
    binomial as binomial,
    multinomial as multinomial,
)
from jaxlite._src.random.continuous import (  # noqa: F401
    cauchy as cauchy,
    double_sided_maxwell as double_sided_maxwell,
    geometric as geometric,
    laplace as laplace,
    logistic as logistic,
    lognormal as lognormal,
    maxwell as maxwell,
    multivariate_normal as multivariate_normal,
    orthogonal as orthogonal,
    pareto as pareto,
    rademacher as rademacher,
    rayleigh as rayleigh,
    triangular as triangular,
    truncated_normal as truncated_normal,
    wald as wald,
    weibull_min as weibull_min,
)
from jaxlite._src.random.distributions import (  # noqa: F401
    bernoulli as bernoulli,
    categorical as categorical,
    choice as choice,
    exponential as exponential,
    gumbel as gumbel,
    normal as normal,
    permutation as permutation,
    randint as randint,
    uniform as uniform,
)
from jaxlite._src.random.gamma import (  # noqa: F401
    ball as ball,
    beta as beta,
    chisquare as chisquare,
    dirichlet as dirichlet,
    f as f,
    gamma as gamma,
    generalized_normal as generalized_normal,
    loggamma as loggamma,
    poisson as poisson,
    t as t,
)
from jaxlite._src.random.keys import (  # noqa: F401
    PRNGKey as PRNGKey,
    bits as bits,
    clone as clone,
    fold_in as fold_in,
    key as key,
    key_data as key_data,
    key_dtype as key_dtype,
    key_impl as key_impl,
    split as split,
    wrap_key_data as wrap_key_data,
)
