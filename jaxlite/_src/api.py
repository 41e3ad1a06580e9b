"""Front ends of the transformations: argument handling, pytrees and error messages.

The transformations themselves live in ``interpreters/``; this module only adapts user
functions (pytrees, ``argnums``, ``in_axes``...) to the flat interpreters.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes, tree_util, util as _util
from jaxlite._src.api_plumbing import check_callable, flatten_fun
from jaxlite._src.compile import vmap_refs
from jaxlite._src.core import refs
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.refs import Ref
from jaxlite._src.core.rule_types import AxisData, Zero, not_mapped
from jaxlite._src.core.trace import Tracer, trace_ctx
from jaxlite._src.interpreters import batching, jvp as _jvp
from jaxlite._src.ops import conversion as _conversion, reductions as _reductions
from jaxlite._src.ops.structural import instantiate


def split_aux(out, who):
    """``(out, aux)`` of a ``has_aux`` function's output; ``aux`` is not differentiated."""
    if not (isinstance(out, (tuple, list)) and len(out) == 2):
        raise TypeError(
            "expected function with aux output to return a two-element tuple, "
            f"but got type {type(out)} with value {out!r}"
        )
    return out[0], strip_tangents(out[1])


def strip_tangents(tree):
    """Replace values of the current JVP trace in ``tree`` by their primals (``aux``
    outputs are not differentiated)."""
    cur = trace_ctx.trace
    if not isinstance(cur, _jvp.JVPTrace):
        return tree

    def strip(x):
        if isinstance(x, _jvp.JVPTracer) and x._trace is cur:
            return x.primal
        return x

    return tree_util.tree_map(strip, tree)


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
    check_callable(fun)
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(
            "primal and tangent arguments to jax.jvp must be tuples or lists; "
            f"found {type(primals).__name__} and {type(tangents).__name__}."
        )
    if tree_util.tree_structure(primals) != tree_util.tree_structure(tangents):
        # as given: a list of tangents for a tuple of primals is a mismatch too (as in JAX)
        raise TypeError(
            "primal and tangent arguments to jax.jvp must have the same tree "
            "structure; primals have tree structure "
            f"{tree_util.treedef_repr(tree_util.tree_structure(primals))} whereas tangents "
            f"have tree structure {tree_util.treedef_repr(tree_util.tree_structure(tangents))}."
        )
    p_flat, p_tree = tree_util.tree_flatten(tuple(primals))
    t_flat, t_tree = tree_util.tree_flatten(tuple(tangents))
    p_flat = [to_array(p) for p in p_flat]
    tangents_in = []
    for p, t in zip(p_flat, t_flat):
        pa = aval_of(p)
        ta = aval_of(t) if not isinstance(t, Zero) else t.aval
        expected = pa.to_tangent_aval()
        if ta.dtype != expected.dtype and not (
            expected.dtype == dtypes.float0 and ta.dtype == dtypes.float0
        ):
            raise TypeError(
                "primal and tangent arguments to jax.jvp do not match; dtypes must be equal, "
                f"or in case of int/bool primal dtype the tangent dtype must be float0.Got "
                f"primal dtype {pa.dtype} and so expected tangent dtype {expected.dtype}, but "
                f"got tangent dtype {ta.dtype} instead."
            )
        if ta.shape != pa.shape:
            raise ValueError(
                "jvp called with different primal and tangent shapes;Got primal shape "
                f"{pa.shape} and tangent shape as {ta.shape}"
            )
        if expected.dtype == dtypes.float0:
            tangents_in.append(Zero(expected))
        else:
            tangents_in.append(to_array(t))
    flat_fun, store = flatten_fun(
        fun, p_tree, split_aux=(lambda out: split_aux(out, "jvp")) if has_aux else None
    )
    p_out, t_out = _jvp.jvp_flat(flat_fun, p_flat, tangents_in)
    t_out = [instantiate(t) for t in t_out]
    out_tree = store["tree"]
    res = (tree_util.tree_unflatten(out_tree, p_out), tree_util.tree_unflatten(out_tree, t_out))
    if has_aux:
        return res + (store["aux"],)
    return res


