"""jax.lax.linalg.svd returns (u, s, vh) as JAX 0.10.2 does (it returned (s, u, vh), so a
caller unpacking ``u, s, vh`` silently got the singular values as ``u``)."""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite.lax import linalg as lax_linalg


@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("shape", [(3, 2), (2, 4), (2, 3, 3)])
def test_lax_svd_returns_u_s_vh(shape, full_matrices):
    x = np.random.default_rng(0).normal(size=shape).astype(np.float32)
    u, s, vh = lax_linalg.svd(x, full_matrices=full_matrices)
    m, n = shape[-2:]
    k = min(m, n)
    assert s.shape == shape[:-2] + (k,)
    assert u.shape == shape[:-2] + ((m, m) if full_matrices else (m, k))
    assert vh.shape == shape[:-2] + ((n, n) if full_matrices else (k, n))
    recon = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    np.testing.assert_allclose(recon, x, atol=1e-5)
    np.testing.assert_allclose(s, np.linalg.svd(x, compute_uv=False), rtol=1e-5)


def test_lax_svd_compute_uv_false_and_under_jit_matches_jnp():
    x = np.random.default_rng(1).normal(size=(4, 3)).astype(np.float32)
    s = lax_linalg.svd(x, compute_uv=False)
    np.testing.assert_allclose(s, jnp.linalg.svd(x, compute_uv=False), rtol=1e-6)
    u, s2, vh = jax.jit(lambda a: lax_linalg.svd(a, full_matrices=False))(x)
    ju, js, jvh = jnp.linalg.svd(x, full_matrices=False)
    np.testing.assert_allclose(np.abs(u), np.abs(ju), atol=1e-5)
    np.testing.assert_allclose(s2, js, rtol=1e-6)
    np.testing.assert_allclose(np.abs(vh), np.abs(jvh), atol=1e-5)


def test_lax_svd_order_matches_jax():
    import jax.lax.linalg as jax_linalg  # the oracle

    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    ours = [a.shape for a in lax_linalg.svd(x)]
    theirs = [a.shape for a in jax_linalg.svd(x)]
    assert ours == theirs == [(3, 3), (2,), (2, 2)]
