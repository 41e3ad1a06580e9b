"""Session 17: the own test suites of lineax 0.1.1, optimistix 0.1.0 and diffrax 0.7.2 run
with jaxlite installed as ``jax``; each jaxlite-only failure reduced here to plain jax/jnp.
Expected values are JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax.scipy.linalg.solve_triangular`` / ``cholesky`` (lineax's LU, QR and Cholesky
  solvers; the libraries' suites run with x64 on and ``jax_numpy_dtype_promotion="strict"``):
  jaxlite took the result dtype as ``result_type(a, b, float32)``, which strict promotion
  rejects for float64 operands (``TypePromotionError``), and which turned float16/bfloat16
  into float32. JAX promotes ``a`` and ``b`` to their common inexact dtype: float64 stays,
  float16 stays (computed by jaxlite in float32 and rounded back), integers go to float32.
* A ``custom_vjp``/``custom_jvp`` function defined inside ``grad`` inside ``jit``, whose
  rule closes over the differentiated value (diffrax's ``test_closure_errors``): jaxlite
  staged the live JVP tracer as a constant of the enclosing jit's jaxpr, so
  ``jit(grad(f))`` returned 0.0 (the derivative through the closure lost). JAX raises
  ``UnexpectedTracerError``; a staging trace now rejects live tracers of transformations
  started inside it.
* Differentiating a ``custom_vjp`` function with respect to a value it closes over (under
  ``grad`` of a ``jit``): JAX raises ``jax._src.interpreters.ad.CustomVJPException`` (a
  plain ``Exception``; diffrax's tests catch it by that name); jaxlite raised a
  ``TypeError`` and had no ``jax._src.interpreters.ad`` module under ``install_as_jax``.
* Library functions under the suites' ``jax_numpy_rank_promotion="raise"`` and strict
  promotion (diffrax's ``VirtualBrownianTree`` samples Levy areas with
  ``jax.random.multivariate_normal``): jaxlite's ``multivariate_normal`` (a batch ``shape``
  with an unbatched ``mean``) and ``jnp.percentile``/``quantile`` (a vector ``q``) raised
  the rank-promotion ``ValueError`` on their own internal broadcasts, and
  ``jnp.count_nonzero`` of a bool array (so ``jnp.linalg.slogdet``'s and ``det``'s
  gradients, which count pivot swaps) raised ``TypePromotionError``. JAX's do neither.
* A function given to ``vmap`` returning a symbolic ``jax.interpreters.ad.Zero`` (equinox's
  ``vprim`` runs a primitive's JVP rule under ``vmap``; lineax's
  ``test_grad_vmap_symbolic_cotangent``): jaxlite raised ``TypeError: Output from batched
  function ... is not a valid JAX type``; JAX returns the ``Zero`` object unchanged,
  whatever ``out_axes``. Its transpose then asks ``jax.typeof`` of a ``ShapeDtypeStruct``:
  JAX gives its ``ShapedArray``; jaxlite raised ``TypeError``.
* ``jnp.searchsorted`` / ``jnp.digitize`` with x64 on returned int64 indices; JAX's are
  int32 (int64 only for arrays longer than int32 can index).
"""

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.errors
import jaxlite.numpy as jnp
import jaxlite.scipy.linalg  # noqa: F401

jsl = jax.scipy.linalg


@pytest.fixture
def x64_strict():
    """x64 on and strict dtype promotion, as the three libraries' test suites run."""
    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_numpy_dtype_promotion", "strict")
    try:
        yield
    finally:
        jax.config.update("jax_numpy_dtype_promotion", "standard")
        jax.config.update("jax_enable_x64", False)


_A = np.array([[2.0, 0.0, 0.0], [1.0, 4.0, 0.0], [-1.0, 0.5, 8.0]])
_B = np.array([1.0, 2.0, 3.0])
_X_LOWER = np.array([0.5, 0.375, 0.4140625])  # solve(tril(_A), _B), exact in binary


