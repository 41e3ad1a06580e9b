"""Plumbing shared by the transformation front ends (jit, make_jaxpr, vmap, jvp, grad,
custom_jvp/vjp, checkpoint, control flow): flattening a pytree function into a flat one,
and the ``argnums`` conventions.

It sits in the base layer (it needs only ``tree_util``), so the interpreters, ``compile``
and the front ends above them all use the same helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import tree_util


def check_callable(fun: Any) -> None:
    """Raises ``TypeError`` (JAX's message) unless ``fun`` is callable."""
    if not callable(fun):
        raise TypeError(f"Expected a callable value, got {fun}")


def flatten_fun(
    fun: Callable,
    in_tree,
    *,
    kwargs: bool = False,
    split_aux: Callable | None = None,
    out_leaves: Callable[[list], list] | None = None,
    tree_name: str | None = None,
    store: dict | None = None,
) -> tuple[Callable, dict]:
    """Wrap the pytree function ``fun`` as a function of flat leaves returning flat leaves.

    ``flat_fun(*leaves)`` unflattens ``leaves`` with ``in_tree`` -- into the positional
    arguments, or with ``kwargs=True`` into an ``(args, kwargs)`` pair -- calls ``fun``,
    optionally splits ``(out, aux)`` with ``split_aux`` (``store["aux"]`` gets the aux),
    flattens the output (``store["tree"]`` gets its treedef) and returns the leaves, passed
    through ``out_leaves`` if given (conversion and validation of the output leaves).

    With ``tree_name``, a later call whose output structure differs from the first one's
    raises ``TypeError`` (a function traced more than once must keep its structure).

    Returns:
        ``(flat_fun, store)``; ``store`` is filled when ``flat_fun`` runs.
    """
    store = {} if store is None else store

    def flat_fun(*leaves):
        tree = tree_util.tree_unflatten(in_tree, leaves)
        out = fun(*tree[0], **tree[1]) if kwargs else fun(*tree)
        if split_aux is not None:
            out, store["aux"] = split_aux(out)
        out_flat, out_tree = tree_util.tree_flatten(out)
        prev = store.get("tree")
        if tree_name is not None and prev is not None and prev != out_tree:
            raise TypeError(
                f"{tree_name} output structure changed between traces: {prev} vs {out_tree}"
            )
        store["tree"] = out_tree
        return out_leaves(out_flat) if out_leaves is not None else out_flat

    return flat_fun, store


def canonicalize_argnums(argnums: int | Sequence[int] | None) -> tuple[int, ...]:
    """An ``argnums``-style argument (an int, a sequence of ints, or ``None``) as a tuple."""
    if argnums is None:
        return ()
    if isinstance(argnums, (int, np.integer)):
        return (int(argnums),)
    return tuple(argnums)


def split_static_args(args: Sequence[Any], static_argnums: Sequence[int]) -> tuple[dict, tuple]:
    """Split positional ``args`` into ``{index: value}`` for the static ones (negative
    indices count from the end) and the tuple of the others, in order."""
    n = len(args)
    statics = {i % n: args[i] for i in static_argnums} if n else {}
    dyn = tuple(a for i, a in enumerate(args) if i not in statics)
    return statics, dyn


def merge_static_args(statics: dict, dyn: Sequence[Any], n: int) -> list:
    """Inverse of ``split_static_args``: the ``n`` positional arguments, in order."""
    it = iter(dyn)
    return [statics[i] if i in statics else next(it) for i in range(n)]
