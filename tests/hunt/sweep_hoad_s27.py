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

Session 27 ran (the shared machine at load ~13, ~20 s a function with the reduced plan):
session 26's sweep on ``lax`` after ``cosh`` (53 differentiable functions); part 1 on
``SAMPLE`` through ``nn.squareplus`` (linalg, reductions, scans, nn: 63 functions; the
special functions and elementwise ``lax`` / ``jnp`` after it were not run); part 2 on seeds
0..59; and part 3's 61 programs (all but ``betainc_x``) (loops, cond / switch, custom_jvp with
``nondiff_argnums``, custom_vjp, checkpoint with policies, reduce_window, scatter / gather,
segment reductions, convolutions, FFTs, sort / top_k, linalg, odeint, custom_root /
custom_linear_solve) under all six transforms, eager and jitted. ``hyp1f1`` / ``hyp2f1``
were started but not finished (JAX's Hessians of them compile for minutes at that load).
Found: ``random_gamma_grad``'s second derivatives were missing (NotImplementedError; JAX's
forward mode answers): added. Left as they are: ``polyval`` at infinite coefficients (JAX's
scan NaN, docs/compat.md), ``digamma`` / ``lgamma`` at ``inf`` (session 26's row),
``eigvalsh`` at repeated eigenvalues (both engines return ~1e14 garbage for the third
derivative of the eigenvalues' sum, which is 0: 1 / (w_i - w_j) of eigenvalues a few ulps
apart), float32 noise in ``lstsq``'s third derivative (5e-4 relative; float64 agrees to
1e-13) and ``nn.standardize`` at equal inputs (1e-9 against 0).

Part 3 (``probe``): hand-written programs through each family of rules (``progs``) under
the six transforms, eager and jitted.

Run: ``nice -n 19 python -m tests.hunt.sweep_hoad_s27 funcs [--full] [FAMILY.NAME ...]``,
``nice -n 19 python -m tests.hunt.sweep_hoad_s27 comp FIRST COUNT`` or
``nice -n 19 python -m tests.hunt.sweep_hoad_s27 probe [NAME,... [TRANSFORM,...]]``.
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


# JAX's compilations dominate (about a minute a function on the shared machine with the
# full plan): each transform once where it is cheapest to tell apart
EW_PLAN = [
    ("generic", "float32", ("fwdfwdrev", "vmap_hessian")),
    ("hard", "float64", ("jvpjvpgrad", "hessian_vmap")),
]
FULL_EW_PLAN = EW_PLAN + [
    ("generic", "float32", ("revrevrev", "jit_jvpjvpgrad", "hessian_vmap")),
    ("generic", "float64", ("jvpjvpgrad", "jit_vmap_jvpgrad")),
    ("hard", "float32", ("fwdfwdrev", "vmap_hessian")),
    ("hard", "float64", ("vmap_jvpgrad",)),
    ("weak", None, ("jvpjvpgrad",)),
]
FULL = False


def plan(kind, ew):
    sets = {label: args for label, args, _ in s25.point_sets(kind, ew)}
    if ew:
        return [(lb, sets[lb], dt, trs) for lb, dt, trs in (FULL_EW_PLAN if FULL else EW_PLAN)]
    out = [
        ("generic", sets["generic"], "float32", ("fwdfwdrev", "vmap_hessian")),
        ("generic", sets["generic"], "float64", ("jvpjvpgrad", "hessian_vmap")),
    ]  # fmt: skip
    if FULL:
        out.append(
            (
                "generic",
                sets["generic"],
                "float32",
                ("revrevrev", "jit_vmap_jvpgrad", "jit_fwdfwdrev"),
            )
        )
    for label, args in sets.items():
        if label != "generic" and "@" not in label:
            out.append(
                (label, args, "float64", ("jvpjvpgrad",) + (("vmap_hessian",) if FULL else ()))
            )
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
    global FULL
    if argv and argv[0] == "--full":
        FULL, argv = True, argv[1:]
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


# ------------------------------------------------------------------------- part 3
# hand-written programs through each family of rules under the six transforms
x0 = np.array([0.3, -0.7, 1.1], np.float32)
t1 = np.array([0.5, 1.0, -0.25], np.float32)
t2 = np.array([-1.0, 0.3, 0.7], np.float32)


