"""Session 20: JAXopt 0.8.5 (its README example and its own test suite) run with jaxlite
installed as ``jax``; each jaxlite-only failure reduced here to plain jax code. Expected
behaviour is JAX 0.10.2's (the file passes in oracle mode, ``JAXLITE_ORACLE=jax``).

* ``jax._src.interpreters.ad.CustomVJPException`` read as an attribute after ``import
  jax`` (jaxopt's ``eq_qp_test`` catches the error of differentiating a ``custom_vjp``
  with respect to a closed-over value so): JAX imports its interpreters at start-up;
  jaxlite's ``jax._src.interpreters`` package loaded a submodule only on ``import``, so
  the ``except`` clause itself raised ``AttributeError``. Submodules of the compatibility
  packages now load on attribute access, as the top-level ``jax._src`` already did.
"""

import os
import subprocess
import sys

from tests.conftest import ORACLE

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(code: str) -> subprocess.CompletedProcess:
    prefix = "" if ORACLE else "import jaxlite; jaxlite.install_as_jax()\n"
    env = dict(os.environ, JAX_PLATFORMS="cpu", PYTHONPATH=_ROOT)
    return subprocess.run(
        [sys.executable, "-c", prefix + code], capture_output=True, text=True, env=env,
        timeout=300,
    )  # fmt: skip


def test_private_interpreters_ad_read_as_attribute():
    code = (
        "import jax, jax.numpy as jnp\n"
        "exc = jax._src.interpreters.ad.CustomVJPException\n"
        "assert issubclass(exc, Exception)\n"
        "assert jax._src.state.types.AbstractRef is jax._src.state.AbstractRef\n"
        "assert exc.__name__ == 'CustomVJPException'\n"
        "print('ok')\n"
    )
    out = _run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
