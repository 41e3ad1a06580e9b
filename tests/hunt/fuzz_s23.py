"""Session 23 differential hunt generators (test code, not a test module): seeded random
programs run under JAX and jaxlite in one process, compared leaf by leaf with
fuzz_s22.difference (exception class, structure, shapes, dtypes, weak types, integers
exactly, floats within a tolerance per dtype relative to the leaf's largest magnitude, NaN
and infinity positions, signs of zeros outside derivatives); where both raise, the first
lines of the messages are compared too (``check(..., messages=True)``).

Angles (``GENERATORS``), chosen where no earlier generator draws (tests/fuzz and the
s18..s22 hunts draw no convolution and no windowed reduction under a transformation):

* ``conv``: ``lax.conv_general_dilated`` / ``lax.conv`` / ``lax.conv_with_general_padding``
  / ``lax.conv_transpose`` with 1-3 spatial dimensions, every layout (strings, index
  tuples, ``ConvDimensionNumbers``, None), strides, padding (``SAME`` / ``VALID`` /
  ``SAME_LOWER`` / explicit pairs, negative ones included), lhs and rhs dilation, feature
  and batch groups, ``preferred_element_type``, ``precision``, on float32 / float16 /
  bfloat16 / float64 (x64) / complex64 / int32 / int8 operands, under eval / jit / vmap
  (the input, the kernel or both batched, axis first or last) / grad / jvp / vjp / jacrev /
  hessian; and bad input (feature counts that do not match, group counts that do not
  divide, both group counts, mixed dtypes, string padding with lhs dilation, strides of
  the wrong length).
* ``signal``: ``jnp.convolve`` / ``jnp.correlate`` (modes, complex, precision,
  ``preferred_element_type``) and ``jax.scipy.signal`` convolve / correlate (``method``) /
  convolve2d / correlate2d (``boundary``, ``fillvalue``) / fftconvolve (``axes``) under
  the same stacks.
* ``window``: ``lax.reduce_window`` with lax.add / max / min / mul and with a custom
  computation, pooling patterns (strides, padding, base and window dilation, -inf / +inf /
  other initial values), ``lax.cumsum`` / ``cumprod`` / ``cummax`` / ``cummin`` /
  ``cumlogsumexp`` with ``reverse``, with ties and infinities, under the same stacks
  (derivatives of max pools with ties: XLA's select_and_scatter_add).

``python -m tests.hunt.fuzz_s23 NAME FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import sys
import warnings

import numpy as np

from tests.hunt import fuzz_s22
from tests.hunt.oracle import JAX, LITE, run

_HELPERS = (
    fuzz_s22._HELPERS
    + """
def cos_like(y):
    y = jnp.asarray(y)
    return (jnp.cos(jnp.arange(y.size) * 0.9).reshape(y.shape) * 2).astype(y.dtype)