def progs(m):
    jx, jnp, lax = m.jx, m.jnp, m.lax

    @jx.custom_jvp
    def cj(u):
        return jnp.sin(u) * u

    @cj.defjvp
    def _(p, t):
        (u,), (du,) = p, t
        return cj(u), (jnp.cos(u) * u + jnp.sin(u)) * du * 1.1

    @jx.custom_vjp
    def cv(u):
        return jnp.tanh(u) * u

    cv.defvjp(
        lambda u: (cv(u), u),
        lambda u, g: (jx.vjp(lambda v: jnp.tanh(v) * v, u)[1](g)[0] * (1 + 0.25 * jnp.sin(u)),),
    )
    P = {}
    P["scan"] = lambda x: jnp.sum(
        lax.scan(lambda c, xi: (jnp.sin(c) * xi + c * c, c * xi), x, jnp.stack([x, x * 2]))[1]
    )
    P["fori"] = lambda x: jnp.sum(lax.fori_loop(0, 3, lambda i, c: jnp.tanh(c) * x + c, x))
    P["while"] = lambda x: jnp.sum(
        lax.while_loop(
            lambda ic: ic[0] < 3, lambda ic: (ic[0] + 1, jnp.sin(ic[1]) * ic[1]), (0, x)
        )[1]
    )
    P["cond"] = lambda x: jnp.sum(
        lax.cond(jnp.sum(x) > 0, lambda y: jnp.exp(y) * y, lambda y: y**3, x)
    )
    P["switch"] = lambda x: jnp.sum(lax.switch(1, [jnp.sin, lambda y: jnp.cos(y) * y, jnp.exp], x))
    P["cjvp"] = lambda x: jnp.sum(cj(x) * x)
    P["cvjp"] = lambda x: jnp.sum(cv(x) * x)
    P["ckpt"] = lambda x: jnp.sum(jx.checkpoint(lambda y: jnp.sin(y) * jnp.exp(y))(x) * x)
    P["ckpt_pol"] = lambda x: jnp.sum(
        jx.checkpoint(
            lambda y: jnp.sin(y) @ jnp.outer(y, y), policy=jx.checkpoint_policies.dots_saveable
        )(x)
    )
    P["vmap"] = lambda x: jnp.sum(jx.vmap(lambda a, b: jnp.sin(a * b) * a)(x, x[::-1]))
    P["map"] = lambda x: jnp.sum(lax.map(lambda a: jnp.sin(a) ** 2 * a, x))
    P["assoc"] = lambda x: jnp.sum(lax.associative_scan(jnp.multiply, jnp.sin(x) + 1.5))
    P["cumprod"] = lambda x: jnp.sum(jnp.cumprod(x) * x)
    P["sort"] = lambda x: jnp.sum(jnp.sort(x * x[::-1]) * jnp.arange(3.0))
    P["det"] = lambda x: jnp.linalg.det(jnp.outer(x, x) + jnp.eye(3) * 2 + jnp.diag(x))
    P["eigh"] = lambda x: jnp.sum(
        jnp.linalg.eigh(jnp.outer(x, x) + jnp.diag(jnp.array([1.0, 2.0, 3.0])))[0] ** 2
    )
    P["inv"] = lambda x: jnp.sum(jnp.linalg.inv(jnp.outer(x, x) + jnp.eye(3) * 2))
    P["cholesky"] = lambda x: jnp.sum(jnp.linalg.cholesky(jnp.outer(x, x) + jnp.eye(3) * 2))
    P["qr"] = lambda x: jnp.sum(
        jnp.linalg.qr(jnp.outer(x, x) + jnp.diag(jnp.array([1.0, 2.0, 3.0])))[1]
    )
    P["svd"] = lambda x: jnp.sum(
        jnp.linalg.svd(jnp.outer(x, x) + jnp.diag(jnp.array([1.0, 2.0, 3.0])), compute_uv=False)
    )
    P["expm"] = lambda x: jnp.sum(jx.scipy.linalg.expm(jnp.outer(x, x) * 0.3))
    P["solve_tri"] = lambda x: jnp.sum(
        jx.scipy.linalg.solve_triangular(jnp.tril(jnp.outer(x, x)) + jnp.eye(3) * 2, x, lower=True)
    )
    P["logsumexp"] = lambda x: jx.nn.logsumexp(x * x[::-1])
    P["softmax"] = lambda x: jnp.sum(jx.nn.softmax(x) * jnp.arange(3.0))
    P["max"] = lambda x: jnp.max(x * x)
    P["norm"] = lambda x: jnp.linalg.norm(x) ** 3
    P["remat_scan"] = lambda x: jnp.sum(
        lax.scan(jx.checkpoint(lambda c, xi: (jnp.sin(c) * xi, c)), x, jnp.stack([x, x]))[0]
    )
    P["custom_root"] = lambda x: jnp.sum(
        lax.custom_root(
            lambda y: y**3 - x,
            x,
            lambda f, y0: lax.fori_loop(
                0, 30, lambda i, y: y - f(y) / (3 * y**2), jnp.ones_like(y0) * 1.0
            ),
            lambda g, y: y / (3.0 * 1.0),
        )
    )
    P["cls"] = lambda x: jnp.sum(
        lax.custom_linear_solve(lambda v: v * (x * x + 1.0), x, lambda mv, b: b / (x * x + 1.0))
    )
    from functools import partial

    @partial(jx.custom_jvp, nondiff_argnums=(0,))
    def cjn(k, u):
        return jnp.sin(u) * k

    @cjn.defjvp
    def _(k, p, t):
        (u,), (du,) = p, t
        return cjn(k, u), jnp.cos(u) * k * du

    P["cjvp_nd"] = lambda x: jnp.sum(cjn(2.0, x) * x)
    P["where_nan"] = lambda x: jnp.sum(jnp.where(x > 0, jnp.sqrt(jnp.where(x > 0, x, 1.0)), x**2))
    P["reduce_window"] = lambda x: jnp.sum(
        lax.reduce_window(jnp.outer(x, x), -jnp.inf, lax.max, (2, 2), (1, 1), "VALID") ** 2
    )
    P["rw_sum"] = lambda x: jnp.sum(
        lax.reduce_window(jnp.outer(x, jnp.sin(x)), 0.0, lax.add, (2, 2), (1, 1), "SAME") ** 2
    )
    P["cummax"] = lambda x: jnp.sum(lax.cummax(x * x[::-1]) * x)
    P["dus"] = lambda x: jnp.sum(
        lax.dynamic_update_slice(jnp.outer(x, x), jnp.sin(x)[None, :2], (1, 1)) ** 2
    )
    P["scatter_add"] = lambda x: jnp.sum(jnp.zeros(4).at[jnp.array([0, 2, 2])].add(x * x) ** 2)
    P["scatter_mul"] = lambda x: jnp.sum(jnp.ones(4).at[jnp.array([0, 2, 2])].multiply(x) ** 2)
    P["scatter_set"] = lambda x: jnp.sum(jnp.ones(4).at[jnp.array([0, 2, 1])].set(jnp.sin(x)) ** 3)
    P["gather"] = lambda x: jnp.sum(jnp.sin(x)[jnp.array([0, 0, 2, 1])] ** 3)
    P["segment"] = lambda x: jnp.sum(jx.ops.segment_sum(x * x, jnp.array([0, 1, 0]), 2) ** 2)
    P["segmax"] = lambda x: jnp.sum(jx.ops.segment_max(x * x, jnp.array([0, 1, 0]), 2) ** 2)
    P["conv"] = lambda x: jnp.sum(jnp.convolve(x, jnp.sin(x), mode="full") ** 2)
    P["conv_general"] = lambda x: jnp.sum(
        lax.conv_general_dilated(
            jnp.outer(x, x)[None, None],
            jnp.sin(jnp.outer(x, x))[None, None, :2, :2],
            (1, 1),
            "SAME",
        )
        ** 2
    )
    P["einsum"] = lambda x: jnp.einsum("i,j,ij->", x, jnp.sin(x), jnp.outer(x, x))
    P["fft"] = lambda x: jnp.sum(jnp.abs(jnp.fft.fft(x * x)) ** 2)
    P["rfft"] = lambda x: jnp.sum(jnp.fft.irfft(jnp.fft.rfft(jnp.sin(x)) * 2.0, n=3) ** 3)
    P["sort2"] = lambda x: jnp.sum(lax.sort((x * x[::-1], jnp.sin(x)), num_keys=1)[1] ** 2)
    P["topk"] = lambda x: jnp.sum(lax.top_k(x * x, 2)[0] ** 3)
    P["argsort_take"] = lambda x: jnp.sum(jnp.take(x**3, jnp.argsort(x)) * jnp.arange(3.0))
    P["cumlogsumexp"] = lambda x: jnp.sum(lax.cumlogsumexp(x * x))
    P["slogdet_loop"] = lambda x: lax.fori_loop(
        0, 2, lambda i, c: c + jnp.linalg.slogdet(jnp.outer(x, x) + jnp.eye(3) * (2.0 + i))[1], 0.0
    )
    P["pinv"] = lambda x: jnp.sum(
        jnp.linalg.pinv(jnp.outer(x, x) + jnp.diag(jnp.array([1.0, 2.0, 3.0])))
    )
    P["lstsq"] = lambda x: jnp.sum(
        jnp.linalg.lstsq(jnp.outer(x, x) + jnp.diag(jnp.array([1.0, 2.0, 3.0])), x)[0]
    )
    P["eig"] = lambda x: jnp.sum(
        jnp.real(jnp.linalg.eigvals(jnp.outer(x, x) + jnp.diag(jnp.array([1.0, 2.0, 3.0])))) ** 2
    )
    P["odeint"] = lambda x: jnp.sum(
        jx.experimental.ode.odeint(lambda y, t, a: -a * y, x, jnp.array([0.0, 0.5]), 1.5)[-1]
    )
    P["stopgrad"] = lambda x: jnp.sum(lax.stop_gradient(x) * x**3)
    P["clip"] = lambda x: jnp.sum(jnp.clip(x, -0.5, 0.5) ** 3 * x)
    P["polyval"] = lambda x: jnp.sum(jnp.polyval(x, x[::-1]))
    P["interp"] = lambda x: jnp.sum(jnp.interp(x, jnp.array([-1.0, 0.0, 1.5]), jnp.sin(x)) ** 2)
    P["logaddexp_inf"] = lambda x: jnp.sum(jnp.logaddexp(x, -jnp.inf) ** 3)
    P["xlogy"] = lambda x: jnp.sum(jx.scipy.special.xlogy(x, x * x + 1))
    P["betainc_x"] = lambda x: jnp.sum(jx.scipy.special.betainc(2.0, 3.0, jax_sig(x)))
    return P


