"""Public ``jaxlite.nn`` (mirrors ``jax.nn``): activation functions and helpers."""

from jaxlite._src.nn import (  # noqa: F401
    celu as celu, elu as elu, gelu as gelu, glu as glu, hard_sigmoid as hard_sigmoid,
    hard_silu as hard_silu, hard_swish as hard_swish, hard_tanh as hard_tanh,
    leaky_relu as leaky_relu, log_sigmoid as log_sigmoid, log_softmax as log_softmax,
    logsumexp as logsumexp, mish as mish, one_hot as one_hot, relu as relu, relu6 as relu6,
    selu as selu, sigmoid as sigmoid, silu as silu, soft_sign as soft_sign, softmax as softmax,
    softplus as softplus, standardize as standardize, swish as swish,
    dot_product_attention as dot_product_attention, identity as identity,
    log1mexp as log1mexp, logmeanexp as logmeanexp, sparse_plus as sparse_plus,
    sparse_sigmoid as sparse_sigmoid, squareplus as squareplus, tanh as tanh)
