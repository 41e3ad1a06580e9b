"""The benchmark runner keeps working: every registered workload runs (quick mode,
jaxlite columns only) and reports a figure, so a broken workload is caught by CI."""

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUN = os.path.join(ROOT, "benchmarks", "run.py")


@pytest.mark.jaxlite_only
def test_every_workload_runs_in_quick_mode():
    listed = subprocess.run(
        [sys.executable, RUN, "--list"], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    names = [line.split()[0] for line in listed.stdout.splitlines() if line.strip()]
    assert len(names) >= 10, listed.stdout
    proc = subprocess.run(
        [sys.executable, RUN, "--quick", "--no-jax"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    # run.py exits non-zero when any workload raised.
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # The header says which BLAS ran, and how jaxlite ran its products.
    blas = [line for line in proc.stdout.splitlines() if line.startswith("BLAS: ")]
    assert len(blas) == 1 and "jaxlite's products: " in blas[0], proc.stdout
    rows = [
        line for line in proc.stdout.splitlines() if line.split()[:1] and line.split()[0] in names
    ]
    assert {r.split()[0] for r in rows} == set(names), proc.stdout
