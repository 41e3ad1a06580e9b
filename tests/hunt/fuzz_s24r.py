"""Session 24 differential hunt of ``jax.random`` (test code, not a test module): seeded
random programs run under JAX and jaxlite in one process, compared leaf by leaf (exception
class, structure, shapes, dtypes, weak types; integers, bits and keys exactly; floats bit
for bit where spec/random.md promises it (classes E0/E1, the samplers of docs/compat.md's
first jax.random row), else within fuzz_s22's tolerances; NaN and infinity positions).
Typed keys are compared as ``(dtype name, key_data)``.

Angles (``GENERATORS``):

* ``samplers``: every public sampler with ``shape`` None / () / tuples (zeros included),
  float16 / bfloat16 / float32 / float64 (x64) dtypes, broadcast parameters, edge
  parameters (0, inf, NaN, tiny, negative), under eval / jit / vmap over keys / vmap over
  parameters / jit of vmap.
* ``keys``: ``key`` / ``PRNGKey`` seeds (negative, wide, traced), ``key_data`` /
  ``wrap_key_data``, ``split`` (int and tuple ``num``), ``fold_in`` (negative, large,
  uint32 / int64 data), ``clone``, key arrays of several shapes, indexing and structural
  operations, ``jax_threefry_partitionable`` off and on, keys through jit / vmap / scan /
  cond / while_loop, and bad keys (the first lines of both libraries' messages compared).
* ``grads``: derivatives of reparameterised samplers in their parameters (gamma / beta /
  dirichlet / loggamma's implicit gradients, normal / truncated_normal / uniform bounds /
  exponential / ... as location-scale transforms) by grad / jvp / jacrev / jacfwd, under
  vmap and jit.

``python -m tests.hunt.fuzz_s24r ANGLE FIRST COUNT [messages]`` prints each disagreement
with its program. A generated program is source text that the harness executes (``jx``,
``jnp``, ``lax``, ``np`` bound to one library); jaxlite never executes generated text.
"""

# ruff: noqa: E501 (the program tables keep one expression a line)
from __future__ import annotations

import re
import sys
import warnings

import numpy as np

from tests.hunt import fuzz_s22
from tests.hunt.oracle import JAX, LITE, builtin_base, run

_HELPERS = '''
def canon(tree):
    """Typed keys as (dtype name, key data); everything else as it is."""
    def leaf(x):
        if hasattr(x, "dtype") and jnp.issubdtype(x.dtype, jx.dtypes.prng_key):
            return (str(x.dtype), jx.random.key_data(x))
        return x
    return jx.tree_util.tree_map(leaf, tree)
def loss(out):
    tot = 0.0
    for i, l in enumerate(jx.tree_util.tree_leaves(out)):
        l = jnp.asarray(l)
        if jnp.issubdtype(l.dtype, jnp.inexact):
            tot = tot + jnp.sum(jnp.real(l) * jnp.cos(jnp.arange(l.size).reshape(l.shape) * 0.7 + i))
    return tot
'''

# samplers whose floats are bit-exact (spec R6-R8, docs/compat.md's first jax.random row)
_EXACT = (
    "uniform", "normal", "bernoulli", "randint", "bits", "permutation", "choice",
    "gumbel", "exponential", "categorical", "laplace", "logistic", "rademacher",
    "geometric", "rayleigh", "triangular", "wald", "split", "fold_in", "key",
)  # fmt: skip


def _lit(v):
    return fuzz_s22._lit(np.asarray(v))


def _farr(vals, dt):
    """Source text of a float array of ``dt`` holding ``vals``."""
    v = np.asarray(vals, dtype=np.float64)
    if dt == "bfloat16":
        return f"jnp.asarray(np.array({_lit(v)}, dtype='float32')).astype(jnp.bfloat16)"
    return f"jnp.asarray(np.array({_lit(v)}), dtype={dt!r})"


_POS = [0.5, 1.0, 2.0, 3.5, 0.25, 7.0, 1.5, 12.0]
_EDGE = [0.0, np.inf, np.nan, 1e-30, -1.0, 1e-3, 50.0, 1e4]
_PROB = [0.1, 0.3, 0.5, 0.9, 0.75, 0.05]
_PEDGE = [0.0, 1.0, np.nan, -0.5, 1.5, 1e-7]


def _pvals(rng, shape, pool, edge, p_edge):
    v = rng.choice(pool, size=shape)
    if rng.rand() < p_edge:
        e = rng.choice(edge, size=shape)
        m = rng.rand(*shape) < 0.5 if shape else rng.rand() < 0.7
        v = np.where(m, e, v)
    return v


def _key_text(rng):
    seed = int(rng.choice([0, 1, 42, 123, 7, 2**31 - 1, 99991]))
    return str(rng.choice([f"jx.random.key({seed})", f"jx.random.PRNGKey({seed})"]))


