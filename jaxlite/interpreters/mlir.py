"""Public ``jaxlite.interpreters.mlir`` (mirrors ``jax.interpreters.mlir``'s registration API).

jaxlite builds no MLIR: ``register_lowering(p, lower_fun(fun))`` makes jitted code compute
``p`` with ``fun``; see ``jaxlite._src.jax_extension``.
"""

from jaxlite._src.jax_extension import (
    LoweredFunction as LoweredFunction,
    lower_fun as lower_fun,
    register_lowering as register_lowering,
)
