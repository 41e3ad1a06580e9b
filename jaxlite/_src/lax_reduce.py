"""``jax.lax.reduce``: a pytree of operands reduced over some dimensions by a Python
computation.

A single operand with a public lax monoid (``lax.add`` / ``mul`` / ``max`` / ``min`` /
``bitwise_and`` / ``or`` / ``xor``) and its identity as the init is JAX's ``reduce_*``
primitive. Anything else is JAX's generic reduction: evaluated as XLA does, a fold of the
computation over the reduced elements in row-major order starting from the inits (one
element per output is the element: XLA simplifies that reduction to a reshape); its JVP is
JAX's, the JVP of a pairwise tree (first half against second half, an odd half padded with
the init), which decides how ties of a max-like computation share the tangent (and, for an
init that is not an identity, the primal under ``jvp``). A differentiated init is JAX's
``NotImplementedError``.
"""

from __future__ import annotations

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.api import jvp
from jaxlite._src.control_flow.scan import scan
from jaxlite._src.core import sharding_hooks
from jaxlite._src.core.array import to_array
from jaxlite._src.core.avals import aval_of
from jaxlite._src.core.trace import Tracer
from jaxlite._src.custom_derivatives import SymbolicZero, custom_jvp
from jaxlite._src.interpreters.staging import trace_to_jaxpr
from jaxlite._src.ops import (
    conversion,
    elementwise as ew,
    lax_api,
    minmax_native as mm,
    reductions as red,
    shape as _sh,
)
from jaxlite._src.tree_util import tree_flatten, tree_unflatten


def _jax_monoid_reducer(computation, flat_inits):
    """The ``reduce_*`` JAX uses for ``lax.reduce``: one operand, ``computation`` one of
    the public lax add / mul / max / min / bitwise and / or / xor, and a concrete scalar
    init equal to its identity in the init's own dtype (the init is then not applied).
    None otherwise (the generic reduction)."""
    if len(flat_inits) != 1 or isinstance(flat_inits[0], Tracer):
        return None
    kinds = {
        lax_api.add: (red.reduce_sum, lambda dt: 0),
        lax_api.mul: (red.reduce_prod, lambda dt: 1),
        lax_api.max: (red.reduce_max, red._lowest),
        lax_api.min: (red.reduce_min, red._highest),
        lax_api.bitwise_and: (red.reduce_and, lambda dt: True if dt == np.bool_ else -1),
        lax_api.bitwise_or: (red.reduce_or, lambda dt: False if dt == np.bool_ else 0),
        lax_api.bitwise_xor: (red.reduce_xor, lambda dt: False if dt == np.bool_ else 0),
    }
    try:
        found = kinds.get(computation)
    except TypeError:  # an unhashable callable
        return None
    if found is None:
        return None
    init = to_array(flat_inits[0])
    aval = aval_of(init)
    if aval.shape != ():
        return None
    dt = np.dtype(aval.dtype)
    bitwise = computation in (lax_api.bitwise_and, lax_api.bitwise_or, lax_api.bitwise_xor)
    if bitwise and not (dt == np.bool_ or np.issubdtype(dt, np.integer)):
        return None
    ident = found[1](dt)
    if computation is lax_api.bitwise_and and np.issubdtype(dt, np.unsignedinteger):
        ident = np.iinfo(dt).max
    return found[0] if bool(np.equal(np.asarray(init), ident)) else None


def _traced_monoid(computation, itree, init):
    """The ``reduce_*`` that XLA's generic reduction of one operand amounts to when the
    computation traces to one add / mul / max / min / and / or / xor of its two scalar
    arguments (``jnp.add``, ``lambda a, b: a + b``: JAX stages a generic ``reduce``, whose
    HLO XLA reduces as ``reduce_sum``'s) and the init is that monoid's identity; else None.
    Only the forward values: the JVP stays JAX's pairwise tree."""
    aval = aval_of(init).update(weak_type=False)  # a scalar (``_check_generic``)

    def scalar(a, b):
        leaves, _ = tree_flatten(
            computation(tree_unflatten(itree, [a]), tree_unflatten(itree, [b]))
        )
        return leaves

    try:
        closed, _ = trace_to_jaxpr(scalar, [aval, aval])
    except Exception:  # noqa: BLE001 (the generic path reports the computation's errors)
        return None
    jaxpr = closed.jaxpr
    if len(jaxpr.eqns) != 1 or closed.consts:
        return None
    (eqn,) = jaxpr.eqns
    if eqn.params or list(eqn.outvars) != list(jaxpr.outvars):
        return None
    if set(map(id, eqn.invars)) != set(map(id, jaxpr.invars)) or len(eqn.invars) != 2:
        return None
    lax_fn = _MONOID_PRIMITIVES.get(eqn.primitive)
    return None if lax_fn is None else _jax_monoid_reducer(lax_fn, [init])


