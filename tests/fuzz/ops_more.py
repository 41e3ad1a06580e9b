"""The op table's session-11 widening (appended to ``ops.OPS`` by ``generator``): NaN-aware
and cumulative reductions, quantiles, more elementwise and special functions, sorting and
searching variants, small linear algebra, integer overflow paths of the narrow integer
dtypes, complex64 values and functions of them, and control flow nested in control flow
with closed-over values."""

from __future__ import annotations

from tests.fuzz.ops import _axis, _binary, _broadcastable, _choice_of, _float, _num, _pick, _unary


def _complex(v):
    return v.dtype.startswith("complex")


def _nan_reduce(rng, env):
    """NaN-ignoring reductions and cumulative ops, ``cumulative_sum`` / ``_prod`` with
    ``include_initial``."""
    v = _pick(rng, env, _num)
    if v is None:
        return None
    if v.ndim >= 1 and rng.random() < 0.35:
        ax = int(rng.integers(-v.ndim, v.ndim))
        fn = rng.choice(["jnp.nancumsum", "jnp.nancumprod", "jnp.cumulative_sum",
                         "jnp.cumulative_prod"])  # fmt: skip
        if fn.startswith("jnp.cumulative"):
            inc = rng.choice(["True", "False"])
            return f"{fn}({v.name}, axis={ax}, include_initial={inc})"
        return f"{fn}({v.name}, axis={ax})"
    fn = rng.choice(["jnp.nansum", "jnp.nanprod", "jnp.nanmean", "jnp.nanmax", "jnp.nanmin",
                     "jnp.nanvar", "jnp.nanstd", "jnp.nanargmax", "jnp.nanargmin", "jnp.ptp",
                     "jnp.count_nonzero", "jnp.average"])  # fmt: skip
    tuple_ok = fn not in ("jnp.nanargmax", "jnp.nanargmin")
    kd = ", keepdims=True" if rng.random() < 0.3 and fn not in ("jnp.average",) else ""
    return f"{fn}({v.name}, axis={_axis(rng, v, allow_tuple=tuple_ok)}{kd})"


def _quantile(rng, env):
    v = _pick(rng, env, lambda v: v.is_float or v.is_int)
    if v is None:
        return None
    fn = rng.choice(["jnp.quantile", "jnp.nanquantile", "jnp.percentile", "jnp.nanpercentile",
                     "jnp.median", "jnp.nanmedian"])  # fmt: skip
    kd = ", keepdims=True" if rng.random() < 0.3 else ""
    ax = _axis(rng, v)
    if fn.endswith("median"):
        return f"{fn}({v.name}, axis={ax}{kd})"
    pct = "percentile" in fn
    q = rng.choice(["0.5", "0.0", "1.0", "0.25", "[0.1, 0.9]", "0.333"])
    if pct:
        q = rng.choice(["50.0", "0.0", "100.0", "25", "[10.0, 90.0]", "33.3"])
    if q.startswith("["):
        q = f"jnp.array({q})"
    method = rng.choice(["linear", "lower", "higher", "nearest", "midpoint"])
    return f"{fn}({v.name}, {q}, axis={ax}, method={method!r}{kd})"


