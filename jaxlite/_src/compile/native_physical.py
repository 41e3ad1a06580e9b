"""A loop region as the native tier compiles it: calls inlined, typed keys as their words.

``prepare(closed)`` rewrites a region's jaxpr (recursively, through loop and cond bodies)
before the native tier checks and emits it:

* **Calls inlined.** An equation of a primitive in ``rules.native_inline`` (``jit``,
  ``custom_jvp_call``, ``custom_vjp_call``, ``checkpoint``) is replaced by the equations of
  the jaxpr it calls (its constants become constants of the enclosing jaxpr). Compiled code
  evaluates those calls as their jaxpr too (the custom rules matter only to AD, which is
  done by the time a region is compiled), so the values are the same.
* **Keys as words.** A value of an extended dtype (a typed PRNG key, ``key<fry>``) whose
  storage is one record field of a Numba dtype (two ``uint32`` words) becomes a value of
  that field's dtype with the field's shape appended (``key<fry>[3]`` -> ``uint32[3, 2]``),
  the *physical* value. ``random_wrap``/``random_unwrap`` (``rules.native_key_views``) then
  hold the same words as their operand and disappear; the index-mapping primitives that
  move keys (slice, squeeze, reshape, broadcast, concatenate, select_n, dynamic slices,
  transpose, rev, copy) get their params extended over the trailing word axes
  (``_KEY_PARAMS``); loops and conds carry the words. Any other primitive on a key raises
  ``NotNative`` (the region stays in Python). ``physical_aval`` gives the mapping, and the
  kernel wrapper (``native._wrapper``) converts key arguments and results at the boundary.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.compile.native_emit import _DTYPES, NotNative
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var
from jaxlite._src.ops import (
    elementwise as _ew,
    shape as _shape,
    slicing as _slicing,
    structural as _structural,
)


def key_storage(dtype) -> tuple[str, np.dtype, tuple[int, ...]] | None:
    """(field, word dtype, word shape) of an extended dtype stored as one record field of a
    Numba dtype (a PRNG key: ``("key", uint32, (2,))``), else None."""
    if not isinstance(dtype, dtypes.ExtendedDType):
        return None
    storage = np.dtype(dtype.dtype)
    if storage.names is None or len(storage.names) != 1:
        return None
    field = storage.names[0]
    sub = storage.fields[field][0]
    base, shape = sub.subdtype if sub.subdtype is not None else (sub, ())
    if base not in _DTYPES:
        return None
    return field, base, tuple(int(d) for d in shape)


def physical_aval(aval):
    """``aval`` with a key dtype replaced by its words (trailing axes); others unchanged."""
    got = key_storage(getattr(aval, "dtype", None))
    if got is None:
        return aval
    _, base, words = got
    return ShapedArray(tuple(aval.shape) + words, base)


def _is_key(v) -> bool:
    return key_storage(getattr(v.aval, "dtype", None)) is not None


# --------------------------------------------------------- index maps over the key words
def _extra(eqn) -> int:
    """The number of trailing word axes of the equation's key operand."""
    for v in list(eqn.invars) + list(eqn.outvars):
        got = key_storage(getattr(v.aval, "dtype", None))
        if got is not None:
            return len(got[2])
    return 0


def _words(eqn) -> tuple[int, ...]:
    for v in list(eqn.invars) + list(eqn.outvars):
        got = key_storage(getattr(v.aval, "dtype", None))
        if got is not None:
            return got[2]
    return ()


def _slice_params(eqn, p):
    w = _words(eqn)
    strides = p["strides"]
    return dict(
        p,
        start_indices=tuple(p["start_indices"]) + (0,) * len(w),
        limit_indices=tuple(p["limit_indices"]) + w,
        strides=None if strides is None else tuple(strides) + (1,) * len(w),
    )


def _reshape_params(eqn, p):
    if p.get("dimensions") is not None:
        return None
    return dict(p, new_sizes=tuple(p["new_sizes"]) + _words(eqn))


def _broadcast_params(eqn, p):
    w = _words(eqn)
    n = len(p["shape"])
    return dict(
        p,
        shape=tuple(p["shape"]) + w,
        broadcast_dimensions=tuple(p["broadcast_dimensions"]) + tuple(range(n, n + len(w))),
    )


def _transpose_params(eqn, p):
    n = len(p["permutation"])
    return dict(p, permutation=tuple(p["permutation"]) + tuple(range(n, n + _extra(eqn))))


def _dynamic_slice_params(eqn, p):
    return dict(p, slice_sizes=tuple(p["slice_sizes"]) + _words(eqn))


def _same(eqn, p):
    return p


# Key-moving primitives: their params over the physical operands (None: not covered).
_KEY_PARAMS = {
    _shape.slice_p: _slice_params,
    _shape.squeeze_p: _same,  # squeezed axes are leading axes
    _shape.reshape_p: _reshape_params,
    _shape.broadcast_in_dim_p: _broadcast_params,
    _shape.concatenate_p: _same,
    _shape.transpose_p: _transpose_params,
    _shape.rev_p: _same,
    _slicing.dynamic_slice_p: _dynamic_slice_params,
    _slicing.dynamic_update_slice_p: _same,
    _ew.select_n_p: _same,
    _structural.copy_p: _same,
}

# Operands that index a key operand's leading axes: dynamic slices take one start per
# axis, so the word axes get a start of 0 (an int32 literal).
_ZERO = Literal(np.int32(0), ShapedArray((), np.dtype("int32")))


