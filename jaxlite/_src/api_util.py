"""``jax.api_util``: helpers for writing transformations on top of the public API."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from jaxlite._src import linear_util as lu, tree_util
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.util import safe_map as safe_map


@dataclasses.dataclass(frozen=True)
class DebugInfo:
    """Where a traced function comes from, for error messages (``api_util.debug_info``)."""

    traced_for: str
    func_src_info: str
    arg_names: tuple | None = None
    result_paths: tuple | None = None

    @property
    def func_name(self) -> str:
        return self.func_src_info.split(" ")[0]


def debug_info(
    traced_for: str,
    fun: Callable,
    args: Sequence[Any],
    kwargs: dict,
    *,
    static_argnums: Sequence[int] = (),
    static_argnames: Sequence[str] = (),
) -> DebugInfo:
    del args, kwargs, static_argnums, static_argnames
    name = getattr(fun, "__qualname__", None) or getattr(fun, "__name__", repr(fun))
    code = getattr(fun, "__code__", None)
    where = f" at {code.co_filename}:{code.co_firstlineno}" if code is not None else ""
    return DebugInfo(traced_for, f"{name}{where}")


def flatten_fun(f: lu.WrappedFun, in_tree):
    """``f(*args, **kwargs)`` on the flat leaves of ``(args, kwargs)``; see linear_util."""
    return lu.flatten_fun(f, in_tree, with_kwargs=True)


def flatten_fun_nokwargs(f: lu.WrappedFun, in_tree):
    """``f(*args)`` on the flat leaves of ``args``; returns ``(flat_f, out_tree_thunk)``."""
    return lu.flatten_fun(f, in_tree, with_kwargs=False)


def argnums_partial(f: lu.WrappedFun, dyn_argnums: Sequence[int], args: Sequence[Any], **_):
    """Fix the arguments not in ``dyn_argnums``; returns ``(f_of_dyn_args, dyn_args)``."""
    dyn_argnums = tuple(dyn_argnums)
    fixed = {i: a for i, a in enumerate(args) if i not in dyn_argnums}
    n = len(args)

    def g(*dyn, **kwargs):
        it = iter(dyn)
        full = [fixed[i] if i in fixed else next(it) for i in range(n)]
        return f.call_wrapped(*full, **kwargs)

    return lu.WrappedFun(g, None, f.debug_info), tuple(args[i] for i in dyn_argnums)


def shaped_abstractify(x: Any) -> ShapedArray:
    """The ``ShapedArray`` of an array-like value."""
    return aval_of(x)


def donation_vector(donate_argnums, donate_argnames, in_tree, kws: bool = True) -> tuple:
    """For each flat argument, whether the user asked to donate it.

    (jaxlite accepts donation but never reuses a donated buffer.)
    """
    donate_argnums, donate_argnames = set(donate_argnums), set(donate_argnames or ())
    args_tree, kwargs_tree = in_tree.children() if kws else (in_tree, None)
    out: list[bool] = []
    for i, arg in enumerate(args_tree.children()):
        out.extend([i in donate_argnums] * arg.num_leaves)
    if kwargs_tree is not None:
        for name, arg in zip(kwargs_tree.entries(), kwargs_tree.children()):
            out.extend([name in donate_argnames] * arg.num_leaves)
    return tuple(out)


def rebase_donate_argnums(donate_argnums, static_argnums) -> tuple[int, ...]:
    """Renumber donated argnums as positions among the non-static arguments."""
    static = set(static_argnums)
    return tuple(i - sum(1 for s in static if s < i) for i in donate_argnums if i not in static)


def flatten_axes(name: str, treedef, axis_tree, *, kws: bool = False, tupled_args: bool = False):
    """Broadcast an axis-spec prefix tree (``in_axes``) to the leaves of ``treedef``."""
    del kws, tupled_args
    proxy = tree_util.tree_unflatten(treedef, [object()] * treedef.num_leaves)
    try:
        return tree_util.broadcast_prefix(axis_tree, proxy, is_leaf=lambda x: x is None)
    except ValueError as e:
        raise ValueError(
            f"{name} specification must be a tree prefix of the corresponding value, got "
            f"specification {axis_tree} for value tree {treedef}."
        ) from e