_MORE_FLOAT_UNARY = [
    "jnp.round({x}, 1)", "jnp.round({x}, -1)", "jnp.rint({x})",
    "jnp.exp2({x})", "jnp.log2({x})", "jnp.log10({x})", "jnp.sinc({x})", "jnp.i0({x})",
    "jnp.nan_to_num({x})", "jnp.nan_to_num({x}, nan=1.5, posinf=2.0, neginf=-2.0)",
    "jnp.deg2rad({x})", "jnp.arcsin({x})", "jnp.arccosh({x})", "jnp.tan({x})",
    "jnp.logaddexp2({x}, 0.5)", "jnp.ldexp({x}, 3)", "jnp.modf({x})[0]", "jnp.frexp({x})[0]",
    "jnp.frexp({x})[1]", "jnp.spacing({x})", "jnp.nextafter({x}, 0.0)",
    "jax.scipy.special.erfc({x})", "jax.scipy.special.erfinv({x})", "jax.scipy.special.ndtr({x})",
    "jax.scipy.special.ndtri({x})", "jax.scipy.special.logit({x})", "jax.scipy.special.expit({x})",
    "jax.scipy.special.log_ndtr({x})", "jax.scipy.special.entr({x})", "jax.nn.log_sigmoid({x})",
    "jax.nn.softsign({x})", "jax.nn.hard_tanh({x})", "jax.nn.leaky_relu({x})",
    "jax.nn.celu({x})", "jax.nn.selu({x})", "jax.nn.mish({x})", "jax.nn.relu6({x})",
    "jax.nn.squareplus({x})", "jax.nn.hard_swish({x})", "jax.nn.gelu({x}, approximate=False)",
]  # fmt: skip
_MORE_BINARY = [
    "jnp.clip({x}, {y}, 1.0)", "jnp.clip({x}, -0.5, {y})", "jnp.clip({x}, max={y})",
    "jnp.remainder({x}, {y})", "jnp.divmod({x}, {y})[0]", "jnp.divmod({x}, {y})[1]",
    "jnp.float_power({x}, {y})", "jnp.true_divide({x}, {y})", "jnp.fmin({x}, {y})",
    "jnp.isclose({x}, {y})", "jnp.nextafter({x}, {y})", "jnp.ldexp({x}, 2)",
    "jnp.logaddexp2({x}, {y})", "jnp.arctan2({y}, {x})", "jnp.power({x}, {y})",
    "jax.scipy.special.xlog1py({x}, {y})", "jax.scipy.special.rel_entr({x}, {y})",
    "jnp.subtract({x}, {y})", "jnp.not_equal({x}, {y})", "jnp.logical_xor({x}, {y})",
]  # fmt: skip


def _sort_more(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1 and _num(v) and not _complex(v))
    if v is None:
        return None
    ax = int(rng.integers(-v.ndim, v.ndim))
    r = rng.random()
    if r < 0.3:
        fn = rng.choice(["jnp.sort", "jnp.argsort"])
        st = rng.choice(["", ", stable=False", ", stable=True"])
        return f"{fn}({v.name}, axis={ax}, descending=True{st})"
    if r < 0.5 and v.shape[ax] >= 1:
        k = int(rng.integers(0, v.shape[ax]))
        fn = rng.choice(["jnp.partition", "jnp.argpartition"])
        return f"{fn}({v.name}, {k}, axis={ax})"
    if r < 0.75 and v.ndim == 1:
        y = _pick(rng, env, lambda u: _num(u) and not _complex(u)) or v
        side = rng.choice(["left", "right"])
        method = rng.choice(["scan", "sort", "compare_all", "scan_unrolled"])
        return f"jnp.searchsorted(jnp.sort({v.name}), {y.name}, side={side!r}, method={method!r})"
    size = int(rng.integers(0, 5))
    fn = rng.choice([
        f"jnp.nonzero({v.name}, size={size})[0]",
        f"jnp.argwhere({v.name}, size={size}, fill_value=-1)",
        f"jnp.unique({v.name}, size={size}, fill_value=0)",
        f"jnp.flatnonzero({v.name}, size={size})",
    ])  # fmt: skip
    return fn


