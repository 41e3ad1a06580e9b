"""Session 25's derivative sweep (tests/hunt/sweep_ad_s25.py): the families it found wrong,
pinned with reduced cases. Each case is compared with JAX where JAX is importable
(tests/hunt/oracle.py) and asserted against a hand-derived value in any case.

* reduce_max / reduce_min: over a slice holding a NaN nothing attains the extremum, so the
  JVP's tie count is 0 and the derivative NaN at every position of the slice; the JVP said
  so, but its transpose gave 0 there (jnp.max / min / amax / amin / ptp and the functions
  built on them).
* complex ``abs``: ``conj(x) / |x|`` was 0 / 0 at 0; JAX reads ``|x|`` as 1 there, so the
  derivative is 0 (``abs``, ``absolute``, ``nn.soft_sign``).
* ``cholesky`` of a matrix that is not positive definite: the JVP's ``L @ phi`` and its
  ``0 * inner`` leaked NaN into dL's upper triangle, which JAX selects to 0.
* ``conv_general_dilated`` with an infinite or NaN kernel entry over padding: XLA adds
  nothing for padding, NumPy's ``0 * inf`` gave NaN, so ``correlate`` / ``convolve``
  cotangents were NaN where the derivative is finite.
* ``rel_entr`` / ``kl_div``: ``p log(p / q)``'s derivative in ``p`` at ``q = inf`` was
  ``0 / 0``; JAX's ``xlogx(p) - xlogy(p, q)`` gives ``-inf``.
* ``vmap`` of a function with a float0 output (a JVP of an integer function) returned an
  Array; JAX returns a NumPy array.
"""

import numpy as np
import pytest

from tests.hunt.oracle import same

NAN_ROWS = np.array([[1.0, np.nan, 2.0], [0.0, -1.0, 3.0]], np.float32)


@pytest.mark.parametrize("name", ["max", "min", "amax", "ptp"])
def test_extremum_vjp_nan_slice(name):
    def build(m):
        f = lambda x: getattr(m.jnp, name)(x, axis=1)  # noqa: E731
        out, pb = m.jx.vjp(f, NAN_ROWS)
        return out, pb(np.full(2, 1.5, np.float32))

    (out, (ct,)) = same(build, signs=False)
    ct = np.asarray(ct)
    assert np.isnan(ct[0]).all()  # the NaN row: NaN everywhere, as its JVP
    expected = {"max": [0, 0, 1.5], "amax": [0, 0, 1.5], "min": [0, 1.5, 0], "ptp": [0, 1.5, 1.5]}
    np.testing.assert_array_equal(np.abs(ct[1]), np.abs(expected[name]))


def test_extremum_jvp_and_grad_agree_on_nan_slice():
    def build(m):
        f = lambda x: m.jnp.min(x, axis=0)  # noqa: E731
        t = np.ones((2, 3), np.float32)
        return m.jx.jvp(f, (NAN_ROWS,), (t,)), m.jx.grad(lambda x: f(x).sum())(NAN_ROWS)

    (_, tan), g = same(build, signs=False)
    np.testing.assert_array_equal(np.isnan(np.asarray(tan)), [False, True, False])
    np.testing.assert_array_equal(np.isnan(np.asarray(g)), [[0, 1, 0], [0, 1, 0]])


def test_extremum_without_nan_unchanged():
    x = np.array([[1.0, 2.0, 2.0], [3.0, -1.0, 0.0]], np.float32)

    def build(m):
        return m.jx.grad(lambda x: m.jnp.max(x, axis=1).sum())(x)

    np.testing.assert_array_equal(same(build), [[0, 0.5, 0.5], [1, 0, 0]])