"""
)


def _lit(v):
    return fuzz_s22._lit(np.asarray(v))


def _array_text(rng, dt, shape, pool=None):
    """Source text of an array of ``dt``: quarters in [-2, 2] (exact sums in every float
    type) or draws from ``pool``."""
    if pool is not None:
        v = rng.choice(pool, size=shape)
    else:
        v = rng.randint(-8, 9, size=shape) / 4.0
    if dt.startswith("int") or dt.startswith("uint"):
        v = np.round(np.nan_to_num(np.asarray(v, float), posinf=9, neginf=-9) * 2).astype(int)
        if dt.startswith("uint"):
            v = np.abs(v)
        return f"jnp.asarray(np.array({_lit(v)}, dtype={dt!r}))"
    if dt == "bool":
        return f"jnp.asarray(np.array({_lit(np.asarray(v) > 0)}))"
    if dt.startswith("complex"):
        w = rng.randint(-8, 9, size=shape) / 4.0
        return f"jnp.asarray(np.array({_lit(v)}) + 1j * np.array({_lit(w)}), dtype={dt!r})"
    if dt == "bfloat16":
        return f"jnp.asarray(np.array({_lit(v)}, dtype='float32')).astype(jnp.bfloat16)"
    return f"jnp.asarray(np.array({_lit(v)}), dtype={dt!r})"


def _stacks(diff, small, cplx=False):
    s = ["eval", "jit", "vmap0", "vmap1", "vmap01", "vmap_last"]
    if diff:
        s += ["grad", "grad", "jit_grad", "jvp", "vjp"]
        if not cplx:
            s += ["jacrev"]
            if small:
                s += ["hessian"]
    return s


def _call(stack, two=True):
    """The call of ``f(x0, k0)`` under ``stack`` (``two``: f takes both operands)."""
    b0 = "jnp.stack([x0, x0 * 2 - 1])"
    b1 = "jnp.stack([k0, k0[::-1] * 0.5 + 1])"
    if stack == "eval":
        return "f(x0, k0)"
    if stack == "jit":
        return "jx.jit(f)(x0, k0)"
    if stack == "vmap0":
        return f"jx.vmap(f, in_axes=(0, None))({b0}, k0)"
    if stack == "vmap1":
        return f"jx.vmap(f, in_axes=(None, 0))(x0, {b1})"
    if stack == "vmap01":
        return f"jx.vmap(f)({b0}, {b1})"
    if stack == "vmap_last":
        return "jx.vmap(f, in_axes=(-1, -1), out_axes=-1)(jnp.stack([x0, x0 * -1], -1), jnp.stack([k0, k0 + 1], -1))"
    if stack == "grad":
        return "jx.grad(lambda x, k: loss(f(x, k)), argnums=(0, 1))(x0, k0)"
    if stack == "jit_grad":
        return "jx.jit(jx.grad(lambda x, k: loss(f(x, k)), argnums=(0, 1)))(x0, k0)"
    if stack == "jvp":
        return "jx.jvp(f, (x0, k0), (cos_like(x0), cos_like(k0) * 0.5))"
    if stack == "vjp":
        return "(lambda yp: (yp[0], yp[1](cos_like(yp[0]))))(jx.vjp(f, x0, k0))"
    if stack == "jacrev":
        return "jx.jacrev(lambda x, k: jnp.asarray(f(x, k)).ravel()[:5], argnums=(0, 1))(x0, k0)"
    if stack == "hessian":
        return "jx.hessian(lambda x, k: loss(f(x, k)) ** 2, argnums=(0, 1))(x0, k0)"
    raise ValueError(stack)


def _program(body, xs, ks, call, x64, extra=""):
    return (
        _HELPERS
        + extra
        + f"def f(x, k):\n    return {body}\n"
        + f"def run():\n    with jx.enable_x64({x64}):\n        x0 = {xs}\n        k0 = {ks}\n        return {call}\n"
    )


# ------------------------------------------------------------------------------ conv
_SP = "HWD"
_CDT = (
    "float32",
    "float32",
    "float32",
    "float16",
    "bfloat16",
    "float64",
    "complex64",
    "int32",
    "int8",
)


def _layout(rng, nsp):
    """(lhs, rhs, out) layout strings with ``nsp`` spatial letters, in random orders."""
    sp = list(_SP[:nsp])
    lhs = list("NC") + sp
    rhs = list("OI") + list(rng.permutation(sp))
    out = list("NC") + sp
    return tuple("".join(rng.permutation(s)) for s in (lhs, rhs, out))


def _specs(strings):
    lhs_s, rhs_s, out_s = strings
    sp = [c for c in rhs_s if c not in "OI"]
    return tuple(
        tuple(s.index(c) for c in list(head) + sp)
        for s, head in ((lhs_s, "NC"), (rhs_s, "OI"), (out_s, "NC"))
    )


def _place(canon_shape, spec):
    """A layout's shape from the canonical (N, C, spatial...) one and its index spec."""
    shape = [0] * len(canon_shape)
    for c, i in zip(canon_shape, spec):
        shape[i] = c
    return tuple(shape)