def _shape_arg(rng, pshape, allow_none=True):
    """(text of a ``shape`` argument compatible with a parameter of shape ``pshape``, the
    sample's shape)."""
    c = rng.rand()
    if c > 0.93 and not pshape:  # many 8-bit bfloat16 / 16-bit draws: every edge value
        return "(1536,)", (1536,)
    if allow_none and c < 0.25:
        return "None", pshape
    if c < 0.45:
        return repr(tuple(pshape)), pshape
    if c < 0.55:
        s = (0,) + tuple(pshape)
        return repr(s), s
    lead = tuple(int(v) for v in rng.randint(1, 4, size=rng.randint(1, 3)))
    s = lead + tuple(pshape)
    return repr(s), s


def _fdt(rng, x64, low=True):
    opts = ["None", "None", "'float32'", "jnp.float32"]
    if low:
        opts += ["'float16'", "'bfloat16'"]
    if x64:
        opts += ["'float64'", "'float64'"]
    elif rng.rand() < 0.1:
        opts += ["'float64'"]
    return str(rng.choice(opts))


def _ptype(dt):
    """The parameter array's dtype for a sampler dtype argument's text."""
    if "float64" in dt:
        return "float64"
    if "float16" in dt and "b" not in dt:
        return "float16"
    if "bfloat16" in dt:
        return "bfloat16"
    return "float32"


# each sampler: (name, kind) where kind tells how its call is built
_NOPARAM = ["uniform", "normal", "exponential", "gumbel", "laplace", "logistic", "cauchy",
            "maxwell"]  # fmt: skip
_ONEPARAM = {  # name: (pool, edge pool, param name)
    "gamma": (_POS, _EDGE, "a"),
    "loggamma": (_POS, _EDGE, "a"),
    "chisquare": (_POS, _EDGE, "df"),
    "t": (_POS, _EDGE, "df"),
    "pareto": (_POS, _EDGE, "b"),
    "rayleigh": (_POS, _EDGE, "scale"),
    "wald": (_POS, _EDGE, "mean"),
    "lognormal": (_POS, _EDGE, "sigma"),
    "poisson": (
        [0.0, 0.5, 3.0, 9.5, 10.0, 25.0, 150.0, 1e3],
        [np.nan, np.inf, -1.0, 1e-30, 1e6],
        "lam",
    ),
    "geometric": (_PROB, _PEDGE, "p"),
    "bernoulli": (_PROB, _PEDGE, "p"),
}


