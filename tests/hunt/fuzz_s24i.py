"""Session 24 differential hunt generators for the image, interpolation and statistics APIs
(test code, not a test module): seeded random programs run under JAX and jaxlite in one
process, compared leaf by leaf with fuzz_s22.difference (fuzz_s22's "close" tolerances).

Angles (``GENERATORS``), chosen where no earlier generator draws:

* ``image``: ``jax.image.resize`` (every method and its aliases, ``antialias``, up- and
  down-sampling, 1-4 dimensions with some left unchanged) and
  ``jax.image.scale_and_translate`` (``spatial_dims``, negative and fractional scales and
  translations, the scale and translation differentiated too) on float32 / float16 /
  bfloat16 / float64 (x64) / int32 / uint8 inputs, under eval / jit / vmap / grad / jvp /
  vjp / jacrev.
* ``ndimage``: ``jax.scipy.ndimage.map_coordinates`` (order 0 and 1, every mode, ``cval``,
  coordinates out of range and on the half-integers where rounding matters, integer
  inputs and integer coordinates), derivatives with respect to the input and the
  coordinates.
* ``interp``: ``jnp.interp`` (``left`` / ``right`` / ``period``, unsorted and duplicate
  ``xp``, complex ``fp``, NaN), ``jax.scipy.interpolate.RegularGridInterpolator``
  (``method``, ``bounds_error=False``, ``fill_value`` None / NaN / a number, points out of
  the grid, descending grids), ``jnp.polyval`` / ``polyfit`` / ``polyder`` / ``polyint``.
* ``stats``: the ``jax.scipy.stats`` distributions' functions (``_DISTS``) at edge
  parameters and points (0, 1, negative, infinities, NaN, the support's ends, integer
  ``k`` of the discrete laws, ``loc`` / ``scale`` broadcast), ``multivariate_normal``,
  ``dirichlet``, ``multinomial``, and ``mode`` / ``rankdata`` / ``sem``, under eval / jit /
  vmap / grad / jvp.

Known differences kept out (docs/compat.md): the image angle does not compare the signs of
zeros (a contraction's zero sums take their sign from XLA's accumulation order); the gumbel
functions are not differentiated (JAX cannot); x64 ``norm.ppf`` / ``isf`` of float32
operands are compared in float32 (JAX's ``ndtri`` rounds there before its float64 cast);
half-precision images keep their factor in their own dtype (the comparison's tolerance is
the image's).

``python -m tests.hunt.fuzz_s24i NAME FIRST COUNT`` prints each disagreement with its
program. A generated program is source text that the harness executes (``jx``, ``jnp``,
``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import sys

import numpy as np

import jaxlite.image  # noqa: F401
import jaxlite.scipy.interpolate  # noqa: F401
import jaxlite.scipy.ndimage  # noqa: F401
import jaxlite.scipy.stats  # noqa: F401
from tests.hunt import fuzz_s22, fuzz_s23
from tests.hunt.oracle import JAX

if JAX is not None:
    import jax.image  # noqa: F401
    import jax.scipy.interpolate  # noqa: F401
    import jax.scipy.ndimage  # noqa: F401
    import jax.scipy.stats  # noqa: F401

_lit = fuzz_s23._lit
_array_text = fuzz_s23._array_text
_call = fuzz_s23._call
_program = fuzz_s23._program
_DERIV = ("grad", "jit_grad", "jvp", "vjp", "jacrev", "hessian")


def _stack(rng, diff, small, vmaps=("vmap0", "vmap1", "vmap01", "vmap_last")):
    s = ["eval", "jit", "jit", *vmaps]
    if diff:
        s += ["grad", "grad", "jit_grad", "jvp", "jvp", "vjp", "jacrev"]
        if small:
            s += ["hessian"]
    return str(rng.choice(s))


def _float_text(rng, dt, shape, pool):
    """``_array_text`` of values drawn from ``pool`` (floats may hold NaN/inf)."""
    return _array_text(rng, dt, shape, pool)


# ------------------------------------------------------------------------------ image
_IDT = ("float32", "float32", "float32", "float16", "bfloat16", "float64", "int32", "uint8")
_METHODS = ("nearest", "linear", "bilinear", "trilinear", "cubic", "bicubic", "tricubic",
            "lanczos3", "lanczos5", "triangle", "cubic-pytorch", "bicubic-pytorch", "area")  # fmt: skip


def gen_image(rng):
    dt = _IDT[rng.randint(len(_IDT))]
    x64 = dt == "float64" or rng.rand() < 0.1
    nd = int(rng.choice([1, 2, 2, 3, 4]))
    shape = tuple(int(s) for s in rng.randint(1, 6 if nd < 4 else 4, size=nd))
    method = str(rng.choice(_METHODS))
    if rng.rand() < 0.2:
        method = f"jx.image.ResizeMethod.{rng.choice(['NEAREST', 'LINEAR', 'CUBIC', 'LANCZOS3', 'LANCZOS5', 'CUBIC_PYTORCH', 'AREA'])}"
    else:
        method = repr(method)
    aa = rng.choice(["", ", antialias=True", ", antialias=False"])
    if rng.rand() < 0.65:
        out = tuple(
            s if rng.rand() < 0.3 else int(rng.choice([1, 2, 3, 4, 5, 7, 8, 10])) for s in shape
        )
        # (the factor in the result's dtype: the comparison's tolerance is the image's)
        body = f"(lambda r: r * k[0].astype(r.dtype))(jx.image.resize(x, {out!r}, {method}{aa}))"
        ks = (
            f"jnp.asarray([1.5], dtype={dt if dt.startswith(('float', 'bfloat')) else 'float32'!r})"
        )
        if rng.rand() < 0.05:  # bad: rank mismatch or unknown method
            body = rng.choice(
                [
                    f"jx.image.resize(x, {out[:-1]!r}, {method})",
                    "jx.image.resize(x, x.shape, 'bogus')",
                ]
            )
    else:
        ns = int(rng.randint(1, nd + 1))
        dims = sorted(int(d) for d in rng.choice(nd, ns, replace=False))
        if rng.rand() < 0.3:
            dims = [d - nd for d in dims]
        out = list(shape)
        for d in dims:
            out[d] = int(rng.choice([1, 2, 3, 4, 6, 8]))
        scale = [float(rng.choice([0.5, 1.0, 1.5, 2.0, 2.5, 0.75, -1.0, 3.0, 0.3])) for _ in dims]
        trans = [float(rng.choice([0.0, 0.0, 0.5, -0.5, 1.0, -1.25, 2.0])) for _ in dims]
        # scale and translation in the image's precision: float32 weights (the kernels' sines
        # differ from XLA's in their last bits) would decide a float64 image's last digits
        kdt = "jnp.float64" if dt == "float64" else "jnp.float32"
        ks = f"jnp.asarray({_lit(np.array(scale + trans))}, dtype={kdt})"
        n = len(dims)
        body = (
            f"jx.image.scale_and_translate(x, {tuple(out)!r}, {tuple(dims)!r}, k[:{n}], k[{n}:], "
            f"{method}{aa})"
        )
        if "nearest" in method.lower():
            # JAX has no nearest kernel in scale_and_translate (a ValueError)
            body = body.replace(method, "'linear'")
    pool = None if rng.rand() < 0.8 else [0.0, 1.0, -1.0, 2.5, np.inf, np.nan]
    if dt in ("int32", "uint8") and pool is not None:
        pool = [0, 1, 3, 7, 2]
    xs = _float_text(rng, dt, shape, pool)
    diff = dt in ("float32", "float16", "bfloat16", "float64")
    size = int(np.prod(shape))
    stack = _stack(rng, diff, size <= 8)
    call = _call(stack)
    if stack == "vmap_last":
        call = "jx.vmap(f, in_axes=(-1, None), out_axes=-1)(jnp.stack([x0, x0 * 2], -1), k0)"
        if "scale_and_translate" in body and any(d < 0 for d in dims):
            call = call.replace("in_axes=(-1, None), out_axes=-1", "in_axes=(0, None)")
    if "resize" in body and stack in ("vmap1", "vmap01"):
        stack = "vmap0"
        call = _call(stack)
    return _program(body, xs, ks, call, x64)


# ---------------------------------------------------------------------------- ndimage
_MODES = ("constant", "nearest", "wrap", "mirror", "reflect", "grid-wrap", "grid-constant",
          "grid-mirror")  # fmt: skip
_COORDS = [0.0, 0.5, 1.0, 1.5, 2.5, -0.5, -1.0, -1.5, 3.0, 3.5, 4.5, 0.25, 2.75, -2.5, 6.0, 1.75]


def gen_ndimage(rng):
    dt = str(
        rng.choice(
            ["float32", "float32", "float32", "float64", "int32", "float16", "bfloat16", "uint8"]
        )
    )
    x64 = dt == "float64" or rng.rand() < 0.1
    nd = int(rng.choice([1, 1, 2, 2, 3]))
    shape = tuple(int(s) for s in rng.randint(1, 5, size=nd))
    npts = int(rng.randint(1, 6))
    order = int(rng.choice([0, 1, 1]))
    # (JAX supports the five first modes; the grid ones raise NotImplementedError)
    mode = str(rng.choice(_MODES[:5] if rng.rand() < 0.9 else _MODES))
    cval = rng.choice(["", "", ", cval=1.5", ", cval=-2", ", cval=jnp.nan"])
    cdt = str(rng.choice(["float32", "float32", "int32", "float64" if x64 else "float32"]))
    coords = rng.choice(_COORDS, size=(nd, npts))
    if cdt == "int32":
        coords = np.round(coords)
    ks = f"jnp.asarray(np.array({_lit(coords.astype(int) if cdt == 'int32' else coords)}), dtype={cdt!r})"
    form = rng.choice(["list", "list", "array", "tuple"])
    cs = {"list": "[k[i] for i in range(k.shape[0])]", "array": "k", "tuple": "tuple(k)"}[form]
    body = f"jx.scipy.ndimage.map_coordinates(x, {cs}, order={order}, mode={mode!r}{cval})"
    if rng.rand() < 0.04:
        body = rng.choice(
            [
                f"jx.scipy.ndimage.map_coordinates(x, {cs}, order=2, mode={mode!r})",
                f"jx.scipy.ndimage.map_coordinates(x, {cs}, order=1, mode='bogus')",
                "jx.scipy.ndimage.map_coordinates(x, [k[0]] * (x.ndim + 1), order=1)",
            ]
        )
    pool = None if rng.rand() < 0.8 else [0.0, 1.0, -1.0, 2.5, np.inf, np.nan]
    if dt in ("int32", "uint8"):
        pool = [0, 1, 3, 7, 2]
    xs = _float_text(rng, dt, shape, pool)
    diff = dt in ("float32", "float64", "float16", "bfloat16")
    stack = _stack(rng, diff, int(np.prod(shape)) <= 6)
    call = _call(stack)
    if stack in _DERIV and cdt == "int32":
        call = call.replace("argnums=(0, 1)", "argnums=0").replace(
            "cos_like(k0) * 0.5", "np.zeros(k0.shape, jx.dtypes.float0)"
        )
    if stack == "vmap_last":
        call = "jx.vmap(f, in_axes=(-1, -1), out_axes=-1)(jnp.stack([x0, x0 * 2], -1), jnp.stack([k0, k0[:, ::-1]], -1))"
    return _program(body, xs, ks, call, x64)


# ----------------------------------------------------------------------------- interp
_XQ = [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, -1.0, -0.5, 4.0, 5.5, 10.0, 0.25]


def gen_interp(rng):
    c = rng.rand()
    x64 = rng.rand() < 0.2
    fdt = "float64" if x64 and rng.rand() < 0.5 else "float32"
    extra = ""
    if c < 0.35:
        nq = int(rng.randint(1, 7))
        np_ = int(rng.randint(1, 6))
        xp = np.sort(rng.choice([0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 1.0, 2.5], size=np_))
        if rng.rand() < 0.2:
            xp = rng.permutation(xp)  # unsorted: JAX's answer is unspecified but deterministic
        qpool = _XQ + ([np.nan, np.inf, -np.inf] if rng.rand() < 0.3 else [])
        xs = _float_text(rng, str(rng.choice([fdt, fdt, "int32"])), (nq,), qpool)
        kd = str(rng.choice([fdt, fdt, "complex64", "int32"]))
        ks = _array_text(rng, kd, (np_,), None if rng.rand() < 0.8 else [1.0, np.nan, -2.0, 3.0])
        lr = ""
        if rng.rand() < 0.4:
            lr += f", left={rng.choice(['0.0', '-1', 'jnp.nan', '2.5', 'jnp.float32(7)'])}"
        if rng.rand() < 0.4:
            lr += f", right={rng.choice(['0.0', '-1', 'jnp.nan', '3.5'])}"
        if rng.rand() < 0.25:
            lr = f", period={rng.choice(['3.0', '2', '-3.0', '1.5', '0'])}"
        xps = f"jnp.asarray({_lit(xp)}, dtype={fdt!r})"
        body = f"jnp.interp(x, {xps}, k{lr})"
        diff = kd != "int32"
        cplx = kd == "complex64"
    elif c < 0.65:
        nd = int(rng.choice([1, 2, 2, 3]))
        sizes = [int(rng.randint(2, 5)) for _ in range(nd)]
        grids = []
        for s in sizes:
            g = np.cumsum(rng.choice([0.5, 1.0, 1.5], size=s)) - 1.0
            if rng.rand() < 0.2:
                g = g[::-1]
            grids.append(f"jnp.asarray({_lit(g)}, dtype={fdt!r})")
        method = rng.choice(["'linear'", "'linear'", "'nearest'", ""])
        fill = rng.choice(
            ["", "fill_value=None", "fill_value=jnp.nan", "fill_value=-1.0", "fill_value=0"]
        )
        kw = ", ".join(
            s for s in (f"method={method}" if method else "", "bounds_error=False", fill) if s
        )
        if rng.rand() < 0.05:
            kw = "bounds_error=True"
        npts = int(rng.randint(1, 6))
        pts = rng.choice(
            [-1.5, -1.0, 0.0, 0.25, 0.5, 1.0, 1.75, 2.0, 3.0, 4.5, 7.0], size=(npts, nd)
        )
        xs = f"jnp.asarray({_lit(pts)}, dtype={fdt!r})"
        kd = str(rng.choice([fdt, fdt, "int32", "complex64"]))
        ks = _array_text(rng, kd, tuple(sizes), None)
        gt = "(" + ", ".join(grids) + ",)"
        body = f"jx.scipy.interpolate.RegularGridInterpolator({gt}, k, {kw})(x)"
        if rng.rand() < 0.2:
            body = f"jx.scipy.interpolate.RegularGridInterpolator({gt}, k, {kw})(x[0])"
        if rng.rand() < 0.2 and nd == 1:
            body = f"jx.scipy.interpolate.RegularGridInterpolator({gt}, k, {kw})(x[:, 0])"
        diff = kd != "int32"
        cplx = kd == "complex64"
    else:
        kind = rng.choice(["polyval", "polyval", "polyfit", "polyder", "polyint"])
        n = int(rng.randint(1, 6))
        kd = str(rng.choice([fdt, fdt, "int32", "complex64"]))
        ks = _array_text(rng, kd, (n,), None)
        if kind == "polyval":
            xs = _array_text(rng, str(rng.choice([fdt, "int32"])), (int(rng.randint(1, 5)),), _XQ)
            unroll = rng.choice(["", ", unroll=2"])
            body = f"jnp.polyval(k, x{unroll})"
        elif kind == "polyfit":
            m = n + int(rng.randint(0, 3))
            xs = f"jnp.asarray({_lit(np.arange(m) * 0.5 - 1)}, dtype={fdt!r})"
            if rng.rand() < 0.1:  # integer points: JAX needs an rcond (finfo of x's dtype)
                xs = f"jnp.arange({m}) - 1"
            ks = _array_text(rng, "float32" if kd == "int32" else kd, (m,), None)
            deg = int(rng.randint(0, min(m, 4)))
            opt = rng.choice(["", ", full=True", ", w=jnp.ones_like(x) * 2", ", cov=True"])
            if "cov" in opt and m - deg - 1 <= 0:
                opt = ""  # JAX divides by zero there (the unscaled path is not compared)
            body = f"jnp.polyfit(x, k, {deg}{opt})"
            kd = "float32" if kd == "int32" else kd
        elif kind == "polyder":
            xs = "jnp.float32(0)"
            body = f"jnp.polyder(k, m={int(rng.randint(0, 7))}) + x"
        else:
            xs = "jnp.float32(0)"
            kk = rng.choice(["", ", k=2.0", ", k=[1.0, -1.0]"])
            m = int(rng.randint(0, 3)) if kk != ", k=[1.0, -1.0]" else 2
            body = f"jnp.polyint(k, m={m}{kk}) + x"
        diff = kd != "int32"
        cplx = kd == "complex64"
        if "full=True" in body or "cov=True" in body:
            diff = False
    stack = _stack(rng, diff, True, vmaps=("vmap0", "vmap1", "vmap01"))
    if cplx and stack in ("jacrev", "hessian", "grad", "jit_grad"):
        stack = "jvp"
    call = _call(stack)
    if stack in _DERIV:
        call = call.replace("argnums=(0, 1)", "argnums=1").replace(
            "cos_like(x0), ", "jnp.zeros_like(x0), "
        )
        if "int32" in xs and stack == "jvp":
            call = call.replace("jnp.zeros_like(x0), ", "np.zeros(x0.shape, jx.dtypes.float0), ")
    if "polyfit" in body and stack in ("vmap0", "vmap01"):
        call = _call("vmap1")
    return _program(body, xs, ks, call, x64, extra)


# ------------------------------------------------------------------------------ stats
# (name, function, parameter names after the point, point kind: c continuous, k discrete,
# q probability)
_DISTS = {
    "bernoulli": {"cdf": "k p", "logpmf": "k p loc", "pmf": "k p loc", "ppf": "q p"},
    "beta": {f: "x a b loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
    "betabinom": {"logpmf": "k n a b loc", "pmf": "k n a b loc"},
    "binom": {"logpmf": "k n p loc", "pmf": "k n p loc"},
    "cauchy": {**{f: "x loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
               "isf": "q loc scale", "ppf": "q loc scale"},
    "chi2": {f: "x df loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
    "expon": {**{f: "x loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
              "ppf": "q loc scale"},
    "gamma": {f: "x a loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
    "gennorm": {f: "x beta" for f in ("cdf", "logpdf", "pdf")},
    "geom": {"logpmf": "k p loc", "pmf": "k p loc"},
    "gumbel_l": {**{f: "x loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
                 "ppf": "q loc scale"},
    "gumbel_r": {**{f: "x loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
                 "ppf": "q loc scale"},
    "laplace": {f: "x loc scale" for f in ("cdf", "logpdf", "pdf")},
    "logistic": {**{f: "x loc scale" for f in ("cdf", "logpdf", "pdf", "sf")},
                 "isf": "q loc scale", "ppf": "q loc scale"},
    "nbinom": {"logpmf": "k n p loc", "pmf": "k n p loc"},
    "norm": {**{f: "x loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
             "isf": "q loc scale", "ppf": "q loc scale"},
    "pareto": {**{f: "x b loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
               "ppf": "q b loc scale"},
    "poisson": {"cdf": "k mu loc", "logpmf": "k mu loc", "pmf": "k mu loc", "entropy": "mu loc"},
    "t": {f: "x df loc scale" for f in ("logpdf", "pdf")},
    "truncnorm": {f: "x a b loc scale" for f in ("cdf", "logcdf", "logpdf", "logsf", "pdf", "sf")},
    "uniform": {**{f: "x loc scale" for f in ("cdf", "logpdf", "pdf")}, "ppf": "q loc scale"},
    "vonmises": {f: "x kappa" for f in ("logpdf", "pdf")},
    "wrapcauchy": {f: "x c" for f in ("logpdf", "pdf")},
}  # fmt: skip
_PT = {
    "x": [0.0, 1.0, -1.0, 0.5, 2.0, 3.5, -2.5, 0.25, 1e-3, 10.0],
    "k": [0.0, 1.0, 2.0, 3.0, 5.0, -1.0, 1.0, 4.0],
    "q": [0.0, 1.0, 0.5, 0.25, 0.9, 0.01, 0.75, -0.5, 1.5],
}
_EDGE = [np.inf, -np.inf, np.nan]
_PAR = {
    "loc": [0.0, 0.0, 1.0, -1.0, 0.5, 2.0],
    "scale": [1.0, 1.0, 2.0, 0.5, 0.0, -1.0, 3.0],
    "p": [0.5, 0.3, 0.0, 1.0, 0.9, -0.1, 1.2, 0.7],
    "n": [1.0, 2.0, 3.0, 5.0, 0.0, 4.0, 2.5],
    "mu": [1.0, 2.5, 0.0, 0.5, 4.0, -1.0],
    "a": [0.5, 1.0, 2.0, 3.0, 0.0, -1.0, 1.5, -2.0],
    "b": [0.5, 1.0, 2.0, 3.0, 0.0, 1.5, 2.5],
    "df": [1.0, 2.0, 3.0, 0.5, 5.0, 0.0, -1.0],
    "beta": [1.0, 2.0, 0.5, 3.0, 0.0, 8.0],
    "kappa": [0.0, 1.0, 2.0, 0.5, 5.0, 20.0, -1.0],
    "c": [0.0, 0.5, 0.3, 0.9, 1.0, -0.1],
}


def gen_stats(rng):
    x64 = rng.rand() < 0.2
    fdt = (
        "float64"
        if x64 and rng.rand() < 0.6
        else str(rng.choice(["float32"] * 6 + ["float16", "bfloat16"]))
    )
    c = rng.rand()
    extra = ""
    vmaps = ("vmap0", "vmap1", "vmap01")
    if c < 0.78:
        name = str(rng.choice(sorted(_DISTS)))
        fn = str(rng.choice(sorted(_DISTS[name])))
        params = _DISTS[name][fn].split()
        point = params[0] if params[0] in ("x", "k", "q") else None
        if point is None:
            params = ["x_unused"] + params
        n = int(rng.randint(1, 6))
        edge = rng.rand() < 0.3
        ppool = _PT[point] + (_EDGE if edge else []) if point else [0.0]
        kd = fdt
        if point == "k" and rng.rand() < 0.3:
            kd = "int32"
        xs = _array_text(rng, kd, (n,), ppool)
        # the differentiated parameter is k (the first parameter), the others literals
        # (scalars, or arrays broadcast against the points)
        rest = params[1:]
        if not rest:
            ks = "jnp.float32(0)"
            args = []
        else:
            first = rest[0]
            bshape = () if rng.rand() < 0.5 else (n,)
            ks = _array_text(
                rng, fdt, bshape or (1,), _PAR[first] + (_EDGE if rng.rand() < 0.15 else [])
            )
            if not bshape:
                ks = f"{ks}[0]"
            args = ["k"]
            for p in rest[1:]:
                if rng.rand() < 0.25 and p in ("loc", "scale"):
                    break  # defaulted
                v = float(rng.choice(_PAR[p]))
                args.append(
                    rng.choice([repr(v), f"jnp.asarray({v!r}, {fdt!r})"])
                    .replace("inf", "jnp.inf")
                    .replace("nan", "jnp.nan")
                )
        point_arg = ["x"] if point else []
        body = f"jx.scipy.stats.{name}.{fn}({', '.join(point_arg + args)})"
        diff = kd != "int32" or bool(rest)
        small = True
        if rng.rand() < 0.08:
            body = f"jx.scipy.stats.{name}.{fn}({', '.join(point_arg + args)}, 0.5, 0.5, 0.5, 0.5)"
    elif c < 0.86:
        d = int(rng.randint(1, 4))
        n = int(rng.randint(1, 4))
        kind = rng.choice(["mvn", "mvn", "dirichlet", "multinomial"])
        if kind == "mvn":
            a = np.round(rng.uniform(-1, 1, (d, d)), 2)
            cov = a @ a.T + np.eye(d) * float(rng.choice([0.5, 1.0, 2.0]))
            xs = _array_text(rng, fdt, (n, d) if rng.rand() < 0.7 else (d,), None)
            ks = f"jnp.asarray({_lit(np.round(cov, 3))}, dtype={fdt!r})"
            mean = rng.choice(["jnp.zeros(x.shape[-1])", "jnp.arange(x.shape[-1]) * 0.5", "0.5"])
            fn = rng.choice(["logpdf", "pdf"])
            body = f"jx.scipy.stats.multivariate_normal.{fn}(x, {mean}, k)"
            if rng.rand() < 0.15:
                body = f"jx.scipy.stats.multivariate_normal.{fn}(x, {mean}, jnp.diag(k))"
            if rng.rand() < 0.1:
                body = f"jx.scipy.stats.multivariate_normal.{fn}(x, {mean}, jnp.diag(k)[0])"
            vmaps = ("vmap0",)
        elif kind == "dirichlet":
            d = max(d, 2)
            pts = rng.dirichlet(np.ones(d), size=n)
            pts = np.round(pts, 3)
            pts[:, -1] = 1 - pts[:, :-1].sum(-1)
            if rng.rand() < 0.2:
                pts[0] = 0.0
                pts[0, 0] = 1.0
            xs = f"jnp.asarray({_lit(pts.T if rng.rand() < 0.5 else pts[0])}, dtype={fdt!r})"
            ks = _array_text(
                rng,
                fdt,
                (d,),
                [0.5, 1.0, 2.0, 3.0, 1.5] + ([0.0, -1.0] if rng.rand() < 0.2 else []),
            )
            fn = rng.choice(["logpdf", "pdf"])
            body = f"jx.scipy.stats.dirichlet.{fn}(x, k)"
            vmaps = ("vmap1",)
        else:
            tot = int(rng.randint(0, 5))
            cnt = rng.multinomial(tot, np.ones(d + 1) / (d + 1))
            xs = f"jnp.asarray({_lit(cnt.astype(float))}, dtype={fdt!r})"
            pr = rng.dirichlet(np.ones(d + 1))
            ks = f"jnp.asarray({_lit(np.round(pr, 3))}, dtype={fdt!r})"
            fn = rng.choice(["logpmf", "pmf"])
            body = f"jx.scipy.stats.multinomial.{fn}(x, {tot if rng.rand() < 0.8 else tot + 1}, k)"
            vmaps = ("vmap1",)
        diff = True
        small = True
    else:
        kind = rng.choice(["mode", "rankdata", "rankdata", "sem"])
        nd = int(rng.randint(1, 3))
        shape = tuple(int(s) for s in rng.randint(1, 5, size=nd))
        dt = str(rng.choice([fdt, "int32", fdt]))
        pool = [0.0, 1.0, 1.0, 2.0, -1.0, 2.0] + (
            [np.nan] if rng.rand() < 0.3 and dt != "int32" else []
        )
        xs = _array_text(rng, dt, shape, pool)
        ks = "jnp.float32(1)"
        axis = rng.choice(["None", "0", "-1", "1" if nd == 2 else "0"])
        if kind == "mode":
            kd = rng.choice(["", ", keepdims=True"])
            body = f"tuple(jx.scipy.stats.mode(x, axis={axis}{kd}))"
            diff = False
        elif kind == "rankdata":
            m = str(rng.choice(["average", "min", "max", "dense", "ordinal"]))
            body = f"jx.scipy.stats.rankdata(x, {m!r}, axis={axis})"
            diff = False
        else:
            ddof = rng.choice(["", ", ddof=0", ", ddof=2"])
            kd = rng.choice(["", ", keepdims=True"])
            body = f"jx.scipy.stats.sem(x, axis={axis}{ddof}{kd}) * k"
            diff = dt != "int32"
        small = int(np.prod(shape)) <= 6
        vmaps = ("vmap0",)
    if x64 and fdt != "float64" and ("norm.ppf" in body or "norm.isf" in body):
        # JAX computes ndtri in float32 and then casts to the default float64, so its last
        # float64 digits are float32 rounding: compare the values in the operands' dtype
        # (and the result's dtype through a zero of it)
        body = f"(lambda r: (r.astype({fdt!r}), jnp.zeros((), r.dtype)))({body})"
    if "stats.gumbel_" in body:
        # JAX's gumbel functions cannot be differentiated (its xlogy(-1, scale) meets a
        # float0 tangent, docs/compat.md): jaxlite's can
        diff = False
    stack = _stack(rng, diff, small, vmaps=vmaps)
    call = _call(stack)
    if stack in _DERIV and ("int32" in xs or "jnp.float32(0)" == ks):
        argn = "argnums=1" if "int32" in xs else "argnums=0"
        call = call.replace("argnums=(0, 1)", argn)
        if stack == "jvp":
            if "int32" in xs:
                call = call.replace("cos_like(x0)", "np.zeros(x0.shape, jx.dtypes.float0)")
            else:
                call = call.replace("cos_like(k0) * 0.5", "jnp.zeros_like(k0)")
    if stack in ("vmap1", "vmap01") and "jnp.float32(1)" == ks:
        call = _call("vmap0")
    if stack in ("vmap1", "vmap01") and (ks.endswith("[0]") or "jnp.float32(0)" == ks):
        call = call.replace("k0[::-1]", "k0")
    return _program(body, xs, ks, call, x64, extra)


GENERATORS = {"image": gen_image, "ndimage": gen_ndimage, "interp": gen_interp, "stats": gen_stats}


def check(name, seed, messages=False):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    deriv = any(k in src for k in ("jx.grad", "jx.jvp", "jx.vjp", "jx.hessian", "jx.jac"))
    # (image: the signs of zero sums of a contraction follow XLA's accumulation order)
    signs = not deriv and name != "image"
    d = fuzz_s22.difference(src, fuzz_s22._TOLS["close"], signs=signs)
    if d is None and messages:
        d = fuzz_s23.message_difference(src)
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
            print(f"--- {name} seed {seed}: {d}\n{src[src.index('def f(') :]}", flush=True)
    print(f"=== {name} {first}..{first + count - 1} done", flush=True)