def _padding(rng, nsp, allow_str=True):
    c = rng.rand()
    if allow_str and c < 0.5:
        return repr(str(rng.choice(["SAME", "VALID", "SAME_LOWER"])))
    return repr(tuple((int(rng.randint(-1, 3)), int(rng.randint(-1, 3))) for _ in range(nsp)))


def _precision(rng):
    return rng.choice(
        ["", "", "", ", precision='highest'", ", precision=lax.Precision.HIGHEST",
         ", precision=(lax.Precision.DEFAULT, lax.Precision.HIGH)", ", precision='fastest'",
         ", precision='DEFAULT'"]
    )  # fmt: skip


def _pet(rng, dt, x64):
    if rng.rand() < 0.7:
        return ""
    options = {
        "float16": ["jnp.float32", "jnp.float16"],
        "bfloat16": ["jnp.float32", "jnp.bfloat16", "jnp.float16"],
        "float32": ["jnp.float32"] + (["jnp.float64"] if x64 else []),
        "float64": ["jnp.float64"],
        "int8": ["jnp.int32", "jnp.int16", "jnp.int8"],
        "int32": ["jnp.int32"] + (["jnp.int64"] if x64 else []),
        "complex64": ["jnp.complex64"] + (["jnp.complex128"] if x64 else []),
    }[dt]
    return f", preferred_element_type={rng.choice(options)}"


