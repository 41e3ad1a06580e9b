"""Session 21 differential hunt generators (test code, not a test module): seeded random
programs run under JAX and jaxlite in one process, compared leaf by leaf (exception class,
structure, shapes, dtypes, weak types, values: bit-exact for integers and booleans, a
tolerance per float dtype, NaN positions, signs of zeros).

Angles (``GENERATORS``), chosen where the earlier hunts draw one operation at a time:

* ``mixed``: random expression *trees* of two to four operands of int8..int64,
  uint8..uint64, bool, float16 / bfloat16 / float32 / float64, complex64 / complex128 and
  Python scalars (weak types; as literals or as traced arguments) through jnp arithmetic,
  integer division and remainder (by zero, of negative numbers), shifts (unsigned,
  by the bit width and more), bitwise ops, comparisons, casts (float -> int out of range,
  NaN, inf), reductions with ``dtype=`` and ``lax`` operations with strict dtypes, mostly
  under x64 (``jax.enable_x64``; a fifth of the programs run with x64 off, some run one
  ``jit``-ted function under both modes), under eval / jit / vmap (batch axis first or
  last) / grad / jvp.
* ``at``: ``x.at[idx].set/add/subtract/mul/divide/power/min/max/get/apply`` on operands of
  one to three dimensions with ``mode=`` ('clip', 'drop', 'fill' with ``fill_value``,
  'promise_in_bounds' on in-bounds indices), ``unique_indices`` / ``indices_are_sorted``
  where true, negative / out-of-bounds / repeated indices, int arrays of one or two
  dimensions (several, broadcast together, apart or adjacent), boolean masks, slices with
  steps (negative too), ``None`` and ``Ellipsis``, updates of broadcastable shapes and
  other dtypes, under eval / jit / vmap (batched operand, batched index arrays, batched
  updates, any combination, batch axis first or last) / grad / jvp (ties and repeated
  indices under mul / min / max included).

Documented differences (docs/compat.md) are avoided by construction: no subnormal values
(XLA:CPU flushes them; results below the normal range compare as zero), no
``promise_in_bounds`` with an out-of-bounds index, no derivative of ``min``/``max`` with
``mode='clip'``, no derivative of ``mul`` by its updates with an index array.

``python -m tests.hunt.fuzz_s21 NAME FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import sys

import numpy as np

from tests.hunt.oracle import JAX, LITE, builtin_base, run

# ---------------------------------------------------------------------------- mixed
_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_FLOATS = ("float16", "bfloat16", "float32", "float64")
_COMPLEX = ("complex64", "complex128")
_ALL = _INTS + _FLOATS + _COMPLEX + ("bool",)


def _kind(dt):
    if dt == "bool":
        return "b"
    if dt.startswith("uint"):
        return "u"
    if dt.startswith("int"):
        return "i"
    if dt.startswith("complex"):
        return "c"
    return "f"


def _ivals(dt):
    info = np.iinfo(dt)
    return [int(info.min), int(info.max), 0, 1, -1, 7, -5, 3, 2, int(info.max) - 1, 100, -100]


def _fvals(dt):
    big = {"float16": 6e4, "bfloat16": 3e38, "float32": 3e38, "float64": 1e300}[dt]
    return [0.0, -0.0, 1.5, -2.5, np.nan, np.inf, -np.inf, big, 3.0, 0.1, -7.0, 0.5, 2.0, 100.25]


def _array(rng, dt, shape):
    """Source text of an array of ``dt`` and ``shape`` with edge values."""
    n = int(np.prod(shape))
    if dt == "bool":
        return f"jnp.array({(rng.random_sample(shape) > 0.5).tolist()!r})"
    if _kind(dt) in "iu":
        pool = [v for v in _ivals(dt) if np.iinfo(dt).min <= v <= np.iinfo(dt).max]
        v = [pool[i] for i in rng.randint(len(pool), size=n)]
        return f"jnp.asarray(np.array({v!r}, dtype={dt!r}).reshape({shape!r}))"
    base = (
        "float32"
        if dt == "bfloat16"
        else dt.replace("complex64", "float32").replace("complex128", "float64")
    )
    pool = _fvals(base)
    v = [pool[i] for i in rng.randint(len(pool), size=n)]
    text = repr(v).replace("nan", "np.nan").replace("inf", "np.inf")
    if dt.startswith("complex"):
        w = [pool[i] for i in rng.randint(len(pool), size=n)]
        im = repr(w).replace("nan", "np.nan").replace("inf", "np.inf")
        text = f"[complex(a, b) for a, b in zip({text}, {im})]"
    if dt == "bfloat16":
        return (
            f"jnp.asarray(np.array({text}, dtype='float32').reshape({shape!r})).astype('bfloat16')"
        )
    return f"jnp.asarray(np.array({text}, dtype={dt!r}).reshape({shape!r}))"


_PYSCALARS = {
    "b": ("True", "False"),
    "i": ("2", "-3", "0", "7", "1", "-1", "100", "2**31 - 1", "2**40"),
    "f": ("2.5", "-0.5", "0.0", "1e20", "float('nan')", "3.0", "-1.5"),
    "c": ("1j", "(2 - 0.5j)"),
}


class _Tree:
    """Random expression trees over named operands; ``kind`` of a node: b, i, u, f, c or
    x (integers of both signs: JAX may promote them to a float)."""

    def __init__(self, rng, operands, x64):
        self.rng, self.operands, self.x64 = rng, operands, x64

    def leaf(self):
        r = self.rng
        if r.rand() < 0.18:
            k = "bifc"[r.choice(4, p=[0.1, 0.5, 0.3, 0.1])]
            lits = _PYSCALARS[k]
            lit = lits[r.randint(len(lits))]
            if not self.x64 and "2**40" in lit:
                lit = "2**20"
            return lit, k
        name, dt = self.operands[r.randint(len(self.operands))]
        return name, dt if dt in "bifc" else _kind(dt)

    def expr(self, depth):
        r = self.rng
        if depth <= 0 or r.rand() < 0.2:
            return self.leaf()
        c = r.rand()
        if c < 0.45:
            return self.binary(depth)
        if c < 0.75:
            return self.unary(depth)
        if c < 0.9:
            return self.lax_op(depth)
        return self.reduction(depth)

    def binary(self, depth):
        r = self.rng
        a, ka = self.expr(depth - 1)
        b, kb = self.expr(depth - 1)
        ks = {ka, kb}
        if ks <= {"b", "i", "u", "x"}:
            pool = ["+", "-", "*", "//", "%", "/", "&", "|", "^", "<<", ">>", "**", "==", "<",
                    ">=", "max", "min", "where", "fmod", "divmod", "gcd", "rshift", "lshift"]  # fmt: skip
        elif "c" in ks:
            pool = ["+", "-", "*", "/", "==", "!=", "where", "**"]
        else:
            pool = ["+", "-", "*", "//", "%", "/", "**", "==", "<", ">=", "max", "min", "where",
                    "fmod", "arctan2", "copysign", "hypot", "nextafter", "logaddexp"]  # fmt: skip
        op = pool[r.randint(len(pool))]
        out = _promote(ka, kb)
        if op in ("==", "<", ">=", "!="):
            return f"({a} {op} {b})", "b"
        if op == "/":
            return f"({a} / {b})", "c" if out == "c" else "f"
        if op in ("max", "min"):
            return f"jnp.{op}imum({a}, {b})", out
        if op == "where":
            cnd, _ = self.expr(depth - 1)
            return f"jnp.where(jnp.asarray({cnd}) > 0, {a}, {b})", out
        if op in ("fmod", "gcd", "arctan2", "copysign", "hypot", "nextafter", "logaddexp"):
            fo = out if op in ("fmod", "gcd") else "f"
            return f"jnp.{op}({a}, {b})", fo
        if op == "divmod":
            return f"jnp.divmod({a}, {b})[{r.randint(2)}]", out
        if op == "rshift":
            return f"jnp.right_shift({a}, {b})", out
        if op == "lshift":
            return f"jnp.left_shift({a}, {b})", out
        if op == "**" and ks <= {"b", "i", "u", "x"}:
            # exponents in [0, 64): a negative integer power is a documented difference
            return f"({a} ** (jnp.asarray({b}) % 64))", out
        if op in ("&", "|", "^") and out == "b":
            return f"({a} {op} {b})", "b"
        return f"({a} {op} {b})", out if out != "b" or op not in ("+", "*") else "b"

    def unary(self, depth):
        r = self.rng
        a, k = self.expr(depth - 1)
        if r.rand() < 0.35:
            dt = _ALL[r.randint(len(_ALL))]
            if not self.x64 and dt in ("int64", "uint64", "float64", "complex128"):
                dt = dt.replace("64", "32").replace("complex128", "complex64")
            form = r.randint(4)
            if form == 0:
                return f"jnp.asarray({a}).astype({dt!r})", _kind(dt)
            if form == 1:
                return f"lax.convert_element_type({a}, {dt!r})", _kind(dt)
            if form == 2:
                return f"jnp.asarray({a}, dtype={dt!r})", _kind(dt)
            return f"jnp.{dt if dt != 'bool' else 'bool_'}({a})", _kind(dt)
        if k in "iux":
            pool = ("-{}", "jnp.abs({})", "~{}", "jnp.sign({})", "jnp.square({})",
                    "jnp.invert({})", "jnp.bitwise_count({})", "lax.population_count({})",
                    "lax.clz({})", "jnp.clip({}, -3, 5)", "jnp.sqrt({})", "jnp.negative({})",
                    "lax.integer_pow({}, 3)", "jnp.floor({})", "jnp.round({}, -1)",
                    "jnp.exp2({})", "jnp.reciprocal({})", "jnp.positive({})")  # fmt: skip
            kinds = ("=", "=", "=", "=", "=", "=", "=", "=", "=", "=", "f", "=", "=", "=", "=",
                     "f", "=", "=")  # fmt: skip
        elif k == "b":
            pool = ("~{}", "jnp.logical_not({})", "-{}", "jnp.square({})", "jnp.sign({})",
                    "{}.astype(int)", "jnp.sum({})", "jnp.cumsum({})")  # fmt: skip
            kinds = ("b", "b", "b", "i", "b", "i", "i", "i")
        elif k == "c":
            pool = ("-{}", "jnp.abs({})", "jnp.sqrt({})", "jnp.exp({})", "jnp.conj({})",
                    "jnp.real({})", "jnp.imag({})", "jnp.sign({})", "jnp.square({})",
                    "jnp.angle({})", "jnp.log1p({})", "jnp.reciprocal({})")  # fmt: skip
            kinds = ("c", "f", "c", "c", "c", "f", "f", "c", "c", "f", "c", "c")
        else:
            pool = ("-{}", "jnp.abs({})", "jnp.sqrt({})", "jnp.exp({})", "jnp.floor({})",
                    "jnp.round({})", "jnp.sign({})", "jnp.trunc({})", "jnp.log1p({})",
                    "jnp.clip({}, -1.0, 2)", "jnp.tanh({})", "jnp.isnan({})", "jnp.signbit({})",
                    "jnp.square({})", "jnp.rint({})", "jnp.cbrt({})", "jnp.ceil({})",
                    "jnp.nan_to_num({})", "jnp.sinc({})", "lax.integer_pow({}, -2)",
                    "jnp.reciprocal({})", "jnp.modf({})[0]", "jnp.frexp({})[1]",
                    "jnp.ldexp({}, 3)", "jnp.trunc({})")  # fmt: skip
            kinds = ("f",) * 11 + ("b", "b") + ("f",) * 9 + ("i", "f", "f")
        j = r.randint(len(pool))
        kk = kinds[j]
        return pool[j].format(a), k if kk == "=" else kk

    def lax_op(self, depth):
        r = self.rng
        a, k = self.expr(depth - 1)
        b, _ = self.expr(depth - 1)
        same = f"jnp.asarray({b}, jnp.asarray({a}).dtype)"
        if k in "iux":
            pool = ("lax.add({a}, {s})", "lax.sub({a}, {s})", "lax.mul({a}, {s})",
                    "lax.div({a}, {s})", "lax.rem({a}, {s})", "lax.max({a}, {s})",
                    "lax.shift_left({a}, {s})", "lax.shift_right_logical({a}, {s})",
                    "lax.shift_right_arithmetic({a}, {s})", "lax.bitwise_and({a}, {s})",
                    "lax.bitwise_xor({a}, {s})", "lax.neg({a})", "lax.abs({a})", "lax.sign({a})",
                    "lax.clamp({s}, {a}, {s})", "lax.select(jnp.asarray({a}) > 0, {a}, {s})",
                    "lax.add({a}, {b})", "lax.rem({a}, 0)", "lax.div({a}, -1)")  # fmt: skip
        elif k == "b":
            pool = ("lax.bitwise_and({a}, {s})", "lax.bitwise_or({a}, {s})",
                    "lax.bitwise_not({a})", "lax.max({a}, {s})", "lax.select({a}, {s}, {a})",
                    "lax.add({a}, {s})")  # fmt: skip
        elif k == "c":
            pool = ("lax.add({a}, {s})", "lax.mul({a}, {s})", "lax.div({a}, {s})",
                    "lax.real({a})", "lax.conj({a})", "lax.neg({a})", "lax.sub({a}, {b})")  # fmt: skip
        else:
            pool = ("lax.add({a}, {s})", "lax.sub({a}, {s})", "lax.mul({a}, {s})",
                    "lax.div({a}, {s})", "lax.rem({a}, {s})", "lax.pow({a}, {s})",
                    "lax.max({a}, {s})", "lax.min({a}, {s})", "lax.atan2({a}, {s})",
                    "lax.nextafter({a}, {s})", "lax.round({a}, lax.RoundingMethod.TO_NEAREST_EVEN)",
                    "lax.round({a})", "lax.floor({a})", "lax.is_finite({a})",
                    "lax.reduce_precision({a}, exponent_bits=5, mantissa_bits=10)",
                    "lax.complex({a}, {s})", "lax.expm1({a})", "lax.logistic({a})",
                    "lax.clamp({s}, {a}, {s})", "lax.integer_pow({a}, 2)", "lax.sqrt({a})",
                    "lax.mul({a}, {b})")  # fmt: skip
        t = pool[r.randint(len(pool))]
        out = "b" if "is_finite" in t else ("c" if "lax.complex" in t else k)
        if "lax.real" in t:
            out = "f"
        return t.format(a=a, b=b, s=same), out

    def reduction(self, depth):
        r = self.rng
        a, k = self.expr(depth - 1)
        fns = ("sum", "prod", "max", "min", "cumsum", "cumprod", "mean", "argmax", "any",
               "all", "nanmax")  # fmt: skip
        fn = fns[r.randint(len(fns))]
        kw = ""
        out = k
        if fn in ("sum", "prod", "cumsum", "cumprod") and r.rand() < 0.5:
            dts = ("int8", "uint8", "int32", "uint32", "float32", "int64", "uint64", "float64",
                   "float16", "bool", "complex64")  # fmt: skip
            dt = dts[r.randint(len(dts))]
            if not self.x64 and "64" in dt and dt != "complex64":
                dt = dt.replace("64", "32")
            kw = f", dtype={dt!r}"
            out = _kind(dt)
        if fn in ("mean",):
            out = "c" if k == "c" else "f"
        if fn in ("argmax",):
            out = "i"
        if fn in ("any", "all"):
            out = "b"
        return f"jnp.{fn}(jnp.asarray({a}){kw})", out


def _promote(a, b):
    order = {"b": 0, "i": 1, "u": 1, "x": 1, "f": 2, "c": 3}
    if order[a] != order[b]:
        return a if order[a] > order[b] else b
    if a == b:
        return a
    return "x"


_MWRAP = {
    "eval": "f(*args)",
    "jit": "jx.jit(f)(*args)",
    "jit2": "(jx.jit(f)(*args), jx.jit(f)(*args))",
    "vmap": "jx.vmap(f, in_axes=axes)(*bargs)",
    "vmap_last": "jx.vmap(f, in_axes=laxes, out_axes=-1)(*largs)",
    "jit_vmap": "jx.jit(jx.vmap(f, in_axes=axes))(*bargs)",
    "grad": "jx.grad(lambda *a: jnp.sum(jnp.real(jnp.asarray(f(*a))).astype(args[gi].dtype)), argnums=gi)(*args)",
    "jvp": "jx.jvp(lambda t: f(*args[:gi], t, *args[gi + 1:]), (args[gi],), (jnp.full_like(args[gi], 0.5),))",
    "jacfwd": "jx.jacfwd(lambda t: jnp.real(jnp.asarray(f(*args[:gi], t, *args[gi + 1:]))).astype(args[gi].dtype))(args[gi])",
}


def gen_mixed(rng):
    x64 = rng.rand() < 0.8
    n = rng.randint(2, 5)
    shapes = ((), (3,), (2, 3), (1, 3))
    base = shapes[rng.randint(len(shapes))]
    operands, inits = [], []
    for j in range(n):
        c = rng.rand()
        if c < 0.15:  # a Python scalar passed as an argument (weakly typed when traced)
            k = "ifb"[rng.randint(3)]
            lits = _PYSCALARS[k]
            lit = lits[rng.randint(len(lits))]
            if not x64 and "2**40" in lit:
                lit = "2**20"
            operands.append((f"a{j}", k))
            inits.append(lit)
            continue
        dt = _ALL[rng.randint(len(_ALL))]
        if not x64 and dt in ("int64", "uint64", "float64", "complex128"):
            dt = (
                dt.replace("64", "32")
                .replace("complex128", "complex64")
                .replace("float32", "float32")
            )
        shape = base if rng.rand() < 0.7 else ()
        operands.append((f"a{j}", dt))
        inits.append(_array(rng, dt, shape))
    tree = _Tree(rng, operands, x64)
    body, _ = tree.expr(rng.randint(2, 5))
    stack = list(_MWRAP)[rng.randint(len(_MWRAP))]
    floats = [
        j
        for j, (_, dt) in enumerate(operands)
        if dt in ("float32", "float64", "float16", "bfloat16")
    ]
    if stack in ("grad", "jvp", "jacfwd") and not floats:
        stack = "jit"
    gi = floats[rng.randint(len(floats))] if floats else 0
    arrays = [j for j, (_, dt) in enumerate(operands) if dt not in "bifc"]
    if stack.startswith(("vmap", "jit_vmap")) and not arrays:
        stack = "eval"
    names = ", ".join(name for name, _ in operands)
    lines = [f"    {name} = {init}" for (name, _), init in zip(operands, inits)]
    lines += [f"    args = [{names}]", f"    gi = {gi}"]
    if stack.startswith(("vmap", "jit_vmap")):
        lines += [
            f"    axes = tuple(0 if j in {arrays!r} else None for j in range(len(args)))",
            "    bargs = [jnp.stack([a, jnp.flip(a)]) if ax == 0 else a for a, ax in zip(args, axes)]",
            "    laxes = tuple(-1 if ax == 0 else None for ax in axes)",
            "    largs = [jnp.stack([a, jnp.flip(a)], -1) if ax == 0 else a for a, ax in zip(args, axes)]",
        ]
    lines += [f"    def f({names}):", f"        return {body}", f"    r = {_MWRAP[stack]}"]
    if x64 and stack == "jit" and rng.rand() < 0.3:
        # one jitted function under both modes: the x64 call must not reuse the x32 trace
        src = "def run():\n    g = jx.jit(lambda *a: f(*a))\n"
        src += "    with jx.enable_x64(False):\n        r0 = _mk(g)\n"
        src += "    with jx.enable_x64(True):\n        r1 = _mk(g)\n    return r0, r1\n"
        mk = "def _mk(g):\n" + "\n".join(lines[: len(operands) + 2]) + "\n"
        mk += f"    def f({names}):\n        return {body}\n    return g(*args)\n"
        mk = mk.replace("    def f(", "    global f\n    def f(", 1)
        return mk + src
    head = f"def run():\n    with jx.enable_x64({x64}):\n"
    return head + "\n".join("    " + line for line in lines) + "\n        return r\n"


# ------------------------------------------------------------------------------- at
_ADT = ("float32", "float32", "int32", "float16", "bfloat16", "int8", "uint8", "bool",
        "complex64", "uint32", "float64", "int64")  # fmt: skip
_AMETH = ("set", "add", "subtract", "mul", "divide", "power", "min", "max", "get", "apply")


def _component(rng, d, allow_array=True):
    """(source text, numpy index for the shape computation, kind, values) of one index
    component over an axis of size ``d``."""
    c = rng.rand()
    if c < 0.25:
        v = int(rng.randint(-d - 1, d + 1))
        return str(v), v % d if d else 0, "int", [v]
    if c < 0.5 or not allow_array:
        start = rng.choice([None, int(rng.randint(-d - 1, d + 2))])
        stop = rng.choice([None, int(rng.randint(-d - 1, d + 2))])
        step = rng.choice([None, 1, 2, -1, -2, 3])
        text = f"{'' if start is None else start}:{'' if stop is None else stop}"
        if step is not None:
            text += f":{step}"
        return text, slice(start, stop, step), "slice", []
    if c < 0.62:
        m = rng.rand(d) > 0.5
        return f"np.array({m.tolist()!r})", m, "mask", []
    shape = ((rng.randint(0, 4),), (2, 2), (1, 3), ())[rng.choice(4, p=[0.6, 0.15, 0.1, 0.15])]
    v = rng.randint(-d - 1, d + 1, size=shape)
    if rng.rand() < 0.4:
        v = rng.randint(0, max(d, 1), size=shape)  # in bounds
    if rng.rand() < 0.3 and v.size:
        v = np.sort(v.ravel()).reshape(v.shape)
    return None, v, "array", v.ravel().tolist()


def _upd(rng, dt, shape, nonneg=False):
    if dt == "bool":
        return f"jnp.array({(rng.random_sample(shape) > 0.5).tolist()!r})"
    if dt.startswith(("int", "uint")):
        lo = -4 if dt.startswith("int") and not nonneg else 0
        return f"jnp.asarray(np.array({rng.randint(lo, 6, shape).tolist()!r}, dtype={dt!r}))"
    v = rng.choice([0.5, -1.5, 2.0, 2.0, 3.25, -0.0, 0.0, 4.0], size=shape)
    if dt == "complex64":
        v = v + 1j * rng.choice([0.5, -1.0, 0.0], size=shape)
    if dt == "bfloat16":
        return f"jnp.asarray(np.array({v.tolist()!r}, dtype='float32')).astype('bfloat16')"
    return f"jnp.asarray(np.array({v.tolist()!r}, dtype={dt!r}))"


def gen_at(rng):
    dt = _ADT[rng.randint(len(_ADT))]
    x64 = dt in ("float64", "int64") or rng.rand() < 0.2
    shape = ((5,), (4, 3), (2, 3, 4), (3,), (3, 1))[rng.randint(5)]
    nd = len(shape)
    comps, npidx, arrays, kinds = [], [], [], []
    ell = rng.rand() < 0.15
    k = rng.randint(1, nd + 1)
    axis = 0
    for _ in range(k):
        if ell and rng.rand() < 0.3 and "..." not in comps:
            comps.append("...")
            npidx.append(Ellipsis)
            axis = nd - (k - len(comps))
            if axis < len([c for c in comps if c not in ("None", "...")]):
                axis = len([c for c in comps if c not in ("None", "...")])
            continue
        if rng.rand() < 0.12:
            comps.append("None")
            npidx.append(None)
            continue
        if axis >= nd:
            break
        text, npv, kind, vals = _component(rng, shape[axis])
        kinds.append(kind)
        if kind == "array":
            j = len(arrays)
            arrays.append(npv)
            text = f"i{j}"
        comps.append(text)
        npidx.append(npv)
        axis += int(kind != "mask") if kind != "mask" else 1
    if not comps:
        comps, npidx = ["..."], [Ellipsis]
    # advanced index arrays must broadcast together: reshape all to the first's shape
    if len(arrays) > 1:
        s0 = arrays[0].shape
        for j in range(1, len(arrays)):
            a = arrays[j].ravel()
            size = int(np.prod(s0))
            a = np.resize(a, size) if a.size else np.zeros(size, int)
            arrays[j] = a.reshape(s0)
        it = iter(arrays)
        npidx = [next(it) if isinstance(p, np.ndarray) and p.dtype != bool else p for p in npidx]
    if "mask" in kinds and arrays:  # a mask next to arrays: keep it simple, drop the mask
        return gen_at(np.random.RandomState(rng.randint(2**31)))
    # the shape of x[idx] with every index wrapped into bounds (for the updates' shape)
    try:
        wrapped = []
        ax = 0
        for p in npidx:
            if p is None:
                wrapped.append(None)
                continue
            if p is Ellipsis:
                wrapped.append(Ellipsis)
                ax = nd - (
                    len([q for q in npidx if q is not None and q is not Ellipsis])
                    - len([q for q in wrapped if q is not None and q is not Ellipsis])
                )
                continue
            d = shape[ax] if ax < nd else 1
            if isinstance(p, np.ndarray) and p.dtype != bool:
                wrapped.append(np.mod(p, d) if d else p)
            elif isinstance(p, int):
                wrapped.append(p % d if d else 0)
            else:
                wrapped.append(p)
            ax += 1
        sel_shape = np.empty(shape)[tuple(wrapped)].shape
    except (IndexError, ValueError, TypeError):
        sel_shape = ()
    vals_all = [v for a in arrays for v in a.ravel().tolist()]
    ints = [int(c) for c in comps if c.lstrip("-").isdigit()]
    # bounds, conservatively: a value outside [-n, n) for the smallest axis size n
    dmin = min(shape)
    ints_oob = any(v >= dmin or v < -dmin for v in vals_all + ints)
    # unique: distinct and non-negative (-2 and 2 name one position on an axis of 4)
    distinct = (
        all(len(set(a.ravel().tolist())) == a.size and (a >= 0).all() for a in arrays)
        and len(arrays) <= 1
    )
    nonneg_sorted = (
        all((a.ravel() >= 0).all() and (np.diff(a.ravel()) >= 0).all() for a in arrays)
        and len(arrays) <= 1
    )
    meth = _AMETH[rng.randint(len(_AMETH))]
    if meth == "apply" and dt == "bool":
        meth = "set"  # JAX's scatter of booleans fails to lower under vmap (leftover)
    kw = []
    modes = [None, "clip", "drop", "fill"]
    if not ints_oob:
        modes.append("promise_in_bounds")
    mode = modes[rng.randint(len(modes))]
    if mode:
        kw.append(f"mode={mode!r}")
    if mode == "fill" and meth == "get" and rng.rand() < 0.6:
        kw.append(f"fill_value={rng.choice(['-7', '2.5', 'True', 'jnp.nan'])}")
    if distinct and not ints_oob and rng.rand() < 0.3:
        kw.append("unique_indices=True")
    if nonneg_sorted and not ints_oob and rng.rand() < 0.3:
        kw.append("indices_are_sorted=True")
    ushape = list(sel_shape)
    c = rng.rand()
    if c < 0.25:
        ushape = ushape[rng.randint(0, len(ushape) + 1) :]
    elif c < 0.4 and ushape:
        ushape[rng.randint(len(ushape))] = 1
    udt = dt if rng.rand() < 0.8 else _ADT[rng.randint(len(_ADT))]
    if meth == "power" and dt.startswith(("int", "uint")):
        udt = dt  # a float update would cast to a negative integer power (compat.md)
    if udt in ("float64", "int64") and not x64:
        udt = "float32"
    scalar_upd = rng.rand() < 0.2
    upd = (
        rng.choice(["2", "-1.5", "True", "0"][: 1 if meth == "power" else 4]) if scalar_upd else "v"
    )
    idx = ", ".join(comps) if len(comps) > 1 else comps[0] + ("," if rng.rand() < 0.3 else "")
    if meth == "get":
        call = f"x.at[{idx}].get({', '.join(kw)})"
    elif meth == "apply":
        fn = rng.choice(["lambda t: t * 2 + 1", "jnp.negative", "jnp.square", "lambda t: t - t"])
        call = f"x.at[{idx}].apply({fn}{''.join(', ' + k_ for k_ in kw)})"
    else:
        call = f"x.at[{idx}].{meth}({upd}{''.join(', ' + k_ for k_ in kw)})"
    iargs = ", ".join(f"i{j}" for j in range(len(arrays)))
    sig = "x, v" + (", " + iargs if iargs else "")
    stacks = [
        "eval",
        "jit",
        "vmap_x",
        "vmap_v",
        "vmap_i",
        "vmap_all",
        "vmap_last",
        "grad",
        "jvp",
        "jit_grad",
    ]
    stack = stacks[rng.randint(len(stacks))]
    floaty = dt in ("float32", "float16", "bfloat16", "float64") and udt == dt
    # compat.md: min/max derivatives under 'clip'; products by updates at index arrays
    # not promised unique
    adv = bool(arrays) or "mask" in kinds
    no_ad = (meth in ("min", "max") and mode == "clip") or (
        meth in ("mul", "divide", "power") and adv and "unique_indices=True" not in kw
    )
    no_ad |= mode == "promise_in_bounds"
    if stack in ("grad", "jvp", "jit_grad") and (not floaty or no_ad):
        stack = "jit"
    if stack == "vmap_i" and not arrays:
        stack = "vmap_x"
    lines = [
        f"    x = {_arr_at(rng, dt, shape)}",
        f"    v = {_upd(rng, udt, tuple(ushape), meth == 'power')}",
    ]
    for j, a in enumerate(arrays):
        itype = rng.choice(
            [
                "np.array({})",
                "jnp.array({}, jnp.int32)",
                "jnp.array({}, jnp.uint8)" if (a >= 0).all() else "jnp.array({}, jnp.int16)",
            ]
        )
        if x64 and rng.rand() < 0.3:
            itype = "jnp.array({}, jnp.int64)"
        lines.append(f"    i{j} = " + itype.format(repr(a.tolist())))
    lines.append(f"    def f({sig}):\n            return {call}")
    call_args = "x, v" + (", " + iargs if iargs else "")
    if stack == "eval":
        lines.append(f"    r = f({call_args})")
    elif stack == "jit":
        lines.append(f"    r = jx.jit(f)({call_args})")
    elif stack.startswith("vmap"):
        bx = stack in ("vmap_x", "vmap_all", "vmap_last")
        bv = stack in ("vmap_v", "vmap_all", "vmap_last") and not scalar_upd
        bi = stack in ("vmap_i", "vmap_all", "vmap_last") and bool(arrays)
        ax = -1 if stack == "vmap_last" else 0
        lines.append(
            f"    def stk(a, b):\n            return jnp.stack([jnp.asarray(a), jnp.asarray(b)], {ax})"
        )
        bxs = f"stk(x, {'jnp.flip(x)' if nd else 'x'})" if bx else "x"
        bvs = "stk(v, jnp.flip(v) * 2)" if bv else "v"
        bis = []
        for j, a in enumerate(arrays):
            alt = np.roll(a.ravel(), 1).reshape(a.shape) if a.size else a
            if alt.size:
                alt = alt.copy()
                alt.ravel()[0] = -1 if rng.rand() < 0.5 else alt.ravel()[0]
            bis.append(
                f"stk(i{j}, jnp.asarray(np.array({alt.tolist()!r}, dtype=np.asarray(i{j}).dtype)))"
                if bi
                else f"i{j}"
            )
        in_axes = (ax if bx else None, ax if bv else None) + tuple(
            ax if bi else None for _ in arrays
        )
        if not any(a is not None for a in in_axes):
            lines.append(f"    r = jx.vmap(f, in_axes={in_axes!r}, axis_size=2)({call_args})")
        else:
            lines.append(
                f"    r = jx.vmap(f, in_axes={in_axes!r}, out_axes={ax})({', '.join([bxs, bvs] + bis)})"
            )
    elif stack in ("grad", "jit_grad"):
        w = "jnp.arange(1.0, 1.0 + jnp.size(f(x, v" + (", " + iargs if iargs else "") + ")))"
        g = f"jx.grad(lambda x, v: jnp.sum(jnp.ravel(f({call_args})).astype(jnp.float32) * {w}), argnums=(0, 1))"
        if meth == "get" or scalar_upd:
            g = g.replace("argnums=(0, 1)", "argnums=0")
        lines.append(f"    r = {'jx.jit(' + g + ')' if stack == 'jit_grad' else g}(x, v)")
    else:
        tv = "jnp.ones_like(v) * 0.5" if not scalar_upd else "v * 0"
        lines.append(f"    r = jx.jvp(lambda x, v: f({call_args}), (x, v), (x * 0.5 + 1, {tv}))")
    head = f"def run():\n    with jx.enable_x64({x64}):\n"
    return head + "\n".join("    " + line for line in lines) + "\n        return r\n"


def _arr_at(rng, dt, shape):
    if dt == "bool":
        return f"jnp.array({(rng.random_sample(shape) > 0.5).tolist()!r})"
    if dt.startswith(("int", "uint")):
        lo = -5 if dt.startswith("int") else 0
        return f"jnp.asarray(np.array({rng.randint(lo, 9, shape).tolist()!r}, dtype={dt!r}))"
    v = rng.choice([0.5, -1.5, 2.0, 3.25, -0.0, 0.0, 1.0, -2.0, 4.0], size=shape)
    if dt == "complex64":
        v = v + 1j * rng.choice([0.5, -1.0, 0.0], size=shape)
    if dt == "bfloat16":
        return f"jnp.asarray(np.array({v.tolist()!r}, dtype='float32')).astype('bfloat16')"
    return f"jnp.asarray(np.array({v.tolist()!r}, dtype={dt!r}))"


GENERATORS = {"mixed": gen_mixed, "at": gen_at}


# ------------------------------------------------------------------------- comparison
def _build(src):
    def build(m):
        ns = {"jx": m.jx, "jnp": m.jnp, "lax": m.lax, "np": np}
        exec(src, ns)  # noqa: S102 - the harness runs its own generated test programs
        return ns["run"]()

    return build


_TOL = {"float16": (2e-3, 0), "bfloat16": (1.6e-2, 0), "float32": (2e-6, 0),
        "float64": (1e-13, 0), "complex64": (4e-6, 0), "complex128": (1e-13, 0)}  # fmt: skip
_TINY = {"float16": 6.2e-5, "bfloat16": 1.2e-38, "float32": 1.2e-38, "float64": 2.3e-308}


def _flush(a, dx):
    """Subnormals read as zeros (XLA:CPU flushes them: docs/compat.md)."""
    tiny = _TINY[dx.replace("complex64", "float32").replace("complex128", "float64")]
    if a.dtype.kind == "c":
        return _flush(a.real.copy(), dx) + 1j * _flush(a.imag.copy(), dx)
    a = a.copy()
    small = np.abs(a) < tiny
    a[small] = np.copysign(0.0, a[small])
    return a


def _leaf_difference(i, x, y):
    dx, dy = str(x.dtype), str(y.dtype)
    if np.shape(x) != np.shape(y) or dx != dy:
        return f"leaf {i}: {np.shape(x)} {dx} vs jaxlite {np.shape(y)} {dy}"
    if not isinstance(x, np.ndarray) and getattr(x, "weak_type", None) != getattr(
        y, "weak_type", None
    ):
        return f"leaf {i}: weak type {x.weak_type} vs jaxlite {y.weak_type}"
    if isinstance(x, np.ndarray) != isinstance(y, np.ndarray):
        return f"leaf {i}: type {type(x)} vs jaxlite {type(y)}"
    if "float0" in dx:
        return None
    x, y = np.asarray(x), np.asarray(y)
    if dx not in _TOL:
        return None if np.array_equal(x, y) else f"leaf {i}: values {x!r} vs jaxlite {y!r}"
    wide = np.complex128 if x.dtype.kind == "c" else np.float64
    xw, yw = _flush(x.astype(wide), dx), _flush(y.astype(wide), dx)
    rtol, atol = _TOL[dx]
    if not np.array_equal(np.isnan(xw), np.isnan(yw)):
        return f"leaf {i}: NaN positions {x!r} vs jaxlite {y!r}"
    if not np.isclose(yw, xw, rtol=rtol, atol=atol, equal_nan=True).all():
        return f"leaf {i}: values {x!r} vs jaxlite {y!r}"
    if x.dtype.kind != "c":
        z = xw == 0
        if not np.array_equal(np.signbit(yw[z]), np.signbit(xw[z])):
            return f"leaf {i}: signs of zeros {x!r} vs jaxlite {y!r}"
    return None


def difference(src):
    """How jaxlite's run of the program differs from JAX's (None when they agree, or
    without JAX)."""
    if JAX is None:
        return None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kb, b = run(_build(src), LITE)
        ka, a = run(_build(src), JAX)
    if ka != kb:
        return f"raise/no-raise: JAX {ka} {a!r:.300}, jaxlite {kb} {b!r:.300}"
    if ka == "err":
        if builtin_base(a) is not builtin_base(b):
            return f"exception class: JAX {a!r:.300}, jaxlite {b!r:.300}"
        return None
    la, ta = JAX.jx.tree_util.tree_flatten(a)
    lb, tb = LITE.jx.tree_util.tree_flatten(b)
    if len(la) != len(lb):
        return f"structure: {ta} vs {tb}"
    for i, (x, y) in enumerate(zip(la, lb)):
        if type(x) in (int, float, bool, complex) or type(y) in (int, float, bool, complex):
            if type(x) is not type(y):
                return f"leaf {i}: Python type {type(x)} vs {type(y)}"
            x, y = np.asarray(x), np.asarray(y)
        d = _leaf_difference(i, x, y)
        if d:
            return d
    return None


def check(name, seed):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    return difference(src), src


def hunt(name, seeds):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    found = []
    for s in seeds:
        d, src = check(name, s)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    for seed, d, src in hunt(name, range(first, first + count)):
        print(f"--- {name} seed {seed}: {d}\n{src}", flush=True)
