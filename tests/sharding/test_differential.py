"""shard_map programs (collectives, 1-D and 2-D meshes, check_vma on and off) under jit,
grad, jit(grad) and vmap give the same figures with jaxlite as with JAX (S9, S10.4)."""

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.sharding._subproc import ROOT

pytest.importorskip("jax", reason="the differential test runs JAX as the oracle")
SCRIPT = os.path.join(os.path.dirname(__file__), "data", "shard_map_cases.py")


def _figures(lib: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, SCRIPT, lib],
        capture_output=True,
        text=True,
        cwd=str(ROOT),
        env=env,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = {}
    for line in proc.stdout.splitlines():
        name, *rest = line.split()
        assert rest[0] != "ERR", line
        out[name] = np.array([float(v) for v in rest])
    return out


@pytest.mark.jaxlite_only
def test_shard_map_programs_match_jax():
    mine, theirs = _figures("jaxlite"), _figures("jax")
    assert set(mine) == set(theirs) and len(mine) >= 10
    for name in mine:
        np.testing.assert_allclose(mine[name], theirs[name], rtol=2e-4, atol=1e-4, err_msg=name)
