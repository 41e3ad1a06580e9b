"""Regression tests for wrong answers found by a differential sweep of complex
elementwise functions at branch cuts and infinities against JAX 0.10.2 (session 9).
Expected values are JAX 0.10.2's, printed by it and hard-coded.

Before the fix: complex ``log10``/``log2`` divided log(z) by log(base) + 0j with NumPy's
complex division, which turns the finite phase of an infinite logarithm into NaN:
log10(-inf + 0j) was inf + nanj where JAX gives inf + 1.3643764j."""

import numpy as np
import pytest

import jaxlite
import jaxlite.numpy as jnp

Z = np.array(
    [complex(-np.inf, 0), complex(-np.inf, -np.inf), complex(np.inf, 2), 3 - 4j, -0.5 + 1e-30j],
    np.complex64,
)
WANT = {
    "log10": [
        np.inf + 1.364376425743103j,
        np.inf - 1.0232822895050049j,
        np.inf + 0j,
        0.6989700198173523 - 0.4027191996574402j,
        -0.3010300099849701 + 1.364376425743103j,
    ],
    "log2": [
        np.inf + 4.532360076904297j,
        np.inf - 3.3992700576782227j,
        np.inf + 0j,
        2.321928024291992 - 1.3378041982650757j,
        -1 + 4.532360076904297j,
    ],
}
GRAD = {
    "log10": [0.052115339785814285 + 0.06948711723089218j, -0.8685889840126038 - 1.7371779e-30j],
    "log2": [0.17312340438365936 + 0.23083120584487915j, -2.885390043258667 - 5.7707801e-30j],
}


@pytest.mark.parametrize("name", ["log10", "log2"])
def test_complex_log_in_base_keeps_the_phase_of_an_infinite_log(name):
    f = getattr(jnp, name)
    for out in (f(Z), jaxlite.jit(f)(Z)):
        assert out.dtype == np.complex64 and not out.weak_type
        np.testing.assert_allclose(np.asarray(out), WANT[name], rtol=1e-6)
    g = jaxlite.grad(lambda x: f(x).real.sum())(Z[3:])
    np.testing.assert_allclose(np.asarray(g), GRAD[name], rtol=1e-6)
    assert f(1 + 1j).dtype == np.complex64 and not f(1 + 1j).weak_type  # as JAX
