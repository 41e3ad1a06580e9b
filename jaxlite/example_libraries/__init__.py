"""``jaxlite.example_libraries`` (mirrors ``jax.example_libraries``): ``stax``, a tiny
neural-network layer library, and ``optimizers``, first-order optimizers over pytrees.

As in JAX these are example code written over the public API (``jax.numpy``, ``jax.lax``,
``jax.random``, ``jax.nn``); import the submodules explicitly.
"""
