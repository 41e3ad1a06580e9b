"""Native-tier rules (``rules.native_rules``) of the shape, conversion and reduction
families, registered next to each primitive's other rules.

A rule gets the kernel context (``compile/native.py``), the equation, the names holding its
operands and the names to assign; it returns lines of Numba-compilable Python, or None
when these params are outside the native subset (the region then stays in the Python
tier). Values of shape ``()`` are Numba scalars of their exact dtype, others arrays. Only
generated names, dtype names and integers (shapes, axes, starts) reach the source.
"""

from __future__ import annotations

import math

import numpy as np

from jaxlite._src.config import config as _config


def _tup(xs) -> str:
    xs = [int(x) for x in xs]
    return "(" + "".join(f"{x}, " for x in xs) + ")"


def _cast_array(ctx, expr: str, dtype) -> str:
    return f"({expr}).astype({ctx.dtype(dtype)})"


def reshape_to(ctx, x: str, in_aval, shape) -> str:
    """``x`` (of ``in_aval``) reshaped to ``shape`` (either may be ``()``)."""
    shape = tuple(int(d) for d in shape)
    if in_aval.shape == ():
        return x if shape == () else f"np.full({_tup(shape)}, {x}, {ctx.dtype(in_aval.dtype)})"
    if shape == ():
        return f"{x}.flat[0]"  # a size-1 array: its element, no copy
    if shape == tuple(in_aval.shape):
        return x
    return f"np.ascontiguousarray({x}).reshape({_tup(shape)})"


# ------------------------------------------------------------------------------ shape
def reshape(ctx, eqn, ins, outs):
    return [f"{outs[0]} = {reshape_to(ctx, ins[0], eqn.invars[0].aval, eqn.outvars[0].aval.shape)}"]


def broadcast_in_dim(ctx, eqn, ins, outs):
    x, (out,) = eqn.invars[0].aval, eqn.outvars
    shape, bdims = eqn.params["shape"], eqn.params["broadcast_dimensions"]
    if out.aval.shape == ():
        return [f"{outs[0]} = {reshape_to(ctx, ins[0], x, ())}"]
    if x.shape == ():
        return [f"{outs[0]} = np.full({_tup(shape)}, {ins[0]}, {ctx.dtype(x.dtype)})"]
    s = [1] * len(shape)
    for i, d in enumerate(bdims):
        s[d] = x.shape[i]
    r = reshape_to(ctx, ins[0], x, s)
    if tuple(s) == tuple(shape):
        return [f"{outs[0]} = {r}"]
    return [f"{outs[0]} = np.broadcast_to({r}, {_tup(shape)})"]


def transpose(ctx, eqn, ins, outs):
    perm = eqn.params["permutation"]
    if len(perm) < 2:
        return [f"{outs[0]} = {ins[0]}"]
    return [f"{outs[0]} = np.transpose({ins[0]}, {_tup(perm)})"]


def _index(parts) -> str:
    return "[" + ", ".join(parts) + ("," if len(parts) == 1 else "") + "]"


def rev(ctx, eqn, ins, outs):
    dims = eqn.params["dimensions"]
    nd = len(eqn.invars[0].aval.shape)
    parts = ["::-1" if i in dims else ":" for i in range(nd)]
    return [f"{outs[0]} = {ins[0]}{_index(parts)}" if dims else f"{outs[0]} = {ins[0]}"]


def slice_(ctx, eqn, ins, outs):
    p = eqn.params
    strides = p["strides"] or (1,) * len(p["start_indices"])
    if not strides:
        return [f"{outs[0]} = {ins[0]}"]
    parts = [
        f"{int(s)}:{int(e)}:{int(st)}"
        for s, e, st in zip(p["start_indices"], p["limit_indices"], strides)
    ]
    return [f"{outs[0]} = {ins[0]}{_index(parts)}"]


def _clamped_starts(ctx, starts, shape, sizes) -> tuple[list[str], list[str]]:
    lines, names = [], []
    for s, n, k in zip(starts, shape, sizes):
        name = ctx.fresh("s")
        lines.append(f"{name} = min(max(np.int64({s}), 0), {int(n) - int(k)})")
        names.append(name)
    return lines, names


