# ruff: noqa: E501 (check scripts are data: long lines keep exact JAX messages whole)
"""Run a check script in a fresh interpreter with N virtual CPU devices.

The device count must be fixed before first use, so multi-device checks run in a
subprocess. The script sees ``jax``, ``jnp``, ``np``, ``P``, ``NamedSharding``, ``AxisType``
and ``raises(exc_type, match, fn, *args)``; it is run against jaxlite, or against JAX when
``JAXLITE_ORACLE=jax`` (oracle mode). Group many checks per script: start-up costs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ORACLE = os.environ.get("JAXLITE_ORACLE", "") == "jax"

_PRELUDE = """
import os, re, sys, warnings
import numpy as np
if os.environ.get("JAXLITE_ORACLE", "") == "jax":
    import jax
    {config}
    import jax.numpy as jnp
    import jax.experimental
else:
    import jaxlite as jax
    {config}
    import jaxlite.numpy as jnp
    import jaxlite.experimental
P, NamedSharding, AxisType = jax.sharding.PartitionSpec, jax.sharding.NamedSharding, jax.sharding.AxisType
SingleDeviceSharding, Mesh = jax.sharding.SingleDeviceSharding, jax.sharding.Mesh
assert "jaxlite" not in jax.__name__ or "jax" not in sys.modules, "jaxlite run imported jax"

def raises(exc, match, fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except exc as e:
        if match is not None and match not in str(e):
            raise AssertionError(f"message {str(e)!r} lacks {match!r}") from e
        return e
    raise AssertionError(f"{fn} did not raise {exc}")
"""


def run(*scripts: str, n_devices: int | None = 8, env: dict | None = None, timeout=900) -> str:
    """Run ``script``; fail the calling test with its output if it fails. Returns stdout."""
    config = f"jax.config.update('jax_num_cpu_devices', {n_devices})" if n_devices else "pass"
    code = _PRELUDE.replace("{config}", config) + "\n".join(textwrap.dedent(s) for s in scripts)
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.pop("XLA_FLAGS", None)
    full_env.pop("JAX_NUM_CPU_DEVICES", None)
    full_env.update(env or {})
    with tempfile.NamedTemporaryFile("w", suffix="_check.py", delete=False) as f:
        f.write(code)
    proc = subprocess.run(
        [sys.executable, f.name],
        capture_output=True,
        text=True,
        cwd=str(ROOT),
        env=full_env,
        timeout=timeout,
    )
    os.unlink(f.name)
    if proc.returncode != 0:
        raise AssertionError(
            f"subprocess failed (rc={proc.returncode})\n--- stdout\n{proc.stdout}\n"
            f"--- stderr\n{proc.stderr[-6000:]}"
        )
    return proc.stdout
