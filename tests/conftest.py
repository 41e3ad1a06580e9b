"""Shared pytest set-up.

Oracle mode: ``JAXLITE_ORACLE=jax pytest tests/...`` runs the same test files against real
JAX by aliasing the ``jaxlite`` modules to ``jax`` ones. It is how a test is shown to assert
JAX's behaviour. Tests of behaviour that deliberately goes beyond JAX carry the
``jaxlite_only`` marker and are skipped in oracle mode (and only there).

Checked mode: ``JAXLITE_ENABLE_CHECKS=1 pytest tests/...`` runs the tests with
``jax_enable_checks`` on, so every jaxpr a pass produces is type-checked
(``core.ir.check_jaxpr``); tests/test_enable_checks.py runs a large part of the suite so.
"""

import os
import sys

import pytest

# tests/ is a package (tests/__init__.py), so that a library installing a top-level ``tests``
# package into site-packages (pgx's wheel does) cannot hide this one from ``from tests...``
# imports; its own directory stays importable for ``from helpers import ...``.
_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)

ORACLE = os.environ.get("JAXLITE_ORACLE", "") == "jax"
# The Numba tier compiles hot loops in a background thread; the suite runs without it unless
# asked (JAXLITE_NATIVE=auto|always), so its timing and CPU use stay deterministic.
# tests/compile/test_native.py switches it on where it is under test.
os.environ.setdefault("JAXLITE_NATIVE", "off")
CHECKS = os.environ.get("JAXLITE_ENABLE_CHECKS", "") == "1"

if ORACLE:
    import jax
    import jax.debug
    import jax.dtypes
    import jax.errors
    import jax.experimental
    import jax.lax
    import jax.nn
    import jax.numpy
    import jax.random
    import jax.scipy.special
    import jax.tree_util

    jax.config.update("jax_platforms", "cpu")
    for _name in [
        "",
        ".experimental",
        ".numpy",
        ".lax",
        ".debug",
        ".tree_util",
        ".errors",
        ".dtypes",
        ".nn",
        ".random",
        ".scipy",
        ".scipy.special",
    ]:
        sys.modules["jaxlite" + _name] = sys.modules["jax" + _name]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "jaxlite_only: behaviour where jaxlite deliberately goes beyond JAX"
    )


# Files of long tests (10-60 s of CPU each: subprocesses running library programs on both
# engines, the checked-mode run, the benchmark smoke run, odeint against JAX) run first.
# pytest-xdist hands the last tests of the collection out a few at a time, and the root-level
# files come last: one of these handed to a worker at the end left the other worker idle.
LONG_FIRST = (
    "tests/ecosystem/",
    "tests/fuzz/",
    "tests/test_benchmarks_smoke.py",
    "tests/test_enable_checks.py",
    "tests/test_examples.py",
    "tests/test_ode.py",
)


def pytest_collection_modifyitems(config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(LONG_FIRST))  # stable
    if not ORACLE:
        return
    skip = pytest.mark.skip(reason="jaxlite-only behaviour (oracle run against JAX)")
    for item in items:
        if "jaxlite_only" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _reset_x64():
    """Every test starts and ends with x64 disabled, whatever it changed."""
    import jaxlite

    jaxlite.config.update("jax_enable_x64", False)
    if CHECKS:
        jaxlite.config.update("jax_enable_checks", True)
    yield
    jaxlite.config.update("jax_enable_x64", False)


_CALLBACK_LOGGERS = ("jax", "jax._src.callback", "jax._src.debugging")


@pytest.fixture(autouse=True)
def _restore_callback_loggers():
    """The callback loggers' levels are restored after each test: the callback fuzzer
    (tests/fuzz/cb_run.namespaces) quiets C2's ERROR records for its own runs, and a test
    that ran before tests/callbacks' C2/B8 checks in the same worker silenced them."""
    import logging

    loggers = [logging.getLogger(n) for n in _CALLBACK_LOGGERS]
    levels = [lg.level for lg in loggers]
    yield
    for lg, level in zip(loggers, levels):
        if lg.level != level:
            lg.setLevel(level)
