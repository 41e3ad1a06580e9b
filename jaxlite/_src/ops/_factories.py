"""Rule factories for the common primitive shapes.

* ``unop`` / ``naryop``: elementwise primitives from one NumPy callable: abstract eval (shape
  and dtype checks, weak-type propagation), impl, and the broadcasting batch rule.
* ``defjvp``: per-argument JVP contributions, summed; ``deflinear``: the JVP of a linear
  primitive is the primitive applied to the tangents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray, aval_of
from jaxlite._src.core.primitive import Primitive
from jaxlite._src.core.rule_types import Zero, not_mapped
from jaxlite._src.core.sharding_types import broadcasting_rule


def _dtype_error(name, dtype, accepted, position=None):
    """JAX's message; an n-ary primitive's names the operand's position."""
    at = "" if position is None else f" at position {position}"
    return TypeError(
        f"{name} does not accept dtype {np.dtype(dtype).name}{at}. Accepted dtypes{at} are "
        f"subtypes of {accepted}."
    )


def _accepted_names(kinds: str) -> str:
    """JAX's wording of accepted dtype kinds: NumPy's abstract type names, in its order."""
    names = []
    if "i" in kinds and "u" in kinds:
        names.append("integer")
    elif "i" in kinds:
        names.append("signedinteger")
    elif "u" in kinds:
        names.append("unsignedinteger")
    names += [
        n for k, n in (("f", "floating"), ("c", "complexfloating"), ("b", "bool")) if k in kinds
    ]
    return ", ".join(names)


def dtype_rule_factory(kinds: str):
    """Accepted dtype kinds: 'f' float, 'c' complex, 'i' signed, 'u' unsigned, 'b' bool."""

    def check(name, dtype, position=None):
        ok = (
            ("f" in kinds and dtypes.is_float(dtype))
            or ("c" in kinds and dtypes.is_complex(dtype))
            or ("i" in kinds and dtypes.is_signed(dtype))
            or ("u" in kinds and dtypes.is_unsigned(dtype))
            or ("b" in kinds and dtype == dtypes.bool_)
        )
        if not ok:
            raise _dtype_error(name, dtype, _accepted_names(kinds), position)

    return check


ANY = "fciub"
NUM = "fciu"
FLOAT = "f"
INEXACT = "fc"
INT = "iu"
INTBOOL = "iub"


def unop(
    name: str,
    np_fn: Callable,
    kinds: str = NUM,
    out_dtype=None,
    native: str | Callable | None = None,
) -> Primitive:
    """An elementwise unary primitive; ``native``: its native-tier template (``defnative``)."""
    p = Primitive(name)
    check = dtype_rule_factory(kinds)

    def abstract_eval(x, **params):
        check(name, x.dtype)
        dt = out_dtype(x.dtype) if out_dtype else x.dtype
        # Weak types survive a dtype change too (``isnan`` of a weak float is a weak bool).
        return ShapedArray(x.shape, dt, x.weak_type)

    rules.abstract_eval_rules[p] = abstract_eval
    rules.impl_rules[p] = np_fn
    rules.batch_rules[p] = _unop_batch(p)
    rules.sharding_rules[p] = broadcasting_rule(name)
    if native is not None:
        defnative(p, native)
    return p


def _unop_batch(p):
    def rule(axis_data, args, dims, **params):
        return p.bind(*args, **params), dims[0]

    return rule


def naryop(
    name: str,
    np_fn: Callable,
    kinds_per_arg: Sequence[str],
    out_dtype=None,
    require_same_dtype: bool = True,
    native: str | None = None,
    native_kinds: str = "fiub",
) -> Primitive:
    """An elementwise n-ary primitive: operands of identical shape (and dtype). ``native``:
    its native-tier template for operands of ``native_kinds`` (``defnative``)."""
    p = Primitive(name)
    checks = [dtype_rule_factory(k) for k in kinds_per_arg]

    def abstract_eval(*avals, **params):
        for i, (c, a) in enumerate(zip(checks, avals)):
            c(name, a.dtype, i)
        shape = broadcast_shapes_lax(name, [a.shape for a in avals])
        if require_same_dtype and len({a.dtype for a in avals}) != 1:
            raise TypeError(
                f"{name} requires arguments to have the same dtypes, got "
                + ", ".join(dtypes.short_name(a.dtype) for a in avals)
                + "."
            )
        dt = out_dtype(*[a.dtype for a in avals]) if out_dtype else avals[0].dtype
        # As in JAX, comparisons of weak operands give a weak bool.
        weak = all(a.weak_type for a in avals)
        return ShapedArray(shape, dt, weak)

    rules.abstract_eval_rules[p] = abstract_eval
    rules.impl_rules[p] = np_fn
    rules.batch_rules[p] = broadcast_batcher(p)
    rules.sharding_rules[p] = broadcasting_rule(name)
    if native is not None:
        defnative(p, native, native_kinds)
    return p


