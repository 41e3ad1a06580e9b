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

from jaxlite._src.ops import reduce_order


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
        return ctx.elementwise_loop(eqn, ins, outs, _logical_shift_signed)
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


def _logical_shift_signed(ctx, eqn, ins, outs):
    """``shift_right_logical`` of a signed scalar: its unsigned view shifted (same-width
    casts wrap), 0 for an amount outside ``[0, width)``, as the Python tier."""
    (x, y), xa, ya = ins, eqn.invars[0].aval, eqn.invars[1].aval
    nbits = np.dtype(xa.dtype).itemsize * 8
    u = f"np.uint{nbits}"
    y0, nb = ctx.const(np.zeros((), ya.dtype)), ctx.const(np.asarray(nbits, ya.dtype))
    zero = ctx.const(np.zeros((), np.dtype(u[3:])))
    expr = f"{zero} if ({y} < {y0} or {y} >= {nb}) else {u}({x}) >> {u}({y})"
    return [f"{outs[0]} = {ctx.dtype(xa.dtype)}({expr})"]


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
# float32 exp, log and tanh: XLA:CPU's expansions (``ops/xla_math32_numba``), JAX's bits and
# the Python tier's under ``jaxlite_xla_math``; NumPy's kernels otherwise (docs/compat.md).
_XLA_MATH = "jaxlite._src.ops.xla_math32_numba"
_XLA_DEPS = ("jaxlite._src.ops.xla_math32",)


def _xla_math_rule(ufunc: str, helper: str):
    """The native rule of a float32 XLA expansion: float32 ``helper`` per element (a loop
    LLVM vectorises); other float dtypes the C library's ``np.<ufunc>``."""

    def rule(ctx, eqn, ins, outs):
        aval = eqn.outvars[0].aval
        dt = np.dtype(aval.dtype)
        if dt.kind != "f":
            return None
        if dt != np.float32:
            return [f"{outs[0]} = {ctx.typed(f'np.{ufunc}({ins[0]})', aval)}"]
        return ctx.map_helper(ctx.helper(_XLA_MATH, helper, _XLA_DEPS), ins[0], outs[0], aval)

    rule.__name__ = ufunc
    return rule


exp = _xla_math_rule("exp", "exp_f32")
exp.native_expr = True  # one ``out = expr`` line where it returns one: the emitter may inline it
log = _xla_math_rule("log", "log_f32")
tanh = _xla_math_rule("tanh", "tanh_f32")


# ------------------------------------------------------------------------- reductions
_PAIRWISE_SUM = ("jaxlite._src.ops.sum_numba", "pairwise_sum")


_TREE_REDUCE = ("jaxlite._src.ops.sum_numba", "tree_reduce")


def _tree_reduction(ctx, x_name, x, out, axes, out_name, prod):
    """A float sum/product in XLA's window-tree order (``sum_numba.tree_reduce``, the
    Python tier's ``reduce_order``): the reduced dimensions moved first and flattened, the
    kept ones flattened after them. float16 is left to the Python tier."""
    if np.dtype(x.dtype) not in (np.dtype(np.float32), np.dtype(np.float64)):
        return None
    kept = tuple(d for d in range(len(x.shape)) if d not in axes)
    rows = math.prod(x.shape[d] for d in axes)
    perm = _tup(tuple(axes) + kept)
    cols = math.prod(out.shape)
    flat = f"np.ascontiguousarray({x_name}.transpose({perm})).reshape(({rows}, {cols}))"
    dims = ctx.const(np.asarray([x.shape[d] for d in axes], np.int64))
    call = f"{ctx.helper(*_TREE_REDUCE)}({flat}, {dims}, {prod})"
    if out.shape == ():
        return [f"{out_name} = {ctx.typed(f'{call}[0]', out)}"]
    return [f"{out_name} = {call}.reshape({_tup(tuple(int(d) for d in out.shape))})"]


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
        ufunc = {"sum": np.add, "prod": np.multiply}.get(np_name)
        if ufunc is not None and reduce_order.tree_order(ufunc, x.dtype, math.prod(x.shape)):
            return _tree_reduction(ctx, ins[0], x, out, axes, outs[0], ufunc is np.multiply)
        if out.shape == ():
            if np_name == "sum" and np.dtype(x.dtype).kind == "f":
                # NumPy's pairwise order (``ops/sum_numba``): the Python tier's bits.
                fn = ctx.helper(*_PAIRWISE_SUM)
                zero = ctx.const(np.asarray(-0.0, x.dtype))
                flat = f"np.ascontiguousarray({ins[0]}).reshape(-1)"
                return [f"{outs[0]} = {ctx.typed(f'{fn}({flat}, {zero})', out)}"]
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


