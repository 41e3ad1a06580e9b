"""The public ``jaxlite.numpy`` namespace: an explicit re-export list, and no name that
``jax.numpy`` lacks.

``jaxlite/numpy/__init__.py`` lists every name as ``from <topic module> import name as
name`` (no star import), so nothing internal (``np``, ``dtypes``, helpers) leaks into it.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

INIT = pathlib.Path(__file__).parents[2] / "jaxlite" / "numpy" / "__init__.py"

# Names of jaxlite.numpy that jax.numpy does not have, each with the reason. Keep it short:
# a name here is a name users of jax.numpy cannot write.
EXTRA_NAMES: dict[str, str] = {}


def _public(module) -> set[str]:
    return {n for n in dir(module) if not n.startswith("_")}


def test_init_is_an_explicit_reexport_list():
    tree = ast.parse(INIT.read_text())
    for node in tree.body:
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # the docstring
        if isinstance(node, ast.Assign):
            # The one hook for submodules loaded at first access (jnp.fft, jnp.linalg).
            target = ast.unparse(node.targets[0])
            assert target == "(__getattr__, __dir__)", f"line {node.lineno}: {target}"
            assert ast.unparse(node.value.func) == "_lazy_submodules", node.lineno
            continue
        if isinstance(node, ast.ImportFrom) and [
            (a.name, a.asname) for a in node.names
        ] == [("lazy_submodules", "_lazy_submodules")]:
            continue  # the helper that builds the hook, private to the module
        assert isinstance(node, ast.ImportFrom), (
            f"line {node.lineno}: jaxlite/numpy/__init__.py holds only re-exports"
        )
        for alias in node.names:
            assert alias.name != "*", f"line {node.lineno}: star import"
            assert alias.asname == alias.name, (
                f"line {node.lineno}: write `{alias.name} as {alias.name}` (an explicit re-export)"
            )


def test_no_name_that_jax_numpy_lacks():
    jnp_ref = pytest.importorskip("jax.numpy")
    import jaxlite.numpy as jnp

    extra = _public(jnp) - _public(jnp_ref) - set(EXTRA_NAMES)
    assert not extra, f"jaxlite.numpy has names jax.numpy lacks: {sorted(extra)}"


def test_documented_extras_exist():
    import jaxlite.numpy as jnp

    assert all(hasattr(jnp, n) for n in EXTRA_NAMES)
