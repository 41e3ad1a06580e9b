"""Every primitive of the ``ops`` families is reached by some op-spec row (tests/ops/
op_specs), so the generic tests (eval vs NumPy/JAX, jit, vmap, jvp/vjp vs finite
differences) exercise it. A failure names the primitives no row binds."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import numpy as np
import pytest

import jaxlite
import jaxlite.lax  # noqa: F401
import jaxlite.nn  # noqa: F401
import jaxlite.numpy  # noqa: F401
import jaxlite.scipy.special  # noqa: F401
from jaxlite._src import ops
from jaxlite._src.core.primitive import Primitive

sys.path.insert(0, os.path.dirname(__file__))
from op_specs import SPECS, draw_args  # noqa: E402

pytestmark = pytest.mark.jaxlite_only  # inspects jaxlite's own primitives

# Primitives no op-spec row can reach, each with the reason (reached by other tests).
NOT_SPEC_ROWS = {
    "add_any": "tangent accumulation inside AD only (tests/interpreters)",
    "copy_p": "the identity copy of jnp.array(copy=True) (tests/core)",
    "psum": "collectives need a named axis (tests/interpreters/test_vmap_named_axes.py)",
    "pmax": "collective (test_vmap_named_axes.py)",
    "pmin": "collective (test_vmap_named_axes.py)",
    "ppermute": "collective (test_vmap_named_axes.py)",
    "all_gather": "collective (test_vmap_named_axes.py)",
    "axis_index": "collective (test_vmap_named_axes.py)",
    "all_to_all": "collective (tests/sharding)",
    "psum_scatter": "collective (tests/sharding)",
    "pvary": "vma cast inside shard_map bodies (tests/sharding/test_vma_S9_6_S16_5.py)",
    "bessel_jv": "JAX 0.10.2's bessel_jn is NaN in float32: tests/hunt/test_special_extra.py "
    "checks it against SciPy and float64 JAX",
    "div_recip": "compiled code only: the simplifier's form of div (test_division_like_xla.py)",
    "dot_fma": "compiled code only: XLA's contraction of p - c * dot(x, y) (tests/compile/"
    "test_dot_fma.py)",
    "random_gamma_grad_d2": "second derivatives of random_gamma_grad only (rows run first "
    "derivatives): tests/hunt/test_hoad_sweep_s27.py checks them against JAX",
}


class _NS:
    jnp = jaxlite.numpy
    lax = jaxlite.lax
    nn = jaxlite.nn
    special = jaxlite.scipy.special
    linalg = jaxlite.numpy.linalg


def _family_primitives() -> dict[str, Primitive]:
    out = {}
    for info in pkgutil.iter_modules(ops.__path__):
        mod = importlib.import_module(f"{ops.__name__}.{info.name}")
        for v in vars(mod).values():
            if isinstance(v, Primitive):
                out[v.name] = v
    return out


def _bound_by_rows() -> set[str]:
    seen: set[str] = set()
    orig_bind, orig_bwt = Primitive.bind, Primitive.bind_with_trace

    def bind(self, *args, **params):
        seen.add(self.name)
        return orig_bind(self, *args, **params)

    def bind_with_trace(self, trace, args, params):
        seen.add(self.name)
        return orig_bwt(self, trace, args, params)

    Primitive.bind, Primitive.bind_with_trace = bind, bind_with_trace
    try:
        for spec in SPECS:
            args = draw_args(spec)
            try:
                f = spec.fn(_NS)
                f(*args)
                if spec.grad:  # the row's derivative tests reach the JVP rules' primitives
                    ts = [np.ones_like(a) if isinstance(a, np.ndarray) else 1.0 for a in args]
                    jaxlite.jvp(f, args, ts)
            except Exception:  # noqa: BLE001 (rows that need jit/size= are run elsewhere)
                pass
    finally:
        Primitive.bind, Primitive.bind_with_trace = orig_bind, orig_bwt
    return seen


def test_every_family_primitive_is_reached_by_a_row():
    prims = _family_primitives()
    missing = sorted(set(prims) - _bound_by_rows() - set(NOT_SPEC_ROWS))
    assert not missing, (
        f"primitives no row of tests/ops/op_specs reaches: {missing} -- add a row in the "
        "family's table"
    )


def test_exclusions_are_real_primitives():
    prims = _family_primitives()
    assert set(NOT_SPEC_ROWS) <= set(prims), sorted(set(NOT_SPEC_ROWS) - set(prims))
