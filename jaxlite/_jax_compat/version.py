"""``jax.version`` under ``install_as_jax()``: the JAX API level jaxlite implements.

Libraries compare ``jax.__version__`` / ``jax.__version_info__`` / ``jax.version`` against
JAX releases to pick code paths; jaxlite answers with the release whose public API it
mirrors. jaxlite's own version is ``jaxlite.__version__``.
"""

__version__ = "0.10.2"
__version_info__ = (0, 10, 2)
_version = __version__
# jaxlib is not used by jaxlite; libraries that check a minimum jaxlib see JAX's own pins.
_minimum_jaxlib_version = __version__
_minimum_jaxlib_version_info = __version_info__


def _version_as_tuple(version_str: str) -> tuple:
    return tuple(int(i) for i in version_str.split(".") if i.isdigit())
