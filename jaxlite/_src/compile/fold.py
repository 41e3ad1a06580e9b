"""Compile-time constants of jitted code: folding, and uniform constants as scalars.

XLA evaluates the equations of a jitted function that depend on no input (an ``iota``, a
broadcast of a literal, the conversion of a constant) when it compiles the function.
``fold_constants`` does the same to a jaxpr before code generation: each pure equation
whose operands are all literals or constants, and whose result is small, is evaluated once
by its ``impl`` rule and its result becomes a constant of the generated function (a
rank-0 result becomes a literal, as ``simplify`` folds scalar ones). The values are the
ones the generated code would compute, so nothing changes but the time: what runs is the
impl rule on the same operands, once. Not folded: equations with effects, that read the
device context (collectives), with a lowering rule (control flow, calls, callbacks), with
sub-jaxprs, with several results (random bits), with outputs the function returns (every
call returns a new array), or that raise or would warn of a floating-point exception (they
keep doing so when the function runs).

A folded constant is read-only; it never becomes an ``out=`` buffer of generated code,
which writes only into arrays a ufunc allocated in the same call (``codegen``).

``scalar_operands`` serves code generation: a constant holding one value, not a NaN, in
every element (``jnp.ones_like`` while tracing: a zero-stride view) can be passed to an
exactly rounded ufunc (``add``, ``sub``, ``mul``, comparisons, bitwise ops) or to
``select_n`` as a rank-0 array of its dtype when another operand has the result's shape:
NumPy broadcasting then gives the same elements without reading an array per element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src.core import rules, sharding_hooks
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import MAX_ARRAY_BYTES
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, Literal
from jaxlite._src.ops import elementwise as ew, shape as _shape

# Largest result (elements times item size) folded, and largest operand a folding reads.
MAX_FOLD_BYTES = 64 * 1024
MAX_OPERAND_BYTES = 1024 * 1024
# Primitives whose result is a view of their operand (no copy): folded whatever the
# result's nominal size (a broadcast of a literal to a large shape costs one element), up
# to the size generated code refuses to allocate.
_VIEWS = frozenset({_shape.broadcast_in_dim_p})
# Largest constant (bytes) checked element by element for a single value.
MAX_UNIFORM_CHECK_BYTES = 16 * 1024 * 1024

# Ufuncs whose every element is the same function of the operands' elements whatever
# NumPy loop runs (exactly rounded or exact; no SIMD approximations), so a rank-0 operand
# gives the same bits as a broadcast array.
_EXACT_UFUNCS = frozenset(
    {
        np.add,
        np.subtract,
        np.multiply,
        np.equal,
        np.not_equal,
        np.less,
        np.less_equal,
        np.greater,
        np.greater_equal,
        np.bitwise_and,
        np.bitwise_or,
        np.bitwise_xor,
        np.logical_and,
        np.logical_or,
        np.logical_xor,
    }
)


def const_value(c: Any) -> Any:
    """The NumPy value generated code holds for the constant ``c``."""
    if type(c) is ArrayImpl:
        return c._value
    return np.asarray(c)


def _nbytes(aval) -> int:
    return int(np.prod(aval.shape, dtype=np.int64)) * np.dtype(aval.dtype).itemsize


def _plain(aval) -> bool:
    """A NumPy dtype with no objects (not a PRNG key or other extended dtype)?"""
    return isinstance(aval.dtype, np.dtype) and not aval.dtype.hasobject


def _foldable(eqn, known: dict, returned: set) -> bool:
    for v in eqn.invars:  # first: most equations read an input
        if type(v) is Literal:
            continue
        if id(v) not in known or not _plain(v.aval) or _nbytes(v.aval) > MAX_OPERAND_BYTES:
            return False
    p = eqn.primitive
    if (
        eqn.effects
        or p.multiple_results
        or p in rules.lower_rules
        or p in rules.runs_user_code
        or p in rules.device_context
        or p in sharding_hooks.sharding_primitives
        or p not in rules.impl_rules
        or any(isinstance(x, (ClosedJaxpr, Jaxpr)) for x in eqn.params.values())
    ):
        return False
    out = eqn.outvars[0]
    if id(out) in returned or not _plain(out.aval):
        return False
    limit = MAX_ARRAY_BYTES if p in _VIEWS else MAX_FOLD_BYTES  # (views: as codegen checks)
    return _nbytes(out.aval) <= limit


def _evaluate(eqn, known: dict) -> Any:
    """The equation's result by its impl rule, or None if it raises, sets a floating-point
    flag generated code would warn about, or gives something other than an array of its
    aval."""
    args = [v.val if type(v) is Literal else known[id(v)] for v in eqn.invars]
    quiet = eqn.primitive in rules.quiet_fp  # generated code runs these warning-free
    try:
        # (np.errstate is local to the thread; warnings.catch_warnings would not be)
        with np.errstate(all="ignore" if quiet else "raise"):
            val = rules.impl_for(eqn)(*args, **eqn.params)  # what codegen would call
    except Exception:  # noqa: BLE001 (left to run time, where it raises or warns as before)
        return None
    aval = eqn.outvars[0].aval
    if not isinstance(val, (np.ndarray, np.generic)):
        return None
    if val.shape != tuple(aval.shape) or val.dtype != aval.dtype:
        return None
    if isinstance(val, np.ndarray) and val.flags.writeable and not any(val is a for a in args):
        val.flags.writeable = False  # (an operand returned as it is keeps its flags)
    return val


def fold_constants(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with its input-independent equations evaluated (module docstring)."""
    jaxpr = closed.jaxpr
    # Cheap test first (it is most of this pass's cost on functions without constants):
    # an equation reading no input (an iota, a broadcast of a literal) or a constant.
    if not jaxpr.constvars and not any(
        not e.invars or (type(e.invars[0]) is Literal and all(type(v) is Literal for v in e.invars))
        for e in jaxpr.eqns
    ):
        return closed
    known = {id(v): const_value(c) for v, c in zip(jaxpr.constvars, closed.consts)}
    returned = {id(v) for v in jaxpr.outvars if type(v) is not Literal}
    constvars, consts = list(jaxpr.constvars), list(closed.consts)
    eqns = []
    folded: dict[int, Literal] = {}  # rank-0 results, as literals

    def sub(v):
        return folded.get(id(v), v) if type(v) is not Literal else v

    for eqn in jaxpr.eqns:
        if folded:
            eqn = eqn.replace(invars=[sub(v) for v in eqn.invars])
        val = _evaluate(eqn, known) if _foldable(eqn, known, returned) else None
        if val is None:
            eqns.append(eqn)
            continue
        out = eqn.outvars[0]
        if val.ndim == 0:
            folded[id(out)] = Literal(val, out.aval)
            continue
        known[id(out)] = val
        constvars.append(out)
        consts.append(val)
    if len(eqns) == len(jaxpr.eqns):
        return closed
    outvars = [sub(v) for v in jaxpr.outvars]
    return ClosedJaxpr(Jaxpr(constvars, jaxpr.invars, outvars, eqns, jaxpr.effects), consts)


