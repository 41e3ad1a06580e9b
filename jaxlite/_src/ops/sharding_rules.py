"""Sharding rules (``rules.sharding_rules``) of the lax primitives that are not elementwise.

Elementwise primitives get theirs from ``unop``/``naryop`` (``sharding_types.
broadcasting_rule``). Each rule here maps the operands' specs over the Explicit mesh axes to
the result's spec, or raises ``ShardingTypeError`` with JAX 0.10.2's message (S8.3): shape
operations move entries with the dimensions they move, reductions drop the reduced
dimensions, operations along a dimension (cumulative, sort) need it unsharded, ``dot_general``
keeps batch and free dimensions and refuses sharded contracting dimensions it cannot resolve.
A primitive without a rule (control flow, linear algebra, convolutions...) falls back to the
sharding layer's generic rule.

The rules sit together in this one module, the last ``ops`` family, because they form one
table of one concern across every family (like JAX's ``_sharding_rule`` functions, which
live beside each primitive in ``lax.py``, ``slicing.py``...).
"""

from __future__ import annotations

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.sharding_types import (
    ShardingTypeError,
    axes_size,
    check_no_duplicates,
    is_relaxed,
    merge_dims,
    named_repr,
    same_spec_rule,
    spec_repr,
    type_str,
)
from jaxlite._src.ops import (
    bitcast,
    clamp,
    conversion,
    cumulative,
    elementwise,
    indexing,
    linalg,
    reductions,
    shape,
    slicing,
    sorting,
    split,
    structural,
)

_table = rules.sharding_rules


def _raise(msg: str, fallback):
    """Raise ``ShardingTypeError(msg)``, or return ``fallback`` inside ``relaxed()``."""
    if is_relaxed():
        return fallback
    raise ShardingTypeError(msg)


def _unsharded(aval_out):
    return (None,) * len(aval_out.shape)


# --- casts, copies, structural ------------------------------------------------------------
for _p in (
    conversion.convert_element_type_p,
    structural.stop_gradient_p,
    structural.copy_p,
    shape.rev_p,
    bitcast.reduce_precision_p,
):
    _table[_p] = same_spec_rule

_table[structural.add_any_p] = lambda mesh, specs, ai, ao, **p: merge_dims("add_any", specs, ai, ao)
_table[conversion.iota_p] = lambda mesh, specs, ai, ao, **p: _unsharded(ao)


def _bitcast_rule(mesh, specs, avals_in, aval_out, *, new_dtype):
    s = specs[0]
    nd = len(aval_out.shape)
    return tuple(s[:nd]) + (None,) * max(nd - len(s), 0)


_table[bitcast.bitcast_convert_type_p] = _bitcast_rule


def _clamp_rule(mesh, specs, avals_in, aval_out):
    return merge_dims("clamp", specs, avals_in, aval_out)


_table[clamp.clamp_p] = _clamp_rule


def _select_n_rule(mesh, specs, avals_in, aval_out):
    # Cases with no sharded dimension are compatible with any (jax.numpy's broadcasting
    # gives a broadcast scalar the other operands' sharding in JAX; here it has none).
    cases = [s for s in specs[1:] if any(s)]
    if any(c != cases[0] for c in cases[1:]):
        msg = (
            "select cases must have the same shardings, got ["
            + ", ".join(named_repr(mesh, c) for c in specs[1:])
            + "]."
        )
        return _raise(msg, cases[0])
    return merge_dims("select_n", specs, avals_in, aval_out)


_table[elementwise.select_n_p] = _select_n_rule


# --- reductions -----------------------------------------------------------------------------
def _reduce_rule(mesh, specs, avals_in, aval_out, *, axes, **params):
    return tuple(e for d, e in enumerate(specs[0]) if d not in axes)


for _p in (
    reductions.reduce_sum_p,
    reductions.reduce_max_p,
    reductions.reduce_min_p,
    reductions.reduce_prod_p,
    reductions.reduce_and_p,
    reductions.reduce_or_p,
    reductions.reduce_xor_p,
    reductions.argmax_p,
    reductions.argmin_p,
):
    _table[_p] = _reduce_rule


