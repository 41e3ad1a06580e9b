"""Run one script of library programs on jaxlite-as-jax and on JAX, in two fresh
interpreters started in parallel, and collect the JSON records each prints (one per line).
Shared by test_libraries.py (quick-starts) and test_eco_programs.py, whose
records (``{"name", "paths", "leaves"}``) ``assert_same_program`` compares.

``run_both_once`` runs a script once per test session: under pytest-xdist the first worker
to need it runs it and leaves the records in the session's shared temporary directory,
and the other workers read them (the parametrized tests of one script are spread over the
workers, and each worker ran the script again: 15-45 s of CPU per script)."""

import hashlib
import importlib.util
import json
import os
import subprocess
import sys

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: each worker runs the script itself
    fcntl = None

import numpy as np
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


def run_both_once(script: str, names: list, key: str, tmp_path_factory) -> dict:
    """``run_both(script, names, key)``, run by one pytest-xdist worker of the session and
    shared with the others through a file under the session's temporary directory (with
    an exclusive lock while it runs, so that the others wait for its records instead of
    running the script again). Outside xdist it is ``run_both``."""
    if not names or os.environ.get("PYTEST_XDIST_WORKER") is None or fcntl is None:
        return run_both(script, names, key)
    tag = hashlib.sha1(repr((script, sorted(names), key)).encode()).hexdigest()[:16]
    shared = tmp_path_factory.getbasetemp().parent / f"two_engines_{tag}.json"
    with open(str(shared) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if shared.exists():
            return json.loads(shared.read_text())
        runs = run_both(script, names, key)
        partial = shared.with_suffix(".partial")
        partial.write_text(json.dumps(runs))
        partial.replace(shared)
        return runs


def assert_same_program(name: str, runs: dict) -> None:
    """Program ``name`` ran on jaxlite and gave JAX's pytree paths, dtypes and shapes
    exactly and its values to float32 tolerance (skips when JAX is not installed)."""
    ours = runs["jaxlite"].get(name)
    assert ours is not None, f"no result for {name}"
    assert "error" not in ours, f"{name} failed on jaxlite:\n{ours['error']}"
    if "jax" not in runs:
        pytest.skip("real JAX is not installed: ran on jaxlite without a reference")
    ref = runs["jax"][name]
    assert "error" not in ref, f"{name} failed on JAX itself:\n{ref['error']}"
    assert ours["paths"] == ref["paths"]
    for path, (dt, shape, got), (rdt, rshape, want) in zip(
        ref["paths"], ours["leaves"], ref["leaves"]
    ):
        assert (dt, shape) == (rdt, rshape), (name, path)
        want = np.asarray(want, np.float64)
        finite = np.abs(want[np.isfinite(want)])
        scale = max(float(np.max(finite)) if finite.size else 0.0, 1.0)
        np.testing.assert_allclose(
            np.asarray(got, np.float64), want, rtol=1e-5, atol=1e-6 * scale, err_msg=f"{path}"
        )