def test_complex_abs_derivative_at_zero():
    z = np.array([0j, 1 + 1j, -2 + 0j], np.complex64)

    def build(m):
        t = np.array([1 + 2j] * 3, np.complex64)
        return (
            m.jx.jvp(m.jnp.abs, (z,), (t,))[1],
            m.jx.grad(lambda z: m.jnp.abs(z).sum())(z),
            m.jx.grad(lambda z: m.jx.nn.soft_sign(z).real.sum())(z),
        )

    tan, g, gs = same(build, signs=False)
    np.testing.assert_allclose(np.asarray(tan), [0, 3 / np.sqrt(2), -1], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(g), [0, (1 - 1j) / np.sqrt(2), -1], rtol=1e-6)
    assert np.asarray(gs)[0] == 1  # soft_sign(z) = z / (1 + |z|): 1 at 0


def test_cholesky_jvp_upper_triangle_is_zero():
    def build(m):
        t = np.arange(9.0, dtype=np.float32).reshape(3, 3)
        return m.jx.jvp(m.jnp.linalg.cholesky, (np.zeros((3, 3), np.float32),), (t + t.T,))

    L, dL = same(build, signs=False)
    upper = np.triu_indices(3, 1)
    assert (np.asarray(L)[upper] == 0).all() and (np.asarray(dL)[upper] == 0).all()
    assert np.isnan(np.asarray(dL)[np.tril_indices(3)]).all()


def test_conv_padding_with_infinite_kernel():
    x = np.array([[[1.0, 2.0]]], np.float32)
    w = np.array([[[1.0, np.inf, 2.0]]], np.float32)

    def build(m):
        return m.lax.conv_general_dilated(x, w, (1,), [(2, 2)])

    np.testing.assert_array_equal(same(build), [[[2, np.inf, np.inf, 2]]])


@pytest.mark.parametrize("mode", ["valid", "full"])
def test_correlate_cotangent_with_infinite_operand(mode):
    a = np.array([0.1, 0.5, 0.3, 0.7, 0.2, 0.9], np.float32)
    v = np.array([1.0, np.inf, -1.0, 2.0, 0.5, 3.0], np.float32)

    def build(m):
        out, pb = m.jx.vjp(lambda a: m.jnp.correlate(a, v, mode), a)
        return pb(np.ones(out.shape, np.float32))

    (ct,) = same(build, signs=False)
    if mode == "valid":  # d/da_i sum_n a_n v_n = v_i
        np.testing.assert_array_equal(ct, v)
    else:  # every a_i meets every v_j once
        np.testing.assert_array_equal(ct, np.full(6, np.inf, np.float32))


def test_rel_entr_derivative_at_infinite_q():
    p = np.array([1.0, 0.5, 2.0], np.float32)
    q = np.array([np.inf, np.inf, 1.0], np.float32)

    def build(m):
        dp = np.ones(3, np.float32)
        return (
            m.jx.jvp(lambda p: m.sp.rel_entr(p, q), (p,), (dp,))[1],
            m.jx.jvp(lambda p: m.sp.kl_div(p, q), (p,), (dp,))[1],
        )

    d_rel, d_kl = same(build, signs=False)
    # d/dp p log(p / q) = log(p / q) + 1; kl_div subtracts p
    np.testing.assert_allclose(np.asarray(d_rel), [-np.inf, -np.inf, np.log(2) + 1], rtol=1e-6)
    np.testing.assert_allclose(np.asarray(d_kl), [-np.inf, -np.inf, np.log(2)], rtol=1e-6)


def test_vmap_float0_output_is_numpy():
    x = np.array([[1, 2], [3, 4]], np.int32)

    def build(m):
        f0 = np.zeros((2, 2), m.jx.dtypes.float0)
        _, t = m.jx.vmap(lambda x, t: m.jx.jvp(m.jnp.negative, (x,), (t,)))(x, f0)
        g = m.jx.vmap(m.jx.grad(lambda x: (x * 2.0).sum(), allow_int=True))(x)
        return t, g

    t, g = same(build)
    for r in (t, g):
        assert isinstance(r, np.ndarray) and r.shape == (2, 2) and "float0" in str(r.dtype)