# ------------------------------------------------------------------------------- vmap
def _flatten_axes(what: str, tree, axes):
    """Broadcast an ``in_axes``/``out_axes`` prefix tree to the leaves of ``tree``."""
    try:
        return tree_util.broadcast_prefix(axes, tree, is_leaf=lambda x: x is None, name=what)
    except (ValueError, TypeError) as e:
        head = f"{what} specification must be a tree prefix of the corresponding value; "
        if isinstance(e, ValueError) and str(e).startswith("pytree structure error"):
            # JAX's message, the mismatch in it
            raise ValueError(f"{head}\n  Mismatch details (1 found):\n  {e}") from None
        raise ValueError(
            f"{head}got specification {axes!r} for value tree {tree_util.tree_structure(tree)}."
        ) from None


def _is_axis_leaf(d) -> bool:
    return d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool))


def _check_axes_leaves(what: str, axes) -> None:
    leaves = tree_util.tree_leaves(axes, is_leaf=lambda x: x is None)
    if not all(_is_axis_leaf(d) for d in leaves):
        raise TypeError(
            f"vmap {what} must be an int, None, or (nested) container with "
            f"those types as leaves, but got {axes!r}."
        )


def _arg_paths(fun, args, kwargs) -> list[str]:
    """Human names of the flat leaves of ``(args, kwargs)``, as JAX words them
    (``argument x``, ``argument y['a']``, ``kwargs['y']``). Only used for error messages."""
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        params = []
    names = []
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.KEYWORD_ONLY):
            break
        names.append(p.name)
    out = []
    for i, a in enumerate(args):
        head = f"argument {names[i]}" if i < len(names) else f"args[{i}]"
        for path, _ in tree_util.tree_flatten_with_path(a)[0]:
            out.append(head + tree_util.keystr(path))
    for path, _ in tree_util.tree_flatten_with_path(kwargs)[0]:
        out.append("kwargs" + tree_util.keystr(path))
    return out