def uniform_scalar(a: Any) -> np.ndarray | None:
    """``a``'s one value as a read-only rank-0 array of its dtype if every element of ``a``
    has the same bits (so ``-0.0`` differs from ``0.0``) and it is not a NaN, else None."""
    if not isinstance(a, np.ndarray) or a.ndim == 0 or a.size == 0 or a.dtype.names:
        return None  # (records: PRNG key data)
    if a.dtype.kind not in "biufcV" or a.dtype.hasobject:
        return None
    first = a[(slice(0, 1),) * a.ndim]
    if not all(s == 0 or n == 1 for s, n in zip(a.strides, a.shape)):
        if a.nbytes > MAX_UNIFORM_CHECK_BYTES:
            return None
        raw = np.ascontiguousarray(a).reshape(-1).view(np.uint8).reshape(a.size, a.itemsize)
        if not (raw[-1] == raw[0]).all() or not (raw == raw[0]).all():
            return None
    s = first.reshape(()).copy()
    # A NaN operand: when both operands are NaNs, which one a ufunc returns depends on
    # NumPy's loop (array-array keeps the first, array-scalar the scalar).
    try:
        if s.dtype.kind in "fcV" and np.isnan(s):
            return None
    except TypeError:  # an ml_dtypes type without isnan (int4...)
        return None
    s.flags.writeable = False
    return s


def exact_ufunc(eqn) -> bool:
    """Is ``eqn`` computed by one of the ``_EXACT_UFUNCS`` (real operands, no params)?"""
    return (
        not eqn.params
        and len(eqn.outvars) == 1
        and eqn.primitive not in rules.lower_rules
        and rules.impl_for(eqn) in _EXACT_UFUNCS
    )


def scalar_operands(eqn, uniform) -> list[int]:
    """Positions of ``eqn``'s operands that code generation may pass as rank-0 arrays:
    ``uniform(v)`` (a constant's single value, or None) is not None, the equation is an
    exactly rounded ufunc (``_EXACT_UFUNCS``) or a ``select_n`` of two or more cases, and
    an operand left as it is has the result's shape."""
    if len(eqn.outvars) != 1:
        return []
    if eqn.primitive is ew.select_n_p:
        if len(eqn.invars) < 3:
            return []
        first = 1  # the predicate stays
    elif exact_ufunc(eqn):
        first = 0
    else:
        return []
    shape = tuple(eqn.outvars[0].aval.shape)
    if shape == ():
        return []
    picks = [
        k
        for k, v in enumerate(eqn.invars)
        if k >= first and type(v) is not Literal and v.aval.shape != () and uniform(v) is not None
    ]
    kept = [v for k, v in enumerate(eqn.invars) if k not in picks]
    if not picks or not any(tuple(v.aval.shape) == shape for v in kept):
        return []
    return picks
