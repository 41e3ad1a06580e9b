"""Import time (issue 17): a fresh ``python -c "import jaxlite, jaxlite.numpy"`` against
``python -c "import jax, jax.numpy"``; the NumPy column is jaxlite's dependency floor,
``import numpy, ml_dtypes, optree`` (jaxlite loads SciPy, top level and submodules, at its
first use). Each timed call starts a new interpreter, so the figures include
Python's own start-up (~15-20 ms), paid alike by all three.

The children run with bytecode caching on, in a private ``PYTHONPYCACHEPREFIX`` directory
filled by the warm-up call (as for an installed package, whose ``.pyc`` files pip writes at
install time); without it, an environment with ``PYTHONDONTWRITEBYTECODE=1`` would compile
jaxlite's 200-odd modules from source on every import and time the compiler. The prefix
applies to every package, so JAX and the floor are cached alike.

All three pay ml_dtypes' import: ~8 ms with 0.6.0, ~0.7 s with 0.7.0 (which
pyproject.toml excludes for that reason; docs/benchmarks.md, "Import time").
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile

from registry import workload

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_STATEMENTS = {
    "jaxlite": "import jaxlite, jaxlite.numpy",
    "jax": "import jax, jax.numpy",
    "numpy": "import numpy, ml_dtypes, optree",
}
_PYCACHE: list[str] = []  # one private bytecode cache per benchmark run, shared by the libraries


def _child_env() -> dict:
    if not _PYCACHE:
        path = tempfile.mkdtemp(prefix="jaxlite-import-bench-")
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _PYCACHE.append(path)
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = _PYCACHE[0]
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_ROOT, env.get("PYTHONPATH")) if p)
    return env


@workload(
    "import_time",
    'fresh `python -c "import jaxlite, jaxlite.numpy"` (JAX: jax, jax.numpy; NumPy: jaxlite\'s '
    "dependencies numpy, ml_dtypes, optree)",
    target="<= 0.5x JAX (the dependency floor alone is ~0.3x; see docs/benchmarks.md)",
    numpy=True,
    fresh=True,
    interleave=True,
    children=True,
)
def _import_time(lib):
    cmd = [sys.executable, "-c", _STATEMENTS[lib.name]]
    env = _child_env()

    def run():
        subprocess.run(cmd, env=env, check=True, cwd=_ROOT, stdout=subprocess.DEVNULL)

    return run
