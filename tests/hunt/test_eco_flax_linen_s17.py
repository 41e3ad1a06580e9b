"""Session 17: flax 0.12.8's own ``tests/linen`` run with jaxlite installed as ``jax``;
each jaxlite-only failure reduced here to plain jax/jnp. Expected values are JAX 0.10.2's
(the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax.config.parse_flags_with_absl()`` (every flax test module calls it at import): jaxlite
  had no such method (``AttributeError: Unrecognized config option``), so no module of the
  suite could be collected. JAX sets its flags from the ``--jax...`` arguments of
  ``sys.argv`` before the first ``--``, once per process.
* ``jax.nn.initializers.variance_scaling`` with a complex dtype (flax's ``Dense`` with
  ``param_dtype=complex64``): jaxlite raised NotImplementedError. JAX draws ``normal`` as
  the complex normal, ``uniform`` uniform on a disk and ``truncated_normal`` with the
  modulus cut at 2, each scaled to the requested variance.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import ORACLE
from tests.hunt.oracle import same

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ------------------------------------------------------------------ parse_flags_with_absl
def _flags_after(argv):
    """The flags a fresh process sees after ``parse_flags_with_absl`` with ``argv``."""
    engine = "jax" if ORACLE else "jaxlite"
    code = (
        f"import sys; sys.argv = ['prog'] + {argv!r}; import {engine} as jax\n"
        "jax.config.parse_flags_with_absl()\n"
        "c = jax.config\n"
        "print(c.jax_enable_x64, c.jax_debug_nans, c.jax_numpy_rank_promotion,"
        " c.jax_default_matmul_precision)\n"
        "jax.config.update('jax_enable_x64', False)\n"
        "jax.config.parse_flags_with_absl()\n"  # a second call changes nothing
        "print(c.jax_enable_x64)\n"
    )
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120
    )


@pytest.mark.parametrize(
    "argv, first",
    [
        ([], "False False allow None"),
        (["--jax_enable_x64", "-n", "2", "tests/x.py"], "True False allow None"),
        (["--jax_enable_x64=true", "--jax_debug_nans=1"], "True True allow None"),
        (["--jax_enable_x64=0", "--jax_numpy_rank_promotion=raise"], "False False raise None"),
        (
            ["--jax_default_matmul_precision=highest", "--jax_no_such_flag=3"],
            "False False allow highest",
        ),
        (["--jax_enable_x64=T", "--", "--jax_debug_nans"], "True False allow None"),
    ],
    ids=[
        "none",
        "bare-bool",
        "bool-values",
        "false-and-enum",
        "str-and-unknown",
        "stops-at-dashes",
    ],
)
def test_parse_flags_with_absl(argv, first):
    run = _flags_after(argv)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [first, "False"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--jax_enable_x64=maybe"], "flag --jax_enable_x64=maybe: "),
        (["--jax_numpy_rank_promotion"], "Missing value for flag --jax_numpy_rank_promotion"),
    ],
    ids=["bad-bool", "missing-value"],
)
def test_parse_flags_with_absl_bad_values(argv, message):
    run = _flags_after(argv)
    assert run.returncode != 0 and message in run.stderr, run.stderr


# ------------------------------------------------------------------ complex variance_scaling
@pytest.mark.parametrize("dist", ["truncated_normal", "normal", "uniform"])
@pytest.mark.parametrize("mode", ["fan_in", "fan_avg"])
def test_complex_variance_scaling(dist, mode):
    def build(m):
        init = m.jx.nn.initializers.variance_scaling(2.0, mode, dist)
        return init(m.jx.random.key(3), (40, 50), m.jnp.complex64)

    out = same(build, rtol=2e-6)
    assert out.dtype == np.complex64 and out.shape == (40, 50)
    n = 40 if mode == "fan_in" else 45
    z = np.asarray(out)
    assert abs(np.mean(np.abs(z) ** 2) - 2.0 / n) < 0.15 * 2.0 / n  # the variance asked
    assert abs(np.mean(z)) < 0.02 and np.std(np.angle(z)) > 1.5  # centred, all angles
    if dist == "uniform":  # a disk of radius sqrt(2 * variance)
        assert np.abs(z).max() <= np.sqrt(2 * 2.0 / n) * (1 + 1e-6)
    if dist == "truncated_normal":  # cut at twice the pre-truncation deviation
        assert np.abs(z).max() <= 2 * np.sqrt(2.0 / n) / 0.95311164380491208 * (1 + 1e-6)


@pytest.mark.parametrize(
    "name", ["glorot_uniform", "glorot_normal", "lecun_normal", "he_uniform", "he_normal"]
)
def test_complex_named_initializers(name):
    out = same(
        lambda m: getattr(m.jx.nn.initializers, name)()(
            m.jx.random.key(1), (6, 4), m.jnp.complex64
        ),
        rtol=2e-6,
    )
    assert out.dtype == np.complex64 and out.shape == (6, 4)
