"""Public ``jaxlite.numpy`` (mirrors ``jax.numpy``)."""

from jaxlite._src.numpy.lax_numpy import *  # noqa: F401,F403
from jaxlite._src.numpy.lax_numpy import (  # noqa: F401
    abs as abs, all as all, any as any, max as max, min as min, round as round, sum as sum,
    pow as pow)
from jaxlite._src.numpy.indexing import nonzero as nonzero  # noqa: F401
