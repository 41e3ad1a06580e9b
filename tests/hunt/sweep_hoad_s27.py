"""Session 27 higher-order derivative sweep (not a test): third derivatives and second
derivatives under ``vmap``.

Part 1 (``funcs``): a sample of each family of rules (``SAMPLE``: elementwise unary and
binary, special functions, reductions and scans, linalg, nn) under, on the real sum of the
outputs,

* ``fwdfwdrev``: ``jacfwd(jacfwd(jacrev))``, the full third-derivative tensor;
* ``jvpjvpgrad``: ``jvp`` of ``jvp`` of ``grad`` with random tangents;
* ``revrevrev``: ``jacrev(jacrev(jacrev))`` (transposes of transposed rules);
* ``vmap_hessian``: ``vmap(hessian)`` over a batch of two points (the point and its
  reversal / permuted matrix, so hard values stay in the batch);
* ``hessian_vmap``: ``hessian`` of the sum of ``vmap`` of the function over that batch;
* ``vmap_jvpgrad``: ``vmap`` of ``jvp`` of ``grad`` with batched tangents;

eager or jitted, float32 / float64, at session 25's generic and hard points (its point
sets, comparison and primal masks are imported: tests/hunt/sweep_ad_s25.py).

Part 2 (``comp``): session 26's random programs (tests/hunt/sweep_hoad_s26.py's
``Gen``: scan / loops / cond / switch / custom_jvp / custom_vjp / checkpoint / vmap /
stop_gradient) under third-order transforms (``fwdfwdrev``, ``jvpjvpgrad``,
``gradgradgrad``) and ``vmap`` of / over their Hessians.

Run: ``nice -n 19 python -m tests.hunt.sweep_hoad_s27 funcs [FAMILY.NAME ...]`` or
``nice -n 19 python -m tests.hunt.sweep_hoad_s27 comp FIRST COUNT``.
"""

# ruff: noqa: E501
from __future__ import annotations

import sys
import warnings

import numpy as np

from tests.hunt import fuzz_s22, sweep_ad_s25 as s25, sweep_hoad_s26 as s26
from tests.hunt.oracle import JAX, LITE

SAMPLE = """
jnp.sin jnp.tanh jnp.exp jnp.log jnp.sqrt jnp.cbrt jnp.power jnp.float_power jnp.arctan2
jnp.hypot jnp.logaddexp jnp.expm1 jnp.log1p jnp.sinc jnp.arcsinh jnp.arccos jnp.arctanh
jnp.abs jnp.maximum jnp.minimum jnp.reciprocal jnp.square jnp.divide jnp.remainder
jnp.fmod jnp.copysign jnp.deg2rad jnp.exp2 jnp.log2 jnp.logaddexp2 jnp.clip jnp.heaviside
lax.logistic lax.erf lax.erf_inv lax.lgamma lax.digamma lax.integer_pow lax.rsqrt lax.pow
lax.tan lax.atan2 lax.igamma lax.igammac lax.polygamma lax.zeta lax.cosh lax.asinh
lax.acos lax.cbrt lax.div lax.rem lax.max
special.gammaln special.erfc special.xlogy special.xlog1py special.entr special.i0e
special.i1e special.i0 special.i1 special.ndtri special.log_ndtr special.ndtr special.spence
special.betaln special.expit special.logit special.gammainc special.gammaincc
special.betainc special.erfcx special.kl_div special.rel_entr special.sinc special.bernoulli
special.poch special.fresnel special.sici special.expi
jnp.sum jnp.prod jnp.max jnp.min jnp.mean jnp.var jnp.std jnp.cumsum jnp.cumprod
jnp.sort jnp.median jnp.ptp jnp.nanmax jnp.nansum jnp.nanprod jnp.average jnp.linalg.norm
jnp.dot jnp.outer jnp.cross jnp.convolve jnp.polyval jnp.diff jnp.trapezoid jnp.interp
lax.cumlogsumexp lax.cummax lax.cumprod lax.reduce_max lax.reduce_prod lax.sort
lax.top_k lax.dot
nn.logsumexp nn.softmax nn.log_softmax nn.relu nn.gelu nn.silu nn.softplus nn.elu nn.celu
nn.selu nn.sigmoid nn.log_sigmoid nn.standardize nn.glu nn.squareplus nn.mish
linalg.det linalg.slogdet linalg.inv linalg.solve linalg.cholesky linalg.eigh
linalg.eigvalsh linalg.qr linalg.svdvals linalg.pinv linalg.matrix_power linalg.norm
linalg.lstsq linalg.tensorsolve linalg.matrix_norm linalg.vector_norm linalg.trace
linalg.cond linalg.multi_dot linalg.vecdot
""".split()


