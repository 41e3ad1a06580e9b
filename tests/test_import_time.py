"""``import jaxlite`` leaves the heavy parts of its dependencies unloaded until first use
(issue 17: the import takes milliseconds, not seconds; the timing itself is the
``import_time`` row of benchmarks/run.py, never a unit test).

SciPy's submodules (``scipy.special``, ``scipy.fft``, ``scipy.linalg``: ~0.3 s each when
loaded cold), ``rich`` (the sharding picture) and ``jaxlite.scipy``'s submodules load at
first use. The subprocess imports jaxlite in a fresh interpreter, reports what is loaded,
then calls the functions that need each deferred module and reports their results, which
are checked against JAX here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DEFERRED = [
    "scipy",  # session 20: its top level too (subprocess, shutil, sysconfig, bz2, lzma)
    "scipy.special",
    "scipy.fft",
    "scipy.linalg",
    "rich",
    "jaxlite.scipy.special",
    "jaxlite.scipy.stats",
    "jaxlite.scipy.linalg",
    # Session 18: jaxlite's own subsystems that a program may never use, and the standard
    # library modules only they need (docs/benchmarks.md, "Import time").
    "jaxlite.random",
    "jaxlite.nn",
    "jaxlite.image",
    "jaxlite.profiler",
    "jaxlite.experimental",
    "jaxlite.distributed",
    "jaxlite._src.jax_alias",
    "jaxlite._src.sharding.pmap",
    "jaxlite._src.sharding.shard_map",
    "jaxlite._src.sharding.visualize",
    "jaxlite.lax.linalg",
    "jaxlite.numpy.linalg",
    "jaxlite.numpy.fft",
    "cProfile",
    "tempfile",
    "hashlib",
    "concurrent.futures",
    "threadpoolctl",
]
# Loaded by the uses below only where the machine engages them.
OPTIONAL_USE = {"rich", "hashlib", "tempfile", "concurrent.futures", "threadpoolctl"}

SCRIPT = r"""
import json, sys
import jaxlite, jaxlite.numpy
deferred = %r
report = {"after_import": sorted(m for m in deferred if m in sys.modules)}
import jaxlite as jax, jaxlite.numpy as jnp
x = jnp.asarray([1.0, 2.0, 0.5, -1.0], jnp.float32)
a = jnp.asarray([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], jnp.float32)
b = jnp.asarray([1.0, 2.0, 3.0], jnp.float32)
f = jnp.fft.fft(x)
report["fft"] = [[float(v.real), float(v.imag)] for v in f.tolist()]
report["gammaln"] = jax.scipy.special.gammaln(jnp.abs(x) + 0.25).tolist()
report["gammaln_jit"] = jax.jit(jax.scipy.special.gammaln)(jnp.abs(x) + 0.25).tolist()
report["igamma"] = jax.lax.igamma(jnp.abs(x) + 0.5, jnp.abs(x)).tolist()
report["solve"] = jnp.linalg.solve(a, b).tolist()
report["cho_solve"] = jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a), b).tolist()
report["lu"] = jax.lax.linalg.lu(a)[0].tolist()
report["norm_pdf"] = jax.scipy.stats.norm.pdf(x).tolist()
report["normal"] = jax.random.normal(jax.random.key(3), (3,)).tolist()
report["relu"] = jax.nn.relu(x).tolist()
report["resize"] = jax.image.resize(x, (8,), "linear").tolist()
with jax.profiler.TraceAnnotation("t"):
    pass
report["io_callback"] = float(jax.experimental.io_callback(
    lambda v: v * 2, jax.ShapeDtypeStruct((), jnp.float32), jnp.float32(1.5)))
report["pmap"] = jax.pmap(lambda v: v + 1)(x[:1]).tolist()
report["shard_map"] = jax.shard_map(
    lambda v: v * 3, mesh=jax.sharding.Mesh(jax.devices()[:1], ("i",)), in_specs=jax.P("i"),
    out_specs=jax.P("i"))(x).tolist()
