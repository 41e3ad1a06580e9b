"""``jax.custom_derivatives``: custom differentiation rules."""

from jaxlite._src.ad import closure_convert as closure_convert  # noqa: F401
from jaxlite._src.custom_derivatives import (  # noqa: F401
    CustomVJPPrimal as CustomVJPPrimal,
    SymbolicZero as SymbolicZero,
    custom_jvp as custom_jvp,
    custom_jvp_call_p as custom_jvp_call_p,
    custom_vjp as custom_vjp,
    custom_vjp_call_p as custom_vjp_call_p,
    zero_from_primal as zero_from_primal,
)
from jaxlite._src.custom_gradient import custom_gradient as custom_gradient  # noqa: F401
