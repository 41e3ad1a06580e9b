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


# --- jnp.ldexp (fuzz seed 23200175) -------------------------------------------------------
# It was x1 * exp2(x2): 0 * 2**200 was NaN, 1e-30 * 2**200 overflowed, float32 exp2(127)
# was not 2**127, and the derivative at 0 and inf was 2**x2 where JAX's is 1.


@pytest.mark.parametrize(
    "x1,x2,want",
    [
        (0.0, 200, 0.0),
        (-0.0, 300, -0.0),
        (1e-30, 200, float(np.float32(1e-30)) * 2.0**200),
        (3.0, -100, 3.0 * 2.0**-100),
        (1.0, 127, 2.0**127),
        (1.5, 128, np.inf),
        (np.inf, -500, np.inf),
        (-np.inf, 5, -np.inf),
    ],
)
@pytest.mark.parametrize("int_dtype", [np.int32, np.int16])
def test_ldexp_splits_the_exponent_off_first(x1, x2, want, int_dtype):
    jnp = jax.numpy
    for f in (jnp.ldexp, jax.jit(jnp.ldexp)):
        got = f(F32(x1), int_dtype(x2))
        assert got.dtype == np.float32
        assert np.asarray(got).tobytes() == F32(want).tobytes(), (f, x1, x2, got)


def test_ldexp_derivative_is_one_at_zeros_and_infinities():
    x = np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -2.5, 1e20], F32)
    g = np.asarray(jax.vmap(jax.grad(lambda v: jax.numpy.ldexp(v, 3)))(x))
    assert g[:4].tolist() == [1.0, 1.0, 1.0, 1.0]
    # elsewhere 2**3; JAX's last bits come from XLA's approximate exp2 in frexp's JVP
    np.testing.assert_allclose(g[4:], 8.0, rtol=1e-5)


def test_ldexp_matches_jax_on_normal_numbers():
    real = pytest.importorskip("jax")
    x = np.array([0.0, -0.0, 1.0, -3.5, 2e-38, 1e-30, 3e38, np.inf, np.nan, 0.7], F32)
    for n in (0, 3, -3, 100, 200, 254, 280, -126, -149, -300, 127, 128):
        for idt in (np.int32, np.int8):
            nn = idt(np.clip(n, np.iinfo(idt).min, np.iinfo(idt).max))
            a = np.asarray(jax.numpy.ldexp(x, nn))
            b = np.asarray(real.numpy.ldexp(x, nn))
            normal = ~((np.abs(a) < np.finfo(F32).tiny) & (a != 0))  # XLA flushes subnormals
            assert a[normal].tobytes() == b[normal].tobytes(), (n, idt, a, b)


@pytest.mark.parametrize("dtype", [np.uint16, np.int8, np.int32, np.uint32])
@pytest.mark.parametrize("shape", [(0,), (2, 0)])
def test_bitwise_count_of_an_empty_array(dtype, shape):
    # fuzz seed 23200452: the kernel reshaped the bytes with a -1 an empty array cannot infer
    x = jax.numpy.zeros(shape, dtype)
    for f in (jax.numpy.bitwise_count, jax.jit(jax.numpy.bitwise_count), jax.lax.population_count):
        out = f(x)
        assert out.shape == shape
