"""flax.nnx on ``install_as_jax()``: the private JAX modules it imports resolve to jaxlite's,
its default Variables run (values against JAX: ``eco_programs_nnx.py``), its opt-in ref mode
runs (Variables over ``jax.new_ref``, mutated under ``jax.jit`` and ``nnx.jit``, the values
JAX gives), and its hijax mode, which needs hijax lowering, stops with
``NotImplementedError`` naming what is missing.

Runs in a fresh interpreter (the alias is process-wide).
"""

import importlib.util

import pytest

from tests.ecosystem.test_install_as_jax import run_python

pytestmark = [
    pytest.mark.jaxlite_only,
    pytest.mark.skipif(importlib.util.find_spec("flax") is None, reason="flax not installed"),
]

SCRIPT = r"""
import jaxlite
jaxlite.install_as_jax()
import jax, jax.numpy as jnp
from jax._src.state.types import AbstractRef
from jax.experimental import hijax
import jaxlite._src.core.refs as refs
import jaxlite._src.state as state
import jaxlite._src.hijax as jl_hijax
assert AbstractRef is refs.AbstractRef and jax.Ref is refs.Ref and jax.new_ref is state.new_ref
assert hijax.HiPrimitive is jl_hijax.HiPrimitive
from flax import nnx

v = nnx.Param(jnp.arange(3.0))
assert not v.ref and not v.hijax
v[...] = v[...] * 2
assert v[...].tolist() == [0.0, 2.0, 4.0]
assert not nnx.variablelib.is_array_ref(v[...])

def refused(make, expected):
    try:
        make()
    except NotImplementedError as e:
        assert expected in str(e), str(e)
    else:
        raise AssertionError(f"no error for {expected}")

refused(lambda: nnx.Param(jnp.ones(3), hijax=True), "hijax primitive 'new_variable'")

r = nnx.Param(jnp.ones(3), ref=True)
assert r.ref and isinstance(r.get_raw_value(), jax.Ref)
r[...] += 1
assert r[...].tolist() == [2.0, 2.0, 2.0]
with nnx.var_defaults(ref=True):
    m = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
assert isinstance(m.bias.get_raw_value(), jax.Ref)

@jax.jit
def step(m, x):
    y = m(x)
    m.bias[...] += 1.0  # the caller's Variable sees it (JAX's answers below)
    return y

assert step(m, jnp.ones((1, 2))).shape == (1, 3)
assert m.bias[...].tolist() == [1.0, 1.0, 1.0]
step(m, jnp.ones((1, 2)))
assert m.bias[...].tolist() == [2.0, 2.0, 2.0]
nnx.jit(lambda m: m.bias.__setitem__(..., m.bias[...] + 1.0))(m)
assert m.bias[...].tolist() == [3.0, 3.0, 3.0]
print("OK")
"""


def test_nnx_default_and_ref_modes_run_and_hijax_mode_refuses():
    proc = run_python(["-c", SCRIPT])
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.strip().endswith("OK")
