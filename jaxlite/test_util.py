"""Public ``jaxlite.test_util`` (mirrors ``jax.test_util``): numerical derivative checks."""

from jaxlite._src.testing import (
    check_grads as check_grads,
    check_jvp as check_jvp,
    check_vjp as check_vjp,
)