def broadcast_shapes_lax(name, shapes):
    """The result shape of an elementwise primitive, with JAX 0.10's lax-level leniency:
    rank-0 operands broadcast, and operands of equal rank broadcast their size-1 dimensions.
    Operands of different nonzero ranks are an error (lax never inserts dimensions)."""
    ranked = [s for s in shapes if s != ()]
    if not ranked:
        return ()
    if len({len(s) for s in ranked}) != 1:
        raise TypeError(
            f"{name}: arrays must have the same number of dimensions, got "
            + "{"
            + ", ".join(str(n) for n in sorted({len(s) for s in ranked}))
            + "}"
        )
    out = []
    for dims in zip(*ranked):
        big = {d for d in dims if d != 1}
        if len(big) > 1:
            raise TypeError(
                f"{name} got incompatible shapes for broadcasting: "
                + ", ".join(str(s) for s in shapes)
                + "."
            )
        out.append(big.pop() if big else 1)
    return tuple(out)


def broadcast_batcher(p):
    """Batch an elementwise primitive: align batch dims, materialise unbatched operands."""

    def rule(axis_data, args, dims, **params):
        batched = [(x, d) for x, d in zip(args, dims) if d is not not_mapped]
        first_x, first_d = batched[0]
        if all(d == first_d and np.ndim(x) == np.ndim(first_x) for x, d in batched) and len(
            batched
        ) == len(args):
            return p.bind(*args, **params), first_d
        from jaxlite._src.ops import shape as _shape

        size = axis_data.size
        logical = [
            aval_of(x).shape
            if d is not_mapped
            else aval_of(x).shape[:d] + aval_of(x).shape[d + 1 :]
            for x, d in zip(args, dims)
        ]
        out_shape = next((s for s in logical if s != ()), ())
        new_args = []
        for x, d, s in zip(args, dims, logical):
            if d is not_mapped:
                new_args.append(x if s == () else _shape.broadcast_batch(x, size))
            else:
                x = _shape.moveaxis(x, d, 0)
                if s == () and out_shape != ():
                    x = _shape.broadcast_in_dim(x, (size,) + out_shape, (0,))
                new_args.append(x)
        return p.bind(*new_args, **params), 0

    return rule


# --------------------------------------------------------------------------- JVP helpers


def defjvp(p: Primitive, *jvp_fns: Callable | None) -> None:
    """JVP as a sum of per-argument contributions ``fn(tangent, *primals, **params)``."""

    def rule(primals, tangents, **params):
        primal_out = p.bind(*primals, **params)
        from jaxlite._src.ops import structural

        out = None
        for fn, t in zip(jvp_fns, tangents):
            if fn is None or type(t) is Zero:
                continue
            # Each contribution is brought to the output's shape before the sum: an operand
            # that broadcast (rank 0 or size-1 dims) gives a smaller tangent, and add_any's
            # transpose hands its cotangent to both sides unchanged.
            contrib = _match_shape(fn(t, *primals, **params), primal_out)
            out = contrib if out is None else structural.add_any(out, contrib)
        if out is None:
            return primal_out, Zero(_tangent_aval(primal_out))
        return primal_out, _match_shape(out, primal_out)

    rules.jvp_rules[p] = rule


def _match_shape(t, like):
    shape = aval_of(like).shape
    if aval_of(t).shape != shape:
        from jaxlite._src.ops import shape as _shape

        return _shape.broadcast_to_rank(t, shape)
    return t


