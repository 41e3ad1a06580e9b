"""``jaxlite.install_as_jax()`` and ``python -m jaxlite run`` (issue 14).

Each check runs in a fresh interpreter (the alias is process-wide); checks are grouped into
few subprocesses to keep start-up time small.
"""

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

pytestmark = pytest.mark.jaxlite_only


def run_python(args, tmp_path=None, timeout=120):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path or ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return proc


ALIAS_SCRIPT = r"""
import sys
import jaxlite
jaxlite.install_as_jax()
jaxlite.install_as_jax()  # idempotent
import jax
import jax.numpy as jnp
from jax import lax
import jax.tree_util
assert jax.numpy is jaxlite.numpy and jnp is jaxlite.numpy and lax is jaxlite.lax
assert jax.tree_util is jaxlite.tree_util
assert jax.jit is jaxlite.jit and jax.Array is jaxlite.Array
assert jax.__version__ == "0.10.2", jax.__version__
assert jax.__version_info__ == (0, 10, 2)
import jax.version
assert jax.version.__version__ == "0.10.2"
import jax.lib  # JAX 0.10.2's holds only the jaxlib version (equinox's tests import it)
assert jax.lib.__version__ == "0.10.2"
assert jaxlite.__version__ != "0.10.2"
y = jax.jit(lambda x: jnp.sin(x) * 2)(1.0)
assert isinstance(y, jaxlite.Array)
# The real JAX is installed next to jaxlite, yet nothing of it was loaded.
real = [m for m, mod in sys.modules.items()
        if (m == "jaxlib" or m.startswith("jaxlib.") or m.startswith("jax.")
            or m == "jax") and "site-packages" in (getattr(mod, "__file__", None) or "")]
assert not real, real
for expr in ["jax.not_a_name", "jnp.not_a_name", "lax.not_a_name", "jax.debug.not_a_name",
             "jax.scipy.not_a_name", "jnp.linalg.not_a_name", "lax.linalg.not_a_name",
             "jax.random.not_a_name", "jax.nn.not_a_name"]:
    try:
        eval(expr)
    except AttributeError as e:
        assert "not implemented in jaxlite" in str(e) and expr.split(".")[-1] in str(e), e
    else:
        raise AssertionError(expr)
try:
    import jax.not_a_module
except ModuleNotFoundError as e:
    assert "jax.not_a_module is not implemented in jaxlite" in str(e), e
else:
    raise AssertionError("import jax.not_a_module")
try:
    from jax import not_a_name  # noqa: F401
except ImportError as e:
    assert "not_a_name" in str(e), e
else:
    raise AssertionError("from jax import not_a_name")
import jax.test_util  # jaxlite's own, or the compat fallback (chex imports it)
bad = jax.custom_jvp(lambda x: jnp.sin(x))
bad.defjvp(lambda p, t: (jnp.sin(p[0]), 2.0 * t[0]))
try:
    jax.test_util.check_grads(bad, (jnp.float32(0.5),), 1, modes=("fwd",))
except AssertionError:
    pass
else:
    raise AssertionError("check_grads missed a wrong jvp")
jax.test_util.check_grads(lambda x: jnp.sin(x) * x, (jnp.float32(0.5),), 2)
print("ALIAS OK")
"""


def test_alias_gives_jaxlite_modules():
    proc = run_python(["-c", ALIAS_SCRIPT])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ALIAS OK" in proc.stdout


def test_install_after_real_jax_fails_loudly():
    pytest.importorskip("jax")
    code = "import jax\nimport jaxlite\njaxlite.install_as_jax()\n"
    proc = run_python(["-c", code])
    assert proc.returncode != 0
    assert "RuntimeError" in proc.stderr and "before the real JAX" in proc.stderr


def test_command_line_runs_unmodified_jax_script(tmp_path):
    helper = tmp_path / "helper_mod.py"
    helper.write_text("import jax\nENGINE = jax.numpy.__name__\n")
    script = tmp_path / "script.py"
    script.write_text(
        textwrap.dedent(
            """
            import sys
            import jax
            import jax.numpy as jnp
            import helper_mod  # the script's directory is on sys.path, as with `python x.py`

            print("argv", sys.argv[1:], __name__)
            print("engine", helper_mod.ENGINE, jax.__version__)
            print("grad", jax.grad(lambda x: jnp.sum(x**2))(jnp.arange(3.0)))
            """
        )
    )
    proc = run_python(["-m", "jaxlite", "run", str(script), "a", "--b"], tmp_path=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "argv ['a', '--b'] __main__" in out
    assert "engine jaxlite.numpy 0.10.2" in out
    assert "grad [0. 2. 4.]" in out
    usage = run_python(["-m", "jaxlite"])
    assert usage.returncode == 2 and "python -m jaxlite run" in usage.stderr