def dynamic_slice(ctx, eqn, ins, outs):
    x, sizes = eqn.invars[0].aval, eqn.params["slice_sizes"]
    if x.shape == ():
        return [f"{outs[0]} = {ins[0]}"]
    lines, st = _clamped_starts(ctx, ins[1:], x.shape, sizes)
    parts = [f"{s}:{s} + {int(k)}" for s, k in zip(st, sizes)]
    return lines + [f"{outs[0]} = {ins[0]}{_index(parts)}"]


def dynamic_update_slice(ctx, eqn, ins, outs):
    x, u = eqn.invars[0].aval, eqn.invars[1].aval
    if x.shape == ():
        return [f"{outs[0]} = {ins[1]}"]
    lines, st = _clamped_starts(ctx, ins[2:], x.shape, u.shape)
    parts = [f"{s}:{s} + {int(k)}" for s, k in zip(st, u.shape)]
    return lines + [f"{outs[0]} = {ins[0]}.copy()", f"{outs[0]}{_index(parts)} = {ins[1]}"]


def concatenate(ctx, eqn, ins, outs):
    dim = int(eqn.params["dimension"])
    return [f"{outs[0]} = np.concatenate(({''.join(n + ', ' for n in ins)}), axis={dim})"]


def squeeze(ctx, eqn, ins, outs):
    return reshape(ctx, eqn, ins, outs)


# ------------------------------------------------------------------------------ shifts
def shift(ctx, eqn, ins, outs, op, clip):
    """Shifts with the Python tier's semantics (``op``: ``<<``, ``>>``, ``>>>`` logical)."""
    # The Python tier's semantics: out-of-range counts give 0 (or clip, for arithmetic >>).
    (x, y), out = ins, eqn.outvars[0].aval
    xa, ya = eqn.invars[0].aval, eqn.invars[1].aval
    if op == ">>>" and np.dtype(xa.dtype).kind != "u":
        return None  # logical shift of signed values: left to the Python tier
    nbits = np.dtype(xa.dtype).itemsize * 8
    zero, y0 = ctx.const(np.zeros((), xa.dtype)), ctx.const(np.zeros((), ya.dtype))
    top, nb = ctx.const(np.asarray(nbits - 1, ya.dtype)), ctx.const(np.asarray(nbits, ya.dtype))
    sym = "<<" if op == "<<" else ">>"
    if clip:
        # Negative amounts are out of range too (they fill with the sign bit).
        yc = (
            f"({top} if {y} < {y0} else min({y}, {top}))"
            if ya.shape == ()
            else f"np.where({y} < {y0}, {top}, np.minimum({y}, {top}))"
        )
        if np.dtype(xa.dtype).kind == "u":
            # The top bit is the sign: shift the signed view (C casts wrap), as the Python tier.
            sdt, udt = f"np.int{nbits}", f"np.{np.dtype(xa.dtype).name}"
            ys = f"{sdt}({yc})" if ya.shape == () else f"({yc}).astype({sdt})"
            if xa.shape == ():
                expr = f"{udt}({sdt}({x}) >> {ys})"
            else:
                expr = f"({x}.astype({sdt}) >> {ys}).astype({udt})"
            return [f"{outs[0]} = {ctx.typed(expr, out)}"]
        return [f"{outs[0]} = {ctx.typed(f'{x} {sym} {yc}', out)}"]
    if out.shape == ():
        expr = f"({zero} if ({y} < {y0} or {y} >= {nb}) else {x} {sym} {y})"
    else:
        expr = f"np.where(({y} < {y0}) | ({y} >= {nb}), {zero}, {x} {sym} {y})"
    return [f"{outs[0]} = {ctx.typed(expr, out)}"]


def shift_rule(op: str, clip: bool):
    """The native rule of a shift primitive (one expression line: fusable)."""

    def rule(ctx, eqn, ins, outs):
        return shift(ctx, eqn, ins, outs, op, clip)

    rule.native_expr = True
    return rule


