"""Public ``jaxlite.scipy`` (mirrors ``jax.scipy``). Its submodules load at first use, as in
JAX (``jaxlite.scipy.stats`` alone is 14 modules): ``import jaxlite`` stays fast."""

from jaxlite._src.util import lazy_submodules

__getattr__, __dir__ = lazy_submodules(
    __name__,
    [
        "cluster",
        "fft",
        "integrate",
        "interpolate",
        "linalg",
        "ndimage",
        "optimize",
        "signal",
        "sparse",
        "spatial",
        "special",
        "stats",
    ],
)
del lazy_submodules
