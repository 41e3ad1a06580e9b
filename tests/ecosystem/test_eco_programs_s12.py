"""Library programs of session 12's hunt (``eco_programs_s12.py``) give the same pytree
paths, dtypes, shapes and values (float32 tolerance) on jaxlite-as-jax as on JAX. Both
engines run every program in one fresh interpreter each, in parallel. A program whose
library is not installed is skipped."""

import importlib.util
import os

import numpy as np
import pytest

from tests.ecosystem._two_engines import run_both
from tests.ecosystem.eco_programs_s12 import PROGRAMS

pytestmark = pytest.mark.jaxlite_only  # compares jaxlite with the real JAX itself

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "eco_programs_s12.py")


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
        scale = max(float(np.max(np.abs(want))) if want.size else 0.0, 1.0)
        np.testing.assert_allclose(
            np.asarray(got, np.float64), want, rtol=1e-5, atol=1e-6 * scale, err_msg=f"{path}"
        )