# The primitive a monoid computation traces to -> its public lax function (``_jax_monoid_reducer``)
_MONOID_PRIMITIVES = {
    ew.add_p: lax_api.add, ew.mul_p: lax_api.mul, mm.max_p: lax_api.max,
    mm.min_p: lax_api.min, ew.and_p: lax_api.bitwise_and, ew.or_p: lax_api.bitwise_or,
    ew.xor_p: lax_api.bitwise_xor,
}  # fmt: skip


def _aval_text(a):
    weak = ", weak_type=True" if a.weak_type else ""
    return f"ShapedArray({np.dtype(a.dtype).name}[{','.join(map(str, a.shape))}]{weak})"


def _check_generic(xs, inits, dims):
    """JAX's errors for a generic reduction's operands, inits and dimensions."""
    bad = [aval_of(i).shape for i in inits if aval_of(i).shape != ()]
    if bad:
        raise ValueError(f"reduce found non-scalar initial value: {bad}")
    xa, ia = [aval_of(x) for x in xs], [aval_of(i) for i in inits]
    if any(a.dtype != b.dtype for a, b in zip(xa, ia)):
        raise TypeError(
            "reduce operand dtypes should match corresponding initial value dtypes, got "
            f"operands=[{', '.join(map(_aval_text, xa))}] and "
            f"initial_values=[{', '.join(map(_aval_text, ia))}]"
        )
    shape = xa[0].shape
    if any(a.shape != shape for a in xa):
        raise ValueError(
            f"reduce operands must have the same shape, got {', '.join(str(a.shape) for a in xa)}"
        )
    for d in dims:
        if d >= len(shape):
            raise IndexError(f"index {d} is out of bounds for axis 0 with size {len(shape)}")
    if any(d < 0 for d in dims) or len(set(dims)) != len(dims):
        raise ValueError(
            f"reduction axes {dims} contains out-of-bounds or repeated indices for "
            f"{xa[0].str_short()}."
        )


def _combine(computation, itree, out_tree, a, b, xa):
    """``computation`` of two lists of leaves (the init's pytree), checked to return the
    operands' dtypes."""
    res = computation(tree_unflatten(itree, a), tree_unflatten(itree, b))
    leaves, tree = tree_flatten(res)
    if tree != out_tree:
        raise ValueError(f"reduce computation's output changed: {tree} vs. {out_tree}")
    return _check_dtypes(leaves, xa)


def _check_dtypes(leaves, xa):
    """The computation's results as arrays, which must have the operands' dtypes (XLA's
    verifier's ValueError in JAX, even where nothing is reduced)."""
    leaves = [to_array(leaf) for leaf in leaves]
    for leaf, x in zip(leaves, xa):
        if aval_of(leaf).dtype != x.dtype:
            raise ValueError(
                "reduce computation must return the operands' dtypes, got "
                f"{_aval_text(aval_of(leaf))} for {_aval_text(x)}"
            )
    return leaves


def _strong(x):
    """``x`` with a strong type: the fold's carry keeps one type whatever the computation
    returns (the result's weak type is decided by ``reduce``)."""
    return conversion.convert_element_type(x, aval_of(x).dtype, weak_type=False)


def _zero_tangent(aval):
    if dtypes.is_inexact(aval.dtype):
        return _sh.full(aval.shape, 0, aval.dtype)
    return np.zeros(aval.shape, dtypes.float0)  # an integer operand's (an iota's)


