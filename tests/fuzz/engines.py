"""The two engines the fuzzer compares, as namespaces for the generated source."""

from __future__ import annotations

import numpy as np


def jaxlite_ns():
    import jaxlite
    import jaxlite.lax
    import jaxlite.nn
    import jaxlite.numpy
    import jaxlite.scipy.special
    import jaxlite.tree_util

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