# ------------------------------------------------------------------------------ the pass
def prepare(closed: ClosedJaxpr) -> ClosedJaxpr:
    """``closed`` with calls inlined and keys as words (see the module docstring); the same
    object when there is nothing to change. Raises ``NotNative`` for a key operation it
    does not map."""
    if not _needs_work(closed.jaxpr):
        return closed
    constvars, consts = [], []
    out = _rewrite(closed.jaxpr, list(closed.consts), constvars, consts)
    return ClosedJaxpr(out, consts)


def _needs_work(jaxpr: Jaxpr) -> bool:
    for eqn in jaxpr.eqns:
        if eqn.primitive in rules.native_inline or eqn.primitive in rules.native_key_views:
            return True
        if any(_is_key(v) for v in list(eqn.invars) + list(eqn.outvars)):
            return True
        if any(_needs_work(c.jaxpr) for c in sub_closed(eqn.params)):
            return True
    return any(_is_key(v) for v in list(jaxpr.invars) + list(jaxpr.constvars))


def sub_closed(params) -> list[ClosedJaxpr]:
    """The closed jaxprs among an equation's params (bodies, branches, called jaxprs)."""
    out = []
    for v in params.values():
        if isinstance(v, ClosedJaxpr):
            out.append(v)
        elif isinstance(v, tuple):
            out.extend(b for b in v if isinstance(b, ClosedJaxpr))
    return out


def _physical_const(c: Any):
    got = key_storage(getattr(c, "dtype", None))
    if got is None:
        return c
    arr = getattr(c, "_value", c)  # an Array's NumPy buffer
    return np.ascontiguousarray(np.asarray(arr)[got[0]])


def _rewrite(jaxpr: Jaxpr, in_consts: list, constvars: list, consts: list) -> Jaxpr:
    """``jaxpr`` rewritten; its own constants (``in_consts``) and those of inlined calls
    are appended to ``constvars``/``consts`` (the enclosing ClosedJaxpr's)."""
    env: dict[int, Any] = {}

    def new_var(v):
        nv = Var(physical_aval(v.aval)) if _is_key(v) else v
        env[id(v)] = nv
        return nv

    def read(v):
        return v if type(v) is Literal else env.get(id(v), v)

    for v, c in zip(jaxpr.constvars, in_consts):
        constvars.append(new_var(v))
        consts.append(_physical_const(c))
    invars = [new_var(v) for v in jaxpr.invars]
    eqns: list[JaxprEqn] = []
    _rewrite_eqns(jaxpr.eqns, env, read, new_var, eqns, constvars, consts)
    return Jaxpr(list(constvars), invars, [read(v) for v in jaxpr.outvars], eqns)


def _rewrite_eqns(src, env, read, new_var, eqns, constvars, consts) -> None:
    for eqn in src:
        prim = eqn.primitive
        ins = [read(v) for v in eqn.invars]
        if any(type(v) is Literal and _is_key(v) for v in ins):
            raise NotNative("a literal key")
        param = rules.native_inline.get(prim)
        if param is not None:
            inner: ClosedJaxpr = eqn.params[param]
            ienv: dict[int, Any] = {}

            def iread(v, ienv=ienv):
                return v if type(v) is Literal else ienv[id(v)]

            def inew(v, ienv=ienv):
                nv = Var(physical_aval(v.aval))
                ienv[id(v)] = nv
                return nv

            for v, c in zip(inner.jaxpr.constvars, inner.consts):
                constvars.append(inew(v))
                consts.append(_physical_const(c))
            for v, x in zip(inner.jaxpr.invars, ins):
                ienv[id(v)] = x
            _rewrite_eqns(inner.jaxpr.eqns, ienv, iread, inew, eqns, constvars, consts)
            for v, iv in zip(eqn.outvars, inner.jaxpr.outvars):
                env[id(v)] = iread(iv)
            continue
        if prim in rules.native_key_views:
            (x,) = ins
            (o,) = eqn.outvars
            if physical_aval(o.aval).shape != x.aval.shape:
                raise NotNative(f"{prim} of other words")
            env[id(o)] = x
            continue
        params = eqn.params
        subs = sub_closed(params)
        if subs:
            params = {k: _sub_param(v) for k, v in params.items()}
        elif any(_is_key(v) for v in list(eqn.invars) + list(eqn.outvars)):
            rule = _KEY_PARAMS.get(prim)
            params = None if rule is None else rule(eqn, params)
            if params is None:
                raise NotNative(f"{prim} on PRNG keys")
            if prim in (_slicing.dynamic_slice_p, _slicing.dynamic_update_slice_p):
                ins = ins + [_ZERO] * _extra(eqn)
            elif prim is _ew.select_n_p and ins[0].aval.shape != ():
                raise NotNative("select_n of keys with an array predicate")
        outs = [new_var(v) for v in eqn.outvars]
        if params is eqn.params and ins == list(eqn.invars) and outs == list(eqn.outvars):
            eqns.append(eqn)
        else:
            eqns.append(JaxprEqn(prim, ins, outs, params, eqn.effects))


def _sub_param(v):
    if isinstance(v, ClosedJaxpr):
        return prepare(v)
    if isinstance(v, tuple) and any(isinstance(b, ClosedJaxpr) for b in v):
        return tuple(prepare(b) if isinstance(b, ClosedJaxpr) else b for b in v)
    return v
