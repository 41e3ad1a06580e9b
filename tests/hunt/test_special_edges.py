"""Regression tests for wrong answers of ``jax.scipy.special`` found by a sweep against
JAX 0.10.2 (values and ``vmap(grad)`` on a grid with the edge values). Every expected value
is JAX's (and, where JAX is accurate, the mathematical one); the file also passes in oracle
mode."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp
import jaxlite.scipy.special as sp

_P = [0.0, 1e-30, 1e-10, 1e-5, 0.5, 1 - 1e-7, 1.0, -0.1, 1.1, np.nan]


def _vgrad(fn, x):
    return np.asarray(jaxlite.vmap(jaxlite.grad(fn))(x), np.float64)


@pytest.mark.parametrize("jit", [False, True])
def test_ndtri_is_accurate_in_the_tails(jit):
    # sqrt(2) * erfinv(2p - 1) in float32 gave -inf at 1e-30 and 1e-10, -4.264588 at 1e-5.
    fn = jaxlite.jit(sp.ndtri) if jit else sp.ndtri
    got = np.asarray(fn(jnp.array(_P, jnp.float32)), np.float64)
    want = [-np.inf, -11.464024, -6.361341, -4.2648907, 0.0, 5.166578, np.inf] + [np.nan] * 3
    np.testing.assert_allclose(got, want, rtol=2e-6)


def test_ndtri_derivative():
    g = _vgrad(sp.ndtri, jnp.array(_P, jnp.float32))
    # JAX: sqrt(2 pi) exp(ndtri(p)**2 / 2) inside (0, 1), 0 at the ends, NaN outside.
    want = [0.0, 8.6580283e28, 1.5357238e09, 2.2327746e04, 2.5066283, 1.5686146e06, 0.0]
    np.testing.assert_allclose(g[:7], want, rtol=2e-5)
    assert np.isnan(g[7:]).all()


def test_ndtri_float64_and_refused_dtypes():
    with jaxlite.enable_x64(True):
        got = float(sp.ndtri(jnp.float64(1e-300)))
    np.testing.assert_allclose(got, -37.0471, rtol=1e-5)
    # JAX accepts only float32 and float64 (no promotion, not even of integers).
    for x in (jnp.array([0.3], jnp.float16), jnp.array([0.3], jnp.bfloat16), 1):
        name = "int32" if x == 1 else np.dtype(x.dtype).name
        with pytest.raises(TypeError, match=f"x.dtype={name} is not supported"):
            sp.ndtri(x)


_X = [-np.inf, -2.0, -0.0, 0.0, 1e-3, 1.0, np.inf, np.nan]


def test_entr_derivative_at_zero_and_infinity():
    g = _vgrad(sp.entr, jnp.array(_X, jnp.float32))
    # -(log x + 1): +inf at +-0 (was NaN), -inf at +inf (was NaN).
    np.testing.assert_allclose(g[2:7], [np.inf, np.inf, 5.9077554, -1.0, -np.inf], rtol=1e-6)
    assert np.isnan(g[[0, 1, 7]]).all()


def test_logit_derivative_at_the_ends():
    g = _vgrad(sp.logit, jnp.array(_X, jnp.float32))
    # 1 / (x (1 - x)): inf at 0 and 1, -0 at +-inf (was NaN at all four).
    want = [-0.0, -1 / 6, -np.inf, np.inf, 1001.001, np.inf, -0.0]
    np.testing.assert_allclose(g[:7], want, rtol=1e-6)
    assert np.signbit(g[[0, 6]]).all()
    assert np.isnan(g[7])


def test_exp1_derivative_is_nan_where_exp1_is():
    g = _vgrad(sp.exp1, jnp.array(_X, jnp.float32))
    assert np.isnan(g[[0, 1, 7]]).all()  # was finite (-e^-x / x) for x < 0
    np.testing.assert_allclose(g[2:6], [np.inf, -np.inf, -999.00043, -0.36787945], rtol=1e-6)


@pytest.mark.parametrize("dtype", [jnp.float32, jnp.bfloat16])
def test_gammaln_of_minus_infinity_is_plus_infinity(dtype):
    # SciPy's gammaln(-inf) is -inf; JAX (and C99 lgamma) give +inf.
    x = jnp.array([-np.inf, -2.5, 0.5], dtype)
    for fn in (sp.gammaln, jaxlite.lax.lgamma, jaxlite.jit(sp.gammaln)):
        out = np.asarray(fn(x), np.float64)
        assert out[0] == np.inf
        np.testing.assert_allclose(out[1:], [-0.05624372, 0.5723649], rtol=1e-2)
    assert float(sp.gammaln(-np.inf)) == np.inf
