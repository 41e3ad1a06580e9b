"""Library programs of the differential hunts (``eco_programs_s12.py``, ``eco_programs_s13.py``:
sessions 12 and 13) and the flax.nnx programs (``eco_programs_nnx.py``) give the same pytree
paths, dtypes, shapes and values (float32 tolerance) on jaxlite-as-jax as on JAX. Both
engines run every program of a hunt in one fresh interpreter each, in parallel, once per test
session (pytest-xdist workers share the records). A program whose library is not installed
is skipped."""

import importlib.util
import os

import pytest

from tests.ecosystem import eco_programs_nnx, eco_programs_s12, eco_programs_s13
from tests.ecosystem._two_engines import assert_same_program, run_both_once

pytestmark = pytest.mark.jaxlite_only  # compares jaxlite with the real JAX itself

HERE = os.path.dirname(os.path.abspath(__file__))
HUNTS = {
    "s12": eco_programs_s12.PROGRAMS,
    "s13": eco_programs_s13.PROGRAMS,
    "nnx": eco_programs_nnx.PROGRAMS,
}


def _installed(programs: dict, name: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in programs[name][1])


INSTALLED = {h: [n for n in progs if _installed(progs, n)] for h, progs in HUNTS.items()}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    done: dict = {}

    def of(hunt: str):  # each hunt's script runs once per session, when first needed
        if hunt not in done:
            script = os.path.join(HERE, f"eco_programs_{hunt}.py")
            done[hunt] = run_both_once(script, INSTALLED[hunt], "name", tmp_path_factory)
        return done[hunt]

    return of


CASES = [(h, n) for h, progs in HUNTS.items() for n in progs]


@pytest.mark.parametrize("hunt,name", CASES, ids=[f"{h}-{n}" for h, n in CASES])
def test_program_matches_jax(hunt, name, runs):
    if name not in INSTALLED[hunt]:
        pytest.skip(f"{HUNTS[hunt][name][1]} not installed (tests/ecosystem/requirements-libs.txt)")
    assert_same_program(name, runs(hunt))
