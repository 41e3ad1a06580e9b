"""Emission of native-tier kernels: a jaxpr as Numba-compilable Python source.

``NativeContext.emit`` walks a jaxpr and calls each equation's ``rules.native_rules`` entry.
Two representations of a value exist in a kernel:

* an *array* name (or a fused array expression); values of shape ``()`` are Numba scalars
  of their exact dtype;
* *scalarized*: a small array (1 to ``_SCALAR_MAX`` elements, e.g. the float32[3] state of
  an ODE integrator) held as one scalar local per element, in C order. Numba allocates
  every new array on the heap, and in a loop body of small-array operations that
  allocation costs more than the arithmetic; scalar locals live in registers.

An equation whose outputs are small is emitted element by element when it can be:
elementwise primitives (``rules.native_elementwise``) by applying their own native rule to
scalar operands (the same IEEE operations as the array form, so results are unchanged),
index-mapping and reducing primitives by their ``rules.native_scalar_rules`` entry.
Anything else reads its operands as arrays (a scalarized value is then materialized once,
into a new array). Loop rules keep small carries scalarized across iterations.
"""

from __future__ import annotations

import importlib.util
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxlite._src.core import rules
from jaxlite._src.core.array import ArrayImpl
from jaxlite._src.core.avals import ShapedArray
from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Var

# Arrays with at most this many elements are scalarized (code size grows with it: one line
# per element and operation).
_SCALAR_MAX = 16
# The largest kernel (lines of source) handed to Numba; a larger region stays in Python.
# Numba's compile time and memory grow faster than linearly with a function's size: the
# loop of ``jnp.gcd`` on a small array, scalarized, was ~16,000 lines, and compiling it took
# more than 6 GB (it killed a test worker). blackjax's NUTS step loop is ~1,100 lines;
# numpyro's whole warmup-and-sample chain (~3,650 lines) was still compiling after 40
# minutes on a loaded 2-core machine, and its trajectory loop (~2,100 lines) took minutes:
# in "auto" mode such a compile burns a background core for longer than most runs last.
_MAX_LINES = 2000


class NotNative(Exception):
    """Raised while emitting a kernel for a construct outside the native subset."""


_DTYPES = {
    np.dtype(n): n
    for n in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
    )
}


def _index(shape, k: int) -> str:
    """The subscript ``[i, j, ...]`` of flat (C-order) element ``k`` of ``shape``."""
    idx = np.unravel_index(k, shape) if shape else ()
    return "[" + ", ".join(str(int(i)) for i in idx) + "]"


class _Operand:
    """A rule's view of one operand on the scalarized path: its elements (read lazily from
    the array form when the value is not scalarized) or its array form."""

    __slots__ = ("_env", "_v", "aval")

    def __init__(self, env: _Env, v):
        self._env, self._v, self.aval = env, v, v.aval

    @property
    def scalarized(self) -> bool:
        return type(self._v) is not Literal and id(self._v) in self._env.elems

    def elem(self, k: int) -> str:
        return self._env.elem(self._v, k)

    def elems(self) -> list[str]:
        return [self.elem(k) for k in range(math.prod(self.aval.shape))]

    def array(self) -> str:
        return self._env.array(self._v)