def _generic(computation, itree, out_tree, xs, inits, dims):
    """The generic reduction (XLA's fold) with JAX's pairwise-tree JVP."""
    xa = [aval_of(x) for x in xs]
    shape = xa[0].shape
    keep = [i for i in range(len(shape)) if i not in dims]
    out_shape = tuple(shape[i] for i in keep)
    n = int(np.prod([shape[d] for d in dims], dtype=np.int64))
    k = len(xs)

    def rows(ops):  # the reduced dimensions moved to the front and flattened
        return [_sh.reshape(_sh.transpose(x, dims + tuple(keep)), (n,) + out_shape) for x in ops]

    monoid = _traced_monoid(computation, itree, inits[0]) if k == 1 else None

    def fold(*args):
        ops, ins = args[:k], args[k:]
        if n == 1:  # XLA's reshape: the init is not applied
            return tuple(_sh.reshape(x, out_shape) for x in ops)
        if monoid is not None:  # XLA's reduce_* of the same HLO
            return (monoid(ops[0], dims),)
        # One scan over the rows (the computation traced once, as JAX traces it), not n
        # staged copies of it: the same operations in the same order, so the same bits.
        acc = [_strong(_sh.broadcast_to_rank(i, out_shape)) for i in ins]

        def step(acc, elem):
            out = _combine(computation, itree, out_tree, acc, elem, xa)
            return [_strong(o) for o in out], None

        acc, _ = scan(step, acc, rows(ops))
        return tuple(acc)

    def tree(ins, *ops):
        xs_ = rows(ops)
        while aval_of(xs_[0]).shape[0] > 1:
            m = aval_of(xs_[0]).shape[0]
            m1 = (m + 1) // 2
            first = [_sh.slice_in_dim(x, 0, m1, axis=0) for x in xs_]
            second = [_sh.slice_in_dim(x, m1, m, axis=0) for x in xs_]
            if m - m1 != m1:
                pad = [(0, 1, 0)] + [(0, 0, 0)] * len(out_shape)
                second = [_sh.pad(x, i, pad) for x, i in zip(second, ins)]
            xs_ = _combine(computation, itree, out_tree, first, second, xa)
        if aval_of(xs_[0]).shape[0] == 0:
            return tuple(_sh.broadcast_to_rank(i, out_shape) for i in ins)
        return tuple(_sh.reshape(x, out_shape) for x in xs_)

    reducer = custom_jvp(fold)

    def reducer_jvp(primals, tangents):
        if any(not isinstance(t, SymbolicZero) for t in tangents[k:]):
            raise NotImplementedError(
                "Gradient of general lax.reduce with non-zero tangents for initial values "
                "to reduction not implemented"
            )
        ops, ins = primals[:k], primals[k:]
        ts = [
            t if not isinstance(t, SymbolicZero) else _zero_tangent(aval_of(x))
            for x, t in zip(ops, tangents[:k])
        ]
        return jvp(lambda *o: tree(ins, *o), tuple(ops), tuple(ts))

    reducer.defjvp(reducer_jvp, symbolic_zeros=True)
    return list(reducer(*xs, *inits))


def reduce(operands, init_values, computation, dimensions, out_sharding=None):
    """``jax.lax.reduce``: ``operands`` (a pytree of arrays of one shape) reduced over
    ``dimensions`` by ``computation``, which maps two pytrees like ``init_values`` (one
    scalar per operand) to one; the result has the computation's pytree (the monoid
    reductions: one array). ``out_sharding``: the result's sharding."""
    if out_sharding is not None:
        return sharding_hooks.apply_out_sharding(
            reduce, out_sharding, operands, init_values, computation, dimensions
        )
    flat_x, xtree = tree_flatten(operands)
    flat_init, itree = tree_flatten(init_values)
    if xtree != itree:
        raise ValueError(
            f"Operands must have the same tree structure as init_values: {xtree} vs. {itree}"
        )
    if len(flat_x) != len(flat_init):
        raise ValueError(
            "Must have same total number of operands as init_values: "
            f" {len(flat_x)} vs. {len(flat_init)}"
        )
    dims = tuple(int(d) for d in dimensions)
    monoid = _jax_monoid_reducer(computation, flat_init)
    if monoid is not None:
        x = to_array(flat_x[0])
        weak = aval_of(x).weak_type and aval_of(to_array(flat_init[0])).weak_type
        out = monoid(x, dims)
        return conversion.convert_element_type(out, aval_of(out).dtype, weak_type=weak)
    xs = [to_array(x) for x in flat_x]
    inits = [to_array(i) for i in flat_init]
    # JAX traces the computation on the inits first (its errors come first)
    first, out_tree = tree_flatten(
        computation(tree_unflatten(itree, inits), tree_unflatten(itree, inits))
    )
    _check_generic(xs, inits, dims)
    if out_tree.num_leaves != len(xs):
        raise ValueError(
            f"reduce computation must return {len(xs)} values (one per operand), got "
            f"{out_tree.num_leaves}"
        )
    _check_dtypes(first, [aval_of(x) for x in xs])
    outs = _generic(computation, itree, out_tree, xs, inits, dims)
    outs = [
        conversion.convert_element_type(
            o, aval_of(x).dtype, weak_type=aval_of(x).weak_type and aval_of(i).weak_type
        )
        for o, x, i in zip(outs, xs, inits)
    ]
    return tree_unflatten(out_tree, outs)
