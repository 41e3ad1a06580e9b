"""Differential test of ``jax.scipy.stats``: every distribution method on a grid of inputs
that includes the edge values (+-inf, NaN, the support ends, points outside the support,
degenerate parameters), run under real JAX and under jaxlite (eagerly and under ``jit``).
Values, dtypes and, where the method is differentiable, ``vmap(grad)`` with respect to the
first argument must agree -- including JAX's ``where``-conventions at NaN and at the
support ends.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.stats  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.scipy.stats  # noqa: E402,F401

jax.config.update("jax_platforms", "cpu")

INF, NAN = np.inf, np.nan
X_REAL = [-INF, -3.0, -1.0, -0.5, 0.0, 0.3, 0.5, 1.0, 1.5, 2.0, 5.0, INF, NAN]
X_ANGLE = [-1.0, 0.0, 0.5, 3.0, 2 * np.pi, 7.0, INF, NAN]
Q = [-0.5, 0.0, 1e-3, 0.25, 0.5, 0.9, 1.0, 1.5, NAN]
K = [-1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 7.0, INF, NAN]

LOC_SCALE = [(), (0.5, 2.0), (-1.0, 0.5), (0.0, -1.0)]
CASES = []  # (dist, method, grid, extra parameter tuples, differentiable)


def case(dist, methods, grid, params, diff="all"):
    """``diff``: ``"all"`` compares the gradient in every argument, ``"x"`` in the first
    only, ``False`` none."""
    for m in methods.split():
        CASES.append((dist, m, grid, params, diff))


DENS = "logpdf pdf"
CDFS = "cdf logcdf sf logsf"
case("norm", f"{DENS} {CDFS}", X_REAL, LOC_SCALE)
case("norm", "ppf isf", Q, LOC_SCALE)
case("uniform", f"{DENS} cdf", X_REAL, LOC_SCALE[:3] + [(0.0, 0.0)])
case("uniform", "ppf", Q, LOC_SCALE[:3])
case("laplace", f"{DENS} cdf", X_REAL, LOC_SCALE)
case("logistic", f"{DENS} cdf sf", X_REAL, LOC_SCALE)
case("logistic", "ppf isf", Q, LOC_SCALE)
case("expon", f"{DENS} {CDFS}", X_REAL, LOC_SCALE)
case("expon", "ppf", Q, LOC_SCALE)
case("cauchy", f"{DENS} {CDFS}", X_REAL, LOC_SCALE)
case("cauchy", "ppf isf", Q, LOC_SCALE)
case("t", DENS, X_REAL, [(1.0,), (3.5,), (2.0, 0.5, 2.0), (0.0,)])
for g in ("gumbel_l", "gumbel_r"):
    # JAX's own grad of gumbel logpdf in scale raises (float0 from xlogy(-1, scale)).
    case(g, DENS, X_REAL, LOC_SCALE + [(0.0, 0.0)], diff="x")
    case(g, CDFS, X_REAL, LOC_SCALE + [(0.0, 0.0)])
    # JAX's own grad of gumbel ppf raises (float0 from the integer -1 passed to xlogy).
    case(g, "ppf", Q, LOC_SCALE, diff=False)
case("pareto", f"{DENS} {CDFS}", X_REAL, [(1.0,), (2.5,), (2.0, -1.0, 0.5), (0.0,)])
case("pareto", "ppf", Q, [(1.0,), (2.5, 0.5, 2.0)])
# gamma.cdf with a = 0 and poisson.cdf at k = inf reach gammainc(0, x) / gammaincc(inf, x),
# where jaxlite keeps SciPy's values (docs/compat.md, jax.scipy.special edge values).
case("gamma", DENS, X_REAL, [(0.0,)])
GAMMA = [(1.0,), (2.5,), (0.5,), (2.0, -1.0, 2.0)]
CHI2 = [(1.0,), (2.0,), (4.5,), (3.0, -1.0, 2.0)]
# d/da gammainc(a, inf): JAX NaN, jaxlite 0 (the limit); compared on the finite grid only.
X_FINITE = [v for v in X_REAL if np.isfinite(v)]
case("gamma", DENS, X_REAL, GAMMA)
case("gamma", CDFS, X_REAL, GAMMA, diff="x")
case("gamma", CDFS, X_FINITE, GAMMA)
case("chi2", DENS, X_REAL, CHI2)
case("chi2", CDFS, X_REAL, CHI2, diff="x")
case("chi2", CDFS, X_FINITE, CHI2)
BETA = [(1.0, 1.0), (2.0, 3.0), (0.5, 0.5), (2.0, 2.0, -1.0, 2.0), (2.0, 2.0, 0.0, -1.0)]
case("beta", DENS, X_REAL, BETA)
# a = 0: betaln(0, b) is inf; its b-derivative is JAX NaN, jaxlite 0 (digamma difference).
case("beta", DENS, X_REAL, [(0.0, 1.0)], diff="x")
# JAX's betainc has no derivative in a or b ("Betainc gradient ... not supported").
case("beta", CDFS, X_REAL, BETA + [(0.0, 1.0)], diff="x")
case("gennorm", "logpdf pdf cdf", X_REAL, [(1.0,), (2.0,), (0.5,), (4.0,)])
case("vonmises", DENS, X_ANGLE, [(0.5,), (2.0,), (0.0,), (-1.0,)])
case("wrapcauchy", DENS, X_ANGLE, [(0.5,), (0.9,), (0.0,), (1.0,)])
case(
    "truncnorm",
    f"{DENS} {CDFS}",
    X_REAL,
    [(-1.0, 1.0), (0.5, 3.0), (-4.0, -2.0), (-INF, 0.0), (1.0, 1.0), (0.0, 2.0, 0.5, 2.0)],
)
case("bernoulli", "logpmf pmf", K, [(0.3,), (0.0,), (1.0,), (0.3, 1.0), (1.5,)])
case("bernoulli", "cdf", K, [(0.3,), (0.0,), (1.0,), (1.5,), (NAN,)])
case("bernoulli", "ppf", Q, [(0.3,), (0.0,), (1.0,), (1.5,)])
case("poisson", "logpmf pmf", K, [(2.0,), (0.0,), (3.5, 1.0)])
case("poisson", "cdf", [k for k in K if k != INF], [(2.0,), (0.5,), (3.5, 1.0)])
case("binom", "logpmf pmf", K, [(5.0, 0.3), (0.0, 0.3), (4.0, 0.0), (4.0, 1.0), (5.0, 0.5, 1.0)])
case("geom", "logpmf pmf", K, [(0.3,), (1.0,), (0.5, 1.0)])
case("nbinom", "logpmf pmf", K, [(3.0, 0.4), (1.0, 1.0), (2.5, 0.3, 1.0)])
# Out of the support betaln meets a pole (betaln(a, 0)): JAX's derivative there is NaN in
# both arguments, jaxlite's digamma(a) - digamma(a + b) is 0 in the finite one (compat.md);
# so the gradient is compared in k only.
case(
    "betabinom",
    "logpmf pmf",
    K,
    [(5.0, 2.0, 3.0), (0.0, 1.0, 1.0), (5.0, 0.5, 0.5, 1.0), (-1.0, 1.0, 1.0), (4.0, 0.0, 1.0)],
    diff="x",
)


def _fn(root, dist, method):
    return getattr(getattr(root.scipy.stats, dist), method)


def _close(lite, ref, rtol=2e-5, atol=1e-6, what=""):
    lite, ref = np.asarray(lite), np.asarray(ref)
    assert lite.dtype == ref.dtype, f"{what}: dtype {lite.dtype} != JAX {ref.dtype}"
    assert lite.shape == ref.shape, f"{what}: shape {lite.shape} != JAX {ref.shape}"
    np.testing.assert_allclose(lite, ref, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def _param_columns(dist, method, params):
    """The parameter tuples (defaults filled in from the signature) as float32 columns, one
    entry per tuple, so one call evaluates the whole grid x parameters table."""
    sig = inspect.signature(_fn(jaxlite, dist, method))
    names = list(sig.parameters)[1:]
    full = []
    for p in params:
        rest = [sig.parameters[n].default for n in names[len(p) :]]
        full.append(tuple(p) + tuple(rest))
    return [np.asarray([row[i] for row in full], np.float32) for i in range(len(names))]


@pytest.mark.parametrize(
    "dist,method,grid,params,diff", CASES, ids=[f"{c[0]}.{c[1]}" for c in CASES]
)
def test_values_and_grads(dist, method, grid, params, diff):
    """``f(x[:, None], *params[None, :])``: every grid point with every parameter tuple
    (the parameter tuples are listed in the failure message as columns)."""
    x = np.asarray(grid, np.float32)
    cols = _param_columns(dist, method, params)
    what = f"{dist}.{method} (columns: {params})"
    ref_f, lite_f = _fn(jax, dist, method), _fn(jaxlite, dist, method)
    args = (x[:, None], *(c[None, :] for c in cols))
    ref = ref_f(*args)
    _close(lite_f(*args), ref, what=f"eager {what}")
    _close(jaxlite.jit(lite_f)(*args), ref, what=f"jit {what}")
    if diff:
        k = len(cols)

        argnums = tuple(range(k + 1)) if diff == "all" else 0

        def table(root, f):
            g = root.grad(lambda v, *p: f(v, *p), argnums=argnums)
            inner = root.vmap(g, in_axes=(None,) + (0,) * k)
            return root.vmap(inner, in_axes=(0,) + (None,) * k)(x, *cols)

        g_ref = jax.tree_util.tree_leaves(table(jax, ref_f))
        g_lite = jax.tree_util.tree_leaves(table(jaxlite, lite_f))
        for i, (a, b) in enumerate(zip(g_lite, g_ref, strict=True)):
            _close(a, b, rtol=1e-4, atol=1e-5, what=f"vmap(grad) argument {i}: {what}")


@pytest.mark.parametrize(
    "dist,method,args",
    [
        ("norm", "cdf", (np.arange(-2, 3), 0, 1)),
        ("norm", "isf", (np.float32([0.3, 0.9]), 1, 2)),
        ("expon", "sf", (np.arange(-1, 3, dtype=np.int8),)),
        ("gamma", "logpdf", (np.float16([0.5, 2.0]), 2)),
        ("bernoulli", "pmf", (np.arange(-1, 3), 0.25)),
        ("poisson", "logpmf", (np.arange(4), np.float16(1.5))),
        ("gumbel_r", "logsf", (np.float16([0.5, -1.0]),)),
        ("truncnorm", "logcdf", (np.arange(-1, 3), -1, 2)),
    ],
)
def test_dtypes_of_integer_and_half_inputs(dist, method, args):
    ref = _fn(jax, dist, method)(*args)
    _close(_fn(jaxlite, dist, method)(*args), ref, rtol=2e-3, atol=1e-3, what=f"{dist}.{method}")


@pytest.mark.parametrize("q", [np.arange(2), np.float16([0.3])])
def test_norm_ppf_refuses_non_float32_64_as_jax(q):
    with pytest.raises(TypeError, match="not supported"):
        jax.scipy.stats.norm.ppf(q)
    with pytest.raises(TypeError, match="not supported"):
        jaxlite.scipy.stats.norm.ppf(q)


def test_poisson_entropy_all_regimes():
    mu = np.asarray([0.0, 0.5, 3.0, 9.9, 10.0, 50.0, 99.0, 150.0, 1e4], np.float32)
    ref = jax.scipy.stats.poisson.entropy(mu)
    _close(jaxlite.scipy.stats.poisson.entropy(mu), ref, rtol=1e-5)
    _close(jaxlite.jit(jaxlite.scipy.stats.poisson.entropy)(mu, 1.0), ref, rtol=1e-5)
    _close(
        jaxlite.scipy.stats.poisson.entropy(mu[:, None], np.zeros(3)),
        jax.scipy.stats.poisson.entropy(mu[:, None], np.zeros(3)),
        rtol=1e-5,
    )


def _both(fn_name, *args, grad_argnum=None, **kw):
    dist, method = fn_name.split(".")
    ref_f, lite_f = _fn(jax, dist, method), _fn(jaxlite, dist, method)
    _close(lite_f(*args, **kw), ref_f(*args, **kw), what=fn_name)
    _close(jaxlite.jit(lambda *a: lite_f(*a, **kw))(*args), ref_f(*args, **kw), what=fn_name)
    if grad_argnum is not None:
        g_ref = jax.grad(lambda *a: ref_f(*a, **kw).sum(), grad_argnum)(*args)
        g_lite = jaxlite.grad(lambda *a: lite_f(*a, **kw).sum(), grad_argnum)(*args)
        _close(g_lite, g_ref, rtol=1e-4, atol=1e-5, what=f"{fn_name} grad")


def test_dirichlet():
    alpha = np.asarray([0.5, 2.0, 3.0], np.float32)
    x = np.asarray([[0.2, 0.5, 0.0, 0.3], [0.3, 0.25, 0.5, 0.3], [0.5, 0.25, 0.5, 0.5]], np.float32)
    _both("dirichlet.logpdf", x, alpha, grad_argnum=1)
    _both("dirichlet.pdf", x[:, 0], alpha, grad_argnum=0)
    _both("dirichlet.logpdf", x[:2], alpha)  # last coordinate implied
    with pytest.raises(ValueError, match="one-dimensional"):
        jaxlite.scipy.stats.dirichlet.logpdf(x, alpha[None])
    with pytest.raises(ValueError, match="one entry fewer"):
        jaxlite.scipy.stats.dirichlet.logpdf(x[:1], alpha)


def test_multinomial():
    p = np.asarray([0.2, 0.3, 0.5], np.float32)
    _both("multinomial.logpmf", np.asarray([1, 2, 3]), 6, p, grad_argnum=2)
    _both("multinomial.pmf", np.asarray([1, 2, 2]), 6, p)  # counts do not sum to n
    _both("multinomial.pmf", np.asarray([0, 0, 4]), 4, np.asarray([0.5, 0.5, 0.0], np.float32))
    with pytest.raises(ValueError, match="integer type"):
        jaxlite.scipy.stats.multinomial.logpmf(np.asarray([1.0, 2.0, 3.0]), 6, p)


def test_multivariate_normal():
    rng = np.random.default_rng(0)
    m = rng.normal(size=(3, 3)).astype(np.float32)
    cov = m @ m.T + 3 * np.eye(3, dtype=np.float32)
    x = rng.normal(size=(4, 3)).astype(np.float32)
    mean = np.asarray([0.5, -1.0, 0.0], np.float32)
    _both("multivariate_normal.logpdf", x, mean, cov, grad_argnum=0)
    _both("multivariate_normal.pdf", x, mean, cov)
    _both("multivariate_normal.logpdf", x, mean, np.float32(2.0))
    _both("multivariate_normal.logpdf", x[:, 0], np.float32(0.5), np.float32(2.0))


def _scalar_methods():
    out = []
    for dist in sorted({c[0] for c in CASES}):
        for method in sorted({c[1] for c in CASES if c[0] == dist}):
            sig = inspect.signature(_fn(jaxlite, dist, method))
            req = [p for p in sig.parameters.values() if p.default is inspect.Parameter.empty]
            out.append((dist, method, len(req)))
    return out


@pytest.mark.parametrize("dist,method,nargs", _scalar_methods())
@pytest.mark.parametrize("first", ["python", "float32"])
def test_weak_types(dist, method, nargs, first):
    """Python-scalar arguments give a weakly typed result exactly where JAX's does."""
    x0 = 0.5 if first == "python" else np.float32([0.5, 0.7])
    args = [x0] + [0.5] * (nargs - 1)
    ref = _fn(jax, dist, method)(*args)
    got = _fn(jaxlite, dist, method)(*args)
    _close(got, ref, what=f"{dist}.{method}")
    assert got.weak_type == ref.weak_type, f"{dist}.{method}: weak_type"
