"""``jax.ad_checkpoint.saved_residuals`` / ``print_saved_residuals``: which values reverse
mode saves for a function (its linearization's residuals), and where each comes from."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from jaxlite._src import tree_util
from jaxlite._src.core.array import to_array
from jaxlite._src.interpreters.jvp import jvp_jaxpr
from jaxlite._src.interpreters.partial_eval import partial_eval_jaxpr_nounits
from jaxlite._src.interpreters.staging import trace_to_jaxpr


def saved_residuals(f: Callable, *args: Any, **kwargs: Any) -> list[tuple[Any, str]]:
    """The values reverse mode saves for ``f`` at ``args``: ``(aval, description)`` pairs
    (``jax.ad_checkpoint.saved_residuals``). A description says whether the residual is an
    argument (``"from the argument x"``) or which primitive produced it."""
    flat, in_tree = tree_util.tree_flatten((args, kwargs))
    flat = [to_array(x) for x in flat]
    avals = [x.aval for x in flat]

    def flat_f(*xs):
        a, k = tree_util.tree_unflatten(in_tree, list(xs))
        return tree_util.tree_leaves(f(*a, **k))

    closed, _ = trace_to_jaxpr(flat_f, avals)
    n = len(avals)
    jvp, _ = jvp_jaxpr(closed, [True] * n, True)
    known, _, _, num_res = partial_eval_jaxpr_nounits(jvp, [False] * n + [True] * n, True)
    try:
        names = list(inspect.signature(f).parameters)
    except (TypeError, ValueError):
        names = []
    arg_names = {}
    for i, v in enumerate(known.jaxpr.invars):
        arg_names[id(v)] = names[i] if i < len(names) and not kwargs else str(i)
    producers = {id(o): e.primitive.name for e in known.jaxpr.eqns for o in e.outvars}
    outs = known.jaxpr.outvars
    result = []
    for v in outs[len(outs) - num_res :]:
        aval = v.aval
        if id(v) in arg_names:
            result.append((aval, f"from the argument {arg_names[id(v)]}"))
        elif id(v) in producers:
            result.append((aval, f"output of {producers[id(v)]}"))
        else:
            result.append((aval, "from a constant"))
    return result


def print_saved_residuals(f: Callable, *args: Any, **kwargs: Any) -> None:
    """Print what reverse mode saves for ``f`` at ``args``, one residual per line
    (``jax.ad_checkpoint.print_saved_residuals``): ``f32[3] from the argument y``,
    ``f32[3] output of cos``. jaxlite records no source locations, so none are printed."""
    for aval, what in saved_residuals(f, *args, **kwargs):
        print(f"{aval.str_short(short_dtypes=True)} {what}")
