"""``jax_enable_checks``: every jaxpr a pass produces is type-checked (core.ir.check_jaxpr).

A large part of the suite (the transformation corpus, control flow, grad, partial eval,
transposition) runs again in checked mode in a subprocess; the whole suite can be run so
with ``JAXLITE_ENABLE_CHECKS=1 python -m pytest`` (tests/conftest.py).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import jaxlite as jax
import jaxlite.lax as lax
import jaxlite.numpy as jnp

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHECKED_PART = [
    "tests/test_composition.py",
    "tests/control_flow",
    "tests/interpreters/test_grad.py",
    "tests/interpreters/test_partial_eval.py",
    "tests/interpreters/test_transpose.py",
    "tests/interpreters/test_vmap_corpus.py",
]


@pytest.mark.jaxlite_only
def test_a_large_part_of_the_suite_passes_in_checked_mode():
    if os.environ.get("JAXLITE_ENABLE_CHECKS") == "1":
        pytest.skip("already running in checked mode")
    env = dict(os.environ, JAXLITE_ENABLE_CHECKS="1")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *CHECKED_PART],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert " passed" in proc.stdout


@pytest.mark.jaxlite_only
def test_checked_mode_catches_an_ill_typed_jaxpr():
    from jaxlite._src.core.avals import ShapedArray
    from jaxlite._src.core.errors import JaxprTypeError
    from jaxlite._src.core.ir import ClosedJaxpr, Jaxpr, JaxprEqn, Var
    from jaxlite._src.ops.elementwise import sin_p

    x = Var(ShapedArray((3,), np.float32))
    wrong = Var(ShapedArray((4,), np.float32))  # sin keeps the shape
    eqn = JaxprEqn(sin_p, [x], [wrong], {}, frozenset())
    jaxpr = Jaxpr([], [x], [wrong], [eqn])
    ClosedJaxpr(jaxpr, [])  # unchecked by default
    with _checks():
        with pytest.raises(JaxprTypeError, match="does not match"):
            ClosedJaxpr(jaxpr, [])


class _checks:
    """jax_enable_checks on inside the block."""

    def __enter__(self):
        jax.config.update("jax_enable_checks", True)

    def __exit__(self, *exc):
        jax.config.update("jax_enable_checks", False)


def test_bitcast_of_a_scalar_keeps_its_shape():
    # Found by checked mode: constant folding met a (1,)-shaped value for a scalar aval.
    y = lax.bitcast_convert_type(np.float32(-2.0), np.int32)
    assert y.shape == () and int(y) == int(np.float32(-2.0).view(np.int32))
    assert bool(jnp.signbit(-2.0)) and jax.jit(lambda v: jnp.signbit(v))(-2.0)