def _cumulative_rule(mesh, specs, avals_in, aval_out, *, axis, reverse):
    s = specs[0]
    if s and s[axis]:
        msg = (
            "Input should be unsharded over the axis being reduced. Got input "
            f"type={type_str(avals_in[0], s)} and axis={axis}"
        )
        return _raise(msg, s[:axis] + (None,) + s[axis + 1 :])
    return s


for _p in (cumulative.cumsum_p, cumulative.cumprod_p, cumulative.cummax_p, cumulative.cummin_p):
    _table[_p] = _cumulative_rule


def _sort_rule(mesh, specs, avals_in, avals_out, *, dimension, is_stable, num_keys):
    for s in specs:
        if s[dimension]:
            msg = (
                "Arguments to sort must be unsharded over the sorting dimension. Got arg "
                f"sharding={named_repr(mesh, s)} and sorting dimension={dimension}"
            )
            out = s[:dimension] + (None,) + s[dimension + 1 :]
            return _raise(msg, [out] * len(avals_out))
    out = merge_dims("sort", specs, avals_in, avals_out[0])
    return [out] * len(avals_out)


_table[sorting.sort_p] = _sort_rule


def _top_k_rule(mesh, specs, avals_in, avals_out, *, k):
    s = specs[0]
    if s[-1]:
        msg = (
            "top_k operand must be unsharded over its last dimension. Got operand "
            f"type={type_str(avals_in[0], s)}"
        )
        return _raise(msg, [s[:-1] + (None,)] * 2)
    return [s, s]


_table[sorting.top_k_p] = _top_k_rule


# --- shape ----------------------------------------------------------------------------------
def _broadcast_in_dim_rule(mesh, specs, avals_in, aval_out, *, shape, broadcast_dimensions):
    out = [None] * len(shape)
    x = avals_in[0]
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] == shape[d]:
            out[d] = specs[0][i]
    return tuple(out)


_table[shape.broadcast_in_dim_p] = _broadcast_in_dim_rule


def _transpose_rule(mesh, specs, avals_in, aval_out, *, permutation):
    return tuple(specs[0][p] for p in permutation)


_table[shape.transpose_p] = _transpose_rule


def _squeeze_rule(mesh, specs, avals_in, aval_out, *, dimensions):
    nd = len(avals_in[0].shape)
    dims = {d % nd for d in dimensions} if nd else set()
    return tuple(e for d, e in enumerate(specs[0]) if d not in dims)


_table[shape.squeeze_p] = _squeeze_rule


def _concatenate_rule(mesh, specs, avals_in, aval_out, *, dimension):
    placed = [s for s in specs if any(s)]
    if any(s != placed[0] for s in placed[1:]):
        msg = "All operands should have the same sharding. Got shardings " + ", ".join(
            named_repr(mesh, s) for s in specs
        )
        return _raise(msg, _unsharded(aval_out))
    return placed[0] if placed else _unsharded(aval_out)


_table[shape.concatenate_p] = _concatenate_rule


def _shape_repr(shape_) -> str:
    return repr(tuple(np.int64(n) for n in shape_))


def _sliced_rule(what: str, np_ints: bool = True):
    """``slice``/``pad``/``dynamic_slice``: a sharded dimension keeps its axes when the
    result's size is still divisible by them."""

    def rule(mesh, specs, avals_in, aval_out, **params):
        s = specs[0]
        x = avals_in[0]
        out = []
        for e, n_in, n_out in zip(s, x.shape, aval_out.shape):
            if e and n_in != n_out and n_out % axes_size(mesh, e):
                msg = (
                    f"{what} on sharded dims where out dim ({n_out}) is not divisible by mesh "
                    f"axes ({axes_size(mesh, e)}) with spec ({','.join(e)}) is not implemented. "
                    f"Got input type={type_str(x, s, True)} and output "
                    f"shape={_shape_repr(aval_out.shape) if np_ints else tuple(aval_out.shape)}"
                )
                if not is_relaxed():
                    raise ShardingTypeError(msg)
                e = None
            out.append(e)
        return tuple(out)

    return rule