def _linalg(rng, env):
    v = _pick(rng, env, lambda v: v.ndim >= 1 and (v.is_float or _complex(v)))
    if v is None:
        return None
    if v.ndim >= 2 and v.shape[-1] == v.shape[-2] and rng.random() < 0.4:
        fn = rng.choice(["jnp.linalg.det", "jnp.linalg.inv", "jnp.trace", "jnp.diagonal",
                         "jnp.linalg.slogdet({x})[1]", "jnp.linalg.matrix_power({x}, 2)",
                         "jnp.linalg.matrix_power({x}, -1)", "jnp.linalg.eigvalsh"])  # fmt: skip
        return fn.format(x=v.name) if "{x}" in fn else f"{fn}({v.name})"
    if v.ndim >= 2 and rng.random() < 0.5:
        k = int(rng.integers(-1, 2))
        fn = rng.choice([f"jnp.triu({v.name}, {k})", f"jnp.tril({v.name}, {k})",
                         f"jnp.diagonal({v.name}, {k})", f"jnp.trace({v.name}, {k})",
                         f"jnp.linalg.norm({v.name}, ord='fro')",
                         f"jnp.linalg.norm({v.name}, ord={rng.choice(['1', '-1', 'jnp.inf'])})",
                         f"jnp.linalg.matrix_norm({v.name})"])  # fmt: skip
        return fn
    w = _pick(rng, env, lambda u: u.ndim == 1 and (u.is_float or _complex(u))) or v
    ord_ = rng.choice(["None", "1", "2", "jnp.inf", "-jnp.inf", "0", "3", "-1"])
    mode = rng.choice(["full", "same", "valid"])
    fn = rng.choice([f"jnp.linalg.norm({v.name}, ord={ord_}, axis=-1)",
                     f"jnp.linalg.vector_norm({v.name}, ord={ord_})",
                     f"jnp.outer({v.name}, {w.name})", f"jnp.kron({v.name}, {w.name})",
                     f"jnp.inner({v.name}, {v.name})", f"jnp.vdot({v.name}, {v.name})",
                     f"jnp.convolve({v.name}, {w.name}, mode={mode!r})"
                     if v.ndim == 1 else f"jnp.sum({v.name}, axis=-1)",
                     f"jnp.polyval({w.name}, {v.name})",
                     f"jnp.trapezoid({v.name}, axis=-1)"])  # fmt: skip
    return fn


def _int_overflow(rng, env):
    """Integer arithmetic where int8/int16/uint8/uint32/int32 wrap, and the corner cases of
    integer division, remainders, shifts and absolute values."""
    v = _pick(rng, env, lambda v: v.is_int or v.dtype == "bool")
    if v is None:
        return None
    dt = rng.choice(["jnp.int8", "jnp.uint8", "jnp.int16", "jnp.uint16", "jnp.uint32",
                     "jnp.int32"])  # fmt: skip
    c = rng.choice(["100", "127", "-128", "255", "2147483647", "-2147483648", "65535", "3",
                    "-1", "0", "40000", "2**31"])  # fmt: skip
    op = rng.choice(["+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^"])
    x = f"{v.name}.astype({dt})"
    r = rng.random()
    if r < 0.5:
        return f"{x} {op} {c}" if rng.random() < 0.7 else f"{c} {op} {x}"
    if r < 0.7:
        w = _pick(rng, env, lambda u: u.is_int and _broadcastable(u.shape, v.shape)) or v
        return f"{x} {op} {w.name}.astype({dt})"
    fn = rng.choice(["jnp.abs({x} - 128)", "jnp.negative({x})", "-{x} * {x}", "{x} ** 3",
                     "jnp.sum({x})", "jnp.prod({x})", "jnp.cumsum({x})", "jnp.mean({x})",
                     "jnp.square({x})", "jnp.sign({x})", "jnp.gcd({x}, 6)", "jnp.lcm({x}, 4)",
                     "jnp.bitwise_count({x})", "jnp.invert({x})", "lax.shift_right_logical({x}, 1)",
                     "jnp.left_shift({x}, 31)", "jnp.floor_divide({x}, -1)",
                     "jnp.right_shift({x}, 40)", "{x}.astype(jnp.float16)",
                     "{x}.astype(jnp.float32) * 1e9", "jnp.clip({x}, 3, 300)"])  # fmt: skip
    return fn.format(x=x)


def _to_complex(rng, env):
    """Complex64 values built from float variables (so later lines see complex operands)."""
    a = _pick(rng, env, lambda v: v.is_float or v.is_int)
    if a is None:
        return None
    b = _pick(rng, env, lambda v: v.dtype == a.dtype and v.shape == a.shape) or a
    return rng.choice([
        f"lax.complex({a.name}, {b.name})" if a.dtype in ("float32",) else f"{a.name} * 1j",
        f"{a.name} + 1j * {b.name}", f"{a.name}.astype(jnp.complex64)",
        f"jnp.exp(1j * {a.name})",
        f"lax.complex(jnp.float32(0.5), {a.name}.astype(jnp.float32))",
    ])  # fmt: skip