jax.debug.visualize_array_sharding  # noqa: B018
jax.distributed.is_initialized()
jax.install_as_jax  # noqa: B018
report["after_use"] = sorted(m for m in deferred if m in sys.modules)
print("REPORT", json.dumps(report))
"""


def _run_script():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT % (DEFERRED,)],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("REPORT "))
    return json.loads(line[len("REPORT ") :])


@pytest.fixture(scope="module")
def report():
    return _run_script()


@pytest.mark.jaxlite_only
def test_import_does_not_load_deferred_modules(report):
    # `rich` may legitimately be absent; then it is never loaded.
    assert report["after_import"] == [], report["after_import"]


@pytest.mark.jaxlite_only
def test_first_use_loads_them(report):
    # The functions below really went through the deferred modules (not some other path).
    want = {m for m in DEFERRED if m not in OPTIONAL_USE}
    assert want <= set(report["after_use"]), report["after_use"]


@pytest.mark.jaxlite_only
def test_functions_needing_them_give_jax_values(report):
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jax.config.update("jax_platforms", "cpu")
    x = jnp.asarray([1.0, 2.0, 0.5, -1.0], jnp.float32)
    a = jnp.asarray([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], jnp.float32)
    b = jnp.asarray([1.0, 2.0, 3.0], jnp.float32)
    f = np.asarray(jnp.fft.fft(x))
    want = {
        "fft": np.stack([f.real, f.imag], axis=-1),
        "gammaln": jax.scipy.special.gammaln(jnp.abs(x) + 0.25),
        "gammaln_jit": jax.jit(jax.scipy.special.gammaln)(jnp.abs(x) + 0.25),
        "igamma": jax.lax.igamma(jnp.abs(x) + 0.5, jnp.abs(x)),
        "solve": jnp.linalg.solve(a, b),
        "cho_solve": jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(a), b),
        "lu": jax.lax.linalg.lu(a)[0],
        "norm_pdf": jax.scipy.stats.norm.pdf(x),
        "normal": jax.random.normal(jax.random.key(3), (3,)),
        "relu": jax.nn.relu(x),
        "resize": jax.image.resize(x, (8,), "linear"),
        "io_callback": 3.0,
        "pmap": jax.pmap(lambda v: v + 1)(x[:1]),
        "shard_map": x * 3,
    }
    for key, value in want.items():
        np.testing.assert_allclose(report[key], np.asarray(value), rtol=2e-6, atol=2e-6)


def test_scipy_submodules_resolve_as_attributes_and_imports():
    # jax.scipy loads its submodules lazily too; both spellings work, unknown names raise.
    import jaxlite.scipy
    import jaxlite.scipy.stats as stats

    assert {"linalg", "special", "stats"} <= set(dir(jaxlite.scipy))
    assert float(stats.norm.pdf(0.0)) == pytest.approx(1 / np.sqrt(2 * np.pi), rel=1e-6)
    assert float(jaxlite.scipy.special.gammaln(3.0)) == pytest.approx(np.log(2.0), rel=1e-6)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_module'"):
        jaxlite.scipy.no_such_module  # noqa: B018


@pytest.mark.jaxlite_only
def test_lazy_module_helper():
    from jaxlite._src.util import LazyModule

    missing = LazyModule("jaxlite_no_such_package_for_test")
    assert not missing.available
    with pytest.raises(ModuleNotFoundError):
        missing.anything  # noqa: B018
    json_mod = LazyModule("json")
    assert json_mod.available
    assert json_mod.dumps([1]) == "[1]"
    assert "imported" in repr(json_mod)


def test_lazy_names_resolve_and_are_listed():
    # Names loaded at first access still behave as attributes: dir() lists them, both
    # spellings of a submodule import work, and unknown names raise AttributeError.
    import jaxlite
    import jaxlite.numpy as jnp

    for name in ("random", "nn", "scipy", "image", "profiler", "experimental", "pmap",
                 "shard_map", "install_as_jax", "distributed"):
        assert name in dir(jaxlite), name
        assert getattr(jaxlite, name) is not None
    from jaxlite import pmap, shard_map  # noqa: F401
    from jaxlite.numpy import fft, linalg

    assert {"fft", "linalg"} <= set(dir(jnp)) and jnp.linalg is linalg and jnp.fft is fft
    assert "linalg" in dir(jaxlite.lax) and jaxlite.lax.linalg.cholesky is not None
    assert "visualize_array_sharding" in dir(jaxlite.debug)
    for mod in (jaxlite, jnp, jaxlite.lax, jaxlite.debug):
        with pytest.raises(AttributeError, match="no_such_name"):
            mod.no_such_name  # noqa: B018


def test_missing_names_say_not_implemented_only_once_the_alias_is_installed():
    # Looking up jaxlite.install_as_jax imports its module but installs nothing: missing
    # names keep Python's own message until install_as_jax() runs.
    code = (
        "import jaxlite\n"
        "jaxlite.install_as_jax\n"
        "def msg(f):\n"
        "    try:\n"
        "        f()\n"
        "    except AttributeError as e:\n"
        "        return str(e)\n"
        "print(msg(lambda: jaxlite.lax.nope))\n"
        "print(msg(lambda: jaxlite.numpy.nope))\n"
        "jaxlite.install_as_jax()\n"
        "print(msg(lambda: jaxlite.lax.nope))\n"
    )
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=180, check=True,
    ).stdout.splitlines()
    assert out[0] == "module 'jaxlite.lax' has no attribute 'nope'"
    assert out[1] == "module 'jaxlite.numpy' has no attribute 'nope'"
    assert out[2].startswith("jax.lax.nope is not implemented in jaxlite")