def gen_samplers(rng):
    x64 = rng.rand() < 0.25
    k = _key_text(rng)
    name = str(
        rng.choice(
            _NOPARAM + list(_ONEPARAM) * 1
            + ["uniform_b", "truncated_normal", "randint", "randint", "bits", "categorical",
               "categorical", "choice", "choice", "permutation", "permutation", "beta",
               "dirichlet", "binomial", "multinomial", "multivariate_normal", "f",
               "weibull_min", "double_sided_maxwell", "orthogonal", "rademacher", "ball",
               "generalized_normal", "triangular", "bernoulli_high", "gumbel_high"]
        )
    )  # fmt: skip
    exact = name.split("_")[0] in _EXACT or name in _EXACT
    pshape = ((), (), (3,), (2,), (2, 3))[rng.randint(5)]
    xs = "jnp.float32(0)"
    pvmap = False  # the body reads x (vmap over parameters possible)
    dt = _fdt(rng, x64)
    if name in _NOPARAM:
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        if rng.rand() < 0.2:
            shp = str(rng.choice(["()", "3", "(1,)", "(0,)", "(4, 0)"]))
        extra = ""
        if name == "gumbel" and rng.rand() < 0.2:
            extra = ", mode='low'"
        if name == "gumbel" and "float16" in dt:
            exact = False  # XLA fuses the logs (docs/compat.md)
        body = f"jx.random.{name}(k, {shp}, {dt}{extra})"
        if name == "normal" and rng.rand() < 0.15:
            body = f"jx.random.normal(k, {shp}, {rng.choice(['jnp.complex64', 'jnp.complex128'] if x64 else ['jnp.complex64'])})"
    elif name == "gumbel_high":
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        body = f"jx.random.gumbel(k, {shp}, {dt}, mode='high')"
        exact = "float16" not in dt
    elif name == "uniform_b":
        pdt = _ptype(dt)
        lo = _pvals(
            rng, pshape, [-1.0, 0.1, 2.0, -0.6826895, 0.0], [np.inf, -np.inf, np.nan, 5.0], 0.15
        )
        hi = _pvals(rng, (), [1.0, 0.7, 5.0, 0.6826895, 3.0], [np.inf, np.nan, -2.0], 0.15)
        xs = _farr(lo, pdt)
        pvmap = True
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        body = f"jx.random.uniform(k, {shp}, {dt}, minval=x, maxval={float(hi)!r})".replace(
            "nan", "np.nan"
        ).replace("inf", "np.inf")
    elif name in _ONEPARAM:
        pool, edge, _p = _ONEPARAM[name]
        vals = _pvals(rng, pshape, pool, edge, 0.25)
        if name == "poisson":
            pdt = "float32" if not x64 else str(rng.choice(["float32", "float64"]))
            xs = _farr(vals, pdt)
            shp, _ = _shape_arg(rng, pshape)
            idt = str(
                rng.choice(["None", "None", "'int32'"] + (["'int64'"] if x64 else ["'int16'"]))
            )
            body = f"jx.random.poisson(k, x, {shp}, {idt})"
            exact = False
        elif name == "geometric":
            xs = _farr(vals, _ptype(dt))
            shp, _ = _shape_arg(rng, pshape)
            idt = str(rng.choice(["None", "'int32'", "'int8'"] + (["'int64'"] if x64 else [])))
            body = f"jx.random.geometric(k, x, {shp}, {idt})"
        elif name == "bernoulli":
            xs = _farr(vals, _ptype(dt))
            shp, _ = _shape_arg(rng, pshape)
            if rng.rand() < 0.2:
                xs = str(rng.choice(["0.3", "0.5", "jnp.float32(0.7)"]))
                shp = str(rng.choice(["None", "(4,)", "()", "(2, 0)"]))
            body = f"jx.random.bernoulli(k, x, {shp})"
        else:
            xs = _farr(vals, _ptype(dt))
            shp, _ = _shape_arg(rng, pshape)
            if name in ("rayleigh",) and shp == "None":
                shp = repr(tuple(pshape))  # rayleigh's shape default
            body = f"jx.random.{name}(k, x, {shp}, {dt})"
            if name in ("rayleigh",):
                exact = True
        pvmap = True
    elif name == "bernoulli_high":
        xs = _farr(_pvals(rng, pshape, _PROB, _PEDGE, 0.2), "float32")
        shp, _ = _shape_arg(rng, pshape)
        body = f"jx.random.bernoulli(k, x, {shp}, mode='high')"
        pvmap = True
        exact = True
    elif name == "truncated_normal":
        pdt = _ptype(dt)
        lo = _pvals(rng, pshape, [-1.0, -2.0, 0.0, -0.5, -3.0], [-np.inf, np.nan, 1.0, 0.25], 0.2)
        up = float(rng.choice([1.0, 2.0, 0.5, 3.0, np.inf, 0.0]))
        xs = _farr(lo, pdt)
        shp, _ = _shape_arg(rng, pshape)
        body = f"jx.random.truncated_normal(k, x, {up!r}, {shp}, {dt})".replace("inf", "np.inf")
        pvmap = True
        exact = False
    elif name == "randint":
        idt = str(rng.choice(["None", "'int32'", "'int8'", "'uint8'", "'int16'", "'uint16'", "'uint32'"]
                             + (["'int64'", "'uint64'"] if x64 else [])))  # fmt: skip
        lo = int(rng.choice([0, -3, 5, -128, 100, -(2**31), 2**16, -1]))
        hi = int(rng.choice([10, 3, 2, 256, 300, 2**31 - 1, 2**17 + 3, 1, 70000, -5]))
        if x64 and rng.rand() < 0.3:
            lo, hi = (
                int(rng.choice([-(2**40), 0, 2**33])),
                int(rng.choice([2**40, 2**33 + 5, 2**62])),
            )
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        if rng.rand() < 0.3:  # array bounds
            los = _lit(np.asarray(rng.choice([0, -2, 7, 1], size=pshape)))
            xs = f"jnp.asarray(np.array({los}), dtype='int32')"
            pvmap = True
            body = f"jx.random.randint(k, {shp}, x, {hi}, {idt})"
        else:
            body = f"jx.random.randint(k, {shp}, {lo}, {hi}, {idt})"
        if rng.rand() < 0.1:
            body = f"jx.random.randint(k, {shp}, {float(rng.choice([-2.7, 0.5]))}, {float(rng.choice([3.9, 10.5]))}, {idt})"
    elif name == "bits":
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        bdt = str(
            rng.choice(["None", "'uint32'", "'uint8'", "'uint16'"] + (["'uint64'"] if x64 else []))
        )
        body = f"jx.random.bits(k, {shp}, {bdt})"
    elif name == "categorical":
        nc = int(rng.randint(1, 5))
        lshape = tuple(int(v) for v in rng.randint(1, 4, size=rng.randint(0, 2))) + (nc,)
        axis = int(rng.choice([-1, -1, 0])) if len(lshape) > 1 else -1
        lv = rng.choice([0.0, -1.0, 1.0, -np.inf, 0.5, 2.0, -0.25], size=lshape)
        if rng.rand() < 0.1:
            lv.flat[0] = np.nan
        pdt = str(rng.choice(["float32", "float32", "bfloat16"] + (["float64"] if x64 else [])))
        xs = _farr(lv, pdt)
        batch = tuple(s for i, s in enumerate(lshape) if i != axis % len(lshape))
        replace = rng.rand() < 0.75
        shp = "None"
        if rng.rand() < 0.5:
            shp = repr(tuple(int(v) for v in rng.randint(1, 4, size=rng.randint(0, 2))) + batch)
        rep = "" if replace else ", replace=False"
        if not replace and rng.rand() < 0.7:
            shp = repr((min(nc, int(rng.randint(1, 3))),) + batch)
        body = f"jx.random.categorical(k, x, axis={axis}, shape={shp}{rep})"
        pvmap = True
    elif name == "choice":
        n = int(rng.randint(1, 6))
        a = str(rng.choice([str(n), f"jnp.arange({n}) * 3", f"jnp.arange({2 * n}).reshape({n}, 2)",
                            f"jnp.arange({2 * n}).reshape(2, {n})"]))  # fmt: skip
        axis = 1 if "reshape(2," in a else 0
        replace = rng.rand() < 0.5
        shp = repr(
            tuple(
                int(v) for v in rng.randint(0 if rng.rand() < 0.1 else 1, 4, size=rng.randint(0, 3))
            )
        )
        if not replace:
            shp = repr((int(rng.randint(0, n + 1)),))
        p = ""
        if rng.rand() < 0.5:
            pv = rng.choice([0.1, 0.2, 0.3, 0.4, 0.0, 1.0], size=n)
            if pv.sum() == 0:
                pv[0] = 1.0
            pv = pv / pv.sum()
            xs = _farr(pv, "float32" if not x64 else str(rng.choice(["float32", "float64"])))
            p = ", p=x"
            pvmap = True
        body = f"jx.random.choice(k, {a}, {shp}, replace={replace}{p}, axis={axis})"
    elif name == "permutation":
        c = rng.rand()
        if c < 0.4:
            body = f"jx.random.permutation(k, {int(rng.choice([0, 1, 2, 5, 10, 17]))})"
        else:
            s = tuple(int(v) for v in rng.randint(1, 5, size=rng.randint(1, 3)))
            axis = int(rng.randint(-len(s), len(s)))
            ind = bool(rng.rand() < 0.4)
            xs = f"jnp.arange({int(np.prod(s))}, dtype=jnp.float32).reshape({s!r})"
            body = f"jx.random.permutation(k, x, axis={axis}, independent={ind})"
            pvmap = True
    elif name == "beta":
        a = _pvals(rng, pshape, _POS, _EDGE, 0.2)
        b = float(rng.choice(_POS))
        xs = _farr(a, _ptype(dt))
        shp, _ = _shape_arg(rng, pshape)
        body = f"jx.random.beta(k, x, {b!r}, {shp}, {dt})"
        pvmap = True
    elif name == "dirichlet":
        n = int(rng.randint(1, 4))
        a = _pvals(rng, (n,), _POS, [0.0, 1e-3, 1e-30, np.inf], 0.15)
        xs = _farr(a, _ptype(dt))
        shp = str(rng.choice(["None", "()", "(2,)", "(0,)", "(2, 2)"]))
        body = f"jx.random.dirichlet(k, x, {shp}, {dt})"
        pvmap = True
    elif name == "binomial":
        nn = float(rng.choice([0.0, 1.0, 5.0, 10.0, 30.0, 100.0, 1e3]))
        p = _pvals(rng, pshape, _PROB, [0.0, 1.0, np.nan], 0.2)
        xs = _farr(p, "float32" if not x64 else str(rng.choice(["float32", "float64"])))
        shp, _ = _shape_arg(rng, pshape)
        body = f"jx.random.binomial(k, {nn!r}, x, {shp})"
        pvmap = True
    elif name == "multinomial":
        n = int(rng.randint(1, 5))
        pv = rng.choice([0.1, 0.2, 0.3, 0.4, 0.0], size=n) + 1e-3
        pv = pv / pv.sum()
        xs = _farr(pv, "float32")
        nn = float(rng.choice([0.0, 1.0, 5.0, 20.0]))
        shp = str(rng.choice(["None", f"({n},)", f"(2, {n})"]))
        body = f"jx.random.multinomial(k, {nn!r}, x, shape={shp})"
        pvmap = True
    elif name == "multivariate_normal":
        n = int(rng.randint(1, 4))
        method = str(rng.choice(["cholesky", "eigh", "svd"]))
        m = rng.randint(-4, 5, size=n) / 4.0
        xs = _farr(m, "float32" if not x64 else "float64")
        a = rng.randint(-2, 3, size=(n, n)) / 2.0
        cov = a @ a.T + np.eye(n)
        shp = str(rng.choice(["None", "()", "(2,)", "(3, 1)"]))
        body = f"jx.random.multivariate_normal(k, x, jnp.asarray(np.array({_lit(cov)}), x.dtype), {shp}, method={method!r})"
        pvmap = True
    elif name == "f":
        a = _pvals(rng, pshape, _POS, _EDGE, 0.15)
        xs = _farr(a, _ptype(dt))
        shp, _ = _shape_arg(rng, pshape)
        if pshape and shp not in ("None", repr(tuple(pshape))):
            # (JAX's f fails on an array dfnum with a shape of higher rank: div of arrays
            # of different ranks, docs/compat.md)
            shp = "None"
        body = f"jx.random.f(k, x, {float(rng.choice(_POS))!r}, {shp}, {dt})"
        pvmap = True
    elif name == "weibull_min":
        a = _pvals(rng, pshape, _POS, _EDGE, 0.15)
        xs = _farr(a, _ptype(dt))
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        body = f"jx.random.weibull_min(k, x, {float(rng.choice(_POS))!r}, {shp}, {dt})"
        pvmap = True
    elif name == "double_sided_maxwell":
        a = _pvals(rng, pshape, [0.0, 1.0, -2.0], [np.nan, np.inf], 0.1)
        xs = _farr(a, _ptype(dt))
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        body = f"jx.random.double_sided_maxwell(k, x, {float(rng.choice(_POS))!r}, {shp}, {dt})"
        pvmap = True
    elif name == "triangular":
        a = _pvals(rng, pshape, [0.0, -1.0, 0.25], [np.nan, 2.0], 0.1)
        xs = _farr(a, _ptype(dt))
        shp, _ = _shape_arg(rng, pshape)
        body = f"jx.random.triangular(k, x, 0.5, 1.0, {shp}, {dt})"
        pvmap = True
    elif name == "orthogonal":
        n = int(rng.randint(1, 4))
        m = "" if rng.rand() < 0.6 else f", m={int(rng.randint(1, 4))}"
        shp = str(rng.choice(["()", "(2,)", "(0,)"]))
        body = f"jx.random.orthogonal(k, {n}, {shp}, {dt if 'float16' not in dt else 'None'}{m})"
    elif name == "rademacher":
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        idt = str(
            rng.choice(["None", "'int32'", "'int8'", "'float32'"] + (["'int64'"] if x64 else []))
        )
        body = f"jx.random.rademacher(k, {shp}, {idt})"
    elif name == "ball":
        d = int(rng.randint(1, 4))
        p = float(rng.choice([2.0, 1.0, 0.5, 3.0]))
        shp = str(rng.choice(["()", "(2,)", "(0,)"]))
        body = f"jx.random.ball(k, {d}, {p!r}, {shp}, {dt if 'float16' not in dt else 'None'})"
    elif name == "generalized_normal":
        p = float(rng.choice([0.5, 1.0, 2.0, 1.5, 4.0]))
        shp, _ = _shape_arg(rng, pshape, allow_none=False)
        body = f"jx.random.generalized_normal(k, {p!r}, {shp}, {dt})"
    else:
        raise AssertionError(name)
    body = body.replace("np.np.", "np.")
    c = rng.rand()
    stacks = ["eval", "jit", "vmapk", "jit_vmapk"] + (["vmapx", "vmapx"] if pvmap else [])
    stack = str(rng.choice(stacks))
    if stack == "vmapx" and ("jnp.float32(0)" == xs or name == "f"):
        # (JAX's f under vmap of dfnum with an explicit shape fails inside: div of ranks
        # that differ; jaxlite samples)
        stack = "jit"
    del c
    return _program(body, k, xs, _call(stack), x64, exact)