class _Env:
    """The values of one jaxpr being emitted: array names and scalarized element names."""

    def __init__(self, ctx: NativeContext, lines: list[str]):
        self.ctx, self.lines = ctx, lines
        self.arrays: dict[int, str] = {}
        self.elems: dict[int, list[str]] = {}
        self._reads: dict[int, dict[int, str]] = {}  # elements read from an array form

    def bind(self, v, value) -> None:
        if isinstance(value, list):
            if v.aval.shape == ():
                self.arrays[id(v)] = value[0]
            else:
                self.elems[id(v)] = value
        else:
            self.arrays[id(v)] = value

    def array(self, v) -> str:
        if type(v) is Literal:
            return self.ctx.literal(v)
        name = self.arrays.get(id(v))
        if name is None:  # scalarized: materialize once
            name = self.arrays[id(v)] = self.ctx.fresh("m")
            self.lines.extend(self.ctx.materialize(name, self.elems[id(v)], v.aval))
        return name

    def elem(self, v, k: int) -> str:
        if type(v) is not Literal:
            got = self.elems.get(id(v))
            if got is not None:
                return got[k]
        if v.aval.shape == ():
            return self.array(v)
        name = self.array(v)
        if not name.isidentifier():  # a fused array expression: evaluate it once
            tmp = self.ctx.fresh("t")
            self.lines.append(f"{tmp} = {name}")
            name = self.arrays[id(v)] = tmp
        cache = self._reads.setdefault(id(v), {})
        if k not in cache:
            e = cache[k] = self.ctx.fresh("e")
            self.lines.append(f"{e} = {name}{_index(v.aval.shape, k)}")
        return cache[k]

    def result(self, v, scalar: bool):
        if scalar and type(v) is not Literal and self.ctx.small(v.aval):
            got = self.elems.get(id(v))
            if got is not None:
                return list(got)
        return self.array(v)