def scalar_reduction(binary, kinds: str = "fiub", zero_sum: bool = False):
    """The scalarized rule of a reduction: each output element folds its input elements in
    index order with ``binary``'s native rule (a function of two element names): XLA's
    order for these sizes (``ops/reduce_order``: no reduced dimension longer than 32).
    ``zero_sum`` (float sums): ``+ 0`` at the end, as XLA's sum starts from ``+0`` (a sum
    of negative zeros is ``+0``)."""

    def rule(ctx, eqn, ops):
        x, out = ops[0], eqn.outvars[0].aval
        if not ctx.small(x.aval) or np.dtype(x.aval.dtype).kind not in kinds:
            return None
        axes = tuple(sorted(int(a) for a in eqn.params["axes"]))
        shape = x.aval.shape
        # (one element per output is the element itself: XLA's reshape)
        signed = (
            zero_sum and np.dtype(out.dtype).kind == "f" and math.prod(shape[d] for d in axes) > 1
        )
        zero = ctx.const(np.zeros((), out.dtype)) if signed else None
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
            if signed and acc is not None:
                e = ctx.fresh("e")
                lines += binary(ctx, e, acc, zero, out.dtype)
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


# ------------------------------------------------------ bit counts, integer division
_U64 = {
    k: np.asarray(v, np.uint64)
    for k, v in dict(
        s1=1,
        s2=2,
        s4=4,
        s56=56,
        m1=0x5555555555555555,
        m2=0x3333333333333333,
        m4=0x0F0F0F0F0F0F0F0F,
        h01=0x0101010101010101,
    ).items()
}


def _popcount_scalar(ctx, eqn, ins, outs):
    # The bits of the value's unsigned view, zero-extended to 64 bits, counted by the
    # classic SWAR sums (an exact integer computation, as the Python tier's unpackbits).
    aval = eqn.outvars[0].aval
    dt = np.dtype(aval.dtype)
    if dt.kind not in "iu":
        return None
    c = {k: ctx.const(v) for k, v in _U64.items()}
    v = ctx.fresh("p")
    return [
        f"{v} = np.uint64(np.uint{dt.itemsize * 8}({ins[0]}))",
        f"{v} = {v} - (({v} >> {c['s1']}) & {c['m1']})",
        f"{v} = ({v} & {c['m2']}) + (({v} >> {c['s2']}) & {c['m2']})",
        f"{v} = ({v} + ({v} >> {c['s4']})) & {c['m4']}",
        f"{outs[0]} = {ctx.dtype(dt)}(({v} * {c['h01']}) >> {c['s56']})",
    ]


def population_count(ctx, eqn, ins, outs):
    return ctx.elementwise_loop(eqn, ins, outs, _popcount_scalar)


