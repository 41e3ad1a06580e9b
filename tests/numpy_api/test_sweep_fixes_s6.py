"""Wrong answers and refusals found by a session-6 sweep of jax.numpy against JAX (one
input of each dtype through every function). Each case is JAX's behaviour (oracle mode).

* ``lax.complex`` built ``x + 1j * y``: ``1j * inf`` is ``nan + inf j`` and the sign of a
  zero real part was lost; now the parts are stored as they are.
* ``jnp.isfinite`` and ``jnp.round`` refused complex input.
* ``jnp.bincount`` dropped negative values (JAX counts them in bin 0) and refused booleans.
* ``jnp.cumulative_sum`` of small integers kept their dtype (JAX accumulates them like
  ``jnp.sum``: ``uint8 -> uint32``; ``cumsum`` and ``cumulative_prod`` keep it).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

F32 = np.float32


def _bits(z):
    z = np.asarray(z)
    return np.signbit(z.real).tolist(), z.real.tolist(), z.imag.tolist()


@pytest.mark.parametrize("mode", ["eager", "jit", "vmap"])
def test_lax_complex_keeps_infinities_and_signed_zeros(mode):
    re = np.array([1.0, -0.0, np.inf, 2.0, np.nan], F32)
    im = np.array([np.inf, 2.0, -0.0, -np.inf, 1.0], F32)
    fn = {"eager": lax.complex, "jit": jax.jit(lax.complex), "vmap": jax.vmap(lax.complex)}[mode]
    got = np.asarray(fn(re, im))
    assert got.dtype == np.complex64
    np.testing.assert_array_equal(got.real, re)
    np.testing.assert_array_equal(got.imag, im)
    assert np.signbit(got.real).tolist() == np.signbit(re).tolist()
    assert np.signbit(got.imag).tolist() == np.signbit(im).tolist()


def test_lax_complex_broadcasts_a_scalar_part():
    got = np.asarray(lax.complex(np.array([1.0, 2.0], F32), F32(np.inf)))
    np.testing.assert_array_equal(got.real, [1.0, 2.0])
    np.testing.assert_array_equal(got.imag, [np.inf, np.inf])


def test_isfinite_of_complex():
    z = np.array([1 + 1j, np.inf + 0j, complex(0, np.nan), complex(2.5, -np.inf)], np.complex64)
    assert jnp.isfinite(z).tolist() == [True, False, False, False]


def test_round_of_complex_rounds_each_part():
    z = np.array([1.25 + 2.55j, -0.5 + 1.5j, 2.5 - 3.5j], np.complex64)
    got = np.asarray(jnp.round(z))
    assert got.dtype == np.complex64
    np.testing.assert_array_equal(got.real, [1.0, -0.0, 2.0])
    np.testing.assert_array_equal(got.imag, [3.0, 2.0, -4.0])
    assert np.signbit(got.real).tolist() == [False, True, False]
    got1 = np.asarray(jnp.around(z, 1))
    np.testing.assert_allclose(got1.real, [1.2, -0.5, 2.5], rtol=1e-6)
    np.testing.assert_allclose(got1.imag, [2.6, 1.5, -3.5], rtol=1e-6)


def test_bincount_counts_negatives_in_bin_zero():
    assert jnp.bincount(np.array([1, -2, 3])).tolist() == [1, 1, 0, 1]
    assert jnp.bincount(np.array([-1, -1, 1, 3, 10]), length=5).tolist() == [2, 1, 0, 1, 0]
    assert jnp.bincount(np.array([-1])).tolist() == [1]
    assert jnp.bincount(np.array([-1]), minlength=2).tolist() == [1, 0]
    assert jnp.bincount(np.array([True, False, True])).tolist() == [1, 2]
    w = jnp.bincount(np.array([-3, 0, 2]), weights=np.array([0.5, 1.0, 2.0], F32))
    np.testing.assert_allclose(np.asarray(w), [1.5, 0.0, 2.0])
    f = jax.jit(lambda x: jnp.bincount(x, length=3))
    assert f(np.array([-5, 1, 1, 7])).tolist() == [1, 2, 0]


@pytest.mark.parametrize(
    "dtype, want",
    [(np.uint8, np.uint32), (np.int8, np.int32), (np.int16, np.int32), (np.bool_, np.int32)],
)
def test_cumulative_sum_accumulates_like_sum(dtype, want):
    x = np.array([1, 1, 0], dtype)
    got = jnp.cumulative_sum(x)
    assert got.dtype == want
    assert got.tolist() == [1, 2, 2]
    assert jnp.cumulative_sum(x, include_initial=True).tolist() == [0, 1, 2, 2]
    if dtype is not np.bool_:
        assert jnp.cumsum(x).dtype == dtype
        assert jnp.cumulative_prod(x).dtype == dtype


# Binary functions (a second sweep, every pair of input dtypes):
# * logaddexp/logaddexp2 of complex operands were wrong (the real-operand formula with the
#   complex abs); now the principal branch of log(exp(a) + exp(b)), as in JAX;
# * ldexp accepted float exponents (JAX raises ValueError);
# * convolve/correlate of integers stayed integer (JAX convolves in the default float);
# * logical_and/or/xor of a strongly typed array and a Python scalar came out weak.
def test_complex_logaddexp_principal_branch():
    a = np.array([1 + 1j, -2j, 3, 5 + 3j, -1 - 3j], np.complex64)
    b = np.array([2, 1j, -1, 2 - 2j, 4 + 3j], np.complex64)
    a128, b128 = a.astype(np.complex128), b.astype(np.complex128)
    got = np.asarray(jnp.logaddexp(a, b))
    assert got.dtype == np.complex64
    np.testing.assert_allclose(got, np.log(np.exp(a128) + np.exp(b128)), rtol=1e-5, atol=1e-5)
    got2 = np.asarray(jnp.logaddexp2(a, b))
    np.testing.assert_allclose(got2, np.log2(2**a128 + 2**b128), rtol=1e-5, atol=1e-5)
    mixed = np.asarray(jnp.logaddexp(np.float32(1.0), np.complex64(1 + 1j)))
    np.testing.assert_allclose(mixed, np.log(np.e + np.exp(1 + 1j)), rtol=1e-6)


def test_ldexp_requires_integer_exponent():
    with pytest.raises(ValueError, match="ldexp not supported for input types"):
        jnp.ldexp(np.float32(1), np.float32(2))
    with pytest.raises(ValueError, match="ldexp not supported for input types"):
        jnp.ldexp(np.array([1.0], np.float32), 2.5)
    assert float(jnp.ldexp(np.int32(3), np.int8(2))) == 12.0
    assert jnp.ldexp(np.array([3]), np.uint8(2)).dtype == np.float32
    assert jnp.ldexp(np.float32(1.5), np.array([True])).tolist() == [3.0]


@pytest.mark.parametrize("fn", [jnp.convolve, jnp.correlate])
def test_convolve_integers_in_float(fn):
    out = fn(np.array([1, 2, 3], np.int32), np.array([1, 1], np.int8), mode="full")
    assert out.dtype == np.float32
    assert fn(np.array([True, False]), np.array([True])).dtype == np.float32
    f16 = fn(np.array([1.0, 2.0], np.float16), np.array([1], np.int8))
    assert f16.dtype == np.float16


@pytest.mark.parametrize("fn", [jnp.logical_and, jnp.logical_or, jnp.logical_xor])
def test_logical_weak_type(fn):
    assert not fn(np.array([True, False]), 3).weak_type
    assert not fn(np.array([1, 0], np.int32), 2.5).weak_type
    assert not fn(2, np.array([1.0], np.float32)).weak_type
    assert fn(True, 3).weak_type
    assert fn(2.5, 3).weak_type


def test_column_stack_of_scalars():
    # A 1-D array is a sequence of scalars: each becomes a 1x1 column (it raised IndexError).
    np.testing.assert_array_equal(np.asarray(jnp.column_stack(np.array([1.0, 2, 3]))), [[1, 2, 3]])
    np.testing.assert_array_equal(np.asarray(jnp.column_stack([1, 2])), [[1, 2]])
    mixed = jnp.column_stack([np.array([1, 2]), np.array([[3], [4]])])
    np.testing.assert_array_equal(np.asarray(mixed), [[1, 3], [2, 4]])


def test_quantile_nearest_takes_the_lower_neighbour_at_a_half():
    # JAX picks the lower of two equally near order statistics (NumPy rounds half to even).
    x = np.arange(4.0, dtype=np.float32)  # position 0.5 * 3 = 1.5
    assert float(jnp.quantile(x, 0.5, method="nearest")) == 1.0
    assert float(jnp.percentile(x, 50.0, method="nearest")) == 1.0
    assert float(jnp.quantile(x, 0.7, method="nearest")) == 2.0
    y = np.array([5.0, 1.0, 4.0, 2.0, 3.0, 0.0], np.float32)  # position 2.5
    assert float(jnp.nanquantile(y, 0.5, method="nearest")) == 2.0


@pytest.mark.parametrize("fn", [jnp.quantile, jnp.nanquantile])
def test_quantile_rejects_lists(fn):
    with pytest.raises(TypeError, match="requires ndarray or scalar arguments"):
        fn(np.arange(3.0), [0.1])
    with pytest.raises(TypeError, match="requires ndarray or scalar arguments"):
        fn([1.0, 2.0], 0.1)


@pytest.mark.parametrize(
    "data, kw", [(np.array([3.0, 3.0, 3.0]), {"bins": 4}), (3, {}), (2.5, {"bins": 4})]
)
def test_histogram_of_constant_data_widens_the_range(data, kw):
    # An empty range (lo == hi) becomes [lo - 0.5, hi + 0.5], as in NumPy and JAX (jaxlite
    # gave edges all equal to the value, so every count fell in the last bin).
    want = np.histogram_bin_edges(np.atleast_1d(np.asarray(data, np.float64)), **kw)
    got = np.asarray(jnp.histogram_bin_edges(data, **kw))
    np.testing.assert_allclose(got, want, rtol=1e-6)
    counts, edges = jnp.histogram(np.array([3.0, 3.0, 3.0]), bins=4)
    assert np.asarray(counts).tolist() == [0, 0, 3, 0]
    np.testing.assert_allclose(np.asarray(edges), [2.5, 2.75, 3.0, 3.25, 3.5])
    explicit = jnp.histogram_bin_edges(np.array([1.0, 2.0]), bins=2, range=(2.0, 2.0))
    np.testing.assert_allclose(np.asarray(explicit), [1.5, 2.0, 2.5])


@pytest.mark.parametrize(
    "args, kw",
    [
        ((-3.5, 7.0, 11), {}),
        ((0.0, 1.0, 7), {}),
        ((np.array([0.0, 1.0], F32), np.array([1.0, 3.0], F32), 4), {"axis": -1}),
        ((1, 10, 5), {"endpoint": False}),
        ((0, 10, 4), {"dtype": np.int32}),
    ],
)
def test_linspace_eager_equals_jit(args, kw):
    # One formula for both (JAX's start * (1 - t) + stop * t in the result dtype); eager
    # jaxlite used NumPy's float64 linspace and traced code start + i * step.
    eager = np.asarray(jnp.linspace(*args, **kw))
    arrays = [jnp.asarray(a) for a in args[:2]]
    traced = np.asarray(jax.jit(lambda s, e: jnp.linspace(s, e, args[2], **kw))(*arrays))
    np.testing.assert_array_equal(eager, traced)
    want = np.linspace(*[np.asarray(a, np.float64) for a in args[:2]], args[2], **kw)
    np.testing.assert_allclose(eager, want.astype(eager.dtype), rtol=1e-6, atol=1e-6)


def test_linspace_dtype_follows_its_inputs():
    assert jnp.linspace(np.float16(0), np.float16(3), 4).dtype == np.float16
    assert jnp.linspace(0, 3, 4).dtype == np.float32
    assert jnp.linspace(1 + 1j, 3 - 2j, 4).dtype == np.complex64
    out, step = jnp.linspace(0.0, 1.0, 1, endpoint=False, retstep=True)
    assert out.tolist() == [0.0] and float(step) == 1.0
    assert jnp.linspace(0.0, 1.0, 0).shape == (0,)
    with pytest.raises(ValueError, match="must be non-negative"):
        jnp.linspace(0.0, 1.0, -1)
