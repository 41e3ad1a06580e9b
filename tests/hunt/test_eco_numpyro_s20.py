"""Session 20: the rest of NumPyro 0.22.0's own test suite (``test_distributions.py``
beyond session 19's eight functions, ``infer/test_mcmc.py``, ``infer/test_autoguide.py``,
``infer/test_reparam.py``, ``test/contrib``) run with jaxlite installed as ``jax``; each
jaxlite-only failure reduced here to plain jax/jnp. Expected values are JAX 0.10.2's (the
file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* A ``jit``-compiled function whose jaxpr holds a scalar equation of literals that sets an
  IEEE flag (``log(-1.0)``, ``sqrt(-1.0)``, ``log(0.0)``, ``1.0 / 0.0``; numpyro's
  ``test_omnistaging_invalid_sample`` evaluates ``LogNormal(...).log_prob(-1)`` under
  ``jit``): jaxlite's compile-time simplification folded it with NumPy's floating-point
  warnings on, so ``jit`` emitted ``RuntimeWarning: invalid value encountered in log``
  when it compiled. JAX folds silently. The fold now runs the kernels that generated code
  runs quietly under ``np.errstate(all="ignore")`` and leaves any other kernel that sets a
  flag to run time, as the constant-folding pass already did.
* ``jax.scipy.special.log_ndtr`` between JAX's segments (float32 ``(-10, 5]``, float64
  ``(-20, 8]``; numpyro's ``Normal.log_cdf``, checked against ``exp`` of it against
  ``Normal.cdf`` to ``rtol=1e-6``): jaxlite took SciPy's kernel everywhere, correctly
  rounded, while JAX computes ``log(ndtr(x))`` there, so its result carries ndtr's float32
  rounding (the argument ``x / sqrt(2)`` is rounded before ``erfc``, up to ~1e-6
  relative at ``x = -4.3``) and ``exp(log_ndtr(x))`` agrees with ``ndtr(x)``; jaxlite's
  did not (1.3e-6 apart). Now JAX's three segments: ``-ndtr(-x)`` above, ``log(ndtr(x))``
  between, SciPy's kernel for the asymptotic lower tail.
* ``jnp.multiply`` (``*``) of a float or complex array by a boolean array (numpyro's
  ``binary_cross_entropy_with_logits`` relies on ``jnp.inf * jnp.array(False) == 0``;
  its ``Bernoulli`` log-probability of infinite logits): jaxlite converted the booleans to
  0.0/1.0 and multiplied, so ``inf * False`` and ``nan * False`` were NaN (with NumPy's
  ``RuntimeWarning``, which numpyro's suite turns into an error: 14
  ``test_logistic_regression`` cases and ``test_iaf`` of ``infer/test_autoguide.py``).
  JAX's ``multiply`` is one compiled program, where XLA's algebraic simplifier rewrites ``A *
  convert(pred)`` into ``select(pred, A, 0)``: the product is ``A`` where the boolean is
  true and +0 elsewhere, whatever ``A`` is (``-5 * False`` is +0 too). jaxlite now
  selects so, eagerly and under ``jit``/``vmap``/``grad``.
"""

import warnings

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.numpy as jnp
import jaxlite.scipy.special  # noqa: F401
import jaxlite.scipy.stats  # noqa: F401

from .oracle import same

lax = jax.lax


# ------------------------------------------------------------------ quiet literal folding
def test_jit_folds_literal_ieee_exceptions_silently():
    def build(m):
        def f(x):
            return (x + m.jnp.log(-1.0), x + m.lax.sqrt(-1.0), x + m.jnp.log(0.0),
                    x + m.lax.div(1.0, 0.0), x * m.jnp.log(m.jnp.float32(-2.0)))

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = m.jx.jit(f)(1.0)
        assert [str(w.message) for w in caught] == []
        return out

    out = same(build)
    assert np.isnan(float(out[0])) and np.isnan(float(out[1])) and np.isnan(float(out[4]))
    assert float(out[2]) == -np.inf and float(out[3]) == np.inf


# ------------------------------------------------------------------ log_ndtr segments
def test_log_ndtr_middle_segment_is_log_of_ndtr():
    x = jnp.linspace(-5.0, 4.9, 400, dtype=jnp.float32)
    sp = jax.scipy.special
    np.testing.assert_allclose(np.exp(np.asarray(sp.log_ndtr(x), np.float64)),
                               np.asarray(sp.ndtr(x), np.float64), rtol=1e-6)


@pytest.mark.parametrize("x64", [False, True], ids=["f32", "f64"])
def test_log_ndtr_segments_like_jax(x64):
    pts = [-40.0, -20.5, -20.0, -15.0, -10.5, -10.0, -9.99, -4.2929, -1.0, 0.0, 0.3, 4.99,
           5.0, 5.01, 7.9, 8.0, 8.5, 12.0]

    def build(grad):
        def b(m):
            with m.jx.enable_x64(x64):
                x = m.jnp.array(pts, m.jnp.float64 if x64 else m.jnp.float32)
                if grad:  # one float32 ulp of a tail value (-214) is 7e-8 relative
                    return m.jx.jit(m.jx.vmap(m.jx.grad(m.sp.log_ndtr)))(x)
                return m.sp.log_ndtr(x), m.jx.scipy.stats.norm.logcdf(x)

        return b

    # the lower tail: JAX's asymptotic series (order 3) against SciPy's kernel
    same(build(False), rtol=1e-10 if x64 else 3e-6, atol=0)
    same(build(True), rtol=1e-8 if x64 else 3e-5, atol=0)


# ------------------------------------------------------------------ float * bool
@pytest.mark.parametrize("side", ["left", "right"])
def test_multiply_by_bool_selects_like_xla(side):
    def build(m):
        b = m.jnp.array([False, True, False, True, False])
        a = m.jnp.array([np.inf, -np.inf, np.nan, 2.0, -5.0], m.jnp.float32)
        mul = (lambda x, y: x * y) if side == "left" else (lambda x, y: y * x)
        c = m.jnp.array([complex(np.inf, 1.0), 1 + 2j, np.nan, 3.0, -1.0], m.jnp.complex64)
        return (mul(a, b), m.jx.jit(mul)(a, b), m.jnp.multiply(np.inf, b), mul(c, b),
                m.jx.vmap(mul)(a, b), mul(2.0, b), m.jnp.multiply(m.jnp.int32(3), b),
                m.jx.grad(lambda x: m.jnp.sum(mul(x, b)))(m.jnp.float32(np.inf)))

    out = same(build)
    np.testing.assert_array_equal(np.asarray(out[0]), [0.0, -np.inf, 0.0, 2.0, 0.0])
    assert not np.signbit(np.asarray(out[0])[4])