def vmap(
    fun: Callable,
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_name: Any = None,
    axis_size: int | None = None,
    spmd_axis_name: Any = None,
    sum_match: bool = False,
) -> Callable:
    """Vectorise ``fun`` over a new leading (or ``in_axes``) axis (``jax.vmap``).

    Args:
        fun: function to vectorise.
        in_axes: int, None, or a tuple/list (one entry per positional argument) of pytree
            prefixes giving the mapped axis of each input (None = not mapped; negative ints
            count from the end). Keyword arguments are always mapped over axis 0.
        out_axes: int, None, or a pytree prefix of the output giving where the mapped axis
            goes (None only for outputs that do not depend on mapped inputs).
        axis_name: name for collectives (``lax.psum``...) inside ``fun``.
        axis_size: the mapped size; required when no input is mapped.
        spmd_axis_name: accepted for compatibility (no effect: there is no SPMD lowering).
        sum_match: with ``True``, an output that is mapped but whose ``out_axes`` is
            ``None`` is summed over the mapped axis (as ``jnp.sum``: small integers and
            booleans accumulate in the default int type) instead of raising.

    Raises:
        ValueError: for inconsistent mapped sizes, out-of-range axes, in_axes that are not a
            prefix of the arguments, or ``out_axes=None`` for an output that is mapped.
        TypeError: for in_axes/out_axes that are not ints/None (or containers of them).
    """
    check_callable(fun)
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    if not (in_axes is None or type(in_axes) is tuple or _is_axis_leaf(in_axes)):
        raise TypeError(
            "vmap in_axes must be an int, None, or a tuple of entries "
            "corresponding to the positional arguments passed to the function, "
            f"but got {in_axes}."
        )
    _check_axes_leaves("in_axes", in_axes)
    _check_axes_leaves("out_axes", out_axes)
    simple_in = in_axes is None or _is_axis_leaf(in_axes)
    simple_out = _is_axis_leaf(out_axes)

    @_util.wraps(fun)
    def vmapped(*args, **kwargs):
        if type(in_axes) is tuple and len(in_axes) != len(args):
            raise ValueError(
                "vmap in_axes must be an int, None, or a tuple of entries corresponding to "
                "the positional arguments passed to the function, but got "
                f"len(in_axes)={len(in_axes)}, len(args)={len(args)}"
            )
        flat, in_tree = tree_util.tree_flatten((args, kwargs))
        n_kw = len(tree_util.tree_leaves(kwargs)) if kwargs else 0
        n_pos = len(flat) - n_kw
        if simple_in:
            dims = [in_axes] * n_pos + [0] * n_kw
        else:
            dims = list(_flatten_axes("vmap in_axes", args, in_axes)) + [0] * n_kw
        vals, ref_pos = [], []
        for x, d in zip(flat, dims):
            if d is None:
                # Unmapped leaves reach ``fun`` as given (a Python int stays a Python int,
                # so its arithmetic is Python's, as in JAX).
                vals.append(x)
                continue
            if isinstance(x, Ref):  # mapped: the function sees a ref of one slice
                ref_pos.append(len(vals))
                vals.append(refs.read(x))
                continue
            try:
                vals.append(to_array(x))
            except TypeError:
                raise TypeError(
                    f"Argument '{x}' of type {type(x)} is not a valid JAX type"
                ) from None
        size, dims = _mapped_size(fun, vals, dims, args, kwargs, axis_size)
        store = {}

        def out_leaves(out_flat):
            store["raw"] = out_flat
            res = []
            for o in out_flat:
                if isinstance(o, Ref):  # JAX: a mapped ref argument comes back as itself,
                    res.append(o._value)  # a ref made inside as a ref of the batched value
                    store["refs_out"] = True
                    continue
                if type(o) is Zero:
                    # A symbolic zero (a JVP rule run under vmap, as equinox's vprim does):
                    # unbatched; the object itself is returned below, as JAX does.
                    res.append(instantiate(o))
                    continue
                try:
                    res.append(to_array(o))
                except TypeError:
                    raise TypeError(
                        f"Output from batched function {o!r} with type "
                        f"{type(o)} is not a valid JAX type"
                    ) from None
            return res

        flat_fun, store = flatten_fun(fun, in_tree, kwargs=True, out_leaves=out_leaves, store=store)
        axis_data = AxisData(axis_name, size, spmd_axis_name)
        mapped = None
        if ref_pos:  # compile/vmap_refs.py
            mapped = vmap_refs.MappedRefs(fun, flat, ref_pos, args, kwargs, store)
            flat_fun = mapped.wrap(flat_fun)
        try:
            outs, out_dims = batching.batch_flat(flat_fun, axis_data, vals, dims)
        except BaseException:
            if mapped is not None:
                mapped.write_partial(vals, dims, size)
            raise
        if mapped is not None:
            outs, out_dims = mapped.write_back(outs, out_dims, vals, dims, size)
        out_tree = store["tree"]
        if simple_out:
            out_axes_flat = [out_axes] * len(outs)
        else:
            out_axes_flat = _flatten_axes(
                "vmap out_axes", tree_util.tree_unflatten(out_tree, [0] * len(outs)), out_axes
            )
        res = []
        for i, (o, raw, d, od) in enumerate(zip(outs, store["raw"], out_dims, out_axes_flat)):
            if isinstance(raw, Ref):
                given = vmap_refs.returned_argument(raw, store, flat, ref_pos)
                if given is not None:
                    res.append(given)
                    continue
            if type(raw) is Zero and d is not_mapped:
                res.append(raw)
                continue
            if od is None:
                if d is not not_mapped and sum_match:
                    res.append(_sum_mapped(o, d))
                    continue
                if d is not not_mapped:
                    # Named by the output's path in the output pytree, as JAX does.
                    paths = tree_util.tree_flatten_with_path(
                        tree_util.tree_unflatten(out_tree, [0] * len(outs))
                    )[0]
                    where = tree_util.keystr(paths[i][0])
                    raise ValueError(
                        f"at vmap out_axes{where}, got axis spec None but output was "
                        f"batched on axis {d}"
                    )
                # An unmapped output is returned as the function returned it (as JAX does:
                # Python scalars, NumPy arrays and scalars stay what they are).
                host = (bool, int, float, complex, np.ndarray, np.generic)
                res.append(raw if isinstance(raw, host) else o)
                continue
            nd = aval_of(o).ndim + (d is not_mapped)
            if not -nd <= od < nd:
                raise ValueError(f"axis {od} is out of bounds for array of dimension {nd}")
            o = batching.move_dim(o, d, int(od) % nd, size)
            if aval_of(o).dtype == dtypes.float0 and not isinstance(o, Tracer):
                o = np.zeros(aval_of(o).shape, dtypes.float0)  # a NumPy array, as JAX's
            res.append(o)
        if "refs_out" in store:
            vmap_refs.rewrap_made_refs(res, store["raw"])
        return tree_util.tree_unflatten(out_tree, res)

    return vmapped


