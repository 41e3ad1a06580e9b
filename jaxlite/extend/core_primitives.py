"""``jax.extend.core.primitives``: the primitives that appear in jaxlite's jaxprs, by JAX's
names (the ``*_p`` of ``jaxlite.lax`` plus ``jit_p`` and the custom-derivative call
primitives). Libraries that walk jaxprs compare ``eqn.primitive`` with them (distrax's
Lambda bijector inverts ``mul_p``, ``exp_p``, ... and recurses into ``jit_p``)."""

from jaxlite import lax as _lax
from jaxlite._src.compile.jit import jit_p as jit_p
from jaxlite._src.custom_derivatives import (
    custom_jvp_call_p as custom_jvp_call_p,
    custom_vjp_call_p as custom_vjp_call_p,
)
from jaxlite._src.jax_extension import call_p as call_p, closed_call_p as closed_call_p

globals().update(
    {name: getattr(_lax, name) for name in dir(_lax) if name.endswith("_p") and name[0] != "_"}
)
