"""XLA's reassociation of constants in chains of additions and products, in compiled code.

XLA's algebraic simplifier merges the two constants of a chain into one before it computes
anything: ``(A + C1) + C2`` becomes ``A + (C1 + C2)`` and ``(A * C1) * C2`` becomes
``A * (C1 * C2)``, the constant rounded once when the function compiles. On floats this
changes the rounding: in float32, ``(x + 0.1) + 2.7`` under ``jit`` differs from the
two-step sum in about a third of the elements, and ``(x + 1.0) - 1.0`` is ``x`` exactly.
jaxlite follows it in compiled code (``jit``, loop and branch bodies; an eager ``cond``
or loop compiles its bodies, in JAX too), through ``rules.simplify_rules`` of ``add``,
``sub``, ``mul`` and ``div``; eager operations compute each step, as eager JAX does.

What counts, as measured on JAX 0.10.2 (XLA:CPU):

* a constant is a literal, a closed-over array, or a broadcast (possibly transposed) of
  one. Both constants must be of one kind: broadcast scalars (a literal, a rank-0 or
  single-valued constant, a broadcast of one) or two full-shape arrays; an array plus a
  broadcast scalar is left alone, as XLA does;
* ``A - C`` is ``A + (-C)``, ``C - A`` is ``(-A) + C`` (so ``(C1 - x) + C2`` is
  ``(C1 + C2) - x``); a constant subtracted from the chain's outside (``C2 - (x + C1)``)
  stops it. The merged constant is computed in the result's dtype, as XLA folds it;
* ``A + 0``, ``0 + A`` and ``A - 0`` are ``A`` (either zero, any dtype: ``x + 0.0`` and
  ``x - (-0.0)`` keep ``-0.0`` under ``jit``), and so is a chain whose constants cancel
  (``(x + 1.0) - 1.0``);
* ``A / C`` is ``A * (1 / C)`` (``ops/division.py``), the reciprocal rounded first, so
  ``(x * 3.0) / 7.0`` is ``x * (3.0 * (1 / 7.0))``; ``C / A`` stops a chain;
* float16, float32, float64, complex64 and complex128 (bfloat16 and the float8 types are
  computed in float32 by XLA:CPU, where the chain is not merged; integer chains give the
  same bits either way). Chains of three or more constants merge step by step.

Constants that place their result (a sharded closed-over array, a broadcast with a
sharding) are left in place: the result's sharding comes from them. jaxlite's own
compositions that stand for JAX code without such a chain keep it from forming
(``random.normal``'s complex parts).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.ir import Literal, Var
from jaxlite._src.ops import division, shape as _shape

_DTYPES = frozenset(
    np.dtype(d) for d in ("float16", "float32", "float64", "complex64", "complex128")
)
# Largest constant (bytes) read element by element to see whether it holds one value.
_MAX_UNIFORM_BYTES = 16 * 1024 * 1024
# Shape-only primitives that XLA folds into the broadcast of a constant.
_LAYOUT = (_shape.broadcast_in_dim_p, _shape.transpose_p, _shape.reshape_p)

_prims: dict[str, Any] = {}  # add, sub, mul, div: set by ``register``


class Rewrite(NamedTuple):
    """A replacement equation and the new constants (``(Var, value)`` pairs) it reads."""

    eqn: Any
    consts: list


def _one_value(a: np.ndarray) -> np.ndarray | None:
    """``a``'s value as a rank-0 array if every element has the same bits, else None."""
    if a.size == 1:
        return a.reshape(())
    if a.size == 0 or a.nbytes > _MAX_UNIFORM_BYTES:
        return None
    raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8).reshape(a.size, a.itemsize)
    if not (raw[-1] == raw[0]).all() or not (raw == raw[0]).all():
        return None
    return a.reshape(-1)[0:1].reshape(())


def _constant(v, producer, const, shape) -> tuple[str, np.ndarray] | None:
    """``("s", value)`` if XLA sees ``v`` as a broadcast scalar constant (``value`` rank 0),
    ``("a", value)`` if it is a full-shape array constant of ``shape`` (a constant, or one
    transposed or reshaped: XLA folds those), else None."""
    eqn = producer(v)
    layout = []
    while eqn is not None and eqn.primitive in _LAYOUT:
        if any(eqn.params.get(k) is not None for k in ("sharding", "out_sharding")):
            return None  # (it places the result: kept as it is)
        layout.append(eqn)
        v = eqn.invars[0]
        eqn = producer(v)
    if type(v) is Literal:
        return "s", np.asarray(v.val)
    if eqn is not None:
        return None
    c = const(v)
    if c is None or getattr(c, "_placed", False):
        return None  # (a placed constant carries the result's sharding: kept as it is)
    a = np.asarray(c)
    one = _one_value(a)
    if one is not None:
        return "s", one
    if any(e.primitive is _shape.broadcast_in_dim_p for e in layout):
        return None  # (a broadcast row: neither kind)
    for e in reversed(layout):
        a = np.asarray(rules.impl_for(e)(a, **e.params))
    return ("a", a) if a.shape == tuple(shape) else None


