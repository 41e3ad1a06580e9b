"""Front ends of the transformations: argument handling, pytrees and error messages.

The transformations themselves live in ``interpreters/``; this module only adapts user
functions (pytrees, ``argnums``, ``in_axes``...) to the flat interpreters.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

import numpy as np

from jaxlite._src import dtypes, tree_util
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.rule_types import AxisData, Zero, not_mapped
from jaxlite._src.interpreters import batching, jvp as _jvp
from jaxlite._src.numpy.util import asarray_any


# -------------------------------------------------------------------------------- jvp
def jvp(fun: Callable, primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False):
    """Forward-mode JVP (``jax.jvp``).

    Args:
        fun: function of ``len(primals)`` pytree arguments.
        primals: tuple/list of arguments.
        tangents: tuple/list with the same structure, shapes and (tangent) dtypes.

    Returns:
        ``(primals_out, tangents_out)`` (plus ``aux`` if ``has_aux``).

    Raises:
        TypeError: if primals/tangents are not tuples/lists, their trees differ, or a tangent
            dtype does not match its primal's tangent dtype.
        ValueError: on a tangent shape mismatch.
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("primal and tangent arguments to jax.jvp must be tuples or lists; "
                        f"found {type(primals).__name__} and {type(tangents).__name__}.")
    p_flat, p_tree = tree_util.tree_flatten(tuple(primals))
    t_flat, t_tree = tree_util.tree_flatten(tuple(tangents))
    if p_tree != t_tree:
        raise TypeError("primal and tangent arguments to jax.jvp must have the same tree "
                        f"structure; primals have tree structure {p_tree} whereas tangents "
                        f"have tree structure {t_tree}.")
    p_flat = [asarray_any(p) for p in p_flat]
    tangents_in = []
    for p, t in zip(p_flat, t_flat):
        pa = aval_of(p)
        ta = aval_of(t) if not isinstance(t, Zero) else t.aval
        expected = pa.to_tangent_aval()
        if ta.dtype != expected.dtype and not (
                expected.dtype == dtypes.float0 and ta.dtype == dtypes.float0):
            raise TypeError(
                "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
                f"or in case of int/bool primal dtype the tangent dtype must be float0. Got "
                f"primal dtype {pa.dtype} and so expected tangent dtype {expected.dtype}, but "
                f"got tangent dtype {ta.dtype} instead.")
        if ta.shape != pa.shape:
            raise ValueError(
                "jvp called with different primal and tangent shapes; Got primal shape "
                f"{pa.shape} and tangent shape as {ta.shape}")
        if expected.dtype == dtypes.float0:
            tangents_in.append(Zero(expected))
        else:
            tangents_in.append(asarray_any(t))
    store = {}

    def flat_fun(*xs):
        args = tree_util.tree_unflatten(p_tree, xs)
        out = fun(*args)
        if has_aux:
            out, aux = out
            store["aux"] = aux
        out_flat, out_tree = tree_util.tree_flatten(out)
        store["tree"] = out_tree
        return out_flat

    from jaxlite._src.ops.structural import instantiate

    p_out, t_out = _jvp.jvp_flat(flat_fun, p_flat, tangents_in)
    t_out = [instantiate(t) for t in t_out]
    out_tree = store["tree"]
    res = (tree_util.tree_unflatten(out_tree, p_out), tree_util.tree_unflatten(out_tree, t_out))
    if has_aux:
        return res + (store["aux"],)
    return res


# ------------------------------------------------------------------------------- vmap
def _flatten_axes(what: str, tree, axes, kws: bool = False):
    """Broadcast an ``in_axes``/``out_axes`` prefix tree to the leaves of ``tree``."""
    try:
        return tree_util.broadcast_prefix(axes, tree, is_leaf=lambda x: x is None)
    except (ValueError, TypeError):
        raise ValueError(
            f"{what} specification must be a tree prefix of the corresponding value, got "
            f"specification {axes} for value tree {tree_util.tree_structure(tree)}."
        ) from None