class NativeContext:
    """State for emitting one kernel: fresh names and the constants passed as arguments.

    Rules call ``typed`` to re-cast scalar results, ``const`` to pass a value in,
    ``dtype`` for a dtype's Numba-visible name, ``helper`` to call one of jaxlite's own
    Numba functions (e.g. ``random/_xla_numba``) and ``emit`` to inline a sub-jaxpr. A value
    handed to or returned by ``emit`` is a name (array form) or, for a scalarized small
    array, a list of element names; ``elements`` and ``materialize`` convert.
    """

    def __init__(self):
        self._counter = 0
        self.const_names: list[str] = []
        self.const_values: list[Any] = []
        self._const_ids: dict[Any, str] = {}
        self._keep: list[Any] = []
        self.scalar_outs: dict[str, list[str]] = {}
        self.helpers: dict[tuple[str, str], str] = {}
        self.helper_deps: dict[str, None] = {}  # modules whose source the kernel depends on

    def fresh(self, prefix: str = "t") -> str:
        assert "_" not in prefix
        self._counter += 1
        return f"{prefix}{self._counter}"

    def dtype(self, dt) -> str:
        name = _DTYPES.get(np.dtype(dt))
        if name is None:
            raise NotNative(f"dtype {dt}")
        return "np.bool_" if name == "bool" else f"np.{name}"

    def typed(self, expr: str, aval) -> str:
        """``expr`` as a value of ``aval``'s dtype (scalars are re-cast; array expressions
        of same-dtype operands already have the dtype)."""
        if aval.shape == ():
            return f"{self.dtype(aval.dtype)}({expr})"
        return expr

    def const(self, value: Any) -> str:
        """A kernel argument holding ``value`` (a NumPy array; shape () becomes a scalar,
        one argument per distinct dtype and value)."""
        key = id(value)
        name = self._const_ids.get(key)
        if name is not None:
            return name
        arr = value._value if type(value) is ArrayImpl else np.asarray(value)
        if arr.shape == () and arr.dtype in _DTYPES:
            skey = ("scalar", arr.dtype.str, arr.tobytes())
            name = self._const_ids.get(skey)
            if name is None:
                name = self._const_ids[skey] = self._new_const(arr)
            return name
        if arr.dtype not in _DTYPES:
            raise NotNative(f"constant of dtype {arr.dtype}")
        name = self._const_ids[key] = self._new_const(arr)
        self._keep.append(value)  # keeps ``id(value)`` unique while this context lives
        return name

    def _new_const(self, arr: np.ndarray) -> str:
        name = f"c__{len(self.const_names)}"  # never a fresh() name (those have no "_")
        self.const_names.append(name)
        self.const_values.append(arr[()] if arr.shape == () else np.ascontiguousarray(arr))
        return name

    def helper(self, module: str, name: str, deps: Sequence[str] = ()) -> str:
        """The kernel-local name of ``module.name``, a Numba-compiled function of jaxlite's
        own (never user code): the kernel module imports it, and names the source hashes of
        ``module`` and of the modules in ``deps`` (where its constants come from) in
        comments, so a changed helper makes a new kernel file (and disk-cache entry)."""
        alias = self.helpers.get((module, name))
        if alias is None:
            alias = self.helpers[(module, name)] = f"h__{len(self.helpers)}"
            self.helper_deps.update(dict.fromkeys((module, *deps)))
        return alias

    def map_helper(self, fn: str, x: str, out: str, aval) -> list[str]:
        """Lines setting ``out`` to the scalar helper ``fn`` (a ``helper`` alias) applied to
        every element of ``x`` (of ``aval``'s shape and dtype): a call for a scalar, else
        one parallel loop over the flat operand."""
        if aval.shape == ():
            return [f"{out} = {fn}({x})"]
        shape = tuple(int(d) for d in aval.shape)
        n = int(np.prod(shape, dtype=np.int64))
        j, flat, o = self.fresh("j"), self.fresh("w"), self.fresh("o")
        return [
            f"{flat} = np.ascontiguousarray({x}).reshape(-1)",
            f"{o} = np.empty({n}, {self.dtype(aval.dtype)})",
            f"for {j} in prange({n}):",
            f"    {o}[{j}] = {fn}({flat}[{j}])",
            f"{out} = {o}.reshape({shape!r})",
        ]

    def elementwise_loop(self, eqn, ins: Sequence[str], outs: Sequence[str], scalar_rule):
        """Lines applying ``scalar_rule`` (a native rule for shape-``()`` operands, any
        number of lines) to every element of ``eqn``'s operands (of the result's shape, or
        ``()``): the rule itself on scalars, else one loop over the flat operands. None
        where the rule declines or the operands broadcast otherwise."""
        shape = tuple(int(d) for d in eqn.outvars[0].aval.shape)
        if shape == ():
            return scalar_rule(self, eqn, ins, outs)
        if any(tuple(v.aval.shape) not in (shape, ()) for v in eqn.invars):
            return None
        n = math.prod(shape)
        j = self.fresh("j")
        lines, body, elems = [], [], []
        for v, x in zip(eqn.invars, ins):
            if v.aval.shape == ():
                elems.append(x)
                continue
            w, e = self.fresh("w"), self.fresh("e")
            lines.append(f"{w} = np.ascontiguousarray({x}).reshape(-1)")
            body.append(f"{e} = {w}[{j}]")
            elems.append(e)
        names = [self.fresh("e") for _ in eqn.outvars]
        got = scalar_rule(self, self.scalar_eqn(eqn), elems, names)
        if got is None:
            return None
        body += got
        flat = [self.fresh("o") for _ in eqn.outvars]
        for o, v, e in zip(flat, eqn.outvars, names):
            lines.append(f"{o} = np.empty({n}, {self.dtype(v.aval.dtype)})")
            body.append(f"{o}[{j}] = {e}")
        lines.append(f"for {j} in prange({n}):")
        lines += ["    " + b for b in body]
        return lines + [f"{out} = {o}.reshape({shape!r})" for out, o in zip(outs, flat)]

    def literal(self, v: Literal) -> str:
        """The kernel argument of a literal (one per distinct dtype and value)."""
        val = np.asarray(v.val, v.aval.dtype).reshape(v.aval.shape)
        key = ("literal", val.dtype.str, val.shape, val.tobytes())
        name = self._const_ids.get(key)
        if name is None:
            name = self._const_ids[key] = self.const(val)
        return name

    # ------------------------------------------------------------------- scalarization
    def small(self, aval) -> bool:
        """Is ``aval`` an array held as scalar locals when possible?"""
        shape = getattr(aval, "shape", ())
        return (
            shape != ()
            and 0 < math.prod(shape) <= _SCALAR_MAX
            and getattr(aval, "dtype", None) in _DTYPES
        )

    def subscripts(self, aval, lead: str | None = None) -> list[str]:
        """``[i, j]`` of each element of ``aval`` in C order (``[lead, i, j]`` with ``lead``)."""
        subs = [_index(aval.shape, k) for k in range(math.prod(aval.shape))]
        return subs if lead is None else [f"[{lead}, {s[1:]}" for s in subs]

    def elements(self, x, aval) -> list[str]:
        """The element expressions of ``x`` (a list of element names, or an array name)."""
        if isinstance(x, list):
            return list(x)
        return [f"{x}{_index(aval.shape, k)}" for k in range(math.prod(aval.shape))]

    def materialize(self, name: str, elems: Sequence[str], aval) -> list[str]:
        """Lines assigning to ``name`` a new array of ``aval`` holding ``elems``."""
        shape = "".join(f"{int(d)}, " for d in aval.shape)
        lines = [f"{name} = np.empty(({shape}), {self.dtype(aval.dtype)})"]
        return lines + [f"{name}{_index(aval.shape, k)} = {e}" for k, e in enumerate(elems)]

    def scalar_eqn(self, eqn) -> JaxprEqn:
        """``eqn`` on shape-() operands of the same dtypes (for elementwise rules)."""

        def scal(v):
            a = ShapedArray((), v.aval.dtype, getattr(v.aval, "weak_type", False))
            return Literal(v.val.reshape(-1)[0], a) if type(v) is Literal else Var(a)

        ins, outs = [scal(v) for v in eqn.invars], [scal(v) for v in eqn.outvars]
        return JaxprEqn(eqn.primitive, ins, outs, eqn.params, eqn.effects)

    def _try_scalar(self, env: _Env, eqn) -> list | None:
        """Element names of each output of ``eqn`` emitted on the scalarized path, or None
        (nothing emitted but possibly element reads) when it takes the array path."""
        outs = eqn.outvars
        if not outs or not all(v.aval.shape == () or self.small(v.aval) for v in outs):
            return None
        if not any(self.small(v.aval) for v in outs) and not any(
            type(v) is not Literal and id(v) in env.elems for v in eqn.invars
        ):
            return None
        prim = eqn.primitive
        if prim in rules.native_elementwise:
            return self._scalar_elementwise(env, eqn)
        rule = rules.native_scalar_rules.get(prim)
        if rule is None:
            return None
        got = rule(self, eqn, [_Operand(env, v) for v in eqn.invars])
        if got is None:
            return None
        lines, outs = got
        env.lines.extend(lines)
        return outs

    def _scalar_elementwise(self, env: _Env, eqn) -> list | None:
        shape = tuple(eqn.outvars[0].aval.shape)
        if any(
            v.aval.shape not in ((), shape) and len(v.aval.shape) != len(shape) for v in eqn.invars
        ):
            return None
        rule = rules.native_rules[eqn.primitive]
        sc = self.scalar_eqn(eqn)
        n = math.prod(shape)
        res: list[list[str]] = [[] for _ in eqn.outvars]
        for k in range(n):
            idx = np.unravel_index(k, shape) if shape else ()
            ins = []
            for v in eqn.invars:
                s = v.aval.shape
                if s == () or s == shape:
                    ins.append(env.elem(v, k) if s else env.array(v))
                else:  # size-1 dimensions broadcast
                    j = int(np.ravel_multi_index([i if d != 1 else 0 for i, d in zip(idx, s)], s))
                    ins.append(env.elem(v, j))
            names = [self.fresh("e") for _ in eqn.outvars]
            got = rule(self, sc, ins, names)
            if got is None:
                return None
            env.lines.extend(got)
            for r, name in zip(res, names):
                r.append(name)
        return res

    # ---------------------------------------------------------------------- emission
    def emit(
        self, closed: ClosedJaxpr, in_names: Sequence, scalar_results: bool = False
    ) -> tuple[list[str], list]:
        """Lines computing ``closed`` from ``in_names``, and its outputs (names; with
        ``scalar_results``, element-name lists for scalarized small outputs)."""
        env = self._env(closed, in_names)
        inlinable = _inlinable(closed.jaxpr)
        for eqn in closed.jaxpr.eqns:
            self._emit_eqn(env, eqn, inlinable)
        return env.lines, [env.result(v, scalar_results) for v in closed.jaxpr.outvars]

    def _env(self, closed: ClosedJaxpr, in_names: Sequence) -> _Env:
        env = _Env(self, [])
        for v, c in zip(closed.jaxpr.constvars, closed.consts):
            env.bind(v, self.const(c))
        for v, n in zip(closed.jaxpr.invars, in_names):
            env.bind(v, n)
        return env

    def _emit_eqn(self, env: _Env, eqn, inlinable: set[int]) -> None:
        rule = rules.native_rules.get(eqn.primitive)
        if rule is None:
            raise NotNative(str(eqn.primitive))
        if _SCALAR_MAX:
            got = self._try_scalar(env, eqn)
            if got is not None:
                for v, elems in zip(eqn.outvars, got):
                    env.bind(v, list(elems))
                return
        if eqn.primitive in rules.native_loops:  # loops take scalarized operands as is
            ins = [env.result(v, True) for v in eqn.invars]
        else:
            ins = [env.array(v) for v in eqn.invars]
        outs = []
        for v in eqn.outvars:
            n = self.fresh("t")
            env.bind(v, n)
            outs.append(n)
        got = rule(self, eqn, ins, outs)
        if got is None:
            raise NotNative(f"{eqn.primitive} with these params")
        for v, n in zip(eqn.outvars, outs):
            if n in self.scalar_outs:  # a loop left this result scalarized
                env.arrays.pop(id(v))
                env.bind(v, self.scalar_outs.pop(n))
        if eqn.outvars and id(eqn.outvars[0]) in inlinable and len(got) == 1:
            # A one-use elementwise result read by another elementwise expression: written
            # into its reader, so Numba fuses the chain into one loop (one allocation).
            (line,) = got
            env.arrays[id(eqn.outvars[0])] = "(" + line.split(" = ", 1)[1] + ")"
            return
        env.lines.extend(got)

    # ---------------------------------------------------------------- lane fusion
    def emit_lanes(self, closed: ClosedJaxpr, in_names: Sequence) -> tuple[list[str], list] | None:
        """``closed`` as one (parallel) loop over the ``n`` lanes of its largest values, or
        None when it is not lane-wise. Lane ``j`` of a value of ``n`` elements is its flat
        C-order element ``j``. Equations producing such values must be elementwise
        (``rules.native_elementwise``, operands of the output's shape or ``()``), ``iota``,
        a broadcast of a scalar or a reshape; each becomes scalar code per lane, so a chain
        such as threefry, the bits-to-float ops and the affine map makes one pass over
        memory and allocates only its outputs. Equations on smaller values that read no
        lane value run before the loop."""
        jaxpr = closed.jaxpr
        n = max(math.prod(v.aval.shape) for e in jaxpr.eqns for v in e.outvars)
        lane: set[int] = set()
        kinds = []
        for eqn in jaxpr.eqns:
            outs_n = [math.prod(v.aval.shape) == n for v in eqn.outvars]
            ops = [v for v in eqn.invars if type(v) is not Literal]
            reads = [id(v) in lane or math.prod(v.aval.shape) == n for v in ops]
            prim, out_shape = str(eqn.primitive), tuple(eqn.outvars[0].aval.shape)
            if all(outs_n) and (
                (
                    eqn.primitive in rules.native_elementwise
                    and all(tuple(v.aval.shape) in (out_shape, ()) for v in ops)
                )
                or prim == "iota"
                or (prim == "broadcast_in_dim" and eqn.invars[0].aval.shape == ())
                or (prim in ("reshape", "squeeze") and all(reads))
            ):
                lane.update(id(v) for v in eqn.outvars)
                kinds.append(True)
            elif not any(outs_n) and not any(reads):
                kinds.append(False)
            else:
                return None
        env = self._env(closed, in_names)
        inlinable: set[int] = set()
        for eqn, is_lane in zip(jaxpr.eqns, kinds):
            if not is_lane:
                self._emit_eqn(env, eqn, inlinable)
        j = self.fresh("j")
        body: list[str] = []
        vals: dict[int, str] = {}
        flat: dict[int, str] = {}

        def read(v) -> str:
            if type(v) is Literal or tuple(v.aval.shape) == ():
                return env.array(v)
            got = vals.get(id(v))
            if got is None:  # an input array of shape S
                if id(v) not in flat:
                    flat[id(v)] = f = self.fresh("w")
                    env.lines.append(f"{f} = np.ascontiguousarray({env.array(v)}).reshape(-1)")
                got = vals[id(v)] = self.fresh("e")
                body.append(f"{got} = {flat[id(v)]}[{j}]")
            return got

        for eqn, is_lane in zip(jaxpr.eqns, kinds):
            if not is_lane:
                continue
            outs = [self.fresh("e") for _ in eqn.outvars]
            if str(eqn.primitive) in ("broadcast_in_dim", "reshape", "squeeze"):
                got = [f"{outs[0]} = {read(eqn.invars[0])}"]  # the same lane
            elif str(eqn.primitive) == "iota":
                shape = tuple(eqn.params["shape"])
                d = int(eqn.params["dimension"])
                stride = math.prod(shape[d + 1 :])
                idx = j if stride == 1 else f"({j} // {stride})"
                idx = idx if d == 0 else f"({idx} % {int(shape[d])})"
                got = [f"{outs[0]} = {self.dtype(eqn.params['dtype'])}({idx})"]
            else:
                ins = [read(v) for v in eqn.invars]
                got = rules.native_rules[eqn.primitive](self, self.scalar_eqn(eqn), ins, outs)
            if got is None:
                raise NotNative(f"{eqn.primitive} with these params")
            body += got
            for v, o in zip(eqn.outvars, outs):
                vals[id(v)] = o
        results = []
        for v in jaxpr.outvars:
            if type(v) is not Literal and id(v) in lane:
                o = self.fresh("o")
                env.lines.append(f"{o} = np.empty({n}, {self.dtype(v.aval.dtype)})")
                body.append(f"{o}[{j}] = {vals[id(v)]}")
                results.append(f"{o}.reshape({tuple(int(d) for d in v.aval.shape)!r})")
            else:
                results.append(env.array(v))
        env.lines.append(f"for {j} in prange({n}):")
        env.lines.extend("    " + b for b in body)
        return env.lines, results