def _split(u, out, producer, const, additive: bool):
    """``(A, C, negated)`` if ``u`` is ``A + C`` (``A - C``: C negated; ``C - A``:
    ``negated``), or ``A * C`` (``A / C`` by ``div_recip``: C's reciprocal), with ``A`` not
    a constant and ``u`` of ``out``'s shape and dtype; else None."""
    eqn = producer(u)
    if eqn is None or eqn.effects or len(eqn.invars) != 2:
        return None
    p = eqn.primitive
    if additive and p not in (_prims["add"], _prims["sub"]):
        return None
    if not additive and p not in (_prims["mul"], division.div_recip_p):
        return None
    x, y = eqn.invars
    cx, cy = (_constant(w, producer, const, out.shape) for w in (x, y))
    if (cx is None) == (cy is None):
        return None
    if p is division.div_recip_p:
        if cy is None:
            return None
        return x, (cy[0], division.divide_by_reciprocal(np.ones((), cy[1].dtype), cy[1])), False
    if cy is not None:
        if p is _prims["sub"]:
            return x, (cy[0], np.negative(cy[1])), False
        return x, cy, False
    return y, cx, p is _prims["sub"]


def _merge(eqn, producer, const, additive: bool, divide: bool = False):
    """The rewrite of ``eqn`` (``inner op C2``) if its inner operand is a chain link."""
    out = eqn.outvars[0].aval
    if not isinstance(out.dtype, np.dtype) or out.dtype not in _DTYPES or eqn.effects:
        return None
    x, y = eqn.invars
    for inner, c in (
        ((x, y), (y, x)) if not (divide or eqn.primitive is _prims["sub"]) else [(x, y)]
    ):
        if type(inner) is Literal or inner.aval.shape != out.shape:
            continue
        c2 = _constant(c, producer, const, out.shape)
        if c2 is None:
            continue
        link = _split(inner, out, producer, const, additive)
        if link is None:
            continue
        a, c1, negated = link
        if c1[0] != c2[0]:
            continue  # a broadcast scalar and an array: XLA leaves the chain
        kind, v2 = c2
        with np.errstate(all="ignore"):
            if eqn.primitive is _prims["sub"]:
                v2 = np.negative(v2)
            elif divide:
                v2 = division.divide_by_reciprocal(np.ones((), v2.dtype), v2)
            merged = np.asarray((np.add if additive else np.multiply)(c1[1], v2), out.dtype)
        return _build(eqn, a, merged, kind, negated, additive)
    return None


def _build(eqn, a, merged, kind, negated, additive):
    out = eqn.outvars[0].aval
    if kind == "s" and a.aval.shape != out.shape:
        return None  # (a rank-0 A plus a broadcast constant: the shapes would not match)
    if additive and not negated and a.aval.shape == out.shape and not np.any(merged != 0):
        return a  # A + 0 => A
    if kind == "s":
        cvar, consts = Literal(merged, ShapedArray((), out.dtype)), []
    else:
        merged.flags.writeable = False
        cvar = Var(ShapedArray(merged.shape, out.dtype))
        consts = [(cvar, merged)]
    if additive:
        new = eqn.replace(
            primitive=_prims["sub" if negated else "add"],
            invars=[cvar, a] if negated else [a, cvar],
            params={},
        )
    else:
        new = eqn.replace(primitive=_prims["mul"], invars=[a, cvar], params={})
    return Rewrite(new, consts) if consts else new


def _plus_zero(eqn, producer, const):
    """``A`` if ``eqn`` is ``A + 0``, ``0 + A`` or ``A - 0`` (any zero constant, either
    sign: XLA's ``A + 0 => A``, after ``A - C => A + (-C)``), else None."""
    out = eqn.outvars[0].aval
    x, y = eqn.invars
    pairs = ((x, y), (y, x)) if eqn.primitive is _prims["add"] else ((x, y),)
    for a, z in pairs:
        if type(a) is Literal or a.aval.shape != out.shape or a.aval.dtype != out.dtype:
            continue
        c = _constant(z, producer, const, out.shape)
        if c is not None and not np.any(c[1] != 0):
            return a
    return None


def additive_rewrite(eqn, producer, const):
    """``rules.simplify_rules`` of ``add`` and ``sub`` (module docstring)."""
    if eqn.effects:
        return None
    got = _plus_zero(eqn, producer, const)
    return got if got is not None else _merge(eqn, producer, const, additive=True)


def product_rewrite(eqn, producer, const):
    """``rules.simplify_rules[mul_p]`` (module docstring)."""
    return _merge(eqn, producer, const, additive=False)


def division_rewrite(eqn, producer, const):
    """``rules.simplify_rules[div_p]``: a chain's product by a constant's reciprocal, else
    ``division.reciprocal_rewrite``."""
    if np.dtype(eqn.outvars[0].aval.dtype) in division.RECIP_DTYPES:
        got = _merge(eqn, producer, const, additive=False, divide=True)
        if got is not None:
            return got
    return division.reciprocal_rewrite(eqn, producer, const)


def select_same_cases(eqn, producer, const):
    """``rules.simplify_rules[select_n_p]``: ``select_n(w, x, x)`` is ``x``, as XLA's
    algebraic simplifier makes it before anything runs, so ``w`` is computed only where
    something else needs it: a ``pure_callback`` that only picks a batched ``cond``'s branch
    whose outputs are its operands does not run under ``jit`` (D1, F17; fuzz_s20 seed
    240019). Cases are equal when they are the same variable (or literal)."""
    first = eqn.invars[1]
    return first if all(c is first for c in eqn.invars[2:]) else None


def register(add_p, sub_p, mul_p, div_p) -> None:
    """Install the rewrites as the simplify rules of the four primitives."""
    _prims.update(add=add_p, sub=sub_p, mul=mul_p, div=div_p)
    rules.simplify_rules[add_p] = rules.simplify_rules[sub_p] = additive_rewrite
    rules.simplify_rules[mul_p] = product_rewrite
    rules.simplify_rules[div_p] = division_rewrite