_table[shape.slice_p] = _sliced_rule("slicing", np_ints=False)
_table[shape.pad_p] = _sliced_rule("padding")
_table[slicing.dynamic_slice_p] = _sliced_rule("dynamic_slice")


def _split_rule(mesh, specs, avals_in, avals_out, *, sizes, axis):
    piece = _sliced_rule("split")  # each piece as a slice of the operand, as JAX's
    return [piece(mesh, specs, avals_in, a) for a in avals_out]


_table[split.split_p] = _split_rule


def _dus_rule(mesh, specs, avals_in, aval_out):
    x, u = specs[0], specs[1]
    if u != x:

        def axes(spec):
            # JAX prints the mesh's axes by type; an update on no mesh has none.
            return "{Explicit: " + repr(tuple(mesh.axis_names)) + "}" if any(spec) or x else "{}"

        msg = (
            "dynamic_update_slice operand sharding must be equal to update sharding, got "
            f"operand sharding {type_str(avals_in[0], x)}({axes(x)}) and update sharding "
            f"{type_str(avals_in[1], u)}({'{}' if not any(u) else axes(u)})."
        )
        return _raise(msg, x)
    return x


_table[slicing.dynamic_update_slice_p] = _dus_rule


def _reshape_groups(old, new):
    """Pairs (old dims, new dims) whose sizes multiply to the same number; size-1
    dimensions are groups of their own (with an empty other side)."""
    groups = []
    i = j = 0
    while i < len(old) or j < len(new):
        if i < len(old) and old[i] == 1:
            groups.append(([i], []))
            i += 1
            continue
        if j < len(new) and new[j] == 1:
            groups.append(([], [j]))
            j += 1
            continue
        if i >= len(old) or j >= len(new):
            return None
        gi, gj = [i], [j]
        pi, pj = old[i], new[j]
        i += 1
        j += 1
        while pi != pj:
            if pi < pj:
                if i >= len(old):
                    return None
                pi *= old[i]
                gi.append(i)
                i += 1
            else:
                if j >= len(new):
                    return None
                pj *= new[j]
                gj.append(j)
                j += 1
        groups.append((gi, gj))
    return groups


def _split_entry(mesh, e, sizes):
    """The entry ``e`` of one dimension spread over the new dimensions ``sizes`` (first
    name major), or None when the names do not fall on whole dimensions."""
    names = list(e)
    out = []
    for n in sizes:
        take = []
        while names and n % (axes_size(mesh, take) * mesh.shape[names[0]]) == 0:
            take.append(names.pop(0))
        if names and axes_size(mesh, take) != n:
            return None
        out.append(tuple(take) or None)
    return None if names else out


def _reshape_rule(mesh, specs, avals_in, aval_out, *, new_sizes, dimensions):
    s = specs[0]
    old = avals_in[0].shape
    out = [None] * len(new_sizes)
    groups = _reshape_groups(tuple(old), tuple(new_sizes))
    ok = groups is not None
    for gi, gj in groups or ():
        if not gi or not gj:
            continue
        entries = [s[d] for d in gi]
        if not any(entries):
            continue
        if len(gi) == 1:
            split = _split_entry(mesh, entries[0], [new_sizes[d] for d in gj])
            if split is None:
                ok = False
                break
            for d, e in zip(gj, split):
                out[d] = e
        elif len(gj) == 1:
            # A merge: the sharded dimensions must lead the group, the others follow.
            k = next((m for m, e in enumerate(entries) if not e), len(entries))
            if any(entries[k:]):
                ok = False
                break
            out[gj[0]] = tuple(n for e in entries[:k] for n in e)
        else:
            ok = False
            break
    if not ok:
        msg = (
            "This reshape is not supported. Please specify the sharding of the output via the "
            "`out_sharding` argument of jax.lax.reshape. Got operand type: "
            f"{type_str(avals_in[0], s)}, new sizes: {tuple(new_sizes)}"
        )
        return _raise(msg, _unsharded(aval_out))
    return tuple(out)