def _int_div_scalar(ctx, eqn, ins, outs, rem: bool):
    """XLA's integer ``div``/``rem`` (the Python tier's ``division.int_divide`` and
    ``rem``): quotients round toward zero, remainders take the dividend's sign; ``x / 0`` is
    -1 (all ones) and ``x rem 0`` is ``x``; ``INT_MIN / -1`` wraps and ``INT_MIN rem -1`` is
    0. Numba's ``//`` and ``%`` are Python's (floored), so the rounding is corrected, and a
    divisor of 0 or -1 is never divided by (the machine's division traps on INT_MIN / -1)."""
    (x, y), aval = ins, eqn.outvars[0].aval
    dt = np.dtype(aval.dtype)
    t = ctx.dtype(dt)
    zero, one = ctx.const(np.zeros((), dt)), ctx.const(np.ones((), dt))
    if dt.kind == "u":
        if rem:
            return [f"{outs[0]} = {t}({x} if {y} == {zero} else {x} % {y})"]
        top = ctx.const(np.asarray(np.iinfo(dt).max, dt))
        return [f"{outs[0]} = {t}({top} if {y} == {zero} else {x} // {y})"]
    m1 = ctx.const(np.asarray(-1, dt))
    s, r = ctx.fresh("s"), ctx.fresh("r")
    lines = [
        f"{s} = {one} if ({y} == {zero} or {y} == {m1}) else {y}",
        f"{r} = {x} % {s}",  # floored: the divisor's sign
    ]
    off = f"({r} != {zero} and ({x} < {zero}) != ({s} < {zero}))"
    if rem:
        expr = (
            f"{x} if {y} == {zero} else ({zero} if {y} == {m1} else ({r} - {s} if {off} else {r}))"
        )
    else:
        q = f"({x} // {s} + {one} if {off} else {x} // {s})"
        expr = f"{m1} if {y} == {zero} else (-{x} if {y} == {m1} else {q})"
    return lines + [f"{outs[0]} = {t}({expr})"]


def div_rem(template: str, rem: bool):
    """The native rule of ``div``/``rem``: floats by ``template`` (one expression, fusable),
    integers by ``_int_div_scalar`` (a loop over the elements of arrays)."""

    def rule(ctx, eqn, ins, outs):
        kind = np.dtype(eqn.invars[0].aval.dtype).kind
        if kind == "f":
            return [f"{outs[0]} = {ctx.typed(template.format(*ins), eqn.outvars[0].aval)}"]
        if kind not in "iu":
            return None
        return ctx.elementwise_loop(
            eqn, ins, outs, lambda c, e, i, o: _int_div_scalar(c, e, i, o, rem)
        )

    rule.native_expr = True  # the float form is one line (the emitter checks)
    return rule


def logistic(ctx, eqn, ins, outs):
    """``1 / (1 + exp(-x))`` in the operand's dtype: SciPy's ``expit`` (the Python tier's),
    the same operations."""
    aval = eqn.outvars[0].aval
    dt = np.dtype(aval.dtype)
    if dt.kind != "f":
        return None
    one = ctx.const(np.ones((), dt))
    return [f"{outs[0]} = {ctx.typed(f'{one} / ({one} + np.exp(-{ins[0]}))', aval)}"]


logistic.native_expr = True


# ------------------------------------------------------------------ pad, split, scatter
def _pad_geometry(shape, config):
    """Per dimension: (full length, start and stop of the operand's elements in the full
    array, stride, crop start, crop stop), where the full array pads only positively."""
    out = []
    for n, (lo, hi, it) in zip(shape, config):
        d = n + (n - 1) * it if n else 0
        full = max(lo, 0) + d + max(hi, 0)
        out.append((full, max(lo, 0), max(lo, 0) + d, it + 1, -min(lo, 0), full + min(hi, 0)))
    return out


def pad(ctx, eqn, ins, outs):
    """``lax.pad``: a full array of the padding value with the operand written at stride
    ``interior + 1`` after the positive low padding, then cropped by negative padding."""
    xa = eqn.invars[0].aval
    if xa.shape == ():
        return [f"{outs[0]} = {ins[0]}"]
    geo = _pad_geometry(xa.shape, eqn.params["padding_config"])
    t = ctx.fresh("t")
    lines = [f"{t} = np.full({_tup(g[0] for g in geo)}, {ins[1]}, {ctx.dtype(xa.dtype)})"]
    if 0 not in xa.shape:
        parts = [f"{a}:{b}:{st}" for _, a, b, st, _, _ in geo]
        lines.append(f"{t}{_index(parts)} = {ins[0]}")
    crop = [f"{c0}:{c1}" for *_, c0, c1 in geo]
    return lines + [f"{outs[0]} = {t}{_index(crop)}"]