# ------------------------------------------------------------------ triangular solves
@pytest.mark.parametrize("trans", [0, 1, 2])
def test_solve_triangular_float64_under_strict_promotion(x64_strict, trans):
    a, b = jnp.asarray(_A), jnp.asarray(_B)
    x = jsl.solve_triangular(a, b, lower=True, trans=trans)
    assert x.dtype == jnp.float64
    op = _A if trans == 0 else _A.T
    np.testing.assert_allclose(np.asarray(x), np.linalg.solve(op, _B), rtol=1e-14)
    if trans == 0:
        np.testing.assert_array_equal(np.asarray(x), _X_LOWER)
    xj = jax.jit(lambda a, b: jsl.solve_triangular(a, b, lower=True, trans=trans))(a, b)
    np.testing.assert_array_equal(np.asarray(xj), np.asarray(x))


def test_lu_cho_solve_float64_under_strict_promotion(x64_strict):
    a = jnp.asarray(_A @ _A.T + 3 * np.eye(3))
    b = jnp.asarray(_B)
    want = np.linalg.solve(np.asarray(a), _B)
    x_lu = jsl.lu_solve(jsl.lu_factor(a), b)
    x_cho = jsl.cho_solve(jsl.cho_factor(a), b)
    x_chol = jsl.cholesky(a)
    for x in (x_lu, x_cho):
        assert x.dtype == jnp.float64
        np.testing.assert_allclose(np.asarray(x), want, rtol=1e-13)
    assert x_chol.dtype == jnp.float64
    np.testing.assert_allclose(np.asarray(x_chol.T @ x_chol), np.asarray(a), rtol=1e-13)
    g = jax.grad(lambda a: jsl.solve_triangular(a, b, lower=True).sum())(jnp.asarray(_A))
    assert g.dtype == jnp.float64


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_solve_triangular_keeps_half_precision(dtype):
    a = jnp.asarray(_A).astype(dtype)
    b = jnp.asarray(_B).astype(dtype)
    x = jsl.solve_triangular(a, b, lower=True)
    assert x.dtype == jnp.dtype(dtype)
    np.testing.assert_array_equal(
        np.asarray(x, np.float32), _X_LOWER.astype(dtype).astype(np.float32)
    )
    xj = jax.jit(lambda a, b: jsl.solve_triangular(a, b, lower=True))(a, b)
    assert xj.dtype == jnp.dtype(dtype)


def test_solve_triangular_integers_go_to_float32():
    a = jnp.asarray(_A * 2).astype(jnp.int32)
    b = jnp.asarray(_B).astype(jnp.int32)
    x = jsl.solve_triangular(a, b, lower=True)
    assert x.dtype == jnp.float32
    np.testing.assert_allclose(np.asarray(x), _X_LOWER / 2, rtol=1e-6)


# ------------------------------------------------------------------ closures of custom rules
def _scaled_vjp(c):
    """A custom_vjp function of ``x`` defined under the caller's transformations, closing
    over ``c``."""

    @jax.custom_vjp
    def f(x):
        return x * c

    f.defvjp(lambda x: (x * c, x), lambda r, g: (g * 2.0,))
    return f


def _scaled_jvp(c):
    @jax.custom_jvp
    def f(x):
        return x * c

    f.defjvp(lambda p, t: (f(p[0]), t[0] * 5.0))
    return f


@pytest.mark.parametrize("make", [_scaled_vjp, _scaled_jvp], ids=["custom_vjp", "custom_jvp"])
@pytest.mark.parametrize("how", ["jit_grad", "jit_jvp"])
def test_rule_closing_over_a_nested_tracer_raises(make, how):
    def outer(c):
        return make(c)(3.0)

    if how == "jit_grad":
        run = jax.jit(jax.grad(outer))
    else:
        run = jax.jit(lambda c: jax.jvp(outer, (c,), (1.0,))[1])
    with pytest.raises(jax.errors.UnexpectedTracerError, match="unexpected tracer"):
        run(2.0)


