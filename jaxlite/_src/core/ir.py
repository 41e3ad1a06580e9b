"""The jaxpr IR: typed variables, literals, equations, jaxprs and closed jaxprs.

Invariants (checked by ``check_jaxpr``):

* every variable is defined once (as a constvar, invar or equation output) before use;
* each equation's output avals are what its primitive's abstract-eval rule gives for its
  input avals, and its effects are what its effects rule gives;
* a jaxpr's ``effects`` is the union of its equations' effects.

Jaxprs are immutable by convention: passes build new ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src import dtypes
from jaxlite._src.config import config as _config
from jaxlite._src.core import rules
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.effects import join_effects
from jaxlite._src.core.errors import JaxprTypeError


class Var:
    """A jaxpr variable with an abstract value. Compared by identity."""

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray):
        self.aval = aval

    def __repr__(self):
        return f"Var({self.aval.str_short(short_dtypes=True)})"


class Literal:
    """A scalar constant written inline in a jaxpr."""

    __slots__ = ("val", "aval")

    def __init__(self, val: Any, aval: ShapedArray):
        self.val = np.asarray(val, dtype=aval.dtype)
        self.aval = aval

    def __repr__(self):
        return f"Literal({self.val})"


class JaxprEqn:
    __slots__ = ("primitive", "invars", "outvars", "params", "effects")

    def __init__(self, primitive, invars, outvars, params, effects):
        self.primitive = primitive
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.params = dict(params)
        self.effects = frozenset(effects)

    def replace(self, **kw) -> JaxprEqn:
        d = dict(
            primitive=self.primitive,
            invars=self.invars,
            outvars=self.outvars,
            params=self.params,
            effects=self.effects,
        )
        d.update(kw)
        return JaxprEqn(**d)

    def __repr__(self):
        return pp_eqn(self, _Names())


class Jaxpr:
    __slots__ = ("constvars", "invars", "outvars", "eqns", "effects")

    def __init__(self, constvars, invars, outvars, eqns, effects=None):
        self.constvars = list(constvars)
        self.invars = list(invars)
        self.outvars = list(outvars)
        self.eqns = list(eqns)
        self.effects = (
            frozenset(effects)
            if effects is not None
            else join_effects(*(e.effects for e in self.eqns))
        )

    @property
    def in_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.invars]

    @property
    def out_avals(self) -> list[ShapedArray]:
        return [v.aval for v in self.outvars]

    debug_info = None  # jaxlite records no source information

    def replace(self, **kw) -> Jaxpr:
        """A copy with the given fields (``constvars invars outvars eqns effects``)."""
        d = {k: getattr(self, k) for k in ("constvars", "invars", "outvars", "eqns")}
        d["effects"] = kw.pop("effects", None if "eqns" in kw else self.effects)
        kw.pop("debug_info", None)
        d.update(kw)
        return Jaxpr(**d)

    def __str__(self):
        return pp_jaxpr(self)

    __repr__ = __str__


class ClosedJaxpr:
    """A jaxpr together with the values of its constvars."""

    __slots__ = ("jaxpr", "consts", "__weakref__")

    def __init__(self, jaxpr: Jaxpr, consts: Sequence[Any]):
        assert len(jaxpr.constvars) == len(consts), (len(jaxpr.constvars), len(consts))
        self.jaxpr = jaxpr
        self.consts = list(consts)
        # jax_enable_checks: every pass returns its result as a ClosedJaxpr, so checking
        # here checks what each pass produces (staging, jvp, batching, partial eval,
        # transposition, DCE, simplification, closure conversion, remat...).
        if _config._values["jax_enable_checks"]:
            check_jaxpr(jaxpr)

    @property
    def in_avals(self):
        return self.jaxpr.in_avals

    @property
    def out_avals(self):
        return self.jaxpr.out_avals

    @property
    def effects(self):
        return self.jaxpr.effects

    @property
    def eqns(self):
        return self.jaxpr.eqns

    # The rest of JAX's ClosedJaxpr surface, read by libraries that walk jaxprs
    # (distrax's Lambda bijector inverts ``make_jaxpr(f)`` through ``.literals``).
    @property
    def literals(self):
        return self.consts

    @property
    def constvars(self):
        return self.jaxpr.constvars

    @property
    def invars(self):
        return self.jaxpr.invars

    @property
    def outvars(self):
        return self.jaxpr.outvars

    def replace(self, *, jaxpr: Jaxpr | None = None, consts: Sequence[Any] | None = None):
        """A copy with a new ``jaxpr`` and/or ``consts``."""
        return ClosedJaxpr(
            self.jaxpr if jaxpr is None else jaxpr, self.consts if consts is None else consts
        )

    def map_jaxpr(self, f) -> ClosedJaxpr:
        """``ClosedJaxpr(f(self.jaxpr), self.consts)``."""
        return ClosedJaxpr(f(self.jaxpr), self.consts)

    def __str__(self):
        return pp_jaxpr(self.jaxpr)

    __repr__ = __str__

    def pretty_print(self, **kw) -> str:
        return str(self)

    # Closed jaxprs appear in params; compared by identity.
    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other


def jaxpr_forwarding(jaxpr: Jaxpr) -> list:
    """For each output of ``jaxpr``: the index of the input variable it is, else None."""
    pos = {id(v): i for i, v in enumerate(jaxpr.invars)}
    return [None if type(v) is Literal else pos.get(id(v)) for v in jaxpr.outvars]


def closed_call_effects(closed: ClosedJaxpr) -> frozenset:
    return closed.jaxpr.effects


# ---------------------------------------------------------------------- pretty print


class _Names:
    def __init__(self):
        self.names: dict[int, str] = {}

    def __call__(self, v) -> str:
        if isinstance(v, Literal):
            val = v.val
            if val.dtype == np.bool_:
                s = str(bool(val))
            elif dtypes.is_float(val.dtype) or dtypes.is_complex(val.dtype):
                s = repr(val.item()) if val.dtype != dtypes.bfloat16 else str(float(val))
            else:
                s = str(val.item())
            return f"{s}:{v.aval.str_short(short_dtypes=True)}"
        key = id(v)
        if key not in self.names:
            self.names[key] = _letters(len(self.names))
        return self.names[key]


_WIDTH = 80


def _letters(i: int) -> str:
    s = ""
    i += 1
    while i > 0:
        i, r = divmod(i - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def _pp_param(v: Any, indent: int) -> str:
    if isinstance(v, ClosedJaxpr):
        v = v.jaxpr
    if isinstance(v, Jaxpr):
        text = pp_jaxpr(v)
        pad = " " * (indent + 2)
        return text.replace("\n", "\n" + pad)
    if isinstance(v, tuple) and v and all(isinstance(x, (Jaxpr, ClosedJaxpr)) for x in v):
        return (
            "(\n"
            + "".join(" " * (indent + 2) + _pp_param(x, indent + 2) + "\n" for x in v)
            + " " * indent
            + ")"
        )
    if isinstance(v, np.dtype):
        return v.name
    if callable(v) and hasattr(v, "__name__"):
        return v.__name__
    return str(v)


def pp_eqn(eqn: JaxprEqn, names: _Names, indent: int = 4) -> str:
    outs = " ".join(f"{names(v)}:{v.aval.str_short(short_dtypes=True)}" for v in eqn.outvars) or "_"
    params = ""
    if eqn.params:
        items = [f"{k}={_pp_param(v, indent + 2)}" for k, v in sorted(eqn.params.items())]
        outs_len = len(outs) + len(eqn.primitive.name) + 3 + indent
        one_line = (
            outs_len
            + sum(len(it) + 1 for it in items)
            + 1
            + sum(len(names(v)) + 1 for v in eqn.invars)
        )
        if any("\n" in it for it in items) or one_line > _WIDTH:
            pad = " " * (indent + 2)
            params = "[\n" + "".join(pad + it + "\n" for it in items) + " " * indent + "]"
        else:
            params = "[" + " ".join(items) + "]"
    args = " ".join(names(v) for v in eqn.invars)
    return f"{outs} = {eqn.primitive.name}{params} {args}".rstrip()


def pp_jaxpr(jaxpr: Jaxpr) -> str:
    names = _Names()
    consts = " ".join(f"{names(v)}:{v.aval.str_short(short_dtypes=True)}" for v in jaxpr.constvars)
    ins = " ".join(f"{names(v)}:{v.aval.str_short(short_dtypes=True)}" for v in jaxpr.invars)
    eqns = [pp_eqn(e, names) for e in jaxpr.eqns]
    outs = ", ".join(names(v) for v in jaxpr.outvars)
    outs = f"({outs},)" if len(jaxpr.outvars) == 1 else f"({outs})"
    head = f"{{ lambda {consts}; {ins}. let"
    if not any("\n" in e for e in eqns):
        # One line when it fits the page width (as JAX's printer does).
        one_line = f"{head} {'; '.join(eqns)} in {outs} }}"
        if len(one_line) <= _WIDTH:
            return one_line
    return head + "\n" + "".join("    " + e + "\n" for e in eqns) + f"  in {outs} }}"


# ---------------------------------------------------------------------- type checking


def check_jaxpr(jaxpr: Jaxpr) -> None:
    """Type-check ``jaxpr``; raises ``JaxprTypeError`` naming the offending equation."""
    defined: set[int] = set()

    def read(v, where):
        if isinstance(v, Literal):
            if np.shape(v.val) != v.aval.shape:
                raise JaxprTypeError(f"literal {v} has aval {v.aval} in {where}")
            return v.aval
        if id(v) not in defined:
            raise JaxprTypeError(f"variable {v} used before it is defined, in {where}")
        return v.aval

    def write(v, where):
        if id(v) in defined:
            raise JaxprTypeError(f"variable {v} defined twice, in {where}")
        defined.add(id(v))

    for v in jaxpr.constvars:
        write(v, "constvars")
    for v in jaxpr.invars:
        write(v, "invars")
    names = _Names()
    for eqn in jaxpr.eqns:
        where = f"equation `{pp_eqn(eqn, names)}`"
        avals_in = [read(v, where) for v in eqn.invars]
        rule = rules.abstract_eval_rules.get(eqn.primitive)
        if rule is None:
            raise JaxprTypeError(f"no abstract_eval rule for {eqn.primitive} in {where}")
        avals_out = rule(*avals_in, **eqn.params)
        if not eqn.primitive.multiple_results:
            avals_out = [avals_out]
        if len(avals_out) != len(eqn.outvars):
            raise JaxprTypeError(f"wrong number of outputs in {where}")
        for v, a in zip(eqn.outvars, avals_out):
            if (v.aval.shape, v.aval.dtype) != (a.shape, a.dtype):
                raise JaxprTypeError(
                    f"output aval {v.aval} does not match rule result {a} in {where}"
                )
        eff_rule = rules.effects_rules.get(eqn.primitive)
        effs = frozenset(eff_rule(*avals_in, **eqn.params)) if eff_rule else frozenset()
        if effs != eqn.effects:
            raise JaxprTypeError(f"effects {set(eqn.effects)} != {set(effs)} in {where}")
        for sub in _sub_jaxprs(eqn.params):
            check_jaxpr(sub)
        for v in eqn.outvars:
            write(v, where)
    for v in jaxpr.outvars:
        read(v, "outvars")


def _sub_jaxprs(params: dict):
    for v in params.values():
        if isinstance(v, ClosedJaxpr):
            yield v.jaxpr
        elif isinstance(v, Jaxpr):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, ClosedJaxpr):
                    yield x.jaxpr
                elif isinstance(x, Jaxpr):
                    yield x


def subjaxprs(jaxpr: Jaxpr):
    """Every jaxpr nested in ``jaxpr``'s equation params (one level)."""
    for eqn in jaxpr.eqns:
        yield from _sub_jaxprs(eqn.params)


def closure_convert_consts(closed: ClosedJaxpr) -> tuple[ClosedJaxpr, list]:
    """Turn a closed jaxpr's consts into leading invars (so tracers among them become
    ordinary operands that transformations see)."""
    j = closed.jaxpr
    if not j.constvars:
        return closed, []
    new = Jaxpr([], list(j.constvars) + list(j.invars), j.outvars, j.eqns, j.effects)
    return ClosedJaxpr(new, []), list(closed.consts)