def scalar_pad(ctx, eqn, ops):
    x, v = ops
    shape, config = x.aval.shape, eqn.params["padding_config"]
    out = []
    for idx in _positions(eqn.outvars[0].aval.shape):
        src = []
        for p, n, (lo, _, it) in zip(idx, shape, config):
            r = p - lo
            if r < 0 or r % (it + 1) or r // (it + 1) >= n:
                break
            src.append(r // (it + 1))
        else:
            out.append(x.elem(_flat(shape, src)))
            continue
        out.append(v.elem(0))
    return [], [out]


def split(ctx, eqn, ins, outs):
    axis, nd = int(eqn.params["axis"]), len(eqn.invars[0].aval.shape)
    lines, start = [], 0
    for o, size in zip(outs, eqn.params["sizes"]):
        parts = [":"] * nd
        parts[axis] = f"{start}:{start + int(size)}"
        lines.append(f"{o} = {ins[0]}{_index(parts)}")
        start += int(size)
    return lines


def scalar_split(ctx, eqn, ops):
    x, axis = ops[0], int(eqn.params["axis"])
    res, start = [], 0
    for v in eqn.outvars:
        out = []
        for idx in _positions(v.aval.shape):
            src = list(idx)
            src[axis] += start
            out.append(x.elem(_flat(x.aval.shape, src)))
        res.append(out)
        start += v.aval.shape[axis]
    return [], res


def scatter(ctx, eqn, ins, outs):
    """The ``set`` and ``add`` (``gather_t``) scatters (``x.at[i].set/add``): the Python
    tier's, a loop over the index positions in C order, out-of-bounds positions dropped,
    later updates of a position overwriting (set) or adding to (add, in order) earlier ones.
    """
    mode = eqn.params["mode"]
    xa, ua = eqn.invars[0].aval, eqn.invars[1].aval
    ias = [v.aval for v in eqn.invars[2:]]
    dt = np.dtype(xa.dtype)
    if mode not in ("set", "set_unique", "add", "gather_t") or xa.shape == () or not ias:
        return None
    overwrite = mode in ("set", "set_unique")
    if dt.kind not in ("fiub" if overwrite else "fiu"):
        return None
    k = len(ias)
    S = tuple(int(d) for d in np.broadcast_shapes(*[a.shape for a in ias])) if ias else ()
    W = tuple(int(d) for d in xa.shape[k:])
    full = S + W
    pv = [ctx.fresh("j") for _ in S]
    wv = [ctx.fresh("j") for _ in W]

    def at(name, shape, loop_vars):  # right-aligned broadcasting of ``name`` over ``full``
        if shape == ():
            return name
        lead = len(full) - len(shape)
        sub = [
            "0" if n == 1 and full[lead + d] != 1 else loop_vars[lead + d]
            for d, n in enumerate(shape)
        ]
        return f"{name}[{', '.join(sub)}]"

    o = outs[0]
    lines = [f"{o} = {ins[0]}.copy()"]
    body, depth = [], 0

    def add(line):
        body.append("    " * depth + line)

    for j, n in zip(pv, S):
        add(f"for {j} in range({n}):")
        depth += 1
    ivs = []
    for name, a in zip(ins[2:], ias):
        iv = ctx.fresh("i")
        lead = len(S) - len(a.shape)
        sub = ["0" if m == 1 and S[lead + d] != 1 else pv[lead + d] for d, m in enumerate(a.shape)]
        add(f"{iv} = np.int64({name}[{', '.join(sub)}])" if a.shape else f"{iv} = np.int64({name})")
        ivs.append(iv)
    if ivs:
        cond = " and ".join(f"{iv} >= 0 and {iv} < {int(n)}" for iv, n in zip(ivs, xa.shape))
        add(f"if {cond}:")
        depth += 1
    for j, n in zip(wv, W):
        add(f"for {j} in range({n}):")
        depth += 1
    target = f"{o}[{', '.join(ivs + wv)}]"
    upd = at(ins[1], tuple(int(d) for d in ua.shape), pv + wv)
    t = ctx.dtype(dt)
    add(f"{target} = {upd}" if overwrite else f"{target} = {t}({target} + {upd})")
    return lines + body
