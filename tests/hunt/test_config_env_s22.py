"""Session 22: flags start from their environment variables, as in JAX. gymnax's tests (and
many libraries' CI) run with ``JAX_ENABLE_X64=1``; JAX reads each flag's starting value from
the variable of its name in capitals, at import (booleans spelled y/yes/t/true/on/1 or
n/no/f/false/off/0, any case; an invalid value is a ``ValueError`` at import). jaxlite read
none of them, so such a run silently stayed in 32-bit mode. Each case starts a fresh
interpreter per engine (JAX's answers where it is installed, else the expected values)."""

import importlib.util
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAS_JAX = importlib.util.find_spec("jax") is not None and importlib.util.find_spec("jaxlib")

FLAGS = [
    "jax_enable_x64",
    "jax_debug_nans",
    "jax_disable_jit",
    "jax_numpy_rank_promotion",
    "jax_default_matmul_precision",
    "jax_threefry_partitionable",
    "jax_traceback_filtering",
    "jax_random_seed_offset",
]

PROGRAM = """
import json, sys
try:
    import {mod} as j
    import {mod}.numpy as jnp
    values = {{n: getattr(j.config, n) for n in {flags!r}}}
    values["default_float"] = str(jnp.asarray(1.0).dtype)
    print(json.dumps({{"values": values}}))
except Exception as e:
    print(json.dumps({{"error": [type(e).__name__, str(e)]}}))
"""


def _run(mod: str, env: dict) -> dict:
    full = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    full.update(env, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(mod=mod, flags=FLAGS)],
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


CASES = {
    "x64_and_nans": (
        {"JAX_ENABLE_X64": "1", "JAX_DEBUG_NANS": "True"},
        {"jax_enable_x64": True, "jax_debug_nans": True, "default_float": "float64"},
    ),
    "spellings_and_enums": (
        {
            "JAX_DISABLE_JIT": "on",
            "JAX_NUMPY_RANK_PROMOTION": "raise",
            "JAX_DEFAULT_MATMUL_PRECISION": "highest",
            "JAX_THREEFRY_PARTITIONABLE": "No",
            "JAX_TRACEBACK_FILTERING": "off",
            "JAX_RANDOM_SEED_OFFSET": "7",
        },
        {
            "jax_disable_jit": True,
            "jax_numpy_rank_promotion": "raise",
            "jax_default_matmul_precision": "highest",
            "jax_threefry_partitionable": False,
            "jax_traceback_filtering": "off",
            "jax_random_seed_offset": 7,
        },
    ),
    "false_spelling": ({"JAX_ENABLE_X64": "f"}, {"jax_enable_x64": False}),
}


@pytest.mark.parametrize("name", list(CASES))
def test_flags_start_from_the_environment(name):
    env, expected = CASES[name]
    ours = _run("jaxlite", env)
    assert "values" in ours, ours
    for flag, value in expected.items():
        assert ours["values"][flag] == value, (flag, ours["values"][flag])
    if HAS_JAX:
        ref = _run("jax", env)
        assert ours == ref


ERRORS = {
    "bad_truth_value": (
        {"JAX_ENABLE_X64": "bogus"},
        "invalid truth value 'bogus' for environment 'JAX_ENABLE_X64'",
    ),
    "empty_truth_value": ({"JAX_DEBUG_NANS": ""}, "invalid truth value '' for environment"),
    "bad_enum": (
        {"JAX_NUMPY_RANK_PROMOTION": "bogus"},
        'Invalid value "bogus" for JAX flag jax_numpy_rank_promotion',
    ),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_invalid_environment_values_raise_at_import(name):
    env, message = ERRORS[name]
    ours = _run("jaxlite", env)
    assert ours.get("error", [None])[0] == "ValueError", ours
    assert message in ours["error"][1]
    if HAS_JAX:
        ref = _run("jax", env)
        assert ref["error"] == ours["error"]