def _call(stack):
    return {
        "eval": "f(k0, x0)",
        "jit": "jx.jit(f)(k0, x0)",
        "vmapk": "jx.vmap(f, in_axes=(0, None))(jx.random.split(k0, 3), x0)",
        "jit_vmapk": "jx.jit(jx.vmap(f, in_axes=(0, None)))(jx.random.split(k0, 2), x0)",
        "vmapx": "jx.vmap(f, in_axes=(None, 0))(k0, jnp.stack([x0, x0[::-1] if x0.ndim else x0 * 0.5]))",
    }[stack]


def _program(body, ks, xs, call, x64, exact, extra=""):
    return (
        f"# {'exact' if exact else 'close'}\n"
        + _HELPERS
        + extra
        + f"def f(k, x):\n    return {body}\n"
        + f"def run():\n    with jx.enable_x64({x64}):\n        k0 = {ks}\n        x0 = {xs}\n        return canon({call})\n"
    )


# ------------------------------------------------------------------------------ keys
_KEYBODIES = [
    "jx.random.split(k)",
    "jx.random.split(k, {n})",
    "jx.random.split(k, ({n}, 2))",
    "jx.random.split(k, ())",
    "jx.random.split(k, 0)",
    "jx.random.fold_in(k, {d})",
    "jx.random.fold_in(k, jnp.uint32({du}))",
    "jx.random.fold_in(k, jnp.asarray({d}, dtype=jnp.int32))",
    "jx.random.fold_in(k, {dl})",
    "jx.random.fold_in(k, 1.5)",
    "jx.random.clone(k)",
    "jx.random.key_data(k)",
    "jx.random.wrap_key_data(jx.random.key_data(k))",
    "jx.random.key_data(jx.random.split(k, {n}))[..., ::-1]",
    "jx.random.split(jx.random.fold_in(k, {d}), {n})",
    "jx.random.bits(jx.random.split(k, {n})[{i}], (3,))",
    "jx.random.uniform(jx.random.fold_in(k, {d}), (2,))",
    "jx.vmap(lambda s: jx.random.fold_in(k, s))(jnp.arange({n}))",
    "jx.vmap(jx.random.split)(jx.random.split(k, {n}))",
    "jx.vmap(lambda kk: jx.random.split(kk, 3))(jx.random.split(k, {n}))",
    "jx.vmap(lambda kk, d: jx.random.fold_in(kk, d))(jx.random.split(k, {n}), jnp.arange({n}))",
    "jx.vmap(lambda kk: jx.random.normal(kk, (2,)))(jx.random.split(k, {n}).reshape(({n}, 1))[:, 0])",
    "jax_scan",
    "jax_while",
    "jax_cond",
    "jx.random.split(k, {n})[{i}] == jx.random.fold_in(k, {i})",
    "jnp.stack([k, jx.random.fold_in(k, 1)])",
    "jnp.concatenate([jx.random.split(k, 2), jx.random.split(k, {n})])",
    "jnp.where(jnp.array([True, False]), jx.random.split(k), jx.random.split(jx.random.fold_in(k, 3)))",
    "jx.random.split(k, {n}).reshape(({n}, 1)).T",
    "jx.random.split(k, 4)[1::2]",
    "jx.random.split(k, 4).at[1].set(k)",
    "jnp.zeros_like(jx.random.split(k, 2))",
    "jx.random.key_impl(k)",
    "str(jx.random.key_data(k).dtype)",
    "jx.random.split(k, 3) != jx.random.split(k, 3)[::-1]",
]
_BADKEY = [
    "k + 1",
    "jx.random.split(jx.random.split(k), 2)",
    "jx.random.uniform(jx.random.split(k))",
    "jx.random.fold_in(k, jnp.arange(2))",
    "jx.random.fold_in(k, -1)",
    "jx.random.fold_in(k, 2**32)",
    "jx.random.wrap_key_data(jnp.zeros(3, jnp.uint32))",
    "jx.random.wrap_key_data(jnp.zeros(2, jnp.int32))",
    "jx.random.wrap_key_data(jnp.zeros((), jnp.uint32))",
    "jx.random.key(1.5)",
    "jx.random.PRNGKey(jnp.arange(2))",
    "jx.random.key(jx.random.key(0))",
    "jx.random.uniform(0, (2,))",
    "jx.random.uniform([0, 1], (2,))",
    "jx.random.key(0, impl='nope')",
    "jx.random.key(0, impl='threefry2x32', dtype=jx.random.key_dtype())",
    "bool(jx.random.key(0))",
    "jx.random.key(0)[0]",
    "jx.random.key(0).astype(jnp.uint32)",
    "jx.random.bits(k, (2,), jnp.int32)",
    "jx.random.uniform(k, (2,), jnp.int32)",
    "jx.random.normal(k, (2,), jnp.int32)",
    "jx.random.randint(k, (2,), 0, 5, jnp.float32)",
    "jx.random.split(k, -1)",
    "jx.random.split(k, 2.0)",
    "jx.random.key(2**63)",
    "jx.random.permutation(k, 2.5)",
    "jx.random.choice(k, 3, (5,), replace=False)",
    "jx.random.choice(k, 0, (2,))",
    "jx.random.choice(k, 3, (2,), p=jnp.ones(4) / 4)",
    "jx.random.categorical(k, jnp.zeros(3), shape=(5,), replace=False)",
    "jx.random.bernoulli(k, 1, (2,))",
    "jx.random.bernoulli(k, 0.5, (2,), mode='x')",
    "jx.random.gumbel(k, (2,), mode='x')",
    "jx.random.dirichlet(k, 1.0)",
    "jx.random.multivariate_normal(k, jnp.zeros(3), jnp.eye(2))",
    "jx.random.multivariate_normal(k, jnp.zeros(2), jnp.eye(2), method='qr')",
    "jx.random.key_data(jnp.zeros(2, jnp.uint32))",
    "jx.random.wrap_key_data(jx.random.key(0))",
]


