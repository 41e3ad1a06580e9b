"""The op table of the differential fuzzer: each entry writes one line of a random program.

An entry is ``(name, weight, gen)``; ``gen(rng, env)`` returns the Python source of one
expression over the variables in ``env`` (a list of ``Var``: name, shape, dtype), or ``None``
when no variable fits. The expression is ordinary ``jnp`` / ``lax`` / ``jax`` code; the same
text runs against jaxlite and JAX. Shapes need not be tracked by hand: the generator
evaluates each line with JAX to learn its result, and drops lines that JAX rejects (a few are
kept on purpose, to compare errors).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FLOATS = ("float32", "float16", "bfloat16")


@dataclass(frozen=True)
class Var:
    name: str
    shape: tuple
    dtype: str
    weak: bool = False

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def is_float(self):
        return self.dtype in FLOATS or self.dtype == "float64"

    @property
    def is_int(self):
        return self.dtype.startswith("int") or self.dtype.startswith("uint")


def _pick(rng, env, pred=lambda v: True):
    cands = [v for v in env if pred(v)]
    if not cands:
        return None
    # Prefer recent variables, so programs are chains more often than not.
    w = np.arange(1, len(cands) + 1, dtype=float) ** 2
    return cands[rng.choice(len(cands), p=w / w.sum())]


def _axis(rng, v, allow_none=True, allow_tuple=True):
    if v.ndim == 0 or (allow_none and rng.random() < 0.3):
        return "None"
    if allow_tuple and v.ndim >= 2 and rng.random() < 0.25:
        axes = sorted(rng.choice(v.ndim, size=2, replace=False).tolist())
        return repr(tuple(int(a) - (v.ndim if rng.random() < 0.3 else 0) for a in axes))
    a = int(rng.integers(v.ndim))
    return str(a - v.ndim if rng.random() < 0.3 else a)


def _scalar(rng, v):
    """A Python scalar operand: float for float variables, sometimes int."""
    if v.is_float or rng.random() < 0.3:
        return repr(float(rng.choice([0.0, -0.0, 0.5, 1.0, 2.0, -1.5, 3.0])))
    return repr(int(rng.choice([0, 1, 2, -1, 3])))


def _unary(template, pred=lambda v: True):
    def gen(rng, env):
        v = _pick(rng, env, pred)
        return None if v is None else template.format(x=v.name)

    return gen


def _binary(template, pred=lambda v: True, scalar_ok=True):
    def gen(rng, env):
        a = _pick(rng, env, pred)
        if a is None:
            return None
        r = rng.random()
        if scalar_ok and r < 0.3:
            s = _scalar(rng, a)
            return (
                template.format(x=a.name, y=s)
                if rng.random() < 0.5
                else template.format(x=s, y=a.name)
            )
        # A broadcast-compatible partner: same shape, a suffix, or size-1 dims.
        b = _pick(rng, env, lambda v: pred(v) and _broadcastable(v.shape, a.shape))
        if b is None:
            b = a
        return template.format(x=a.name, y=b.name)

    return gen


def _broadcastable(s, t):
    for x, y in zip(reversed(s), reversed(t)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def _float(v):
    return v.is_float


def _num(v):
    return v.dtype != "bool"


def _reduction(fn, extra=lambda rng, v: "", pred=_num):
    def gen(rng, env):
        v = _pick(rng, env, pred)
        if v is None:
            return None
        kd = ", keepdims=True" if rng.random() < 0.3 else ""
        return f"{fn}({v.name}, axis={_axis(rng, v)}{kd}{extra(rng, v)})"

    return gen


def _ddof(rng, v):
    return f", ddof={int(rng.choice([0, 1, 2, 5]))}" if rng.random() < 0.5 else ""


def _one_axis_op(fn, pred=_num, extra=""):
    def gen(rng, env):
        v = _pick(rng, env, lambda v: pred(v) and v.ndim >= 1)
        if v is None:
            return None
        return f"{fn}({v.name}, axis={_axis(rng, v, allow_none=False, allow_tuple=False)}{extra})"

    return gen


def _reshape(rng, env):
    v = _pick(rng, env)
    if v is None:
        return None
    size = int(np.prod(v.shape))
    opts = ["(-1,)", "(1, -1)", f"{v.shape + (1,)!r}", f"{(1,) + v.shape!r}"]
    if size and size % 2 == 0:
        opts.append("(2, -1)")
    return f"jnp.reshape({v.name}, {rng.choice(opts)})"


def _transpose(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 2)
    if v is None:
        return None
    return f"jnp.transpose({v.name}, {tuple(int(i) for i in rng.permutation(v.ndim))!r})"


def _expand(rng, env):
    v = _pick(rng, env)
    if v is None:
        return None
    return f"jnp.expand_dims({v.name}, {int(rng.integers(-v.ndim - 1, v.ndim + 1))})"


def _squeeze(rng, env):
    v = _pick(rng, env, lambda v: 1 in v.shape)
    if v is None:
        return None
    return f"jnp.squeeze({v.name}, axis={v.shape.index(1)})"


def _broadcast_to(rng, env):
    v = _pick(rng, env, lambda v: v.ndim <= 2)
    if v is None:
        return None
    shape = tuple(3 if d == 1 and rng.random() < 0.5 else d for d in v.shape)
    if rng.random() < 0.5:
        shape = (2,) + shape
    return f"jnp.broadcast_to({v.name}, {shape!r})"


def _concat(rng, env):
    a = _pick(rng, env, lambda v: v.ndim >= 1)
    if a is None:
        return None
    b = _pick(rng, env, lambda v: v.ndim == a.ndim and v.shape[1:] == a.shape[1:]) or a
    return f"jnp.concatenate([{a.name}, {b.name}], axis=0)"


def _stack(rng, env):
    a = _pick(rng, env)
    if a is None:
        return None
    b = _pick(rng, env, lambda v: v.shape == a.shape) or a
    return f"jnp.stack([{a.name}, {b.name}], axis={int(rng.integers(-1, a.ndim + 1))})"


def _slice(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    idx = rng.choice(["1:", "::-1", ":1", "::2", "-2:", "1:-1", "None, :", "..., :1", ":0"])
    if v.ndim >= 2 and rng.random() < 0.4:
        idx = rng.choice([":, 1:", ":, ::-1", "1:, :1", ":, None, :", "..., 0"])
    return f"{v.name}[{idx}]"


def _int_index(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    i = int(rng.choice([0, 1, -1, 2, 5, -4]))
    return f"{v.name}[{i}]"


def _array_index(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    idx = rng.choice(["[0, -1, 1]", "[2, 0]", "[0]", "[5, -6]", "[[0, 1], [1, 0]]", "[]"])
    if rng.random() < 0.3 and v.ndim >= 2:
        return f"{v.name}[:, jnp.array({idx}, jnp.int32)]"
    return f"{v.name}[jnp.array({idx}, jnp.int32)]"


_A = "jnp.array({}, jnp.int32)"
# Mixed indices (NumPy's layout: ints next to index arrays are advanced; a None, slice or
# Ellipsis between advanced indices puts their dimensions first), and JAX's strategies for
# out-of-bounds ints (a dynamic_slice; a gather next to a strided slice).
_MIXED = {
    2: [
        "1, " + _A.format("[0, -1]"),
        _A.format("[1, 0]") + ", None, 0",
        "None, " + _A.format("[0]") + ", ::-1",
        "..., " + _A.format("[0, 1]") + ", None",
        ":, " + _A.format("[[0], [1]]"),
        _A.format("[0, 1]") + ", ..., 0",
        "5, ::2",
        "-7, ::-1",
        "5, :",
        "None, 5",
    ],
    3: [
        "0, :, " + _A.format("[1, 0]"),
        _A.format("[0, 1]") + ", :, " + _A.format("[1, 0]"),
        "None, " + _A.format("[0]") + ", :, -1, None",
        "1, ::2, " + _A.format("[0]"),
        _A.format("[1]") + ", " + _A.format("[0, 1]") + ", None",
    ],
}


def _mixed_index(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 2)
    if v is None:
        return None
    forms = _MIXED[2] + (_MIXED[3] if v.ndim >= 3 else [])
    idx = forms[int(rng.integers(len(forms)))]
    if v.dtype != "bool" and rng.random() < 0.3:
        return f"{v.name}.at[{idx}].add({_scalar(rng, v)})"
    return f"{v.name}[{idx}]"


def _take(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    mode = rng.choice(["None", "'clip'", "'wrap'", "'fill'"])
    idx = rng.choice(["[0, 2]", "[-1]", "[3, 0, 7]", "[]"])
    axis = _axis(rng, v, allow_tuple=False)
    return f"jnp.take({v.name}, jnp.array({idx}, jnp.int32), axis={axis}, mode={mode})"


def _take_along(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    axis = int(rng.integers(v.ndim))
    ishape = tuple(min(d, 2) if i == axis else d for i, d in enumerate(v.shape))
    return (
        f"jnp.take_along_axis({v.name}, jnp.zeros({ishape!r}, jnp.int32) + "
        f"{int(rng.choice([0, 1, -1]))}, axis={axis})"
    )


def _at(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1 and v.dtype != "bool")
    if v is None:
        return None
    method = rng.choice(["set", "add", "mul", "min", "max"])
    idx = rng.choice(
        ["0", "-1", "1:", "jnp.array([0, 0, 1], jnp.int32)", "5", "jnp.array([-1, 4], jnp.int32)"]
    )
    upd = _pick(rng, env, lambda u: u.shape == () and u.dtype == v.dtype)
    val = upd.name if upd is not None and rng.random() < 0.5 else _scalar(rng, v)
    mode = rng.choice(["", "", ", mode='drop'", ", mode='clip'", ", mode='promise_in_bounds'"])
    return f"{v.name}.at[{idx}].{method}({val}{mode})"


def _dynamic_slice(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1 and all(d >= 1 for d in v.shape))
    if v is None:
        return None
    start = tuple(int(rng.choice([0, 1, -1, 5])) for _ in v.shape)
    sizes = tuple(int(rng.integers(0, d + 1)) for d in v.shape)
    return f"lax.dynamic_slice({v.name}, {start!r}, {sizes!r})"


def _dynamic_update_slice(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    u = _pick(
        rng,
        env,
        lambda u: (
            u.ndim == v.ndim
            and u.dtype == v.dtype
            and all(a <= b for a, b in zip(u.shape, v.shape))
        ),
    )
    if u is None:
        return None
    start = tuple(int(rng.choice([0, 1, -1, 7])) for _ in v.shape)
    return f"lax.dynamic_update_slice({v.name}, {u.name}, {start!r})"


def _dot(rng, env):
    a = _pick(rng, env, lambda v: 1 <= v.ndim <= 2 and v.dtype != "bool")
    if a is None:
        return None
    k = a.shape[-1]
    b = _pick(rng, env, lambda v: 1 <= v.ndim <= 2 and v.shape[0] == k and v.dtype != "bool")
    if b is None:
        return None
    fn = rng.choice(["jnp.dot({a}, {b})", "jnp.matmul({a}, {b})", "{a} @ {b}"])
    return fn.format(a=a.name, b=b.name)


def _einsum(rng, env):
    a = _pick(rng, env, lambda v: v.ndim == 2)
    if a is None:
        return None
    b = _pick(rng, env, lambda v: v.ndim == 2 and v.shape[0] == a.shape[1])
    if b is not None and rng.random() < 0.6:
        spec = rng.choice(["ij,jk->ik", "ij,jk->ki", "ij,jk->", "ij,jk->j"])
        return f"jnp.einsum({spec!r}, {a.name}, {b.name})"
    spec = rng.choice(["ij->ji", "ij->i", "ij->", "ii->i" if a.shape[0] == a.shape[1] else "ij->j"])
    return f"jnp.einsum({spec!r}, {a.name})"


def _astype(rng, env):
    v = _pick(rng, env)
    if v is None:
        return None
    dt = rng.choice(
        ["jnp.float32", "jnp.int32", "jnp.bool_", "jnp.float16", "jnp.bfloat16", "jnp.uint8"]
    )
    if rng.random() < 0.3:
        return f"lax.convert_element_type({v.name}, {dt})"
    return f"{v.name}.astype({dt})"


def _where(rng, env):
    a = _pick(rng, env, _num)
    if a is None:
        return None
    b = _pick(rng, env, lambda v: _num(v) and _broadcastable(v.shape, a.shape)) or a
    c = rng.choice([f"{a.name} > 0", f"jnp.isnan({a.name})", f"{a.name} == {b.name}"])
    other = b.name if rng.random() < 0.6 else _scalar(rng, a)
    return f"jnp.where({c}, {a.name}, {other})"


def _cond(rng, env):
    v = _pick(rng, env, _float)
    if v is None:
        return None
    br = rng.choice(
        [
            "lambda a: jnp.sin(a), lambda a: a * 2.0",
            "lambda a: a, lambda a: -a",
            "lambda a: jnp.abs(a) + 1.0, lambda a: a ** 2",
        ]
    )
    return f"lax.cond(jnp.sum({v.name}) > 0, {br}, {v.name})"


def _fori(rng, env):
    v = _pick(rng, env, _float)
    if v is None:
        return None
    body = rng.choice(["c * 0.5 + 1.0", "jnp.sin(c) + i", "c * c", "jnp.maximum(c, 0.5)"])
    return f"lax.fori_loop(0, {int(rng.choice([0, 1, 3]))}, lambda i, c: {body}, {v.name})"


def _while(rng, env):
    v = _pick(rng, env, _float)
    if v is None:
        return None
    body = "lambda ic: (ic[0] + 1, ic[1] * 0.5 + 1.0)"
    return f"lax.while_loop(lambda ic: ic[0] < 3, {body}, (0, {v.name}))[1]"


def _scan(rng, env):
    v = _pick(rng, env, lambda v: _float(v) and v.ndim >= 1)
    if v is None:
        return None
    body = rng.choice(
        [
            "lambda c, x: (c + x, c * x)",
            "lambda c, x: (jnp.sin(c) * x, c)",
            "lambda c, x: (jnp.maximum(c, x), c - x)",
        ]
    )
    part = rng.choice(["[0]", "[1]"])
    init = rng.choice(
        [f"{v.name}[0]", f"jnp.zeros_like({v.name}[0])", "0.0" if v.ndim == 1 else f"{v.name}[0]"]
    )
    rev = ", reverse=True" if rng.random() < 0.3 else ""
    return f"lax.scan({body}, {init}, {v.name}{rev}){part}"


def _cum(rng, env):
    v = _pick(rng, env, _num)
    if v is None:
        return None
    fn = rng.choice(["jnp.cumsum", "jnp.cumprod"])
    if v.ndim >= 1 and rng.random() < 0.3:
        fn2 = rng.choice(["lax.cummax", "lax.cummin", "lax.cumsum", "lax.cumprod"])
        rev = rng.choice(["False", "True"])
        return f"{fn2}({v.name}, axis={int(rng.integers(v.ndim))}, reverse={rev})"
    return f"{fn}({v.name}, axis={_axis(rng, v, allow_tuple=False)})"


def _sort(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1 and _num(v))
    if v is None:
        return None
    fn = rng.choice(["jnp.sort", "jnp.argsort"])
    return f"{fn}({v.name}, axis={int(rng.integers(-v.ndim, v.ndim))})"


def _pad(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    widths = tuple((int(rng.integers(0, 2)), int(rng.integers(0, 2))) for _ in v.shape)
    if rng.random() < 0.3 and v.dtype != "bool":
        cfg = tuple((lo, hi, int(rng.integers(0, 2))) for lo, hi in widths)
        return f"lax.pad({v.name}, jnp.zeros((), {v.name}.dtype), {cfg!r})"
    return f"jnp.pad({v.name}, {widths!r})"


def _misc_shape(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1)
    if v is None:
        return None
    ax = int(rng.integers(v.ndim))
    return rng.choice(
        [
            f"jnp.flip({v.name}, axis={ax})",
            f"jnp.roll({v.name}, {int(rng.integers(-2, 3))}, axis={ax})",
            f"jnp.tile({v.name}, 2)",
            f"jnp.repeat({v.name}, 2, axis={ax})",
            f"jnp.diff({v.name}, axis={ax})",
            f"jnp.moveaxis({v.name}, {ax}, 0)",
        ]
    )


def _softmax(rng, env):
    v = _pick(rng, env, lambda v: _float(v) and v.ndim >= 1)
    if v is None:
        return None
    fn = rng.choice(["jax.nn.softmax", "jax.nn.log_softmax", "jax.nn.logsumexp"])
    return f"{fn}({v.name}, axis={int(rng.integers(-v.ndim, v.ndim))})"


def _lax_binary(rng, env):
    a = _pick(rng, env, _float)
    if a is None:
        return None
    b = _pick(
        rng,
        env,
        lambda v: v.dtype == a.dtype and v.ndim == a.ndim and _broadcastable(v.shape, a.shape),
    )
    other = b.name if b is not None and rng.random() < 0.7 else _scalar(rng, a)
    fn = rng.choice(["lax.add", "lax.mul", "lax.sub", "lax.max", "lax.div", "lax.lt"])
    return f"{fn}({a.name}, {other})"


def _reduce_where(rng, env):
    """Reductions with ``where=`` (and ``initial=`` for max/min, which need it)."""
    v = _pick(rng, env, lambda v: _num(v) and v.ndim >= 1)
    if v is None:
        return None
    fn = rng.choice(["jnp.sum", "jnp.prod", "jnp.mean", "jnp.max", "jnp.min", "jnp.var"])
    mask = rng.choice([f"{v.name} > 0", f"~jnp.isnan({v.name})", f"{v.name} != {v.name}"])
    extra = ", initial=-1.0" if fn == "jnp.max" else ", initial=1.0" if fn == "jnp.min" else ""
    return f"{fn}({v.name}, axis={_axis(rng, v, allow_tuple=False)}, where={mask}{extra})"


def _assoc_scan(rng, env):
    v = _pick(rng, env, lambda v: _num(v) and v.ndim >= 1)
    if v is None:
        return None
    fn = rng.choice(["jnp.add", "jnp.multiply", "jnp.maximum", "lax.min"])
    rev = ", reverse=True" if rng.random() < 0.4 else ""
    return f"lax.associative_scan({fn}, {v.name}, axis={int(rng.integers(v.ndim))}{rev})"


def _lax_map(rng, env):
    v = _pick(rng, env, lambda v: _float(v) and v.ndim >= 1)
    if v is None:
        return None
    body = rng.choice(["lambda r: jnp.sin(r) * r", "lambda r: jnp.cumsum(r ** 2)", "jnp.sort"])
    bs = rng.choice(["", ", batch_size=1", ", batch_size=2", ", batch_size=3"])
    return f"lax.map({body}, {v.name}{bs})"


def _cumlse(rng, env):
    v = _pick(rng, env, lambda v: _float(v) and v.ndim >= 1)
    if v is None:
        return None
    rev = rng.choice(["False", "True"])
    return f"lax.cumlogsumexp({v.name}, axis={int(rng.integers(v.ndim))}, reverse={rev})"


def _top_k(rng, env):
    v = _pick(rng, env, lambda v: _num(v) and v.ndim >= 1 and v.shape[-1] >= 1)
    if v is None:
        return None
    k = int(rng.integers(1, v.shape[-1] + 1))
    return f"lax.top_k({v.name}, {k})[{int(rng.integers(2))}]"


def _switch(rng, env):
    """``lax.switch`` on a scalar int variable (batched under vmap) or a constant (clamped
    when out of range)."""
    v = _pick(rng, env, _float)
    if v is None:
        return None
    i = _pick(rng, env, lambda w: w.is_int and w.ndim == 0)
    idx = i.name if i is not None and rng.random() < 0.7 else str(int(rng.integers(-1, 4)))
    br = "[lambda a: a * 2.0, lambda a: jnp.sin(a), lambda a: -a]"
    return f"lax.switch({idx}, {br}, {v.name})"


def _batched_cond(rng, env):
    """``lax.cond`` on an elementwise-derived scalar predicate (a batched predicate under
    vmap when its operand is batched)."""
    v = _pick(rng, env, _float)
    p = _pick(rng, env, lambda w: w.ndim == 0 and _num(w))
    if v is None or p is None:
        return None
    return f"lax.cond({p.name} > 0, lambda a: jnp.cos(a) * 3.0, lambda a: a - 1.0, {v.name})"


def _custom(rng, env):
    """custom_jvp / custom_vjp functions with a nondiff argument (from the runner's
    HELPERS): their rules scale the true derivative, so a bypassed rule shows."""
    v = _pick(rng, env, _float)
    if v is None:
        return None
    return rng.choice([f"cj_pow(2, {v.name})", f"cj_pow(3, {v.name})", f"cv_clip(0.5, {v.name})"])


def _loop_unroll(rng, env):
    v = _pick(rng, env, lambda v: _float(v) and v.ndim >= 1)
    if v is None:
        return None
    unroll = rng.choice(["2", "True", "3"])
    if rng.random() < 0.5:
        rev = ", reverse=True" if rng.random() < 0.5 else ""
        return (
            f"lax.scan(lambda c, x: (c * 0.5 + x, jnp.sin(c)), {v.name}[0], {v.name}"
            f"{rev}, unroll={unroll})[{int(rng.integers(2))}]"
        )
    return f"lax.fori_loop(0, 3, lambda i, c: c * 0.5 + i, {v.name}, unroll={unroll})"


def _mixed_carry(rng, env):
    """Loops whose carry is a pytree of mixed dtypes: a float, an int32 counter and a bool
    flag (a tuple), or a dict with an int and a float leaf; the int/bool leaves feed the
    float one, so their (float0) tangents and batching travel with it."""
    v = _pick(rng, env, _float)
    if v is None:
        return None
    kind = int(rng.integers(3))
    if kind == 0 and v.ndim >= 1:
        body = (
            "lambda c, x: ((jnp.where(c[2], c[0] * x, c[0] + x), c[1] + 1, "
            "jnp.logical_not(c[2])), c[0] * c[1])"
        )
        init = f"({v.name}[0], jnp.int32(0), {rng.choice(['True', 'False'])})"
        rev = ", reverse=True" if rng.random() < 0.3 else ""
        part = rng.choice(["[0][0]", "[0][1]", "[1]"])
        return f"lax.scan({body}, {init}, {v.name}{rev}){part}"
    if kind == 1:
        body = "lambda i, c: (jnp.sin(c[0]) * 0.5 + c[1], c[1] + i, c[2] ^ (i > 0))"
        n = int(rng.choice([0, 1, 3]))
        return f"lax.fori_loop(0, {n}, {body}, ({v.name}, 1, False))[{int(rng.integers(2))}]"
    body = "lambda c: {'n': c['n'] + 1, 'a': jnp.cos(c['a']) + c['n']}"
    return f"lax.while_loop(lambda c: c['n'] < 2, {body}, {{'n': 0, 'a': {v.name}}})['a']"


def _sort_multi(rng, env):
    """``lax.sort`` of two operands of one shape (keys then a payload, or two keys)."""
    a = _pick(rng, env, lambda v: v.ndim >= 1 and _num(v))
    if a is None:
        return None
    b = _pick(rng, env, lambda v: v.shape == a.shape and v.name != a.name) or a
    d = int(rng.integers(-a.ndim, a.ndim))
    nk = int(rng.choice([1, 2]))
    return f"lax.sort(({a.name}, {b.name}), dimension={d}, num_keys={nk})[{int(rng.integers(2))}]"


def _safe_where(rng, env):
    """The NaN-safe ``where`` pattern: the unsafe branch's argument is itself masked, so
    derivatives stay finite (and the unmasked variant, whose derivative is NaN * 0)."""
    v = _pick(rng, env, _float)
    if v is None:
        return None
    fn = rng.choice(["jnp.log", "jnp.sqrt", "jnp.reciprocal", "jnp.arctanh"])
    if rng.random() < 0.7:
        return f"jnp.where({v.name} > 0, {fn}(jnp.where({v.name} > 0, {v.name}, 0.5)), 0.0)"
    return f"jnp.where({v.name} > 0, {fn}({v.name}), 0.0)"


def _segment(rng, env):
    """``jax.ops.segment_sum`` / ``segment_max`` / ``segment_prod`` over the leading axis,
    with constant segment ids (repeats, out-of-range and negative ids included)."""
    v = _pick(rng, env, lambda v: v.ndim >= 1 and _num(v))
    if v is None:
        return None
    n = v.shape[0]
    ids = [int(i) for i in rng.integers(-1, 4, size=n)]
    fn = rng.choice(["segment_sum", "segment_sum", "segment_max", "segment_prod"])
    srt = ", indices_are_sorted=True" if rng.random() < 0.2 and ids == sorted(ids) else ""
    return f"jax.ops.{fn}({v.name}, jnp.array({ids!r}, jnp.int32), num_segments=3{srt})"


_FLOAT_UNARY = [
    "jnp.sin({x})", "jnp.cos({x})", "jnp.tanh({x})", "jnp.exp({x})", "jnp.log({x})",
    "jnp.sqrt({x})", "jnp.log1p({x})", "jnp.expm1({x})", "jnp.arctan({x})", "jnp.sinh({x})",
    "jnp.arcsinh({x})", "jnp.reciprocal({x})", "jax.nn.relu({x})", "jax.nn.sigmoid({x})",
    "jax.nn.gelu({x})", "jax.nn.softplus({x})", "jax.scipy.special.erf({x})",
    "jax.scipy.special.gammaln({x})", "jax.scipy.special.digamma({x})", "jnp.cbrt({x})",
    "jnp.round({x})", "jnp.trunc({x})", "jnp.isnan({x})", "jnp.isfinite({x})", "jnp.signbit({x})",
    "jax.nn.silu({x})", "jnp.arccos({x})", "jnp.arctanh({x})", "jax.nn.elu({x})",
]  # fmt: skip
_ANY_UNARY = [
    "jnp.abs({x})", "jnp.negative({x})", "jnp.square({x})", "jnp.floor({x})", "jnp.ceil({x})",
    "jnp.sign({x})", "{x} ** 2", "{x} ** 3", "-{x}", "jnp.logical_not({x})", "jax.nn.relu({x})",
    "jnp.float_power({x}, 2)", "jnp.positive({x})",
]  # fmt: skip
_BINARY = [
    "{x} + {y}", "{x} - {y}", "{x} * {y}", "{x} / {y}", "{x} ** {y}", "jnp.maximum({x}, {y})",
    "jnp.minimum({x}, {y})", "jnp.arctan2({x}, {y})", "jnp.hypot({x}, {y})",
    "jnp.fmod({x}, {y})", "{x} % {y}", "{x} // {y}", "jnp.logaddexp({x}, {y})",
    "jax.scipy.special.xlogy({x}, {y})", "jnp.copysign({x}, {y})", "{x} < {y}",
    "{x} >= {y}", "{x} == {y}", "jnp.heaviside({x}, {y})", "jnp.fmax({x}, {y})",
]  # fmt: skip
_INT_BINARY = ["{x} & {y}", "{x} | {y}", "{x} ^ {y}", "{x} << {y}", "{x} >> {y}"]


def _choice_of(templates, maker, **kw):
    def gen(rng, env):
        return maker(templates[int(rng.integers(len(templates)))], **kw)(rng, env)

    return gen


OPS = [
    ("float_unary", 8, _choice_of(_FLOAT_UNARY, _unary, pred=_float)),
    ("any_unary", 4, _choice_of(_ANY_UNARY, _unary)),
    ("binary", 10, _choice_of(_BINARY, _binary, pred=_num)),
    (
        "int_binary",
        1,
        _choice_of(_INT_BINARY, _binary, pred=lambda v: v.is_int or v.dtype == "bool"),
    ),
    ("lax_binary", 2, _lax_binary),
    ("sum", 2, _reduction("jnp.sum")),
    ("prod", 2, _reduction("jnp.prod")),
    ("mean", 1, _reduction("jnp.mean")),
    ("max", 2, _reduction("jnp.max")),
    ("min", 1, _reduction("jnp.min")),
    ("var", 1, _reduction("jnp.var", _ddof)),
    ("std", 1, _reduction("jnp.std", _ddof)),
    ("any", 1, _reduction("jnp.any", pred=lambda v: True)),
    ("argmax", 1, _reduction("jnp.argmax", pred=_num)),
    ("argmin", 1, _one_axis_op("jnp.argmin")),
    ("cum", 2, _cum),
    ("softmax", 1, _softmax),
    ("reshape", 2, _reshape),
    ("transpose", 1, _transpose),
    ("expand_dims", 1, _expand),
    ("squeeze", 1, _squeeze),
    ("broadcast_to", 1, _broadcast_to),
    ("concatenate", 1, _concat),
    ("stack", 1, _stack),
    ("slice", 2, _slice),
    ("int_index", 1, _int_index),
    ("array_index", 2, _array_index),
    ("mixed_index", 2, _mixed_index),
    ("take", 1, _take),
    ("take_along_axis", 1, _take_along),
    ("at", 3, _at),
    ("dynamic_slice", 1, _dynamic_slice),
    ("dynamic_update_slice", 1, _dynamic_update_slice),
    ("dot", 2, _dot),
    ("einsum", 1, _einsum),
    ("astype", 2, _astype),
    ("where", 2, _where),
    ("cond", 1, _cond),
    ("fori_loop", 1, _fori),
    ("while_loop", 1, _while),
    ("scan", 1, _scan),
    ("sort", 1, _sort),
    ("pad", 1, _pad),
    ("misc_shape", 2, _misc_shape),
    ("reduce_where", 1, _reduce_where),
    ("associative_scan", 1, _assoc_scan),
    ("lax_map", 1, _lax_map),
    ("cumlogsumexp", 1, _cumlse),
    ("top_k", 1, _top_k),
    ("switch", 1, _switch),
    ("batched_cond", 1, _batched_cond),
    ("custom_derivative", 1, _custom),
    ("loop_unroll", 1, _loop_unroll),
    ("mixed_carry", 1, _mixed_carry),
    ("sort_multi", 1, _sort_multi),
    ("safe_where", 1, _safe_where),
    ("segment", 1, _segment),
]