def _sum_mapped(x, axis: int):
    """``x`` summed over its mapped ``axis`` as ``jnp.sum`` would (``vmap(sum_match=True)``)."""
    dt = aval_of(x).dtype
    default_int = dtypes.default_int_dtype()
    if dt == np.bool_ or (dtypes.is_int(dt) and dt.itemsize < default_int.itemsize):
        unsigned = dt != np.bool_ and dtypes.is_unsigned(dt)
        dt = dtypes.default_uint_dtype() if unsigned else default_int
    x = _conversion.convert_element_type(x, dt, False)
    return _reductions.reduce_sum(x, (axis,))


def _mapped_size(fun, vals, dims, args, kwargs, axis_size):
    """Check the mapped axes; returns (size, dims made non-negative)."""
    sizes = []
    canon = []
    for x, d in zip(vals, dims):
        if d is None:
            canon.append(None)
            continue
        shape = aval_of(x).shape
        nd = len(shape)
        if not -nd <= d < nd:
            raise ValueError(
                f"vmap was requested to map its argument along axis {d}, which implies that "
                f"its rank should be at least {d + 1 if d >= 0 else -d}, but is only {nd} "
                f"(its shape is {shape})"
            )
        d = int(d) % nd
        canon.append(d)
        sizes.append(shape[d])
    if axis_size is None and not vals:
        raise ValueError(
            "vmap wrapped function must be passed at least one argument containing an array "
            f"or axis_size must be specified, got empty *args={args} and **kwargs={kwargs}"
        )
    if axis_size is None and not sizes:
        raise ValueError(
            "vmap must have at least one non-None value in in_axes or axis_size must be specified"
        )
    distinct = set(sizes) if axis_size is None else set(sizes) | {int(axis_size)}
    if len(distinct) > 1:
        names = _arg_paths(fun, args, kwargs)
        lines = []
        if axis_size is not None:
            lines.append(f"  * the `axis_size` argument was {axis_size}")
        for name, x, d in zip(names, vals, canon):
            if d is not None:
                lines.append(
                    f"  * one axis had size {aval_of(x).shape[d]}: axis {d} of "
                    f"{name} of type {_type_str(aval_of(x))}"
                )
        raise ValueError(
            "vmap got inconsistent sizes for array axes to be mapped:\n" + ";\n".join(lines)
        )
    return (int(axis_size) if axis_size is not None else sizes[0]), canon


def _type_str(aval) -> str:
    return f"{aval.dtype.name}[{','.join(str(n) for n in aval.shape)}]"