def test_closures_of_enclosing_tracers_still_work():
    @jax.custom_vjp
    def f(x, y):
        return x * y

    f.defvjp(lambda x, y: (x * y, (x, y)), lambda r, g: (g * r[1] * 10.0, g * r[0]))

    def h(s, x):
        # defined inside jit, closing over the jit argument ``s`` (not differentiated)
        @jax.custom_vjp
        def k(x):
            return x * s

        k.defvjp(lambda x: (x * s, s), lambda r, g: (g * r * 7.0,))
        return jax.grad(lambda x: k(x) + f(x, s))(x)

    assert float(jax.jit(h)(2.0, 3.0)) == 34.0 and float(h(2.0, 3.0)) == 34.0  # 2*7 + 2*10
    assert float(jax.jit(jax.grad(lambda x: f(x, 2.0)))(3.0)) == 20.0
    got = jax.jit(jax.vmap(jax.grad(lambda x: f(x, x))))(jnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(got), [0.0, 11.0, 22.0])


def _custom_vjp_exception():
    if jax.__name__ == "jax":  # oracle mode
        import jax._src.interpreters.ad as ad
    else:
        import jaxlite._jax_compat.interpreters.ad as ad
    return ad.CustomVJPException


def test_custom_vjp_of_a_closed_over_value_raises_custom_vjp_exception():
    exc = _custom_vjp_exception()
    assert exc.__mro__[1] is Exception
    with pytest.raises(exc, match="^Detected differentiation of a custom_vjp function with"):
        jax.grad(jax.jit(lambda c: _scaled_vjp(c)(3.0)))(2.0)
    with pytest.raises(exc):
        jax.grad(jax.jit(lambda c: _scaled_vjp(c)(c)))(2.0)


def test_custom_vjp_exception_under_install_as_jax():
    import subprocess
    import sys

    if jax.__name__ == "jax":
        pytest.skip("install_as_jax is jaxlite's")
    code = (
        "import jaxlite; jaxlite.install_as_jax()\n"
        "import jax._src.interpreters.ad as ad\n"
        "assert ad.CustomVJPException is jaxlite._jax_compat.interpreters.ad.CustomVJPException\n"
        "assert ad.JVPTrace is jaxlite.interpreters.ad.JVPTrace\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# ------------------------------------------------------------------ rank/strict promotion
@pytest.fixture
def x64_strict_raise(x64_strict):
    jax.config.update("jax_numpy_rank_promotion", "raise")
    try:
        yield
    finally:
        jax.config.update("jax_numpy_rank_promotion", "allow")


_SPD = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])


@pytest.mark.parametrize("method", ["cholesky", "eigh", "svd"])
def test_multivariate_normal_batch_shape_under_rank_promotion_raise(x64_strict_raise, method):
    key = jax.random.PRNGKey(0)
    mean = jnp.asarray(np.array([1.0, -2.0, 0.5]))
    got = jax.random.multivariate_normal(key, mean, jnp.asarray(_SPD), (4,), method=method)
    assert got.shape == (4, 3) and got.dtype == jnp.float64
    with jax.numpy_rank_promotion("allow"):
        want = jax.random.multivariate_normal(key, mean, jnp.asarray(_SPD), (4,), method=method)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(want))
    # the samples are mean + factor @ z: subtracting the mean leaves a zero-mean sample
    z = np.asarray(got) - np.asarray(mean)
    assert np.all(np.isfinite(z)) and not np.allclose(z, 0)


def test_percentile_vector_q_under_rank_promotion_raise(x64_strict_raise):
    a = jnp.asarray(_SPD)
    q = jnp.asarray(np.array([10.0, 50.0]))
    got = jnp.percentile(a, q, axis=0)
    assert got.shape == (2, 3) and got.dtype == jnp.float64
    np.testing.assert_allclose(np.asarray(got), np.percentile(_SPD, [10.0, 50.0], axis=0))
    got = jnp.nanquantile(a, q / 100, axis=1, keepdims=True)
    np.testing.assert_allclose(
        np.asarray(got), np.nanquantile(_SPD, [0.1, 0.5], axis=1, keepdims=True)
    )
    with pytest.raises(ValueError, match="rank_promotion"):
        a + q[:1]  # user-level broadcasting still raises


