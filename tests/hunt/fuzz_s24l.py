"""Session 24 differential hunt of raw ``lax`` structural operations (test code, not a test
module): seeded random programs run under JAX and jaxlite in one process, compared leaf by
leaf with fuzz_s22.difference (exception class, structure, shapes, dtypes, weak types,
integers exactly, floats within fuzz_s22's "close" tolerances, NaN and infinity
positions, signs of zeros outside derivatives); ``check(..., messages=True)`` compares the
first lines of both messages where both raise.

Angles (``GENERATORS``), chosen where no earlier generator draws (earlier hunts reach
gather and scatter only through jnp indexing and ``.at[]``, and draw no custom
``lax.reduce``, ``select_n``, ``bitcast_convert_type`` or raw slicing primitive):

* ``gather``: ``lax.gather`` / ``scatter`` / ``scatter_add`` / ``scatter_mul`` /
  ``scatter_min`` / ``scatter_max`` / ``scatter_apply`` with raw dimension numbers
  (offset / window dims anywhere, collapsed dims, permuted index maps, operand and index
  batching dims, an index vector dimension that is not last or is implicit), every mode
  (clip, fill / drop with ``fill_value``, promise_in_bounds on in-bound indices),
  ``unique_indices`` / ``indices_are_sorted`` where they hold, negative and out-of-bounds
  starts, zero slice sizes, int8 / uint8 / int32 / int64 indices, under eval / jit / vmap
  (operand, updates, indices or all batched, axis first or last) / grad / jvp / vjp /
  jacrev / hessian.
* ``reduce``: ``lax.reduce`` with monoids JAX recognises and custom computations it does
  not (non-identity inits, variadic argmax / argmin by hand), ``reduce_precision``,
  ``select_n`` (bool and int32 predicates, up to four cases), ``bitcast_convert_type``
  (same and different widths, to and from bool), ``lax.sort`` with several operands /
  ``num_keys`` / ``is_stable``, ``top_k``, the cumulative reductions with ``reverse``,
  ``associative_scan`` of pytrees with ``reverse`` and ``axis``, under the same stacks.
* ``slicing``: ``dynamic_slice`` / ``dynamic_update_slice`` / ``dynamic_slice_in_dim`` /
  ``dynamic_index_in_dim`` / ``dynamic_update_index_in_dim`` with negative and
  out-of-range starts (Python ints, and traced ones of every integer dtype, batched under
  vmap), ``lax.slice`` with strides, ``pad`` with interior and negative edges, ``rev``,
  ``squeeze`` / ``expand_dims`` / ``broadcast_in_dim``, ``concatenate`` with empty pieces,
  under the same stacks.

``python -m tests.hunt.fuzz_s24l NAME FIRST COUNT [messages]`` prints each disagreement
with its program. A generated program is source text that the harness executes (``jx``,
``jnp``, ``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import sys

import numpy as np

from tests.hunt import fuzz_s22, fuzz_s23

_HELPERS = fuzz_s23._HELPERS


def _array_text(rng, dt, shape, pool=None):
    """fuzz_s23's array text, reshaped where a dimension is 0 (a nested empty literal
    loses the dimensions after the first 0)."""
    txt = fuzz_s23._array_text(rng, dt, shape, pool)
    return f"{txt}.reshape({tuple(shape)!r})" if 0 in tuple(shape) else txt


_REVERSE = ("grad", "jit_grad", "vjp", "jacrev", "hessian")
_DERIVS = ("grad", "jit_grad", "jvp", "vjp", "jacrev", "hessian")


def _lit(v):
    return fuzz_s22._lit(np.asarray(v))


def _idx_text(v, dt):
    v = np.asarray(v)
    return f"jnp.asarray(np.array({_lit(v)}, dtype={dt!r}).reshape({v.shape!r}))"


def _stacks(diff, small, batched_i=True):
    s = ["eval", "eval", "jit", "vmap_x", "vmap_u", "vmap_all", "vmap_last"]
    if batched_i:
        s += ["vmap_i", "vmap_i"]
    if diff:
        s += ["grad", "grad", "jit_grad", "jvp", "jvp", "vjp", "jacrev"]
        if small:
            s += ["hessian"]
    return s


def _call(stack):
    """The call of ``f(x0, u0, i0)`` under ``stack``: ``x`` the operand, ``u`` a second
    (differentiable) operand, ``i`` an integer operand; derivatives take ``x`` and ``u``."""
    bx = "jnp.stack([x0, jnp.flip(x0)])"
    bu = "jnp.stack([u0, jnp.flip(u0)])"
    bi = "jnp.stack([i0, i1])"
    return {
        "eval": "f(x0, u0, i0)",
        "jit": "jx.jit(f)(x0, u0, i0)",
        "vmap_x": f"jx.vmap(f, in_axes=(0, None, None))({bx}, u0, i0)",
        "vmap_u": f"jx.vmap(f, in_axes=(None, 0, None))(x0, {bu}, i0)",
        "vmap_i": f"jx.vmap(f, in_axes=(None, None, 0))(x0, u0, {bi})",
        "vmap_all": f"jx.vmap(f)({bx}, {bu}, {bi})",
        "vmap_last": "jx.vmap(f, in_axes=(-1, None, -1), out_axes=-1)(jnp.stack([x0, jnp.flip(x0)], -1), u0, jnp.stack([i0, i1], -1))",
        "grad": "jx.grad(lambda x, u: loss(f(x, u, i0)), argnums=(0, 1))(x0, u0)",
        "jit_grad": "jx.jit(jx.grad(lambda x, u: loss(f(x, u, i0)), argnums=(0, 1)))(x0, u0)",
        "jvp": "jx.jvp(lambda x, u: f(x, u, i0), (x0, u0), (cos_like(x0), cos_like(u0) * 0.5))",
        "vjp": "(lambda yp: (yp[0], yp[1](jx.tree_util.tree_map(cos_like, yp[0]))))(jx.vjp(lambda x, u: f(x, u, i0), x0, u0))",
        "jacrev": "jx.jacrev(lambda x, u: jnp.asarray(jx.tree_util.tree_leaves(f(x, u, i0))[0]).ravel()[:5], argnums=(0, 1))(x0, u0)",
        "hessian": "jx.hessian(lambda x, u: loss(f(x, u, i0)) ** 2, argnums=(0, 1))(x0, u0)",
    }[stack]


def _program(body, xs, us, i0, i1, stack, x64, extra=""):
    return (
        _HELPERS
        + extra
        + f"def f(x, u, i):\n    return {body}\n"
        + f"def run():\n    with jx.enable_x64({x64}):\n        x0 = {xs}\n        u0 = {us}\n"
        + f"        i0 = {i0}\n        i1 = {i1}\n        return {_call(stack)}\n"
    )


# ---------------------------------------------------------------------------- gather
_GDT = (
    "float32",
    "float32",
    "float32",
    "float32",
    "float16",
    "bfloat16",
    "float64",
    "int32",
    "uint8",
    "bool",
    "complex64",
)
_IDT = ("int32", "int32", "int32", "int8", "uint8", "int16", "int64", "uint32")
_MODES = ("None", "'clip'", "'fill'", "'drop'", "'promise_in_bounds'", "lax.GatherScatterMode.CLIP",
          "lax.GatherScatterMode.FILL_OR_DROP", "lax.GatherScatterMode.PROMISE_IN_BOUNDS")  # fmt: skip
_SCATTERS = (
    "scatter",
    "scatter_add",
    "scatter_add",
    "scatter_mul",
    "scatter_min",
    "scatter_max",
    "scatter_apply",
    "scatter_sub",
)


def _gather_config(rng, shape):
    """Random valid gather dimension numbers for an operand of ``shape``: a dict with the
    numbers, slice sizes, the indices' shape, and the output (= scatter updates) shape."""
    r = len(shape)
    nb = 1 if (r >= 2 and rng.rand() < 0.3) else 0
    obatch = sorted(int(d) for d in rng.choice(r, nb, replace=False)) if nb else []
    rest = [d for d in range(r) if d not in obatch]
    k = int(rng.randint(1, len(rest) + 1))
    sim = [int(d) for d in rng.permutation(rest)[:k]]
    collapsed = sorted(d for d in sim if rng.rand() < 0.5)
    sizes = []
    for d in range(r):
        if d in obatch or d in collapsed:
            sizes.append(1)
        elif rng.rand() < 0.08:
            sizes.append(0)
        else:
            sizes.append(int(rng.randint(1, shape[d] + 1)) if shape[d] else 0)
    nbd = int(rng.randint(nb, 3))
    bshape = [int(rng.choice([1, 2, 2, 3])) for _ in range(nbd)]
    if rng.rand() < 0.04 and nbd:
        bshape[-1] = 0
    ib = sorted(int(p) for p in rng.choice(nbd, nb, replace=False)) if nb else []
    for p, d in zip(ib, obatch):
        bshape[p] = shape[d]
    implicit = k == 1 and rng.rand() < 0.3
    ivd = nbd if implicit else int(rng.randint(0, nbd + 1))
    ishape = list(bshape) if implicit else bshape[:ivd] + [k] + bshape[ivd:]
    sib = ib  # positions once the index vector is moved last (what lax.gather takes)
    offs = [d for d in range(r) if d not in obatch and d not in collapsed]
    out_rank = nbd + len(offs)
    offset_dims = sorted(int(p) for p in rng.choice(out_rank, len(offs), replace=False))
    out = [None] * out_rank
    for p, d in zip(offset_dims, offs):
        out[p] = sizes[d]
    it = iter(bshape)
    out = [next(it) if o is None else o for o in out]
    return dict(obatch=obatch, sim=sim, collapsed=collapsed, sizes=sizes, ishape=ishape,
                ivd=ivd, sib=sib, offset_dims=offset_dims, out=out, implicit=implicit,
                bshape=bshape, k=k)  # fmt: skip