def defjvp2(p: Primitive, *jvp_fns: Callable | None) -> None:
    """Like ``defjvp`` but each fn also receives the primal output: ``fn(t, ans, *primals)``."""

    def rule(primals, tangents, **params):
        ans = p.bind(*primals, **params)
        from jaxlite._src.ops import structural

        out = None
        for fn, t in zip(jvp_fns, tangents):
            if fn is None or type(t) is Zero:
                continue
            contrib = _match_shape(fn(t, ans, *primals, **params), ans)
            out = contrib if out is None else structural.add_any(out, contrib)
        if out is None:
            return ans, Zero(_tangent_aval(ans))
        return ans, _match_shape(out, ans)

    rules.jvp_rules[p] = rule


def deflinear(p: Primitive, transpose_rule: Callable) -> None:
    """A primitive linear in all its operands: JVP applies it to the tangents."""

    def jvp(primals, tangents, **params):
        from jaxlite._src.ops import structural

        primal_out = p.bind(*primals, **params)
        if all(type(t) is Zero for t in tangents):
            return primal_out, Zero(_tangent_aval(primal_out))
        tangents = [structural.instantiate(t) for t in tangents]
        return primal_out, _match_shape(p.bind(*tangents, **params), primal_out)

    rules.jvp_rules[p] = jvp
    rules.transpose_rules[p] = transpose_rule


def defadditive(p: Primitive, transpose_rule: Callable, negate_second=None) -> None:
    """``add``/``sub``: linear, but with one symbolic-zero tangent the other one is the result
    (``negate_second(t)`` for ``sub``'s second operand), as in JAX; adding an instantiated
    zero would turn a -0.0 tangent into +0.0 (and ``0 - 0.0`` is +0.0, not -0.0)."""
    deflinear(p, transpose_rule)
    both = rules.jvp_rules[p]

    def jvp(primals, tangents, **params):
        (tx, ty), zero = tangents, [type(t) is Zero for t in tangents]
        if zero[0] == zero[1]:
            return both(primals, tangents, **params)
        primal_out = p.bind(*primals, **params)
        t = tx if zero[1] else (ty if negate_second is None else negate_second(ty))
        return primal_out, _match_shape(t, primal_out)

    rules.jvp_rules[p] = jvp


def _tangent_aval(x):
    return aval_of(x).to_tangent_aval()


def non_differentiable(p: Primitive, refuse: bool = False) -> None:
    """Outputs of ``p`` carry zero tangents (comparisons, integer-valued ops). ``refuse``:
    JAX has no JVP rule for ``p`` (``population_count``, ``clz``): a nonzero input tangent
    (a float operand, which the primitive then rejects) raises JAX's NotImplementedError
    before the operand's dtype is checked."""
    rules.non_differentiable.add(p)

    def jvp(primals, tangents, **params):
        if refuse and any(
            type(t) is not Zero and aval_of(t).dtype != dtypes.float0 for t in tangents
        ):
            raise NotImplementedError(f"Differentiation rule for '{p.name}' not implemented")
        out = p.bind(*primals, **params)
        if p.multiple_results:
            return out, [Zero(_tangent_aval(o)) for o in out]
        return out, Zero(_tangent_aval(out))

    rules.jvp_rules[p] = jvp


def defnative(prim: Primitive, template: str | Callable, kinds: str = "fiub") -> None:
    """The native-tier rule of an elementwise primitive from a fixed expression template over
    its operand names (``"{0} + {1}"``), for operands whose NumPy dtype kind is in ``kinds``
    (``"f"`` float, ``"i"``/``"u"`` signed/unsigned integer, ``"b"`` bool). Scalar results
    are re-cast to the output dtype, so integer arithmetic wraps and float32 stays float32.
    A callable ``template`` is the rule itself (lines of any shape; inlined into its reader
    only if it sets ``native_expr`` and returns one line)."""

    if callable(template):
        rules.native_rules[prim] = template
        rules.native_elementwise.add(prim)
        return

    def rule(ctx, eqn, ins, outs):
        if np.dtype(eqn.invars[-1].aval.dtype).kind not in kinds:
            return None
        return [f"{outs[0]} = {ctx.typed(template.format(*ins), eqn.outvars[0].aval)}"]

    rule.native_expr = True  # one ``out = expr`` line: the emitter may inline it
    rules.native_rules[prim] = rule
    rules.native_elementwise.add(prim)
