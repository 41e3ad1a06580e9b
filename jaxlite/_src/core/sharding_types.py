"""Sharding types of Explicit mesh axes: the vocabulary of ``rules.sharding_rules`` (S8).

On a mesh whose axes are ``AxisType.Explicit`` the sharding is part of an array's type:
every primitive computes its result's spec from its operands' specs, or raises
``ShardingTypeError``. The rules only see specs over the Explicit axes, as tuples with one
entry per dimension (``None`` or a tuple of mesh axis names, the first name major); the
sharding layer (``sharding/explicit.py``) converts shardings to these tuples and back and
checks that all operands share one mesh.

This module holds what the rules of every ``ops/`` family share: the spec helpers, JAX's
type strings for error messages (``float32[8@x,8@y]``), the rule of elementwise primitives,
and ``relaxed()``: inside it rules that would raise fall back to a permissive result. The
transpose interpreter and ``out_sharding=`` arguments use it (JAX's transpose rules pass the
primal's sharding explicitly, which jaxlite's avals do not carry).
"""

from __future__ import annotations

import contextlib
import math

from jaxlite._src import config as _cfg, dtypes
from jaxlite._src.core.errors import ShardingTypeError

__all__ = [
    "ShardingTypeError",
    "broadcasting_rule",
    "check_no_duplicates",
    "entry_repr",
    "named_repr",
    "relaxed",
    "same_spec_rule",
    "spec_repr",
    "type_str",
]

# > 0 while rules must not raise (transposition, ``out_sharding=`` computations).
_relaxed = [0]


@contextlib.contextmanager
def relaxed():
    """Rules that would raise ``ShardingTypeError`` return a permissive result instead.

    A trace reads the mode, so it is named in jit's cache key (``config.epoch``)."""
    _relaxed[0] += 1
    _cfg.set_global_trace_context("sharding_relaxed", True)
    try:
        yield
    finally:
        _relaxed[0] -= 1
        if not _relaxed[0]:
            _cfg.set_global_trace_context("sharding_relaxed", None)


def is_relaxed() -> bool:
    return _relaxed[0] > 0


def entry_repr(e):
    """A spec entry as JAX prints it: ``None``, ``'x'`` or ``('x', 'y')``."""
    if not e:
        return None
    return e[0] if len(e) == 1 else tuple(e)


def spec_repr(spec) -> str:
    """``('x', 'y')``, ``(None, 'x')``: a spec tuple as JAX's messages print it."""
    return repr(tuple(entry_repr(e) for e in spec))


def p_repr(spec) -> str:
    """``P('x', None)`` (``P('x',)`` for one entry)."""
    body = ", ".join(repr(entry_repr(e)) for e in spec)
    return f"P({body}{',' if len(spec) == 1 else ''})"


def named_repr(mesh, spec) -> str:
    """A ``NamedSharding`` over the abstract mesh, as JAX's messages print it."""
    return f"NamedSharding(mesh={mesh!r}, spec={p_repr(spec)})"


def type_str(aval, spec, short: bool = False) -> str:
    """``float32[8@x,8@(x,y)]`` (``f32[...]`` with ``short``): an aval with its spec."""
    dims = []
    for n, e in zip(aval.shape, spec):
        if not e:
            dims.append(str(n))
        elif len(e) == 1:
            dims.append(f"{n}@{e[0]}")
        else:
            dims.append(f"{n}@({','.join(e)})")
    name = dtypes.short_name(aval.dtype) if short else aval.dtype.name
    return f"{name}[{','.join(dims)}]"


def axes_size(mesh, e) -> int:
    return math.prod(mesh.shape[n] for n in e) if e else 1


def check_no_duplicates(name, specs, avals_in, aval_out, out) -> None:
    """A result may name each mesh axis once (``... produces an illegally sharded result``)."""
    seen = [n for e in out if e for n in e]
    if len(seen) != len(set(seen)) and not is_relaxed():
        ins = ", ".join(type_str(a, s, True) for a, s in zip(avals_in, specs))
        raise ShardingTypeError(
            f"{name} operation with inputs: {ins} produces an illegally sharded result: "
            f"{type_str(aval_out, out, True)}"
        )


def merge_dims(name, specs, avals, aval_out):
    """Per dimension, the one axis tuple the operands name (``None`` loses). Operands of
    rank 0 broadcast; a size-1 dimension against a larger one takes the larger's entry."""
    nd = len(aval_out.shape)
    ranked = [(s, a) for s, a in zip(specs, avals) if len(a.shape) == nd and nd]
    out = []
    for d in range(nd):
        got = None
        for s, _ in ranked:
            e = s[d]
            if not e:
                continue
            if got is None:
                got = e
            elif got != e:
                if is_relaxed():
                    continue
                raise ShardingTypeError(
                    f"{name} got incompatible shardings for broadcasting: "
                    + ", ".join(spec_repr(s) for s, _ in ranked)
                    + "."
                )
        out.append(got)
    out = tuple(out)
    check_no_duplicates(name, [s for s, _ in ranked], [a for _, a in ranked], aval_out, out)
    return out


def broadcasting_rule(name: str):
    """The rule of an elementwise primitive named ``name`` (one result)."""

    def rule(mesh, specs, avals_in, avals_out, **params):
        return merge_dims(name, specs, avals_in, avals_out)

    return rule


def same_spec_rule(mesh, specs, avals_in, avals_out, **params):
    """The result has the (first) operand's spec: casts, copies, ``rev``..."""
    if isinstance(avals_out, (list, tuple)):
        return [specs[0]] * len(avals_out)
    return specs[0]