def _indices(rng, cfg, shape, inbounds):
    """Start indices for ``cfg``: in [0, dim - size] when ``inbounds``, else also a few
    below and above; the batching components are irrelevant (the vector holds starts of
    ``sim`` only)."""
    v = np.zeros(cfg["ishape"], dtype=np.int64)
    axis = cfg["ivd"]
    for j, d in enumerate(cfg["sim"]):
        hi = shape[d] - cfg["sizes"][d]
        sub = cfg["bshape"] if not cfg["implicit"] else cfg["ishape"]
        lo_, hi_ = (0, max(hi, 0)) if inbounds else (-3, hi + 3)
        vals = rng.randint(lo_, hi_ + 1, size=sub)
        if cfg["implicit"]:
            v[...] = vals
        else:
            idx = [slice(None)] * v.ndim
            idx[axis] = j
            v[tuple(idx)] = vals
    return v


def _unique(cfg, shape, v):
    """Whether the windows the index vectors address are pairwise disjoint and in bounds
    (what ``unique_indices=True`` promises), and whether the vectors are sorted."""
    if cfg["obatch"]:
        return False, False
    vec = v[..., None] if cfg["implicit"] else np.moveaxis(v, cfg["ivd"], -1)
    vec = vec.reshape(-1, cfg["k"])
    cells = set()
    for row in vec:
        lo = [0] * len(shape)
        for j, d in enumerate(cfg["sim"]):
            if row[j] < 0 or row[j] + cfg["sizes"][d] > shape[d]:
                return False, False
            lo[d] = int(row[j])
        idx = np.indices([cfg["sizes"][d] for d in range(len(shape))]).reshape(len(shape), -1).T
        for c in idx:
            t = tuple(int(a + b) for a, b in zip(c, lo))
            if t in cells:
                return False, False
            cells.add(t)
    srt = all(tuple(vec[i]) <= tuple(vec[i + 1]) for i in range(len(vec) - 1))
    return True, srt