def _batch(m, x):
    """Two points in a batch: the point and its reversal (a matrix conjugated by the
    reversal permutation, which keeps it symmetric positive definite), so the hard values
    stay in the batch."""
    x = np.asarray(x) if not hasattr(x, "dtype") else x
    if np.ndim(x) == 2:
        y = x[::-1, ::-1]
    elif np.ndim(x) == 1:
        y = x[::-1]
    else:
        y = x
    return m.jnp.stack([m.jnp.asarray(x), m.jnp.asarray(y)])


def build3(fam, name, args, dt, x64, tr, seed=0):
    def b(m):
        with m.jx.enable_x64(x64):
            fn = getattr(s25.module(m, fam), name)
            g, arrs = s25.closed(fn, s25.to_lib(m, args, dt, x64))
            nums = tuple(range(len(arrs)))
            jit = tr.startswith("jit_")
            t = tr[4:] if jit else tr
            rng = np.random.RandomState(seed)

            def s(*xs):
                return s25.real_sum(m, g(*xs))

            jx = m.jx
            if t == "fwdfwdrev":
                h = jx.jacfwd(jx.jacfwd(jx.jacrev(s, argnums=nums), argnums=nums), argnums=nums)
            elif t == "revrevrev":
                h = jx.jacrev(jx.jacrev(jx.jacrev(s, argnums=nums), argnums=nums), argnums=nums)
            elif t == "jvpjvpgrad":
                t1 = tuple(s25.tangent(m, x, rng) for x in arrs)
                t2 = tuple(s25.tangent(m, x, rng) for x in arrs)
                gr = jx.grad(s, argnums=nums, allow_int=True)

                def inner(*xs):
                    return jx.jvp(gr, xs, t1)[1]

                def h(*xs):
                    return jx.jvp(inner, xs, t2)
            elif t == "vmap_hessian":
                arrs = [_batch(m, x) for x in arrs]
                h = jx.vmap(jx.hessian(s, argnums=nums))
            elif t == "hessian_vmap":
                arrs = [_batch(m, x) for x in arrs]
                h = jx.hessian(lambda *xs: m.jnp.sum(jx.vmap(s)(*xs)), argnums=nums)
            elif t == "vmap_jvpgrad":
                arrs = [_batch(m, x) for x in arrs]
                ts = tuple(s25.tangent(m, x, rng) for x in arrs)
                gr = jx.grad(s, argnums=nums, allow_int=True)
                h = jx.vmap(lambda xs, ts: jx.jvp(gr, xs, ts))
                return (jx.jit(h) if jit else h)(tuple(arrs), ts)
            else:
                raise ValueError(tr)
            return (jx.jit(h) if jit else h)(*arrs)

    return b


EW_PLAN = [
    (
        "generic",
        "float32",
        ("fwdfwdrev", "revrevrev", "jit_jvpjvpgrad", "vmap_hessian", "hessian_vmap"),
    ),
    ("generic", "float64", ("jvpjvpgrad", "jit_vmap_jvpgrad")),
    ("hard", "float32", ("fwdfwdrev", "vmap_hessian")),
    ("hard", "float64", ("jvpjvpgrad", "vmap_jvpgrad", "hessian_vmap")),
    ("weak", None, ("jvpjvpgrad",)),
]


def plan(kind, ew):
    sets = {label: args for label, args, _ in s25.point_sets(kind, ew)}
    if ew:
        return [(lb, sets[lb], dt, trs) for lb, dt, trs in EW_PLAN]
    out = [
        ("generic", sets["generic"], "float32", ("fwdfwdrev", "revrevrev", "vmap_hessian", "hessian_vmap", "jit_vmap_jvpgrad")),
        ("generic", sets["generic"], "float64", ("jvpjvpgrad", "jit_fwdfwdrev")),
    ]  # fmt: skip
    for label, args in sets.items():
        if label != "generic" and "@" not in label:
            out.append((label, args, "float64", ("jvpjvpgrad", "vmap_hessian")))
    return out


def _batch_mask(mask):
    return None if mask is None else np.stack([mask, mask[::-1]])


def sweep_function(fam, name, verbose=True):
    c = s25.classify(fam, name)
    if c is None:
        return None, []
    kind, ew = c
    found = []
    for label, args, dt, trs in plan(kind, ew):
        x64 = dt in ("float64", "complex128")
        mask, inputs = None, None
        if ew:
            mask, _ = s25.primal_mask(fam, name, args, dt, x64)
            inputs = [v for k, v in args if k == "a"]
        for tr in trs:
            if label == "weak" and "vmap" in tr:
                continue
            batched = "vmap" in tr
            # a batched transform's leaves lead with the batch axis: the primal mask of
            # both points (the second reversed); the hessian of the vmapped sum has no
            # such leading axis, so none is left out there
            mk = (
                _batch_mask(mask)
                if batched and tr != "hessian_vmap"
                else (None if batched else mask)
            )
            d = s25.outcome(build3(fam, name, args, dt, x64, tr), mk, None if batched else inputs)
            if d:
                line = f"{fam}.{name} {kind} ew={ew} {label} {dt} {tr}: {d[:400]}"
                found.append(line)
                if verbose:
                    print(line, flush=True)
    return (kind, ew), found