_table[shape.reshape_p] = _reshape_rule


# --- dot_general ----------------------------------------------------------------------------
def _check_match(lhs, rhs, msg):
    for a, b in zip(lhs, rhs):
        if a and b and a != b:
            raise ShardingTypeError(msg)


def _dot_general_rule(
    mesh, specs, avals_in, aval_out, *, dimension_numbers, precision, preferred_element_type
):
    (lc, rc), (lb, rb) = dimension_numbers
    ls, rs = specs
    lx, rx = avals_in
    lbs = tuple(ls[i] for i in lb)
    rbs = tuple(rs[i] for i in rb)
    lcs = tuple(ls[i] for i in lc)
    rcs = tuple(rs[i] for i in rc)
    lfree = [i for i in range(len(lx.shape)) if i not in lc and i not in lb]
    rfree = [i for i in range(len(rx.shape)) if i not in rc and i not in rb]
    batch = tuple(a or b for a, b in zip(lbs, rbs))
    out = batch + tuple(ls[i] for i in lfree) + tuple(rs[i] for i in rfree)
    if is_relaxed():
        seen: set = set()
        fixed = []
        for e in out:
            if e and not seen.isdisjoint(e):
                e = None
            seen.update(e or ())
            fixed.append(e)
        return tuple(fixed)
    _check_match(
        lbs,
        rbs,
        "dot_general requires lhs batch dimensions and rhs batch dimensions to have the "
        f"consistent sharding, got {spec_repr(lbs)} and {spec_repr(rbs)}.",
    )
    _check_match(
        lcs,
        rcs,
        "dot_general requires contracting dimensions to have consistent sharding, got "
        f"{spec_repr(lcs)} and {spec_repr(rcs)}.",
    )
    for a, b in zip(lcs, rcs):
        if a and b:
            raise ShardingTypeError(
                "Contracting dimensions are sharded and it is ambiguous how the output should "
                "be sharded. Please specify the output sharding via the `out_sharding` "
                f"parameter. Got lhs_contracting_spec={spec_repr(lcs)} and "
                f"rhs_contracting_spec={spec_repr(rcs)}"
            )
    check_no_duplicates("dot_general", specs, avals_in, aval_out, out)
    return out


_table[linalg.dot_general_p] = _dot_general_rule


# --- gather / scatter -----------------------------------------------------------------------
def gather_error(aval, spec, indices_shape) -> ShardingTypeError:
    """JAX's error for indexing a sharded dimension without ``out_sharding=``."""
    return ShardingTypeError(
        "Use `.at[...].get(out_sharding=)` to provide output PartitionSpec for the gather "
        "indexing as out sharding could not be resolved unambiguously (or would require "
        f"collectives on inputs). Got operand=ShapedArray({type_str(aval, spec)}), "
        f"indices=ShapedArray(int32[{','.join(map(str, indices_shape))}])"
    )


def _gather_rule(mesh, specs, avals_in, aval_out):
    s = specs[0]
    k = len(avals_in) - 1
    nb = len(aval_out.shape) - (len(s) - k)
    if any(s[:k]):
        if not is_relaxed():
            bshape = tuple(aval_out.shape[:nb])
            raise gather_error(avals_in[0], s, bshape + (k,))
        return _unsharded(aval_out)
    return (None,) * nb + tuple(s[k:])


_table[indexing.gather_p] = _gather_rule


def _scatter_rule(mesh, specs, avals_in, aval_out, *, mode):
    return specs[0]


_table[indexing.scatter_p] = _scatter_rule

__all__ = ["gather_error"]