def gen_keys(rng):
    x64 = rng.rand() < 0.3
    seed = rng.choice([0, 1, 42, -1, -5, 2**31, 2**32 + 5, 2**40 + 3, 2**63 - 1, -(2**63), 7])
    seed = int(seed)
    kc = rng.rand()
    if kc < 0.35:
        k = f"jx.random.key({seed})"
    elif kc < 0.7:
        k = f"jx.random.PRNGKey({seed})"
    elif kc < 0.8:
        k = f"jx.random.key(jnp.asarray({seed % 2**31}, jnp.int32))"
    elif kc < 0.9:
        k = f"jx.random.wrap_key_data(jnp.array([{seed % 2**32}, {(seed * 7) % 2**32}], jnp.uint32))"
    else:
        k = f"jnp.array([{seed % 2**32}, {(seed * 3) % 2**32}], jnp.uint32)"
    n = int(rng.randint(1, 6))
    i = int(rng.randint(0, n))
    d = int(rng.choice([0, 1, 7, -1, -7, 2**31 - 1, 12345]))
    du = int(rng.choice([0, 1, 2**32 - 1, 2**31, 5]))
    dl = str(rng.choice(["jnp.int64(-3)", "jnp.uint32(4000000000)", "np.int64(2**33 + 1)",
                         "np.uint64(2**40)", "jnp.int8(-2)", "jnp.uint16(65535)", "np.int32(-9)"]))  # fmt: skip
    bad = rng.rand() < 0.25
    extra = ""
    if bad:
        body = str(rng.choice(_BADKEY))
    else:
        body = str(rng.choice(_KEYBODIES)).format(n=n, i=i, d=d, du=du, dl=dl)
    if body == "jax_scan":
        extra = "def step(c, _):\n    a, b = jx.random.split(c)\n    return a, jx.random.uniform(b, (2,))\n"
        body = "jax.lax.scan(step, k, None, length=3)"
    elif body == "jax_while":
        extra = "def wbody(c):\n    i, kk = c\n    return i + 1, jx.random.fold_in(kk, i)\n"
        body = "lax.while_loop(lambda c: c[0] < 3, wbody, (0, k))"
    elif body == "jax_cond":
        body = f"lax.cond({bool(rng.rand() < 0.5)}, lambda kk: jx.random.split(kk)[0], lambda kk: jx.random.fold_in(kk, 2), k)"
    body = body.replace("jax.lax.", "lax.")
    stack = str(rng.choice(["eval", "eval", "jit", "jit", "vmapk"]))
    if stack == "vmapk" and ("key_impl" in body or "str(" in body or k.startswith("jnp.array")):
        stack = "eval"
    if stack == "jit" and ("key_impl" in body or "str(" in body):
        stack = "eval"
    call = _call(stack).replace("x0", "0")
    part = rng.rand() < 0.2
    if part:
        call = f"_with_part({call!r}, k0)"
        extra += (
            "def _with_part(text, k0):\n"
            "    old = jx.config.jax_threefry_partitionable\n"
            "    jx.config.update('jax_threefry_partitionable', False)\n"
            "    try:\n"
            "        return eval(text, {'f': f, 'k0': k0, 'jx': jx, 'jnp': jnp})\n"
            "    finally:\n"
            "        jx.config.update('jax_threefry_partitionable', old)\n"
        )
    return _program(body, k, "0", call, x64, True, extra)


