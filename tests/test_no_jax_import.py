"""``import jaxlite`` and running programs with it never imports ``jax`` (issue 2).

Runs in a fresh interpreter so that nothing imported by pytest or other tests interferes.
"""

import os
import subprocess
import sys

import pytest

SCRIPT = r"""
import sys
import jaxlite as jax
import jaxlite.numpy as jnp
from jaxlite import lax

def loss(w, x):
    return jnp.sum(jnp.tanh(x @ w) ** 2)

w = jnp.ones((3, 2))
x = jnp.arange(12.0).reshape(4, 3) / 10
y = jax.jit(loss)(w, x)
per_example = jax.vmap(loss, in_axes=(None, 0))(w, x)
_, t = jax.jvp(lambda w: loss(w, x), (w,), (jnp.ones_like(w),))
g = jax.jit(jax.grad(loss))(w, x)
assert g.shape == (3, 2)
s = jax.vmap(lambda v: lax.psum(v, "i"), axis_name="i")(x)
print(float(y), per_example.shape, float(t), s.shape)
leaked = sorted(m for m in sys.modules if m == "jax" or m.startswith("jax.")
                or m == "jaxlib" or m.startswith("jaxlib."))
print("LEAKED", leaked)
assert not leaked, leaked
"""


@pytest.mark.jaxlite_only
def test_import_and_run_without_importing_jax():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        check=False,
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "LEAKED []" in proc.stdout
