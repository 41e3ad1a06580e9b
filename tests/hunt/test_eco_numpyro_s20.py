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
"""

import warnings

import numpy as np

import jaxlite as jax

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