# ----------------------------------------------------------------------------- grads
_GRADS = [
    # (body with parameter x, parameter pool, exact)
    ("x * jx.random.normal(k, (3,)) + 1.0", _POS),
    ("jx.random.uniform(k, (3,), minval=x, maxval=x + 2.0)", _POS),
    ("jx.random.uniform(k, (3,), minval=-1.0, maxval=x)", _POS),
    ("jx.random.truncated_normal(k, -x, x, (3,))", _POS),
    ("jx.random.truncated_normal(k, x - 3.0, x, (3,))", _POS),
    ("jx.random.exponential(k, (3,)) / x", _POS),
    ("jx.random.gamma(k, x, (3,))", _POS + [0.1, 0.01, 30.0]),
    ("jx.random.gamma(k, x)", _POS + [0.1, 0.01, 30.0]),
    ("jx.random.loggamma(k, x, (3,))", _POS + [0.1, 0.01]),
    ("jx.random.beta(k, x, 2.0, (3,))", _POS),
    ("jx.random.beta(k, 1.5, x, (2,))", _POS),
    ("jx.random.dirichlet(k, jnp.stack([x, x + 1.0, 2.0 * x]))", _POS),
    ("jx.random.chisquare(k, x, (2,))", _POS),
    ("jx.random.t(k, x, (2,))", _POS),
    ("jx.random.f(k, x, 3.0, (2,))", _POS),
    ("jx.random.pareto(k, x, (3,))", _POS),
    ("jx.random.rayleigh(k, x, (3,))", _POS),
    ("jx.random.weibull_min(k, x, 2.0, (3,))", _POS),
    ("jx.random.weibull_min(k, 1.5, x, (3,))", _POS),
    ("jx.random.lognormal(k, x, (3,))", _POS),
    ("jx.random.wald(k, x, (3,))", _POS),
    ("jx.random.double_sided_maxwell(k, x, 2.0, (3,))", _POS),
    ("jx.random.triangular(k, -x, 0.0, x, (3,))", _POS),
    (
        "jx.random.multivariate_normal(k, jnp.stack([x, -x]), jnp.array([[2.0, 0.5], [0.5, 1.0]]) * x)",
        _POS,
    ),
    ("x * jx.random.laplace(k, (3,)) + jx.random.logistic(k, (3,))", _POS),
    ("jx.random.gumbel(k, (3,)) * x ** 2", _POS),
    ("jx.random.cauchy(k, (3,)) * x", _POS),
    ("jx.random.maxwell(k, (2,)) * jnp.sin(x)", _POS),
    ("jx.random.generalized_normal(k, 2.0, (3,)) * x", _POS),
    ("jx.random.ball(k, 2) * x", _POS),
    ("jnp.where(jx.random.bernoulli(k, 0.5, (3,)), x, -x)", _POS),
    ("jx.random.categorical(k, jnp.stack([x, 0.0 * x, -x])) * x", _POS),
]


