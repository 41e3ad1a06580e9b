"""The native tier's ``normal`` (one fused Numba loop: threefry, bits to floats and the
``_xla_numba`` element functions for XLA's ``log1p``/``log``/``erf_inv``, spec R7.3-R7.6,
R8.1) against real JAX 0.10.2, bit for bit, float32 and float64. Needs Numba (the
``native`` extra); the first run compiles (~15 s a dtype), later runs load the disk cache.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba", reason="numba is not installed (pip install jaxlite[native])")
pytest.importorskip("jax")
import jax  # noqa: E402
import jax.random  # noqa: E402,F401

import jaxlite  # noqa: E402
import jaxlite.random  # noqa: E402,F401
from jaxlite._src.compile import native, native_emit  # noqa: E402
from jaxlite._src.core import rules  # noqa: E402
from jaxlite._src.interpreters import simplify  # noqa: E402

jax.config.update("jax_platforms", "cpu")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_native_normal_kernel_matches_jax(dtype):
    on = dtype == "float64"
    jax.config.update("jax_enable_x64", on)
    jaxlite.config.update("jax_enable_x64", on)
    try:
        n = 40_001  # odd; the tail branches of erf_inv are taken ~150 times
        key = jaxlite.random.PRNGKey(77)
        closed = simplify.simplify(
            jaxlite.make_jaxpr(lambda k: jaxlite.random.normal(k, (n,), dtype))(key)
        )
        (region,) = [
            e
            for e in native.outline_regions(closed, min_size=1).jaxpr.eqns
            if str(e.primitive) == "native_region"
        ]
        prims = {str(e.primitive) for e in region.params["jaxpr"].jaxpr.eqns}
        assert {"threefry2x32", "xla_erf_inv"} <= prims  # the whole sampler in one kernel
        kernel = native.compile_kernel(region.params["jaxpr"])
        (got,) = kernel(np.asarray(jaxlite.random.key_data(key)))
        want = np.asarray(jax.random.normal(jax.random.PRNGKey(77), (n,), dtype))
        u = np.uint32 if dtype == "float32" else np.uint64
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(np.asarray(got).view(u), want.view(u))
    finally:
        jax.config.update("jax_enable_x64", False)
        jaxlite.config.update("jax_enable_x64", False)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_rules_decline_half_precision(dtype):
    # float16 is computed in float32 and rounded by the Python tier; no native form.
    from jaxlite._src.random import _xla_math as xm

    (eqn,) = jaxlite.make_jaxpr(xm.erf_inv)(np.zeros(3, dtype)).jaxpr.eqns
    got = rules.native_rules[eqn.primitive](native_emit.NativeContext(), eqn, ["x"], ["y"])
    assert (got is None) == (dtype == np.float16)