def _inlinable(jaxpr: Jaxpr) -> set[int]:
    """Outputs of expression rules (``defnative``) read exactly once, by an expression rule
    of the same jaxpr, and not jaxpr outputs."""
    uses: dict[int, int] = {}
    reader_ok: dict[int, bool] = {}
    for eqn in jaxpr.eqns:
        is_expr = getattr(rules.native_rules.get(eqn.primitive), "native_expr", False)
        for v in eqn.invars:
            if type(v) is not Literal:
                uses[id(v)] = uses.get(id(v), 0) + 1
                reader_ok[id(v)] = reader_ok.get(id(v), True) and is_expr
    outs = {id(v) for v in jaxpr.outvars if type(v) is not Literal}
    return {
        id(e.outvars[0])
        for e in jaxpr.eqns
        if getattr(rules.native_rules.get(e.primitive), "native_expr", False)
        and len(e.outvars) == 1
        and uses.get(id(e.outvars[0])) == 1
        and reader_ok.get(id(e.outvars[0]))
        and id(e.outvars[0]) not in outs
    }


def _source_hash(module: str) -> str:
    import hashlib  # here, not at module level: import time (docs/benchmarks.md)

    spec = importlib.util.find_spec(module)
    with open(spec.origin, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:16]


def emit_kernel(closed: ClosedJaxpr) -> tuple[str, NativeContext]:
    """Numba-compilable source of ``def kernel(a0, ..., k0, ...)`` returning a tuple."""
    ctx = NativeContext()
    params = [f"in__{i}" for i in range(len(closed.jaxpr.invars))]
    body, outs = ctx.emit(closed, params)
    sig = ", ".join(params + ctx.const_names)
    lines = ["import numpy as np", "from numba import prange"]
    lines += [f"# {module}: {_source_hash(module)}" for module in ctx.helper_deps]
    lines += [f"from {m} import {name} as {alias}" for (m, name), alias in ctx.helpers.items()]
    lines += ["", "", f"def kernel({sig}):"]
    lines += ["    " + line for line in body]
    lines.append(f"    return ({''.join(o + ', ' for o in outs)})")
    if len(lines) > _MAX_LINES:
        raise NotNative(f"a kernel of {len(lines)} lines (more than {_MAX_LINES})")
    return "\n".join(lines) + "\n", ctx
