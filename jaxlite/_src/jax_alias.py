"""``install_as_jax()``: make ``import jax`` give jaxlite, for code written against JAX.

Design:

* A meta-path finder, first on ``sys.meta_path``, answers every import of ``jax`` and
  ``jax.<name>`` before the path-based finders could find a real JAX on disk. ``jax`` itself
  is a small root module that forwards attribute access to ``jaxlite`` but reports the JAX
  API level jaxlite implements (``__version__`` 0.10.2), so libraries take their modern code
  paths while ``jaxlite.__version__`` stays jaxlite's own. ``jax.<name>`` is the *same
  module object* as ``jaxlite.<name>`` (so ``jax.numpy is jaxlite.numpy``), except
  ``jax._src.<name>``, which is ``jaxlite._jax_compat.<name>``: the few private JAX names
  third-party libraries reach for, kept apart from jaxlite's own ``_src``.
* A name jaxlite lacks fails loudly: an import of a missing ``jax.<module>`` raises
  ``ModuleNotFoundError`` and a missing attribute of an aliased module raises
  ``AttributeError``, both saying the name is not implemented in jaxlite and where to ask.
* Two engines in one process are never silent: ``install_as_jax()`` after the real ``jax``
  was imported raises ``RuntimeError``.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types

import jaxlite
from jaxlite._jax_compat import version as _jax_version

__all__ = ["adopt", "install_as_jax", "is_installed", "not_implemented_message"]

_ASK = "ask for it (with the library and code that needs it) in the jaxlite issue tracker"

# Module names whose alias target is not simply ``jaxlite.<rest>``.
_SPECIAL_TARGETS = {
    "jax.version": "jaxlite._jax_compat.version",
    "jax.lib": "jaxlite._jax_compat.lib",
    "jax._src": "jaxlite._jax_compat",
    "jax.extend.core.primitives": "jaxlite.extend.core_primitives",
}


# Used only while jaxlite has no module of its own for the name.
_FALLBACK_TARGETS = {"jax.test_util": "jaxlite._jax_compat.test_util"}


def not_implemented_message(name: str) -> str:
    """The error text for a JAX name jaxlite lacks."""
    return (
        f"{name} is not implemented in jaxlite (which provides JAX "
        f"{_jax_version.__version__}'s API on NumPy); {_ASK}."
    )


def _target_name(fullname: str) -> str:
    """The jaxlite module behind ``jax.<...>``."""
    if fullname in _SPECIAL_TARGETS:
        return _SPECIAL_TARGETS[fullname]
    if fullname.startswith("jax._src."):
        return "jaxlite._jax_compat." + fullname[len("jax._src.") :]
    return "jaxlite" + fullname[len("jax") :]


def _missing_attribute(modname: str):
    def __getattr__(name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {modname!r} has no attribute {name!r}")
        raise AttributeError(not_implemented_message(f"{modname}.{name}"))

    return __getattr__


def _alias_module(module: types.ModuleType, alias: str) -> None:
    # Missing attributes of an aliased module say that jaxlite lacks them; a module's own
    # ``__getattr__`` (lazy attributes) is kept.
    if "__getattr__" not in module.__dict__:
        module.__getattr__ = _missing_attribute(alias)


def adopt(module: types.ModuleType) -> None:
    """Give a jaxlite module loaded outside the finder (a submodule loaded at first access,
    ``jnp.linalg``) what the finder gives the modules it loads."""
    _alias_module(module, "jax" + module.__name__[len("jaxlite") :])


def _make_root() -> types.ModuleType:
    """The ``jax`` module: forwards to ``jaxlite``, reports JAX's API version."""
    root = types.ModuleType("jax", "jaxlite, installed as ``jax`` by jaxlite.install_as_jax().")
    missing = _missing_attribute("jax")

    def __getattr__(name: str):
        try:
            value = getattr(jaxlite, name)
        except AttributeError:
            if name in getattr(jaxlite, "_DEPRECATED_NAMES", {}):
                raise  # JAX's own message for a name it removed
        else:
            if not isinstance(value, types.ModuleType):
                return value
        if not (name.startswith("__") and name.endswith("__")):
            # A submodule not yet imported (``jax.flatten_util`` after ``import jax``).
            try:
                return importlib.import_module("jax." + name)
            except ModuleNotFoundError as e:
                if e.name != "jax." + name:
                    raise
        return missing(name)

    def __dir__():
        return sorted(set(dir(jaxlite)) | set(root.__dict__))

    root.__getattr__ = __getattr__
    root.__dir__ = __dir__
    root.__path__ = []  # a package: submodules are found by the finder below
    root.__file__ = jaxlite.__file__
    root.__version__ = _jax_version.__version__
    root.__version_info__ = _jax_version.__version_info__
    root.__jaxlite__ = True
    return root


