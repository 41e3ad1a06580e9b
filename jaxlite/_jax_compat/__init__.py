"""``jax._src`` under ``install_as_jax()``: the private JAX names third-party libraries use.

Kept apart from jaxlite's own ``_src``: every module here only re-exports jaxlite objects
(or tiny adapters) under the private JAX path a library imports them from. Each name is
listed with the library that needs it; docs/ecosystem.md has the table.
"""

import importlib as _importlib


def submodule_getattr(package: str):
    """A package's module ``__getattr__`` that imports its submodule ``name`` on first
    attribute access. JAX imports these at start-up, so libraries read
    ``jax._src.<module>`` (and ``jax._src.interpreters.ad``) as attributes after ``import
    jax``; here the module loads on first use. A name with no module here says that
    jaxlite lacks it."""

    def __getattr__(name: str):
        if not (name.startswith("__") and name.endswith("__")):
            try:
                return _importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as e:
                if e.name != f"{package}.{name}":
                    raise
        from jaxlite._src.jax_alias import not_implemented_message

        short = package.replace("jaxlite._jax_compat", "jax._src", 1)
        raise AttributeError(not_implemented_message(f"{short}.{name}"))

    return __getattr__


# chex reads ``jax._src.xla_bridge._backends`` so.
__getattr__ = submodule_getattr(__name__)