_COMPLEX_UNARY = [
    "jnp.sqrt({x})", "jnp.exp({x})", "jnp.log({x})", "jnp.abs({x})", "jnp.angle({x})",
    "jnp.real({x})", "jnp.imag({x})", "jnp.conj({x})", "jnp.sin({x})", "jnp.tanh({x})",
    "jnp.reciprocal({x})", "jnp.square({x})", "{x} ** 2", "{x} ** 0.5", "jnp.log1p({x})",
    "jnp.expm1({x})", "jnp.arctan({x})", "jnp.arcsinh({x})", "jnp.arccos({x})",
    "jnp.sign({x})", "jnp.cos({x})", "jnp.sinh({x})", "jnp.arctanh({x})", "jnp.log10({x})",
    "jnp.cumsum({x})", "jnp.sum({x})", "jnp.prod({x})", "jnp.mean({x})", "jnp.isnan({x})",
    "jnp.isinf({x})", "jnp.round({x})", "{x} * {x}", "{x} / (1.0 + {x})", "jnp.exp2({x})",
    "jnp.sort({x})" , "jnp.vdot({x}, {x})", "jax.nn.sigmoid({x})", "jnp.cbrt({x}.real)",
    "jnp.maximum({x}, 0.5j)", "{x} == {x}", "jnp.sum({x} ** 3)", "jnp.power({x}, 2.5)",
]  # fmt: skip


def _complex_unary(rng, env):
    v = _pick(rng, env, _complex)
    if v is None:
        return None
    return _COMPLEX_UNARY[int(rng.integers(len(_COMPLEX_UNARY)))].format(x=v.name)


def _nested_control(rng, env):
    """Control flow nested in control flow, with closed-over values from the program."""
    v = _pick(rng, env, lambda v: _float(v) and v.ndim >= 1)
    if v is None:
        return None
    c = _pick(rng, env, lambda u: _float(u) and u.ndim == 0) or v
    cn = c.name if c.ndim == 0 else f"jnp.sum({c.name})"
    k = int(rng.integers(4))
    if k == 0:
        inner = f"lax.cond(c > {cn}, lambda a: a * 0.5, lambda a: a + x, c)"
        return f"lax.scan(lambda c, x: ({inner}, c), {v.name}[0], {v.name})[{int(rng.integers(2))}]"
    if k == 1:
        inner = f"lax.fori_loop(0, 2, lambda j, d: d * {cn} + x, c)"
        return f"lax.scan(lambda c, x: ({inner}, jnp.sin(c)), {v.name}[0], {v.name})[0]"
    if k == 2:
        body = f"lambda i, c: lax.scan(lambda d, x: (d + x * {cn}, d), c, {v.name})[0]"
        return f"lax.fori_loop(0, {int(rng.integers(0, 3))}, {body}, {v.name}[0])"
    body = (f"lambda c: (c[0] + 1, lax.cond(c[0] > 0, lambda a: jnp.cos(a) * {cn}, "
            f"lambda a: a - 1.0, c[1]))")  # fmt: skip
    return f"lax.while_loop(lambda c: c[0] < 2, {body}, (0, {v.name}))[1]"


MORE_OPS = [
    ("nan_reduce", 2, _nan_reduce),
    ("quantile", 1, _quantile),
    ("more_float_unary", 3, _choice_of(_MORE_FLOAT_UNARY, _unary, pred=_float)),
    (
        "more_binary",
        3,
        _choice_of(_MORE_BINARY, _binary, pred=lambda v: _num(v) and not _complex(v)),
    ),
    ("sort_more", 1, _sort_more),
    ("linalg", 2, _linalg),
    ("int_overflow", 2, _int_overflow),
    ("to_complex", 1, _to_complex),
    ("complex_unary", 3, _complex_unary),
    ("nested_control", 1, _nested_control),
]
