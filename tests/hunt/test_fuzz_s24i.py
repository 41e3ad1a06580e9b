"""Session 24 differential hunt of the image, interpolation and statistics APIs (generators
in tests/hunt/fuzz_s24i.py: ``jax.image`` resize / scale_and_translate, ``map_coordinates``,
``jnp.interp`` / ``RegularGridInterpolator`` / the polynomial helpers, the
``jax.scipy.stats`` distributions and summaries, under eval / jit / vmap / grad / jvp)
checked against JAX 0.10.2. Each case asserts a value or property that holds without JAX
and, where JAX is importable, compares the whole result (or the raised exception's class)
with JAX's through tests/hunt/oracle.py."""

from __future__ import annotations

import numpy as np
import pytest

from tests.hunt import fuzz_s24i
from tests.hunt.oracle import JAX, LITE, same

# ---------------------------------- weak constants of multivariate_normal (stats 17, 47)
# The log(2 pi) terms were NumPy float64 scalars, strongly typed: a bfloat16 density came
# out float32, and under x64 a float32 one float64 (JAX's constants are weak).


# (a matrix covariance needs a Cholesky factorization, which both refuse in half precision)
@pytest.mark.parametrize(
    "dt, mean",
    [("bfloat16", "scalar"), ("float16", "scalar"), ("float32", "scalar"), ("float32", "vector")],
)
def test_multivariate_normal_keeps_the_operand_dtype(dt, mean):
    def f(m):
        x = m.jnp.asarray([[0.5, -1.5], [1.0, 0.25]], dt)
        cov = m.jnp.asarray([[2.0, 0.25], [0.25, 1.5]], dt)
        mu = 0.5 if mean == "scalar" else m.jnp.asarray([0.0, 0.5], dt)
        cov = m.jnp.diag(cov)[0] if mean == "scalar" else cov
        return (
            m.jx.scipy.stats.multivariate_normal.logpdf(x, mu, cov),
            m.jx.scipy.stats.multivariate_normal.pdf(x, mu, cov),
        )

    out = f(LITE)
    assert all(str(o.dtype) == dt for o in out)
    same(f, rtol=2e-2 if dt != "float32" else 1e-5)


def test_multivariate_normal_weak_mean_under_x64():
    def f(m):
        with m.jx.enable_x64(True):
            x = m.jnp.asarray([[-1.75], [0.0]], "float32")
            mean = m.jnp.arange(1) * 0.5  # a weak float64
            return m.jx.scipy.stats.multivariate_normal.logpdf(
                x, mean, m.jnp.asarray([[2.029]], "float32")
            )

    assert f(LITE).dtype == np.float32
    same(f)


# ------------------------------------------- mode's count has the default int (stats 90)
def test_mode_count_dtype_follows_x64():
    def f(m):
        with m.jx.enable_x64(True):
            r = m.jx.scipy.stats.mode(m.jnp.asarray([2.0, 2.0, 1.0]), axis=-1)
            s = m.jx.scipy.stats.mode(m.jnp.asarray([[3, 1], [3, 2]], "int32"), axis=0)
            return tuple(r) + tuple(s)

    mode, count, mode2, count2 = f(LITE)
    assert float(mode) == 2.0 and int(count) == 2 and count.dtype == np.int64
    assert mode2.dtype == np.int32 and count2.dtype == np.int64
    assert mode2.tolist() == [3, 1] and count2.tolist() == [2, 1]
    same(f)
    r = LITE.jx.scipy.stats.mode(LITE.jnp.asarray([1, 1, 0]))
    assert r.count.dtype == np.int32  # x64 off: int32


