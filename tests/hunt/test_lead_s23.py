"""Session 23 (lead): differences the differential fuzzer (tests/fuzz) found on fresh seeds,
reduced; expectations are JAX 0.10.2's answers, checked against JAX where it is installed."""

from __future__ import annotations

import numpy as np
import pytest

import jaxlite as jax

F32 = np.float32


def _ndtri_vjp(mod, p, ct):
    _, pullback = mod.vjp(mod.scipy.special.ndtri, F32(p))
    return float(pullback(F32(ct))[0])


@pytest.mark.parametrize("p", [0.0, -0.0, 1.0])
@pytest.mark.parametrize("ct", [1.0, np.inf, -np.inf, 0.0])
def test_ndtri_derivative_is_zero_where_ndtri_is_infinite(p, ct):
    # fuzz seed 23101602: square(ndtri(0)) under grad: the cotangent -inf met a derivative
    # of 0 by multiplication (NaN); JAX's derivative there is a dropped branch (0).
    assert _ndtri_vjp(jax, p, ct) == 0.0
    assert float(jax.jvp(jax.scipy.special.ndtri, (F32(p),), (F32(ct),))[1]) == 0.0


@pytest.mark.parametrize("p", [0.38, 0.05, 0.999, 1e-30])
def test_ndtri_derivative_inside_the_domain(p):
    # finite cotangents: sqrt(2 pi) exp(ndtri(p)**2 / 2); an infinite one: NaN, as JAX's
    # derivative of its own approximation gives (fuzz seed 23101205: ndtri(x) / 0.0)
    from scipy import special

    want = np.sqrt(2 * np.pi) * np.exp(special.ndtri(np.float64(F32(p))) ** 2 / 2)
    np.testing.assert_allclose(_ndtri_vjp(jax, p, 1.0), want, rtol=1e-5)
    assert np.isnan(_ndtri_vjp(jax, p, np.inf)) and np.isnan(_ndtri_vjp(jax, p, -np.inf))
    assert np.isnan(float(jax.jvp(jax.scipy.special.ndtri, (F32(p),), (F32(np.inf),))[1]))
    assert _ndtri_vjp(jax, p, 0.0) == 0.0


def test_ndtri_derivatives_match_jax():
    real = pytest.importorskip("jax")
    for p in (0.0, 1.0, 0.38, 1e-30):
        for ct in (1.0, np.inf, 0.0):
            a, b = _ndtri_vjp(jax, p, ct), _ndtri_vjp(real, p, ct)
            assert (np.isnan(a) and np.isnan(b)) or np.isclose(a, b, rtol=1e-5), (p, ct, a, b)


def test_fuzz_seed_23101602_grad_through_scan_and_ndtri():
    def f(x0):
        v1 = jax.scipy.special.xlogy(x0, 1.0)
        v2 = jax.lax.scan(lambda c, x: (c * 0.5 + x, jax.numpy.sin(c)), v1[0], v1, unroll=2)[0]
        return jax.numpy.sum(jax.numpy.square(jax.scipy.special.ndtri(v2)))

    g = jax.grad(f)(np.array([-1.2], F32))
    assert np.asarray(g).tolist() == [0.0]
