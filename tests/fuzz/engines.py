"""The two engines the fuzzer compares, as namespaces for the generated source.

With ``FUZZ_X64=1`` in the environment (inherited by a chunked run's subprocesses) both
engines run with ``jax_enable_x64`` and the generator adds 64-bit inputs."""

from __future__ import annotations

import os

import numpy as np

X64 = os.environ.get("FUZZ_X64", "") == "1"


def jaxlite_ns():
    import jaxlite
    import jaxlite.lax
    import jaxlite.nn
    import jaxlite.numpy
    import jaxlite.scipy.special
    import jaxlite.tree_util

    if X64:
        jaxlite.config.update("jax_enable_x64", True)
    return _with_helpers(
        dict(
            jax=jaxlite,
            jnp=jaxlite.numpy,
            lax=jaxlite.lax,
            np=np,
            flatten=jaxlite.tree_util.tree_leaves,
        )
    )


def jax_ns():
    """Real JAX (the oracle), or ``None`` when it is not installed."""
    try:
        import jax
    except ImportError:
        return None
    jax.config.update("jax_platforms", "cpu")
    if X64:
        jax.config.update("jax_enable_x64", True)
    import jax.lax
    import jax.nn
    import jax.numpy
    import jax.scipy.special
    import jax.tree_util

    return _with_helpers(
        dict(jax=jax, jnp=jax.numpy, lax=jax.lax, np=np, flatten=jax.tree_util.tree_leaves)
    )


def _with_helpers(ns):
    """``ns`` with the runner's helpers (``scal``, the custom-derivative functions) defined
    for this engine, so generated lines that call them can be checked with eval_shape."""
    from tests.fuzz.runner import HELPERS

    exec(HELPERS, ns)  # noqa: S102 (test side: the harness's own helper text)
    return ns
