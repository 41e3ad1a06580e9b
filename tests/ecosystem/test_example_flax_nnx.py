"""examples/flax_nnx.py (a flax.nnx classifier, nnx.Optimizer(optax.adamw), nnx.jit training
steps, nnx.MultiMetric, through jaxlite.install_as_jax()) trains in a short run, and prints
the same losses and accuracies as on the real JAX (``--engine jax``) when JAX is installed."""

import importlib.util
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = [
    pytest.mark.jaxlite_only,
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("flax", "optax", "sklearn")),
        reason="needs flax, optax (tests/ecosystem/requirements-libs.txt), scikit-learn",
    ),
]


def _run(engine: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("JAX_PLATFORMS", "cpu")
    script = os.path.join(ROOT, "examples", "flax_nnx.py")
    return subprocess.Popen(
        [sys.executable, script, "--steps", "60", "--engine", engine],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _numbers(out: str) -> dict:
    pattern = r"first loss ([\d.]+), last loss ([\d.]+)|accuracy[^:]*: ([\d.]+)"
    found = re.findall(pattern, out)
    assert len(found) == 3, out
    first, last = map(float, found[0][:2])
    return {"first": first, "last": last, "train": float(found[1][2]), "test": float(found[2][2])}


def test_flax_nnx_example_trains_as_on_jax():
    procs = {"jaxlite": _run("jaxlite")}
    if importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib"):
        procs["jax"] = _run("jax")
    results = {}
    for engine, proc in procs.items():
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, out + err
        assert f"engine: {engine} (jax.__version__ 0.10.2)" in out, out
        results[engine] = _numbers(out)
    ours = results["jaxlite"]
    assert ours["last"] < ours["first"] / 3 and ours["test"] > 0.8, ours
    if "jax" in results:  # printed to 4 decimals: float32 rounding does not show
        assert ours == pytest.approx(results["jax"], abs=2e-4), (ours, results["jax"])
