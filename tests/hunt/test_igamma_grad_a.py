"""``lax.igamma_grad_a``, ``lax.random_gamma_grad`` and the derivative of
``gammainc``/``gammaincc`` in ``a`` (which raised NotImplementedError), against real JAX
0.10.2 on a grid from tiny to large shapes and arguments, in float32 and float64."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")
import jax  # noqa: E402
import jax.scipy.special  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.scipy.special  # noqa: E402,F401

A = np.array([1e-3, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 30.0, 100.0])
# (x = inf left out: JAX gives NaN there, jaxlite the limit 0; docs/compat.md)
X = np.array([0.0, 1e-5, 0.1, 1.0, 2.0, 10.0, 50.0, 200.0, 1e4])
AA, XX = (t.ravel() for t in np.meshgrid(A, X))


def _close(got, want, rtol, atol):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("x64", [False, True])
def test_igamma_grad_a_and_gammainc_derivatives_match_jax(x64):
    dt, rtol, atol = (np.float64, 1e-7, 1e-12) if x64 else (np.float32, 2e-4, 1e-6)
    a, x = AA.astype(dt), XX.astype(dt)
    with jax.enable_x64(x64), jaxlite.enable_x64(x64):
        want = jax.lax.igamma_grad_a(a, x)
        got = jaxlite.lax.igamma_grad_a(a, x)
        assert got.dtype == want.dtype
        _close(got, want, rtol, atol)
        for name, sign in (("gammainc", 1), ("gammaincc", -1)):
            g = jaxlite.vmap(jaxlite.grad(getattr(jaxlite.scipy.special, name)))(a, x)
            _close(g, sign * np.asarray(want, np.float64), rtol, atol)


def test_random_gamma_grad_matches_jax():
    a = np.array([0.01, 0.3, 0.5, 1.0, 2.0, 7.5, 40.0], np.float32)
    x = np.array([1e-8, 0.05, 0.3, 1.2, 1.7, 6.0, 45.0], np.float32)
    _close(jaxlite.lax.random_gamma_grad(a, x), jax.lax.random_gamma_grad(a, x), 2e-4, 1e-6)


def test_lax_level_dtype_errors_match_jax():
    for args in [(np.float32(1), np.float16(2)), (np.int32(1), np.int32(2))]:
        for name in ("igamma_grad_a", "random_gamma_grad"):
            with pytest.raises(TypeError) as want:
                getattr(jax.lax, name)(*args)
            with pytest.raises(TypeError) as got:
                getattr(jaxlite.lax, name)(*args)
            if name == "igamma_grad_a":  # JAX's random_gamma_grad message comes from lax.gt
                assert str(got.value) == str(want.value)