def vmap(fun: Callable, in_axes: Any = 0, out_axes: Any = 0, axis_name: Any = None,
         axis_size: int | None = None, spmd_axis_name: Any = None) -> Callable:
    """Vectorise ``fun`` over a new leading (or ``in_axes``) axis (``jax.vmap``).

    Args:
        fun: function to vectorise.
        in_axes: int, None, or a tuple (one entry per positional argument) of pytree prefixes
            giving the mapped axis of each input (None = broadcast). Keyword arguments are
            always mapped over axis 0.
        out_axes: int, None, or a pytree prefix of the output giving where the mapped axis
            goes.
        axis_name: name for collectives (``lax.psum``...) inside ``fun``.
        axis_size: the mapped size when no input is mapped.

    Raises:
        ValueError: for inconsistent mapped sizes, out-of-range axes, in_axes that are not a
            prefix of the arguments, or ``out_axes=None`` for an output that is mapped.
    """
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if not (in_axes is None or type(in_axes) in (int, tuple, dict) or isinstance(
            in_axes, (int, np.integer))):
        raise TypeError("vmap in_axes must be an int, None, or a tuple of entries "
                        f"corresponding to the positional arguments passed to the function, "
                        f"but got {in_axes}.")

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError(
                "vmap in_axes must be an int, None, or a tuple of entries corresponding to "
                "the positional arguments passed to the function, but got "
                f"len(in_axes)={len(in_axes)}, len(args)={len(args)}")
        flat, in_tree = tree_util.tree_flatten((args, kwargs))
        axes_args = _flatten_axes("vmap in_axes", args, in_axes)
        axes_kwargs = [0] * len(tree_util.tree_leaves(kwargs))
        dims = list(axes_args) + axes_kwargs
        flat = [asarray_any(x) for x in flat]
        size = _mapped_size(flat, dims, args, kwargs, in_axes, axis_size)
        dims = [None if d is None else _canon_in_axis(d, aval_of(x).ndim)
                for x, d in zip(flat, dims)]
        store = {}

        def flat_fun(*xs):
            a, k = tree_util.tree_unflatten(in_tree, xs)
            out = fun(*a, **k)
            out_flat, out_tree = tree_util.tree_flatten(out)
            store["tree"] = out_tree
            store["out"] = out
            return [asarray_any(o) for o in out_flat]

        axis_data = AxisData(axis_name, size, spmd_axis_name)
        outs, out_dims = batching.batch_flat(flat_fun, axis_data, flat, dims)
        out_tree = store["tree"]
        out_axes_flat = _flatten_axes("vmap out_axes",
                                      tree_util.tree_unflatten(out_tree, [0] * len(outs)),
                                      out_axes)
        res = []
        for o, d, od in zip(outs, out_dims, out_axes_flat):
            if od is None:
                if d is not not_mapped:
                    raise ValueError(
                        "vmap has mapped output but out_axes is None. "
                        "Set out_axes to an int to map the output, or return a value that "
                        "does not depend on the mapped inputs.")
                res.append(o)
                continue
            nd = aval_of(o).ndim + (d is not_mapped)
            od = _canon_out_axis(od, nd)
            res.append(batching.move_dim(o, d, od, size))
        return tree_util.tree_unflatten(out_tree, res)

    return vmapped


def _canon_in_axis(d, ndim):
    if not isinstance(d, (int, np.integer)):
        raise TypeError(f"vmap in_axes leaves must be ints or None, got {d!r}")
    if not -ndim <= d < ndim:
        raise ValueError(f"vmap was requested to map its argument along axis {d}, which "
                         f"implies that its rank should be at least {d + 1 if d >= 0 else -d}, "
                         f"but is only {ndim} (its shape is ...)")
    return int(d) % ndim


def _canon_out_axis(d, ndim):
    if not -ndim <= d < ndim:
        raise ValueError(f"axis {d} is out of bounds for array of dimension {ndim}")
    return int(d) % ndim


def _mapped_size(flat, dims, args, kwargs, in_axes, axis_size):
    sizes = set()
    for x, d in zip(flat, dims):
        if d is None:
            continue
        nd = aval_of(x).ndim
        if not -nd <= d < nd:
            raise ValueError(
                f"vmap was requested to map its argument along axis {d}, which implies that "
                f"its rank should be at least {d + 1 if d >= 0 else -d}, but is only {nd} "
                f"(its shape is {aval_of(x).shape})")
        sizes.add(aval_of(x).shape[d])
    if axis_size is not None:
        sizes.add(int(axis_size))
    if not sizes:
        raise ValueError("vmap must have at least one non-None value in in_axes, or "
                         "axis_size must be given")
    if len(sizes) > 1:
        lines = []
        for i, (x, d) in enumerate(zip(flat, dims)):
            if d is not None:
                lines.append(f"  * one axis had size {aval_of(x).shape[d]}: axis {d} of "
                             f"argument leaf {i} of shape {aval_of(x).shape}")
        if axis_size is not None:
            lines.append(f"  * axis_size was {axis_size}")
        raise ValueError("vmap got inconsistent sizes for array axes to be mapped:\n"
                         + "\n".join(lines))
    return sizes.pop()
