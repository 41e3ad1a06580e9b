"""``jax._src`` under ``install_as_jax()``: the private JAX names third-party libraries use.

Kept apart from jaxlite's own ``_src``: every module here only re-exports jaxlite objects
(or tiny adapters) under the private JAX path a library imports them from. Each name is
listed with the library that needs it; docs/ecosystem.md has the table.
"""

import importlib as _importlib


def __getattr__(name: str):
    # ``jax._src.<module>`` read as an attribute after ``import jax`` (chex reads
    # ``jax._src.xla_bridge._backends`` so): JAX imports these at start-up; here the module
    # loads on first use. A name with no module here says that jaxlite lacks it.
    if not (name.startswith("__") and name.endswith("__")):
        try:
            return _importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    from jaxlite._src.jax_alias import not_implemented_message

    raise AttributeError(not_implemented_message(f"jax._src.{name}"))
