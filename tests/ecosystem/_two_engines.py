"""Run one script of library programs on jaxlite-as-jax and on JAX, in two fresh
interpreters started in parallel, and collect the JSON records each prints (one per line).
Shared by test_libraries.py (quick-starts) and test_eco_programs_s12.py."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _start(script: str, engine: str, names: list) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.setdefault("JAX_PLATFORMS", "cpu")
    return subprocess.Popen(
        [sys.executable, script, engine, *names],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _collect(proc: subprocess.Popen, key: str) -> dict:
    out, err = proc.communicate(timeout=600)
    records = {}
    for line in out.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            records[record[key]] = record
    if not records:
        raise AssertionError(f"the programs produced no results:\n{out}\n{err}")
    return records


def run_both(script: str, names: list, key: str) -> dict:
    """``{"jaxlite": records, "jax": records}`` (no ``"jax"`` entry when JAX is not
    installed) for the programs ``names`` of ``script``, each record keyed by ``key``.
    Skips the calling test when ``names`` is empty (no library installed)."""
    if not names:
        pytest.skip("none of the programs' libraries is installed")
    has_jax = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib")
    procs = {"jaxlite": _start(script, "jaxlite", names)}
    if has_jax:
        procs["jax"] = _start(script, "jax", names)
    return {engine: _collect(p, key) for engine, p in procs.items()}