@pytest.mark.parametrize("method", ["linear", "lower", "midpoint"])
def test_quantile_nan_slice_derivative_in_q(method):
    a = np.array([[1.0, np.nan, 2.0, 0.0], [1.0, 2.0, 3.0, 4.0]], np.float32)
    q = np.array([0.1, 0.5], np.float32)

    def build(m):
        f = lambda a, q: m.jnp.quantile(a, q, axis=1, method=method)  # noqa: E731
        ones_a, ones_q = np.ones_like(a), np.ones_like(q)
        return (
            f(a, q),
            m.jx.jvp(lambda a: f(a, q), (a,), (ones_a,))[1],
            m.jx.jvp(lambda q: f(a, q), (q,), (ones_q,))[1],
        )

    val, da, dq = (np.asarray(r) for r in same(build, signs=False))
    assert np.isnan(val[:, 0]).all() and not np.isnan(val[:, 1]).any()
    np.testing.assert_array_equal(da, np.where([[0, 1], [0, 1]], 1.0, 0.0))  # 0 in the NaN row
    # linear: the interpolation weights meet the NaN values (JAX's NaN); else no q-derivative
    expected_dq = np.array([[np.nan, 3.0]] * 2) if method == "linear" else np.zeros((2, 2))
    np.testing.assert_array_equal(dq, expected_dq)


def test_multigammaln_keeps_half_precision_and_is_strong():
    def build(m):
        x16 = np.array([1.5, 2.5, 7.0], np.float16)
        return m.sp.multigammaln(x16, 2), m.sp.multigammaln(2.5, 2)

    r16, r = same(build, rtol=2e-3, atol=2e-3)
    assert r16.dtype == np.float16 and not r.weak_type
    np.testing.assert_allclose(
        float(r), 0.8570479, rtol=1e-6
    )  # log(pi)/2 + lgamma(2.5) + lgamma(2)


@pytest.mark.parametrize("arg, name", [(0, "gt"), (1, "gt"), (2, "lt")])
def test_clamp_complex_derivative_refused(arg, name):
    from jaxlite import jvp, lax

    x = np.array([1 + 1j], np.complex64)
    args = [x * 0, x, x * 2]

    def f(v):
        return lax.clamp(*[v if i == arg else a for i, a in enumerate(args)])

    np.testing.assert_array_equal(f(args[arg]), x)  # the value is computed
    with pytest.raises(TypeError, match=f"^{name} does not accept dtype complex64 at position 0"):
        jvp(f, (args[arg],), (args[arg],))


def test_lstsq_derivative_where_singular_values_repeat():
    # [[2,1,1],[1,2,1],[1,1,2]] has singular values 4, 1, 1; the identity 1, 1, 1: the
    # solution inv(a) b is smooth there, but the SVD's derivative divides by s_i - s_j = 0
    # (JAX's LAPACK returns inexact ties for the first: large terms that cancel; exact for
    # the identity: NaN, docs/compat.md)
    a = np.array([[2.0, 1.0, 1.0], [1.0, 2.0, 1.0], [1.0, 1.0, 2.0]], np.float32)
    t = np.arange(9.0, dtype=np.float32).reshape(3, 3) / 9
    b = np.ones((3, 2), np.float32)

    def build(m):
        return m.jx.jvp(lambda a, b: m.jnp.linalg.lstsq(a, b)[0], (a, b), (t, t[:, :2]))[1]

    ainv = np.linalg.inv(a.astype(np.float64))
    expected = -ainv @ t @ ainv @ b + ainv @ t[:, :2]
    np.testing.assert_allclose(same(build, rtol=1e-4, atol=1e-5), expected, rtol=1e-5, atol=1e-6)
    from jaxlite import jvp, numpy as lnp

    eye = np.eye(3, dtype=np.float32)
    dx = jvp(lambda a: lnp.linalg.lstsq(a, b)[0], (eye,), (t,))[1]
    np.testing.assert_allclose(dx, -t @ b, rtol=1e-6)  # JAX: NaN