def jax_sig(x):
    return 1 / (1 + np.e ** (-x))


T = {
    "fwdfwdrev": lambda m, f: m.jx.jacfwd(m.jx.jacfwd(m.jx.jacrev(f))),
    "revrevrev": lambda m, f: m.jx.jacrev(m.jx.jacrev(m.jx.jacrev(f))),
    "jvpjvpgrad": lambda m, f: (
        lambda x: m.jx.jvp(lambda y: m.jx.jvp(m.jx.grad(f), (y,), (t1,))[1], (x,), (t2,))
    ),
    "vmap_hessian": lambda m, f: (
        lambda x: m.jx.vmap(m.jx.hessian(f))(m.jnp.stack([x, x[::-1] * 0.75]))
    ),
    "hessian_vmap": lambda m, f: (
        lambda x: m.jx.hessian(lambda xs: m.jnp.sum(m.jx.vmap(f)(xs)))(
            m.jnp.stack([x, x[::-1] * 0.75])
        )
    ),
    "vmap_jvpgrad": lambda m, f: (
        lambda x: m.jx.vmap(lambda y, t: m.jx.jvp(m.jx.grad(f), (y,), (t,)))(
            m.jnp.stack([x, x[::-1] * 0.75]), m.jnp.stack([t1, t2])
        )
    ),
}


def main_probe(argv):
    names = argv[0].split(",") if argv else list(progs(LITE))
    trs = argv[1].split(",") if len(argv) > 1 else list(T)
    nbad = 0
    for n in names:
        for t in trs:
            for jit in (False, True):

                def b(m, n=n, t=t, jit=jit):
                    h = T[t](m, progs(m)[n])
                    return (m.jx.jit(h) if jit else h)(x0)

                d = s25.outcome(b)
                if d:
                    nbad += 1
                    print(f"{n} {t}{' jit' if jit else ''}: {d[:500]}", flush=True)
    print(f"=== probe: {len(names)} programs, {nbad} differences", flush=True)


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    assert JAX is not None and LITE is not None
    {"funcs": main_funcs, "comp": main_comp, "probe": main_probe}[sys.argv[1]](sys.argv[2:])