# The finder and loader implement the import protocol's methods (find_spec; create_module,
# exec_module) without subclassing importlib.abc's classes: importing importlib.abc loads
# importlib.resources and pathlib, ~10 ms of `import jaxlite`.
class _Loader:
    def __init__(self, root: types.ModuleType):
        self._root = root

    def create_module(self, spec):
        if spec.name == "jax":
            return self._root
        target = _target_name(spec.name)
        if spec.name in _FALLBACK_TARGETS and importlib.util.find_spec(target) is None:
            target = _FALLBACK_TARGETS[spec.name]
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as e:
            if e.name is not None and target.startswith(e.name):
                raise ModuleNotFoundError(
                    not_implemented_message(spec.name), name=spec.name
                ) from None
            raise
        _alias_module(module, spec.name)
        return module

    def exec_module(self, module):
        pass  # the jaxlite module is already executed


class JaxAliasFinder:
    """Answers imports of ``jax`` and ``jax.*`` with jaxlite's modules."""

    def __init__(self):
        self.root = _make_root()
        self._loader = _Loader(self.root)

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "jax" and not fullname.startswith("jax."):
            return None
        is_pkg = True  # every alias may have submodules; the loader decides
        spec = importlib.machinery.ModuleSpec(fullname, self._loader, is_package=is_pkg)
        return spec


_finder: JaxAliasFinder | None = None


def is_installed() -> bool:
    """Whether ``install_as_jax()`` has run in this process."""
    return _finder is not None


def install_as_jax() -> None:
    """Make ``import jax`` (and every ``jax.*`` module) give jaxlite, process-wide.

    After it, ``import jax``, ``import jax.numpy as jnp``, ``from jax import lax``,
    ``import jax.extend.core`` ... anywhere in the process give jaxlite's modules, also when
    the real JAX is installed: third-party JAX libraries (optax, equinox, ...) then run on
    jaxlite. Under the alias ``jax.__version__`` is the JAX API level jaxlite implements
    (``"0.10.2"``); ``jaxlite.__version__`` is jaxlite's own. Calling it again is a no-op.
    The command-line form is ``python -m jaxlite run script.py [args...]``.

    Raises:
      RuntimeError: if the real ``jax`` (or any ``jax.*`` module) was already imported in
        this process: two engines in one process would silently mix arrays and tracers.
    """
    global _finder
    if _finder is not None:
        return
    already = sorted(m for m in sys.modules if m == "jax" or m.startswith("jax."))
    if already:
        raise RuntimeError(
            "jaxlite.install_as_jax() must run before the real JAX is imported, but "
            f"{already[0]!r} is already imported in this process (two engines in one "
            "process would mix their arrays). Call it first, e.g. at the top of the main "
            "script, or run the script with `python -m jaxlite run script.py`."
        )
    _finder = JaxAliasFinder()
    sys.meta_path.insert(0, _finder)
    sys.modules["jax"] = _finder.root
    _finder.root.__spec__ = _finder.find_spec("jax")
    _finder.root.__loader__ = _finder._loader
