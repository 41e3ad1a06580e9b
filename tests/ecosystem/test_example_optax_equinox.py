"""Smoke test of examples/optax_equinox.py (equinox MLP + optax.adam + jax_tqdm bar over a
lax.scan, through jaxlite.install_as_jax()), in a short run."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.jaxlite_only


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("equinox", "optax", "jax_tqdm", "sklearn")),
    reason="needs equinox, optax, jax_tqdm (tests/ecosystem/requirements-libs.txt), scikit-learn",
)
def test_optax_equinox_example_trains():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "optax_equinox.py"), "--steps", "60"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "engine: jaxlite (jax.__version__ 0.10.2)" in out
    first, last = map(float, re.search(r"first loss ([\d.]+), last loss ([\d.]+)", out).groups())
    assert last < first / 4
    accuracy = float(re.search(r"test accuracy: ([\d.]+)", out).group(1))
    assert accuracy > 0.85, out
    # the jax_tqdm bar, driven by callbacks from inside the jitted scan, ran to the end
    assert "60/60" in proc.stderr, proc.stderr[-500:]
