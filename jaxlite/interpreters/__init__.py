"""Public ``jaxlite.interpreters`` (mirrors ``jax.interpreters``): views onto jaxlite's rule
tables, so primitives registered the JAX way run under jaxlite's transformations."""

from jaxlite.interpreters import (
    ad as ad,
    batching as batching,
    mlir as mlir,
    partial_eval as partial_eval,
    xla as xla,
)
