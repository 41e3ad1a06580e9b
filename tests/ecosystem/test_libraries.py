"""Third-party JAX libraries run on jaxlite with the same numbers as on JAX (issue 14).

Each library's README quick-start (``quickstarts.py``) runs in a fresh interpreter after
``jaxlite.install_as_jax()``, and again on the real JAX; values must agree to 1e-5. The two
interpreters run in parallel, one pair for each group of up to ``GROUP_SIZE`` libraries (the
libraries of a group share it, to keep start-up cost low; the groups keep each JAX
interpreter, which compiles every quick start with XLA, well inside its time limit), once per
test session: pytest-xdist workers share a group's records.
A library that is not installed is skipped (install them with ``pip install -e
".[ecosystem]"`` then ``pip install --no-deps -r tests/ecosystem/requirements-libs.txt``).
"""

import importlib.util
import os

import numpy as np
import pytest

from tests.ecosystem._two_engines import run_both_once

pytestmark = pytest.mark.jaxlite_only  # compares jaxlite with the real JAX itself

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "quickstarts.py")

# quick-start name -> the distribution's import name(s) that must be present
LIBRARIES = {
    "optax": ["optax"],
    "equinox": ["equinox"],
    "flax": ["flax"],
    "chex": ["chex"],
    "jax_tqdm": ["jax_tqdm"],
    "distrax": ["distrax", "tensorflow_probability"],
    "diffrax": ["diffrax"],
    "jaxtyping": ["jaxtyping"],
    "lineax": ["lineax"],
    "optimistix": ["optimistix"],
    "numpyro": ["numpyro", "multipledispatch"],
    "blackjax": ["blackjax", "optax"],
    "jaxopt": ["jaxopt"],
    "einops": ["einops"],
    "haiku": ["haiku", "optax"],
    "jraph": ["jraph"],
    "pix": ["dm_pix"],
    "rlax": ["rlax", "optax", "distrax", "dm_env"],
    "gymnax": ["gymnax", "gymnasium", "matplotlib"],
    "evosax": ["evosax", "flax", "optax", "matplotlib"],
    "mctx": ["mctx", "chex"],
    "flashbax": ["flashbax", "chex", "flax"],
    "pgx": ["pgx", "svgwrite"],
}


def _installed(lib: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in LIBRARIES[lib])


INSTALLED = [lib for lib in LIBRARIES if _installed(lib)]
# 5: a JAX interpreter compiling seven quick starts (haiku ... mctx) ran past the 600 s limit
# of _two_engines on the loaded two-core machine.
GROUP_SIZE = 5
GROUPS = [tuple(INSTALLED[i : i + GROUP_SIZE]) for i in range(0, len(INSTALLED), GROUP_SIZE)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    done: dict = {}

    def of(lib: str) -> dict:  # each group runs once per session, when first needed
        group = next(g for g in GROUPS if lib in g)
        if group not in done:
            done[group] = run_both_once(SCRIPT, list(group), "lib", tmp_path_factory)
        return done[group]

    return of


def _flat(values) -> np.ndarray:
    parts = [np.ravel(np.asarray(v, dtype=np.float64)) for v in values]
    return np.concatenate(parts) if parts else np.zeros(0)


@pytest.mark.parametrize("lib", list(LIBRARIES))
def test_quickstart_matches_jax(lib, runs):
    if lib not in INSTALLED:
        pytest.skip(f"{lib} is not installed (see tests/ecosystem/requirements-libs.txt)")
    runs = runs(lib)
    ours = runs["jaxlite"].get(lib)
    assert ours is not None, f"no result for {lib}"
    assert "error" not in ours, f"{lib} failed on jaxlite:\n{ours['error']}"
    if "jax" not in runs:
        pytest.skip("real JAX is not installed: ran on jaxlite without a reference")
    ref = runs["jax"][lib]
    assert "error" not in ref, f"{lib} failed on JAX itself:\n{ref['error']}"
    assert ours["values"].keys() == ref["values"].keys()
    for key, expected in ref["values"].items():
        got = _flat(ours["values"][key])
        want = _flat(expected)
        assert got.shape == want.shape, (lib, key, got.shape, want.shape)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"{lib}: {key}")