# ------------------------------------------------------------------------- conversion
def convert_element_type(ctx, eqn, ins, outs):
    x, out = eqn.invars[0].aval, eqn.outvars[0].aval
    new, src = np.dtype(out.dtype), np.dtype(x.dtype)
    scalar = out.shape == ()
    if new == np.bool_ and src != np.bool_:
        expr = f"{ins[0]} != {ctx.const(np.zeros((), src))}"
        return [f"{outs[0]} = {ctx.typed(expr, out)}"]
    if new.kind in "iu" and src.kind == "f":
        # As the Python tier: saturate to the integer range, NaN to 0, then cast. The
        # integer maximum may not be a float of ``src`` (int32's rounds up to 2**31, which
        # would overflow to INT_MIN): clip to the largest float below it, and send values
        # above that to the maximum exactly.
        info = np.iinfo(new)
        hi_f = src.type(info.max)
        if int(hi_f) > info.max:
            hi_f = np.nextafter(hi_f, src.type(0))
        lo, hi = ctx.const(np.asarray(info.min, src)), ctx.const(np.asarray(hi_f, src))
        top = ctx.const(np.asarray(info.max, new))
        zero = ctx.const(np.zeros((), src))
        x = ins[0]
        if scalar:
            v = ctx.typed(f"({zero} if np.isnan({x}) else min(max({x}, {lo}), {hi}))", out)
            return [f"{outs[0]} = ({top} if {x} > {hi} else {v})"]
        v = f"np.where(np.isnan({x}), {zero}, np.minimum(np.maximum({x}, {lo}), {hi}))"
        return [f"{outs[0]} = np.where({x} > {hi}, {top}, {_cast_array(ctx, v, new)})"]
    if scalar:
        return [f"{outs[0]} = {ctx.typed(ins[0], out)}"]
    if new == src:
        return [f"{outs[0]} = {ins[0]}"]
    return [f"{outs[0]} = {_cast_array(ctx, ins[0], new)}"]


def iota(ctx, eqn, ins, outs):
    p = eqn.params
    shape, dim = tuple(p["shape"]), int(p["dimension"])
    r = _cast_array(ctx, f"np.arange({int(shape[dim])})", p["dtype"])
    if len(shape) == 1:
        return [f"{outs[0]} = {r}"]
    bshape = [1] * len(shape)
    bshape[dim] = shape[dim]
    return [f"{outs[0]} = np.broadcast_to({r}.reshape({_tup(bshape)}), {_tup(shape)})"]


# ------------------------------------------------------------------------ elementwise
_TANH_F32 = ("jaxlite._src.ops.tanh_numba", "tanh_f32")


def _xla_math(dt) -> bool:
    """Whether the Python tier computes ``dt`` with XLA's expansions (``jaxlite_xla_math``):
    then the native tier leaves exp and tanh of 32- and 16-bit floats to it."""
    return dt.itemsize <= 4 and _config.read("jaxlite_xla_math")


def exp(ctx, eqn, ins, outs):
    """``np.exp`` (LLVM's), except under ``jaxlite_xla_math``."""
    aval = eqn.outvars[0].aval
    dt = np.dtype(aval.dtype)
    if dt.kind != "f" or _xla_math(dt):
        return None
    return [f"{outs[0]} = {ctx.typed(f'np.exp({ins[0]})', aval)}"]


exp.native_expr = True  # one ``out = expr`` line: the emitter may inline it


def tanh(ctx, eqn, ins, outs):
    """float32: ``ops/tanh_numba.tanh_f32`` per element, a loop LLVM vectorises (``np.tanh``
    compiles to a scalar call of libm's ``tanhf`` per element, ~5x slower); float64 (and
    any other float dtype the kernel holds): ``np.tanh``, the C library's. Under
    ``jaxlite_xla_math``, 32- and 16-bit floats are left to the Python tier."""
    aval = eqn.outvars[0].aval
    dt = np.dtype(aval.dtype)
    if dt.kind != "f" or _xla_math(dt):
        return None
    if dt != np.float32:
        return [f"{outs[0]} = {ctx.typed(f'np.tanh({ins[0]})', aval)}"]
    return ctx.map_helper(ctx.helper(*_TANH_F32), ins[0], outs[0], aval)


_LOG_F32 = ("jaxlite._src.ops.xla_math32_numba", "log_f32", ("jaxlite._src.ops.xla_math32",))


