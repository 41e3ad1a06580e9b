"""Library programs of session 13's hunt (``eco_programs_s13.py``) give the same pytree
paths, dtypes, shapes and values (float32 tolerance) on jaxlite-as-jax as on JAX. Both
engines run every program in one fresh interpreter each, in parallel. A program whose
library is not installed is skipped."""

import importlib.util
import os

import pytest

from tests.ecosystem._two_engines import assert_same_program, run_both
from tests.ecosystem.eco_programs_s13 import PROGRAMS

pytestmark = pytest.mark.jaxlite_only  # compares jaxlite with the real JAX itself

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "eco_programs_s13.py")


def _installed(name: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in PROGRAMS[name][1])


INSTALLED = [name for name in PROGRAMS if _installed(name)]


@pytest.fixture(scope="module")
def runs():
    return run_both(SCRIPT, INSTALLED, "name")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_jax(name, runs):
    if name not in INSTALLED:
        pytest.skip(f"{PROGRAMS[name][1]} not installed (tests/ecosystem/requirements-libs.txt)")
    assert_same_program(name, runs)