def test_count_nonzero_of_bools_and_det_gradients_under_strict(x64_strict):
    m = jnp.asarray(np.array([[0.0, 2.0, 1.0], [1.0, 0.0, 3.0], [2.0, 1.0, 0.0]]))
    assert int(jnp.count_nonzero(m > 0.5)) == 6
    assert jnp.count_nonzero(m > 0.5).dtype == jnp.int64
    np.testing.assert_array_equal(np.asarray(jnp.count_nonzero(m > 0.5, axis=0)), [2, 2, 2])
    assert int(jnp.count_nonzero(m.astype(jnp.complex128))) == 6
    # d log|det A| / dA = inv(A).T ; d det A / dA = det(A) inv(A).T
    inv_t = np.linalg.inv(np.asarray(m)).T
    g = jax.grad(lambda a: jnp.linalg.slogdet(a)[1])(m)
    np.testing.assert_allclose(np.asarray(g), inv_t, rtol=1e-12)
    g = jax.grad(jnp.linalg.det)(m)
    np.testing.assert_allclose(np.asarray(g), np.linalg.det(np.asarray(m)) * inv_t, rtol=1e-12)


# ------------------------------------------------------------------ searchsorted dtype
@pytest.mark.parametrize("method", ["scan", "scan_unrolled", "sort", "compare_all"])
@pytest.mark.parametrize("x64", [True, False], ids=["x64", "x32"])
def test_searchsorted_indices_are_int32(method, x64):
    jax.config.update("jax_enable_x64", x64)
    try:
        a = jnp.asarray(np.array([1.0, 2.0, 3.0]))
        got = jnp.searchsorted(a, jnp.asarray(np.array([0.5, 2.0, 9.0])), method=method)
        assert got.dtype == jnp.int32
        np.testing.assert_array_equal(np.asarray(got), [0, 1, 3])
        got = jax.jit(lambda a, v: jnp.searchsorted(a, v, side="right", method=method))(a, a)
        assert got.dtype == jnp.int32
        np.testing.assert_array_equal(np.asarray(got), [1, 2, 3])
        assert jnp.searchsorted(a[:0], 1.0, method=method).dtype == jnp.int32
        assert jnp.digitize(a, a).dtype == jnp.int32
        assert jnp.digitize(a, a[:0]).dtype == jnp.int32
        np.testing.assert_array_equal(np.asarray(jnp.digitize(a, a[::-1])), [2, 1, 0])
    finally:
        jax.config.update("jax_enable_x64", False)


# ------------------------------------------------------------------ symbolic zeros, typeof
def _symbolic_zero(shape, dtype):
    return jax.interpreters.ad.Zero(jax.core.ShapedArray(shape, dtype))


@pytest.mark.parametrize("out_axes", [0, None], ids=["axis0", "none"])
def test_vmap_returns_symbolic_zero_unchanged(out_axes):
    z0 = _symbolic_zero((), jax.dtypes.float0)
    z2 = _symbolic_zero((2,), jnp.float32)
    xs = jnp.arange(3.0)
    x, got0 = jax.vmap(lambda x: (x, z0), out_axes=(0, out_axes))(xs)
    assert type(got0) is type(z0) and got0.aval == z0.aval  # unbatched, still symbolic
    np.testing.assert_array_equal(np.asarray(x), [0.0, 1.0, 2.0])
    got2 = jax.vmap(lambda x: z2, out_axes=out_axes)(xs)
    assert type(got2) is type(z2) and got2.aval == z2.aval


def test_typeof_shape_dtype_struct():
    for weak in (False, True):
        s = jax.ShapeDtypeStruct((2, 3), jnp.float32, weak_type=weak)
        t = jax.typeof(s)
        assert isinstance(t, jax.core.ShapedArray)
        assert t.shape == (2, 3) and t.dtype == jnp.float32 and t.weak_type == weak
        assert t.to_tangent_aval().dtype == jnp.float32