def gen_grads(rng):
    x64 = rng.rand() < 0.2
    k = _key_text(rng)
    body, pool = _GRADS[rng.randint(len(_GRADS))]
    vec = rng.rand() < 0.3 and "stack" not in body
    pdt = "float64" if x64 and rng.rand() < 0.7 else "float32"
    if vec:
        xs = _farr(rng.choice(pool, size=(2,)), pdt)
        inner = re.sub(r"\bx\b", "xx", body)
        body = f"jx.vmap(lambda xx: {inner})(x)"
    else:
        xs = _farr(float(rng.choice(pool)), pdt)
    stack = str(rng.choice(["grad", "grad", "jit_grad", "jvp", "jacrev", "jacfwd", "vmapk_grad",
                            "vmapx_grad", "value"]))  # fmt: skip
    call = {
        "value": "f(k0, x0)",
        "grad": "jx.grad(lambda x: loss(f(k0, x)))(x0)",
        "jit_grad": "jx.jit(jx.grad(lambda k, x: loss(f(k, x)), argnums=1))(k0, x0)",
        "jvp": "jx.jvp(lambda x: f(k0, x), (x0,), (jnp.ones_like(x0) * 0.5,))",
        "jacrev": "jx.jacrev(lambda x: f(k0, x))(x0)",
        "jacfwd": "jx.jacfwd(lambda x: f(k0, x))(x0)",
        "vmapk_grad": "jx.vmap(jx.grad(lambda k, x: loss(f(k, x)), argnums=1), in_axes=(0, None))(jx.random.split(k0, 3), x0)",
        "vmapx_grad": "jx.vmap(jx.grad(lambda x: loss(f(k0, x))))(jnp.stack([x0, x0 * 1.5 + 0.25]))",
    }[stack]
    return _program(body, k, xs, call, x64, False)