def gen_gather(rng):
    dt = _GDT[rng.randint(len(_GDT))]
    idt = _IDT[rng.randint(len(_IDT))]
    x64 = dt == "float64" or idt == "int64" or rng.rand() < 0.1
    r = int(rng.choice([1, 2, 2, 3]))
    shape = tuple(int(s) for s in rng.randint(1, 5, size=r))
    if rng.rand() < 0.04:
        shape = shape[:-1] + (0,)
    cfg = _gather_config(rng, shape)
    op = "gather" if rng.rand() < 0.45 else str(rng.choice(_SCATTERS))
    mode = str(rng.choice(_MODES))
    inb = "promise" in mode.lower() or rng.rand() < 0.3
    iv0 = _indices(rng, cfg, shape, inb)
    iv1 = _indices(rng, cfg, shape, inb)
    if idt.startswith("uint"):
        iv0, iv1 = np.abs(iv0), np.abs(iv1)
        if "promise" in mode.lower():
            iv0, iv1 = _indices(rng, cfg, shape, True), _indices(rng, cfg, shape, True)
    uniq, srt = _unique(cfg, shape, iv0)
    _u1, _s1 = _unique(cfg, shape, iv1)
    flags = ""
    if uniq and _u1 and rng.rand() < 0.5:
        flags += ", unique_indices=True"
    if srt and _s1 and rng.rand() < 0.5:
        flags += ", indices_are_sorted=True"
    if rng.rand() < 0.04:  # the flags' defaults spelled out
        flags += ", unique_indices=False, indices_are_sorted=False"
    ob, sib = tuple(cfg["obatch"]), tuple(cfg["sib"])
    ivd = cfg["ivd"]
    if op == "gather":
        dn = f"lax.GatherDimensionNumbers(offset_dims={tuple(cfg['offset_dims'])!r}, collapsed_slice_dims={tuple(cfg['collapsed'])!r}, start_index_map={tuple(cfg['sim'])!r}"
        if ob or rng.rand() < 0.2:
            dn += f", operand_batching_dims={ob!r}, start_indices_batching_dims={sib!r}"
        dn += ")"
        fill = ""
        if (
            mode in ("'fill'", "'drop'", "lax.GatherScatterMode.FILL_OR_DROP", "None")
            and rng.rand() < 0.5
        ):
            fill = ", fill_value=" + str(rng.choice(["0", "-1", "2.5", "jnp.nan", "True", "7"]))
            if dt in ("int32", "uint8", "bool") and ("nan" in fill or "2.5" in fill):
                fill = ", fill_value=1"
            if dt == "uint8" and "-1" in fill:
                fill = ", fill_value=3"
        body = f"lax.gather(x, i, {dn}, {tuple(cfg['sizes'])!r}, mode={mode}{flags}{fill})"
        ushape = (2,)
    else:
        dn = f"lax.ScatterDimensionNumbers(update_window_dims={tuple(cfg['offset_dims'])!r}, inserted_window_dims={tuple(cfg['collapsed'])!r}, scatter_dims_to_operand_dims={tuple(cfg['sim'])!r}"
        if ob or rng.rand() < 0.2:
            dn += f", operand_batching_dims={ob!r}, scatter_indices_batching_dims={sib!r}"
        dn += ")"
        ushape = tuple(cfg["out"])
        if op == "scatter_apply":
            fn = str(rng.choice(["jnp.sin", "lambda v: v * 2 + 1", "lambda v: -v", "jnp.square"]))
            if dt in ("int32", "uint8", "bool") and fn in ("jnp.sin",):
                fn = "lambda v: v * 2"
            if dt == "bool":
                fn = "jnp.logical_not"
            body = (
                f"lax.scatter_apply(x, i, {fn}, {dn}, update_shape={ushape!r}, mode={mode}{flags})"
            )
        else:
            if op == "scatter" and not uniq:  # colliding replacements: keep one winner
                flags = flags.replace(", unique_indices=True", "")
            body = f"lax.{op}(x, i, u, {dn}, mode={mode}{flags})"
    if not cfg["implicit"] and ivd != len(cfg["ishape"]) - 1:
        # lax.gather takes the index vector in the last dimension: the program moves it
        body = body.replace(", i, ", f", jnp.moveaxis(i, {ivd}, -1), ", 1)
    if cfg["implicit"]:
        body = body.replace(", i, ", ", i[..., None], ", 1)
    xs = _array_text(rng, dt, shape, [0.0, 1.0, -1.0, 2.0, -0.5, 0.5, 1.5, -2.0, 3.0])
    udt = dt
    us = _array_text(rng, udt, ushape, [0.0, 1.0, -1.0, 2.0, -0.5, 0.5, 1.5, -2.0, 3.0])
    diff = dt in ("float32", "float16", "bfloat16", "float64", "complex64")
    if op in ("scatter_min", "scatter_max"):
        us = _array_text(rng, udt, ushape, [0.0, 1.0, -1.0, 2.0, -0.5, 1.25, -2.0, 3.0])
    size = int(np.prod(shape)) + int(np.prod(ushape))
    stack = str(rng.choice(_stacks(diff, size <= 24)))
    if dt == "complex64" and stack in ("jacrev", "hessian"):
        stack = "jvp"
    if op == "gather" and stack == "vmap_u":
        stack = "vmap_x"
    if op == "scatter_mul" and "unique_indices=True" not in body and stack in _DERIVS:
        # JAX refuses the updates' derivative without the promise; jaxlite computes it
        # where the concrete indices are distinct (docs/compat.md)
        stack = "jit"
    if op == "gather" and stack in ("jvp", "hessian") and mode in ("None", "'promise_in_bounds'"):
        # JAX's forward-mode tangent of a clamped (out-of-bounds) window is the clamped
        # window's, its reverse mode drops it; jaxlite drops it in both (docs/compat.md)
        iv0 = _indices(rng, cfg, shape, True)
    if op in ("scatter_min", "scatter_max") and stack in _DERIVS and "clip" in mode.lower():
        # JAX's min / max scatter JVP does not clip its own gathers: NaN and infinite
        # tangents at out-of-bounds starts (docs/compat.md); in-bound starts only
        iv0 = _indices(rng, cfg, shape, True)
    return _program(body, xs, us, _idx_text(iv0, idt), _idx_text(iv1, idt), stack, x64)


