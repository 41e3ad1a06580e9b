"""Pins of the differences the session-27 batching sweep of ``jnp`` (tests/hunt/sweep_vmap_s27.py)
found: each compared with JAX where JAX is importable, else with a Python loop over the batch
or a value computed here without jaxlite."""

from __future__ import annotations

import numpy as np
import scipy.special

import jaxlite
import jaxlite.numpy as jnp

try:
    import jax
    import jax.numpy as jax_np
except ImportError:
    jax = None

F32_EDGES = np.array(
    [
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.5,
        -3.0,
        50.0,
        88.0,
        88.8,
        89.0,
        -89.0,
        100.0,
        np.inf,
        -np.inf,
        np.nan,
    ],
    np.float32,
)


def test_i0_derivative_is_jaxs_product_rule():
    # Before: t * exp(|x|) * i1e(x), inf where exp(|x|) overflows (x >= 88.8 in float32);
    # JAX differentiates exp(|x|) * i0e(|x|) term by term, and the two infinite terms cancel
    # to NaN there. Found as vmap-of-grad differences at x = 100.
    x = F32_EDGES
    got = np.asarray(jaxlite.vmap(jaxlite.grad(jnp.i0))(x))
    got_jvp = np.asarray(jaxlite.jvp(jnp.i0, (x,), (np.ones_like(x),))[1])
    np.testing.assert_array_equal(got, got_jvp)
    finite = np.abs(x) <= 88.0
    # i0' = i1 (SciPy's, in float64)
    i1 = scipy.special.i1(x[finite].astype(np.float64))
    np.testing.assert_allclose(got[finite], i1, rtol=2e-5)
    assert np.isnan(got[~finite]).all()
    if jax is not None:
        want = np.asarray(jax.vmap(jax.grad(jax_np.i0))(x))
        np.testing.assert_allclose(got, want, rtol=2e-5, equal_nan=True)