def log(ctx, eqn, ins, outs):
    """float32: ``ops/xla_math32_numba.log_f32`` per element, XLA:CPU's ``log`` (the Python
    tier's ``ops/xla_math32`` kernel, element by element: the same bits); float64: ``np.log``,
    the C library's."""
    aval = eqn.outvars[0].aval
    dt = np.dtype(aval.dtype)
    if dt.kind != "f":
        return None
    if dt != np.float32:
        return [f"{outs[0]} = {ctx.typed(f'np.log({ins[0]})', aval)}"]
    return ctx.map_helper(ctx.helper(*_LOG_F32), ins[0], outs[0], aval)


# ------------------------------------------------------------------------- reductions
def reduction(np_name: str, partial_axes: bool, kinds: str = "fiub"):
    """The native rule of a reduction over ``axes``: ``np.<np_name>`` of the whole array, or
    (``partial_axes``) one axis at a time from the last; result re-cast to the dtype."""

    def rule(ctx, eqn, ins, outs):
        x, out = eqn.invars[0].aval, eqn.outvars[0].aval
        axes = tuple(sorted(eqn.params["axes"]))
        if np.dtype(x.dtype).kind not in kinds or 0 in x.shape:
            return None
        if not axes:
            return [f"{outs[0]} = {ins[0]}"]
        if out.shape == ():
            return [f"{outs[0]} = {ctx.typed(f'np.{np_name}({ins[0]})', out)}"]
        if not partial_axes:
            return None
        expr = ins[0]
        for a in reversed(axes):
            expr = f"np.{np_name}({expr}, axis={int(a)})"
        return [f"{outs[0]} = {_cast_array(ctx, expr, out.dtype)}"]

    return rule


# ------------------------------------------------------------- scalarized small arrays
# ``rules.native_scalar_rules``: the same primitives on small arrays held as one scalar
# local per element (see ``compile/native_emit.py``). Index-mapping rules move element
# names and emit nothing; each returns (lines, [element names per output]) or None.
def _flat(shape, idx) -> int:
    return int(np.ravel_multi_index(tuple(int(i) for i in idx), shape)) if shape else 0


def _positions(shape):
    return list(np.ndindex(*shape)) if shape else [()]


def scalar_same_order(ctx, eqn, ops):
    """reshape/squeeze: the elements in the same C order."""
    return [], [ops[0].elems()]


def scalar_broadcast_in_dim(ctx, eqn, ops):
    x = ops[0]
    shape, bdims = eqn.params["shape"], eqn.params["broadcast_dimensions"]
    out = []
    for idx in _positions(shape):
        src = [idx[d] if x.aval.shape[i] != 1 else 0 for i, d in enumerate(bdims)]
        out.append(x.elem(_flat(x.aval.shape, src)))
    return [], [out]


def scalar_slice(ctx, eqn, ops):
    p, x = eqn.params, ops[0]
    strides = p["strides"] or (1,) * len(p["start_indices"])
    out = [
        x.elem(
            _flat(x.aval.shape, [s + i * st for s, i, st in zip(p["start_indices"], idx, strides)])
        )
        for idx in _positions(eqn.outvars[0].aval.shape)
    ]
    return [], [out]


def scalar_concatenate(ctx, eqn, ops):
    dim = int(eqn.params["dimension"])
    owner = []  # (operand, offset) for each position along ``dim``
    for x in ops:
        owner += [(x, j) for j in range(x.aval.shape[dim])]
    out = []
    for idx in _positions(eqn.outvars[0].aval.shape):
        x, j = owner[idx[dim]]
        src = list(idx)
        src[dim] = j
        out.append(x.elem(_flat(x.aval.shape, src)))
    return [], [out]


def scalar_transpose(ctx, eqn, ops):
    x, perm = ops[0], eqn.params["permutation"]
    out = []
    for idx in _positions(eqn.outvars[0].aval.shape):
        src = [0] * len(perm)
        for j, d in enumerate(perm):
            src[d] = idx[j]
        out.append(x.elem(_flat(x.aval.shape, src)))
    return [], [out]


def scalar_rev(ctx, eqn, ops):
    x, dims = ops[0], eqn.params["dimensions"]
    shape = x.aval.shape
    out = [
        x.elem(
            _flat(
                shape, [n - 1 - i if d in dims else i for d, (i, n) in enumerate(zip(idx, shape))]
            )
        )
        for idx in _positions(shape)
    ]
    return [], [out]