# ---------------------------------------------------------------------------- reduce
_RDT = ("float32", "float32", "float32", "float16", "bfloat16", "float64", "int32", "uint8", "bool")
_RPOOL = [0.0, 1.0, 1.0, -1.0, 2.0, 2.0, -0.5, 0.5, -0.0, 3.0]
_RINF = [0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 2.0, -0.0]
_REDUCE_HELPERS = """
def argmax_comp(a, b):
    (av, ai), (bv, bi) = a, b
    pick = (av > bv) | ((av == bv) & (ai < bi))
    return lax.select(pick, av, bv), lax.select(pick, ai, bi)
def argmin_comp(a, b):
    (av, ai), (bv, bi) = a, b
    pick = (av < bv) | ((av == bv) & (ai < bi))
    return lax.select(pick, av, bv), lax.select(pick, ai, bi)
def minmax_comp(a, b):
    return lax.min(a[0], b[0]), lax.max(a[1], b[1])
def affine_comp(a, b):
    return a[0] * b[0], b[0] * a[1] + b[1]
def pair_add(a, b):
    return a[0] + b[0], lax.max(a[1], b[1])
def dict_comp(a, b):
    return {'s': a['s'] + b['s'], 'm': jnp.maximum(a['m'], b['m'])}
def iota_like(x, axis):
    return lax.broadcasted_iota(jnp.int32, jnp.shape(x), axis)
"""
_MONOIDS = {
    "add": ("lax.add", "0"),
    "mul": ("lax.mul", "1"),
    "max": ("lax.max", "-jnp.inf"),
    "min": ("lax.min", "jnp.inf"),
    "ladd": ("lambda a, b: a + b", "0"),
    "lmax": ("lambda a, b: jnp.maximum(a, b)", "-jnp.inf"),
    "custom": ("lambda a, b: a + b * 1", "0"),
    "and": ("lax.bitwise_and", "True"),
    "or": ("lax.bitwise_or", "False"),
    "sq": ("lambda a, b: jnp.sqrt(a * a + b * b)", "0"),
}
_BITCAST = {
    "float32": [
        "int32",
        "uint32",
        "uint8",
        "int16",
        "bfloat16",
        "float16",
        "bool",
        "float64",
        "int64",
    ],
    "float16": ["int16", "uint16", "bfloat16", "uint8", "int8", "float32", "bool"],
    "bfloat16": ["int16", "float16", "uint8", "float32"],
    "float64": ["int64", "uint64", "float32", "int32", "uint8", "complex64"],
    "int32": ["float32", "uint32", "int8", "uint16", "bool", "int64", "float64"],
    "uint8": ["int8", "bool", "float32", "int16", "float16"],
    "bool": ["uint8", "int8", "bool"],
}


def _ident(kind, dt):
    """The identity of ``kind`` for ``dt`` as source text, typed as the operand."""
    if dt == "bool":
        return {
            "add": "False",
            "max": "False",
            "min": "True",
            "mul": "True",
            "and": "True",
            "or": "False",
        }.get(kind, "False")
    if dt.startswith(("int", "uint")):
        return {"max": f"jnp.iinfo(jnp.{dt}).min", "lmax": f"jnp.iinfo(jnp.{dt}).min",
                "min": f"jnp.iinfo(jnp.{dt}).max", "mul": "1", "and": "-1" if dt != "uint8" else "255",
                "or": "0"}.get(kind, "0")  # fmt: skip
    return _MONOIDS[kind][1]


