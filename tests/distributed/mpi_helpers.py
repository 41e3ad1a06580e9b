"""Helpers of the ``mpiexec -n 2`` tests: the skip marks, and ``launch(script, names)``,
which runs a script on 2 ranks (2 virtual devices each) with a timeout and checks that both
ranks exit 0 having reported every named check (``ok(name)`` in the script's prelude)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MPIEXEC = shutil.which("mpiexec") or shutil.which("mpiexec", path=str(Path(sys.executable).parent))

pytestmark = [
    # jaxlite's bare initialize() under MPICH goes beyond JAX (S16.10).
    pytest.mark.jaxlite_only,
    pytest.mark.skipif(
        importlib.util.find_spec("mpi4py") is None,
        reason="mpi4py is not installed (pip install jaxlite[mpi])",
    ),
    pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec on PATH (pip install mpich)"),
]

PRELUDE = """
import os, sys
import numpy as np
import jaxlite as jax
import jaxlite.numpy as jnp
rank = int(os.environ.get("PMI_RANK", os.environ.get("OMPI_COMM_WORLD_RANK", "-1")))
def ok(name):
    with open(os.path.join(os.environ["JAXLITE_MPI_CHECKS"], f"rank{rank}.txt"), "a") as f:
        print(name, file=f)
def raises(exc, match, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        assert match in str(e), (str(e), match)
        return
    raise AssertionError(f"{fn} did not raise {exc}")
"""


def launch(script: str, names: list, timeout: int = 180, check: bool = True):
    """Run ``script`` on 2 ranks; unless ``check`` is false, fail unless both exit 0 having
    passed every check. Returns (the completed process, per rank the checks passed)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for var in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES", "PMI_RANK", "PMI_SIZE"):
        env.pop(var, None)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "mpi_check.py")
        path.write_text(PRELUDE + textwrap.dedent(script))
        env["JAXLITE_MPI_CHECKS"] = tmp
        proc = subprocess.run(
            [MPIEXEC, "-n", "2", sys.executable, str(path)],
            capture_output=True,
            text=True,
            cwd=str(ROOT),
            env=env,
            timeout=timeout,
        )
        done = {}
        for r in (0, 1):
            f = Path(tmp, f"rank{r}.txt")
            done[r] = f.read_text().split() if f.exists() else []
    if not check:
        return proc, done
    missing = [f"rank {r}: {n}" for r in (0, 1) for n in names if n not in done[r]]
    assert proc.returncode == 0 and not missing, (
        f"rc={proc.returncode}, missing {missing}\n--- stdout\n{proc.stdout}\n"
        f"--- stderr\n{proc.stderr[-4000:]}"
    )
    return proc, done


def run_script(path: Path, args: list, mpi: bool, timeout: int = 240):
    """Run ``path`` with ``args``: under ``mpiexec -n 2`` if ``mpi``, else as one process."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    for var in ("XLA_FLAGS", "JAX_NUM_CPU_DEVICES", "PMI_RANK", "PMI_SIZE"):
        env.pop(var, None)
    cmd = ([MPIEXEC, "-n", "2"] if mpi else []) + [sys.executable, str(path), *map(str, args)]
    proc = subprocess.run(
        cmd, capture_output=True, text=True, cwd=str(ROOT), env=env, timeout=timeout
    )
    assert proc.returncode == 0, (
        f"{cmd} rc={proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}\n"
        f"--- stderr\n{proc.stderr[-4000:]}"
    )
    return proc