def gen_conv(rng, bad=None):
    dt = _CDT[rng.randint(len(_CDT))]
    x64 = dt == "float64" or rng.rand() < 0.1
    nsp = int(rng.choice([1, 1, 2, 2, 2, 3]))
    api = rng.choice(["general", "general", "general", "general", "conv", "padding", "transpose"])
    g = bg = 1
    c = rng.rand()
    if api == "general" and c < 0.25:
        g = int(rng.randint(2, 4))
    elif api == "general" and c < 0.4:
        bg = int(rng.randint(2, 4))
    n = bg * int(rng.randint(1, 3))
    cin = g * int(rng.randint(1, 3))
    cout = g * bg * int(rng.randint(1, 3))
    big = 4 if nsp == 3 else 6
    sp = [int(rng.randint(1, big)) for _ in range(nsp)]
    ks = [int(rng.randint(1, 4)) for _ in range(nsp)]
    strides = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(nsp))
    rdil = tuple(int(rng.choice([1, 1, 2])) for _ in range(nsp))
    ldil = tuple(int(rng.choice([1, 1, 2])) for _ in range(nsp))
    lhs_canon = (n, cin, *sp)
    rhs_canon = (cout, cin // g, *ks)
    bad = bad if bad is not None else (rng.rand() < 0.08)
    bad_kind = (
        rng.choice(["features", "groups", "bgroups", "both", "dtypes", "strdil", "strides"])
        if bad
        else ""
    )
    if bad_kind == "features":
        rhs_canon = (cout, cin // g + 1, *ks)
    elif bad_kind == "groups":
        api, g = "general", int(rng.choice([2, 3]))
        lhs_canon = (n, g * 2 + 1, *sp)
        rhs_canon = (g * 2, 2, *ks)
    elif bad_kind == "bgroups":
        api, bg = "general", int(rng.choice([2, 3]))
        lhs_canon = (bg + 1, cin, *sp)
    elif bad_kind == "both":
        api, g, bg = "general", 2, 2
        lhs_canon = (2, 2, *sp)
        rhs_canon = (4, 1, *ks)
    dtl = dtr = dt
    if bad_kind == "dtypes":
        dtr = "int32" if dt != "int32" else "float32"
    pad = _padding(rng, nsp, allow_str=not (api == "general" and any(d > 1 for d in ldil)))
    if bad_kind == "strdil":
        api, pad = "general", repr(str(rng.choice(["SAME", "VALID"])))
        ldil = (2,) * nsp
    if bad_kind == "strides":
        strides = strides + (1,)
    layout_kind = rng.choice(["none", "str", "str", "tuple", "cdn"])
    if api in ("conv", "padding"):
        layout_kind = "none"
    if layout_kind == "none":
        strings = ("NC" + _SP[:nsp], "OI" + _SP[:nsp], "NC" + _SP[:nsp])
        if api == "transpose":  # conv_transpose's default: NHWC / HWIO / NHWC (rank <= 5)
            strings = ("N" + _SP[:nsp] + "C", _SP[:nsp] + "IO", "N" + _SP[:nsp] + "C")
    else:
        strings = _layout(rng, nsp)
    lspec, rspec, ospec = _specs(strings)
    xs = _array_text(rng, dtl, _place(lhs_canon, lspec))
    ks_ = _array_text(rng, dtr, _place(rhs_canon, rspec))
    dn = {
        "none": "None",
        "str": repr(strings),
        "tuple": repr((lspec, rspec, ospec)),
        "cdn": f"lax.ConvDimensionNumbers({lspec!r}, {rspec!r}, {ospec!r})",
    }[layout_kind]
    prec = _precision(rng)
    pet = _pet(rng, dt, x64)
    if api == "general":
        rd = rng.choice(["None", repr(rdil)]) if all(r == 1 for r in rdil) else repr(rdil)
        ld = repr(ldil) if any(d > 1 for d in ldil) else rng.choice(["None", repr(ldil)])
        grp = ""
        if g > 1 or rng.rand() < 0.1:
            grp += f", feature_group_count={g}"
        if bg > 1 or rng.rand() < 0.1:
            grp += f", batch_group_count={bg}"
        body = (
            f"lax.conv_general_dilated(x, k, {strides!r}, {pad}, {ld}, {rd}, {dn}{grp}{prec}{pet})"
        )
    elif api == "conv":
        body = f"lax.conv(x, k, {strides!r}, {pad}{prec}{pet})"
    elif api == "padding":
        pad = _padding(rng, nsp, allow_str=False)
        body = f"lax.conv_with_general_padding(x, k, {strides!r}, {pad}, {ldil!r}, {rdil!r}{prec}{pet})"
    else:
        tk = ", transpose_kernel=True" if rng.rand() < 0.4 else ""
        cons = ", use_consistent_padding=True" if rng.rand() < 0.2 else ""
        rd = "" if rng.rand() < 0.5 else f", rhs_dilation={rdil!r}"
        dnt = "" if layout_kind == "none" else f", dimension_numbers={dn}"
        if tk:
            # the kernel's I and O swap: its I must match the input's features
            lhs_canon = (n, cout, *sp)
            xs = _array_text(rng, dtl, _place(lhs_canon, lspec))
        body = f"lax.conv_transpose(x, k, {strides!r}, {pad}{rd}{dnt}{tk}{prec}{pet}{cons})"
    diff = dt in ("float32", "float16", "bfloat16", "float64", "complex64") and not bad
    size = int(np.prod(lhs_canon)) + int(np.prod(rhs_canon))
    stack = rng.choice(_stacks(diff, size <= 40, dt == "complex64"))
    if bad_kind == "both" and stack.startswith("vmap"):
        stack = "eval"  # JAX's batching rule asserts before its shape rule (compat.md)
    if pet and stack not in ("eval", "jit") and rng.rand() < 0.5:
        stack = rng.choice(["eval", "jit"])
    return _program(body, xs, ks_, _call(stack), x64)


# ---------------------------------------------------------------------------- signal
_SDT = ("float32", "float32", "float32", "complex64", "int32", "float16", "float64", "bool")
_MODES = ("full", "same", "valid")


def gen_signal(rng):
    dt = _SDT[rng.randint(len(_SDT))]
    x64 = dt == "float64" or rng.rand() < 0.1
    c = rng.rand()
    mode = str(rng.choice(_MODES))
    prec = _precision(rng) if rng.rand() < 0.3 else ""
    if c < 0.35:
        fn = rng.choice(["convolve", "correlate"])
        na, nv = int(rng.randint(1, 7)), int(rng.randint(1, 7))
        if rng.rand() < 0.05:
            na = 0
        xs, ks = _array_text(rng, dt, (na,)), _array_text(rng, dt, (nv,))
        pet = ""
        if rng.rand() < 0.2:
            pet = ", preferred_element_type=" + rng.choice(
                ["jnp.float32", "jnp.int32"] if dt != "complex64" else ["jnp.complex64"]
            )
        body = f"jnp.{fn}(x, k, mode={mode!r}{prec}{pet})"
    elif c < 0.6:
        fn = rng.choice(["convolve", "correlate"])
        nd = int(rng.randint(1, 4))
        xsh = tuple(int(s) for s in rng.randint(1, 6, size=nd))
        ksh = tuple(int(s) for s in rng.randint(1, 4, size=nd))
        method = rng.choice(["", ", method='auto'", ", method='direct'", ", method='fft'"])
        xs, ks = _array_text(rng, dt, xsh), _array_text(rng, dt, ksh)
        body = f"jx.scipy.signal.{fn}(x, k, mode={mode!r}{method}{prec})"
    elif c < 0.85:
        fn = rng.choice(["convolve2d", "correlate2d"])
        xsh = tuple(int(s) for s in rng.randint(1, 6, size=2))
        ksh = tuple(int(s) for s in rng.randint(1, 4, size=2))
        bnd = rng.choice(
            [
                "",
                ", boundary='fill'",
                ", boundary='fill', fillvalue=0",
                ", boundary='fill', fillvalue=1.5",
                ", boundary='wrap'",
                ", boundary='symm'",
            ]
        )
        xs, ks = _array_text(rng, dt, xsh), _array_text(rng, dt, ksh)
        body = f"jx.scipy.signal.{fn}(x, k, mode={mode!r}{bnd}{prec})"
    else:
        nd = int(rng.randint(1, 4))
        xsh = tuple(int(s) for s in rng.randint(1, 6, size=nd))
        ksh = tuple(int(s) for s in rng.randint(1, 4, size=nd))
        axes = ""
        if rng.rand() < 0.5:
            k = int(rng.randint(1, nd + 1))
            ax = [int(a) for a in rng.choice(range(nd), k, replace=False)]
            ax = [a - nd if rng.rand() < 0.5 else a for a in ax]
            axes = f", axes={tuple(ax)!r}"
            # the other axes must broadcast: make them equal or 1
            ksh = tuple(
                ksh[i] if (i in ax or i - nd in ax) else rng.choice([1, xsh[i]]) for i in range(nd)
            )
        xs, ks = _array_text(rng, dt, xsh), _array_text(rng, dt, ksh)
        body = f"jx.scipy.signal.fftconvolve(x, k, mode={mode!r}{axes})"
    diff = dt in ("float32", "float64", "complex64")
    stack = rng.choice(_stacks(diff, True, dt == "complex64"))
    return _program(body, xs, ks, _call(stack), x64)


# ---------------------------------------------------------------------------- window
_WDT = ("float32", "float32", "float32", "float16", "bfloat16", "int32", "float64", "uint8", "bool")
_TIES = [0.0, 1.0, 1.0, -1.0, 2.0, 2.0, -0.5, 0.5]
_INF = [0.0, 1.0, 1.0, -np.inf, np.inf, 2.0, -1.0]
_COMP = {
    "add": ("lax.add", "0"),
    "max": ("lax.max", "-jnp.inf"),
    "min": ("lax.min", "jnp.inf"),
    "mul": ("lax.mul", "1"),
}


def _init_text(kind, dt, rng):
    if rng.rand() < 0.7:
        if dt.startswith(("int", "uint")) or dt == "bool":
            ident = {"add": "0", "mul": "1",
                     "max": f"jnp.iinfo(jnp.{dt}).min" if dt != "bool" else "False",
                     "min": f"jnp.iinfo(jnp.{dt}).max" if dt != "bool" else "True"}[kind]  # fmt: skip
            return (
                ident
                if dt != "bool" or kind in ("max", "min")
                else ("False" if kind == "add" else "True")
            )
        return _COMP[kind][1]
    return rng.choice(["0", "1", "-1.5", "2", "jnp.array(0.5, x.dtype)", "-jnp.inf", "jnp.inf"])


def gen_window(rng):
    dt = _WDT[rng.randint(len(_WDT))]
    x64 = dt == "float64" or rng.rand() < 0.1
    c = rng.rand()
    pool = _TIES if rng.rand() < 0.6 else (_INF if rng.rand() < 0.5 else None)
    if dt in ("int32", "uint8", "bool") and pool is _INF:
        pool = _TIES
    extra = ""
    if c < 0.6:
        nd = int(rng.randint(1, 4))
        shape = tuple(int(s) for s in rng.randint(1, 6, size=nd))
        if rng.rand() < 0.05:
            shape = shape[:-1] + (0,)
        kind = rng.choice(["add", "max", "max", "min", "mul"])
        wd = tuple(int(rng.randint(1, 4)) for _ in range(nd))
        ws = tuple(int(rng.choice([1, 1, 2, 3])) for _ in range(nd))
        pad = (
            _padding(rng, nd)
            if rng.rand() < 0.8
            else repr(tuple((int(rng.randint(0, 3)), int(rng.randint(0, 3))) for _ in range(nd)))
        )
        bd = (
            ""
            if rng.rand() < 0.7
            else f", base_dilation={tuple(int(rng.choice([1, 2])) for _ in range(nd))!r}"
        )
        wdl = (
            ""
            if rng.rand() < 0.7
            else f", window_dilation={tuple(int(rng.choice([1, 2])) for _ in range(nd))!r}"
        )
        comp = _COMP[kind][0]
        custom = rng.rand() < 0.15
        if custom:
            comp = {"add": "lambda a, b: a + b", "max": "lambda a, b: jnp.maximum(a, b)",
                    "min": "lambda a, b: lax.min(a, b)", "mul": "lambda a, b: a * b"}[kind]  # fmt: skip
        init = _init_text(kind, dt, rng)
        if not custom and (kind, init) in (("add", "0"), ("max", "-jnp.inf"), ("min", "jnp.inf")):
            init_typed = init
        else:
            init_typed = f"jnp.array({init}, x.dtype)"
        # (window_strides=None only with explicit padding, and only evaluated: JAX fails to
        # pad a string padding for it, and its generic JVP and batching rules fail on it,
        # docs/compat.md)
        strides = repr(ws) if rng.rand() < 0.9 or pad.startswith("'") else "None"
        body = f"lax.reduce_window(x, {{init}}, {comp}, {wd!r}, {strides}, {pad}{bd}{wdl})"
        if rng.rand() < 0.2 and kind == "add" and dt not in ("bool",):
            body = f"{body} / {int(np.prod(wd))}"  # an average pool
    elif c < 0.7:
        # flax-style pooling: NHWC, window over H and W
        nd = 4
        shape = (
            int(rng.randint(1, 3)),
            int(rng.randint(1, 6)),
            int(rng.randint(1, 6)),
            int(rng.randint(1, 3)),
        )
        kind = rng.choice(["max", "add"])
        wh, ww = int(rng.randint(1, 4)), int(rng.randint(1, 4))
        sh, sw = int(rng.randint(1, 3)), int(rng.randint(1, 3))
        pad = rng.choice(["'VALID'", "'SAME'", "((0, 0), (1, 1), (0, 1), (0, 0))"])
        comp, init = _COMP[kind]
        if dt.startswith(("int", "uint")) or dt == "bool":
            init = (
                "0" if kind == "add" else (f"jnp.iinfo(jnp.{dt}).min" if dt != "bool" else "False")
            )
        init_typed = init
        body = (
            f"lax.reduce_window(x, {{init}}, {comp}, (1, {wh}, {ww}, 1), (1, {sh}, {sw}, 1), {pad})"
        )
    else:
        nd = int(rng.randint(1, 4))
        shape = tuple(int(s) for s in rng.randint(1, 5, size=nd))
        fn = rng.choice(["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"])
        if fn == "cumlogsumexp" and dt in ("int32", "uint8", "bool"):
            fn = "cumsum"
        axis = int(rng.randint(-nd, nd)) if rng.rand() < 0.3 else int(rng.randint(0, nd))
        rev = rng.choice(["", ", reverse=True", ", reverse=False"])
        ax = "" if rng.rand() < 0.15 else f", axis={axis}"
        body = f"lax.{fn}(x{ax}{rev})"
        init = init_typed = ""
    if dt == "bool" and (
        "cumprod" in body or "cumsum" in body or "lax.mul" in body or "lax.add" in body
    ):
        dt = "int32"
    xs = _array_text(rng, dt, shape, pool)
    diff = dt in ("float32", "float16", "bfloat16", "float64")
    if "axis=-" in body:
        # JAX's cumulative JVPs skip the primitive's check of the axis, so they accept the
        # negative axis its evaluation refuses (docs/compat.md)
        diff = False
    size = int(np.prod(shape))
    stack = rng.choice(_stacks(diff, size <= 12))
    # JAX's JVP of a generic reduce_window whose init is not of the operand's type raises
    # a ValueError of its own, not the TypeError of evaluation (docs/compat.md)
    if ("lax.max" in body or "lax.min" in body) and "(-" in body and stack in _REVERSE:
        # JAX's max/min pooling VJP pads its cotangent negatively and fails (slice start
        # indices must be nonnegative): jaxlite differentiates (docs/compat.md)
        stack = "jvp"
    deriv = stack in ("grad", "jit_grad", "jvp", "vjp", "jacrev", "hessian")
    if "None, " in body and "reduce_window" in body and stack not in ("eval", "jit"):
        stack = "eval"
    body = body.replace("{init}", init_typed if deriv else init)
    stack = {"vmap1": "vmap0", "vmap01": "vmap0"}.get(stack, stack)
    call = (
        _call(stack)
        .replace("argnums=(0, 1)", "argnums=0")
        .replace(", (cos_like(x0), cos_like(k0) * 0.5))", ", (cos_like(x0), jnp.zeros_like(k0)))")
    )
    if stack == "vmap_last":
        call = "jx.vmap(f, in_axes=(-1, None), out_axes=-1)(jnp.stack([x0, x0[::-1] if x0.ndim else x0], -1), k0)"
    return _program(body, xs, "jnp.float32(0)", call, x64, extra)


_REVERSE = ("grad", "jit_grad", "vjp", "jacrev", "hessian")
GENERATORS = {"conv": gen_conv, "signal": gen_signal, "window": gen_window}


# ------------------------------------------------------------------------- comparison
def _first_line(e):
    return str(e).strip().split("\n")[0]


def message_difference(src):
    """Where both libraries raise: their messages' first lines when they differ."""
    if JAX is None:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kb, b = run(fuzz_s22._build(src), LITE)
        ka, a = run(fuzz_s22._build(src), JAX)
    if ka == kb == "err" and _first_line(a) != _first_line(b):
        return f"message: JAX {_first_line(a)!r:.300}\n   jaxlite {_first_line(b)!r:.300}"
    return None


def check(name, seed, messages=False):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    deriv = any(k in src for k in ("jx.grad", "jx.jvp", "jx.vjp", "jx.hessian", "jx.jac"))
    d = fuzz_s22.difference(src, fuzz_s22._TOLS["close"], signs=not deriv)
    if d is None and messages:
        d = message_difference(src)
    return d, src


def hunt(name, seeds, messages=False):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    found = []
    for s in seeds:
        d, src = check(name, s, messages)
        if d:
            found.append((s, d, src))
    return found


if __name__ == "__main__":
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    msgs = len(sys.argv) > 4 and sys.argv[4] == "messages"
    for seed in range(first, first + count):  # printed as found (a run may be cut short)
        d, src = check(name, seed, msgs)
        if d:
            # the helpers every program opens with are left out of the report
            print(f"--- {name} seed {seed}: {d}\n{src[src.index('def f(') :]}", flush=True)
    print(f"=== {name} {first}..{first + count - 1} done", flush=True)
