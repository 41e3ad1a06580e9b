"""``jax.test_util`` under ``install_as_jax()`` until jaxlite has its own
``jaxlite.test_util`` (chex imports it at import time and uses ``check_grads``).

A minimal numerical derivative check; the alias prefers ``jaxlite.test_util`` when present.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import tree_util
from jaxlite._src.ad import vjp
from jaxlite._src.api import jvp


def _leaves64(tree) -> list[np.ndarray]:
    return [np.asarray(x, dtype=np.float64) for x in tree_util.tree_leaves(tree)]


def _inner(a, b) -> float:
    return float(sum(np.vdot(x, y).real for x, y in zip(_leaves64(a), _leaves64(b))))


def _random_like(tree, rng):
    return tree_util.tree_map(
        lambda x: np.asarray(rng.standard_normal(np.shape(x)), dtype=np.asarray(x).dtype), tree
    )


def _tolerances(args, atol, rtol):
    dtypes = {np.asarray(x).dtype for x in tree_util.tree_leaves(args)}
    default = 1e-5 if all(d == np.float64 for d in dtypes) else 2e-2
    return (default if atol is None else atol), (default if rtol is None else rtol)


def check_jvp(f: Callable, args: Sequence[Any], atol=None, rtol=None, eps=None) -> None:
    """Forward mode against central finite differences along a random tangent."""
    atol, rtol = _tolerances(args, atol, rtol)
    eps = 1e-4 if eps is None else eps
    rng = np.random.default_rng(0)
    tangents = _random_like(tuple(args), rng)
    _, t_out = jvp(f, tuple(args), tangents)
    plus = tree_util.tree_map(lambda x, t: np.asarray(x) + eps / 2 * t, tuple(args), tangents)
    minus = tree_util.tree_map(lambda x, t: np.asarray(x) - eps / 2 * t, tuple(args), tangents)
    fd = [(p - m) / eps for p, m in zip(_leaves64(f(*plus)), _leaves64(f(*minus)))]
    for got, want in zip(_leaves64(t_out), fd):
        np.testing.assert_allclose(got, want, atol=atol, rtol=rtol, err_msg="jvp vs finite diff")


def check_vjp(f: Callable, args: Sequence[Any], atol=None, rtol=None, eps=None) -> None:
    """Reverse mode against forward mode: ``<vjp(ct), t> == <ct, jvp(t)>``."""
    del eps
    atol, rtol = _tolerances(args, atol, rtol)
    rng = np.random.default_rng(1)
    tangents = _random_like(tuple(args), rng)
    out, t_out = jvp(f, tuple(args), tangents)
    ct = _random_like(out, rng)
    _, pullback = vjp(f, *args)
    np.testing.assert_allclose(
        _inner(pullback(ct), tangents), _inner(ct, t_out), atol=atol, rtol=rtol,
        err_msg="vjp: <t_in, vjp(ct)> != <jvp(t_in), ct>",
    )  # fmt: skip


def check_grads(f: Callable, args: Sequence[Any], order: int, modes=("fwd", "rev"),
                atol=None, rtol=None, eps=None) -> None:  # fmt: skip
    """Check ``f``'s derivatives up to ``order`` numerically (``jax.test_util.check_grads``).

    Raises:
      AssertionError: when a derivative disagrees with its numerical estimate.
      ValueError: for an unknown mode.
    """
    args = tuple(args)
    for mode in modes:
        if mode not in ("fwd", "rev"):
            raise ValueError(f"Unrecognized mode: {mode}")
        (check_jvp if mode == "fwd" else check_vjp)(f, args, atol=atol, rtol=rtol, eps=eps)
    if order > 1:
        tangents = _random_like(args, np.random.default_rng(2))

        def f_jvp(*primals):
            return jvp(f, primals, tangents)[1]

        check_grads(f_jvp, args, order - 1, modes, atol=atol, rtol=rtol, eps=eps)
