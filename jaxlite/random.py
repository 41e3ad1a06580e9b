"""Public ``jaxlite.random`` (mirrors ``jax.random``): threefry2x32 keys and samplers,
bit-exact with JAX 0.10.2 (see docs/compat.md for the samplers that agree to a tolerance)."""

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