# ------------------------------------------------------- betaln for large b (stats 98)
# lgamma(a) + lgamma(b) - lgamma(a + b) cancels catastrophically in float32 for large b
# (betaln(3, 1e5) was -33.75, SciPy's is -33.8457); with the arguments ordered and
# Stirling's series for b >= 8 it is right, and its derivative at b = 0 is NaN as JAX's
# (it was 0, so beta.pdf's gradient in a had a 0 where JAX has NaN).
def test_betaln_large_arguments_float32():
    a = np.array([3.0, 1e5, 0.5, 100.0, 1e4, 10.0, 1e6], np.float32)
    b = np.array([1e5, 3.0, 20.0, 2.0, 3e4, 9.0, 1e6], np.float32)
    out = np.asarray(LITE.jx.scipy.special.betaln(a, b))
    scipy_special = pytest.importorskip("scipy.special")
    ref = scipy_special.betaln(a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(out, ref, rtol=2e-6)
    same(lambda m: m.jx.scipy.special.betaln(a, b), rtol=2e-6)
    same(lambda m: m.jx.vmap(m.jx.grad(m.jx.scipy.special.betaln, (0, 1)))(a, b), rtol=1e-5)


def test_betaln_derivative_nan_at_zero():
    def f(m):
        g = m.jx.grad(lambda a: m.jx.scipy.special.betaln(a, 0.0))(1.0)
        h = m.jx.grad(lambda a: m.jx.scipy.stats.beta.pdf(-1.0, a, 0.0, 1.0, -1.0))(1.0)
        return g, h

    g, h = f(LITE)
    assert np.isnan(g) and np.isnan(h)
    same(f)


# ----------------------------- igamma's derivative in a at x = 0 for a <= 0 (stats 65)
# igamma_grad_a and random_gamma_grad returned 0 at x = 0 whatever a; for a <= 0 (where
# igamma itself is NaN) JAX's are NaN, so gamma.cdf's gradient in a was 0 where JAX's is
# NaN (x below loc clamps to 0).
def test_igamma_grad_a_nan_at_zero_for_nonpositive_a():
    a = np.array([2.0, -2.0, 0.0, -0.5, np.nan], np.float32)
    x = np.array([0.0, 0.0, 0.0, 0.0, 0.0], np.float32)
    expected = [0.0, np.nan, np.nan, np.nan, np.nan]
    for fn in ("igamma_grad_a", "random_gamma_grad"):
        f = lambda m, fn=fn: getattr(m.lax, fn)(a, x)  # noqa: E731
        np.testing.assert_array_equal(np.asarray(f(LITE)), expected)
        same(f)

    def g(m):
        dt = m.jnp.bfloat16
        k = m.jnp.asarray([2.0, -2.0], dt)
        xs = m.jnp.asarray([1.0, 0.001], dt)
        one = m.jnp.asarray(1.0, dt)
        return m.jx.grad(lambda k: m.jnp.sum(m.jx.scipy.stats.gamma.cdf(xs, k, one, one)))(k)

    assert np.isnan(np.asarray(g(LITE), np.float32)).tolist() == [False, True]
    same(g)


# ---------------------------------------------- map_coordinates' cval is static (ndimage)
# JAX compiles map_coordinates with order, mode and cval static: an unhashable cval (an
# array, a traced value, a list) is a ValueError; jaxlite used it as an operand.
_X = np.arange(4.0, dtype=np.float32)
_C = [np.array([0.5, 5.0], np.float32)]
_CVALS = {
    "array": lambda m: m.jx.scipy.ndimage.map_coordinates(_X, _C, 1, cval=m.jnp.asarray(2.0)),
    "list": lambda m: m.jx.scipy.ndimage.map_coordinates(_X, _C, 1, cval=[1.0]),
    "traced": lambda m: m.jx.jit(lambda v: m.jx.scipy.ndimage.map_coordinates(_X, _C, 1, cval=v))(
        2.0
    ),
    "batched": lambda m: m.jx.vmap(lambda v: m.jx.scipy.ndimage.map_coordinates(_X, _C, 1, cval=v))(
        np.arange(2.0)
    ),
}


@pytest.mark.parametrize("case", sorted(_CVALS))
def test_map_coordinates_cval_must_be_hashable(case):
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        _CVALS[case](LITE)
    same(_CVALS[case])


def test_map_coordinates_hashable_cval():
    f = lambda m: m.jx.scipy.ndimage.map_coordinates(_X, _C, 1, cval=np.float32(2.0))  # noqa: E731
    assert np.asarray(f(LITE)).tolist() == [0.5, 2.0]
    same(f)


# ------------------------------------------------------ polyder and polyfit edges (interp)
# polyder of an order above the degree sliced from the end (p[:len - m]) and failed to
# broadcast (JAX: an empty array); polyfit took the rcond default from the promoted dtype,
# so integer points fitted where JAX raises NumPy's finfo ValueError.
@pytest.mark.parametrize("m", [3, 4, 5, 7])
def test_polyder_order_above_the_degree(m):
    f = lambda m_: m_.jnp.polyder(np.array([1.0, 2.0, 3.0, 4.0], np.float32), m)  # noqa: E731
    out = f(LITE)
    expected = {3: [6.0], 4: [], 5: [], 7: []}[m]
    assert out.shape == (len(expected),) and np.asarray(out).tolist() == expected
    same(f)


def test_polyfit_integer_points():
    f = lambda m: m.jnp.polyfit(np.arange(5), np.arange(5), 1)  # noqa: E731
    with pytest.raises(ValueError, match="not inexact"):
        f(LITE)
    same(f)
    g = lambda m: m.jnp.polyfit(np.arange(5), np.arange(5) * 2.0, 1, rcond=1e-3)  # noqa: E731
    np.testing.assert_allclose(np.asarray(g(LITE)), [2.0, 0.0], atol=1e-5)
    same(g, atol=1e-5)


# ------------------------------------------------------------------ a spread of seeds
_SPREAD = {
    "image": (20, 46),
    "ndimage": (3,),
    "interp": (0,),
    "stats": (17, 47, 65, 90, 98, 233),
}


@pytest.mark.parametrize("name, seed", [(n, s) for n, seeds in _SPREAD.items() for s in seeds])
def test_hunt_seed_agrees_with_jax(name, seed):
    pytest.importorskip("jax")
    d, src = fuzz_s24i.check(name, seed)
    assert d is None, f"{d}\n{src}"
    assert JAX is not None
