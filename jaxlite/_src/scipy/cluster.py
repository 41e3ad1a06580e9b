"""``jax.scipy.cluster.vq.vq``: vector quantization (each observation's nearest code) with
``jax.numpy`` broadcasting, so it traces under ``jit`` and batches under ``vmap``."""

from __future__ import annotations

import jaxlite.numpy as jnp  # the public jnp namespace (stable across module splits)
from jaxlite._src.numpy.util import check_arraylike, promote_dtypes_inexact


def vq(obs, code_book, check_finite: bool = True):
    """Assigns each observation to its nearest code, as ``jax.scipy.cluster.vq.vq``.

    Args:
        obs: observations, shape ``(M, N)`` (or ``(M,)`` for scalars).
        code_book: codes, shape ``(K, N)`` (or ``(K,)``), the same rank as ``obs``.
        check_finite: accepted and unused, as in JAX.

    Returns:
        ``(codes, dists)``: the int32 index of each observation's nearest code (the first
        on ties) and the Euclidean distance to it, both shape ``(M,)``; ``dists`` in the
        promoted inexact dtype.

    Raises:
        TypeError: non-array inputs.
        ValueError: ``obs`` and ``code_book`` of different ranks, or of rank above 2.
    """
    del check_finite  # unused, as in JAX
    check_arraylike("scipy.cluster.vq.vq", obs, code_book)
    obs, code_book = promote_dtypes_inexact(obs, code_book)
    if obs.ndim != code_book.ndim:
        raise ValueError("Observation and code_book should have the same rank")
    if obs.ndim == 1:
        obs, code_book = obs[..., None], code_book[..., None]
    if obs.ndim != 2:
        raise ValueError("ndim different than 1 or 2 are not supported")
    dists = jnp.linalg.norm(obs[:, None, :] - code_book[None, :, :], axis=-1)
    codes = jnp.argmin(dists, axis=-1)
    return codes, jnp.take_along_axis(dists, codes[:, None], axis=-1)[:, 0]