def gen_reduce(rng):
    dt = _RDT[rng.randint(len(_RDT))]
    x64 = dt == "float64" or rng.rand() < 0.1
    nd = int(rng.randint(1, 4))
    shape = tuple(int(s) for s in rng.randint(1, 5, size=nd))
    if rng.rand() < 0.04:
        shape = shape[:-1] + (0,)
    pool = _RPOOL if rng.rand() < 0.75 or dt in ("int32", "uint8", "bool") else _RINF
    xshape = ushape = shape
    extra = _REDUCE_HELPERS
    c = rng.rand()
    axes = tuple(sorted(int(a) for a in rng.choice(nd, int(rng.randint(0, nd + 1)), replace=False)))
    ax = int(rng.randint(0, nd))
    nax = int(rng.randint(-nd, nd))
    no_deriv = width_change = False
    if c < 0.22:
        kind = str(rng.choice(list(_MONOIDS)))
        if kind in ("and", "or") and dt not in ("bool", "int32", "uint8"):
            kind = "max"
        if kind == "sq" and dt in ("int32", "uint8", "bool"):
            kind = "add"
        comp = _MONOIDS[kind][0]
        if rng.rand() < 0.8:
            init = _ident(kind, dt)
        else:  # an init that is not the identity (JAX lowers it to a generic reduce)
            init = str(rng.choice(["1", "2", "-1", "0"])) if dt != "bool" else "True"
            if dt == "uint8" and init == "-1":
                init = "3"
        init_t = f"jnp.array({init}, x.dtype)"
        if rng.rand() < 0.1:
            init_t = init  # a Python scalar init (JAX refuses a weak init of another type)
        body = f"lax.reduce(x, {init_t}, {comp}, {axes!r})"
        if rng.rand() < 0.2:
            body = f"lax.reduce((x,), ({init_t},), lambda a, b: (({comp})(a[0], b[0]),), {axes!r})"
    elif c < 0.34:
        which = str(rng.choice(["argmax", "argmin", "minmax", "pair", "affine", "dict"]))
        if dt == "bool":
            dt = "int32"
        if which in ("argmax", "argmin"):
            lo = "-jnp.inf" if which == "argmax" else "jnp.inf"
            if dt.startswith(("int", "uint")):
                lo = f"jnp.iinfo(jnp.{dt}).{'min' if which == 'argmax' else 'max'}"
            body = f"lax.reduce((x, iota_like(x, {ax})), (jnp.array({lo}, x.dtype), jnp.int32(0)), {which}_comp, ({ax},))"
            if dt not in ("int32", "uint8"):
                pool = _RPOOL
            # JAX's JVP of a generic reduce fails on the integer (iota) operand's zero
            # tangent (TypeError); jaxlite differentiates it (docs/compat.md)
            no_deriv = True
        elif which == "minmax":
            lo, hi = (
                ("jnp.inf", "-jnp.inf")
                if not dt.startswith(("int", "uint"))
                else (f"jnp.iinfo(jnp.{dt}).max", f"jnp.iinfo(jnp.{dt}).min")
            )
            body = f"lax.reduce((x, u), (jnp.array({lo}, x.dtype), jnp.array({hi}, u.dtype)), minmax_comp, {axes!r})"
        elif which == "pair":
            hi = "-jnp.inf" if not dt.startswith(("int", "uint")) else f"jnp.iinfo(jnp.{dt}).min"
            body = f"lax.reduce((x, u), (jnp.array(0, x.dtype), jnp.array({hi}, u.dtype)), pair_add, {axes!r})"
        elif which == "dict":
            hi = "-jnp.inf" if not dt.startswith(("int", "uint")) else f"jnp.iinfo(jnp.{dt}).min"
            body = f"lax.reduce({{'s': x, 'm': u}}, {{'s': jnp.array(0, x.dtype), 'm': jnp.array({hi}, u.dtype)}}, dict_comp, {axes!r})"
        else:  # affine maps composed in order: not commutative (an order-sensitive reduce)
            axes = (ax,)
            body = f"lax.reduce((x, u), (jnp.array(1, x.dtype), jnp.array(0, u.dtype)), affine_comp, {axes!r})"
            pool = [1.0, -1.0, 0.5, 2.0, -0.5]
            no_deriv = rng.rand() < 0.5
    elif c < 0.40:
        if dt not in ("float32", "float16", "bfloat16", "float64"):
            dt = "float32"
        eb, mb = [(8, 7), (5, 10), (8, 23), (11, 52), (4, 3), (5, 2), (2, 1), (8, 0), (1, 4)][
            rng.randint(9)
        ]
        pool = [
            1.2345678,
            -3.14159,
            65504.0,
            70000.0,
            1e-8,
            3e-5,
            0.1,
            -0.0,
            np.inf,
            np.nan,
            1e30,
            2.0**-14,
        ]
        body = f"lax.reduce_precision(x, {eb}, {mb})"
        if rng.rand() < 0.2:
            body = f"lax.reduce_precision(x, exponent_bits={eb}, mantissa_bits={mb})"
    elif c < 0.52:
        n = int(rng.choice([1, 2, 2, 3, 4]))
        pred_bool = n <= 2 and rng.rand() < 0.5
        scalar = rng.rand() < 0.25
        pshape = () if scalar else shape
        if pred_bool:
            pv = rng.rand(*pshape) < 0.5
            which = f"jnp.asarray(np.array({_lit(pv)}))"
        else:
            pv = rng.randint(0, n, size=pshape)
            which = f"jnp.asarray(np.array({_lit(pv)}, dtype='int32'))"
        cases = ["x", "u", "x * 2", "u - x"][:n] if dt != "bool" else ["x", "u", "~x", "x & u"][:n]
        body = f"lax.select_n({which}, {', '.join(cases)})"
        if rng.rand() < 0.05:  # bad: a float predicate / a mismatched case dtype
            body = rng.choice([f"lax.select_n({which}.astype(jnp.float32), x, u)",
                               f"lax.select_n({which}, x, u.astype(jnp.int8))"])  # fmt: skip
    elif c < 0.62:
        if dt not in _BITCAST:
            dt = "float32"
        new = str(rng.choice(_BITCAST[dt]))
        if new in ("float64", "int64", "uint64", "complex64") or dt == "float64":
            x64 = True
        from_w, to_w = (
            np.dtype(dt if dt != "bfloat16" else "float16").itemsize,
            np.dtype(new if new != "bfloat16" else "float16").itemsize,
        )
        width_change = from_w != to_w
        if to_w > from_w:  # the last dimension must be the width ratio
            shape = shape[:-1] + (to_w // from_w,)
        pool = (
            _RPOOL
            if dt not in ("float32", "float16", "float64")
            else [1.0, -2.5, np.inf, np.nan, -0.0, 3.0, 1e-3]
        )
        body = f"lax.bitcast_convert_type(x, jnp.{new})"
        xshape = ushape = shape
    elif c < 0.76:
        nops = int(rng.choice([1, 2, 2, 3]))
        stable = rng.rand() < 0.7
        nk = int(rng.randint(1, nops + 1))
        dim = int(rng.randint(-nd, nd))
        if not stable:
            # without stability, tied keys may order the other operands either way:
            # distinct keys only
            pool = None
        ops = ["x", "u", "x * 2 - u"][:nops]
        if dt == "bool":
            ops = ["x", "u", "x ^ u"][:nops]
        opt = f", is_stable={stable}" if rng.rand() < 0.8 else ""
        opt += f", num_keys={nk}" if nk > 1 or rng.rand() < 0.3 else ""
        arg = ops[0] if nops == 1 and rng.rand() < 0.5 else f"({', '.join(ops)},)"
        body = f"lax.sort({arg}, dimension={dim}{opt})"
        if rng.rand() < 0.15:
            body = f"lax.sort_key_val(x, u, dimension={dim}{', is_stable=' + str(stable) if stable or rng.rand() < 0.5 else ''})"
    elif c < 0.84:
        k = int(rng.randint(0, shape[-1] + 1))
        if dt == "bool":
            dt = "int32"
        body = f"lax.top_k(x, {k})"
        if rng.rand() < 0.3:
            a = int(rng.randint(-nd, nd))
            body = f"lax.top_k(x, {min(k, shape[a])}, axis={a})"
    elif c < 0.90:
        fn = str(rng.choice(["cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"]))
        if fn == "cumlogsumexp" and dt in ("int32", "uint8", "bool"):
            fn = "cumsum"
        if dt == "bool" and fn in ("cumsum", "cumprod"):
            dt = "int32"
        rev = str(rng.choice(["", ", reverse=True", ", reverse=False"]))
        body = f"lax.{fn}(x, axis={ax}{rev})"
    else:
        if dt in ("bool",):
            dt = "int32"
        fn = str(rng.choice(["add", "pair", "affine", "dict", "max"]))
        rev = str(rng.choice(["", ", reverse=True", ", reverse=False"]))
        if rev == ", reverse=True" and nax < 0:
            # JAX reverses with the axis as given: lax.rev refuses a negative one
            # (docs/compat.md)
            nax += nd
        axx = f", axis={nax}" if rng.rand() < 0.7 else ""
        if fn == "add":
            body = f"lax.associative_scan(lambda a, b: a + b, x{rev}{axx})"
        elif fn == "max":
            body = f"lax.associative_scan(jnp.maximum, x{rev}{axx})"
        elif fn == "pair":
            body = f"lax.associative_scan(pair_add, (x, u){rev}{axx})"
        elif fn == "dict":
            body = f"lax.associative_scan(dict_comp, {{'s': x, 'm': u}}{rev}{axx})"
        else:
            body = f"lax.associative_scan(affine_comp, (x, u){rev}{axx})"
            pool = [1.0, -1.0, 0.5, 2.0, -0.5]
    if pool is None:
        n = int(np.prod(xshape))
        xs = _perm_text(rng.permutation(np.arange(n) * 0.5 - n / 4).reshape(xshape), dt)
    else:
        xs = _array_text(rng, dt, xshape, pool)
    us = _array_text(rng, dt, ushape, pool if pool is not None else _RPOOL)
    diff = dt in ("float32", "float16", "bfloat16", "float64") and not no_deriv
    if "bitcast" in body or "top_k" in body and rng.rand() < 0.5:
        diff = diff and rng.rand() < 0.3
    size = int(np.prod(xshape)) * 2
    stack = str(rng.choice(_stacks(diff, size <= 16, batched_i=False)))
    if width_change and stack == "vmap_last":
        # JAX's batching rule of a width-changing bitcast leaves a last batch axis where
        # the bitcast adds or consumes one (an IndexError or a wrong shape, docs/compat.md)
        stack = "vmap_x"
    if "select_n" in body and stack in ("vmap_i", "vmap_all") and rng.rand() < 0.5:
        body = body.replace("lax.select_n(jnp.asarray", "lax.select_n(i + 0 * jnp.asarray", 1)
    return _program(body, xs, us, "jnp.int32(0)", "jnp.int32(1)", stack, x64, extra)


def _perm_text(vals, dt):
    if dt.startswith(("int", "uint")):
        v = np.round(vals * 2).astype(int)
        if dt.startswith("uint"):
            v = v - v.min() if v.size else v
        return f"jnp.asarray(np.array({_lit(v)}, dtype={dt!r}).reshape({v.shape!r}))"
    if dt == "bfloat16":
        return f"jnp.asarray(np.array({_lit(vals)}, dtype='float32').reshape({vals.shape!r})).astype(jnp.bfloat16)"
    return f"jnp.asarray(np.array({_lit(vals)}).reshape({vals.shape!r}), dtype={dt!r})"


# --------------------------------------------------------------------------- slicing
_SLDT = (
    "float32",
    "float32",
    "float32",
    "float16",
    "bfloat16",
    "float64",
    "int32",
    "uint8",
    "bool",
    "complex64",
)


def gen_slicing(rng):
    dt = _SLDT[rng.randint(len(_SLDT))]
    idt = _IDT[rng.randint(len(_IDT))]
    x64 = dt == "float64" or idt in ("int64",) or rng.rand() < 0.1
    nd = int(rng.randint(1, 4))
    shape = tuple(int(s) for s in rng.randint(1, 5, size=nd))
    if rng.rand() < 0.05:
        shape = shape[:-1] + (0,)
    ushape = shape
    c = rng.rand()
    iv0, iv1 = np.int64(0), np.int64(1)
    batched_i = False
    ax = int(rng.randint(0, nd))
    uns = idt.startswith("uint")

    def start(d, size):
        lo = 0 if uns else -shape[d] - 2
        return (
            int(rng.randint(lo, shape[d] + 3))
            if rng.rand() < 0.8
            else int(rng.randint(0, max(shape[d] - size, 0) + 1))
        )

    if c < 0.3:
        sizes = tuple(int(rng.randint(0, s + 1)) for s in shape)
        st = [start(d, sizes[d]) for d in range(nd)]
        traced = rng.rand() < 0.6
        if rng.rand() < 0.6:
            if traced:
                iv0 = np.array(st)
                iv1 = np.array([start(d, sizes[d]) for d in range(nd)])
                starts = "[i[j] for j in range(i.shape[0])]" if rng.rand() < 0.5 else "list(i)"
                batched_i = True
            else:
                starts = repr(tuple(st))
            neg = "" if rng.rand() < 0.8 else f", allow_negative_indices={bool(rng.rand() < 0.5)}"
            body = f"lax.dynamic_slice(x, {starts}, {sizes!r}{neg})"
        else:
            ushape = sizes
            if traced:
                iv0 = np.array(st)
                iv1 = np.array([start(d, sizes[d]) for d in range(nd)])
                starts = "tuple(i[j] for j in range(i.shape[0]))"
                batched_i = True
            else:
                starts = repr(tuple(st))
            neg = "" if rng.rand() < 0.8 else f", allow_negative_indices={bool(rng.rand() < 0.5)}"
            body = f"lax.dynamic_update_slice(x, u, {starts}{neg})"
    elif c < 0.48:
        size = int(rng.randint(0, shape[ax] + 1))
        s0, s1 = start(ax, size), start(ax, size)
        traced = rng.rand() < 0.6
        iv0, iv1 = np.array(s0), np.array(s1)
        batched_i = traced
        idx = "i" if traced else str(s0)
        which = str(
            rng.choice(
                ["slice_in_dim", "index_in_dim", "update_index_in_dim", "update_slice_in_dim"]
            )
        )
        if which == "slice_in_dim":
            body = f"lax.dynamic_slice_in_dim(x, {idx}, {size}, axis={ax})"
        elif which == "index_in_dim":
            kd = bool(rng.rand() < 0.5)
            body = f"lax.dynamic_index_in_dim(x, {idx}, axis={ax}, keepdims={kd})"
        elif which == "update_index_in_dim":
            kd = rng.rand() < 0.5
            ushape = shape[:ax] + (1,) + shape[ax + 1 :] if kd else shape[:ax] + shape[ax + 1 :]
            body = f"lax.dynamic_update_index_in_dim(x, u, {idx}, {ax})"
        else:
            ushape = shape[:ax] + (size,) + shape[ax + 1 :]
            body = f"lax.dynamic_update_slice_in_dim(x, u, {idx}, axis={ax})"
    elif c < 0.6:
        st, lim, strd = [], [], []
        for s in shape:
            a = int(rng.randint(0, s + 1))
            b = int(rng.randint(a, s + 1))
            st.append(a)
            lim.append(b)
            strd.append(int(rng.choice([1, 1, 2, 3])))
        bad = rng.rand() < 0.06
        if bad:
            which = rng.randint(3)
            if which == 0:
                lim[0] = shape[0] + 1
            elif which == 1:
                st[0] = -1
            else:
                strd[0] = 0
        if rng.rand() < 0.3 and not any(s != 1 for s in strd):
            body = f"lax.slice(x, {tuple(st)!r}, {tuple(lim)!r})"
        else:
            body = f"lax.slice(x, {tuple(st)!r}, {tuple(lim)!r}, {tuple(strd)!r})"
        if rng.rand() < 0.2:
            a = int(rng.randint(0, shape[ax] + 1))
            b = int(rng.randint(a, shape[ax] + 1))
            body = f"lax.slice_in_dim(x, {a}, {b}, stride={int(rng.choice([1, 2]))}, axis={ax})"
    elif c < 0.72:
        cfg = []
        for s in shape:
            interior = int(rng.choice([0, 0, 1, 2]))
            span = s + max(s - 1, 0) * interior
            lo = int(rng.randint(-span, 3))
            hi = int(rng.randint(-(span + lo), 3)) if span + lo >= 0 else int(rng.randint(0, 3))
            cfg.append((lo, hi, interior))
        if rng.rand() < 0.05:
            cfg[0] = (cfg[0][0], cfg[0][1], -1)
        pv = str(
            rng.choice(
                [
                    "0",
                    "-1.5",
                    "jnp.array(2, x.dtype)",
                    "u.ravel()[0] if u.size else jnp.array(0, x.dtype)",
                ]
            )
        )
        if pv in ("0", "-1.5"):
            pv = f"jnp.array({pv}, x.dtype)" if dt != "bool" else "jnp.array(True)"
        body = f"lax.pad(x, {pv}, {cfg!r})"
    elif c < 0.78:
        dims = tuple(
            sorted(int(d) for d in rng.choice(nd, int(rng.randint(0, nd + 1)), replace=False))
        )
        body = f"lax.rev(x, {dims!r})"
    elif c < 0.88:
        which = str(rng.choice(["squeeze", "expand", "bid", "bid"]))
        if which == "squeeze":
            shape = tuple(1 if rng.rand() < 0.5 else s for s in shape)
            ones = [d for d, s in enumerate(shape) if s == 1]
            dims = [d for d in ones if rng.rand() < 0.7]
            if rng.rand() < 0.05:
                dims = [d for d, s in enumerate(shape) if s != 1][:1]
            dims = tuple(d - nd if rng.rand() < 0.3 else d for d in dims)
            body = f"lax.squeeze(x, {dims!r})"
            ushape = shape
        elif which == "expand":
            k = int(rng.randint(0, 3))
            dims = tuple(sorted(int(d) for d in rng.choice(nd + k, k, replace=False)))
            body = f"lax.expand_dims(x, {dims!r})"
        else:
            out_rank = nd + int(rng.randint(0, 3))
            bd = tuple(sorted(int(d) for d in rng.choice(out_rank, nd, replace=False)))
            out = [int(rng.randint(1, 4)) for _ in range(out_rank)]
            for d, b in zip(range(nd), bd):
                out[b] = shape[d] if shape[d] != 1 or rng.rand() < 0.5 else int(rng.randint(1, 4))
            body = f"lax.broadcast_in_dim(x, {tuple(out)!r}, {bd!r})"
    else:
        pieces = []
        for _ in range(int(rng.randint(1, 4))):
            pieces.append(
                str(
                    rng.choice(
                        [
                            "x",
                            "u",
                            f"lax.slice_in_dim(x, 0, 0, axis={ax})",
                            f"lax.slice_in_dim(u, 1, {min(2, shape[ax])}, axis={ax})",
                        ]
                    )
                )
            )
        if rng.rand() < 0.1:
            pieces = [f"lax.slice_in_dim(x, 0, 0, axis={ax})"]
        body = f"lax.concatenate([{', '.join(pieces)}], {ax})"
    xs = _array_text(rng, dt, shape, [0.0, 1.0, -1.0, 2.0, -0.5, 0.5, 1.5, -2.0, 3.0])
    us = _array_text(rng, dt, ushape, [0.0, 1.0, -1.0, 2.0, -0.5, 0.5, 1.5, -2.0, 3.0])
    diff = dt in ("float32", "float16", "bfloat16", "float64", "complex64")
    size = int(np.prod(shape)) + int(np.prod(ushape))
    stack = str(rng.choice(_stacks(diff, size <= 24, batched_i)))
    if dt == "complex64" and stack in ("jacrev", "hessian"):
        stack = "jvp"
    return _program(body, xs, us, _idx_text(iv0, idt), _idx_text(iv1, idt), stack, x64)


GENERATORS = {"gather": gen_gather, "reduce": gen_reduce, "slicing": gen_slicing}


# ------------------------------------------------------------------------- comparison
def check(name, seed, messages=False):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    deriv = any(k in src for k in ("jx.grad", "jx.jvp", "jx.vjp", "jx.hessian", "jx.jac"))
    d = fuzz_s22.difference(src, fuzz_s22._TOLS["close"], signs=not deriv)
    if d is None and messages:
        d = fuzz_s23.message_difference(src)
    return d, src


def hunt(name, seeds, messages=False):
    """``[(seed, difference, program)]`` for the seeds whose programs disagree."""
    return [(s, d, src) for s in seeds for d, src in [check(name, s, messages)] if d]


if __name__ == "__main__":
    name, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    msgs = len(sys.argv) > 4 and sys.argv[4] == "messages"
    for seed in range(first, first + count):  # printed as found (a run may be cut short)
        d, src = check(name, seed, msgs)
        if d:
            print(f"--- {name} seed {seed}: {d}\n{src[src.index('def f(') :]}", flush=True)
    print(f"=== {name} {first}..{first + count - 1} done", flush=True)
