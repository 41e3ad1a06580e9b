"""flax.nnx on ``install_as_jax()``: the private JAX modules it imports resolve to jaxlite's,
its default Variables run (values against JAX: ``eco_programs_nnx.py``), and its opt-in ref
and hijax Variable modes, which need JAX features jaxlite lacks (mutable array refs,
hijax lowering), stop with ``NotImplementedError`` naming what is missing.

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
import jaxlite._src.hijax as jl_hijax
assert AbstractRef is refs.AbstractRef and jax.Ref is refs.Ref and jax.new_ref is refs.new_ref
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

refused(lambda: nnx.Param(jnp.ones(3), ref=True), "(jax.new_ref)")
refused(lambda: nnx.Param(jnp.ones(3), hijax=True), "hijax primitive 'new_variable'")
with nnx.var_defaults(ref=True):
    refused(lambda: nnx.Linear(2, 3, rngs=nnx.Rngs(0)), "(jax.new_ref)")
m = nnx.Linear(2, 3, rngs=nnx.Rngs(0))
refused(lambda: nnx.vars_as(m, ref=True), "(jax.new_ref)")
print("OK")
"""


def test_nnx_default_mode_runs_and_opt_in_modes_refuse():
    proc = run_python(["-c", SCRIPT])
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert proc.stdout.strip().endswith("OK")