GENERATORS = {"samplers": gen_samplers, "keys": gen_keys, "grads": gen_grads}


# ------------------------------------------------------------------------- comparison
def _build(src):
    def build(m):
        ns = {"jx": m.jx, "jnp": m.jnp, "lax": m.lax, "np": np}
        exec(src, ns)  # noqa: S102 - the harness runs its own generated test programs
        return ns["run"]()

    return build


def _first_line(e):
    return str(e).strip().split("\n")[0]


def _exact_leaf(i, x, y):
    dx, dy = str(x.dtype), str(y.dtype)
    if np.shape(x) != np.shape(y) or dx != dy:
        return f"leaf {i}: {np.shape(x)} {dx} vs jaxlite {np.shape(y)} {dy}"
    if not isinstance(x, np.ndarray) and getattr(x, "weak_type", None) != getattr(
        y, "weak_type", None
    ):
        return f"leaf {i}: weak type {x.weak_type} vs jaxlite {y.weak_type}"
    a, b = np.asarray(x), np.asarray(y)
    if dx in ("bfloat16", "float16"):
        a, b = a.astype(np.float32), b.astype(np.float32)
    if a.dtype.kind in "fc":
        same = (a == b) | ((a != a) & (b != b))
        if a.dtype.kind == "f":  # signs of zeros and numbers (not of NaNs)
            same &= (np.signbit(a) == np.signbit(b)) | (a != a)
        if not same.all():
            return f"leaf {i}: bits {x!r} vs jaxlite {y!r}"
        return None
    if not np.array_equal(a, b):
        return f"leaf {i}: values {x!r} vs jaxlite {y!r}"
    return None


# the implicit gradients of gamma and its family are central differences of SciPy's
# kernel (docs/compat.md): about 1e-11 relative in float64
_GRAD_TOLS = dict(fuzz_s22._TOLS["close"], float64=1e-9)


def difference(src, messages=False, tols=None):
    """How jaxlite's run of the program differs from JAX's (None when they agree, or
    without JAX). A program marked ``# exact`` must give the same bits."""
    if JAX is None:
        return None
    exact = src.startswith("# exact")
    deriv = any(k in src for k in ("jx.grad", "jx.jvp", "jx.jac"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kb, b = run(_build(src), LITE)
        ka, a = run(_build(src), JAX)
    if ka != kb:
        return f"raise/no-raise: JAX {ka} {a!r:.300}, jaxlite {kb} {b!r:.300}"
    if ka == "err":
        if builtin_base(a) is not builtin_base(b):
            return f"exception class: JAX {a!r:.300}, jaxlite {b!r:.300}"
        if messages and _first_line(a) != _first_line(b):
            return f"message: JAX {_first_line(a)!r:.300}\n   jaxlite {_first_line(b)!r:.300}"
        return None
    la, ta = JAX.jx.tree_util.tree_flatten(a)
    lb, tb = LITE.jx.tree_util.tree_flatten(b)
    if len(la) != len(lb):
        return f"structure: {ta} vs {tb}"
    tols = tols or fuzz_s22._TOLS["close"]
    for i, (x, y) in enumerate(zip(la, lb)):
        if type(x) in (int, float, bool, complex, str) or type(y) in (
            int,
            float,
            bool,
            complex,
            str,
        ):
            if type(x) is not type(y):
                return f"leaf {i}: Python type {type(x)} vs {type(y)}"
            if x != y and not (x != x and y != y):
                return f"leaf {i}: Python value {x!r} vs {y!r}"
            continue
        if exact:
            d = _exact_leaf(i, x, y)
        else:
            d = fuzz_s22._leaf_difference(i, x, y, tols, signs=not deriv)
        if d:
            return d
    return None


def check(name, seed, messages=False):
    """(difference or None, program) of one seed of one generator; the generator runs on
    its own ``RandomState(seed)`` (so it also runs without JAX)."""
    src = GENERATORS[name](np.random.RandomState(seed))
    return difference(src, messages, _GRAD_TOLS if name == "grads" else None), src


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