def scalar_iota(ctx, eqn, ops):
    p = eqn.params
    shape, dim, dt = tuple(p["shape"]), int(p["dimension"]), ctx.dtype(p["dtype"])
    lines, out = [], []
    for idx in _positions(shape):
        e = ctx.fresh("e")
        lines.append(f"{e} = {dt}({int(idx[dim])})")
        out.append(e)
    return lines, [out]


def _scalar_starts(ctx, starts, shape, sizes):
    return _clamped_starts(ctx, [s.array() for s in starts], shape, sizes)


def _start_choices(shape, sizes):
    """Every combination of (clamped) start indices."""
    return _positions(tuple(int(n) - int(k) + 1 for n, k in zip(shape, sizes)))


def _when(starts, combo) -> str:
    return " and ".join(f"{s} == {int(c)}" for s, c in zip(starts, combo)) or "True"


def scalar_dynamic_slice(ctx, eqn, ops):
    x, sizes = ops[0], eqn.params["slice_sizes"]
    shape = x.aval.shape
    if shape == ():
        return None
    lines, st = _scalar_starts(ctx, ops[1:], shape, sizes)
    out = []
    if not x.scalarized:  # read the elements from the array at run time
        arr = x.array()
        for idx in _positions(tuple(sizes)):
            e = ctx.fresh("e")
            sub = ", ".join(f"{s} + {int(i)}" for s, i in zip(st, idx))
            lines.append(f"{e} = {arr}[{sub}]")
            out.append(e)
        return lines, [out]
    choices = _start_choices(shape, sizes)
    for idx in _positions(tuple(sizes)):
        expr = None
        for combo in choices:  # the last choice is the fallback of the select chain
            v = x.elem(_flat(shape, [c + i for c, i in zip(combo, idx)]))
            expr = v if expr is None else f"({v} if {_when(st, combo)} else {expr})"
        e = ctx.fresh("e")
        lines.append(f"{e} = {expr}")
        out.append(e)
    return lines, [out]


def scalar_dynamic_update_slice(ctx, eqn, ops):
    x, u = ops[0], ops[1]
    shape, ushape = x.aval.shape, u.aval.shape
    if shape == ():
        return None
    lines, st = _scalar_starts(ctx, ops[2:], shape, ushape)
    choices = _start_choices(shape, ushape)
    out = []
    for idx in _positions(shape):
        expr = x.elem(_flat(shape, idx))
        for combo in choices:
            off = [i - c for i, c in zip(idx, combo)]
            if all(0 <= o < n for o, n in zip(off, ushape)):
                expr = f"({u.elem(_flat(ushape, off))} if {_when(st, combo)} else {expr})"
        e = ctx.fresh("e")
        lines.append(f"{e} = {expr}")
        out.append(e)
    return lines, [out]


def scalar_reduction(binary, kinds: str = "fiub"):
    """The scalarized rule of a reduction: each output element folds its input elements in
    index order with ``binary``'s native rule (a function of two element names)."""

    def rule(ctx, eqn, ops):
        x, out = ops[0], eqn.outvars[0].aval
        if not ctx.small(x.aval) or np.dtype(x.aval.dtype).kind not in kinds:
            return None
        axes = tuple(sorted(int(a) for a in eqn.params["axes"]))
        shape = x.aval.shape
        kept = [d for d in range(len(shape)) if d not in axes]
        lines, res = [], []
        for oidx in _positions(tuple(shape[d] for d in kept)):
            acc = None
            for ridx in _positions(tuple(shape[d] for d in axes)):
                src = [0] * len(shape)
                for d, i in zip(kept, oidx):
                    src[d] = i
                for d, i in zip(axes, ridx):
                    src[d] = i
                v = x.elem(_flat(shape, src))
                if acc is None:
                    acc = v
                    continue
                e = ctx.fresh("e")
                got = binary(ctx, e, acc, v, out.dtype)
                if got is None:
                    return None
                lines += got
                acc = e
            res.append(acc)
        return lines, [res]

    return rule


def binary(template: str):
    """A ``scalar_reduction`` step from an elementwise template (``"{0} + {1}"``), the same
    expression as that primitive's native rule."""

    def step(ctx, out: str, a: str, b: str, dtype):
        return [f"{out} = {ctx.dtype(dtype)}({template.format(a, b)})"]

    return step