def main_funcs(argv):
    targets = []
    for a in argv or SAMPLE:
        fam, _, n = a.rpartition(".")
        if fam == "jnp.linalg":
            fam = "linalg"
        targets.append((fam or "jnp", n))
    summary = []
    for fam, n in targets:
        try:
            c, found = sweep_function(fam, n)
        except Exception as e:  # noqa: BLE001 - the harness itself must go on
            print(f"HARNESS {fam}.{n}: {type(e).__name__}: {e}", flush=True)
            continue
        if c is None:
            print(f"# {fam}.{n}: not differentiable on any candidate", flush=True)
        else:
            summary.append((fam, n, c, len(found)))
            print(f"## {fam}.{n} {c}: {len(found)} differences", flush=True)
    bad = [s for s in summary if s[3]]
    print(f"=== {len(summary)} functions swept, {len(bad)} with differences", flush=True)


# ------------------------------------------------------------------------- part 2
TRANSFORMS3 = {
    "fwdfwdrev": "jx.jacfwd(jx.jacfwd(jx.jacrev(f)))",
    "jvpjvpgrad": "(lambda x: jx.jvp(lambda y: jx.jvp(jx.grad(f), (y,), (T,))[1], (x,), (T2,)))",
    "gradgradgrad": "jx.grad(lambda x: jnp.sum(jx.grad(lambda y: jnp.sum(jx.grad(f)(y) * T))(x) * T2))",
    "vmap_hessian": "(lambda x: jx.vmap(jx.hessian(f))(jnp.stack([x, x[::-1] * 0.75])))",
    "hessian_vmap": "(lambda x: jx.hessian(lambda xs: jnp.sum(jx.vmap(f)(xs)))(jnp.stack([x, x[::-1] * 0.75])))",
    "vmap_jvpgrad": "(lambda x: jx.vmap(lambda y, t: jx.jvp(jx.grad(f), (y,), (t,)))(jnp.stack([x, x[::-1] * 0.75]), jnp.stack([T, T2])))",
}


def gen_program3(rng):
    """[(transform, program source)]: one of session 26's programs under up to three of
    the third-order / batched second-order transforms."""
    base = s26.gen_program(rng)[0][1]
    head, _, _ = base.rpartition("        return ")
    head = head.replace("global W, T", "global W, T, T2")
    t2 = [float(v) for v in np.round(rng.randn(3), 3)]
    dt = "jnp.float64" if "enable_x64(True)" in head else "jnp.float32"
    head += f"        T2 = jnp.asarray(np.array({t2}), {dt})\n"
    trs = [k for k in TRANSFORMS3 if rng.rand() < 0.4][:3] or ["fwdfwdrev"]
    jit = bool(rng.rand() < 0.4)
    out = []
    for t in trs:
        call = f"jx.jit({TRANSFORMS3[t]})(X)" if jit else f"{TRANSFORMS3[t]}(X)"
        out.append((("jit_" if jit else "") + t, head + f"        return {call}\n"))
    return out


def main_comp(argv):
    first, count = int(argv[0]), int(argv[1])
    nbad = ncase = 0
    for seed in range(first, first + count):
        for tr, src in gen_program3(np.random.RandomState(seed)):
            ncase += 1
            try:
                d = fuzz_s22.difference(src, s26.COMP_TOLS, signs=False)
            except Exception as e:  # noqa: BLE001
                d = f"HARNESS {type(e).__name__}: {e}"
            if d and "enable_x64(False)" in src and d.startswith("leaf"):
                src64 = src.replace("enable_x64(False)", "enable_x64(True)")
                src64 = src64.replace("jnp.float32", "jnp.float64")
                if fuzz_s22.difference(src64, {"float64": 1e-4}, signs=False) is None:
                    d = "ILLCOND (float64 runs agree) " + d
            if d:
                nbad += 1
                print(f"--- comp seed {seed} {tr}: {d[:600]}\n{src}", flush=True)
    print(f"=== comp {first}..{first + count - 1}: {ncase} cases, {nbad} differences", flush=True)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    assert JAX is not None and LITE is not None
    {"funcs": main_funcs, "comp": main_comp}[sys.argv[1]](sys.argv[2:])
