"""Reductions at signed zeros and in their last bit, as JAX 0.10.2 (session 11 sweep of the
jnp reductions over edge-valued operands, every axis and keepdims, eager and jit):

* quantile/percentile/median (linear method) interpolate as JAX: ``lo * (1 - f) + hi * f``
  with XLA's fused multiply-add for the first product. jaxlite computed ``lo + (hi - lo) * f``:
  the median of ``[-0, -0, -0]`` was +0 (JAX -0) and ~18% of random float32 quantiles
  differed in the last bit.
* cumsum of a prefix of -0s is +0, as XLA adds every prefix to its +0 init (NumPy's cumsum
  kept -0), for float, bfloat16 and complex operands, forward and reverse, and nancumsum.

Expected values are JAX's (the file passes in oracle mode)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp

NEG_ZEROS = np.array([[-0.0, -0.0, -0.0], [-0.0, -0.0, -0.0]], np.float32)


@pytest.mark.parametrize("fn", ["median", "nanmedian"])
@pytest.mark.parametrize("jitted", [False, True])
def test_median_of_negative_zeros_is_negative_zero(fn, jitted):
    f = getattr(jnp, fn)
    g = jax.jit(lambda x: f(x, axis=1)) if jitted else (lambda x: f(x, axis=1))
    out = np.asarray(g(NEG_ZEROS))
    np.testing.assert_array_equal(out, [0.0, 0.0])
    np.testing.assert_array_equal(np.signbit(out), [True, True])  # -0 * 1 + -0 * 0


def _fma_interpolation(a, q):
    """JAX's linear quantile along the last axis of float32 ``a``, computed here."""
    s = np.sort(a, axis=-1)
    pos = np.float32(q) * np.float32(a.shape[-1] - 1)
    lo = np.floor(pos)
    hw = np.float32(pos - lo)
    lw = np.float32(1) - hw
    v_lo, v_hi = s[..., int(lo)], s[..., int(np.ceil(pos))]
    fused = v_lo.astype(np.float64) * lw + (v_hi * hw).astype(np.float64)  # one rounding
    return fused.astype(np.float32)


@pytest.mark.parametrize("q", [0.37, 0.5, 0.9])
def test_quantile_last_bit_is_xlas_fused_interpolation(q):
    a = (np.random.RandomState(1).randn(500, 7) * 10).astype(np.float32)
    out = np.asarray(jnp.quantile(a, q, axis=1))
    np.testing.assert_array_equal(out, _fma_interpolation(a, q))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, jnp.bfloat16, np.complex64])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum_of_negative_zero_prefixes_is_positive_zero(dtype, reverse):
    x = np.array([[-0.0, -0.0, 1.0, -0.0], [-0.0, 0.0, -0.0, -0.0]], np.float32).astype(dtype)
    if dtype == np.complex64:
        x = x + np.complex64(-0.0j)
    out = np.ascontiguousarray(jax.lax.cumsum(x, axis=1, reverse=reverse))
    parts = out.view(np.float32) if dtype == np.complex64 else out.astype(np.float32)
    assert not np.signbit(parts).any()
    assert set(np.unique(parts).tolist()) <= {0.0, 1.0}


def test_nancumsum_of_negative_zeros():
    out = np.asarray(jnp.nancumsum(np.array([-0.0, np.nan, -0.0], np.float32)))
    np.testing.assert_array_equal(out, [0.0, 0.0, 0.0])
    assert not np.signbit(out).any()


NANVAR_GRAD_CASES = [
    # (operand, kwargs): JAX's gradient has no NaN (the NaNs are skipped, and a slice with
    # no degree of freedom left divides by 1); jaxlite's was NaN (0 * NaN in the square's
    # derivative, 0 * (1 / 0) in the division).
    (np.array([2.0, np.nan], np.float32), {}),
    (np.array([2.0, np.nan], np.float32), {"ddof": 1}),
    (np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, 2.0]], np.float32), {"axis": -1}),
    (np.array([1 + 1j, np.nan, 2 - 1j], np.complex64), {}),
]


@pytest.mark.parametrize("case", range(len(NANVAR_GRAD_CASES)))
def test_nanvar_gradient_skips_nans(case):
    # (nanstd's is NaN where the variance is 0, through sqrt, in JAX too)
    x, kw = NANVAR_GRAD_CASES[case]
    g = np.asarray(jax.grad(lambda v: jnp.nanvar(v, **kw).sum().real)(x))
    assert np.isfinite(g).all(), g
    assert (g[np.isnan(x)] == 0).all()


def test_var_with_where_keeps_its_nan_gradient():
    # var (not nanvar) divides by the zero degrees of freedom: its gradient is NaN in JAX.
    x = np.array([[2.0, 3.0], [1.0, 5.0]], np.float32)
    w = np.array([[True, False], [True, True]])
    g = np.asarray(jax.grad(lambda v: jnp.var(v, axis=1, where=w, ddof=1).sum())(x))
    assert np.isnan(g[0, 0]) and g[0, 1] == 0
    np.testing.assert_allclose(g[1], [-4.0, 4.0])
